//! Co-simulation speed of every block with RTL, through the registry's own bench
//! (`verif::run::Cosim`): the lockstep harness against the same Verilated model driven
//! alone by recorded input frames (issues 11, 12 and 13 ask for at most 2x).
//!
//! * `cosim_<preset>_<design>/baseline_verilator_only`: the model alone;
//! * `.../lockstep`: golden model + stimulus + frame packing + one FFI call per cycle +
//!   comparison of every output port; `lockstep_checked` adds the block's scoreboard.
//!
//! GPU-CC and the NoC have their own benches (`cosim`, `noc_cosim`), which also compare
//! threaded models and plane sizes.

use criterion::{criterion_group, Criterion};
use golden::llc_compute::LlcCompute;
use golden::qcache::Qcache;
use golden::tfb_bdib::TfbBdib;
use support::bench_ratio;
use support::cosim_speed::cosim_group;
use verif::frame::Layout;
use verif::run::{bench_factory, BenchOptions, Cosim};
use verif::verilator::{build, Opt};

const CYCLES: u64 = 5_000;

/// The benchmark group of `design` in preset `preset` of block `B`; returns its name.
fn block<B: Cosim>(c: &mut Criterion, preset: &str, design: &str) -> String {
    let cfg = golden::presets::load::<B>(preset).unwrap_or_else(|e| panic!("{e}"));
    let g = B::generate(&cfg).unwrap_or_else(|e| panic!("{preset}: {e}"));
    let d = g.design(design).unwrap_or_else(|| panic!("{preset} has no design {design}"));
    let built = build(d, Opt::Fast).unwrap_or_else(|e| panic!("{e}"));
    let layout: Layout = built.layout.clone();
    let unchecked = bench_factory::<B>(&cfg.config, d, &layout, BenchOptions { seed: 7, check: false }).unwrap_or_else(|e| panic!("{e}"));
    let checked = bench_factory::<B>(&cfg.config, d, &layout, BenchOptions { seed: 7, check: true }).unwrap_or_else(|e| panic!("{e}"));
    let group = format!("cosim_{preset}_{}", design.replace('/', "_"));
    cosim_group(c, &group, &built, CYCLES, |check| if check { checked() } else { unchecked() });
    group
}

/// The groups, in the order they ran (for the ratio report).
static GROUPS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn cosim(c: &mut Criterion) {
    let mut groups = vec![
        block::<TfbBdib>(c, "tfb_maxwell_subcore", "bdib"),
        block::<Qcache>(c, "qcache_l2", "monitor"),
        block::<LlcCompute>(c, "llc_compute_paper", "oq"),
        block::<LlcCompute>(c, "llc_compute_paper", "sq"),
        block::<LlcCompute>(c, "llc_compute_paper", "sq_core"),
    ];
    GROUPS.lock().unwrap().append(&mut groups);
}

criterion_group!(benches, cosim);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    let groups = GROUPS.lock().unwrap().clone();
    let mut rows = Vec::new();
    for g in &groups {
        rows.push((g.as_str(), "lockstep", "baseline_verilator_only"));
        rows.push((g.as_str(), "lockstep_checked", "baseline_verilator_only"));
    }
    bench_ratio::report(&rows);
}

mod support;
