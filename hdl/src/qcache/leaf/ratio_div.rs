//! The request magnitude (spec §1.5): an 8-bit unsigned 4.4 register, loaded with a
//! constant step (`MIN_STEP_Q44`, `UP_STEP_Q44`) or computed as
//! `ratio_q44 = sat8((rmax << 4) / max(1, rmin))` by a restoring division, one quotient
//! bit per cycle, 8 cycles, during the RC_LAT delay (the thesis: rate maths is
//! infrequent and latency tolerant), as `golden::qcache::monitor::q44` defines it.
//!
//! At the clock edge, in priority order:
//! * `rst_i` or `clear_i`: everything 0;
//! * `start_i`: if `inf_i` (R_C = 0: unbounded) or `rmax >> 4 >= max(1, rmin)` (16.0 or
//!   more) the ratio saturates to 0xff at once; otherwise the ratio is cleared and the
//!   division starts: remainder `rmax >> 4`, the four low bits of `rmax` still to shift
//!   in, divisor `max(1, rmin)`, 8 steps;
//! * `load_i`: the ratio takes `load_ratio_i`;
//! * a step while steps remain: the next low bit (then zeros) is shifted into the
//!   remainder; if the remainder reaches the divisor it is subtracted and a 1 enters
//!   the ratio, else a 0. The remainder stays below the divisor, so the shifted
//!   remainder `{rem, b}` (W2 + 1 bits) reaches the divisor when its top bit (`rem`'s
//!   msb) is set or its low W2 bits do, and the difference fits W2 bits.
//!
//! `ratio_o` is the register. The monitor starts a division only with no decision
//! waiting, and emits the decision RC_LAT >= 10 cycles later, after the 8 steps.

use rust_hdl::prelude::*;

use crate::prim::Reg;

/// A planted bug, for showing that the lockstep co-simulation catches a wrong leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivBug {
    /// The division stops after 7 steps (the ratio is half the right one, 3.3 fixed point).
    SevenSteps,
}

#[derive(LogicBlock)]
pub struct RatioDiv<const W2: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub clear_i: Signal<In, Bit>,
    pub load_i: Signal<In, Bit>,
    pub load_ratio_i: Signal<In, Bits<8>>,
    pub start_i: Signal<In, Bit>,
    pub inf_i: Signal<In, Bit>,
    pub rmax_i: Signal<In, Bits<W2>>,
    pub rmin_i: Signal<In, Bits<W2>>,
    pub ratio_o: Signal<Out, Bits<8>>,
    ratio_r: Reg<8>,
    rem_r: Reg<W2>,
    den_r: Reg<W2>,
    low_r: Reg<4>,
    step_r: Reg<4>,
    den: Signal<Local, Bits<W2>>,
    shifted: Signal<Local, Bits<W2>>,
    zero: Constant<Bits<W2>>,
    one: Constant<Bits<W2>>,
    zero4: Constant<Bits<4>>,
    four: Constant<Bits<4>>,
    steps: Constant<Bits<4>>,
    step1: Constant<Bits<4>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    sat: Constant<Bits<8>>,
    msb: Constant<Bits<8>>,
}

impl<const W2: usize> RatioDiv<W2> {
    pub fn new(bug: Option<DivBug>) -> Self {
        let steps: u64 = if bug == Some(DivBug::SevenSteps) { 7 } else { 8 };
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            clear_i: Default::default(),
            load_i: Default::default(),
            load_ratio_i: Default::default(),
            start_i: Default::default(),
            inf_i: Default::default(),
            rmax_i: Default::default(),
            rmin_i: Default::default(),
            ratio_o: Default::default(),
            ratio_r: Default::default(),
            rem_r: Default::default(),
            den_r: Default::default(),
            low_r: Default::default(),
            step_r: Default::default(),
            den: Default::default(),
            shifted: Default::default(),
            zero: Constant::new(0u64.to_bits()),
            one: Constant::new(1u64.to_bits()),
            zero4: Constant::new(0u64.to_bits()),
            four: Constant::new(4u64.to_bits()),
            steps: Constant::new(steps.to_bits()),
            step1: Constant::new(1u64.to_bits()),
            zero8: Constant::new(0u64.to_bits()),
            one8: Constant::new(1u64.to_bits()),
            sat: Constant::new(0xffu64.to_bits()),
            msb: Constant::new((W2 as u64 - 1).to_bits()),
        }
    }
}

