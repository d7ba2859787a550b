//! The LLC-partition SQ scoreboard: spec §6.4 SQ invariants 1-6 and 8, from the ports.
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

#[derive(Debug, Clone)]
struct Chain {
    cp: ComputePacket,
    loads: usize,
    present: [bool; 2],
    data: [Option<Vec<u32>>; 2],
    writes: u32,
}

pub struct SqScoreboard {
    n_ent: u32,
    n_buf: u32,
    lanes: usize,
    chains: HashMap<(u32, u32), Chain>,
    by_tag: HashMap<u32, (u32, u32)>,
    fb_expected: VecDeque<(u64, u32, u32, u32)>,
    pub cps_in: u64,
    pub responses: u64,
    pub fallbacks: u64,
    pub writes: u64,
}

fn v(cycle: u64, inv: &'static str, detail: String) -> Violation {
    Violation { cycle, invariant: inv, detail }
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

impl SqScoreboard {
    pub fn new(c: &LlcComputeConfig, _sq: &Sq) -> Self {
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
            writes: 0,
        }
    }

    pub fn finish(&self, cycle: u64, o: &SqOut) -> Result<(), Violation> {
        if !self.chains.is_empty() || o.st_count != 0 || !self.fb_expected.is_empty() {
            return Err(v(cycle, "8 conservation", format!("{} chains live, st_count {}, {} fallback loads missing", self.chains.len(), o.st_count, self.fb_expected.len())));
        }
        Ok(())
    }

    fn result(&self, ch: &Chain) -> (Vec<u32>, u32) {
        let a = ch.data[0].clone().unwrap_or_default();
        let b = ch.data[1].clone().unwrap_or_default();
        expected(&ch.cp, &a, &b, self.lanes)
    }
}

