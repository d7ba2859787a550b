//! Q-cache rate-monitor configuration (spec §1.3, §1.5, §5) and what is derived from it:
//! register widths and the storage count of §1.9.
//!
//! Every [OC] constant of spec §1.5 is a field of `[qcache]`, with the spec's default.
//! The companion blocks of spec §5 (the L2 banks' transition filter, the GPU actuator,
//! a CPU core's DVFS) take theirs from the optional `[qcache.companion]` table
//! ([`Companion`]): the filter's options (`COUNT_O_TO_M`, `COUNT_LOCAL_HIT_M`), the GPU's
//! cores, the CPU's nominal clock, and the DVFS transition of spec §1.8 in ns with the
//! clock (`clock_mhz`, the GPU's, which the GPU model's hook counts its cycles in) that
//! turns it into cycles. In `[hooks.qcache]` of the GPU model these come from `[gpu]`
//! and `[hooks.qcache.cpu]` instead, and the table is refused.

use serde::Deserialize;

use super::actuator::{dvfs_delay_cycles, GPU_PSTATES};
use super::cpu::CPU_PSTATES;
use super::filter::TransitionFilter;
use crate::bits::{clog2, count_width};
use crate::config::{check_one_of, check_range, FieldError};

/// The rate-change policy (spec §1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Table 6.1 with the §1.6 refinements, as the thesis evaluates it.
    #[serde(rename = "table_6_1")]
    Table61,
    /// Table 6.1, and after a direction reversal the next magnitude is halved
    /// (`DAMP_ON_REVERSAL`, spec §1.6 known limitations): `ratio = 1 + (ratio - 1) / 2`.
    DampOnReversal,
}

impl Policy {
    pub const ALL: [Policy; 2] = [Policy::Table61, Policy::DampOnReversal];

    pub fn name(self) -> &'static str {
        match self {
            Policy::Table61 => "table_6_1",
            Policy::DampOnReversal => "damp_on_reversal",
        }
    }
}

/// Raw `[qcache]` table as written in TOML; omitted fields take the spec §1.5 defaults.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RawQcache {
    nbanks: u32,
    ndom: u32,
    cnt_w: u32,
    cap_lines: u64,
    eval_interval: u32,
    min_obs_cycles: u32,
    window_cycles: u32,
    min_lines: u64,
    eq_tol_shift: u32,
    spill_little_shift: u32,
    qlow_lines: u64,
    qlow_streak: u32,
    qlock_shift: u32,
    qpre_num: u32,
    qpre_den: u32,
    min_step_q44: u32,
    up_step_q44: u32,
    giveup_streak: u32,
    detect_timeout: u32,
    ack_timeout: u32,
    rc_lat: u32,
    lock_probe_evals: u32,
    policy: Policy,
    companion: Option<RawCompanion>,
}

/// Raw `[qcache.companion]`: the companion blocks of spec §5 (defaults: the thesis's
/// 16-core GPU at 700 MHz, a 3.5 GHz CPU core, 15 µs + 10 µs per step up to 45 µs).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RawCompanion {
    count_o_to_m: bool,
    count_local_hit_m: bool,
    gpu_cores: u32,
    cpu_mhz: u32,
    clock_mhz: u32,
    dvfs_ns: u32,
    dvfs_step_ns: u32,
    dvfs_max_ns: u32,
}

impl Default for RawCompanion {
    fn default() -> Self {
        RawCompanion { count_o_to_m: false, count_local_hit_m: false, gpu_cores: 16, cpu_mhz: 3500, clock_mhz: 700, dvfs_ns: 15_000, dvfs_step_ns: 10_000, dvfs_max_ns: 45_000 }
    }
}

/// Most GPU cores `qc_gpu_actuator` drives (`active_core_mask[15:0]`, spec §5).
pub const MAX_GPU_CORES: u32 = 16;

/// The validated companion parameters and the transition latencies in cycles.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Companion {
    pub filter: TransitionFilter,
    pub gpu_cores: u32,
    pub cpu_mhz: u32,
    pub clock_mhz: u32,
    pub dvfs_ns: u32,
    pub dvfs_step_ns: u32,
    pub dvfs_max_ns: u32,
    // ---- derived ----
    /// Transition cycles for 0..=4 GPU P-state steps and 0..=5 CPU ones.
    pub gpu_lat: Vec<u64>,
    pub cpu_lat: Vec<u64>,
    /// Index of `cpu_mhz` in the CPU P-state table (the nominal P-state).
    pub cpu_nominal: usize,
    /// Width of the transition countdown.
    pub lat_w: u32,
}

