//! Bad `[llc_compute]` configs fail with one line naming file, field and allowed range,
//! exit 2, and write nothing; the shipped presets run under `gpuforge sim`.

use std::process::Command;

const BASE: &str = "mesh = [4, 4]\nmcs = [[1, 1], [2, 2]]\n";

fn sim(body: &str) -> (i32, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, format!("name = \"llc_bad\"\n[llc_compute]\n{body}")).unwrap();
    let json = dir.path().join("out.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("sim").arg(&cfg).arg("--json").arg(&json).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).to_string(), json.exists())
}

#[test]
fn bad_llc_compute_configs_exit_2_and_write_nothing() {
    let cases = [
        ("mesh = [9, 8]\nmcs = [[1, 1]]\n".to_string(), "llc_compute.mesh[0]", "2..=8"),
        ("mesh = [4, 4]\nmcs = []\n".to_string(), "llc_compute.mcs", "1..=8 distinct"),
        ("mesh = [4, 4]\nmcs = [[4, 1]]\n".to_string(), "llc_compute.mcs[0]", "x in 0..=3, y in 0..=3"),
        ("mesh = [4, 4]\nmcs = [[1, 1], [1, 1]]\n".to_string(), "llc_compute.mcs[1]", "distinct"),
        ("mesh = [2, 2]\nmcs = [[0, 0], [0, 1], [1, 0], [1, 1]]\n".to_string(), "llc_compute.mcs", "at most 3 MCs"),
        (format!("{BASE}mode = \"fast\"\n"), "llc_compute.mode", "`off`, `llc`, `omni`"),
        (format!("{BASE}llc_rule = \"nearest\"\n"), "llc_compute.llc_rule", "`same_partition` or `emn_is_llc`"),
        (format!("{BASE}[oq]\nentries = 65\n").replace("[oq]", "[llc_compute.oq]"), "llc_compute.oq.entries", "1..=64"),
        (format!("{BASE}[llc_compute.oq]\nwarps = 0\n"), "llc_compute.oq.warps", "1..=64"),
        (format!("{BASE}[llc_compute.oq]\nlanes = 12\n"), "llc_compute.oq.lanes", "one of 4, 8, 16, 32"),
        (format!("{BASE}[llc_compute.oq]\ndiv_policy = \"split\"\n"), "llc_compute.oq.div_policy", "discard"),
        (format!("{BASE}[llc_compute.oq]\ncpgu_busy_policy = \"spin\"\n"), "llc_compute.oq.cpgu_busy_policy", "`wait` or `run_normally`"),
        (format!("{BASE}[llc_compute.oq]\nl1_tag_latency = 0\n"), "llc_compute.oq.l1_tag_latency", "1..=8"),
        (format!("{BASE}[llc_compute.sq]\nentries = 300\n"), "llc_compute.sq.entries", "1..=256"),
        (format!("{BASE}[llc_compute.sq]\nbuffer = 0\n"), "llc_compute.sq.buffer", "1..=16"),
        (format!("{BASE}[llc_compute.sq]\nalu_latency = 17\n"), "llc_compute.sq.alu_latency", "1..=16"),
        (format!("{BASE}[llc_compute.sq]\nentries = 96\nsmem_aw = 7\n"), "llc_compute.sq.smem_aw", "8..=16"),
        (format!("{BASE}[llc_compute.sq]\nalu_latency = 4\nfdiv = true\nfdiv_latency = 3\n"), "llc_compute.sq.fdiv_latency", "4..=64"),
        (format!("{BASE}[llc_compute.sq]\nqueue = 3\n"), "llc_compute.sq.queue", "unknown field"),
    ];
    for (body, field, allowed) in cases {
        let (code, err, wrote) = sim(&body);
        assert_eq!(code, 2, "{body}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{body}: one line: {err}");
        assert!(err.contains("bad.toml") && err.contains(field) && err.contains(allowed), "{body}: {err}");
        assert!(!wrote, "{body}: output written");
    }
}

/// Both presets run their golden models (EMN statistics, the OQ under random traffic
/// with the scoreboard) and write the JSON; the paper preset reports the spec §2.4.3
/// statistics.
#[test]
fn presets_run_under_sim() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["llc_compute_paper", "llc_compute_small"] {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("s.json");
        let o = Command::new(env!("CARGO_BIN_EXE_gpuforge"))
            .current_dir(root)
            .args(["sim", &format!("configs/llc_compute/{name}.toml"), "--max-cycles", "3000", "--json"])
            .arg(&json)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{name}: {out} {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(out.matches("no invariant broken, nothing leaked").count(), 3, "{out}");
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        if name == "llc_compute_paper" {
            assert!(out.contains("1568 of 3136 (50.00%)") && out.contains("(7.14% of different-MC pairs)"), "{out}");
            assert_eq!(v["emn"]["distinct_with_emn"], 1568);
        }
        assert!(v["oq"]["cps"].as_u64().unwrap() > 0, "{v}");
    }
}

/// `[hooks.llc_compute]` on a GPU config: a bad mode is one line naming the file and the
/// field, exit 2, nothing written; `profile` runs and reports the chain counters.
#[test]
fn the_gpu_hook_refuses_bad_modes_and_profiles_chains() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tiny = std::fs::read_to_string(root.join("configs/gpu/tiny.toml")).unwrap();
    let run = |mode: &str| {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("gpu.toml");
        std::fs::write(&cfg, format!("{tiny}\n[hooks.llc_compute]\nmode = \"{mode}\"\n")).unwrap();
        let json = dir.path().join("r.json");
        let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("sim").arg(&cfg).arg(root.join("workloads/vecadd/vecadd.toml")).arg("--json").arg(&json).output().unwrap();
        let report = std::fs::read_to_string(&json).ok();
        (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).to_string(), report)
    };
    for mode in ["omni", "fast"] {
        let (code, err, report) = run(mode);
        assert_eq!(code, 2, "{mode}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{mode}: one line: {err}");
        assert!(err.contains("gpu.toml") && err.contains("hooks.llc_compute.mode") && err.contains("\"profile\""), "{mode}: {err}");
        assert!(report.is_none(), "{mode}: output written");
    }
    let (code, err, report) = run("profile");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&report.unwrap()).unwrap();
    assert_eq!(v["hooks"]["llc_compute.chain_warp_insts"], 313 * 4, "{}", v["hooks"]);
}
