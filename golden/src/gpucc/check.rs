//! An independent scoreboard of the spec §4.3 network invariants.
//!
//! It watches only the ports of `gpucc_net` (inputs and outputs of each cycle) and
//! re-derives what they must be from the CR words on `unit_cfg_o` and its own shadow
//! queues. It shares no logic with [`super::net`]: where the model walks a backward
//! ready chain per lane, this finds each segment's driver and consumers by search.
//! It runs beside every co-simulation, so the invariants hold for the golden model
//! and, by lockstep equality, for the RTL.
//!
//! Invariants checked (numbers as in spec §4.3):
//! 1. FIFO order: every operand presented equals the shadow queue's head.
//! 2. No loss: a producer fires only when every consumer of its segment (and SELF)
//!    has room, and then every one of them receives the token.
//! 3. No duplication: at most one push per FIFO per cycle, only from its own source.
//! 4. Firing rule: `u_out_ready`/`u_fire` equal the rule recomputed from scratch.
//! 5. Occupancy: 0 <= count <= depth, no push into a full FIFO, error flags low.
//! 6. Initialisation: after ARM each FIFO holds exactly min(init_cnt, depth) tokens.
//! 8. Mode isolation: no fires, pushes, pops or operands outside RUN/DRAIN; CRs change
//!    only through accepted writes in GPU mode.

use std::collections::VecDeque;

use super::config::{GpuccConfig, N_IN};
use super::cr::{Cr, Src, CR_WORDS};
use super::net::{Mode, NetInputs, NetOutputs};

pub use crate::invariant::Violation;

/// Static wiring derived from the CR words.
#[derive(Debug, Clone, Default)]
struct Wiring {
    en: Vec<bool>,
    drive: Vec<Option<usize>>,
    src: Vec<[Src; N_IN]>,
    init_cnt: Vec<[u32; N_IN]>,
    init_val: Vec<u64>,
    imm: Vec<u64>,
    counted: Vec<bool>,
    /// For slot `(p,k)` reading lane `l`: the position driving the incoming segment.
    driver_of_slot: Vec<Option<usize>>,
    /// For driver `p`: the slots that consume its segment.
    consumers: Vec<Vec<usize>>,
}

/// The scoreboard.
#[derive(Debug, Clone)]
pub struct NetChecker {
    n: usize,
    lanes: usize,
    mask: u64,
    watchdog: u32,
    depth: Vec<Option<u32>>,
    lsu_pos: Vec<usize>,
    words: Vec<[u32; CR_WORDS]>,
    w: Wiring,
    shadow: Vec<VecDeque<u64>>,
    prev: Option<(NetInputs, NetOutputs)>,
    idle_run: u32,
    cycle: u64,
    violations: Vec<Violation>,
    /// Violations already returned through [`Scoreboard::observe`].
    reported: usize,
    cfg: std::sync::Arc<GpuccConfig>,
    /// Stop recording after this many (the first one is what matters).
    pub max_violations: usize,
}

impl NetChecker {
    pub fn new(cfg: &GpuccConfig) -> Self {
        let n = cfg.n_pos();
        let mut c = NetChecker {
            reported: 0,
            cfg: std::sync::Arc::new(cfg.clone()),
            n,
            lanes: cfg.n_lanes(),
            mask: cfg.data_mask(),
            watchdog: cfg.watchdog,
            depth: (0..n * N_IN).map(|s| cfg.fifo_depth(s / N_IN, s % N_IN)).collect(),
            lsu_pos: cfg.lsu_pos.clone(),
            words: vec![[0; CR_WORDS]; n],
            w: Wiring::default(),
            shadow: vec![VecDeque::new(); n * N_IN],
            prev: None,
            idle_run: 0,
            cycle: 0,
            violations: Vec::new(),
            max_violations: 16,
        };
        c.rewire(cfg);
        c
    }

