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

/// The stack with its top entry held in place (the issue stage reads the top's pc and
/// mask for every warp it checks; only divergent code touches the entries below).
#[derive(Debug, Clone)]
#[repr(C)]
pub struct SimtStack {
    /// The top entry, meaningful unless `empty` (which sits beside it: `pc` and `mask`
    /// read one cache line of the warp slot).
    top: SimtEntry,
    empty: bool,
    /// The entries below the top, bottom first.
    below: Vec<SimtEntry>,
    /// Deepest the stack has been (statistics).
    pub max_depth: usize,
}

impl Default for SimtStack {
    fn default() -> Self {
        Self::new()
    }
}

impl SimtStack {
    pub fn new() -> Self {
        SimtStack { top: SimtEntry { pc: RPC_EXIT, rpc: RPC_EXIT, mask: 0 }, below: Vec::with_capacity(8), empty: true, max_depth: 0 }
    }

    /// Start a warp at `pc` with lanes `mask`.
    pub fn reset(&mut self, pc: u32, mask: u32) {
        self.below.clear();
        self.empty = mask == 0;
        if mask != 0 {
            self.top = SimtEntry { pc, rpc: RPC_EXIT, mask };
        }
        self.max_depth = self.depth();
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    #[inline(always)]
    pub fn pc(&self) -> u32 {
        if self.empty {
            RPC_EXIT
        } else {
            self.top.pc
        }
    }

    #[inline(always)]
    pub fn mask(&self) -> u32 {
        if self.empty {
            0
        } else {
            self.top.mask
        }
    }

    pub fn depth(&self) -> usize {
        if self.empty {
            0
        } else {
            self.below.len() + 1
        }
    }

    #[inline(always)]
    fn pop(&mut self) {
        match self.below.pop() {
            Some(e) => self.top = e,
            None => self.empty = true,
        }
    }

    fn push(&mut self, e: SimtEntry) {
        if !self.empty {
            self.below.push(self.top);
        }
        self.top = e;
        self.empty = false;
    }

    #[inline(always)]
    fn reconverge(&mut self) {
        while !self.empty && self.top.pc == self.top.rpc {
            self.pop();
        }
    }

    /// Continue at `next` (straight-line code).
    #[inline(always)]
    pub fn advance(&mut self, next: u32) {
        if !self.empty {
            self.top.pc = next;
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
            if !self.empty {
                self.top.pc = rpc;
            }
            if fallthrough != rpc {
                self.push(SimtEntry { pc: fallthrough, rpc, mask: not_taken });
            }
            if target != rpc {
                self.push(SimtEntry { pc: target, rpc, mask: taken });
            }
            self.max_depth = self.max_depth.max(self.depth());
            self.reconverge();
        }
    }

    /// Lanes in `mask` exit; returns true when the whole warp is done.
    pub fn exit(&mut self, mask: u32) -> bool {
        for e in &mut self.below {
            e.mask &= !mask;
        }
        self.below.retain(|e| e.mask != 0);
        self.top.mask &= !mask;
        if !self.empty && self.top.mask == 0 {
            self.pop();
        }
        self.reconverge();
        self.empty
    }
}
