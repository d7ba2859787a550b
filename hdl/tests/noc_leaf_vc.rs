//! Tests of `hdl_gen::noc::leaf::vc` (`hdl/src/noc/leaf/vc.rs`).
//!
//! Instances: the shipped baseline plane (4x4, 128-bit data: 138-bit flits,
//! 3 VCs x 4) for lint and synthesis; behaviour at the same control sizes, with
//! the request plane's 74-bit flits where a test moves data (Icarus and the
//! checks here take values up to 128 bits).
//!
//! References: golden's `VcRouter::route` and `rr_pick` are called directly; the
//! allocation stages, which golden computes inside `VcRouter::step`, are
//! transcribed from it into small functions below.

#![allow(clippy::needless_range_loop, reason = "the checks index port and VC arrays by one number, as golden's VcRouter::step that they transcribe does")]

use crate::leaf_check::{bv, check_outs, emit, lint_and_synth, outs, rtl_run, val, LeafSim, Outs, Rng};
use golden::noc::config::{Routing, VcParams};
use golden::noc::vc_router::{rr_pick, VcRouter};
use hdl_gen::noc::leaf::vc::*;

const V: usize = 3;
const NV: usize = 15;
const C: usize = 3;
const D: u32 = 4;
const VW: usize = 2;
const NB: usize = 4;

fn onehot_idx(v: u128) -> Option<usize> {
    (v != 0).then(|| v.trailing_zeros() as usize)
}

/// A pointer mask (`positions below the pointer`) for pointer `p` of `n`.
fn nm(p: u32) -> u128 {
    (1u128 << p) - 1
}

// ---- VcBuffer ----

#[test]
fn vc_buffer_is_lint_clean_and_synthesizable() {
    lint_and_synth(VcBuffer::<138, 3, 2>::default(), "vc_buffer_f138_d4");
}

/// A FIFO against a queue, in the emitted Verilog (its memory's `update()` is
/// not simulatable): pushes only when not full (the credit protocol), pops only
/// when not empty (the switch allocator), both at once too; `count` and the head
/// (when not empty) every cycle.
#[test]
fn vc_buffer_is_a_fifo() {
    let name = "vc_buffer_f74_d8";
    let mut r = Rng::new(21);
    let mut q = std::collections::VecDeque::new();
    let (mut cycles, mut want) = (vec![vec![("rst_i", 1)]], vec![Outs::new()]);
    let mut max = 0;
    for k in 0..300 {
        let fill = if k % 100 < 50 { 70 } else { 30 };
        let push = q.len() < 8 && r.pct(fill);
        let pop = !q.is_empty() && r.pct(100 - fill);
        let flit = r.bits(74);
        let mut o = outs(&[("count__q_o", q.len() as u128)]);
        if let Some(h) = q.front() {
            o.insert("head__data_o".into(), Some(*h));
        }
        want.push(o);
        cycles.push(vec![("rst_i", 0), ("push_v_i", push as u128), ("push_flit_i", flit), ("pop_i", pop as u128)]);
        if pop {
            q.pop_front();
        }
        if push {
            q.push_back(flit);
        }
        max = max.max(q.len());
    }
    assert_eq!(max, 8, "the traffic fills the buffer");
    let rtl = rtl_run(&emit(VcBuffer::<74, 4, 3>::default(), name), name, &cycles);
    check_outs(&rtl, &want, 1).unwrap();
}

// ---- RouteCompute ----

#[test]
fn route_compute_is_lint_clean_and_synthesizable() {
    lint_and_synth(RouteCompute::<2>::default(), "vc_route_c2");
}

