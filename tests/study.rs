//! `gpuforge study` end to end on tiny study files: resume after an interruption,
//! a failing run that does not stop the others, identical bytes from identical studies,
//! a real single-node Slurm job array giving the local backend's bytes, bad study files
//! refused with exit 2 and nothing written, and the shipped studies listed and planned.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn gpuforge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(dir).args(args).output().expect("runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuforge-study-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A study of 6 short NoC runs (2 networks x 3 rates), configs by absolute path.
fn noc_study(dir: &Path, cycles: u32) -> PathBuf {
    let cfg = |n: &str| repo().join("configs/noc").join(n).display().to_string();
    let s = format!(
        r#"name = "tiny_noc"
title = "tiny"
paper = "test"
seed_file = "003"
reproduces = "nothing"

[[runs]]
name = "sweep"
configs = ["{}", "{}"]
knobs = {{ "noc.traffic.rate" = [0.001, 0.002, 0.003], "noc.traffic.cycles" = {cycles}, "noc.traffic.warmup" = 200 }}

[[measure]]
name = "ratio"
label = "MACRO / baseline latency"
stat = "points.0.latency_avg"
where = {{ config = "noc_macro_4x4" }}
over = {{ config = "noc_baseline_4x4" }}
reduce = "geomean"
paper = 0.3
tolerance = 0.1
source = "test"
reason = "stated reason"

[[figure]]
name = "curve"
title = "latency"
kind = "curve"
x = "noc.traffic.rate"
y = "points.0.latency_avg"
"#,
        cfg("noc_macro_4x4.toml"),
        cfg("noc_baseline_4x4.toml")
    );
    let p = dir.join("tiny_noc.toml");
    std::fs::write(&p, s).unwrap();
    p
}

fn cache_files(out: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(out.join("runs")).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    v.sort();
    v
}

