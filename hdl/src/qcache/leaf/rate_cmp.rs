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
