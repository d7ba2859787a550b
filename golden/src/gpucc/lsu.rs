//! Load-store unit (`gpucc_lsu`, spec §1.8): LD with an issue pointer and in-order
//! response queue, ST with write acknowledges, and the prefetch element.
//!
//! Operand slots: FIFO0 = address FIFO (deep, with the look-ahead port), FIFO1 =
//! store-data FIFO; slot 2 is never used. The address is `a + imm` (wrapping).
//!
//! **LD.**
//! * Issue pointer: the first `inflight` address-FIFO entries have been sent to
//!   memory; the next one is read through the peek port at index `inflight` and
//!   issued if `inflight < MAX_INFLIGHT`. *Our choice:* the unit never issues more
//!   loads than its remaining fire count (so nothing is left in flight once it is
//!   done), and at most one request per cycle leaves the port.
//! * Responses arrive in request order (the memory model keeps per-port order) into a
//!   response queue that cannot overflow (`inflight <= MAX_INFLIGHT`). A response
//!   delivered in cycle t is on the lane at t+1 at the earliest.
//! * `u_out_v` = running & !done & response queue non-empty; `fire` = transfer on the
//!   lane. On fire the **address FIFO head is popped** (completion, spec §1.7/§1.8) and
//!   `inflight` drops by one. `fire_count` counts these transfers; `last_only` as for
//!   cores.
//!
//! **ST.** `u_out_v` = running & !done & address and data valid & write port ready
//! (*our choice*: the ST presents its store as a result-less token so the network's
//! `u_fire`, watchdog and event counters see it; it drives no lane, so the network's
//! ready is 1). On fire both FIFOs pop and the write request leaves. `done` also
//! waits for every accepted write to be acknowledged.
//!
//! **Prefetch element** (LD only, when `lsu.prefetch`). The scan pointer stays at or
//! ahead of the issue pointer, advances by at most one entry per cycle, and for each
//! entry computes `line = (addr + imm) >> log2(LINE_BYTES)`; if `line != last_line`
//! it sends a prefetch request (the L1 drops it if the line is resident or pending)
//! and remembers the line.
//!
//! **Look-ahead port.** `gpucc_net` gives each LSU one peek port (spec §4.1,
//! "prefetcher + in-flight issue"), and one memory port carries one request per
//! cycle. *Our choice:* when both the issue pointer and the scan pointer want the
//! port they take turns (a registered round-robin bit); otherwise whoever wants it
//! gets it. Consequences (*measured, stated*):
//! * every address is read twice through one port, so one LD sustains at most 0.5
//!   loads per cycle (a 5×5 copy: 0.50 pixel/cycle on one SM, 0.48 on 14). With
//!   issue priority instead, a burst of hits starves the scan pointer, prefetches
//!   land late and a 5×5 copy drops to 0.41;
//! * independently of the port, the prefetch leads a load by at most
//!   `lsu_addr_depth − MAX_INFLIGHT` = 224 entries, which must cover the ~400-cycle
//!   DRAM latency: about 0.55 loads per cycle per LD. An experimental second
//!   look-ahead port for the scan pointer gave only 0.525 pixel/cycle for the 5×5.
//!
//! Pointers are offsets from the FIFO head, so a pop moves them down by one.
//! State is cleared in ARM (`cc_init`), when the CR is latched.

use std::collections::VecDeque;

use super::config::{GpuccConfig, LsuParams, N_IN};
use super::cr::{op, Cr, Src};
use super::mem::MemReq;
use super::net::{CcNet, Mode, NetInputs};

/// Planted bugs in the LSU, for showing that the checks catch them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LsuMutation {
    /// LD pops the address when the load issues instead of when its data leaves.
    LdPopAtIssue,
    /// ST writes the data of its previous store.
    StoreStaleData,
    /// The prefetch element is not gated by the mode: outside RUN it keeps
    /// re-requesting the last line it saw.
    PrefetchOutsideRun,
}

/// Next-state decisions of one cycle.
#[derive(Debug, Clone, Copy, Default)]
struct LsuNext {
    arm: bool,
    fire: bool,
    issue: bool,
    /// Scan pointer after this cycle's scan (before the pop adjustment).
    scan: Option<(u32, Option<u32>)>,
    resp: Option<u32>,
    store_data: Option<u64>,
    scan_turn: bool,
}

