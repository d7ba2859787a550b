//! The GPU model's hook points (golden::gpu::hooks): each hook is called where its
//! doc says and can act, results stay correct when it acts, and `[hooks]` in the config
//! selects blocks through the one registry. The hooks here are toys written for the
//! test; the real blocks (SQ/OQ, BDIB, Q-cache monitor) come with their own folders.

use crate::gpu_common;

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use golden::gpu::hooks::*;
use golden::gpu::ptx::{Inst, Op, Space};
use golden::gpu::sim::{run_capture, Gpu};
use golden::gpu::txn::{Txn, TxnKind};
use golden::gpu::{run, GpuConfig, GpuReport, Launch, RunOptions};
use golden::network::{Class, Packet};
use gpu_common::*;

fn run_with(cfg: &GpuConfig, l: &Launch, hooks: HookSet) -> GpuReport {
    let (r, _) = run_capture(Gpu::with_hooks(cfg, hooks).unwrap(), l, RunOptions::default()).unwrap();
    assert!(r.checks_passed(), "{r}");
    r
}

// ---------------------------------------------------------------- L2: observe

#[derive(Default)]
struct L2Seen {
    reads: u64,
    writes: u64,
    atomics: u64,
    /// Lines that became dirty (qcache.md §1.2 PRODUCE), at accesses or fills.
    produced: u64,
    fills: u64,
    writebacks: u64,
    begins: u64,
    ends: u64,
    max_sm: u32,
}

struct L2Counter(Rc<RefCell<L2Seen>>);

impl L2Hook for L2Counter {
    fn access(&mut self, _now: u64, a: &L2Access) {
        let mut s = self.0.borrow_mut();
        match a.kind {
            TxnKind::Read | TxnKind::ReadBypass => s.reads += 1,
            TxnKind::Write => s.writes += 1,
            TxnKind::Atomic => s.atomics += 1,
        }
        if !a.dirty_before && a.dirty_after {
            s.produced += 1;
        }
        match a.requester {
            Requester::Sm(i) => s.max_sm = s.max_sm.max(i),
            Requester::Partition => panic!("no partition hook in this test"),
        }
    }

    fn fill(&mut self, _now: u64, _part: usize, _line: u64, before: bool, after: bool) {
        let mut s = self.0.borrow_mut();
        s.fills += 1;
        if !before && after {
            s.produced += 1;
        }
    }

    fn writeback(&mut self, _now: u64, _part: usize, _line: u64) {
        self.0.borrow_mut().writebacks += 1;
    }

    fn kernel_begin(&mut self, _now: u64) {
        self.0.borrow_mut().begins += 1;
    }

    fn kernel_end(&mut self, _now: u64) {
        self.0.borrow_mut().ends += 1;
    }

    fn counters(&self, out: &mut HookCounters) {
        count(out, "l2_counter.accesses", {
            let s = self.0.borrow();
            s.reads + s.writes + s.atomics
        });
    }
}

#[test]
fn the_l2_hook_sees_every_llc_access_fill_and_writeback_without_changing_the_run() {
    // a small LLC so that dirty lines are written back
    let cfg = config_with("tiny", &[("llc", "size_bytes", "8192")]);
    for w in ["vecadd/vecadd.toml", "kmeans/kmeans.toml", "bfs/bfs.toml"] {
        let l = launch(w);
        let plain = run(&cfg, &l, RunOptions::default()).unwrap();
        assert!(!plain.to_json().contains("\"hooks\""), "no hooks, no hooks section");
        let seen = Rc::new(RefCell::new(L2Seen::default()));
        let mut hooks = HookSet::none(&cfg);
        hooks.set_l2("l2_counter", Box::new(L2Counter(seen.clone()))).unwrap();
        let r = run_with(&cfg, &l, hooks);
        let s = seen.borrow();
        assert_eq!(r.cycles, plain.cycles, "{w}: observing changes no timing");
        assert_eq!((r.llc.clone(), r.dram.clone(), r.issue.clone()), (plain.llc.clone(), plain.dram.clone(), plain.issue.clone()), "{w}");
        assert_eq!(s.reads, r.llc.reads, "{w}");
        assert_eq!(s.atomics, r.llc.atomics, "{w}");
        assert_eq!(s.writes, r.llc.writes, "{w}");
        assert_eq!(s.fills, r.llc.fills, "{w}");
        assert_eq!(s.writebacks, r.llc.writebacks, "{w}");
        assert!(s.writebacks > 0 && s.produced >= s.writebacks, "{w}: every written-back line was produced first ({} produced, {} written back)", s.produced, s.writebacks);
        assert_eq!((s.begins, s.ends), (r.kernels.len() as u64, r.kernels.len() as u64), "{w}");
        assert!(s.max_sm < cfg.sms);
        assert_eq!(r.hooks.get("l2_counter.accesses"), Some(&(s.reads + s.writes + s.atomics)));
        assert!(r.to_json().contains("\"l2_counter.accesses\"") && r.to_string().contains("hook l2_counter.accesses"));
    }
}

