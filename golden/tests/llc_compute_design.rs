//! LLC-Compute's design-space studies on the GPU model (spec §7 studies 16 and 21,
//! `studies/llc_compute_design.toml`): the alternative MC placement's EMN table is
//! Algorithm 1's (a core's table derived by hand from the YX routes), and the static
//! EMN counters of the offload hook (`llc_compute.emn.*`) count it.

use crate::gpu_common;

use golden::gpu::GpuConfig;
use golden::llc_compute::emn::{EmnPaths, EmnTableCounts, Node, Placement};
use golden::llc_compute::hook::emn_luts;
use gpu_common::{config, config_path, launch_text, root};

/// The Fig. 16 reading of `configs/gpu/llc_compute_56_fig16.toml` (spec §2.4.3
/// `alt_fig16`): L0..L7 at (x, y).
const FIG16: [(u32, u32); 8] = [(3, 0), (4, 0), (0, 3), (0, 4), (7, 3), (7, 4), (3, 7), (4, 7)];

/// Core 15's EMN table on the Fig. 16 placement, derived by hand. Core 15 is node
/// (1, 2) (row 0 holds six cores, rows 1 and 2 eight each). Its YX routes: to L0/L1 up
/// column 1 to (1, 0), then east; to L2 and L4 down to (1, 3), then west or east; to L3
/// and L5 through (1, 3) to (1, 4), then west or east; to L6/L7 down column 1 to (1, 7),
/// then east through L6 (3, 7) to L7. The EMN is the last shared node: L0 for L0/L1, L6
/// for L6/L7, core 22 = (1, 3) for any pair with L2 or L4 (first node of row 3's six
/// cores after 22), core 28 = (1, 4) for the pairs among L3, L5, L6, L7 (the first core
/// of row 4), none between the upper pair and the rest (the first hops differ).
/// Entries are node ids (y * 8 + x).
fn hand_core15() -> Vec<Vec<Option<usize>>> {
    let l = |i: usize| Some(FIG16[i].1 as usize * 8 + FIG16[i].0 as usize);
    let (c22, c28) = (Some(3 * 8 + 1), Some(4 * 8 + 1));
    let n = None;
    vec![
        vec![l(0), l(0), n, n, n, n, n, n],
        vec![l(0), l(1), n, n, n, n, n, n],
        vec![n, n, l(2), c22, c22, c22, c22, c22],
        vec![n, n, c22, l(3), c22, c28, c28, c28],
        vec![n, n, c22, c22, l(4), c22, c22, c22],
        vec![n, n, c22, c28, c22, l(5), c28, c28],
        vec![n, n, c22, c28, c22, c28, l(6), l(6)],
        vec![n, n, c22, c28, c22, c28, l(6), l(7)],
    ]
}

/// A preset with `[hooks.llc_compute] mode = "<mode>"` appended.
fn with_mode(name: &str, mode: &str) -> GpuConfig {
    let path = config_path(name);
    let text = std::fs::read_to_string(&path).unwrap() + &format!("\n[hooks.llc_compute]\nmode = \"{mode}\"\n");
    GpuConfig::parse(&path, &text).unwrap_or_else(|e| panic!("{e}"))
}

fn fig16_nodes() -> Vec<usize> {
    FIG16.iter().map(|&(x, y)| (y * 8 + x) as usize).collect()
}

#[test]
fn the_fig16_preset_is_the_baseline_with_the_mcs_moved() {
    let (base, alt) = (config("llc_compute_56"), config("llc_compute_56_fig16"));
    assert_eq!(alt.network.mem_nodes, fig16_nodes());
    // SM numbering row-major over the other nodes: SM 15 at (1, 2) on both placements
    assert_eq!((alt.network.sm_nodes[15], base.network.sm_nodes[15]), (17, 17));
    // every other line equal: only the name, the header and the MC coordinates differ
    let strip = |n: &str| {
        std::fs::read_to_string(config_path(n))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("name =") && !l.starts_with("mem_nodes ="))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(strip("llc_compute_56"), strip("llc_compute_56_fig16"));
}

/// The GPU hook's table of SM 15 on the Fig. 16 preset is the hand-derived one, and so
/// is Algorithm 1's on the same placement; the Fig. 3 preset's differs.
#[test]
fn the_fig16_emn_table_is_algorithm_1s() {
    let luts = emn_luts(&config("llc_compute_56_fig16")).unwrap();
    assert_eq!(luts.len(), 56);
    assert_eq!(luts[15], hand_core15());
    let p = Placement { width: 8, height: 8, mcs: FIG16.iter().map(|&(x, y)| Node::new(x, y)).collect() };
    let alg: Vec<Vec<Option<usize>>> = p.lut(p.core(15), EmnPaths::RequestRoute).iter().map(|r| r.iter().map(|e| e.map(|n| p.id(n) as usize)).collect()).collect();
    assert_eq!(alg, hand_core15());
    // every SM's table is Algorithm 1's for its node
    for (i, lut) in luts.iter().enumerate() {
        let want: Vec<Vec<Option<usize>>> = p.lut(p.core(i as u32), EmnPaths::RequestRoute).iter().map(|r| r.iter().map(|e| e.map(|n| p.id(n) as usize)).collect()).collect();
        assert_eq!(*lut, want, "SM {i}");
    }
    assert_ne!(emn_luts(&config("llc_compute_56")).unwrap()[15], hand_core15());
}

