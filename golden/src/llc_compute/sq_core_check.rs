//! The core-SQ scoreboard (Omni-Compute): spec §6.4 SQ invariants 1, 2, 5, 6 (core
//! variant: the store ack before the response), 7 (the core ALU only when the core
//! leaves it free; contention cycles counted) and 8, from the ports.
//!
//! The scoreboard allocates SQSR entries by the spec's rule as we read it (the lowest
//! free entry), so every request and response names its chain exactly.
//! Expected results come from the load data the NoC delivered, through
//! [`super::sq_check`]'s own reading of §2.2, so the shared-memory round trip is checked
//! as well as the function.

use std::collections::{HashMap, VecDeque};

use super::config::LlcComputeConfig;
use super::packet::ComputePacket;
use super::sq_check::expected;
use super::sq_core::{SqCore, SqCoreIn, SqCoreOut, NI_LOAD_DATA, NO_FB_LOAD, NO_LOAD_REQ, NO_STORE_REQ};
use crate::invariant::Violation;
use crate::model::Scoreboard;

#[derive(Debug, Clone)]
struct Chain {
    cp: ComputePacket,
    loads: usize,
    data: [Option<Vec<u32>>; 2],
    requested: [bool; 2],
    stores: u32,
    acked: bool,
}

pub struct SqCoreScoreboard {
    n_ent: u32,
    n_buf: u32,
    lanes: usize,
    self_node: u32,
    llc: Vec<u32>,
    chains: HashMap<(u32, u32), Chain>,
    by_tag: HashMap<u32, (u32, u32)>,
    fb_expected: VecDeque<(u64, u32, u32, u32)>,
    pub cps_in: u64,
    pub responses: u64,
    pub fallbacks: u64,
    pub stores: u64,
    pub contention: u64,
}

fn v(cycle: u64, inv: &'static str, detail: String) -> Violation {
    Violation { cycle, invariant: inv, detail }
}

impl SqCoreScoreboard {
    pub fn new(c: &LlcComputeConfig, sq: &SqCore) -> Self {
        let p = &c.placement;
        Self {
            n_ent: c.sq.entries,
            n_buf: c.sq.buffer,
            lanes: c.oq.lanes as usize,
            self_node: sq.self_node,
            llc: p.mcs.iter().map(|m| m.y * p.width + m.x).collect(),
            chains: HashMap::new(),
            by_tag: HashMap::new(),
            fb_expected: VecDeque::new(),
            cps_in: 0,
            responses: 0,
            fallbacks: 0,
            stores: 0,
            contention: 0,
        }
    }

    fn home(&self, addr: u64) -> u32 {
        self.llc[((addr / 128) % self.llc.len() as u64) as usize]
    }

    pub fn finish(&self, cycle: u64, o: &SqCoreOut) -> Result<(), Violation> {
        if !self.chains.is_empty() || o.st_count != 0 || !self.fb_expected.is_empty() {
            return Err(v(cycle, "8 conservation", format!("{} chains live, st_count {}, {} fallback loads missing", self.chains.len(), o.st_count, self.fb_expected.len())));
        }
        Ok(())
    }
}

