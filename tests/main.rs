//! The CLI and whole-tool tests (the `gpuforge` binary run as a user runs it), one test
//! binary (`tests/<topic>.rs` is a module each; a new test file adds its `mod` line here).
//! Filter by module, e.g. `cargo nextest run -p gpuforge -E 'test(/^study::/)'`.

mod cli;
mod config_mutations;
mod error_fields;
mod fuzz;
mod llc_compute_cli;
mod llc_compute_offload;
mod noc_cli;
mod qcache_cli;
mod rtl_out;
mod sim_launch;
mod study;
mod tfb_bdib_cli;
