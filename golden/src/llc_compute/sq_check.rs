//! The LLC-partition SQ scoreboard: spec §6.4 SQ invariants 1-6 and 8, from the ports,
//! and the chain ledger ([`SqLedger`]) it shares with the core variant's
//! ([`super::sq_core_check`]): CPs in, live chains, fallback loads owed, responses.
//!
//! Chains are known by `(src_node, oq_tag)` from the CP; the LLC tag of a chain is
//! learnt from its first TOUCH. The expected WRITE data and DATA/BITMAP payload come
//! from the read data the LLC returned, through this file's own reading of §2.2 (for
//! the ops the traffic uses), not through the model's ALU.

use std::collections::{HashMap, VecDeque};

use super::config::LlcComputeConfig;
use super::packet::ComputePacket;
use super::sq::{Sq, SqIn, SqOut, LR_FB_LOAD, LR_READ, LR_TOUCH, LR_WRITE};
use crate::invariant::Violation;
use crate::model::Scoreboard;

/// A chain as both SQ scoreboards know it, by `(src_node, oq_tag)`.
#[derive(Debug, Clone)]
pub struct Chain {
    pub cp: ComputePacket,
    pub loads: usize,
    /// LLC variant: the present notifications seen.
    pub present: [bool; 2],
    /// The operand data delivered (LLC read data, or NoC load data at a core).
    pub data: [Option<Vec<u32>>; 2],
    /// Core variant: the LOAD_REQs seen.
    pub requested: [bool; 2],
    /// WRITEs (LLC) or STORE_REQs (core) seen.
    pub stores: u32,
    /// Core variant: the store ack delivered.
    pub acked: bool,
}

/// The chain ledger both SQ scoreboards keep: CPs in, chains live, fallback loads owed,
/// responses; invariants 1, 2 and 8 and the response half of 5 and 6.
pub struct SqLedger {
    pub n_ent: u32,
    pub n_buf: u32,
    pub lanes: usize,
    pub chains: HashMap<(u32, u32), Chain>,
    /// The SQSR entry (tag) of each live chain, as far as known.
    pub by_tag: HashMap<u32, (u32, u32)>,
    fb_expected: VecDeque<(u64, u32, u32, u32)>,
    pub cps_in: u64,
    pub responses: u64,
    pub fallbacks: u64,
}

pub(crate) fn v(cycle: u64, inv: &'static str, detail: String) -> Violation {
    Violation { cycle, invariant: inv, detail }
}

/// Byte enables of the active lanes (4 per lane).
pub(crate) fn active_bytes(mask: u32, lanes: usize) -> u128 {
    (0..lanes).filter(|k| (mask >> k) & 1 == 1).fold(0u128, |m, k| m | (0xf << (4 * k)))
}

impl SqLedger {
    pub fn new(c: &LlcComputeConfig) -> Self {
        Self {
            n_ent: c.sq.entries,
            n_buf: c.sq.buffer,
            lanes: c.oq.lanes as usize,
            chains: HashMap::new(),
            by_tag: HashMap::new(),
            fb_expected: VecDeque::new(),
            cps_in: 0,
            responses: 0,
            fallbacks: 0,
        }
    }

    pub fn live(&self) -> u32 {
        self.chains.len() as u32
    }

    /// Invariants 1 (bounds; the count is ours) and 8 (conservation).
    pub fn bounds(&self, cycle: u64, st_count: u32, st_buf_count: u32) -> Result<(), Violation> {
        let live = self.live();
        if st_count != live || st_count > self.n_ent || st_buf_count > self.n_buf {
            return Err(v(cycle, "1 bounds", format!("st_count {st_count} (scoreboard {live}, N {}), st_buf_count {st_buf_count} (N_BUF {})", self.n_ent, self.n_buf)));
        }
        if self.cps_in != self.responses + self.fallbacks + u64::from(live) {
            return Err(v(cycle, "8 conservation", format!("{} CPs in, {} responses, {} fallbacks, {live} live", self.cps_in, self.responses, self.fallbacks)));
        }
        Ok(())
    }

    /// A CP taken: a fallback (one FB_LOAD owed per memory operand) when the SQSR was
    /// `full` at the cycle's start (registered: a response of the same cycle frees its
    /// entry only for the next), else a new live chain, in SQSR entry `tag` when the
    /// scoreboard knows it.
    pub fn cp_in(&mut self, cp: ComputePacket, full: bool, tag: Option<u32>) {
        let loads = super::chain::Pattern::get(cp.pattern).map_or(1, |p| p.loads());
        self.cps_in += 1;
        if full {
            self.fallbacks += 1;
            for k in 0..loads as u32 {
                self.fb_expected.push_back((if k == 0 { cp.addr_a } else { cp.addr_b }, k, cp.src_node, cp.oq_tag));
            }
        } else {
            let key = (cp.src_node, cp.oq_tag);
            if let Some(t) = tag {
                self.by_tag.insert(t, key);
            }
            self.chains.insert(key, Chain { cp, loads, present: [false; 2], data: [None, None], requested: [false; 2], stores: 0, acked: false });
        }
    }

