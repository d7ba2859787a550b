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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, lint_and_synth, val, LeafSim, Rng};

    #[test]
    fn ratio_div_is_lint_clean_and_synthesizable() {
        lint_and_synth(RatioDiv::<16>::new(None), "qc_ratio_div_w16");
        lint_and_synth(RatioDiv::<32>::new(None), "qc_ratio_div_w32");
    }

    fn idle<const W2: usize>(s: &mut LeafSim<RatioDiv<W2>>) {
        s.clear_i.next = false;
        s.load_i.next = false;
        s.start_i.next = false;
        s.inf_i.next = false;
    }

    /// Start a division of `rmax / rmin` (R_C = 0 if `inf`), then 8 more edges; the
    /// ratio after each edge.
    fn divide<const W2: usize>(s: &mut LeafSim<RatioDiv<W2>>, rmax: u128, rmin: u128, inf: bool) -> Vec<u128> {
        idle(s);
        s.start_i.next = true;
        s.inf_i.next = inf;
        s.rmax_i.next = bv(rmax);
        s.rmin_i.next = bv(rmin);
        s.tick();
        idle(s);
        s.rmax_i.next = bv(0);
        s.rmin_i.next = bv(0);
        let mut v = vec![val(&s.ratio_o)];
        for _ in 0..8 {
            s.tick();
            v.push(val(&s.ratio_o));
        }
        v
    }

    fn fresh<const W2: usize>(bug: Option<DivBug>) -> LeafSim<RatioDiv<W2>> {
        let mut s = LeafSim::clocked(RatioDiv::<W2>::new(bug), |b| &mut b.clk_i);
        s.reset(|b| &mut b.rst_i);
        s
    }

    /// Worked by hand: 2.0 = 0x20 (64 / 32: remainder 4, divisor 32; one quotient bit a
    /// cycle, most significant first, the ratio after the start and each step:
    /// 0, 0, 0, 1, 2, 4, 8, 16, 32), 1.5 = 0x18, 10/3 = floor(160/3) = 53 = 0x35, 1.0 =
    /// 0x10, 15.94 = 0xff (255/16 just below 16), 16.0 and more saturate at the start,
    /// R_C = 0 saturates whatever the products, rmin 0 divides by 1.
    #[test]
    fn ratio_div_by_hand() {
        let mut s = fresh::<16>(None);
        assert_eq!(divide(&mut s, 0x40, 0x20, false), [0, 0, 0, 1, 2, 4, 8, 16, 32]);
        assert_eq!(*divide(&mut s, 3, 2, false).last().unwrap(), 0x18);
        assert_eq!(*divide(&mut s, 10, 3, false).last().unwrap(), 0x35);
        assert_eq!(*divide(&mut s, 777, 777, false).last().unwrap(), 0x10);
        assert_eq!(*divide(&mut s, 255, 16, false).last().unwrap(), 0xff);
        assert_eq!(divide(&mut s, 256, 16, false), [0xff; 9]);
        assert_eq!(divide(&mut s, 0xffff, 1, false), [0xff; 9]);
        assert_eq!(divide(&mut s, 5, 7, true), [0xff; 9]);
        assert_eq!(*divide(&mut s, 15, 0, false).last().unwrap(), 0xf0);
        // the largest divisor: 0xfffe / 0xffff = 0.99998 -> 15 sixteenths
        assert_eq!(*divide(&mut s, 0xfffe, 0xffff, false).last().unwrap(), 0x0f);
        // a load, then clear
        idle(&mut s);
        s.load_i.next = true;
        s.load_ratio_i.next = bv(0x12);
        s.tick();
        assert_eq!(val(&s.ratio_o), 0x12);
        idle(&mut s);
        s.clear_i.next = true;
        s.tick();
        assert_eq!(val(&s.ratio_o), 0);
        // the planted bug stops one step early: 2.0 reads 1.0
        let mut b = fresh::<16>(Some(DivBug::SevenSteps));
        assert_eq!(*divide(&mut b, 0x40, 0x20, false).last().unwrap(), 0x10);
    }

    /// 128-bit products (the thesis-cost build): 2^100 / 2^99 = 2.0, 3·2^90 / 2^90 = 3.0,
    /// and a divisor near 2^128 (the shifted remainder needs its 129th bit).
    #[test]
    fn ratio_div_at_128_bits_by_hand() {
        let mut s = fresh::<128>(None);
        assert_eq!(*divide(&mut s, 1 << 100, 1 << 99, false).last().unwrap(), 0x20);
        assert_eq!(*divide(&mut s, 3 << 90, 1 << 90, false).last().unwrap(), 0x30);
        assert_eq!(*divide(&mut s, u128::MAX, u128::MAX - 1, false).last().unwrap(), 0x10);
        assert_eq!(*divide(&mut s, u128::MAX - 1, u128::MAX, false).last().unwrap(), 0x0f);
    }

    /// Random products (rmax >= rmin, as the comparison gives them) against
    /// `golden::qcache::monitor::q44`, whose division is written differently (integer
    /// part, then four fraction bits), at 16 and 32 bits.
    #[test]
    fn ratio_div_matches_the_golden_q44() {
        let mut r = Rng::new(9);
        let mut s16 = fresh::<16>(None);
        let mut s32 = fresh::<32>(None);
        for k in 0..300 {
            for (w, is32) in [(16u32, false), (32, true)] {
                let (wa, wb) = (1 + r.below(w as u64) as u32, 1 + r.below(w as u64) as u32);
                let (a, b) = (r.bits(wa), r.bits(wb));
                let (mx, mn) = (a.max(b), a.min(b));
                let got = if is32 { *divide(&mut s32, mx, mn, false).last().unwrap() } else { *divide(&mut s16, mx, mn, false).last().unwrap() };
                assert_eq!(got, golden::qcache::monitor::q44(mx, mn) as u128, "vector {k}, {w} bits: {mx:#x} / {mn:#x}");
            }
        }
    }
}
