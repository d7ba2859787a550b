//! Helpers shared by the GPU-model tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use golden::gpu::host::HostBuffer;
use golden::gpu::sim::compare;
use golden::gpu::{GpuConfig, Launch};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

pub fn config_path(name: &str) -> PathBuf {
    root().join("configs/gpu").join(format!("{name}.toml"))
}

pub fn config(name: &str) -> GpuConfig {
    GpuConfig::load(&config_path(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// Set `key = value` inside `[table]` of TOML text (the key must exist there).
pub fn set(text: &str, table: &str, key: &str, value: &str) -> String {
    let mut out = Vec::new();
    let mut in_table = table.is_empty();
    let mut done = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_table = t == format!("[{table}]");
        }
        if in_table && !done && t.split('=').next().map(str::trim) == Some(key) && t.contains('=') {
            out.push(format!("{key} = {value}"));
            done = true;
        } else {
            out.push(line.to_string());
        }
    }
    assert!(done, "no `{key}` in [{table}]");
    out.join("\n") + "\n"
}

/// A preset with edits `(table, key, value)` applied to its text.
pub fn config_with(name: &str, edits: &[(&str, &str, &str)]) -> GpuConfig {
    let path = config_path(name);
    let mut text = std::fs::read_to_string(&path).expect("preset");
    for (t, k, v) in edits {
        text = set(&text, t, k, v);
    }
    GpuConfig::parse(&path, &text).unwrap_or_else(|e| panic!("{e}"))
}

pub fn launch(path: &str) -> Launch {
    Launch::load(&root().join("workloads").join(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// A launch from text, resolved as if it were the file `workloads/<path>`.
pub fn launch_text(path: &str, text: &str) -> Launch {
    Launch::parse(&root().join("workloads").join(path), text).unwrap_or_else(|e| panic!("{e}"))
}

/// Run the text of launch `workloads/<path>` after `edits` (each `from` must be there and is
/// replaced once) on `tiny`; whether its checks passed.
pub fn passes_after(path: &str, edits: &[(&str, &str)]) -> bool {
    let mut text = std::fs::read_to_string(root().join("workloads").join(path)).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "{path}: `{from}` not found");
        text = text.replacen(from, to, 1);
    }
    let r = golden::gpu::run(&config("tiny"), &launch_text(path, &text), golden::gpu::RunOptions::default());
    r.unwrap_or_else(|e| panic!("{path}: {e}")).checks_passed()
}

/// `got` passes the comparison with `want`, and fails it at exactly one element when
/// `want`'s middle element is changed: a float by `bump`, an integer's low bit flipped.
pub fn one_wrong_element_is_caught(what: &str, got: &HostBuffer, want: &HostBuffer, rtol: f64, atol: f64, bump: impl Fn(f32) -> f32) {
    let ok = compare(got, want, rtol, atol);
    assert!(ok.passed, "{what}: {ok:?}");
    let mut bad = want.clone();
    let i = bad.len() / 2;
    let eb = bad.elem.bytes();
    if bad.elem.is_float() {
        let v = f32::from_le_bytes(bad.data[i * eb..i * eb + 4].try_into().unwrap());
        bad.data[i * eb..i * eb + 4].copy_from_slice(&bump(v).to_le_bytes());
    } else {
        bad.data[i * eb] ^= 1;
    }
    let caught = compare(got, &bad, rtol, atol);
    assert!(!caught.passed && caught.mismatches == 1, "{what}: element {i} changed, not caught: {caught:?}");
}

/// `measured` is within `tol` (absolute) of `expected`.
pub fn within(what: &str, measured: f64, expected: f64, tol: f64) -> Result<(), String> {
    if (measured - expected).abs() <= tol {
        Ok(())
    } else {
        Err(format!("{what}: measured {measured}, expected {expected} +- {tol}"))
    }
}

/// Every shipped PTX file (`workloads/*/*.ptx`), sorted.
pub fn all_ptx() -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for d in std::fs::read_dir(root().join("workloads")).unwrap() {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&d).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "ptx") {
                v.push(f);
            }
        }
    }
    v.sort();
    v
}
