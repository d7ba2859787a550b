//! Random network traffic for `gpucc_net`: configuration, mode and valid/ready
//! stimulus that follows the port protocol. Used by golden-model tests, the
//! co-simulation and the benchmarks, so all three see the same traffic for a seed.
//!
//! The generator runs a random *program* of epochs: reset, write a random
//! configuration (with occasional read-back, out-of-range and rejected writes), start
//! CC mode, run with random producers and consumers for a random number of cycles,
//! report the counted units done, drain, and go again, sometimes rewriting only part
//! of the configuration. Producers keep `valid` and their data stable until they fire
//! (valid never looks at ready); consumers pop only valid operands, except for rare
//! deliberate protocol errors when [`TrafficParams::illegal_yumi`] is non-zero.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::config::{GpuccConfig, N_IN};
use super::cr::{Cr, CR_WORDS, SRC_IMM, SRC_SELF, SRC_UNUSED};
use super::net::{CcNet, Mode, NetInputs, NetOutputs};

/// Knobs of the random traffic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrafficParams {
    /// Run-phase length range in cycles before units report done.
    pub run_cycles: (u32, u32),
    /// Probability per cycle and per idle producer of raising `valid`.
    pub p_valid: f64,
    /// Probability per cycle and per valid operand of popping it. Each epoch draws
    /// its own rate between this and 1.0 or down to a tenth of it, so some epochs
    /// back-pressure every lane.
    pub p_yumi: f64,
    /// Probability that a token is sent with `lane_en` low (SELF-only delivery).
    pub p_lane_off: f64,
    /// Probability per cycle of an illegal pop of an empty operand slot.
    pub illegal_yumi: f64,
    /// Probability per cycle of a configuration write attempt outside GPU mode.
    pub p_cfg_in_run: f64,
    /// Probability per epoch of a long all-idle stall (trips a small watchdog).
    pub p_stall_epoch: f64,
    /// Probability per epoch of a mid-run reset.
    pub p_reset_epoch: f64,
}

