//! Bad `[qcache]` configs fail with one line naming file, field and allowed range,
//! exit 2, and write nothing; `sim` runs the monitor with its scoreboard.

use std::process::Command;

fn run_gen(body: &str) -> (i32, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, format!("name = \"qc_bad\"\n[qcache]\n{body}")).unwrap();
    let out_dir = dir.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("gen").arg(&cfg).arg("--out").arg(&out_dir).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    (o.status.code().unwrap_or(-1), err, out_dir.exists())
}

#[test]
fn bad_qcache_configs_exit_2_and_write_nothing() {
    let cases = [
        ("eval_interval = 0\n", "qcache.eval_interval", "1..=131072"),
        ("window_cycles = 4096\neval_interval = 8192\n", "qcache.eval_interval", "1..=4096"),
        ("eq_tol_shift = 0\n", "qcache.eq_tol_shift", "1..=8"),
        ("qpre_num = 5\n", "qcache.qpre_num", "1..=4"),
        ("qlow_lines = 20000\n", "qcache.qlow_lines", "0..=16384"),
        ("min_step_q44 = 0x0f\n", "qcache.min_step_q44", "16..=255"),
        ("giveup_streak = 4\n", "qcache.giveup_streak", "1..=3"),
        ("rc_lat = 4\n", "qcache.rc_lat", "10..=1024"),
        ("lock_probe_evals = 256\n", "qcache.lock_probe_evals", "0..=255"),
        ("cnt_w = 12\n", "qcache.cnt_w", "one of 8, 16, 32, 64"),
        ("nbanks = 0\n", "qcache.nbanks", "1..=32"),
        ("cnt_w = 8\ncap_lines = 300\n", "qcache.cap_lines", "1..=255"),
        ("policy = \"lazy\"\n", "qcache.policy", "table_6_1"),
        ("evaluation = 3\n", "qcache.evaluation", "unknown field"),
        // the companion blocks of spec §5
        ("[qcache.companion]\ngpu_cores = 17\n", "qcache.companion.gpu_cores", "1..=16"),
        ("[qcache.companion]\ngpu_cores = 0\n", "qcache.companion.gpu_cores", "1..=16"),
        ("[qcache.companion]\ncpu_mhz = 3000\n", "qcache.companion.cpu_mhz", "one of 800, 1340, 1880, 2420, 2960, 3500"),
        ("[qcache.companion]\nclock_mhz = 0\n", "qcache.companion.clock_mhz", "1..=5000"),
        ("[qcache.companion]\ndvfs_max_ns = 100\n", "qcache.companion.dvfs_max_ns", "15000..=1000000"),
        ("[qcache.companion]\ncores = 4\n", "qcache.companion", "unknown field"),
    ];
    for (body, field, allowed) in cases {
        let (code, err, wrote) = run_gen(body);
        assert_eq!(code, 2, "{body}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{body}: not one line: {err}");
        assert!(err.contains("bad.toml") && err.contains(field) && err.contains(allowed), "{body}: {err}");
        assert!(!wrote, "{body}: output written");
    }
}

