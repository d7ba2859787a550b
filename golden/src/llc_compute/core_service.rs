//! Omni-Compute in the GPU model, a core's Service Queue (spec §1.7): the golden
//! [`SqCore`] the RTL is co-simulated against, driven cycle by cycle from the SM's
//! network port ([`super::offload::OqNet`]).
//!
//! Wiring, per GPU cycle (the hook runs before the SM):
//! * ComputePackets for this core queue for the SQ's `cp` port (one per cycle, held while
//!   `cp_ready` is low); load data and store acks for its entries queue for the `ni`
//!   port (taken while `ni_ready`);
//! * the SQ's NoC port (`no_*`) sends when the network takes its class: LOAD_REQ (1
//!   flit) and FB_LOAD (1 flit) and STORE_REQ (5 flits) to the LLC partition of their
//!   address (the GPU's address map, not the SQ's own MC rule), ACK / DATA / BITMAP to
//!   the source core in the reply class;
//! * the shared-memory port (`sm_*`) is ready when no banked access of the SM's warps
//!   occupies it (the core has priority, §1.7 [OC]); a read returns after the SM's
//!   shared-memory latency;
//! * the ALU grant (`alu_gnt`) is given when the SM issued nothing into its SP pipeline
//!   in the previous cycle (the latest the hook can know; the core always wins, §1.7).
//!   Cycles where the SQ wanted the ALU and did not get it are the paper's ALU
//!   contention (Fig. 14, `llc_compute.sq_core.alu_contention`).
//!   The hardware arbitrates in the same cycle (spec §1.7: the SQ uses the ALU in
//!   cycles the core does not). The hook cannot: [`crate::gpu::hooks::CoreNetHook::cycle`]
//!   runs before the SM's issue stage, and the SQ's one `eval` decides its NoC, shared
//!   memory and ALU together, so deciding the ALU after the SM would mean a second hook
//!   call per cycle after the SM (a new hook point in `sim.rs`) and splitting the
//!   co-simulated model's `eval`. What the one-cycle-late grant costs is measured
//!   instead, the cycle after each decision (exact: the SM's SP issue of that cycle is
//!   known then): `alu_late_conflict` counts ops dispatched in a cycle the core used the
//!   ALU (a same-cycle grant would have held them one cycle or more), `alu_late_wait`
//!   cycles an op waited while the core left the ALU free (it would have gone one cycle
//!   earlier).
//! * the shared-memory port, likewise, is the state at the start of the cycle: a warp's
//!   shared access that starts in the same cycle is not seen. `smem_accesses` counts the
//!   SQ's accesses, each of which could be one cycle early at most. With a dedicated SQ
//!   ALU of `w` lanes (spec §7 study 19, `[hooks.llc_compute] core_sq_alu_lanes`) the
//!   core's ALU is never asked: a warp-wide op takes `32 / w` passes, so the grant
//!   returns `32 / w` cycles after each op starts and the op's latency grows by
//!   `32 / w - 1` cycles (set in the SQ's `alu_lat` by the hook); the counter then
//!   counts the cycles an op waited for the dedicated ALU.
//!
//! Load data is zeros, as at the LLC SQ: the SQ's data path decides no timing, and
//! results come from the source core's execution.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::chain::RespKind;
use super::packet::Flit;
use super::sq_core::{SqCore, SqCoreIn, SqCoreOut, NI_LOAD_DATA, NI_STORE_ACK, NO_FB_LOAD, NO_LOAD_REQ, NO_STORE_REQ};
use super::wire::{Msg, Wire};
use crate::gpu::hooks::{count, CorePort, HookCounters};
use crate::gpu::mapping::AddressMap;
use crate::model::Model;
use crate::network::{Class, Packet};

/// Counters (`llc_compute.sq_core.*`).
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    cps: u64,
    loads: u64,
    stores: u64,
    fallback_loads: u64,
    answers: u64,
    alu_ops: u64,
    alu_contention: u64,
    alu_late_conflict: u64,
    alu_late_wait: u64,
    smem_accesses: u64,
}

