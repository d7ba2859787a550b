//! The compiler side of LLC-Compute (spec §2.1, §2.2): find the chains of Table 1 in a
//! decoded PTX kernel and tag them, first `01`, middle `10`, last `11`.
//!
//! A chain is matched backwards from its last instruction (a store, an ALU op whose
//! result goes back to the core, or a compare) through the definitions that reach it
//! inside its basic block. The paper's rules, and how they read here:
//!
//! * **No further register reuse** (§2.1): every value a chain produces for itself (a
//!   loaded vector, the intermediate `T` of patterns 8/9, the result a chain stores)
//!   is read by exactly one chain instruction and by nothing else, in the block or
//!   after it ([`Liveness`]). Only the result of patterns 2/8 (DATA) and the bitmap of
//!   5/6 go back to the core.
//! * **One 32-B flit** (§2.1, §2.3): loads and stores of one 32-bit element per lane
//!   from `.global`, ALU ops on 32-bit values, one uniform immediate. Loads that
//!   bypass the L1 (`.volatile`, `.acquire`, `.cg`...: flag polls) are not tagged.
//! * **Laid out contiguously** (§2.1, "moves the address calculations above the
//!   chain"): the chain issues at its last instruction, so every earlier chain
//!   instruction moves down past the instructions between them. That is legal when no
//!   instruction in between writes a register the moved instruction reads, and none is
//!   a store, atomic, barrier, fence or branch (memory order).
//! * **The EMN computes what the core would** (§1.2: offloading never changes
//!   results): only operations whose lane semantics ([`super::lane_op`]) equal the
//!   PTX instruction's bit for bit are tagged. Not tagged: `fma` (one rounding, the
//!   EMN's mul then add round twice; nvcc contracts TRIAD's `b + s*c` into an `fma`
//!   unless compiled with `-fmad=false`), `.ftz`, `.sat`, directed rounding, unsigned
//!   min/max and unsigned ordered compares (the ALU's are signed), `setp.ne.f32`
//!   (ordered: false on NaN; the ALU's NE is `neu`), `div.approx`/`div.full`.
//!
//! Our choices [OC] where §2.2 is ambiguous: a unary op (`mov`, `neg`, `abs`, the
//! `cvt` between s32 and f32) between a load and a store is pattern 4 (its sub-op in
//! the immediate, as [`super::lane_op::alu`] op 14 reads it); a binary op with a
//! uniform operand is pattern 7. The uniform `I` ("`ld i`") is an immediate operand or a
//! register whose every definition is a `ld.param` or a `mov` of an immediate; it has
//! no instruction of its own in nvcc's PTX, so its chain step has no `pc`.

use super::chain::{InstrKind, Pattern};
use crate::gpu::ptx::cfg::{every_def, leaders, Liveness};
use crate::gpu::ptx::pressure::MAX_LIVENESS_WORDS;
use crate::gpu::ptx::{BoolOp, CacheOp, Cmp, Inst, Kernel, Op, Rnd, Space, Src, Ty, NO_PRED};

/// A chain tag (spec §2.1, the same scheme as TOM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Tag {
    First = 0b01,
    Middle = 0b10,
    Last = 0b11,
}

/// The uniform operand `I` of patterns 6-9 (and the sub-op of pattern 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Uniform {
    /// An immediate (or pattern 4's sub-op code).
    Imm(u32),
    /// A register every definition of which is a `ld.param` or a `mov` of an immediate.
    Reg(u16),
}

/// One step of a chain, in Table 1's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    pub kind: InstrKind,
    /// The instruction; `None` for the `ld i` of a uniform operand.
    pub pc: Option<u32>,
}

/// A tagged chain: pattern, steps, and what the ComputePacket carries (§2.3).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Chain {
    /// 1..=9 (Table 1).
    pub pattern: u32,
    pub steps: Vec<Step>,
    /// ALU or compare opcodes of [`super::lane_op`] (`op1` only for patterns 8/9).
    pub op0: u32,
    pub op1: u32,
    /// f32 operands.
    pub fp: bool,
    pub uniform: Option<Uniform>,
}

