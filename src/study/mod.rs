//! Studies: a paper's experiments as a file (`studies/<name>.toml`), run on the golden
//! models through the block registry, in parallel and resumable, with the paper's
//! numbers beside ours.
//!
//! [`def`] reads and checks the study file; [`plan`] expands it into runs (configs x
//! launches x knobs x seeds), applies the knobs and hashes each run; [`exec`] runs what
//! is not cached on a thread pool; [`measure`] reduces results to the study's numbers;
//! [`report`] and [`figure`] write `results.csv`, `results.json`, `report.md` and SVGs;
//! [`slurm`] hands the runs to a Slurm job array instead of the local pool; [`readme`]
//! splices the reports' tables into the README.
//! [`cli`] holds the `gpuforge study ...` subcommands; the binary only nests them.

pub mod cli;
pub mod def;
pub mod exec;
pub mod figure;
pub mod measure;
pub mod plan;
pub mod readme;
pub mod report;
pub mod slurm;

use std::path::{Path, PathBuf};

use golden::config::ConfigError;

pub use def::Study;
pub use plan::Plan;

/// Where `gpuforge study` looks for study files by name.
pub const DIR: &str = "studies";

/// A study named on the command line: a path to a file, or a name in `dir`.
pub fn locate(name: &str, dir: &Path) -> Result<PathBuf, ConfigError> {
    let p = Path::new(name);
    if p.extension().is_some_and(|e| e == "toml") || p.components().count() > 1 {
        return Ok(p.to_path_buf());
    }
    let f = dir.join(format!("{name}.toml"));
    if f.is_file() {
        return Ok(f);
    }
    let names: Vec<String> = files(dir).iter().map(|f| plan::stem(&f.to_string_lossy())).collect();
    Err(ConfigError {
        file: f,
        field: "<study>".into(),
        message: format!("no study `{name}` in {}", dir.display()),
        allowed: Some(if names.is_empty() { "none there".into() } else { names.join(", ") }),
    })
}

/// The study files in `dir`, sorted.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "toml")).collect();
    v.sort();
    v
}

/// The default output directory: `study_out/<name>` (`<name>_quick` for `--quick`).
pub fn default_out(study: &Study, quick: bool) -> PathBuf {
    Path::new("study_out").join(if quick { format!("{}_quick", study.name) } else { study.name.clone() })
}

/// How many runs a study has, full and `--quick` (without checking the configs).
pub fn run_counts(study: &Study) -> (usize, usize) {
    let count = |quick: bool| {
        study
            .groups
            .iter()
            .filter_map(|g| g.runs(quick))
            .map(|r| r.configs.len() * r.launches.len().max(1) * r.seeds.len() * r.knobs.iter().map(|(_, v)| v.len()).product::<usize>())
            .sum()
    };
    (count(false), count(true))
}

/// `gpuforge study show`: the study's source and every run it would do, with whether
/// its result is already cached in `out`.
pub fn describe(plan: &Plan, out: &Path) -> String {
    let st = &plan.study;
    let mut s = format!(
        "{} — {}\n  paper: {} (seed {}{}), reproduces {}\n",
        st.name,
        st.title,
        st.paper,
        st.seed_file,
        st.spec.as_ref().map(|x| format!(", spec {x}")).unwrap_or_default(),
        st.reproduces
    );
    let cached = plan.runs.iter().filter(|r| exec::cached(out, r).is_some()).count();
    s += &format!("  {} runs{} ({cached} cached in {})\n", plan.runs.len(), if plan.quick { " (--quick)" } else { "" }, out.display());
    for r in &plan.runs {
        let state = if exec::cached(out, r).is_some() { "cached" } else { "to run" };
        s += &format!("  {:>4}  {}  {:<6}  [{}] {}\n", r.index, &r.hash[..12], state, r.group, r.label());
    }
    s += &format!("  measures: {}\n", st.measures.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", "));
    s += &format!("  figures: {}\n", st.figures.iter().map(|f| format!("{}.svg", f.name)).collect::<Vec<_>>().join(", "));
    s
}