    /// Invariant 2: the oldest owed fallback load is `got` = (addr, which, reply node, oq_tag).
    pub fn fallback_load(&mut self, cycle: u64, got: (u64, u32, u32, u32)) -> Result<(), Violation> {
        let want = self.fb_expected.pop_front().ok_or_else(|| v(cycle, "2 fallback", format!("FB_LOAD {got:?} not expected")))?;
        if want != got {
            return Err(v(cycle, "2 fallback", format!("FB_LOAD {got:?}, expected {want:?}")));
        }
        Ok(())
    }

    /// The expected (result vector, bitmap) of a chain from its delivered operands.
    pub fn result(&self, ch: &Chain) -> (Vec<u32>, u32) {
        expected(&ch.cp, ch.data[0].as_deref().unwrap_or(&[]), ch.data[1].as_deref().unwrap_or(&[]), self.lanes)
    }

    /// Invariants 5 and 6 on a response taken: chain `key` is live (and leaves), a
    /// storing chain's store is done (`stored`; the broken invariant is `order`), kind
    /// and payload are its result's.
    pub fn response(&mut self, cycle: u64, key: (u32, u32), kind: u32, data: &[u32], stored: impl FnOnce(&Chain) -> bool, order: &'static str) -> Result<Chain, Violation> {
        let ch = self.chains.remove(&key).ok_or_else(|| v(cycle, "6 one response", format!("response kind {kind} to {key:?}, not live")))?;
        if ch.cp.resp_kind == 0 && !stored(&ch) {
            return Err(v(cycle, order, format!("{key:?}: ACK after {} stores, acked {}", ch.stores, ch.acked)));
        }
        let (r, bm) = self.result(&ch);
        let ok = kind == ch.cp.resp_kind
            && match kind {
                1 => data == r,
                2 => data[0] == bm,
                _ => true,
            };
        if !ok {
            return Err(v(
                cycle,
                "5 function",
                format!(
                    "{key:?} pattern {}: response kind {kind} data {:x?}, expected kind {} {:x?} bitmap {bm:#x}",
                    ch.cp.pattern,
                    &data[..4.min(self.lanes)],
                    ch.cp.resp_kind,
                    &r[..4.min(self.lanes)]
                ),
            ));
        }
        self.responses += 1;
        Ok(ch)
    }

    /// Invariant 8 at the end: nothing live, nothing owed.
    pub fn finish(&self, cycle: u64, st_count: u32) -> Result<(), Violation> {
        if !self.chains.is_empty() || st_count != 0 || !self.fb_expected.is_empty() {
            return Err(v(cycle, "8 conservation", format!("{} chains live, st_count {st_count}, {} fallback loads missing", self.chains.len(), self.fb_expected.len())));
        }
        Ok(())
    }
}

/// Spec §2.2/§2.3 for the traffic's ops: one lane.
fn lane(op: u32, fp: bool, a: u32, b: u32) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match (op, fp) {
        (0, _) => a.wrapping_add(b),
        (1, _) => a.wrapping_sub(b),
        (7, _) => a ^ b,
        (8, _) => (x + y).to_bits(),
        (10, _) => (x * y).to_bits(),
        _ => panic!("op {op} is not in the traffic's set"),
    }
}

fn compare(op: u32, fp: bool, a: u32, b: u32) -> bool {
    match (op, fp) {
        (0, false) => a == b,
        (2, false) => (a as i32) < (b as i32),
        (0, true) => f32::from_bits(a) == f32::from_bits(b),
        (2, true) => f32::from_bits(a) < f32::from_bits(b),
        _ => panic!("compare {op} is not in the traffic's set"),
    }
}

/// Expected (result vector, bitmap) of a chain from its operand vectors.
pub(crate) fn expected(cp: &ComputePacket, a: &[u32], b: &[u32], lanes: usize) -> (Vec<u32>, u32) {
    let mut r = vec![0; lanes];
    let mut bm = 0;
    for k in (0..lanes).filter(|k| (cp.mask >> k) & 1 == 1) {
        let (x, y, i) = (a[k], b.get(k).copied().unwrap_or(0), cp.imm);
        let fp = cp.dtype;
        match cp.pattern {
            1 | 2 => r[k] = lane(cp.op0, fp, x, y),
            3 => r[k] = x,
            4 | 7 => r[k] = lane(cp.op0, fp, x, i),
            5 => bm |= u32::from(compare(cp.op0, fp, x, y)) << k,
            6 => bm |= u32::from(compare(cp.op0, fp, x, i)) << k,
            _ => r[k] = lane(cp.op1, fp, x, lane(cp.op0, fp, y, i)),
        }
    }
    (r, bm)
}

