//! GPU model speed: simulated warp instructions per second, single-threaded.
//!
//! * `gpu_vecadd/*`: vecadd on 1 Mi elements (memory-bound), 16-core MACRO-NoC
//!   platform as the baseline, the 64-core platform measured against it (how
//!   simulation time grows from 16 to 64 cores on the same work).
//! * `gpu_compute/*`: a compute-bound kernel, same pair of presets.
//! Throughput is in warp instructions (criterion prints elem/s).

use std::path::Path;

use criterion::{criterion_group, Criterion, Throughput};
use golden::gpu::{run, GpuConfig, Launch, RunOptions};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn config(name: &str) -> GpuConfig {
    GpuConfig::load(&root().join(format!("configs/gpu/{name}.toml"))).unwrap_or_else(|e| panic!("{e}"))
}

fn launch(path: &str) -> Launch {
    Launch::load(&root().join("workloads").join(path)).unwrap_or_else(|e| panic!("{e}"))
}

fn group(c: &mut Criterion, group: &str, workload: &str) {
    let l = launch(workload);
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    for (fname, preset) in [("baseline_16_core", "macro_16"), ("64_core", "macro_64")] {
        let cfg = config(preset);
        let warp_insts = run(&cfg, &l, RunOptions::default()).unwrap().warp_insts;
        g.throughput(Throughput::Elements(warp_insts));
        g.bench_function(fname, |b| {
            b.iter(|| {
                let r = run(&cfg, &l, RunOptions::default()).unwrap();
                assert!(r.checks_passed());
                r.cycles
            })
        });
    }
    g.finish();
}

fn gpu(c: &mut Criterion) {
    group(c, "gpu_vecadd", "bench/vecadd_1m.toml");
    group(c, "gpu_compute", "bench/compute_big.toml");
}

criterion_group!(benches, gpu);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[
        ("gpu_vecadd", "64_core", "baseline_16_core"),
        ("gpu_compute", "64_core", "baseline_16_core"),
    ]);
}

#[path = "../../verif/benches/support/bench_ratio.rs"]
mod bench_ratio;
