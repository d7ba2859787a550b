//! GPU-CC: the reconfigurable SM with communicating cores (seed 004, spec `gpucc.md`).
//!
//! * [`config`]: the validated configuration and everything derived from it.
//! * [`cr`]: the 128-bit configuration register layout (spec §1.5), shared with the HDL.
//! * [`fifo`]: the operand FIFO with its virtual initial-token prefix (spec §1.4).
//! * [`net`]: the lane network with FIFOs, CRs and mode control, cycle-accurate at every
//!   port of the generated `gpucc_net` Verilog.
//! * [`check`]: an independent scoreboard of the spec §4.3 invariants over the network ports.

pub mod check;
pub mod config;
pub mod cr;
pub mod fifo;
pub mod net;
pub mod traffic;

pub use config::{GpuccConfig, UnitKind};
