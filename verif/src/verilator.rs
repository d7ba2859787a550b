//! Building a design's Verilator model as a shared library, cached by content hash.
//!
//! The library holds the Verilated model plus the askama-rendered C++ shim
//! (`templates/cosim_shim.cpp`). Its cache key covers the design's content hash, the
//! shim text, the Verilator and C++ compiler versions and the flags, so any change
//! rebuilds and a second run (or a second `cargo test`) reuses it. Concurrent builders
//! of the same key serialize on a lock file; a missing Verilator is an error with a fix,
//! never a skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use askama::Template;
use hdl_gen::design::Design;

use crate::cache_key::digest;
use crate::frame::{Layout, Slot};

/// Bump when the shim's C ABI changes.
pub const SHIM_ABI: u32 = 2;

/// Problems finding or running the tools.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("`{tool}` was not found on PATH ({detail}); run `make setup` to install verilator, yosys, iverilog and clang from Debian packages")]
    Missing { tool: String, detail: String },
    #[error("{what} failed (exit {code:?}); log: {log}\n{tail}")]
    Failed { what: String, code: Option<i32>, log: PathBuf, tail: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("design: {0}")]
    Design(String),
    #[error("shim template: {0}")]
    Template(#[from] askama::Error),
}

/// The Verilator on this machine, and the C++ compiler its models are built with.
#[derive(Debug, Clone)]
pub struct Verilator {
    pub version: String,
    pub root: PathBuf,
    pub cxx: Cxx,
}

/// The C++ compiler of a model's build (Verilator's makefile variables `CXX` and `LINK`).
#[derive(Debug, Clone)]
pub struct Cxx {
    /// The command.
    pub command: String,
    /// The first line of `<command> --version` (part of every build's cache key).
    pub version: String,
}

/// The compiler Verilated C++ is built with: `$CXX` when set, else `clang++` when on
/// PATH, else `g++` (Verilator's own default). clang compiles Verilator's C++ in less
/// time than g++ (the paper-preset SQ on this 2-core machine: 32 s against 43 s of CPU
/// at -O0, 44 s against 68 s at -O1; the GPU-CC paper SM at -O2, one pair run back to
/// back: 35 s against 45 s to build, 200,000 lockstep cycles in 9.8 s against 15.9 s;
/// the README's benchmarks were measured with g++ models). `make setup`
/// installs Debian's clang; a compiler that does not run is an error, never a skip.
pub fn cxx() -> Result<Cxx, BuildError> {
    static FOUND: std::sync::OnceLock<Result<Cxx, String>> = std::sync::OnceLock::new();
    let found = FOUND.get_or_init(|| {
        let version = |c: &str| {
            let out = Command::new(c).arg("--version").output().ok()?;
            out.status.success().then(|| String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().trim().to_string())
        };
        let candidates: Vec<String> = match std::env::var("CXX") {
            Ok(c) if !c.trim().is_empty() => vec![c.trim().to_string()],
            _ => vec!["clang++".into(), "g++".into()],
        };
        candidates.iter().find_map(|c| version(c).map(|v| Cxx { command: c.clone(), version: v })).ok_or_else(|| format!("none of {} runs (`--version`)", candidates.join(", ")))
    });
    found.clone().map_err(|detail| BuildError::Missing { tool: "a C++ compiler".into(), detail })
}

/// Find Verilator and the C++ compiler, or fail loudly.
pub fn verilator() -> Result<Verilator, BuildError> {
    let out = Command::new("verilator").arg("--version").output().map_err(|e| BuildError::Missing { tool: "verilator".into(), detail: e.to_string() })?;
    if !out.status.success() {
        return Err(BuildError::Missing { tool: "verilator".into(), detail: "`verilator --version` failed".into() });
    }
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let root = Command::new("verilator").args(["--getenv", "VERILATOR_ROOT"]).output()?;
    let root = PathBuf::from(String::from_utf8_lossy(&root.stdout).trim());
    Ok(Verilator { version, root, cxx: cxx()? })
}

/// Optimisation of the C++ model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    /// `-O1`: quick to compile; tests.
    Quick,
    /// `-O2`: benchmarks and long runs.
    Fast,
    /// `-O0`: quickest to compile; big meshes and many small designs in tests.
    Debug,
}

/// How a model is built: the C++ optimisation, the threads of the Verilated model
/// (`verilator --threads N`; 1 is a single-threaded model) and whether it can write a
/// VCD (`--trace`). An [`Opt`] alone means one thread and no tracing.
///
/// Tracing is opt-in because it is most of a small model's build: Verilator's trace
/// code is about 40% of the C++ it writes (3.2 MB of 7.0 MB for a 3x3 VC mesh), and a
/// traced `-O0` build of that mesh takes 12.9 s against 7.8 s untraced. A run that asks
/// for a waveform, or a mismatch that wants one, builds the traced twin of the model
/// (cached like any build; see `Rtl::traced`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOpts {
    pub opt: Opt,
    pub threads: u32,
    pub trace: bool,
}

