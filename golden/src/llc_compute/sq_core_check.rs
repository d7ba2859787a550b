//! The core-SQ scoreboard (Omni-Compute): spec §6.4 SQ invariants 1, 2, 5, 6 (core
//! variant: the store ack before the response), 7 (the core ALU only when the core
//! leaves it free; contention cycles counted) and 8, from the ports.
//!
//! The scoreboard allocates SQSR entries by the spec's rule as we read it (the lowest
//! free entry), so every request and response names its chain exactly.
//! Expected results come from the load data the NoC delivered, through
//! [`super::sq_check`]'s own reading of §2.2, so the shared-memory round trip is checked
//! as well as the function.

use super::config::LlcComputeConfig;
use super::packet::ComputePacket;
use super::sq_check::{active_bytes, v, SqLedger};
use super::sq_core::{SqCore, SqCoreIn, SqCoreOut, NI_LOAD_DATA, NO_FB_LOAD, NO_LOAD_REQ, NO_STORE_REQ};
use crate::invariant::Violation;
use crate::model::Scoreboard;

pub struct SqCoreScoreboard {
    pub book: SqLedger,
    self_node: u32,
    llc: Vec<u32>,
    pub stores: u64,
    pub contention: u64,
    /// Cycles a NoC reply waited for the shared-memory write queue (`ni_ready` low).
    pub ni_held: u64,
}

impl SqCoreScoreboard {
    pub fn new(c: &LlcComputeConfig, sq: &SqCore) -> Self {
        let p = &c.placement;
        Self { book: SqLedger::new(c), self_node: sq.self_node, llc: p.mcs.iter().map(|m| m.y * p.width + m.x).collect(), stores: 0, contention: 0, ni_held: 0 }
    }

    fn home(&self, addr: u64) -> u32 {
        self.llc[((addr / 128) % self.llc.len() as u64) as usize]
    }

    pub fn finish(&self, cycle: u64, o: &SqCoreOut) -> Result<(), Violation> {
        self.book.finish(cycle, o.st_count)
    }
}

impl Scoreboard<SqCore> for SqCoreScoreboard {
    fn observe(&mut self, cycle: u64, i: &SqCoreIn, o: &SqCoreOut) -> Result<(), Violation> {
        if i.rst {
            return Ok(());
        }
        // our allocation rule: the lowest free SQSR entry (registered: frees of this cycle count next cycle)
        let alloc = (0..self.book.n_ent).find(|t| !self.book.by_tag.contains_key(t));
        let full = self.book.live() == self.book.n_ent;
        self.book.bounds(cycle, o.st_count, o.st_buf_count)?;
        // 7: the core's ALU only in cycles the core leaves it free
        if o.alu_fire && !(o.alu_req && i.alu_gnt) {
            return Err(v(cycle, "7 ALU sharing", format!("op dispatched with alu_req {} alu_gnt {}", o.alu_req, i.alu_gnt)));
        }
        if o.st_contend != (o.alu_req && !i.alu_gnt) {
            return Err(v(cycle, "7 ALU sharing", format!("st_contend {} with alu_req {} alu_gnt {}", o.st_contend, o.alu_req, i.alu_gnt)));
        }
        self.contention += u64::from(o.st_contend);
        self.ni_held += u64::from(i.ni_valid && !o.ni_ready);
        if i.ni_valid && o.ni_ready {
            let key = *self.book.by_tag.get(&i.ni_tag).ok_or_else(|| v(cycle, "6 one response", format!("NoC reply for unknown tag {}", i.ni_tag)))?;
            let ch = self.book.chains.get_mut(&key).unwrap();
            if i.ni_kind == NI_LOAD_DATA {
                ch.data[i.ni_which as usize] = Some(i.ni_data.clone());
            } else {
                ch.acked = true;
            }
        }
        if o.no_valid && i.no_ready {
            match o.no_kind {
                NO_FB_LOAD => {
                    let got = (o.no_addr, o.no_which, o.no_reply_node, o.no_oq_tag);
                    self.book.fallback_load(cycle, got)?;
                    if o.no_dst != self.home(o.no_addr) {
                        return Err(v(cycle, "2 fallback", format!("FB_LOAD {got:?} to node {}, expected node {}", o.no_dst, self.home(o.no_addr))));
                    }
                }
                NO_LOAD_REQ => {
                    let key = *self.book.by_tag.get(&o.no_tag).ok_or_else(|| v(cycle, "3 load", format!("LOAD_REQ from free entry {}", o.no_tag)))?;
                    let w = o.no_which as usize;
                    let c = &self.book.chains[&key];
                    if w >= c.loads || c.requested[w] || (if w == 0 { c.cp.addr_a } else { c.cp.addr_b }) != o.no_addr || c.cp.oq_tag != o.no_oq_tag {
                        return Err(v(cycle, "3 load", format!("LOAD_REQ {:#x} (which {w}) of entry {} is not its chain's {key:?}", o.no_addr, o.no_tag)));
                    }
                    self.book.chains.get_mut(&key).unwrap().requested[w] = true;
                    if o.no_dst != self.home(o.no_addr) || o.no_reply_node != self.self_node {
                        return Err(v(cycle, "3 load", format!("LOAD_REQ to {} reply {}, expected {} reply {}", o.no_dst, o.no_reply_node, self.home(o.no_addr), self.self_node)));
                    }
                }
                NO_STORE_REQ => {
                    let key = *self.book.by_tag.get(&o.no_tag).ok_or_else(|| v(cycle, "5 store", format!("STORE_REQ of unknown tag {}", o.no_tag)))?;
                    let home_c = self.home(self.book.chains[&key].cp.addr_c);
                    let lanes = self.book.lanes;
                    let ch = self.book.chains.get_mut(&key).unwrap();
                    ch.stores += 1;
                    self.stores += 1;
                    let ch = &self.book.chains[&key];
                    let (want, _) = self.book.result(ch);
                    let wbe = active_bytes(ch.cp.mask, lanes);
                    if ch.stores > 1 || o.no_addr != ch.cp.addr_c || o.no_dst != home_c || o.no_wbe != wbe {
                        return Err(v(
                            cycle,
                            "5 store",
                            format!(
                                "{key:?}: store {} to {:#x} at node {} wbe {:#x}, expected {:#x} at node {home_c} wbe {wbe:#x}",
                                ch.stores, o.no_addr, o.no_dst, o.no_wbe, ch.cp.addr_c
                            ),
                        ));
                    }
                    if let Some(k) = (0..lanes).find(|k| (ch.cp.mask >> k) & 1 == 1 && o.no_data[*k] != want[*k]) {
                        return Err(v(cycle, "5 function", format!("{key:?} pattern {} lane {k}: {:#x}, expected {:#x}", ch.cp.pattern, o.no_data[k], want[k])));
                    }
                }
                kind => {
                    let key = (o.no_dst, o.no_oq_tag);
                    self.book.response(cycle, key, kind, &o.no_data, |ch| ch.stores == 1 && ch.acked, "6 store ack before response")?;
                    if self.book.by_tag.remove(&o.no_tag) != Some(key) {
                        return Err(v(cycle, "6 one response", format!("response of {key:?} from entry {}", o.no_tag)));
                    }
                }
            }
        }
        if i.cp_valid && o.cp_ready {
            if !full && alloc.is_none() {
                return Err(v(cycle, "1 bounds", "allocation with no free entry".into()));
            }
            self.book.cp_in(ComputePacket::decode(&i.cp_flit), full, alloc.filter(|_| !full));
        }
        Ok(())
    }
}