    fn rewire(&mut self, cfg: &GpuccConfig) {
        let n = self.n;
        let lanes = cfg.lanes;
        let mut w = Wiring::default();
        for p in 0..n {
            let cr = Cr::from_words(self.words[p]);
            let is_lsu = cfg.lsu_index[p].is_some();
            w.en.push(cr.en);
            w.drive.push(if cr.en { cr.drive_lane(lanes).map(usize::from) } else { None });
            let mut src = [Src::Unused; N_IN];
            for (k, s) in src.iter_mut().enumerate() {
                if cr.en && !(is_lsu && k == 2) {
                    *s = cr.src(k, lanes);
                }
            }
            w.src.push(src);
            w.init_cnt.push(cr.init_cnt);
            w.init_val.push(cr.init_val as u64 & self.mask);
            w.imm.push(cr.imm as u64 & self.mask);
            w.counted.push(cr.en && cr.fire_count != 0);
        }
        w.driver_of_slot = vec![None; n * N_IN];
        w.consumers = vec![Vec::new(); n];
        for p in 0..n {
            for k in 0..N_IN {
                if let Src::Lane(l) = w.src[p][k] {
                    let l = l as usize;
                    // nearest driver of lane l strictly before p
                    let drv = (0..p).rev().find(|&q| w.drive[q] == Some(l));
                    w.driver_of_slot[p * N_IN + k] = drv;
                    if let Some(q) = drv {
                        w.consumers[q].push(p * N_IN + k);
                    }
                }
            }
        }
        self.w = w;
    }

    fn flag(&mut self, invariant: &'static str, detail: String) {
        if self.violations.len() < self.max_violations {
            self.violations.push(Violation { cycle: self.cycle, invariant, detail });
        }
    }

