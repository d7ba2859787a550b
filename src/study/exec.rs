//! Running a plan on this machine: a pool of worker threads takes the runs whose result
//! is not yet cached, each run goes through the block registry (`load_text`, then the
//! block's `sim`), and each passing result is written to `<out>/runs/<hash>.json` the
//! moment it finishes (temp file, then rename), so an interrupted study resumes where
//! it stopped. A run that fails (bad outcome, model error or panic) is reported with
//! its error and does not stop the others; its failure is recorded beside
//! (`<hash>.failed.json`, for `study report`) but never reused: the next call runs it again.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use golden::block::{SimArgs, SimError};
use serde::{Deserialize, Serialize};

use super::plan::{Plan, Run};
use crate::blocks::load_text;

/// A run's result: its statistics (the block's JSON) and how it ended.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunResult {
    pub hash: String,
    pub label: String,
    /// Why the run failed: a check failed, or it could not run (bad input, model error,
    /// panic). `None`: every check passed.
    pub failure: Option<String>,
    pub json: serde_json::Value,
}

/// What `execute` did.
#[derive(Debug)]
pub struct Execution {
    /// By run index; `None`: not run (left for a later call, see `limit`).
    pub results: Vec<Option<RunResult>>,
    pub executed: usize,
    pub reused: usize,
    pub failed: usize,
    /// Time spent inside the runs themselves (summed over workers).
    pub run_time: Duration,
    pub wall: Duration,
}

pub struct ExecOptions {
    pub out: PathBuf,
    pub jobs: usize,
    /// Run at most this many uncached runs, then stop (the rest stay missing).
    pub limit: Option<usize>,
    /// Draw a progress bar (on a terminal).
    pub progress: bool,
}

/// Where a run's result is cached.
pub fn cache_file(out: &Path, r: &Run) -> PathBuf {
    out.join("runs").join(format!("{}.json", r.hash))
}

/// A cached result, if there is a readable one for this run.
pub fn cached(out: &Path, r: &Run) -> Option<RunResult> {
    let text = std::fs::read_to_string(cache_file(out, r)).ok()?;
    let res: RunResult = serde_json::from_str(&text).ok()?;
    (res.hash == r.hash && res.failure.is_none()).then_some(res)
}

/// Run one run through the registry, catching a panicking model.
pub fn run_one(r: &Run) -> RunResult {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        if let Some(designs) = &r.synth {
            return synthesize(r, designs).map(|json| golden::block::SimOutcome { text: String::new(), failure: None, json });
        }
        let cfg = load_text(&r.config_path, &r.text).map_err(|e| e.to_string())?;
        let mut args = SimArgs { seed: r.seed, check: r.check, launch: r.launch_path.clone(), max_cycles: r.max_cycles, ..Default::default() };
        cfg.simulate(&mut args).map_err(|e| match e {
            SimError::Input(m) | SimError::Failed(m) => m,
        })
    }));
    let (failure, json) = match outcome {
        Ok(Ok(o)) => (o.failure, o.json),
        Ok(Err(m)) => (Some(m), serde_json::Value::Null),
        Err(p) => {
            let m = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "unknown panic".into());
            (Some(format!("the model panicked: {m}")), serde_json::Value::Null)
        }
    };
    RunResult { hash: r.hash.clone(), label: r.label(), failure, json }
}

