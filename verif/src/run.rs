//! Co-simulation of a block from its config: build the RTL, pick the block's bench
//! and stimulus, run in lockstep. One entry point for the CLI and the tests.

use std::path::PathBuf;
use std::time::Instant;

use golden::config::{BlockConfig, ConfigFile};
use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use hdl_gen::design::Design;

use crate::gpucc::NetBench;
use crate::lockstep::{self, CosimError, Options};
use crate::rtl::{LoadError, Rtl};
use crate::verilator::{self, BuildError, Opt};

/// What to run.
#[derive(Debug, Clone)]
pub struct CosimRequest {
    pub cycles: u64,
    pub seed: u64,
    /// Write a VCD of the whole run.
    pub trace: Option<PathBuf>,
    pub opt: Opt,
    /// Run the golden-side invariant scoreboards too.
    pub check: bool,
}

/// A passing run.
#[derive(Debug, Clone)]
pub struct CosimSummary {
    pub top: String,
    pub cycles: u64,
    pub seconds: f64,
    pub build_seconds: f64,
    pub compiled: bool,
    pub seed: u64,
}

impl CosimSummary {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CosimFailure {
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Cosim(#[from] CosimError),
}

/// Build `design` and co-simulate it against the golden model of `cfg`.
pub fn cosim(cfg: &ConfigFile, design: &Design, req: &CosimRequest) -> Result<CosimSummary, CosimFailure> {
    let t0 = Instant::now();
    let built = verilator::build(design, req.opt)?;
    let build_seconds = t0.elapsed().as_secs_f64();
    let mut rtl = Rtl::load(&built)?;
    let mut opts = Options::new(req.cycles, req.seed);
    opts.vcd = req.trace.clone();
    let layout = built.layout.clone();
    let report = match &cfg.block {
        BlockConfig::Gpucc(c) => lockstep::run(
            &mut rtl,
            || {
                let b = NetBench::new(c, &layout, NetTraffic::new(c, req.seed, TrafficParams::default()));
                if req.check {
                    b
                } else {
                    b.without_checker()
                }
            },
            &opts,
        )?,
        BlockConfig::Noc(c) => crate::noc::cosim(c, design, &mut rtl, &opts)?,
    };
    Ok(CosimSummary {
        top: report.top,
        cycles: report.cycles,
        seconds: report.seconds,
        build_seconds,
        compiled: built.compiled,
        seed: req.seed,
    })
}