#[test]
fn sim_runs_the_monitor_with_its_scoreboard() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(root).args(["sim", "configs/qcache/qcache_small.toml", "--check", "--max-cycles", "50000"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("qc_rate_monitor qcache_small: 50000 cycles") && out.contains("every spec §5 invariant held"), "{out}");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(root).args(["sim", "configs/qcache/qcache_small.toml", "--sweep", "0.1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "an unused flag is refused");
}

/// `gpuforge sim` of the heterogeneous system with an edited `[hooks.qcache.cpu]`.
fn run_hetero(edit: (&str, &str)) -> (i32, String, bool) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("configs/gpu/qcache_hetero.toml")).unwrap();
    let mut done = false;
    let mut in_cpu = false;
    let text: String = text
        .lines()
        .map(|l| {
            if l.starts_with('[') {
                in_cpu = l.trim() == "[hooks.qcache.cpu]";
            }
            if in_cpu && l.split('=').next().map(str::trim) == Some(edit.0) {
                done = true;
                format!("{} = {}\n", edit.0, edit.1)
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let text = if done { text } else { text + &format!("{} = {}\n", edit.0, edit.1) };
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, text).unwrap();
    let out_dir = dir.path().join("out.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("sim").arg(&cfg).arg(root.join("workloads/qcache/reduce_rw2.toml")).arg("--json").arg(&out_dir).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).to_string(), out_dir.exists())
}

#[test]
fn bad_cpu_consumer_configs_exit_2_and_write_nothing() {
    let cases = [
        (("cores", "9"), "hooks.qcache.cpu.cores", "1..=4"),
        (("cores", "0"), "hooks.qcache.cpu.cores", "1..=4"),
        (("mhz", "3000"), "hooks.qcache.cpu.mhz", "one of [800, 1340, 1880, 2420, 2960, 3500]"),
        (("ipc", "0.1"), "hooks.qcache.cpu.ipc", "0.25 to 8"),
        (("cap_tasks", "0"), "hooks.qcache.cpu.cap_tasks", "1..=1048576"),
        (("mode", "\"eager\""), "hooks.qcache.cpu", "serial"),
        (("threads", "2"), "hooks.qcache.cpu", "unknown field"),
        (("mlp", "0"), "hooks.qcache.cpu.mlp", "1..=32"),
        (("actuation", "\"dvfs\""), "hooks.qcache.cpu", "dvfs_drain"),
        (("dvfs_max_ns", "100"), "hooks.qcache.cpu.dvfs_max_ns", "15000..=1000000"),
        (("rate_period", "70000"), "hooks.qcache.cpu.rate_period", "0..=65536"),
        (("rate_depth_pct", "95"), "hooks.qcache.cpu.rate_depth_pct", "0..=90"),
        (("rate_depth_pct", "25"), "hooks.qcache.cpu.rate_period", "1..=65536 when rate_depth_pct > 0"),
        (("false_share_pct", "91"), "hooks.qcache.cpu.false_share_pct", "0..=90"),
        (("unconsumed_pct", "60"), "hooks.qcache.cpu.unconsumed_pct", "0..=50"),
        (("core_dynamic_w", "-1.0"), "hooks.qcache.cpu.core_dynamic_w", "0 to 100 (W per core)"),
        (("core_leakage_w", "1e3"), "hooks.qcache.cpu.core_leakage_w", "0 to 100 (W per core)"),
    ];
    for (edit, field, allowed) in cases {
        let (code, err, wrote) = run_hetero(edit);
        assert_eq!(code, 2, "{edit:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{edit:?}: not one line: {err}");
        assert!(err.contains("bad.toml") && err.contains(field) && err.contains(allowed), "{edit:?}: {err}");
        assert!(!wrote, "{edit:?}: output written");
    }
    // a producer knob on a launch whose producer cannot read it (reduce_rw2: a `qctl` of 4
    // words, producer.ptx): refused naming the launch file and the buffer
    for edit in [("unconsumed_pct", "20"), ("rate_period", "8")] {
        let (code, err, wrote) = run_hetero(edit);
        assert_eq!(code, 2, "{edit:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{edit:?}: not one line: {err}");
        assert!(err.contains("reduce_rw2.toml") && err.contains("buffer") && err.contains("`qctl` has 4 words") && err.contains("producer_sens.ptx"), "{edit:?}: {err}");
        assert!(!wrote, "{edit:?}: output written");
    }
}

/// reduce_rw2 with its buffer `buffer` renamed `renamed` (a valid launch: the kernel gets
/// the same memory), run on the hetero config in mode `mode`: the one-line refusal, which
/// must name `launch_file` and contain every `want`; exit 2 and nothing written.
fn refused_launch(buffer: &str, renamed: &str, mode: &str, launch_file: &str, want: &[&str]) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("workloads/qcache/reduce_rw2.toml")).unwrap();
    let (decl, arg) = (format!("name = \"{buffer}\""), format!("\"{buffer}\""));
    assert!(text.contains(&decl) && (text.contains(&format!("{arg},")) || text.contains(&format!("{arg}]"))));
    let ptx = root.join("workloads/qcache/producer.ptx");
    let launch = text
        .replace(&decl, &format!("name = \"{renamed}\""))
        .replace(&format!("{arg},"), &format!("\"{renamed}\","))
        .replace(&format!("{arg}]"), &format!("\"{renamed}\"]"))
        .replace("ptx = \"producer.ptx\"", &format!("ptx = {:?}", ptx.display().to_string()));
    let cfg = std::fs::read_to_string(root.join("configs/gpu/qcache_hetero.toml")).unwrap();
    assert!(cfg.contains("mode = \"qcache\""));
    let dir = tempfile::tempdir().unwrap();
    let (file, cfg_file) = (dir.path().join(launch_file), dir.path().join("hetero.toml"));
    std::fs::write(&file, launch).unwrap();
    std::fs::write(&cfg_file, cfg.replace("mode = \"qcache\"", &format!("mode = \"{mode}\""))).unwrap();
    let out = dir.path().join("out.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(root).arg("sim").arg(&cfg_file).arg(&file).arg("--json").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    assert!(err.contains(launch_file) && want.iter().all(|w| err.contains(w)), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_launch_without_a_queue_buffer_is_refused_naming_the_buffer() {
    // the CPU consumers cannot find the queue's publish flags; before, they stayed idle
    // silently
    refused_launch("flags", "published", "qcache", "no_flags.toml", &["buffer", "`flags`", "out, flags, sums and qctl"]);
}

#[test]
fn fine_grained_mode_without_a_signals_buffer_is_refused_naming_it() {
    // the consumers of mode fine_grained would have no signals to wait on
    refused_launch("signals", "words", "fine_grained", "no_signals.toml", &["buffer", "`signals`", "as long as `out`"]);
}

#[test]
fn unconsumed_data_without_a_spare_buffer_is_refused_naming_it() {
    // prodcons_sens without its `spare` buffer: the producer's duplicates would have nowhere to go
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("workloads/qcache/prodcons_sens.toml")).unwrap();
    let launch = text
        .replace("name = \"spare\"", "name = \"extra\"")
        .replace("\"spare\"]", "\"extra\"]")
        .replace("ptx = \"producer_sens.ptx\"", &format!("ptx = {:?}", root.join("workloads/qcache/producer_sens.ptx").display().to_string()));
    let cfg = std::fs::read_to_string(root.join("configs/gpu/qcache_hetero.toml")).unwrap().replace("unconsumed_pct = 0", "unconsumed_pct = 20");
    let dir = tempfile::tempdir().unwrap();
    let (file, cfg_file) = (dir.path().join("no_spare.toml"), dir.path().join("hetero.toml"));
    std::fs::write(&file, launch).unwrap();
    std::fs::write(&cfg_file, cfg).unwrap();
    let out = dir.path().join("out.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(root).arg("sim").arg(&cfg_file).arg(&file).arg("--json").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    assert!(err.contains("no_spare.toml") && err.contains("`spare`") && err.contains("as long as `out`"), "{err}");
    assert!(!out.exists());
}

/// `[hooks.qcache.companion]` on the GPU model is refused (its actuators take the cores
/// and clock from `[gpu]` and the DVFS from `[hooks.qcache.cpu]`).
#[test]
fn a_companion_table_in_the_gpu_hook_is_refused() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("configs/gpu/qcache_hetero.toml")).unwrap() + "\n[hooks.qcache.companion]\ngpu_cores = 4\n";
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("out.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("sim").arg(&cfg).arg(root.join("workloads/qcache/reduce_rw2.toml")).arg("--json").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    assert!(err.contains("bad.toml") && err.contains("hooks.qcache.companion"), "{err}");
    assert!(!out.exists());
}
