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
//!
//! The SQMU/SQSR bookkeeping is the [`Sqsr`] the core variant ([`super::sq_core`])
//! shares; this file adds the LLC request port and the partition's own ALU.

use super::config::LlcComputeConfig;
use super::packet::Flit;
use super::sqsr::{byte_enables, operand, Sqsr};
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

pub struct Sq {
    pub n_ent: usize,
    pub n_buf: usize,
    pub lanes: usize,
    pub alu_lat: u32,
    pub state: Sqsr,
    next: Option<Sqsr>,
    /// The state before the last commit: the next state's buffers.
    spare: Option<Sqsr>,
    /// Planted bug for checker tests: byte-enable every lane of a WRITE.
    pub plant_full_wbe: bool,
}

impl Sq {
    pub fn new(c: &LlcComputeConfig) -> Self {
        Self::with_sizes(c.sq.entries as usize, c.sq.buffer as usize, c.oq.lanes as usize, c.sq.alu_latency)
    }

    /// An SQ of `n_ent` entries, `n_buf` buffer slots, `lanes` ALU lanes and `alu_lat`
    /// cycles per op (the GPU model's SQ, whose sizes come from its hook table).
    pub fn with_sizes(n_ent: usize, n_buf: usize, lanes: usize, alu_lat: u32) -> Self {
        Self { n_ent, n_buf, lanes, alu_lat, state: Sqsr::new(n_ent, n_buf), next: None, spare: None, plant_full_wbe: false }
    }

    pub fn count(&self) -> usize {
        self.state.live()
    }
}

impl Model for Sq {
    type In = SqIn;
    type Out = SqOut;

    fn idle_inputs(&self) -> SqIn {
        SqIn {
            rst: false,
            cp_valid: false,
            cp_flit: [0; 4],
            lr_ready: false,
            lp_valid: false,
            lp_tag: 0,
            lp_which: 0,
            ld_valid: false,
            ld_tag: 0,
            ld_which: 0,
            ld_data: vec![0; self.lanes],
            no_ready: false,
        }
    }

    fn new_outputs(&self) -> SqOut {
        SqOut { lr_wdata: vec![0; self.lanes], no_data: vec![0; self.lanes], ..Default::default() }
    }

    fn assert_reset(i: &mut SqIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &SqIn, o: &mut SqOut) {
        let s = &self.state;
        // the next state reuses the buffers of the state before the last commit
        let mut n = self.next.take().or_else(|| self.spare.take()).unwrap_or_else(|| self.state.clone());
        n.sync_from(&self.state);
        *o = self.new_outputs();
        (o.st_count, o.st_full, o.st_buf_count) = s.status();
        if i.rst {
            self.next = Some(Sqsr::new(self.n_ent, self.n_buf));
            return;
        }
        // response port (registered queue)
        if let Some(&e) = s.resp_q.front() {
            o.no_valid = true;
            (o.no_dst, o.no_kind, o.no_oq_tag, o.no_data) = s.response(e, self.lanes);
        }
        // the LLC request port: WRITE > READ > TOUCH > FB_LOAD
        let take = i.lr_ready;
        if let Some(&e) = s.store_q.front() {
            let en = &s.ents[e];
            (o.lr_valid, o.lr_kind, o.lr_addr, o.lr_tag) = (true, LR_WRITE, en.cp.addr_c, e as u32);
            o.lr_wdata = en.result.as_ref().unwrap().0.clone();
            o.lr_wbe = byte_enables(en.cp.mask, self.lanes, self.plant_full_wbe);
            (o.lr_reply_node, o.lr_oq_tag) = (en.cp.src_node, en.cp.oq_tag);
            if take {
                n.store_q.pop_front();
                n.resp_q.push_back(e);
            }
        } else if let Some(f) = s.next_fill() {
            let en = &s.ents[f.entry];
            (o.lr_valid, o.lr_kind, o.lr_addr, o.lr_tag, o.lr_which) = (true, LR_READ, operand(&en.cp, f.which), f.entry as u32, f.which);
            (o.lr_reply_node, o.lr_oq_tag) = (en.cp.src_node, en.cp.oq_tag);
            if take {
                s.take_fill(&mut n, f);
            }
        } else if let Some((e, k)) = s.next_load() {
            let en = &s.ents[e];
            (o.lr_valid, o.lr_kind, o.lr_addr, o.lr_tag, o.lr_which) = (true, LR_TOUCH, operand(&en.cp, k as u32), e as u32, k as u32);
            (o.lr_reply_node, o.lr_oq_tag) = (en.cp.src_node, en.cp.oq_tag);
            if take {
                n.ent_mut(e).issued[k] = true;
            }
        } else if let Some(&(addr, which, src, tag)) = s.fb.front() {
            (o.lr_valid, o.lr_kind, o.lr_addr, o.lr_which, o.lr_reply_node, o.lr_oq_tag) = (true, LR_FB_LOAD, addr, which, src, tag);
            if take {
                n.fb.pop_front();
            }
        }
        // CP in
        o.cp_ready = s.fb.is_empty();
        if i.cp_valid && o.cp_ready {
            s.accept_cp(&mut n, &i.cp_flit);
        }
        // present notification
        if i.lp_valid {
            n.set_present(i.lp_tag as usize, i.lp_which as usize);
        }
        // read data into the entry's buffer slot
        if i.ld_valid {
            n.fill_data(i.ld_tag as usize, i.ld_which, &i.ld_data);
        }
        // ALU (the partition's own: always granted): results, then one dispatch
        s.alu(&mut n, true, self.alu_lat, self.lanes);
        // the response taken frees the entry
        if o.no_valid && i.no_ready {
            n.respond();
        }
        self.next = Some(n);
    }

    fn commit(&mut self, _i: &SqIn) {
        if let Some(n) = self.next.take() {
            self.spare = Some(std::mem::replace(&mut self.state, n));
        }
    }
}
