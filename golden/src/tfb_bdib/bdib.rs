//! The BDIB (barrier-displaced instruction buffer) with its per-warp barrier state,
//! cycle-accurate at every port of the generated `tfb_bdib_<preset>` Verilog
//! (spec §2.5–2.9, §5.2–5.3).
//!
//! One FIFO of `DEPTH` entries per warp, an `in_bar` ("entered barrier") bit and a
//! `fence_wait` bit per warp, one round-robin drain pointer. Each cycle [`Bdib::eval`]
//! reads only the state registered at the start of the cycle (§2.8 phase A) and
//! [`Bdib::commit`] is the clock edge (phase B: push at the tail, pop at the head,
//! state bits, `rr_ptr`).
//!
//! The barrier unit (ERF/EAF, `start_exit`, spec §2.3) and the scoreboard's decision
//! (§1.7) sit outside the block: the BDIB sees a barrier through the issue-port decode
//! (`iss_cls == BARRIER`, the snoop) and its end through `eaf_done`.

use std::collections::VecDeque;

use super::config::{Cls, TfbConfig, Variant};
use crate::model::Model;

/// One buffered warp instruction: the §2.6 entry, split as the ports carry it.
/// No operand values: the sources are read when the entry drains (§2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Entry {
    /// Class code (`Cls`); a buffered BARRIER is the BAR_MARKER of §2.6.
    pub cls: u8,
    pub scope: u8,
    /// Source register specifiers (the first `nsrc` are used).
    pub src: [u8; 4],
    /// Source valid bits, bit j for `src[j]`.
    pub src_v: u8,
    pub payload: u128,
}

impl Entry {
    /// Does a valid source of this entry name register `r` (a WAR conflict, §2.10)?
    pub fn reads(&self, r: u8, nsrc: usize) -> bool {
        (0..nsrc).any(|j| self.src_v >> j & 1 == 1 && self.src[j] == r)
    }
}

/// Everything the input ports carry in one cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BdibIn {
    pub rst: bool,
    pub iss_valid: bool,
    pub iss_warp: u32,
    pub iss: Entry,
    /// Per warp: exit-acquire fence finished (the barrier is complete for w).
    pub eaf_done: Vec<bool>,
    /// Per warp: a fence dispatched from the BDIB completed.
    pub fence_done: Vec<bool>,
    pub mem_ready: bool,
    pub warq_v: Vec<bool>,
    pub warq_warp: Vec<u32>,
    pub warq_dst: Vec<u8>,
    pub flush_valid: bool,
    pub flush_warp: u32,
}

/// Everything the output ports carry in one cycle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BdibOut {
    pub iss_ready: bool,
    pub mem_valid: bool,
    pub mem_warp: u32,
    /// The dispatched instruction (all zero when `mem_valid` is low).
    pub mem: Entry,
    pub mem_from_bdib: bool,
    pub mem_bar_arrive: bool,
    pub warp_full: Vec<bool>,
    pub warp_nonempty: Vec<bool>,
    pub warp_in_bar: Vec<bool>,
    pub mem_issue_stall: bool,
    pub warq_hit: Vec<bool>,
    pub dbg_count: Vec<u32>,
    pub dbg_fence_wait: Vec<bool>,
}

/// The per-warp state of §2.7 as the BDIB sees it. ENTRY, WAIT and EXIT differ only
/// inside the barrier unit; to the buffer they are one state, `in_bar` set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpState {
    /// No barrier pending, nothing buffered.
    Run,
    /// ENTRY / WAIT / EXIT: `bar` dispatched, EAF not yet done.
    InBar,
    /// Barrier complete, entries being released.
    Drain,
    /// A FENCE entry was dispatched; no pops until `fence_done` (§2.7 T9).
    DrainF,
}

/// What phase A decided, applied by the clock edge.
#[derive(Debug, Clone, Copy, Default)]
struct Step {
    push: bool,
    /// The granted warp, when the granted head is popped this cycle.
    pop: Option<usize>,
    /// An issue-port instruction went straight to the memory port.
    pass: bool,
}

/// Planted bugs, for showing that the scoreboard and the co-simulation catch them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BdibMutation {
    /// A barrier passing straight through does not set `in_bar` (P-TFB's snoop lost).
    PassBarrierNoInBar,
    /// The drain request ignores `in_bar`: entries leave before the EAF (G1 broken).
    DrainDuringBarrier,
    /// The round-robin pointer never advances.
    RrStuck,
    /// The WAR query ignores the youngest entry of a warp.
    WarMissesTail,
}