impl Default for TrafficParams {
    fn default() -> Self {
        TrafficParams { run_cycles: (200, 3000), p_valid: 0.6, p_yumi: 0.5, p_lane_off: 0.05, illegal_yumi: 0.0005, p_cfg_in_run: 0.002, p_stall_epoch: 0.1, p_reset_epoch: 0.03 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Reset,
    Configure,
    Start,
    Running,
    Draining,
}

/// The traffic generator.
#[derive(Debug, Clone)]
pub struct NetTraffic {
    rng: Xoshiro256PlusPlus,
    params: TrafficParams,
    n: usize,
    lanes: u32,
    lsu_depth: u32,
    mask: u64,
    watchdog: u32,
    phase: Phase,
    /// Remaining configuration writes: (unit, word, value).
    writes: Vec<(u32, u32, u32)>,
    run_left: u32,
    stall_left: u32,
    reset_at: Option<u32>,
    epoch_yumi: f64,
    epoch: u64,
    overtime: u32,
    // producer state (held until fire)
    pend_v: Vec<bool>,
    pend_d: Vec<u64>,
    pend_lane_en: Vec<bool>,
}

impl NetTraffic {
    pub fn new(cfg: &GpuccConfig, seed: u64, params: TrafficParams) -> Self {
        let n = cfg.n_pos();
        NetTraffic {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            params,
            n,
            lanes: cfg.lanes,
            lsu_depth: cfg.lsu_addr_depth,
            mask: cfg.data_mask(),
            watchdog: cfg.watchdog,
            phase: Phase::Reset,
            writes: Vec::new(),
            run_left: 0,
            stall_left: 0,
            reset_at: None,
            epoch_yumi: params.p_yumi,
            epoch: 0,
            overtime: 0,
            pend_v: vec![false; n],
            pend_d: vec![0; n],
            pend_lane_en: vec![true; n],
        }
    }

    /// Epochs (configure-run-drain rounds) started so far.
    pub fn epochs(&self) -> u64 {
        self.epoch
    }

    /// A random but mostly meaningful CR for position `p`.
    fn random_cr(&mut self, p: usize) -> [u32; CR_WORDS] {
        let r = &mut self.rng;
        if r.random_bool(0.03) {
            // raw random bits: odd encodings (lane codes beyond the lane count, ...)
            return [r.random(), r.random(), r.random(), r.random()];
        }
        let lanes = self.lanes;
        let pick_src = |r: &mut Xoshiro256PlusPlus| -> u32 {
            match r.random_range(0..10) {
                0..=5 => r.random_range(1..=lanes),
                6 => SRC_SELF,
                7 => SRC_IMM,
                _ => SRC_UNUSED,
            }
        };
        let small = |r: &mut Xoshiro256PlusPlus| -> u32 {
            match r.random_range(0..10) {
                0..=5 => 0,
                6..=8 => r.random_range(1..=3),
                _ => r.random_range(0..16),
            }
        };
        let cr = Cr {
            en: r.random_bool(0.85),
            opcode: r.random_range(0..64),
            out_lane: if r.random_bool(0.8) { r.random_range(1..=lanes) } else { r.random_range(0..8) },
            in_src: [pick_src(r), pick_src(r), pick_src(r)],
            init_cnt: [small(r), small(r), small(r)],
            last_only: r.random_bool(0.1),
            imm: r.random(),
            fire_count: if r.random_bool(0.7) { r.random_range(1..1000) } else { 0 },
            init_val: r.random(),
        };
        let _ = p;
        cr.to_words()
    }

    fn new_epoch(&mut self) {
        self.phase = Phase::Configure;
        self.plan_configuration();
        self.epoch += 1;
    }

    fn plan_configuration(&mut self) {
        self.writes.clear();
        let full = self.epoch == 0 || self.rng.random_bool(0.6);
        for p in 0..self.n {
            if full || self.rng.random_bool(0.3) {
                let w = self.random_cr(p);
                for (i, v) in w.iter().enumerate() {
                    self.writes.push((p as u32, i as u32, *v));
                }
            }
        }
        // a few writes to units that do not exist (rejected), when the `cfg_unit`
        // port is wide enough to name one
        let port_max = (1u32 << bits_for(self.n)) - 1;
        if self.rng.random_bool(0.2) && port_max >= self.n as u32 {
            let bad = self.rng.random_range(self.n as u32..=port_max);
            self.writes.push((bad, self.rng.random_range(0..4), self.rng.random()));
        }
        // writes land in a random order
        for i in (1..self.writes.len()).rev() {
            let j = self.rng.random_range(0..=i);
            self.writes.swap(i, j);
        }
        self.writes.reverse();
    }

    /// Drive one cycle's inputs. `net` is the golden model after the previous edge
    /// (for the registered operand valids), `prev` its previous outputs (for fires).
    pub fn next(&mut self, net: &CcNet, prev: &NetOutputs, inp: &mut NetInputs) {
        let n = self.n;
        // producers that fired last cycle are free again
        for p in 0..n {
            if prev.u_fire[p] {
                self.pend_v[p] = false;
            }
        }
        inp.rst = false;
        inp.cc_start = false;
        inp.cfg_we = false;
        inp.mem_idle = false;
        let mode = net.mode();

        match self.phase {
            Phase::Reset => {
                inp.rst = true;
                self.pend_v.iter_mut().for_each(|v| *v = false);
                self.new_epoch();
            }
            Phase::Configure => {
                if mode != Mode::Gpu {
                    // wait for the FSM to come home
                } else if let Some((u, w, v)) = self.writes.pop() {
                    if self.rng.random_bool(0.8) {
                        inp.cfg_we = true;
                        inp.cfg_unit = u;
                        inp.cfg_word = w;
                        inp.cfg_wdata = v;
                    } else {
                        self.writes.push((u, w, v)); // idle / read-back cycle
                        inp.cfg_unit = self.rng.random_range(0..self.n as u32 + 2) & ((1u32 << bits_for(self.n)) - 1);
                        inp.cfg_word = self.rng.random_range(0..4);
                    }
                } else {
                    self.phase = Phase::Start;
                }
            }
            Phase::Start => {
                inp.cc_start = true;
                let (lo, hi) = self.params.run_cycles;
                self.run_left = self.rng.random_range(lo..=hi.max(lo));
                self.stall_left = 0;
                if self.rng.random_bool(self.params.p_stall_epoch) {
                    self.stall_left = self.watchdog.saturating_add(self.rng.random_range(0..50)).min(1 << 20);
                }
                self.reset_at = self.rng.random_bool(self.params.p_reset_epoch).then(|| self.rng.random_range(1..self.run_left.max(2)));
                self.epoch_yumi = if self.rng.random_bool(0.3) { self.params.p_yumi * 0.1 } else { self.rng.random_range(self.params.p_yumi..=1.0) };
                self.overtime = 0;
                self.phase = Phase::Running;
            }
            Phase::Running => {
                match mode {
                    // aborted by the watchdog: go around again
                    Mode::Gpu => self.new_epoch(),
                    Mode::Drain => self.phase = Phase::Draining,
                    Mode::Arm | Mode::Run => {
                        if self.reset_at == Some(self.run_left) {
                            self.phase = Phase::Reset;
                        }
                        if self.run_left == 0 {
                            // no counted unit (or never done): give up on this epoch
                            self.overtime += 1;
                            if self.overtime > 200 {
                                self.phase = Phase::Reset;
                            }
                        }
                    }
                }
                self.run_left = self.run_left.saturating_sub(1);
            }
            Phase::Draining => {
                if mode == Mode::Gpu {
                    self.new_epoch();
                }
            }
        }

        // occasional noise on control inputs in every phase
        if !inp.cfg_we && self.rng.random_bool(self.params.p_cfg_in_run) {
            inp.cfg_we = true;
            inp.cfg_unit = self.rng.random_range(0..self.n as u32);
            inp.cfg_word = self.rng.random_range(0..4);
            inp.cfg_wdata = self.rng.random();
        }
        let running = matches!(self.phase, Phase::Running | Phase::Draining);
        if running && self.rng.random_bool(0.001) {
            inp.cc_start = true; // ignored outside GPU mode
        }
        inp.mem_idle = self.phase != Phase::Running && self.rng.random_bool(0.3);

        // counted units report done once the run phase is over (and whenever the
        // program is not running, so a stray start drains at once)
        let done_all = !running || (self.phase == Phase::Running && self.run_left == 0);
        for p in 0..n {
            inp.unit_done[p] = done_all || self.rng.random_bool(0.02);
        }

        // producers
        let stalled = self.stall_left > 0 && mode == Mode::Run;
        if stalled {
            self.stall_left -= 1;
        }
        for p in 0..n {
            if !self.pend_v[p] && !stalled && self.rng.random_bool(self.params.p_valid) {
                self.pend_v[p] = true;
                self.pend_d[p] = self.rng.random::<u64>() & self.mask;
                self.pend_lane_en[p] = !self.rng.random_bool(self.params.p_lane_off);
            }
            inp.u_out_v[p] = self.pend_v[p] && !stalled;
            inp.u_out_data[p] = if inp.u_out_v[p] { self.pend_d[p] } else { 0 };
            inp.u_out_lane_en[p] = self.pend_lane_en[p];
        }

        // consumers
        for p in 0..n {
            for k in 0..N_IN {
                let s = p * N_IN + k;
                inp.u_in_yumi[s] = if net.in_valid(p, k) {
                    !stalled && self.rng.random_bool(self.epoch_yumi)
                } else {
                    self.params.illegal_yumi > 0.0 && self.rng.random_bool(self.params.illegal_yumi)
                };
            }
        }
        for j in 0..inp.lsu_peek_idx.len() {
            inp.lsu_peek_idx[j] = self.rng.random_range(0..self.lsu_depth);
        }
    }
}

/// Width of an index into `n` entries (at least 1).
fn bits_for(n: usize) -> u32 {
    super::config::clog2(n as u64)
}

/// Random traffic drives the network as any stimulus does (`net`: the golden model
/// after the previous edge, whose state-only queries tell which operands are valid).
impl crate::model::Stimulus<CcNet> for NetTraffic {
    fn drive(&mut self, net: &CcNet, prev: &NetOutputs, inp: &mut NetInputs) {
        NetTraffic::next(self, net, prev, inp)
    }
}
