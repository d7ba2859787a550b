//! LLC-Compute and Omni-Compute offloading in the GPU model (`[hooks.llc_compute] mode =
//! "llc"` / `"omni"`, spec §2.5, §1.6, §1.7): results and instruction counts never
//! change (§1.2), a single chain's traffic is the hand count of the spec's protocol and
//! reproduces the paper's Sec. 3 hop examples (§2.7) on the 8×8 mesh, a full SQSR falls
//! back (§1.6.4), and bad parameters are one line, exit 2, nothing written.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `configs/gpu/tiny.toml` with `[hooks.llc_compute]` = `hook`, run on `launch`; the
/// exit code, stderr and the JSON report (if written).
fn run(hook: &str, launch: &Path) -> (i32, String, Option<serde_json::Value>) {
    run_on(&preset("tiny"), hook, launch)
}

fn preset(name: &str) -> String {
    std::fs::read_to_string(root().join(format!("configs/gpu/{name}.toml"))).unwrap()
}

/// The config text `base` with `[hooks.llc_compute]` = `hook`, run on `launch`.
fn run_on(base: &str, hook: &str, launch: &Path) -> (i32, String, Option<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("gpu.toml");
    std::fs::write(&cfg, format!("{base}\n[hooks.llc_compute]\n{hook}\n")).unwrap();
    let json = dir.path().join("r.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("sim").arg(&cfg).arg(launch).arg("--json").arg(&json).output().unwrap();
    let report = std::fs::read_to_string(&json).ok().map(|t| serde_json::from_str(&t).unwrap());
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).to_string(), report)
}

/// Workload `w` on config text `cfg` under `profile` and under `mode`: both pass their
/// checks, execute the same warp and thread instructions, and every sent chain is
/// answered. The two reports.
fn same_results(cfg: &str, mode: &str, w: &str) -> (serde_json::Value, serde_json::Value) {
    let launch = root().join(format!("workloads/{w}.toml"));
    let (c0, e0, base) = run_on(cfg, "mode = \"profile\"", &launch);
    let (c1, e1, off) = run_on(cfg, &format!("mode = \"{mode}\""), &launch);
    assert_eq!((c0, c1), (0, 0), "{w}: {e0} {e1}");
    let (base, off) = (base.unwrap(), off.unwrap());
    assert!(passed(&base) && passed(&off), "{w}: checks {} / {}", base["checks"], off["checks"]);
    for k in ["warp_insts", "thread_insts"] {
        assert_eq!(base[k], off[k], "{w}: {k}");
    }
    assert_eq!(hook(&off, "oq.answers"), hook(&off, "oq.sent"), "{w}: every sent chain is answered");
    (base, off)
}

fn hook(v: &serde_json::Value, name: &str) -> u64 {
    v["hooks"][format!("llc_compute.{name}")].as_u64().unwrap_or_else(|| panic!("no counter {name}: {}", v["hooks"]))
}

fn passed(v: &serde_json::Value) -> bool {
    v["checks"].as_array().is_some_and(|c| !c.is_empty() && c.iter().all(|c| c["passed"] == true))
}

/// Offloading changes no result and no dynamic instruction count (spec §1.2), on every
/// workload with chains; the aligned vecadd really offloads (every chain), the strided
/// one flushes every chain at its second load (a and b in different partitions).
#[test]
fn offloading_changes_no_result_and_no_instruction_count() {
    for w in [
        "micro_llc/vecadd_aligned",
        "micro_llc/vecadd_strided",
        "micro_llc/copy_aligned",
        "micro_llc/copy_strided",
        "micro_llc/compare",
        "micro_llc/density",
        "micro_llc/norm",
        "vecadd/vecadd",
        "kmeans/kmeans",
        "fdtd/fdtd2d",
        "mvt/mvt",
        "scp/scalarprod",
        "red/reduce_hybrid2",
    ] {
        let (base, off) = same_results(&preset("tiny"), "llc", w);
        let sent = hook(&off, "oq.sent");
        let chains = hook(&base, "chains");
        if w == "micro_llc/vecadd_aligned" {
            assert_eq!((sent, chains), (1792, 1792), "{w}: 57,344 threads = 1,792 warps, one chain each");
        }
        if w == "micro_llc/vecadd_strided" {
            assert_eq!((sent, hook(&off, "oq.flush_partitions")), (0, 1792), "{w}");
        }
        // COPY (spec 4.1): pattern 3, one chain per warp. Aligned, src[i] and dst[i] share
        // a partition: every chain offloads. Strided, dst is 128 B further; tiny
        // interleaves its 2 partitions by 256 B, so warp w's lines (src at 128 w past a
        // 1-KB boundary) share a 256-B chunk for even w (offloaded) and straddle two for
        // odd w (flushed at the store): 896 each (on the 8-partition mesh, all flush)
        if w == "micro_llc/copy_aligned" {
            assert_eq!((sent, chains), (1792, 1792), "{w}");
        }
        if w == "micro_llc/copy_strided" {
            assert_eq!((sent, hook(&off, "oq.flush_partitions"), chains), (896, 896, 1792), "{w}");
        }
    }
}

