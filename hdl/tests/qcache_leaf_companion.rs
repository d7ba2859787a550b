//! Tests of `hdl_gen::qcache::leaf::companion` (`hdl/src/qcache/leaf/companion.rs`).

use crate::leaf_check::{bv, lint_and_synth, val, LeafSim};
use hdl_gen::qcache::leaf::companion::*;

#[test]
fn companion_leaves_are_lint_clean_and_synthesizable() {
    lint_and_synth(FilterRule::new(false, false), "qc_filter_rule_o0_l0");
    lint_and_synth(FilterRule::new(true, true), "qc_filter_rule_o1_l1");
    lint_and_synth(DvfsScale::default(), "qc_dvfs_scale");
    lint_and_synth(DvfsPick::default(), "qc_dvfs_pick");
}

/// (cur, next, req, local) and (prod, cons, spill).
type Row = (u128, u128, u128, bool);
type Strobes = (bool, bool, bool);

/// Spec §1.2's table, by hand (states I0 S1 E2 O3 M4; requests READ0 WRITE1
/// FWD_GETS2 FWD_GETX3 WRITEBACK4): (cur, next, req, local) -> (prod, cons, spill).
#[test]
fn the_filter_rule_is_the_spec_table() {
    let rows: [(Row, Strobes); 10] = [
        ((0, 4, 1, true), (true, false, false)),  // I -> M by a local write
        ((1, 4, 1, true), (true, false, false)),  // S -> M
        ((2, 4, 1, true), (true, false, false)),  // E -> M
        ((3, 4, 1, true), (false, false, false)), // O -> M: not by default
        ((4, 4, 1, true), (false, false, false)), // M -> M: no event
        ((4, 3, 2, false), (false, true, false)), // Fwd_GETS of another domain hits M
        ((4, 0, 3, false), (false, true, false)), // Fwd_GETX hits M
        ((4, 4, 0, true), (false, false, false)), // a local read of M: not by default
        ((4, 0, 4, true), (false, false, true)),  // M written back
        ((3, 0, 4, true), (false, false, false)), // O written back: consumed already
    ];
    let mut s = LeafSim::comb(FilterRule::new(false, false));
    for ((cur, next, rq, local), want) in rows {
        s.v_i.next = true;
        s.cur_i.next = bv(cur);
        s.next_i.next = bv(next);
        s.req_i.next = bv(rq);
        s.local_i.next = local;
        s.settle();
        assert_eq!((s.prod_o.val(), s.cons_o.val(), s.spill_o.val()), want, "{cur} -> {next} req {rq} local {local}");
    }
    s.v_i.next = false;
    s.settle();
    assert_eq!((s.prod_o.val(), s.cons_o.val(), s.spill_o.val()), (false, false, false));
    // the options: O -> M counts, a local read of M counts
    let mut s = LeafSim::comb(FilterRule::new(true, true));
    for ((cur, next, rq, local), want) in [((3, 4, 1, true), (true, false, false)), ((4, 4, 0, true), (false, true, false))] {
        s.v_i.next = true;
        s.cur_i.next = bv(cur);
        s.next_i.next = bv(next);
        s.req_i.next = bv(rq);
        s.local_i.next = local;
        s.settle();
        assert_eq!((s.prod_o.val(), s.cons_o.val(), s.spill_o.val()), want);
    }
}

/// Slow by 2.0 from 16 cores at 700 MHz (proxy 11200, target 5600): the candidate
/// 8 cores x 700 (5600, distance 0) beats 16 x 325 (5200: |5200*32 - 16*11200| =
/// 12800) and is not beaten by 12 x 450 (5400: 6400) taken after it.
#[test]
fn a_pick_chain_by_hand() {
    let mut sc = LeafSim::comb(DvfsScale::default());
    sc.cur_i.next = bv(11200);
    sc.ratio_i.next = bv(0x20);
    sc.settle();
    assert_eq!((val(&sc.r_o), val(&sc.cur16_o), val(&sc.curr_o)), (32, 179200, 358400));
    let mut p = LeafSim::comb(DvfsPick::default());
    let mut best = (false, 0u128, 0u128, 0u128, 0u128);
    for (s, cores, pst, want_take) in [(5200u128, 16u32, 1u128, true), (5600, 8, 4, true), (5400, 12, 2, false), (11200, 16, 4, false)] {
        // s*r as (cores - 1)*f*r + f*r
        let f = s / cores as u128;
        p.fr_i.next = bv(f * 32);
        p.sr_prev_i.next = bv((cores as u128 - 1) * f * 32);
        p.s_i.next = bv(s);
        p.s16_i.next = bv(16 * s);
        p.mask_i.next = bv((1u128 << cores) - 1);
        p.p_i.next = bv(pst);
        p.cur_i.next = bv(11200);
        p.cur16_i.next = bv(179200);
        p.curr_i.next = bv(358400);
        p.speed_i.next = false;
        p.bv_i.next = best.0;
        p.bd_i.next = bv(best.1);
        p.bs_i.next = bv(best.2);
        p.bm_i.next = bv(best.3);
        p.bp_i.next = bv(best.4);
        p.settle();
        assert_eq!(val(&p.sr_o), s * 32);
        let took = val(&p.bs_o) == s && p.bv_o.val();
        assert_eq!(took, want_take, "candidate {s}");
        best = (p.bv_o.val(), val(&p.bd_o), val(&p.bs_o), val(&p.bm_o), val(&p.bp_o));
    }
    assert_eq!(best, (true, 0, 5600, 0xff, 4));
}
