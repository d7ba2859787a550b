//! What `gpuforge gen` writes for a preset, and reading it back.
//!
//! ```text
//! rtl_out/<preset>/
//!   config.json                 the validated config and its source, once
//!   lib/<module>.v              every distinct module of the preset, once
//!   <design>/manifest.json      per design: kind, ports, parameters, tables, files, hash
//!   <design>/<top>.f            per design: its files, relative to the design directory,
//!                               each module after those it instantiates
//! ```
//!
//! A filelist works from its design directory with every tool
//! (`cd rtl_out/noc_macro_4x4/reply && verilator --lint-only -Wall -f macro_reply_mesh_noc_macro_4x4.f`,
//! `iverilog -c <top>.f`, yosys `read_verilog $(cat <top>.f)`), and a design can be
//! copied out on its own with [`Generated::write_standalone`] (`gpuforge gen --design D --standalone`).
//! Writing is atomic per preset: a failed generation leaves the output untouched.

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

use golden::block::ConfigFile;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::library::{file_header, Library, Provenance};
use crate::manifest::{content_hash, Manifest, Port};

/// Manifest file name inside a design directory.
pub const MANIFEST: &str = "manifest.json";
/// The module library of a preset.
pub const LIB_DIR: &str = "lib";
/// The validated config of a preset.
pub const CONFIG_JSON: &str = "config.json";

pub use crate::error::GenError;

/// One design of a preset, as its generator describes it.
#[derive(Debug, Clone)]
pub struct DesignSpec {
    /// Directory under the preset's output (`net`, `reply`, `routers/hinge`).
    pub dir: String,
    pub kind: serde_json::Value,
    pub top: String,
    pub ports: Vec<Port>,
    pub parameters: BTreeMap<String, serde_json::Value>,
    pub tables: BTreeMap<String, serde_json::Value>,
    pub synth: bool,
    pub synth_share: bool,
}

impl DesignSpec {
    /// Design `kind` (the block's typed design kind) in `dir`, with top module `top`.
    pub fn new(dir: &str, kind: &impl Serialize, top: &str, ports: Vec<Port>) -> DesignSpec {
        DesignSpec {
            dir: dir.to_string(),
            kind: serde_json::to_value(kind).expect("design kinds serialize"),
            top: top.to_string(),
            ports,
            parameters: BTreeMap::new(),
            tables: BTreeMap::new(),
            synth: true,
            synth_share: true,
        }
    }

    pub fn param(mut self, name: &str, v: impl Serialize) -> DesignSpec {
        self.parameters.insert(name.to_string(), serde_json::to_value(v).expect("parameters serialize"));
        self
    }

    pub fn table(mut self, name: &str, v: impl Serialize) -> DesignSpec {
        self.tables.insert(name.to_string(), serde_json::to_value(v).expect("tables serialize"));
        self
    }

    /// Leave the design out of `make synth` (whole meshes: a million cells and more).
    pub fn no_synth(mut self) -> DesignSpec {
        self.synth = false;
        self
    }

    /// Synthesize without yosys's resource sharing ([`Manifest::synth_share`]).
    pub fn no_synth_share(mut self) -> DesignSpec {
        self.synth_share = false;
        self
    }
}

/// A generated design: its manifest and its Verilog, in filelist order.
#[derive(Debug, Clone)]
pub struct Design {
    /// Directory under the preset's output.
    pub dir: String,
    pub manifest: Manifest,
    /// `(file name, text with header)`, each module after those it instantiates.
    pub files: Vec<(String, String)>,
}

/// Problems reading a generated design back.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

impl Design {
    /// The filelist text: one path per line, relative to the design directory.
    pub fn filelist(&self) -> String {
        self.manifest.files.iter().map(|f| format!("{f}\n")).collect()
    }

    /// The block's typed design kind.
    pub fn kind<D: DeserializeOwned>(&self) -> Result<D, String> {
        serde_json::from_value(self.manifest.design.clone())
            .map_err(|e| format!("{}: unknown design kind {} for block `{}` ({e})", self.manifest.top, self.manifest.design, self.manifest.block))
    }

    pub fn manifest_json(&self) -> String {
        serde_json::to_string_pretty(&self.manifest).expect("manifest serializes") + "\n"
    }

