//! Spec §6.4 system check 4, "no protocol deadlock in random stress runs with all queues
//! at minimum size", on the GPU model: LLC-Compute and Omni-Compute on the 56-core mesh
//! with §1.8's request and reply classes on VCs of their own (`reply_vcs`) and every
//! queue of the offload protocol's path at its minimum, over random launches; the GPU's
//! watchdog (no warp instruction issued and no packet delivered for `WATCHDOG` cycles)
//! is the checker, and a planted lost answer is caught by it.
//!
//! Length: 32 random launches of 2,048-16,383 elements under each of four settings
//! (LLC- and Omni-Compute, one or two OQSR entries): 128 runs, 0.9 M GPU cycles in all,
//! 12 s in the test profile on the shared 2-core machine; 1,315 chains sent, 671 fall
//! back, 252 split. The spec asks for 10^7 cycles of RTL stress; the GPU model simulates
//! 56 SMs, 8 partitions and the mesh every cycle (about 75 k cycles a second here), so
//! 10^7 cycles would be over 2 minutes of CI for one test. The variety is what the runs
//! buy: each launch places its buffers at random, so chains meet in one partition,
//! several, at a core or nowhere, straddle lines (split), and fall back at a one-entry
//! SQSR.
//!
//! What it can and cannot find: the GPU mesh's ejection never refuses a packet (the
//! network hands each one to its node's arrival queue, which the node drains as its
//! input queue allows), so back-pressure from a full sink cannot reach the network's VCs
//! and a protocol deadlock through them cannot form here, with or without the reply VCs
//! (VECADD-STRIDED, VECADD-ALIGNED, kmeans and fdtd2d at these queue sizes also finish
//! with both classes sharing both VCs). The check is on the offload protocol's own
//! liveness with one-entry queues: every chain answered, every warp resumed, every
//! kernel finished with exact results.

use crate::gpu_common;

use std::cell::Cell;
use std::rc::Rc;

use golden::gpu::hooks::{self, CoreNetHook, CorePort, HookCounters, NoHook};
use golden::gpu::sim::{run_capture, Gpu, RunOptions, SimError};
use golden::gpu::txn::Txn;
use golden::gpu::GpuConfig;
use golden::gpu::Launch;
use golden::network::Packet;
use gpu_common::{config_path, launch_text};

/// Cycles without progress before the run counts as deadlocked.
const WATCHDOG: u64 = 50_000;

/// `llc_compute_56` with every queue on the offload protocol's path at its minimum: 2
/// VCs of 2 flits per port (one request VC, one reply VC: `reply_vcs = 1`), one LLC
/// input-queue slot, one LLC MSHR with one merge, one DRAM queue slot; the hook's SQSR
/// and SQ buffer of one entry each, `oq` OQSR entries (`mode`: `llc` or `omni`). The SMs keep the
/// paper's 32 L1 MSHRs and 8-deep miss queue so that the network fills (with one L1 MSHR
/// per SM the 56 SMs cannot fill 64 routers' buffers).
fn minimum_queues(mode: &str, oq: u32) -> GpuConfig {
    let path = config_path("llc_compute_56");
    let mut t = std::fs::read_to_string(&path).unwrap();
    for (from, to) in [
        ("vcs = 8 ", "vcs = 2 "),
        ("buf_depth = 8 ", "buf_depth = 2 "),
        ("reply_vcs = 3 ", "reply_vcs = 1 "),
        ("mshrs = 32               # [OC] §3\nmshr_merge = 8           # our choice\ninput_queue = 16", "mshrs = 1\nmshr_merge = 1\ninput_queue = 1"),
        ("queue = 32 ", "queue = 1 "),
    ] {
        assert_eq!(t.matches(from).count(), 1, "llc_compute_56 has one `{from}`");
        t = t.replace(from, to);
    }
    t += &format!("\n[hooks.llc_compute]\nmode = \"{mode}\"\noq_entries = {oq}\nsq_entries = 1\nsq_buffer = 1\n");
    GpuConfig::parse(&path, &t).unwrap_or_else(|e| panic!("{e}"))
}

/// A random launch: `c = a + b` (pattern 1) or `dst = src` (pattern 3) on `len`
/// elements whose buffers start `skew` bytes past a 1-KB boundary.
fn random_launch(i: usize, copy: bool, len: u32, skew: [u32; 3]) -> Launch {
    let uniform = |s: u32| format!("{{ kind = \"uniform\", lo = -1.0, hi = 1.0, seed = {s} }}");
    let zeros = "{ kind = \"zeros\" }".to_string();
    let (ptx, bufs, args, reference, out, params) = if copy {
        let src = "{ kind = \"randint\", lo = 0, hi = 4294967295, seed = 3 }".to_string();
        ("../copy/copy.ptx", vec![("src", "u32", src), ("dst", "u32", zeros)], format!("[\"src\", \"dst\", {len}, 1]"), "copy", "dst", format!("{{ n = {len}, stride = 1 }}"))
    } else {
        (
            "../vecadd/vecadd.ptx",
            vec![("a", "f32", uniform(1)), ("b", "f32", uniform(2)), ("c", "f32", zeros)],
            format!("[\"a\", \"b\", \"c\", {len}]"),
            "vecadd",
            "c",
            format!("{{ n = {len} }}"),
        )
    };
    let mut t = format!("name = \"stress_{i}\"\n");
    for ((name, ty, init), skew) in bufs.into_iter().zip(skew) {
        t += &format!("[[buffer]]\nname = \"{name}\"\ntype = \"{ty}\"\nlen = {len}\ninit = {init}\nalign = 1024\nskew = {skew}\n");
    }
    t += &format!("[[kernel]]\nptx = \"{ptx}\"\ngrid = {}\nblock = 256\nargs = {args}\n", len.div_ceil(256));
    t += &format!("[check]\nreference = \"{reference}\"\noutputs = [\"{out}\"]\nparams = {params}\n");
    launch_text(&format!("micro_llc/stress_{i}.toml"), &t)
}

