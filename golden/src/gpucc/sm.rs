//! `gpucc_sm_cc`: one SM in CC mode — the lane network ([`CcNet`]), a functional unit
//! or LSU at every chain position, the SM's ports into the memory model, and the
//! mode driver that stands in for the setup kernel (spec §1.9).
//!
//! Every cycle, in this order (spec §1.7 composition):
//! 1. the mode driver drives `rst` / the cfg port / `cc_start` from its own state;
//! 2. every unit computes its outputs from registered state and the network's
//!    state-only queries, and every LSU sees its memory response and drives its
//!    request;
//! 3. `net.eval` (with `mem_idle` from the memory model's registered state);
//! 4. event counters and the optional [`NetChecker`] observe the ports;
//! 5. at the edge ([`CcSm::commit`]): memory ports, then units, then the network,
//!    then the driver.
//!
//! **Mode driver** (*our choices*): one reset cycle; then one CR word per cycle
//! through the cfg port, all four words of every enabled unit and nothing for
//! unused positions (they are zero after reset); then one `cc_start` pulse; then it
//! waits for `cc_done` or the watchdog pulse. "Instructions fetched" (spec §1.9,
//! §3.3) = CRs written = enabled units; `cfg_writes` = 32-bit writes.

use std::collections::VecDeque;

use super::check::NetChecker;
use super::config::{GpuccConfig, UnitKind, N_IN};
use super::cr::{Src, CR_WORDS};
use super::fu::{Fu, FuMutation};
use super::lsu::{Lsu, LsuMutation};
use super::mem::{MemReq, MemSystem};
use super::net::{CcNet, Mode, NetInputs, NetOutputs};

/// How an SM's CC kernel ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SmOutcome {
    /// `cc_done` pulsed at this cycle.
    Done { cycle: u64 },
    /// The watchdog pulsed at this cycle (deadlock).
    Watchdog { cycle: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Reset,
    Configure,
    Start,
    Wait,
    Finished(SmOutcome),
}

/// The setup kernel: writes the CRs, starts CC mode, watches for the end.
#[derive(Debug, Clone)]
pub struct ModeDriver {
    phase: Phase,
    writes: VecDeque<(u32, u32, u32)>,
    /// CRs written (one per enabled unit): the paper's "instructions fetched".
    pub crs_written: u32,
    /// 32-bit configuration writes.
    pub cfg_writes: u32,
    /// Cycle of the `cc_start` pulse.
    pub start_cycle: Option<u64>,
    next_phase: Option<Phase>,
}

impl ModeDriver {
    /// A driver that will load `crs` (N_POS CRs). No enabled unit: nothing to do.
    pub fn new(crs: &[[u32; CR_WORDS]]) -> Self {
        let mut writes = VecDeque::new();
        let mut n = 0;
        for (p, w) in crs.iter().enumerate() {
            if *w != [0; CR_WORDS] {
                n += 1;
                for (k, &v) in w.iter().enumerate() {
                    writes.push_back((p as u32, k as u32, v));
                }
            }
        }
        let phase = if n == 0 { Phase::Finished(SmOutcome::Done { cycle: 0 }) } else { Phase::Reset };
        ModeDriver { phase, writes, crs_written: n, cfg_writes: 0, start_cycle: None, next_phase: None }
    }

    pub fn outcome(&self) -> Option<SmOutcome> {
        match self.phase {
            Phase::Finished(o) => Some(o),
            _ => None,
        }
    }

    fn drive(&mut self, now: u64, inp: &mut NetInputs) {
        inp.rst = false;
        inp.cfg_we = false;
        inp.cc_start = false;
        self.next_phase = None;
        match self.phase {
            Phase::Reset => {
                inp.rst = true;
                self.next_phase = Some(Phase::Configure);
            }
            Phase::Configure => {
                if let Some(&(u, k, v)) = self.writes.front() {
                    inp.cfg_we = true;
                    inp.cfg_unit = u;
                    inp.cfg_word = k;
                    inp.cfg_wdata = v;
                }
                if self.writes.len() <= 1 {
                    self.next_phase = Some(Phase::Start);
                }
            }
            Phase::Start => {
                inp.cc_start = true;
                self.start_cycle = Some(now);
                self.next_phase = Some(Phase::Wait);
            }
            Phase::Wait | Phase::Finished(_) => {}
        }
    }

