//! LLC-Compute in the GPU model, the partition side: the Service Queue at each LLC
//! partition (spec §1.6), the same golden [`Sq`] the RTL is co-simulated against,
//! driven cycle by cycle through the partition's hook port.
//!
//! Wiring, per partition cycle ([`PartitionHook`] order):
//! * CP packets that eject here queue for the SQ's `cp` port (one per cycle, held while
//!   `cp_ready` is low);
//! * the SQ's LLC request port (`lr_*`) takes the partition's tag port when it is free
//!   ([`PartitionPort::llc`], round robin is the partition's: the port refuses while
//!   its input queue's head uses it). TOUCH and READ are LLC reads, WRITE an LLC write of
//!   the active lanes' bytes, FB_LOAD a read whose data leaves for the source core as a
//!   5-flit fallback packet;
//! * the LLC's completions come back as present notifications (TOUCH) and read data
//!   (READ), one of each per cycle. The data is zeros: the SQ's data path decides no
//!   timing, and results come from the source core's execution;
//! * the response port (`no_*`) injects ACK, DATA or BITMAP (1, 5, 1 flits) into the
//!   reply class when it can; fallback data and the answers below follow in a queue.
//!
//! Under Omni-Compute the partition also serves the core SQs (spec §1.7): their operand
//! loads, result stores and fallback loads arrive as hook packets and take the tag port
//! in the cycles the partition's own SQ does not (alternating with it when both wait);
//! a load's data goes back as a 5-flit LOAD_DATA, a store is acked with one flit once
//! the LLC accepted it, a fallback load's data goes to the source core's OQ. (In the
//! paper these are ordinary memory requests with an SQ sink; here they share the LLC's
//! tag port the way the LLC SQ's own accesses do.)

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::chain::RespKind;
use super::packet::Flit;
use super::sq::{Sq, SqIn, SqOut, LR_FB_LOAD, LR_READ, LR_TOUCH, LR_WRITE};
use super::wire::{Msg, Wire};
use crate::gpu::hooks::{count, HookCounters, PartitionHook, PartitionPort};
use crate::gpu::txn::TxnKind;
use crate::model::Model;
use crate::network::{Class, Packet};

/// One partition's SQ and its queues.
pub struct SqService {
    sq: Sq,
    line_bytes: u64,
    wire: Rc<RefCell<Wire>>,
    i: SqIn,
    o: SqOut,
    cps: VecDeque<Flit>,
    present: VecDeque<(u32, u32)>,
    data: VecDeque<(u32, u32)>,
    /// LLC accesses for others in flight (slot -> the reply to send when done): the
    /// SQ's fallback loads and the core SQs' requests.
    slots: Vec<Option<(usize, Msg)>>,
    /// Core SQs' requests waiting for the tag port: (kind, line, byte enables, reply).
    remote: VecDeque<(TxnKind, u64, u128, (usize, Msg))>,
    /// The tag port went to the SQ last time both wanted it.
    sq_had_port: bool,
    /// Packets waiting for the reply port after the SQ's own responses.
    replies: VecDeque<(usize, Msg)>,
    n_cps: u64,
    n_remote: [u64; 3],
    n_fallback_loads: u64,
    n_llc: [u64; 4],
    n_answers: u64,
}

impl SqService {
    pub fn new(sq: Sq, line_bytes: u64, wire: Rc<RefCell<Wire>>) -> Self {
        let (i, o) = (sq.idle_inputs(), sq.new_outputs());
        Self {
            sq,
            line_bytes,
            wire,
            i,
            o,
            cps: VecDeque::new(),
            present: VecDeque::new(),
            data: VecDeque::new(),
            slots: Vec::new(),
            remote: VecDeque::new(),
            sq_had_port: false,
            replies: VecDeque::new(),
            n_cps: 0,
            n_remote: [0; 3],
            n_fallback_loads: 0,
            n_llc: [0; 4],
            n_answers: 0,
        }
    }

    /// The LLC tag of request kind `kind` for entry (or fallback slot) `id`, operand `which`.
    fn tag(kind: u32, id: u32, which: u32) -> u32 {
        kind << 24 | which << 16 | id
    }

    /// The slot the next access made for others takes (the first free one).
    fn free_slot(&self) -> u32 {
        self.slots.iter().position(Option::is_none).unwrap_or(self.slots.len()) as u32
    }

    /// Slot `id` (from [`Self::free_slot`]) holds `reply` until its access completes.
    fn hold(&mut self, id: u32, reply: (usize, Msg)) {
        match self.slots.get_mut(id as usize) {
            Some(s) => *s = Some(reply),
            None => self.slots.push(Some(reply)),
        }
    }
}

/// The LLC tag kind of the accesses made for others (after the SQ's `LR_*` kinds).
const FOR_OTHERS: u32 = 8;

impl PartitionHook for SqService {
    fn arrive(&mut self, _now: u64, pkt: Packet) {
        let msg = Msg::decode(pkt.tag);
        assert_eq!(pkt.flits, msg.flits(), "{msg:?} of {} flits at a partition", pkt.flits);
        let src = pkt.src;
        match msg {
            Msg::Cp { sm, tag, ext } => {
                self.n_cps += 1;
                let flit = self.wire.borrow_mut().take_cp(sm, tag, ext);
                self.cps.push_back(flit);
            }
            Msg::LoadReq { entry, which, addr } => {
                self.n_remote[0] += 1;
                self.remote.push_back((TxnKind::Read, addr, 0, (src, Msg::LoadData { entry, which })));
            }
            Msg::StoreReq { entry, sm } => {
                self.n_remote[1] += 1;
                let (addr, wbe) = self.wire.borrow_mut().take_store(sm, entry);
                self.remote.push_back((TxnKind::Write, addr, wbe, (src, Msg::StoreAck { entry })));
            }
            Msg::FbLoad { which, tag, src: core, addr } => {
                self.n_remote[2] += 1;
                self.remote.push_back((TxnKind::Read, addr, 0, (core as usize, Msg::FbData { which, tag })));
            }
            m => panic!("{m:?} arrived at a partition: it is for a core"),
        }
    }

