//! `gpuforge`: the command line. It parses arguments, calls the library crates and
//! maps their errors to exit codes (2 for bad input, 1 for a failed check); it holds
//! no hardware or model logic of its own.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use golden::config::{self, BlockConfig, ConfigError, ConfigFile};
use hdl_gen::design::{Design, GenError};
use verif::run::{CosimFailure, CosimRequest};
use verif::verilator::Opt;

/// gpuforge: Verilog, golden models and co-simulation for GPU micro-architecture
/// proposals (GPU-CC, MACRO-NoC, ...).
///
/// Typical use: `gpuforge gen configs/gpucc/gpucc_paper_sm.toml` writes the Verilog and a
/// JSON manifest to rtl_out/gpucc_paper_sm/; `gpuforge cosim configs/gpucc/gpucc_paper_sm.toml`
/// proves it cycle-equal to the golden model under random traffic; `gpuforge sim
/// configs/gpucc/gpucc_paper_sm.toml` runs the paper's experiment on the golden model.
#[derive(Parser)]
#[command(name = "gpuforge", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Validate a config, write its Verilog and JSON manifest.
    ///
    /// Output goes to rtl_out/<name>/ (name = the config's `name`), replacing what is
    /// there; nothing is written if the config is invalid.
    Gen {
        /// Block config (TOML), e.g. configs/gpucc/gpucc_small.toml.
        config: PathBuf,
        /// Output directory (default rtl_out/<name>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Do not write: exit 1 if the output directory differs from what would be written.
        #[arg(long)]
        check: bool,
    },
    /// Run `verilator --lint-only -Wall` on every generated Verilog file.
    Lint {
        /// A config (generated into a scratch directory first) or a generated directory.
        target: PathBuf,
    },
    /// Synthesize with yosys (`synth`, `check -assert`), fail on latches, save a cell report.
    Synth {
        /// A config (generated first) or a generated directory.
        target: PathBuf,
        /// Where to write the JSON cell report (default: next to yosys' work files).
        #[arg(long)]
        report: Option<PathBuf>,
    },
    /// Co-simulate the generated Verilog (Verilator) against the golden model, cycle by cycle.
    Cosim {
        config: PathBuf,
        /// Cycles to run.
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        /// Stimulus seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write a VCD of the whole RTL run (default file cosim_out/<top>-seed<S>.vcd).
        #[arg(long, num_args = 0..=1, default_missing_value = "")]
        trace: Option<PathBuf>,
        /// C++ optimisation of the Verilated model.
        #[arg(long, value_enum, default_value_t = OptArg::Quick)]
        opt: OptArg,
        /// Skip the golden-side invariant scoreboard (faster; lockstep comparison still runs).
        #[arg(long)]
        no_check: bool,
    },
    /// Run the golden model alone.
    ///
    /// GPU-CC: the config's [gpucc.app] mapping. NoC: synthetic traffic, optionally a
    /// latency-throughput sweep. GPU (configs/gpu/*.toml): the kernel(s) of a launch
    /// file, e.g. `gpuforge sim configs/gpu/macro_16.toml workloads/vecadd/vecadd.toml`.
    Sim {
        config: PathBuf,
        /// GPU model: the launch description (kernel, grid, buffers, checks).
        launch: Option<PathBuf>,
        /// GPU model: stop after this many cycles.
        #[arg(long)]
        max_cycles: Option<u64>,
        /// NoC: injection rates to sweep (flits/node/cycle), e.g. 0.02,0.05,0.1.
        #[arg(long, value_delimiter = ',')]
        sweep: Vec<f64>,
        /// NoC: directory for the sweep's CSV, JSON and SVG plot.
        #[arg(long)]
        out_dir: Option<PathBuf>,
        /// Input-data seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write every statistic as JSON to this file.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Run the invariant scoreboards alongside (slower).
        #[arg(long)]
        check: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum OptArg {
    Quick,
    Fast,
}

/// How a command ends.
enum Fail {
    /// Bad input: exit status 2.
    Input(String),
    /// A check failed or a tool broke: exit status 1.
    Check(String),
}

impl From<ConfigError> for Fail {
    fn from(e: ConfigError) -> Self {
        Fail::Input(e.to_string())
    }
}

type Res = Result<(), Fail>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Gen { config, out, check } => gen(&config, out, check),
        Cmd::Lint { target } => lint(&target),
        Cmd::Synth { target, report } => synth(&target, report),
        Cmd::Cosim { config, cycles, seed, trace, opt, no_check } => cosim(&config, cycles, seed, trace, opt, !no_check),
        Cmd::Sim { config, launch: Some(launch), seed, json, max_cycles, .. } => sim_gpu(&config, &launch, seed, json, max_cycles),
        Cmd::Sim { config, launch: None, sweep, out_dir, seed, json, check, .. } => sim(&config, seed, json, check, sweep, out_dir),
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

fn gen_error(cfg: &ConfigFile, e: GenError) -> Fail {
    match e {
        GenError::Unsupported { .. } => Fail::Input(format!("{}: {e}", cfg.path.display())),
        e => Fail::Check(format!("generator bug: {e}")),
    }
}

fn generate(cfg: &ConfigFile) -> Result<Vec<(PathBuf, Design)>, Fail> {
    hdl_gen::generate(cfg).map_err(|e| gen_error(cfg, e))
}

fn gen(path: &Path, out: Option<PathBuf>, check: bool) -> Res {
    let cfg = config::load(path)?;
    let designs = generate(&cfg)?;
    let out = out.unwrap_or_else(|| Path::new("rtl_out").join(&cfg.name));
    if check {
        let stale: Vec<PathBuf> = designs.iter().flat_map(|(sub, d)| d.stale_files(&out.join(sub))).collect();
        if stale.is_empty() {
            println!("{} is current", out.display());
            return Ok(());
        }
        let list = stale.iter().map(|p| format!("  {}", p.display())).collect::<Vec<_>>().join("\n");
        return Err(Fail::Check(format!("{} is stale; run `gpuforge gen {}`:\n{list}", out.display(), path.display())));
    }
    for (sub, d) in &designs {
        let dir = out.join(sub);
        d.write_to(&dir).map_err(|e| Fail::Check(format!("{}: {e}", dir.display())))?;
        println!(
            "wrote {} ({} Verilog files, top {}, content hash {})",
            dir.display(),
            d.files.len(),
            d.manifest.top,
            &d.manifest.content_hash[..16]
        );
    }
    Ok(())
}

/// A directory with generated Verilog: the argument itself, or a config generated
/// into a scratch directory.
fn design_dirs(target: &Path) -> Result<Vec<PathBuf>, Fail> {
    if target.is_dir() {
        return Ok(vec![target.to_path_buf()]);
    }
    let cfg = config::load(target)?;
    let scratch = verif::verilator::cache_root().with_file_name("gpuforge-gen").join(&cfg.name);
    let mut dirs = Vec::new();
    for (sub, d) in generate(&cfg)? {
        let dir = scratch.join(sub);
        d.write_to(&dir).map_err(|e| Fail::Check(format!("{}: {e}", dir.display())))?;
        dirs.push(dir);
    }
    Ok(dirs)
}

fn tool_error(e: impl std::fmt::Display) -> Fail {
    Fail::Check(format!("error: {e}"))
}

fn lint(target: &Path) -> Res {
    let mut dirty = 0;
    for dir in design_dirs(target)? {
        let r = verif::lint::lint_dir(&dir).map_err(tool_error)?;
        for f in &r.findings {
            println!("{f}");
        }
        println!("lint {}: {} files, {} warnings", dir.display(), r.files, r.findings.len());
        dirty += r.findings.len();
    }
    if dirty == 0 {
        Ok(())
    } else {
        Err(Fail::Check(format!("lint: {dirty} warnings")))
    }
}

fn synth(target: &Path, report: Option<PathBuf>) -> Res {
    for dir in design_dirs(target)? {
        let design = Design::load(&dir).map_err(Fail::Input)?;
        let work = verif::synth::work_dir(&design.manifest.top);
        let r = verif::synth::synth(&design, &work).map_err(tool_error)?;
        let path = report.clone().unwrap_or_else(|| work.join("report.json"));
        let json = serde_json::to_string_pretty(&r).expect("report serializes");
        std::fs::write(&path, json + "\n").map_err(|e| Fail::Check(format!("{}: {e}", path.display())))?;
        println!(
            "synth {}: {} cells ({} flip-flops, {} latches), ~{} transistors (yosys cmos estimate), {:.1}s",
            r.top, r.cells, r.flops, r.latches, r.transistors, r.seconds
        );
        let mut by: Vec<_> = r.cells_by_type.iter().collect();
        by.sort_by(|a, b| b.1.cmp(a.1));
        for (t, n) in by {
            println!("  {t:<14} {n:>9}");
        }
        println!("report: {}", path.display());
    }
    Ok(())
}

fn cosim(path: &Path, cycles: u64, seed: u64, trace: Option<PathBuf>, opt: OptArg, check: bool) -> Res {
    let cfg = config::load(path)?;
    for (_, design) in generate(&cfg)? {
        let trace = trace.as_ref().map(|t| {
            if t.as_os_str().is_empty() {
                Path::new("cosim_out").join(format!("{}-seed{seed}.vcd", design.manifest.top))
            } else {
                t.clone()
            }
        });
        let req = CosimRequest {
            cycles,
            seed,
            trace: trace.clone(),
            opt: match opt {
                OptArg::Quick => Opt::Quick,
                OptArg::Fast => Opt::Fast,
            },
            check,
        };
        println!("co-simulating {} for {cycles} cycles (seed {seed})", design.manifest.top);
        match verif::run::cosim(&cfg, &design, &req) {
            Ok(s) => {
                println!(
                    "PASS {}: {} cycles in {:.2}s ({:.0} cycles/s; Verilator model {} in {:.1}s)",
                    s.top,
                    s.cycles,
                    s.seconds,
                    s.cycles_per_second(),
                    if s.compiled { "built" } else { "cached" },
                    s.build_seconds
                );
                if let Some(t) = trace {
                    println!("waveform: {}", t.display());
                }
            }
            Err(CosimFailure::Cosim(e)) => return Err(Fail::Check(format!("FAIL {e}"))),
            Err(e) => return Err(tool_error(e)),
        }
    }
    Ok(())
}

/// Whether a TOML file is a GPU-model config (top-level `[gpu]` table).
fn is_gpu_config(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .is_some_and(|t| t.contains_key("gpu"))
}

fn sim_gpu(path: &Path, launch: &Path, seed: u64, json: Option<PathBuf>, max_cycles: Option<u64>) -> Res {
    use golden::gpu::{GpuConfig, Launch, RunOptions, SimError};
    let cfg = GpuConfig::load(path)?;
    let l = Launch::load(launch).map_err(|e| Fail::Input(e.to_string()))?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"));
    let t0 = std::time::Instant::now();
    let mut progress = |cycles: u64, insts: u64| {
        let s = t0.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{cycles} cycles, {insts} warp instructions ({:.2} M/s)", insts as f64 / s / 1e6));
        bar.tick();
    };
    let opts = RunOptions { seed, progress: Some(&mut progress), max_cycles, ..Default::default() };
    let r = golden::gpu::run(&cfg, &l, opts);
    bar.finish_and_clear();
    let r = r.map_err(|e| match e {
        SimError::Network(_) => Fail::Input(format!("{}: {e}", path.display())),
        e => Fail::Check(format!("error: {e}")),
    })?;
    println!("{r}");
    write_json(json.as_deref(), &r)?;
    if r.checks_passed() {
        Ok(())
    } else {
        Err(Fail::Check(format!("FAIL: results differ from the reference of {}", launch.display())))
    }
}

fn sim(path: &Path, seed: u64, json: Option<PathBuf>, check: bool, sweep: Vec<f64>, out_dir: Option<PathBuf>) -> Res {
    if is_gpu_config(path) {
        return Err(Fail::Input(format!(
            "{}: a GPU config needs a launch file (usage: gpuforge sim <gpu config> <launch.toml>)",
            path.display()
        )));
    }
    let cfg = config::load(path)?;
    match &cfg.block {
        BlockConfig::Gpucc(c) => {
            let _ = (&sweep, &out_dir);
            if c.app.is_none() {
                return Err(Fail::Input(format!(
                    "{}: gpucc.app: no application to simulate (allowed: add a [gpucc.app] table with kind = one of conv3x3, conv5x5, saxpy, vecadd, reduce)",
                    path.display()
                )));
            }
            let opts = golden::gpucc::run::RunOptions { seed, check, ..Default::default() };
            let out = golden::gpucc::run::run_app_with(c, &opts).map_err(|e| Fail::Check(format!("error: {e}")))?;
            println!("{}", out.report);
            write_json(json.as_deref(), &out.report)?;
            if out.report.pass {
                Ok(())
            } else {
                Err(Fail::Check(format!("FAIL {}: outputs differ from the reference or the run did not finish", cfg.name)))
            }
        }
        BlockConfig::Noc(c) => {
            let req = golden::noc::sim::SimRequest { seed, sweep, out_dir };
            let report = golden::noc::sim::run(c, &req).map_err(|e| Fail::Check(format!("error: {e}")))?;
            println!("{report}");
            write_json(json.as_deref(), &report)
        }
    }
}

fn write_json(path: Option<&Path>, value: &impl serde::Serialize) -> Res {
    if let Some(j) = path {
        let text = serde_json::to_string_pretty(value).expect("report serializes");
        std::fs::write(j, text + "\n").map_err(|e| Fail::Check(format!("{}: {e}", j.display())))?;
        println!("statistics: {}", j.display());
    }
    Ok(())
}