/// The random launches, from a fixed seed (a 64-bit LCG): kind, length, and per buffer a
/// random partition (128 B × 0..8 past a 1-KB boundary) plus one offset in the line for
/// all of them, 0 (a warp's operands each on one line) or, half the time, 4 B × 1..31 (a
/// warp's operands straddle two lines: split into two groups, spec §2.6).
fn stress_launches(n: usize) -> Vec<Launch> {
    let mut x: u64 = 0x5eed_0011;
    let mut next = |m: u64| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    (0..n)
        .map(|i| {
            let copy = next(2) == 1;
            let len = 2048 + next(14336) as u32;
            let offset = if next(2) == 0 { 0 } else { 4 * next(32) };
            let skew = [0; 3].map(|_| (offset + 128 * next(8)) as u32);
            random_launch(i, copy, len, skew)
        })
        .collect()
}

fn opts() -> RunOptions<'static> {
    RunOptions { watchdog: WATCHDOG, max_cycles: Some(5_000_000), ..RunOptions::default() }
}

#[test]
fn no_protocol_deadlock_with_minimum_queues() {
    let launches = stress_launches(32);
    let (mut cycles, mut sent, mut fallbacks, mut split) = (0, 0, 0, 0);
    // one OQSR entry, and two: the least that lets a straddling chain split (spec 2.6)
    for (mode, oq) in [("llc", 1), ("omni", 1), ("llc", 2), ("omni", 2)] {
        let cfg = minimum_queues(mode, oq);
        for l in &launches {
            let (r, _) = run_capture(Gpu::new(&cfg).unwrap(), l, opts()).unwrap_or_else(|e| panic!("{} under {mode}, OQSR {oq}: {e}", l.name));
            assert!(r.checks_passed(), "{} under {mode}: {r}", l.name);
            let h = |k: &str| r.hooks.get(&format!("llc_compute.oq.{k}")).copied().unwrap_or(0);
            assert_eq!(h("answers"), h("sent"), "{} under {mode}: every sent chain answered", l.name);
            cycles += r.cycles;
            (sent, fallbacks, split) = (sent + h("sent"), fallbacks + h("fallbacks"), split + h("split"));
        }
    }
    eprintln!("{cycles} cycles; {sent} chains sent, {fallbacks} fell back, {split} split");
    // the launches reach the protocol's corners: offloads, fallbacks (one SQSR entry), splits
    assert!(sent > 1000 && fallbacks > 500 && split > 100, "sent {sent}, fallbacks {fallbacks}, split {split}");
}

/// Loses the first packet for the offload hook at its SM (an OQ answer under LLC-Compute).
struct LoseOne {
    inner: Box<dyn CoreNetHook>,
    lost: Rc<Cell<bool>>,
}

impl CoreNetHook for LoseOne {
    fn depart(&mut self, now: u64, pkt: Packet, txn: &Txn) -> Option<Packet> {
        self.inner.depart(now, pkt, txn)
    }

    fn arrive(&mut self, now: u64, pkt: Packet) {
        if self.lost.replace(true) {
            self.inner.arrive(now, pkt);
        }
    }

    fn cycle(&mut self, now: u64, port: &mut dyn CorePort) -> u64 {
        self.inner.cycle(now, port)
    }

    fn counters(&self, out: &mut HookCounters) {
        self.inner.counters(out);
    }
}

/// A planted protocol bug, one answer lost: its warp waits forever and the watchdog
/// reports the deadlock.
#[test]
fn a_lost_answer_is_caught_as_a_deadlock() {
    let cfg = minimum_queues("llc", 1);
    let mut set = hooks::build(&cfg).unwrap();
    let lost = Rc::new(Cell::new(false));
    for s in &mut set.core_net {
        let inner = std::mem::replace(&mut s.hook, Box::new(NoHook));
        s.hook = Box::new(LoseOne { inner, lost: lost.clone() });
    }
    // a, b, c aligned: every chain offloads to its LLC and is answered
    let l = random_launch(0, false, 4096, [0; 3]);
    match run_capture(Gpu::with_hooks(&cfg, set).unwrap(), &l, opts()) {
        Err(SimError::Deadlock { idle, .. }) => assert!(lost.get() && idle > WATCHDOG),
        other => panic!("a lost answer (lost: {}) was not caught: {:?}", lost.get(), other.map(|r| r.0.cycles)),
    }
}
