//! gpuforge golden models.
//!
//! One source of truth: every block's TOML config deserializes into one validated
//! struct here, and everything derived from it (port widths, tables, bit encodings)
//! is computed here once. The HDL generator (`gpuforge-hdl`) and the co-simulation
//! (`gpuforge-verif`) consume these; this crate depends on neither.
//!
//! The framework, knowing no block: [`config`] (errors and field checks), [`block`]
//! (what a block is: its config table, validation and `gpuforge sim`), [`model`] (the
//! golden model, stimulus and scoreboard traits), [`bits`] (`clog2` and bit-field
//! tables), [`invariant`] (scoreboard findings), [`network`] (the GPU's interconnect
//! interface), [`energy`] (the event-energy model studies share) and [`presets`] (the
//! shipped configs, for tests and benches).
//!
//! The blocks, each in its own folder with a marker type implementing [`block::Block`]:
//! [`gpucc`] (`Gpucc`), [`noc`] (`Noc`) and the GPU model [`gpu`] (`GpuModel`).
//!
//! Every test of this crate is in the one integration-test binary `golden/tests/main.rs`
//! (the tests of a source module in `golden/tests/<module_path>.rs`), so that `cargo test`
//! compiles this library once and not a second time with `cfg(test)`.

/// The version of what the golden models compute. Bump it with any change that alters a
/// model's results (timing, statistics, their JSON): cached study runs are keyed by it
/// and the crate version (`gpuforge study`), so a bump runs them again.
pub const MODEL_VERSION: u32 = 3;

pub mod bits;
pub mod block;
pub mod config;
pub mod energy;
pub mod gpu;
pub mod gpucc;
pub mod invariant;
pub mod llc_compute;
pub mod model;
pub mod network;
pub mod noc;
pub mod presets;
pub mod qcache;
pub mod tfb_bdib;
