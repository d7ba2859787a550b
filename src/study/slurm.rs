//! The Slurm backend, for when one machine is not enough: the runs a study still needs
//! become one job array (`sbatch --array`), one task per run, each task
//! `gpuforge study run-one <study file> --index $SLURM_ARRAY_TASK_ID --out <dir>`, writing
//! its result into the shared output directory's cache exactly as the local pool does.
//! `gpuforge study report` then writes the outputs from what has finished.
//!
//! The output directory, the study file, its configs and the `gpuforge` binary must be
//! on a file system every node sees; cluster options (partition, time limit, account,
//! ...) pass through to `sbatch` unchanged.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::exec;
use super::plan::Plan;

/// What to hand to `sbatch` besides the array.
pub struct SlurmOptions {
    /// Passed through as given, e.g. `--partition=gpu`, `--time=01:00:00`, `--account=arch`.
    pub sbatch_args: Vec<String>,
    /// Block until every task has finished (`sbatch --wait`).
    pub wait: bool,
    /// The binary the tasks run (default: this one).
    pub exe: PathBuf,
}

/// A submitted array.
pub struct Submission {
    pub job_id: String,
    pub tasks: usize,
    pub script: PathBuf,
}

/// `0-3,7,9-10` for sorted indices.
pub fn array_spec(indices: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        parts.push(if i == j { indices[i].to_string() } else { format!("{}-{}", indices[i], indices[j]) });
        i = j + 1;
    }
    parts.join(",")
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// The array job's script: one task per run index in `indices`.
pub fn job_script(plan: &Plan, study_file: &Path, out: &Path, exe: &Path, indices: &[usize]) -> String {
    let quick = if plan.quick { " --quick" } else { "" };
    format!(
        "#!/bin/bash\n\
         # gpuforge study {name}{quick}: {n} of {total} runs, one array task each\n\
         #SBATCH --job-name=gpuforge-{name}\n\
         #SBATCH --array={array}\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --output={log}/%A_%a.log\n\
         exec {exe} study run-one {study} --index \"$SLURM_ARRAY_TASK_ID\" --out {out}{quick}\n",
        name = plan.study.name,
        n = indices.len(),
        total = plan.runs.len(),
        array = array_spec(indices),
        log = out.join("slurm").display(),
        exe = quote(exe),
        study = quote(study_file),
        out = quote(out),
    )
}

/// Write the array job for every run without a cached result and submit it. `None`:
/// nothing to run.
pub fn submit(plan: &Plan, study_file: &Path, out: &Path, opts: &SlurmOptions) -> Result<Option<Submission>, String> {
    let missing: Vec<usize> = plan.runs.iter().filter(|r| exec::cached(out, r).is_none()).map(|r| r.index).collect();
    if missing.is_empty() {
        return Ok(None);
    }
    let dir = out.join("slurm");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (study_file, out) = (absolute(study_file)?, absolute(out)?);
    let script = dir.join(format!("{}{}.sh", plan.study.name, if plan.quick { "_quick" } else { "" }));
    std::fs::write(&script, job_script(plan, &study_file, &out, &opts.exe, &missing)).map_err(|e| format!("{}: {e}", script.display()))?;
    let mut cmd = Command::new("sbatch");
    cmd.arg("--parsable");
    if opts.wait {
        cmd.arg("--wait");
    }
    cmd.args(&opts.sbatch_args).arg(&script);
    let o = cmd.output().map_err(|e| format!("sbatch: {e} (is Slurm installed? scripts/slurm-local.sh starts a local one)"))?;
    let stdout = String::from_utf8_lossy(&o.stdout);
    let job_id = stdout.lines().next().unwrap_or("").split(';').next().unwrap_or("").trim().to_string();
    if job_id.is_empty() {
        return Err(format!("sbatch {}: {}{}", script.display(), String::from_utf8_lossy(&o.stderr).trim(), stdout.trim()));
    }
    // with --wait, sbatch exits non-zero when a task failed; the report says which
    Ok(Some(Submission { job_id, tasks: missing.len(), script }))
}

fn absolute(p: &Path) -> Result<PathBuf, String> {
    std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))
}