/// Chain-aware fetch and issue priority (spec §1.2, `chain_priority`, on by default)
/// acts where warps compete (the forming chain's warp is moved ahead in its scheduler and
/// in fetch) and changes no result and no instruction count; off, it never acts.
#[test]
fn chain_priority_changes_timing_not_work() {
    let cfg = preset("llc_compute_56");
    let launch = root().join("workloads/micro_llc/vecadd_aligned.toml");
    let mut insts = Vec::new();
    for (prio, mode) in [(true, "llc"), (false, "llc"), (true, "omni")] {
        let (code, err, r) = run_on(&cfg, &format!("mode = \"{mode}\"\nchain_priority = {prio}"), &launch);
        assert_eq!(code, 0, "{err}");
        let r = r.unwrap();
        assert!(passed(&r), "{}", r["checks"]);
        let (ahead, fetch) = (hook(&r, "oq.prio_ahead"), hook(&r, "oq.prio_fetch"));
        if prio {
            assert!(ahead > 0 && fetch > 0, "{mode}: priority never acted: {}", r["hooks"]);
        } else {
            assert_eq!((ahead, fetch), (0, 0), "{mode}: priority off");
        }
        insts.push((r["warp_insts"].clone(), r["thread_insts"].clone()));
    }
    assert!(insts.iter().all(|i| *i == insts[0]), "{insts:?}");
}

/// A launch of one warp: c = a + b on 32 elements, a, b and c 1-KB aligned.
fn one_warp_launch(dir: &Path) -> PathBuf {
    one_warp_launch_skewed(dir, [0; 3])
}

/// The same with a, b, c placed `skew` bytes past a 1-KB boundary (128 B per partition
/// on the 8-partition presets).
fn one_warp_launch_skewed(dir: &Path, skew: [u32; 3]) -> PathBuf {
    let ptx = root().join("workloads/vecadd/vecadd.ptx");
    let mut t = String::from("name = \"vecadd_one_warp\"\n");
    for ((name, init), skew) in
        [("a", "{ kind = \"uniform\", lo = -1.0, hi = 1.0, seed = 1 }"), ("b", "{ kind = \"uniform\", lo = -1.0, hi = 1.0, seed = 2 }"), ("c", "{ kind = \"zeros\" }")]
            .into_iter()
            .zip(skew)
    {
        t += &format!("[[buffer]]\nname = \"{name}\"\ntype = \"f32\"\nlen = 32\ninit = {init}\nalign = 1024\nskew = {skew}\n");
    }
    t += &format!("[[kernel]]\nptx = {:?}\ngrid = 1\nblock = 32\nargs = [\"a\", \"b\", \"c\", 32]\n", ptx.display().to_string());
    t += "[check]\nreference = \"vecadd\"\noutputs = [\"c\"]\nparams = { n = 32 }\n";
    let p = dir.join("one_warp.toml");
    std::fs::write(&p, t).unwrap();
    p
}

