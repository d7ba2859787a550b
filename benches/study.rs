//! The study layer's speed (issue 8): a study of 8 short NoC runs executed by the pool on
//! 2 threads against the same runs one after another (baseline; aim: 1.8x or more on 2
//! idle cores), and the layer's own cost per run: planning (config loading with knobs,
//! hashing), the cache lookups and writing every output, with every result cached,
//! against one run itself.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, BatchSize, Criterion};
use gpuforge::study::{def, exec, plan, report};

#[path = "../verif/benches/support/bench_ratio.rs"]
mod bench_ratio;

const RUNS: usize = 8;

fn scratch(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gpuforge-bench-study-{tag}-{}", std::process::id()))
}

/// 2 networks x 4 offered loads, 8000 cycles each.
fn study_file(dir: &Path) -> PathBuf {
    let cfg = |n: &str| Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/noc").join(n).display().to_string();
    let text = format!(
        "name = \"bench\"\ntitle = \"bench\"\npaper = \"none\"\nseed_file = \"003\"\nreproduces = \"nothing\"\n\
         [[runs]]\nconfigs = [\"{}\", \"{}\"]\nknobs = {{ \"noc.traffic.rate\" = [0.001, 0.002, 0.003, 0.004], \"noc.traffic.cycles\" = 8000, \"noc.traffic.warmup\" = 1000 }}\n",
        cfg("noc_macro_4x4.toml"),
        cfg("noc_baseline_4x4.toml")
    );
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join("bench.toml");
    std::fs::write(&p, text).unwrap();
    p
}

fn fresh(out: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(out);
    out.to_path_buf()
}

fn study(c: &mut Criterion) {
    let dir = scratch("files");
    let s = def::load(&study_file(&dir)).unwrap();
    let p = plan::plan(&s, false).unwrap();
    assert_eq!(p.runs.len(), RUNS);
    let mut g = c.benchmark_group("study");
    g.sample_size(10);
    for (id, jobs) in [("baseline_8_runs_jobs_1", 1), ("8_runs_jobs_2", 2)] {
        let out = scratch(id);
        g.bench_function(id, |b| {
            b.iter_batched(|| fresh(&out), |o| exec::execute(&p, &exec::ExecOptions { out: o, jobs, limit: None, progress: false }).unwrap(), BatchSize::PerIteration)
        });
        let _ = std::fs::remove_dir_all(&out);
    }
    // one run alone, and the layer around 8 cached runs (plan, lookups, outputs)
    g.bench_function("one_run", |b| b.iter(|| exec::run_one(&p.runs[0])));
    let cached = scratch("cached");
    exec::execute(&p, &exec::ExecOptions { out: fresh(&cached), jobs: 2, limit: None, progress: false }).unwrap();
    g.bench_function("layer_8_cached_runs", |b| {
        b.iter(|| {
            let p = plan::plan(&s, false).unwrap();
            let ex = exec::execute(&p, &exec::ExecOptions { out: cached.clone(), jobs: 2, limit: None, progress: false }).unwrap();
            assert_eq!(ex.reused, RUNS);
            report::write_all(&cached, &p, &ex.results).unwrap();
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&cached);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, study);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    bench_ratio::report(&[("study", "8_runs_jobs_2", "baseline_8_runs_jobs_1"), ("study", "layer_8_cached_runs", "one_run")]);
    if let (Some((seq, _)), Some((par, _))) = (bench_ratio::measured("study", "baseline_8_runs_jobs_1"), bench_ratio::measured("study", "8_runs_jobs_2")) {
        println!("  study pool speed-up on 2 threads: {:.2}x (aim >= 1.8x on 2 idle cores)", seq / par);
    }
    if let Some((layer, _)) = bench_ratio::measured("study", "layer_8_cached_runs") {
        println!("  study layer per run: {:.2} ms", layer / 1e6 / RUNS as f64);
    }
}