// ---------------------------------------------------------------- L2: throttle

/// Slows SM 0's clock to 1/4 and drains SM 1, from the end of cycle 0.
struct Throttler;

impl L2Hook for Throttler {
    fn cycle(&mut self, _now: u64, ctl: &mut dyn CoreControl) -> u64 {
        ctl.set_throttle(0, SmThrottle { dispatch: true, clock_num: 1, clock_den: 4 });
        ctl.set_throttle(1, SmThrottle { dispatch: false, ..SmThrottle::FULL });
        u64::MAX
    }
}

#[test]
fn an_l2_hook_throttles_sms_the_run_slows_and_results_stay_correct() {
    let cfg = config("tiny");
    for w in ["vecadd/vecadd.toml", "reduce/reduce.toml"] {
        let l = launch(w);
        let plain = run(&cfg, &l, RunOptions::default()).unwrap();
        let mut hooks = HookSet::none(&cfg);
        hooks.set_l2("throttler", Box::new(Throttler)).unwrap();
        let (r, bufs) = run_capture(Gpu::with_hooks(&cfg, hooks).unwrap(), &l, RunOptions::default()).unwrap();
        let (_, plain_bufs) = run_capture(Gpu::new(&cfg).unwrap(), &l, RunOptions::default()).unwrap();
        assert!(r.checks_passed(), "{w}: {r}");
        assert_eq!(bufs, plain_bufs, "{w}: same results");
        assert!(r.cycles > 2 * plain.cycles, "{w}: {} cycles throttled vs {}", r.cycles, plain.cycles);
        // SM 1 got at most the CTA dispatched in cycle 0, before the hook ran
        assert!(r.per_sm[1].ctas <= 1 && r.per_sm[0].ctas + r.per_sm[1].ctas == plain.per_sm.iter().map(|s| s.ctas).sum::<u64>(), "{w}: {:?}", r.per_sm);
        // SM 0 ran one cycle in four while busy
        assert!(r.per_sm[0].active_cycles * 3 < r.cycles, "{w}: {} active of {}", r.per_sm[0].active_cycles, r.cycles);
    }
}

// ---------------------------------------------------------------- issue: barriers

#[derive(Default)]
struct BarSeen {
    arrivals: u64,
    releases: u64,
    late_resume: bool,
}

struct BarrierCounter(Rc<RefCell<BarSeen>>);

impl IssueHook for BarrierCounter {
    fn barrier_arrive(&mut self, _now: u64, _warp: u16, _cta: u16) {
        self.0.borrow_mut().arrivals += 1;
    }

    fn barrier_release(&mut self, now: u64, _warp: u16, resume_at: u64) {
        let mut s = self.0.borrow_mut();
        s.releases += 1;
        s.late_resume |= resume_at < now;
    }
}