/// One warp's pattern-1 chain (ld a, ld b, add, st c), by hand from the protocol:
/// baseline, 2 read requests + 2 data replies + 1 write + 1 write ack = 6 packets;
/// offloaded, 1 ComputePacket + 1 ACK = 2 packets of 1 flit (spec §1.8, Table 1), and at
/// the SQ 2 TOUCHes, 2 READs and 1 WRITE on the LLC (§1.6.2 steps 3, 5, 7).
#[test]
fn one_chain_traffic_is_the_hand_count() {
    let dir = tempfile::tempdir().unwrap();
    let launch = one_warp_launch(dir.path());
    let (c0, e0, base) = run("mode = \"profile\"", &launch);
    let (c1, e1, off) = run("mode = \"llc\"", &launch);
    assert_eq!((c0, c1), (0, 0), "{e0} {e1}");
    let (base, off) = (base.unwrap(), off.unwrap());
    assert!(passed(&base) && passed(&off));
    assert_eq!(base["noc"]["stats"]["packets_delivered"], 6, "{}", base["noc"]);
    assert_eq!(off["noc"]["stats"]["packets_delivered"], 2, "{}", off["noc"]);
    assert_eq!(off["noc"]["stats"]["flits_delivered"], 2, "{}", off["noc"]);
    let counts: Vec<u64> = ["oq.sent", "oq.answers", "sq.cps", "sq.llc_touch", "sq.llc_read", "sq.llc_write", "sq.answers", "oq.fallbacks"].iter().map(|n| hook(&off, n)).collect();
    assert_eq!(counts, [1, 1, 1, 2, 2, 1, 1, 0], "{}", off["hooks"]);
}

/// A one-entry SQSR: CPs that find it full fall back (spec §1.6.4): each sends its two
/// operand loads' data (5 flits each) back to the core, which computes and stores; the
/// results and counts stay the baseline's.
#[test]
fn a_full_sqsr_falls_back() {
    let launch = root().join("workloads/micro_llc/vecadd_aligned.toml");
    let (c0, _, base) = run("mode = \"profile\"", &launch);
    let (c1, e1, off) = run("mode = \"llc\"\nsq_entries = 1", &launch);
    assert_eq!((c0, c1), (0, 0), "{e1}");
    let (base, off) = (base.unwrap(), off.unwrap());
    assert!(passed(&off), "{}", off["checks"]);
    assert_eq!(base["warp_insts"], off["warp_insts"]);
    let (sent, fb) = (hook(&off, "oq.sent"), hook(&off, "oq.fallbacks"));
    assert!(fb > 0 && fb < sent, "sent {sent}, fallbacks {fb}");
    assert_eq!(hook(&off, "oq.answers"), sent);
    assert_eq!(hook(&off, "sq.fallback_loads"), 2 * fb, "two loads per pattern-1 fallback");
    assert_eq!(hook(&off, "sq.answers"), sent - fb, "the SQ answers what it served");
}

/// Bad offload parameters: one line naming the file, the field and the allowed range,
/// exit 2, no report written.
#[test]
fn bad_offload_parameters_exit_2() {
    let launch = root().join("workloads/vecadd/vecadd.toml");
    for (hook, field, allowed) in [
        ("mode = \"llc\"\nsq_entries = 0", "hooks.llc_compute.sq_entries", "1..=256"),
        ("mode = \"llc\"\noq_entries = 65", "hooks.llc_compute.oq_entries", "1..=64"),
        ("mode = \"llc\"\nsq_buffer = 17", "hooks.llc_compute.sq_buffer", "1..=16"),
        ("mode = \"llc\"\nalu_latency = -1", "hooks.llc_compute.alu_latency", "1..=16"),
        ("mode = \"omni\"", "hooks.llc_compute.mode", "network.mesh"),
        ("mode = \"fast\"", "hooks.llc_compute.mode", "\"omni\""),
        ("mode = \"llc\"\nsq_entires = 4", "hooks.llc_compute", "sq_entries"),
        ("mode = \"omni\"\ndivergence_policy = \"merge\"", "hooks.llc_compute.divergence_policy", "\"split\", \"discard\""),
        ("mode = \"llc\"\nchain_priority = 1", "hooks.llc_compute.chain_priority", "bool"),
    ] {
        let (code, err, report) = run(hook, &launch);
        assert_eq!(code, 2, "{hook}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{hook}: one line: {err}");
        assert!(err.contains("gpu.toml") && err.contains(field) && err.contains(allowed), "{hook}: {err}");
        assert!(report.is_none(), "{hook}: report written");
    }
}

