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
