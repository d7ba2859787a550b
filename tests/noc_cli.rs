//! Bad NoC configs fail with a message naming file, field and allowed range, exit 2,
//! and write nothing (acceptance 7).

use std::process::Command;

fn run_gen(body: &str) -> (i32, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, format!("name = \"noc_bad\"\n[noc]\nkind = \"macro\"\n{body}")).unwrap();
    let out_dir = dir.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("gen").arg(&cfg).arg("--out").arg(&out_dir).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    (o.status.code().unwrap_or(-1), err, out_dir.exists())
}

#[test]
fn bad_noc_configs_exit_2_and_write_nothing() {
    let cases = [
        ("mesh = 4\nmcs = [[4, 1]]\n", "noc.mcs[0]", "x and y in 0..=3"),
        ("mesh = 4\nmcs = [[1, 1], [2, 2], [1, 1]]\ngom = [0, 0]\n", "noc.mcs[2]", "distinct"),
        ("mesh = 4\nmcs = [[1, 1], [2, 3]]\ngom = [2, 3]\n", "noc.gom", "not in noc.mcs"),
        ("mesh = 4\nmcs = [[1, 1]]\n[noc.reply]\nepoch = 10000\nperiod = 300\n", "noc.reply.epoch", "multiple of noc.reply.period"),
        ("mesh = 4\nmcs = [[0, 1], [1, 1], [2, 1], [3, 1]]\n[noc.reply]\nepoch = 30\nperiod = 30\nt_min = 8\n", "noc.reply.period", "K >= 32"),
        ("mesh = 9\nmcs = [[1, 1]]\n", "noc.mesh", "2..=8"),
        ("mesh = 1\nmcs = [[0, 0]]\n", "noc.mesh", "2..=8"),
        // the VC planes' ranges (up to the LLC-Compute platform's 8 VCs and 32-B flits)
        ("mesh = 4\nmcs = [[1, 1]]\n[noc.baseline]\nvcs = 9\n", "noc.baseline.vcs: 9 is out of range", "(allowed: 1..=8)"),
        ("mesh = 4\nmcs = [[1, 1]]\n[noc.request]\nflit_width = 512\n", "noc.request.flit_width: 512 is not supported", "(allowed: one of 32, 64, 128, 256)"),
        // xy_yx splits the VCs into two classes: an odd count cannot be split
        ("mesh = 4\nmcs = [[1, 1]]\n[noc.request]\nrouting = \"xy_yx\"\nvcs = 3\n", "noc.request.vcs", "2, 4, 6 or 8 with xy_yx"),
        ("mesh = 4\nmcs = [[1, 1]]\n[noc.baseline]\nrouting = \"xy_yx\"\nvcs = 4\n", "noc.baseline.planes", "1 with xy_yx"),
        // a legal golden-model network without RTL: gen refuses it
        ("mesh = 4\nmcs = [[1, 1]]\n[noc.request]\nrouting = \"xy_yx\"\nvcs = 2\n", "noc.request.routing", "\"xy\" or \"yx\" for gen"),
    ];
    for (body, field, allowed) in cases {
        let (code, err, wrote) = run_gen(body);
        assert_eq!(code, 2, "{body}: {err}");
        assert!(err.contains("bad.toml") && err.contains(field) && err.contains(allowed), "{body}: {err}");
        assert!(!wrote, "{body}: output written");
    }
}

/// `gpuforge cosim CONFIG --design NAME ...` from the repository root (the shipped
/// preset, unmodified, as a new user runs it).
fn cosim(args: &[&str]) -> (i32, String, String) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(root).arg("cosim").args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).to_string(), String::from_utf8_lossy(&o.stderr).to_string())
}

/// The lines of a cosim run that name a design it ran.
fn runs(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("co-simulating ")).collect()
}

/// `--design` runs exactly that design, named by directory or by top module, and the
/// scoreboard is on unless `--no-check` (the command: the baseline router, with
/// its 138-bit flits, once failed at cycle 3).
#[test]
fn cosim_design_runs_exactly_that_design_and_honours_no_check() {
    let cfg = "configs/noc/noc_baseline_4x4.toml";
    let (code, out, err) = cosim(&[cfg, "--design", "routers/baseline", "--cycles", "100"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(runs(&out), ["co-simulating vc_router_top_noc_baseline_4x4_base (routers/baseline) for 100 cycles (seed 1)"], "{out}");
    assert!(out.contains("PASS vc_router_top_noc_baseline_4x4_base: 100 cycles") && out.contains("scoreboard on"), "{out}");
    let (code, out, err) = cosim(&[cfg, "--design", "vc_router_top_noc_baseline_4x4_base", "--cycles", "100", "--seed", "3", "--no-check"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(runs(&out).len(), 1, "{out}");
    assert!(out.contains("(seed 3)") && out.contains("scoreboard off"), "{out}");
    let (code, out, err) = cosim(&["configs/noc/noc_macro_4x4.toml", "--design", "routers/hinge", "--cycles", "200", "--no-check"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(runs(&out), ["co-simulating macro_hinge_top_noc_macro_4x4_x3y1 (routers/hinge) for 200 cycles (seed 1)"], "{out}");
    assert!(out.contains("scoreboard off"), "{out}");
}

/// An unknown design is refused with exit 2, listing the preset's designs, before any build.
#[test]
fn cosim_of_an_unknown_design_exits_2_and_lists_the_designs() {
    let (code, out, err) = cosim(&["configs/noc/noc_baseline_4x4.toml", "--design", "routers/hinge"]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(runs(&out).is_empty(), "{out}");
    assert!(err.contains("--design routers/hinge") && err.contains("baseline (baseline_noc_top_noc_baseline_4x4)") && err.contains("routers/baseline"), "{err}");
}
