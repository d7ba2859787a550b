//! MACRO-NoC co-simulation speed (issue 3): the 4x4 MACRO-NoC top (reply and request
//! planes) in simulated cycles per second.
//!
//! * `cosim_noc_macro_4x4/baseline_verilator_only`: the Verilated model driven by the
//!   shim with recorded input frames, no golden model.
//! * `lockstep`: golden meshes + random traffic + one FFI call per cycle + every
//!   output compared; `lockstep_checked` adds the spec §4.3 invariant scoreboards.

use criterion::{criterion_group, Criterion};
use golden::noc::Noc;
use hdl_gen::Generate;
use support::bench_ratio;
use support::cosim_speed::cosim_group;
use verif::noc::macro_bench;
use verif::run::BenchOptions;
use verif::verilator::{build, Opt};

const CYCLES: u64 = 5_000;

fn cosim(c: &mut Criterion) {
    let cfg = golden::presets::load::<Noc>("noc_macro_4x4").unwrap_or_else(|e| panic!("{e}"));
    let nc = &cfg.config;
    let g = Noc::generate(&cfg).unwrap();
    let design = g.design("macro_top").expect("macro_top design");
    let built = build(design, Opt::Fast).unwrap_or_else(|e| panic!("{e}"));
    let layout = built.layout.clone();
    cosim_group(c, "cosim_noc_macro_4x4", &built, CYCLES, |check| macro_bench(nc, &layout, &BenchOptions { seed: 7, check }).unwrap_or_else(|e| panic!("{e}")));
}

criterion_group!(benches, cosim);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[("cosim_noc_macro_4x4", "lockstep", "baseline_verilator_only"), ("cosim_noc_macro_4x4", "lockstep_checked", "baseline_verilator_only")]);
}

mod support;
