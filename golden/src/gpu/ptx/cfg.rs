//! Control-flow graph of a decoded kernel and immediate post-dominators: the SIMT
//! reconvergence points of divergent branches (Fung et al., MICRO 2007; the
//! GPGPU-Sim "PDOM" stack).

use super::inst::{Inst, Op, OpClass, NO_PRED, RPC_EXIT};

/// Fill `rpc` of every branch with the first instruction of the immediate
/// post-dominator of its basic block ([`RPC_EXIT`] when that is the kernel exit or the
/// block cannot reach the exit).
pub fn assign_reconvergence(insts: &mut [Inst]) {
    let n = insts.len();
    if n == 0 {
        return;
    }
    let leader = leaders(insts);
    let starts: Vec<usize> = (0..n).filter(|&pc| leader[pc]).collect();
    let nb = starts.len();
    let exit = nb; // virtual exit node
    let mut block_of = vec![0usize; n];
    for (b, &s) in starts.iter().enumerate() {
        let end = starts.get(b + 1).copied().unwrap_or(n);
        for slot in block_of.iter_mut().take(end).skip(s) {
            *slot = b;
        }
    }
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (b, sb) in succ.iter_mut().enumerate() {
        let end = starts.get(b + 1).copied().unwrap_or(n);
        let last = &insts[end - 1];
        let fall = if end < n { block_of[end] } else { exit };
        let guarded = last.guard != NO_PRED;
        match last.op {
            Op::Bra => {
                sb.push(block_of[last.target as usize]);
                if guarded {
                    sb.push(fall);
                }
            }
            Op::Ret | Op::Exit => {
                sb.push(exit);
                if guarded {
                    sb.push(fall);
                }
            }
            _ => sb.push(fall),
        }
        sb.sort_unstable();
        sb.dedup();
    }
    // post-dominator sets as bitsets over nb + 1 nodes
    let words = (nb + 1).div_ceil(64);
    let full: Vec<u64> = {
        let mut v = vec![u64::MAX; words];
        let extra = words * 64 - (nb + 1);
        if extra > 0 {
            v[words - 1] >>= extra;
        }
        v
    };
    let mut pdom: Vec<Vec<u64>> = vec![full.clone(); nb + 1];
    pdom[exit] = vec![0; words];
    pdom[exit][exit / 64] |= 1 << (exit % 64);
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut acc = full.clone();
            for &s in &succ[b] {
                for (a, p) in acc.iter_mut().zip(&pdom[s]) {
                    *a &= *p;
                }
            }
            acc[b / 64] |= 1 << (b % 64);
            if acc != pdom[b] {
                pdom[b] = acc;
                changed = true;
            }
        }
    }
    let count = |v: &Vec<u64>| v.iter().map(|w| w.count_ones()).sum::<u32>();
    let reaches_exit = |b: usize| pdom[b][exit / 64] & (1 << (exit % 64)) != 0;
    let ipdom_pc = |b: usize| -> u32 {
        if !reaches_exit(b) {
            return RPC_EXIT;
        }
        // closest strict post-dominator: the one with the most post-dominators
        let mut best: Option<(u32, usize)> = None;
        for d in 0..=nb {
            if d != b && pdom[b][d / 64] & (1 << (d % 64)) != 0 {
                let c = count(&pdom[d]);
                if best.is_none_or(|(bc, _)| c > bc) {
                    best = Some((c, d));
                }
            }
        }
        match best {
            Some((_, d)) if d != exit => starts[d] as u32,
            _ => RPC_EXIT,
        }
    };
    for pc in 0..n {
        if insts[pc].op == Op::Bra {
            insts[pc].rpc = ipdom_pc(block_of[pc]);
        }
    }
}

/// General registers (of `nregs`) that a thread may read before it has written them,
/// on some path from the entry: the registers a new warp must find at zero (the core's
/// "registers start at zero"; the others it may take as the slot's last warp left
/// them, since no thread can observe them).
///
/// A forward must-analysis per instruction over each thread's own path (a divergent
/// warp runs every lane along its own path, so per-thread paths are what a lane
/// sees): a register is written on entry to `pc` when it is on every path from the
/// entry. Only writes that reach every lane executing the instruction count: an
/// unguarded register-only instruction or load (`shfl`, `vote`, `redux`, `printf`,
/// `tex`, atomics and predicated instructions are not credited). A kernel with `shfl`,
/// which reads other lanes' registers, needs every register at zero.
pub fn read_before_written(insts: &[Inst], nregs: usize) -> Vec<bool> {
    let n = insts.len();
    if insts.iter().any(|i| matches!(i.op, Op::Shfl(_))) {
        return vec![true; nregs];
    }
    let words = nregs.div_ceil(64).max(1);
    let writes = |i: &Inst| -> bool {
        i.guard == NO_PRED && (i.class != OpClass::Mem || matches!(i.op, Op::Ld { .. })) && !matches!(i.op, Op::Vote(_) | Op::Redux(_) | Op::Printf | Op::Tex)
    };
    // written[pc]: registers written on every path to pc (all ones: not reached yet)
    let mut written = vec![vec![u64::MAX; words]; n];
    if n > 0 {
        written[0] = vec![0; words];
    }
    let mut changed = true;
    while changed {
        changed = false;
        for pc in 0..n {
            let i = &insts[pc];
            let mut out = written[pc].clone();
            if writes(i) {
                for &d in &i.sb_def[..i.n_def as usize] {
                    if (d as usize) < nregs {
                        out[d as usize / 64] |= 1 << (d % 64);
                    }
                }
            }
            let (succ, k) = successors(insts, pc);
            for &s in &succ[..k] {
                for (w, o) in written[s].iter_mut().zip(&out) {
                    let meet = *w & o;
                    if meet != *w {
                        *w = meet;
                        changed = true;
                    }
                }
            }
        }
    }
    let mut read_first = vec![false; nregs];
    for (i, w) in insts.iter().zip(&written) {
        for &u in &i.sb_use[..i.n_use as usize] {
            if (u as usize) < nregs && w[u as usize / 64] & (1 << (u % 64)) == 0 {
                read_first[u as usize] = true;
            }
        }
    }
    read_first
}

