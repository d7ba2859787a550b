//! `gpuforge sim` for `[qcache]`: the monitor alone on random legal event streams
//! ([`super::traffic`]), with the scoreboard when asked, and a report of what it did.

use std::fmt;

use super::check::{MonitorChecker, Seen};
use super::config::QcacheConfig;
use super::monitor::{st, RateMonitor};
use super::traffic::{EventTraffic, TrafficParams};
use crate::model::{Model, Scoreboard, Stimulus};

/// Cycles `gpuforge sim` runs without `--max-cycles`.
pub const DEFAULT_CYCLES: u64 = 200_000;

/// What a run did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunReport {
    pub preset: String,
    pub cycles: u64,
    pub seed: u64,
    pub checked: bool,
    pub kernels: u64,
    pub requests_accepted: u64,
    pub acks: u64,
    pub seen: Seen,
    pub final_state: &'static str,
    /// The first broken invariant (None: none, or not checked).
    pub violation: Option<String>,
}

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "qc_rate_monitor {}: {} cycles (seed {}), {} kernels", self.preset, self.cycles, self.seed, self.kernels)?;
        writeln!(f, "  requests handed over {}, acknowledged {}", self.requests_accepted, self.acks)?;
        if self.checked {
            let s = &self.seen;
            writeln!(
                f,
                "  Table 6.1 requests: row 1 {}, row 2 {}, row 4 {}; fallbacks {}, restores {}, give-ups {}, locks {}",
                s.rows[0], s.rows[1], s.rows[2], s.fallbacks, s.restores, s.giveups, s.locks
            )?;
            let states: Vec<String> = st::NAMES.iter().zip(s.state_cycles).map(|(n, c)| format!("{n} {c}")).collect();
            writeln!(f, "  cycles per state: {}", states.join(", "))?;
        }
        match &self.violation {
            Some(v) => writeln!(f, "  FAIL {v}"),
            None if self.checked => writeln!(f, "  scoreboard: every spec §5 invariant held"),
            None => writeln!(f, "  scoreboard off (--check to run it)"),
        }
    }
}

/// Run the monitor of `cfg` for `cycles` on the streams of `seed`.
pub fn run(cfg: &QcacheConfig, preset: &str, cycles: u64, seed: u64, check: bool) -> RunReport {
    let mut m = RateMonitor::new(cfg);
    let mut stim = EventTraffic::new(cfg, seed, TrafficParams::for_config(cfg));
    let mut sb = MonitorChecker::new(cfg);
    let mut inp = m.idle_inputs();
    let mut out = m.new_outputs();
    let mut prev = m.new_outputs();
    let mut violation = None;
    for cyc in 0..cycles {
        stim.drive(&m, &prev, &mut inp);
        if cyc == 0 {
            RateMonitor::assert_reset(&mut inp);
        }
        m.eval(&inp, &mut out);
        if check && violation.is_none() {
            if let Err(v) = sb.observe(cyc, &inp, &out) {
                violation = Some(v.to_string());
            }
        }
        m.commit(&inp);
        std::mem::swap(&mut prev, &mut out);
    }
    RunReport {
        preset: preset.to_string(),
        cycles,
        seed,
        checked: check,
        kernels: stim.kernels,
        requests_accepted: stim.requests,
        acks: stim.acks,
        seen: sb.seen,
        final_state: st::NAMES[(m.r.state as usize).min(5)],
        violation,
    }
}
