//! `gpuforge sim` for `[llc_compute]`: the EMN statistics of the placement and the OQ
//! golden model under random legal traffic with its scoreboard, drained at the end.

use serde::Serialize;

use super::check::OqScoreboard;
use super::emn::{EmnAvailability, Node};
use super::oq::{Oq, OqIn};
use super::traffic::OqTraffic;
use super::LlcComputeConfig;
use crate::invariant::Violation;
use crate::model::{Model, Scoreboard, Stimulus};

/// Counts of one OQ run.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct OqRunStats {
    pub cycles: u64,
    pub cps: u64,
    pub flushes: u64,
    pub discards: u64,
    pub responses: u64,
    pub drain_cycles: u64,
}

/// Run the OQ of the core at `node` for `cycles` cycles of random traffic, then drain
/// (no new chains) until idle; the scoreboard checks every cycle and, at the end, that
/// nothing leaked. `plant` mutates the model first (checker tests).
pub fn run_oq(c: &LlcComputeConfig, node: Node, cycles: u64, seed: u64, plant: impl FnOnce(&mut Oq, &mut OqTraffic)) -> Result<OqRunStats, Violation> {
    let mut m = Oq::new(c, node);
    let mut t = OqTraffic::new(c, &m, seed);
    plant(&mut m, &mut t);
    let mut sb = OqScoreboard::new(c, &m);
    let cycle = run_drained(c, &mut m, &mut t, &mut sb, cycles, "8 no leaks")?;
    Ok(OqRunStats { cycles, cps: sb.cps, flushes: sb.flushes, discards: sb.discards, responses: sb.responses, drain_cycles: cycle - cycles })
}

/// A queue model that a run fills with random traffic and then drains (the OQ and both
/// SQs).
trait Drained: Model {
    /// Entries in use (none once drained).
    fn live(&self) -> usize;
    /// A cycle's inputs with nothing happening: the reset cycle's and the last one's.
    fn quiet(&self, _c: &LlcComputeConfig) -> Self::In {
        self.idle_inputs()
    }
}

/// Random traffic that can stop offering new work and say when it has nothing in flight.
trait Draining<M: Model>: Stimulus<M> {
    fn stop(&mut self);
    fn idle(&self) -> bool;
}

/// A scoreboard with a check at the end of a run (nothing leaked).
trait Finishing<M: Model>: Scoreboard<M> {
    fn finish(&self, cycle: u64, last: &M::Out) -> Result<(), Violation>;
}

/// `cycles` cycles of traffic (reset in cycle 0, the scoreboard on every cycle), then no
/// new work until traffic and model are idle (at most 100,000 cycles, else `stuck` is
/// the broken invariant), one quiet cycle so the registered status shows the drained
/// state, and the scoreboard's final check. Returns the cycles run.
fn run_drained<M: Drained, T: Draining<M>, S: Finishing<M>>(c: &LlcComputeConfig, m: &mut M, t: &mut T, sb: &mut S, cycles: u64, stuck: &'static str) -> Result<u64, Violation> {
    let (mut inp, mut out, mut prev) = (m.quiet(c), m.new_outputs(), m.new_outputs());
    M::assert_reset(&mut inp);
    let limit = cycles + 100_000;
    let mut cycle = 0u64;
    loop {
        if cycle == cycles {
            t.stop();
        }
        if cycle > 0 {
            t.drive(m, &prev, &mut inp);
        }
        m.eval(&inp, &mut out);
        sb.observe(cycle, &inp, &out)?;
        m.commit(&inp);
        std::mem::swap(&mut prev, &mut out);
        cycle += 1;
        if cycle > cycles + 2 && t.idle() && m.live() == 0 {
            break;
        }
        if cycle > limit {
            return Err(Violation { cycle, invariant: stuck, detail: format!("not drained {} cycles after the traffic stopped ({} entries live)", limit - cycles, m.live()) });
        }
    }
    let quiet = m.quiet(c);
    m.eval(&quiet, &mut out);
    sb.observe(cycle, &quiet, &out)?;
    sb.finish(cycle, &out)?;
    Ok(cycle)
}

macro_rules! drained {
    ($model:ty, $traffic:ty, $board:ty) => {
        impl Draining<$model> for $traffic {
            fn stop(&mut self) {
                self.draining = true;
            }
            fn idle(&self) -> bool {
                <$traffic>::idle(self)
            }
        }
        impl Finishing<$model> for $board {
            fn finish(&self, cycle: u64, last: &<$model as Model>::Out) -> Result<(), Violation> {
                <$board>::finish(self, cycle, last)
            }
        }
    };
}

impl Drained for Oq {
    fn live(&self) -> usize {
        self.count()
    }
    fn quiet(&self, c: &LlcComputeConfig) -> OqIn {
        self.inputs_for(c)
    }
}
impl Drained for super::sq::Sq {
    fn live(&self) -> usize {
        self.count()
    }
}
impl Drained for super::sq_core::SqCore {
    fn live(&self) -> usize {
        self.count()
    }
}
drained!(Oq, OqTraffic, OqScoreboard);
drained!(super::sq::Sq, super::sq_traffic::SqTraffic, super::sq_check::SqScoreboard);
drained!(super::sq_core::SqCore, super::sq_core_traffic::SqCoreTraffic, super::sq_core_check::SqCoreScoreboard);

/// What `gpuforge sim` reports for a preset.
#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    pub preset: String,
    pub emn: EmnAvailability,
    pub oq_node: u32,
    pub oq: OqRunStats,
    pub sq_llc: SqRunStats,
    pub sq_core: SqCoreRunStats,
}