    fn observe(&mut self, now: u64, out: &NetOutputs) {
        if self.phase == Phase::Wait {
            if out.cc_done {
                self.next_phase = Some(Phase::Finished(SmOutcome::Done { cycle: now }));
            } else if out.wdog {
                self.next_phase = Some(Phase::Finished(SmOutcome::Watchdog { cycle: now }));
            }
        }
    }

    fn commit(&mut self, inp: &NetInputs) {
        if inp.cfg_we {
            self.writes.pop_front();
            self.cfg_writes += 1;
        }
        if let Some(p) = self.next_phase.take() {
            self.phase = p;
        }
    }
}

/// Event counters of spec §1.10 (energy hooks), since the SM was built.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SmEvents {
    /// Lane transfers (`u_fire`) per opcode.
    pub fires: Vec<u64>,
    pub fifo_pushes: u64,
    pub fifo_pops: u64,
    /// Segment transfers: lane segments carrying a token, summed over cycles.
    pub segment_transfers: u64,
    /// Cycles in RUN and in DRAIN.
    pub run_cycles: u64,
    pub drain_cycles: u64,
}

/// The unit at a chain position.
#[derive(Debug, Clone)]
pub enum Unit {
    Core(Fu),
    Lsu(Lsu),
}

/// A view of one cycle's ports, for checkers (valid between eval and commit).
#[derive(Debug, Clone, Copy)]
pub struct SmTrace<'a> {
    pub inp: &'a NetInputs,
    pub out: &'a NetOutputs,
    /// Memory request of each LSU this cycle.
    pub mem_req: &'a [Option<MemReq>],
    /// Memory response delivered to each LSU this cycle.
    pub mem_resp: &'a [Option<u32>],
}

/// One SM in CC mode.
#[derive(Debug, Clone)]
pub struct CcSm {
    pub id: usize,
    cfg: GpuccConfig,
    pub net: CcNet,
    units: Vec<Unit>,
    inp: NetInputs,
    out: NetOutputs,
    pub driver: ModeDriver,
    mem_req: Vec<Option<MemReq>>,
    mem_resp: Vec<Option<u32>>,
    /// FIFO slots in use (p*3+k, source) and opcodes, latched at ARM for the counters.
    slots: Vec<(usize, Src)>,
    opcodes: Vec<u32>,
    pub events: SmEvents,
    pub net_checker: Option<NetChecker>,
}

impl CcSm {
    /// SM `id` that will run the CR image `crs` (N_POS CRs).
    pub fn new(cfg: &GpuccConfig, id: usize, crs: &[[u32; CR_WORDS]]) -> Self {
        let units = (0..cfg.n_pos())
            .map(|p| match cfg.kinds[p] {
                UnitKind::Core => Unit::Core(Fu::new(cfg, p)),
                UnitKind::Lsu => Unit::Lsu(Lsu::new(cfg, p, cfg.lsu_index[p].expect("LSU index"))),
            })
            .collect();
        CcSm {
            id,
            cfg: cfg.clone(),
            net: CcNet::new(cfg),
            units,
            inp: NetInputs::new(cfg),
            out: NetOutputs::new(cfg),
            driver: ModeDriver::new(crs),
            mem_req: vec![None; cfg.n_lsu()],
            mem_resp: vec![None; cfg.n_lsu()],
            slots: Vec::new(),
            opcodes: vec![0; cfg.n_pos()],
            events: SmEvents { fires: vec![0; 64], ..SmEvents::default() },
            net_checker: None,
        }
    }