/// The BDIB.
#[derive(Debug, Clone)]
pub struct Bdib {
    /// A planted bug (None in every real use).
    pub mutation: Option<BdibMutation>,
    cfg: TfbConfig,
    /// Per-warp FIFO, head first; never longer than DEPTH.
    q: Vec<VecDeque<Entry>>,
    in_bar: Vec<bool>,
    fence_wait: Vec<bool>,
    rr_ptr: usize,
    step: Step,
}

impl Bdib {
    pub fn new(cfg: &TfbConfig) -> Self {
        let n = cfg.n();
        Bdib {
            mutation: None,
            cfg: cfg.clone(),
            q: vec![VecDeque::with_capacity(cfg.d()); n],
            in_bar: vec![false; n],
            fence_wait: vec![false; n],
            rr_ptr: 0,
            step: Step::default(),
        }
    }

    pub fn config(&self) -> &TfbConfig {
        &self.cfg
    }

    /// Occupancy of warp `w`'s FIFO.
    pub fn count(&self, w: usize) -> usize {
        self.q[w].len()
    }

    pub fn in_bar(&self, w: usize) -> bool {
        self.in_bar[w]
    }

    pub fn fence_wait(&self, w: usize) -> bool {
        self.fence_wait[w]
    }

    pub fn rr_ptr(&self) -> usize {
        self.rr_ptr
    }

    /// Warp `w`'s buffered entries, head first.
    pub fn entries(&self, w: usize) -> impl Iterator<Item = &Entry> {
        self.q[w].iter()
    }

    /// §2.7 state of warp `w`.
    pub fn state(&self, w: usize) -> WarpState {
        if self.in_bar[w] {
            WarpState::InBar
        } else if self.fence_wait[w] {
            WarpState::DrainF
        } else if !self.q[w].is_empty() {
            WarpState::Drain
        } else {
            WarpState::Run
        }
    }

    /// `drain_req[w]` (§5.3): barrier complete, no fence outstanding, entries left.
    pub fn drain_req(&self, w: usize) -> bool {
        (!self.in_bar[w] || self.mutation == Some(BdibMutation::DrainDuringBarrier)) && !self.fence_wait[w] && !self.q[w].is_empty()
    }

    /// Would an instruction of class `cls` from warp `w` be buffered (`route = ENQ`)?
    pub fn routes_to_bdib(&self, w: usize, cls: u8) -> bool {
        self.cfg.mode.buffers() && (self.in_bar[w] || !self.q[w].is_empty()) && Cls::from_code(cls).is_some_and(Cls::bufferable)
    }

    /// WAR (§2.10): does a buffered entry of `w` read register `r`?
    pub fn war_hit(&self, w: usize, r: u8) -> bool {
        let skip_tail = (self.mutation == Some(BdibMutation::WarMissesTail)) as usize;
        self.q[w].iter().take(self.q[w].len().saturating_sub(skip_tail)).any(|e| e.reads(r, self.cfg.nsrc as usize))
    }

    /// Round-robin drain grant: the first requesting warp at or after `rr_ptr`.
    fn grant(&self) -> Option<usize> {
        let n = self.cfg.n();
        (0..n).map(|k| (self.rr_ptr + k) % n).find(|&w| self.drain_req(w))
    }
}

impl Model for Bdib {
    type In = BdibIn;
    type Out = BdibOut;

    fn idle_inputs(&self) -> BdibIn {
        let (n, k) = (self.cfg.n(), self.cfg.nwarq as usize);
        BdibIn {
            rst: false,
            iss_valid: false,
            iss_warp: 0,
            iss: Entry::default(),
            eaf_done: vec![false; n],
            fence_done: vec![false; n],
            mem_ready: false,
            warq_v: vec![false; k],
            warq_warp: vec![0; k],
            warq_dst: vec![0; k],
            flush_valid: false,
            flush_warp: 0,
        }
    }

    fn new_outputs(&self) -> BdibOut {
        let (n, k) = (self.cfg.n(), self.cfg.nwarq as usize);
        BdibOut {
            warp_full: vec![false; n],
            warp_nonempty: vec![false; n],
            warp_in_bar: vec![false; n],
            warq_hit: vec![false; k],
            dbg_count: vec![0; n],
            dbg_fence_wait: vec![false; n],
            ..Default::default()
        }
    }

