//! `gpuforge`: the command line. It parses arguments, goes through the block registry
//! (`gpuforge::blocks`) and maps errors to exit codes (2 for bad input, 1 for a failed
//! check); it holds no hardware or model logic of its own.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use golden::block::{SimArgs, SimError};
use gpuforge::blocks::{load, rtl_tables};
use gpuforge::outcome::{io_fail, Fail, Res};
use gpuforge::registry::Loaded;
use gpuforge::study::cli::StudyCmd;
use hdl_gen::design::{Design, GenError, Generated};
use verif::run::{CosimFailure, CosimRequest};
use verif::verilator::{BuildOpts, Opt};

/// gpuforge: Verilog, golden models and co-simulation for GPU micro-architecture
/// proposals (GPU-CC, MACRO-NoC, ...).
///
/// Typical use: `gpuforge gen configs/gpucc/gpucc_paper_sm.toml` writes the Verilog
/// library, a filelist and a JSON manifest per design to rtl_out/gpucc_paper_sm/;
/// `gpuforge cosim configs/gpucc/gpucc_paper_sm.toml` proves it cycle-equal to the golden
/// model under random traffic; `gpuforge sim configs/gpucc/gpucc_paper_sm.toml` runs the
/// paper's experiment on the golden model. `gpuforge blocks` lists the blocks.
#[derive(Parser)]
#[command(name = "gpuforge", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Validate a config, write its Verilog library, filelists and manifests.
    ///
    /// Output goes to rtl_out/<name>/ (name = the config's `name`), replacing what is
    /// there; nothing is written if the config is invalid.
    Gen {
        /// Block config (TOML), e.g. configs/gpucc/gpucc_small.toml; or a directory: every
        /// config under it with RTL (`gpuforge gen configs` regenerates all of rtl_out/).
        config: PathBuf,
        /// Output directory (default rtl_out/<name>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Do not write: exit 1 if the output directory differs from what would be written.
        #[arg(long)]
        check: bool,
        /// Write only this design (its directory or top module), standalone: its modules
        /// and a filelist in --out, no library.
        #[arg(long, requires = "out")]
        design: Option<String>,
    },
    /// Run `verilator --lint-only -Wall -f <filelist>` on generated designs.
    Lint {
        /// A config (generated into a scratch directory first), a preset or design
        /// directory, or a directory of loose Verilog files.
        target: PathBuf,
        /// Designs linted at a time, one Verilator each (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Synthesize with yosys (`synth`, `check -assert`), fail on latches, save a cell report.
    Synth {
        /// A config or preset directory (its designs marked for synthesis) or one design directory.
        target: PathBuf,
        /// Where to write the JSON cell report (default: next to yosys' work files; one design only).
        #[arg(long)]
        report: Option<PathBuf>,
        /// Designs synthesized at a time, one yosys each (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Co-simulate the generated Verilog (Verilator) against the golden model, cycle by cycle.
    Cosim {
        config: PathBuf,
        /// Co-simulate only this design (its directory, e.g. `routers/hinge`, or its top module).
        #[arg(long)]
        design: Option<String>,
        /// Cycles to run.
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        /// Stimulus seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write a VCD of the whole RTL run (default file cosim_out/<top>-seed<S>.vcd).
        #[arg(long, num_args = 0..=1, default_missing_value = "")]
        trace: Option<PathBuf>,
        /// C++ optimisation of the Verilated model: debug (-O0, quickest to build: short
        /// runs of big designs), quick (-O1), fast (-O2, long runs).
        #[arg(long, value_enum, default_value_t = OptArg::Quick)]
        opt: OptArg,
        /// Threads of the Verilated model (`verilator --threads`). On 2 cores a lockstep
        /// run is fastest with 1: see the README's Speed section.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=BuildOpts::MAX_THREADS as i64))]
        threads: u32,
        /// Skip the golden-side invariant scoreboard (faster; lockstep comparison still runs).
        #[arg(long)]
        no_check: bool,
    },
    /// Run the golden model alone.
    ///
    /// GPU-CC: the config's [gpucc.app] mapping. NoC: synthetic traffic, optionally a
    /// latency-throughput sweep. GPU (configs/gpu/*.toml): the kernel(s) of a launch
    /// file, e.g. `gpuforge sim configs/gpu/macro_16.toml workloads/vecadd/vecadd.toml`.
    /// A flag the block does not use is refused (exit 2).
    Sim {
        config: PathBuf,
        /// GPU model: the launch description (kernel, grid, buffers, checks).
        launch: Option<PathBuf>,
        /// Stop after this many cycles (GPU model, GPU-CC).
        #[arg(long)]
        max_cycles: Option<u64>,
        /// NoC: injection rates to sweep (flits/node/cycle), e.g. 0.02,0.05,0.1.
        #[arg(long, value_delimiter = ',')]
        sweep: Vec<f64>,
        /// NoC: directory for the sweep's CSV, JSON and SVG plot; GPU model with `[stats]
        /// occupancy_trace`: for the trace's CSV and SVG (`--out`, as `gen` and `study run`
        /// spell it, works too).
        #[arg(long, visible_alias = "out")]
        out_dir: Option<PathBuf>,
        /// Input-data seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write every statistic as JSON to this file.
        #[arg(long)]
        json: Option<PathBuf>,
        /// GPU-CC: run the invariant scoreboards alongside (slower).
        #[arg(long)]
        check: bool,
        /// GPU model: after the run, write every buffer to DIR as <name>.bin (raw
        /// little-endian) and <name>.npy (NumPy).
        #[arg(long, value_name = "DIR")]
        dump: Option<PathBuf>,
    },
    /// List the registered blocks and their config tables.
    Blocks,
    /// Reproduce a paper's experiments: the runs of a study file (studies/<name>.toml),
    /// in parallel, cached and resumable, with the paper's numbers beside ours.
    Study {
        #[command(subcommand)]
        cmd: StudyCmd,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum OptArg {
    Debug,
    Quick,
    Fast,
}

fn main() -> ExitCode {
    // a closed pipe (`gpuforge gen ... | head`) ends the program quietly
    reset_sigpipe();
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Gen { config, out, check, design } => gen(&config, out, check, design),
        Cmd::Lint { target, jobs } => gpuforge::pool::jobs(jobs).and_then(|jobs| lint(&target, jobs)),
        Cmd::Synth { target, report, jobs } => gpuforge::pool::jobs(jobs).and_then(|jobs| synth(&target, report, jobs)),
        Cmd::Cosim { config, design, cycles, seed, trace, opt, threads, no_check } => {
            let opt = match opt {
                OptArg::Debug => Opt::Debug,
                OptArg::Quick => Opt::Quick,
                OptArg::Fast => Opt::Fast,
            };
            cosim(&config, design, cycles, seed, trace, BuildOpts { opt, threads, trace: false }, !no_check)
        }
        Cmd::Sim { config, launch, seed, json, max_cycles, sweep, out_dir, check, dump } => sim(&config, seed, check, sweep, out_dir, launch, max_cycles, json, dump),
        Cmd::Study { cmd } => gpuforge::study::cli::run(cmd),
        Cmd::Blocks => {
            for b in gpuforge::blocks::BLOCKS {
                println!("[{:<6}] {}{}", b.table, b.title, if b.rtl { "" } else { " (golden model only)" });
            }
            Ok(())
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail::Input(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(2)
        }
        Err(Fail::Check(m)) => {
            eprintln!("{m}");
            ExitCode::from(1)
        }
    }
}

#[cfg(unix)]
fn reset_sigpipe() {
    // SAFETY: restores the default disposition of SIGPIPE (Rust ignores it, so a closed
    // pipe made `println!` panic) before any other thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn reset_sigpipe() {}

/// The config's preset, generated (exit 2 for a block without RTL or a legal config
/// the generator cannot build).
fn generate(cfg: &dyn Loaded) -> Result<Generated, Fail> {
    match cfg.generate() {
        None => Err(Fail::Input(format!("{}: {} has no RTL to generate (configs with RTL: {})", cfg.path().display(), cfg.title(), rtl_tables()))),
        Some(Ok(g)) => Ok(g),
        Some(Err(e @ GenError::Unsupported { .. })) => Err(Fail::Input(format!("{}: {e}", cfg.path().display()))),
        Some(Err(e)) => Err(Fail::Check(e.to_string())),
    }
}

/// One design of a preset by directory or top module, or exit 2 listing them.
fn pick<'g>(g: &'g Generated, name: &str) -> Result<&'g Design, Fail> {
    g.design(name).ok_or_else(|| {
        let all = g.designs.iter().map(|d| format!("{} ({})", d.dir, d.manifest.top)).collect::<Vec<_>>().join(", ");
        Fail::Input(format!("--design {name}: no such design in preset {} (allowed: {all})", g.preset))
    })
}

/// Every `.toml` file under `dir`, sorted.
fn configs_under(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            v.extend(configs_under(&p));
        } else if p.extension().is_some_and(|x| x == "toml") {
            v.push(p);
        }
    }
    v.sort();
    v
}