impl std::fmt::Display for SimReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let a = &self.emn;
        let pct = |n: u32, d: u32| if d == 0 { 0.0 } else { 100.0 * f64::from(n) / f64::from(d) };
        writeln!(f, "{}: EMN availability (Algorithm 1, spec §2.4)", self.preset)?;
        writeln!(f, "  (core, MC pair) with an EMN: {} of {} ({:.2}%)", a.with_emn, a.pairs, pct(a.with_emn, a.pairs))?;
        writeln!(f, "  different-MC pairs with an EMN: {} of {} ({:.2}%)", a.distinct_with_emn, a.distinct_pairs, pct(a.distinct_with_emn, a.distinct_pairs))?;
        writeln!(f, "  of those, EMN is an LLC node: {} ({:.2}% of different-MC pairs)", a.distinct_llc_emn, pct(a.distinct_llc_emn, a.distinct_pairs))?;
        let o = &self.oq;
        write!(
            f,
            "OQ of node {} under random traffic, scoreboard on: {} cycles (+{} drain): {} CPs, {} flushes, {} discards, {} responses; no invariant broken, nothing leaked",
            self.oq_node, o.cycles, o.drain_cycles, o.cps, o.flushes, o.discards, o.responses
        )?;
        let q = &self.sq_llc;
        write!(
            f,
            "\nSQ at an LLC partition under random traffic, scoreboard on: {} cycles: {} CPs, {} responses, {} fallbacks (SQSR full), {} writes; no invariant broken, nothing leaked",
            q.cycles, q.cps, q.responses, q.fallbacks, q.writes
        )?;
        let q = &self.sq_core;
        write!(
            f,
            "\nSQ of the core at node {} (Omni) under random traffic, scoreboard on: {} cycles: {} CPs, {} responses, {} fallbacks, {} stores, {} ALU-contention cycles, {} cycles a NoC reply waited for the shared-memory write queue; no invariant broken, nothing leaked",
            self.oq_node, q.cycles, q.cps, q.responses, q.fallbacks, q.stores, q.contention, q.ni_held
        )
    }
}

/// The core the block runs are about: the spec's core 15 when the mesh has one, else core 0.
pub fn sample_core(c: &LlcComputeConfig) -> Node {
    let p = &c.placement;
    p.core(if p.cores() > 15 { 15 } else { 0 })
}

pub fn run(c: &LlcComputeConfig, preset: &str, seed: u64, cycles: u64) -> Result<SimReport, Violation> {
    let node = sample_core(c);
    let oq = run_oq(c, node, cycles, seed, |_, _| {})?;
    let sq_llc = run_sq(c, cycles, seed, |_| {})?;
    let sq_core = run_sq_core(c, node, cycles, seed, |_| {})?;
    Ok(SimReport { preset: preset.to_string(), emn: c.placement.availability(c.emn_paths), oq_node: c.placement.id(node), oq, sq_llc, sq_core })
}

/// Counts of one LLC-partition SQ run.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct SqRunStats {
    pub cycles: u64,
    pub cps: u64,
    pub responses: u64,
    pub fallbacks: u64,
    pub writes: u64,
}

/// Run the LLC-partition SQ for `cycles` cycles of random traffic, then drain; the
/// scoreboard checks every cycle and that nothing is left.
pub fn run_sq(c: &LlcComputeConfig, cycles: u64, seed: u64, plant: impl FnOnce(&mut super::sq::Sq)) -> Result<SqRunStats, Violation> {
    use super::sq::Sq;
    use super::sq_check::SqScoreboard;
    use super::sq_traffic::SqTraffic;
    let mut m = Sq::new(c);
    plant(&mut m);
    let mut t = SqTraffic::new(c, &m, seed);
    let mut sb = SqScoreboard::new(c, &m);
    run_drained(c, &mut m, &mut t, &mut sb, cycles, "9 bounded liveness")?;
    Ok(SqRunStats { cycles, cps: sb.book.cps_in, responses: sb.book.responses, fallbacks: sb.book.fallbacks, writes: sb.writes })
}

/// Counts of one core-SQ run (Omni-Compute).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct SqCoreRunStats {
    pub cycles: u64,
    pub cps: u64,
    pub responses: u64,
    pub fallbacks: u64,
    pub stores: u64,
    /// Cycles the SQ wanted the core's ALU while the core used it (Fig. 14 metric).
    pub contention: u64,
    /// Cycles a NoC reply waited for the shared-memory write queue.
    pub ni_held: u64,
}

/// Run the SQ of the core at `node` for `cycles` cycles of random traffic, then drain.
pub fn run_sq_core(c: &LlcComputeConfig, node: Node, cycles: u64, seed: u64, plant: impl FnOnce(&mut super::sq_core::SqCore)) -> Result<SqCoreRunStats, Violation> {
    use super::sq_core::SqCore;
    use super::sq_core_check::SqCoreScoreboard;
    use super::sq_core_traffic::SqCoreTraffic;
    let mut m = SqCore::new(c, node);
    plant(&mut m);
    let mut t = SqCoreTraffic::new(c, &m, seed);
    let mut sb = SqCoreScoreboard::new(c, &m);
    run_drained(c, &mut m, &mut t, &mut sb, cycles, "9 bounded liveness")?;
    Ok(SqCoreRunStats {
        cycles,
        cps: sb.book.cps_in,
        responses: sb.book.responses,
        fallbacks: sb.book.fallbacks,
        stores: sb.stores,
        contention: sb.contention,
        ni_held: sb.ni_held,
    })
}