impl From<Opt> for BuildOpts {
    fn from(opt: Opt) -> Self {
        BuildOpts { opt, threads: 1, trace: false }
    }
}

impl BuildOpts {
    /// The most threads a model is built with (Verilator's own limit is far higher; a
    /// lockstep co-simulation calls the model once per cycle, so more threads than
    /// cores only add synchronisation).
    pub const MAX_THREADS: u32 = 64;

    /// The same build, able to write a VCD.
    pub fn traced(self) -> Self {
        BuildOpts { trace: true, ..self }
    }

    /// Verilator's options beyond [`MODEL_FLAGS`].
    fn verilator_args(self) -> Vec<String> {
        let mut a = Vec::new();
        if self.trace {
            a.push("--trace".into());
        }
        if self.threads > 1 {
            a.extend(["--threads".into(), self.threads.to_string()]);
        }
        a
    }

    /// The Verilator runtime's object files this build links (shared by every model
    /// built with the same flags).
    fn runtime_objects(self) -> &'static [&'static str] {
        if self.trace {
            &["verilated.o", "verilated_vcd_c.o", "verilated_threads.o"]
        } else {
            &["verilated.o", "verilated_threads.o"]
        }
    }

    /// Everything that distinguishes one build of a design from another.
    fn flags(self) -> String {
        let mut f = vec![self.opt.cflag().to_string()];
        f.extend(MODEL_FLAGS.iter().map(|s| s.to_string()));
        f.extend(self.verilator_args());
        f.join(" ")
    }
}

impl Opt {
    fn cflag(self) -> &'static str {
        match self {
            Opt::Quick => "-O1",
            Opt::Fast => "-O2",
            Opt::Debug => "-O0",
        }
    }
}

/// Where built libraries live: `$GPUFORGE_COSIM_CACHE`, else `target/gpuforge-cosim`
/// of the enclosing cargo workspace, else the system temp dir.
pub fn cache_root() -> PathBuf {
    if let Ok(d) = std::env::var("GPUFORGE_COSIM_CACHE") {
        return PathBuf::from(d);
    }
    if let Ok(d) = std::env::var("CARGO_TARGET_DIR") {
        return PathBuf::from(d).join("gpuforge-cosim");
    }
    let mut dir = std::env::current_dir().ok();
    while let Some(d) = dir {
        if d.join("Cargo.lock").exists() {
            return d.join("target").join("gpuforge-cosim");
        }
        dir = d.parent().map(Path::to_path_buf);
    }
    std::env::temp_dir().join("gpuforge-cosim")
}

struct PortCode {
    code: String,
}

#[derive(Template)]
#[template(path = "cosim_shim.cpp", escape = "none")]
struct Shim {
    top: String,
    hash: String,
    abi: u32,
    in_words: usize,
    out_words: usize,
    clock: String,
    /// The threads the model was Verilated with (the context must offer as many).
    threads: u32,
    set_inputs: Vec<PortCode>,
    get_outputs: Vec<PortCode>,
}

fn ctype(width: u32) -> &'static str {
    match width {
        0..=8 => "CData",
        9..=16 => "SData",
        17..=32 => "IData",
        _ => "QData",
    }
}

fn set_code(s: &Slot) -> String {
    if s.width <= 64 {
        format!("t->{n} = ({ty})(in[{w}] & {m:#x}ULL);", n = s.name, ty = ctype(s.width), w = s.word, m = s.last_mask())
    } else {
        let words32 = s.width.div_ceil(32);
        format!(
            "std::memcpy(t->{n}.data(), &in[{w}], {b}); t->{n}[{last}] &= {m:#x}U;",
            n = s.name,
            w = s.word,
            b = words32 * 4,
            last = words32 - 1,
            m = if s.width.is_multiple_of(32) { u32::MAX } else { (1u32 << (s.width % 32)) - 1 }
        )
    }
}

fn get_code(s: &Slot) -> String {
    if s.width <= 64 {
        format!("out[{w}] = (uint64_t)t->{n};", n = s.name, w = s.word)
    } else {
        let words32 = s.width.div_ceil(32);
        let mut c = String::new();
        if words32 % 2 == 1 {
            c += &format!("out[{}] = 0; ", s.word + s.words - 1);
        }
        c += &format!("std::memcpy(&out[{w}], t->{n}.data(), {b});", w = s.word, n = s.name, b = words32 * 4);
        c
    }
}