impl Chain {
    /// The chain's instructions in chain order.
    pub fn pcs(&self) -> impl Iterator<Item = u32> + '_ {
        self.steps.iter().filter_map(|s| s.pc)
    }

    /// The tag of instruction `pc`, if it belongs to this chain.
    pub fn tag(&self, pc: u32) -> Option<Tag> {
        let pcs: Vec<u32> = self.pcs().collect();
        let k = pcs.iter().position(|&p| p == pc)?;
        Some(if k == 0 {
            Tag::First
        } else if k + 1 == pcs.len() {
            Tag::Last
        } else {
            Tag::Middle
        })
    }
}

/// The kernel's chains (each instruction in at most one), in the order of their last
/// instructions.
pub fn find_chains(k: &Kernel) -> Vec<Chain> {
    let Some(live) = Liveness::compute(&k.insts, k.nregs as usize, MAX_LIVENESS_WORDS) else {
        return Vec::new();
    };
    let f = Finder { insts: &k.insts, nregs: k.nregs, live, block_start: block_starts(&k.insts), uniform: uniform_regs(&k.insts, k.nregs) };
    let mut used = vec![false; k.insts.len()];
    let mut chains = Vec::new();
    // stores first: a result that is stored makes an ACK chain (1, 3, 4, 7, 9) rather than
    // a DATA one (2, 8) whose result the core would store itself
    for pass in [true, false] {
        for pc in 0..k.insts.len() {
            let is_store = matches!(k.insts[pc].op, Op::St { .. });
            if is_store != pass || used[pc] {
                continue;
            }
            if let Some(c) = f.chain_at(pc).filter(|c| c.pcs().all(|p| !used[p as usize])) {
                for p in c.pcs() {
                    used[p as usize] = true;
                }
                chains.push(c);
            }
        }
    }
    chains.sort_by_key(|c| c.pcs().last());
    chains
}

/// Static counts of a kernel's chains (Table 3 gives the dynamic fractions).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Census {
    /// Chains per pattern (index `p - 1`).
    pub by_pattern: [u32; 9],
    pub chain_insts: u32,
    pub chain_mem_insts: u32,
    pub insts: u32,
    pub mem_insts: u32,
}

pub fn census(k: &Kernel, chains: &[Chain]) -> Census {
    let mut c = Census { insts: k.insts.len() as u32, mem_insts: k.insts.iter().filter(|i| i.is_mem()).count() as u32, ..Default::default() };
    for ch in chains {
        c.by_pattern[ch.pattern as usize - 1] += 1;
        for pc in ch.pcs() {
            c.chain_insts += 1;
            c.chain_mem_insts += u32::from(k.insts[pc as usize].is_mem());
        }
    }
    c
}

/// `start[pc]`: the first instruction of `pc`'s basic block.
fn block_starts(insts: &[Inst]) -> Vec<usize> {
    let lead = leaders(insts);
    let mut cur = 0;
    (0..insts.len())
        .map(|pc| {
            if lead[pc] {
                cur = pc;
            }
            cur
        })
        .collect()
}

/// Registers whose every definition is an unguarded `ld.param` or `mov` of a 32-bit
/// immediate: warp-uniform.
fn uniform_regs(insts: &[Inst], nregs: u16) -> Vec<bool> {
    every_def(insts, nregs as usize, |i| {
        i.guard == NO_PRED
            && i.ty.bits() == 32
            && match i.op {
                Op::Ld { space: Space::Param, vec: 1, .. } => true,
                Op::Mov => matches!(i.a[0], Src::Imm(_)),
                _ => false,
            }
    })
}

fn is_word(ty: Ty) -> bool {
    matches!(ty, Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32)
}

/// An ALU op's operand as the chain sees it.
#[derive(Debug, Clone, Copy)]
enum Operand {
    /// A value defined at `pc` in the block (a load or an ALU op).
    Def(usize, u16),
    Uniform(Uniform),
}

struct Finder<'a> {
    insts: &'a [Inst],
    nregs: u16,
    live: Liveness,
    block_start: Vec<usize>,
    uniform: Vec<bool>,
}

