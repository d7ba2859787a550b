//! GPU-CC golden-model speed.
//!
//! * `gpucc_net/*`: the paper SM's lane network under full random traffic, in
//!   simulated cycles per second. Baseline in the same process: the random traffic
//!   alone (what any testbench pays to drive the ports), so the ratio is the cost of
//!   the network model itself.
//! * `gpucc_sim/*`: the paper's Table 1 experiment (3x3 on 512x512, 14 SMs), against
//!   the same run at 128x128 as baseline (per-pixel cost should be flat).

use criterion::{criterion_group, Criterion, Throughput};
use golden::gpucc::net::{CcNet, NetInputs, NetOutputs};
use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use golden::gpucc::{Gpucc, GpuccConfig};

const CYCLES: u64 = 20_000;

fn paper() -> GpuccConfig {
    golden::presets::load::<Gpucc>("gpucc_paper_sm").unwrap_or_else(|e| panic!("{e}")).config
}

fn net(c: &mut Criterion) {
    let cfg = paper();
    let mut g = c.benchmark_group("gpucc_net");
    g.throughput(Throughput::Elements(CYCLES));
    g.sample_size(20);
    g.bench_function("baseline_traffic_only", |b| {
        // the traffic consults a network that never leaves reset (cheap)
        let idle = CcNet::new(&cfg);
        let mut t = NetTraffic::new(&cfg, 1, TrafficParams::default());
        let (mut i, prev) = (NetInputs::new(&cfg), NetOutputs::new(&cfg));
        b.iter(|| {
            for _ in 0..CYCLES {
                t.next(&idle, &prev, &mut i);
            }
            std::hint::black_box(&i);
        })
    });
    g.bench_function("paper_sm_random_traffic", |b| {
        let mut n = CcNet::new(&cfg);
        let mut t = NetTraffic::new(&cfg, 1, TrafficParams::default());
        let (mut i, mut o, mut prev) = (NetInputs::new(&cfg), NetOutputs::new(&cfg), NetOutputs::new(&cfg));
        b.iter(|| {
            for _ in 0..CYCLES {
                t.next(&n, &prev, &mut i);
                n.eval(&i, &mut o);
                n.commit();
                std::mem::swap(&mut o, &mut prev);
            }
            std::hint::black_box(&prev);
        })
    });
    g.finish();
}

fn sim(c: &mut Criterion) {
    let mut g = c.benchmark_group("gpucc_sim");
    g.sample_size(10);
    for (name, image) in [("baseline_conv3x3_128", 128u32), ("conv3x3_512_14sm", 512)] {
        let mut cfg = paper();
        cfg.app.as_mut().unwrap().image = image;
        g.throughput(Throughput::Elements(image as u64 * image as u64));
        g.bench_function(name, |b| b.iter(|| golden::gpucc::run::run_app(&cfg).unwrap()));
    }
    g.finish();
}

criterion_group!(benches, net, sim);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[("gpucc_net", "paper_sm_random_traffic", "baseline_traffic_only"), ("gpucc_sim", "conv3x3_512_14sm", "baseline_conv3x3_128")]);
}

#[path = "../../verif/benches/support/bench_ratio.rs"]
mod bench_ratio;
