//! MC network interface of the reply plane (spec §1.10, §1.9): the reply queue
//! (REPLY_Q flits, fed by L2/DRAM with valid/ready), the arrival and occupancy
//! counters, and the STATUS flit sent in the MC's final slot of the epoch.
//!
//! * `ready = count < REPLY_Q`; a pushed flit gets `src = MC index`.
//! * `loc_in_valid = status_slot | !empty`; the link is the STATUS flit in the
//!   status slot (priority over data), else the head. Transfer = valid & grant.
//! * `arr` counts pushes (16 bits, saturating), `occ` adds the registered count every
//!   cycle (24 bits, saturating); both restart on a STATUS send with this cycle's
//!   push and count.

use std::collections::VecDeque;

use super::config::NocConfig;
use super::link::{status_payload, Flit, LinkFmt, T_STATUS};

#[derive(Debug, Clone)]
pub struct McNi {
    pub idx: u32,
    fmt: LinkFmt,
    depth: usize,
    gom: (u32, u32),
    pub q: VecDeque<u128>,
    pub arr: u32,
    pub occ: u32,
    n_push: Option<u128>,
    n_pop: bool,
    n_status: bool,
}

/// What the NI presents this cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NiOut {
    pub ready: bool,
    pub loc_in_valid: bool,
    /// The link presented to the router (valid bit set when loc_in_valid).
    pub loc_in_link: u128,
}

impl McNi {
    pub fn new(c: &NocConfig, idx: usize) -> McNi {
        McNi {
            idx: idx as u32,
            fmt: LinkFmt::new(c),
            depth: c.reply.reply_queue as usize,
            gom: c.gom,
            q: VecDeque::with_capacity(c.reply.reply_queue as usize),
            arr: 0,
            occ: 0,
            n_push: None,
            n_pop: false,
            n_status: false,
        }
    }

    pub fn reset(&mut self) {
        self.q.clear();
        self.arr = 0;
        self.occ = 0;
    }

    pub fn ready(&self) -> bool {
        self.q.len() < self.depth
    }

    /// The STATUS flit of the current counters.
    pub fn status_link(&self) -> u128 {
        self.fmt.pack(&Flit {
            valid: true,
            ty: T_STATUS,
            head: true,
            tail: true,
            src: self.idx,
            dst_x: self.gom.0,
            dst_y: self.gom.1,
            payload: status_payload(self.idx, self.arr, self.occ),
        })
    }

    /// Outputs for this cycle's `status_slot` (counter-derived, from the router).
    pub fn out(&self, status_slot: bool) -> NiOut {
        let (v, link) = if status_slot {
            (true, self.status_link())
        } else if let Some(&h) = self.q.front() {
            (true, h | self.fmt.valid_bit())
        } else {
            (false, 0)
        };
        NiOut { ready: self.ready(), loc_in_valid: v, loc_in_link: link }
    }

    /// Evaluate with the L2/DRAM push and the router's grant.
    pub fn eval(&mut self, push_v: bool, push_link: u128, grant: bool, status_slot: bool) {
        let o = self.out(status_slot);
        let xfer = o.loc_in_valid && grant;
        self.n_status = xfer && status_slot;
        self.n_pop = xfer && !status_slot;
        self.n_push = (push_v && o.ready).then(|| self.fmt.with_src(push_link & !self.fmt.valid_bit(), self.idx));
    }

    pub fn commit(&mut self) {
        let count = self.q.len() as u32;
        let pushed = self.n_push.is_some() as u32;
        if self.n_status {
            self.arr = pushed;
            self.occ = count;
        } else {
            self.arr = (self.arr + pushed).min(0xffff);
            self.occ = (self.occ + count).min(0xff_ffff);
        }
        if self.n_pop {
            self.q.pop_front();
        }
        if let Some(f) = self.n_push.take() {
            self.q.push_back(f);
        }
    }
}