impl<const W2: usize> Logic for RatioDiv<W2> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ratio_r.clk_i.next = self.clk_i.val();
        self.rem_r.clk_i.next = self.clk_i.val();
        self.den_r.clk_i.next = self.clk_i.val();
        self.low_r.clk_i.next = self.clk_i.val();
        self.step_r.clk_i.next = self.clk_i.val();
        self.ratio_r.rst_i.next = self.rst_i.val();
        self.rem_r.rst_i.next = self.rst_i.val();
        self.den_r.rst_i.next = self.rst_i.val();
        self.low_r.rst_i.next = self.rst_i.val();
        self.step_r.rst_i.next = self.rst_i.val();

        self.ratio_r.d_i.next = self.ratio_r.q_o.val();
        self.rem_r.d_i.next = self.rem_r.q_o.val();
        self.den_r.d_i.next = self.den_r.q_o.val();
        self.low_r.d_i.next = self.low_r.q_o.val();
        self.step_r.d_i.next = self.step_r.q_o.val();

        // one restoring step: shift the next low bit into the remainder; {rem, b} >= den
        // when rem's msb (the shifted-out bit) is set or the low W2 bits reach den
        self.shifted.next = self.rem_r.q_o.val() << self.one8.val();
        if self.low_r.q_o.val().get_bit(3) {
            self.shifted.next = (self.rem_r.q_o.val() << self.one8.val()) | self.one.val();
        }
        if self.step_r.q_o.val() != self.zero4.val() {
            if ((self.rem_r.q_o.val() >> self.msb.val()) != self.zero.val()) | (self.shifted.val() >= self.den_r.q_o.val()) {
                self.rem_r.d_i.next = self.shifted.val() - self.den_r.q_o.val();
                self.ratio_r.d_i.next = (self.ratio_r.q_o.val() << self.one8.val()) | self.one8.val();
            } else {
                self.rem_r.d_i.next = self.shifted.val();
                self.ratio_r.d_i.next = self.ratio_r.q_o.val() << self.one8.val();
            }
            self.low_r.d_i.next = self.low_r.q_o.val() << self.one8.val();
            self.step_r.d_i.next = self.step_r.q_o.val() - self.step1.val();
        }

        self.den.next = self.rmin_i.val();
        if self.rmin_i.val() == self.zero.val() {
            self.den.next = self.one.val();
        }
        if self.start_i.val() {
            if self.inf_i.val() | ((self.rmax_i.val() >> self.four.val()) >= self.den.val()) {
                self.ratio_r.d_i.next = self.sat.val();
            } else {
                self.ratio_r.d_i.next = self.zero8.val();
                self.rem_r.d_i.next = self.rmax_i.val() >> self.four.val();
                self.low_r.d_i.next = self.rmax_i.val().get_bits::<4>(0);
                self.den_r.d_i.next = self.den.val();
                self.step_r.d_i.next = self.steps.val();
            }
        } else if self.load_i.val() {
            self.ratio_r.d_i.next = self.load_ratio_i.val();
        }
        if self.clear_i.val() {
            self.ratio_r.d_i.next = self.zero8.val();
            self.rem_r.d_i.next = self.zero.val();
            self.den_r.d_i.next = self.zero.val();
            self.low_r.d_i.next = self.zero4.val();
            self.step_r.d_i.next = self.zero4.val();
        }
        self.ratio_o.next = self.ratio_r.q_o.val();
    }
}
