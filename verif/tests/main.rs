//! The co-simulation, synthesis and build-cache tests (real Verilator and yosys), one test
//! binary (`tests/<block>_<topic>.rs` is a module each; a new test file adds its `mod`
//! line here). Filter by module, e.g. `cargo nextest run -p gpuforge-verif -E
//! 'test(/^noc_cosim::/)'`.

mod common;

mod build_cache;
mod cache_key;
mod frame;
mod gpucc_configs;
mod gpucc_cosim;
mod gpucc_directed;
mod gpucc_synth;
mod llc_compute_configs;
mod llc_compute_cosim;
mod llc_compute_synth;
mod noc_cosim;
mod noc_synth;
mod qcache_companion;
mod qcache_cosim;
mod qcache_synth;
mod synth;
mod tfb_bdib_configs;
mod tfb_bdib_cosim;
mod tfb_bdib_directed;
mod tfb_bdib_synth;
