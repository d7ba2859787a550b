//! The Service Queue at an LLC partition (spec §1.6, ports §6.2 with `AT_LLC = 1`):
//! SQMU, SQSR, the temporary buffer and temporary registers, with the partition's
//! dedicated 32-lane ALU inside (pipelined, `alu_latency` per op, two dependent ops for
//! patterns 8/9, pattern 3 passes the temporary registers in one cycle).
//!
//! Per cycle (spec §1.6.3) at most one of each: accept a CP (allocate, or turn it into
//! FB_LOADs when the SQSR is full: `cp_ready` is low while fallback loads wait), accept a
//! present notification, accept a read-data return, issue one LLC request (WRITE >
//! READ-for-buffer > TOUCH > FB_LOAD), dispatch one ALU op, offer one response.
//! Buffer slots go to ready entries first-come first-served (the ready-order FIFO);
//! ALU dispatch follows buffer order; an entry's response waits for its WRITE to be
//! accepted; the entry is freed when the response is taken.

use std::collections::VecDeque;

use super::chain::Pattern;
use super::config::LlcComputeConfig;
use super::lane_op::chain_result;
use super::packet::{ComputePacket, Flit};
use crate::model::Model;

/// `lr_kind` codes.
pub const LR_TOUCH: u32 = 0;
pub const LR_READ: u32 = 1;
pub const LR_WRITE: u32 = 2;
pub const LR_FB_LOAD: u32 = 3;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqIn {
    pub rst: bool,
    pub cp_valid: bool,
    pub cp_flit: Flit,
    pub lr_ready: bool,
    pub lp_valid: bool,
    pub lp_tag: u32,
    pub lp_which: u32,
    pub ld_valid: bool,
    pub ld_tag: u32,
    pub ld_which: u32,
    pub ld_data: Vec<u32>,
    pub no_ready: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SqOut {
    pub cp_ready: bool,
    pub lr_valid: bool,
    pub lr_kind: u32,
    pub lr_addr: u64,
    pub lr_tag: u32,
    pub lr_which: u32,
    pub lr_wdata: Vec<u32>,
    /// Byte enables, 4 per lane.
    pub lr_wbe: u128,
    pub lr_reply_node: u32,
    pub lr_oq_tag: u32,
    pub no_valid: bool,
    pub no_dst: u32,
    /// 0 ACK, 1 DATA, 2 BITMAP (the CP's `resp_kind`).
    pub no_kind: u32,
    pub no_oq_tag: u32,
    pub no_data: Vec<u32>,
    pub st_count: u32,
    pub st_full: bool,
    pub st_buf_count: u32,
}

/// One SQSR entry (spec §1.6.1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SqEntry {
    pub valid: bool,
    pub cp: ComputePacket,
    pub loads: usize,
    pub touched: [bool; 2],
    pub present: [bool; 2],
    pub result: Option<(Vec<u32>, u32)>,
}

/// A temporary-buffer slot: the entry it holds and its operands as they arrive.
pub type BufSlot = Option<(usize, [Option<Vec<u32>>; 2])>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqState {
    pub ents: Vec<SqEntry>,
    /// Entries whose operands are present, in the order they became ready.
    pub ready_q: VecDeque<usize>,
    /// Buffer slots: the entry and its operands as they arrive.
    pub bufs: Vec<BufSlot>,
    /// Occupied slots in the order they were handed out.
    pub buf_order: VecDeque<usize>,
    /// The entry whose second operand READ is still to be issued, and its slot.
    pub filling: Option<(usize, usize)>,
    /// In the ALU: (cycles left, entry).
    pub pipe: Vec<(u32, usize)>,
    pub write_q: VecDeque<usize>,
    pub resp_q: VecDeque<usize>,
    /// Fallback loads waiting for the LLC port: (addr, which, src, oq_tag).
    pub fb: VecDeque<(u64, u32, u32, u32)>,
}

pub struct Sq {
    pub n_ent: usize,
    pub n_buf: usize,
    pub lanes: usize,
    pub alu_lat: u32,
    pub state: SqState,
    next: Option<SqState>,
    /// Planted bug for checker tests: byte-enable every lane of a WRITE.
    pub plant_full_wbe: bool,
}

