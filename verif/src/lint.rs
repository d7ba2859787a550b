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
    let out = lint_filelist(dir, m)?;
    Ok(LintReport { dir: dir.to_path_buf(), files: m.files.len(), findings: findings(&out, &m.filelist) })
}

/// `verilator --lint-only -Wall --top-module <top> -f <top>.f`, run in `dir`.
fn lint_filelist(dir: &Path, m: &hdl_gen::manifest::Manifest) -> std::io::Result<std::process::Output> {
    Command::new("verilator").current_dir(dir).args(["--lint-only", "-Wall", "--top-module", &m.top, "-f", &m.filelist]).output()
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

/// A port stub of the module in `text`: its header (name, parameters, ports) as written,
/// every output tied to zero, and lint directives for the inputs and parameters it does
/// not use. `None` when the header has an `output reg` (a stub cannot `assign` it) or
/// no port list.
pub fn port_stub(text: &str) -> Option<String> {
    let head = &text[text.find("\nmodule ").map(|i| i + 1).or_else(|| text.starts_with("module ").then_some(0))?..];
    let head = &head[..head.find(");")? + 2];
    let mut outputs = Vec::new();
    for line in head.lines() {
        let code = line.split("//").next().unwrap_or_default().trim();
        let Some(decl) = code.strip_prefix("output") else { continue };
        let decl = decl.trim_start();
        if decl.starts_with("reg") || decl.starts_with("logic") {
            return None;
        }
        let decl = decl.strip_prefix("wire").unwrap_or(decl);
        // drop the packed range, keep the names (one or more, comma-separated)
        let names = match decl.rfind(']') {
            Some(i) => &decl[i + 1..],
            None => decl,
        };
        outputs.extend(names.split([',', ')', ';']).map(str::trim).filter(|n| !n.is_empty() && !n.contains(' ')).map(String::from));
    }
    // (the directives must come before the ports they cover, and end with the stub)
    let mut s = format!("/* verilator lint_off UNUSEDSIGNAL */\n/* verilator lint_off UNUSEDPARAM */\n{head}\n");
    for o in &outputs {
        s.push_str(&format!("  assign {o} = '0;\n"));
    }
    s.push_str("endmodule\n/* verilator lint_on UNUSEDPARAM */\n/* verilator lint_on UNUSEDSIGNAL */\n");
    Some(s)
}

/// Lint a generated design (loaded) as [`lint_design`] does, with the modules named in
/// `stubs` replaced by their [`port_stub`]s (written with the other files to `work`,
/// emptied first and removed after). For a suite that has linted those modules whole in a smaller
/// design: the design's own modules, and how they connect to the stubs' ports (widths,
/// unconnected pins), are linted as before, at a fraction of the cost of a mesh of many
/// router instances. What it cannot see is a path through a stub, so stub only modules
/// whose outputs are registered (no combinational loop can pass through them).
pub fn lint_design_with_stubs(design: &Design, stubs: &std::collections::BTreeSet<String>, work: &Path) -> Result<LintReport, BuildError> {
    verilator()?;
    let m = &design.manifest;
    if let Some(s) = stubs.iter().find(|s| !design.files.iter().any(|(n, _)| n.trim_end_matches(".v") == s.as_str())) {
        return Err(BuildError::Design(format!("{}: no module {s} to stub", design.dir)));
    }
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work)?;
    let mut list = String::new();
    for (name, text) in &design.files {
        let module = name.trim_end_matches(".v");
        let text = if stubs.contains(module) {
            port_stub(text).ok_or_else(|| BuildError::Design(format!("{}: module {module} has no port stub (an output reg?)", design.dir)))?
        } else {
            text.clone()
        };
        std::fs::write(work.join(name), text)?;
        list.push_str(name);
        list.push('\n');
    }
    std::fs::write(work.join(&m.filelist), list)?;
    let out = lint_filelist(work, m);
    let _ = std::fs::remove_dir_all(work);
    let out = out?;
    Ok(LintReport { dir: PathBuf::from(&design.dir), files: m.files.len(), findings: findings(&out, &m.filelist) })
}