fn gen(path: &Path, out: Option<PathBuf>, check: bool, design: Option<String>) -> Res {
    if path.is_dir() {
        if out.is_some() || design.is_some() {
            return Err(Fail::Input(format!("{}: --out and --design take one config, not a directory", path.display())));
        }
        let mut n = 0;
        for c in configs_under(path) {
            if load(&c)?.generate().is_none() {
                continue;
            }
            gen(&c, None, check, None)?;
            n += 1;
        }
        if n == 0 {
            return Err(Fail::Input(format!("{}: no config with RTL under it (allowed: configs with {})", path.display(), rtl_tables())));
        }
        return Ok(());
    }
    let cfg = load(path)?;
    let g = generate(cfg.as_ref())?;
    if let Some(name) = design {
        let out = out.expect("clap requires --out with --design");
        let d = pick(&g, &name)?;
        if check {
            return Err(Fail::Input("--check compares a whole preset directory; drop --design".into()));
        }
        g.write_standalone(d, &out).map_err(|e| io_fail(&out, e))?;
        println!("wrote {} ({} Verilog files, top {}, filelist {})", out.display(), d.files.len(), d.manifest.top, d.manifest.filelist);
        return Ok(());
    }
    let out = out.unwrap_or_else(|| Path::new("rtl_out").join(&g.preset));
    if check {
        let stale = g.stale_files(&out);
        if stale.is_empty() {
            println!("{} is current", out.display());
            return Ok(());
        }
        let list = stale.iter().map(|p| format!("  {}", p.display())).collect::<Vec<_>>().join("\n");
        return Err(Fail::Check(format!("{} is stale; run `gpuforge gen {}`:\n{list}", out.display(), path.display())));
    }
    g.write_to(&out).map_err(|e| io_fail(&out, e))?;
    let designs = if g.designs.len() == 1 { "1 design".to_string() } else { format!("{} designs", g.designs.len()) };
    println!("wrote {} ({} modules in lib/, {designs})", out.display(), g.lib.len());
    for d in &g.designs {
        println!("  {:<16} {} ({} files, content hash {})", d.dir, d.manifest.top, d.files.len(), &d.manifest.content_hash[..16]);
    }
    Ok(())
}

