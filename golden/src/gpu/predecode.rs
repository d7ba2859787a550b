//! Register-only instructions decoded once per kernel into operation handlers with
//! their operands resolved (the interpreter's fast path).
//!
//! [`super::exec::WarpExec::execute_reg`] decides per warp instruction what to do: a
//! chain of `match`es over the operation, the type, the rounding and saturation flags,
//! operands materialized into lane arrays, then a masked write. For the common forms —
//! integer add/sub/mul/mad, `mul.wide` and bitwise logic, `cvta`, unmodified
//! `add`/`sub`/`mul`/`fma.f32`, `mov` and `setp` without a combining predicate, each on
//! registers and immediates —
//! that decision is the same on every execution, so it is taken once here
//! ([`Fast::decode`]) and [`Fast::run`] is one plain loop over the 32 lanes.
//!
//! Exact by construction: each handler computes what `execute_reg` computes for the
//! instructions [`Fast::decode`] accepts (same formula, same destination mask); every
//! other instruction decodes to [`Fast::Generic`] and takes the general path.

use super::exec::{cvta_window, fma_f32, fma_f32_rows, int_val, setp_lanes, write_lanes, WARP};
use super::ptx::{BoolOp, Cmp, CvtaDir, Inst, Op, Rnd, Src, Ty};

type Lanes = [u64; WARP];

/// A source operand the fast path reads: a register row or an immediate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opnd {
    Reg(u16),
    Imm(u64),
}

/// An integer (or bitwise) two-operand operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
}

/// An unmodified (round-to-nearest, no `.ftz`, no `.sat`) f32 two-operand operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum F32Op {
    Add,
    Sub,
    Mul,
}

/// How an instruction executes (one per instruction of the kernel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fast {
    /// Not on the fast path: [`super::exec::WarpExec::execute`].
    Generic,
    /// `d = a op b` on integers, masked to the type's width (`tm`); `dmask` is the
    /// destination register's width.
    Int {
        op: IntOp,
        d: u16,
        a: Opnd,
        b: Opnd,
        tm: u64,
        dmask: u64,
    },
    /// `mul.wide` of 16- or 32-bit sources: the full product of the values of type
    /// `ty` (sign- or zero-extended).
    MulWide {
        d: u16,
        a: Opnd,
        b: Opnd,
        ty: Ty,
        dmask: u64,
    },
    /// `mad.lo`: `d = a * b + c`, masked to the type's width.
    Mad {
        d: u16,
        a: Opnd,
        b: Opnd,
        c: Opnd,
        tm: u64,
        dmask: u64,
    },
    F32 {
        op: F32Op,
        d: u16,
        a: Opnd,
        b: Opnd,
        dmask: u64,
    },
    /// `fma.rn.f32` on three registers.
    Fma32 {
        d: u16,
        a: u16,
        b: u16,
        c: u16,
        dmask: u64,
    },
    Mov {
        d: u16,
        a: Opnd,
        dmask: u64,
    },
    /// `setp` without a combining predicate: `p` gets the lanes where it holds, `q`
    /// (if any) the others.
    Setp {
        cmp: Cmp,
        ty: Ty,
        ftz: bool,
        p: u16,
        q: Option<u16>,
        a: Opnd,
        b: Opnd,
    },
}

fn opnd(s: Src) -> Option<Opnd> {
    match s {
        Src::Reg(r) => Some(Opnd::Reg(r)),
        Src::Imm(v) => Some(Opnd::Imm(v)),
        _ => None,
    }
}

impl Fast {
    /// The handler for `inst` ([`Fast::Generic`] unless one of the forms above).
    pub fn decode(inst: &Inst) -> Fast {
        Self::try_decode(inst).unwrap_or(Fast::Generic)
    }