/// Every (router, destination) of a 4x4 mesh, XY and YX, against golden's
/// `VcRouter::route`.
#[test]
fn route_compute_matches_golden_route() {
    let mut s = LeafSim::comb(RouteCompute::<2>::default());
    for routing in [Routing::Xy, Routing::Yx] {
        let p = VcParams { flit_width: 64, vcs: 1, buf_depth: 8, routing, planes: 1, reply_vcs: 0 };
        for (x, y) in (0..16).map(|i| (i % 4, i / 4)) {
            let g = VcRouter::new(&p, 4, x, y);
            for dst in 0..16u16 {
                s.x_i.next = bv(x as u128);
                s.y_i.next = bv(y as u128);
                s.dx_i.next = bv(dst as u128 % 4);
                s.dy_i.next = bv(dst as u128 / 4);
                s.yx_i.next = routing == Routing::Yx;
                s.settle();
                assert_eq!(val(&s.port_o) as usize, g.route(dst), "{routing:?} at ({x},{y}) to node {dst}");
            }
        }
    }
}

// ---- RrArb ----

#[test]
fn rr_arb_is_lint_clean_and_synthesizable() {
    lint_and_synth(RrArb::<15>::default(), "vc_rr_arb_n15");
}

/// Vectors `(req, pointer)` where the arbiter's grant differs from `reference`.
fn arb_disagreements<const N: usize>(vectors: &[(u128, u32)], reference: impl Fn(u64, u32) -> u128) -> Vec<(u128, u32)> {
    let mut s = LeafSim::comb(RrArb::<N>::default());
    let mut bad = Vec::new();
    for &(req, p) in vectors {
        s.req_i.next = bv(req);
        s.nm_i.next = bv(nm(p));
        s.settle();
        if val(&s.gnt_o) != reference(req as u64, p) {
            bad.push((req, p));
        }
    }
    bad
}

/// golden: the first request at or after the pointer, cyclically; the pointer
/// after a grant to the last position is mask all-ones (= pointer 0).
fn golden_rr(n: u32) -> impl Fn(u64, u32) -> u128 {
    move |req, p| if req == 0 { 0 } else { 1u128 << rr_pick(req, p % n, n) }
}

/// Every request set and pointer of the 5-input arbiter, and random ones of the
/// 15-input arbiter and of the 40-input one of an 8-VC router (VA over 5 x 8 input
/// VCs: more than 32 requesters), against golden's `rr_pick`; the same vectors
/// against a fixed-priority arbiter (a planted wrong expectation) disagree.
#[test]
fn rr_arb_matches_golden_round_robin() {
    let all5: Vec<(u128, u32)> = (0..32).flat_map(|req| (0..=5).map(move |p| (req, p))).collect();
    assert_eq!(arb_disagreements::<5>(&all5, golden_rr(5)), []);
    let mut r = Rng::new(22);
    let some15: Vec<(u128, u32)> = (0..500).map(|_| (r.bits(15), r.below(16) as u32)).collect();
    assert_eq!(arb_disagreements::<15>(&some15, golden_rr(15)), []);
    // requests above bit 31 with pointers past 32 too
    let some40: Vec<(u128, u32)> = (0..500).map(|_| (r.bits(40) & if r.pct(50) { !0xffff_ffff } else { !0 }, r.below(41) as u32)).collect();
    assert!(some40.iter().filter(|&&(req, p)| req >> 32 != 0 && p > 32).count() > 20);
    assert_eq!(arb_disagreements::<40>(&some40, golden_rr(40)), []);
    let fixed = |req: u64, _| if req == 0 { 0 } else { 1u128 << req.trailing_zeros() };
    let bad = arb_disagreements::<5>(&all5, fixed);
    assert!(bad.contains(&(0b10001, 1)), "round robin from pointer 1 grants input 4, not 0: {bad:?}");
}

// ---- CreditCounter ----

#[test]
fn credit_counter_is_lint_clean_and_synthesizable() {
    lint_and_synth(CreditCounter::<3>::default(), "vc_credit_d4");
}

