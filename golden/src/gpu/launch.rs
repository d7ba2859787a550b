//! Launch descriptions (`workloads/*/*.toml`): which kernels run with which grid, block
//! and arguments, the buffers they use (sizes, element types, how they are filled), and
//! which outputs are checked against which Rust reference implementation.
//!
//! ```toml
//! name = "vecadd"
//!
//! [[buffer]]
//! name = "a"
//! type = "f32"
//! len = 10000
//! init = { kind = "uniform", lo = -1.0, hi = 1.0, seed = 1 }
//!
//! [[kernel]]
//! ptx = "vecadd.ptx"            # relative to this file
//! entry = "vecadd"              # optional when the module has one entry
//! grid = 40                     # or [x, y, z]
//! block = 256                   # or [x, y, z]
//! args = ["a", "b", "c", 10000] # buffer names (their device address), numbers,
//!                               # or "$iter" (the repetition index)
//!
//! [check]
//! reference = "vecadd"
//! outputs = ["c"]
//! params = { n = 10000 }
//! ```
//!
//! Generators (`init.kind`): `zeros`, `iota` (`start`, `step`), `constant` (`value`),
//! `uniform` (`lo`, `hi`, `seed`; floats), `randint` (`lo`, `hi` inclusive, `seed`),
//! `file` (`path`: raw little-endian elements), `graph_row_offsets` / `graph_columns`
//! (`nodes`, `degree`, `seed`: a random graph in CSR form, see [`random_graph`]).
//! `uniform` and `randint` without `seed` derive one from the run's seed.
//!
//! Repetition: `repeat = n` launches the kernel n times; `loop_while = "flag"` clears
//! element 0 of the u32 buffer `flag` before each launch and launches again while the
//! kernel set it (Rodinia's BFS host loop), at most `max_iterations` times.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
pub use super::host::{Elem, HostBuffer, HostBuffers};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Deserialize;

use crate::config::ConfigError;

use crate::config::toml_error;
use super::ptx::{load_module, Kernel, PtxError, Ty};

/// A malformed launch: a field problem (file, field, message, allowed) or a PTX error.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LaunchError {
    #[error("{0}")]
    Field(ConfigError),
    #[error("{0}")]
    Ptx(PtxError),
}

impl LaunchError {
    fn field(file: &Path, field: impl Into<String>, message: impl Into<String>, allowed: Option<String>) -> Self {
        LaunchError::Field(ConfigError { file: file.to_path_buf(), field: field.into(), message: message.into(), allowed })
    }
}


/// How a buffer is filled.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Init {
    Zeros,
    Iota {
        #[serde(default)]
        start: f64,
        #[serde(default = "one")]
        step: f64,
    },
    Constant {
        value: f64,
    },
    Uniform {
        lo: f64,
        hi: f64,
        #[serde(default)]
        seed: Option<u64>,
    },
    Randint {
        lo: i64,
        hi: i64,
        #[serde(default)]
        seed: Option<u64>,
    },
    File {
        path: String,
    },
    GraphRowOffsets {
        nodes: u32,
        degree: u32,
        seed: u64,
    },
    GraphColumns {
        nodes: u32,
        degree: u32,
        seed: u64,
    },
}

fn one() -> f64 {
    1.0
}

/// A buffer of the launch.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferSpec {
    pub name: String,
    pub elem: Elem,
    pub len: usize,
    pub init: Init,
    /// Contents of an `init = { kind = "file" }` buffer, read at load time.
    file_data: Option<Vec<u8>>,
}

/// A kernel argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// Device address of buffer `i`.
    Buffer(usize),
    /// The repetition index.
    Iter,
    /// A scalar, already encoded for the parameter's type.
    Scalar(u64),
}

/// One `[[kernel]]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelSpec {
    pub kernel: Arc<Kernel>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub regs_per_thread: u32,
    pub args: Vec<Arg>,
    pub repeat: u32,
    pub loop_while: Option<usize>,
    pub max_iterations: u32,
}

/// The `[check]` section.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckSpec {
    pub reference: String,
    pub outputs: Vec<usize>,
    pub rtol: f64,
    pub atol: f64,
    pub params: BTreeMap<String, f64>,
}