/// Successors of instruction `pc` on a thread's path (at most two: a guarded branch
/// falls through too; an unguarded `ret`/`exit` has none), all below `insts.len()`.
pub fn successors(insts: &[Inst], pc: usize) -> ([usize; 2], usize) {
    let n = insts.len();
    let i = &insts[pc];
    let guarded = i.guard != NO_PRED;
    let mut s = [usize::MAX; 2];
    let mut k = 0;
    let mut push = |t: usize| {
        if t < n {
            s[k] = t;
            k += 1;
        }
    };
    match i.op {
        Op::Bra => {
            push(i.target as usize);
            if guarded {
                push(pc + 1);
            }
        }
        Op::Ret | Op::Exit => {
            if guarded {
                push(pc + 1);
            }
        }
        _ => push(pc + 1),
    }
    (s, k)
}

/// Basic-block leaders: `leader[pc]` when `pc` starts a block (the entry, a branch
/// target, the instruction after a branch, `ret` or `exit`); `insts.len() + 1` entries.
pub fn leaders(insts: &[Inst]) -> Vec<bool> {
    let n = insts.len();
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (pc, i) in insts.iter().enumerate() {
        match i.op {
            Op::Bra => {
                leader[(i.target as usize).min(n)] = true;
                leader[pc + 1] = true;
            }
            Op::Ret | Op::Exit => leader[pc + 1] = true,
            _ => {}
        }
    }
    leader
}

/// General-register liveness per instruction: an iterative backward dataflow over the
/// instruction-level control-flow graph ([`successors`]). A guarded definition does
/// not end the old value's live range (lanes where the guard is false keep it).
pub struct Liveness {
    /// Bitset words per instruction.
    words: usize,
    live_in: Vec<u64>,
    live_out: Vec<u64>,
}

impl Liveness {
    /// Liveness of `nregs` general registers (scoreboard entries below `nregs`), or
    /// `None` when the tables would exceed `max_words` words each.
    pub fn compute(insts: &[Inst], nregs: usize, max_words: usize) -> Option<Liveness> {
        let n = insts.len();
        let w = nregs.div_ceil(64).max(1);
        if n.saturating_mul(w) > max_words {
            return None;
        }
        let mut uses = vec![0u64; n * w];
        let mut kills = vec![0u64; n * w];
        for (pc, i) in insts.iter().enumerate() {
            for &u in &i.sb_use[..i.n_use as usize] {
                if (u as usize) < nregs {
                    uses[pc * w + u as usize / 64] |= 1 << (u % 64);
                }
            }
            if i.guard == NO_PRED {
                for &d in &i.sb_def[..i.n_def as usize] {
                    if (d as usize) < nregs {
                        kills[pc * w + d as usize / 64] |= 1 << (d % 64);
                    }
                }
            }
        }
        let mut live_in = vec![0u64; n * w];
        let mut live_out = vec![0u64; n * w];
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..n).rev() {
                let (s, k) = successors(insts, pc);
                for j in 0..w {
                    let mut out = 0u64;
                    for &t in &s[..k] {
                        out |= live_in[t * w + j];
                    }
                    live_out[pc * w + j] = out;
                    let inn = uses[pc * w + j] | (out & !kills[pc * w + j]);
                    if inn != live_in[pc * w + j] {
                        live_in[pc * w + j] = inn;
                        changed = true;
                    }
                }
            }
        }
        Some(Liveness { words: w, live_in, live_out })
    }

    /// Registers live on entry to `pc`, as bitset words.
    pub fn live_in(&self, pc: usize) -> &[u64] {
        &self.live_in[pc * self.words..(pc + 1) * self.words]
    }

    /// Registers live after `pc`, as bitset words.
    pub fn live_out(&self, pc: usize) -> &[u64] {
        &self.live_out[pc * self.words..(pc + 1) * self.words]
    }

    /// Whether register `r`'s value after `pc` may still be read.
    pub fn is_live_out(&self, pc: usize, r: u16) -> bool {
        self.live_out(pc)[r as usize / 64] >> (r % 64) & 1 == 1
    }
}

/// Per general register (of `nregs`): whether it has at least one definition and every
/// definition satisfies `pred` (a register whose value always comes from one kind of
/// source: constant-bank reads for the register estimate, uniform values for the
/// LLC-Compute tagger).
pub fn every_def(insts: &[Inst], nregs: usize, pred: impl Fn(&Inst) -> bool) -> Vec<bool> {
    // None: no definition seen yet
    let mut all: Vec<Option<bool>> = vec![None; nregs];
    for i in insts {
        let ok = pred(i);
        for &d in &i.sb_def[..i.n_def as usize] {
            if (d as usize) < nregs {
                let e = &mut all[d as usize];
                *e = Some(e.unwrap_or(true) && ok);
            }
        }
    }
    all.into_iter().map(|c| c == Some(true)).collect()
}