/// The expected counts of one table, by hand: core 15 on Fig. 16 has 1 + 1 + 5 × 6 = 32
/// of 56 different-MC pairs with an EMN, 4 at an LLC node ((L0, L1), (L6, L7) both ways);
/// on Fig. 3 the spec's table of core 15 (spec §2.4.3) has 1 + 1 + 0 + 4 × 5 = 22, 6 at
/// L4 (L4 with L5, L6, L7, both ways).
fn check(c: EmnTableCounts, want: (u64, u64, u64)) -> Result<(), String> {
    let got = (c.pairs, c.with_emn, c.llc_emn);
    if got == want {
        Ok(())
    } else {
        Err(format!("counts {got:?}, by hand {want:?}"))
    }
}

#[test]
fn emn_table_counts_match_hand_counts_and_a_planted_bug_is_caught() {
    let nodes = fig16_nodes();
    check(EmnTableCounts::of(&hand_core15(), &nodes), (56, 32, 4)).unwrap();
    let fig3 = config("llc_compute_56");
    let luts = emn_luts(&fig3).unwrap();
    check(EmnTableCounts::of(&luts[15], &fig3.network.mem_nodes), (56, 22, 6)).unwrap();
    // planted bug: the diagonal (same-MC pairs, whose EMN is the LLC itself) counted too
    let buggy = |lut: &[Vec<Option<usize>>], mem: &[usize]| {
        let mut c = EmnTableCounts::of(lut, mem);
        c.pairs += lut.len() as u64;
        c.with_emn += lut.len() as u64;
        c.llc_emn += lut.len() as u64;
        c
    };
    assert!(check(buggy(&hand_core15(), &nodes), (56, 32, 4)).is_err());
    // a wrong table: one core EMN moved to an LLC node
    let mut t = hand_core15();
    t[2][3] = Some(nodes[2]);
    assert_eq!(check(EmnTableCounts::of(&t, &nodes), (56, 32, 4)).unwrap_err(), "counts (56, 32, 5), by hand (56, 32, 4)");
}

/// The hook reports the counts summed over its SMs in an Omni run: on Fig. 3 the spec's
/// 50% of different-MC pairs (56 × 28 of 56 × 56) and 7.1% at an LLC node; on both
/// placements equal to [`Placement::availability`] (which walks the placement's own
/// core numbering, not the GPU's SM nodes). Not under `llc` (no EMN table).
#[test]
fn the_hook_reports_the_static_emn_counts() {
    let text = std::fs::read_to_string(root().join("workloads/vecadd/vecadd.toml")).unwrap().replace("10000", "64").replace("grid = 40", "grid = 1");
    let l = launch_text("vecadd/vecadd_64.toml", &text);
    for (name, mcs) in [("llc_compute_56", Placement::fig3().mcs), ("llc_compute_56_fig16", FIG16.iter().map(|&(x, y)| Node::new(x, y)).collect())] {
        let r = golden::gpu::run(&with_mode(name, "omni"), &l, golden::gpu::RunOptions::default()).unwrap();
        assert!(r.checks_passed(), "{name}");
        let h = |k: &str| r.hooks[&format!("llc_compute.emn.{k}")];
        let a = Placement { width: 8, height: 8, mcs }.availability(EmnPaths::RequestRoute);
        assert_eq!((h("pairs"), h("with_emn"), h("llc_emn")), (u64::from(a.distinct_pairs), u64::from(a.distinct_with_emn), u64::from(a.distinct_llc_emn)), "{name}");
        if name == "llc_compute_56" {
            assert_eq!((h("pairs"), h("with_emn")), (56 * 56, 56 * 28));
            assert_eq!((h("llc_emn") as f64 * 1000.0 / h("pairs") as f64).round(), 71.0);
        }
    }
    let r = golden::gpu::run(&with_mode("llc_compute_56", "llc"), &l, golden::gpu::RunOptions::default()).unwrap();
    assert!(!r.hooks.contains_key("llc_compute.emn.pairs"));
}

