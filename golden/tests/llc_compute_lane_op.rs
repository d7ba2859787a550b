//! Tests of `golden::llc_compute::lane_op` (`golden/src/llc_compute/lane_op.rs`).

use golden::llc_compute::lane_op::*;
use golden::llc_compute::packet::ComputePacket;

#[test]
fn hand_values() {
    assert_eq!(alu(0, false, 7, u32::MAX), 6);
    assert_eq!(alu(3, false, (-3i32) as u32, 2), (-3i32) as u32);
    assert_eq!(f32::from_bits(alu(10, true, 1.5f32.to_bits(), 4.0f32.to_bits())), 6.0);
    assert!(cmp(2, false, (-1i32) as u32, 0) && !cmp(2, true, 1.0f32.to_bits(), 0.5f32.to_bits()));
    // TRIAD (pattern 9): a = b + s*c with b the second load: op0 = FMUL(c, s), op1 = FADD(b, t)
    let cp = |pattern, op0, op1, dtype, imm, mask| ComputePacket { pattern, op0, op1, dtype, imm, mask, ..Default::default() };
    let (r, _) = chain_result(&cp(9, 10, 8, true, 3.0f32.to_bits(), 1), &[1.0f32.to_bits()], &[2.0f32.to_bits()]);
    assert_eq!(f32::from_bits(r[0]), 7.0);
    let (_, bm) = chain_result(&cp(6, 0, 0, false, 0, 0b0111), &[0, 5, 0, 0], &[]);
    assert_eq!(bm, 0b0101, "DENSITY: zero lanes among the active ones");
}
