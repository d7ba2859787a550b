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

/// S3's occupancy trace through the binary (`[stats] occupancy_trace`, `sim --out`), on
/// micro/barrier and tiny, by hand: one threadblock of two warps and one barrier. Warp 0
/// arrives first (the window opens: one `arrival` row); warp 1 arrives after its 64
/// dependent adds, 64 x 4 +- 4 cycles later, and both resume erf + eaf = 6 cycles after
/// that (one `resume` row). While warp 1 runs its chain, warp 0 waits with nothing in
/// flight and warp 1 has exactly one add in flight (each issues when the previous one's
/// result is ready). A trace length of 0 is refused with file, field and range, exit 2,
/// nothing written.
#[test]
fn occupancy_trace_through_the_binary() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tiny = std::fs::read_to_string(root.join("configs/gpu/tiny.toml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("trace.toml");
    let out = dir.path().join("out");
    let run = |cycles: u32| {
        std::fs::write(&cfg, format!("{tiny}\n[stats]\noccupancy_trace = {{ cta = 0, cycles = {cycles} }}\n")).unwrap();
        gpuforge().current_dir(root).arg("sim").arg(&cfg).arg("workloads/micro/barrier.toml").arg("--out").arg(&out).output().unwrap()
    };
    let o = run(0);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("trace.toml") && err.contains("stats.occupancy_trace.cycles") && err.contains("1..="), "{err}");
    assert!(!out.exists(), "output written");
    let o = run(400);
    assert_eq!(o.status.code(), Some(0), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("occupancy_trace.csv")).unwrap();
    let rows: Vec<(u64, u32, String)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect();
    assert_eq!(csv.lines().next(), Some("cycle,in_flight,event"));
    // from the launch until the threadblock retires, before the 400 cycles asked for
    assert!(rows.len() < 400 && rows.windows(2).all(|w| w[1].0 == w[0].0 + 1), "{csv}");
    let at = |ev: &str| -> Vec<u64> { rows.iter().filter(|r| r.2 == ev).map(|r| r.0).collect() };
    let (arrival, resume) = (at("arrival"), at("resume"));
    assert_eq!((arrival.len(), resume.len()), (1, 1), "{csv}");
    let window = resume[0] - arrival[0];
    assert!(window.abs_diff(256 + 6) <= 4, "window {window}, by hand 64 x 4 + 6 +- 4");
    assert!(rows.last().unwrap().0 > resume[0], "the trace runs past the barrier");
    let last_arrival = resume[0] - 6;
    for r in rows.iter().filter(|r| r.0 >= arrival[0] + 20 && r.0 + 4 < last_arrival) {
        assert_eq!(r.1, 1, "cycle {}: one dependent add in flight", r.0);
    }
    let svg = std::fs::read_to_string(out.join("occupancy_trace.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("first arrival"), "{svg}");
}
