//! `gpuforge gen` speed for every preset with RTL (found through the registry): config
//! load + generation of every design + writing the preset (library, filelists,
//! manifests) to a scratch directory, as the command does. Baseline in the same
//! process: the smallest preset, `gpucc_small`; the report gives every preset's time
//! and its ratio to the baseline. Aim (issue 7): every preset under one second.

use criterion::{criterion_group, Criterion};
use gpuforge::blocks::load;

#[path = "../verif/benches/support/bench_ratio.rs"]
mod bench_ratio;

fn gen(c: &mut Criterion) {
    let mut g = c.benchmark_group("gen");
    g.sample_size(10);
    for p in golden::presets::all() {
        let Some(Ok(_)) = load(&p).unwrap().generate() else { continue };
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let out = std::env::temp_dir().join(format!("gpuforge-bench-gen-{}-{name}", std::process::id()));
        let id = if name == "gpucc_small" { "baseline_gpucc_small".to_string() } else { name.clone() };
        g.bench_function(&id, |b| {
            b.iter(|| {
                let cfg = load(&p).unwrap();
                cfg.generate().unwrap().unwrap().write_to(&out).unwrap();
            })
        });
        let _ = std::fs::remove_dir_all(&out);
    }
    g.finish();
}

criterion_group!(benches, gen);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    let rows: Vec<(String, String, String)> = golden::presets::all()
        .into_iter()
        .filter(|p| matches!(load(p).map(|c| c.generate().is_some()), Ok(true)))
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .filter(|n| n != "gpucc_small")
        .map(|n| ("gen".to_string(), n, "baseline_gpucc_small".to_string()))
        .collect();
    let refs: Vec<(&str, &str, &str)> = rows.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect();
    bench_ratio::report(&refs);
    println!("\ngen time per preset (mean, aim < 1000 ms):");
    for (_, n, b) in rows.iter().chain(std::iter::once(&("gen".into(), "baseline_gpucc_small".into(), String::new()))) {
        let _ = b;
        if let Some((ns, _)) = bench_ratio::measured("gen", n) {
            println!("  {n:<24} {:>8.1} ms", ns / 1e6);
        }
    }
}