// ---------------------------------------------------------------- Omni-Compute

/// `llc_compute_56` reduced to two SMs: SM 0 at the paper's core 15 (1, 2) and SM 1 at
/// core 36 (1, 5) of the Fig. 3 placement (cores numbered row-major over the non-MC
/// nodes), on the same 8×8 mesh, YX routes and MC placement.
fn two_sm_paper_mesh() -> String {
    let t = preset("llc_compute_56");
    let t = t.replacen("sms = 56 ", "sms = 2 ", 1);
    assert!(t.contains("sm_nodes = \"row_major\""));
    t.replacen("sm_nodes = \"row_major\"", "sm_nodes = [[1, 2], [1, 5]]", 1)
}

/// Links crossed and flit-weighted links (spec §2.7: injection and ejection channels not
/// counted; the mesh's hop statistics count the routers a packet visits, one more than
/// its links).
fn links(v: &serde_json::Value) -> (u64, u64) {
    let s = &v["noc"]["stats"];
    let n = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("no {k}: {s}"));
    (n("hops_sum") - n("packets_delivered"), n("flit_hops_sum") - n("flits_delivered"))
}

/// The paper's Sec. 3 worked examples (spec §2.7), one warp's `c = a + b` from core 15
/// on the real golden mesh. Scenario 1: a, b, c in LLC 5, 8 hops away: 48 hops / 144
/// weighted become 16 / 16 under LLC-Compute and Omni-Compute alike (the EMN is LLC 5).
/// Scenario 2: a in LLC 5, b in LLC 6, c in LLC 7: 42 / 126; LLC-Compute cannot offload
/// (operands in three partitions), Omni-Compute sends the chain to core 36 (its EMN):
/// 30 / 78 (3 + 7 + 7 + 5 + 5 + 3 links; 3 + 7 + 35 + 25 + 5 + 3 weighted).
#[test]
fn omni_reproduces_the_papers_hop_examples() {
    let cfg = two_sm_paper_mesh();
    let dir = tempfile::tempdir().unwrap();
    for (skew, base_links, llc_links, omni_links) in [([640, 640, 640], (48, 144), (16, 16), (16, 16)), ([640, 768, 896], (42, 126), (42, 126), (30, 78))] {
        let launch = one_warp_launch_skewed(dir.path(), skew);
        let mut got = Vec::new();
        for mode in ["profile", "llc", "omni"] {
            let (code, err, r) = run_on(&cfg, &format!("mode = \"{mode}\""), &launch);
            assert_eq!(code, 0, "{mode}: {err}");
            let r = r.unwrap();
            assert!(passed(&r), "{mode}: {}", r["checks"]);
            got.push(links(&r));
            if mode == "omni" && skew[1] != skew[0] {
                // the EMN is a core: its SQ loads a and b, stores c, acks the source
                let c: Vec<u64> = ["oq.sent_core", "sq_core.cps", "sq_core.loads", "sq_core.stores", "sq.core_loads", "sq.core_stores", "sq_core.answers", "oq.answers"]
                    .iter()
                    .map(|n| hook(&r, n))
                    .collect();
                assert_eq!(c, [1, 1, 2, 1, 2, 1, 1, 1], "{}", r["hooks"]);
                assert_eq!(r["noc"]["stats"]["packets_delivered"], 8, "CP, 2 loads, 2 data, store, store ack, ACK");
            }
        }
        assert_eq!(got, [base_links, llc_links, omni_links], "skews {skew:?}: (links, weighted) for profile, llc, omni");
    }
}