impl Scoreboard<Sq> for SqScoreboard {
    fn observe(&mut self, cycle: u64, i: &SqIn, o: &SqOut) -> Result<(), Violation> {
        if i.rst {
            return Ok(());
        }
        let live = self.chains.len() as u32;
        if o.st_count != live || o.st_count > self.n_ent || o.st_buf_count > self.n_buf {
            return Err(v(cycle, "1 bounds", format!("st_count {} (scoreboard {live}, N {}), st_buf_count {} (N_BUF {})", o.st_count, self.n_ent, o.st_buf_count, self.n_buf)));
        }
        if self.cps_in != self.responses + self.fallbacks + u64::from(live) {
            return Err(v(cycle, "8 conservation", format!("{} CPs in, {} responses, {} fallbacks, {live} live", self.cps_in, self.responses, self.fallbacks)));
        }
        if i.lp_valid {
            let key = self.by_tag.get(&i.lp_tag).copied().ok_or_else(|| v(cycle, "3 present", format!("present for unknown tag {}", i.lp_tag)))?;
            self.chains.get_mut(&key).unwrap().present[i.lp_which as usize] = true;
        }
        if i.ld_valid {
            let key = self.by_tag[&i.ld_tag];
            self.chains.get_mut(&key).unwrap().data[i.ld_which as usize] = Some(i.ld_data.clone());
        }
        if o.lr_valid && i.lr_ready {
            let key = (o.lr_reply_node, o.lr_oq_tag);
            match o.lr_kind {
                LR_FB_LOAD => {
                    let want = self.fb_expected.pop_front().ok_or_else(|| v(cycle, "2 fallback", format!("FB_LOAD {key:?} not expected")))?;
                    if want != (o.lr_addr, o.lr_which, o.lr_reply_node, o.lr_oq_tag) {
                        return Err(v(cycle, "2 fallback", format!("FB_LOAD {:?}, expected {want:?}", (o.lr_addr, o.lr_which, o.lr_reply_node, o.lr_oq_tag))));
                    }
                }
                kind => {
                    let ch = self.chains.get_mut(&key).ok_or_else(|| v(cycle, "6 one response", format!("request kind {kind} for chain {key:?} not live")))?;
                    match kind {
                        LR_TOUCH => {
                            self.by_tag.insert(o.lr_tag, key);
                            let addr = if o.lr_which == 0 { ch.cp.addr_a } else { ch.cp.addr_b };
                            if o.lr_addr != addr || o.lr_which as usize >= ch.loads {
                                return Err(v(cycle, "3 touch", format!("TOUCH {:#x} which {} for {key:?}", o.lr_addr, o.lr_which)));
                            }
                        }
                        LR_READ => {
                            if !ch.present[..ch.loads].iter().all(|p| *p) {
                                return Err(v(cycle, "3 READ only when present", format!("READ for {key:?} with present {:?}", ch.present)));
                            }
                        }
                        LR_WRITE => {
                            ch.writes += 1;
                            self.writes += 1;
                            let mask = ch.cp.mask;
                            let (want, _) = {
                                let ch = &self.chains[&key];
                                self.result(ch)
                            };
                            let wbe_want = (0..self.lanes).filter(|k| (mask >> k) & 1 == 1).fold(0u128, |m, k| m | (0xf << (4 * k)));
                            let ch = &self.chains[&key];
                            if ch.writes > 1 || o.lr_addr != ch.cp.addr_c || o.lr_wbe != wbe_want {
                                return Err(v(cycle, "5 WRITE", format!("{key:?}: write {} to {:#x} wbe {:#x}, expected {:#x} wbe {wbe_want:#x}", ch.writes, o.lr_addr, o.lr_wbe, ch.cp.addr_c)));
                            }
                            for k in (0..self.lanes).filter(|k| (mask >> k) & 1 == 1) {
                                if o.lr_wdata[k] != want[k] {
                                    return Err(v(cycle, "5 function", format!("{key:?} pattern {} lane {k}: {:#x}, expected {:#x}", ch.cp.pattern, o.lr_wdata[k], want[k])));
                                }
                            }
                        }
                        _ => return Err(v(cycle, "3 request", format!("kind {kind}"))),
                    }
                }
            }
        }
        if o.no_valid && i.no_ready {
            let key = (o.no_dst, o.no_oq_tag);
            let ch = self.chains.remove(&key).ok_or_else(|| v(cycle, "6 one response", format!("response to {key:?}, not live")))?;
            let store = ch.cp.resp_kind == 0;
            if store && ch.writes != 1 {
                return Err(v(cycle, "6 WRITE before response", format!("{key:?}: ACK after {} writes", ch.writes)));
            }
            let (r, bm) = self.result(&ch);
            let ok = o.no_kind == ch.cp.resp_kind
                && match ch.cp.resp_kind {
                    1 => o.no_data == r,
                    2 => o.no_data[0] == bm,
                    _ => true,
                };
            if !ok {
                return Err(v(cycle, "5 function", format!("{key:?} pattern {}: response kind {} data {:x?}, expected kind {} {:x?} bitmap {bm:#x}", ch.cp.pattern, o.no_kind, &o.no_data[..4.min(self.lanes)], ch.cp.resp_kind, &r[..4.min(self.lanes)])));
            }
            self.by_tag.retain(|_, k| *k != key);
            self.responses += 1;
        }
        if i.cp_valid && o.cp_ready {
            let cp = ComputePacket::decode(&i.cp_flit);
            let loads = super::chain::Pattern::get(cp.pattern).map_or(1, |p| p.loads());
            self.cps_in += 1;
            if live == self.n_ent {
                self.fallbacks += 1;
                for k in 0..loads as u32 {
                    self.fb_expected.push_back((if k == 0 { cp.addr_a } else { cp.addr_b }, k, cp.src_node, cp.oq_tag));
                }
            } else {
                self.chains.insert((cp.src_node, cp.oq_tag), Chain { cp, loads, present: [false; 2], data: [None, None], writes: 0 });
            }
        }
        Ok(())
    }
}
