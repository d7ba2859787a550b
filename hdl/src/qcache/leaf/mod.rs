//! The rust-hdl leaves of the Q-cache rate monitor's datapath (spec §1.2, §1.5):
//!
//! * [`bank_events`]: one L2 bank's contribution to the per-cycle event counts
//!   (PRODUCE, CONSUME, SPILL popcounts) and to the producer / consumer domain masks;
//!   the top chains one per bank.
//! * [`window_events`]: the window counters and the footprint Q after the cycle's
//!   events (saturating sums, Q saturating at 0, cycle counters from the window's first
//!   event, the spill onset's `q_max`).
//! * [`rate_cmp`]: the division-free rate comparison `produced·cyc_c` against
//!   `consumed·cyc_p` with the `max >> EQ_TOL_SHIFT` tolerance and the zero-count
//!   terms (README, "a window with production and no consumption"), and the larger and
//!   smaller product for the magnitude.
//! * [`ratio_div`]: the request magnitude register, loaded with a constant step or
//!   computed as `sat8((max << 4) / max(1, min))` by an 8-step restoring division
//!   during the RC_LAT delay.
//!
//! * [`companion`]: the companion blocks' leaves (spec §5): a bank's transition-filter
//!   rule, and the actuators' closest-setting search (scale, one pick per candidate).
//!
//! The register file, the six states and the Table 6.1 policy that uses these leaves
//! are the askama template `templates/qcache/rate_monitor.v`.

pub mod bank_events;
pub mod companion;
pub mod rate_cmp;
pub mod ratio_div;
pub mod window_events;
