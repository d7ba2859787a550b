//! P-, G- and F-TFB in the GPU model (`[hooks.tfb]`, golden::tfb_bdib::hook): selected
//! through the config, bad parameters named with their range, and the results of
//! every workload unchanged by the variant (tfb_bdib.md §5.4 SYS-3), with buffered
//! instructions actually deferred and drained where the workload has barriers.

use crate::gpu_common;

use golden::gpu::sim::{run_capture, Gpu};
use golden::gpu::{GpuConfig, RunOptions};
use gpu_common::*;

fn with_tfb(name: &str, mode: &str, depth: u32) -> Result<GpuConfig, golden::config::ConfigError> {
    let path = config_path(name);
    let text = std::fs::read_to_string(&path).unwrap() + &format!("\n[hooks.tfb]\nmode = \"{mode}\"\ndepth = {depth}\n");
    GpuConfig::parse(&path, &text)
}

#[test]
fn bad_tfb_hook_parameters_name_the_field_and_range() {
    let e = with_tfb("tiny", "x", 2).unwrap_err();
    assert!(e.field.contains("hooks.tfb.mode") && e.allowed.as_deref() == Some("one of \"drain\", \"p\", \"g\", \"f\""), "{e}");
    let e = with_tfb("tiny", "f", 0).unwrap_err();
    assert!(e.field.contains("hooks.tfb.depth") && e.allowed.as_deref() == Some("1..=5"), "{e}");
    assert!(with_tfb("tfb_maxwell_16", "g", 5).is_ok());
}

/// Whether a launch file's kernels read the cycle counter (their output is timing).
fn reads_clock(launch: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(launch).unwrap();
    text.lines().filter_map(|l| l.trim().strip_prefix("ptx = \"")).any(|p| {
        let ptx = launch.parent().unwrap().join(p.trim_end_matches('"'));
        std::fs::read_to_string(ptx).is_ok_and(|t| t.contains("%clock"))
    })
}

/// The PTX files a launch file runs (canonical paths, in kernel order).
fn ptx_files(launch: &std::path::Path) -> Vec<std::path::PathBuf> {
    let text = std::fs::read_to_string(launch).unwrap();
    text.lines().filter_map(|l| l.trim().strip_prefix("ptx = \"")).map(|p| launch.parent().unwrap().join(p.trim_end_matches('"')).canonicalize().unwrap()).collect()
}

/// Every launch file under workloads/ (`dir/file.toml`, sorted), the large `bench`
/// inputs and the timing microbenchmarks, whose output is a cycle count, left out.
fn all_launches() -> Vec<String> {
    let mut v = Vec::new();
    for d in std::fs::read_dir(root().join("workloads")).unwrap().flatten() {
        if !d.path().is_dir() || d.file_name() == "bench" {
            continue;
        }
        for f in std::fs::read_dir(d.path()).unwrap().flatten() {
            if f.path().extension().is_some_and(|x| x == "toml") && !reads_clock(&f.path()) {
                v.push(format!("{}/{}", d.file_name().to_string_lossy(), f.file_name().to_string_lossy()));
            }
        }
    }
    v.sort();
    v
}

/// One launch file per kernel program of [`all_launches`]: the first (by name) of the
/// launches that run the same PTX files. The others only re-parameterize that code (the
/// 22 Q-cache producer/consumer sweeps over compute intensity, CTA count and R:W ratio),
/// so for a check that results do not depend on the barrier hardware they add run time,
/// not coverage.
fn workloads() -> Vec<String> {
    let mut v = all_launches();
    let mut programs = std::collections::HashSet::new();
    v.retain(|w| programs.insert(ptx_files(&root().join("workloads").join(w))));
    v
}

#[test]
fn one_launch_per_kernel_program_and_every_program_kept() {
    let all = workloads();
    let ptx_of = |list: &[String]| -> std::collections::BTreeSet<_> { list.iter().flat_map(|w| ptx_files(&root().join("workloads").join(w))).collect() };
    assert_eq!(ptx_of(&all), ptx_of(&all_launches()), "every PTX program is run by some kept launch");
    assert!(all.len() < all_launches().len());
    assert_eq!(all.iter().filter(|w| w.starts_with("qcache/")).count(), 5, "{all:?}");
    assert!(all.contains(&"reduce/reduce.toml".to_string()) && all.contains(&"tpacf/tpacf.toml".to_string()));
}

