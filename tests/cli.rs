//! The command line on bad input: one line naming file, field and allowed range,
//! exit status 2, and nothing written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gpuforge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(dir).args(args).output().expect("runs")
}

/// A scratch directory with `rtl_out/<name>/` holding a sentinel file.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuforge-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("rtl_out/bad")).unwrap();
    std::fs::write(d.join("rtl_out/bad/sentinel.v"), "// untouched\n").unwrap();
    d
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                v.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    v.sort();
    v
}

const GOOD: &str = "name = \"bad\"\n[gpucc]\nslices = 4\nslice = [\"core\", \"core\", \"lsu\"]\nlanes = 3\ndata_width = 16\n\
                    core_fifo_depth = 4\nlsu_addr_depth = 6\nlsu_data_depth = 2\n";

/// Run `gen` on `text`; expect exit 2, one line naming the file and `expect`, and
/// the output tree untouched.
fn rejects(tag: &str, text: &str, expect: &[&str]) {
    let d = scratch(tag);
    std::fs::write(d.join("bad.toml"), text).unwrap();
    let before = snapshot(&d.join("rtl_out"));
    let out = gpuforge(&d, &["gen", "bad.toml"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{tag}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{tag}: not one line: {err}");
    assert!(err.contains("bad.toml"), "{tag}: file not named: {err}");
    for e in expect {
        assert!(err.contains(e), "{tag}: `{e}` missing from: {err}");
    }
    assert_eq!(before, snapshot(&d.join("rtl_out")), "{tag}: rtl_out changed");
    assert!(out.stdout.is_empty(), "{tag}: {}", String::from_utf8_lossy(&out.stdout));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn malformed_toml() {
    rejects("syntax", "name = \"bad\"\n[gpucc\nslices = 4\n", &["line 2"]);
}

#[test]
fn unknown_field() {
    rejects("unknown", &GOOD.replace("lanes = 3", "lanes = 3\nlane_count = 3"), &["gpucc.lane_count", "unknown field"]);
}

#[test]
fn zero_depth() {
    rejects("zero", &GOOD.replace("core_fifo_depth = 4", "core_fifo_depth = 0"), &["gpucc.core_fifo_depth", "2..=256"]);
}

#[test]
fn oversize_depth() {
    rejects("oversize", &GOOD.replace("lsu_addr_depth = 6", "lsu_addr_depth = 4096"), &["gpucc.lsu_addr_depth", "2..=1024"]);
}

#[test]
fn lanes_the_mapping_cannot_fit() {
    let text = GOOD.replace("slices = 4", "slices = 16").replace("data_width = 16", "data_width = 32") + "[gpucc.app]\nkind = \"conv3x3\"\n";
    rejects("lanes", &text, &["gpucc.lanes", "conv3x3", "4..=5"]);
}

#[test]
fn out_of_range_lane_count() {
    rejects("lanes9", &GOOD.replace("lanes = 3", "lanes = 9"), &["gpucc.lanes", "1..=5"]);
}

#[test]
fn unsupported_data_width() {
    rejects("width", &GOOD.replace("data_width = 16", "data_width = 24"), &["gpucc.data_width", "8, 16, 32, 64"]);
}

#[test]
fn a_good_config_writes_and_check_detects_edits() {
    let d = scratch("good");
    std::fs::write(d.join("good.toml"), GOOD).unwrap();
    let out = gpuforge(&d, &["gen", "good.toml"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(d.join("rtl_out/bad/manifest.json").exists());
    assert!(!d.join("rtl_out/bad/sentinel.v").exists(), "old output replaced");
    let ok = gpuforge(&d, &["gen", "--check", "good.toml"]);
    assert!(ok.status.success());
    std::fs::write(d.join("rtl_out/bad/gpucc_cr.v"), "// edited\n").unwrap();
    let stale = gpuforge(&d, &["gen", "--check", "good.toml"]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&stale.stderr).contains("gpucc_cr.v"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn sim_without_an_application_is_bad_input() {
    let d = scratch("noapp");
    std::fs::write(d.join("good.toml"), GOOD).unwrap();
    let out = gpuforge(&d, &["sim", "good.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gpucc.app"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn gpu_sim_runs_and_rejects_bad_launch_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ok = gpuforge(root, &["sim", "configs/gpu/tiny.toml", "workloads/vecadd/vecadd.toml"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("check c            ok"));
    let d = scratch("launch");
    std::fs::write(d.join("bad.toml"), "[kernel]\nfile = \"nope.ptx\"\n").unwrap();
    let cfg = root.join("configs/gpu/tiny.toml");
    let out = gpuforge(&d, &["sim", cfg.to_str().unwrap(), "bad.toml"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("bad.toml"), "{err}");
    let no_launch = gpuforge(root, &["sim", "configs/gpu/tiny.toml"]);
    assert_eq!(no_launch.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_launch.stderr).contains("needs a launch file"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn synth_writes_a_cell_report_and_lint_exit_codes_follow_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = scratch("synth");
    let report = d.join("report.json");
    let out = gpuforge(root, &["synth", "rtl_out/gpucc_small", "--report", report.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["top"], "gpucc_net_gpucc_small");
    assert_eq!(r["latches"], 0);
    assert!(r["cells"].as_u64().unwrap() > 1000 && r["cells_by_type"]["$_DFFE_PP_"].as_u64().is_some());

    let clean = gpuforge(root, &["lint", "rtl_out/gpucc_small"]);
    assert!(clean.status.success());
    assert!(String::from_utf8_lossy(&clean.stdout).contains("0 warnings"));
    std::fs::write(d.join("rtl_out/bad/sentinel.v"), "module sentinel (input wire [3:0] a_i, output wire b_o);\n  assign b_o = a_i[0];\nendmodule\n").unwrap();
    let dirty = gpuforge(&d, &["lint", "rtl_out/bad"]);
    assert_eq!(dirty.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&dirty.stdout).contains("UNUSED"));
    std::fs::remove_dir_all(&d).unwrap();
}
