//! Random legal traffic for the OQ (a [`Stimulus`]): the core side (warps issuing
//! tagged chains through one chain-instruction port, L1 tag results one lookup at a
//! time) and the network side (CPs accepted, their responses and fallback data
//! returned in any order, flush misses taken), all with random back-pressure.

use std::collections::VecDeque;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::chain::{InstrKind, Pattern, RespKind, PATTERNS};
use super::config::LlcComputeConfig;
use super::oq::{Oq, OqIn, OqOut, RSP_ACK, RSP_BITMAP, RSP_DATA, RSP_FB_A, TAG_FIRST, TAG_LAST, TAG_MIDDLE};
use super::packet::ComputePacket;
use crate::model::Stimulus;

/// One chain instruction as the LD/ST issue path offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainInstr {
    pub tag: u32,
    pub kind: InstrKind,
    pub op: u32,
    pub dtype: bool,
    pub addr: u64,
    pub mc: u32,
    pub imm: u32,
    pub dst: u32,
    pub mask: u32,
    pub unit_stride: bool,
}

impl ChainInstr {
    /// Drive this instruction of warp `wid` on the chain port.
    pub fn drive(&self, wid: u32, i: &mut OqIn) {
        i.ci_valid = true;
        i.ci_wid = wid;
        i.ci_tag = self.tag;
        i.ci_kind = self.kind.code();
        i.ci_op = self.op;
        i.ci_dtype = self.dtype;
        i.ci_addr = self.addr;
        i.ci_mc = self.mc;
        i.ci_imm = self.imm;
        i.ci_dst = self.dst;
        i.ci_mask = self.mask;
        i.ci_unit_stride = self.unit_stride;
    }
}

