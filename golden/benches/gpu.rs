//! GPU model speed: simulated warp instructions per second, single-threaded.
//!
//! * `gpu_vecadd/*`: vecadd on 1 Mi elements (memory-bound), 16-core MACRO-NoC
//!   platform as the baseline, the 64-core platform measured against it (how
//!   simulation time grows from 16 to 64 cores on the same work).
//! * `gpu_compute/*`: a compute-bound kernel, same pair of presets.
//! * `gpu_barriers/*`: Parboil stencil (a barrier every plane) on the thesis's sub-core
//!   platform (`tfb_maxwell_16`): drain barriers as the baseline, F-TFB through the BDIB
//!   hook, and F-TFB with the fMWF scheduler (issue 12: what the hook costs the model).
//!
//! Throughput is in warp instructions (criterion prints elem/s).

use std::path::Path;

use criterion::{criterion_group, Criterion, Throughput};
use golden::gpu::config::SchedulerPolicy;
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

/// `workload` on the 16-core platform (the baseline) and the 64-core one.
fn group(c: &mut Criterion, group: &str, workload: &str) {
    variants(c, group, workload, &[("baseline_16_core", config("macro_16")), ("64_core", config("macro_64"))]);
}

/// Time `workload` on each (name, config); the first is the baseline.
fn variants(c: &mut Criterion, group: &str, workload: &str, configs: &[(&str, GpuConfig)]) {
    let l = launch(workload);
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    for (fname, cfg) in configs {
        let warp_insts = run(cfg, &l, RunOptions::default()).unwrap().warp_insts;
        g.throughput(Throughput::Elements(warp_insts));
        g.bench_function(*fname, |b| {
            b.iter(|| {
                let r = run(cfg, &l, RunOptions::default()).unwrap();
                assert!(r.checks_passed());
                r.cycles
            })
        });
    }
    g.finish();
}

/// The TFB platform with warp scheduler `sched` and barrier mode `mode` (a
/// `[hooks.tfb]` table; `None`: drain barriers, the plain GPU).
fn tfb(mode: Option<&str>, sched: SchedulerPolicy) -> GpuConfig {
    let mut cfg = config("tfb_maxwell_16");
    if let Some(m) = mode {
        let table: toml::Table = toml::from_str(&format!("mode = \"{m}\"")).unwrap();
        cfg.hooks.insert("tfb".into(), table);
    }
    cfg.core.scheduler = sched;
    cfg
}

/// The LLC-Compute platform, with `[hooks.llc_compute] mode = mode`.
fn llc(mode: &str) -> GpuConfig {
    let mut cfg = config("llc_compute_56");
    let table: toml::Table = toml::from_str(&format!("mode = \"{mode}\"")).unwrap();
    cfg.hooks.insert("llc_compute".into(), table);
    cfg
}

fn gpu(c: &mut Criterion) {
    group(c, "gpu_vecadd", "bench/vecadd_1m.toml");
    group(c, "gpu_compute", "bench/compute_big.toml");
    let barriers = [("baseline_drain", tfb(None, SchedulerPolicy::Gto)), ("f_tfb", tfb(Some("f"), SchedulerPolicy::Gto)), ("f_tfb_fmwf", tfb(Some("f"), SchedulerPolicy::Fmwf))];
    variants(c, "gpu_barriers", "stencil/stencil.toml", &barriers);
    // every chain of VECADD-ALIGNED offloads: the OQ, the SQs and the ComputePackets at work
    variants(c, "gpu_offload", "micro_llc/vecadd_aligned.toml", &[("baseline_profile", llc("profile")), ("llc_compute", llc("llc"))]);
    // VECADD-STRIDED under Omni-Compute: 999 of 1,792 chains served by the core SQs
    variants(c, "gpu_omni", "micro_llc/vecadd_strided.toml", &[("baseline_profile", llc("profile")), ("omni_compute", llc("omni"))]);
}

criterion_group!(benches, gpu);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[
        ("gpu_vecadd", "64_core", "baseline_16_core"),
        ("gpu_compute", "64_core", "baseline_16_core"),
        ("gpu_barriers", "f_tfb", "baseline_drain"),
        ("gpu_barriers", "f_tfb_fmwf", "baseline_drain"),
        ("gpu_offload", "llc_compute", "baseline_profile"),
        ("gpu_omni", "omni_compute", "baseline_profile"),
    ]);
}

#[path = "../../verif/benches/support/bench_ratio.rs"]
mod bench_ratio;