/// Generated design directories: the target itself when it holds designs, or a config
/// generated into a scratch directory.
fn design_dirs(target: &Path) -> Result<Vec<PathBuf>, Fail> {
    if target.is_dir() {
        return Ok(Design::find_all(target));
    }
    let cfg = load(target)?;
    let g = generate(cfg.as_ref())?;
    let scratch = verif::verilator::cache_root().with_file_name("gpuforge-gen").join(&g.preset);
    g.write_to(&scratch).map_err(|e| io_fail(&scratch, e))?;
    Ok(Design::find_all(&scratch))
}

fn tool_error(e: impl std::fmt::Display) -> Fail {
    Fail::Check(format!("error: {e}"))
}

fn lint(target: &Path, jobs: usize) -> Res {
    let dirs = design_dirs(target)?;
    let print = |r: &verif::lint::LintReport| {
        for f in &r.findings {
            println!("{f}");
        }
        println!("lint {}: {} files, {} warnings", r.dir.display(), r.files, r.findings.len());
        r.findings.len()
    };
    let mut dirty = 0;
    if dirs.is_empty() {
        let r = verif::lint::lint_files(target).map_err(tool_error)?;
        if r.files == 0 {
            return Err(Fail::Input(format!("{}: no generated design and no Verilog file to lint", target.display())));
        }
        dirty += print(&r);
    } else {
        let mut failed = None;
        side_by_side(
            &dirs,
            jobs,
            "designs linted",
            |d| verif::lint::lint_design(d),
            |r| match r {
                Ok(r) => dirty += print(&r),
                Err(e) => {
                    failed.get_or_insert(e);
                }
            },
        );
        if let Some(e) = failed {
            return Err(tool_error(e));
        }
    }
    if dirty == 0 {
        Ok(())
    } else {
        Err(Fail::Check(format!("lint: {dirty} warnings")))
    }
}