fn results_never_change(cfg_name: &str, list: &[String]) {
    let plain_cfg = config(cfg_name);
    let mut deferred_somewhere = [0u64; 3];
    for w in list {
        let l = launch(w);
        let (plain, plain_bufs) = run_capture(Gpu::new(&plain_cfg).unwrap(), &l, RunOptions::default()).unwrap();
        assert!(plain.checks_passed(), "{w}: {plain}");
        for (k, mode) in ["p", "g", "f"].iter().enumerate() {
            let cfg = with_tfb(cfg_name, mode, 2).unwrap();
            let (r, bufs) = run_capture(Gpu::new(&cfg).unwrap(), &l, RunOptions::default()).unwrap();
            assert!(r.checks_passed(), "{w} {mode}-TFB on {cfg_name}: {r}");
            assert_eq!(bufs, plain_bufs, "{w} {mode}-TFB on {cfg_name}: results changed");
            let h = &r.hooks;
            assert_eq!(h.get("tfb.deferred"), h.get("tfb.drained"), "{w} {mode}: everything deferred drains");
            if *mode == "p" {
                assert_eq!(h.get("tfb.deferred").copied().unwrap_or(0), 0, "{w}: P-TFB buffers nothing");
            }
            deferred_somewhere[k] += h.get("tfb.deferred").copied().unwrap_or(0);
        }
    }
    assert_eq!(deferred_somewhere[0], 0);
    assert!(deferred_somewhere[1] > 0 && deferred_somewhere[2] > 0, "{deferred_somewhere:?}");
}

#[test]
fn every_workload_gives_the_same_results_under_p_g_and_f_tfb_on_tiny() {
    results_never_change("tiny", &workloads());
}

