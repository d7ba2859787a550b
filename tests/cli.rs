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
    assert!(d.join("rtl_out/bad/net/manifest.json").exists());
    assert!(d.join("rtl_out/bad/net/gpucc_net_bad.f").exists() && d.join("rtl_out/bad/config.json").exists());
    assert!(!d.join("rtl_out/bad/sentinel.v").exists(), "old output replaced");
    let ok = gpuforge(&d, &["gen", "--check", "good.toml"]);
    assert!(ok.status.success());
    std::fs::write(d.join("rtl_out/bad/lib/gpucc_cr.v"), "// edited\n").unwrap();
    let stale = gpuforge(&d, &["gen", "--check", "good.toml"]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&stale.stderr).contains("gpucc_cr.v"));
    // one design on its own: its modules and a filelist of plain names
    let solo = gpuforge(&d, &["gen", "good.toml", "--design", "net", "--out", "solo"]);
    assert!(solo.status.success(), "{}", String::from_utf8_lossy(&solo.stderr));
    let list = std::fs::read_to_string(d.join("solo/gpucc_net_bad.f")).unwrap();
    assert!(list.lines().all(|l| !l.contains('/') && d.join("solo").join(l).exists()), "{list}");
    let lint = gpuforge(&d.join("solo"), &["lint", "."]);
    assert!(lint.status.success(), "{}", String::from_utf8_lossy(&lint.stdout));
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
    let out = gpuforge(root, &["synth", "rtl_out/gpucc_small/net", "--report", report.to_str().unwrap()]);
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

