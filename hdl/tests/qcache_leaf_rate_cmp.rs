//! Tests of `hdl_gen::qcache::leaf::rate_cmp` (`hdl/src/qcache/leaf/rate_cmp.rs`).

use crate::leaf_check::{bv, check_outs, emit, lint_and_synth, outs, rtl_run, val, LeafSim, Rng};
use hdl_gen::qcache::leaf::rate_cmp::*;

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
