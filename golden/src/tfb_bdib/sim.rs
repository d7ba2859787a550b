//! `gpuforge sim` for the BDIB: the golden model on random legal traffic with the
//! §5.4 scoreboard beside it, then a wind-down until every barrier completes and
//! every buffer is empty (INV-3 at kernel end).

use std::fmt;

use super::bdib::{Bdib, BdibMutation};
use super::check::{BdibChecker, BdibStats};
use super::config::TfbConfig;
use super::traffic::{BdibTraffic, TrafficParams};
use crate::invariant::Violation;
use crate::model::{Model, Scoreboard, Stimulus};

/// What a run did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SimReport {
    pub mode: &'static str,
    pub num_warps: u32,
    pub depth: u32,
    pub seed: u64,
    /// Cycles of traffic, then cycles of wind-down.
    pub traffic_cycles: u64,
    pub drain_cycles: u64,
    pub alu_issued: u64,
    pub stats: BdibStats,
    #[serde(skip)]
    pub violation: Option<Violation>,
    pub violation_text: Option<String>,
}

impl fmt::Display for SimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.stats;
        writeln!(f, "TFB BDIB, {}-TFB, {} warps x {} entries, seed {}", self.mode.to_uppercase(), self.num_warps, self.depth, self.seed)?;
        writeln!(f, "  cycles      {} of traffic + {} wind-down", self.traffic_cycles, self.drain_cycles)?;
        writeln!(f, "  issue port  {} accepted: {} passed through, {} buffered; {} ALU/control issued beside", s.issued, s.passed, s.pushed, self.alu_issued)?;
        writeln!(f, "  drain       {} pops ({} barrier markers, {} fences), port stalled {} cycles", s.popped, s.marker_pops, s.fence_pops, s.stall_cycles)?;
        writeln!(f, "  barriers    {} arrivals; max occupancy {} of {}; {} warp-cycles full; {} WAR hits", s.barriers, s.max_count, self.depth, s.full_cycles, s.war_hits)?;
        match &self.violation {
            None => write!(f, "  check       scoreboard (INV-1..14, G1..G5): PASS"),
            Some(v) => write!(f, "  check       FAIL {v}"),
        }
    }
}

/// Run `cycles` cycles of traffic and a wind-down (at most 100,000 more cycles).
pub fn run(cfg: &TfbConfig, cycles: u64, seed: u64) -> SimReport {
    run_mutated(cfg, cycles, seed, None)
}

/// [`run`] with a planted bug in the model (to see the scoreboard catch it).
pub fn run_mutated(cfg: &TfbConfig, cycles: u64, seed: u64, mutation: Option<BdibMutation>) -> SimReport {
    let mut m = Bdib::new(cfg);
    m.mutation = mutation;
    let mut t = BdibTraffic::new(cfg, TrafficParams::for_config(cfg), seed);
    let mut chk = BdibChecker::new(cfg);
    let (mut i, mut o, mut prev) = (m.idle_inputs(), m.new_outputs(), m.new_outputs());
    let mut violation = None;
    let mut c = 0u64;
    let mut drain_cycles = 0u64;
    loop {
        if c == cycles {
            t.quiesce = true;
        }
        if c >= cycles {
            let empty = (0..cfg.n()).all(|w| m.count(w) == 0 && !m.in_bar(w));
            if (empty && t.settled()) || drain_cycles >= 100_000 {
                break;
            }
            drain_cycles += 1;
        }
        t.drive(&m, &prev, &mut i);
        if c == 0 {
            Bdib::assert_reset(&mut i);
        }
        m.eval(&i, &mut o);
        if let Err(e) = chk.observe(c, &i, &o) {
            violation = Some(e);
            break;
        }
        m.commit(&i);
        std::mem::swap(&mut prev, &mut o);
        c += 1;
    }
    if violation.is_none() {
        violation = chk.finish(c).err();
    }
    SimReport {
        mode: cfg.mode.name(),
        num_warps: cfg.num_warps,
        depth: cfg.depth,
        seed,
        traffic_cycles: cycles.min(c),
        drain_cycles,
        alu_issued: t.alu_issued,
        stats: chk.stats.clone(),
        violation_text: violation.as_ref().map(|v| v.to_string()),
        violation,
    }
}
