//! The TFB BDIB through the binary: bad configs give one line naming file, field and
//! allowed range, exit 2, and write nothing; `sim` runs the golden model with its
//! scoreboard.

use std::process::Command;

fn gpuforge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gpuforge"))
}

fn small_with(key: &str, value: &str) -> String {
    let t = golden::presets::text("tfb_small");
    let line = t.lines().find(|l| l.starts_with(&format!("{key} ="))).unwrap().to_string();
    t.replace(&line, &format!("{key} = {value}"))
}

#[test]
fn bad_tfb_configs_exit_2_name_the_field_and_write_nothing() {
    let cases = [
        ("depth", "0", "tfb_bdib.depth", "1..=5"),
        ("depth", "7", "tfb_bdib.depth", "1..=5"),
        ("mode", "\"x\"", "tfb_bdib.mode", "one of \"p\", \"g\", \"f\""),
        ("nwarq", "3", "tfb_bdib.nwarq", "1..=2"),
        ("num_warps", "65", "tfb_bdib.num_warps", "1..=64"),
    ];
    for (k, v, field, allowed) in cases {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("bad.toml");
        std::fs::write(&cfg, small_with(k, v)).unwrap();
        let out_dir = dir.path().join("out");
        let o = gpuforge().arg("gen").arg(&cfg).arg("--out").arg(&out_dir).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{k} = {v}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("bad.toml") && err.contains(field) && err.contains(allowed), "{k} = {v}: {err}");
        assert!(!out_dir.exists(), "{k} = {v}: output written");
    }
}

#[test]
fn sim_runs_random_traffic_under_the_scoreboard() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = gpuforge().current_dir(root).args(["sim", "configs/tfb_bdib/tfb_small.toml", "--max-cycles", "5000"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("F-TFB, 4 warps x 2 entries") && out.contains("PASS"), "{out}");
    let o = gpuforge().current_dir(root).args(["sim", "configs/tfb_bdib/tfb_small.toml", "--sweep", "0.1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "--sweep is not a BDIB flag");
}