/// Omni-Compute changes no result and no dynamic instruction count (spec §1.2) on the
/// paper's 56-core platform, and sends chains to cores where LLC-Compute cannot offload
/// (VECADD-STRIDED: a, b, c in three partitions); fdtd2d's memory-divergent chains are
/// split (the default policy, spec §2.6). bfs is left out: its instruction
/// count depends on timing even without offloading (threads of one level race to mark
/// the same node; a 20-cycle LLC alone changes it).
#[test]
fn omni_changes_no_result_and_no_instruction_count() {
    let cfg = preset("llc_compute_56");
    for w in [
        "micro_llc/vecadd_strided",
        "micro_llc/vecadd_aligned",
        "micro_llc/copy_strided",
        "micro_llc/compare",
        "micro_llc/norm",
        "kmeans/kmeans",
        "streamcluster/streamcluster",
        "fdtd/fdtd2d",
    ] {
        let (_, off) = same_results(&cfg, "omni", w);
        let sent = hook(&off, "oq.sent");
        assert_eq!(hook(&off, "sq_core.cps") + hook(&off, "sq.cps"), hook(&off, "oq.cps"), "{w}: every CP reaches an SQ");
        assert!(hook(&off, "oq.cps") >= sent, "{w}: a CP per group");
        assert_eq!(hook(&off, "sq_core.loads"), hook(&off, "sq.core_loads"), "{w}: core SQ loads served by partitions");
        assert_eq!(hook(&off, "sq_core.stores"), hook(&off, "sq.core_stores"), "{w}");
        if w == "micro_llc/vecadd_strided" {
            assert!(hook(&off, "oq.sent_core") > 500, "{w}: {}", off["hooks"]);
        }
        if w == "micro_llc/vecadd_aligned" {
            assert_eq!(hook(&off, "oq.sent_core"), 0, "{w}: every chain meets at its one LLC");
        }
        if w == "fdtd/fdtd2d" {
            // split chains (spec §2.6) run here, and still change no result
            let (split, groups) = (hook(&off, "oq.split"), hook(&off, "oq.split_groups"));
            assert!(split > 1000 && groups >= 2 * split, "{w}: {}", off["hooks"]);
        }
    }
}

/// Spec §1.7 [OC] `disable_core_sq`: when a kernel's threadblocks need the shared memory
/// the core SQs' slots would take (96 entries × 256 B = 24 kB of the SM's 48 kB), no
/// chain goes to a core. Here the SM has 24 kB + 1 KB: the strided vecadd (no shared
/// memory) still offloads to cores, and streamcluster (512 B per threadblock, 8 of them
/// resident: 4 kB) does not.
#[test]
fn core_sqs_yield_to_the_kernels_shared_memory() {
    let cfg = preset("llc_compute_56").replacen("shared_bytes = 49152 ", "shared_bytes = 25600 ", 1);
    assert!(cfg.contains("shared_bytes = 25600"));
    let run = |w: &str| {
        let (code, err, r) = run_on(&cfg, "mode = \"omni\"", &root().join(format!("workloads/{w}.toml")));
        assert_eq!(code, 0, "{w}: {err}");
        r.unwrap()
    };
    let strided = run("micro_llc/vecadd_strided");
    assert!(hook(&strided, "oq.sent_core") > 0 && hook(&strided, "oq.flush_core_sq_off") == 0, "{}", strided["hooks"]);
    let sc = run("streamcluster/streamcluster");
    assert!(passed(&sc));
    assert_eq!(hook(&sc, "oq.sent_core"), 0, "{}", sc["hooks"]);
    assert!(hook(&sc, "oq.flush_core_sq_off") > 0, "{}", sc["hooks"]);
}

/// A one-entry SQSR in every core (Omni-Compute): CPs that find it full are answered by
/// FB_LOADs from the EMN core to the operands' LLCs, whose data goes straight to the
/// source core (spec §1.6.4 under §1.7), two per pattern-1 chain; results unchanged.
#[test]
fn a_full_core_sqsr_falls_back() {
    let launch = root().join("workloads/micro_llc/vecadd_strided.toml");
    let (code, err, r) = run_on(&preset("llc_compute_56"), "mode = \"omni\"\nsq_entries = 1", &launch);
    assert_eq!(code, 0, "{err}");
    let r = r.unwrap();
    assert!(passed(&r), "{}", r["checks"]);
    let (sent, fb) = (hook(&r, "oq.sent"), hook(&r, "oq.fallbacks"));
    assert!(fb > 0 && fb < sent, "sent {sent}, fallbacks {fb}");
    assert_eq!(hook(&r, "sq_core.fallback_loads"), 2 * fb, "{}", r["hooks"]);
    assert_eq!(hook(&r, "sq.core_fallback_loads"), 2 * fb, "every FB_LOAD served by a partition");
    assert_eq!(hook(&r, "sq_core.answers"), sent - fb, "the core SQs answer what they served");
}

