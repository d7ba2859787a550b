//! Random legal traffic for the LLC-partition SQ: ComputePackets from random cores
//! (a unique `(src, oq_tag)` per chain in flight), an LLC that answers touches with
//! present notifications after a hit or DRAM delay and reads with line data after the
//! hit latency, and random back-pressure on the request and response ports.

use std::collections::{HashMap, HashSet, VecDeque};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::chain::{Pattern, PATTERNS};
use super::config::LlcComputeConfig;
use super::packet::ComputePacket;
use super::sq::{Sq, SqIn, SqOut, LR_READ, LR_TOUCH, LR_WRITE};
use crate::model::Stimulus;

/// The ALU ops the traffic uses (IADD, ISUB, XOR, FADD, FMUL) and compares (EQ, LT).
pub const TRAFFIC_OPS: [u32; 5] = [0, 1, 7, 8, 10];
pub const TRAFFIC_CMPS: [u32; 2] = [0, 2];

pub struct SqTraffic {
    rng: Xoshiro256PlusPlus,
    lanes: usize,
    /// LLC contents, by line address (lines never written read a hash of the address).
    mem: HashMap<u64, Vec<u32>>,
    inflight: HashSet<(u32, u32)>,
    /// Present notifications and read data, each (due, tag, which[, data]).
    lp: VecDeque<(u64, u32, u32)>,
    ld: VecDeque<(u64, u32, u32, Vec<u32>)>,
    cp: Option<ComputePacket>,
    last: SqIn,
    now: u64,
    pub p_cp: f64,
    pub p_ready: f64,
    pub llc_lat: u64,
    pub draining: bool,
}

impl SqTraffic {
    pub fn new(c: &LlcComputeConfig, sq: &Sq, seed: u64) -> Self {
        let _ = c;
        Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            lanes: sq.lanes,
            mem: HashMap::new(),
            inflight: HashSet::new(),
            lp: VecDeque::new(),
            ld: VecDeque::new(),
            cp: None,
            last: crate::model::Model::idle_inputs(sq),
            now: 0,
            p_cp: 0.3,
            p_ready: 0.8,
            llc_lat: 4,
            draining: false,
        }
    }

    pub fn idle(&self) -> bool {
        self.inflight.is_empty() && self.cp.is_none() && self.lp.is_empty() && self.ld.is_empty()
    }

    fn line(&self, addr: u64) -> Vec<u32> {
        self.mem.get(&addr).cloned().unwrap_or_else(|| initial_line(addr, self.lanes))
    }

    fn new_cp(&mut self) -> Option<ComputePacket> {
        let cp = random_cp(&mut self.rng, self.lanes);
        (!self.inflight.contains(&(cp.src_node, cp.oq_tag))).then_some(cp)
    }
}

/// A random CP of any pattern, with the traffic's ops, 128-B aligned operands.
pub fn random_cp(r: &mut Xoshiro256PlusPlus, lanes: usize) -> ComputePacket {
    let (src, tag) = (r.random_range(0..64u32), r.random_range(0..48u32));
    let p: &Pattern = &PATTERNS[r.random_range(0..PATTERNS.len())];
    let cmp = p.seq.contains(&super::chain::InstrKind::Cmp);
    let op = |r: &mut Xoshiro256PlusPlus| if cmp { TRAFFIC_CMPS[r.random_range(0..2)] } else { TRAFFIC_OPS[r.random_range(0..5)] };
    let lane_mask = if lanes >= 32 { u32::MAX } else { (1 << lanes) - 1 };
    let (op0, op1) = (op(r), op(r));
    ComputePacket {
        src_node: src,
        dst_node: 0,
        op0,
        op1: if p.alu_ops() == 2 { op1 } else { 0 },
        pattern: p.id,
        resp_kind: p.resp.code(),
        dtype: op0 >= 8,
        addr_a: r.random_range(0..4096u64) << 7,
        addr_b: if p.loads() == 2 { r.random_range(0..4096u64) << 7 } else { 0 },
        addr_c: if p.has_store() { r.random_range(0..4096u64) << 7 } else { 0 },
        imm: r.random_range(0..1 << 20),
        mask: if r.random_bool(0.5) { lane_mask } else { r.random::<u32>() & lane_mask },
        oq_tag: tag,
    }
}

/// LLC contents of a line never written (a hash of the address).
pub fn initial_line(addr: u64, lanes: usize) -> Vec<u32> {
    (0..lanes as u64).map(|k| ((addr >> 7).wrapping_mul(0x9E37_79B9) ^ k.wrapping_mul(0x85EB_CA6B)) as u32 & 0x3fff_ffff).collect()
}

impl Stimulus<Sq> for SqTraffic {
    fn drive(&mut self, _m: &Sq, prev: &SqOut, i: &mut SqIn) {
        self.now += 1;
        let now = self.now;
        let last = std::mem::replace(&mut self.last, crate::model::Model::idle_inputs(_m));
        if last.cp_valid && prev.cp_ready {
            let cp = self.cp.take().unwrap();
            self.inflight.insert((cp.src_node, cp.oq_tag));
        }
        if prev.lr_valid && last.lr_ready {
            match prev.lr_kind {
                LR_TOUCH => {
                    let d = if self.rng.random_bool(0.3) { self.rng.random_range(20..60) } else { self.rng.random_range(1..6) };
                    self.lp.push_back((now + d, prev.lr_tag, prev.lr_which));
                }
                LR_READ => {
                    let data = self.line(prev.lr_addr);
                    self.ld.push_back((now + self.llc_lat, prev.lr_tag, prev.lr_which, data));
                }
                LR_WRITE => {
                    let mut line = self.line(prev.lr_addr);
                    for (k, w) in line.iter_mut().enumerate() {
                        if (prev.lr_wbe >> (4 * k)) & 0xf == 0xf {
                            *w = prev.lr_wdata[k];
                        }
                    }
                    self.mem.insert(prev.lr_addr, line);
                }
                _ => {
                    // a fallback load goes to the source core: the chain is done here
                    self.inflight.remove(&(prev.lr_reply_node, prev.lr_oq_tag));
                }
            }
        }
        if prev.no_valid && last.no_ready {
            self.inflight.remove(&(prev.no_dst, prev.no_oq_tag));
        }
        i.clone_from(&crate::model::Model::idle_inputs(_m));
        if self.cp.is_none() && !self.draining && self.rng.random_bool(self.p_cp) {
            self.cp = self.new_cp();
        }
        if let Some(cp) = &self.cp {
            i.cp_valid = true;
            i.cp_flit = cp.encode();
        }
        i.lr_ready = self.rng.random_bool(self.p_ready);
        i.no_ready = self.rng.random_bool(self.p_ready);
        // present notifications in order of their due time (a sorted queue is enough:
        // the oldest due one goes first)
        if let Some(k) = (0..self.lp.len()).filter(|k| self.lp[*k].0 <= now).min_by_key(|k| self.lp[*k].0) {
            let (_, tag, which) = self.lp.remove(k).unwrap();
            (i.lp_valid, i.lp_tag, i.lp_which) = (true, tag, which);
        }
        if self.ld.front().is_some_and(|x| x.0 <= now) {
            let (_, tag, which, data) = self.ld.pop_front().unwrap();
            (i.ld_valid, i.ld_tag, i.ld_which, i.ld_data) = (true, tag, which, data);
        }
        self.last = i.clone();
    }
}
