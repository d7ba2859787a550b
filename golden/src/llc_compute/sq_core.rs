//! The Service Queue in a core (Omni-Compute, spec §1.7; ports §6.2 with `AT_LLC = 0`):
//! the same [`Sqsr`] (SQMU, SQSR, ready-order FIFO, temporary buffer) as [`super::sq`], wired to the
//! NoC and the core instead of an LLC: operand loads go out as 1-flit LOAD_REQs to the
//! operands' LLC nodes, their data replies are written into shared memory at slot
//! `2 × entry + which` (lines), buffer fills read them back, the core's ALU is used only
//! when the core does not (`alu_gnt`), and the result store goes out as a STORE_REQ
//! whose ack must arrive before the response is offered.
//!
//! Per cycle at most one of each: accept a CP (allocate, or FB_LOADs when full), accept
//! a NoC reply (`ni_ready`: load data waits for the shared-memory write port in a queue
//! of [`SMW_DEPTH`] lines, and the NoC is held while it is full), one shared-memory
//! access (write of arrived data before a buffer-fill read), take one shared-memory read
//! return, dispatch one ALU op, offer one NoC packet (STORE_REQ > response > LOAD_REQ >
//! FB_LOAD).
//!
//! [OC] The spec (§6.2) ties `ni_ready` high, which needs a write queue of one line per
//! operand of every entry (2 × 96 lines = 24 kB at the paper's size, ten times the paper's
//! whole SQ) because the core has priority on the shared-memory port. We hold the reply
//! in the NI instead: `ni_ready` is low while the queue holds [`SMW_DEPTH`] lines (from the
//! registers). A 5-flit data reply takes 5 cycles to eject, so two lines keep up.

use std::collections::VecDeque;

use super::config::LlcComputeConfig;
use super::packet::Flit;
use super::sqsr::{byte_enables, operand, Sqsr};
use crate::model::Model;

/// `no_kind` codes of the core SQ's NoC port (responses use the CP's `resp_kind`).
pub use super::sqsr::{RESP_ACK as NO_ACK, RESP_BITMAP as NO_BITMAP, RESP_DATA as NO_DATA};
pub const NO_LOAD_REQ: u32 = 3;
pub const NO_STORE_REQ: u32 = 4;
pub const NO_FB_LOAD: u32 = 5;
/// `ni_kind` codes.
pub const NI_LOAD_DATA: u32 = 0;
pub const NI_STORE_ACK: u32 = 1;
/// Lines of load data the shared-memory write queue holds.
pub const SMW_DEPTH: usize = 2;

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
    /// A NoC reply is taken (the write queue has room; from the registers).
    pub ni_ready: bool,
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

/// The core variant's registered state: the shared [`Sqsr`] plus its shared-memory side.
#[derive(Debug, PartialEq, Eq)]
pub struct SqCoreState {
    pub sqsr: Sqsr,
    /// Load data waiting for the shared-memory write port: (entry, which, data).
    pub smw_q: VecDeque<(usize, u32, Vec<u32>)>,
    /// Shared-memory reads in flight: (slot, which).
    pub sm_rd: VecDeque<(usize, u32)>,
}

impl Clone for SqCoreState {
    fn clone(&self) -> Self {
        Self { sqsr: self.sqsr.clone(), smw_q: self.smw_q.clone(), sm_rd: self.sm_rd.clone() }
    }

    fn clone_from(&mut self, src: &Self) {
        self.sqsr.clone_from(&src.sqsr);
        self.smw_q.clone_from(&src.smw_q);
        self.sm_rd.clone_from(&src.sm_rd);
    }
}

