//! The co-simulation speed group every block's bench runs: the Verilated model alone
//! on recorded input frames (the baseline), then the lockstep harness without and
//! with the block's golden scoreboard.

use criterion::{Criterion, Throughput};
use verif::frame::Frame;
use verif::lockstep::{record_inputs, Bench, Lockstep};
use verif::rtl::Rtl;
use verif::verilator::Built;

/// Benchmark group `group` over `cycles` per iteration. `bench(checked)` makes a
/// fresh golden bench with or without its scoreboard.
pub fn cosim_group<B: Bench>(c: &mut Criterion, group: &str, built: &Built, cycles: u64, bench: impl Fn(bool) -> B) {
    let layout = built.layout.clone();
    let frames: Vec<Frame> = record_inputs(&layout, bench(false), 4 * cycles).unwrap();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(cycles));
    g.sample_size(20);
    {
        let mut rtl = Rtl::load(built).unwrap();
        let mut out = Frame::zeroed(layout.out_words);
        let mut k = 0usize;
        g.bench_function("baseline_verilator_only", |b| {
            b.iter(|| {
                for _ in 0..cycles {
                    rtl.cycle(&frames[k], &mut out);
                    k = (k + 1) % frames.len();
                }
                std::hint::black_box(&out);
            })
        });
    }
    for (fname, checked) in [("lockstep", false), ("lockstep_checked", true)] {
        let mut rtl = Rtl::load(built).unwrap();
        let mut ls = Lockstep::new(&mut rtl, bench(checked));
        g.bench_function(fname, |b| {
            b.iter(|| {
                for _ in 0..cycles {
                    ls.step().expect("lockstep holds");
                }
            })
        });
    }
    g.finish();
}
