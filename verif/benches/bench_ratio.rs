//! Ratios from criterion's own estimates (target/criterion/<group>/<fn>/new/
//! estimates.json), printed after a bench run: measured / baseline per element.
//! Shared by the bench targets of several crates (included with `#[path]`).

use std::path::PathBuf;

fn criterion_dir() -> PathBuf {
    if let Ok(d) = std::env::var("CRITERION_HOME") {
        return PathBuf::from(d);
    }
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("criterion")
}

/// Mean time per iteration in ns, if criterion measured `group/name`.
pub fn mean_ns(group: &str, name: &str) -> Option<f64> {
    let p = criterion_dir().join(group).join(name).join("new/estimates.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

/// Print `measured / baseline` for each `(group, measured, baseline)`.
pub fn report(pairs: &[(&str, &str, &str)]) {
    println!("\nratios (mean time, same process, same elements unless noted):");
    for (g, m, b) in pairs {
        match (mean_ns(g, m), mean_ns(g, b)) {
            (Some(m_ns), Some(b_ns)) => println!("  {g}: {m} / {b} = {:.2}x", m_ns / b_ns),
            _ => println!("  {g}: {m} / {b}: not measured in this run"),
        }
    }
}
