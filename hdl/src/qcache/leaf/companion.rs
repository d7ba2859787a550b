//! The rust-hdl leaves of the Q-cache companion blocks (spec §1.2, §1.8, §5):
//!
//! * [`FilterRule`]: one L2 bank's transition filter, the rule of
//!   `golden::qcache::filter::TransitionFilter::classify` (spec §1.2's table).
//! * [`DvfsScale`]: the request's scaled current throughput, once per request:
//!   `r = max(ratio, 16)`, `16·cur` and `cur·r` (`cur` the proxy cores × MHz).
//! * [`DvfsPick`]: one candidate setting against the best so far, the step of
//!   `golden::qcache::actuator::closest`: in the requested direction (`s < cur` slow,
//!   `s > cur` speed), distance `|s·r − 16·cur|` (slow) or `|16·s − cur·r|` (speed),
//!   taken when strictly closer (the first candidate wins a tie: the tops chain them
//!   fewer cores first, then the lower P-state). `s·r` without a multiplier: the same
//!   P-state's candidate with one core fewer plus `f·r` (one product per P-state, in
//!   the top).
//!
//! The actuators' registers, countdown and answers are the askama templates
//! `templates/qcache/gpu_actuator.v` and `cpu_dvfs.v`; the filters' output registers
//! `transition_filter.v`.

use rust_hdl::prelude::*;

use super::rate_cmp::WideMul;
use crate::prim::Zext;

/// One bank's rule: PRODUCE / CONSUME / SPILL of a transition (`v_i` high).
#[derive(LogicBlock)]
pub struct FilterRule {
    pub v_i: Signal<In, Bit>,
    pub cur_i: Signal<In, Bits<3>>,
    pub next_i: Signal<In, Bits<3>>,
    pub req_i: Signal<In, Bits<3>>,
    pub local_i: Signal<In, Bit>,
    pub prod_o: Signal<Out, Bit>,
    pub cons_o: Signal<Out, Bit>,
    pub spill_o: Signal<Out, Bit>,
    st_o: Constant<Bits<3>>,
    st_m: Constant<Bits<3>>,
    rq_read: Constant<Bits<3>>,
    rq_write: Constant<Bits<3>>,
    rq_fwd_gets: Constant<Bits<3>>,
    rq_fwd_getx: Constant<Bits<3>>,
    rq_wb: Constant<Bits<3>>,
    o_to_m: Constant<Bit>,
    local_hit_m: Constant<Bit>,
}

impl FilterRule {
    /// The rule with options `COUNT_O_TO_M` and `COUNT_LOCAL_HIT_M`.
    pub fn new(count_o_to_m: bool, count_local_hit_m: bool) -> Self {
        use golden::qcache::filter::{moesi, req};
        let c3 = |v: u8| Constant::new((v as u64).to_bits());
        Self {
            v_i: Default::default(),
            cur_i: Default::default(),
            next_i: Default::default(),
            req_i: Default::default(),
            local_i: Default::default(),
            prod_o: Default::default(),
            cons_o: Default::default(),
            spill_o: Default::default(),
            st_o: c3(moesi::O),
            st_m: c3(moesi::M),
            rq_read: c3(req::READ),
            rq_write: c3(req::WRITE),
            rq_fwd_gets: c3(req::FWD_GETS),
            rq_fwd_getx: c3(req::FWD_GETX),
            rq_wb: c3(req::WRITEBACK),
            o_to_m: Constant::new(count_o_to_m),
            local_hit_m: Constant::new(count_local_hit_m),
        }
    }
}

impl Logic for FilterRule {
    #[hdl_gen]
    fn update(&mut self) {
        // PRODUCE: a local write makes the line M from I (or not present), S, E (O with COUNT_O_TO_M)
        self.prod_o.next = self.v_i.val()
            & self.local_i.val()
            & (self.req_i.val() == self.rq_write.val())
            & (self.next_i.val() == self.st_m.val())
            & (self.cur_i.val() != self.st_m.val())
            & ((self.cur_i.val() != self.st_o.val()) | self.o_to_m.val());
        // CONSUME: another domain's forwarded request hits M (a local read of M with COUNT_LOCAL_HIT_M)
        self.cons_o.next = self.v_i.val()
            & (self.cur_i.val() == self.st_m.val())
            & ((!self.local_i.val() & ((self.req_i.val() == self.rq_fwd_gets.val()) | (self.req_i.val() == self.rq_fwd_getx.val())))
                | (self.local_i.val() & self.local_hit_m.val() & (self.req_i.val() == self.rq_read.val())));
        // SPILL: the writeback of an M line
        self.spill_o.next = self.v_i.val() & (self.cur_i.val() == self.st_m.val()) & (self.req_i.val() == self.rq_wb.val());
    }
}

