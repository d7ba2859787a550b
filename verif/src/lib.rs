//! gpuforge co-simulation: the generated Verilog, built by Verilator into a shared
//! library with an askama-rendered shim, run in lockstep with a golden model.
//!
//! The framework, knowing no block: [`verilator`] (tool discovery, build and
//! content-hash cache, keyed by [`cache_key`]), [`rtl`] (the model behind the shim's one-call-per-cycle C ABI),
//! [`frame`] (packed port frames laid out from the manifest), [`lockstep`] (the runner,
//! mismatch reports, VCD on failure), [`bench`] (the one generic bench: a golden model,
//! its stimulus and scoreboard, and a port map), [`run`] (the [`run::Cosim`] trait a
//! block implements, and `cosim` of one design), [`lint`] and [`synth`].
//!
//! The blocks, one module each with their port maps and the bench of each design kind:
//! [`gpucc`], [`noc`].

pub mod bench;
pub mod cache_key;
pub mod frame;
pub mod gpucc;
pub mod lint;
pub mod llc_compute;
pub mod lockstep;
pub mod noc;
pub mod qcache;
pub mod rtl;
pub mod run;
pub mod synth;
pub mod tfb_bdib;
pub mod verilator;