/// The largest `items` a launch may declare (2^48).
pub const MAX_ITEMS: u64 = 1 << 48;

/// A loaded, validated launch description with its kernels decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    pub name: String,
    pub path: PathBuf,
    pub buffers: Vec<BufferSpec>,
    pub kernels: Vec<KernelSpec>,
    pub check: Option<CheckSpec>,
    /// `items`: the work items the launch processes (pixels of an image, elements of a
    /// vector), for the report's throughput (`giga_items_per_s`); optional.
    pub items: Option<u64>,
}


#[derive(Deserialize)]
#[serde(untagged)]
enum Dim {
    One(u32),
    Three([u32; 3]),
}

impl Dim {
    fn xyz(&self) -> [u32; 3] {
        match self {
            Dim::One(x) => [*x, 1, 1],
            Dim::Three(v) => *v,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLaunch {
    name: String,
    #[serde(default, rename = "buffer")]
    buffers: Vec<RawBuffer>,
    #[serde(rename = "kernel")]
    kernels: Vec<RawKernel>,
    #[serde(default)]
    check: Option<RawCheck>,
    #[serde(default)]
    items: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuffer {
    name: String,
    #[serde(rename = "type")]
    elem: Elem,
    #[serde(default)]
    len: Option<usize>,
    init: Init,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKernel {
    ptx: String,
    #[serde(default)]
    entry: Option<String>,
    grid: Dim,
    block: Dim,
    #[serde(default)]
    shared_bytes: u32,
    #[serde(default)]
    regs_per_thread: Option<u32>,
    #[serde(default)]
    args: Vec<toml::Value>,
    #[serde(default)]
    repeat: Option<u32>,
    #[serde(default)]
    loop_while: Option<String>,
    #[serde(default)]
    max_iterations: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    reference: String,
    outputs: Vec<String>,
    #[serde(default)]
    rtol: f64,
    #[serde(default)]
    atol: f64,
    #[serde(default)]
    params: BTreeMap<String, f64>,
}

/// A random directed graph in CSR form (our generator for BFS): node v has
/// `1 + r` out-edges, r uniform in `0..2*degree-1`; its first edge goes to
/// `(v + 1) mod nodes` (so every node is reachable from node 0), the others to uniform
/// random nodes other than v.
pub fn random_graph(nodes: u32, degree: u32, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut offsets = Vec::with_capacity(nodes as usize + 1);
    let mut cols = Vec::new();
    offsets.push(0u32);
    for v in 0..nodes {
        let d = 1 + rng.random_range(0..(2 * degree.max(1) - 1));
        cols.push((v + 1) % nodes);
        for _ in 1..d {
            let mut u = rng.random_range(0..nodes);
            if u == v && nodes > 1 {
                u = (u + 1) % nodes;
            }
            cols.push(u);
        }
        offsets.push(cols.len() as u32);
    }
    (offsets, cols)
}

impl Launch {
    /// Read, parse and validate a launch file and the PTX it names.
    pub fn load(path: &Path) -> Result<Launch, LaunchError> {
        let text = std::fs::read_to_string(path).map_err(|e| LaunchError::field(path, "<file>", format!("cannot read: {e}"), None))?;
        Self::parse(path, &text)
    }

    /// Parse launch text; PTX and data files are resolved relative to `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Launch, LaunchError> {
        let raw: RawLaunch = toml::from_str(text).map_err(|e| LaunchError::Field(toml_error(path, text, &e)))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let ferr = |field: String, msg: String, allowed: Option<String>| LaunchError::field(path, field, msg, allowed);
        crate::config::check_name("name", &raw.name).map_err(|e| LaunchError::Field(e.in_file(path)))?;
        // buffers
        let mut buffers = Vec::new();
        for (i, b) in raw.buffers.into_iter().enumerate() {
            let f = format!("buffer[{i}]");
            if buffers.iter().any(|x: &BufferSpec| x.name == b.name) {
                return Err(ferr(format!("{f}.name"), format!("buffer `{}` defined twice", b.name), None));
            }
            let mut file_data = None;
            let derived = match &b.init {
                Init::GraphRowOffsets { nodes, .. } => Some(*nodes as usize + 1),
                Init::GraphColumns { nodes, degree, seed } => {
                    // the column count depends on the generated graph
                    let (o, _) = random_graph(*nodes, *degree, *seed);
                    Some(o[*nodes as usize] as usize)
                }
                Init::File { path: p } => {
                    let fp = dir.join(p);
                    let data = std::fs::read(&fp).map_err(|e| ferr(format!("{f}.init.path"), format!("cannot read {}: {e}", fp.display()), None))?;
                    if data.len() % b.elem.bytes() != 0 {
                        return Err(ferr(format!("{f}.init.path"), format!("{} bytes is not a whole number of {:?} elements", data.len(), b.elem), None));
                    }
                    let n = data.len() / b.elem.bytes();
                    file_data = Some(data);
                    Some(n)
                }
                _ => None,
            };
            match &b.init {
                Init::GraphRowOffsets { nodes, degree, .. } | Init::GraphColumns { nodes, degree, .. } => {
                    if *nodes == 0 || *degree == 0 {
                        return Err(ferr(format!("{f}.init"), "a graph needs nodes >= 1 and degree >= 1".into(), Some("nodes 1..=2^31, degree 1..=1024".into())));
                    }
                    if !matches!(b.elem, Elem::U32 | Elem::I32) {
                        return Err(ferr(format!("{f}.type"), "graph buffers hold u32 indices".into(), Some("u32".into())));
                    }
                }
                Init::Uniform { lo, hi, .. } if lo.partial_cmp(hi).is_none_or(|o| o == std::cmp::Ordering::Greater) => {
                    return Err(ferr(format!("{f}.init"), format!("lo {lo} > hi {hi}"), Some("lo <= hi".into())));
                }
                Init::Randint { lo, hi, .. } if lo > hi => {
                    return Err(ferr(format!("{f}.init"), format!("lo {lo} > hi {hi}"), Some("lo <= hi".into())));
                }
                _ => {}
            }
            let len = match (b.len, derived) {
                (Some(l), Some(d)) if l != d => {
                    return Err(ferr(format!("{f}.len"), format!("{l} does not match the {d} elements the generator produces"), Some(format!("{d} or leave it out"))));
                }
                (Some(l), _) => l,
                (None, Some(d)) => d,
                (None, None) => return Err(ferr(format!("{f}.len"), "missing".into(), Some("1..=2^32 elements".into()))),
            };
            if len == 0 || len > 1 << 32 {
                return Err(ferr(format!("{f}.len"), format!("{len} is out of range"), Some("1..=4294967296".into())));
            }
            buffers.push(BufferSpec { name: b.name, elem: b.elem, len, init: b.init, file_data });
        }
        // kernels
        if raw.kernels.is_empty() {
            return Err(ferr("kernel".into(), "no [[kernel]] entries".into(), Some("at least one".into())));
        }
        let mut modules: BTreeMap<PathBuf, super::ptx::Module> = BTreeMap::new();
        let mut kernels = Vec::new();
        for (i, k) in raw.kernels.into_iter().enumerate() {
            let f = format!("kernel[{i}]");
            let ptx_path = dir.join(&k.ptx);
            if !modules.contains_key(&ptx_path) {
                if !ptx_path.exists() {
                    return Err(ferr(format!("{f}.ptx"), format!("{} does not exist", ptx_path.display()), None));
                }
                let m = load_module(&ptx_path).map_err(LaunchError::Ptx)?;
                modules.insert(ptx_path.clone(), m);
            }
            let m = &modules[&ptx_path];
            let names = || m.kernels.iter().map(|k| k.name.clone()).collect::<Vec<_>>().join(", ");
            let kernel = match &k.entry {
                Some(e) => m.kernel(e).ok_or_else(|| ferr(format!("{f}.entry"), format!("no entry `{e}` in {}", ptx_path.display()), Some(names())))?,
                None => match m.kernels.as_slice() {
                    [one] => one,
                    _ => return Err(ferr(format!("{f}.entry"), format!("{} has {} entries; name one", ptx_path.display(), m.kernels.len()), Some(names()))),
                },
            };
            let grid = k.grid.xyz();
            let block = k.block.xyz();
            for (d, v) in grid.iter().enumerate() {
                if *v == 0 || (d == 0 && *v > i32::MAX as u32) || (d > 0 && *v > 65535) {
                    return Err(ferr(format!("{f}.grid"), format!("dimension {d} = {v} is out of range"), Some("x 1..=2^31-1, y and z 1..=65535".into())));
                }
            }
            let threads: u64 = block.iter().map(|&b| b as u64).product();
            if block.contains(&0) || threads > 1024 || block[2] > 64 {
                return Err(ferr(format!("{f}.block"), format!("{block:?} is not a valid block ({threads} threads)"), Some("1..=1024 threads, z <= 64".into())));
            }
            if k.shared_bytes > 0 && !kernel.uses_dynamic_shared {
                return Err(ferr(format!("{f}.shared_bytes"), format!("`{}` declares no `.extern .shared` array", kernel.name), Some("0".into())));
            }
            if k.args.len() != kernel.params.len() {
                let want = kernel.params.iter().map(|p| format!("{} .{}", p.name, p.ty.name())).collect::<Vec<_>>().join(", ");
                return Err(ferr(format!("{f}.args"), format!("{} arguments for {} parameters", k.args.len(), kernel.params.len()), Some(want)));
            }
            let mut args = Vec::new();
            for (j, (a, p)) in k.args.iter().zip(&kernel.params).enumerate() {
                let af = format!("{f}.args[{j}]");
                let arg = match a {
                    toml::Value::String(s) if s == "$iter" => {
                        if p.ty.is_float() || p.size > 8 {
                            return Err(ferr(af, format!("\"$iter\" for float/array parameter `{}`", p.name), Some("an integer parameter".into())));
                        }
                        Arg::Iter
                    }
                    toml::Value::String(s) => {
                        let bi = buffers.iter().position(|b| &b.name == s).ok_or_else(|| {
                            ferr(af.clone(), format!("no buffer named `{s}`"), Some(buffers.iter().map(|b| b.name.clone()).collect::<Vec<_>>().join(", ")))
                        })?;
                        if p.size != 8 || p.ty.is_float() {
                            return Err(ferr(af, format!("buffer `{s}` passed to .{} parameter `{}`", p.ty.name(), p.name), Some("a .u64/.b64/.s64 parameter".into())));
                        }
                        Arg::Buffer(bi)
                    }
                    toml::Value::Integer(v) => {
                        if p.ty.is_float() {
                            Arg::Scalar(if p.ty == Ty::F32 { (*v as f32).to_bits() as u64 } else { (*v as f64).to_bits() })
                        } else {
                            let bits = p.ty.bits();
                            let (lo, hi) = if p.ty.is_signed() { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
                            if (*v as i128) < lo || (*v as i128) > hi {
                                return Err(ferr(af, format!("{v} does not fit .{} parameter `{}`", p.ty.name(), p.name), Some(format!("{lo}..={hi}"))));
                            }
                            Arg::Scalar((*v as u64) & p.ty.mask())
                        }
                    }
                    toml::Value::Float(v) => match p.ty {
                        Ty::F32 => Arg::Scalar((*v as f32).to_bits() as u64),
                        Ty::F64 => Arg::Scalar(v.to_bits()),
                        _ => return Err(ferr(af, format!("float {v} for .{} parameter `{}`", p.ty.name(), p.name), Some("an integer".into()))),
                    },
                    other => return Err(ferr(af, format!("unsupported argument {other}"), Some("a buffer name, a number or \"$iter\"".into()))),
                };
                args.push(arg);
            }
            let loop_while = match &k.loop_while {
                None => None,
                Some(n) => {
                    let bi = buffers.iter().position(|b| &b.name == n).ok_or_else(|| ferr(format!("{f}.loop_while"), format!("no buffer named `{n}`"), None))?;
                    if buffers[bi].elem != Elem::U32 {
                        return Err(ferr(format!("{f}.loop_while"), format!("`{n}` is not a u32 buffer"), Some("a u32 buffer".into())));
                    }
                    Some(bi)
                }
            };
            let repeat = k.repeat.unwrap_or(1);
            if repeat == 0 || repeat > 1_000_000 {
                return Err(ferr(format!("{f}.repeat"), format!("{repeat} is out of range"), Some("1..=1000000".into())));
            }
            if k.repeat.is_some() && loop_while.is_some() {
                return Err(ferr(format!("{f}.repeat"), "give either `repeat` or `loop_while`".into(), None));
            }
            let max_iterations = k.max_iterations.unwrap_or(1000);
            let regs_per_thread = match k.regs_per_thread {
                Some(r) if r == 0 || r > 255 => return Err(ferr(format!("{f}.regs_per_thread"), format!("{r} is out of range"), Some("1..=255".into()))),
                Some(r) => r,
                None => kernel.regs_per_thread,
            };
            kernels.push(KernelSpec {
                kernel: Arc::new(kernel.clone()),
                grid,
                block,
                dynamic_shared: k.shared_bytes,
                regs_per_thread,
                args,
                repeat,
                loop_while,
                max_iterations,
            });
        }
        let check = match raw.check {
            None => None,
            Some(c) => {
                if !super::workloads::REFERENCES.contains(&c.reference.as_str()) {
                    return Err(ferr("check.reference".into(), format!("no reference implementation `{}`", c.reference), Some(super::workloads::REFERENCES.join(", "))));
                }
                let mut outputs = Vec::new();
                for (j, o) in c.outputs.iter().enumerate() {
                    let bi = buffers.iter().position(|b| &b.name == o).ok_or_else(|| ferr(format!("check.outputs[{j}]"), format!("no buffer named `{o}`"), None))?;
                    outputs.push(bi);
                }
                if !(c.rtol >= 0.0 && c.atol >= 0.0) {
                    return Err(ferr("check.rtol".into(), "tolerances must be >= 0".into(), Some(">= 0".into())));
                }
                Some(CheckSpec { reference: c.reference, outputs, rtol: c.rtol, atol: c.atol, params: c.params })
            }
        };
        if let Some(n) = raw.items {
            if n == 0 || n > MAX_ITEMS {
                return Err(ferr("items".into(), format!("{n} is out of range"), Some(format!("1..={MAX_ITEMS}"))));
            }
        }
        Ok(Launch { name: raw.name, path: path.to_path_buf(), buffers, kernels, check, items: raw.items })
    }

    /// Generate every buffer's initial contents (`seed` for generators without one).
    pub fn materialize(&self, seed: u64) -> HostBuffers {
        let mut out = BTreeMap::new();
        for (i, b) in self.buffers.iter().enumerate() {
            let mut data = Vec::with_capacity(b.len * b.elem.bytes());
            let gen_seed = |s: &Option<u64>| s.unwrap_or(seed ^ (0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1)));
            match &b.init {
                Init::Zeros => data.resize(b.len * b.elem.bytes(), 0),
                Init::Iota { start, step } => (0..b.len).for_each(|k| b.elem.encode(start + step * k as f64, &mut data)),
                Init::Constant { value } => (0..b.len).for_each(|_| b.elem.encode(*value, &mut data)),
                Init::Uniform { lo, hi, seed: s } => {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(gen_seed(s));
                    for _ in 0..b.len {
                        let u: f64 = rng.random();
                        b.elem.encode(lo + (hi - lo) * u, &mut data);
                    }
                }
                Init::Randint { lo, hi, seed: s } => {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(gen_seed(s));
                    for _ in 0..b.len {
                        let v = rng.random_range(*lo..=*hi);
                        b.elem.encode(v as f64, &mut data);
                    }
                }
                Init::File { .. } => data = self.buffers[i].file_data.clone().expect("read at load"),
                Init::GraphRowOffsets { nodes, degree, seed: s } => {
                    let (o, _) = random_graph(*nodes, *degree, *s);
                    o.iter().for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                }
                Init::GraphColumns { nodes, degree, seed: s } => {
                    let (_, c) = random_graph(*nodes, *degree, *s);
                    c.iter().for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                }
            }
            data.resize(b.len * b.elem.bytes(), 0);
            out.insert(b.name.clone(), HostBuffer { name: b.name.clone(), elem: b.elem, data });
        }
        out
    }
}
