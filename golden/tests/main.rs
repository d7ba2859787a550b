//! The golden models' tests, one test binary (`tests/<block>_<topic>.rs` is a module each;
//! a new test file adds its `mod` line here). One binary rather than one per file: each
//! binary linked the whole golden crate again, 38 links of a cold `make test`.
//!
//! The tests of one source module are modules here too: `tests/<module_path>.rs` holds the
//! tests of `src/<module path>.rs`, e.g. `gpu_ptx_parser.rs` those of `gpu::ptx::parser`
//! (`gpucc_net.rs`, `llc_compute_emn.rs` and `llc_compute_tagger.rs` were topic files of
//! that name already: those tests are their last section). They were `#[cfg(test)]`
//! modules in the sources, which made `cargo test` compile the golden library a second
//! time with `cfg(test)` (≈147 s of CPU in a cold CI build); here it is compiled once
//! (`[lib] test = false`). What they use of a module's internals is `pub` and
//! `#[doc(hidden)]`.
//!
//! Filter by module, e.g. `cargo nextest run -p gpuforge-golden -E 'test(/^llc_compute_/)'`.

mod gpu_common;
mod gpucc_common;

mod bits;
mod block;
mod config;
mod energy;
mod gpu_coalesce;
mod gpu_dram;
mod gpu_energy;
mod gpu_exec;
mod gpu_hooks;
mod gpu_launch;
mod gpu_llc_apps;
mod gpu_mapping;
mod gpu_npy;
mod gpu_occupancy;
mod gpu_predecode;
mod gpu_printf;
mod gpu_ptx;
mod gpu_ptx_coverage;
mod gpu_ptx_lexer;
mod gpu_ptx_parser;
mod gpu_ptx_regs;
mod gpu_scheduler;
mod gpu_shmem;
mod gpu_sim;
mod gpu_simt;
mod gpu_simt_conv;
mod gpu_suite;
mod gpu_timing;
mod gpu_workloads;
mod gpucc_apps;
mod gpucc_config;
mod gpucc_conv;
mod gpucc_cr;
mod gpucc_fifo;
mod gpucc_fp;
mod gpucc_mapper;
mod gpucc_mem;
mod gpucc_net;
mod gpucc_units;
mod llc_compute_design;
mod llc_compute_emn;
mod llc_compute_lane_op;
mod llc_compute_offload;
mod llc_compute_oq;
mod llc_compute_packet;
mod llc_compute_params;
mod llc_compute_small_blocks;
mod llc_compute_sq;
mod llc_compute_stress;
mod llc_compute_tagger;
mod llc_compute_wire;
mod network;
mod noc_config;
mod noc_flit;
mod noc_link;
mod noc_mesh;
mod noc_rom;
mod noc_route_rom;
mod noc_sweep;
mod noc_throughput;
mod noc_vc_exact;
mod noc_window;
mod noc_xyyx;
mod qcache_hetero;
mod qcache_hook;
mod qcache_monitor;
mod qcache_sensitivity;
mod tfb_bdib_gpu;
mod tfb_bdib_model;