/// A synthesis run: generate the config's RTL, synthesize each design with yosys (a
/// report of the identical design by the same yosys is reused, see
/// [`verif::synth::synth_cached`]) and count each `count` times into `total`.
fn synthesize(r: &Run, designs: &crate::study::def::Synth) -> Result<serde_json::Value, String> {
    let cfg = load_text(&r.config_path, &r.text).map_err(|e| e.to_string())?;
    let generated = cfg.generate().ok_or_else(|| format!("a {} config generates no RTL", cfg.title()))?.map_err(|e| e.to_string())?;
    let mut per = serde_json::Map::new();
    let (mut cells, mut flops, mut transistors) = (0u64, 0u64, 0u64);
    let mut yosys = String::new();
    for (dir, count) in designs {
        let d = generated.design(dir).ok_or_else(|| format!("the config generates no design `{dir}`"))?;
        let (rep, _) = verif::synth::synth_cached(d).map_err(|e| e.to_string())?;
        cells += count * rep.cells;
        flops += count * rep.flops;
        transistors += count * rep.transistors;
        per.insert(dir.clone(), serde_json::json!({ "top": rep.top, "count": count, "cells": rep.cells, "flip_flops": rep.flops, "transistors": rep.transistors }));
        yosys = rep.yosys;
    }
    Ok(serde_json::json!({ "yosys": yosys, "designs": per, "total": { "cells": cells, "flip_flops": flops, "transistors": transistors } }))
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Where a run's last failure is recorded.
pub fn failure_file(out: &Path, r: &Run) -> PathBuf {
    out.join("runs").join(format!("{}.failed.json", r.hash))
}

/// Save a result under its hash: a pass as the cached result, a failure as the run's
/// failure record (each replaces the other).
pub fn store(out: &Path, r: &Run, res: &RunResult) -> std::io::Result<()> {
    let (keep, stale) = if res.failure.is_none() { (cache_file(out, r), failure_file(out, r)) } else { (failure_file(out, r), cache_file(out, r)) };
    std::fs::create_dir_all(keep.parent().expect("runs/"))?;
    write_atomic(&keep, (serde_json::to_string(res).expect("results serialize") + "\n").as_bytes())?;
    match std::fs::remove_file(&stale) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Every run's result as far as the output directory knows it: cached passes, recorded
/// failures, `None` for runs that have not finished (`study report`).
pub fn collect(plan: &Plan, out: &Path) -> Vec<Option<RunResult>> {
    plan.runs
        .iter()
        .map(|r| {
            cached(out, r).or_else(|| {
                let res: RunResult = serde_json::from_str(&std::fs::read_to_string(failure_file(out, r)).ok()?).ok()?;
                (res.hash == r.hash).then_some(res)
            })
        })
        .collect()
}

/// Run every run of the plan that has no cached result, `jobs` at a time.
pub fn execute(plan: &Plan, opts: &ExecOptions) -> std::io::Result<Execution> {
    let t0 = Instant::now();
    let mut results: Vec<Option<RunResult>> = plan.runs.iter().map(|r| cached(&opts.out, r)).collect();
    let reused = results.iter().filter(|r| r.is_some()).count();
    let mut todo: Vec<&Run> = plan.runs.iter().filter(|r| results[r.index].is_none()).collect();
    if let Some(l) = opts.limit {
        todo.truncate(l);
    }
    std::fs::create_dir_all(opts.out.join("runs"))?;

    let bar = if opts.progress { indicatif::ProgressBar::new(todo.len() as u64) } else { indicatif::ProgressBar::hidden() };
    bar.set_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} runs  {elapsed} elapsed, ETA {eta}  {msg}").expect("template"));
    bar.set_message(format!("{} jobs", opts.jobs));
    bar.enable_steady_tick(Duration::from_millis(500));

    let (mut executed, mut failed, mut run_time) = (0, 0, Duration::ZERO);
    let mut io_error = None;
    let timed = |r: &&Run| {
        let t = Instant::now();
        (run_one(r), t.elapsed())
    };
    crate::pool::run(&todo, opts.jobs, timed, |i, (res, took)| {
        let index = todo[i].index;
        let r = &plan.runs[index];
        executed += 1;
        run_time += took;
        if let Some(m) = &res.failure {
            failed += 1;
            bar.suspend(|| eprintln!("FAIL run {index} ({}): {m}", r.label()));
        }
        if let Err(e) = store(&opts.out, r, &res) {
            io_error.get_or_insert(e);
        }
        results[index] = Some(res);
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(e) = io_error {
        return Err(e);
    }
    Ok(Execution { results, executed, reused, failed, run_time, wall: t0.elapsed() })
}
