//! A GPU-CC chip running one application: `memory.sms` SMs ([`CcSm`]) sharing one
//! [`MemSystem`], the `gpuforge sim` entry point [`run_app`], and its [`AppReport`].
//!
//! Flow: plan the app on the config (mapper), build the data and one graph per copy
//! (bands or chunks, [`Workload`]), encode each SM's CR image, then simulate cycle by
//! cycle until every SM with work has pulsed `cc_done` or its watchdog, and compare
//! the memory image with the references.
//!
//! Per cycle `now`: the memory lands the fills due; every SM evaluates (units, then
//! network); the checkers observe; every SM commits in SM order (so same-cycle DRAM
//! requests queue in SM order).
//!
//! Report conventions (*our choices*, stated in the report too):
//! * `cycles` runs from the first reset cycle to the last SM's `cc_done`, so it
//!   includes configuration (1 reset + 4 writes per CR + 1 start: 138 cycles for
//!   the 3×3's 34 CRs per SM) and the drain.
//! * Throughput counts the whole image (W·H pixels), as the paper's 512×512 does,
//!   although border pixels are not valid outputs; for 1-D apps, elements.
//! * DRAM "paper" utilisation counts each input pixel read once and each output
//!   written once (8 B per pixel, spec §3.3); "actual" counts every byte the model
//!   moved (line fills + 4 B per store).

use std::collections::BTreeMap;
use std::fmt;

use super::apps::{self, CheckReport, ConvKernel, Workload};
use super::check::Violation;
use super::config::{GpuccConfig, TimingMode};
use super::fp;
use super::fu::FuMutation;
use super::lsu::LsuMutation;
use super::mapper::{self, MapError, MapReport};
use super::mem::{MemMutation, MemStats, MemSystem};
use super::sm::{CcSm, SmOutcome};
use super::unit_check::UnitChecker;

/// Why an app could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("the config has no [gpucc.app] table")]
    NoApp,
    #[error(transparent)]
    Map(#[from] MapError),
    #[error("graph mutation: no node named {0}")]
    NoSuchNode(String),
}

/// A change to every copy's graph before encoding (deliberately broken mappings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphMutation {
    /// Remove all initial tokens of the named node.
    DropInitTokens(String),
}

/// Knobs of a run beyond the config.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    /// Seed of the input data.
    pub seed: u64,
    /// Run the network scoreboard on every SM and the unit-side scoreboard.
    pub check: bool,
    /// Stop after this many cycles (a safety net; the watchdog ends deadlocks).
    pub max_cycles: u64,
    /// Convolution kernel instead of the Gaussian.
    pub kernel: Option<ConvKernel>,
    pub fu_mutation: Option<FuMutation>,
    pub lsu_mutation: Option<LsuMutation>,
    pub mem_mutation: Option<MemMutation>,
    pub graph_mutation: Option<GraphMutation>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { seed: 1, check: false, max_cycles: 50_000_000, kernel: None, fu_mutation: None, lsu_mutation: None, mem_mutation: None, graph_mutation: None }
    }
}

/// How the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// Every SM with work finished.
    Done,
    /// The first SM whose watchdog tripped, and the cycle of the trip.
    Watchdog { sm: usize, cycle: u64 },
    /// `max_cycles` reached.
    CycleLimit { cycle: u64 },
}

/// DRAM traffic against the peak (spec §3.3, §5 G4).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DramReport {
    pub read_bytes: u64,
    pub write_bytes: u64,
    /// The paper's count: inputs read once, outputs written once.
    pub min_bytes: u64,
    pub peak_bytes_per_cycle: f64,
    pub peak_gb_per_s: f64,
    /// `min_bytes / (cycles * peak)`: the paper's 89%.
    pub utilisation_paper: f64,
    /// Everything moved / (cycles * peak).
    pub utilisation_actual: f64,
}

/// L1 and prefetch statistics, whole chip.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct L1Report {
    pub loads: u64,
    pub hits: u64,
    pub merged: u64,
    pub misses: u64,
    /// hits / loads.
    pub hit_rate: f64,
    pub prefetch_requests: u64,
    pub prefetch_fills: u64,
    pub prefetch_redundant: u64,
    pub stores: u64,
    pub evictions: u64,
    pub out_of_range: u64,
}

