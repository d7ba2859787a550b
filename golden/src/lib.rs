//! gpuforge golden models.
//!
//! One source of truth: every block's TOML config deserializes into one validated
//! struct here, and everything derived from it (port widths, tables, CR layouts) is
//! computed here once. The HDL generator (`gpuforge-hdl`) and the co-simulation
//! (`gpuforge-verif`) consume these; this crate depends on neither.
//!
//! Golden models follow a two-phase cycle: `eval` reads only registered state and
//! this cycle's inputs and computes outputs plus the next state; `commit` makes the
//! next state current.

pub mod config;
pub mod gpu;
pub mod gpucc;
pub mod invariant;
pub mod network;
pub mod noc;
