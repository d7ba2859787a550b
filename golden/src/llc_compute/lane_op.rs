//! What the 32-lane ALU computes (spec §2.3 opcode table, §2.2 pattern semantics), lane
//! by lane on 32-bit words; inactive lanes give 0 (and bitmap bit 0).

use super::packet::ComputePacket;

/// One ALU op on one lane (`fp`: the operands are f32 bit patterns).
pub fn alu(op: u32, fp: bool, a: u32, b: u32) -> u32 {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    let f = |x: f32| x.to_bits();
    match op {
        0 => a.wrapping_add(b),
        1 => a.wrapping_sub(b),
        2 => a.wrapping_mul(b),
        3 => (a as i32).min(b as i32) as u32,
        4 => (a as i32).max(b as i32) as u32,
        5 => a & b,
        6 => a | b,
        7 => a ^ b,
        8 => f(fa + fb),
        9 => f(fa - fb),
        10 => f(fa * fb),
        11 => f(fa / fb),
        12 => f(fa.min(fb)),
        13 => f(fa.max(fb)),
        // unary, sub-op in b[3:0]: mov, int neg, int abs, f neg, f abs, i2f, f2i
        14 => match b & 0xf {
            1 => (a as i32).wrapping_neg() as u32,
            2 => (a as i32).wrapping_abs() as u32,
            3 => f(-fa),
            4 => f(fa.abs()),
            5 => f(a as i32 as f32),
            6 => fa as i32 as u32,
            _ => a,
        },
        _ => {
            let _ = fp;
            0
        }
    }
}

/// One compare on one lane (0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE).
pub fn cmp(op: u32, fp: bool, a: u32, b: u32) -> bool {
    let o = if fp { f32::from_bits(a).partial_cmp(&f32::from_bits(b)) } else { Some((a as i32).cmp(&(b as i32))) };
    use std::cmp::Ordering::*;
    match (op, o) {
        (0, Some(Equal)) => true,
        (1, o) => o != Some(Equal),
        (2, Some(Less)) => true,
        (3, Some(Less | Equal)) => true,
        (4, Some(Greater)) => true,
        (5, Some(Greater | Equal)) => true,
        _ => false,
    }
}

/// The EMN's result of a chain (spec §2.2): the result vector and the compare bitmap.
/// `a`, `b` are the operand vectors (b unused for single-load patterns); the pattern,
/// opcodes, type, `ld i` immediate and lane mask come from the packet.
pub fn chain_result(cp: &ComputePacket, a: &[u32], b: &[u32]) -> (Vec<u32>, u32) {
    let (pattern, op0, op1, fp, imm, mask) = (cp.pattern, cp.op0, cp.op1, cp.dtype, cp.imm, cp.mask);
    let mut res = vec![0u32; a.len()];
    let mut bitmap = 0u32;
    for k in 0..a.len() {
        if (mask >> k) & 1 == 0 {
            continue;
        }
        let (x, y) = (a[k], b.get(k).copied().unwrap_or(0));
        match pattern {
            1 | 2 => res[k] = alu(op0, fp, x, y),
            3 => res[k] = x,
            4 | 7 => res[k] = alu(op0, fp, x, imm),
            5 => bitmap |= u32::from(cmp(op0, fp, x, y)) << k,
            6 => bitmap |= u32::from(cmp(op0, fp, x, imm)) << k,
            8 | 9 => res[k] = alu(op1, fp, x, alu(op0, fp, y, imm)),
            _ => {}
        }
    }
    (res, bitmap)
}
