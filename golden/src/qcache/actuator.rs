//! The GPU core scheduler's side of a rate request (spec §1.8, thesis §6.4.5 and
//! Table 6.2): `qc_gpu_actuator`, DVFS over the GPU's P-states plus draining
//! threadblocks from cores and switching the empty cores off.
//!
//! * **Setting**: `cores` active SMs (1..=sms) at GPU P-state `pstate` of
//!   [`GPU_PSTATES`] (200-700 MHz, 5 P-states, [T] Table 6.2). Throughput proxy
//!   `cores · f_MHz`; a request "slow by r" aims at `proxy / r`, "speed by r" at
//!   `proxy · r`, and takes the setting whose proxy is closest, fewer cores on a tie
//!   ([OC] spec §1.8), at least one setting away in the requested direction; NACK when
//!   no setting lies that way (the limit).
//! * **Core disable by draining** ([T] §6.4.5): the cores to switch off stop receiving
//!   threadblocks at once; their resident threadblocks run to the end. Enabling cores is
//!   immediate dispatch.
//! * **DVFS transition** ([T] Table 6.2: 15-45 µs; [OC] spec §1.8: 15 µs plus 10 µs per
//!   further P-state step, capped at 45 µs): the GPU keeps its old frequency during the
//!   transition and takes the new one when it ends.
//! * **Acknowledgement** ([T] §6.4.4: "responds with a message after reconfiguration"):
//!   when the transition has ended and every core being switched off is empty. The
//!   monitor resets its counters on it.
//!
//! [`Actuation::Instant`] is the earlier, simpler model kept for comparison (ablation,
//! spec A20): one clock fraction on every SM (1/16 to 1 in 1/256 steps, standing for
//! DVFS and draining together) applied at once and acknowledged in the next cycle.

use serde::Deserialize;

use super::cpu::CPU_PSTATES;
use crate::gpu::hooks::{CoreControl, SmThrottle};
use crate::model::Model;

/// The GPU P-states of spec §1.8 (MHz); the last is the nominal clock.
pub const GPU_PSTATES: [u32; 5] = [200, 325, 450, 575, 700];

/// Instant model: the clock fraction's granularity and its lowest setting (1/16).
const CLOCK_DEN: u32 = 256;
const CLOCK_MIN: u32 = 16;

/// How a core scheduler carries out a rate request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Actuation {
    /// The thesis's: DVFS with its transition delay plus TB draining and core disable.
    DvfsDrain,
    /// One clock fraction on every SM, at once (no transition, no drain).
    Instant,
}

/// The DVFS transition delay of spec §1.8 in ns for a move of `steps` P-states.
pub fn dvfs_delay_ns(steps: u32, base_ns: u32, step_ns: u32, max_ns: u32) -> u32 {
    if steps == 0 {
        0
    } else {
        (base_ns + step_ns * (steps - 1)).min(max_ns)
    }
}

/// The P-state index closest to a throughput target among `cands` (proxies, in the
/// order that breaks ties: the first wins), strictly in the requested direction from the
/// current proxy `cur`: `slow` by or speed by `ratio_x16 / 16` (below 16 reads as 16).
/// `None` when no candidate lies that way (the limit: NACK).
///
/// Exact in integers: for `slow` the target is `16·cur / r` and `|s − 16·cur/r|·r =
/// |s·r − 16·cur|`; for speed it is `cur·r / 16` and `|s − cur·r/16|·16 = |16·s − cur·r|`.
/// One scale per request, so the order of the distances is the order of `|s − target|`.
/// The generated `qc_dvfs_pick` leaf computes the same distance per candidate.
pub fn closest(cur: u64, cands: impl Iterator<Item = u64>, slow: bool, ratio_x16: u32) -> Option<usize> {
    let mut best: Option<(usize, u64)> = None;
    for (k, s) in cands.enumerate() {
        let ok = if slow { s < cur } else { s > cur };
        let d = pick_distance(s, cur, slow, ratio_x16);
        if ok && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((k, d));
        }
    }
    best.map(|(k, _)| k)
}