    /// Violations found so far.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    fn full(&self, s: usize) -> bool {
        self.depth[s].is_some_and(|d| self.shadow[s].len() as u32 >= d)
    }

    /// Observe one cycle's ports (`out` computed from the state before this cycle's
    /// edge and `inp`). Call once per cycle, in order, starting with a reset cycle.
    pub fn observe(&mut self, inp: &NetInputs, out: &NetOutputs) {
        let cfg = std::sync::Arc::clone(&self.cfg);
        let cfg = cfg.as_ref();
        let n = self.n;
        let mode = out.mode;
        let active = mode.active();

        // ---- what the previous edge must have done to mode, CRs and FIFOs ----
        let Some((pi, po)) = self.prev.take() else {
            // The state before the first reset is undefined: nothing to check yet.
            if !inp.rst {
                self.flag("8 mode isolation", "the first observed cycle must assert rst".into());
            }
            self.prev = Some((inp.clone(), out.clone()));
            self.cycle += 1;
            return;
        };
        let (pi, po) = (&pi, &po);
        {
            if pi.rst {
                self.expect_reset(out);
                self.words.clone_from(&out.unit_cfg);
                self.rewire(cfg);
            } else {
                // Transfers and preload use the wiring of the previous cycle; the CR
                // step (which may rewire) comes last.
                self.check_mode_step(pi, po, out);
                if po.mode == Mode::Arm {
                    // Initialisation (invariant 6): preload, as seen in this cycle.
                    for s in 0..n * N_IN {
                        let p = s / N_IN;
                        self.shadow[s].clear();
                        if let Some(d) = self.depth[s] {
                            let cnt = if self.w.en[p] { self.w.init_cnt[p][s % N_IN].min(d) } else { 0 };
                            for _ in 0..cnt {
                                self.shadow[s].push_back(self.w.init_val[p]);
                            }
                        }
                    }
                } else {
                    self.apply_transfers(pi, po);
                }
                self.check_cr_step(cfg, pi, po, out);
            }
        }

        // ---- this cycle's ports ----
        // occupancy (5)
        for s in 0..n * N_IN {
            let want = if self.depth[s].is_some() { self.shadow[s].len() as u32 } else { 0 };
            if out.fifo_count[s] != want {
                self.flag("5 occupancy", format!("fifo ({}, {}) count {} but shadow holds {}", s / N_IN, s % N_IN, out.fifo_count[s], want));
            }
        }
        // operands (1)
        for p in 0..n {
            for k in 0..N_IN {
                let s = p * N_IN + k;
                let (v, d) = match self.w.src[p][k] {
                    Src::Lane(_) | Src::SelfLoop => {
                        let v = active && !self.shadow[s].is_empty();
                        (v, if v { self.shadow[s][0] } else { 0 })
                    }
                    Src::Imm => (true, self.w.imm[p]),
                    Src::Unused => (true, 0),
                };
                if out.u_in_v[s] != v || out.u_in_data[s] != d {
                    self.flag("1 FIFO order", format!("operand ({p}, {k}) is v={} data={:#x}, expected v={v} data={d:#x}", out.u_in_v[s], out.u_in_data[s]));
                }
            }
        }
        // firing rule (4) and isolation (8)
        for p in 0..n {
            let room = |s: usize| !self.full(s);
            let self_ok = (0..N_IN).all(|k| self.w.src[p][k] != Src::SelfLoop || room(p * N_IN + k));
            let lane_ok = match self.w.drive[p] {
                Some(_) if inp.u_out_lane_en[p] => self.w.consumers[p].iter().all(|&s| room(s)),
                _ => true,
            };
            let ready = active && self.w.en[p] && self_ok && lane_ok;
            if out.u_out_ready[p] != ready {
                self.flag("4 firing rule", format!("u_out_ready[{p}] = {} but the rule gives {ready}", out.u_out_ready[p]));
            }
            if out.u_fire[p] != (inp.u_out_v[p] && out.u_out_ready[p]) {
                self.flag("4 firing rule", format!("u_fire[{p}] = {} with v={} ready={}", out.u_fire[p], inp.u_out_v[p], out.u_out_ready[p]));
            }
            if !active && out.u_fire[p] {
                self.flag("8 mode isolation", format!("unit {p} fires in {mode:?}"));
            }
        }
        // segments (2, 3)
        for l in 0..self.lanes {
            let mut drv: Option<usize> = None;
            for p in 0..n {
                if self.w.drive[p] == Some(l) {
                    drv = Some(p);
                }
                let want = drv.is_some_and(|q| out.u_fire[q] && inp.u_out_lane_en[q]);
                if out.seg_fire[l * n + p] != want {
                    self.flag("2 no loss", format!("lane {l} segment after position {p} fire={} expected {want}", out.seg_fire[l * n + p]));
                }
            }
        }
        // error flags (5)
        let pop_err = (0..n * N_IN).any(|s| {
            let src = self.w.src[s / N_IN][s % N_IN];
            inp.u_in_yumi[s] && matches!(src, Src::Lane(_) | Src::SelfLoop) && !out.u_in_v[s]
        });
        if out.pop_empty_err != pop_err {
            self.flag("5 occupancy", format!("dbg_pop_empty_err = {} expected {pop_err}", out.pop_empty_err));
        }
        if out.push_full_err {
            self.flag("5 occupancy", "dbg_push_full_err raised".into());
        }
        // LSU look-ahead (7)
        for j in 0..self.lsu_pos.len() {
            let p = self.lsu_pos[j];
            let q = &self.shadow[p * N_IN];
            let idx = inp.lsu_peek_idx[j] as usize;
            let (data, cnt) = if active { (q.get(idx).copied().unwrap_or(0), q.len() as u32) } else { (0, 0) };
            if out.lsu_peek_data[j] != data || out.lsu_addr_count[j] != cnt {
                self.flag("7 LSU look-ahead", format!("LSU {j}: peek[{idx}]={:#x} count={} expected {data:#x}/{cnt}", out.lsu_peek_data[j], out.lsu_addr_count[j]));
            }
        }
        // read-back
        let unit = inp.cfg_unit as usize;
        let rd = if unit < n { out.unit_cfg[unit][(inp.cfg_word & 3) as usize] } else { 0 };
        if out.cfg_rdata != rd {
            self.flag("8 mode isolation", format!("cfg_rdata {:#x} but CR word is {rd:#x}", out.cfg_rdata));
        }

        self.prev = Some((inp.clone(), out.clone()));
        self.cycle += 1;
    }

    fn expect_reset(&mut self, out: &NetOutputs) {
        if out.mode != Mode::Gpu || out.cc_done || out.wdog || out.cfg_err {
            self.flag("8 mode isolation", format!("after reset mode={:?} done={} wdog={} err={}", out.mode, out.cc_done, out.wdog, out.cfg_err));
        }
        if out.unit_cfg.iter().any(|w| *w != [0; CR_WORDS]) {
            self.flag("8 mode isolation", "CRs not cleared by reset".into());
        }
        for q in self.shadow.iter_mut() {
            q.clear();
        }
        self.idle_run = 0;
    }

    fn check_mode_step(&mut self, pi: &NetInputs, po: &NetOutputs, out: &NetOutputs) {
        let any_fire = po.u_fire.iter().any(|&f| f);
        let counted: Vec<usize> = (0..self.n).filter(|&p| self.w.counted[p]).collect();
        let all_done = !counted.is_empty() && counted.iter().all(|&p| pi.unit_done[p]);
        let (want, done, wdog) = match po.mode {
            Mode::Gpu => (if pi.cc_start { Mode::Arm } else { Mode::Gpu }, false, false),
            Mode::Arm => {
                self.idle_run = 0;
                (Mode::Run, false, false)
            }
            Mode::Run => {
                if all_done {
                    self.idle_run = 0;
                    (Mode::Drain, false, false)
                } else if any_fire {
                    self.idle_run = 0;
                    (Mode::Run, false, false)
                } else {
                    self.idle_run += 1;
                    if self.idle_run >= self.watchdog {
                        self.idle_run = 0;
                        (Mode::Gpu, false, true)
                    } else {
                        (Mode::Run, false, false)
                    }
                }
            }
            Mode::Drain => {
                if pi.mem_idle {
                    (Mode::Gpu, true, false)
                } else {
                    (Mode::Drain, false, false)
                }
            }
        };
        if out.mode != want || out.cc_done != done || out.wdog != wdog {
            self.flag("8 mode isolation", format!("mode {:?} -> {:?} (done={}, wdog={}), expected {want:?} (done={done}, wdog={wdog})", po.mode, out.mode, out.cc_done, out.wdog));
        }
    }

    fn check_cr_step(&mut self, cfg: &GpuccConfig, pi: &NetInputs, po: &NetOutputs, out: &NetOutputs) {
        let unit = pi.cfg_unit as usize;
        let accepted = pi.cfg_we && po.mode == Mode::Gpu && unit < self.n;
        let mut want = po.unit_cfg.clone();
        if accepted {
            want[unit][(pi.cfg_word & 3) as usize] = pi.cfg_wdata;
        }
        if out.unit_cfg != want {
            let p = (0..self.n).find(|&p| out.unit_cfg[p] != want[p]).unwrap_or(0);
            self.flag("8 mode isolation", format!("CR {p} is {:x?}, expected {:x?} (write accepted: {accepted})", out.unit_cfg[p], want[p]));
        }
        if out.cfg_err != (pi.cfg_we && !accepted) {
            self.flag("8 mode isolation", format!("cfg_err = {} after a write that was accepted={accepted}", out.cfg_err));
        }
        if out.unit_cfg != self.words {
            self.words.clone_from(&out.unit_cfg);
            self.rewire(cfg);
        }
    }

    /// Apply the pushes and pops the previous cycle's ports imply.
    fn apply_transfers(&mut self, pi: &NetInputs, po: &NetOutputs) {
        let n = self.n;
        // pops first against the registered state, pushes against registered fullness
        let mut pushes: Vec<(usize, u64)> = Vec::new();
        for p in 0..n {
            for k in 0..N_IN {
                let s = p * N_IN + k;
                let v = match self.w.src[p][k] {
                    Src::Lane(_) => self.w.driver_of_slot[s].and_then(|q| (po.u_fire[q] && pi.u_out_lane_en[q]).then(|| pi.u_out_data[q] & self.mask)),
                    Src::SelfLoop => po.u_fire[p].then(|| pi.u_out_data[p] & self.mask),
                    _ => None,
                };
                if let Some(v) = v {
                    if !po.mode.active() {
                        self.flag("8 mode isolation", format!("push into ({p}, {k}) in {:?}", po.mode));
                    }
                    if self.full(s) {
                        self.flag("5 occupancy", format!("push into full FIFO ({p}, {k})"));
                    } else {
                        pushes.push((s, v));
                    }
                }
            }
        }
        for s in 0..n * N_IN {
            let fifo_src = matches!(self.w.src[s / N_IN][s % N_IN], Src::Lane(_) | Src::SelfLoop);
            if pi.u_in_yumi[s] && fifo_src && po.u_in_v[s] {
                self.shadow[s].pop_front();
            }
        }
        for (s, v) in pushes {
            self.shadow[s].push_back(v);
        }
    }
}

impl crate::model::Scoreboard<super::net::CcNet> for NetChecker {
    fn observe(&mut self, _cycle: u64, inputs: &NetInputs, outputs: &NetOutputs) -> Result<(), Violation> {
        NetChecker::observe(self, inputs, outputs);
        match self.violations.get(self.reported) {
            Some(v) => {
                self.reported += 1;
                Err(v.clone())
            }
            None => Ok(()),
        }
    }
}
