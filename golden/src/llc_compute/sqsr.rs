//! What both Service Queue variants share (spec §1.6, §1.7: "same logic, different
//! connections"): the SQMU's CP decode with allocation or fallback, the SQSR entries,
//! the ready-order FIFO, the temporary buffer and its fill order, the ALU pipeline
//! bookkeeping, the store and response queues, the fallback-load queue.
//!
//! [`super::sq`] (at an LLC partition) and [`super::sq_core`] (in a core, Omni) wrap
//! one [`Sqsr`] each and add their connections: the LLC request port, or the NoC port,
//! shared memory and the core's ALU. The wrapper's `eval` copies the registered
//! [`Sqsr`] into a next state ([`Sqsr::sync_from`]) and calls the methods below on it,
//! reading the current one, as the hardware's next-state logic reads the `_r` registers.
//!
//! Speed (no change to any cycle's behaviour): the next state is the state before the
//! last commit, brought up to date by copying only the entries either of the two wrote
//! since it was synchronised ([`Touched`]); every write to an entry of a next state goes
//! through [`Sqsr::ent_mut`] (or a method here that records it). Debug builds check after
//! each synchronisation that every entry equals the registered one.

use std::collections::VecDeque;

use super::chain::Pattern;
use super::lane_op::chain_result;
use super::packet::{ComputePacket, Flit};

/// Response kinds (the CP's `resp_kind`, spec §2.3), the same codes on both variants.
pub const RESP_ACK: u32 = 0;
pub const RESP_DATA: u32 = 1;
pub const RESP_BITMAP: u32 = 2;

/// One SQSR entry (spec §1.6.1; the core variant keeps the same fields, its operands'
/// shared-memory slots are `2 × entry + which`, so no pointer is stored).
#[derive(Debug, PartialEq, Eq, Default)]
pub struct SqEntry {
    pub valid: bool,
    pub cp: ComputePacket,
    /// Memory operands of the pattern (1 or 2).
    pub loads: usize,
    /// The operand's load was issued: a TOUCH at an LLC, a LOAD_REQ from a core.
    pub issued: [bool; 2],
    /// The operand is present: in the LLC (present notification) or in shared memory.
    pub present: [bool; 2],
    /// The ALU's result (vector, compare bitmap), set at dispatch.
    pub result: Option<(Vec<u32>, u32)>,
}

/// A temporary-buffer slot: the entry it holds and its operands as they arrive.
pub type BufSlot = Option<(usize, [Option<Vec<u32>>; 2])>;

/// A fallback load waiting for its port: (addr, which, src node, oq_tag).
pub type FbLoad = (u64, u32, u32, u32);

/// A buffer-fill read to issue: the entry, its slot, which operand, and whether it
/// starts the entry (takes the ready FIFO's head and the free slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fill {
    pub entry: usize,
    pub slot: usize,
    pub which: u32,
    pub start: bool,
}

/// The ALU request of a cycle (the oldest buffer entry with all its operands).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AluStep {
    /// An op wants the ALU (the copy, pattern 3, passes without it).
    pub req: bool,
    /// An op enters the ALU.
    pub fire: bool,
}

/// The entries of an [`Sqsr`] written since it was last synchronised (bit `e % 64` of
/// word `e / 64`). Bookkeeping of the model, not state: it compares equal always.
#[derive(Debug, Clone, Default)]
pub struct Touched(Vec<u64>);

impl PartialEq for Touched {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Touched {}

impl Touched {
    /// Every entry of an SQSR of `n` (a state that may differ anywhere: new or reset).
    fn all(n: usize) -> Self {
        Touched(vec![u64::MAX; n.div_ceil(64).max(1)])
    }

    fn set(&mut self, e: usize) {
        self.0[e / 64] |= 1 << (e % 64);
    }
}

/// The registered state the two variants share.
#[derive(Debug, PartialEq, Eq)]
pub struct Sqsr {
    pub ents: Vec<SqEntry>,
    /// Entries written since the last [`Self::sync_from`] (see the module doc).
    touched: Touched,
    /// Entries whose operands are present, in the order they became ready.
    pub ready_q: VecDeque<usize>,
    /// Buffer slots: the entry and its operands as they arrive.
    pub bufs: Vec<BufSlot>,
    /// Occupied slots in the order they were handed out.
    pub buf_order: VecDeque<usize>,
    /// The entry whose second operand read is still to be issued, and its slot.
    pub filling: Option<(usize, usize)>,
    /// In the ALU: (cycles left, entry).
    pub pipe: Vec<(u32, usize)>,
    /// Entries whose result store is to be issued (WRITE at an LLC, STORE_REQ from a core).
    pub store_q: VecDeque<usize>,
    /// Entries whose response is to be offered.
    pub resp_q: VecDeque<usize>,
    /// Fallback loads of CPs that came while the SQSR was full.
    pub fb: VecDeque<FbLoad>,
}

// `clone_from` reuses the buffers: a wrapper's `eval` copies the registered state into
// the next state every cycle, and a derived `clone_from` would allocate each entry's
// result vector (most of an Omni-Compute GPU run's time before this).
impl Clone for SqEntry {
    fn clone(&self) -> Self {
        let mut e = SqEntry::default();
        e.clone_from(self);
        e
    }