/// Render the C++ shim for a layout.
pub fn shim_source(layout: &Layout, content_hash: &str, threads: u32) -> Result<String, BuildError> {
    Ok(Shim {
        top: layout.top.clone(),
        hash: content_hash.to_string(),
        abi: SHIM_ABI,
        in_words: layout.in_words,
        out_words: layout.out_words,
        clock: layout.clock.clone(),
        threads,
        set_inputs: layout.inputs.iter().map(|s| PortCode { code: set_code(s) }).collect(),
        get_outputs: layout.outputs.iter().map(|s| PortCode { code: get_code(s) }).collect(),
    }
    .render()?)
}

/// A built model library.
#[derive(Debug, Clone)]
pub struct Built {
    pub lib: PathBuf,
    pub layout: Layout,
    pub content_hash: String,
    /// True when this call compiled it (false: cache hit).
    pub compiled: bool,
    /// How it was built.
    pub opts: BuildOpts,
    /// The design it was built from (to build its traced twin on demand).
    pub design: Arc<Design>,
}

impl Built {
    /// This model's traced twin: itself if it was built with `--trace`.
    pub fn traced(&self) -> Result<Built, BuildError> {
        if self.opts.trace {
            return Ok(self.clone());
        }
        build(&self.design, self.opts.traced())
    }
}

fn run_logged(mut cmd: Command, what: &str, log: &Path) -> Result<(), BuildError> {
    let out = cmd.output().map_err(|e| BuildError::Missing { tool: what.into(), detail: e.to_string() })?;
    let mut text = String::from_utf8_lossy(&out.stdout).to_string();
    text += &String::from_utf8_lossy(&out.stderr);
    std::fs::write(log, &text)?;
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(25).collect();
        let tail = tail.into_iter().rev().collect::<Vec<_>>().join("\n");
        return Err(BuildError::Failed { what: what.into(), code: out.status.code(), log: log.to_path_buf(), tail });
    }
    Ok(())
}

/// Verilator flags of every model (the C++ optimisation level comes from [`Opt`],
/// tracing and threads from [`BuildOpts`]).
const MODEL_FLAGS: [&str; 5] = ["--x-assign", "fast", "--x-initial", "fast", "--noassert"];

fn runtime_dir(root: &Path, v: &Verilator, flags: &str) -> PathBuf {
    let hex = digest([v.version.as_bytes(), v.cxx.version.as_bytes(), flags.as_bytes(), &SHIM_ABI.to_le_bytes()], 8);
    root.join(format!("runtime-{hex}"))
}

/// Copy cached runtime objects into a fresh build directory; false if none cached.
fn reuse_runtime(runtime: &Path, obj: &Path, objects: &[&str]) -> Result<bool, BuildError> {
    if !objects.iter().all(|o| runtime.join(o).exists()) {
        return Ok(false);
    }
    std::fs::create_dir_all(obj)?;
    for o in objects {
        // a copy gets a new modification time: newer than the runtime's sources
        std::fs::copy(runtime.join(o), obj.join(o))?;
    }
    Ok(true)
}

/// Keep the runtime objects of a successful build (best effort, atomic per file).
fn save_runtime(runtime: &Path, obj: &Path, objects: &[&str]) {
    if std::fs::create_dir_all(runtime).is_err() {
        return;
    }
    for o in objects {
        let tmp = runtime.join(format!("{o}.tmp-{}", std::process::id()));
        if std::fs::copy(obj.join(o), &tmp).is_ok() {
            let _ = std::fs::rename(&tmp, runtime.join(o));
        }
    }
}

/// What identifies a build: the tool, the layout, the shim, the flags and the cache key.
struct BuildKey {
    v: Verilator,
    layout: Layout,
    shim: String,
    flags: String,
    key: String,
}

fn build_key(design: &Design, opts: BuildOpts) -> Result<BuildKey, BuildError> {
    let manifest = &design.manifest;
    let v = verilator()?;
    let layout = Layout::from_manifest(manifest).map_err(BuildError::Design)?;
    let shim = shim_source(&layout, &manifest.content_hash, opts.threads)?;
    let flags = opts.flags();
    let hex = digest([manifest.content_hash.as_str(), shim.as_str(), v.version.as_str(), v.cxx.version.as_str(), flags.as_str()].map(str::as_bytes), 12);
    let key = format!("{}-{hex}", manifest.top);
    Ok(BuildKey { v, layout, shim, flags, key })
}

/// Whether the model of `design` is already in the build cache.
pub fn cached(design: &Design, opts: impl Into<BuildOpts>) -> Result<bool, BuildError> {
    let k = build_key(design, opts.into())?;
    Ok(cache_root().join(&k.key).join(format!("lib{}.so", design.manifest.top)).exists())
}