#[test]
fn the_issue_hook_sees_every_barrier_arrival_and_release() {
    let cfg = config("tiny");
    for w in ["reduce/reduce.toml", "transpose/transpose.toml", "prodcons/prodcons.toml"] {
        let l = launch(w);
        let plain = run(&cfg, &l, RunOptions::default()).unwrap();
        let seen = Rc::new(RefCell::new(BarSeen::default()));
        let mut hooks = HookSet::none(&cfg);
        let s2 = seen.clone();
        hooks.set_issue("barrier_counter", move |_| Box::new(BarrierCounter(s2.clone()))).unwrap();
        let r = run_with(&cfg, &l, hooks);
        let s = seen.borrow();
        assert_eq!(r.cycles, plain.cycles, "{w}");
        assert!(s.arrivals > 0, "{w}");
        assert_eq!(s.arrivals, r.sync.barrier_warps, "{w}");
        assert_eq!(s.releases, s.arrivals, "{w}: every arrival is released");
        assert!(!s.late_resume, "{w}");
    }
    let s = Rc::new(RefCell::new(BarSeen::default()));
    let mut hooks = HookSet::none(&cfg);
    let s2 = s.clone();
    hooks.set_issue("barrier_counter", move |_| Box::new(BarrierCounter(s2.clone()))).unwrap();
    let r = run_with(&cfg, &launch("reduce/reduce.toml"), hooks);
    assert_eq!(r.sync.barriers_completed, 196 * 9);
    assert_eq!(s.borrow().arrivals, r.sync.barrier_warps);
}

// ---------------------------------------------------------------- issue: every instruction, order

/// Asked about every instruction; reverses each scheduler's order (youngest first) and
/// holds back warp slot 0 every other cycle.
#[derive(Default)]
struct Picky {
    decided: u64,
    ordered: u64,
    held: u64,
}

impl IssueHook for Picky {
    fn taps(&self) -> IssueTaps {
        IssueTaps { every_inst: true, order: true, ..Default::default() }
    }

    fn decide(&mut self, now: u64, w: &WarpView, _inst: &Inst) -> IssueDecision {
        self.decided += 1;
        if w.at_barrier {
            IssueDecision::Block
        } else if w.slot == 0 && now % 2 == 1 {
            self.held += 1;
            IssueDecision::Block
        } else {
            IssueDecision::Issue
        }
    }

    fn order(&mut self, _now: u64, _sched: usize, order: &mut Vec<u16>) {
        self.ordered += 1;
        order.reverse();
    }

    fn counters(&self, out: &mut HookCounters) {
        count(out, "picky.decided", self.decided);
        count(out, "picky.ordered", self.ordered);
        count(out, "picky.held", self.held);
    }
}

#[test]
fn an_issue_hook_can_see_every_instruction_and_reorder_the_schedulers() {
    let cfg = config("tiny");
    for w in ["reduce/reduce.toml", "matvec/matvec.toml"] {
        let l = launch(w);
        let plain = run(&cfg, &l, RunOptions::default()).unwrap();
        let mut hooks = HookSet::none(&cfg);
        hooks.set_issue("picky", |_| Box::<Picky>::default()).unwrap();
        let r = run_with(&cfg, &l, hooks);
        let h = &r.hooks;
        assert_eq!(r.warp_insts, plain.warp_insts, "{w}");
        assert!(h["picky.decided"] >= r.warp_insts, "{w}: every issued instruction was decided: {h:?}");
        assert!(h["picky.ordered"] > 0 && h["picky.held"] > 0, "{w}: {h:?}");
        assert_ne!(r.cycles, plain.cycles, "{w}: a different order and held warps change timing");
        assert_eq!(
            r.issue.issue_slots,
            r.warp_insts + {
                let s = &r.issue.stalls;
                s.mem_data + s.alu_data + s.fu_busy + s.lsu_busy + s.barrier + s.fence + s.fetch + s.other
            },
            "{w}: every slot accounted for"
        );
    }
}

// ---------------------------------------------------------------- issue: fetch first

/// Names one warp for the fetch stage to serve first: the highest slot that has issued,
/// a different choice from the round-robin fetch order.
#[derive(Default)]
struct FetchLast {
    asked: u64,
    top: Option<u16>,
}

impl IssueHook for FetchLast {
    fn taps(&self) -> IssueTaps {
        IssueTaps { every_inst: true, fetch_first: true, ..Default::default() }
    }

    fn decide(&mut self, _now: u64, w: &WarpView, _inst: &Inst) -> IssueDecision {
        if w.at_barrier {
            return IssueDecision::Block;
        }
        self.top = self.top.max(Some(w.slot));
        IssueDecision::Issue
    }