/// A chain of `pattern` with operand lines `line_of[k]` (k = a, b, c in chain order of
/// memory operands), in a system with `n_mc` MCs.
pub fn chain(pattern: &Pattern, lines: &[u64], n_mc: u32, ops: [u32; 2], imm: u32, mask: u32, dst0: u32) -> Vec<ChainInstr> {
    let mut v = Vec::new();
    let (mut mem, mut alu) = (0, 0);
    let last = pattern.seq.len() - 1;
    for (i, &kind) in pattern.seq.iter().enumerate() {
        let tag = if i == 0 {
            TAG_FIRST
        } else if i == last {
            TAG_LAST
        } else {
            TAG_MIDDLE
        };
        let mut ci = ChainInstr { tag, kind, op: 0, dtype: ops[0] >= 8, addr: 0, mc: 0, imm: 0, dst: (dst0 + i as u32) & 0xff, mask, unit_stride: true };
        match kind {
            InstrKind::Ld | InstrKind::St => {
                ci.addr = lines[mem] << 7;
                ci.mc = (lines[mem] % u64::from(n_mc)) as u32;
                mem += 1;
            }
            InstrKind::Movi => ci.imm = imm,
            InstrKind::Alu | InstrKind::Cmp => {
                ci.op = if kind == InstrKind::Cmp { ops[alu] % 6 } else { ops[alu] };
                alu += 1;
            }
        }
        v.push(ci);
    }
    v
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Warp {
    /// Running normally; may start a chain at `from`.
    Idle { from: u64 },
    /// Issuing chain `instrs`, next is `next`.
    Chain { instrs: Vec<ChainInstr>, next: usize },
    /// The chain is out of the core's hands: waiting for the OQ's event.
    Wait,
}

#[derive(Debug, Clone)]
struct Pending {
    due: u64,
    kind: u32,
    tag: u32,
    data: Vec<u32>,
}

/// Knobs of the random traffic.
#[derive(Debug, Clone, Copy)]
pub struct OqTrafficParams {
    /// Probability that a chain load hits in L1.
    pub p_hit: f64,
    /// Probability that an offloaded chain falls back (SQ full at the EMN).
    pub p_fallback: f64,
    /// Probability that all memory operands of a chain share one MC.
    pub p_same_mc: f64,
    /// Probability of a memory-divergent access.
    pub p_divergent: f64,
    /// Probability of each ready (and of `!wb_busy`) per cycle.
    pub p_ready: f64,
    /// Response delay range after a CP is taken.
    pub rsp_delay: (u64, u64),
    /// Cycles a warp runs normally between chains.
    pub idle: (u64, u64),
}

impl Default for OqTrafficParams {
    fn default() -> Self {
        Self { p_hit: 0.15, p_fallback: 0.15, p_same_mc: 0.4, p_divergent: 0.03, p_ready: 0.8, rsp_delay: (2, 60), idle: (0, 20) }
    }
}

/// Random legal OQ traffic (spec §6.4: the OQ's environment).
pub struct OqTraffic {
    rng: Xoshiro256PlusPlus,
    pub params: OqTrafficParams,
    base: OqIn,
    warps: Vec<Warp>,
    lanes: usize,
    n_mc: u32,
    l1_lat: u64,
    /// (due cycle, hit) of the one outstanding L1 lookup.
    l1q: VecDeque<(u64, bool)>,
    pending: Vec<Pending>,
    /// The response on the port (held until taken).
    rsp: Option<Pending>,
    /// The warp whose instruction is on the chain port.
    ci_warp: Option<usize>,
    last: OqIn,
    now: u64,
    /// Stop starting chains (drain).
    pub draining: bool,
}

impl OqTraffic {
    pub fn new(c: &LlcComputeConfig, oq: &Oq, seed: u64) -> Self {
        let base = oq.inputs_for(c);
        Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            params: OqTrafficParams::default(),
            last: base.clone(),
            base,
            warps: vec![Warp::Idle { from: 0 }; c.oq.warps as usize],
            lanes: c.oq.lanes as usize,
            n_mc: c.placement.mcs.len() as u32,
            l1_lat: u64::from(c.oq.l1_tag_latency),
            l1q: VecDeque::new(),
            pending: Vec::new(),
            rsp: None,
            ci_warp: None,
            now: 0,
            draining: false,
        }
    }

    /// Nothing in flight on the traffic side.
    pub fn idle(&self) -> bool {
        self.warps.iter().all(|w| matches!(w, Warp::Idle { .. })) && self.pending.is_empty() && self.rsp.is_none() && self.l1q.is_empty()
    }

    fn new_chain(&mut self) -> Vec<ChainInstr> {
        let r = &mut self.rng;
        let p = &PATTERNS[r.random_range(0..PATTERNS.len())];
        let mem = p.loads() + usize::from(p.has_store());
        let first: u64 = r.random_range(0..1 << 20);
        let same = r.random_bool(self.params.p_same_mc);
        let lines: Vec<u64> = (0..mem as u64).map(|k| if same { first + k * u64::from(self.n_mc) * r.random_range(1..4) } else { r.random_range(0..1 << 20) }).collect();
        let lane_mask = if self.lanes >= 32 { u32::MAX } else { (1u32 << self.lanes) - 1 };
        let mask = loop {
            let m = r.random::<u32>() & lane_mask;
            if m != 0 {
                break if r.random_bool(0.5) { lane_mask } else { m };
            }
        };
        let ops = [r.random_range(0..14), r.random_range(0..14)];
        let mut v = chain(p, &lines, self.n_mc, ops, r.random(), mask, r.random_range(0..256));
        for ci in &mut v {
            if matches!(ci.kind, InstrKind::Ld | InstrKind::St) && r.random_bool(self.params.p_divergent) {
                ci.unit_stride = false;
            }
        }
        v
    }

    fn data(&mut self) -> Vec<u32> {
        (0..self.lanes).map(|_| self.rng.random()).collect()
    }
}

