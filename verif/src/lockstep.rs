//! Lockstep co-simulation: the RTL and a golden-model bench, cycle by cycle.
//!
//! Each cycle the bench drives the inputs and returns the golden model's outputs;
//! the RTL gets the same inputs; every output port is compared. Cycle 0 must assert
//! reset (the state before it is undefined in RTL), so outputs are compared from
//! cycle 1 on. The first mismatch stops the run with the cycle, every differing
//! port (field index, both values), the seed, and a VCD of the RTL re-run up to the
//! failing cycle.

use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

use golden::invariant::Violation;

use crate::frame::{Frame, Layout, Slot};
use crate::rtl::Rtl;

/// The golden side of a co-simulation (normally a [`crate::bench::ModelBench`]).
pub trait Bench {
    /// Drive cycle `cycle`: write this cycle's inputs to `inputs` and the golden
    /// model's outputs (for these inputs, before the edge) to `expected`, then take the
    /// golden model through the clock edge. Cycle 0 must assert reset. An invariant
    /// broken on the golden side is returned as the scoreboard's finding.
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation>;

    /// Whether a scoreboard watches the golden side (false under `--no-check`).
    fn checked(&self) -> bool {
        false
    }
}

/// Run options.
#[derive(Debug, Clone)]
pub struct Options {
    pub cycles: u64,
    /// Stimulus seed (reported; the bench factory uses it).
    pub seed: u64,
    /// Write a VCD of the whole RTL run here.
    pub vcd: Option<PathBuf>,
    /// Where the VCD of a failing run goes (None: no VCD on mismatch).
    pub mismatch_dir: Option<PathBuf>,
    /// Cycles before the mismatch kept in its VCD.
    pub window: u64,
}

impl Options {
    pub fn new(cycles: u64, seed: u64) -> Options {
        Options { cycles, seed, vcd: None, mismatch_dir: Some(default_mismatch_dir()), window: 200 }
    }

    /// No waveform on a mismatch: for runs that expect one (planted bugs), where
    /// writing it would cost a traced build of a model built without `--trace`.
    pub fn without_waveform(self) -> Options {
        Options { mismatch_dir: None, ..self }
    }
}

/// `target/cosim-failures` next to the build cache.
pub fn default_mismatch_dir() -> PathBuf {
    crate::verilator::cache_root().with_file_name("cosim-failures")
}

/// A passing run.
#[derive(Debug, Clone)]
pub struct Report {
    pub top: String,
    pub cycles: u64,
    pub seconds: f64,
    pub seed: u64,
    /// A scoreboard watched the run.
    pub checked: bool,
}

impl Report {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

/// One differing output port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortDiff {
    pub port: String,
    /// First differing field and how many fields differ, for multi-field ports.
    pub field: Option<(usize, usize, u32)>,
    pub rtl: String,
    pub golden: String,
}

impl fmt::Display for PortDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Some((i, n, of)) => {
                write!(f, "{}[field {i} of {of}] RTL {} golden {}{}", self.port, self.rtl, self.golden, if n > 1 { format!(" ({n} fields differ)") } else { String::new() })
            }
            None => write!(f, "{} RTL {} golden {}", self.port, self.rtl, self.golden),
        }
    }
}

/// The first cycle at which RTL and golden model disagree.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub top: String,
    pub cycle: u64,
    pub seed: u64,
    pub diffs: Vec<PortDiff>,
    pub vcd: Option<PathBuf>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "MISMATCH in {} at cycle {} (seed {}):", self.top, self.cycle, self.seed)?;
        for d in &self.diffs {
            writeln!(f, "  {d}")?;
        }
        match &self.vcd {
            Some(p) => write!(f, "  RTL waveform up to the failing cycle: {}", p.display()),
            None => write!(f, "  (no waveform written)"),
        }
    }
}

/// Why a co-simulation failed.
#[derive(Debug, thiserror::Error)]
pub enum CosimError {
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
    #[error("golden-model invariant violated in {top} at cycle {cycle} (seed {seed}): {message}")]
    Invariant { top: String, cycle: u64, seed: u64, message: String },
    /// The design cannot be co-simulated as asked (unknown design kind, a bench that
    /// does not fit the design, a trace file that cannot be written).
    #[error("{0}")]
    Setup(String),
}

fn hex_field(frame: &Frame, slot: &Slot, i: usize) -> String {
    let fw = slot.field_width();
    if fw <= 64 {
        format!("{:#x}", frame.field(slot, i))
    } else {
        // a field wider than 64 bits (a whole wide scalar port)
        format!("{:#x}", frame.big(slot))
    }
}

/// Compare every output port; describe the ones that differ.
pub fn diff(layout: &Layout, rtl: &Frame, golden: &Frame) -> Vec<PortDiff> {
    let mut out = Vec::new();
    for s in &layout.outputs {
        if rtl.slice(s) == golden.slice(s) {
            continue;
        }
        if s.fields > 1 && s.field_width() <= 64 {
            let differing: Vec<usize> = (0..s.fields as usize).filter(|&i| rtl.field(s, i) != golden.field(s, i)).collect();
            let i = differing[0];
            out.push(PortDiff { port: s.name.clone(), field: Some((i, differing.len(), s.fields)), rtl: hex_field(rtl, s, i), golden: hex_field(golden, s, i) });
        } else {
            out.push(PortDiff { port: s.name.clone(), field: None, rtl: format!("{:#x}", rtl.big(s)), golden: format!("{:#x}", golden.big(s)) });
        }
    }
    out
}