/// The scaled distance of candidate proxy `s` from the target of [`closest`].
pub fn pick_distance(s: u64, cur: u64, slow: bool, ratio_x16: u32) -> u64 {
    let r = ratio_x16.max(16) as u64;
    if slow {
        (s * r).abs_diff(16 * cur)
    } else {
        (16 * s).abs_diff(cur * r)
    }
}

/// Active cores and P-state index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuSetting {
    pub cores: u32,
    pub pstate: usize,
}

impl GpuSetting {
    pub fn proxy(self) -> u64 {
        self.cores as u64 * GPU_PSTATES[self.pstate] as u64
    }

    /// Every setting of a GPU of `sms` cores, in the tie-breaking order of spec §1.8:
    /// fewer cores first, then the lower P-state.
    pub fn all(sms: u32) -> impl Iterator<Item = GpuSetting> {
        (1..=sms).flat_map(|cores| (0..GPU_PSTATES.len()).map(move |pstate| GpuSetting { cores, pstate }))
    }
}

/// The setting a request moves `cur` to on a GPU of `sms` cores: `slow` by or speed by
/// `ratio_x16 / 16`; `None` at the limit. Strictly in the requested direction, closest
/// to the target, fewer cores on a tie ([`closest`] over [`GpuSetting::all`]).
pub fn next_setting(cur: GpuSetting, sms: u32, slow: bool, ratio_x16: u32) -> Option<GpuSetting> {
    let k = closest(cur.proxy(), GpuSetting::all(sms).map(GpuSetting::proxy), slow, ratio_x16)?;
    GpuSetting::all(sms).nth(k)
}

/// Transition latency in clock cycles for a move of `steps` P-states at `mhz`: the ns
/// of [`dvfs_delay_ns`] rounded up to whole cycles.
pub fn dvfs_delay_cycles(steps: u32, base_ns: u32, step_ns: u32, max_ns: u32, mhz: u32) -> u64 {
    (dvfs_delay_ns(steps, base_ns, step_ns, max_ns) as u64 * mhz as u64).div_ceil(1000)
}

/// Planted bugs of the actuators, for the checker tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActMutation {
    /// The GPU actuator ACKs when the DVFS transition ends, without waiting for the
    /// disabled cores to drain.
    AckBeforeDrain,
    /// The CPU DVFS ACKs a transition one cycle early.
    EarlyAck,
}

/// A reconfiguration under way: the setting it goes to and the cycles left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flight<T> {
    pub to: T,
    pub left: u64,
}

/// The inputs of `qc_gpu_actuator` in one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ActInputs {
    pub rst: bool,
    /// A rate request addressed to this domain (always taken: answered by ACK or NACK).
    pub req_v: bool,
    /// 0 slow, 1 speed (the monitor's `req_dir`).
    pub speed: bool,
    pub ratio_q44: u8,
    pub restore: bool,
    /// GPU only: per core, threadblocks are resident (the drain's end is all clear).
    pub core_busy: u32,
}

/// The outputs of `qc_gpu_actuator` / `qc_cpu_dvfs` in one cycle (every one a register).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ActOutputs {
    pub rsp_v: bool,
    pub rsp_ack: bool,
    /// A reconfiguration is under way.
    pub busy: bool,
    /// The P-state in effect (index into the P-state table).
    pub pstate: u8,
    /// GPU only: cores that receive new threadblocks, and the active cores in effect.
    pub dispatch: u32,
    pub active: u32,
}

/// `qc_gpu_actuator` (spec §1.8, §5): the GPU core scheduler's registers. The setting in
/// effect (`active_core_mask`, `pstate`), the reconfiguration under way and its
/// countdown, the dispatch mask and the response register. The GPU model's hook drives
/// it through [`GpuActuator`]; the co-simulation through [`Model`].
#[derive(Debug, Clone)]
pub struct QcGpuActuator {
    pub sms: u32,
    /// Transition cycles for 0..=4 P-state steps.
    pub lat: Vec<u64>,
    pub cur: GpuSetting,
    pub flight: Option<Flight<GpuSetting>>,
    pub dispatch: u32,
    pub rsp: Option<bool>,
    /// Cycles spent in transitions and draining (summed), and completed changes.
    pub busy_cycles: u64,
    pub changes: u64,
    pub mutation: Option<ActMutation>,
    next: Option<Box<QcGpuActuator>>,
}