impl Companion {
    pub fn validate(r: RawCompanion) -> Result<Companion, FieldError> {
        check_range("qcache.companion.gpu_cores", r.gpu_cores, 1, MAX_GPU_CORES)?;
        check_one_of("qcache.companion.cpu_mhz", r.cpu_mhz, &CPU_PSTATES)?;
        check_range("qcache.companion.clock_mhz", r.clock_mhz, 1, 5000)?;
        check_range("qcache.companion.dvfs_ns", r.dvfs_ns, 0, 1_000_000)?;
        check_range("qcache.companion.dvfs_step_ns", r.dvfs_step_ns, 0, 1_000_000)?;
        check_range("qcache.companion.dvfs_max_ns", r.dvfs_max_ns, r.dvfs_ns, 1_000_000)?;
        let lat = |n: usize| -> Vec<u64> { (0..n as u32).map(|s| dvfs_delay_cycles(s, r.dvfs_ns, r.dvfs_step_ns, r.dvfs_max_ns, r.clock_mhz)).collect() };
        let (gpu_lat, cpu_lat) = (lat(GPU_PSTATES.len()), lat(CPU_PSTATES.len()));
        let longest = gpu_lat.iter().chain(&cpu_lat).copied().max().unwrap_or(0);
        Ok(Companion {
            filter: TransitionFilter { count_o_to_m: r.count_o_to_m, count_local_hit_m: r.count_local_hit_m },
            gpu_cores: r.gpu_cores,
            cpu_mhz: r.cpu_mhz,
            clock_mhz: r.clock_mhz,
            dvfs_ns: r.dvfs_ns,
            dvfs_step_ns: r.dvfs_step_ns,
            dvfs_max_ns: r.dvfs_max_ns,
            gpu_lat,
            cpu_lat,
            cpu_nominal: CPU_PSTATES.iter().position(|&p| p == r.cpu_mhz).expect("checked above"),
            lat_w: width2(longest),
        })
    }
}

impl RawQcache {
    /// A `[qcache.companion]` table was written (the GPU model's hook refuses it).
    pub fn has_companion(&self) -> bool {
        self.companion.is_some()
    }
}

impl Default for RawQcache {
    /// Spec §1.5 / §5 defaults: the GPU L2 of Table 6.3 (2 MB of 128 B lines, 16 banks).
    fn default() -> Self {
        RawQcache {
            nbanks: 16,
            ndom: 5,
            cnt_w: 32,
            cap_lines: 16384,
            eval_interval: 8192,
            min_obs_cycles: 16384,
            window_cycles: 131072,
            min_lines: 256,
            eq_tol_shift: 3,
            spill_little_shift: 5,
            qlow_lines: 256,
            qlow_streak: 2,
            qlock_shift: 2,
            qpre_num: 3,
            qpre_den: 4,
            min_step_q44: 0x12,
            up_step_q44: 0x14,
            giveup_streak: 2,
            detect_timeout: 262144,
            ack_timeout: 131072,
            rc_lat: 40,
            lock_probe_evals: 0,
            policy: Policy::Table61,
            companion: None,
        }
    }
}

/// Supported counter widths (the RTL is generated for each; 64 is the thesis cost).
pub const CNT_WIDTHS: [u32; 4] = [8, 16, 32, 64];
/// Longest interval any timer may count (20-bit timers, spec §1.3).
pub const MAX_TIMER: u32 = 1 << 20;
/// Largest number of L2 banks reporting events.
pub const MAX_BANKS: u32 = 32;
/// Largest number of rate domains (one bit each in the masks).
pub const MAX_DOMS: u32 = 8;
/// Most quiet LOCKED evaluations before a probe (`LOCK_PROBE_EVALS`, spec §1.6).
pub const MAX_LOCK_PROBE_EVALS: u32 = 255;
/// Fewest cycles between an evaluation and its request: the RTL's serial 8-step divider
/// (start, 8 quotient bits, result) must finish first.
pub const MIN_RC_LAT: u32 = 10;