/// Event counters of spec §1.10, whole chip.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventReport {
    /// Lane transfers per opcode mnemonic.
    pub fires: BTreeMap<String, u64>,
    pub fifo_pushes: u64,
    pub fifo_pops: u64,
    pub segment_transfers: u64,
    /// CR reads, register-file accesses and instruction fetch/decode in RUN: all
    /// switched off in CC mode (spec §1.2), so 0 by construction.
    pub cr_reads_in_run: u64,
    pub rf_accesses: u64,
    pub fetch_decode_in_run: u64,
    /// SM-cycles spent in RUN and DRAIN, summed over SMs.
    pub run_sm_cycles: u64,
    pub drain_sm_cycles: u64,
}

/// Everything `gpuforge sim` prints.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AppReport {
    pub app: String,
    pub image: u32,
    pub timing: String,
    pub sms: u32,
    pub sms_with_work: u32,
    pub copies_per_sm: u32,
    pub copies_with_work: u32,
    pub mapping: MapReport,
    pub outcome: Outcome,
    pub cycles: u64,
    /// Cycles of one SM's configuration phase (reset + CR writes + start).
    pub config_cycles: u64,
    /// Pixels (W·H) or elements.
    pub items: u64,
    pub items_per_cycle: f64,
    pub items_per_cycle_per_sm: f64,
    pub items_per_cycle_per_copy: f64,
    pub clock_mhz: f64,
    /// Gpixel/s (or G elements/s) at `clock_mhz`.
    pub giga_items_per_s: f64,
    /// CRs written, whole chip: the paper's "instructions fetched" (476 for 3×3).
    pub instructions_fetched: u64,
    pub cfg_word_writes: u64,
    pub dram: DramReport,
    pub l1: L1Report,
    pub events: EventReport,
    pub check: CheckReport,
    /// Scoreboard violations (empty when the checkers were off or found nothing).
    pub violations: Vec<String>,
    /// Outcome Done, reference check passed, no out-of-range access, no violation.
    pub pass: bool,
}

/// A finished run: the report and the final memory.
#[derive(Debug, Clone)]
pub struct RunOutput {
    pub report: AppReport,
    pub memory: super::mem::Backing,
    pub violations: Vec<Violation>,
    pub workload: Workload,
}

/// Run the config's app with default options (`gpuforge sim <config>`).
pub fn run_app(cfg: &GpuccConfig) -> Result<AppReport, RunError> {
    run_app_with(cfg, &RunOptions::default()).map(|o| o.report)
}

/// Run the config's app.
pub fn run_app_with(cfg: &GpuccConfig, opts: &RunOptions) -> Result<RunOutput, RunError> {
    let app = cfg.app.ok_or(RunError::NoApp)?;
    let (template, pl, copies) = apps::plan(cfg, app.kind, app.image, app.copies)?;
    let sms = cfg.memory.sms as usize;
    let mut wl = Workload::new(app.kind, app.image, sms as u32 * copies, opts.seed, opts.kernel.as_ref());
    if let Some(GraphMutation::DropInitTokens(name)) = &opts.graph_mutation {
        let v = template.find(name).ok_or_else(|| RunError::NoSuchNode(name.clone()))?;
        for g in wl.copies.iter_mut().flatten() {
            g.nodes[v].init_cnt = [0; 3];
        }
    }

    let mut mem = MemSystem::new(&cfg.memory, sms, cfg.n_lsu(), wl.memory.clone());
    mem.mutation = opts.mem_mutation;
    let mut chip: Vec<CcSm> = Vec::with_capacity(sms);
    for s in 0..sms {
        let graphs: Vec<_> = wl.copies[s * copies as usize..(s + 1) * copies as usize].iter().flatten().cloned().collect();
        let crs = mapper::encode(cfg, &pl, &graphs)?;
        let mut sm = CcSm::new(cfg, s, &crs);
        if opts.check {
            sm = sm.with_net_checker();
        }
        if let Some(m) = opts.fu_mutation {
            sm.mutate_cores(m);
        }
        if let Some(m) = opts.lsu_mutation {
            sm.mutate_lsus(m);
        }
        chip.push(sm);
    }
    let mut uchk = opts.check.then(|| UnitChecker::new(cfg, sms, &wl.memory));

    let mut now = 0u64;
    let mut limit = None;
    while chip.iter().any(|s| s.outcome().is_none()) {
        if now >= opts.max_cycles {
            limit = Some(now);
            break;
        }
        mem.tick(now);
        for sm in chip.iter_mut().filter(|s| s.outcome().is_none()) {
            sm.eval(now, &mem);
            if let Some(u) = uchk.as_mut() {
                u.observe(sm.id, sm.trace(), now);
            }
        }
        for sm in chip.iter_mut().filter(|s| s.outcome().is_none()) {
            sm.commit(now, &mut mem);
        }
        now += 1;
    }
    // let outstanding traffic (e.g. after a watchdog abort) settle before comparing
    let mut settle = now;
    while !mem.all_idle() && settle < now + 1_000_000 {
        mem.tick(settle);
        settle += 1;
    }

    let mut violations: Vec<Violation> = Vec::new();
    for sm in &chip {
        if let Some(c) = &sm.net_checker {
            violations.extend(c.violations().iter().cloned().map(|mut v| {
                v.detail = format!("SM {}: {}", sm.id, v.detail);
                v
            }));
        }
    }
    if let Some(mut u) = uchk {
        u.finish(mem.backing(), now);
        violations.extend(u.violations().iter().cloned());
    }

    let report = build_report(cfg, &wl, &template, &pl, copies, &chip, &mem, now, limit, &violations);
    Ok(RunOutput { report, memory: mem.backing().clone(), violations, workload: wl })
}