impl Sq {
    pub fn new(c: &LlcComputeConfig) -> Self {
        let (n_ent, n_buf) = (c.sq.entries as usize, c.sq.buffer as usize);
        Self { n_ent, n_buf, lanes: c.oq.lanes as usize, alu_lat: c.sq.alu_latency, state: Self::reset_state(n_ent, n_buf), next: None, plant_full_wbe: false }
    }

    fn reset_state(n: usize, b: usize) -> SqState {
        SqState {
            ents: vec![SqEntry::default(); n],
            ready_q: VecDeque::new(),
            bufs: vec![None; b],
            buf_order: VecDeque::new(),
            filling: None,
            pipe: Vec::new(),
            write_q: VecDeque::new(),
            resp_q: VecDeque::new(),
            fb: VecDeque::new(),
        }
    }

    pub fn count(&self) -> usize {
        self.state.ents.iter().filter(|e| e.valid).count()
    }

    fn operand_addr(cp: &ComputePacket, which: u32) -> u64 {
        if which == 0 {
            cp.addr_a
        } else {
            cp.addr_b
        }
    }

    fn wbe(&self, mask: u32) -> u128 {
        (0..self.lanes).filter(|k| self.plant_full_wbe || (mask >> k) & 1 == 1).fold(0u128, |m, k| m | (0xf << (4 * k)))
    }
}

impl Model for Sq {
    type In = SqIn;
    type Out = SqOut;

    fn idle_inputs(&self) -> SqIn {
        SqIn { rst: false, cp_valid: false, cp_flit: [0; 4], lr_ready: false, lp_valid: false, lp_tag: 0, lp_which: 0, ld_valid: false, ld_tag: 0, ld_which: 0, ld_data: vec![0; self.lanes], no_ready: false }
    }

    fn new_outputs(&self) -> SqOut {
        SqOut { lr_wdata: vec![0; self.lanes], no_data: vec![0; self.lanes], ..Default::default() }
    }

