//! Co-simulation speed.
//!
//! * `cosim_<preset>/lockstep`: the harness — golden model + random traffic + frame
//!   packing + one FFI call per cycle + comparison of every output port.
//!   `lockstep_checked` adds the spec §4.3 scoreboard.
//! * `cosim_<preset>/baseline_verilator_only`: the same Verilated model driven by the
//!   same shim with the same (recorded) input frames and no golden model.
//! * `gen/*`: `gpuforge gen` work (generate + write) for the paper preset, against
//!   the small preset as baseline.

use std::path::Path;

use criterion::{criterion_group, Criterion};
use golden::config::{load, ConfigFile};
use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use golden::gpucc::GpuccConfig;
use support::bench_ratio;
use support::cosim_speed::cosim_group;
use verif::gpucc::NetBench;
use verif::verilator::{build, Opt};

const CYCLES: u64 = 5_000;

fn preset(name: &str) -> (ConfigFile, GpuccConfig) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../configs/{name}.toml"));
    let cfg = load(&p).unwrap();
    let c = cfg.block.gpucc().unwrap().clone();
    (cfg, c)
}

fn cosim_preset(c: &mut Criterion, name: &str) {
    let (cfg, gc) = preset(name);
    let design = hdl_gen::gpucc::generate(&cfg, &gc).unwrap();
    let built = build(&design, Opt::Fast).unwrap_or_else(|e| panic!("{e}"));
    let layout = built.layout.clone();
    cosim_group(c, &format!("cosim_{name}"), &built, CYCLES, |checked| {
        let b = NetBench::new(&gc, &layout, NetTraffic::new(&gc, 7, TrafficParams::default()));
        if checked {
            b
        } else {
            b.without_checker()
        }
    });
}

fn cosim(c: &mut Criterion) {
    cosim_preset(c, "gpucc_small");
    cosim_preset(c, "gpucc_paper_sm");
}

fn gen(c: &mut Criterion) {
    let mut g = c.benchmark_group("gen");
    g.sample_size(10);
    for (fname, name) in [("baseline_gen_small", "gpucc_small"), ("gen_paper_sm", "gpucc_paper_sm")] {
        let (cfg, _) = preset(name);
        let out = std::env::temp_dir().join(format!("gpuforge-bench-gen-{name}"));
        g.bench_function(fname, |b| {
            b.iter(|| {
                for (sub, d) in hdl_gen::generate(&cfg).unwrap() {
                    d.write_to(&out.join(sub)).unwrap();
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, cosim, gen);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[
        ("cosim_gpucc_small", "lockstep", "baseline_verilator_only"),
        ("cosim_gpucc_small", "lockstep_checked", "baseline_verilator_only"),
        ("cosim_gpucc_paper_sm", "lockstep", "baseline_verilator_only"),
        ("cosim_gpucc_paper_sm", "lockstep_checked", "baseline_verilator_only"),
        ("gen", "gen_paper_sm", "baseline_gen_small"),
    ]);
}

mod support;
