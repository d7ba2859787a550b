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
