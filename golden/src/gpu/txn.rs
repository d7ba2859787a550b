//! Memory transactions in flight between SMs and memory nodes. A packet's `tag` is the
//! index of its transaction here; the slot is freed when the reply is consumed.

/// What a transaction asks of the memory node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxnKind {
    /// Line read that fills the L1 (wakes the L1 MSHR's waiters).
    Read,
    /// Line read that bypasses the L1 (`.cg`, `.volatile`): wakes `token` only.
    ReadBypass,
    /// Write-through of the bytes in `mask`; acknowledged.
    Write,
    /// Atomic on the LLC; the reply returns the old values and wakes `token`.
    Atomic,
}

/// [`Txn::sm`] of an access made by a memory partition's hook (its completion goes to
/// the hook, not to an SM).
pub const HOOK_SM: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
pub struct Txn {
    pub kind: TxnKind,
    /// Requesting SM, or [`HOOK_SM`].
    pub sm: u32,
    pub warp: u16,
    /// Memory-instruction token (bypass reads, atomics) or L1 MSHR index (reads).
    pub token: u32,
    pub line: u64,
    /// Bytes of the line written or operated on.
    pub mask: u128,
    /// Payload bytes carried (writes, atomics).
    pub bytes: u32,
}

/// Slab of transactions with a deterministic free list.
#[derive(Debug, Default)]
pub struct TxnTable {
    slots: Vec<Txn>,
    free: Vec<u32>,
    live: usize,
}

impl TxnTable {
    pub fn alloc(&mut self, t: Txn) -> u32 {
        self.live += 1;
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = t;
                i
            }
            None => {
                self.slots.push(t);
                (self.slots.len() - 1) as u32
            }
        }
    }

    #[inline]
    pub fn get(&self, i: u32) -> &Txn {
        &self.slots[i as usize]
    }

    pub fn release(&mut self, i: u32) {
        self.live -= 1;
        self.free.push(i);
    }

    pub fn live(&self) -> usize {
        self.live
    }
}
