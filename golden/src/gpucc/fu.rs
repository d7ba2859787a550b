//! Core functional unit (`gpucc_fu`): executes its CR's one fixed instruction
//! (spec §1.6) under the firing rule of spec §1.7, in strict or pipelined timing.
//!
//! Ports, driven every cycle into [`NetInputs`] at the unit's position `p`:
//! `u_out_v`, `u_out_lane_en`, `u_out_data`, `u_in_yumi[p*3+k]`, `unit_done`.
//! The unit reads the network only through its state-only queries
//! ([`CcNet::operand`], [`CcNet::out_ready`], [`CcNet::mode`]), so it can be
//! evaluated before [`CcNet::eval`] in the same cycle, as the combinational
//! hardware is.
//!
//! * **Strict** (spec §1.7, the paper's rule literally; default for co-simulation):
//!   `u_out_v = running & !done & AND(used_k -> valid_k)`; `fire = u_out_v &
//!   u_out_ready`; the result is on the lane in the firing cycle; each used FIFO input
//!   (lane or SELF source) is popped on fire; IMM and unused slots never pop.
//! * **Pipelined** (performance studies): a LAT-cycle pipeline (`lat_fp` for FADD..FMAX,
//!   `lat_int` otherwise) in front of a result queue, with at most LAT+1 results held
//!   (in flight + queued). The unit *issues* (pops its inputs) iff its inputs are valid
//!   and `inflight + rq_count < LAT+1`. *Our choice for "latency":* a result issued in
//!   cycle t can be on the lane in cycle t+LAT-1, so a consumer can fire at t+LAT, as
//!   in strict mode with LAT = 1; with LAT = 1 the result bypasses the empty queue in
//!   its issue cycle (valid then depends on the issue condition, never on ready).
//!   A SELF loop therefore carries one token per LAT cycles (spec §1.7 note). The head
//!   result is sent when `u_out_ready`; the network's `u_fire` is that transfer.
//!   Token order and values equal strict mode.
//!
//! Shared rules:
//! * `running` = the SM is in RUN (*our choice:* units never start new work in DRAIN;
//!   every counted unit is done by then, and uncounted units simply stop).
//! * `fire_count` firings (strict) or issued results (pipelined) make the unit stop;
//!   `done` (to `unit_done`) is set when `fire_cnt == fire_count` and, in pipelined
//!   mode, every result has left. `fire_count = 0` runs unbounded and never reports
//!   done.
//! * `last_only`: `u_out_lane_en` is 0 except for the result of the final firing; the
//!   SELF FIFOs still receive every result. With `fire_count = 0` nothing is ever
//!   sent on the lane.
//! * The CR is latched in ARM (CRs cannot change outside GPU mode, spec §1.9), which
//!   also clears the counters and the pipeline (`cc_init`).
//! * *Our choice:* a core whose opcode produces no result (NOP, LD, ST, unknown) never
//!   fires.
//! * Results are computed on the low 32 bits of the operands ([`super::fp::exec`]) and
//!   masked to the lane width.

use std::collections::VecDeque;

use super::config::{GpuccConfig, Timing, TimingMode, N_IN};
use super::cr::{op, Cr, Src};
use super::fp;
use super::net::{CcNet, Mode, NetInputs};

/// Planted bugs in the core unit, for showing that the checks catch them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FuMutation {
    /// FMAD rounds the product before adding (unfused).
    FmadUnfused,
    /// The unit ignores `done` and keeps firing past its fire count.
    FireBeyondCount,
}

/// One result travelling through the pipelined unit: data and "is the final firing".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Result {
    data: u64,
    last: bool,
}

/// Next-state decisions of one cycle, applied by [`Fu::commit`].
#[derive(Debug, Clone, Copy, Default)]
struct FuNext {
    arm: bool,
    /// Issued (strict: fired) this cycle, with its result.
    issue: Option<Result>,
    /// Strict: fired. Pipelined: head result sent on the lane.
    sent: bool,
    /// Pipelined: the arriving result was sent straight through (queue was empty).
    bypassed: bool,
}

/// A core functional unit at chain position `pos`.
#[derive(Debug, Clone)]
pub struct Fu {
    pos: usize,
    timing: Timing,
    mask: u64,
    lanes: u32,
    // ---- latched at ARM ----
    cr: Cr,
    src: [Src; N_IN],
    lat: u32,
    // ---- registered state ----
    /// Strict: firings. Pipelined: issued results.
    fire_cnt: u32,
    /// Results sent on the lane (pipelined; equals `fire_cnt` in strict mode).
    sent_cnt: u32,
    /// Pipelined: `lat-1` stages; stage 0 issued last cycle, the last stage arrives now.
    pipe: VecDeque<Option<Result>>,
    /// Pipelined: result queue.
    rq: VecDeque<Result>,
    nx: FuNext,
    pub mutation: Option<FuMutation>,
}

