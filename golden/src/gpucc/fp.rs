//! Arithmetic of the fixed instructions (spec §1.6): wrapping int32 and fp32.
//!
//! Floating point is IEEE-754 binary32 with round-to-nearest-even, as the host's
//! `f32` does, plus two rules the spec fixes for bit-exactness with the RTL:
//!
//! * **FTZ.** Denormal (subnormal) inputs are read as zero and denormal results are
//!   written as zero. *Our choice:* the flushed zero keeps the sign of the denormal
//!   (−denormal → −0.0), as CUDA's `.ftz` does.
//! * **Canonical NaN.** Every NaN result is `0x7FC0_0000`, whatever the payloads or
//!   signs of NaN inputs.
//!
//! FMAD is fused (one rounding, `f32::mul_add`), spec §1.6 / appendix item 8.
//!
//! Integer ops wrap in 32 bits. *Our choices* where §1.6 names an op without
//! semantics: IMIN/IMAX compare as signed int32; shift amounts use `b & 31`; SHR is
//! logical, SAR arithmetic; MOV returns `a`. FMIN/FMAX return the non-NaN operand
//! when exactly one is NaN (IEEE minNum/maxNum), the canonical NaN when both are, and
//! order −0.0 below +0.0.
//!
//! Operands and results are 32-bit patterns (`u32`): the lanes carry bits, not types.

use super::cr::op;

/// The canonical quiet NaN every NaN result becomes.
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;

/// Flush a denormal to a zero of the same sign; everything else unchanged.
pub fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        if x.is_sign_negative() {
            -0.0
        } else {
            0.0
        }
    } else {
        x
    }
}

/// Read an operand: bits → f32 with FTZ on input.
pub fn rd(bits: u32) -> f32 {
    ftz(f32::from_bits(bits))
}

/// Write a result: FTZ on output, NaN canonicalised.
pub fn wr(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        ftz(x).to_bits()
    }
}

pub fn fadd(a: u32, b: u32) -> u32 {
    wr(rd(a) + rd(b))
}

pub fn fsub(a: u32, b: u32) -> u32 {
    wr(rd(a) - rd(b))
}

pub fn fmul(a: u32, b: u32) -> u32 {
    wr(rd(a) * rd(b))
}

/// `a * b + c` with a single rounding (FFMA).
pub fn fmad(a: u32, b: u32, c: u32) -> u32 {
    wr(rd(a).mul_add(rd(b), rd(c)))
}

/// `a * b` rounded, then `+ c` rounded: the *unfused* multiply-add. Not an opcode;
/// used only by the planted-bug FU that shows the reference comparison can fail.
pub fn fmad_unfused(a: u32, b: u32, c: u32) -> u32 {
    let p = rd(fmul(a, b));
    wr(p + rd(c))
}

pub fn fmin(a: u32, b: u32) -> u32 {
    let (x, y) = (rd(a), rd(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => CANONICAL_NAN,
        (true, false) => wr(y),
        (false, true) => wr(x),
        _ if x < y => wr(x),
        _ if y < x => wr(y),
        // equal: only ±0 can differ in bits, and −0 (sign set) is the smaller
        _ => wr(x) | wr(y),
    }
}

pub fn fmax(a: u32, b: u32) -> u32 {
    let (x, y) = (rd(a), rd(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => CANONICAL_NAN,
        (true, false) => wr(y),
        (false, true) => wr(x),
        _ if x > y => wr(x),
        _ if y > x => wr(y),
        // equal: +0 is the larger (sign set only if both are −0)
        _ => wr(x) & wr(y),
    }
}

/// Whether an opcode is a floating-point op (uses `LAT_FP` in pipelined mode).
pub fn is_fp(opcode: u32) -> bool {
    (op::FADD..=op::FMAX).contains(&opcode)
}

/// Whether a core opcode produces a result (NOP, LD, ST and unknown codes do not on
/// a core; *our choice*: such a core never fires).
pub fn is_core_op(opcode: u32) -> bool {
    matches!(opcode, op::IADD..=op::MOV | op::FADD..=op::FMAX)
}

/// Mnemonic of an opcode (reports, event counters).
pub fn name(opcode: u32) -> &'static str {
    match opcode {
        op::NOP => "NOP",
        op::IADD => "IADD",
        op::ISUB => "ISUB",
        op::IMUL => "IMUL",
        op::IMAD => "IMAD",
        op::IMIN => "IMIN",
        op::IMAX => "IMAX",
        op::AND => "AND",
        op::OR => "OR",
        op::XOR => "XOR",
        op::SHL => "SHL",
        op::SHR => "SHR",
        op::SAR => "SAR",
        op::MOV => "MOV",
        op::FADD => "FADD",
        op::FSUB => "FSUB",
        op::FMUL => "FMUL",
        op::FMAD => "FMAD",
        op::FMIN => "FMIN",
        op::FMAX => "FMAX",
        op::LD => "LD",
        op::ST => "ST",
        _ => "UNKNOWN",
    }
}

/// Execute a core opcode on 32-bit operands. `None` for opcodes that do not
/// produce a result on a core.
pub fn exec(opcode: u32, a: u32, b: u32, c: u32) -> Option<u32> {
    let (sa, sb) = (a as i32, b as i32);
    Some(match opcode {
        op::IADD => a.wrapping_add(b),
        op::ISUB => a.wrapping_sub(b),
        op::IMUL => a.wrapping_mul(b),
        op::IMAD => a.wrapping_mul(b).wrapping_add(c),
        op::IMIN => sa.min(sb) as u32,
        op::IMAX => sa.max(sb) as u32,
        op::AND => a & b,
        op::OR => a | b,
        op::XOR => a ^ b,
        op::SHL => a << (b & 31),
        op::SHR => a >> (b & 31),
        op::SAR => (sa >> (b & 31)) as u32,
        op::MOV => a,
        op::FADD => fadd(a, b),
        op::FSUB => fsub(a, b),
        op::FMUL => fmul(a, b),
        op::FMAD => fmad(a, b, c),
        op::FMIN => fmin(a, b),
        op::FMAX => fmax(a, b),
        _ => return None,
    })
}
