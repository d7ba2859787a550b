//! The Rodinia-class suite (issue 9 item 4): each of our own benchmark kernels computes
//! what its Rust reference (`golden/src/gpu/suite.rs`) computes, on the `tiny` preset and
//! on a bigger one; a planted wrong result is caught; and for several kernels a property
//! derived independently here (brute force, residuals, hand alignments) holds too.

use crate::gpu_common;

use std::path::{Path, PathBuf};

use golden::gpu::host::HostBuffers;
use golden::gpu::sim::{run_capture, Gpu};
use golden::gpu::{GpuConfig, GpuReport, Launch, RunOptions};
use gpu_common::{one_wrong_element_is_caught, passes_after};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn config(name: &str) -> GpuConfig {
    GpuConfig::load(&root().join("configs/gpu").join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}"))
}

fn launch(path: &str) -> Launch {
    Launch::load(&root().join("workloads").join(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// Run a launch and return its report and every buffer's final contents.
fn run_full(cfg: &GpuConfig, l: &Launch) -> (GpuReport, HostBuffers) {
    let gpu = Gpu::new(cfg).unwrap_or_else(|e| panic!("{e}"));
    run_capture(gpu, l, RunOptions::default()).unwrap_or_else(|e| panic!("{} on {}: {e}", l.name, cfg.name))
}

/// Run `path` on `preset`, assert every check passed; returns the final buffers.
fn check_passes(path: &str, preset: &str) -> (GpuReport, HostBuffers) {
    let cfg = config(preset);
    let l = launch(path);
    let (r, finals) = run_full(&cfg, &l);
    assert!(!r.checks.is_empty(), "{path}: no checks ran");
    assert!(r.checks_passed(), "{path} on {preset}:\n{r}");
    assert!(r.cycles > 0 && r.warp_insts > 0);
    eprintln!("{path:32} on {preset:6}: {:>8} cycles {:>8} warp insts IPC {:.2}", r.cycles, r.warp_insts, r.ipc);
    (r, finals)
}

fn f32s(b: &HostBuffers, name: &str) -> Vec<f32> {
    b[name].f32s()
}

fn u32s(b: &HostBuffers, name: &str) -> Vec<u32> {
    b[name].u32s()
}

#[test]
fn hotspot_matches_reference_and_conserves_heat_without_sources() {
    check_passes("hotspot/hotspot.toml", "tiny");
    // independent: with no power and no path to the ambient (rz = 0), the clamped
    // (reflecting) borders make every step conserve the total temperature, so the sum
    // after 6 steps equals the initial sum up to f32 rounding
    let edits = [
        ("init = { kind = \"uniform\", lo = 0.0, hi = 0.5, seed = 22 }", "init = { kind = \"zeros\" }"),
        ("0.25, 0.05, 80.0, \"$iter\"]", "0.25, 0.0, 80.0, \"$iter\"]"),
        ("rz = 0.05", "rz = 0.0"),
    ];
    let p = root().join("workloads/hotspot/hotspot.toml");
    let mut text = std::fs::read_to_string(&p).unwrap();
    for (a, b) in edits {
        assert!(text.contains(a), "{a}");
        text = text.replace(a, b);
    }
    let l = Launch::parse(&p, &text).unwrap_or_else(|e| panic!("{e}"));
    let (r, out) = run_full(&config("tiny"), &l);
    assert!(r.checks_passed(), "{r}");
    let before: f64 = l.materialize(1)["temp"].f32s().iter().map(|&v| v as f64).sum();
    let after: f64 = f32s(&out, "temp").iter().map(|&v| v as f64).sum();
    assert!((before - after).abs() < 1e-5 * before, "{before} -> {after}");
    assert!(f32s(&out, "temp") != l.materialize(1)["temp"].f32s(), "the stencil moved heat");
}

#[test]
fn pathfinder_matches_reference_and_a_brute_force_min_path() {
    let (r, out) = check_passes("pathfinder/pathfinder.toml", "tiny");
    eprintln!("pathfinder on tiny: {} cycles (Rodinia's pathfinder in the issue: 26,327 / 20,256)", r.cycles);
    // occupancy changes timing only: a ptxas-like register count gives the same rows
    let p = root().join("workloads/pathfinder/pathfinder.toml");
    let text = std::fs::read_to_string(&p).unwrap().replace("repeat = 11", "repeat = 11\nregs_per_thread = 20");
    let l20 = Launch::parse(&p, &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l20.kernels[0].regs_per_thread, 20);
    let (r20, out20) = run_full(&config("tiny"), &l20);
    assert!(r20.checks_passed(), "{r20}");
    assert_eq!(out20["rb"], out["rb"]);
    eprintln!("pathfinder on tiny with 20 registers per thread: {} cycles", r20.cycles);
    // independent: the minimum over the last row is the cheapest top-to-bottom path, found
    // here by an exhaustive search from every start column over a narrow strip
    let l = launch("pathfinder/pathfinder.toml");
    let init = l.materialize(1);
    let wall: Vec<i32> = init["wall"].u32s().into_iter().map(|v| v as i32).collect();
    let row0: Vec<i32> = init["ra"].u32s().into_iter().map(|v| v as i32).collect();
    let (rows, cols) = (43usize, 1000usize);
    // 11 launches: the final row is in `rb`
    let fin: Vec<i32> = out["rb"].u32s().into_iter().map(|v| v as i32).collect();
    // cheapest path ending at column c by memoised recursion over (row, col), written
    // top-down rather than row by row
    fn best(r: usize, c: usize, cols: usize, wall: &[i32], row0: &[i32], memo: &mut Vec<Option<i32>>) -> i32 {
        if r == 0 {
            return row0[c];
        }
        if let Some(v) = memo[r * cols + c] {
            return v;
        }
        let mut m = i32::MAX;
        for cc in [c.saturating_sub(1), c, (c + 1).min(cols - 1)] {
            m = m.min(best(r - 1, cc, cols, wall, row0, memo));
        }
        let v = m + wall[r * cols + c];
        memo[r * cols + c] = Some(v);
        v
    }
    let mut memo = vec![None; rows * cols];
    for c in [0, 1, 119, 120, 500, 998, 999] {
        assert_eq!(fin[c], best(rows - 1, c, cols, &wall, &row0, &mut memo), "column {c}");
    }
}

#[test]
fn srad_matches_reference() {
    let (_, out) = check_passes("srad/srad.toml", "tiny");
    // independent: every diffusion coefficient was clamped into [0, 1]
    assert!(f32s(&out, "coef").iter().all(|c| (0.0..=1.0).contains(c)));
    // independent: a constant image has no gradients, so q = 0 and the coefficient is
    // 1 / (1 - 1 / (1 + q0sqr)) = 21 for q0sqr = 0.05, clamped to exactly 1; the update
    // is 0 and the image stays as it was
    let p = root().join("workloads/srad/srad.toml");
    let text = std::fs::read_to_string(&p).unwrap().replace("init = { kind = \"uniform\", lo = 0.5, hi = 1.5, seed = 41 }", "init = { kind = \"constant\", value = 0.75 }");
    let l = Launch::parse(&p, &text).unwrap_or_else(|e| panic!("{e}"));
    let (r, flat) = run_full(&config("tiny"), &l);
    assert!(r.checks_passed(), "{r}");
    assert!(f32s(&flat, "coef").iter().all(|&c| c == 1.0));
    assert!(f32s(&flat, "image").iter().all(|&v| v == 0.75));
}

#[test]
fn nn_matches_reference_and_a_brute_force_search() {
    let (_, out) = check_passes("nn/nn.toml", "tiny");
    // independent: the nearest record over all CTAs is the one a brute-force search in
    // f64 finds, and its distance agrees to f32 precision
    let init = launch("nn/nn.toml").materialize(1);
    let (lat, lng) = (init["lat"].f32s(), init["lng"].f32s());
    let (mut best, mut best_i) = (f64::INFINITY, 0usize);
    for i in 0..lat.len() {
        let d = ((lat[i] as f64 - 30.5).powi(2) + (lng[i] as f64 + 90.25).powi(2)).sqrt();
        if d < best {
            (best, best_i) = (d, i);
        }
    }
    let (bd, bi) = (f32s(&out, "best_dist"), u32s(&out, "best_idx"));
    let c = (0..bd.len()).min_by(|&a, &b| bd[a].total_cmp(&bd[b])).expect("CTAs");
    assert_eq!(bi[c] as usize, best_i);
    assert!((bd[c] as f64 - best).abs() <= 1e-5 * best.max(1.0), "{} vs {best}", bd[c]);
}

#[test]
fn gaussian_matches_reference_and_solves_the_system() {
    let (_, out) = check_passes("gaussian/gaussian.toml", "tiny");
    // independent: back-substitution on the eliminated system gives x with A x = b for
    // the original (boosted) A and b, residual small in f64
    let n = 19;
    let init = launch("gaussian/gaussian.toml").materialize(1);
    let mut a0: Vec<f64> = init["a"].f32s().iter().map(|&v| v as f64).collect();
    for i in 0..n {
        a0[i * n + i] += n as f64;
    }
    let b0: Vec<f64> = init["b"].f32s().iter().map(|&v| v as f64).collect();
    let (u, c) = (f32s(&out, "a"), f32s(&out, "b"));
    for i in 1..n {
        for j in 0..i {
            assert!(u[i * n + j].abs() < 1e-5, "a[{i}][{j}] = {} not eliminated", u[i * n + j]);
        }
    }
    let mut x = vec![0f64; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| u[i * n + j] as f64 * x[j]).sum();
        x[i] = (c[i] as f64 - s) / u[i * n + i] as f64;
    }
    for i in 0..n {
        let r: f64 = (0..n).map(|j| a0[i * n + j] * x[j]).sum::<f64>() - b0[i];
        assert!(r.abs() < 1e-5, "row {i}: residual {r}");
    }
}

#[test]
fn lavamd_matches_reference_and_forces_cancel_in_a_closed_box_set() {
    let (_, out) = check_passes("lavamd/lavamd.toml", "tiny");
    // independent: the pair force is antisymmetric and every box sees all its neighbours,
    // so the total force over all particles is zero (up to rounding)
    let o = f32s(&out, "out");
    let mut total = [0f64; 3];
    let mut scale = 0f64;
    for q in o.chunks_exact(4) {
        for k in 0..3 {
            total[k] += q[k + 1] as f64;
            scale += (q[k + 1] as f64).abs();
        }
    }
    for t in total {
        assert!(t.abs() < 1e-4 * scale, "net force {total:?} (sum of magnitudes {scale})");
    }
    assert!(o.chunks_exact(4).all(|q| q[0] > 0.0), "every particle feels a positive potential");
}

#[test]
fn streamcluster_matches_reference_and_savings_add_up() {
    let (_, out) = check_passes("streamcluster/streamcluster.toml", "tiny");
    // independent: the savings summed over all CTAs and steps equal the drop of the total
    // cost, and every point's final cost is its weighted distance to its assigned centre
    // whenever it switched
    let init = launch("streamcluster/streamcluster.toml").materialize(1);
    let before: f64 = init["cost"].f32s().iter().map(|&v| v as f64).sum();
    let cost = f32s(&out, "cost");
    let after: f64 = cost.iter().map(|&v| v as f64).sum();
    let saved: f64 = f32s(&out, "partial").iter().map(|&v| v as f64).sum();
    assert!(saved > 0.0);
    assert!(((before - after) - saved).abs() < 1e-3 * before, "saved {saved} vs drop {}", before - after);
    let (coord, w, assign) = (init["coord"].f32s(), init["weight"].f32s(), u32s(&out, "assign"));
    let n = 1000;
    let mut switched = 0;
    for i in 0..n {
        if cost[i] != init["cost"].f32s()[i] {
            switched += 1;
            let c = assign[i] as usize;
            let d: f64 = (0..5).map(|f| (coord[f * n + i] as f64 - coord[f * n + c] as f64).powi(2)).sum::<f64>() * w[i] as f64;
            assert!((d - cost[i] as f64).abs() < 1e-5, "point {i}: cost {} vs {d}", cost[i]);
        }
    }
    assert!(switched > 0 && u32s(&out, "count")[0] >= switched);
}

#[test]
fn bptree_matches_reference_and_hits_are_the_queried_keys() {
    let (_, out) = check_passes("bptree/bptree.toml", "tiny");
    // independent: keys are 1 + 3k, so a query q hits exactly when q % 3 == 1, at k = q / 3
    let init = launch("bptree/bptree.toml").materialize(1);
    let (q, res) = (init["queries"].u32s(), u32s(&out, "result"));
    let mut hits = 0;
    for (i, (&q, &r)) in q.iter().zip(&res).enumerate() {
        let want = if q % 3 == 1 && q / 3 < 1000 { q / 3 } else { u32::MAX };
        assert_eq!(r, want, "query {i} = {q}");
        hits += (r != u32::MAX) as u32;
    }
    assert!(hits > 100 && hits < 677, "{hits} hits");
    // the layout of 1000 keys in fanout 8 has 125 + 16 + 2 + 1 nodes, the root's level 3
    assert_eq!(golden::gpu::suite::bptree_layout(&init["keys"].u32s()).len(), 144 * 18);
    assert_eq!(u32s(&out, "tree")[143 * 18 + 1], 3);
    // edge cases: one key (the root is a leaf), 8 keys (one full leaf), 65 keys (9 leaves,
    // 2 inner nodes, a root with 2 children): every key is found at its index
    for (n, nodes) in [(1u32, 1u32), (8, 1), (65, 12)] {
        let edits = [
            ("len = 1000", format!("len = {n}")),
            ("\"keys\", \"tree\", 1000, 144]", format!("\"keys\", \"tree\", {n}, {nodes}]")),
            ("\"result\", 777, 143]", format!("\"result\", 777, {}]", nodes - 1)),
            ("lo = 0, hi = 3005", format!("lo = 0, hi = {}", 3 * n + 2)),
            ("n = 1000", format!("n = {n}")),
        ];
        let p = root().join("workloads/bptree/bptree.toml");
        let mut text = std::fs::read_to_string(&p).unwrap();
        for (a, b) in &edits {
            assert!(text.contains(a), "{a}");
            text = text.replacen(a, b, 1);
        }
        let l = Launch::parse(&p, &text).unwrap_or_else(|e| panic!("{e}"));
        let (r, o) = run_full(&config("tiny"), &l);
        assert!(r.checks_passed(), "{n} keys: {r}");
        let q = l.materialize(1)["queries"].u32s();
        for (&q, &res) in q.iter().zip(&u32s(&o, "result")) {
            let want = if q % 3 == 1 && q / 3 < n { q / 3 } else { u32::MAX };
            assert_eq!(res, want, "{n} keys, query {q}");
        }
    }
}

#[test]
fn nw_matches_reference_and_scores_a_hand_aligned_pair() {
    check_passes("nw/nw.toml", "tiny");
    // independent: a = 0 1 2 3 4 and b = 1 2 3 4 5 align best as
    //   0 1 2 3 4 -
    //   - 1 2 3 4 5
    // four matches and two gaps: 4 * 5 - 2 * 2 = 16 (no mismatch can beat a gap here:
    // the diagonal alignment scores 5 * -3 = -15)
    let text = std::fs::read_to_string(root().join("workloads/nw/nw.toml"))
        .unwrap()
        .replace("len = 50\ninit = { kind = \"randint\", lo = 0, hi = 3, seed = 101 }", "len = 5\ninit = { kind = \"iota\", start = 0 }")
        .replace("len = 50\ninit = { kind = \"randint\", lo = 0, hi = 3, seed = 102 }", "len = 5\ninit = { kind = \"iota\", start = 1 }")
        .replace("len = 2601", "len = 36")
        .replace("grid = 11", "grid = 1")
        .replace("\"score\", 50, 2]", "\"score\", 5, 2]")
        .replace("\"seqb\", 50,", "\"seqb\", 5,")
        .replace("grid = 4\n", "grid = 1\n")
        .replace("repeat = 7", "repeat = 1")
        .replace("n = 50,", "n = 5,");
    let l = Launch::parse(&root().join("workloads/nw/hand.toml"), &text).unwrap_or_else(|e| panic!("{e}"));
    let (r, out) = run_full(&config("tiny"), &l);
    assert!(r.checks_passed(), "{r}");
    let score: Vec<i32> = out["score"].u32s().into_iter().map(|v| v as i32).collect();
    assert_eq!(score.len(), 36);
    assert_eq!(score[35], 16);
    assert_eq!(&score[..6], &[0, -2, -4, -6, -8, -10]);
}

const SUITE: &[&str] = &[
    "hotspot/hotspot.toml",
    "pathfinder/pathfinder.toml",
    "srad/srad.toml",
    "nn/nn.toml",
    "gaussian/gaussian.toml",
    "lavamd/lavamd.toml",
    "streamcluster/streamcluster.toml",
    "bptree/bptree.toml",
    "nw/nw.toml",
];

#[test]
fn every_suite_launch_has_a_reference_listed_and_a_check() {
    for w in SUITE {
        let l = launch(w);
        let c = l.check.as_ref().unwrap_or_else(|| panic!("{w}: no [check]"));
        assert!(golden::gpu::workloads::REFERENCES.contains(&c.reference.as_deref().expect("a reference")));
        assert!(golden::gpu::suite::NAMES.contains(&c.reference.as_deref().expect("a reference")));
    }
    // the base references are still there, each name once
    let r = golden::gpu::workloads::REFERENCES;
    assert!(r.contains(&"vecadd") && r.contains(&"prodcons") && r.contains(&"nw"));
    let mut sorted = r.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), r.len());
}

