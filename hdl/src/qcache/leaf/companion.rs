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