/// A load-store unit at chain position `pos`, LSU index `j`.
#[derive(Debug, Clone)]
pub struct Lsu {
    pos: usize,
    j: usize,
    params: LsuParams,
    line_shift: u32,
    mask: u64,
    lanes: u32,
    // ---- latched at ARM ----
    cr: Cr,
    src: [Src; N_IN],
    // ---- registered state ----
    /// Load tokens sent / stores accepted.
    fire_cnt: u32,
    /// Loads issued since ARM.
    issued: u32,
    /// Loads issued whose token has not left yet.
    inflight: u32,
    /// Returned load data, in order.
    rq: VecDeque<u32>,
    /// Stores accepted but not yet acknowledged.
    acks_pending: u32,
    /// Prefetch scan pointer (offset from the head) and the last line requested.
    scan: u32,
    last_line: Option<u32>,
    /// Round-robin bit of the look-ahead port: the scan goes first next time both want it.
    scan_turn: bool,
    prev_store: u64,
    nx: LsuNext,
    pub mutation: Option<LsuMutation>,
}

impl Lsu {
    pub fn new(cfg: &GpuccConfig, pos: usize, j: usize) -> Self {
        Lsu {
            pos,
            j,
            params: cfg.lsu,
            line_shift: cfg.memory.line_bytes.trailing_zeros(),
            mask: cfg.data_mask(),
            lanes: cfg.lanes,
            cr: Cr::default(),
            src: [Src::Unused; N_IN],
            fire_cnt: 0,
            issued: 0,
            inflight: 0,
            rq: VecDeque::new(),
            acks_pending: 0,
            scan: 0,
            last_line: None,
            scan_turn: false,
            prev_store: 0,
            nx: LsuNext::default(),
            mutation: None,
        }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn cr(&self) -> &Cr {
        &self.cr
    }

    pub fn fire_cnt(&self) -> u32 {
        self.fire_cnt
    }

    fn is_ld(&self) -> bool {
        self.cr.en && self.cr.opcode == op::LD
    }

    fn is_st(&self) -> bool {
        self.cr.en && self.cr.opcode == op::ST
    }

    fn count_done(&self) -> bool {
        self.cr.fire_count != 0 && self.fire_cnt >= self.cr.fire_count
    }

    /// `unit_done` (stores: also every write acknowledged).
    pub fn done(&self) -> bool {
        (self.is_ld() || self.is_st()) && self.count_done() && self.acks_pending == 0
    }

    fn addr(&self, a: u64) -> u32 {
        (a as u32).wrapping_add(self.cr.imm)
    }

    /// Evaluate one cycle. `resp` is the memory response delivered to this port
    /// this cycle (always accepted), `mem_ready` the port's request ready. Drives
    /// the unit's network ports into `inp` and returns the memory request.
    pub fn eval(&mut self, net: &mut CcNet, inp: &mut NetInputs, resp: Option<u32>, mem_ready: bool) -> Option<MemReq> {
        let p = self.pos;
        let mode = net.mode();
        self.nx = LsuNext { arm: mode == Mode::Arm, resp, scan_turn: self.scan_turn, ..LsuNext::default() };
        for k in 0..N_IN {
            inp.u_in_yumi[p * N_IN + k] = false;
        }
        inp.u_out_v[p] = false;
        inp.u_out_lane_en[p] = false;
        inp.u_out_data[p] = 0;
        inp.lsu_peek_idx[self.j] = 0;
        inp.unit_done[p] = self.done();
        let running = mode == Mode::Run;
        if self.is_ld() {
            self.eval_ld(net, inp, running, mem_ready)
        } else if self.is_st() {
            self.eval_st(net, inp, running, mem_ready)
        } else {
            None
        }
    }

    fn eval_ld(&mut self, net: &mut CcNet, inp: &mut NetInputs, running: bool, mem_ready: bool) -> Option<MemReq> {
        let p = self.pos;
        let pop_at_issue = self.mutation == Some(LsuMutation::LdPopAtIssue);
        // ---- output: the oldest returned load ----
        let last = self.cr.fire_count != 0 && self.fire_cnt + 1 == self.cr.fire_count;
        let lane_en = !self.cr.last_only || last;
        let v = running && !self.count_done() && !self.rq.is_empty();
        inp.u_out_v[p] = v;
        inp.u_out_lane_en[p] = lane_en;
        inp.u_out_data[p] = self.rq.front().map_or(0, |&d| d as u64 & self.mask);
        let fire = v && net.out_ready(p, lane_en);
        if fire && !pop_at_issue {
            inp.u_in_yumi[p * N_IN] = true;
        }
        self.nx.fire = fire;

        // ---- look-ahead port arbitration: issue pointer vs prefetch scan ----
        let (_, count) = net.peek(self.j, 0);
        let budget = self.cr.fire_count == 0 || self.issued < self.cr.fire_count;
        let issue_idx = if pop_at_issue { 0 } else { self.inflight };
        let can_issue = running && budget && mem_ready && self.inflight < self.params.max_inflight && issue_idx < count;
        if self.mutation == Some(LsuMutation::PrefetchOutsideRun) && !running && mem_ready {
            if let Some(line) = self.last_line {
                return Some(MemReq::prefetch(line << self.line_shift));
            }
        }
        let scan_idx = self.scan.max(self.inflight);
        let wants_scan = self.params.prefetch && running && scan_idx < count;
        let issue_turn = can_issue && !(wants_scan && self.scan_turn);
        self.nx.scan_turn = if can_issue && wants_scan { issue_turn } else { self.scan_turn };

        // ---- issue pointer ----
        if issue_turn {
            inp.lsu_peek_idx[self.j] = issue_idx;
            let (a, _) = net.peek(self.j, issue_idx);
            self.nx.issue = true;
            if pop_at_issue {
                inp.u_in_yumi[p * N_IN] = true;
            }
            return Some(MemReq::load(self.addr(a)));
        }

        // ---- prefetch element ----
        if wants_scan {
            inp.lsu_peek_idx[self.j] = scan_idx;
            let (a, _) = net.peek(self.j, scan_idx);
            let addr = self.addr(a);
            let line = addr >> self.line_shift;
            let new_line = self.last_line != Some(line);
            if !new_line || mem_ready {
                self.nx.scan = Some((scan_idx + 1, Some(line)));
                if new_line {
                    return Some(MemReq::prefetch(addr));
                }
            }
        }
        None
    }

    fn eval_st(&mut self, net: &mut CcNet, inp: &mut NetInputs, running: bool, mem_ready: bool) -> Option<MemReq> {
        let p = self.pos;
        let (av, a) = net.operand(p, 0);
        let (dv, d) = net.operand(p, 1);
        let v = running && !self.count_done() && av && dv && mem_ready;
        inp.u_out_v[p] = v;
        let fire = v && net.out_ready(p, false);
        self.nx.fire = fire;
        if !fire {
            return None;
        }
        for k in 0..2 {
            if matches!(self.src[k], Src::Lane(_) | Src::SelfLoop) {
                inp.u_in_yumi[p * N_IN + k] = true;
            }
        }
        let data = if self.mutation == Some(LsuMutation::StoreStaleData) { self.prev_store } else { d };
        self.nx.store_data = Some(d);
        Some(MemReq::store(self.addr(a), data as u32))
    }

    /// The clock edge.
    pub fn commit(&mut self, net: &CcNet) {
        let nx = self.nx;
        if nx.arm {
            self.cr = Cr::from_words(net.cr_words(self.pos));
            for k in 0..N_IN {
                self.src[k] = if k == 2 { Src::Unused } else { self.cr.src(k, self.lanes) };
            }
            self.fire_cnt = 0;
            self.issued = 0;
            self.inflight = 0;
            self.rq.clear();
            self.acks_pending = 0;
            self.scan = 0;
            self.last_line = None;
            self.scan_turn = false;
            self.prev_store = 0;
            return;
        }
        if self.is_st() {
            if nx.fire {
                self.fire_cnt += 1;
                self.acks_pending += 1;
                self.prev_store = nx.store_data.unwrap_or(0);
            }
            if nx.resp.is_some() {
                self.acks_pending -= 1;
            }
            return;
        }
        let pop_at_issue = self.mutation == Some(LsuMutation::LdPopAtIssue);
        self.scan_turn = nx.scan_turn;
        if let Some((s, line)) = nx.scan {
            self.scan = s;
            self.last_line = line;
        }
        if nx.fire {
            self.rq.pop_front();
            self.fire_cnt += 1;
            self.inflight -= 1;
            if !pop_at_issue {
                self.scan = self.scan.saturating_sub(1);
            }
        }
        if nx.issue {
            self.issued += 1;
            self.inflight += 1;
            if pop_at_issue {
                self.scan = self.scan.saturating_sub(1);
            }
        }
        if let Some(d) = nx.resp {
            self.rq.push_back(d);
        }
    }
}
