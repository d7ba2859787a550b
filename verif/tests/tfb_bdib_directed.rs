//! Directed co-simulation of `tfb_bdib` (spec §5.5, §2.11): each scenario steps the
//! RTL and the golden model in lockstep (any disagreement fails the step, the
//! scoreboard watches the golden side) and checks the RTL's ports against values
//! worked out by hand from the spec.

use crate::common;

use golden::tfb_bdib::bdib::Entry;
use golden::tfb_bdib::{Cls, TfbBdib, TfbConfig};
use hdl_gen::design::Design;
use verif::lockstep::StepError;
use verif::tfb_bdib::BdibDriver;

/// `tfb_small` (4 warps, D = 2, 4-bit registers, 2 sources, 16-bit payload) in
/// variant `mode`.
fn small(mode: &str) -> (TfbConfig, Design) {
    let text = golden::presets::text("tfb_small").replace("mode = \"f\"", &format!("mode = \"{mode}\""));
    let (cfg, g) = common::from_text::<TfbBdib>(&text);
    (cfg.config, common::design(&g, "bdib").clone())
}

/// An instruction of class `cls` reading `srcs`, tagged `tag` in its payload (no
/// destination: bit REG_W = 4 of the payload stays 0).
fn ins(cls: Cls, srcs: &[u8], tag: u128) -> Entry {
    let mut e = Entry { cls: cls.code(), payload: tag << 5, ..Default::default() };
    for (j, &r) in srcs.iter().enumerate() {
        e.src[j] = r;
        e.src_v |= 1 << j;
    }
    e
}

struct T<'r> {
    d: BdibDriver<'r>,
}

impl T<'_> {
    fn issue(&mut self, w: u32, e: Entry) {
        self.d.set(|i| {
            i.iss_valid = true;
            i.iss_warp = w;
            i.iss = e;
        });
    }

    /// Clear the one-cycle inputs (issue, progress pulses, flush); mem_ready stays.
    fn quiet(&mut self) {
        self.d.set(|i| {
            i.iss_valid = false;
            i.eaf_done.iter_mut().for_each(|x| *x = false);
            i.fence_done.iter_mut().for_each(|x| *x = false);
            i.flush_valid = false;
            i.warq_v.iter_mut().for_each(|x| *x = false);
        });
    }

    /// One cycle with the inputs set so far, then the one-cycle inputs cleared.
    fn step(&mut self) {
        self.d.step();
        self.quiet();
    }

    fn eaf(&mut self, ws: &[usize]) {
        self.d.set(|i| ws.iter().for_each(|&w| i.eaf_done[w] = true));
    }

    fn o(&self, port: &str) -> u64 {
        self.d.out(port, 0)
    }

    fn ow(&self, port: &str, w: usize) -> u64 {
        self.d.out(port, w)
    }

    /// The mem port of the last cycle: (valid, warp, class, payload tag, from_bdib, bar_arrive).
    fn mem(&self) -> (bool, u64, u64, u64, bool, bool) {
        (self.o("mem_valid_o") == 1, self.o("mem_warp_o"), self.o("mem_cls_o"), self.o("mem_payload_o") >> 5, self.o("mem_from_bdib_o") == 1, self.o("mem_bar_arrive_o") == 1)
    }

    /// Warp `w` arrives at a barrier through the pass-through path (T1).
    fn pass_barrier(&mut self, w: u32) {
        self.issue(w, ins(Cls::Barrier, &[], 0x7f));
        self.step();
        assert_eq!(self.o("iss_ready_o"), 1);
        assert_eq!(self.mem(), (true, w as u64, 5, 0x7f, false, true));
    }
}

fn driver<'r>(c: &TfbConfig, rtl: &'r mut verif::rtl::Rtl) -> T<'r> {
    let mut t = T { d: BdibDriver::new(c, rtl) };
    t.d.set(|i| i.mem_ready = true);
    t
}

/// §5.5.1 with D = 2: `bar`, then three global stores. Two are buffered, the third
/// holds (`warp_full`); nothing pops before `eaf_done` (G1); after it both drain in
/// order (G2) while `mem_issue_stall` is high.
#[test]
fn barrier_then_stores_fill_hold_and_drain_in_order() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(0);
    for tag in [1, 2] {
        t.issue(0, ins(Cls::Global, &[1], tag));
        t.step();
        assert_eq!((t.o("iss_ready_o"), t.o("mem_valid_o")), (1, 0), "store {tag} is buffered, nothing dispatched");
    }
    t.issue(0, ins(Cls::Global, &[1], 3));
    t.step();
    assert_eq!((t.ow("dbg_count_o", 0), t.ow("warp_full_o", 0)), (2, 1), "counts are registered: seen the cycle after the push");
    assert_eq!(t.o("iss_ready_o"), 0, "the third store holds: the warp's FIFO is full");
    for _ in 0..5 {
        t.step();
        assert_eq!((t.o("mem_valid_o"), t.o("mem_issue_stall_o"), t.ow("dbg_count_o", 0)), (0, 0, 2), "no release before the EAF");
    }
    t.eaf(&[0]);
    t.step();
    assert_eq!((t.o("mem_valid_o"), t.ow("warp_in_bar_o", 0)), (0, 1), "the EAF takes effect at the edge");
    for tag in [1, 2] {
        t.step();
        assert_eq!(t.mem(), (true, 0, 0, tag, true, false), "drain of store {tag}");
        assert_eq!(t.o("mem_issue_stall_o"), 1);
    }
    t.step();
    assert_eq!((t.o("mem_valid_o"), t.o("mem_issue_stall_o"), t.ow("warp_nonempty_o", 0)), (0, 0, 0));
}