/// The RED variants of study 17 (`workloads/red/`): reduce_hybrid2's reference checks
/// each bit for bit on `tiny` and on the 56-core platform; LLC-Compute and Omni-Compute
/// leave the results (checked) and the dynamic instruction counts unchanged (spec §1.2),
/// and the pair loop's 7,810 chain instances are offloaded in each (the same loop in all
/// five; `llc_compute_offload`'s reduce_hybrid2 count).
#[test]
fn red_variants_match_the_reference_and_offloading_changes_no_count() {
    let (tiny, base, llc, omni) = (config("tiny"), with_mode("llc_compute_56", "profile"), with_mode("llc_compute_56", "llc"), with_mode("llc_compute_56", "omni"));
    for v in ["reduce_shared", "reduce_hybrid1", "reduce_hybrid3", "reduce_global"] {
        let l = gpu_common::launch(&format!("red/{v}.toml"));
        assert_eq!(l.check.as_ref().unwrap().reference.as_deref(), Some("reduce_hybrid2"));
        let run = |c: &GpuConfig| {
            let r = golden::gpu::run(c, &l, golden::gpu::RunOptions::default()).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert!(r.checks_passed(), "{v}: {r}");
            r
        };
        run(&tiny);
        let b = run(&base);
        for (c, mode) in [(&llc, "llc"), (&omni, "omni")] {
            let o = run(c);
            assert_eq!(o.warp_insts, b.warp_insts, "{v} {mode}");
            // LLC-Compute: only the pair loop's chains (a tree level's two rows sit in two
            // partitions, or the level hits in L1); Omni may also send tree chains to cores
            let sent = o.hooks["llc_compute.oq.sent"];
            assert!(if mode == "llc" { sent == 7810 } else { sent >= 7810 }, "{v} {mode}: {sent}");
        }
    }
}

/// A variant whose last level adds the wrong neighbour fails reduce_hybrid2's check (the
/// check sees the PTX's tree, not only the launch): RED-Global's level 8 reading
/// gs[tid + 2] instead of gs[tid + 1].
#[test]
fn a_red_variant_with_a_wrong_level_fails_its_check() {
    let ptx = std::fs::read_to_string(root().join("workloads/red/reduce_global.ptx")).unwrap();
    let bad = ptx.replacen("ld.global.f32 \t%f31, [%rd13+4];", "ld.global.f32 \t%f31, [%rd13+8];", 1);
    assert_ne!(bad, ptx);
    let file = std::env::temp_dir().join(format!("gpuforge-red-global-{}.ptx", std::process::id()));
    std::fs::write(&file, bad).unwrap();
    let text = std::fs::read_to_string(root().join("workloads/red/reduce_global.toml")).unwrap().replace("ptx = \"reduce_global.ptx\"", &format!("ptx = \"{}\"", file.display()));
    let run = |t: &str| golden::gpu::run(&config("tiny"), &launch_text("red/reduce_global.toml", t), golden::gpu::RunOptions::default()).unwrap().checks_passed();
    let caught = !run(&text);
    let _ = std::fs::remove_file(&file);
    assert!(caught);
}

/// Study 19's knob, `core_sq_alu_lanes`: a dedicated 32-lane SQ ALU in each core is
/// free every cycle, so no core-SQ op waits for it (the shared ALU makes VECADD-STRIDED's
/// ops wait: study 14); a 4-lane one takes 8 cycles per op, so ops wait for it. Results
/// and dynamic instruction counts stay the baseline's; a width that is not 4, 8, 16 or
/// 32 (or 0, shared) is refused naming the field.
#[test]
fn a_dedicated_core_sq_alu() {
    let l = gpu_common::launch("micro_llc/vecadd_strided.toml");
    let path = config_path("llc_compute_56");
    let cfg = |lanes: i64| GpuConfig::parse(&path, &(std::fs::read_to_string(&path).unwrap() + &format!("\n[hooks.llc_compute]\nmode = \"omni\"\ncore_sq_alu_lanes = {lanes}\n")));
    let run = |lanes: i64| {
        let r = golden::gpu::run(&cfg(lanes).unwrap(), &l, golden::gpu::RunOptions::default()).unwrap();
        assert!(r.checks_passed(), "{lanes}: {r}");
        r
    };
    let base = golden::gpu::run(&with_mode("llc_compute_56", "profile"), &l, golden::gpu::RunOptions::default()).unwrap();
    let (shared, w32, w4) = (run(0), run(32), run(4));
    let h = |r: &golden::gpu::GpuReport, k: &str| r.hooks[&format!("llc_compute.sq_core.{k}")];
    for r in [&shared, &w32, &w4] {
        assert_eq!(r.warp_insts, base.warp_insts);
        assert!(h(r, "alu_ops") > 0);
    }
    assert!(h(&shared, "alu_contention") > 0);
    assert_eq!(h(&w32, "alu_contention"), 0);
    assert!(h(&w4, "alu_contention") > 0);
    for bad in [5, -1, 64] {
        let e = cfg(bad).unwrap_err().to_string();
        assert!(e.contains("llc_compute_56.toml") && e.contains("hooks.llc_compute.core_sq_alu_lanes") && e.contains("0 (the core's ALU), 4, 8, 16, 32"), "{e}");
    }
}
