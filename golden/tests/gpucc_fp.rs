//! Tests of `golden::gpucc::fp` (`golden/src/gpucc/fp.rs`).

use golden::gpucc::cr::op;
use golden::gpucc::fp::*;

const ONE: u32 = 0x3F80_0000;
const MIN_NORMAL: u32 = 0x0080_0000; // 2^-126
const DENORM: u32 = 0x0000_0001; // 2^-149
const NEG_DENORM: u32 = 0x8000_0001;

#[test]
fn denormal_inputs_read_as_zero() {
    // 1.0 + 2^-149 would round to 1.0 anyway; use an op where it shows:
    // denorm * 2^100 = 2^-49 without FTZ, 0 with FTZ.
    let two_100 = (127 + 100) << 23;
    assert_eq!(fmul(DENORM, two_100), 0);
    assert_eq!(fmul(NEG_DENORM, two_100), 0x8000_0000, "sign of the flushed zero is kept");
    assert_eq!(fadd(DENORM, DENORM), 0);
    // min normal is not flushed
    assert_eq!(fmul(MIN_NORMAL, ONE), MIN_NORMAL);
}

#[test]
fn denormal_results_flush_to_zero() {
    // 2^-126 * 0.5 = 2^-127 (a denormal) -> +0
    let half = 0x3F00_0000;
    assert_eq!(fmul(MIN_NORMAL, half), 0);
    // 1.5*2^-126 - 2^-126 = 2^-127 -> 0
    assert_eq!(fsub(0x00C0_0000, MIN_NORMAL), 0);
    // fused: 2^-126 * 0.5 + 0 = denormal -> flushed
    assert_eq!(fmad(MIN_NORMAL, half, 0), 0);
}

#[test]
fn nan_is_canonical() {
    let snan_payload = 0x7F80_0001; // signalling NaN with payload
    let neg_qnan = 0xFFC1_2345;
    assert_eq!(fadd(snan_payload, ONE), CANONICAL_NAN);
    assert_eq!(fmul(neg_qnan, ONE), CANONICAL_NAN);
    assert_eq!(fmad(ONE, ONE, neg_qnan), CANONICAL_NAN);
    // inf - inf and 0 * inf produce NaN
    let inf = 0x7F80_0000;
    assert_eq!(fsub(inf, inf), CANONICAL_NAN);
    assert_eq!(fmul(0, inf), CANONICAL_NAN);
    assert_eq!(fmin(neg_qnan, snan_payload), CANONICAL_NAN);
    assert_eq!(fmin(neg_qnan, ONE), ONE);
    assert_eq!(fmax(ONE, snan_payload), ONE);
}

#[test]
fn fused_differs_from_unfused() {
    // a = 1 + 2^-12, a*a = 1 + 2^-11 + 2^-24. The unfused product rounds the
    // 2^-24 away (tie to even -> 1 + 2^-11); a*a - (1 + 2^-11) is then 0 unfused
    // and exactly 2^-24 fused.
    let a = (1.0f32 + 2f32.powi(-12)).to_bits();
    let c = (-(1.0f32 + 2f32.powi(-11))).to_bits();
    assert_eq!(fmad(a, a, c), 2f32.powi(-24).to_bits());
    assert_eq!(fmad_unfused(a, a, c), 0);
}

#[test]
fn round_to_nearest_even() {
    // 1 + 2^-24 is exactly halfway between 1 and 1 + 2^-23: ties to even -> 1.
    let tiny = 2f32.powi(-24).to_bits();
    assert_eq!(fadd(ONE, tiny), ONE);
    // (1 + 2^-23) + 2^-24: halfway between 1+2^-23 (odd) and 1+2^-22 (even) -> up.
    let odd = (1.0f32 + 2f32.powi(-23)).to_bits();
    assert_eq!(fadd(odd, tiny), (1.0f32 + 2f32.powi(-22)).to_bits());
}

#[test]
fn signed_zero_min_max() {
    let nz = 0x8000_0000;
    assert_eq!(fmin(0, nz), nz);
    assert_eq!(fmin(nz, 0), nz);
    assert_eq!(fmax(0, nz), 0);
    assert_eq!(fmax(nz, nz), nz);
    assert_eq!(fmin(ONE, 0x4000_0000), ONE);
    assert_eq!(fmax(ONE, 0x4000_0000), 0x4000_0000);
}

#[test]
fn integer_ops_wrap() {
    assert_eq!(exec(op::IADD, u32::MAX, 2, 0), Some(1));
    assert_eq!(exec(op::ISUB, 0, 1, 0), Some(u32::MAX));
    assert_eq!(exec(op::IMUL, 0x1_0001, 0x1_0001, 0), Some(0x0002_0001));
    assert_eq!(exec(op::IMAD, 3, 4, 5), Some(17));
    assert_eq!(exec(op::IMIN, (-3i32) as u32, 2, 0), Some((-3i32) as u32));
    assert_eq!(exec(op::IMAX, (-3i32) as u32, 2, 0), Some(2));
    assert_eq!(exec(op::SHL, 1, 33, 0), Some(2));
    assert_eq!(exec(op::SHR, 0x8000_0000, 31, 0), Some(1));
    assert_eq!(exec(op::SAR, 0x8000_0000, 31, 0), Some(u32::MAX));
    assert_eq!(exec(op::MOV, 7, 9, 9), Some(7));
    assert_eq!(exec(op::LD, 7, 9, 9), None);
    assert_eq!(exec(op::NOP, 7, 9, 9), None);
}
