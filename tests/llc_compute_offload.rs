//! LLC-Compute offloading in the GPU model (`[hooks.llc_compute] mode = "llc"`, spec
//! §2.5, §1.6): results and instruction counts never change (§1.2), a single chain's
//! traffic is the hand count of the spec's protocol, a full SQSR falls back (§1.6.4),
//! and bad parameters are one line, exit 2, nothing written.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `configs/gpu/tiny.toml` with `[hooks.llc_compute]` = `hook`, run on `launch`; the
/// exit code, stderr and the JSON report (if written).
fn run(hook: &str, launch: &Path) -> (i32, String, Option<serde_json::Value>) {
    let tiny = std::fs::read_to_string(root().join("configs/gpu/tiny.toml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("gpu.toml");
    std::fs::write(&cfg, format!("{tiny}\n[hooks.llc_compute]\n{hook}\n")).unwrap();
    let json = dir.path().join("r.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("sim").arg(&cfg).arg(launch).arg("--json").arg(&json).output().unwrap();
    let report = std::fs::read_to_string(&json).ok().map(|t| serde_json::from_str(&t).unwrap());
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).to_string(), report)
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
        let launch = root().join(format!("workloads/{w}.toml"));
        let (c0, e0, base) = run("mode = \"profile\"", &launch);
        let (c1, e1, off) = run("mode = \"llc\"", &launch);
        assert_eq!((c0, c1), (0, 0), "{w}: {e0} {e1}");
        let (base, off) = (base.unwrap(), off.unwrap());
        assert!(passed(&base) && passed(&off), "{w}: checks {} / {}", base["checks"], off["checks"]);
        for k in ["warp_insts", "thread_insts"] {
            assert_eq!(base[k], off[k], "{w}: {k}");
        }
        let sent = hook(&off, "oq.sent");
        assert_eq!(hook(&off, "oq.answers"), sent, "{w}: every sent chain is answered");
        let chains = hook(&base, "chains");
        if w == "micro_llc/vecadd_aligned" {
            assert_eq!((sent, chains), (1792, 1792), "{w}: 57,344 threads = 1,792 warps, one chain each");
        }
        if w == "micro_llc/vecadd_strided" {
            assert_eq!((sent, hook(&off, "oq.flush_partitions")), (0, 1792), "{w}");
        }
    }
}

/// A launch of one warp: c = a + b on 32 elements, a, b and c 1-KB aligned.
fn one_warp_launch(dir: &Path) -> PathBuf {
    let ptx = root().join("workloads/vecadd/vecadd.ptx");
    let mut t = String::from("name = \"vecadd_one_warp\"\n");
    for (name, init) in
        [("a", "{ kind = \"uniform\", lo = -1.0, hi = 1.0, seed = 1 }"), ("b", "{ kind = \"uniform\", lo = -1.0, hi = 1.0, seed = 2 }"), ("c", "{ kind = \"zeros\" }")]
    {
        t += &format!("[[buffer]]\nname = \"{name}\"\ntype = \"f32\"\nlen = 32\ninit = {init}\nalign = 1024\n");
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
        ("mode = \"omni\"", "hooks.llc_compute.mode", "\"llc\""),
        ("mode = \"llc\"\nsq_entires = 4", "hooks.llc_compute", "sq_entries"),
    ] {
        let (code, err, report) = run(hook, &launch);
        assert_eq!(code, 2, "{hook}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{hook}: one line: {err}");
        assert!(err.contains("gpu.toml") && err.contains(field) && err.contains(allowed), "{hook}: {err}");
        assert!(report.is_none(), "{hook}: report written");
    }
}
