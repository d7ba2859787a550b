//! gpuforge co-simulation: the generated Verilog, built by Verilator into a shared
//! library with an askama-rendered shim, run in lockstep with a golden model.
//!
//! * [`verilator`]: tool discovery, build and content-hash cache.
//! * [`rtl`]: the model behind the shim's one-call-per-cycle C ABI.
//! * [`frame`]: packed port frames laid out from the manifest.
//! * [`lockstep`]: the generic runner, mismatch reports and VCD on failure.
//! * One module per block with its port map and stimulus ([`gpucc`]).

pub mod frame;
pub mod gpucc;
pub mod lint;
pub mod lockstep;
pub mod noc;
pub mod rtl;
pub mod run;
pub mod synth;
pub mod verilator;