/// One SM's core SQ and its queues.
pub struct SqCoreService {
    sq: SqCore,
    sm: usize,
    line_bytes: u64,
    smem_latency: u64,
    wire: Rc<RefCell<Wire>>,
    map: Rc<AddressMap>,
    mem_nodes: Rc<Vec<usize>>,
    i: SqCoreIn,
    o: SqCoreOut,
    cps: VecDeque<Flit>,
    /// NoC replies for the SQ: (ni_kind, entry, which).
    ni: VecDeque<(u32, u32, u32)>,
    /// Shared-memory reads in flight: the cycle each returns.
    reads: VecDeque<u64>,
    /// A dedicated SQ ALU: (passes per warp-wide op, the cycle it is free again).
    dedicated: Option<(u64, u64)>,
    /// The shared ALU's decision of the last cycle the SQ ran: (cycle, an op fired, an
    /// op waited), for the one-cycle-late grant's measured error (module doc).
    last_alu: (u64, bool, bool),
    n: Counts,
}

impl SqCoreService {
    #[allow(clippy::too_many_arguments, reason = "the SQ's place in the GPU, one value each")]
    pub fn new(sq: SqCore, sm: usize, line_bytes: u64, smem_latency: u64, wire: Rc<RefCell<Wire>>, map: Rc<AddressMap>, mem_nodes: Rc<Vec<usize>>) -> Self {
        let (i, o) = (sq.idle_inputs(), sq.new_outputs());
        Self {
            sq,
            sm,
            line_bytes,
            smem_latency,
            wire,
            map,
            mem_nodes,
            i,
            o,
            cps: VecDeque::new(),
            ni: VecDeque::new(),
            reads: VecDeque::new(),
            dedicated: None,
            last_alu: (u64::MAX, false, false),
            n: Counts::default(),
        }
    }

    /// Give the SQ its own ALU, taking `passes` cycles per warp-wide op (32 lanes over
    /// a `32 / passes`-lane ALU), instead of the core's.
    pub fn with_dedicated_alu(mut self, passes: u64) -> Self {
        self.dedicated = Some((passes.max(1), 0));
        self
    }

    /// A packet for the SQ ejected here.
    pub fn arrive(&mut self, _pkt: &Packet, msg: Msg) {
        match msg {
            Msg::Cp { sm, tag, ext } => {
                self.n.cps += 1;
                self.cps.push_back(self.wire.borrow_mut().take_cp(sm, tag, ext));
            }
            Msg::LoadData { entry, which } => self.ni.push_back((NI_LOAD_DATA, u32::from(entry), u32::from(which))),
            Msg::StoreAck { entry } => self.ni.push_back((NI_STORE_ACK, u32::from(entry), 0)),
            m => panic!("SM {}: {m:?} is not for a core SQ", self.sm),
        }
    }

    fn line(&self, addr: u64) -> u64 {
        addr & !(self.line_bytes - 1)
    }

    /// The packet the SQ offers on its NoC port: (destination, class, message).
    fn offered(&self) -> (usize, Class, Msg) {
        let o = &self.o;
        let llc = |addr: u64| self.mem_nodes[self.map.node(addr)];
        let (entry, which) = (o.no_tag as u8, o.no_which as u8);
        match o.no_kind {
            NO_LOAD_REQ => (llc(o.no_addr), Class::Request, Msg::LoadReq { entry, which, addr: self.line(o.no_addr) }),
            NO_STORE_REQ => (llc(o.no_addr), Class::Request, Msg::StoreReq { entry, sm: self.sm as u8 }),
            NO_FB_LOAD => (llc(o.no_addr), Class::Request, Msg::FbLoad { which, tag: o.no_oq_tag as u8, src: o.no_reply_node as u8, addr: self.line(o.no_addr) }),
            k => {
                let kind = RespKind::from_code(k).expect("the core SQ's no_kind is a request or a resp_kind code");
                (o.no_dst as usize, Class::Reply, Msg::Answer { kind, tag: o.no_oq_tag as u8 })
            }
        }
    }