    fn try_decode(inst: &Inst) -> Option<Fast> {
        let ty = inst.ty;
        if ty == Ty::Pred || inst.is_mem() {
            return None;
        }
        let src = |k: usize| if k < inst.na as usize { opnd(inst.a[k]) } else { None };
        let (d, dmask, tm) = (inst.d[0], inst.dmask, ty.mask());
        let plain_f32 = ty == Ty::F32 && !inst.ftz && !inst.sat && matches!(inst.rnd, Rnd::Default | Rnd::Rn);
        let int = !ty.is_float();
        Some(match inst.op {
            Op::Add | Op::Sub | Op::Mul if int && !(inst.sat && ty == Ty::S32) => {
                let op = match inst.op {
                    Op::Add => IntOp::Add,
                    Op::Sub => IntOp::Sub,
                    _ => IntOp::Mul,
                };
                Fast::Int { op, d, a: src(0)?, b: src(1)?, tm, dmask }
            }
            Op::And | Op::Or | Op::Xor => {
                let op = match inst.op {
                    Op::And => IntOp::And,
                    Op::Or => IntOp::Or,
                    _ => IntOp::Xor,
                };
                // (bitwise logic keeps every bit of the operands: no type mask)
                Fast::Int { op, d, a: src(0)?, b: src(1)?, tm: u64::MAX, dmask }
            }
            Op::Mad if int => Fast::Mad { d, a: src(0)?, b: src(1)?, c: src(2)?, tm, dmask },
            Op::MulWide if int && ty.bits() <= 32 => Fast::MulWide { d, a: src(0)?, b: src(1)?, ty, dmask },
            Op::Cvta { dir, space } => {
                // the window's base added or taken, masked to the type: integer add/sub
                let op = match dir {
                    CvtaDir::ToGeneric => IntOp::Add,
                    CvtaDir::FromGeneric => IntOp::Sub,
                };
                Fast::Int { op, d, a: src(0)?, b: Opnd::Imm(cvta_window(space)), tm, dmask }
            }
            Op::Add | Op::Sub | Op::Mul if plain_f32 => {
                let op = match inst.op {
                    Op::Add => F32Op::Add,
                    Op::Sub => F32Op::Sub,
                    _ => F32Op::Mul,
                };
                Fast::F32 { op, d, a: src(0)?, b: src(1)?, dmask }
            }
            Op::Fma if plain_f32 => match (src(0)?, src(1)?, src(2)?) {
                (Opnd::Reg(a), Opnd::Reg(b), Opnd::Reg(c)) => Fast::Fma32 { d, a, b, c, dmask },
                _ => return None,
            },
            Op::Mov => Fast::Mov { d, a: src(0)?, dmask },
            Op::Setp(cmp, BoolOp::None) => {
                let q = (inst.nd == 2).then_some(inst.d[1]);
                Fast::Setp { cmp, ty, ftz: inst.ftz, p: d, q, a: src(0)?, b: src(1)? }
            }
            _ => return None,
        })
    }