/// Credits used: +1 per flit sent (`dec_i`), -1 per credit back (`inc_i`), both
/// at once cancel; traffic stays within the D = 4 credits, as the protocol does.
#[test]
fn credit_counter_counts_used_credits() {
    let mut s = LeafSim::clocked(CreditCounter::<3>::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut r = Rng::new(23);
    let (mut used, mut seen) = (0u32, [false; 5]);
    for c in 0..400 {
        let dec = used < D && r.pct(50);
        let inc = used > 0 && r.pct(45);
        s.dec_i.next = dec;
        s.inc_i.next = inc;
        s.tick();
        used = used + dec as u32 - inc as u32;
        seen[used as usize] = true;
        assert_eq!(val(&s.used.q_o) as u32, used, "cycle {c}");
    }
    assert_eq!(seen, [true; 5], "every count from 0 to D");
}

// ---- Crossbar ----

#[test]
fn crossbar_is_lint_clean_and_synthesizable() {
    lint_and_synth(Crossbar::<138, V, NV, VW>::default(), "vc_xbar_f138_v3");
}

/// Random one-hot grants: input port p's granted VC's head goes through the
/// switch register to output o's link register (two edges), with the
/// downstream VC `cand_u[p]`; an output without a grant sends nothing (0).
#[test]
fn crossbar_moves_granted_heads_through_two_registers() {
    let mut s = LeafSim::clocked(Crossbar::<74, V, NV, VW>::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut r = Rng::new(24);
    let mut pipe: [[(u128, u128, u128); 5]; 2] = [[(0, 0, 0); 5]; 2];
    for c in 0..200 {
        let heads: Vec<u128> = (0..NV).map(|_| r.bits(74)).collect();
        // a permutation of inputs to outputs, some left out
        let mut ins: Vec<usize> = (0..5).collect();
        for i in (1..5).rev() {
            ins.swap(i, r.below(i as u64 + 1) as usize);
        }
        let mut st = [(0, 0, 0); 5];
        for p in 0..5 {
            let vv = r.below(V as u64) as usize;
            let u = r.below(V as u64) as u128;
            s.head_i[p * V + vv].next = bv(0); // overwritten below
            s.in_gnt_i[p].next = bv(1 << vv);
            s.cand_u_i[p].next = bv(u);
            let o = ins[p];
            let granted = r.pct(70);
            s.out_gnt_i[o].next = bv(if granted { 1 << p } else { 0 });
            if granted {
                st[o] = (1, u, heads[p * V + vv]);
            }
        }
        for (iv, h) in heads.iter().enumerate() {
            s.head_i[iv].next = bv(*h);
        }
        s.tick();
        pipe = [st, pipe[0]];
        for o in 0..5 {
            let got = (val(&s.link_v[o].q_o), val(&s.link_u[o].q_o), val(&s.link_f[o].q_o));
            assert_eq!(got, pipe[1][o], "cycle {c}, output {o}");
        }
    }
}

// ---- VcAlloc ----

#[test]
fn vc_alloc_is_lint_clean_and_synthesizable() {
    lint_and_synth(VcAlloc::<V, NV, C>::default(), "vc_alloc_v3_d4");
}

/// Router state for the allocation stages, drawn at random but consistent.
struct State {
    count: [u32; NV],
    head: [bool; NV],
    port: [u32; NV],
    /// Output VC of each allocated input VC.
    alloc: [Option<usize>; NV],
    busy: [bool; NV],
    used: [u32; NV],
}

impl State {
    fn random(r: &mut Rng) -> State {
        let alloc = std::array::from_fn(|_| r.pct(40).then(|| r.below(NV as u64) as usize));
        State {
            count: std::array::from_fn(|_| if r.pct(70) { 1 + r.below(D as u64) as u32 } else { 0 }),
            head: std::array::from_fn(|_| r.pct(60)),
            port: std::array::from_fn(|_| r.below(5) as u32),
            alloc,
            busy: std::array::from_fn(|_| r.pct(30)),
            used: std::array::from_fn(|_| if r.pct(50) { 0 } else { r.below(D as u64 + 1) as u32 }),
        }
    }

    fn mask(f: impl Fn(usize) -> bool) -> u128 {
        (0..NV).filter(|&i| f(i)).fold(0, |m, i| m | 1 << i)
    }

    /// golden's VA request: an unallocated input VC with a head flit asks for
    /// the lowest output VC of its port that is not busy and holds all D credits.
    fn va_request(&self, iv: usize) -> Option<usize> {
        let o = self.port[iv] as usize;
        (self.count[iv] > 0 && self.head[iv] && self.alloc[iv].is_none()).then(|| (0..V).find(|&u| !self.busy[o * V + u] && self.used[o * V + u] == 0).map(|u| o * V + u)).flatten()
    }
}

/// Random router states: `rq_o[iv]` is golden's request (one-hot), `req_o[ov]`
/// the set of input VCs requesting `ov`.
#[test]
fn vc_alloc_requests_the_lowest_free_vc() {
    let mut s = LeafSim::comb(VcAlloc::<V, NV, C>::default());
    let mut r = Rng::new(25);
    let mut requests = 0;
    for c in 0..300 {
        let st = State::random(&mut r);
        for i in 0..NV {
            s.count_i[i].next = bv(st.count[i] as u128);
            s.port_i[i].next = bv(st.port[i] as u128);
            s.used_i[i].next = bv(st.used[i] as u128);
        }
        s.head_i.next = bv(State::mask(|i| st.head[i]));
        s.allocd_i.next = bv(State::mask(|i| st.alloc[i].is_some()));
        s.busy_i.next = bv(State::mask(|i| st.busy[i]));
        s.settle();
        let mut req = [0u128; NV];
        for iv in 0..NV {
            let want = st.va_request(iv);
            assert_eq!(onehot_idx(val(&s.rq_o[iv])), want, "cycle {c}, input VC {iv}");
            if let Some(ov) = want {
                req[ov] |= 1 << iv;
                requests += 1;
            }
        }
        for ov in 0..NV {
            assert_eq!(val(&s.req_o[ov]), req[ov], "cycle {c}, output VC {ov}");
        }
    }
    assert!(requests > 100, "the states make requests");
}

// ---- SwAlloc ----

#[test]
fn sw_alloc_is_lint_clean_and_synthesizable() {
    lint_and_synth(SwAlloc::<V, NV, C, VW, NB>::new(D as usize), "vc_sw_alloc_v3_d4");
}

/// VA grants for a state: each requested output VC grants one requester.
fn va_grants(st: &State, r: &mut Rng) -> [u128; NV] {
    let mut g = [0u128; NV];
    for ov in 0..NV {
        let reqs: Vec<usize> = (0..NV).filter(|&iv| st.va_request(iv) == Some(ov)).collect();
        if !reqs.is_empty() {
            g[ov] = 1 << reqs[r.below(reqs.len() as u64) as usize];
        }
    }
    g
}

/// golden's SA input stage: effective allocation (registered or won now), VCs
/// ready to send (a flit and a credit downstream), a round-robin winner per
/// input port from its pointer, and the output each winner requests.
#[test]
fn sw_alloc_matches_golden_input_stage() {
    let mut s = LeafSim::comb(SwAlloc::<V, NV, C, VW, NB>::new(D as usize));
    let mut r = Rng::new(26);
    let mut wins = 0;
    for c in 0..300 {
        let st = State::random(&mut r);
        let gnt = va_grants(&st, &mut r);
        let ptr: [u32; 5] = std::array::from_fn(|_| r.below(V as u64 + 1) as u32);
        for i in 0..NV {
            s.count_i[i].next = bv(st.count[i] as u128);
            s.alloc_i[i].next = bv(st.alloc[i].map_or(0, |ov| 1 << ov));
            s.rq_i[i].next = bv(st.va_request(i).map_or(0, |ov| 1 << ov));
            s.va_gnt_i[i].next = bv(gnt[i]);
            s.used_i[i].next = bv(st.used[i] as u128);
        }
        s.allocd_i.next = bv(State::mask(|i| st.alloc[i].is_some()));
        for p in 0..5 {
            s.in_nm_i[p].next = bv(nm(ptr[p]));
        }
        s.settle();
        let won = gnt.iter().fold(0, |m, g| m | g);
        let eff: [Option<usize>; NV] = std::array::from_fn(|iv| st.alloc[iv].or_else(|| (won >> iv & 1 == 1).then(|| st.va_request(iv)).flatten()));
        assert_eq!(val(&s.won_o), won, "cycle {c}");
        assert_eq!(val(&s.effv_o), State::mask(|i| eff[i].is_some()), "cycle {c}");
        let mut out_req = [0u128; 5];
        for p in 0..5 {
            let ready = (0..V).filter(|&vv| {
                let iv = p * V + vv;
                st.count[iv] > 0 && eff[iv].is_some_and(|ov| st.used[ov] < D)
            });
            let mask = ready.fold(0u32, |m, vv| m | 1 << vv);
            let want = (mask != 0).then(|| rr_pick(mask as u64, ptr[p] % V as u32, V as u32));
            assert_eq!(onehot_idx(val(&s.in_gnt_o[p])), want, "cycle {c}, port {p}");
            if let Some(vv) = want {
                let ov = eff[p * V + vv].expect("ready VCs are allocated");
                assert_eq!(val(&s.cand_u_o[p]) as usize, ov % V, "cycle {c}, port {p}");
                out_req[ov / V] |= 1 << p;
                wins += 1;
            }
        }
        for o in 0..5 {
            assert_eq!(val(&s.out_req_o[o]), out_req[o], "cycle {c}, output {o}");
        }
    }
    assert!(wins > 200, "the states send flits");
}

// ---- SaResult ----

#[test]
fn sa_result_is_lint_clean_and_synthesizable() {
    lint_and_synth(SaResult::<V, NV>::default(), "vc_sa_result_v3");
}

/// golden's SA output stage: an input VC pops when its port's winner got an
/// output; its credit is taken on its output VC; a popped tail ends the
/// allocation; a VA win that does not end at once marks its output VC busy.
#[test]
fn sa_result_matches_golden_output_stage() {
    let mut s = LeafSim::comb(SaResult::<V, NV>::default());
    let mut r = Rng::new(27);
    for c in 0..300 {
        let eff: [Option<usize>; NV] = std::array::from_fn(|_| r.pct(70).then(|| r.below(NV as u64) as usize));
        let in_gnt: [Option<usize>; 5] = std::array::from_fn(|_| r.pct(80).then(|| r.below(V as u64) as usize));
        let won = r.bits(NV as u32) & State::mask(|i| eff[i].is_some());
        let tail = r.bits(NV as u32);
        // outputs granted to distinct input ports that have a winner
        let mut out_gnt = [None; 5];
        for o in 0..5 {
            let p = r.below(5) as usize;
            if in_gnt[p].is_some() && !out_gnt.contains(&Some(p)) && r.pct(70) {
                out_gnt[o] = Some(p);
            }
        }
        for p in 0..5 {
            s.in_gnt_i[p].next = bv(in_gnt[p].map_or(0, |vv| 1 << vv));
            s.out_gnt_i[p].next = bv(out_gnt[p].map_or(0, |q| 1 << q));
        }
        for iv in 0..NV {
            s.eff_i[iv].next = bv(eff[iv].map_or(0, |ov| 1 << ov));
        }
        s.won_i.next = bv(won);
        s.tail_i.next = bv(tail);
        s.settle();
        let port_win = out_gnt.iter().flatten().fold(0u128, |m, p| m | 1 << p);
        let pop = State::mask(|iv| port_win >> (iv / V) & 1 == 1 && in_gnt[iv / V] == Some(iv % V));
        let rel = pop & tail;
        let ovs = |m: u128| (0..NV).filter(|iv| m >> iv & 1 == 1).fold(0u128, |a, iv| a | eff[iv].map_or(0, |ov| 1 << ov));
        let got = [&s.port_win_o.val().to_u128(), &val(&s.pop_o), &val(&s.release_o), &val(&s.dec_o), &val(&s.rel_ov_o), &val(&s.won_ov_o)].map(|v| *v);
        assert_eq!(got, [port_win, pop, rel, ovs(pop), ovs(rel), ovs(won & !rel)], "cycle {c}: port_win, pop, release, dec, rel_ov, won_ov");
    }
}

// ---- VcState ----

#[test]
fn vc_state_is_lint_clean_and_synthesizable() {
    lint_and_synth(VcState::<V, NV>::default(), "vc_state_v3");
}

/// The registers of golden's `VcRouter` that the control keeps: allocations
/// (effective minus released), busy output VCs, the credit return (one cycle
/// after the pop) and the round-robin pointers (past the winner on a grant; the
/// SA input pointer only when the port won an output).
#[test]
fn vc_state_updates_like_golden() {
    let mut s = LeafSim::clocked(VcState::<V, NV>::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut r = Rng::new(28);
    let mask = |g: u128| if g == 0 { None } else { Some(g | (g - 1)) };
    let mut busy = 0u128;
    let (mut va_nm, mut in_nm, mut out_nm) = ([0u128; NV], [0u128; 5], [0u128; 5]);
    for c in 0..300 {
        let eff: [u128; NV] = std::array::from_fn(|_| if r.pct(60) { 1 << r.below(NV as u64) } else { 0 });
        let effv = State::mask(|i| eff[i] != 0);
        let release = r.bits(NV as u32) & effv;
        let (pop, rel_ov, won_ov) = (r.bits(NV as u32), r.bits(NV as u32), r.bits(NV as u32));
        let va_gnt: [u128; NV] = std::array::from_fn(|_| if r.pct(30) { 1 << r.below(NV as u64) } else { 0 });
        let in_gnt: [u128; 5] = std::array::from_fn(|_| if r.pct(60) { 1 << r.below(V as u64) } else { 0 });
        let port_win = r.bits(5);
        let out_gnt: [u128; 5] = std::array::from_fn(|_| if r.pct(50) { 1 << r.below(5) } else { 0 });
        for i in 0..NV {
            s.eff_i[i].next = bv(eff[i]);
            s.va_gnt_i[i].next = bv(va_gnt[i]);
        }
        for p in 0..5 {
            s.in_gnt_i[p].next = bv(in_gnt[p]);
            s.out_gnt_i[p].next = bv(out_gnt[p]);
        }
        s.effv_i.next = bv(effv);
        s.release_i.next = bv(release);
        s.pop_i.next = bv(pop);
        s.rel_ov_i.next = bv(rel_ov);
        s.won_ov_i.next = bv(won_ov);
        s.port_win_i.next = bv(port_win);
        s.tick();
        let keep = effv & !release;
        let (allocd, cred) = (keep, pop);
        let alloc: [u128; NV] = std::array::from_fn(|iv| if keep >> iv & 1 == 1 { eff[iv] } else { 0 });
        busy = (busy & !rel_ov) | won_ov;
        va_nm = std::array::from_fn(|i| mask(va_gnt[i]).unwrap_or(va_nm[i]));
        in_nm = std::array::from_fn(|p| if port_win >> p & 1 == 1 { in_gnt[p] | (in_gnt[p].wrapping_sub(1) & 7) } else { in_nm[p] });
        out_nm = std::array::from_fn(|p| mask(out_gnt[p]).unwrap_or(out_nm[p]));
        assert_eq!((val(&s.allocd.q_o), val(&s.busy.q_o), val(&s.cred.q_o)), (allocd, busy, cred), "cycle {c}: allocd, busy, cred");
        for i in 0..NV {
            assert_eq!((val(&s.alloc[i].q_o), val(&s.va_nm[i].q_o)), (alloc[i], va_nm[i]), "cycle {c}, VC {i}");
        }
        for p in 0..5 {
            assert_eq!((val(&s.in_nm[p].q_o), val(&s.out_nm[p].q_o)), (in_nm[p], out_nm[p]), "cycle {c}, port {p}");
        }
    }
}