/// A validated monitor configuration plus its derived widths.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct QcacheConfig {
    pub nbanks: u32,
    pub ndom: u32,
    pub cnt_w: u32,
    pub cap_lines: u64,
    pub eval_interval: u32,
    pub min_obs_cycles: u32,
    pub window_cycles: u32,
    pub min_lines: u64,
    pub eq_tol_shift: u32,
    pub spill_little_shift: u32,
    pub qlow_lines: u64,
    pub qlow_streak: u32,
    pub qlock_shift: u32,
    pub qpre_num: u32,
    pub qpre_den: u32,
    pub min_step_q44: u8,
    pub up_step_q44: u8,
    pub giveup_streak: u32,
    pub detect_timeout: u32,
    pub ack_timeout: u32,
    pub rc_lat: u32,
    /// `LOCK_PROBE_EVALS` (spec §1.6 known limitations, default 0 = off): after this
    /// many quiet LOCKED evaluations in a row (Table 6.1 row 3 again, in LOCKED), the
    /// next one sends a speed-producer `MIN_STEP` probe (no fallback) instead.
    pub lock_probe_evals: u32,
    /// Width of the quiet-evaluation counter (0 without the probe: no register).
    pub lock_probe_w: u32,
    pub policy: Policy,
    /// `[qcache.companion]`: the transition filter and actuators of spec §5.
    pub companion: Companion,
    // ---- derived ----
    /// Width of a domain id (`DOM_W`).
    pub dom_w: u32,
    /// Width of a per-cycle event count (popcount over the banks).
    pub ev_w: u32,
    /// Widths of the interval timers.
    pub eval_t_w: u32,
    pub win_t_w: u32,
    pub det_t_w: u32,
    pub pend_t_w: u32,
    /// Width of the request-delay counter.
    pub sched_w: u32,
}

/// A counter holding `0..=n`, at least two bits wide.
fn width2(n: u64) -> u32 {
    count_width(n).max(2)
}

impl QcacheConfig {
    pub fn validate(r: RawQcache) -> Result<Self, FieldError> {
        check_range("qcache.nbanks", r.nbanks, 1, MAX_BANKS)?;
        check_range("qcache.ndom", r.ndom, 2, MAX_DOMS)?;
        check_one_of("qcache.cnt_w", r.cnt_w, &CNT_WIDTHS)?;
        let cnt_max = if r.cnt_w == 64 { u64::MAX } else { (1u64 << r.cnt_w) - 1 };
        check_range("qcache.cap_lines", r.cap_lines, 1, cnt_max)?;
        check_range("qcache.window_cycles", r.window_cycles, 1, MAX_TIMER)?;
        check_range("qcache.eval_interval", r.eval_interval, 1, r.window_cycles)?;
        check_range("qcache.min_obs_cycles", r.min_obs_cycles, 0, r.window_cycles)?;
        check_range("qcache.min_lines", r.min_lines, 1, cnt_max)?;
        check_range("qcache.eq_tol_shift", r.eq_tol_shift, 1, 8)?;
        check_range("qcache.spill_little_shift", r.spill_little_shift, 0, r.cnt_w)?;
        check_range("qcache.qlow_lines", r.qlow_lines, 0, r.cap_lines)?;
        check_range("qcache.qlow_streak", r.qlow_streak, 1, 3)?;
        check_range("qcache.qlock_shift", r.qlock_shift, 0, 8)?;
        check_range("qcache.qpre_den", r.qpre_den, 1, 15)?;
        check_range("qcache.qpre_num", r.qpre_num, 1, r.qpre_den)?;
        check_range("qcache.min_step_q44", r.min_step_q44, 0x10, 0xff)?;
        check_range("qcache.up_step_q44", r.up_step_q44, 0x10, 0xff)?;
        check_range("qcache.giveup_streak", r.giveup_streak, 1, 3)?;
        check_range("qcache.detect_timeout", r.detect_timeout, 1, MAX_TIMER)?;
        check_range("qcache.ack_timeout", r.ack_timeout, 1, MAX_TIMER)?;
        check_range("qcache.rc_lat", r.rc_lat, MIN_RC_LAT, 1024)?;
        check_range("qcache.lock_probe_evals", r.lock_probe_evals, 0, MAX_LOCK_PROBE_EVALS)?;
        let companion = Companion::validate(r.companion.clone().unwrap_or_default())?;
        Ok(QcacheConfig {
            nbanks: r.nbanks,
            ndom: r.ndom,
            cnt_w: r.cnt_w,
            cap_lines: r.cap_lines,
            eval_interval: r.eval_interval,
            min_obs_cycles: r.min_obs_cycles,
            window_cycles: r.window_cycles,
            min_lines: r.min_lines,
            eq_tol_shift: r.eq_tol_shift,
            spill_little_shift: r.spill_little_shift,
            qlow_lines: r.qlow_lines,
            qlow_streak: r.qlow_streak,
            qlock_shift: r.qlock_shift,
            qpre_num: r.qpre_num,
            qpre_den: r.qpre_den,
            min_step_q44: r.min_step_q44 as u8,
            up_step_q44: r.up_step_q44 as u8,
            giveup_streak: r.giveup_streak,
            detect_timeout: r.detect_timeout,
            ack_timeout: r.ack_timeout,
            rc_lat: r.rc_lat,
            lock_probe_evals: r.lock_probe_evals,
            lock_probe_w: if r.lock_probe_evals == 0 { 0 } else { width2(r.lock_probe_evals as u64) },
            policy: r.policy,
            companion,
            dom_w: clog2(r.ndom as u64),
            // every width at least 2, so the RTL's zero-extensions never replicate 0 times
            ev_w: width2(r.nbanks as u64),
            eval_t_w: width2(r.eval_interval as u64),
            win_t_w: width2(r.window_cycles.max(r.min_obs_cycles) as u64),
            det_t_w: width2(r.detect_timeout as u64),
            pend_t_w: width2(r.ack_timeout as u64),
            sched_w: width2(r.rc_lat as u64),
        })
    }

