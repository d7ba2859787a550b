//! A generated design: Verilog files plus manifest, and writing it to disk
//! atomically (a failed generation leaves the output directory untouched).

use std::io;
use std::path::{Path, PathBuf};

use golden::config::ConfigFile;

use crate::emit::{Module, ModuleSet, NameClash};
use crate::manifest::{content_hash, Manifest};

/// Manifest file name inside a design directory.
pub const MANIFEST: &str = "manifest.json";

/// Verilog text of every file plus the manifest.
#[derive(Debug, Clone)]
pub struct Design {
    /// `(file name, text)`, sorted by name.
    pub files: Vec<(String, String)>,
    pub manifest: Manifest,
}

impl Design {
    /// Assemble a design from modules; `header(name)` gives each file's header.
    pub fn from_modules(
        modules: &ModuleSet,
        header: impl Fn(&str) -> String,
        mut manifest: Manifest,
    ) -> Design {
        let files: Vec<(String, String)> = modules
            .iter()
            .map(|Module { name, text }| (format!("{name}.v"), format!("{}{}", header(&name), text)))
            .collect();
        manifest.files = files.iter().map(|(n, _)| n.clone()).collect();
        manifest.content_hash = content_hash(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        Design { files, manifest }
    }

    /// Read a generated design back from `dir`, checking that the Verilog on disk is
    /// what its manifest describes.
    pub fn load(dir: &Path) -> Result<Design, String> {
        let mpath = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&mpath).map_err(|e| format!("{}: {e}", mpath.display()))?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", mpath.display()))?;
        let mut files = Vec::new();
        for f in &manifest.files {
            let p = dir.join(f);
            let t = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            files.push((f.clone(), t));
        }
        let hash = content_hash(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        if hash != manifest.content_hash {
            return Err(format!(
                "{}: the Verilog files do not match the manifest's content hash (edited by hand?); regenerate with `gpuforge gen`",
                dir.display()
            ));
        }
        Ok(Design { files, manifest })
    }

    pub fn manifest_json(&self) -> String {
        serde_json::to_string_pretty(&self.manifest).expect("manifest serializes") + "\n"
    }

    /// Write to `dir`, replacing what is there. The new design is written to a
    /// sibling temporary directory first and swapped in by renames.
    pub fn write_to(&self, dir: &Path) -> io::Result<()> {
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)?;
        let base = dir.file_name().and_then(|s| s.to_str()).unwrap_or("design");
        let tmp = parent.join(format!(".{base}.tmp-{}", std::process::id()));
        let old = parent.join(format!(".{base}.old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp)?;
        let result = (|| {
            for (name, text) in &self.files {
                std::fs::write(tmp.join(name), text)?;
            }
            std::fs::write(tmp.join(MANIFEST), self.manifest_json())?;
            if dir.exists() {
                std::fs::rename(dir, &old)?;
            }
            std::fs::rename(&tmp, dir)?;
            let _ = std::fs::remove_dir_all(&old);
            Ok(())
        })();
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        result
    }

    /// Files of this design whose text differs from (or is missing in) `dir`, plus
    /// files in `dir` that the design would not write. Empty when `dir` is current.
    pub fn stale_files(&self, dir: &Path) -> Vec<PathBuf> {
        let mut stale = Vec::new();
        let mut expected: Vec<(String, String)> = self.files.clone();
        expected.push((MANIFEST.to_string(), self.manifest_json()));
        for (name, text) in &expected {
            let p = dir.join(name);
            if std::fs::read_to_string(&p).ok().as_deref() != Some(text.as_str()) {
                stale.push(p);
            }
        }
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                let n = e.file_name().to_string_lossy().to_string();
                if !expected.iter().any(|(x, _)| *x == n) {
                    stale.push(e.path());
                }
            }
        }
        stale.sort();
        stale
    }
}

/// Errors of the generators.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error(transparent)]
    NameClash(#[from] NameClash),
    #[error("template: {0}")]
    Template(#[from] askama::Error),
    #[error("{field}: {message} (allowed: {allowed})")]
    Unsupported { field: String, message: String, allowed: String },
}

/// The comment block at the top of every generated file: module name and what it
/// is, where it came from, its protocol notes (plain lines, may be empty) and, for
/// the top module, the config text it was generated from.
pub fn file_header(name: &str, what: &str, cfg: &ConfigFile, protocol: &str, is_top: bool) -> String {
    let rule = "// ============================================================================\n";
    let file = cfg.path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
    let comment = |l: &str| if l.is_empty() { "//\n".to_string() } else { format!("// {l}\n") };
    let mut h = String::new();
    h += rule;
    h += &format!("// {name}: {what}\n");
    h += &format!("// Generated by gpuforge {} from {file} (preset {}). Do not edit; regenerate with `gpuforge gen`.\n", env!("CARGO_PKG_VERSION"), cfg.name);
    if !protocol.is_empty() {
        h += "//\n";
        protocol.lines().for_each(|l| h += &comment(l));
    }
    if is_top {
        h += &format!("//\n// Config ({file}):\n");
        cfg.source.lines().for_each(|l| h += &comment(&format!("  {l}").trim_end().to_string()));
    }
    h += rule;
    h
}