fn low_mask(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

impl QcGpuActuator {
    /// `sms` cores (at most 16) with the transition latencies `lat[steps]` (cycles).
    pub fn new(sms: u32, lat: Vec<u64>) -> QcGpuActuator {
        let top = GPU_PSTATES.len() - 1;
        QcGpuActuator {
            sms,
            lat,
            cur: GpuSetting { cores: sms, pstate: top },
            flight: None,
            dispatch: low_mask(sms),
            rsp: None,
            busy_cycles: 0,
            changes: 0,
            mutation: None,
            next: None,
        }
    }

    /// One cycle of the reconfiguration under way, with `core_busy` (per core, TBs
    /// resident): `true` when it completes (the new setting is in effect: ACK).
    pub fn settle(&mut self, core_busy: u32) -> bool {
        let Some(f) = self.flight.as_mut() else { return false };
        self.busy_cycles += 1;
        f.left = f.left.saturating_sub(1);
        let off = low_mask(self.sms) & !low_mask(f.to.cores);
        let drained = core_busy & off == 0 || self.mutation == Some(ActMutation::AckBeforeDrain);
        if f.left > 0 || !drained {
            return false;
        }
        self.cur = f.to;
        self.flight = None;
        self.changes += 1;
        true
    }

    /// Take a request: `Some(false)` NACK (at the limit, or a reconfiguration is under
    /// way and this is no RESTORE), `None` accepted: the dispatch mask changes now
    /// (draining the cores switched off, dispatching to the cores switched on), the
    /// P-state after the transition of `|to − cur|` steps. RESTORE (every core, the top
    /// P-state) replaces a reconfiguration under way.
    pub fn request(&mut self, restore: bool, slow: bool, ratio_x16: u32) -> Option<bool> {
        let to = if restore {
            GpuSetting { cores: self.sms, pstate: GPU_PSTATES.len() - 1 }
        } else {
            if self.flight.is_some() {
                return Some(false); // the scheduler is reconfiguring
            }
            match next_setting(self.cur, self.sms, slow, ratio_x16) {
                Some(s) => s,
                None => return Some(false), // at the limit
            }
        };
        self.dispatch = low_mask(to.cores);
        let steps = to.pstate.abs_diff(self.cur.pstate);
        self.flight = Some(Flight { to, left: self.lat[steps] });
        None
    }

    fn step(&self, i: &ActInputs) -> QcGpuActuator {
        let mut n = QcGpuActuator { next: None, ..self.clone() };
        if i.rst {
            let (busy_cycles, changes) = (n.busy_cycles, n.changes);
            return QcGpuActuator { busy_cycles, changes, mutation: self.mutation, ..QcGpuActuator::new(self.sms, self.lat.clone()) };
        }
        let done = n.settle(i.core_busy);
        let answer = if i.req_v { n.request(i.restore, !i.speed, i.ratio_q44 as u32) } else { None };
        n.rsp = answer.or(done.then_some(true));
        n
    }

    pub fn outputs(&self) -> ActOutputs {
        ActOutputs {
            rsp_v: self.rsp.is_some(),
            rsp_ack: self.rsp == Some(true),
            busy: self.flight.is_some(),
            pstate: self.cur.pstate as u8,
            dispatch: self.dispatch,
            active: low_mask(self.cur.cores),
        }
    }
}

/// The benches' [`Model`] of an actuator: outputs from the registers, `step` for the
/// next state (the same for `qc_gpu_actuator` and `qc_cpu_dvfs`).
macro_rules! actuator_model {
    ($t:ty) => {
        impl Model for $t {
            type In = ActInputs;
            type Out = ActOutputs;

            fn idle_inputs(&self) -> ActInputs {
                ActInputs::default()
            }

            fn new_outputs(&self) -> ActOutputs {
                ActOutputs::default()
            }

            fn eval(&mut self, inputs: &ActInputs, outputs: &mut ActOutputs) {
                *outputs = self.outputs();
                self.next = Some(Box::new(self.step(inputs)));
            }

            fn commit(&mut self, _inputs: &ActInputs) {
                if let Some(n) = self.next.take() {
                    *self = *n;
                }
            }

            fn assert_reset(inputs: &mut ActInputs) {
                inputs.rst = true;
            }
        }
    };
}

actuator_model!(QcGpuActuator);

/// `qc_cpu_dvfs` (spec §1.8, §5): one CPU core's DVFS controller. The P-state in effect,
/// the transition under way and the response register; RESTORE returns to `nominal`.
#[derive(Debug, Clone)]
pub struct QcCpuDvfs {
    /// The P-state RESTORE returns to (and the one after reset).
    pub nominal: usize,
    /// Transition cycles for 0..=5 P-state steps.
    pub lat: Vec<u64>,
    pub pstate: usize,
    pub flight: Option<Flight<usize>>,
    pub rsp: Option<bool>,
    pub mutation: Option<ActMutation>,
    next: Option<Box<QcCpuDvfs>>,
}

impl QcCpuDvfs {
    pub fn new(nominal: usize, lat: Vec<u64>) -> QcCpuDvfs {
        QcCpuDvfs { nominal, lat, pstate: nominal, flight: None, rsp: None, mutation: None, next: None }
    }

    /// The clock in effect (MHz).
    pub fn mhz(&self) -> u32 {
        CPU_PSTATES[self.pstate]
    }

    /// The P-state a request moves the core to (closest to `clock / r` or `clock · r`,
    /// at least one step, lower on a tie); `None` at the limit.
    pub fn target(&self, slow: bool, ratio_x16: u32) -> Option<usize> {
        closest(self.mhz() as u64, CPU_PSTATES.iter().map(|&p| p as u64), slow, ratio_x16)
    }

    /// One cycle of the transition under way: `true` when it completes.
    pub fn settle(&mut self) -> bool {
        let Some(f) = self.flight.as_mut() else { return false };
        f.left = f.left.saturating_sub(1);
        let early = self.mutation == Some(ActMutation::EarlyAck) && f.left == 1;
        if f.left > 0 && !early {
            return false;
        }
        self.pstate = f.to;
        self.flight = None;
        true
    }

    /// Take a request: `Some(false)` NACK (at the limit, or a transition under way and
    /// this is no RESTORE), `None` accepted (the ACK when the transition completes).
    pub fn request(&mut self, restore: bool, slow: bool, ratio_x16: u32) -> Option<bool> {
        let to = if restore {
            self.nominal
        } else {
            if self.flight.is_some() {
                return Some(false);
            }
            match self.target(slow, ratio_x16) {
                Some(p) => p,
                None => return Some(false), // at the limit
            }
        };
        self.flight = Some(Flight { to, left: self.lat[to.abs_diff(self.pstate)] });
        None
    }

    fn step(&self, i: &ActInputs) -> QcCpuDvfs {
        let mut n = QcCpuDvfs { next: None, ..self.clone() };
        if i.rst {
            return QcCpuDvfs { mutation: self.mutation, ..QcCpuDvfs::new(self.nominal, self.lat.clone()) };
        }
        let done = n.settle();
        let answer = if i.req_v { n.request(i.restore, !i.speed, i.ratio_q44 as u32) } else { None };
        n.rsp = answer.or(done.then_some(true));
        n
    }

    pub fn outputs(&self) -> ActOutputs {
        ActOutputs { rsp_v: self.rsp.is_some(), rsp_ack: self.rsp == Some(true), busy: self.flight.is_some(), pstate: self.pstate as u8, dispatch: 0, active: 0 }
    }
}

actuator_model!(QcCpuDvfs);

/// The GPU's work scheduler and clock controller as the GPU model uses it: the
/// `dvfs_drain` actuation is [`QcGpuActuator`] (the generated block's golden model)
/// wired to the SMs' controls; `instant` is the ablation model.
#[derive(Debug, Clone)]
pub struct GpuActuator {
    pub kind: Actuation,
    pub act: QcGpuActuator,
}

impl GpuActuator {
    pub fn new(kind: Actuation, sms: u32, mhz: u32, base_ns: u32, step_ns: u32, max_ns: u32) -> GpuActuator {
        let lat = (0..GPU_PSTATES.len() as u32).map(|s| dvfs_delay_cycles(s, base_ns, step_ns, max_ns, mhz)).collect();
        GpuActuator { kind, act: QcGpuActuator::new(sms, lat) }
    }

    /// The setting in effect.
    pub fn cur(&self) -> GpuSetting {
        self.act.cur
    }

    /// A reconfiguration is under way (a new request is refused until it ends).
    pub fn busy(&self) -> bool {
        self.act.flight.is_some()
    }

    /// Take a request: `Some(true)` ACK now (instant model), `Some(false)` NACK, `None`
    /// accepted and under way (the ACK comes from [`Self::cycle`]). `restore` returns to
    /// every core at the top P-state.
    pub fn request(&mut self, ctl: &mut dyn CoreControl, restore: bool, slow: bool, ratio_x16: u32) -> Option<bool> {
        if self.kind == Actuation::Instant {
            return Some(self.instant(ctl, restore, slow, ratio_x16));
        }
        let answer = self.act.request(restore, slow, ratio_x16);
        if answer.is_none() {
            // draining starts (or dispatch resumes) at once; the frequency waits for the transition
            for s in 0..ctl.sms() {
                let mut t = ctl.throttle(s);
                t.dispatch = self.act.dispatch >> s & 1 != 0;
                ctl.set_throttle(s, t);
            }
        }
        answer
    }

    /// One GPU cycle: `true` when the reconfiguration under way has completed (ACK).
    pub fn cycle(&mut self, ctl: &mut dyn CoreControl) -> bool {
        if self.act.flight.is_none() {
            return false;
        }
        let busy = (0..ctl.sms()).filter(|&s| ctl.resident_ctas(s) > 0).fold(0u32, |m, s| m | 1 << s);
        if !self.act.settle(busy) {
            return false;
        }
        let to = self.act.cur;
        let f_mhz = GPU_PSTATES[to.pstate];
        let top = GPU_PSTATES[GPU_PSTATES.len() - 1];
        for s in 0..ctl.sms() {
            let dispatch = (s as u32) < to.cores;
            let t = if f_mhz == top { SmThrottle { dispatch, ..SmThrottle::FULL } } else { SmThrottle { dispatch, clock_num: f_mhz as u16, clock_den: top as u16 } };
            ctl.set_throttle(s, t);
        }
        true
    }

    /// The instant model: every SM's clock moved by the ratio from where it is.
    fn instant(&mut self, ctl: &mut dyn CoreControl, restore: bool, slow: bool, ratio_x16: u32) -> bool {
        let cur = ctl.throttle(0);
        let num = (cur.clock_num as u32 * CLOCK_DEN).div_ceil(cur.clock_den as u32);
        let ratio = ratio_x16.max(16);
        let next = if restore {
            CLOCK_DEN
        } else if slow {
            (num * 16 / ratio).max(CLOCK_MIN)
        } else {
            (num * ratio / 16).min(CLOCK_DEN)
        };
        if next == num && !restore {
            return false; // at the limit in the requested direction
        }
        self.act.changes += 1;
        let t = if next == CLOCK_DEN { SmThrottle::FULL } else { SmThrottle { dispatch: true, clock_num: next as u16, clock_den: CLOCK_DEN as u16 } };
        for s in 0..ctl.sms() {
            ctl.set_throttle(s, t);
        }
        true
    }
}
