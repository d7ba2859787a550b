//! The committed Verilog: current with the generator, `-Wall` lint clean, and the
//! lint check itself shown to catch a planted problem.

mod common;

use std::path::PathBuf;

use golden::config::load;
use verif::lint::{lint_dir, lint_dirs};

/// Every shipped config whose block generates Verilog.
fn presets() -> Vec<(PathBuf, golden::config::ConfigFile)> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(common::repo().join("configs")).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "toml") {
            let cfg = load(&p).unwrap_or_else(|e| panic!("{e}"));
            v.push((p, cfg));
        }
    }
    v.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(v.len() >= 2, "presets missing");
    v
}

#[test]
fn committed_rtl_out_is_current_for_every_preset() {
    let mut stale = Vec::new();
    for (path, cfg) in presets() {
        let out = common::repo().join("rtl_out").join(&cfg.name);
        for (sub, d) in hdl_gen::generate(&cfg).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
            stale.extend(d.stale_files(&out.join(sub)));
        }
    }
    assert!(stale.is_empty(), "rtl_out is stale (run `make rtl`): {stale:#?}");
}

#[test]
fn staleness_is_detected() {
    let (_, _, d) = common::preset("gpucc_small");
    let dir = std::env::temp_dir().join(format!("gpuforge-stale-{}", std::process::id()));
    d.write_to(&dir).unwrap();
    assert!(d.stale_files(&dir).is_empty());
    let f = dir.join(&d.files[0].0);
    let mut text = std::fs::read_to_string(&f).unwrap();
    text.push_str("// edited by hand\n");
    std::fs::write(&f, text).unwrap();
    std::fs::write(dir.join("extra.v"), "").unwrap();
    let stale = d.stale_files(&dir);
    assert_eq!(stale.len(), 2, "{stale:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_committed_file_is_lint_clean() {
    // every design directory, at any depth (NoC presets nest `routers/<kind>/`)
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        if dir.join("manifest.json").exists() {
            out.push(dir.to_path_buf());
        }
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            if e.path().is_dir() {
                walk(&e.path(), out);
            }
        }
    }
    let mut dirs = Vec::new();
    walk(&common::repo().join("rtl_out"), &mut dirs);
    assert!(dirs.len() >= 2);
    dirs.sort();
    for r in lint_dirs(&dirs).unwrap_or_else(|e| panic!("{e}")) {
        assert!(r.files > 0);
        assert!(r.clean(), "{}: {:#?}", r.dir.display(), r.findings);
    }
}

#[test]
fn lint_catches_a_planted_warning() {
    let dir = std::env::temp_dir().join(format!("gpuforge-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("planted.v"),
        "module planted (input wire [3:0] a_i, output wire [3:0] b_o);\n  wire [7:0] wide = a_i;\n  assign b_o = wide[3:0];\nendmodule\n",
    )
    .unwrap();
    let r = lint_dir(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!r.clean(), "a width mismatch and unused bits went unnoticed");
    assert!(r.findings.iter().any(|f| f.contains("WIDTH")), "{:?}", r.findings);
}

#[test]
fn lint_dirs_skips_only_identical_files() {
    let root = std::env::temp_dir().join(format!("gpuforge-lint-dirs-{}", std::process::id()));
    let (a, b) = (root.join("a"), root.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let clean = "module m (input wire [3:0] a_i, output wire [3:0] b_o);\n  assign b_o = a_i;\nendmodule\n";
    let planted = "module m (input wire [3:0] a_i, output wire [3:0] b_o);\n  wire [7:0] wide = a_i;\n  assign b_o = wide[3:0];\nendmodule\n";
    std::fs::write(a.join("m.v"), clean).unwrap();
    std::fs::write(b.join("m.v"), planted).unwrap();
    let r = lint_dirs(&[a.clone(), b.clone()]).unwrap();
    std::fs::write(b.join("m.v"), clean).unwrap();
    let again = lint_dirs(&[a, b]).unwrap();
    std::fs::remove_dir_all(&root).unwrap();
    assert!(r[0].clean() && !r[1].clean(), "same name, different text must be linted: {r:?}");
    assert!(again.iter().all(|r| r.clean() && r.files == 1));
}