/// The lockstep loop, stepping one cycle at a time (directed tests use `step` to
/// look at the RTL's outputs themselves).
pub struct Lockstep<'r, B: Bench> {
    pub rtl: &'r mut Rtl,
    pub bench: B,
    pub inputs: Frame,
    pub expected: Frame,
    pub actual: Frame,
    pub cycle: u64,
}

impl<'r, B: Bench> Lockstep<'r, B> {
    pub fn new(rtl: &'r mut Rtl, bench: B) -> Self {
        let l = &rtl.layout;
        let (inputs, expected, actual) = (Frame::zeroed(l.in_words), Frame::zeroed(l.out_words), Frame::zeroed(l.out_words));
        Lockstep { rtl, bench, inputs, expected, actual, cycle: 0 }
    }

    /// One cycle; `Err` with the differing ports, or the invariant message.
    pub fn step(&mut self) -> Result<(), StepError> {
        self.bench.cycle(self.cycle, &mut self.inputs, &mut self.expected).map_err(StepError::Invariant)?;
        self.rtl.cycle(&self.inputs, &mut self.actual);
        let c = self.cycle;
        self.cycle += 1;
        if c > 0 && self.actual.words != self.expected.words {
            return Err(StepError::Diff(diff(&self.rtl.layout, &self.actual, &self.expected)));
        }
        Ok(())
    }
}

/// What went wrong in one step.
#[derive(Debug, Clone)]
pub enum StepError {
    Diff(Vec<PortDiff>),
    Invariant(Violation),
}

/// Run `opts.cycles` cycles of lockstep co-simulation with a bench from `make`.
/// On a mismatch the run is repeated with a fresh model and bench (same seed) up to
/// the failing cycle, writing the RTL's VCD of the last `opts.window` cycles.
pub fn run<B: Bench>(rtl: &mut Rtl, make: impl Fn() -> B, opts: &Options) -> Result<Report, CosimError> {
    let top = rtl.layout.top.clone();
    if let Some(v) = &opts.vcd {
        if let Some(d) = v.parent() {
            let _ = std::fs::create_dir_all(d);
        }
        if !rtl.has_trace {
            *rtl = rtl.traced().map_err(|e| CosimError::Setup(format!("{top}: the traced model for {}: {e}", v.display())))?;
        }
        rtl.trace_open(v).map_err(|e| CosimError::Setup(format!("{top}: {e}")))?;
    }
    let t0 = Instant::now();
    let (failure, checked) = {
        let mut ls = Lockstep::new(rtl, make());
        let checked = ls.bench.checked();
        let mut failure = None;
        while ls.cycle < opts.cycles {
            if let Err(e) = ls.step() {
                failure = Some((ls.cycle - 1, e));
                break;
            }
        }
        (failure, checked)
    };
    let seconds = t0.elapsed().as_secs_f64();
    if opts.vcd.is_some() {
        rtl.trace_close();
    }
    match failure {
        None => Ok(Report { top, cycles: opts.cycles, seconds, seed: opts.seed, checked }),
        Some((cycle, StepError::Invariant(v))) => Err(CosimError::Invariant { top, cycle, seed: opts.seed, message: v.to_string() }),
        Some((cycle, StepError::Diff(diffs))) => {
            let vcd = opts.mismatch_dir.as_ref().and_then(|dir| replay_with_trace(rtl, &make, cycle, opts, dir));
            Err(CosimError::Mismatch(Box::new(Mismatch { top, cycle, seed: opts.seed, diffs, vcd })))
        }
    }
}

/// Replay a failed run up to its failing cycle with a waveform of the last
/// `opts.window` cycles; a model built without `--trace` is replaced by its traced twin
/// (one more build, cached) so that a failure always comes with its VCD.
fn replay_with_trace<B: Bench>(rtl: &mut Rtl, make: &impl Fn() -> B, fail: u64, opts: &Options, dir: &std::path::Path) -> Option<PathBuf> {
    std::fs::create_dir_all(dir).ok()?;
    let path = dir.join(format!("{}-seed{}-cycle{}.vcd", rtl.layout.top, opts.seed, fail));
    if rtl.has_trace {
        rtl.renew();
    } else {
        eprintln!("{}: mismatch at cycle {fail}; building the traced model for its waveform", rtl.layout.top);
        *rtl = rtl.traced().map_err(|e| eprintln!("{}: no waveform: {e}", rtl.layout.top)).ok()?;
    }
    let start = fail.saturating_sub(opts.window);
    let mut ls = Lockstep::new(rtl, make());
    while ls.cycle <= fail {
        if ls.cycle == start {
            ls.rtl.trace_open(&path).ok()?;
        }
        let _ = ls.step();
    }
    ls.rtl.trace_close();
    Some(path)
}

/// Drive the RTL alone with recorded input frames (the Verilator-only loop the
/// harness is measured against). Returns seconds taken.
pub fn replay_inputs(rtl: &mut Rtl, frames: &[Frame]) -> f64 {
    let mut out = Frame::zeroed(rtl.layout.out_words);
    let t0 = Instant::now();
    for f in frames {
        rtl.cycle(f, &mut out);
    }
    std::hint::black_box(&out);
    t0.elapsed().as_secs_f64()
}

/// Record `cycles` input frames from a bench (golden model included).
pub fn record_inputs<B: Bench>(layout: &Layout, mut bench: B, cycles: u64) -> Result<Vec<Frame>, Violation> {
    let mut frames = Vec::with_capacity(cycles as usize);
    let mut inp = Frame::zeroed(layout.in_words);
    let mut exp = Frame::zeroed(layout.out_words);
    for c in 0..cycles {
        bench.cycle(c, &mut inp, &mut exp)?;
        frames.push(inp.clone());
    }
    Ok(frames)
}
