//! MACRO-NoC co-simulation speed (issue 3): the 4x4 MACRO-NoC top (reply and request
//! planes) in simulated cycles per second.
//!
//! * `cosim_noc_macro_4x4/baseline_verilator_only`: the Verilated model driven by the
//!   shim with recorded input frames, no golden model.
//! * `lockstep`: golden meshes + random traffic + one FFI call per cycle + every
//!   output compared; `lockstep_checked` adds the spec §4.3 invariant scoreboards.

use std::path::Path;

use criterion::{criterion_group, Criterion, Throughput};
use golden::config::{load, BlockConfig};
use verif::frame::Frame;
use verif::lockstep::{record_inputs, Lockstep};
use verif::noc::MacroBench;
use verif::rtl::Rtl;
use verif::verilator::{build, Opt};

const CYCLES: u64 = 5_000;

fn cosim(c: &mut Criterion) {
    let cfg = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/noc_macro_4x4.toml")).unwrap();
    let BlockConfig::Noc(nc) = &cfg.block else { panic!("not a NoC preset") };
    let design = hdl_gen::generate(&cfg).unwrap().into_iter().find(|(p, _)| p.as_os_str() == "macro_top").expect("macro_top design").1;
    let built = build(&design, Opt::Fast).unwrap_or_else(|e| panic!("{e}"));
    let layout = built.layout.clone();
    let frames: Vec<Frame> = record_inputs(&layout, MacroBench::new(nc, &layout, 7).without_checker(), 4 * CYCLES).unwrap();

    let mut g = c.benchmark_group("cosim_noc_macro_4x4");
    g.throughput(Throughput::Elements(CYCLES));
    g.sample_size(20);
    {
        let mut rtl = Rtl::load(&built).unwrap();
        let mut out = Frame::zeroed(layout.out_words);
        let mut k = 0usize;
        g.bench_function("baseline_verilator_only", |b| {
            b.iter(|| {
                for _ in 0..CYCLES {
                    rtl.cycle(&frames[k], &mut out);
                    k = (k + 1) % frames.len();
                }
                std::hint::black_box(&out);
            })
        });
    }
    for (fname, checked) in [("lockstep", false), ("lockstep_checked", true)] {
        let mut rtl = Rtl::load(&built).unwrap();
        let bench = MacroBench::new(nc, &layout, 7);
        let bench = if checked { bench } else { bench.without_checker() };
        let mut ls = Lockstep::new(&mut rtl, bench);
        g.bench_function(fname, |b| {
            b.iter(|| {
                for _ in 0..CYCLES {
                    ls.step().expect("lockstep holds");
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, cosim);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[
        ("cosim_noc_macro_4x4", "lockstep", "baseline_verilator_only"),
        ("cosim_noc_macro_4x4", "lockstep_checked", "baseline_verilator_only"),
    ]);
}

mod bench_ratio;