    /// Execute on the lanes of `mask` of one warp's registers (`[reg][lane]`) and
    /// predicates. Only for a handler other than [`Fast::Generic`].
    #[inline]
    pub fn run(&self, regs: &mut [u64], preds: &mut [u32], mask: u32) {
        // operands are read in place (immediates through a buffer), the result is
        // computed whole, then written: a destination may be a source
        let (mut ba, mut bb, mut bc) = (None, None, None);
        let r: Lanes = match *self {
            Fast::Generic => unreachable!("the generic path executes it"),
            Fast::Int { op, a, b, tm, .. } => {
                let (a, b) = (row(regs, a, &mut ba), row(regs, b, &mut bb));
                match op {
                    IntOp::Add => lanes2(a, b, |x, y| x.wrapping_add(y) & tm),
                    IntOp::Sub => lanes2(a, b, |x, y| x.wrapping_sub(y) & tm),
                    IntOp::Mul => lanes2(a, b, |x, y| x.wrapping_mul(y) & tm),
                    IntOp::And => lanes2(a, b, |x, y| x & y),
                    IntOp::Or => lanes2(a, b, |x, y| x | y),
                    IntOp::Xor => lanes2(a, b, |x, y| x ^ y),
                }
            }
            Fast::MulWide { a, b, ty, .. } => {
                let (a, b) = (row(regs, a, &mut ba), row(regs, b, &mut bb));
                lanes2(a, b, |x, y| (int_val(x, ty) * int_val(y, ty)) as u64)
            }
            Fast::Mad { a, b, c, tm, .. } => {
                let (a, b, c) = (row(regs, a, &mut ba), row(regs, b, &mut bb), row(regs, c, &mut bc));
                std::array::from_fn(|l| a[l].wrapping_mul(b[l]).wrapping_add(c[l]) & tm)
            }
            Fast::F32 { op, a, b, .. } => {
                let (a, b) = (row(regs, a, &mut ba), row(regs, b, &mut bb));
                let f = |v: u64| f32::from_bits(v as u32);
                match op {
                    F32Op::Add => lanes2(a, b, |x, y| (f(x) + f(y)).to_bits() as u64),
                    F32Op::Sub => lanes2(a, b, |x, y| (f(x) - f(y)).to_bits() as u64),
                    F32Op::Mul => lanes2(a, b, |x, y| (f(x) * f(y)).to_bits() as u64),
                }
            }
            Fast::Fma32 { d, a, b, c, dmask } => {
                if mask == u32::MAX && fma_f32_rows(regs, a as usize, b as usize, c as usize, d as usize, dmask) {
                    return;
                }
                // (written from here: a result passed out of the match is one more copy)
                let mut r = [0; WARP];
                fma_f32(reg(regs, a), reg(regs, b), reg(regs, c), &mut r);
                return write_lanes(reg_mut(regs, d), mask, dmask, &r);
            }
            Fast::Mov { a, d, dmask } => {
                // (a register row to another: no intermediate copy)
                if let Opnd::Reg(s) = a {
                    if s != d {
                        let (src, dst) = rows2(regs, s, d);
                        return write_lanes(dst, mask, dmask, src);
                    }
                }
                *row(regs, a, &mut ba)
            }
            Fast::Setp { cmp, ty, ftz, p, q, a, b } => {
                let res = setp_lanes(cmp, ty, ftz, row(regs, a, &mut ba), row(regs, b, &mut bb));
                let set = |preds: &mut [u32], p: u16, v: u32| {
                    let cur = &mut preds[p as usize];
                    *cur = (*cur & !mask) | (v & mask);
                };
                set(preds, p, res);
                if let Some(q) = q {
                    set(preds, q, !res);
                }
                return;
            }
        };
        let (d, dmask) = match *self {
            Fast::Int { d, dmask, .. } | Fast::MulWide { d, dmask, .. } | Fast::Mad { d, dmask, .. } | Fast::F32 { d, dmask, .. } | Fast::Mov { d, dmask, .. } => (d, dmask),
            Fast::Generic | Fast::Fma32 { .. } | Fast::Setp { .. } => unreachable!("returned above"),
        };
        write_lanes(reg_mut(regs, d), mask, dmask, &r);
    }
}

#[inline(always)]
fn reg_mut(regs: &mut [u64], r: u16) -> &mut Lanes {
    let base = r as usize * WARP;
    (&mut regs[base..base + WARP]).try_into().expect("a register is one lane row")
}

#[inline(always)]
fn reg(regs: &[u64], r: u16) -> &Lanes {
    let base = r as usize * WARP;
    regs[base..base + WARP].try_into().expect("a register is one lane row")
}

/// Register `s`'s row to read and register `d`'s row to write (`s != d`).
#[inline(always)]
fn rows2(regs: &mut [u64], s: u16, d: u16) -> (&Lanes, &mut Lanes) {
    let (s, d) = (s as usize * WARP, d as usize * WARP);
    let (src, dst) = if s < d {
        let (lo, hi) = regs.split_at_mut(d);
        (&lo[s..s + WARP], &mut hi[..WARP])
    } else {
        let (lo, hi) = regs.split_at_mut(s);
        (&hi[..WARP], &mut lo[d..d + WARP])
    };
    (src.try_into().expect("a register is one lane row"), dst.try_into().expect("a register is one lane row"))
}

/// Every lane of an operand: a register's row in place, an immediate in `buf`.
#[inline(always)]
fn row<'a>(regs: &'a [u64], o: Opnd, buf: &'a mut Option<Lanes>) -> &'a Lanes {
    match o {
        Opnd::Reg(r) => reg(regs, r),
        Opnd::Imm(v) => buf.insert([v; WARP]),
    }
}

#[inline(always)]
fn lanes2(a: &Lanes, b: &Lanes, f: impl Fn(u64, u64) -> u64) -> Lanes {
    std::array::from_fn(|l| f(a[l], b[l]))
}