    fn eval(&mut self, i: &BdibIn, o: &mut BdibOut) {
        let n = self.cfg.n();
        let d = self.cfg.d();
        // phase A.1: status bits from registered state
        for w in 0..n {
            o.warp_full[w] = self.q[w].len() == d;
            o.warp_nonempty[w] = !self.q[w].is_empty();
            o.warp_in_bar[w] = self.in_bar[w];
            o.dbg_count[w] = self.q[w].len() as u32;
            o.dbg_fence_wait[w] = self.fence_wait[w];
        }
        // A.2, A.3: the drain request owns the memory port; round-robin grant
        let grant = self.grant();
        o.mem_issue_stall = grant.is_some();
        // issue-port route (a warp index past NUM_WARPS names no warp: it passes)
        let iw = i.iss_warp as usize;
        let enq = iw < n && self.routes_to_bdib(iw, i.iss.cls);
        o.iss_ready = if enq { self.q[iw].len() < d } else { i.mem_ready && !o.mem_issue_stall };
        // the memory dispatch port: the granted head, else the pass-through instruction
        let pass_valid = i.iss_valid && !enq;
        o.mem_from_bdib = o.mem_issue_stall;
        (o.mem_valid, o.mem_warp, o.mem) = match grant {
            Some(g) => (true, g as u32, self.q[g][0]),
            None if pass_valid => (true, i.iss_warp, i.iss),
            None => (false, 0, Entry::default()),
        };
        o.mem_bar_arrive = o.mem_valid && o.mem.cls == Cls::Barrier.code();
        // WAR queries
        for k in 0..o.warq_hit.len() {
            let w = i.warq_warp[k] as usize;
            o.warq_hit[k] = i.warq_v[k] && w < n && self.war_hit(w, i.warq_dst[k]);
        }
        self.step = Step { push: i.iss_valid && enq && o.iss_ready, pop: grant.filter(|_| i.mem_ready), pass: pass_valid && o.iss_ready };
    }

    fn commit(&mut self, i: &BdibIn) {
        let n = self.cfg.n();
        if i.rst {
            for w in 0..n {
                self.q[w].clear();
                self.in_bar[w] = false;
                self.fence_wait[w] = false;
            }
            self.rr_ptr = 0;
            self.step = Step::default();
            return;
        }
        let s = self.step;
        // the EAF and fence completions of this cycle end the states they belong to
        for w in 0..n {
            if i.eaf_done[w] {
                self.in_bar[w] = false;
            }
            if i.fence_done[w] {
                self.fence_wait[w] = false;
            }
        }
        // B.2: pop the granted head; a BAR_MARKER is this warp's barrier arrival (T8),
        // a FENCE waits for its completion (T9)
        if let Some(g) = s.pop {
            let e = self.q[g].pop_front().expect("a granted warp has a head");
            if e.cls == Cls::Barrier.code() {
                self.in_bar[g] = true;
            } else if e.cls == Cls::Fence.code() {
                self.fence_wait[g] = true;
            }
            if self.mutation != Some(BdibMutation::RrStuck) {
                self.rr_ptr = (g + 1) % n;
            }
        }
        // B.1: push at the tail (room was checked against the start-of-cycle count)
        let iw = i.iss_warp as usize;
        if s.push {
            self.q[iw].push_back(i.iss);
        }
        // a barrier passing straight through is the arrival (T1)
        if s.pass && iw < n && i.iss.cls == Cls::Barrier.code() && self.mutation != Some(BdibMutation::PassBarrierNoInBar) {
            self.in_bar[iw] = true;
        }
        let fw = i.flush_warp as usize;
        if i.flush_valid && fw < n {
            self.q[fw].clear();
            self.in_bar[fw] = false;
            self.fence_wait[fw] = false;
        }
    }

    fn assert_reset(inputs: &mut BdibIn) {
        inputs.rst = true;
    }
}

/// The variant-legality decision of the scoreboard (spec §1.7) for an instruction of
/// class `cls` (None: ALU or control work, not on the memory path) from warp `w`,
/// as the BDIB's state bits show it. `war` is the WAR query's answer for its
/// destination. This is the stimulus's rule for legal traffic, not part of the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Exec,
    IssueToBdib,
    Block,
}

pub fn decide(b: &Bdib, w: usize, cls: Option<Cls>, war: bool) -> Decision {
    if war {
        return Decision::Block;
    }
    let (pend, q) = (b.in_bar(w), b.count(w));
    if !pend && q == 0 {
        return Decision::Exec;
    }
    let c = match cls {
        None | Some(Cls::Priv) | Some(Cls::Ro) => return Decision::Exec,
        Some(c) => c,
    };
    match b.config().mode {
        Variant::P => {
            if c == Cls::Fence {
                Decision::Exec
            } else {
                Decision::Block
            }
        }
        mode => {
            // full: the scoreboard's "BDIB full" bit; G-TFB holds scratch ops in a barrier
            if q == b.config().d() || (pend && c == Cls::Scratch && mode == Variant::G) {
                Decision::Block
            } else {
                Decision::IssueToBdib
            }
        }
    }
}
