//! The OQ's rust-hdl leaf: the per-entry state machine of spec §1.3.4
//! ([`oq_entry_fsm`]). The entry fields, the CPGU and everything config-shaped (entries,
//! Table 1 as prefix functions, the EMN LUT ROM) are the askama template
//! `templates/llc_compute/oq.v`.

pub mod oq_entry_fsm;