fn synth(target: &Path, report: Option<PathBuf>, jobs: usize) -> Res {
    let one = target.is_dir() && target.join(hdl_gen::design::MANIFEST).is_file();
    let mut designs = Vec::new();
    for dir in design_dirs(target)? {
        let d = Design::load(&dir).map_err(|e| Fail::Input(e.to_string()))?;
        if one || d.manifest.synth {
            designs.push(d);
        } else {
            println!("skip {} ({}): a whole mesh, not marked for synthesis; `gpuforge synth {}` to force", d.manifest.top, dir.display(), dir.display());
        }
    }
    if report.is_some() && designs.len() != 1 {
        return Err(Fail::Input(format!("--report names one file, {} designs would be synthesized; give one design directory", designs.len())));
    }
    // (a work directory per design content: two presets may give a design the same top)
    let synthesize = |design: &Design| {
        let m = &design.manifest;
        let work = verif::synth::work_dir(&format!("{}-{}", m.top, &m.content_hash[..m.content_hash.len().min(8)]));
        verif::synth::synth(design, &work).map(|r| (r, work))
    };
    let mut failed = None;
    side_by_side(&designs, jobs, "designs synthesized", synthesize, |r| {
        if let Err(e) = r.map_err(tool_error).and_then(|(r, work)| print_synth(&r, &report.clone().unwrap_or_else(|| work.join("report.json")))) {
            failed.get_or_insert(e);
        }
    });
    failed.map_or(Ok(()), Err)
}

/// One design's synthesis: its cell report written to `path`, its summary printed.
fn print_synth(r: &verif::synth::SynthReport, path: &Path) -> Res {
    let json = serde_json::to_string_pretty(r).expect("report serializes");
    std::fs::write(path, json + "\n").map_err(|e| io_fail(path, e))?;
    println!("synth {}: {} cells ({} flip-flops, {} latches), ~{} transistors (yosys cmos estimate), {:.1}s", r.top, r.cells, r.flops, r.latches, r.transistors, r.seconds);
    let mut by: Vec<_> = r.cells_by_type.iter().collect();
    by.sort_by(|a, b| b.1.cmp(a.1));
    for (t, n) in by {
        println!("  {t:<14} {n:>9}");
    }
    println!("report: {}", path.display());
    Ok(())
}