    fn clone_from(&mut self, src: &Self) {
        if !src.valid && !self.valid {
            // a free entry is always the default one (allocation writes every field,
            // freeing resets it): nothing to copy, the common case in a mostly idle SQSR
            debug_assert!(*self == SqEntry::default() && *src == SqEntry::default(), "a free SQSR entry holds state");
            return;
        }
        let SqEntry { valid, cp, loads, issued, present, result } = src;
        (self.valid, self.cp, self.loads, self.issued, self.present) = (*valid, *cp, *loads, *issued, *present);
        match (&mut self.result, result) {
            (Some((v, m)), Some((sv, sm))) => {
                v.clone_from(sv);
                *m = *sm;
            }
            (r, s) => *r = s.clone(),
        }
    }
}

impl Clone for Sqsr {
    fn clone(&self) -> Self {
        let mut s = Sqsr::new(0, 0);
        s.clone_from(self);
        s
    }

    fn clone_from(&mut self, src: &Self) {
        self.ents.clone_from(&src.ents);
        // a copy may later be synchronised against a state that is not its source
        self.touched = Touched::all(src.ents.len());
        self.copy_queues(src);
    }
}

impl Sqsr {
    /// Make `self` equal to `src` when `self` is `src`'s source (`src` was synchronised
    /// from `self`, then written) or was synchronised from `src` and written since:
    /// copies the entries either wrote and the queues. `self` then counts as synchronised.
    pub fn sync_from(&mut self, src: &Self) {
        if self.ents.len() != src.ents.len() || self.touched.0.len() != src.touched.0.len() {
            self.clone_from(src);
        } else {
            for (w, (a, b)) in self.touched.0.iter().zip(&src.touched.0).enumerate() {
                let mut m = a | b;
                while m != 0 {
                    let e = w * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    if let (Some(d), Some(s)) = (self.ents.get_mut(e), src.ents.get(e)) {
                        d.clone_from(s);
                    }
                }
            }
            self.copy_queues(src);
        }
        self.touched.0.fill(0);
        debug_assert!(self.ents == src.ents, "an SQSR entry was written without Sqsr::ent_mut");
    }

    /// Entry `e` for writing (recorded for [`Self::sync_from`]).
    pub fn ent_mut(&mut self, e: usize) -> &mut SqEntry {
        self.touched.set(e);
        &mut self.ents[e]
    }

    fn copy_queues(&mut self, src: &Self) {
        let Sqsr { ents: _, touched: _, ready_q, bufs, buf_order, filling, pipe, store_q, resp_q, fb } = src;
        self.ready_q.clone_from(ready_q);
        self.bufs.clone_from(bufs);
        self.buf_order.clone_from(buf_order);
        self.filling = *filling;
        self.pipe.clone_from(pipe);
        self.store_q.clone_from(store_q);
        self.resp_q.clone_from(resp_q);
        self.fb.clone_from(fb);
    }
}

/// A memory operand's byte address (`which` 0 = a, 1 = b).
pub fn operand(cp: &ComputePacket, which: u32) -> u64 {
    if which == 0 {
        cp.addr_a
    } else {
        cp.addr_b
    }
}

/// Byte enables of a store: 4 per active lane (`all`: every lane, a planted bug).
pub fn byte_enables(mask: u32, lanes: usize, all: bool) -> u128 {
    (0..lanes).filter(|k| all || (mask >> k) & 1 == 1).fold(0u128, |m, k| m | (0xf << (4 * k)))
}

impl Sqsr {
    pub fn new(n_ent: usize, n_buf: usize) -> Self {
        Self {
            ents: vec![SqEntry::default(); n_ent],
            touched: Touched::all(n_ent),
            ready_q: VecDeque::new(),
            bufs: vec![None; n_buf],
            buf_order: VecDeque::new(),
            filling: None,
            pipe: Vec::new(),
            store_q: VecDeque::new(),
            resp_q: VecDeque::new(),
            fb: VecDeque::new(),
        }
    }

    pub fn live(&self) -> usize {
        self.ents.iter().filter(|e| e.valid).count()
    }

    pub fn full(&self) -> bool {
        self.live() == self.ents.len()
    }

    /// `st_count`, `st_full`, `st_buf_count` (registered).
    pub fn status(&self) -> (u32, bool, u32) {
        (self.live() as u32, self.full(), self.buf_order.len() as u32)
    }

    /// The lowest valid entry with an operand whose load is not issued yet, and that operand.
    pub fn next_load(&self) -> Option<(usize, usize)> {
        self.ents.iter().enumerate().find_map(|(x, en)| if en.valid { (0..en.loads).find(|k| !en.issued[*k]).map(|k| (x, k)) } else { None })
    }