impl Scoreboard<SqCore> for SqCoreScoreboard {
    fn observe(&mut self, cycle: u64, i: &SqCoreIn, o: &SqCoreOut) -> Result<(), Violation> {
        if i.rst {
            return Ok(());
        }
        let live = self.chains.len() as u32;
        // our allocation rule: the lowest free SQSR entry (registered: frees of this cycle count next cycle)
        let alloc = (0..self.n_ent).find(|t| !self.by_tag.contains_key(t));
        if o.st_count != live || o.st_count > self.n_ent || o.st_buf_count > self.n_buf {
            return Err(v(cycle, "1 bounds", format!("st_count {} (scoreboard {live}), st_buf_count {}", o.st_count, o.st_buf_count)));
        }
        if self.cps_in != self.responses + self.fallbacks + u64::from(live) {
            return Err(v(cycle, "8 conservation", format!("{} CPs in, {} responses, {} fallbacks, {live} live", self.cps_in, self.responses, self.fallbacks)));
        }
        // 7: the core's ALU only in cycles the core leaves it free
        if o.alu_fire && !(o.alu_req && i.alu_gnt) {
            return Err(v(cycle, "7 ALU sharing", format!("op dispatched with alu_req {} alu_gnt {}", o.alu_req, i.alu_gnt)));
        }
        if o.st_contend != (o.alu_req && !i.alu_gnt) {
            return Err(v(cycle, "7 ALU sharing", format!("st_contend {} with alu_req {} alu_gnt {}", o.st_contend, o.alu_req, i.alu_gnt)));
        }
        self.contention += u64::from(o.st_contend);
        if i.ni_valid {
            let key = *self.by_tag.get(&i.ni_tag).ok_or_else(|| v(cycle, "6 one response", format!("NoC reply for unknown tag {}", i.ni_tag)))?;
            let ch = self.chains.get_mut(&key).unwrap();
            if i.ni_kind == NI_LOAD_DATA {
                ch.data[i.ni_which as usize] = Some(i.ni_data.clone());
            } else {
                ch.acked = true;
            }
        }
        if o.no_valid && i.no_ready {
            match o.no_kind {
                NO_FB_LOAD => {
                    let want = self.fb_expected.pop_front().ok_or_else(|| v(cycle, "2 fallback", "FB_LOAD not expected".into()))?;
                    let got = (o.no_addr, o.no_which, o.no_reply_node, o.no_oq_tag);
                    if want != got || o.no_dst != self.home(o.no_addr) {
                        return Err(v(cycle, "2 fallback", format!("FB_LOAD {got:?} to node {}, expected {want:?} to node {}", o.no_dst, self.home(o.no_addr))));
                    }
                }
                NO_LOAD_REQ => {
                    let key = *self.by_tag.get(&o.no_tag).ok_or_else(|| v(cycle, "3 load", format!("LOAD_REQ from free entry {}", o.no_tag)))?;
                    let w = o.no_which as usize;
                    let c = &self.chains[&key];
                    if w >= c.loads || c.requested[w] || (if w == 0 { c.cp.addr_a } else { c.cp.addr_b }) != o.no_addr || c.cp.oq_tag != o.no_oq_tag {
                        return Err(v(cycle, "3 load", format!("LOAD_REQ {:#x} (which {w}) of entry {} is not its chain's {key:?}", o.no_addr, o.no_tag)));
                    }
                    self.chains.get_mut(&key).unwrap().requested[w] = true;
                    if o.no_dst != self.home(o.no_addr) || o.no_reply_node != self.self_node {
                        return Err(v(cycle, "3 load", format!("LOAD_REQ to {} reply {}, expected {} reply {}", o.no_dst, o.no_reply_node, self.home(o.no_addr), self.self_node)));
                    }
                }
                NO_STORE_REQ => {
                    let key = *self.by_tag.get(&o.no_tag).ok_or_else(|| v(cycle, "5 store", format!("STORE_REQ of unknown tag {}", o.no_tag)))?;
                    let home_c = self.home(self.chains[&key].cp.addr_c);
                    let ch = self.chains.get_mut(&key).unwrap();
                    ch.stores += 1;
                    self.stores += 1;
                    let (want, _) = expected(&ch.cp, ch.data[0].as_deref().unwrap_or(&[]), ch.data[1].as_deref().unwrap_or(&[]), self.lanes);
                    let wbe = (0..self.lanes).filter(|k| (ch.cp.mask >> k) & 1 == 1).fold(0u128, |m, k| m | (0xf << (4 * k)));
                    if ch.stores > 1 || o.no_addr != ch.cp.addr_c || o.no_dst != home_c || o.no_wbe != wbe {
                        return Err(v(cycle, "5 store", format!("{key:?}: store {} to {:#x} at node {} wbe {:#x}, expected {:#x} at node {home_c} wbe {wbe:#x}", ch.stores, o.no_addr, o.no_dst, o.no_wbe, ch.cp.addr_c)));
                    }
                    if let Some(k) = (0..self.lanes).find(|k| (ch.cp.mask >> k) & 1 == 1 && o.no_data[*k] != want[*k]) {
                        return Err(v(cycle, "5 function", format!("{key:?} pattern {} lane {k}: {:#x}, expected {:#x}", ch.cp.pattern, o.no_data[k], want[k])));
                    }
                }
                kind => {
                    let key = (o.no_dst, o.no_oq_tag);
                    let ch = self.chains.remove(&key).ok_or_else(|| v(cycle, "6 one response", format!("response kind {kind} to {key:?}, not live")))?;
                    if ch.cp.resp_kind == 0 && !(ch.stores == 1 && ch.acked) {
                        return Err(v(cycle, "6 store ack before response", format!("{key:?}: ACK after {} stores, acked {}", ch.stores, ch.acked)));
                    }
                    let (r, bm) = expected(&ch.cp, ch.data[0].as_deref().unwrap_or(&[]), ch.data[1].as_deref().unwrap_or(&[]), self.lanes);
                    let ok = kind == ch.cp.resp_kind
                        && match kind {
                            1 => o.no_data == r,
                            2 => o.no_data[0] == bm,
                            _ => true,
                        };
                    if !ok {
                        return Err(v(cycle, "5 function", format!("{key:?} pattern {}: response kind {kind}", ch.cp.pattern)));
                    }
                    if self.by_tag.remove(&o.no_tag) != Some(key) {
                        return Err(v(cycle, "6 one response", format!("response of {key:?} from entry {}", o.no_tag)));
                    }
                    self.responses += 1;
                }
            }
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
                let t = alloc.ok_or_else(|| v(cycle, "1 bounds", "allocation with no free entry".into()))?;
                self.by_tag.insert(t, (cp.src_node, cp.oq_tag));
                self.chains.insert((cp.src_node, cp.oq_tag), Chain { cp, loads, data: [None, None], requested: [false; 2], stores: 0, acked: false });
            }
        }
        Ok(())
    }
}