    /// Run the invariant scoreboard beside the network.
    pub fn with_net_checker(mut self) -> Self {
        self.net_checker = Some(NetChecker::new(&self.cfg));
        self
    }

    /// Plant a bug in every core unit.
    pub fn mutate_cores(&mut self, m: FuMutation) {
        for u in self.units.iter_mut() {
            if let Unit::Core(f) = u {
                f.mutation = Some(m);
            }
        }
    }

    /// Plant a bug in every LSU.
    pub fn mutate_lsus(&mut self, m: LsuMutation) {
        for u in self.units.iter_mut() {
            if let Unit::Lsu(l) = u {
                l.mutation = Some(m);
            }
        }
    }

    pub fn outcome(&self) -> Option<SmOutcome> {
        self.driver.outcome()
    }

    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// This cycle's ports (after [`CcSm::eval`]).
    pub fn trace(&self) -> SmTrace<'_> {
        SmTrace { inp: &self.inp, out: &self.out, mem_req: &self.mem_req, mem_resp: &self.mem_resp }
    }

    /// Combinational half of cycle `now`.
    pub fn eval(&mut self, now: u64, mem: &MemSystem) {
        self.driver.drive(now, &mut self.inp);
        for u in self.units.iter_mut() {
            match u {
                Unit::Core(f) => f.eval(&mut self.net, &mut self.inp),
                Unit::Lsu(l) => {
                    let j = self.cfg.lsu_index[l.pos()].expect("LSU index");
                    let resp = mem.response(self.id, j, now);
                    self.mem_resp[j] = resp;
                    self.mem_req[j] = l.eval(&mut self.net, &mut self.inp, resp, mem.ready(self.id, j));
                }
            }
        }
        self.inp.mem_idle = mem.idle(self.id);
        self.net.eval(&self.inp, &mut self.out);
        if let Some(c) = self.net_checker.as_mut() {
            c.observe(&self.inp, &self.out);
        }
        self.count_events();
        self.driver.observe(now, &self.out);
    }

    fn count_events(&mut self) {
        let (inp, out, ev) = (&self.inp, &self.out, &mut self.events);
        match out.mode {
            Mode::Run => ev.run_cycles += 1,
            Mode::Drain => ev.drain_cycles += 1,
            _ => return,
        }
        let n = out.u_fire.len();
        for (p, &f) in out.u_fire.iter().enumerate() {
            if f {
                ev.fires[(self.opcodes[p] & 63) as usize] += 1;
            }
        }
        for &(s, src) in &self.slots {
            if inp.u_in_yumi[s] && out.u_in_v[s] {
                ev.fifo_pops += 1;
            }
            let p = s / N_IN;
            let pushed = match src {
                Src::Lane(l) => p > 0 && out.seg_fire[l as usize * n + p - 1],
                Src::SelfLoop => out.u_fire[p],
                _ => false,
            };
            ev.fifo_pushes += pushed as u64;
        }
        ev.segment_transfers += out.seg_fire.iter().filter(|&&f| f).count() as u64;
    }

    /// The clock edge ending cycle `now`.
    pub fn commit(&mut self, now: u64, mem: &mut MemSystem) {
        for j in 0..self.mem_req.len() {
            mem.commit_port(self.id, j, now, self.mem_resp[j].is_some(), self.mem_req[j]);
        }
        if self.out.mode == Mode::Arm {
            self.slots.clear();
            for p in 0..self.cfg.n_pos() {
                let d = self.net.pos_cfg(p);
                self.opcodes[p] = super::cr::Cr::from_words(self.net.cr_words(p)).opcode;
                for k in 0..N_IN {
                    if matches!(d.src[k], Src::Lane(_) | Src::SelfLoop) {
                        self.slots.push((p * N_IN + k, d.src[k]));
                    }
                }
            }
        }
        for u in self.units.iter_mut() {
            match u {
                Unit::Core(f) => f.commit(&self.net),
                Unit::Lsu(l) => l.commit(&self.net),
            }
        }
        self.net.commit();
        self.driver.commit(&self.inp);
    }
}
