//! Tests of `hdl_gen::qcache::leaf::ratio_div` (`hdl/src/qcache/leaf/ratio_div.rs`).

use crate::leaf_check::{bv, lint_and_synth, val, LeafSim, Rng};
use hdl_gen::qcache::leaf::ratio_div::*;

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
