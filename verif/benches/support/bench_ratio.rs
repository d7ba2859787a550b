//! Ratios from criterion's own results (target/criterion/<group>/<fn>/new/), printed
//! after a bench run: measured / baseline, as time per element when both declare a
//! throughput (so runs of different sizes compare), else as time per iteration.
//! Shared by the bench targets of several crates (included with `#[path]`).

use std::path::PathBuf;

fn criterion_dir() -> PathBuf {
    if let Ok(d) = std::env::var("CRITERION_HOME") {
        return PathBuf::from(d);
    }
    let target = std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| {
        // the workspace root (the directory with Cargo.lock) above the bench's package
        let mut d = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        while !d.join("Cargo.lock").exists() && d.pop() {}
        d.join("target")
    });
    target.join("criterion")
}

fn read(group: &str, name: &str, file: &str) -> Option<serde_json::Value> {
    let p = criterion_dir().join(group).join(name).join("new").join(file);
    serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
}

/// A benchmark's mean time and, when it declares a throughput, its elements per iteration.
pub type Measured = Option<(f64, Option<f64>)>;

/// Mean time per iteration (ns) and elements per iteration, if measured.
pub fn measured(group: &str, name: &str) -> Measured {
    let mean = read(group, name, "estimates.json")?["mean"]["point_estimate"].as_f64()?;
    let elems = read(group, name, "benchmark.json").and_then(|b| b["throughput"]["Elements"].as_f64());
    Some((mean, elems))
}

/// Print `measured / baseline` for each `(group, measured, baseline)`.
pub fn report(pairs: &[(&str, &str, &str)]) {
    println!("\nratios (same process):");
    for (g, m, b) in pairs {
        ratio_line(&format!("{g}: {m} / {b}"), measured(g, m), measured(g, b));
    }
}

/// A benchmark named by its criterion group and name.
pub type Bench<'a> = (&'a str, &'a str);

/// Print `measured / baseline` for benchmarks of different groups:
/// `((group, name) measured, (group, name) baseline)`.
#[allow(dead_code)]
pub fn report_across(pairs: &[(Bench, Bench)]) {
    for ((mg, m), (bg, b)) in pairs {
        ratio_line(&format!("{mg}/{m} / {bg}/{b}"), measured(mg, m), measured(bg, b));
    }
}

fn ratio_line(what: &str, m: Measured, b: Measured) {
    match (m, b) {
        (Some((mt, Some(me))), Some((bt, Some(be)))) => println!("  {what} = {:.2}x time per element", (mt / me) / (bt / be)),
        (Some((mt, _)), Some((bt, _))) => println!("  {what} = {:.2}x time per iteration", mt / bt),
        _ => println!("  {what}: not measured in this run"),
    }
}
