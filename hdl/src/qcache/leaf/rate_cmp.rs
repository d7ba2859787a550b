//! The division-free rate comparison of spec §1.5 with the zero-count terms of our
//! design note (README Q-cache, "a window with production and no consumption"), as
//! `golden::qcache::monitor::RateMonitor::evaluate` computes it:
//!
//! * `lhs = produced·cyc_c` (∝ R_P) and `rhs = consumed·cyc_p` (∝ R_C), `W2 = 2·W` bits,
//!   by two [`WideMul`] primitives;
//! * `tol = max(lhs, rhs) >> EQ_TOL_SHIFT`;
//! * `gt_o = consumed == 0 || lhs - rhs > tol` (R_P > R_C: a window without CONSUME
//!   has R_C = 0), `lt_o = produced == 0 || rhs - lhs > tol`, neither: rates equal;
//! * `rmax_o`, `rmin_o`: the larger and the smaller product (the magnitude's dividend
//!   and divisor), `rc_zero_o`: `consumed == 0` (the magnitude saturates).
//!
//! Combinational. `EQ_TOL_SHIFT` is a constructor argument (a constant of the module).

use rust_hdl::prelude::*;

use crate::prim::body;

/// `p_o = a_i * b_i`, unsigned, `W x W -> W2 = 2W` bits (rust-hdl multiplies only
/// 16 x 16 bits, so the product is a primitive with a hand-written body).
#[derive(LogicBlock, Default)]
pub struct WideMul<const W: usize, const W2: usize> {
    pub a_i: Signal<In, Bits<W>>,
    pub b_i: Signal<In, Bits<W>>,
    pub p_o: Signal<Out, Bits<W2>>,
}

impl<const W: usize, const W2: usize> Logic for WideMul<W, W2> {
    fn update(&mut self) {
        self.p_o.next = (self.a_i.val().to_u128() * self.b_i.val().to_u128()).to_bits();
    }

    fn connect(&mut self) {
        self.p_o.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(W2 == 2 * W && W <= 64, "a {W} x {W} product is {} bits, not {W2}", 2 * W);
        body(
            &format!("qc_mul_w{W}"),
            "unsigned multiplier, full-width product",
            &[("W", W)],
            "Combinational; no handshake. p_o = a_i * b_i (2W bits).",
            &format!("always @(*) p_o = {{{W}'d0, a_i}} * {{{W}'d0, b_i}};"),
        )
    }
}

#[derive(LogicBlock)]
pub struct RateCmp<const W: usize, const W2: usize> {
    pub produced_i: Signal<In, Bits<W>>,
    pub consumed_i: Signal<In, Bits<W>>,
    pub cyc_p_i: Signal<In, Bits<W>>,
    pub cyc_c_i: Signal<In, Bits<W>>,
    /// R_P > R_C beyond the tolerance, or no CONSUME in the window.
    pub gt_o: Signal<Out, Bit>,
    /// R_P < R_C beyond the tolerance, or no PRODUCE in the window.
    pub lt_o: Signal<Out, Bit>,
    /// No CONSUME in the window (R_C = 0).
    pub rc_zero_o: Signal<Out, Bit>,
    pub rmax_o: Signal<Out, Bits<W2>>,
    pub rmin_o: Signal<Out, Bits<W2>>,
    lhs: WideMul<W, W2>,
    rhs: WideMul<W, W2>,
    tol: Signal<Local, Bits<W2>>,
    zero: Constant<Bits<W>>,
    tol_shift: Constant<Bits<4>>,
}

impl<const W: usize, const W2: usize> RateCmp<W, W2> {
    /// The comparison with tolerance `max >> eq_tol_shift` (1..=8, spec §1.5).
    pub fn new(eq_tol_shift: u32) -> Self {
        assert!((1..=8).contains(&eq_tol_shift), "EQ_TOL_SHIFT {eq_tol_shift} outside 1..=8");
        Self {
            produced_i: Default::default(),
            consumed_i: Default::default(),
            cyc_p_i: Default::default(),
            cyc_c_i: Default::default(),
            gt_o: Default::default(),
            lt_o: Default::default(),
            rc_zero_o: Default::default(),
            rmax_o: Default::default(),
            rmin_o: Default::default(),
            lhs: Default::default(),
            rhs: Default::default(),
            tol: Default::default(),
            zero: Constant::new(0u64.to_bits()),
            tol_shift: Constant::new((eq_tol_shift as u64).to_bits()),
        }
    }
}