    /// The buffer-fill read of this cycle: the second operand of the entry being
    /// filled, else the first of the ready FIFO's head when a slot is free.
    pub fn next_fill(&self) -> Option<Fill> {
        let free_slot = self.bufs.iter().position(|b| b.is_none());
        if let Some((entry, slot)) = self.filling {
            Some(Fill { entry, slot, which: 1, start: false })
        } else if let (Some(&entry), Some(slot)) = (self.ready_q.front(), free_slot) {
            Some(Fill { entry, slot, which: 0, start: true })
        } else {
            None
        }
    }

    /// `n` after the fill read `f` (of `self`'s state) was accepted.
    pub fn take_fill(&self, n: &mut Self, f: Fill) {
        if f.start {
            n.ready_q.pop_front();
            n.bufs[f.slot] = Some((f.entry, [None, None]));
            n.buf_order.push_back(f.slot);
        }
        n.filling = (f.which == 0 && self.ents[f.entry].loads == 2).then_some((f.entry, f.slot));
    }

    /// The SQMU takes a CP: a free entry (the lowest), or, when the SQSR is full, one
    /// fallback load per memory operand and no SQSR state.
    pub fn accept_cp(&self, n: &mut Self, flit: &Flit) {
        let cp = ComputePacket::decode(flit);
        let loads = Pattern::get(cp.pattern).map_or(1, |p| p.loads());
        if self.full() {
            for k in 0..loads as u32 {
                n.fb.push_back((operand(&cp, k), k, cp.src_node, cp.oq_tag));
            }
        } else {
            let e = self.ents.iter().position(|e| !e.valid).expect("not full");
            *n.ent_mut(e) = SqEntry { valid: true, cp, loads, ..Default::default() };
        }
    }

    /// Operand `which` of entry `e` is present; the entry joins the ready FIFO with its last one.
    pub fn set_present(&mut self, e: usize, which: usize) {
        let en = self.ent_mut(e);
        en.present[which] = true;
        if en.present[..en.loads].iter().all(|p| *p) {
            self.ready_q.push_back(e);
        }
    }

    /// Operand data for the buffer slot holding entry `e` (an LLC read return).
    pub fn fill_data(&mut self, e: usize, which: u32, data: &[u32]) {
        if let Some(b) = self.bufs.iter_mut().flatten().find(|b| b.0 == e) {
            b.1[which as usize] = Some(data.to_vec());
        }
    }

    /// The ALU of a cycle into `n`: results leave the pipeline (to the store queue when
    /// the pattern stores, else to the response queue), then the oldest buffer entry
    /// with all its operands is dispatched when `gnt` (the copy needs no ALU and always
    /// goes); patterns 8/9 take two dependent ops.
    pub fn alu(&self, n: &mut Self, gnt: bool, alu_lat: u32, lanes: usize) -> AluStep {
        n.pipe.clear();
        for &(left, e) in &self.pipe {
            if left <= 1 {
                if self.ents[e].cp.resp_kind == RESP_ACK {
                    n.store_q.push_back(e);
                } else {
                    n.resp_q.push_back(e);
                }
            } else {
                n.pipe.push((left - 1, e));
            }
        }
        let mut step = AluStep::default();
        if let Some(&slot) = self.buf_order.front() {
            let (e, ops) = self.bufs[slot].as_ref().unwrap();
            let en = &self.ents[*e];
            if ops[..en.loads].iter().all(|x| x.is_some()) {
                let n_ops = Pattern::get(en.cp.pattern).map_or(1, |p| p.alu_ops()) as u32;
                step.req = n_ops > 0;
                if n_ops == 0 || gnt {
                    step.fire = n_ops > 0;
                    let a = ops[0].clone().unwrap();
                    let b = ops[1].clone().unwrap_or_else(|| vec![0; lanes]);
                    n.ent_mut(*e).result = Some(chain_result(&en.cp, &a, &b));
                    n.pipe.push(((alu_lat * n_ops).max(1), *e));
                    n.bufs[slot] = None;
                    n.buf_order.pop_front();
                }
            }
        }
        step
    }

    /// The response of entry `e`: (dst, kind, oq_tag, data), the bitmap in word 0 of a BITMAP.
    pub fn response(&self, e: usize, lanes: usize) -> (u32, u32, u32, Vec<u32>) {
        let en = &self.ents[e];
        let (res, bm) = en.result.clone().expect("responding entries have a result");
        let data = match en.cp.resp_kind {
            RESP_DATA => res,
            RESP_BITMAP => {
                let mut d = vec![0; lanes];
                d[0] = bm;
                d
            }
            _ => vec![0; lanes],
        };
        (en.cp.src_node, en.cp.resp_kind, en.cp.oq_tag, data)
    }

    /// The response of the response queue's head was taken: the entry is freed.
    pub fn respond(&mut self) {
        let e = self.resp_q.pop_front().expect("a response was offered");
        *self.ent_mut(e) = SqEntry::default();
    }
}