    /// One cycle; returns the next cycle it must run (`u64::MAX`: idle until a packet).
    pub fn cycle(&mut self, now: u64, port: &mut dyn CorePort) -> u64 {
        let i = &mut self.i;
        i.cp_valid = !self.cps.is_empty();
        if let Some(f) = self.cps.front() {
            i.cp_flit = *f;
        }
        i.ni_valid = !self.ni.is_empty();
        (i.ni_kind, i.ni_tag, i.ni_which) = self.ni.front().copied().unwrap_or((0, 0, 0));
        i.sm_ready = port.shared_port_free();
        i.sm_rvalid = self.reads.front().is_some_and(|&t| t <= now);
        i.alu_gnt = match self.dedicated {
            Some((_, free_at)) => now >= free_at,
            None => now == 0 || !port.alu_issued_at(now - 1),
        };
        // what a same-cycle grant would have decided last cycle, known only now
        if let (None, (t, fired, waited)) = (self.dedicated, self.last_alu) {
            if t.checked_add(1) == Some(now) {
                let core = port.alu_issued_at(t);
                self.n.alu_late_conflict += u64::from(fired && core);
                self.n.alu_late_wait += u64::from(waited && !core);
            }
        }
        i.no_ready = false;
        self.sq.eval(&self.i, &mut self.o);
        let mut sent = None;
        if self.o.no_valid {
            let (dst, class, msg) = self.offered();
            if port.can_send(class) {
                self.i.no_ready = true;
                self.sq.eval(&self.i, &mut self.o);
                sent = Some((dst, class, msg));
            }
        }
        // a split group's store writes its own words (its CP's extension flit)
        let wbe = match sent {
            Some((_, _, Msg::StoreReq { entry, .. })) => {
                let src = self.sq.state.sqsr.ents[entry as usize].cp.src_node;
                self.wire.borrow().store_enables(src, self.o.no_oq_tag, self.o.no_wbe)
            }
            _ => 0,
        };
        self.sq.commit(&self.i);
        if let Some((dst, class, msg)) = sent {
            match msg {
                Msg::LoadReq { .. } => self.n.loads += 1,
                Msg::FbLoad { .. } => self.n.fallback_loads += 1,
                Msg::StoreReq { entry, .. } => {
                    self.n.stores += 1;
                    self.wire.borrow_mut().put_store(self.sm, entry as usize, self.line(self.o.no_addr), wbe);
                }
                _ => self.n.answers += 1,
            }
            port.send(dst, class, msg.flits(), msg.encode());
        }
        if self.i.cp_valid && self.o.cp_ready {
            self.cps.pop_front();
        }
        if self.i.ni_valid && self.o.ni_ready {
            self.ni.pop_front();
        }
        if self.o.sm_valid && !self.o.sm_we && self.i.sm_ready {
            self.reads.push_back(now + self.smem_latency);
        }
        if self.i.sm_rvalid {
            self.reads.pop_front();
        }
        if let Some((passes, free_at)) = &mut self.dedicated {
            if self.o.alu_fire {
                *free_at = now + *passes;
            }
        }
        self.n.alu_ops += u64::from(self.o.alu_fire);
        self.n.alu_contention += u64::from(self.o.st_contend);
        self.last_alu = (now, self.o.alu_fire, self.o.st_contend);
        self.n.smem_accesses += u64::from(self.o.sm_valid && self.i.sm_ready);
        let s = &self.sq.state;
        let busy = self.sq.count() > 0 || !s.sqsr.fb.is_empty() || !s.smw_q.is_empty() || !self.cps.is_empty() || !self.ni.is_empty() || !self.reads.is_empty();
        if busy {
            now + 1
        } else {
            u64::MAX
        }
    }

    pub fn counters(&self, out: &mut HookCounters) {
        let n = &self.n;
        for (name, v) in [
            ("cps", n.cps),
            ("loads", n.loads),
            ("stores", n.stores),
            ("fallback_loads", n.fallback_loads),
            ("answers", n.answers),
            ("alu_ops", n.alu_ops),
            ("alu_contention", n.alu_contention),
            ("alu_late_conflict", n.alu_late_conflict),
            ("alu_late_wait", n.alu_late_wait),
            ("smem_accesses", n.smem_accesses),
        ] {
            count(out, &format!("llc_compute.sq_core.{name}"), v);
        }
    }
}
