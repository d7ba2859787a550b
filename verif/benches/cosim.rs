//! Co-simulation speed.
//!
//! * `cosim_<preset>/lockstep`: the harness — golden model + random traffic + frame
//!   packing + one FFI call per cycle + comparison of every output port.
//!   `lockstep_checked` adds the spec §4.3 scoreboard.
//! * `cosim_<preset>/baseline_verilator_only`: the same Verilated model driven by the
//!   same shim with the same (recorded) input frames and no golden model.
//!
//! * `cosim_gpucc_paper_sm_threads2`: the same on a model Verilated with `--threads 2`
//!   (compared with the one-thread groups: does a threaded model pay off in lockstep?).
//!
//! The `gen` benchmark of every preset is the root package's (`benches/gen.rs`).

use criterion::{criterion_group, Criterion};
use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use golden::gpucc::Gpucc;
use hdl_gen::Generate;
use support::bench_ratio;
use support::cosim_speed::cosim_group;
use verif::gpucc::net_bench;
use verif::verilator::{build, BuildOpts, Opt};

const CYCLES: u64 = 5_000;

fn cosim_preset(c: &mut Criterion, name: &str, threads: u32) {
    let cfg = golden::presets::load::<Gpucc>(name).unwrap_or_else(|e| panic!("{e}"));
    let gc = cfg.config.clone();
    let g = Gpucc::generate(&cfg).unwrap();
    let design = g.design("net").expect("net design");
    let built = build(design, BuildOpts { opt: Opt::Fast, threads, trace: false }).unwrap_or_else(|e| panic!("{e}"));
    let layout = built.layout.clone();
    let group = if threads == 1 { format!("cosim_{name}") } else { format!("cosim_{name}_threads{threads}") };
    cosim_group(c, &group, &built, CYCLES, |checked| {
        let b = net_bench(&gc, &layout, NetTraffic::new(&gc, 7, TrafficParams::default())).unwrap();
        if checked {
            b
        } else {
            b.without_checker()
        }
    });
}

fn cosim(c: &mut Criterion) {
    cosim_preset(c, "gpucc_small", 1);
    cosim_preset(c, "gpucc_paper_sm", 1);
    cosim_preset(c, "gpucc_paper_sm", 2);
}

criterion_group!(benches, cosim);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[
        ("cosim_gpucc_small", "lockstep", "baseline_verilator_only"),
        ("cosim_gpucc_small", "lockstep_checked", "baseline_verilator_only"),
        ("cosim_gpucc_paper_sm", "lockstep", "baseline_verilator_only"),
        ("cosim_gpucc_paper_sm", "lockstep_checked", "baseline_verilator_only"),
    ]);
    bench_ratio::report_across(&[
        (("cosim_gpucc_paper_sm_threads2", "baseline_verilator_only"), ("cosim_gpucc_paper_sm", "baseline_verilator_only")),
        (("cosim_gpucc_paper_sm_threads2", "lockstep"), ("cosim_gpucc_paper_sm", "lockstep")),
    ]);
}

mod support;