    fn llc_done(&mut self, _now: u64, tag: u32) {
        let (kind, which, id) = (tag >> 24, tag >> 16 & 0xff, tag & 0xffff);
        match kind {
            LR_TOUCH => self.present.push_back((id, which)),
            LR_READ => self.data.push_back((id, which)),
            LR_FB_LOAD | FOR_OTHERS => {
                let reply = self.slots[id as usize].take().expect("an access for others in flight");
                self.replies.push_back(reply);
            }
            _ => {} // a WRITE's acceptance was its handshake
        }
    }

    fn cycle(&mut self, now: u64, port: &mut dyn PartitionPort) -> u64 {
        let i = &mut self.i;
        i.cp_valid = !self.cps.is_empty();
        if let Some(f) = self.cps.front() {
            i.cp_flit = *f;
        }
        i.lp_valid = !self.present.is_empty();
        (i.lp_tag, i.lp_which) = self.present.front().copied().unwrap_or((0, 0));
        i.ld_valid = !self.data.is_empty();
        (i.ld_tag, i.ld_which) = self.data.front().copied().unwrap_or((0, 0));
        i.no_ready = port.can_send(Class::Reply);
        i.lr_ready = false;
        self.sq.eval(&self.i, &mut self.o);
        let sq_wants = self.o.lr_valid;
        // the core SQs' requests take the tag port when the SQ does not want it, and
        // every other time when both do
        let mut remote_took = false;
        if !self.remote.is_empty() && (!sq_wants || self.sq_had_port) {
            let &(kind, line, mask, _) = self.remote.front().expect("not empty");
            let id = self.free_slot();
            if port.llc(kind, line, mask, Self::tag(FOR_OTHERS, id, 0)) {
                let (.., reply) = self.remote.pop_front().expect("not empty");
                self.hold(id, reply);
                remote_took = true;
                self.sq_had_port = false;
            }
        }
        if sq_wants && !remote_took {
            let o = &self.o;
            let line = o.lr_addr & !(self.line_bytes - 1);
            let (kind, mask, id) = match o.lr_kind {
                LR_WRITE => (TxnKind::Write, self.wire.borrow().store_enables(o.lr_reply_node, o.lr_oq_tag, o.lr_wbe), o.lr_tag),
                LR_FB_LOAD => (TxnKind::Read, 0, self.free_slot()),
                _ => (TxnKind::Read, 0, o.lr_tag),
            };
            if port.llc(kind, line, mask, Self::tag(o.lr_kind, id, o.lr_which)) {
                self.n_llc[o.lr_kind as usize] += 1;
                if o.lr_kind == LR_FB_LOAD {
                    self.n_fallback_loads += 1;
                    let reply = (o.lr_reply_node as usize, Msg::FbData { which: o.lr_which as u8, tag: o.lr_oq_tag as u8 });
                    self.hold(id, reply);
                }
                self.sq_had_port = !self.remote.is_empty();
                self.i.lr_ready = true;
                self.sq.eval(&self.i, &mut self.o);
            }
        }
        self.sq.commit(&self.i);
        if self.i.cp_valid && self.o.cp_ready {
            self.cps.pop_front();
        }
        if self.i.lp_valid {
            self.present.pop_front();
        }
        if self.i.ld_valid {
            self.data.pop_front();
        }
        if self.o.no_valid && self.i.no_ready {
            let kind = RespKind::from_code(self.o.no_kind).expect("the SQ's no_kind is a resp_kind code");
            let msg = Msg::Answer { kind, tag: self.o.no_oq_tag as u8 };
            port.send(self.o.no_dst as usize, Class::Reply, msg.flits(), msg.encode());
            self.n_answers += 1;
        } else if let Some(&(node, msg)) = self.replies.front() {
            // the others' replies share the reply port, after the SQ's own responses
            if port.can_send(Class::Reply) {
                self.replies.pop_front();
                port.send(node, Class::Reply, msg.flits(), msg.encode());
            }
        }
        let busy = self.sq.count() > 0
            || !self.sq.state.fb.is_empty()
            || !self.cps.is_empty()
            || !self.present.is_empty()
            || !self.data.is_empty()
            || !self.replies.is_empty()
            || !self.remote.is_empty();
        if busy {
            now + 1
        } else {
            u64::MAX
        }
    }

    fn counters(&self, out: &mut HookCounters) {
        count(out, "llc_compute.sq.cps", self.n_cps);
        count(out, "llc_compute.sq.answers", self.n_answers);
        count(out, "llc_compute.sq.fallback_loads", self.n_fallback_loads);
        for (k, name) in [(LR_TOUCH, "touch"), (LR_READ, "read"), (LR_WRITE, "write")] {
            count(out, &format!("llc_compute.sq.llc_{name}"), self.n_llc[k as usize]);
        }
        for (v, name) in self.n_remote.iter().zip(["core_loads", "core_stores", "core_fallback_loads"]) {
            count(out, &format!("llc_compute.sq.{name}"), *v);
        }
    }
}
