//! GPU-CC: the reconfigurable SM with communicating cores (seed 004, spec `gpucc.md`).
//!
//! * [`config`]: the validated configuration and everything derived from it.
//! * [`cr`]: the 128-bit configuration register layout (spec §1.5), shared with the HDL.
//! * [`fifo`]: the operand FIFO with its virtual initial-token prefix (spec §1.4).
//! * [`net`]: the lane network with FIFOs, CRs and mode control, cycle-accurate at every
//!   port of the generated `gpucc_net` Verilog.
//! * [`check`]: an independent scoreboard of the spec §4.3 invariants over the network ports.
//! * [`fp`]: fp32/int32 semantics of the fixed instructions (spec §1.6).
//! * [`fu`]: the core functional unit, strict and pipelined (spec §1.7).
//! * [`lsu`]: the load-store unit with issue pointer and prefetch element (spec §1.8).
//! * [`mem`]: the memory timing model: backing store, L1s, shared DRAM (spec §1.8, §3.1).
//! * [`mapper`]: application graph -> placement -> lanes -> CR words (spec §4.2).
//! * [`apps`]: the convolution and §2.3 graphs, data and reference loops (spec §2).
//! * [`sm`]: one SM in CC mode with its mode driver (spec §1.9).
//! * [`run`]: the chip and `run_app`, the `gpuforge sim` entry point.
//! * [`unit_check`]: the unit-side scoreboard of the spec §4.3 invariants.

pub mod check;
pub mod config;
pub mod cr;
pub mod fifo;
pub mod net;
pub mod traffic;
pub mod fp;
pub mod fu;
pub mod lsu;
pub mod mem;
pub mod mapper;
pub mod apps;
pub mod sm;
pub mod run;
pub mod unit_check;

pub use config::{GpuccConfig, UnitKind};