#[test]
fn barrier_workloads_give_the_same_results_on_tfb_maxwell_16() {
    let list: Vec<String> = [
        "reduce/reduce.toml",
        "backprop/backprop.toml",
        "transpose/transpose.toml",
        "hotspot/hotspot.toml",
        "tpacf/tpacf.toml",
        "heartwall/heartwall.toml",
        "dwt/dwt53.toml",
        "fw_block/fw_block.toml",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    results_never_change("tfb_maxwell_16", &list);
}

/// A GPU config with the barrier knobs of the study set: `core.scheduler`,
/// `core.sync.barrier` and `.barrier_scope`, and `[hooks.tfb]` (edited as a TOML table).
fn variant(cfg_name: &str, sched: &str, barrier: &str, scope: &str, tfb: Option<&str>) -> GpuConfig {
    let path = config_path(cfg_name);
    let mut t: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
    let core = t.get_mut("core").and_then(|c| c.as_table_mut()).unwrap();
    core.insert("scheduler".into(), sched.into());
    let sync = core.get_mut("sync").and_then(|c| c.as_table_mut()).unwrap();
    sync.insert("barrier".into(), barrier.into());
    sync.insert("barrier_scope".into(), scope.into());
    if let Some(mode) = tfb {
        let mut h = toml::Table::new();
        h.insert("mode".into(), mode.into());
        let mut hooks = toml::Table::new();
        hooks.insert("tfb".into(), h.into());
        t.insert("hooks".into(), hooks.into());
    }
    GpuConfig::parse(&path, &toml::to_string(&t).unwrap()).unwrap()
}

/// The results of every workload are those of the drain barrier under GTO, whatever the
/// scheduler (MWF, fMWF), the barrier's fence scope (CTA, device) and the TFB variant.
fn results_never_change_with_scheduler_or_scope(cfg_name: &str, list: &[String]) {
    let variants = [("mwf", "cta", None), ("fmwf", "cta", Some("f")), ("gto", "gpu", None), ("fmwf", "gpu", Some("g")), ("lrr", "gpu", Some("f"))];
    let plain_cfg = config(cfg_name);
    for w in list {
        let l = launch(w);
        let (plain, plain_bufs) = run_capture(Gpu::new(&plain_cfg).unwrap(), &l, RunOptions::default()).unwrap();
        assert!(plain.checks_passed(), "{w}: {plain}");
        if plain.sync.barrier_warps == 0 {
            // without barriers every MWF / fMWF key is 0 (GTO order) and the scope
            // applies to nothing: the runs of `no_barrier_variants...` cover these
            continue;
        }
        for (sched, scope, tfb) in variants {
            let (r, bufs) = run_capture(Gpu::new(&variant(cfg_name, sched, "drain", scope, tfb)).unwrap(), &l, RunOptions::default()).unwrap();
            assert!(r.checks_passed(), "{w} {sched} {scope} {tfb:?} on {cfg_name}: {r}");
            assert_eq!(bufs, plain_bufs, "{w} {sched} {scope} {tfb:?} on {cfg_name}: results changed");
            assert_eq!(r.sync.barrier_warps, plain.sync.barrier_warps, "{w} {sched} {scope} {tfb:?}: the same barriers");
        }
    }
}

#[test]
fn every_workload_gives_the_same_results_under_mwf_fmwf_and_device_scope_on_tiny() {
    results_never_change_with_scheduler_or_scope("tiny", &workloads());
}

#[test]
fn barrier_workloads_give_the_same_results_under_mwf_fmwf_and_device_scope_on_tfb_maxwell_16() {
    let list: Vec<String> =
        ["backprop/layerforward.toml", "stencil/stencil.toml", "reduce/reduce.toml", "tpacf/tpacf.toml", "heartwall/heartwall.toml", "dwt/dwt53.toml", "fw_block/fw_block.toml"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    results_never_change_with_scheduler_or_scope("tfb_maxwell_16", &list);
}

/// No-Barriers (the thesis's PBS binaries, tfb_bdib.md §4.3, §6): `bar` removed or
/// swapped for `membar.cta` / `membar.gl`. Every workload still runs to the end; a
/// workload without barriers is untouched (results and cycles); with barriers, none
/// waits at a barrier and each executed `bar.sync` became one fence. Results of barrier
/// workloads may change (the races the barrier prevented), as on the thesis's binaries.
#[test]
fn no_barrier_variants_remove_every_barrier() {
    let mut changed_somewhere = false;
    for w in workloads() {
        let l = launch(&w);
        let (drain, drain_bufs) = run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()).unwrap();
        let barriers: &[&str] = if drain.sync.barrier_warps == 0 { &["none"] } else { &["none", "membar.cta", "membar.gl"] };
        for &barrier in barriers {
            let (r, bufs) = run_capture(Gpu::new(&variant("tiny", "gto", barrier, "cta", None)).unwrap(), &l, RunOptions::default()).unwrap();
            assert_eq!(r.sync.barrier_warps, 0, "{w} {barrier}: no barrier left");
            assert_eq!(r.sync.barriers_completed, 0, "{w} {barrier}");
            let swapped = if barrier == "none" { 0 } else { drain.sync.barrier_warps };
            if drain.sync.barrier_warps == 0 {
                // (also untouched by the scheduler and the barrier scope: same cycles)
                assert_eq!((r.cycles, &bufs), (drain.cycles, &drain_bufs), "{w} {barrier}: a workload without barriers is untouched");
                let (m, _) = run_capture(Gpu::new(&variant("tiny", "fmwf", "drain", "gpu", None)).unwrap(), &l, RunOptions::default()).unwrap();
                assert_eq!(m.cycles, drain.cycles, "{w}: fMWF and device scope change nothing without barriers");
                assert_eq!(r.sync.fences, drain.sync.fences, "{w} {barrier}");
            } else {
                assert!(r.sync.fences >= drain.sync.fences + swapped, "{w} {barrier}: {} fences, drain {} + {swapped} barriers", r.sync.fences, drain.sync.fences);
                changed_somewhere |= bufs != drain_bufs;
            }
        }
    }
    assert!(changed_somewhere, "removing barriers breaks some workload (the barriers are real)");
}

/// The occupancy-loss split (spec §4.4, S4) on micro/barrier.ptx, by hand: warp 0 issues
/// `bar.sync` one cycle after its clock read (before0 + 1), warp 1 at before1 + 1, the
/// last arrival; both resume erf + eaf after it (gpu_timing.rs derives that release
/// exactly). Load imbalance: warp 0 waits before1 - before0 for warp 1 (64 dependent adds,
/// 64 x the integer latency, +- one latency for the branch and fetch), warp 1 nothing.
/// Fence: each of the two warps waits erf + eaf after the last arrival. One threadblock:
/// no issue contention. Ramp-up: each warp's first issue after the barrier is its clock
/// read (after_w), so warp w ramps up after_w - resume cycles (0 on tiny, one scheduler
/// each; on tfb_maxwell_16 warp 1's read may lose the shared ALU pipe, gpu_timing.rs).
/// The lost warp-cycles, from each arrival to the warp's next issue, are
/// sum over w of (after_w - before_w - 1), and the four parts add up to them exactly.
#[test]
fn occupancy_loss_split_by_hand() {
    for name in ["tiny", "tfb_maxwell_16"] {
        let cfg = config(name);
        let (r, b) = run_capture(Gpu::new(&cfg).unwrap(), &launch("micro/barrier.toml"), RunOptions::default()).unwrap();
        let o = |i: usize| b["out"].get(i) as u64;
        let (before0, after0, before1, after1) = (o(0), o(1), o(4), o(5));
        let skew = before1 - before0;
        let s = &cfg.core.sync;
        let i = match name {
            "tiny" => 4,
            _ => 6,
        };
        within(&format!("{name} skew by hand"), skew as f64, 64.0 * i as f64, i as f64).unwrap();
        let resume = before1 + 1 + (s.erf_latency + s.eaf_latency) as u64;
        let y = &r.sync;
        assert_eq!(y.barrier_imbalance_cycles, skew, "{name}");
        assert_eq!(y.barrier_contention_cycles, 0, "{name}: one threadblock");
        assert_eq!(y.barrier_fence_cycles, 2 * (s.erf_latency + s.eaf_latency) as u64, "{name}");
        assert_eq!(y.barrier_rampup_cycles, (after0 - resume) + (after1 - resume), "{name}");
        if name == "tiny" {
            assert_eq!(y.barrier_rampup_cycles, 0, "{name}: each warp has its own scheduler");
        }
        assert_eq!(y.barrier_imbalance_cycles + y.barrier_fence_cycles, y.barrier_wait_cycles, "{name}");
        assert_eq!(y.barrier_lost_cycles, (after0 - before0 - 1) + (after1 - before1 - 1), "{name}");
        assert_eq!(y.barrier_lost_cycles, y.barrier_imbalance_cycles + y.barrier_contention_cycles + y.barrier_fence_cycles + y.barrier_rampup_cycles, "{name}");
    }
}

/// Issue contention and ramp-up by hand (spec §4.4, S4), micro/barrier_contention.ptx
/// on tiny with one SM: threadblocks A (warp slots 0, 1) and B (2, 3); slots 0 and 2 on
/// scheduler 0 go straight to the barrier, slots 1 and 3 on scheduler 1 each issue
/// N = 128 independent adds first. Integer latency 4 < 8 destination registers in turn,
/// two integer units and a 2-entry I-buffer refilled the cycle it empties: a warp alone
/// on its scheduler issues one add per cycle. GTO: slot 1 (older) runs its N adds, clock
/// read and `bar.sync` back to back (N + 2 cycles) while slot 3, ready since the prologue,
/// waits: B's waiting warp (slot 2) loses those cycles to issue contention, about N
/// (minus the prologue's 8 instructions, P below, during which slot 3 is not yet ready
/// or slot 2 not yet at the barrier). Then slot 3, greedy now, runs its N + 2: slot 2's
/// imbalance is about N, A's warp 0 waits about N + 2 for slot 1, imbalance (A has no
/// contention but the prologue's interleaving). A resumes erf + eaf after slot 1's
/// arrival, but scheduler 1 stays on slot 3 (greedy) until its `bar.sync`: slot 1's
/// ramp-up is about N + 2 - (erf + eaf). Fence: 4 warps x (erf + eaf), exactly.
/// Exact from the clock reads (each warp's `bar.sync` issues one cycle after its read,
/// its next instruction after the barrier is the read `after`): the lost warp-cycles
/// sum over w of (after_w - before_w - 1), imbalance + contention up to each
/// threadblock's last arrival, and the ramp-up after each threadblock's resumption.
#[test]
fn issue_contention_and_ramp_up_by_hand() {
    const N: u64 = 128;
    const P: u64 = 16;
    let cfg = config_with("tiny", &[("gpu", "sms", "1")]);
    let (r, b) = run_capture(Gpu::new(&cfg).unwrap(), &launch("micro/barrier_contention.toml"), RunOptions::default()).unwrap();
    let s = &cfg.core.sync;
    let fence = (s.erf_latency + s.eaf_latency) as u64;
    // (before, after) of warp w of threadblock c at out[4 (2 c + w)]
    let clk = |c: usize, w: usize| (b["out"].get(4 * (2 * c + w)) as u64, b["out"].get(4 * (2 * c + w) + 1) as u64);
    let (mut lost, mut waited_to_last, mut ramp) = (0, 0, 0);
    for c in 0..2 {
        let last = clk(c, 0).0.max(clk(c, 1).0) + 1;
        let resume = last + fence;
        for w in 0..2 {
            let (before, after) = clk(c, w);
            lost += after - before - 1;
            waited_to_last += last - (before + 1);
            ramp += after - resume;
        }
    }
    let y = &r.sync;
    assert_eq!(y.barrier_lost_cycles, lost);
    assert_eq!(y.barrier_lost_cycles, y.barrier_imbalance_cycles + y.barrier_contention_cycles + y.barrier_fence_cycles + y.barrier_rampup_cycles);
    assert_eq!(y.barrier_fence_cycles, 4 * fence);
    assert_eq!(y.barrier_imbalance_cycles + y.barrier_contention_cycles, waited_to_last);
    assert_eq!(y.barrier_rampup_cycles, ramp);
    // the hand estimates
    within("contention", y.barrier_contention_cycles as f64, N as f64, P as f64).unwrap();
    within("imbalance", y.barrier_imbalance_cycles as f64, 2.0 * N as f64, 2.0 * P as f64).unwrap();
    within("ramp-up", y.barrier_rampup_cycles as f64, (N + 2 - fence) as f64, P as f64).unwrap();
    // slot 1 ran first: B's last arrival is about N + 2 after A's
    within("arrival gap", (clk(1, 1).0 - clk(0, 1).0) as f64, (N + 2) as f64, 2.0).unwrap();
}

/// Bad values of the barrier knobs name their field and what is allowed.
#[test]
fn bad_barrier_knobs_name_the_field_and_the_allowed_values() {
    let path = config_path("tiny");
    let text = std::fs::read_to_string(&path).unwrap();
    for (key, bad, want) in [("barrier", "\"drian\"", "membar.cta"), ("barrier_scope", "\"sys\"", "gpu")] {
        let t = text.replace("[core.sync]\n", &format!("[core.sync]\n{key} = {bad}\n"));
        assert_ne!(t, text, "tiny has a [core.sync] table");
        let e = GpuConfig::parse(&path, &t).unwrap_err();
        assert!(e.field.contains(&format!("core.sync.{key}")) && e.to_string().contains(&format!("`{want}`")), "{e}");
    }
    let t = text.replacen("scheduler = \"gto\"", "scheduler = \"mfw\"", 1);
    assert_ne!(t, text, "tiny names its scheduler");
    let e = GpuConfig::parse(&path, &t).unwrap_err();
    assert!(e.field.contains("core.scheduler") && e.to_string().contains("`fmwf`"), "{e}");
}

/// Named and partial barriers fall back to drain under TFB (spec §2.11): on
/// micro/barrier.ptx, warp 0 reads the clock right after the barrier. Under F-TFB with
/// `bar.sync 0` that read is private work and issues during the barrier (before warp 1
/// arrives), so warp 0's "after" is earlier than under the drain barrier; with `bar.sync
/// 1` (named) and `bar.sync 0, 64` (partial, the whole CTA of 64 threads) it waits as
/// under the drain barrier, to the cycle.
#[test]
fn named_and_partial_barriers_fall_back_to_drain_under_tfb() {
    let ptx = std::fs::read_to_string(root().join("workloads/micro/barrier.ptx")).unwrap();
    let toml = std::fs::read_to_string(root().join("workloads/micro/barrier.toml")).unwrap();
    let dir = std::env::temp_dir().join(format!("tfb_named_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let after0 = |cfg: &GpuConfig, bar: &str| {
        assert!(ptx.contains("bar.sync \t0;"));
        std::fs::write(dir.join("barrier.ptx"), ptx.replace("bar.sync \t0;", bar)).unwrap();
        std::fs::write(dir.join("barrier.toml"), &toml).unwrap();
        let l = golden::gpu::Launch::load(&dir.join("barrier.toml")).unwrap();
        let (r, b) = run_capture(Gpu::new(cfg).unwrap(), &l, RunOptions::default()).unwrap();
        (b["out"].get(1) - b["out"].get(0), r.hooks.get("tfb.issued_past_barrier").copied().unwrap_or(0))
    };
    let drain = config("tiny");
    let f = with_tfb("tiny", "f", 2).unwrap();
    let (wait_drain, _) = after0(&drain, "bar.sync \t0;");
    let (wait_f, past) = after0(&f, "bar.sync \t0;");
    assert!(wait_f < wait_drain && past > 0, "F-TFB lets warp 0 past barrier 0: {wait_f} vs {wait_drain}, {past} issued past");
    for bar in ["bar.sync \t1;", "bar.sync \t0, 64;"] {
        assert_eq!(after0(&drain, bar).0, wait_drain, "{bar} under drain");
        assert_eq!(after0(&f, bar), (wait_drain, 0), "{bar} under F-TFB: a drain barrier");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `workloads/<dir>/<name>.toml` with its PTX text and launch text edited (each
/// `(from, to)` must match), from a scratch directory; returns the report and buffers.
fn run_edited(cfg: &GpuConfig, dir: &str, name: &str, ptx_edits: &[(&str, &str)], toml_edits: &[(&str, &str)]) -> (golden::gpu::GpuReport, golden::gpu::host::HostBuffers) {
    let edit = |mut text: String, edits: &[(&str, &str)]| {
        for (from, to) in edits {
            assert!(text.contains(from), "{dir}/{name}: no `{from}` to edit");
            text = text.replacen(from, to, 1);
        }
        text
    };
    let src = root().join("workloads").join(dir);
    let tmp = std::env::temp_dir().join(format!("tfb_wl_{name}_{}_{}", std::process::id(), ptx_edits.len() * 10 + toml_edits.len()));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(tmp.join(format!("{name}.ptx")), edit(std::fs::read_to_string(src.join(format!("{name}.ptx"))).unwrap(), ptx_edits)).unwrap();
    std::fs::write(tmp.join(format!("{name}.toml")), edit(std::fs::read_to_string(src.join(format!("{name}.toml"))).unwrap(), toml_edits)).unwrap();
    let l = golden::gpu::Launch::load(&tmp.join(format!("{name}.toml"))).unwrap();
    let out = run_capture(Gpu::new(cfg).unwrap(), &l, RunOptions::default()).unwrap();
    std::fs::remove_dir_all(&tmp).unwrap();
    out
}

/// tpacf (Parboil) against numbers derived by hand: with bin boundaries 3.1, 2.79, ...,
/// -3.1 every dot product of two points of [-1, 1]^3 (|d| <= 3) falls in some bin, so
/// the histogram of a self threadblock (DD, RR_i) sums to the 150 * 149 / 2 = 11,175
/// unordered pairs and that of a cross threadblock (DR_i) to 150 * 150 = 22,500. A
/// planted bug, the self test `tid + j > i + k` made `>=` (each point also paired with
/// itself), is caught by the reference.
#[test]
fn tpacf_counts_every_pair_once_and_a_planted_bug_is_caught() {
    let cfg = config("tfb_maxwell_16");
    let (r, b) = run_edited(&cfg, "tpacf", "tpacf", &[], &[("start = 1.5, step = -0.15", "start = 3.1, step = -0.31")]);
    assert!(r.checks_passed(), "{r}");
    let h = b["histograms"].u32s();
    for bx in 0..11 {
        let total: u32 = h[bx * 20..(bx + 1) * 20].iter().sum();
        assert_eq!(total, if bx <= 5 { 11_175 } else { 22_500 }, "threadblock {bx}");
    }
    let (r, _) = run_edited(&cfg, "tpacf", "tpacf", &[("setp.gt.u32 \t%p5, %r22, %r25;", "setp.ge.u32 \t%p5, %r22, %r25;")], &[]);
    assert!(!r.checks_passed(), "pairing each point with itself goes unnoticed");
}

/// heartwall (Rodinia) against facts derived by hand: in frame 0 the template is the
/// point's own 7 x 7 window, whose correlation with itself is 1 and beats every window
/// of noise, so after one frame no point has moved and each template is the frame's
/// window at the point. A planted bug, thread 0 keeping the smallest correlation
/// instead of the largest, is caught by the reference.
#[test]
fn heartwall_keeps_its_points_on_frame_0_and_a_planted_bug_is_caught() {
    let cfg = config("tfb_maxwell_16");
    let l = launch("heartwall/heartwall.toml");
    let init = l.materialize(1);
    let (r, b) = run_edited(&cfg, "heartwall", "heartwall", &[], &[("repeat = 3", "repeat = 1"), ("frames = 3", "frames = 1")]);
    assert!(r.checks_passed(), "{r}");
    assert_eq!(b["row"].u32s(), init["row"].u32s(), "no point moved on frame 0");
    assert_eq!(b["col"].u32s(), init["col"].u32s(), "no point moved on frame 0");
    let (frame, t) = (init["frames"].f32s(), b["templates"].f32s());
    let (rows, cols) = (init["row"].u32s(), init["col"].u32s());
    for p in 0..51 {
        for i in 0..49 {
            let (y, x) = (rows[p] as usize + i / 7 - 3, cols[p] as usize + i % 7 - 3);
            assert_eq!(t[p * 49 + i], frame[y * 64 + x], "point {p} template element {i}");
        }
    }
    let (r, _) = run_edited(&cfg, "heartwall", "heartwall", &[("setp.gt.f32 \t%p13, %f32, %f31;", "setp.lt.f32 \t%p13, %f32, %f31;")], &[]);
    assert!(!r.checks_passed(), "an argmin instead of the argmax goes unnoticed");
}

/// dwt (Rodinia dwt2d) against numbers derived by hand: on a constant image every
/// predict step gives a zero detail (v - (v + v) / 2) and every update keeps the value
/// (v + (0 + 0 + 2) >> 2), so the low-pass quadrant (the first 24 rows, first 32
/// columns) holds the constant and the three others zero, borders included. A planted
/// bug, the horizontal predict's `>> 1` made `>> 2`, is caught by the reference.
#[test]
fn dwt_of_a_constant_image_by_hand_and_a_planted_bug_is_caught() {
    let cfg = config("tfb_maxwell_16");
    let (r, b) = run_edited(&cfg, "dwt", "dwt53", &[], &[("kind = \"randint\", lo = -128, hi = 127, seed = 81", "kind = \"constant\", value = 37")]);
    assert!(r.checks_passed(), "{r}");
    let out = b["out"].u32s();
    for y in 0..48 {
        for x in 0..64 {
            assert_eq!(out[y * 64 + x] as i32, if y < 24 && x < 32 { 37 } else { 0 }, "({y}, {x})");
        }
    }
    let (r, _) = run_edited(&cfg, "dwt", "dwt53", &[("shr.s32 \t%r26, %r26, 1;", "shr.s32 \t%r26, %r26, 2;")], &[]);
    assert!(!r.checks_passed(), "a wrong predict shift goes unnoticed");
}

/// fw_block (Pannotia) against properties derived by hand: the result is a distance
/// matrix (every entry at most the direct weight, and the triangle inequality d[i][j]
/// <= d[i][k] + d[k][j] for every i, j, k), and no entry below 1 (weights are >= 1;
/// the diagonal is the lighter of the self-loop and the shortest cycle). A planted bug, phase 3 taking the max instead of the
/// min, is caught by the reference.
#[test]
fn fw_block_gives_a_distance_matrix_and_a_planted_bug_is_caught() {
    let cfg = config("tfb_maxwell_16");
    let (r, b) = run_edited(&cfg, "fw_block", "fw_block", &[], &[]);
    assert!(r.checks_passed(), "{r}");
    let w = launch("fw_block/fw_block.toml").materialize(1)["d"].u32s();
    let d = b["d"].u32s();
    let n = 64;
    for i in 0..n {
        for j in 0..n {
            assert!((1..=w[i * n + j]).contains(&d[i * n + j]), "({i}, {j})");
            for k in 0..n {
                assert!(d[i * n + j] <= d[i * n + k] + d[k * n + j], "({i}, {j}) via {k}");
            }
        }
    }
    let (r, _) = run_edited(&cfg, "fw_block", "fw_block", &[("min.u32 \t%r17, %r17, %r30;", "max.u32 \t%r17, %r17, %r30;")], &[]);
    assert!(!r.checks_passed(), "a max for the min in phase 3 goes unnoticed");
}
