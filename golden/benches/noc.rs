//! MACRO-NoC golden-model speed, in simulated cycles per second (criterion's
//! elem/s; one element = one network cycle of the whole 8x8 mesh), single thread.
//!
//! * `noc_8x8_uniform_<load>/*`: uniform random traffic at 0.02, 0.1 and 0.3
//!   flits/node/cycle (4-flit packets; 0.3 is near the knee, well below saturation).
//!   `baseline_ideal_network` drives the same traffic into a fixed-latency network
//!   (the cost of the traffic generator and the packet bookkeeping alone);
//!   `vc_mesh_baseline_8x8` is the golden 128-bit 3-VC baseline mesh (issue 3 speed
//!   target: ten times a few tens of thousands of cycles per second; issue 10: three
//!   times the speed of the first model at every load).
//! * `noc_8x8_gpu/*`: the GPU pattern (cores -> MC requests, MC -> core replies) at the
//!   preset's rate: ideal network as baseline, the MACRO-NoC of placement 8(c) (both
//!   planes) and the baseline mesh of the same placement.

use criterion::{criterion_group, Criterion, Throughput};
use golden::network::{IdealNetwork, Network};
use golden::noc::config::{NocConfig, Pattern};
use golden::noc::mesh::{BaselineNetwork, MacroNetwork};
use golden::noc::traffic::{Delivery, Traffic};
use golden::noc::Noc;

const CYCLES: u64 = 10_000;

fn preset(name: &str) -> NocConfig {
    golden::presets::load::<Noc>(name).unwrap_or_else(|e| panic!("{e}")).config
}

/// Run `net` under `c`'s traffic for `CYCLES` per iteration (one warm network kept
/// across iterations, so the measurement is of a loaded mesh, not of its start-up).
fn bench_net(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, name: &str, c: &NocConfig, mut net: Box<dyn Network>) {
    let mut tr = Traffic::new(c, c.traffic.rate, 1);
    let mut dl: Vec<Delivery> = Vec::new();
    for _ in 0..CYCLES {
        tr.tick(net.as_mut(), &mut dl);
    }
    g.bench_function(name, |b| {
        b.iter(|| {
            for _ in 0..CYCLES {
                tr.tick(net.as_mut(), &mut dl);
            }
            dl.clear();
        })
    });
}

/// Offered loads of the uniform benchmark (flits/node/cycle) and their group names.
const LOADS: [(&str, f64); 3] = [("noc_8x8_uniform_0.02", 0.02), ("noc_8x8_uniform_0.1", 0.1), ("noc_8x8_uniform_0.3", 0.3)];

fn uniform(c: &mut Criterion) {
    for (group, rate) in LOADS {
        let mut cfg = preset("noc_baseline_8x8_c");
        cfg.traffic.pattern = Pattern::Uniform;
        cfg.traffic.rate = rate;
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(CYCLES));
        g.sample_size(20);
        bench_net(&mut g, "baseline_ideal_network", &cfg, Box::new(IdealNetwork::new(cfg.nodes(), 6)));
        bench_net(&mut g, "vc_mesh_baseline_8x8", &cfg, Box::new(BaselineNetwork::new(&cfg, 64)));
        g.finish();
    }
}

fn gpu(c: &mut Criterion) {
    let mac = preset("noc_macro_8x8_c");
    let base = preset("noc_baseline_8x8_c");
    assert_eq!(mac.traffic.pattern, Pattern::Gpu);
    let mut g = c.benchmark_group("noc_8x8_gpu");
    g.throughput(Throughput::Elements(CYCLES));
    g.sample_size(20);
    bench_net(&mut g, "baseline_ideal_network", &mac, Box::new(IdealNetwork::new(mac.nodes(), 6)));
    bench_net(&mut g, "macro_noc_8x8_c", &mac, Box::new(MacroNetwork::new(&mac, 64)));
    bench_net(&mut g, "vc_mesh_baseline_8x8_c", &base, Box::new(BaselineNetwork::new(&base, 64)));
    g.finish();
}

criterion_group!(benches, uniform, gpu);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[
        (LOADS[0].0, "vc_mesh_baseline_8x8", "baseline_ideal_network"),
        (LOADS[1].0, "vc_mesh_baseline_8x8", "baseline_ideal_network"),
        (LOADS[2].0, "vc_mesh_baseline_8x8", "baseline_ideal_network"),
        ("noc_8x8_gpu", "macro_noc_8x8_c", "baseline_ideal_network"),
        ("noc_8x8_gpu", "vc_mesh_baseline_8x8_c", "baseline_ideal_network"),
    ]);
}

#[path = "../../verif/benches/support/bench_ratio.rs"]
mod bench_ratio;