/// §5.5.2: warp 0 arrives and buffers while warp 1 lags; ALU work of warp 0 does
/// not touch the BDIB, private ops pass; nothing of warp 0 pops before its EAF.
#[test]
fn a_lagging_warp_holds_the_early_warps_entries() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(0);
    t.issue(0, ins(Cls::Scratch, &[2], 1));
    t.step();
    t.issue(0, ins(Cls::Priv, &[3], 2));
    t.step();
    assert_eq!(t.mem(), (true, 0, 2, 2, false, false), "a private op passes during the barrier (R1)");
    t.issue(1, ins(Cls::Scratch, &[2], 3));
    t.step();
    assert_eq!(t.mem(), (true, 1, 1, 3, false, false), "warp 1 is not in a barrier: its scratch op passes");
    for _ in 0..20 {
        t.step();
        assert_eq!((t.o("mem_valid_o"), t.ow("dbg_count_o", 0)), (0, 1));
    }
    t.pass_barrier(1);
    t.eaf(&[0, 1]);
    t.step();
    t.step();
    assert_eq!(t.mem(), (true, 0, 1, 1, true, false));
}

/// §5.5.3: every warp gets `eaf_done` in one cycle with two entries each: 8
/// consecutive drain cycles in round-robin order 0,1,2,3,0,1,2,3, stall high in
/// exactly those cycles.
#[test]
fn all_warps_complete_together_and_drain_round_robin() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    for w in 0..4u32 {
        t.pass_barrier(w);
        for k in 0..2u128 {
            t.issue(w, ins(Cls::Global, &[1], (w as u128) * 2 + k));
            t.step();
            assert_eq!(t.o("iss_ready_o"), 1);
        }
    }
    t.eaf(&[0, 1, 2, 3]);
    t.step();
    let mut order = Vec::new();
    for _ in 0..8 {
        t.step();
        let (v, w, _, tag, from, _) = t.mem();
        assert!(v && from && t.o("mem_issue_stall_o") == 1);
        order.push((w, tag));
    }
    assert_eq!(order, vec![(0, 0), (1, 2), (2, 4), (3, 6), (0, 1), (1, 3), (2, 5), (3, 7)]);
    t.step();
    assert_eq!(t.o("mem_issue_stall_o"), 0);
}

/// §5.5.4 / §2.11 barrier during a barrier: the BAR_MARKER pops as the warp's next
/// arrival (`mem_bar_arrive`, T8), `in_bar` is set again and the younger entry waits
/// for the second EAF.
#[test]
fn a_nested_barrier_marker_re_arms_the_warp() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(2);
    t.issue(2, ins(Cls::Barrier, &[], 9));
    t.step();
    t.issue(2, ins(Cls::Scratch, &[4], 10));
    t.step();
    t.eaf(&[2]);
    t.step();
    assert_eq!(t.ow("dbg_count_o", 2), 2);
    t.step();
    assert_eq!(t.mem(), (true, 2, 5, 9, true, true), "the marker is dispatched as a barrier arrival");
    for _ in 0..10 {
        t.step();
        assert_eq!((t.ow("warp_in_bar_o", 2), t.o("mem_valid_o"), t.ow("dbg_count_o", 2)), (1, 0, 1), "the scratch op waits for the second barrier");
    }
    t.eaf(&[2]);
    t.step();
    t.step();
    assert_eq!(t.mem(), (true, 2, 1, 10, true, false));
}