impl Fu {
    pub fn new(cfg: &GpuccConfig, pos: usize) -> Self {
        Fu {
            pos,
            timing: cfg.timing,
            mask: cfg.data_mask(),
            lanes: cfg.lanes,
            cr: Cr::default(),
            src: [Src::Unused; N_IN],
            lat: 1,
            fire_cnt: 0,
            sent_cnt: 0,
            pipe: VecDeque::new(),
            rq: VecDeque::new(),
            nx: FuNext::default(),
            mutation: None,
        }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The latched CR.
    pub fn cr(&self) -> &Cr {
        &self.cr
    }

    /// Firings (strict) / issued results (pipelined) since ARM.
    pub fn fire_cnt(&self) -> u32 {
        self.fire_cnt
    }

    fn bounded_done(&self, cnt: u32) -> bool {
        self.cr.fire_count != 0 && cnt >= self.cr.fire_count
    }

    /// `unit_done`: every firing made and (pipelined) every result sent.
    pub fn done(&self) -> bool {
        self.cr.en && self.bounded_done(self.sent_cnt) && self.bounded_done(self.fire_cnt)
    }

    fn compute(&self, a: u64, b: u64, c: u64) -> Option<u64> {
        let (a, b, c) = (a as u32, b as u32, c as u32);
        let r = if self.cr.opcode == op::FMAD && self.mutation == Some(FuMutation::FmadUnfused) { Some(fp::fmad_unfused(a, b, c)) } else { fp::exec(self.cr.opcode, a, b, c) };
        r.map(|v| v as u64 & self.mask)
    }

    /// Operand check and result of a firing this cycle, if the inputs allow one.
    fn try_operands(&self, net: &CcNet) -> Option<u64> {
        let mut d = [0u64; N_IN];
        for (k, dk) in d.iter_mut().enumerate() {
            let (v, data) = net.operand(self.pos, k);
            if !v {
                return None;
            }
            *dk = data;
        }
        self.compute(d[0], d[1], d[2])
    }

    fn uses_fifo(&self, k: usize) -> bool {
        matches!(self.src[k], Src::Lane(_) | Src::SelfLoop)
    }

    /// Evaluate one cycle: drive this unit's ports into `inp` from registered state
    /// and the network's state-only queries.
    pub fn eval(&mut self, net: &mut CcNet, inp: &mut NetInputs) {
        let p = self.pos;
        let mode = net.mode();
        self.nx = FuNext { arm: mode == Mode::Arm, ..FuNext::default() };
        let running = mode == Mode::Run && self.cr.en && fp::is_core_op(self.cr.opcode);
        for k in 0..N_IN {
            inp.u_in_yumi[p * N_IN + k] = false;
        }
        inp.unit_done[p] = self.done();
        let ignore_done = self.mutation == Some(FuMutation::FireBeyondCount);
        let may_issue = running && (ignore_done || !self.bounded_done(self.fire_cnt));
        let result = if may_issue { self.try_operands(net) } else { None };
        match self.timing.mode {
            TimingMode::Strict => {
                let last = self.cr.fire_count != 0 && self.fire_cnt + 1 == self.cr.fire_count;
                let lane_en = !self.cr.last_only || last;
                let v = result.is_some();
                let fire = v && net.out_ready(p, lane_en);
                inp.u_out_v[p] = v;
                inp.u_out_lane_en[p] = lane_en;
                inp.u_out_data[p] = result.unwrap_or(0);
                if fire {
                    self.pop_inputs(inp);
                    self.nx.issue = result.map(|data| Result { data, last });
                    self.nx.sent = true;
                }
            }
            TimingMode::Pipelined => {
                let held = self.pipe.iter().flatten().count() + self.rq.len();
                let issue = result.is_some() && held < self.lat as usize + 1;
                let last = self.cr.fire_count != 0 && self.fire_cnt + 1 == self.cr.fire_count;
                let issued = if issue { result.map(|data| Result { data, last }) } else { None };
                // the result arriving at the queue this cycle
                let arriving = if self.lat == 1 { issued } else { self.pipe.back().copied().flatten() };
                let head = self.rq.front().copied().or(arriving);
                let v = running && head.is_some();
                let h = head.unwrap_or(Result { data: 0, last: false });
                let lane_en = !self.cr.last_only || h.last;
                let send = v && net.out_ready(p, lane_en);
                inp.u_out_v[p] = v;
                inp.u_out_lane_en[p] = lane_en;
                inp.u_out_data[p] = h.data;
                if issue {
                    self.pop_inputs(inp);
                }
                self.nx.issue = issued;
                self.nx.sent = send;
                self.nx.bypassed = send && self.rq.is_empty();
            }
        }
    }

    fn pop_inputs(&self, inp: &mut NetInputs) {
        for k in 0..N_IN {
            if self.uses_fifo(k) {
                inp.u_in_yumi[self.pos * N_IN + k] = true;
            }
        }
    }

    /// The clock edge.
    pub fn commit(&mut self, net: &CcNet) {
        let nx = self.nx;
        if nx.arm {
            self.cr = Cr::from_words(net.cr_words(self.pos));
            for k in 0..N_IN {
                self.src[k] = self.cr.src(k, self.lanes);
            }
            self.lat = match self.timing.mode {
                TimingMode::Strict => 1,
                TimingMode::Pipelined if fp::is_fp(self.cr.opcode) => self.timing.lat_fp,
                TimingMode::Pipelined => self.timing.lat_int,
            };
            self.fire_cnt = 0;
            self.sent_cnt = 0;
            self.rq.clear();
            self.pipe = std::iter::repeat_n(None, self.lat as usize - 1).collect();
            return;
        }
        if nx.issue.is_some() {
            self.fire_cnt += 1;
        }
        if nx.sent {
            self.sent_cnt += 1;
        }
        if self.timing.mode == TimingMode::Pipelined {
            let arriving = if self.lat == 1 {
                nx.issue
            } else {
                let a = self.pipe.pop_back().flatten();
                self.pipe.push_front(nx.issue);
                a
            };
            if nx.sent && !nx.bypassed {
                self.rq.pop_front();
            }
            if let Some(r) = arriving {
                if !nx.bypassed {
                    self.rq.push_back(r);
                }
            }
        }
    }
}
