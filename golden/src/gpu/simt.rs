//! SIMT reconvergence stack (Fung et al., MICRO 2007; GPGPU-Sim `simt_stack`).
//!
//! Each entry is (pc, reconvergence pc, active mask). A divergent branch turns the top
//! entry into the reconvergence entry (pc = immediate post-dominator) and pushes the
//! not-taken and then the taken path, so the taken path runs first (our choice). An
//! entry is popped when its pc reaches its reconvergence pc; exited lanes are removed
//! from every entry.

use super::ptx::RPC_EXIT;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimtEntry {
    pub pc: u32,
    pub rpc: u32,
    pub mask: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimtStack {
    entries: Vec<SimtEntry>,
    /// Deepest the stack has been (statistics).
    pub max_depth: usize,
}

impl SimtStack {
    pub fn new() -> Self {
        SimtStack { entries: Vec::with_capacity(8), max_depth: 0 }
    }

    /// Start a warp at `pc` with lanes `mask`.
    pub fn reset(&mut self, pc: u32, mask: u32) {
        self.entries.clear();
        if mask != 0 {
            self.entries.push(SimtEntry { pc, rpc: RPC_EXIT, mask });
        }
        self.max_depth = self.entries.len();
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[inline(always)]
    pub fn pc(&self) -> u32 {
        self.entries.last().map_or(RPC_EXIT, |e| e.pc)
    }

    #[inline(always)]
    pub fn mask(&self) -> u32 {
        self.entries.last().map_or(0, |e| e.mask)
    }

    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    #[inline(always)]
    fn reconverge(&mut self) {
        while let Some(top) = self.entries.last() {
            if top.pc == top.rpc {
                self.entries.pop();
            } else {
                break;
            }
        }
    }

    /// Continue at `next` (straight-line code).
    #[inline(always)]
    pub fn advance(&mut self, next: u32) {
        if let Some(top) = self.entries.last_mut() {
            top.pc = next;
        }
        self.reconverge();
    }

    /// A branch at the top entry: `taken` lanes go to `target`, the rest fall through
    /// to `fallthrough`; `rpc` is the branch's reconvergence point.
    pub fn branch(&mut self, taken: u32, target: u32, fallthrough: u32, rpc: u32) {
        let active = self.mask();
        let taken = taken & active;
        let not_taken = active & !taken;
        if taken == 0 {
            self.advance(fallthrough);
        } else if not_taken == 0 {
            self.advance(target);
        } else {
            if let Some(top) = self.entries.last_mut() {
                top.pc = rpc;
            }
            if fallthrough != rpc {
                self.entries.push(SimtEntry { pc: fallthrough, rpc, mask: not_taken });
            }
            if target != rpc {
                self.entries.push(SimtEntry { pc: target, rpc, mask: taken });
            }
            self.max_depth = self.max_depth.max(self.entries.len());
            self.reconverge();
        }
    }

    /// Lanes in `mask` exit; returns true when the whole warp is done.
    pub fn exit(&mut self, mask: u32) -> bool {
        for e in &mut self.entries {
            e.mask &= !mask;
        }
        self.entries.retain(|e| e.mask != 0);
        self.reconverge();
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diverge_and_reconverge() {
        let mut s = SimtStack::new();
        s.reset(0, 0xF);
        // branch at pc 0 to 5, fallthrough 1, reconverge at 8
        s.branch(0b0011, 5, 1, 8);
        assert_eq!((s.pc(), s.mask()), (5, 0b0011));
        s.advance(8); // taken path reaches the reconvergence point
        assert_eq!((s.pc(), s.mask()), (1, 0b1100));
        s.advance(8);
        assert_eq!((s.pc(), s.mask()), (8, 0xF));
        assert_eq!(s.depth(), 1);
    }

    #[test]
    fn exits_remove_lanes_everywhere() {
        let mut s = SimtStack::new();
        s.reset(0, 0xF);
        s.branch(0b0001, 5, 1, RPC_EXIT);
        assert!(!s.exit(0b0001));
        assert_eq!((s.pc(), s.mask()), (1, 0b1110));
        assert!(s.exit(0b1110));
    }

    #[test]
    fn uniform_branches_do_not_push() {
        let mut s = SimtStack::new();
        s.reset(0, 0xF);
        s.branch(0xF, 7, 1, 9);
        assert_eq!((s.pc(), s.depth()), (7, 1));
        s.branch(0, 2, 8, 9);
        assert_eq!((s.pc(), s.depth()), (8, 1));
    }
}
