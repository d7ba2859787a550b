//! The generator's tests, one test binary (`tests/<module_path>.rs` holds the tests of
//! `src/<module path>.rs`, e.g. `noc_leaf_hinge.rs` those of `noc::leaf::hinge`; a new
//! test file adds its `mod` line here). They were `#[cfg(test)]` modules in the sources,
//! which made `cargo test` compile this (slow) library a second time with `cfg(test)`;
//! here it is compiled once (`[lib] test = false`). Filter by module, e.g.
//! `cargo nextest run -p gpuforge-hdl -E 'test(/^noc_leaf_/)'`.

// the leaf tests' support (lint and synthesis, rust-hdl and Icarus runs)
mod leaf_check;

mod catalog;
mod design;
mod emit;
mod gpucc_leaf_cr;
mod gpucc_leaf_fifo;
mod gpucc_leaf_mode;
mod library;
mod llc_compute_leaf_oq_entry_fsm;
mod llc_compute_leaf_sq_entry_fsm;
mod noc_leaf_ctrl;
mod noc_leaf_gom;
mod noc_leaf_hinge;
mod noc_leaf_mc_ni;
mod noc_leaf_rom;
mod noc_leaf_vc;
mod noc_vc;
mod ports;
mod prim;
mod qcache_leaf_bank_events;
mod qcache_leaf_companion;
mod qcache_leaf_rate_cmp;
mod qcache_leaf_ratio_div;
mod qcache_leaf_window_events;
mod tfb_bdib_leaf_warp_ctl;
