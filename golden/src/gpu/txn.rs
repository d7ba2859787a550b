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

/// A stamp not reached yet.
pub const UNSTAMPED: u64 = u64::MAX;

/// Where an SM's L1 miss is along its round trip (instrumentation only: nothing in the
/// model reads these). Cycles, [`UNSTAMPED`] until reached:
/// * `issue`: the LD/ST unit sends the miss to the SM's miss queue (the transaction is
///   allocated), the cycle after the load issued;
/// * `arrive`: the memory partition takes the request from the network into its input
///   queue;
/// * `ready`: the reply enters the partition's output queue (LLC hit: the tag pipeline's
///   latency after the tag access; miss: the cycle DRAM returns the line);
/// * `injected`: the reply leaves that queue into the network (the node's network
///   interface).
///
/// The fifth stamp, delivery, is the cycle the SM takes the reply
/// ([`super::stats::MissLatencyStats::record`]). `from_dram`: the reply waited for a
/// DRAM fill (an LLC miss, or a merge into one), not an LLC hit. `zero_load`: the
/// request's and the reply's network time on an idle network ([`super::net::ZeroLoad`];
/// [`UNSTAMPED`] where not derived).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxnStamps {
    pub issue: u64,
    pub arrive: u64,
    pub ready: u64,
    pub injected: u64,
    pub from_dram: bool,
    pub zero_load: u64,
}

impl TxnStamps {
    pub const NONE: TxnStamps = TxnStamps { issue: UNSTAMPED, arrive: UNSTAMPED, ready: UNSTAMPED, injected: UNSTAMPED, from_dram: false, zero_load: UNSTAMPED };
}

/// Slab of transactions with a deterministic free list.
#[derive(Debug, Default)]
pub struct TxnTable {
    slots: Vec<Txn>,
    /// Per slot: the round-trip stamps of its transaction.
    stamps: Vec<TxnStamps>,
    free: Vec<u32>,
    live: usize,
    /// Planted bug for the latency-breakdown test (`golden/tests/gpu_timing.rs`):
    /// the issue and arrival stamps are recorded swapped. Off in every real run.
    #[doc(hidden)]
    pub planted_swap_issue_arrive: bool,
}

impl TxnTable {
    pub fn alloc(&mut self, t: Txn) -> u32 {
        self.live += 1;
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = t;
                self.stamps[i as usize] = TxnStamps::NONE;
                i
            }
            None => {
                self.slots.push(t);
                self.stamps.push(TxnStamps::NONE);
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// Transaction `i`'s round-trip stamps.
    #[inline]
    pub fn stamps(&self, i: u32) -> TxnStamps {
        let s = self.stamps[i as usize];
        if self.planted_swap_issue_arrive {
            return TxnStamps { issue: s.arrive, arrive: s.issue, ..s };
        }
        s
    }

    #[inline]
    pub fn stamps_mut(&mut self, i: u32) -> &mut TxnStamps {
        &mut self.stamps[i as usize]
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