/// `gpuforge lint` of a preset lints its designs side by side and reports them in
/// directory order, exactly as one at a time does (`--jobs 0` is bad input, for synth
/// too); a warning planted in the second
/// design fails the run (exit 1) and is printed just before that design's line, with
/// every other design still reported.
#[test]
fn lint_reports_designs_in_order_whatever_the_jobs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = scratch("lint_jobs");
    let preset = d.join("rtl_out/qcache_small");
    copy_tree(&root.join("rtl_out/qcache_small"), &preset);
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).to_string();
    let lines = |o: &Output| text(o).lines().filter(|l| l.starts_with("lint ")).map(str::to_string).collect::<Vec<_>>();
    for cmd in ["lint", "synth"] {
        let zero = gpuforge(&d, &[cmd, "rtl_out/qcache_small", "--jobs", "0"]);
        assert_eq!(zero.status.code(), Some(2), "{cmd}");
        assert!(String::from_utf8_lossy(&zero.stderr).contains("--jobs 0: allowed 1 or more"), "{cmd}: {}", String::from_utf8_lossy(&zero.stderr));
    }
    let one = gpuforge(&d, &["lint", "rtl_out/qcache_small", "--jobs", "1"]);
    let all = gpuforge(&d, &["lint", "rtl_out/qcache_small", "--jobs", "4"]);
    assert!(one.status.success() && all.status.success(), "{}{}", text(&one), text(&all));
    assert_eq!(text(&one), text(&all));
    let designs: Vec<String> = lines(&one).iter().map(|l| l.split(':').next().unwrap().trim_start_matches("lint ").to_string()).collect();
    assert_eq!(designs, ["cpu_dvfs", "filter", "gpu_actuator", "monitor"].map(|n| format!("rtl_out/qcache_small/{n}")));

    // a width mismatch planted in the filter's top (Verilator 5.006 says nothing of a
    // wire neither driven nor used), the manifest's content hash updated to match
    let filter = preset.join("filter");
    let mpath = filter.join("manifest.json");
    let mut m: hdl_gen::manifest::Manifest = serde_json::from_str(&std::fs::read_to_string(&mpath).unwrap()).unwrap();
    let top = filter.join(m.files.iter().find(|f| f.contains("qc_transition_filter")).unwrap());
    let v = std::fs::read_to_string(&top).unwrap().replacen("endmodule", "wire [7:0] planted_unused = 16'hffff;\nendmodule", 1);
    std::fs::write(&top, v).unwrap();
    let files: Vec<(String, String)> =
        m.files.iter().map(|f| (Path::new(f).file_name().unwrap().to_string_lossy().to_string(), std::fs::read_to_string(filter.join(f)).unwrap())).collect();
    m.content_hash = hdl_gen::manifest::content_hash(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
    std::fs::write(&mpath, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let bad = gpuforge(&d, &["lint", "rtl_out/qcache_small", "--jobs", "4"]);
    assert_eq!(bad.status.code(), Some(1), "{}", text(&bad));
    assert_eq!(lines(&bad).len(), 4, "{}", text(&bad));
    let out = text(&bad);
    let finding = out.find("%Warning-WIDTH").unwrap_or_else(|| panic!("{out}"));
    let at = |n: &str| out.find(&format!("lint rtl_out/qcache_small/{n}:")).unwrap_or_else(|| panic!("{n}: {out}"));
    assert!(at("cpu_dvfs") < finding && finding < at("filter") && at("filter") < at("gpu_actuator"), "{out}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Two presets' designs with the same top module (`llc_ni_demux_n2`, different
/// content) synthesized side by side: each gets its own work directory and report, and
/// the output lists them in directory order whatever the jobs.
#[test]
fn synth_of_designs_sharing_a_top_keeps_them_apart() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = scratch("synth_jobs");
    for preset in ["llc_compute_paper", "llc_compute_small"] {
        copy_tree(&root.join("rtl_out").join(preset).join("ni_demux_llc"), &d.join("two").join(preset).join("ni_demux_llc"));
        std::fs::create_dir_all(d.join("two").join(preset).join("lib")).unwrap();
        std::fs::copy(root.join("rtl_out").join(preset).join("lib/llc_ni_demux_n2.v"), d.join("two").join(preset).join("lib/llc_ni_demux_n2.v")).unwrap();
    }
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).to_string();
    let strip = |t: String| t.lines().map(|l| if l.starts_with("synth ") { l.rsplit_once(", ").unwrap().0 } else { l }).collect::<Vec<_>>().join("\n");
    let one = gpuforge(&d, &["synth", "two", "--jobs", "1"]);
    let two = gpuforge(&d, &["synth", "two", "--jobs", "2"]);
    assert!(one.status.success() && two.status.success(), "{}{}", text(&one), String::from_utf8_lossy(&two.stderr));
    assert_eq!(strip(text(&one)), strip(text(&two)));
    let out = text(&two);
    let reports: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("report: ")).collect();
    assert_eq!(reports.len(), 2, "{out}");
    assert_ne!(reports[0], reports[1], "one report per design");
    let cells: Vec<u64> = reports.iter().map(|p| serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(p).unwrap()).unwrap()["cells"].as_u64().unwrap()).collect();
    let printed: Vec<u64> = out.lines().filter(|l| l.starts_with("synth llc_ni_demux_n2: ")).map(|l| l.split(' ').nth(2).unwrap().parse().unwrap()).collect();
    assert_eq!(cells, printed, "each report is its own design's: {out}");
    std::fs::remove_dir_all(&d).unwrap();
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_tree(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Flags a command cannot honour for a config are refused (exit 2), never ignored.
#[test]
fn flags_a_block_does_not_use_are_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases: [(&[&str], &str); 9] = [
        (&["sim", "configs/gpucc/gpucc_paper_sm.toml", "--sweep", "0.1"], "--sweep"),
        (&["sim", "configs/gpucc/gpucc_paper_sm.toml", "--out-dir", "x"], "--out-dir"),
        (&["sim", "configs/gpucc/gpucc_paper_sm.toml", "workloads/vecadd/vecadd.toml"], "<launch file>"),
        (&["sim", "configs/noc/noc_macro_4x4.toml", "--check"], "--check"),
        (&["sim", "configs/noc/noc_macro_4x4.toml", "--max-cycles", "10"], "--max-cycles"),
        (&["sim", "configs/noc/noc_macro_4x4.toml", "--sweep", "2"], "0..=1"),
        (&["sim", "configs/gpu/tiny.toml", "workloads/vecadd/vecadd.toml", "--check"], "--check"),
        (&["gen", "configs/gpu/tiny.toml"], "no RTL"),
        (&["cosim", "configs/gpu/tiny.toml"], "no RTL"),
    ];
    for (args, expect) in cases {
        let out = gpuforge(root, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: `{expect}` missing from {err}");
    }
}

/// `cosim --design` runs one design, an unknown one is bad input naming the designs,
/// `--no-check` turns the scoreboard off (and says so), one trace file for several
/// designs is refused.
#[test]
fn cosim_one_design_with_and_without_the_scoreboard() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cfg = "configs/gpucc/gpucc_small.toml";
    let on = gpuforge(root, &["cosim", cfg, "--design", "net", "--cycles", "2000"]);
    let text = String::from_utf8_lossy(&on.stdout);
    assert!(on.status.success(), "{text}{}", String::from_utf8_lossy(&on.stderr));
    assert!(text.contains("PASS gpucc_net_gpucc_small") && text.contains("scoreboard on"), "{text}");
    let off = gpuforge(root, &["cosim", cfg, "--design", "gpucc_net_gpucc_small", "--cycles", "2000", "--no-check"]);
    let text = String::from_utf8_lossy(&off.stdout);
    assert!(off.status.success() && text.contains("scoreboard off"), "{text}");
    let bad = gpuforge(root, &["cosim", cfg, "--design", "nope"]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("--design nope") && err.contains("net (gpucc_net_gpucc_small)"), "{err}");
    let two = gpuforge(root, &["cosim", "configs/noc/noc_macro_4x4.toml", "--trace", "one.vcd", "--cycles", "10"]);
    assert_eq!(two.status.code(), Some(2), "{}", String::from_utf8_lossy(&two.stderr));
    // --trace FILE and --seed are honoured: the VCD is written, the seed reported
    let d = scratch("trace");
    let vcd = d.join("run.vcd");
    let t = gpuforge(root, &["cosim", cfg, "--cycles", "300", "--seed", "5", "--trace", vcd.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(t.status.success() && text.contains("(seed 5)"), "{text}");
    let body = std::fs::read_to_string(&vcd).unwrap();
    assert!(body.contains("$enddefinitions") && body.contains("u_fire_o"), "not a VCD of the design");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn cosim_with_a_threaded_verilator_model() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cfg = "configs/gpucc/gpucc_small.toml";
    let t = gpuforge(root, &["cosim", cfg, "--cycles", "1000", "--threads", "2"]);
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(t.status.success(), "{text}{}", String::from_utf8_lossy(&t.stderr));
    assert!(text.contains("PASS gpucc_net_gpucc_small") && text.contains("2 threads"), "{text}");
    for bad in ["0", "65", "two"] {
        let r = gpuforge(root, &["cosim", cfg, "--threads", bad]);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "--threads {bad}: {err}");
        assert!(err.contains("--threads"), "{err}");
    }
}

#[test]
fn sim_writes_its_statistics_as_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = scratch("json");
    let j = d.join("stats.json");
    let out = gpuforge(root, &["sim", "configs/noc/noc_macro_4x4.toml", "--json", j.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    assert!(v["points"][0]["packets"].as_u64().unwrap() > 0, "{v}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn lint_of_a_directory_without_verilog_is_bad_input() {
    let d = scratch("empty");
    std::fs::create_dir_all(d.join("nothing")).unwrap();
    let out = gpuforge(&d, &["lint", "nothing"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn gen_of_a_directory_writes_every_config_with_rtl() {
    let d = scratch("dir");
    std::fs::create_dir_all(d.join("cfgs/gpu")).unwrap();
    std::fs::write(d.join("cfgs/good.toml"), GOOD).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("configs/gpu/tiny.toml"), d.join("cfgs/gpu/tiny.toml")).unwrap();
    let out = gpuforge(&d, &["gen", "cfgs"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(d.join("rtl_out/bad/net/manifest.json").exists());
    assert!(!d.join("rtl_out/tiny").exists(), "the GPU model has no RTL");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn gen_into_a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = scratch("pipe");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpuforge"))
        .current_dir(root)
        .args(["gen", "configs/noc/noc_macro_4x4.toml", "--out"])
        .arg(d.join("out"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader went away, as `| head -0` does
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
