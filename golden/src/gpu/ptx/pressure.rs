//! Registers per thread the way `ptxas` would allocate them, estimated from liveness.
//!
//! PTX declares virtual registers freely (nvcc writes one per SSA value), so their sum
//! is 2.5x to 14x what `ptxas -v` reports. The estimate here is the register pressure
//! of the kernel: live ranges from an iterative backward dataflow over the
//! instruction-level control-flow graph, then the largest number of 32-bit registers
//! live at once at any instruction (a 64-bit value counts 2, 8/16-bit values count 1,
//! predicates are not counted: they live in the separate P registers). An optimal
//! allocator over an interval-like graph needs exactly that many registers, which is
//! what linear scan achieves without spilling.
//!
//! Our choices (documented in docs/ptx_subset.md):
//! * [`FIXED_OVERHEAD`] = 2 registers on top of the pressure: `ptxas -v` reports
//!   "Used 2 registers" for an empty kernel (R0 and R1, the ABI stack pointer it
//!   always reserves), so a kernel with no live values estimates 2.
//! * Registers whose every definition reads the constant bank (`ld.param` of a kernel
//!   parameter, `mov` of `%ntid`/`%nctaid`) count 0: ptxas folds those reads into the
//!   instructions that use them (`c[0x0][...]` operands in SASS), so they occupy no
//!   register of their own.
//! * A guarded definition (`@%p mov %r, ...`) does not end the live range of the old
//!   value (lanes where the guard is false keep it).
//! * The result is capped at [`ARCH_REG_LIMIT`] (255, the per-thread limit of every
//!   NVIDIA architecture since Kepler); `.maxnreg N` caps it further.

use super::cfg::{every_def, Liveness};
use super::inst::{Inst, Op, Space, Special, Src, Ty};

/// Registers `ptxas` reports for a kernel with no live values (R0 and R1).
pub const FIXED_OVERHEAD: u32 = 2;
/// Per-thread general-register limit of the architectures we model.
pub const ARCH_REG_LIMIT: u32 = 255;

/// The most bitset words (instructions x 64-register words) one liveness table may
/// take: five tables of 32 MiB. Larger kernels (tens of thousands of registers times
/// tens of thousands of instructions, far beyond what nvcc writes) count every declared
/// register instead, so a mutated kernel cannot exhaust the machine.
pub const MAX_LIVENESS_WORDS: usize = 1 << 22;

/// Words of a bitset over `n` registers.
fn words(n: usize) -> usize {
    n.div_ceil(64).max(1)
}

/// Registers whose every definition is a constant-bank read (see the module notes).
fn constant_bank_regs(insts: &[Inst], nregs: usize) -> Vec<bool> {
    every_def(insts, nregs, |i| match i.op {
        Op::Ld { space: Space::Param, .. } => true,
        Op::Mov => matches!(i.a[0], Src::Special(Special::Ntid(_) | Special::Nctaid(_))),
        _ => false,
    })
}

/// Maximum 32-bit registers live at once (without the fixed overhead).
///
/// `nregs` general registers with types `reg_types`; an instruction's general-register
/// reads and writes are its scoreboard entries below `nregs` (predicates sit above).
pub fn max_live_words(insts: &[Inst], reg_types: &[Ty]) -> u32 {
    let nregs = reg_types.len();
    let n = insts.len();
    if n == 0 || nregs == 0 {
        return 0;
    }
    let w = words(nregs);
    let Some(live) = Liveness::compute(insts, nregs, MAX_LIVENESS_WORDS) else {
        // too large to analyse within a bounded memory: every declared word counts (the
        // cap to ARCH_REG_LIMIT follows in `estimate_regs`)
        return reg_types.iter().map(|t| t.bits().div_ceil(32)).sum::<u32>();
    };
    let folded = constant_bank_regs(insts, nregs);
    let width: Vec<u32> = reg_types.iter().zip(&folded).map(|(t, &f)| if f { 0 } else { t.bits().div_ceil(32) }).collect();
    // per instruction: all defs (a value written and never read still takes a register)
    let mut defs = vec![0u64; n * w];
    for (pc, i) in insts.iter().enumerate() {
        for &d in &i.sb_def[..i.n_def as usize] {
            if (d as usize) < nregs {
                defs[pc * w + d as usize / 64] |= 1 << (d % 64);
            }
        }
    }
    let weigh = |bits: &mut dyn Iterator<Item = u64>| -> u32 {
        let mut total = 0;
        for (j, mut word) in bits.enumerate() {
            while word != 0 {
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                total += width[j * 64 + b];
            }
        }
        total
    };
    let mut best = 0;
    for pc in 0..n {
        let inn = weigh(&mut live.live_in(pc).iter().copied());
        let out = weigh(&mut live.live_out(pc).iter().zip(&defs[pc * w..(pc + 1) * w]).map(|(o, d)| o | d));
        best = best.max(inn).max(out);
    }
    best
}

/// Registers per thread: pressure plus [`FIXED_OVERHEAD`], capped by `.maxnreg` (if
/// given) and [`ARCH_REG_LIMIT`].
pub fn estimate_regs(insts: &[Inst], reg_types: &[Ty], maxnreg: Option<u32>) -> u32 {
    let est = (max_live_words(insts, reg_types) + FIXED_OVERHEAD).min(ARCH_REG_LIMIT);
    match maxnreg {
        Some(m) => est.min(m.max(1)),
        None => est,
    }
}
