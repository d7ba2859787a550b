//! The golden GPU model: SIMT cores running a PTX subset, L1 caches with coalescing and
//! MSHRs, LLC slices and DRAM at memory nodes, and any [`crate::network::Network`]
//! between them (ARCHITECTURE.md, "The golden GPU model").
//!
//! Entry points: [`GpuConfig::load`], [`Launch::load`], [`sim::run`]. The blocks, one
//! module each: [`core`] (the SM pipeline) with [`simt`], [`scoreboard`],
//! [`scheduler`], [`fu`], [`shmem`], [`coalesce`] and [`l1`]; [`mempart`] (memory
//! node) with [`llc`] and [`dram`]; [`mapping`] (address interleaving); [`cta`]
//! (dispatch and occupancy); [`net`] (network construction); [`hooks`] (where blocks
//! attach: the memory partition, the SM's issue stage, the SM's network port, the L2);
//! [`exec`] and [`memspace`] (functional execution); [`ptx`] (the kernel language).

pub mod coalesce;
pub mod config;
pub mod core;
pub mod cta;
pub mod dram;
pub mod exec;
pub mod fu;
pub mod hooks;
pub mod host;
pub mod l1;
pub mod launch;
pub mod llc;
pub mod llc_apps;
pub mod mapping;
pub mod mempart;
pub mod memspace;
pub mod net;
pub mod npy;
pub mod occupancy;
pub mod predecode;
pub mod printf;
pub mod ptx;
pub mod reference_inputs;
pub mod scheduler;
pub mod scoreboard;
pub mod shmem;
pub mod sim;
pub mod simt;
pub mod stats;
pub mod suite;
pub mod txn;
pub mod workloads;

pub use config::GpuConfig;
pub use launch::{Launch, LaunchError};
pub use sim::{run, RunAhead, RunOptions, SimError};
pub use stats::GpuReport;

use crate::block::{self, Block, ConfigFile, SimArgs, SimError as BlockSimError, SimFlag, SimOutcome, Simulate};
use crate::config::FieldError;

/// The golden GPU model as the framework sees it: a whole-file config (`[gpu]`,
/// `[core]`, `[l1]`, `[llc]`, `[dram]`, `[mapping]`, `[network]`) that runs launch files.
/// It has no RTL of its own; blocks attach to it through its hooks.
pub struct GpuModel;

impl Block for GpuModel {
    const TABLE: &'static str = "gpu";
    const TITLE: &'static str = "golden GPU model";
    const WHOLE_FILE: bool = true;
    type Raw = config::RawFile;
    type Config = GpuConfig;

    /// The GPU's fields, then the network (one the golden NoC can build, validated as
    /// a `[noc]` table is) and the hooks' own parameters (checked by their blocks).
    fn validate(raw: config::RawFile) -> Result<GpuConfig, FieldError> {
        let cfg = GpuConfig::from_raw(raw)?;
        net::noc_config(&cfg.network)?;
        hooks::build(&cfg)?;
        Ok(cfg)
    }
}

impl GpuConfig {
    /// Read, parse and validate a GPU config file.
    pub fn load(path: &std::path::Path) -> Result<GpuConfig, crate::config::ConfigError> {
        Self::parse(path, &crate::config::read_text(path)?)
    }

    /// Parse and validate config text; `path` is used for messages.
    pub fn parse(path: &std::path::Path, text: &str) -> Result<GpuConfig, crate::config::ConfigError> {
        let f = block::parse::<GpuModel>(path, text)?;
        Ok(GpuConfig { path: f.path, ..f.config })
    }
}

impl Simulate for GpuModel {
    /// (`--out`: the CLI writes the occupancy trace there, `[stats] occupancy_trace`.)
    const FLAGS: &'static [SimFlag] = &[SimFlag::Launch, SimFlag::MaxCycles, SimFlag::Dump, SimFlag::OutDir];

    /// The kernels of a launch file, checked against their reference.
    fn simulate(cfg: &ConfigFile<GpuConfig>, args: &mut SimArgs<'_>) -> Result<SimOutcome, BlockSimError> {
        let Some(launch) = &args.launch else {
            return Err(BlockSimError::Input(format!("{}: a GPU config needs a launch file (usage: gpuforge sim <gpu config> <launch.toml>)", cfg.path.display())));
        };
        let l = Launch::load(launch).map_err(|e| BlockSimError::Input(e.to_string()))?;
        let mut gpu_cfg = cfg.config.clone();
        gpu_cfg.path = cfg.path.clone();
        let t0 = std::time::Instant::now();
        let mut status = args.progress.take();
        let mut progress = |cycles: u64, insts: u64| {
            if let Some(p) = status.as_mut() {
                let s = t0.elapsed().as_secs_f64().max(1e-9);
                p(&format!("{cycles} cycles, {insts} warp instructions ({:.2} M/s)", insts as f64 / s / 1e6));
            }
        };
        // every run has a cycle bound: a mutated kernel may loop for ever
        let max_cycles = args.max_cycles.unwrap_or(sim::DEFAULT_MAX_CYCLES);
        let opts = RunOptions { seed: args.seed, progress: Some(&mut progress), max_cycles: Some(max_cycles), ..Default::default() };
        let gpu = sim::Gpu::new(&gpu_cfg).map_err(|e| BlockSimError::Input(format!("{}: {e}", cfg.path.display())))?;
        let (r, finals) = sim::run_capture(gpu, &l, opts).map_err(|e| match e {
            SimError::BadLaunch(e) => BlockSimError::Input(e.to_string()),
            SimError::Network(_) | SimError::Hooks(_) | SimError::DoesNotFit { .. } => BlockSimError::Input(format!("{}: {}: {e}", cfg.path.display(), launch.display())),
            e => BlockSimError::Failed(format!("error: {e}")),
        })?;
        let mut text = r.to_string();
        if let Some(dir) = &args.dump {
            let files = npy::dump(dir, &finals).map_err(|e| BlockSimError::Failed(format!("error: --dump {}: {e}", dir.display())))?;
            text.push_str(&format!("\ndumped {} buffers to {} (<name>.bin raw little-endian, <name>.npy)", files.len() / 2, dir.display()));
        }
        let mut failure = r.first_failure().map(|m| format!("FAIL {}: {m}", launch.display()));
        if gpu_cfg.core.sync.barrier != config::BarrierMode::Drain {
            // No-Barriers (tfb_bdib.md §4.3): the barriers the results depend on were
            // removed on purpose; a mismatch is reported, not a failed run
            if let Some(m) = failure.take() {
                text.push_str(&format!(
                    "
not a failure with core.sync.barrier = {:?} (barriers removed): {m}",
                    gpu_cfg.core.sync.barrier
                ));
            }
        }
        Ok(SimOutcome { text, json: block::to_json(&r), failure })
    }
}