    fn fetch_first(&mut self, _now: u64) -> Option<u16> {
        self.asked += 1;
        self.top
    }

    fn counters(&self, out: &mut HookCounters) {
        count(out, "fetch_last.asked", self.asked);
    }
}

/// A hook that names a warp for the fetch stage (llc_omni_compute.md §1.2's fetch
/// priority) is asked every cycle and changes the timing, not the work.
#[test]
fn an_issue_hook_can_put_a_warp_first_in_fetch() {
    let cfg = config("tiny");
    let l = launch("matvec/matvec.toml");
    let plain = run(&cfg, &l, RunOptions::default()).unwrap();
    let mut hooks = HookSet::none(&cfg);
    hooks.set_issue("fetch_last", |_| Box::<FetchLast>::default()).unwrap();
    let r = run_with(&cfg, &l, hooks);
    assert_eq!(r.warp_insts, plain.warp_insts);
    assert!(r.hooks["fetch_last.asked"] > 0, "{:?}", r.hooks);
    assert_ne!(r.cycles, plain.cycles, "the fetch order changed timing");
}

// ---------------------------------------------------------------- issue: a toy F-TFB

/// A toy barrier-displaced instruction buffer (tfb_bdib.md §1.7, F-TFB without
/// barrier markers): past a barrier, register-only and private/read-only work issues,
/// global and shared memory instructions go into a per-warp FIFO of `depth`, barriers,
/// fences and exits wait; the FIFO drains (one per cycle, round robin) once the warp's
/// barrier has completed; WAR hazards on buffered sources block (§2.10).
struct ToyBdib {
    depth: usize,
    /// Per warp: buffered instructions with the registers they read.
    q: BTreeMap<u16, VecDeque<(Deferred, Vec<u16>)>>,
    /// Per warp: the cycle its barrier completes (u64::MAX while waiting).
    in_bar_until: BTreeMap<u16, u64>,
    pending_uses: Option<Vec<u16>>,
    rr: u16,
    deferred: u64,
    drained: u64,
    issued_past: u64,
}

impl ToyBdib {
    fn new(depth: usize) -> ToyBdib {
        ToyBdib { depth, q: BTreeMap::new(), in_bar_until: BTreeMap::new(), pending_uses: None, rr: 0, deferred: 0, drained: 0, issued_past: 0 }
    }
}

fn shared_class(inst: &Inst) -> bool {
    match inst.op {
        Op::Ld { space, .. } | Op::St { space, .. } | Op::Atom { space, .. } | Op::Red { space, .. } => {
            matches!(space, Space::Global | Space::Shared | Space::Generic)
        }
        _ => false,
    }
}

impl IssueHook for ToyBdib {
    fn taps(&self) -> IssueTaps {
        IssueTaps { past_barrier: true, ..Default::default() }
    }

    fn decide(&mut self, _now: u64, w: &WarpView, inst: &Inst) -> IssueDecision {
        let q = self.q.get(&w.slot).map_or(0, VecDeque::len);
        assert_eq!(q as u32, w.deferred, "the SM and the hook agree on the buffer");
        let defs = &inst.sb_def[..inst.n_def as usize];
        let war = self.q.get(&w.slot).is_some_and(|q| q.iter().any(|(_, uses)| defs.iter().any(|d| uses.contains(d))));
        if war || matches!(inst.op, Op::Bar | Op::Membar(_) | Op::Exit | Op::Ret) {
            return IssueDecision::Block;
        }
        if shared_class(inst) {
            if q == self.depth {
                return IssueDecision::Block;
            }
            self.pending_uses = Some(inst.sb_use[..inst.n_use as usize].to_vec());
            return IssueDecision::Defer;
        }
        if w.at_barrier {
            self.issued_past += 1;
        }
        IssueDecision::Issue
    }

    fn defer(&mut self, _now: u64, d: Deferred) {
        let uses = self.pending_uses.take().expect("decide said Defer");
        self.q.entry(d.warp).or_default().push_back((d, uses));
        self.deferred += 1;
    }

