//! The Service Queue in a core (Omni-Compute, spec §1.7; ports §6.2 with `AT_LLC = 0`):
//! the same SQSR, ready-order FIFO and temporary buffer as [`super::sq`], wired to the
//! NoC and the core instead of an LLC: operand loads go out as 1-flit LOAD_REQs to the
//! operands' LLC nodes, their data replies are written into shared memory at slot
//! `2 × entry + which` (lines), buffer fills read them back, the core's ALU is used only
//! when the core does not (`alu_gnt`), and the result store goes out as a STORE_REQ
//! whose ack must arrive before the response is offered.
//!
//! Per cycle at most one of each: accept a CP (allocate, or FB_LOADs when full), accept
//! a NoC reply (`ni_ready` is tied high: load data queues for shared memory), one
//! shared-memory access (write of arrived data before a buffer-fill read), take one
//! shared-memory read return, dispatch one ALU op, offer one NoC packet (STORE_REQ >
//! response > LOAD_REQ > FB_LOAD).

use std::collections::VecDeque;

use super::chain::Pattern;
use super::config::LlcComputeConfig;
use super::lane_op::chain_result;
use super::packet::{ComputePacket, Flit};
use crate::model::Model;

/// `no_kind` codes of the core SQ's NoC port (responses use the CP's `resp_kind`).
pub const NO_ACK: u32 = 0;
pub const NO_DATA: u32 = 1;
pub const NO_BITMAP: u32 = 2;
pub const NO_LOAD_REQ: u32 = 3;
pub const NO_STORE_REQ: u32 = 4;
pub const NO_FB_LOAD: u32 = 5;
/// `ni_kind` codes.
pub const NI_LOAD_DATA: u32 = 0;
pub const NI_STORE_ACK: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqCoreIn {
    pub rst: bool,
    pub cp_valid: bool,
    pub cp_flit: Flit,
    pub no_ready: bool,
    pub ni_valid: bool,
    pub ni_kind: u32,
    pub ni_tag: u32,
    pub ni_which: u32,
    pub ni_data: Vec<u32>,
    pub sm_ready: bool,
    pub sm_rvalid: bool,
    pub sm_rdata: Vec<u32>,
    /// The core does not use its ALU this cycle.
    pub alu_gnt: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SqCoreOut {
    pub cp_ready: bool,
    pub no_valid: bool,
    pub no_dst: u32,
    pub no_kind: u32,
    pub no_tag: u32,
    pub no_which: u32,
    pub no_oq_tag: u32,
    /// Where the reply goes (the source core for FB_LOADs, this node otherwise).
    pub no_reply_node: u32,
    pub no_addr: u64,
    pub no_data: Vec<u32>,
    pub no_wbe: u128,
    pub sm_valid: bool,
    pub sm_we: bool,
    pub sm_addr: u32,
    pub sm_wdata: Vec<u32>,
    pub alu_req: bool,
    /// An op enters the core's ALU this cycle.
    pub alu_fire: bool,
    pub st_count: u32,
    pub st_full: bool,
    pub st_buf_count: u32,
    pub st_contend: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CoreEntry {
    pub valid: bool,
    pub cp: ComputePacket,
    pub loads: usize,
    pub requested: [bool; 2],
    pub present: [bool; 2],
    pub result: Option<(Vec<u32>, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqCoreState {
    pub ents: Vec<CoreEntry>,
    /// Load data waiting for the shared-memory write port: (entry, which, data).
    pub smw_q: VecDeque<(usize, u32, Vec<u32>)>,
    pub ready_q: VecDeque<usize>,
    pub bufs: Vec<super::sq::BufSlot>,
    pub buf_order: VecDeque<usize>,
    pub filling: Option<(usize, usize)>,
    /// Shared-memory reads in flight: (slot, which).
    pub sm_rd: VecDeque<(usize, u32)>,
    pub pipe: Vec<(u32, usize)>,
    pub store_q: VecDeque<usize>,
    pub resp_q: VecDeque<usize>,
    pub fb: VecDeque<(u64, u32, u32, u32)>,
}

pub struct SqCore {
    pub n_ent: usize,
    pub n_buf: usize,
    pub lanes: usize,
    pub alu_lat: u32,
    pub self_node: u32,
    /// Node id of each MC's LLC.
    pub mc_nodes: Vec<u32>,
    pub state: SqCoreState,
    next: Option<SqCoreState>,
    /// Planted bug for checker tests: dispatch to the ALU even when the core uses it.
    pub plant_ignore_gnt: bool,
}

impl SqCore {
    pub fn new(c: &LlcComputeConfig, node: super::emn::Node) -> Self {
        let (n_ent, n_buf) = (c.sq.entries as usize, c.sq.buffer as usize);
        let p = &c.placement;
        Self {
            n_ent,
            n_buf,
            lanes: c.oq.lanes as usize,
            alu_lat: c.sq.alu_latency,
            self_node: p.id(node),
            mc_nodes: p.mcs.iter().map(|m| p.id(*m)).collect(),
            state: Self::reset_state(n_ent, n_buf),
            next: None,
            plant_ignore_gnt: false,
        }
    }

    fn reset_state(n: usize, b: usize) -> SqCoreState {
        SqCoreState {
            ents: vec![CoreEntry::default(); n],
            smw_q: VecDeque::new(),
            ready_q: VecDeque::new(),
            bufs: vec![None; b],
            buf_order: VecDeque::new(),
            filling: None,
            sm_rd: VecDeque::new(),
            pipe: Vec::new(),
            store_q: VecDeque::new(),
            resp_q: VecDeque::new(),
            fb: VecDeque::new(),
        }
    }

    pub fn count(&self) -> usize {
        self.state.ents.iter().filter(|e| e.valid).count()
    }

    fn llc_of(&self, addr: u64) -> u32 {
        self.mc_nodes[((addr >> 7) % self.mc_nodes.len() as u64) as usize]
    }

    fn operand(cp: &ComputePacket, which: u32) -> u64 {
        if which == 0 {
            cp.addr_a
        } else {
            cp.addr_b
        }
    }
}

impl Model for SqCore {
    type In = SqCoreIn;
    type Out = SqCoreOut;

    fn idle_inputs(&self) -> SqCoreIn {
        SqCoreIn {
            rst: false,
            cp_valid: false,
            cp_flit: [0; 4],
            no_ready: false,
            ni_valid: false,
            ni_kind: 0,
            ni_tag: 0,
            ni_which: 0,
            ni_data: vec![0; self.lanes],
            sm_ready: false,
            sm_rvalid: false,
            sm_rdata: vec![0; self.lanes],
            alu_gnt: false,
        }
    }

    fn new_outputs(&self) -> SqCoreOut {
        SqCoreOut { no_data: vec![0; self.lanes], sm_wdata: vec![0; self.lanes], ..Default::default() }
    }

    fn assert_reset(i: &mut SqCoreIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &SqCoreIn, o: &mut SqCoreOut) {
        let s = &self.state;
        let mut n = s.clone();
        *o = self.new_outputs();
        let live = s.ents.iter().filter(|e| e.valid).count();
        o.st_count = live as u32;
        o.st_full = live == self.n_ent;
        o.st_buf_count = s.buf_order.len() as u32;
        if i.rst {
            self.next = Some(Self::reset_state(self.n_ent, self.n_buf));
            return;
        }
        // NoC out: STORE_REQ > response > LOAD_REQ > FB_LOAD
        let load = s.ents.iter().enumerate().find_map(|(x, en)| if en.valid { (0..en.loads).find(|k| !en.requested[*k]).map(|k| (x, k)) } else { None });
        if let Some(&e) = s.store_q.front() {
            let en = &s.ents[e];
            o.no_valid = true;
            o.no_kind = NO_STORE_REQ;
            o.no_dst = self.llc_of(en.cp.addr_c);
            o.no_tag = e as u32;
            o.no_oq_tag = en.cp.oq_tag;
            o.no_reply_node = self.self_node;
            o.no_addr = en.cp.addr_c;
            o.no_data = en.result.as_ref().unwrap().0.clone();
            o.no_wbe = (0..self.lanes).filter(|k| (en.cp.mask >> k) & 1 == 1).fold(0u128, |m, k| m | (0xf << (4 * k)));
            if i.no_ready {
                n.store_q.pop_front();
            }
        } else if let Some(&e) = s.resp_q.front() {
            let en = &s.ents[e];
            let (res, bm) = en.result.clone().unwrap();
            o.no_valid = true;
            o.no_kind = en.cp.resp_kind;
            o.no_dst = en.cp.src_node;
            o.no_tag = e as u32;
            o.no_oq_tag = en.cp.oq_tag;
            o.no_reply_node = self.self_node;
            o.no_data = match en.cp.resp_kind {
                NO_DATA => res,
                NO_BITMAP => {
                    let mut d = vec![0; self.lanes];
                    d[0] = bm;
                    d
                }
                _ => vec![0; self.lanes],
            };
            if i.no_ready {
                n.resp_q.pop_front();
                n.ents[e] = CoreEntry::default();
            }
        } else if let Some((e, k)) = load {
            let en = &s.ents[e];
            let addr = Self::operand(&en.cp, k as u32);
            o.no_valid = true;
            o.no_kind = NO_LOAD_REQ;
            o.no_dst = self.llc_of(addr);
            o.no_tag = e as u32;
            o.no_which = k as u32;
            o.no_oq_tag = en.cp.oq_tag;
            o.no_reply_node = self.self_node;
            o.no_addr = addr;
            if i.no_ready {
                n.ents[e].requested[k] = true;
            }
        } else if let Some(&(addr, which, src, tag)) = s.fb.front() {
            o.no_valid = true;
            o.no_kind = NO_FB_LOAD;
            o.no_dst = self.llc_of(addr);
            o.no_which = which;
            o.no_oq_tag = tag;
            o.no_reply_node = src;
            o.no_addr = addr;
            if i.no_ready {
                n.fb.pop_front();
            }
        }
        // shared memory: a write of arrived data first, else a buffer-fill read
        let free_slot = s.bufs.iter().position(|b| b.is_none());
        if let Some((e, which, data)) = s.smw_q.front() {
            o.sm_valid = true;
            o.sm_we = true;
            o.sm_addr = (2 * e + *which as usize) as u32;
            o.sm_wdata.clone_from(data);
            if i.sm_ready {
                let (e, which) = (*e, *which as usize);
                n.smw_q.pop_front();
                let en = &mut n.ents[e];
                en.present[which] = true;
                if en.present[..en.loads].iter().all(|p| *p) {
                    n.ready_q.push_back(e);
                }
            }
        } else {
            let read = if let Some((e, slot)) = s.filling {
                Some((e, slot, 1, false))
            } else if let (Some(&e), Some(slot)) = (s.ready_q.front(), free_slot) {
                Some((e, slot, 0, true))
            } else {
                None
            };
            if let Some((e, slot, which, start)) = read {
                o.sm_valid = true;
                o.sm_addr = (2 * e + which as usize) as u32;
                if i.sm_ready {
                    if start {
                        n.ready_q.pop_front();
                        n.bufs[slot] = Some((e, [None, None]));
                        n.buf_order.push_back(slot);
                    }
                    n.filling = (which == 0 && s.ents[e].loads == 2).then_some((e, slot));
                    n.sm_rd.push_back((slot, which));
                }
            }
        }
        if i.sm_rvalid {
            if let Some((slot, which)) = n.sm_rd.pop_front() {
                if let Some(b) = n.bufs[slot].as_mut() {
                    b.1[which as usize] = Some(i.sm_rdata.clone());
                }
            }
        }
        // NoC replies (always accepted)
        if i.ni_valid {
            let e = i.ni_tag as usize;
            if i.ni_kind == NI_LOAD_DATA {
                n.smw_q.push_back((e, i.ni_which, i.ni_data.clone()));
            } else {
                n.resp_q.push_back(e);
            }
        }
        // CP in
        o.cp_ready = s.fb.is_empty();
        if i.cp_valid && o.cp_ready {
            let cp = ComputePacket::decode(&i.cp_flit);
            let loads = Pattern::get(cp.pattern).map_or(1, |p| p.loads());
            if live == self.n_ent {
                for k in 0..loads as u32 {
                    n.fb.push_back((Self::operand(&cp, k), k, cp.src_node, cp.oq_tag));
                }
            } else {
                let e = s.ents.iter().position(|e| !e.valid).expect("not full");
                n.ents[e] = CoreEntry { valid: true, cp, loads, ..Default::default() };
            }
        }
        // ALU: results, then the oldest complete buffer entry (the copy needs no ALU)
        n.pipe.clear();
        for &(left, e) in &s.pipe {
            if left <= 1 {
                if s.ents[e].cp.resp_kind == NO_ACK {
                    n.store_q.push_back(e);
                } else {
                    n.resp_q.push_back(e);
                }
            } else {
                n.pipe.push((left - 1, e));
            }
        }
        if let Some(&slot) = s.buf_order.front() {
            let (e, ops) = s.bufs[slot].as_ref().unwrap();
            let en = &s.ents[*e];
            if ops[..en.loads].iter().all(|x| x.is_some()) {
                let n_ops = Pattern::get(en.cp.pattern).map_or(1, |p| p.alu_ops()) as u32;
                o.alu_req = n_ops > 0;
                o.st_contend = o.alu_req && !i.alu_gnt;
                if n_ops == 0 || i.alu_gnt || self.plant_ignore_gnt {
                    o.alu_fire = n_ops > 0;
                    let cp = &en.cp;
                    let a = ops[0].clone().unwrap();
                    let b = ops[1].clone().unwrap_or_else(|| vec![0; self.lanes]);
                    n.ents[*e].result = Some(chain_result(cp, &a, &b));
                    n.pipe.push(((self.alu_lat * n_ops).max(1), *e));
                    n.bufs[slot] = None;
                    n.buf_order.pop_front();
                }
            }
        }
        self.next = Some(n);
    }

    fn commit(&mut self, _i: &SqCoreIn) {
        if let Some(n) = self.next.take() {
            self.state = n;
        }
    }
}