    /// Read a generated design back from its directory: the manifest, then the files
    /// its filelist names (which must be the manifest's list), checked against the
    /// manifest's content hash.
    pub fn load(dir: &Path) -> Result<Design, LoadError> {
        let err = |path: &Path, m: String| LoadError { path: path.to_path_buf(), message: m };
        let mpath = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&mpath).map_err(|e| err(&mpath, e.to_string()))?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| err(&mpath, format!("not a gpuforge manifest: {e}")))?;
        let fpath = dir.join(&manifest.filelist);
        let listed: Vec<String> =
            std::fs::read_to_string(&fpath).map_err(|e| err(&fpath, e.to_string()))?.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
        if listed != manifest.files {
            return Err(err(&fpath, "the filelist differs from the manifest's file list (edited by hand?); regenerate with `gpuforge gen`".into()));
        }
        let mut files = Vec::new();
        for f in &listed {
            let p = dir.join(f);
            let t = std::fs::read_to_string(&p).map_err(|e| err(&p, e.to_string()))?;
            let name = Path::new(f).file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            files.push((name, t));
        }
        if content_hash(files.iter().map(|(n, t)| (n.as_str(), t.as_str()))) != manifest.content_hash {
            return Err(err(dir, "the Verilog files do not match the manifest's content hash (edited by hand?); regenerate with `gpuforge gen`".into()));
        }
        Ok(Design { dir: dir.display().to_string(), manifest, files })
    }

    /// Every design directory under `root` (a preset directory, a design directory or
    /// `rtl_out` itself), sorted.
    pub fn find_all(root: &Path) -> Vec<PathBuf> {
        fn walk(d: &Path, out: &mut Vec<PathBuf>) {
            if d.join(MANIFEST).is_file() {
                out.push(d.to_path_buf());
            }
            let mut subs: Vec<PathBuf> = std::fs::read_dir(d).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
            subs.sort();
            for s in subs {
                walk(&s, out);
            }
        }
        let mut v = Vec::new();
        walk(root, &mut v);
        v
    }
}

/// Everything `gen` writes for one preset.
#[derive(Debug, Clone)]
pub struct Generated {
    pub preset: String,
    pub block: String,
    /// `(file name, text with header)` of every library module, sorted by name.
    pub lib: Vec<(String, String)>,
    pub designs: Vec<Design>,
    /// `config.json`: the validated config, the file it came from and its text.
    pub config_json: String,
}

fn rel_to_lib(dir: &str) -> String {
    let depth = Path::new(dir).components().count();
    format!("{}{LIB_DIR}", "../".repeat(depth))
}

impl Generated {
    /// Assemble a preset from its library and design specs: every design's files are
    /// the closure of its top; a library module no design uses is a generator bug.
    pub fn new<C: Serialize>(cfg: &ConfigFile<C>, block: &str, lib: Library, specs: Vec<DesignSpec>) -> Result<Generated, GenError> {
        let from = Provenance { file: cfg.file_name(), preset: cfg.name.clone(), source: cfg.source.clone() };
        let tops: HashSet<&str> = specs.iter().map(|s| s.top.as_str()).collect();
        let unused = lib.unused(&tops.iter().copied().collect::<Vec<_>>())?;
        if !unused.is_empty() {
            return Err(GenError::Bug(format!("modules no design uses: {}", unused.join(", "))));
        }
        let texts: BTreeMap<&str, String> = lib.iter().map(|m| (m.name.as_str(), file_header(m, &from, tops.contains(m.name.as_str())) + &m.text)).collect();
        let mut dirs = HashSet::new();
        let mut designs = Vec::new();
        for s in specs {
            if s.dir.is_empty() || s.dir.starts_with('/') || s.dir.split('/').any(|c| c.is_empty() || c == ".." || c == "." || c == LIB_DIR) || !dirs.insert(s.dir.clone()) {
                return Err(GenError::Bug(format!("design directory `{}` is empty, reserved or used twice", s.dir)));
            }
            let closure = lib.closure(&s.top)?;
            let files: Vec<(String, String)> = closure.iter().map(|m| (format!("{}.v", m.name), texts[m.name.as_str()].clone())).collect();
            let rel = rel_to_lib(&s.dir);
            let manifest = Manifest {
                generator: format!("gpuforge {}", env!("CARGO_PKG_VERSION")),
                block: block.to_string(),
                preset: cfg.name.clone(),
                design: s.kind,
                top: s.top.clone(),
                files: files.iter().map(|(n, _)| format!("{rel}/{n}")).collect(),
                filelist: format!("{}.f", s.top),
                ports: s.ports,
                parameters: s.parameters,
                tables: s.tables,
                synth: s.synth,
                synth_share: s.synth_share,
                content_hash: content_hash(files.iter().map(|(n, t)| (n.as_str(), t.as_str()))),
            };
            designs.push(Design { dir: s.dir, manifest, files });
        }
        let config_json = serde_json::to_string_pretty(&serde_json::json!({
            "generator": format!("gpuforge {}", env!("CARGO_PKG_VERSION")),
            "block": block,
            "preset": cfg.name,
            "config_file": cfg.file_name(),
            "config": cfg.config,
            "config_source": cfg.source,
        }))
        .expect("config serializes")
            + "\n";
        let lib = texts.into_iter().map(|(n, t)| (format!("{n}.v"), t)).collect();
        Ok(Generated { preset: cfg.name.clone(), block: block.to_string(), lib, designs, config_json })
    }

