//! The monitor's window counters and footprint after this cycle's events (spec §1.3,
//! §1.6 step 3), as `golden::qcache::monitor::RateMonitor::step` updates them, from
//! the registered values (after a kernel begin's clear) and the cycle's popcounts:
//!
//! * `produced`, `consumed`, `spilled` += PRODUCE / CONSUME / SPILL count, saturating
//!   at 2^W - 1;
//! * `q = max(0, sat(q + np) - nc - ns)` (the footprint saturates at both ends);
//! * `cyc_p` (`cyc_c`) counts cycles from the window's first PRODUCE (CONSUME) on,
//!   that cycle included, saturating;
//! * a spill onset (SPILL events, none yet in the window, outside DETECT:
//!   `onset_ok_i`) records `q_max = q` (before this cycle's events), sets `qmax_valid`
//!   and asks for an evaluation (`force_eval`).
//!
//! With `en_i` low (DISABLED, OFF) every value passes unchanged. Combinational.

use rust_hdl::prelude::*;

use crate::prim::Zext;

#[derive(LogicBlock)]
pub struct WindowEvents<const W: usize, const W1: usize, const PW: usize> {
    pub en_i: Signal<In, Bit>,
    pub onset_ok_i: Signal<In, Bit>,
    pub np_i: Signal<In, Bits<PW>>,
    pub nc_i: Signal<In, Bits<PW>>,
    pub ns_i: Signal<In, Bits<PW>>,
    pub produced_i: Signal<In, Bits<W>>,
    pub consumed_i: Signal<In, Bits<W>>,
    pub spilled_i: Signal<In, Bits<W>>,
    pub cyc_p_i: Signal<In, Bits<W>>,
    pub cyc_c_i: Signal<In, Bits<W>>,
    pub q_i: Signal<In, Bits<W>>,
    pub q_max_i: Signal<In, Bits<W>>,
    pub qmax_valid_i: Signal<In, Bit>,
    pub force_eval_i: Signal<In, Bit>,
    pub produced_o: Signal<Out, Bits<W>>,
    pub consumed_o: Signal<Out, Bits<W>>,
    pub spilled_o: Signal<Out, Bits<W>>,
    pub cyc_p_o: Signal<Out, Bits<W>>,
    pub cyc_c_o: Signal<Out, Bits<W>>,
    pub q_o: Signal<Out, Bits<W>>,
    pub q_max_o: Signal<Out, Bits<W>>,
    pub qmax_valid_o: Signal<Out, Bit>,
    pub force_eval_o: Signal<Out, Bit>,
    // the counts at W + 1 bits (for the saturating sums' carry) and at W bits (Q's
    // decrement nc + ns); the counters at W + 1 bits
    np1: Zext<PW, W1>,
    nc1: Zext<PW, W1>,
    ns1: Zext<PW, W1>,
    ncw: Zext<PW, W>,
    nsw: Zext<PW, W>,
    prod1: Zext<W, W1>,
    cons1: Zext<W, W1>,
    spil1: Zext<W, W1>,
    q1: Zext<W, W1>,
    sum_p: Signal<Local, Bits<W1>>,
    sum_c: Signal<Local, Bits<W1>>,
    sum_s: Signal<Local, Bits<W1>>,
    sum_q: Signal<Local, Bits<W1>>,
    up: Signal<Local, Bits<W>>,
    down: Signal<Local, Bits<W>>,
    zero: Constant<Bits<W>>,
    one: Constant<Bits<W>>,
    max: Constant<Bits<W>>,
    zero1: Constant<Bits<W1>>,
    zero_pw: Constant<Bits<PW>>,
    carry: Constant<Bits<8>>,
}