// ---------------------------------------------------------------- split (spec §2.6)

/// One warp's `c = a + b` from core 15 with a, b and c 704 B past a 1-KB boundary: lanes
/// 0-15 read words 16-31 of the line at 640 (LLC 5, 8 links away), lanes 16-31 words
/// 0-15 of the line at 768 (LLC 6, 5 links away). By hand (spec §1.8, §2.6):
/// * baseline: per load 2 requests (8 + 5 links, 1 flit) and 2 data replies (5 flits);
///   the store 2 writes of 64 B (1 + 2 flits) and 2 acks: links 2 × 13 + 2 × 13 + 13 +
///   13 = 78; weighted 26 + 130 + 39 + 13 = 208;
/// * split: 2 groups, each all in one partition: a 2-flit CP and a 1-flit ACK to and from
///   LLC 5 and LLC 6 (the EMN under Omni too: both loads in one LLC): links 8 + 8 + 5 + 5
///   = 26, weighted 16 + 8 + 10 + 5 = 39; each SQ TOUCHes and READs two lines and writes one;
/// * discard: the chain flushes at its first load: the baseline's traffic;
/// * one OQSR entry: 2 groups, 1 free entry (the chain's own): the whole chain runs
///   normally (DISCARD), the baseline's traffic.
#[test]
fn a_straddling_warp_splits_into_two_compute_packets() {
    let cfg = two_sm_paper_mesh();
    let dir = tempfile::tempdir().unwrap();
    let launch = one_warp_launch_skewed(dir.path(), [704, 704, 704]);
    let run = |hook: &str| {
        let (code, err, r) = run_on(&cfg, hook, &launch);
        assert_eq!(code, 0, "{hook}: {err}");
        let r = r.unwrap();
        assert!(passed(&r), "{hook}: {}", r["checks"]);
        r
    };
    let base = run("mode = \"profile\"");
    assert_eq!(links(&base), (78, 208), "baseline");
    for mode in ["llc", "omni"] {
        let r = run(&format!("mode = \"{mode}\""));
        assert_eq!(links(&r), (26, 39), "{mode}: split");
        assert_eq!((r["noc"]["stats"]["packets_delivered"].as_u64(), r["noc"]["stats"]["flits_delivered"].as_u64()), (Some(4), Some(6)), "{mode}: 2 CPs of 2 flits, 2 ACKs");
        let c: Vec<u64> =
            ["oq.chains", "oq.sent", "oq.cps", "oq.split", "oq.split_groups", "oq.answers", "oq.sent_core", "sq.cps", "sq.llc_touch", "sq.llc_read", "sq.llc_write", "sq.answers"]
                .iter()
                .map(|n| hook(&r, n))
                .collect();
        assert_eq!(c, [1, 1, 2, 1, 2, 1, 0, 2, 4, 4, 2, 2], "{mode}: {}", r["hooks"]);
        assert_eq!(base["warp_insts"], r["warp_insts"]);
        let d = run(&format!("mode = \"{mode}\"\ndivergence_policy = \"discard\""));
        assert_eq!(links(&d), (78, 208), "{mode}: discard");
        assert_eq!((hook(&d, "oq.flush_divergent"), hook(&d, "oq.sent")), (1, 0), "{mode}: {}", d["hooks"]);
        let full = run(&format!("mode = \"{mode}\"\noq_entries = 1"));
        assert_eq!(links(&full), (78, 208), "{mode}: too many groups");
        assert_eq!((hook(&full, "oq.discard_too_many_groups"), hook(&full, "oq.sent")), (1, 0), "{mode}: {}", full["hooks"]);
    }
    let two = run("mode = \"llc\"\noq_entries = 2");
    assert_eq!((links(&two), hook(&two, "oq.cps")), ((26, 39), 2), "two entries hold both groups");
}