    /// The design in directory `name`, or whose top module is `name`.
    pub fn design(&self, name: &str) -> Option<&Design> {
        self.designs.iter().find(|d| d.dir == name || d.manifest.top == name)
    }

    /// Every file of the preset, `(path relative to the preset directory, text)`.
    pub fn files(&self) -> Vec<(PathBuf, String)> {
        let mut v = vec![(PathBuf::from(CONFIG_JSON), self.config_json.clone())];
        v.extend(self.lib.iter().map(|(n, t)| (Path::new(LIB_DIR).join(n), t.clone())));
        for d in &self.designs {
            v.push((Path::new(&d.dir).join(MANIFEST), d.manifest_json()));
            v.push((Path::new(&d.dir).join(&d.manifest.filelist), d.filelist()));
        }
        v
    }

    /// Write to `dir` (the preset directory), replacing what is there. The preset is
    /// written to a sibling temporary directory first and swapped in by renames.
    pub fn write_to(&self, dir: &Path) -> io::Result<()> {
        write_tree_atomically(dir, &self.files())
    }

    /// Files under `dir` that differ from (or are missing for) what would be written,
    /// plus files `dir` holds that would not be. Empty when `dir` is current.
    pub fn stale_files(&self, dir: &Path) -> Vec<PathBuf> {
        let expected = self.files();
        let mut stale: Vec<PathBuf> = expected.iter().filter(|(p, t)| std::fs::read_to_string(dir.join(p)).ok().as_deref() != Some(t.as_str())).map(|(p, _)| dir.join(p)).collect();
        let want: HashSet<PathBuf> = expected.iter().map(|(p, _)| dir.join(p)).collect();
        let mut all = Vec::new();
        list_files(dir, &mut all);
        stale.extend(all.into_iter().filter(|p| !want.contains(p)));
        stale.sort();
        stale
    }

    /// Write one design on its own into `dir`: its modules, a filelist of plain file
    /// names and its manifest (for copying a design out of the library).
    pub fn write_standalone(&self, design: &Design, dir: &Path) -> io::Result<()> {
        let mut d = design.clone();
        d.manifest.files = d.files.iter().map(|(n, _)| n.clone()).collect();
        let mut files: Vec<(PathBuf, String)> = d.files.iter().map(|(n, t)| (PathBuf::from(n), t.clone())).collect();
        files.push((PathBuf::from(MANIFEST), d.manifest_json()));
        files.push((PathBuf::from(&d.manifest.filelist), d.filelist()));
        write_tree_atomically(dir, &files)
    }
}

fn list_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            list_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Write `files` (relative paths) as the whole content of `dir`: into a sibling
/// temporary directory, then swapped in by renames, so readers never see half a tree.
fn write_tree_atomically(dir: &Path, files: &[(PathBuf, String)]) -> io::Result<()> {
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let base = dir.file_name().and_then(|s| s.to_str()).unwrap_or("out");
    let tmp = parent.join(format!(".{base}.tmp-{}", std::process::id()));
    let old = parent.join(format!(".{base}.old-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = (|| {
        for (rel, text) in files {
            let p = tmp.join(rel);
            if let Some(d) = p.parent() {
                std::fs::create_dir_all(d)?;
            }
            std::fs::write(p, text)?;
        }
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