    fn drain(&mut self, now: u64, lsu_free: bool) -> Option<Deferred> {
        if !lsu_free {
            return None;
        }
        let ready = |w: &u16, q: &VecDeque<(Deferred, Vec<u16>)>| !q.is_empty() && self.in_bar_until.get(w).is_none_or(|&t| now >= t);
        let w =
            *self.q.iter().filter(|(w, q)| ready(w, q)).map(|(w, _)| w).find(|&&w| w >= self.rr).or_else(|| self.q.iter().filter(|(w, q)| ready(w, q)).map(|(w, _)| w).next())?;
        self.rr = w + 1;
        self.drained += 1;
        self.q.get_mut(&w).and_then(VecDeque::pop_front).map(|(d, _)| d)
    }

    fn barrier_arrive(&mut self, _now: u64, warp: u16, _cta: u16) {
        self.in_bar_until.insert(warp, u64::MAX);
    }

    fn barrier_release(&mut self, _now: u64, warp: u16, resume_at: u64) {
        self.in_bar_until.insert(warp, resume_at);
    }

    fn counters(&self, out: &mut HookCounters) {
        count(out, "toy_bdib.deferred", self.deferred);
        count(out, "toy_bdib.drained", self.drained);
        count(out, "toy_bdib.issued_past_barrier", self.issued_past);
    }
}

#[test]
fn an_issue_hook_defers_memory_past_barriers_and_results_stay_correct() {
    for (cfg, depth) in [(config("tiny"), 2), (config("macro_16"), 1), (config("tfb_maxwell_16"), 5)] {
        for w in ["reduce/reduce.toml", "transpose/transpose.toml", "prodcons/prodcons.toml", "vecadd/vecadd.toml"] {
            let l = launch(w);
            let (plain, plain_bufs) = run_capture(Gpu::new(&cfg).unwrap(), &l, RunOptions::default()).unwrap();
            let mut hooks = HookSet::none(&cfg);
            hooks.set_issue("toy_bdib", |_| Box::new(ToyBdib::new(depth))).unwrap();
            let (r, bufs) = run_capture(Gpu::with_hooks(&cfg, hooks).unwrap(), &l, RunOptions::default()).unwrap();
            assert!(r.checks_passed(), "{w} on {}: {r}", cfg.name);
            assert_eq!(bufs, plain_bufs, "{w} on {}", cfg.name);
            if w != "prodcons/prodcons.toml" {
                // (prodcons's consumers spin on a flag: their instruction count is timing)
                assert_eq!(r.warp_insts, plain.warp_insts, "{w}: same instructions");
                assert_eq!(r.thread_insts, plain.thread_insts, "{w}: same lanes");
            }
            let h = &r.hooks;
            assert_eq!(h["toy_bdib.deferred"], h["toy_bdib.drained"], "{w}: everything deferred drains");
            if w == "vecadd/vecadd.toml" {
                assert_eq!(r.cycles, plain.cycles, "no barrier, nothing changes");
                assert_eq!(h["toy_bdib.deferred"], 0);
            } else {
                assert!(h["toy_bdib.deferred"] > 0 && h["toy_bdib.issued_past_barrier"] > 0, "{w} on {}: {h:?}", cfg.name);
                assert_ne!(r.cycles, plain.cycles, "{w} on {}: the buffer changes timing", cfg.name);
            }
        }
    }
}

// ---------------------------------------------------------------- SM <-> network <-> partition

#[derive(Default)]
struct NetSeen {
    held: u64,
    forwarded: u64,
    acked_locally: u64,
    pings: u64,
    pongs: u64,
    touches: u64,
    touches_done: u64,
    partition_accesses: u64,
}

/// Between SM and network: holds every request 20 cycles, then forwards reads and
/// atomics and answers writes itself (the LLC never sees them; memory contents are
/// functional, so results stay right); each forwarded request also sends a ping to the
/// partition hook of its memory node.
struct Holder {
    seen: Rc<RefCell<NetSeen>>,
    held: VecDeque<(u64, Packet, TxnKind)>,
}

impl CoreNetHook for Holder {
    fn depart(&mut self, now: u64, pkt: Packet, txn: &Txn) -> Option<Packet> {
        self.seen.borrow_mut().held += 1;
        self.held.push_back((now + 20, pkt, txn.kind));
        None
    }