impl<const W: usize, const W1: usize, const PW: usize> Default for WindowEvents<W, W1, PW> {
    fn default() -> Self {
        assert!(PW < W && W1 == W + 1, "{PW}-bit counts, {W}-bit counters, {W1} = W + 1 bits");
        let max: u64 = if W == 64 { u64::MAX } else { (1u64 << W) - 1 };
        Self {
            en_i: Default::default(),
            onset_ok_i: Default::default(),
            np_i: Default::default(),
            nc_i: Default::default(),
            ns_i: Default::default(),
            produced_i: Default::default(),
            consumed_i: Default::default(),
            spilled_i: Default::default(),
            cyc_p_i: Default::default(),
            cyc_c_i: Default::default(),
            q_i: Default::default(),
            q_max_i: Default::default(),
            qmax_valid_i: Default::default(),
            force_eval_i: Default::default(),
            produced_o: Default::default(),
            consumed_o: Default::default(),
            spilled_o: Default::default(),
            cyc_p_o: Default::default(),
            cyc_c_o: Default::default(),
            q_o: Default::default(),
            q_max_o: Default::default(),
            qmax_valid_o: Default::default(),
            force_eval_o: Default::default(),
            np1: Default::default(),
            nc1: Default::default(),
            ns1: Default::default(),
            ncw: Default::default(),
            nsw: Default::default(),
            prod1: Default::default(),
            cons1: Default::default(),
            spil1: Default::default(),
            q1: Default::default(),
            sum_p: Default::default(),
            sum_c: Default::default(),
            sum_s: Default::default(),
            sum_q: Default::default(),
            up: Default::default(),
            down: Default::default(),
            zero: Constant::new(0u64.to_bits()),
            one: Constant::new(1u64.to_bits()),
            max: Constant::new(max.to_bits()),
            zero1: Constant::new(0u64.to_bits()),
            zero_pw: Constant::new(0u64.to_bits()),
            carry: Constant::new((W as u64).to_bits()),
        }
    }
}

