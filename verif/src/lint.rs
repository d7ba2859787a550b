//! `verilator --lint-only -Wall` on every file of a generated design, each file on
//! its own (as a reader or a CI would), with the design directory on the library path.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::verilator::{verilator, BuildError};

/// Lint result of one design directory.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LintReport {
    pub dir: PathBuf,
    pub files: usize,
    /// `file: first line of each warning or error`.
    pub findings: Vec<String>,
}

impl LintReport {
    pub fn clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// Lint every `.v` file in `dir`.
pub fn lint_dir(dir: &Path) -> Result<LintReport, BuildError> {
    lint_dir_skipping(dir, &mut std::collections::HashSet::new())
}

/// Lint several design directories; a file already linted clean in an earlier one
/// (same name, same text: the generator names every module after its parameters, so
/// its submodules are the same too) is counted but not linted again. The NoC presets
/// repeat most files between a plane, the combined top and the router-level designs.
pub fn lint_dirs(dirs: &[PathBuf]) -> Result<Vec<LintReport>, BuildError> {
    let mut seen = std::collections::HashSet::new();
    dirs.iter().map(|d| lint_dir_skipping(d, &mut seen)).collect()
}

fn lint_dir_skipping(dir: &Path, clean: &mut std::collections::HashSet<(String, String)>) -> Result<LintReport, BuildError> {
    verilator()?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .collect();
    files.sort();
    let mut findings = Vec::new();
    for f in &files {
        let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let key = (name.clone(), std::fs::read_to_string(f)?);
        if clean.contains(&key) {
            continue;
        }
        let before = findings.len();
        let top = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let out = Command::new("verilator")
            .args(["--lint-only", "-Wall", "--top-module", top, "-y"])
            .arg(dir)
            .arg(f)
            .output()?;
        let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
        for line in text.lines().filter(|l| l.starts_with("%Warning") || l.starts_with("%Error")) {
            if !line.starts_with("%Error: Exiting due to") {
                findings.push(format!("{name}: {line}"));
            }
        }
        if !out.status.success() && findings.len() == before {
            findings.push(format!("{name}: verilator exited with {:?}", out.status.code()));
        }
        if findings.len() == before {
            clean.insert(key);
        }
    }
    Ok(LintReport { dir: dir.to_path_buf(), files: files.len(), findings })
}
