//! `verilator --lint-only -Wall` on generated designs, each through its own filelist
//! from its design directory (exactly what a user or a CI would run), and on loose
//! Verilog files.

use std::path::{Path, PathBuf};
use std::process::Command;

use hdl_gen::design::Design;

use crate::verilator::{verilator, BuildError};

/// Lint result of one design directory (or one directory of loose files).
#[derive(Debug, Clone, serde::Serialize)]
pub struct LintReport {
    pub dir: PathBuf,
    pub files: usize,
    /// `first line of each warning or error`.
    pub findings: Vec<String>,
}

impl LintReport {
    pub fn clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// The warnings and errors of one Verilator run.
fn findings(out: &std::process::Output, what: &str) -> Vec<String> {
    let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    let mut v: Vec<String> =
        text.lines().filter(|l| (l.starts_with("%Warning") || l.starts_with("%Error")) && !l.starts_with("%Error: Exiting due to")).map(|l| format!("{what}: {l}")).collect();
    if !out.status.success() && v.is_empty() {
        v.push(format!("{what}: verilator exited with {:?}", out.status.code()));
    }
    v
}

/// Lint a generated design: `verilator --lint-only -Wall --top-module <top> -f <top>.f`
/// run in its directory.
pub fn lint_design(dir: &Path) -> Result<LintReport, BuildError> {
    verilator()?;
    let design = Design::load(dir).map_err(|e| BuildError::Design(e.to_string()))?;
    let m = &design.manifest;
    let out = Command::new("verilator").current_dir(dir).args(["--lint-only", "-Wall", "--top-module", &m.top, "-f", &m.filelist]).output()?;
    Ok(LintReport { dir: dir.to_path_buf(), files: m.files.len(), findings: findings(&out, &m.filelist) })
}

/// Lint every `.v` file of `dir` on its own (each its own top, `dir` on the library
/// path): for Verilog that is not a generated design.
pub fn lint_files(dir: &Path) -> Result<LintReport, BuildError> {
    verilator()?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "v")).collect();
    files.sort();
    let mut found = Vec::new();
    for f in &files {
        let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let top = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let out = Command::new("verilator").args(["--lint-only", "-Wall", "--top-module", top, "-y"]).arg(dir).arg(f).output()?;
        found.extend(findings(&out, &name));
    }
    Ok(LintReport { dir: dir.to_path_buf(), files: files.len(), findings: found })
}
