//! The rust-hdl leaves of LLC-Compute: the OQ's per-entry state machine of spec §1.3.4
//! ([`oq_entry_fsm`]) and the SQSR entry's life of spec §1.6.2 ([`sq_entry_fsm`], both
//! SQ variants). The entry fields, queues and everything config-shaped (entries, Table 1
//! as prefix functions, the EMN LUT ROM) are the askama templates in
//! `templates/llc_compute/`.

pub mod oq_entry_fsm;
pub mod sq_entry_fsm;
