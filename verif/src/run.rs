//! Co-simulation of one generated design: build its RTL, choose its bench from the
//! manifest's design kind, run in lockstep. One entry point for the CLI and the tests.

use std::path::PathBuf;
use std::time::Instant;

use golden::block::ConfigFile;
use hdl_gen::design::Design;
use hdl_gen::Generate;

use crate::frame::Layout;
use crate::lockstep::{self, Bench, CosimError, Options};
use crate::rtl::{LoadError, Rtl};
use crate::verilator::{self, BuildError, BuildOpts};

/// How a bench is made: the stimulus seed and whether the scoreboard runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchOptions {
    pub seed: u64,
    /// Run the golden-side invariant scoreboard (`--no-check` turns it off).
    pub check: bool,
}

/// A block's co-simulation: the bench of each kind of design its generator writes
/// (implemented on the block's marker type from `golden`).
pub trait Cosim: Generate {
    /// The bench of `design` (the manifest's design kind) for config `cfg`, packing
    /// the ports of `layout`. Errors say why the design and the bench do not fit.
    fn bench(cfg: &Self::Config, design: &Self::Design, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String>;
}

/// What to run.
#[derive(Debug, Clone)]
pub struct CosimRequest {
    pub cycles: u64,
    pub seed: u64,
    /// Write a VCD of the whole run.
    pub trace: Option<PathBuf>,
    /// How the Verilated model is built (optimisation, threads).
    pub build: BuildOpts,
    /// Run the golden-side invariant scoreboards too.
    pub check: bool,
}

impl CosimRequest {
    /// The build this run needs: `build`, traced when a waveform is asked for.
    pub fn build_opts(&self) -> BuildOpts {
        if self.trace.is_some() {
            self.build.traced()
        } else {
            self.build
        }
    }
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
    /// A scoreboard watched the golden side.
    pub checked: bool,
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

/// The bench factory of `design` (checked once, so a design the bench does not fit
/// fails before the Verilator build).
pub fn bench_factory<'a, B: Cosim>(cfg: &'a B::Config, design: &Design, layout: &'a Layout, opts: BenchOptions) -> Result<impl Fn() -> Box<dyn Bench> + 'a, CosimError> {
    if design.manifest.block != B::TABLE {
        return Err(CosimError::Setup(format!("{}: a `{}` design cannot be co-simulated as [{}]", design.manifest.top, design.manifest.block, B::TABLE)));
    }
    let kind: B::Design = design.kind().map_err(CosimError::Setup)?;
    B::bench(cfg, &kind, layout, &opts).map_err(CosimError::Setup)?;
    Ok(move || B::bench(cfg, &kind, layout, &opts).expect("the bench was built once already"))
}

/// Build `design` and co-simulate it against the golden model of `cfg`.
pub fn cosim<B: Cosim>(cfg: &ConfigFile<B::Config>, design: &Design, req: &CosimRequest) -> Result<CosimSummary, CosimFailure> {
    let layout = Layout::from_manifest(&design.manifest).map_err(|e| CosimError::Setup(e.to_string()))?;
    let make = bench_factory::<B>(&cfg.config, design, &layout, BenchOptions { seed: req.seed, check: req.check })?;
    let t0 = Instant::now();
    let built = verilator::build(design, req.build_opts())?;
    let build_seconds = t0.elapsed().as_secs_f64();
    let mut rtl = Rtl::load(&built)?;
    let mut opts = Options::new(req.cycles, req.seed);
    opts.vcd = req.trace.clone();
    let report = lockstep::run(&mut rtl, make, &opts)?;
    Ok(CosimSummary { top: report.top, cycles: report.cycles, seconds: report.seconds, build_seconds, compiled: built.compiled, seed: req.seed, checked: report.checked })
}
