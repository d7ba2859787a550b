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

use crate::gpu::hooks::{CoreControl, SmThrottle};

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

/// Active cores and P-state index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuSetting {
    pub cores: u32,
    pub pstate: usize,
}

impl GpuSetting {
    fn proxy(self) -> u64 {
        self.cores as u64 * GPU_PSTATES[self.pstate] as u64
    }
}

/// The setting a request moves `cur` to on a GPU of `sms` cores: `slow` by or speed by
/// `ratio_x16 / 16`; `None` at the limit.
pub fn next_setting(cur: GpuSetting, sms: u32, slow: bool, ratio_x16: u32) -> Option<GpuSetting> {
    let r = ratio_x16.max(16) as f64 / 16.0;
    let target = if slow { cur.proxy() as f64 / r } else { cur.proxy() as f64 * r };
    let all = (1..=sms).flat_map(|cores| (0..GPU_PSTATES.len()).map(move |pstate| GpuSetting { cores, pstate }));
    // strictly in the requested direction; closest to the target; fewer cores on a tie
    all.filter(|s| if slow { s.proxy() < cur.proxy() } else { s.proxy() > cur.proxy() })
        .min_by(|a, b| (a.proxy() as f64 - target).abs().total_cmp(&(b.proxy() as f64 - target).abs()).then(a.cores.cmp(&b.cores)))
}

/// A reconfiguration under way.
#[derive(Debug, Clone, Copy)]
struct InFlight {
    to: GpuSetting,
    /// GPU cycle the DVFS transition ends (the new frequency applies).
    done_at: u64,
}

/// The GPU's work scheduler and clock controller.
#[derive(Debug, Clone)]
pub struct GpuActuator {
    pub kind: Actuation,
    /// The setting in effect (its frequency is the one the SMs run at).
    pub cur: GpuSetting,
    flight: Option<InFlight>,
    /// DVFS delay parameters (ns) and the nominal GPU clock (MHz).
    base_ns: u32,
    step_ns: u32,
    max_ns: u32,
    mhz: u32,
    /// Cycles spent in transitions and draining (summed), and completed changes.
    pub busy_cycles: u64,
    pub changes: u64,
}

impl GpuActuator {
    pub fn new(kind: Actuation, sms: u32, mhz: u32, base_ns: u32, step_ns: u32, max_ns: u32) -> GpuActuator {
        let top = GPU_PSTATES.len() - 1;
        GpuActuator { kind, cur: GpuSetting { cores: sms, pstate: top }, flight: None, base_ns, step_ns, max_ns, mhz, busy_cycles: 0, changes: 0 }
    }

    /// A reconfiguration is under way (a new request is refused until it ends).
    pub fn busy(&self) -> bool {
        self.flight.is_some()
    }

    /// Take a request at cycle `now`: `Some(true)` ACK now (instant model), `Some(false)`
    /// NACK, `None` accepted and under way (the ACK comes from [`Self::cycle`]).
    /// `restore` returns to every core at the top P-state.
    pub fn request(&mut self, now: u64, ctl: &mut dyn CoreControl, restore: bool, slow: bool, ratio_x16: u32) -> Option<bool> {
        if self.kind == Actuation::Instant {
            return Some(self.instant(ctl, restore, slow, ratio_x16));
        }
        let sms = ctl.sms() as u32;
        let from = self.flight.map_or(self.cur, |f| f.to);
        let to = if restore {
            GpuSetting { cores: sms, pstate: GPU_PSTATES.len() - 1 }
        } else {
            if self.flight.is_some() {
                return Some(false); // the scheduler is reconfiguring
            }
            match next_setting(from, sms, slow, ratio_x16) {
                Some(s) => s,
                None => return Some(false),
            }
        };
        // draining starts (or dispatch resumes) at once; the frequency waits for the transition
        for s in 0..sms {
            let mut t = ctl.throttle(s as usize);
            t.dispatch = s < to.cores;
            ctl.set_throttle(s as usize, t);
        }
        let steps = (to.pstate as i64 - self.cur.pstate as i64).unsigned_abs() as u32;
        let ns = dvfs_delay_ns(steps, self.base_ns, self.step_ns, self.max_ns) as u64;
        self.flight = Some(InFlight { to, done_at: now + (ns * self.mhz as u64).div_ceil(1000) });
        None
    }

    /// One GPU cycle: `true` when the reconfiguration under way has completed (ACK).
    pub fn cycle(&mut self, now: u64, ctl: &mut dyn CoreControl) -> bool {
        let Some(f) = self.flight else { return false };
        self.busy_cycles += 1;
        let drained = (f.to.cores..ctl.sms() as u32).all(|s| ctl.resident_ctas(s as usize) == 0);
        if now < f.done_at || !drained {
            return false;
        }
        let f_mhz = GPU_PSTATES[f.to.pstate];
        let top = GPU_PSTATES[GPU_PSTATES.len() - 1];
        for s in 0..ctl.sms() {
            let dispatch = (s as u32) < f.to.cores;
            let t = if f_mhz == top { SmThrottle { dispatch, ..SmThrottle::FULL } } else { SmThrottle { dispatch, clock_num: f_mhz as u16, clock_den: top as u16 } };
            ctl.set_throttle(s, t);
        }
        self.cur = f.to;
        self.flight = None;
        self.changes += 1;
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
        self.changes += 1;
        let t = if next == CLOCK_DEN { SmThrottle::FULL } else { SmThrottle { dispatch: true, clock_num: next as u16, clock_den: CLOCK_DEN as u16 } };
        for s in 0..ctl.sms() {
            ctl.set_throttle(s, t);
        }
        true
    }
}