#[test]
fn suite_matches_references_on_macro_16() {
    for w in SUITE {
        check_passes(w, "macro_16");
    }
}

#[test]
fn suite_matches_references_on_paper_presets() {
    for preset in ["llc_compute_56", "tfb_maxwell_16", "macro_64"] {
        for w in SUITE {
            check_passes(w, preset);
        }
    }
}

#[test]
fn a_perturbed_output_element_is_caught() {
    // run each launch once, then compare its outputs with the reference's after changing
    // one element of the expected buffer: the comparison must fail on exactly that element
    let cfg = config("tiny");
    for w in SUITE {
        let l = launch(w);
        let (r, finals) = run_full(&cfg, &l);
        assert!(r.checks_passed(), "{w}: {r}");
        let c = l.check.as_ref().expect("check");
        let init = l.materialize(1);
        let want = golden::gpu::workloads::reference(c.reference.as_deref().expect("a reference"), &init, &c.params).expect("reference");
        let out = &l.buffers[c.outputs[0]].name;
        one_wrong_element_is_caught(&format!("{w}: `{out}`"), &finals[out], &want[out], c.rtol, c.atol, |v| if v == 0.0 { 1e-3 } else { v * (1.0 + 1e-3) });
    }
}

#[test]
fn off_by_one_launches_are_caught() {
    // one row, step, launch or tile diagonal short: the reference still expects the full
    // computation
    assert!(!passes_after("hotspot/hotspot.toml", &[("args = [\"temp\", \"temp_next\", \"power\", 45,", "args = [\"temp\", \"temp_next\", \"power\", 44,")]));
    assert!(!passes_after("pathfinder/pathfinder.toml", &[("repeat = 11", "repeat = 10")]));
    assert!(!passes_after("pathfinder/pathfinder.toml", &[("grid = 9", "grid = 8")]));
    assert!(!passes_after("nw/nw.toml", &[("repeat = 7", "repeat = 6")]));
    assert!(!passes_after("nn/nn.toml", &[("4099, 30.5", "4098, 30.5")]));
    assert!(!passes_after("streamcluster/streamcluster.toml", &[("repeat = 4", "repeat = 3")]));
    assert!(!passes_after("bptree/bptree.toml", &[("\"result\", 777, 143]", "\"result\", 776, 143]")]));
    assert!(!passes_after("lavamd/lavamd.toml", &[("grid = 24", "grid = 23")]));
    assert!(!passes_after("srad/srad.toml", &[("grid = [4, 5, 1]", "grid = [4, 4, 1]")]));
    // gaussian: drop the last Fan2 step (t = 17)
    assert!(!passes_after("gaussian/gaussian.toml", &[("args = [\"m\", \"a\", \"b\", 19, 17]", "args = [\"m\", \"a\", \"b\", 19, 16]")]));
    // and the unedited files pass through the same path
    assert!(passes_after("nw/nw.toml", &[]));
}

#[test]
fn check_params_the_references_cannot_take_are_errors_not_panics() {
    let init = launch("nn/nn.toml").materialize(1);
    let mut p = launch("nn/nn.toml").check.unwrap().params;
    p.insert("block".into(), 0.0);
    let e = golden::gpu::workloads::reference("nn", &init, &p).unwrap_err();
    assert!(e.contains("check.params.block") && e.contains("1..=1024"), "{e}");
    p.insert("block".into(), 128.0);
    p.insert("n".into(), 9.2e18);
    let e = golden::gpu::workloads::reference("nn", &init, &p).unwrap_err();
    assert!(e.contains("check.params.n"), "{e}");
    let init = launch("streamcluster/streamcluster.toml").materialize(1);
    let mut p = launch("streamcluster/streamcluster.toml").check.unwrap().params;
    p.insert("block".into(), 100.0);
    assert!(golden::gpu::workloads::reference("streamcluster", &init, &p).unwrap_err().contains("power of two"));
}
