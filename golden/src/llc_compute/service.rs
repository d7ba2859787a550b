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
//!   reply class when it can.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::chain::RespKind;
use super::offload::{Wire, WIRE_FB_A};
use super::packet::Flit;
use super::sq::{Sq, SqIn, SqOut, LR_FB_LOAD, LR_READ, LR_TOUCH, LR_WRITE};
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
    /// Fallback loads in the LLC (slot -> (source node, OQ tag, which)), and their data
    /// waiting for the reply port.
    fb_slots: Vec<Option<(u32, u32, u32)>>,
    fb_out: VecDeque<(u32, u32, u32)>,
    n_cps: u64,
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
            fb_slots: Vec::new(),
            fb_out: VecDeque::new(),
            n_cps: 0,
            n_fallback_loads: 0,
            n_llc: [0; 4],
            n_answers: 0,
        }
    }

    /// The LLC tag of request kind `kind` for entry (or fallback slot) `id`, operand `which`.
    fn tag(kind: u32, id: u32, which: u32) -> u32 {
        kind << 24 | which << 16 | id
    }
}

impl PartitionHook for SqService {
    fn arrive(&mut self, _now: u64, pkt: Packet) {
        self.n_cps += 1;
        let flit = self.wire.borrow_mut().take(pkt.tag);
        self.cps.push_back(flit);
    }

    fn llc_done(&mut self, _now: u64, tag: u32) {
        let (kind, which, id) = (tag >> 24, tag >> 16 & 0xff, tag & 0xffff);
        match kind {
            LR_TOUCH => self.present.push_back((id, which)),
            LR_READ => self.data.push_back((id, which)),
            LR_FB_LOAD => {
                let fb = self.fb_slots[id as usize].take().expect("a fallback load in flight");
                self.fb_out.push_back(fb);
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
        if self.o.lr_valid {
            let o = &self.o;
            let line = o.lr_addr & !(self.line_bytes - 1);
            let (kind, mask, id) = match o.lr_kind {
                LR_WRITE => (TxnKind::Write, o.lr_wbe, o.lr_tag),
                LR_FB_LOAD => {
                    let slot = self.fb_slots.iter().position(Option::is_none).unwrap_or(self.fb_slots.len());
                    (TxnKind::Read, 0, slot as u32)
                }
                _ => (TxnKind::Read, 0, o.lr_tag),
            };
            if port.llc(kind, line, mask, Self::tag(o.lr_kind, id, o.lr_which)) {
                self.n_llc[o.lr_kind as usize] += 1;
                if o.lr_kind == LR_FB_LOAD {
                    self.n_fallback_loads += 1;
                    let fb = Some((o.lr_reply_node, o.lr_oq_tag, o.lr_which));
                    match self.fb_slots.get_mut(id as usize) {
                        Some(s) => *s = fb,
                        None => self.fb_slots.push(fb),
                    }
                }
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
            let kind = self.o.no_kind;
            let flits = RespKind::from_code(kind).expect("the SQ's no_kind is a resp_kind code").flits();
            port.send(self.o.no_dst as usize, Class::Reply, flits, u64::from(kind) << 8 | u64::from(self.o.no_oq_tag));
            self.n_answers += 1;
        } else if let Some(&(node, tag, which)) = self.fb_out.front() {
            // fallback data shares the reply port, after the SQ's own responses
            if port.can_send(Class::Reply) {
                self.fb_out.pop_front();
                port.send(node as usize, Class::Reply, RespKind::Data.flits(), (WIRE_FB_A + u64::from(which)) << 8 | u64::from(tag));
            }
        }
        let busy = self.sq.count() > 0 || !self.sq.state.fb.is_empty() || !self.cps.is_empty() || !self.present.is_empty() || !self.data.is_empty() || !self.fb_out.is_empty();
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
    }
}