impl Finder<'_> {
    /// The unguarded definition of register `r` that reaches `pc` inside its block.
    fn reaching_def(&self, pc: usize, r: u16) -> Option<usize> {
        let start = self.block_start[pc];
        let d = (start..pc).rev().find(|&q| self.insts[q].sb_def[..self.insts[q].n_def as usize].contains(&r))?;
        (self.insts[d].guard == NO_PRED).then_some(d)
    }

    /// The value `r` defined at `def` is read by `user` and by nothing else.
    fn single_use(&self, def: usize, r: u16, user: usize) -> bool {
        let reads = |q: usize| self.insts[q].sb_use[..self.insts[q].n_use as usize].iter().filter(|&&u| u == r).count();
        if (def + 1..user).any(|q| reads(q) > 0) || reads(user) != 1 {
            return false;
        }
        let u = &self.insts[user];
        let redefined = u.guard == NO_PRED && u.sb_def[..u.n_def as usize].contains(&r);
        redefined || !self.live.is_live_out(user, r)
    }

    fn operand(&self, pc: usize, s: Src) -> Option<Operand> {
        match s {
            Src::Imm(v) => u32::try_from(v).ok().map(|v| Operand::Uniform(Uniform::Imm(v))),
            Src::Reg(r) if r < self.nregs && self.uniform[r as usize] => Some(Operand::Uniform(Uniform::Reg(r))),
            Src::Reg(r) => self.reaching_def(pc, r).map(|d| Operand::Def(d, r)),
            _ => None,
        }
    }

    /// `pc` is a chain load: `ld.global` of one 32-bit element that may be cached (not
    /// `.volatile`, `.acquire`, `.relaxed`, `.cg` or `.cv`: the decoder keeps one flag
    /// for them, and polling or synchronizing reads keep their place in the program).
    fn is_load(&self, pc: usize) -> bool {
        let i = &self.insts[pc];
        matches!(i.op, Op::Ld { space: Space::Global, vec: 1, cache: CacheOp::CacheAll }) && is_word(i.ty) && i.guard == NO_PRED && i.nd == 1
    }

    /// A load feeding `user` through register `r` (defined at `d`) and nothing else.
    fn load_into(&self, d: usize, r: u16, user: usize) -> bool {
        self.is_load(d) && self.single_use(d, r, user)
    }

    /// Lane-op code of a binary ALU instruction, whether it is f32, and whether its
    /// operands commute; `None` when the EMN would not compute it bit for bit.
    fn binary_op(&self, i: &Inst) -> Option<(u32, bool, bool)> {
        if i.ftz || i.sat || i.guard != NO_PRED || i.nd != 1 || i.na != 2 || !is_word(i.ty) {
            return None;
        }
        let fp = i.ty == Ty::F32;
        let exact_rnd = matches!(i.rnd, Rnd::Default | Rnd::Rn);
        let code = match (i.op, fp) {
            (Op::Add, false) => (0, true),
            (Op::Sub, false) => (1, false),
            (Op::Mul, false) => (2, true),
            (Op::Min, false) if i.ty == Ty::S32 => (3, true),
            (Op::Max, false) if i.ty == Ty::S32 => (4, true),
            (Op::And, false) => (5, true),
            (Op::Or, false) => (6, true),
            (Op::Xor, false) => (7, true),
            (Op::Add, true) if exact_rnd => (8, true),
            (Op::Sub, true) if exact_rnd => (9, false),
            (Op::Mul, true) if exact_rnd => (10, true),
            (Op::Div, true) if i.rnd == Rnd::Rn => (11, false),
            (Op::Min, true) => (12, true),
            (Op::Max, true) => (13, true),
            _ => return None,
        };
        Some((code.0, fp, code.1))
    }

    /// Pattern 4's unary op: its sub-op code (lane op 14) and whether it is f32.
    fn unary_op(&self, i: &Inst) -> Option<(u32, bool)> {
        if i.ftz || i.sat || i.guard != NO_PRED || i.nd != 1 || i.na != 1 {
            return None;
        }
        match (i.op, i.ty) {
            (Op::Mov, t) if is_word(t) => Some((0, t == Ty::F32)),
            (Op::Neg, Ty::S32) => Some((1, false)),
            (Op::Abs, Ty::S32) => Some((2, false)),
            (Op::Neg, Ty::F32) => Some((3, true)),
            (Op::Abs, Ty::F32) => Some((4, true)),
            (Op::Cvt { from: Ty::S32, rnd: Rnd::Rn | Rnd::Default }, Ty::F32) => Some((5, true)),
            (Op::Cvt { from: Ty::F32, rnd: Rnd::Rzi }, Ty::S32) => Some((6, false)),
            _ => None,
        }
    }

    /// `(x, y)` of a binary op at `pc` whose operands must come in the order `want`
    /// (first the one satisfying `first`), swapped if the op commutes.
    fn ordered(&self, pc: usize, commutes: bool, first: impl Fn(Operand) -> bool) -> Option<(Operand, Operand)> {
        let i = &self.insts[pc];
        let (x, y) = (self.operand(pc, i.a[0])?, self.operand(pc, i.a[1])?);
        if first(x) {
            Some((x, y))
        } else if commutes && first(y) {
            Some((y, x))
        } else {
            None
        }
    }

    /// The chain whose last ALU op or compare is at `pc`, as patterns 1, 4, 5, 6, 7 or 8
    /// (without a store; [`Self::chain_at`] turns them into the stored or DATA forms).
    fn compute_part(&self, pc: usize) -> Option<Chain> {
        let i = &self.insts[pc];
        let is_def = |o: Operand| matches!(o, Operand::Def(..));
        let step = |kind, pc: usize| Step { kind, pc: Some(pc as u32) };
        let movi = Step { kind: InstrKind::Movi, pc: None };
        if let Op::Setp(cmp, BoolOp::None) = i.op {
            if i.guard != NO_PRED || i.d[1] != NO_PRED || !is_word(i.ty) || i.ftz {
                return None;
            }
            let fp = i.ty == Ty::F32;
            let code = match (cmp, fp, i.ty == Ty::S32) {
                (Cmp::Eq, _, _) => 0,
                (Cmp::Ne, false, _) | (Cmp::Neu, true, _) => 1,
                (Cmp::Lt, true, _) | (Cmp::Lt, false, true) => 2,
                (Cmp::Le, true, _) | (Cmp::Le, false, true) => 3,
                (Cmp::Gt, true, _) | (Cmp::Gt, false, true) => 4,
                (Cmp::Ge, true, _) | (Cmp::Ge, false, true) => 5,
                _ => return None,
            };
            // compares do not commute (a < b is not b < a): the load comes first
            let (x, y) = self.ordered(pc, false, is_def)?;
            let Operand::Def(da, ra) = x else { return None };
            if !self.load_into(da, ra, pc) {
                return None;
            }
            return match y {
                Operand::Def(db, rb) if db != da && self.load_into(db, rb, pc) => {
                    Some(Chain { pattern: 5, steps: vec![step(InstrKind::Ld, da), step(InstrKind::Ld, db), step(InstrKind::Cmp, pc)], op0: code, op1: 0, fp, uniform: None })
                }
                Operand::Uniform(u) => Some(Chain { pattern: 6, steps: vec![step(InstrKind::Ld, da), movi, step(InstrKind::Cmp, pc)], op0: code, op1: 0, fp, uniform: Some(u) }),
                _ => None,
            };
        }
        if let Some((sub, fp)) = self.unary_op(i) {
            let Some(Operand::Def(da, ra)) = self.operand(pc, i.a[0]) else { return None };
            return self.load_into(da, ra, pc).then(|| Chain {
                pattern: 4,
                steps: vec![step(InstrKind::Ld, da), step(InstrKind::Alu, pc)],
                op0: 14,
                op1: 0,
                fp,
                uniform: Some(Uniform::Imm(sub)),
            });
        }
        let (op, fp, commutes) = self.binary_op(i)?;
        let loaded = |o: Operand| matches!(o, Operand::Def(d, r) if self.load_into(d, r, pc));
        // patterns 1/2: op0(A, B), both loads
        if let Some((Operand::Def(da, _), Operand::Def(db, _))) = self.ordered(pc, commutes, loaded).filter(|(_, y)| loaded(*y)) {
            if da != db {
                return Some(Chain { pattern: 1, steps: vec![step(InstrKind::Ld, da), step(InstrKind::Ld, db), step(InstrKind::Alu, pc)], op0: op, op1: 0, fp, uniform: None });
            }
        }
        // pattern 7: op0(A, I)
        if let Some((Operand::Def(da, _), Operand::Uniform(u))) = self.ordered(pc, commutes, loaded) {
            return Some(Chain { pattern: 7, steps: vec![step(InstrKind::Ld, da), movi, step(InstrKind::Alu, pc)], op0: op, op1: 0, fp, uniform: Some(u) });
        }
        // patterns 8/9: op1(A, T), T = op0(B, I) defined for this op alone
        let (Operand::Def(da, _), Operand::Def(dt, rt)) = self.ordered(pc, commutes, loaded)? else { return None };
        let ti = &self.insts[dt];
        let (op0, fp0, commutes0) = self.binary_op(ti)?;
        if fp0 != fp || ti.ty != i.ty || !self.single_use(dt, rt, pc) {
            return None;
        }
        let loaded_t = |o: Operand| matches!(o, Operand::Def(d, r) if self.load_into(d, r, dt));
        let (Operand::Def(db, _), Operand::Uniform(u)) = self.ordered(dt, commutes0, loaded_t)? else { return None };
        (db != da).then(|| Chain {
            pattern: 8,
            steps: vec![step(InstrKind::Ld, db), movi, step(InstrKind::Ld, da), step(InstrKind::Alu, dt), step(InstrKind::Alu, pc)],
            op0,
            op1: op,
            fp,
            uniform: Some(u),
        })
    }

    /// The chain ending at `pc`, if there is one and it may be laid out contiguously.
    fn chain_at(&self, pc: usize) -> Option<Chain> {
        let i = &self.insts[pc];
        let chain = if let Op::St { space: Space::Global, vec: 1, .. } = i.op {
            if !is_word(i.ty) || i.guard != NO_PRED {
                return None;
            }
            let Src::Reg(v) = i.a[0] else { return None };
            let d = self.reaching_def(pc, v)?;
            if !self.single_use(d, v, pc) {
                return None;
            }
            let mut c = if self.is_load(d) {
                Chain { pattern: 3, steps: vec![Step { kind: InstrKind::Ld, pc: Some(d as u32) }], op0: 0, op1: 0, fp: false, uniform: None }
            } else {
                let mut c = self.compute_part(d)?;
                // the stored forms of the computed results (Table 1)
                c.pattern = match c.pattern {
                    1 => 1,
                    4 => 4,
                    7 => 7,
                    8 => 9,
                    _ => return None,
                };
                c
            };
            c.steps.push(Step { kind: InstrKind::St, pc: Some(pc as u32) });
            c
        } else {
            let mut c = self.compute_part(pc)?;
            c.pattern = match c.pattern {
                // the result goes back to the core: DATA
                1 => 2,
                // 4 and 7 store their result by definition (Table 1)
                4 | 7 => return None,
                p => p,
            };
            c
        };
        debug_assert_eq!(Pattern::get(chain.pattern).map(|p| p.seq), Some(chain.steps.iter().map(|s| s.kind).collect::<Vec<_>>().as_slice()));
        self.contiguous(&chain, pc).then_some(chain)
    }

    /// Every chain instruction can move down to `last` (see the module notes).
    fn contiguous(&self, c: &Chain, last: usize) -> bool {
        let members: Vec<usize> = c.pcs().map(|p| p as usize).collect();
        members.iter().filter(|&&m| m != last).all(|&m| {
            let reads = &self.insts[m].sb_use[..self.insts[m].n_use as usize];
            (m + 1..last).filter(|q| !members.contains(q)).all(|q| {
                let x = &self.insts[q];
                let orders_memory = matches!(x.op, Op::St { .. } | Op::Atom { .. } | Op::Red { .. } | Op::Bar | Op::BarArrive | Op::Membar(_) | Op::Bra | Op::Ret | Op::Exit);
                !orders_memory && !x.sb_def[..x.n_def as usize].iter().any(|d| reads.contains(d))
            })
        })
    }
}