pub struct SqScoreboard {
    pub book: SqLedger,
    pub writes: u64,
}

impl SqScoreboard {
    pub fn new(c: &LlcComputeConfig, _sq: &Sq) -> Self {
        Self { book: SqLedger::new(c), writes: 0 }
    }

    pub fn finish(&self, cycle: u64, o: &SqOut) -> Result<(), Violation> {
        self.book.finish(cycle, o.st_count)
    }
}

impl Scoreboard<Sq> for SqScoreboard {
    fn observe(&mut self, cycle: u64, i: &SqIn, o: &SqOut) -> Result<(), Violation> {
        if i.rst {
            return Ok(());
        }
        let b = &mut self.book;
        let full = b.live() == b.n_ent;
        b.bounds(cycle, o.st_count, o.st_buf_count)?;
        if i.lp_valid {
            let key = b.by_tag.get(&i.lp_tag).copied().ok_or_else(|| v(cycle, "3 present", format!("present for unknown tag {}", i.lp_tag)))?;
            b.chains.get_mut(&key).unwrap().present[i.lp_which as usize] = true;
        }
        if i.ld_valid {
            let key = b.by_tag[&i.ld_tag];
            b.chains.get_mut(&key).unwrap().data[i.ld_which as usize] = Some(i.ld_data.clone());
        }
        if o.lr_valid && i.lr_ready {
            let key = (o.lr_reply_node, o.lr_oq_tag);
            let kind = o.lr_kind;
            if kind == LR_FB_LOAD {
                b.fallback_load(cycle, (o.lr_addr, o.lr_which, o.lr_reply_node, o.lr_oq_tag))?;
            } else {
                let ch = b.chains.get_mut(&key).ok_or_else(|| v(cycle, "6 one response", format!("request kind {kind} for chain {key:?} not live")))?;
                match kind {
                    LR_TOUCH => {
                        let addr = if o.lr_which == 0 { ch.cp.addr_a } else { ch.cp.addr_b };
                        if o.lr_addr != addr || o.lr_which as usize >= ch.loads {
                            return Err(v(cycle, "3 touch", format!("TOUCH {:#x} which {} for {key:?}", o.lr_addr, o.lr_which)));
                        }
                        b.by_tag.insert(o.lr_tag, key);
                    }
                    LR_READ => {
                        if !ch.present[..ch.loads].iter().all(|p| *p) {
                            return Err(v(cycle, "3 READ only when present", format!("READ for {key:?} with present {:?}", ch.present)));
                        }
                    }
                    LR_WRITE => {
                        ch.stores += 1;
                        self.writes += 1;
                        let ch = &b.chains[&key];
                        let (want, _) = b.result(ch);
                        let wbe_want = active_bytes(ch.cp.mask, b.lanes);
                        if ch.stores > 1 || o.lr_addr != ch.cp.addr_c || o.lr_wbe != wbe_want {
                            return Err(v(
                                cycle,
                                "5 WRITE",
                                format!("{key:?}: write {} to {:#x} wbe {:#x}, expected {:#x} wbe {wbe_want:#x}", ch.stores, o.lr_addr, o.lr_wbe, ch.cp.addr_c),
                            ));
                        }
                        if let Some(k) = (0..b.lanes).find(|k| (ch.cp.mask >> k) & 1 == 1 && o.lr_wdata[*k] != want[*k]) {
                            return Err(v(cycle, "5 function", format!("{key:?} pattern {} lane {k}: {:#x}, expected {:#x}", ch.cp.pattern, o.lr_wdata[k], want[k])));
                        }
                    }
                    _ => return Err(v(cycle, "3 request", format!("kind {kind}"))),
                }
            }
        }
        if o.no_valid && i.no_ready {
            let key = (o.no_dst, o.no_oq_tag);
            b.response(cycle, key, o.no_kind, &o.no_data, |ch| ch.stores == 1, "6 WRITE before response")?;
            b.by_tag.retain(|_, k| *k != key);
        }
        if i.cp_valid && o.cp_ready {
            b.cp_in(ComputePacket::decode(&i.cp_flit), full, None);
        }
        Ok(())
    }
}