/// Run `job` on every item, `jobs` at a time (one tool process each), with a progress
/// bar (`what`: "designs linted"), and hand each result to `report` in item order as
/// soon as every item before it is done: what is printed does not depend on `jobs`.
fn side_by_side<T: Sync, R: Send>(items: &[T], jobs: usize, what: &str, job: impl Fn(&T) -> R + Sync, mut report: impl FnMut(R)) {
    let bar = indicatif::ProgressBar::new(items.len() as u64);
    bar.set_style(indicatif::ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {what}  {{elapsed}} elapsed  {{msg}}")).expect("template"));
    bar.set_message(format!("{jobs} at a time"));
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    let mut order = gpuforge::pool::Ordered::new(items.len());
    gpuforge::pool::run(items, jobs, job, |i, r| {
        bar.inc(1);
        for (_, r) in order.put(i, r) {
            bar.suspend(|| report(r));
        }
    });
    bar.finish_and_clear();
}

fn cosim(path: &Path, design: Option<String>, cycles: u64, seed: u64, trace: Option<PathBuf>, build: BuildOpts, check: bool) -> Res {
    let cfg = load(path)?;
    let g = generate(cfg.as_ref())?;
    let designs: Vec<&Design> = match &design {
        Some(name) => vec![pick(&g, name)?],
        None => g.designs.iter().collect(),
    };
    if let Some(t) = &trace {
        if !t.as_os_str().is_empty() && designs.len() > 1 {
            return Err(Fail::Input(format!(
                "--trace {}: one file for {} designs; give --design, or --trace alone for one VCD per design in cosim_out/",
                t.display(),
                designs.len()
            )));
        }
    }
    for d in designs {
        let trace = trace.as_ref().map(|t| if t.as_os_str().is_empty() { Path::new("cosim_out").join(format!("{}-seed{seed}.vcd", d.manifest.top)) } else { t.clone() });
        let req = CosimRequest { cycles, seed, trace: trace.clone(), build, check };
        let threads = if build.threads > 1 { format!(", Verilated with {} threads", build.threads) } else { String::new() };
        println!("co-simulating {} ({}) for {cycles} cycles (seed {seed}{threads})", d.manifest.top, d.dir);
        build_model(d, req.build_opts())?;
        match cfg.cosim(d, &req) {
            Ok(s) => {
                println!("PASS {}: {} cycles in {:.2}s ({:.0} cycles/s; scoreboard {})", s.top, s.cycles, s.seconds, s.cycles_per_second(), if s.checked { "on" } else { "off" });
                if let Some(t) = trace {
                    println!("waveform: {}", t.display());
                }
            }
            Err(CosimFailure::Cosim(verif::lockstep::CosimError::Setup(m))) => return Err(Fail::Input(m)),
            Err(CosimFailure::Cosim(e)) => return Err(Fail::Check(format!("FAIL {e}"))),
            Err(e) => return Err(tool_error(e)),
        }
    }
    Ok(())
}

/// Build the design's Verilator model (the cosim finds it cached), with a status line
/// while it builds: the size of the design, the estimated and the elapsed time.
fn build_model(d: &Design, opts: BuildOpts) -> Res {
    if verif::verilator::cached(d, opts).map_err(tool_error)? {
        println!("  Verilator model of {}: cached", d.manifest.top);
        return Ok(());
    }
    let lines: usize = d.files.iter().map(|(_, t)| t.lines().count()).sum();
    let est = verif::verilator::estimate_seconds(d, opts);
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(indicatif::ProgressStyle::with_template("  {spinner} {elapsed} {msg}").expect("template"));
    bar.set_message(format!("building the Verilator model of {} ({lines} lines of Verilog; estimated {est:.0}s)", d.manifest.top));
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    let t0 = std::time::Instant::now();
    let r = verif::verilator::build(d, opts);
    bar.finish_and_clear();
    r.map_err(tool_error)?;
    println!("  Verilator model of {} built in {:.1}s (estimated {est:.0}s)", d.manifest.top, t0.elapsed().as_secs_f64());
    Ok(())
}

/// The GPU model's occupancy trace (`[stats] occupancy_trace`, S3) as
/// `occupancy_trace.csv` and a plot, `occupancy_trace.svg`, in `dir`.
fn occupancy_trace(dir: &Path, json: &serde_json::Value) -> Res {
    use gpuforge::study::figure::{curve, Series};
    let t: golden::gpu::occupancy::OccupancyTrace = serde_json::from_value(json.clone()).map_err(|e| Fail::Check(format!("occupancy trace: {e}")))?;
    std::fs::create_dir_all(dir).map_err(|e| io_fail(dir, e))?;
    let csv = dir.join("occupancy_trace.csv");
    std::fs::write(&csv, t.csv()).map_err(|e| io_fail(&csv, e))?;
    let top = t.in_flight.iter().copied().max().unwrap_or(0) as f64;
    let mut series = vec![Series { name: "in flight".into(), points: t.in_flight.iter().enumerate().map(|(i, &n)| ((t.start + i as u64) as f64, n as f64)).collect() }];
    let end = t.start + t.in_flight.len() as u64;
    for (name, marks) in [("first arrival", &t.arrivals), ("resumption", &t.resumes)] {
        for &m in marks.iter().filter(|&&m| m < end) {
            series.push(Series { name: format!("{name} {m}"), points: vec![(m as f64, 0.0), (m as f64, top)] });
        }
    }
    let title = format!("Warp instructions in flight, threadblock {} on SM {}", t.cta, t.sm);
    let svg = dir.join("occupancy_trace.svg");
    std::fs::write(&svg, curve(&title, "cycle", "warp instructions in flight", &series, false)).map_err(|e| io_fail(&svg, e))?;
    println!("occupancy trace: {}, {}", csv.display(), svg.display());
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn sim(
    path: &Path,
    seed: u64,
    check: bool,
    sweep: Vec<f64>,
    out_dir: Option<PathBuf>,
    launch: Option<PathBuf>,
    max_cycles: Option<u64>,
    json: Option<PathBuf>,
    dump: Option<PathBuf>,
) -> Res {
    let cfg = load(path)?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"));
    let mut status = |m: &str| {
        bar.set_message(m.to_string());
        bar.tick();
    };
    let trace_dir = out_dir.clone();
    let mut args = SimArgs { seed, check, sweep, out_dir, launch, max_cycles, dump, progress: Some(&mut status) };
    let r = cfg.simulate(&mut args);
    drop(args);
    bar.finish_and_clear();
    let out = r.map_err(|e| match e {
        SimError::Input(m) => Fail::Input(m),
        SimError::Failed(m) => Fail::Check(m),
    })?;
    println!("{}", out.text);
    if let (Some(dir), Some(t)) = (&trace_dir, out.json.get("occupancy_trace")) {
        occupancy_trace(dir, t)?;
    }
    if let Some(j) = &json {
        let text = serde_json::to_string_pretty(&out.json).expect("report serializes");
        std::fs::write(j, text + "\n").map_err(|e| io_fail(j, e))?;
        println!("statistics: {}", j.display());
    }
    match out.failure {
        None => Ok(()),
        Some(m) => Err(Fail::Check(m)),
    }
}