#[allow(clippy::too_many_arguments)]
fn build_report(
    cfg: &GpuccConfig,
    wl: &Workload,
    template: &mapper::AppGraph,
    pl: &mapper::Placement,
    copies: u32,
    chip: &[CcSm],
    mem: &MemSystem,
    now: u64,
    limit: Option<u64>,
    violations: &[Violation],
) -> AppReport {
    let m = &cfg.memory;
    let outcome = match limit {
        Some(c) => Outcome::CycleLimit { cycle: c },
        None => chip
            .iter()
            .find_map(|s| match s.outcome() {
                Some(SmOutcome::Watchdog { cycle }) => Some(Outcome::Watchdog { sm: s.id, cycle }),
                _ => None,
            })
            .unwrap_or(Outcome::Done),
    };
    let cycles = now.max(1);
    let working: Vec<&CcSm> = chip.iter().filter(|s| s.driver.crs_written > 0).collect();
    let sms_with_work = working.len() as u32;
    let copies_with_work = wl.copies.iter().flatten().count() as u32;
    let per_cycle = wl.items as f64 / cycles as f64;
    let st: MemStats = mem.chip_stats();
    let peak = m.dram_bytes_per_cycle;
    let mut fires = BTreeMap::new();
    let (mut pushes, mut pops, mut segs, mut run_c, mut drain_c) = (0, 0, 0, 0, 0);
    for s in &working {
        for (opc, &n) in s.events.fires.iter().enumerate() {
            if n > 0 {
                *fires.entry(fp::name(opc as u32).to_string()).or_insert(0) += n;
            }
        }
        pushes += s.events.fifo_pushes;
        pops += s.events.fifo_pops;
        segs += s.events.segment_transfers;
        run_c += s.events.run_cycles;
        drain_c += s.events.drain_cycles;
    }
    let config_cycles = working.first().and_then(|s| s.driver.start_cycle).map_or(0, |c| c + 1);
    let check = wl.check(mem.backing());
    let pass = outcome == Outcome::Done && check.pass && st.oob == 0 && violations.is_empty();
    AppReport {
        app: template.name.clone(),
        image: wl.image,
        timing: match cfg.timing.mode {
            TimingMode::Strict => "strict".into(),
            TimingMode::Pipelined => format!("pipelined (lat_int {}, lat_fp {})", cfg.timing.lat_int, cfg.timing.lat_fp),
        },
        sms: m.sms,
        sms_with_work,
        copies_per_sm: copies,
        copies_with_work,
        mapping: pl.report(template, copies),
        outcome,
        cycles,
        config_cycles,
        items: wl.items,
        items_per_cycle: per_cycle,
        items_per_cycle_per_sm: per_cycle / sms_with_work.max(1) as f64,
        items_per_cycle_per_copy: per_cycle / copies_with_work.max(1) as f64,
        clock_mhz: m.clock_mhz,
        giga_items_per_s: per_cycle * m.clock_mhz / 1000.0,
        instructions_fetched: working.iter().map(|s| s.driver.crs_written as u64).sum(),
        cfg_word_writes: working.iter().map(|s| s.driver.cfg_writes as u64).sum(),
        dram: DramReport {
            read_bytes: st.dram_read_bytes,
            write_bytes: st.dram_write_bytes,
            min_bytes: wl.min_dram_bytes,
            peak_bytes_per_cycle: peak,
            peak_gb_per_s: peak * m.clock_mhz / 1000.0,
            utilisation_paper: wl.min_dram_bytes as f64 / (cycles as f64 * peak),
            utilisation_actual: (st.dram_read_bytes + st.dram_write_bytes) as f64 / (cycles as f64 * peak),
        },
        l1: L1Report {
            loads: st.loads,
            hits: st.hits,
            merged: st.merged,
            misses: st.misses,
            hit_rate: if st.loads == 0 { 0.0 } else { st.hits as f64 / st.loads as f64 },
            prefetch_requests: st.prefetch_requests,
            prefetch_fills: st.prefetch_fills,
            prefetch_redundant: st.prefetch_redundant,
            stores: st.stores,
            evictions: st.evictions,
            out_of_range: st.oob,
        },
        events: EventReport {
            fires,
            fifo_pushes: pushes,
            fifo_pops: pops,
            segment_transfers: segs,
            cr_reads_in_run: 0,
            rf_accesses: 0,
            fetch_decode_in_run: 0,
            run_sm_cycles: run_c,
            drain_sm_cycles: drain_c,
        },
        check,
        violations: violations.iter().map(|v| v.to_string()).collect(),
        pass,
    }
}