impl Stimulus<Oq> for OqTraffic {
    fn drive(&mut self, _model: &Oq, prev: &OqOut, inputs: &mut OqIn) {
        self.now += 1;
        let now = self.now;
        let last = std::mem::replace(&mut self.last, self.base.clone());
        // what happened in the last cycle
        if last.ci_valid && prev.ci_ready {
            let w = self.ci_warp.expect("a warp drove the chain port");
            if let Warp::Chain { instrs, next } = &mut self.warps[w] {
                let ci = instrs[*next];
                *next += 1;
                let discarded = prev.evc_valid && prev.evc_wid as usize == w;
                if ci.kind == InstrKind::Ld && !discarded {
                    let hit = self.rng.random_bool(self.params.p_hit);
                    self.l1q.push_back((now + self.l1_lat - 1, hit));
                }
                if ci.tag == TAG_LAST {
                    self.warps[w] = Warp::Wait;
                }
            }
        }
        if last.l1r_valid && last.l1r_hit {
            if let Some(w) = self.ci_warp {
                self.warps[w] = Warp::Wait;
            }
        }
        let idle = |r: &mut Xoshiro256PlusPlus, p: &OqTrafficParams| Warp::Idle { from: now + r.random_range(p.idle.0..=p.idle.1) };
        for (v, w) in [(prev.evc_valid, prev.evc_wid), (prev.evl_valid, prev.evl_wid), (prev.evf_valid, prev.evf_wid)] {
            if v {
                self.warps[w as usize] = idle(&mut self.rng, &self.params);
            }
        }
        if prev.evr_valid && prev.evr_kind != super::oq::EV_FB_WB {
            self.warps[prev.evr_wid as usize] = idle(&mut self.rng, &self.params);
        }
        if last.cp_ready && prev.cp_valid {
            let cp = ComputePacket::decode(&prev.cp_flit);
            let p = Pattern::get(cp.pattern).expect("CP carries a pattern");
            let (lo, hi) = self.params.rsp_delay;
            if self.rng.random_bool(self.params.p_fallback) {
                for k in 0..p.loads() {
                    let data = self.data();
                    self.pending.push(Pending { due: now + self.rng.random_range(lo..=hi), kind: RSP_FB_A + k as u32, tag: cp.oq_tag, data });
                }
            } else {
                let kind = match p.resp {
                    RespKind::Ack => RSP_ACK,
                    RespKind::Data => RSP_DATA,
                    RespKind::Bitmap => RSP_BITMAP,
                };
                let mut data = self.data();
                if kind != RSP_DATA {
                    data.iter_mut().skip(1).for_each(|d| *d = 0);
                    if kind == RSP_ACK {
                        data[0] = 0;
                    }
                }
                self.pending.push(Pending { due: now + self.rng.random_range(lo..=hi), kind, tag: cp.oq_tag, data });
            }
        }
        if last.rsp_valid && prev.rsp_ready {
            self.rsp = None;
        }

        // this cycle
        let r = &mut self.rng;
        let p = self.params;
        inputs.clone_from(&self.base);
        inputs.cp_ready = r.random_bool(p.p_ready);
        inputs.fm_ready = r.random_bool(p.p_ready);
        inputs.wb_busy = !r.random_bool(p.p_ready);
        if self.l1q.front().is_some_and(|(d, _)| *d <= now) {
            let (_, hit) = self.l1q.pop_front().unwrap();
            inputs.l1r_valid = true;
            inputs.l1r_hit = hit;
        }
        if self.rsp.is_none() {
            let ready: Vec<usize> = (0..self.pending.len()).filter(|k| self.pending[*k].due <= now).collect();
            if !ready.is_empty() {
                let k = ready[r.random_range(0..ready.len())];
                self.rsp = Some(self.pending.swap_remove(k));
            }
        }
        if let Some(x) = &self.rsp {
            inputs.rsp_valid = true;
            inputs.rsp_kind = x.kind;
            inputs.rsp_tag = x.tag;
            inputs.rsp_data.clone_from(&x.data);
        }
        // the chain port: a warp in a chain first (chain priority), else maybe a new chain
        let in_chain = self.warps.iter().position(|w| matches!(w, Warp::Chain { next, .. } if *next > 0));
        let w = match in_chain {
            Some(w) => Some(w),
            None => match self.ci_warp.filter(|w| matches!(self.warps[*w], Warp::Chain { next: 0, .. })) {
                Some(w) => Some(w),
                None if !self.draining && r.random_bool(0.5) => {
                    let cands: Vec<usize> = (0..self.warps.len()).filter(|k| matches!(self.warps[*k], Warp::Idle { from } if from <= now)).collect();
                    if cands.is_empty() {
                        None
                    } else {
                        let w = cands[r.random_range(0..cands.len())];
                        let instrs = self.new_chain();
                        self.warps[w] = Warp::Chain { instrs, next: 0 };
                        Some(w)
                    }
                }
                None => None,
            },
        };
        self.ci_warp = w;
        if let Some(w) = w {
            if let Warp::Chain { instrs, next } = &self.warps[w] {
                if *next < instrs.len() {
                    instrs[*next].drive(w as u32, inputs);
                }
            }
        }
        self.last = inputs.clone();
    }
}