impl<const W: usize, const W1: usize, const PW: usize> Logic for WindowEvents<W, W1, PW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.np1.i.next = self.np_i.val();
        self.nc1.i.next = self.nc_i.val();
        self.ns1.i.next = self.ns_i.val();
        self.ncw.i.next = self.nc_i.val();
        self.nsw.i.next = self.ns_i.val();
        self.prod1.i.next = self.produced_i.val();
        self.cons1.i.next = self.consumed_i.val();
        self.spil1.i.next = self.spilled_i.val();
        self.q1.i.next = self.q_i.val();
        self.produced_o.next = self.produced_i.val();
        self.consumed_o.next = self.consumed_i.val();
        self.spilled_o.next = self.spilled_i.val();
        self.cyc_p_o.next = self.cyc_p_i.val();
        self.cyc_c_o.next = self.cyc_c_i.val();
        self.q_o.next = self.q_i.val();
        self.q_max_o.next = self.q_max_i.val();
        self.qmax_valid_o.next = self.qmax_valid_i.val();
        self.force_eval_o.next = self.force_eval_i.val();
        // saturating sums: the carry out of W bits saturates
        self.sum_p.next = self.prod1.o.val() + self.np1.o.val();
        self.sum_c.next = self.cons1.o.val() + self.nc1.o.val();
        self.sum_s.next = self.spil1.o.val() + self.ns1.o.val();
        self.sum_q.next = self.q1.o.val() + self.np1.o.val();
        self.up.next = self.sum_q.val().get_bits::<W>(0);
        if (self.sum_q.val() >> self.carry.val()) != self.zero1.val() {
            self.up.next = self.max.val();
        }
        // Q leaves by CONSUME and SPILL, saturating at 0
        self.down.next = self.ncw.o.val() + self.nsw.o.val();
        if self.en_i.val() {
            if (self.ns_i.val() != self.zero_pw.val()) & (self.spilled_i.val() == self.zero.val()) & self.onset_ok_i.val() {
                self.q_max_o.next = self.q_i.val();
                self.qmax_valid_o.next = true;
                self.force_eval_o.next = true;
            }
            self.produced_o.next = self.sum_p.val().get_bits::<W>(0);
            if (self.sum_p.val() >> self.carry.val()) != self.zero1.val() {
                self.produced_o.next = self.max.val();
            }
            self.consumed_o.next = self.sum_c.val().get_bits::<W>(0);
            if (self.sum_c.val() >> self.carry.val()) != self.zero1.val() {
                self.consumed_o.next = self.max.val();
            }
            self.spilled_o.next = self.sum_s.val().get_bits::<W>(0);
            if (self.sum_s.val() >> self.carry.val()) != self.zero1.val() {
                self.spilled_o.next = self.max.val();
            }
            self.q_o.next = self.zero.val();
            if self.up.val() >= self.down.val() {
                self.q_o.next = self.up.val() - self.down.val();
            }
            if ((self.cyc_p_i.val() != self.zero.val()) | (self.np_i.val() != self.zero_pw.val())) & (self.cyc_p_i.val() != self.max.val()) {
                self.cyc_p_o.next = self.cyc_p_i.val() + self.one.val();
            }
            if ((self.cyc_c_i.val() != self.zero.val()) | (self.nc_i.val() != self.zero_pw.val())) & (self.cyc_c_i.val() != self.max.val()) {
                self.cyc_c_o.next = self.cyc_c_i.val() + self.one.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, lint_and_synth, val, LeafSim};

    #[test]
    fn window_events_is_lint_clean_and_synthesizable() {
        lint_and_synth(WindowEvents::<8, 9, 2>::default(), "qc_window_events_w8_p2");
        lint_and_synth(WindowEvents::<16, 17, 3>::default(), "qc_window_events_w16_p3");
    }

    /// In: `(en, onset_ok, np, nc, ns, produced, consumed, spilled, cyc_p, cyc_c, q, q_max, qmax_valid, force_eval)`.
    type In = (bool, bool, u128, u128, u128, u128, u128, u128, u128, u128, u128, u128, bool, bool);
    /// Out: `(produced, consumed, spilled, cyc_p, cyc_c, q, q_max, qmax_valid, force_eval)`.
    type Out = (u128, u128, u128, u128, u128, u128, u128, bool, bool);

    fn eval(s: &mut LeafSim<WindowEvents<8, 9, 3>>, i: In) -> Out {
        s.en_i.next = i.0;
        s.onset_ok_i.next = i.1;
        s.np_i.next = bv(i.2);
        s.nc_i.next = bv(i.3);
        s.ns_i.next = bv(i.4);
        s.produced_i.next = bv(i.5);
        s.consumed_i.next = bv(i.6);
        s.spilled_i.next = bv(i.7);
        s.cyc_p_i.next = bv(i.8);
        s.cyc_c_i.next = bv(i.9);
        s.q_i.next = bv(i.10);
        s.q_max_i.next = bv(i.11);
        s.qmax_valid_i.next = i.12;
        s.force_eval_i.next = i.13;
        s.settle();
        (val(&s.produced_o), val(&s.consumed_o), val(&s.spilled_o), val(&s.cyc_p_o), val(&s.cyc_c_o), val(&s.q_o), val(&s.q_max_o), s.qmax_valid_o.val(), s.force_eval_o.val())
    }

    /// 8-bit counters, worked by hand.
    #[test]
    fn window_events_by_hand() {
        let mut s = LeafSim::comb(WindowEvents::<8, 9, 3>::default());
        // counts add; Q 10 + 3 - 5 - 4 = 4; cyc_p starts with the first PRODUCE, cyc_c counts on;
        // a spill with some already in the window is no onset
        assert_eq!(eval(&mut s, (true, true, 3, 5, 4, 1, 2, 3, 0, 7, 10, 9, false, false)), (4, 7, 7, 1, 8, 4, 9, false, false));
        // saturation: 250 + 7 = 255, Q 254 + 3 -> 255 - 1 = 254, cycle counters stay at 255
        assert_eq!(eval(&mut s, (true, true, 7, 1, 0, 250, 255, 0, 255, 255, 254, 0, false, false)), (255, 255, 0, 255, 255, 254, 0, false, false));
        // Q saturates at 0: 2 + 0 - 3 - 1; no PRODUCE: cyc_p has not started and stays 0;
        // the window's first spill is an onset: q_max = 2
        assert_eq!(eval(&mut s, (true, true, 0, 3, 1, 0, 0, 0, 0, 0, 2, 0, false, false)), (0, 3, 1, 0, 1, 0, 2, true, true));
        // spill onset: q_max takes Q before the events (20), valid, an evaluation is asked for
        assert_eq!(eval(&mut s, (true, true, 1, 0, 2, 5, 5, 0, 3, 3, 20, 7, false, false)), (6, 5, 2, 4, 4, 19, 20, true, true));
        // the same in DETECT (onset_ok low): no onset
        assert_eq!(eval(&mut s, (true, false, 1, 0, 2, 5, 5, 0, 3, 3, 20, 7, false, false)), (6, 5, 2, 4, 4, 19, 7, false, false));
        // disabled: everything passes unchanged
        assert_eq!(eval(&mut s, (false, true, 7, 7, 7, 5, 6, 0, 0, 9, 20, 7, true, true)), (5, 6, 0, 0, 9, 20, 7, true, true));
    }
}