/// `r_o = max(ratio_i, 16)`, `cur16_o = 16·cur_i`, `curr_o = cur_i·r_o`.
#[derive(LogicBlock)]
pub struct DvfsScale {
    pub cur_i: Signal<In, Bits<16>>,
    pub ratio_i: Signal<In, Bits<8>>,
    pub r_o: Signal<Out, Bits<16>>,
    pub cur16_o: Signal<Out, Bits<32>>,
    pub curr_o: Signal<Out, Bits<32>>,
    ratio16: Zext<8, 16>,
    cur32: Zext<16, 32>,
    mul: WideMul<16, 32>,
    k16: Constant<Bits<16>>,
    k4: Constant<Bits<32>>,
}

impl Default for DvfsScale {
    fn default() -> Self {
        Self {
            cur_i: Default::default(),
            ratio_i: Default::default(),
            r_o: Default::default(),
            cur16_o: Default::default(),
            curr_o: Default::default(),
            ratio16: Default::default(),
            cur32: Default::default(),
            mul: Default::default(),
            k16: Constant::new(16u64.to_bits()),
            k4: Constant::new(4u64.to_bits()),
        }
    }
}

impl Logic for DvfsScale {
    #[hdl_gen]
    fn update(&mut self) {
        self.ratio16.i.next = self.ratio_i.val();
        self.cur32.i.next = self.cur_i.val();
        self.r_o.next = self.ratio16.o.val();
        if self.ratio16.o.val() < self.k16.val() {
            self.r_o.next = self.k16.val();
        }
        self.cur16_o.next = self.cur32.o.val() << self.k4.val();
        self.mul.a_i.next = self.cur_i.val();
        self.mul.b_i.next = self.r_o.val();
        self.curr_o.next = self.mul.p_o.val();
    }
}

/// One candidate (`s_i` = its proxy `cores·f`, `s16_i` = 16·s, `mask_i` its cores,
/// `p_i` its P-state: constants of the instance) against the best so far (`b*_i`).
/// `sr_o = sr_prev_i + fr_i` is its `s·r` (`sr_prev_i`: the candidate with one core
/// fewer at the same P-state, 0 for one core; `fr_i` = `f·r`).
#[derive(LogicBlock, Default)]
pub struct DvfsPick {
    pub s_i: Signal<In, Bits<16>>,
    pub s16_i: Signal<In, Bits<32>>,
    pub fr_i: Signal<In, Bits<32>>,
    pub sr_prev_i: Signal<In, Bits<32>>,
    pub sr_o: Signal<Out, Bits<32>>,
    pub mask_i: Signal<In, Bits<16>>,
    pub p_i: Signal<In, Bits<3>>,
    /// The current proxy, 16·cur and cur·r ([`DvfsScale`]).
    pub cur_i: Signal<In, Bits<16>>,
    pub cur16_i: Signal<In, Bits<32>>,
    pub curr_i: Signal<In, Bits<32>>,
    pub speed_i: Signal<In, Bit>,
    pub bv_i: Signal<In, Bit>,
    pub bd_i: Signal<In, Bits<32>>,
    pub bs_i: Signal<In, Bits<16>>,
    pub bm_i: Signal<In, Bits<16>>,
    pub bp_i: Signal<In, Bits<3>>,
    pub bv_o: Signal<Out, Bit>,
    pub bd_o: Signal<Out, Bits<32>>,
    pub bs_o: Signal<Out, Bits<16>>,
    pub bm_o: Signal<Out, Bits<16>>,
    pub bp_o: Signal<Out, Bits<3>>,
    a: Signal<Local, Bits<32>>,
    b: Signal<Local, Bits<32>>,
    d: Signal<Local, Bits<32>>,
    ok: Signal<Local, Bit>,
}

impl Logic for DvfsPick {
    #[hdl_gen]
    fn update(&mut self) {
        self.sr_o.next = self.sr_prev_i.val() + self.fr_i.val();
        // slow: |s*r - 16 cur|, speed: |16 s - cur*r|
        self.a.next = self.sr_o.val();
        self.b.next = self.cur16_i.val();
        self.ok.next = self.s_i.val() < self.cur_i.val();
        if self.speed_i.val() {
            self.a.next = self.s16_i.val();
            self.b.next = self.curr_i.val();
            self.ok.next = self.s_i.val() > self.cur_i.val();
        }
        self.d.next = self.b.val() - self.a.val();
        if self.a.val() > self.b.val() {
            self.d.next = self.a.val() - self.b.val();
        }
        self.bv_o.next = self.bv_i.val();
        self.bd_o.next = self.bd_i.val();
        self.bs_o.next = self.bs_i.val();
        self.bm_o.next = self.bm_i.val();
        self.bp_o.next = self.bp_i.val();
        if self.ok.val() & (!self.bv_i.val() | (self.d.val() < self.bd_i.val())) {
            self.bv_o.next = true;
            self.bd_o.next = self.d.val();
            self.bs_o.next = self.s_i.val();
            self.bm_o.next = self.mask_i.val();
            self.bp_o.next = self.p_i.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, lint_and_synth, val, LeafSim};

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
}