    fn assert_reset(i: &mut SqIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &SqIn, o: &mut SqOut) {
        let s = &self.state;
        let mut n = s.clone();
        *o = self.new_outputs();
        let live = s.ents.iter().filter(|e| e.valid).count();
        o.st_count = live as u32;
        o.st_full = live == self.n_ent;
        o.st_buf_count = s.buf_order.len() as u32;
        // response port (registered queue)
        if let Some(&e) = s.resp_q.front() {
            let en = &s.ents[e];
            let (res, bm) = en.result.clone().expect("responding entries have a result");
            o.no_valid = true;
            o.no_dst = en.cp.src_node;
            o.no_kind = en.cp.resp_kind;
            o.no_oq_tag = en.cp.oq_tag;
            o.no_data = match en.cp.resp_kind {
                1 => res,
                2 => {
                    let mut d = vec![0; self.lanes];
                    d[0] = bm;
                    d
                }
                _ => vec![0; self.lanes],
            };
        }
        // the LLC request port: WRITE > READ > TOUCH > FB_LOAD
        let free_slot = s.bufs.iter().position(|b| b.is_none());
        enum Req {
            Write(usize),
            Read(usize, usize, u32, bool),
            Touch(usize, usize),
            Fb,
        }
        let req = if let Some(&e) = s.write_q.front() {
            Some(Req::Write(e))
        } else if let Some((e, slot)) = s.filling {
            Some(Req::Read(e, slot, 1, false))
        } else if let (Some(&e), Some(slot)) = (s.ready_q.front(), free_slot) {
            Some(Req::Read(e, slot, 0, true))
        } else if let Some((e, k)) = s.ents.iter().enumerate().find_map(|(x, en)| (en.valid).then(|| (0..en.loads).find(|k| !en.touched[*k]).map(|k| (x, k))).flatten()) {
            Some(Req::Touch(e, k))
        } else if !s.fb.is_empty() {
            Some(Req::Fb)
        } else {
            None
        };
        if i.rst {
            self.next = Some(Self::reset_state(self.n_ent, self.n_buf));
            return;
        }
        if let Some(r) = &req {
            o.lr_valid = true;
            let take = i.lr_ready;
            match *r {
                Req::Write(e) => {
                    let en = &s.ents[e];
                    o.lr_kind = LR_WRITE;
                    o.lr_addr = en.cp.addr_c;
                    o.lr_tag = e as u32;
                    o.lr_wdata = en.result.as_ref().unwrap().0.clone();
                    o.lr_wbe = self.wbe(en.cp.mask);
                    o.lr_reply_node = en.cp.src_node;
                    o.lr_oq_tag = en.cp.oq_tag;
                    if take {
                        n.write_q.pop_front();
                        n.resp_q.push_back(e);
                    }
                }
                Req::Read(e, slot, which, start) => {
                    let en = &s.ents[e];
                    o.lr_kind = LR_READ;
                    o.lr_addr = Self::operand_addr(&en.cp, which);
                    o.lr_tag = e as u32;
                    o.lr_which = which;
                    o.lr_reply_node = en.cp.src_node;
                    o.lr_oq_tag = en.cp.oq_tag;
                    if take {
                        if start {
                            n.ready_q.pop_front();
                            n.bufs[slot] = Some((e, [None, None]));
                            n.buf_order.push_back(slot);
                        }
                        n.filling = (which == 0 && en.loads == 2).then_some((e, slot));
                    }
                }
                Req::Touch(e, k) => {
                    let en = &s.ents[e];
                    o.lr_kind = LR_TOUCH;
                    o.lr_addr = Self::operand_addr(&en.cp, k as u32);
                    o.lr_tag = e as u32;
                    o.lr_which = k as u32;
                    o.lr_reply_node = en.cp.src_node;
                    o.lr_oq_tag = en.cp.oq_tag;
                    if take {
                        n.ents[e].touched[k] = true;
                    }
                }
                Req::Fb => {
                    let (addr, which, src, tag) = s.fb[0];
                    o.lr_kind = LR_FB_LOAD;
                    o.lr_addr = addr;
                    o.lr_which = which;
                    o.lr_reply_node = src;
                    o.lr_oq_tag = tag;
                    if take {
                        n.fb.pop_front();
                    }
                }
            }
        }
        // CP in
        o.cp_ready = s.fb.is_empty();
        if i.cp_valid && o.cp_ready {
            let cp = ComputePacket::decode(&i.cp_flit);
            let loads = Pattern::get(cp.pattern).map_or(1, |p| p.loads());
            if live == self.n_ent {
                for k in 0..loads as u32 {
                    n.fb.push_back((Self::operand_addr(&cp, k), k, cp.src_node, cp.oq_tag));
                }
            } else {
                let e = s.ents.iter().position(|e| !e.valid).expect("not full");
                n.ents[e] = SqEntry { valid: true, cp, loads, ..Default::default() };
            }
        }
        // present notification
        if i.lp_valid {
            let e = &mut n.ents[i.lp_tag as usize];
            e.present[i.lp_which as usize] = true;
            if e.present[..e.loads].iter().all(|p| *p) {
                n.ready_q.push_back(i.lp_tag as usize);
            }
        }
        // read data into the entry's buffer slot
        if i.ld_valid {
            if let Some(b) = n.bufs.iter_mut().flatten().find(|b| b.0 == i.ld_tag as usize) {
                b.1[i.ld_which as usize] = Some(i.ld_data.clone());
            }
        }
        // ALU: results, then one dispatch of the oldest complete buffer entry
        n.pipe.clear();
        for &(left, e) in &s.pipe {
            if left <= 1 {
                if s.ents[e].cp.resp_kind == 0 {
                    n.write_q.push_back(e);
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
                let cp = &en.cp;
                let a = ops[0].clone().unwrap();
                let b = ops[1].clone().unwrap_or_else(|| vec![0; self.lanes]);
                n.ents[*e].result = Some(chain_result(cp, &a, &b));
                let n_ops = Pattern::get(cp.pattern).map_or(1, |p| p.alu_ops()) as u32;
                n.pipe.push(((self.alu_lat * n_ops).max(1), *e));
                n.bufs[slot] = None;
                n.buf_order.pop_front();
            }
        }
        // the response taken frees the entry
        if o.no_valid && i.no_ready {
            let e = n.resp_q.pop_front().unwrap();
            n.ents[e] = SqEntry::default();
        }
        self.next = Some(n);
    }

    fn commit(&mut self, _i: &SqIn) {
        if let Some(n) = self.next.take() {
            self.state = n;
        }
    }
}