    fn arrive(&mut self, _now: u64, pkt: Packet) {
        assert_eq!(pkt.tag, 7, "pong");
        self.seen.borrow_mut().pongs += 1;
    }

    fn cycle(&mut self, now: u64, port: &mut dyn CorePort) -> u64 {
        while self.held.front().is_some_and(|h| h.0 <= now) && port.can_send(Class::Request) {
            let (_, pkt, kind) = self.held.pop_front().expect("front exists");
            let mut s = self.seen.borrow_mut();
            if kind == TxnKind::Write {
                s.acked_locally += 1;
                port.deliver(Packet { src: pkt.dst, dst: pkt.src, class: Class::Reply, flits: 1, ..pkt });
            } else {
                s.forwarded += 1;
                s.pings += 1;
                let dst = pkt.dst;
                port.forward(pkt);
                port.send(dst, Class::Request, 1, 5);
            }
        }
        self.held.front().map_or(u64::MAX, |&(t, _, _)| t.max(now + 1))
    }
}

/// At the memory partition: each ping touches a line of the LLC through the tag port,
/// and when the touch is done, a pong goes back.
struct Pinged {
    seen: Rc<RefCell<NetSeen>>,
    todo: VecDeque<usize>,
    waiting: BTreeMap<u32, usize>,
    replies: VecDeque<usize>,
    next_tag: u32,
}

impl PartitionHook for Pinged {
    fn arrive(&mut self, _now: u64, pkt: Packet) {
        assert_eq!(pkt.tag, 5, "ping");
        self.todo.push_back(pkt.src);
    }

    fn llc_done(&mut self, _now: u64, tag: u32) {
        let src = self.waiting.remove(&tag).expect("a touch of ours");
        self.seen.borrow_mut().touches_done += 1;
        self.replies.push_back(src);
    }

    fn cycle(&mut self, _now: u64, port: &mut dyn PartitionPort) -> u64 {
        if let Some(&src) = self.todo.front() {
            // round robin with the input queue: only take the tag port when it is idle
            if !port.queue_waiting() && port.llc(TxnKind::Read, 0x4000_0000 + (self.next_tag as u64 % 64) * 128, 0, self.next_tag) {
                self.todo.pop_front();
                self.waiting.insert(self.next_tag, src);
                self.next_tag += 1;
                self.seen.borrow_mut().touches += 1;
            }
        }
        if let Some(&src) = self.replies.front() {
            if port.can_send(Class::Reply) {
                self.replies.pop_front();
                port.send(src, Class::Reply, 1, 7);
            }
        }
        if self.todo.is_empty() && self.replies.is_empty() {
            u64::MAX
        } else {
            0
        }
    }
}

struct PartitionAccesses(Rc<RefCell<NetSeen>>);

impl L2Hook for PartitionAccesses {
    fn access(&mut self, _now: u64, a: &L2Access) {
        if a.requester == Requester::Partition {
            self.0.borrow_mut().partition_accesses += 1;
        }
    }
}

