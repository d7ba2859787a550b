//! Operand FIFO with a virtual initial-token prefix (spec §1.4).
//!
//! `cc_init` clears the FIFO and preloads `min(init_cnt, depth)` copies of the CR's
//! `init_val`. Those tokens are *virtual*: a prefix counter in front of the stored
//! entries, so the RTL needs one write port, not `init_cnt` of them. Pops take from
//! the prefix first. `count` is the registered occupancy (prefix + stored); `full`
//! is `count == depth` on the registered count, so a full FIFO refuses a push even
//! in a cycle in which it is popped.

/// One FIFO's registered state.
#[derive(Debug, Clone)]
pub struct Fifo {
    buf: Vec<u64>,
    head: usize,
    stored: usize,
    pre: u32,
}

impl Fifo {
    pub fn new(depth: u32) -> Self {
        Fifo { buf: vec![0; depth as usize], head: 0, stored: 0, pre: 0 }
    }

    pub fn depth(&self) -> u32 {
        self.buf.len() as u32
    }

    /// Registered occupancy: virtual prefix plus stored entries.
    pub fn count(&self) -> u32 {
        self.pre + self.stored as u32
    }

    pub fn full(&self) -> bool {
        self.count() == self.depth()
    }

    pub fn empty(&self) -> bool {
        self.count() == 0
    }

    /// Entry `i` from the head (0 = head), given the current `init_val`; 0 if `i`
    /// is not below the count.
    pub fn peek(&self, i: u32, init_val: u64) -> u64 {
        if i >= self.count() {
            0
        } else if i < self.pre {
            init_val
        } else {
            let off = (i - self.pre) as usize;
            let idx = (self.head + off) % self.buf.len();
            self.buf[idx]
        }
    }

    /// Head entry (0 when empty).
    pub fn head(&self, init_val: u64) -> u64 {
        self.peek(0, init_val)
    }

    /// Clear and preload `min(init_cnt, depth)` virtual initial tokens.
    pub fn init(&mut self, init_cnt: u32) {
        self.head = 0;
        self.stored = 0;
        self.pre = init_cnt.min(self.depth());
    }

    /// Reset: empty, no prefix.
    pub fn reset(&mut self) {
        self.init(0);
    }

    /// Apply one clock edge with an optional pop and an optional push, both decided
    /// against the registered state (pop requires non-empty, push requires non-full).
    /// Returns `(pop_applied, push_applied)`.
    pub fn clock(&mut self, pop: bool, push: Option<u64>) -> (bool, bool) {
        let full = self.full();
        let pop_ok = pop && !self.empty();
        let push_ok = push.is_some() && !full;
        if pop_ok {
            if self.pre > 0 {
                self.pre -= 1;
            } else {
                self.head = (self.head + 1) % self.buf.len();
                self.stored -= 1;
            }
        }
        if let (true, Some(v)) = (push_ok, push) {
            let tail = (self.head + self.stored) % self.buf.len();
            self.buf[tail] = v;
            self.stored += 1;
        }
        (pop_ok, push_ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    #[test]
    fn initial_tokens_come_first_then_pushed_values() {
        let mut f = Fifo::new(4);
        f.init(2);
        assert_eq!(f.count(), 2);
        f.clock(false, Some(7));
        assert_eq!(f.count(), 3);
        assert_eq!(f.head(9), 9);
        f.clock(true, None);
        assert_eq!(f.head(9), 9);
        f.clock(true, None);
        assert_eq!(f.head(9), 7);
    }

    #[test]
    fn full_refuses_push_even_when_popped() {
        let mut f = Fifo::new(2);
        f.clock(false, Some(1));
        f.clock(false, Some(2));
        assert!(f.full());
        assert_eq!(f.clock(true, Some(3)), (true, false));
        assert_eq!(f.count(), 1);
        assert_eq!(f.head(0), 2);
    }

    #[test]
    fn preload_is_clamped_to_depth() {
        let mut f = Fifo::new(3);
        f.init(15);
        assert_eq!(f.count(), 3);
        assert!(f.full());
    }

    proptest! {
        /// Against a reference queue: order, occupancy and peeks agree for any depth
        /// (powers of two or not) and any push/pop pattern.
        #[test]
        fn matches_reference_queue(depth in 1u32..20, pre in 0u32..16, ops in proptest::collection::vec((any::<bool>(), any::<Option<u16>>()), 0..200)) {
            let mut f = Fifo::new(depth);
            f.init(pre);
            let init_val = 0xABCD;
            let mut q: VecDeque<u64> = std::iter::repeat_n(init_val, pre.min(depth) as usize).collect();
            for (pop, push) in ops {
                let full = q.len() as u32 == depth;
                let (popped, pushed) = f.clock(pop, push.map(u64::from));
                prop_assert_eq!(popped, pop && !q.is_empty());
                prop_assert_eq!(pushed, push.is_some() && !full);
                if popped { q.pop_front(); }
                if pushed { q.push_back(push.unwrap() as u64); }
                prop_assert_eq!(f.count() as usize, q.len());
                for i in 0..depth {
                    prop_assert_eq!(f.peek(i, init_val), q.get(i as usize).copied().unwrap_or(0));
                }
            }
        }
    }
}