    /// The largest value of a `cnt_w` counter (where every counter saturates).
    pub fn cnt_max(&self) -> u64 {
        if self.cnt_w == 64 {
            u64::MAX
        } else {
            (1u64 << self.cnt_w) - 1
        }
    }

    /// Bits of the thesis's register set (spec §1.3, §1.9): five `cnt_w` registers
    /// (produced, consumed, cycles since producers began, since consumers began, Q),
    /// the active-core vector (one bit per domain) and the 3-bit state.
    pub fn thesis_bits(&self) -> u32 {
        5 * self.cnt_w + self.ndom + 3
    }

    /// Every storage bit of our `qc_rate_monitor`, register by register, as the RTL
    /// declares them (synthesis may drop bits it proves constant).
    pub fn storage(&self) -> Vec<(&'static str, u32)> {
        let (w, nd) = (self.cnt_w, self.ndom);
        let mut v = vec![
            ("state", 3),
            ("produced, consumed, spilled, cyc_p, cyc_c, q, q_max", 7 * w),
            ("qmax_valid", 1),
            ("prod_mask, cons_mask, throttled", 3 * nd),
            ("eval_t", self.eval_t_w),
            ("win_t", self.win_t_w),
            ("det_t", self.det_t_w),
            ("pend_t", self.pend_t_w),
            ("lowq_streak, giveup_streak, last_dir", 6),
            ("tot_p_seen, tot_c_seen, force_eval", 3),
            ("sched: valid, give-up, role, dir, damp", 5),
            ("sched_cnt", self.sched_w),
            ("sched targets (request, fallback)", 2 * nd),
            ("sched_ratio", 8),
            ("divider: remainder, divisor (2 CNT_W each), low bits, step", 4 * w + 8),
            ("fallback: valid, role, dir, target, ratio", 3 + nd + 8),
            ("request: valid, role, dir, restore, target, ratio", 4 + nd + 8),
            ("issued_target", nd),
        ];
        if self.lock_probe_evals > 0 {
            v.push(("lock probe: quiet LOCKED evaluations, sched probe flag", self.lock_probe_w + 1));
        }
        v
    }

    /// Sum of [`Self::storage`].
    pub fn storage_bits(&self) -> u32 {
        self.storage().iter().map(|(_, b)| b).sum()
    }
}