/// A rough build time for a status line: Verilator's C++ grows with the design's Verilog.
/// Calibrated on this project's designs on a quiet 2-core machine, untraced: about 8 s
/// for a 5,500-line 3x3 VC mesh at -O0, 21 s for the 10,000-line GPU-CC paper SM at -O2
/// (`make run`); real times vary with the machine and its load, and a traced build
/// takes about 1.6x.
pub fn estimate_seconds(design: &Design, opts: impl Into<BuildOpts>) -> f64 {
    let opts = opts.into();
    let lines: usize = design.files.iter().map(|(_, t)| t.lines().count()).sum();
    let (base, per_kline) = match opts.opt {
        Opt::Debug => (2.0, 1.0),
        Opt::Quick => (3.0, 1.5),
        Opt::Fast => (3.0, 1.8),
    };
    let traced = if opts.trace { 1.6 } else { 1.0 };
    traced * (base + per_kline * lines as f64 / 1000.0)
}

/// Build (or fetch from the cache) the Verilator model of a design.
pub fn build(design: &Design, opts: impl Into<BuildOpts>) -> Result<Built, BuildError> {
    let opts = opts.into();
    let manifest = &design.manifest;
    let BuildKey { v, layout, shim, flags, key } = build_key(design, opts)?;
    let root = cache_root();
    std::fs::create_dir_all(&root)?;
    let final_dir = root.join(&key);
    let lib = final_dir.join(format!("lib{}.so", manifest.top));
    let lock = std::fs::File::create(root.join(format!("{key}.lock")))?;
    lock.lock()?;
    if lib.exists() {
        return Ok(Built { lib, layout, content_hash: manifest.content_hash.clone(), compiled: false, opts, design: Arc::new(design.clone()) });
    }
    let work = root.join(format!("{key}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let src = work.join("src");
    std::fs::create_dir_all(&src)?;
    let mut files = Vec::new();
    for (name, text) in &design.files {
        std::fs::write(src.join(name), text)?;
        files.push(src.join(name));
    }
    let shim_path = src.join("cosim_shim.cpp");
    std::fs::write(&shim_path, &shim)?;
    let obj = work.join("obj");
    let mk = format!("V{}.mk", manifest.top);
    let mut gen = Command::new("verilator");
    gen.args(["--cc", "--exe", "--output-split", "20000"])
        .args(MODEL_FLAGS)
        .args(opts.verilator_args())
        .args(["--top-module", &manifest.top])
        .arg("--Mdir")
        .arg(&obj)
        .args(["-CFLAGS", &format!("-fPIC {}", opts.opt.cflag()), "-LDFLAGS", "-shared", "-o"])
        .arg(format!("lib{}.so", manifest.top))
        .args(&files)
        .arg(&shim_path);
    run_logged(gen, "verilator", &work.join("verilate.log"))?;
    // The Verilator runtime (verilated.cpp, the VCD writer, threads) is the same for
    // every design: compiled once per Verilator version and flags, then copied in
    // after Verilator wrote the makefiles (which the runtime objects depend on), so
    // make takes it as up to date.
    let runtime = runtime_dir(&root, &v, &flags);
    let objects = opts.runtime_objects();
    let reused = reuse_runtime(&runtime, &obj, objects)?;
    // Verilator's makefile compiles the model's hot code with OPT_FAST (`-Os` by
    // default), which comes after our CFLAGS and would override the chosen level:
    // set it (and OPT_SLOW) so the optimisation is the one asked for. A 3x3 VC mesh
    // builds in 14.0 s at a real -O0 against 23.3 s when OPT_FAST made it -Os.
    let level = opts.opt.cflag();
    let mut make = Command::new("make");
    make.arg("-C").arg(&obj).args(["-f", &mk, "-j", "2"]).arg(format!("OPT_FAST={level}")).arg(format!("OPT_SLOW={level}"));
    make.arg(format!("CXX={}", v.cxx.command)).arg(format!("LINK={}", v.cxx.command));
    run_logged(make, "C++ build of the Verilated model", &work.join("build.log"))?;
    if !reused {
        save_runtime(&runtime, &obj, objects);
    }
    let built = obj.join(format!("lib{}.so", manifest.top));
    let keep = work.join(format!("lib{}.so", manifest.top));
    std::fs::rename(&built, &keep)?;
    let _ = std::fs::remove_dir_all(&obj);
    let _ = std::fs::remove_dir_all(&final_dir);
    std::fs::rename(&work, &final_dir)?;
    drop(lock);
    Ok(Built { lib, layout, content_hash: manifest.content_hash.clone(), compiled: true, opts, design: Arc::new(design.clone()) })
}