impl SqCoreState {
    /// [`Sqsr::sync_from`] with the shared-memory side copied whole.
    fn sync_from(&mut self, src: &Self) {
        self.sqsr.sync_from(&src.sqsr);
        self.smw_q.clone_from(&src.smw_q);
        self.sm_rd.clone_from(&src.sm_rd);
    }
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
    /// The state before the last commit: the next state's buffers.
    spare: Option<SqCoreState>,
    /// Planted bug for checker tests: dispatch to the ALU even when the core uses it.
    pub plant_ignore_gnt: bool,
    /// Planted bug for checker tests: byte-enable every lane of a STORE_REQ.
    pub plant_full_wbe: bool,
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
            spare: None,
            plant_ignore_gnt: false,
            plant_full_wbe: false,
        }
    }

    /// An SQ of `n_ent` entries and `n_buf` buffer slots at network node `self_node`,
    /// with the LLC of MC `i` at node `mc_nodes[i]` (the GPU model's core SQs).
    pub fn with_sizes(n_ent: usize, n_buf: usize, lanes: usize, alu_lat: u32, self_node: u32, mc_nodes: Vec<u32>) -> Self {
        Self { n_ent, n_buf, lanes, alu_lat, self_node, mc_nodes, state: Self::reset_state(n_ent, n_buf), next: None, spare: None, plant_ignore_gnt: false, plant_full_wbe: false }
    }

    fn reset_state(n: usize, b: usize) -> SqCoreState {
        SqCoreState { sqsr: Sqsr::new(n, b), smw_q: VecDeque::new(), sm_rd: VecDeque::new() }
    }

    pub fn count(&self) -> usize {
        self.state.sqsr.live()
    }

    fn llc_of(&self, addr: u64) -> u32 {
        self.mc_nodes[((addr >> 7) % self.mc_nodes.len() as u64) as usize]
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
        let s = &self.state.sqsr;
        // the next state reuses the buffers of the state before the last commit
        let mut n = self.next.take().or_else(|| self.spare.take()).unwrap_or_else(|| self.state.clone());
        n.sync_from(&self.state);
        *o = self.new_outputs();
        (o.st_count, o.st_full, o.st_buf_count) = s.status();
        if i.rst {
            self.next = Some(Self::reset_state(self.n_ent, self.n_buf));
            return;
        }
        // NoC out: STORE_REQ > response > LOAD_REQ > FB_LOAD
        if let Some(&e) = s.store_q.front() {
            let en = &s.ents[e];
            (o.no_valid, o.no_kind, o.no_dst, o.no_tag, o.no_oq_tag) = (true, NO_STORE_REQ, self.llc_of(en.cp.addr_c), e as u32, en.cp.oq_tag);
            (o.no_reply_node, o.no_addr) = (self.self_node, en.cp.addr_c);
            o.no_data = en.result.as_ref().unwrap().0.clone();
            o.no_wbe = byte_enables(en.cp.mask, self.lanes, self.plant_full_wbe);
            if i.no_ready {
                n.sqsr.store_q.pop_front();
            }
        } else if let Some(&e) = s.resp_q.front() {
            o.no_valid = true;
            (o.no_dst, o.no_kind, o.no_oq_tag, o.no_data) = s.response(e, self.lanes);
            (o.no_tag, o.no_reply_node) = (e as u32, self.self_node);
            if i.no_ready {
                n.sqsr.respond();
            }
        } else if let Some((e, k)) = s.next_load() {
            let en = &s.ents[e];
            let addr = operand(&en.cp, k as u32);
            (o.no_valid, o.no_kind, o.no_dst, o.no_tag, o.no_which, o.no_oq_tag) = (true, NO_LOAD_REQ, self.llc_of(addr), e as u32, k as u32, en.cp.oq_tag);
            (o.no_reply_node, o.no_addr) = (self.self_node, addr);
            if i.no_ready {
                n.sqsr.ent_mut(e).issued[k] = true;
            }
        } else if let Some(&(addr, which, src, tag)) = s.fb.front() {
            (o.no_valid, o.no_kind, o.no_dst, o.no_which, o.no_oq_tag) = (true, NO_FB_LOAD, self.llc_of(addr), which, tag);
            (o.no_reply_node, o.no_addr) = (src, addr);
            if i.no_ready {
                n.sqsr.fb.pop_front();
            }
        }
        // shared memory: a write of arrived data first, else a buffer-fill read
        if let Some((e, which, data)) = self.state.smw_q.front() {
            (o.sm_valid, o.sm_we, o.sm_addr) = (true, true, (2 * e + *which as usize) as u32);
            o.sm_wdata.clone_from(data);
            if i.sm_ready {
                n.smw_q.pop_front();
                n.sqsr.set_present(*e, *which as usize);
            }
        } else if let Some(f) = s.next_fill() {
            (o.sm_valid, o.sm_addr) = (true, (2 * f.entry + f.which as usize) as u32);
            if i.sm_ready {
                s.take_fill(&mut n.sqsr, f);
                n.sm_rd.push_back((f.slot, f.which));
            }
        }
        if i.sm_rvalid {
            if let Some((slot, which)) = n.sm_rd.pop_front() {
                if let Some(b) = n.sqsr.bufs[slot].as_mut() {
                    b.1[which as usize] = Some(i.sm_rdata.clone());
                }
            }
        }
        // NoC replies, while the write queue has room
        o.ni_ready = self.state.smw_q.len() < SMW_DEPTH;
        if i.ni_valid && o.ni_ready {
            let e = i.ni_tag as usize;
            if i.ni_kind == NI_LOAD_DATA {
                n.smw_q.push_back((e, i.ni_which, i.ni_data.clone()));
            } else {
                n.sqsr.resp_q.push_back(e);
            }
        }
        // CP in
        o.cp_ready = s.fb.is_empty();
        if i.cp_valid && o.cp_ready {
            s.accept_cp(&mut n.sqsr, &i.cp_flit);
        }
        // ALU: results, then the oldest complete buffer entry when the core leaves the ALU free
        let step = s.alu(&mut n.sqsr, i.alu_gnt || self.plant_ignore_gnt, self.alu_lat, self.lanes);
        (o.alu_req, o.alu_fire, o.st_contend) = (step.req, step.fire, step.req && !i.alu_gnt);
        self.next = Some(n);
    }

    fn commit(&mut self, _i: &SqCoreIn) {
        if let Some(n) = self.next.take() {
            self.spare = Some(std::mem::replace(&mut self.state, n));
        }
    }
}
