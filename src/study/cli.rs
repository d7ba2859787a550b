//! `gpuforge study ...`: the study subcommands' arguments and what each does. The
//! binary only nests [`StudyCmd`] under `study` and maps [`Fail`] to an exit status.

use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use crate::outcome::{io_fail, Fail, Res};
use crate::study;

/// Which study, and where its results live.
#[derive(clap::Args)]
pub struct StudyArgs {
    /// A study name (studies/<NAME>.toml) or a study file.
    pub name: String,
    /// The reduced version (fewer points and seeds, smaller inputs): minutes, not hours.
    #[arg(long)]
    pub quick: bool,
    /// Output directory, also the run cache (default study_out/<name>[_quick]).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Where study files are looked up by name.
    #[arg(long, default_value = study::DIR)]
    pub dir: PathBuf,
}

#[derive(Subcommand)]
pub enum StudyCmd {
    /// List the studies with their paper sources and run counts.
    List {
        /// Where the study files are.
        #[arg(long, default_value = study::DIR)]
        dir: PathBuf,
    },
    /// Print the runs a study would do, and which are already cached.
    Show {
        #[command(flatten)]
        study: StudyArgs,
    },
    /// Run what is not cached yet, in parallel, then write results.csv, results.json,
    /// the figures (SVG) and report.md. Exit 1 if a run failed, 2 for a bad study file.
    Run {
        #[command(flatten)]
        study: StudyArgs,
        /// Runs at a time (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Stop after this many new runs; the next call runs the rest.
        #[arg(long)]
        limit: Option<usize>,
        /// Where the runs execute: this machine's cores, or a Slurm job array (one task
        /// per missing run, results in --out, which every node must see).
        #[arg(long, value_enum, default_value_t = BackendArg::Local)]
        backend: BackendArg,
        /// Slurm: an option passed through to sbatch, e.g. --sbatch-arg=--partition=gpu
        /// --sbatch-arg=--time=02:00:00 --sbatch-arg=--account=arch (repeatable).
        #[arg(long = "sbatch-arg", allow_hyphen_values = true)]
        sbatch_args: Vec<String>,
        /// Slurm: wait for the array to finish, then write the outputs.
        #[arg(long)]
        wait: bool,
    },
    /// Run one run of a study (what each Slurm array task does) into --out's cache.
    RunOne {
        #[command(flatten)]
        study: StudyArgs,
        /// The run's index (`study show` lists them).
        #[arg(long)]
        index: usize,
    },
    /// Write results.csv, results.json, the figures and report.md from the runs that
    /// have finished (after a Slurm array, or any time). Exit 1 if a run failed.
    Report {
        #[command(flatten)]
        study: StudyArgs,
    },
    /// Rewrite the study blocks of a Markdown file (`<!-- study: NAME [--quick] -->` ...
    /// `<!-- /study -->`) from the studies' report.md; with --check, write nothing and
    /// exit 1 if a block differs from its report.
    Readme {
        /// The Markdown file holding the blocks.
        #[arg(default_value = "README.md")]
        file: PathBuf,
        /// Where the reports are: <REPORTS>/<name>[_quick]/report.md.
        #[arg(long, default_value = "study_out")]
        reports: PathBuf,
        /// Say which blocks are stale (exit 1) and write nothing.
        #[arg(long)]
        check: bool,
        /// Only the --quick blocks (the full ones are left as they are).
        #[arg(long)]
        quick_only: bool,
        /// Only the blocks of this study (repeatable; the others are left as they are,
        /// and their reports need not exist).
        #[arg(long, value_name = "NAME")]
        only: Vec<String>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    Local,
    Slurm,
}
/// A study's plan from the command line (exit 2 for a bad study file) and its output
/// directory.
fn study_plan(a: &StudyArgs) -> Result<(study::Plan, PathBuf), Fail> {
    use study::{def, plan};
    let s = def::load(&study::locate(&a.name, &a.dir)?)?;
    let p = plan::plan(&s, a.quick)?;
    let out = a.out.clone().unwrap_or_else(|| study::default_out(&s, a.quick));
    Ok((p, out))
}

/// Write a study's outputs from `results`, print the comparison, exit 1 if a run failed.
fn study_outputs(p: &study::Plan, out: &Path, results: &[Option<study::exec::RunResult>]) -> Res {
    use study::report;
    let files = report::write_all(out, p, results).map_err(|e| io_fail(out, e))?;
    for line in report::summary_lines(p, results) {
        println!("{line}");
    }
    println!("wrote {}", files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "));
    let failed = results.iter().flatten().filter(|r| r.failure.is_some()).count();
    if failed > 0 {
        Err(Fail::Check(format!("{failed} of {} runs failed (see {})", p.runs.len(), out.join("report.md").display())))
    } else {
        Ok(())
    }
}

/// Run one `gpuforge study` subcommand.
pub fn run(cmd: StudyCmd) -> Res {
    use study::{def, exec};
    match cmd {
        StudyCmd::List { dir } => {
            let files = study::files(&dir);
            if files.is_empty() {
                return Err(Fail::Input(format!("{}: no study file (*.toml) there", dir.display())));
            }
            let mut bad = Vec::new();
            for f in files {
                match def::load(&f) {
                    Ok(s) => {
                        let (full, quick) = study::run_counts(&s);
                        println!("{:<22} {} runs ({quick} with --quick)  {}", s.name, full, s.title);
                        println!(
                            "{:<22} paper: {}, seed {}{}; reproduces {}",
                            "",
                            s.paper,
                            s.seed_file,
                            s.spec.as_ref().map(|x| format!(", spec {x}")).unwrap_or_default(),
                            s.reproduces
                        );
                    }
                    Err(e) => bad.push(e.to_string()),
                }
            }
            if bad.is_empty() {
                Ok(())
            } else {
                Err(Fail::Input(bad.join("\nerror: ")))
            }
        }
        StudyCmd::Show { study: a } => {
            let (p, out) = study_plan(&a)?;
            print!("{}", study::describe(&p, &out));
            Ok(())
        }
        StudyCmd::Run { study: a, jobs, limit, backend, sbatch_args, wait } => {
            let (p, out) = study_plan(&a)?;
            let mode = if a.quick { " (--quick)" } else { "" };
            if backend == BackendArg::Slurm {
                if jobs.is_some() || limit.is_some() {
                    return Err(Fail::Input("--jobs and --limit are for the local backend (allowed with --backend slurm: --sbatch-arg, --wait, --out, --quick)".into()));
                }
                let exe = std::env::current_exe().map_err(|e| Fail::Check(format!("error: the gpuforge binary: {e}")))?;
                let opts = study::slurm::SlurmOptions { sbatch_args, wait, exe };
                match study::slurm::submit(&p, &p.study.file, &out, &opts).map_err(|e| Fail::Check(format!("error: {e}")))? {
                    None => println!("study {}{mode}: all {} runs are cached in {}", p.study.name, p.runs.len(), out.join("runs").display()),
                    Some(sub) => println!(
                        "study {}{mode}: Slurm job {} ({} array tasks of {} runs; script {}){}",
                        p.study.name,
                        sub.job_id,
                        sub.tasks,
                        p.runs.len(),
                        sub.script.display(),
                        if wait { ", finished" } else { "" }
                    ),
                }
                if !wait {
                    println!("when it has finished: gpuforge study report {}{mode} --out {}", a.name, out.display());
                    return Ok(());
                }
                let results = exec::collect(&p, &out);
                return study_outputs(&p, &out, &results);
            }
            if !sbatch_args.is_empty() || wait {
                return Err(Fail::Input("--sbatch-arg and --wait are for --backend slurm".into()));
            }
            let jobs = crate::pool::jobs(jobs)?;
            let ex = exec::execute(&p, &exec::ExecOptions { out: out.clone(), jobs, limit, progress: true }).map_err(|e| io_fail(&out, e))?;
            let missing = ex.results.iter().filter(|r| r.is_none()).count();
            println!(
                "study {}{mode}: {} runs: {} executed, {} reused from {}, {} failed{}; {:.1}s on {jobs} jobs ({:.1}s of runs)",
                p.study.name,
                p.runs.len(),
                ex.executed,
                ex.reused,
                out.join("runs").display(),
                ex.failed,
                if missing > 0 { format!(", {missing} left for the next call") } else { String::new() },
                ex.wall.as_secs_f64(),
                ex.run_time.as_secs_f64()
            );
            study_outputs(&p, &out, &ex.results)
        }
        StudyCmd::RunOne { study: a, index } => {
            let (p, out) = study_plan(&a)?;
            let r = p
                .runs
                .get(index)
                .ok_or_else(|| Fail::Input(format!("--index {index}: {} has {} runs (allowed: 0..={})", p.study.name, p.runs.len(), p.runs.len().saturating_sub(1))))?;
            if let Some(res) = exec::cached(&out, r) {
                println!("run {index} ({}): cached", res.label);
                return Ok(());
            }
            let res = exec::run_one(r);
            exec::store(&out, r, &res).map_err(|e| io_fail(&out, e))?;
            match &res.failure {
                None => {
                    println!("run {index} ({}): ok", res.label);
                    Ok(())
                }
                Some(m) => Err(Fail::Check(format!("FAIL run {index} ({}): {m}", res.label))),
            }
        }
        StudyCmd::Report { study: a } => {
            let (p, out) = study_plan(&a)?;
            let results = exec::collect(&p, &out);
            let done = results.iter().filter(|r| r.is_some()).count();
            println!("study {}{}: {done} of {} runs finished in {}", p.study.name, if a.quick { " (--quick)" } else { "" }, p.runs.len(), out.join("runs").display());
            study_outputs(&p, &out, &results)
        }
        StudyCmd::Readme { file, reports, check, quick_only, only } => readme(&file, &reports, check, quick_only, &only),
    }
}

/// `gpuforge study readme`: splice each block's report excerpt into `file` (temp file,
/// then rename), or with `check` only list the stale blocks.
fn readme(file: &Path, reports: &Path, check: bool, quick_only: bool, only: &[String]) -> Res {
    use study::readme;
    let doc = std::fs::read_to_string(file).map_err(|e| Fail::Input(format!("{}: {e}", file.display())))?;
    let picked = |b: &readme::Block| (!quick_only || b.quick) && (only.is_empty() || only.contains(&b.study));
    let excerpt_of = |b: &readme::Block| -> Result<Option<String>, String> {
        if !picked(b) {
            return Ok(None);
        }
        let r = reports.join(b.dir_name()).join("report.md");
        let text = std::fs::read_to_string(&r).map_err(|e| {
            format!("{}: {e} (run `gpuforge study run {}{} --out {}` first)", r.display(), b.study, if b.quick { " --quick" } else { "" }, r.parent().unwrap_or(reports).display())
        })?;
        readme::excerpt(&text).map(Some).map_err(|e| format!("{}: {e}", r.display()))
    };
    let (new, changed) = readme::splice(&doc, excerpt_of).map_err(|e| Fail::Input(format!("{}: {e}", file.display())))?;
    let blocks = readme::blocks(&doc).map_err(|e| Fail::Input(format!("{}: {e}", file.display())))?;
    if let Some(n) = only.iter().find(|n| !blocks.iter().any(|b| &b.study == *n)) {
        let have: std::collections::BTreeSet<&str> = blocks.iter().map(|b| b.study.as_str()).collect();
        return Err(Fail::Input(format!("{}: --only {n}: no study block of that name (blocks: {})", file.display(), have.into_iter().collect::<Vec<_>>().join(", "))));
    }
    let names = |v: &[readme::Block]| v.iter().map(|b| b.dir_name()).collect::<Vec<_>>().join(", ");
    if check {
        return if changed.is_empty() {
            println!("{}: {} study blocks match their reports in {}", file.display(), blocks.iter().filter(|b| picked(b)).count(), reports.display());
            Ok(())
        } else {
            Err(Fail::Check(format!(
                "{}: stale study blocks (their reports in {} differ): {}; run `gpuforge study readme {}` after the studies",
                file.display(),
                reports.display(),
                names(&changed),
                file.display()
            )))
        };
    }
    if !changed.is_empty() {
        let tmp = file.with_extension(format!("md.tmp{}", std::process::id()));
        std::fs::write(&tmp, &new).map_err(|e| io_fail(&tmp, e))?;
        std::fs::rename(&tmp, file).map_err(|e| io_fail(file, e))?;
    }
    println!(
        "{}: {} of {} study blocks rewritten{}",
        file.display(),
        changed.len(),
        blocks.len(),
        if changed.is_empty() { String::new() } else { format!(" ({})", names(&changed)) }
    );
    Ok(())
}