impl<const W: usize, const W2: usize> Logic for RateCmp<W, W2> {
    #[hdl_gen]
    fn update(&mut self) {
        self.lhs.a_i.next = self.produced_i.val();
        self.lhs.b_i.next = self.cyc_c_i.val();
        self.rhs.a_i.next = self.consumed_i.val();
        self.rhs.b_i.next = self.cyc_p_i.val();
        if self.lhs.p_o.val() > self.rhs.p_o.val() {
            self.rmax_o.next = self.lhs.p_o.val();
            self.rmin_o.next = self.rhs.p_o.val();
        } else {
            self.rmax_o.next = self.rhs.p_o.val();
            self.rmin_o.next = self.lhs.p_o.val();
        }
        self.tol.next = self.rmax_o.val() >> self.tol_shift.val();
        self.rc_zero_o.next = self.consumed_i.val() == self.zero.val();
        self.gt_o.next = (self.consumed_i.val() == self.zero.val()) | ((self.lhs.p_o.val() > self.rhs.p_o.val()) & ((self.lhs.p_o.val() - self.rhs.p_o.val()) > self.tol.val()));
        self.lt_o.next = (self.produced_i.val() == self.zero.val()) | ((self.rhs.p_o.val() > self.lhs.p_o.val()) & ((self.rhs.p_o.val() - self.lhs.p_o.val()) > self.tol.val()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, check_outs, emit, lint_and_synth, outs, rtl_run, val, LeafSim, Rng};

    #[test]
    fn rate_cmp_is_lint_clean_and_synthesizable() {
        lint_and_synth(RateCmp::<8, 16>::new(3), "qc_rate_cmp_w8_t3");
        lint_and_synth(RateCmp::<16, 32>::new(1), "qc_rate_cmp_w16_t1");
    }

    /// `(gt, lt, rc_zero, rmax, rmin)` for `(produced, consumed, cyc_p, cyc_c)`.
    fn cmp<const W: usize, const W2: usize>(s: &mut LeafSim<RateCmp<W, W2>>, p: u128, c: u128, cp: u128, cc: u128) -> (bool, bool, bool, u128, u128) {
        s.produced_i.next = bv(p);
        s.consumed_i.next = bv(c);
        s.cyc_p_i.next = bv(cp);
        s.cyc_c_i.next = bv(cc);
        s.settle();
        (s.gt_o.val(), s.lt_o.val(), s.rc_zero_o.val(), val(&s.rmax_o), val(&s.rmin_o))
    }

    /// Values worked by hand with EQ_TOL_SHIFT = 3 (12.5%).
    #[test]
    fn rate_cmp_by_hand() {
        let mut s = LeafSim::comb(RateCmp::<16, 32>::new(3));
        // 10 lines in 11 cycles vs 10 lines in 10 cycles: lhs 100, rhs 110, tol 13: equal
        assert_eq!(cmp(&mut s, 10, 10, 11, 10), (false, false, false, 110, 100));
        // lhs 100, rhs 114: 14 > 114 >> 3 = 14? no (14 is not > 14): equal
        assert_eq!(cmp(&mut s, 10, 6, 19, 10), (false, false, false, 114, 100));
        // lhs 100, rhs 115: 15 > 14: R_C faster
        assert_eq!(cmp(&mut s, 10, 5, 23, 10), (false, true, false, 115, 100));
        // 2:1 -- 200 lines in 100 cycles against 100 lines in 100 cycles: lhs 20000, rhs 10000
        assert_eq!(cmp(&mut s, 200, 100, 100, 100), (true, false, false, 20000, 10000));
        // no CONSUME (cyc_c 0): both products 0, but R_C = 0 < R_P
        assert_eq!(cmp(&mut s, 300, 0, 500, 0), (true, false, true, 0, 0));
        // no PRODUCE: R_P = 0 < R_C
        assert_eq!(cmp(&mut s, 0, 40, 0, 90), (false, true, false, 0, 0));
        // the largest products: 0xffff x 0xffff each, equal
        assert_eq!(cmp(&mut s, 0xffff, 0xffff, 0xffff, 0xffff), (false, false, false, 0xfffe_0001, 0xfffe_0001));
        // tolerance 1/2 (shift 1): 100 vs 149 equal (49 <= 74), 100 vs 201 not (101 > 100)
        let mut h = LeafSim::comb(RateCmp::<8, 16>::new(1));
        assert_eq!(cmp(&mut h, 10, 149, 1, 10), (false, false, false, 149, 100));
        assert_eq!(cmp(&mut h, 10, 201, 1, 10), (false, true, false, 201, 100));
    }

    /// The emitted Verilog (with the hand-written `qc_mul` body, whose `update()` is only
    /// a model) under Icarus, on the hand-worked vectors: 2:1, equal within 12.5%, just
    /// outside it, no CONSUME, no PRODUCE, the largest products.
    #[test]
    fn rate_cmp_verilog_by_hand() {
        let ms = emit(RateCmp::<16, 32>::new(3), "qc_rate_cmp_w16_t3");
        let vs: [([u128; 4], [u128; 5]); 6] = [
            ([200, 100, 100, 100], [1, 0, 0, 20000, 10000]),
            ([10, 6, 19, 10], [0, 0, 0, 114, 100]),
            ([10, 5, 23, 10], [0, 1, 0, 115, 100]),
            ([300, 0, 500, 0], [1, 0, 1, 0, 0]),
            ([0, 40, 0, 90], [0, 1, 0, 0, 0]),
            ([0xffff, 0xfffe, 0xffff, 0xffff], [0, 0, 0, 0xfffe_0001, 0xfffd_0002]),
        ];
        let cycles: Vec<Vec<(&str, u128)>> = vs.iter().map(|(i, _)| vec![("produced_i", i[0]), ("consumed_i", i[1]), ("cyc_p_i", i[2]), ("cyc_c_i", i[3])]).collect();
        let want: Vec<_> = vs.iter().map(|(_, o)| outs(&[("gt_o", o[0]), ("lt_o", o[1]), ("rc_zero_o", o[2]), ("rmax_o", o[3]), ("rmin_o", o[4])])).collect();
        check_outs(&rtl_run(&ms, "qc_rate_cmp_w16_t3", &cycles), &want, 0).unwrap_or_else(|e| panic!("{e}"));
    }

    /// The thesis-cost width (64-bit counters, 128-bit products), by hand: 2^40 lines
    /// in 2^20 cycles against 2^39 in 2^20: R_P = 2 R_C; a product of two maxima.
    #[test]
    fn rate_cmp_at_64_bits_by_hand() {
        let mut s = LeafSim::comb(RateCmp::<64, 128>::new(3));
        assert_eq!(cmp(&mut s, 1 << 40, 1 << 39, 1 << 20, 1 << 20), (true, false, false, 1 << 60, 1 << 59));
        let m = u64::MAX as u128;
        assert_eq!(cmp(&mut s, m, m - 1, m, m), (false, false, false, m * m, (m - 1) * m));
    }

    /// Random counts against the spec §1.5 formula written out on u128.
    #[test]
    fn rate_cmp_matches_the_formula() {
        let mut s = LeafSim::comb(RateCmp::<16, 32>::new(2));
        let mut r = Rng::new(5);
        for k in 0..2000 {
            let w = 1 + r.below(16) as u32;
            let (p, c, cp, cc) = (r.bits(w), r.bits(w), r.bits(16), r.bits(16));
            let _ = k;
            let (l, h) = (p * cc, c * cp);
            let (mx, mn) = (l.max(h), l.min(h));
            let tol = mx >> 2;
            let want = (c == 0 || (l > h && l - h > tol), p == 0 || (h > l && h - l > tol), c == 0, mx, mn);
            assert_eq!(cmp(&mut s, p, c, cp, cc), want, "vector {k}: {p} {c} {cp} {cc}");
        }
    }
}
