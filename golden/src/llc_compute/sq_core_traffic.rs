//! Random legal traffic for the core SQ (Omni-Compute): CPs, a NoC whose LLCs answer
//! LOAD_REQs with line data and STORE_REQs with acks after random delays in any order,
//! the core's shared memory (one access per cycle, reads answered the next cycle) and
//! the core's use of its ALU, all with random back-pressure. A NoC reply the SQ does not
//! take (`ni_ready` low) stays on the port until it does.

use std::collections::{HashMap, HashSet};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::config::LlcComputeConfig;
use super::packet::ComputePacket;
use super::sq_core::{SqCore, SqCoreIn, SqCoreOut, NI_LOAD_DATA, NI_STORE_ACK, NO_FB_LOAD, NO_LOAD_REQ, NO_STORE_REQ};
use super::sq_traffic::{initial_line, random_cp};
use crate::model::{Model, Stimulus};

pub struct SqCoreTraffic {
    rng: Xoshiro256PlusPlus,
    lanes: usize,
    mem: HashMap<u64, Vec<u32>>,
    smem: HashMap<u32, Vec<u32>>,
    inflight: HashSet<(u32, u32)>,
    /// NoC replies: (due, kind, tag, which, data).
    ni: Vec<(u64, u32, u32, u32, Vec<u32>)>,
    sm_read: Option<u32>,
    cp: Option<ComputePacket>,
    last: SqCoreIn,
    now: u64,
    pub p_cp: f64,
    pub p_ready: f64,
    /// Probability the core leaves its ALU free in a cycle.
    pub p_alu_free: f64,
    pub draining: bool,
}

impl SqCoreTraffic {
    pub fn new(_c: &LlcComputeConfig, sq: &SqCore, seed: u64) -> Self {
        Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            lanes: sq.lanes,
            mem: HashMap::new(),
            smem: HashMap::new(),
            inflight: HashSet::new(),
            ni: Vec::new(),
            sm_read: None,
            cp: None,
            last: sq.idle_inputs(),
            now: 0,
            p_cp: 0.3,
            p_ready: 0.8,
            p_alu_free: 0.6,
            draining: false,
        }
    }

    pub fn idle(&self) -> bool {
        self.inflight.is_empty() && self.cp.is_none() && self.ni.is_empty()
    }
}

impl Stimulus<SqCore> for SqCoreTraffic {
    fn drive(&mut self, m: &SqCore, prev: &SqCoreOut, i: &mut SqCoreIn) {
        self.now += 1;
        let now = self.now;
        let last = std::mem::replace(&mut self.last, m.idle_inputs());
        if last.cp_valid && prev.cp_ready {
            let cp = self.cp.take().unwrap();
            self.inflight.insert((cp.src_node, cp.oq_tag));
        }
        if prev.no_valid && last.no_ready {
            let delay = |r: &mut Xoshiro256PlusPlus| if r.random_bool(0.3) { r.random_range(30..120) } else { r.random_range(5..30) };
            match prev.no_kind {
                NO_LOAD_REQ => {
                    let data = self.mem.get(&prev.no_addr).cloned().unwrap_or_else(|| initial_line(prev.no_addr, self.lanes));
                    let d = delay(&mut self.rng);
                    self.ni.push((now + d, NI_LOAD_DATA, prev.no_tag, prev.no_which, data));
                }
                NO_STORE_REQ => {
                    let mut line = self.mem.get(&prev.no_addr).cloned().unwrap_or_else(|| initial_line(prev.no_addr, self.lanes));
                    for (k, w) in line.iter_mut().enumerate() {
                        if (prev.no_wbe >> (4 * k)) & 0xf == 0xf {
                            *w = prev.no_data[k];
                        }
                    }
                    self.mem.insert(prev.no_addr, line);
                    let d = delay(&mut self.rng);
                    self.ni.push((now + d, NI_STORE_ACK, prev.no_tag, 0, vec![0; self.lanes]));
                }
                NO_FB_LOAD => {
                    self.inflight.remove(&(prev.no_reply_node, prev.no_oq_tag));
                }
                _ => {
                    self.inflight.remove(&(prev.no_dst, prev.no_oq_tag));
                }
            }
        }
        // shared memory: last cycle's access
        if prev.sm_valid && last.sm_ready {
            if prev.sm_we {
                self.smem.insert(prev.sm_addr, prev.sm_wdata.clone());
            } else {
                self.sm_read = Some(prev.sm_addr);
            }
        }
        i.clone_from(&m.idle_inputs());
        if let Some(a) = self.sm_read.take() {
            i.sm_rvalid = true;
            i.sm_rdata = self.smem.get(&a).cloned().unwrap_or_else(|| vec![0; self.lanes]);
        }
        if self.cp.is_none() && !self.draining && self.rng.random_bool(self.p_cp) {
            let cp = random_cp(&mut self.rng, self.lanes);
            if !self.inflight.contains(&(cp.src_node, cp.oq_tag)) {
                self.cp = Some(cp);
            }
        }
        if let Some(cp) = &self.cp {
            i.cp_valid = true;
            i.cp_flit = cp.encode();
        }
        i.no_ready = self.rng.random_bool(self.p_ready);
        i.sm_ready = self.rng.random_bool(self.p_ready);
        i.alu_gnt = self.rng.random_bool(self.p_alu_free);
        let due: Vec<usize> = (0..self.ni.len()).filter(|k| self.ni[*k].0 <= now).collect();
        if last.ni_valid && !prev.ni_ready {
            (i.ni_valid, i.ni_kind, i.ni_tag, i.ni_which) = (true, last.ni_kind, last.ni_tag, last.ni_which);
            i.ni_data.clone_from(&last.ni_data);
        } else if !due.is_empty() {
            let k = due[self.rng.random_range(0..due.len())];
            let (_, kind, tag, which, data) = self.ni.swap_remove(k);
            (i.ni_valid, i.ni_kind, i.ni_tag, i.ni_which, i.ni_data) = (true, kind, tag, which, data);
        }
        self.last = i.clone();
    }
}