#[test]
fn network_and_partition_hooks_intercept_produce_and_consume_packets() {
    for (name, kind) in [("tiny", "\"ideal\""), ("macro_16", "\"mesh\"")] {
        let cfg = config_with(name, &[("network", "kind", kind)]);
        for w in ["vecadd/vecadd.toml", "prodcons/prodcons.toml"] {
            let l = launch(w);
            let (plain, plain_bufs) = run_capture(Gpu::new(&cfg).unwrap(), &l, RunOptions::default()).unwrap();
            let seen = Rc::new(RefCell::new(NetSeen::default()));
            let mut hooks = HookSet::none(&cfg);
            let s = seen.clone();
            hooks.set_core_net("holder", move |_| Box::new(Holder { seen: s.clone(), held: VecDeque::new() })).unwrap();
            let s = seen.clone();
            hooks
                .set_partition("holder", move |_| Box::new(Pinged { seen: s.clone(), todo: VecDeque::new(), waiting: BTreeMap::new(), replies: VecDeque::new(), next_tag: 0 }))
                .unwrap();
            hooks.set_l2("holder", Box::new(PartitionAccesses(seen.clone()))).unwrap();
            let (r, bufs) = run_capture(Gpu::with_hooks(&cfg, hooks).unwrap(), &l, RunOptions::default()).unwrap();
            let s = seen.borrow();
            assert!(r.checks_passed(), "{w} on {name}: {r}");
            assert_eq!(bufs, plain_bufs, "{w} on {name}");
            eprintln!("{w} on {name}: {} cycles, {} without the hooks", r.cycles, plain.cycles);
            assert_ne!(r.cycles, plain.cycles, "{w} on {name}: requests held 20 cycles, writes answered at the SM");
            assert_eq!(s.held, s.forwarded + s.acked_locally, "{w}: every held request left");
            assert!(s.acked_locally > 0 && s.forwarded > 0, "{w}");
            assert_eq!(r.llc.writes, 0, "{w}: writes were answered at the SM");
            // pings, touches and pongs still under way when the last CTA retires are not counted
            assert!(s.touches_done > 0 && s.touches_done <= s.touches && s.touches <= s.pings, "{w}: {} pings, {} touches, {} done", s.pings, s.touches, s.touches_done);
            assert_eq!(s.partition_accesses, s.touches, "{w}: the L2 hook sees the partition's accesses");
            assert!(s.pongs > 0 && s.pongs <= s.pings, "{w}: {} pongs for {} pings", s.pongs, s.pings);
        }
    }
}

// ---------------------------------------------------------------- config

#[test]
fn hooks_are_selected_by_the_config() {
    let path = config_path("tiny");
    let p = path.display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let e = |t: String| GpuConfig::parse(&path, &t).unwrap_err().to_string();
    // the allowed names are the registered hook blocks (each block adds one)
    let names: Vec<&str> = BLOCKS.iter().map(|b| b.name).collect();
    assert!(names.contains(&"throttle"), "{names:?}");
    assert_eq!(e(text.clone() + "\n[hooks.nosuch]\ndepth = 2\n"), format!("{p}: hooks.nosuch: unknown hook `nosuch` (allowed: {})", names.join(", ")));
    assert_eq!(e(text.clone() + "\n[hooks.throttle]\nclock = [3, 2]\n"), format!("{p}: hooks.throttle.clock[0]: 3 is out of range (allowed: 1..=2)"));
    assert_eq!(e(text.clone() + "\n[hooks.throttle]\nsms = [0, 2]\n"), format!("{p}: hooks.throttle.sms[1]: 2 is out of range (allowed: 0..=1)"));
    assert!(e(text.clone() + "\n[hooks.throttle]\nspeed = 2\n").starts_with(&format!("{p}: hooks.throttle: unknown field `speed`, expected one of `sms`, `clock`, `dispatch`")));
    assert_eq!(
        e(text.clone() + "\n[hooks.throttle]\ndispatch = false\n"),
        format!("{p}: hooks.throttle.dispatch: false on every SM leaves no SM for new CTAs (allowed: true, or a subset of the SMs in hooks.throttle.sms)")
    );
    // two blocks on one hook point
    let cfg = config("tiny");
    let mut set = HookSet::none(&cfg);
    set.set_l2("a", Box::new(NoHook)).unwrap();
    assert_eq!(set.set_l2("b", Box::new(NoHook)).unwrap_err().to_string(), "hooks.b: attaches at the L2, which hooks.a already uses (allowed: one block per hook point)");
    // the built-in static throttle: SM 0 at half clock
    let slow = GpuConfig::parse(&path, &(text.clone() + "\n[hooks.throttle]\nsms = [0]\nclock = [1, 2]\n")).unwrap();
    assert_eq!(slow.hooks["throttle"]["clock"].as_array().unwrap().len(), 2);
    let l = launch("vecadd/vecadd.toml");
    let fast = run(&cfg, &l, RunOptions::default()).unwrap();
    let r = run(&slow, &l, RunOptions::default()).unwrap();
    assert!(r.checks_passed());
    assert!(r.cycles > fast.cycles, "{} vs {}", r.cycles, fast.cycles);
    // no [hooks]: no hooks, and the same run as before
    assert!(cfg.hooks.is_empty());
}
