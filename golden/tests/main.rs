//! The golden models' integration tests, one test binary (`tests/<block>_<topic>.rs` is a
//! module each; a new test file adds its `mod` line here). One binary rather than one per
//! file: each binary linked the whole golden crate again, 38 links of a cold `make test`.
//! Filter by module, e.g. `cargo nextest run -p gpuforge-golden -E 'test(/^llc_compute_/)'`.

mod gpu_common;
mod gpucc_common;

mod gpu_energy;
mod gpu_hooks;
mod gpu_launch;
mod gpu_llc_apps;
mod gpu_ptx;
mod gpu_ptx_coverage;
mod gpu_ptx_regs;
mod gpu_sim;
mod gpu_simt_conv;
mod gpu_suite;
mod gpu_timing;
mod gpu_workloads;
mod gpucc_conv;
mod gpucc_mapper;
mod gpucc_net;
mod gpucc_units;
mod llc_compute_design;
mod llc_compute_emn;
mod llc_compute_oq;
mod llc_compute_params;
mod llc_compute_small_blocks;
mod llc_compute_sq;
mod llc_compute_stress;
mod llc_compute_tagger;
mod noc_mesh;
mod noc_rom;
mod noc_sweep;
mod noc_throughput;
mod noc_vc_exact;
mod noc_xyyx;
mod qcache_hetero;
mod qcache_hook;
mod qcache_monitor;
mod qcache_sensitivity;
mod tfb_bdib_gpu;
mod tfb_bdib_model;
