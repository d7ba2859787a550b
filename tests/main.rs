//! The CLI and whole-tool tests (the `gpuforge` binary run as a user runs it), one test
//! binary (`tests/<topic>.rs` is a module each; a new test file adds its `mod` line here).
//! Filter by module, e.g. `cargo nextest run -p gpuforge -E 'test(/^study::/)'`. The
//! library's own tests are modules here too (`study_plan.rs` tests `src/study/plan.rs`):
//! the crate has no `cfg(test)` build (`[lib] test = false`, as every crate here).

mod cli;
mod config_mutations;
mod error_fields;
mod fuzz;
mod llc_compute_cli;
mod llc_compute_offload;
mod noc_cli;
mod pool;
mod qcache_cli;
mod registry;
mod rtl_out;
mod sim_launch;
mod study;
mod study_figure;
mod study_measure;
mod study_plan;
mod study_readme;
mod study_report;
mod study_slurm;
mod tfb_bdib_cli;