impl fmt::Display for AppReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.app.starts_with("conv") { "pixel" } else { "element" };
        let size = if unit == "pixel" { format!("a {0}x{0} image", self.image) } else { format!("{} elements", self.image) };
        writeln!(f, "GPU-CC {} on {size} ({} timing)", self.app, self.timing)?;
        writeln!(
            f,
            "  mapping     {} cores + {} LSUs per copy, {} lanes, {} positions/copy, {} copies/SM ({} fit), {} SMs ({} with work, {} copies)",
            self.mapping.cores_per_copy,
            self.mapping.lsus_per_copy,
            self.mapping.lanes_used,
            self.mapping.positions_per_copy,
            self.copies_per_sm,
            self.mapping.max_copies,
            self.sms,
            self.sms_with_work,
            self.copies_with_work
        )?;
        let status = match self.outcome {
            Outcome::Done => "done".to_string(),
            Outcome::Watchdog { sm, cycle } => format!("WATCHDOG on SM {sm} at cycle {cycle} (deadlock)"),
            Outcome::CycleLimit { cycle } => format!("stopped at the cycle limit {cycle}"),
        };
        writeln!(f, "  outcome     {status}; {} cycles ({} of them configuration)", self.cycles, self.config_cycles)?;
        writeln!(
            f,
            "  throughput  {:.3} {unit}/cycle chip, {:.3} per SM, {:.3} per copy; {:.2} G{unit}/s at {} MHz",
            self.items_per_cycle, self.items_per_cycle_per_sm, self.items_per_cycle_per_copy, self.giga_items_per_s, self.clock_mhz
        )?;
        writeln!(f, "  fetched     {} instructions (CRs written), {} config words", self.instructions_fetched, self.cfg_word_writes)?;
        writeln!(
            f,
            "  DRAM        {:.1}% of peak {:.1} GB/s counting inputs+outputs once ({} B); actual {:.1}% (read {} B, written {} B)",
            100.0 * self.dram.utilisation_paper,
            self.dram.peak_gb_per_s,
            self.dram.min_bytes,
            100.0 * self.dram.utilisation_actual,
            self.dram.read_bytes,
            self.dram.write_bytes
        )?;
        writeln!(
            f,
            "  L1          {} loads: {:.1}% hits, {} merged, {} misses; {} prefetches ({} fills, {} redundant); {} stores",
            self.l1.loads,
            100.0 * self.l1.hit_rate,
            self.l1.merged,
            self.l1.misses,
            self.l1.prefetch_requests,
            self.l1.prefetch_fills,
            self.l1.prefetch_redundant,
            self.l1.stores
        )?;
        let fires: Vec<String> = self.events.fires.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(
            f,
            "  events      fires: {}; FIFO pushes {}, pops {}; segment transfers {}",
            fires.join(", "),
            self.events.fifo_pushes,
            self.events.fifo_pops,
            self.events.segment_transfers
        )?;
        writeln!(
            f,
            "  check       {} outputs: {} vs same-order f32 ({} mismatches); max {:.3} ulp vs f64 (tolerance {}); {}",
            self.check.compared,
            if self.check.bit_identical_f32 { "bit-identical" } else { "DIFFERENT" },
            self.check.mismatches_f32,
            self.check.max_ulps_vs_f64,
            self.check.tolerance_ulps,
            if self.pass { "PASS" } else { "FAIL" }
        )?;
        if let Some(m) = &self.check.first_mismatch {
            writeln!(f, "  first mismatch: {m}")?;
        }
        for v in self.violations.iter().take(5) {
            writeln!(f, "  violation   {v}")?;
        }
        Ok(())
    }
}