#[test]
fn an_interrupted_study_resumes_with_only_the_missing_runs() {
    let d = scratch("resume");
    let study = noc_study(&d, 1500);
    let s = study.to_str().unwrap();
    // stopped after 2 runs (--limit), then resumed
    let o = gpuforge(&d, &["study", "run", s, "--out", "a", "--jobs", "2", "--limit", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("6 runs: 2 executed, 0 reused") && text(&o).contains("4 left for the next call"), "{}", text(&o));
    assert!(std::fs::read_to_string(d.join("a/results.csv")).unwrap().contains(",missing,"));
    let o = gpuforge(&d, &["study", "run", s, "--out", "a", "--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("6 runs: 4 executed, 2 reused"), "{}", text(&o));
    // results lost for two runs: only those run again
    let files = cache_files(&d.join("a"));
    assert_eq!(files.len(), 6);
    std::fs::remove_file(&files[0]).unwrap();
    std::fs::remove_file(&files[3]).unwrap();
    let o = gpuforge(&d, &["study", "run", s, "--out", "a", "--jobs", "2"]);
    assert!(text(&o).contains("6 runs: 2 executed, 4 reused"), "{}", text(&o));
    // a resumed study writes what an uninterrupted one writes
    let o = gpuforge(&d, &["study", "run", s, "--out", "b", "--jobs", "1"]);
    assert!(text(&o).contains("6 runs: 6 executed, 0 reused"), "{}", text(&o));
    for f in ["results.csv", "results.json", "report.md", "curve.svg"] {
        assert_eq!(read(&d.join("a").join(f)), read(&d.join("b").join(f)), "{f} differs");
    }
    // a study killed after its second run (longer runs, one at a time) keeps what finished
    let k = d.join("k");
    std::fs::create_dir_all(&k).unwrap();
    let long = noc_study(&k, 40000);
    let long = long.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(&k).args(["study", "run", long, "--out", "c", "--jobs", "1"]).spawn().unwrap();
    let t0 = std::time::Instant::now();
    while k.join("c/runs").read_dir().map_or(0, |r| r.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "json")).count()) < 2 {
        assert!(t0.elapsed().as_secs() < 300, "no run finished");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done = cache_files(&k.join("c")).len();
    assert!((2..6).contains(&done), "killed after {done} runs: make the runs longer");
    let o = gpuforge(&k, &["study", "run", long, "--out", "c", "--jobs", "2"]);
    assert!(text(&o).contains(&format!("6 runs: {} executed, {done} reused", 6 - done)), "{done} cached: {}", text(&o));
    let o = gpuforge(&k, &["study", "run", long, "--out", "whole", "--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(read(&k.join("c/results.csv")), read(&k.join("whole/results.csv")));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_same_study_twice_gives_identical_bytes() {
    let d = scratch("determinism");
    let study = noc_study(&d, 1500);
    let s = study.to_str().unwrap();
    let a = gpuforge(&d, &["study", "run", s, "--out", "a", "--jobs", "2"]);
    let b = gpuforge(&d, &["study", "run", s, "--out", "b", "--jobs", "1"]);
    assert!(a.status.success() && b.status.success(), "{}{}", text(&a), text(&b));
    for f in ["results.csv", "results.json", "report.md", "curve.svg"] {
        assert_eq!(read(&d.join("a").join(f)), read(&d.join("b").join(f)), "{f} differs");
    }
    let csv = std::fs::read_to_string(d.join("a/results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert!(csv.lines().next().unwrap().starts_with("index,group,config,launch,seed,noc.traffic.cycles,noc.traffic.rate,noc.traffic.warmup,status,error,network,"), "{csv}");
    assert!(csv.contains("points.0.latency_avg"), "{csv}");
    assert!(csv.lines().next().unwrap().ends_with(",points.0.undelivered,json.seed"), "the NoC's own `seed` statistic is told apart: {csv}");
    let report = std::fs::read_to_string(d.join("a/report.md")).unwrap();
    assert!(report.contains("| MACRO / baseline latency"), "{report}");
    assert!(report.contains("stated reason") || report.contains("✓ within"), "{report}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_failing_run_is_reported_and_the_others_still_run() {
    let d = scratch("failing");
    let cfg = repo().join("configs/gpucc/gpucc_paper_sm.toml").display().to_string();
    let s = format!(
        r#"name = "tiny_gpucc"
title = "tiny"
paper = "test"
seed_file = "004"
reproduces = "nothing"

[[runs]]
name = "whole"
configs = ["{cfg}"]
seeds = [1, 2]
knobs = {{ "gpucc.app.image" = 32 }}

[[runs]]
name = "cut_short"
configs = ["{cfg}"]
knobs = {{ "gpucc.app.image" = 32 }}
max_cycles = 50

[[measure]]
name = "rate"
label = "Gpixel/s"
stat = "giga_items_per_s"
where = {{ group = "whole" }}
"#
    );
    std::fs::write(d.join("t.toml"), s).unwrap();
    let o = gpuforge(&d, &["study", "run", "t.toml", "--out", "o", "--jobs", "2"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("3 runs: 3 executed, 0 reused") && t.contains("1 failed"), "{t}");
    assert!(t.contains("FAIL run 2 (gpucc_paper_sm"), "{t}");
    let csv = std::fs::read_to_string(d.join("o/results.csv")).unwrap();
    assert_eq!(csv.matches(",ok,").count(), 2, "{csv}");
    assert_eq!(csv.matches(",failed,").count(), 1, "{csv}");
    let report = std::fs::read_to_string(d.join("o/report.md")).unwrap();
    assert!(report.contains("## Failed runs") && report.contains("run 2 (gpucc_paper_sm"), "{report}");
    // the failure is not cached: a rerun tries it again and reuses the others
    let o = gpuforge(&d, &["study", "run", "t.toml", "--out", "o", "--jobs", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("3 runs: 1 executed, 2 reused"), "{}", text(&o));
    std::fs::remove_dir_all(&d).unwrap();
}

/// `study run` on `body`: exit 2, one line naming the file and each of `expect`, and no
/// output directory.
fn rejects(tag: &str, body: &str, expect: &[&str]) {
    let d = scratch(&format!("bad-{tag}"));
    let cfg = repo().join("configs/noc/noc_macro_4x4.toml").display().to_string();
    let head = "name = \"bad\"\ntitle = \"t\"\npaper = \"p\"\nseed_file = \"003\"\nreproduces = \"r\"\n";
    std::fs::write(d.join("bad.toml"), format!("{head}{}", body.replace("CFG", &cfg))).unwrap();
    let o = gpuforge(&d, &["study", "run", "bad.toml", "--out", "out"]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{tag}: {}", text(&o));
    assert_eq!(err.trim_end().lines().count(), 1, "{tag}: not one line: {err}");
    assert!(err.contains("bad.toml"), "{tag}: file not named: {err}");
    for e in expect {
        assert!(err.contains(e), "{tag}: `{e}` missing from: {err}");
    }
    assert!(!d.join("out").exists(), "{tag}: output written");
    assert!(o.stdout.is_empty(), "{tag}: {}", String::from_utf8_lossy(&o.stdout));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_study_files_are_refused_naming_file_and_field() {
    let runs = "[[runs]]\nconfigs = [\"CFG\"]\n";
    rejects("unknown-field", &format!("{runs}colour = 1\n"), &["runs[0].colour", "unknown field"]);
    rejects("reduce", &format!("{runs}[[measure]]\nname = \"m\"\nlabel = \"l\"\nstat = \"x\"\nreduce = \"median\"\n"), &["measure", "median", "geomean"]);
    rejects("no-config", "[[runs]]\nconfigs = [\"nope.toml\"]\n", &["runs[0].configs[0]", "nope.toml: no such file"]);
    rejects("knob-key", &format!("{runs}knobs = {{ \"noc.traffic.rat\" = [0.1] }}\n"), &["runs[0].knobs", "noc.traffic.rat", "unknown field"]);
    rejects("knob-range", &format!("{runs}knobs = {{ \"noc.traffic.rate\" = [0.1, 2.0] }}\n"), &["runs[0].knobs", "noc.traffic.rate", "out of range", "allowed"]);
    rejects(
        "where",
        &format!("{runs}[[measure]]\nname = \"m\"\nlabel = \"l\"\nstat = \"x\"\nwhere = {{ rate = 1 }}\n"),
        &["measure[0].where.\"rate\"", "allowed: group, config, launch, seed"],
    );
    rejects("divide-no-stat", &format!("{runs}[[measure]]\nname = \"m\"\nlabel = \"l\"\ndivide_by = \"x\"\nreason = \"r\"\n"), &["measure[0].divide_by", "set stat"]);
    rejects("divide-empty", &format!("{runs}[[measure]]\nname = \"m\"\nlabel = \"l\"\nstat = \"x\"\ndivide_by = \" \"\n"), &["measure[0].divide_by", "empty path"]);
    rejects("no-source", &format!("{runs}[[measure]]\nname = \"m\"\nlabel = \"l\"\nstat = \"x\"\npaper = 1.0\n"), &["measure[0].source"]);
    rejects("flag", &format!("{runs}max_cycles = 10\n"), &["runs[0].max_cycles", "allowed"]);
    rejects("figure", &format!("{runs}[[figure]]\nname = \"f\"\ntitle = \"t\"\nkind = \"bars\"\nmeasures = [\"zzz\"]\n"), &["figure[0].measures", "zzz"]);
    // synthesis groups: designs the config generates, counts in range, nothing a simulation takes
    let synth = |d: &str| format!("{runs}synth = {{ {d} }}\n");
    rejects("synth-design", &synth("\"routers/nope\" = 1"), &["runs[0].synth.\"routers/nope\"", "generates no design", "routers/hinge", "routers/request"]);
    rejects("synth-count", &synth("\"routers/hinge\" = 0"), &["runs[0].synth.\"routers/hinge\"", "not a count", "1..="]);
    rejects("synth-empty", &synth(""), &["runs[0].synth", "no design"]);
    rejects(
        "synth-launch",
        &format!("{}launches = [\"CFG\"]\n", synth("\"routers/hinge\" = 1")),
        &["runs[0].launches", "synthesis group", "allowed: configs, knobs, synth, quick"],
    );
    rejects("synth-seeds", &format!("{}seeds = [1, 2]\n", synth("\"routers/hinge\" = 1")), &["runs[0].seeds", "synthesis group"]);
    let gpu = repo().join("configs/gpu/tiny.toml").display().to_string();
    rejects("synth-no-rtl", &format!("[[runs]]\nconfigs = [\"{gpu}\"]\nsynth = {{ \"core\" = 1 }}\n"), &["runs[0].synth", "generates no RTL"]);
}

#[test]
fn the_shipped_studies_are_listed_and_plan() {
    let o = gpuforge(&repo(), &["study", "list"]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    for s in [
        "gpucc_table1",
        "macro_noc_latency",
        "macro_noc_exec",
        "macro_noc_area",
        "tfb_barriers",
        "qcache_hetero",
        "llc_compute_offload",
        "llc_compute_design",
        "seed 004",
        "seed 003",
        "seed 002",
        "seed 000",
    ] {
        assert!(t.contains(s), "{s} missing: {t}");
    }
    for name in ["gpucc_table1", "macro_noc_latency", "macro_noc_exec", "macro_noc_area", "tfb_barriers", "qcache_hetero", "llc_compute_offload", "llc_compute_design"] {
        for quick in [false, true] {
            let mut args = vec!["study", "show", name, "--out", "/nonexistent-gpuforge-study"];
            if quick {
                args.push("--quick");
            }
            let o = gpuforge(&repo(), &args);
            assert!(o.status.success(), "{name} {quick}: {}", text(&o));
            assert!(text(&o).contains("to run"), "{}", text(&o));
        }
    }
    let o = gpuforge(&repo(), &["study", "show", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("gpucc_table1, llc_compute_design, llc_compute_offload, macro_noc_area, macro_noc_exec, macro_noc_latency"), "{}", text(&o));
}

/// Needs a real Slurm: `scripts/slurm-local.sh start` (run here) configures and starts
/// munge, slurmctld and slurmd on this machine; `make setup` installs them. A missing
/// Slurm fails this test.
#[test]
fn a_slurm_job_array_gives_the_local_backends_bytes() {
    let up = Command::new("bash").arg(repo().join("scripts/slurm-local.sh")).arg("start").output().expect("bash runs");
    assert!(up.status.success(), "no local Slurm (make setup installs it; scripts/slurm-local.sh start starts it): {}", text(&up));
    let d = scratch("slurm");
    let study = noc_study(&d, 1500);
    let s = study.to_str().unwrap();
    let o = gpuforge(&d, &["study", "run", s, "--out", "local", "--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = gpuforge(&d, &["study", "run", s, "--out", "slurm", "--backend", "slurm", "--wait", "--sbatch-arg=--time=00:10:00"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("6 array tasks of 6 runs"), "{}", text(&o));
    let script = std::fs::read_to_string(d.join("slurm/slurm/tiny_noc.sh")).unwrap();
    assert!(script.contains("#SBATCH --array=0-5") && script.contains("study run-one"), "{script}");
    for f in ["results.csv", "results.json", "report.md", "curve.svg"] {
        assert_eq!(read(&d.join("local").join(f)), read(&d.join("slurm").join(f)), "{f} differs between the backends");
    }
    // every task left its log; a second submission finds everything cached
    let logs = std::fs::read_dir(d.join("slurm/slurm")).unwrap().flatten().filter(|e| e.path().extension().is_some_and(|x| x == "log")).count();
    assert_eq!(logs, 6);
    let o = gpuforge(&d, &["study", "run", s, "--out", "slurm", "--backend", "slurm", "--wait"]);
    assert!(text(&o).contains("all 6 runs are cached"), "{}", text(&o));
    // report merges what has finished: with two results gone it says so and writes the rest
    let files = cache_files(&d.join("slurm"));
    std::fs::remove_file(&files[1]).unwrap();
    std::fs::remove_file(&files[4]).unwrap();
    let o = gpuforge(&d, &["study", "report", s, "--out", "slurm"]);
    assert!(o.status.success() && text(&o).contains("4 of 6 runs finished"), "{}", text(&o));
    assert_eq!(read(&d.join("slurm/results.csv")).matches(",missing,").count(), 2);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_shipped_studies_run_quick_and_write_every_output() {
    let d = scratch("shipped");
    // (study, a figure, a row of the paper-vs-measured table, its verdict: MACRO-NoC's
    // execution time and, with --quick, the TFB study's F-TFB geomean are outside the
    // paper's band, with the reason stated)
    for (name, figure, row_label, verdict) in [
        ("gpucc_table1", "table1.svg", "GPU-CC 3x3 (Gpixel/s)", "✓ within"),
        ("macro_noc_latency", "latency_4x4.svg", "4x4 reply-plane ceiling, no multiplexing", "✓ within"),
        ("macro_noc_exec", "exec_energy.svg", "64-core 8(c) execution time, MACRO / baseline", "✗ outside"),
        ("tfb_barriers", "speedups.svg", "S9: F-TFB over drain (speed-up, geomean, sensitive set)", "✗ outside"),
        ("macro_noc_area", "table2.svg", "XY-YX / baseline (1 plane), 4x4", "✓ within"),
        ("qcache_hetero", "qcache_runtime.svg", "A4: run time, finite software queue / Q-cache (speedup of Q-cache)", "✗ outside"),
        ("llc_compute_offload", "table3.svg", "Study 5, KMN: chain instructions / all", "✓ within"),
        ("llc_compute_design", "fig16.svg", "Study 21: (core, different-MC pair) combinations with an EMN, baseline (Fig. 3) placement", "✓ within"),
    ] {
        let out = d.join(format!("{name}_quick"));
        let o = gpuforge(&repo(), &["study", "run", name, "--quick", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        for f in ["results.csv", "results.json", "report.md", figure] {
            assert!(out.join(f).is_file(), "{name}: no {f}");
        }
        let report = read(&out.join("report.md"));
        let row = report.lines().find(|l| l.starts_with(&format!("| {row_label}"))).unwrap_or_else(|| panic!("{name}: no row {row_label}: {report}"));
        assert!(row.contains(verdict), "{name}: {row}");
        if verdict.contains("outside") {
            assert!(report.contains(&format!("* **{row_label}**: measured")), "{name}: the reason is stated: {report}");
        }
        assert!(report.contains("## Not measured"), "{name}: the paper's unmeasured numbers are listed: {report}");
    }
    synthesized_areas_add_up(&d.join("macro_noc_area_quick"));
    readme_blocks_are_the_reports(&d);
    std::fs::remove_dir_all(&d).unwrap();
}

/// The area study's rows against hand arithmetic: each total is count x the design's
/// numbers, the two readings of the baseline synthesize the same router, and XY-YX's
/// fourth VC adds at least its buffer bits (5 ports x 4 flits x 128 payload bits).
fn synthesized_areas_add_up(out: &Path) {
    let csv = read(&out.join("results.csv"));
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let get = |group: &str, col: &str| -> f64 {
        let c = head.iter().position(|h| *h == col).unwrap_or_else(|| panic!("no column {col}: {head:?}"));
        let r = rows.iter().find(|r| r[1] == group).unwrap_or_else(|| panic!("no run of {group}"));
        r[c].parse().unwrap_or_else(|_| panic!("{group} {col}: `{}`", r[c]))
    };
    let t = "transistors";
    assert_eq!(get("macro", "total.transistors"), get("macro", &format!("designs.routers/hinge.{t}")) + get("macro", &format!("designs.routers/request.{t}")));
    assert_eq!(get("baseline", "total.transistors"), 2.0 * get("baseline", &format!("designs.routers/baseline.{t}")));
    assert_eq!(get("baseline_1plane", "total.transistors"), get("baseline", &format!("designs.routers/baseline.{t}")));
    let extra = get("xyyx", "total.flip_flops") - get("baseline_1plane", "total.flip_flops");
    assert!(extra >= (5 * 4 * 128) as f64, "XY-YX's fourth VC adds {extra} flip-flops, fewer than its 2560 buffer bits");
    assert!(get("baseline_1plane", "total.flip_flops") >= (5 * 3 * 4 * 128) as f64);
}

/// The README's `--quick` study blocks are the reports just written to `reports`, byte
/// for byte (a planted stale number is caught), and its full blocks come from the
/// current model version.
fn readme_blocks_are_the_reports(reports: &Path) {
    let r = reports.to_str().unwrap();
    let readme = repo().join("README.md");
    let o = gpuforge(&repo(), &["study", "readme", readme.to_str().unwrap(), "--check", "--quick-only", "--reports", r]);
    assert!(o.status.success(), "the README's --quick study tables are stale; `make readme-studies` rewrites them: {}", text(&o));
    let doc = read(&readme);
    let blocks = doc.matches("<!-- study: ").count();
    assert!(blocks >= 12, "every shipped study has a full and a --quick block: {blocks}");
    // planted: one number of a --quick block changed in a copy of the README
    let start = doc.find("<!-- study: macro_noc_exec --quick -->").expect("the macro_noc_exec --quick block");
    let row = start + doc[start..].find("| 64-core 8(c) execution time, MACRO / baseline").expect("its time row");
    let end = row + doc[row..].find('\n').unwrap();
    let planted = format!("{}{}{}", &doc[..row], doc[row..end].replacen("✗ outside", "✓ within", 1), &doc[end..]);
    assert_ne!(planted, doc);
    let copy = reports.join("README.md");
    std::fs::write(&copy, &planted).unwrap();
    let o = gpuforge(&repo(), &["study", "readme", copy.to_str().unwrap(), "--check", "--quick-only", "--reports", r]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("stale study blocks") && text(&o).contains("macro_noc_exec_quick"), "{}", text(&o));
    assert_eq!(read(&copy), planted, "--check writes nothing");
    // without --check the block is rewritten back to the report
    let o = gpuforge(&repo(), &["study", "readme", copy.to_str().unwrap(), "--quick-only", "--reports", r]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(read(&copy), doc);
    // --only: that study's blocks alone (the others' reports need not exist); an unknown name is bad input
    std::fs::write(&copy, &planted).unwrap();
    let o = gpuforge(&repo(), &["study", "readme", copy.to_str().unwrap(), "--only", "macro_noc_exec", "--quick-only", "--reports", r]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(read(&copy), doc);
    let o = gpuforge(&repo(), &["study", "readme", copy.to_str().unwrap(), "--only", "no_such_study", "--reports", r]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--only no_such_study") && text(&o).contains("llc_compute_offload"), "{}", text(&o));
    // full blocks: produced by this model version
    let version = format!("model version {}.", golden::MODEL_VERSION);
    for (i, _) in doc.match_indices("<!-- study: ") {
        let block = &doc[i..i + doc[i..].find("<!-- /study -->").unwrap()];
        assert!(
            block.contains(&version),
            "a study block of the README comes from another model version (want `{version}`; `make readme-studies`): {}",
            &block[..block.find('\n').unwrap()]
        );
    }
}

/// `divide_by`: a statistic over a second one, of the same run (mean of
/// latency_p95 / latency_avg over the MACRO runs), or with `over` of the denominator
/// run (geomean of MACRO's latency_p95 over the baseline's latency_avg), recomputed here
/// from results.json; a zero divisor is not measured, with the run named.
#[test]
fn a_measure_divides_by_a_second_statistic() {
    let d = scratch("divide");
    let study = noc_study(&d, 1500);
    let extra = r#"
[[measure]]
name = "tail"
label = "p95 over mean latency"
stat = "points.0.latency_p95"
divide_by = "points.0.latency_avg"
where = { config = "noc_macro_4x4" }

[[measure]]
name = "cross"
label = "MACRO p95 over baseline mean"
stat = "points.0.latency_p95"
divide_by = "points.0.latency_avg"
where = { config = "noc_macro_4x4" }
over = { config = "noc_baseline_4x4" }
reduce = "geomean"

[[measure]]
name = "by_zero"
label = "over undelivered"
stat = "points.0.latency_avg"
divide_by = "points.0.undelivered"
"#;
    std::fs::write(&study, read(&study) + extra).unwrap();
    let o = gpuforge(&d, &["study", "run", study.to_str().unwrap(), "--out", "out", "--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_str(&read(&d.join("out/results.json"))).unwrap();
    let runs = j["runs"].as_array().unwrap();
    let stat = |r: &serde_json::Value, k: &str| r["stats"][k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
    let of = |net: &str| -> Vec<&serde_json::Value> { runs.iter().filter(|r| r["config"].as_str().unwrap().ends_with(&format!("/{net}.toml"))).collect() };
    let (macro_runs, base_runs) = (of("noc_macro_4x4"), of("noc_baseline_4x4"));
    assert_eq!((macro_runs.len(), base_runs.len()), (3, 3));
    let tail: f64 = macro_runs.iter().map(|r| stat(r, "points.0.latency_p95") / stat(r, "points.0.latency_avg")).sum::<f64>() / 3.0;
    let rate = |r: &serde_json::Value| r["knobs"]["noc.traffic.rate"].as_f64().unwrap();
    let cross = macro_runs
        .iter()
        .map(|m| {
            let b = base_runs.iter().find(|b| rate(b) == rate(m)).unwrap();
            (stat(m, "points.0.latency_p95") / stat(b, "points.0.latency_avg")).ln()
        })
        .sum::<f64>()
        / 3.0;
    let measured = |name: &str| j["measures"].as_array().unwrap().iter().find(|m| m["name"] == name).unwrap().clone();
    assert!((measured("tail")["measured"].as_f64().unwrap() - tail).abs() < 1e-12, "{}", measured("tail"));
    assert!((measured("cross")["measured"].as_f64().unwrap() - cross.exp()).abs() < 1e-12, "{}", measured("cross"));
    let z = measured("by_zero");
    assert!(z["measured"].is_null() && z["note"].as_str().unwrap().contains("`points.0.undelivered` is 0 in run"), "{z}");
    std::fs::remove_dir_all(&d).unwrap();
}