/// §5.5.5 / §2.11 fence during a barrier (G/F): the FENCE entry drains, then
/// `fence_wait` holds the younger entry until `fence_done` (T9, G5).
#[test]
fn a_fence_entry_holds_younger_entries_until_fence_done() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(1);
    t.issue(1, ins(Cls::Fence, &[], 11));
    t.step();
    t.issue(1, ins(Cls::Global, &[5], 12));
    t.step();
    t.eaf(&[1]);
    t.step();
    t.step();
    assert_eq!(t.mem(), (true, 1, 4, 11, true, false));
    for _ in 0..7 {
        t.step();
        assert_eq!((t.ow("dbg_fence_wait_o", 1), t.o("mem_valid_o"), t.ow("dbg_count_o", 1)), (1, 0, 1));
    }
    t.d.set(|i| i.fence_done[1] = true);
    t.step();
    assert_eq!(t.o("mem_valid_o"), 0, "fence_done takes effect at the edge");
    t.step();
    assert_eq!(t.mem(), (true, 1, 0, 12, true, false));
}

/// §5.5.6 / §2.10: a buffered `st [r2] <- r0` makes a write of r0 or r2 by the same
/// warp a WAR hit; another register, another warp or no query is not.
#[test]
fn war_queries_see_buffered_sources() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(0);
    t.issue(0, ins(Cls::Global, &[2, 0], 13));
    t.step();
    for (v, w, dst, want) in [(true, 0, 0, 1), (true, 0, 2, 1), (true, 0, 5, 0), (true, 1, 0, 0), (false, 0, 0, 0)] {
        t.d.set(|i| {
            i.warq_v[0] = v;
            i.warq_warp[0] = w;
            i.warq_dst[0] = dst;
        });
        t.step();
        assert_eq!(t.ow("warq_hit_o", 0), want, "query v {v} warp {w} r{dst}");
    }
}

/// §5.5.7: a push to a full warp is refused even while its head pops in the same
/// cycle; one cycle later a push and a pop of that warp in one cycle keep the count.
#[test]
fn same_cycle_push_and_pop() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(3);
    for tag in [1, 2] {
        t.issue(3, ins(Cls::Global, &[1], tag));
        t.step();
    }
    t.eaf(&[3]);
    t.step();
    // DRAIN: shared ops of warp 3 still go to its FIFO (never bypass, §1.7)
    t.issue(3, ins(Cls::Global, &[1], 3));
    t.step();
    assert_eq!((t.o("iss_ready_o"), t.mem().3, t.ow("dbg_count_o", 3)), (0, 1, 2), "full at the start of the cycle: refused while 1 pops");
    t.issue(3, ins(Cls::Global, &[1], 3));
    t.step();
    assert_eq!((t.o("iss_ready_o"), t.mem().3, t.ow("dbg_count_o", 3)), (1, 2, 1), "push and pop together");
    t.step();
    assert_eq!((t.mem().3, t.ow("dbg_count_o", 3)), (3, 1));
    t.step();
    assert_eq!((t.o("mem_valid_o"), t.ow("dbg_count_o", 3)), (0, 0));
}

/// §5.5.8: a flush in the middle of a barrier drops the warp's entries, `in_bar`
/// and `fence_wait`; nothing of it is ever dispatched.
#[test]
fn a_flush_mid_barrier_clears_the_warp() {
    let (c, d) = small("f");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(1);
    t.issue(1, ins(Cls::Global, &[1], 1));
    t.step();
    t.d.set(|i| {
        i.flush_valid = true;
        i.flush_warp = 1;
    });
    t.step();
    t.step();
    assert_eq!((t.ow("dbg_count_o", 1), t.ow("warp_in_bar_o", 1), t.o("mem_valid_o")), (0, 0, 0));
    for _ in 0..5 {
        t.step();
        assert_eq!(t.o("mem_valid_o"), 0);
    }
}

/// §2.11 P-TFB: a fence during the barrier executes (passes to the LSQ), nothing is
/// ever buffered; the barrier's `in_bar` is set by the pass-through arrival.
#[test]
fn p_tfb_fence_during_barrier_passes() {
    let (c, d) = small("p");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(0);
    assert_eq!(t.ow("warp_in_bar_o", 0), 0);
    t.issue(0, ins(Cls::Fence, &[], 4));
    t.step();
    assert_eq!((t.ow("warp_in_bar_o", 0), t.mem()), (1, (true, 0, 4, 4, false, false)));
    assert_eq!(t.ow("dbg_count_o", 0), 0);
}

/// §5.5.9: in G-TFB a scratch op of a warp in its barrier must have been blocked
/// upstream; presenting one is flagged by the scoreboard (INV-8).
#[test]
fn g_tfb_scratch_during_barrier_is_flagged() {
    let (c, d) = small("g");
    let mut rtl = common::rtl(&d);
    let mut t = driver(&c, &mut rtl);
    t.pass_barrier(0);
    t.issue(0, ins(Cls::Global, &[1], 1));
    t.step();
    t.issue(0, ins(Cls::Scratch, &[1], 2));
    match t.d.ls.step() {
        Err(StepError::Invariant(v)) => assert_eq!(v.invariant, "8 variant legality", "{v}"),
        other => panic!("not flagged: {other:?}"),
    }
}
