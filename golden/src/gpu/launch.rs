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
//! align = 1024                  # optional: base address a multiple of this (a power of
//! skew = 0                      # two, 256..=1 MiB), plus `skew` bytes (0..align, a
//!                               # multiple of 4): where a buffer's lines fall among
//!                               # the memory partitions (LLC-Compute's ALIGNED and
//!                               # STRIDED microbenchmarks)
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
//!
//! [[check.expect]]              # or (and) compare with a file, no Rust reference
//! buffer = "c"
//! file = "c_expected.npy"       # .npy (NumPy v1 header) or raw little-endian elements
//! rtol = 1e-6                   # floats: |got - want| <= atol + rtol * |want|;
//! atol = 0.0                    # integers compare exactly
//! ```
//!
//! Integer arguments: a parameter of n bits takes -2^(n-1)..=2^n-1, negative values in
//! two's complement (nvcc declares `int` parameters `.u32`).
//!
//! Struct-by-value arguments (`.param .align 8 .b8 p[16]`, any array parameter) take
//! `{ struct = [ { u32 = 5 }, { f32 = 1.5 }, { u64 = "buf_a" } ] }`: typed fields (`u8`,
//! `s8`, `u16`, `s16`, `u32`, `s32`, `u64`, `s64`, `f32`, `f64`), each at its natural
//! alignment after the previous one (C layout) or at an explicit `offset = k` (a multiple
//! of its size); a `u64`/`s64` field may name a buffer (its device address). Bytes no
//! field covers are zero. Fields that overlap or do not fit the parameter are errors, and
//! so is a plain number or buffer name for an array parameter.
//!
//! Texture references: `textures = { tex_a = "a" }` on a `[[kernel]]` binds buffer `a` to
//! the kernel's texture reference `tex_a` ([`KernelSpec::textures`]).
//!
//! Generators (`init.kind`): `zeros`, `iota` (`start`, `step`), `constant` (`value`),
//! `uniform` (`lo`, `hi`, `seed`; floats), `randint` (`lo`, `hi` inclusive, `seed`),
//! `file` (`path`: raw little-endian elements), `graph_row_offsets` / `graph_columns`
//! (`nodes`, `degree`, `seed`, optional `shape = "uniform" | "descending"`: a random
//! graph in CSR form, see [`random_graph`] and [`descending_graph`]).
//! `uniform` and `randint` without `seed` derive one from the run's seed.
//!
//! Repetition: `repeat = n` launches the kernel n times; `loop_while = "flag"` clears
//! element 0 of the u32 buffer `flag` before each launch and launches again while the
//! kernel set it, at most `max_iterations` times (default 1000). Several kernels in a
//! host loop (Rodinia's BFS alternates two):
//!
//! ```toml
//! [[loop]]
//! first = 1             # the [[kernel]] entries first..=last (0-based) are the body
//! last = 2
//! while = "stop"        # a u32 buffer: the host clears element 0 before each pass
//! max_iterations = 100  # and runs the body again while a kernel set it
//! ```
//!
//! `$iter` is the pass index inside a loop. Loops do not overlap or nest; a run that
//! still sees the flag set after `max_iterations` passes fails (exit 1).

pub use super::host::{Elem, HostBuffer, HostBuffers};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Deserialize;

use crate::config::ConfigError;

use super::ptx::{load_module, Kernel, PtxError, Ty};
use crate::config::toml_error;

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
        #[serde(default)]
        shape: GraphShape,
    },
    GraphColumns {
        nodes: u32,
        degree: u32,
        seed: u64,
        #[serde(default)]
        shape: GraphShape,
    },
}

/// How a generated graph's degrees are spread over its nodes (`shape` of the graph
/// generators; both buffers of one graph must name the same).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphShape {
    /// Every node about `degree` out-edges, a ring edge first ([`random_graph`]).
    #[default]
    Uniform,
    /// Nodes numbered by decreasing degree, from `degree` down to 0
    /// ([`descending_graph`]): a skewed graph relabelled by degree, whose kernels'
    /// reads per node fall as the node index grows.
    Descending,
}

/// The graph a generator describes.
pub fn graph(nodes: u32, degree: u32, seed: u64, shape: GraphShape) -> (Vec<u32>, Vec<u32>) {
    match shape {
        GraphShape::Uniform => random_graph(nodes, degree, seed),
        GraphShape::Descending => descending_graph(nodes, degree, seed),
    }
}

/// Largest generated graph (nodes), so a generator cannot exhaust the host.
pub const MAX_GRAPH_NODES: u32 = 1 << 24;

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
    /// Base address alignment (bytes, a power of two) and the offset from it.
    pub align: u64,
    pub skew: u64,
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
    /// An array (struct-by-value) parameter: its bytes, and the (offset, buffer) pairs
    /// whose device address goes at that offset.
    Bytes { bytes: Vec<u8>, buffers: Vec<(u32, usize)> },
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
    /// Texture reference name -> index of the buffer bound to it.
    pub textures: BTreeMap<String, usize>,
}

/// A host loop: kernels `first..=last` run again while buffer `flag` (u32, element 0)
/// is non-zero after a pass; the host clears it before each pass.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopSpec {
    pub first: usize,
    pub last: usize,
    pub flag: usize,
    pub max_iterations: u32,
}

/// `[[check.expect]]`: a buffer compared with the contents of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectSpec {
    pub buffer: usize,
    pub file: PathBuf,
    pub expected: HostBuffer,
    pub rtol: f64,
    pub atol: f64,
}

/// The `[check]` section.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckSpec {
    /// A Rust reference ([`super::workloads`]) and the buffers compared with it.
    pub reference: Option<String>,
    pub outputs: Vec<usize>,
    pub rtol: f64,
    pub atol: f64,
    pub params: BTreeMap<String, f64>,
    pub expect: Vec<ExpectSpec>,
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
    /// Host loops over kernel ranges (a kernel's `loop_while` is a loop of one).
    pub loops: Vec<LoopSpec>,
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
    #[serde(default, rename = "loop")]
    loops: Vec<RawLoop>,
    #[serde(default)]
    check: Option<RawCheck>,
    #[serde(default)]
    items: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLoop {
    first: usize,
    last: usize,
    #[serde(rename = "while")]
    flag: String,
    #[serde(default)]
    max_iterations: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    buffer: String,
    file: String,
    #[serde(default)]
    rtol: f64,
    #[serde(default)]
    atol: f64,
}

/// The largest buffer alignment a launch may ask for.
pub const MAX_BUFFER_ALIGN: u64 = 1 << 20;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuffer {
    name: String,
    #[serde(rename = "type")]
    elem: Elem,
    #[serde(default)]
    len: Option<usize>,
    init: Init,
    #[serde(default)]
    align: Option<u64>,
    #[serde(default)]
    skew: Option<u64>,
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
    #[serde(default)]
    textures: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    #[serde(default)]
    reference: Option<String>,
    #[serde(default)]
    outputs: Vec<String>,
    #[serde(default)]
    rtol: f64,
    #[serde(default)]
    atol: f64,
    #[serde(default)]
    params: BTreeMap<String, f64>,
    #[serde(default)]
    expect: Vec<RawExpect>,
}

/// A directed graph in CSR form with its nodes numbered by decreasing degree (our
/// generator for the Q-cache `color` producer, whose read:write ratio must drift down
/// within one kernel, seed 002 section 6.6.3): node v has
/// `floor(degree * (1 - v/nodes)^2 + u)` out-edges, u uniform in [0, 1) (`degree` for
/// node 0, none for the last nodes, a mean of about `degree / 3`), each to a uniform
/// random node other than v.
pub fn descending_graph(nodes: u32, degree: u32, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut offsets = Vec::with_capacity(nodes as usize + 1);
    let mut cols = Vec::new();
    offsets.push(0u32);
    for v in 0..nodes {
        let x = 1.0 - v as f64 / nodes as f64;
        let u: f64 = rng.random();
        let d = (degree as f64 * x * x + u).floor() as u32;
        for _ in 0..d {
            cols.push(random_other(&mut rng, v, nodes));
        }
        offsets.push(cols.len() as u32);
    }
    (offsets, cols)
}

/// A uniform random node other than `v` (`v` itself moves to the next node).
fn random_other(rng: &mut Xoshiro256PlusPlus, v: u32, nodes: u32) -> u32 {
    let u = rng.random_range(0..nodes);
    if u == v && nodes > 1 {
        (u + 1) % nodes
    } else {
        u
    }
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
            cols.push(random_other(&mut rng, v, nodes));
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
            match &b.init {
                Init::GraphRowOffsets { nodes, degree, .. } | Init::GraphColumns { nodes, degree, .. } => {
                    if *nodes == 0 || *nodes > MAX_GRAPH_NODES || *degree == 0 || *degree > 1024 || *nodes as u64 * *degree as u64 > MAX_GRAPH_NODES as u64 * 4 {
                        return Err(ferr(
                            format!("{f}.init"),
                            format!("a graph of {nodes} nodes and degree {degree}"),
                            Some(format!("nodes 1..={MAX_GRAPH_NODES}, degree 1..=1024, nodes x degree <= {}", MAX_GRAPH_NODES as u64 * 4)),
                        ));
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
            let mut file_data = None;
            let derived = match &b.init {
                Init::GraphRowOffsets { nodes, .. } => Some(*nodes as usize + 1),
                Init::GraphColumns { nodes, degree, seed, shape } => {
                    // the column count depends on the generated graph
                    let (o, _) = graph(*nodes, *degree, *seed, *shape);
                    Some(o[*nodes as usize] as usize)
                }
                Init::File { path: p } => {
                    let fp = dir.join(p);
                    let max = super::config::MAX_MEMORY_BYTES;
                    let data = super::host::read_input_file(&fp, max)
                        .map_err(|m| ferr(format!("{f}.init.path"), m, Some(format!("a regular file of at most {max} bytes (the largest device memory)"))))?;
                    if data.len() % b.elem.bytes() != 0 {
                        return Err(ferr(format!("{f}.init.path"), format!("{} bytes is not a whole number of {:?} elements", data.len(), b.elem), None));
                    }
                    let n = data.len() / b.elem.bytes();
                    file_data = Some(data);
                    Some(n)
                }
                _ => None,
            };
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
            // the device memory bound (the GPU config's `gpu.memory_bytes`) is checked
            // when the launch meets a config, in [`Launch::check_fits`]
            let align = b.align.unwrap_or(super::memspace::BUFFER_ALIGN);
            if !align.is_power_of_two() || !(super::memspace::BUFFER_ALIGN..=MAX_BUFFER_ALIGN).contains(&align) {
                return Err(ferr(format!("{f}.align"), format!("{align} is not a power of two in range"), Some(format!("a power of two in 256..={MAX_BUFFER_ALIGN}"))));
            }
            let skew = b.skew.unwrap_or(0);
            if skew >= align || skew % 4 != 0 {
                return Err(ferr(format!("{f}.skew"), format!("{skew} is out of range"), Some(format!("a multiple of 4 in 0..={}", align - 4))));
            }
            buffers.push(BufferSpec { name: b.name, elem: b.elem, len, init: b.init, align, skew, file_data });
        }
        // kernels
        if raw.kernels.is_empty() {
            return Err(ferr("kernel".into(), "no [[kernel]] entries".into(), Some("at least one".into())));
        }
        let mut modules: BTreeMap<PathBuf, super::ptx::Module> = BTreeMap::new();
        let mut kernels = Vec::new();
        let mut loops = Vec::new();
        for (i, k) in raw.kernels.into_iter().enumerate() {
            let f = format!("kernel[{i}]");
            let ptx_path = dir.join(&k.ptx);
            if !modules.contains_key(&ptx_path) {
                if !ptx_path.is_file() {
                    let what = if k.ptx.is_empty() {
                        "empty".to_string()
                    } else if ptx_path.exists() {
                        format!("{} is not a file", ptx_path.display())
                    } else {
                        format!("{} does not exist", ptx_path.display())
                    };
                    return Err(ferr(format!("{f}.ptx"), what, Some("a PTX file, relative to the launch file".into())));
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
                args.push(encode_arg(a, p, &buffers).map_err(|(field, msg, allowed)| ferr(format!("{f}.args[{j}]{field}"), msg, allowed))?);
            }
            if let Some(n) = &k.loop_while {
                let flag = flag_buffer(&buffers, n).map_err(|(m, a)| ferr(format!("{f}.loop_while"), m, a))?;
                let max_iterations = k.max_iterations.unwrap_or(1000);
                if max_iterations == 0 || max_iterations > 1_000_000 {
                    return Err(ferr(format!("{f}.max_iterations"), format!("{max_iterations} is out of range"), Some("1..=1000000".into())));
                }
                loops.push(LoopSpec { first: i, last: i, flag, max_iterations });
            } else if let Some(m) = k.max_iterations {
                return Err(ferr(format!("{f}.max_iterations"), format!("{m} without `loop_while`"), Some("only with loop_while".into())));
            }
            let repeat = k.repeat.unwrap_or(1);
            if repeat == 0 || repeat > 1_000_000 {
                return Err(ferr(format!("{f}.repeat"), format!("{repeat} is out of range"), Some("1..=1000000".into())));
            }
            if k.repeat.is_some() && k.loop_while.is_some() {
                return Err(ferr(format!("{f}.repeat"), "give either `repeat` or `loop_while`".into(), None));
            }
            let regs_per_thread = match k.regs_per_thread {
                Some(r) if r == 0 || r > 255 => return Err(ferr(format!("{f}.regs_per_thread"), format!("{r} is out of range"), Some("1..=255".into()))),
                Some(r) => r,
                None => kernel.regs_per_thread,
            };
            let mut textures = BTreeMap::new();
            for (tex, b) in &k.textures {
                let ok =
                    tex.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$') && tex.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
                if !ok {
                    return Err(ferr(format!("{f}.textures"), format!("`{tex}` is not a PTX identifier"), Some("the name of a .texref of the kernel".into())));
                }
                if !kernel.textures.contains(tex) {
                    let have = if kernel.textures.is_empty() { "none: the kernel declares no .texref".to_string() } else { kernel.textures.join(", ") };
                    return Err(ferr(format!("{f}.textures.{tex}"), format!("kernel `{}` has no texture reference `{tex}`", kernel.name), Some(have)));
                }
                let bi =
                    buffers.iter().position(|x| &x.name == b).ok_or_else(|| ferr(format!("{f}.textures.{tex}"), format!("no buffer named `{b}`"), Some(buffer_names(&buffers))))?;
                if buffers[bi].elem.bytes() != 4 {
                    return Err(ferr(
                        format!("{f}.textures.{tex}"),
                        format!("buffer `{b}` has {}-byte elements; a texture fetches 4-byte texels", buffers[bi].elem.bytes()),
                        Some("a buffer of f32, u32 or s32".into()),
                    ));
                }
                textures.insert(tex.clone(), bi);
            }
            kernels.push(KernelSpec { kernel: Arc::new(kernel.clone()), grid, block, dynamic_shared: k.shared_bytes, regs_per_thread, args, repeat, textures });
        }
        for (i, l) in raw.loops.iter().enumerate() {
            let f = format!("loop[{i}]");
            if l.first > l.last || l.last >= kernels.len() {
                return Err(ferr(
                    format!("{f}.last"),
                    format!("kernels {}..={} are not [[kernel]] entries", l.first, l.last),
                    Some(format!("0 <= first <= last <= {}", kernels.len() - 1)),
                ));
            }
            let flag = flag_buffer(&buffers, &l.flag).map_err(|(m, a)| ferr(format!("{f}.while"), m, a))?;
            let max_iterations = l.max_iterations.unwrap_or(1000);
            if max_iterations == 0 || max_iterations > 1_000_000 {
                return Err(ferr(format!("{f}.max_iterations"), format!("{max_iterations} is out of range"), Some("1..=1000000".into())));
            }
            if let Some(o) = loops.iter().find(|o: &&LoopSpec| o.first <= l.last && l.first <= o.last) {
                return Err(ferr(
                    format!("{f}.first"),
                    format!("kernels {}..={} overlap the loop over kernels {}..={}", l.first, l.last, o.first, o.last),
                    Some("disjoint kernel ranges".into()),
                ));
            }
            if let Some(k) = (l.first..=l.last).find(|&k| kernels[k].repeat != 1) {
                return Err(ferr(
                    format!("kernel[{k}].repeat"),
                    format!("kernel {k} is in the loop over kernels {}..={}", l.first, l.last),
                    Some("no `repeat` inside a [[loop]]".into()),
                ));
            }
            loops.push(LoopSpec { first: l.first, last: l.last, flag, max_iterations });
        }
        loops.sort_by_key(|l| l.first);
        let check = match raw.check {
            None => None,
            Some(c) => Some(parse_check(c, &buffers, dir, &ferr)?),
        };
        if let Some(n) = raw.items {
            if n == 0 || n > MAX_ITEMS {
                return Err(ferr("items".into(), format!("{n} is out of range"), Some(format!("1..={MAX_ITEMS}"))));
            }
        }
        Ok(Launch { name: raw.name, path: path.to_path_buf(), buffers, kernels, loops, check, items: raw.items })
    }

    /// Check that the buffers fit a device memory of `memory_bytes` (`config_field`
    /// names the bound in the GPU config), before anything is allocated.
    pub fn check_fits(&self, memory_bytes: u64, config_field: &str) -> Result<(), LaunchError> {
        let mut total = 0u64;
        for (i, b) in self.buffers.iter().enumerate() {
            let bytes = b.len as u64 * b.elem.bytes() as u64;
            total = super::memspace::place(total, b.align, b.skew) + bytes;
            if total > memory_bytes {
                return Err(LaunchError::field(
                    &self.path,
                    format!("buffer[{i}].len"),
                    format!("{} elements of {:?} ({bytes} bytes; {total} bytes with the buffers before it) exceed the device memory", b.len, b.elem),
                    Some(format!("buffers totalling <= {memory_bytes} bytes ({config_field})")),
                ));
            }
        }
        Ok(())
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
                    let mut value = || lo + (hi - lo) * rng.random::<f64>();
                    if b.elem == Elem::F32 {
                        // (what `encode` writes, without its match per element)
                        data.resize(b.len * 4, 0);
                        data.chunks_exact_mut(4).for_each(|c| c.copy_from_slice(&(value() as f32).to_le_bytes()));
                    } else {
                        (0..b.len).for_each(|_| b.elem.encode(value(), &mut data));
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
                Init::GraphRowOffsets { nodes, degree, seed: s, shape } => {
                    let (o, _) = graph(*nodes, *degree, *s, *shape);
                    o.iter().for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                }
                Init::GraphColumns { nodes, degree, seed: s, shape } => {
                    let (_, c) = graph(*nodes, *degree, *s, *shape);
                    c.iter().for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                }
            }
            data.resize(b.len * b.elem.bytes(), 0);
            out.insert(b.name.clone(), HostBuffer { name: b.name.clone(), elem: b.elem, data });
        }
        out
    }
}

/// A problem inside one argument: (field suffix, message, allowed).
type ArgError = (String, String, Option<String>);

fn buffer_names(buffers: &[BufferSpec]) -> String {
    buffers.iter().map(|b| b.name.clone()).collect::<Vec<_>>().join(", ")
}

fn find_buffer(buffers: &[BufferSpec], name: &str) -> Result<usize, ArgError> {
    buffers.iter().position(|b| b.name == name).ok_or_else(|| (String::new(), format!("no buffer named `{name}`"), Some(buffer_names(buffers))))
}

/// The u32 buffer a host loop tests.
fn flag_buffer(buffers: &[BufferSpec], name: &str) -> Result<usize, (String, Option<String>)> {
    let bi = find_buffer(buffers, name).map_err(|(_, m, a)| (m, a))?;
    if buffers[bi].elem != Elem::U32 {
        return Err((format!("`{name}` is not a u32 buffer"), Some("a u32 buffer".into())));
    }
    Ok(bi)
}

/// The two's-complement encoding of integer `v` in `bits` bits: -2^(bits-1)..=2^bits-1.
fn encode_int(v: i64, bits: u32) -> Result<u64, String> {
    let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
    if (v as i128) < lo || (v as i128) > hi {
        return Err(format!("{lo}..={hi}"));
    }
    Ok(if bits == 64 { v as u64 } else { (v as u64) & ((1u64 << bits) - 1) })
}

/// An array parameter (`.b8 p[16]`, `.u32 a[4]`): filled from struct fields only.
fn is_aggregate(p: &super::ptx::Param) -> bool {
    p.size != p.ty.bytes()
}

/// One launch-file argument for parameter `p`.
fn encode_arg(a: &toml::Value, p: &super::ptx::Param, buffers: &[BufferSpec]) -> Result<Arg, ArgError> {
    let what = || format!(".{} parameter `{}`", p.ty.name(), p.name);
    if is_aggregate(p) {
        return match a {
            toml::Value::Table(t) if t.len() == 1 && t.contains_key("struct") => encode_struct(&t["struct"], p, buffers),
            other => Err((
                String::new(),
                format!("{other} for array parameter `{}` ({} bytes)", p.name, p.size),
                Some("{ struct = [ { u32 = 5 }, { f32 = 1.5 }, { u64 = \"buffer\" }, ... ] }".into()),
            )),
        };
    }
    match a {
        toml::Value::String(s) if s == "$iter" => {
            if p.ty.is_float() {
                return Err((String::new(), format!("\"$iter\" for {}", what()), Some("an integer parameter".into())));
            }
            Ok(Arg::Iter)
        }
        toml::Value::String(s) => {
            let bi = find_buffer(buffers, s)?;
            if p.size != 8 || p.ty.is_float() {
                return Err((String::new(), format!("buffer `{s}` passed to {}", what()), Some("a .u64/.b64/.s64 parameter".into())));
            }
            Ok(Arg::Buffer(bi))
        }
        toml::Value::Integer(v) => match p.ty {
            Ty::F32 => Ok(Arg::Scalar((*v as f32).to_bits() as u64)),
            Ty::F64 => Ok(Arg::Scalar((*v as f64).to_bits())),
            _ => encode_int(*v, p.ty.bits()).map(Arg::Scalar).map_err(|r| (String::new(), format!("{v} does not fit {}", what()), Some(r))),
        },
        toml::Value::Float(v) => match p.ty {
            Ty::F32 => Ok(Arg::Scalar((*v as f32).to_bits() as u64)),
            Ty::F64 => Ok(Arg::Scalar(v.to_bits())),
            _ => Err((String::new(), format!("float {v} for {}", what()), Some("an integer".into()))),
        },
        other => Err((String::new(), format!("unsupported argument {other} for {}", what()), Some("a buffer name, a number or \"$iter\"".into()))),
    }
}

/// Field types of a struct argument: (name, bytes, float, signed).
const FIELD_TYPES: &[(&str, u32, bool)] = &[
    ("u8", 1, false),
    ("s8", 1, false),
    ("u16", 2, false),
    ("s16", 2, false),
    ("u32", 4, false),
    ("s32", 4, false),
    ("u64", 8, false),
    ("s64", 8, false),
    ("f32", 4, true),
    ("f64", 8, true),
];

fn field_type_names() -> String {
    FIELD_TYPES.iter().map(|t| t.0).collect::<Vec<_>>().join(", ")
}

/// `{ struct = [ {u32 = 5}, {f32 = 1.5, offset = 8}, ... ] }` for array parameter `p`.
fn encode_struct(v: &toml::Value, p: &super::ptx::Param, buffers: &[BufferSpec]) -> Result<Arg, ArgError> {
    let fields = v.as_array().ok_or_else(|| (".struct".to_string(), format!("{v} is not an array of fields"), Some("[ { u32 = 5 }, ... ]".into())))?;
    let size = p.size as u64;
    let mut bytes = vec![0u8; p.size as usize];
    let mut covered = vec![false; p.size as usize];
    let mut buffer_slots = Vec::new();
    let mut cursor = 0u64;
    for (i, fv) in fields.iter().enumerate() {
        let ff = format!(".struct[{i}]");
        let t = fv.as_table().ok_or_else(|| (ff.clone(), format!("{fv} is not a field table"), Some(format!("{{ <type> = <value> }}, <type> one of {}", field_type_names()))))?;
        let mut ty = None;
        let mut offset = None;
        for (k, val) in t {
            if k == "offset" {
                let o = val.as_integer().filter(|o| *o >= 0).ok_or_else(|| (format!("{ff}.offset"), format!("{val} is not a byte offset"), Some(format!("0..{size}"))))?;
                offset = Some(o as u64);
            } else if let Some(ft) = FIELD_TYPES.iter().find(|t| t.0 == k) {
                if ty.is_some() {
                    return Err((ff.clone(), "more than one type key".into(), Some(format!("exactly one of {}", field_type_names()))));
                }
                ty = Some((*ft, val));
            } else {
                return Err((format!("{ff}.{k}"), format!("unknown struct field key `{k}`"), Some(format!("offset, {}", field_type_names()))));
            }
        }
        let ((name, n, float), val) = ty.ok_or_else(|| (ff.clone(), "no type key".into(), Some(format!("one of {}", field_type_names()))))?;
        let vf = format!("{ff}.{name}");
        let at = match offset {
            Some(o) if !o.is_multiple_of(n as u64) => return Err((format!("{ff}.offset"), format!("{o} is not aligned for a {name} field"), Some(format!("a multiple of {n}")))),
            Some(o) => o,
            None => cursor.div_ceil(n as u64) * n as u64,
        };
        if at + n as u64 > size {
            return Err((vf, format!("bytes {at}..{} do not fit parameter `{}` of {size} bytes", at + n as u64, p.name), Some(format!("fields within 0..{size}"))));
        }
        let range = at as usize..at as usize + n as usize;
        if covered[range.clone()].iter().any(|c| *c) {
            return Err((vf, format!("bytes {at}..{} overlap an earlier field", at + n as u64), Some("disjoint fields".into())));
        }
        covered[range.clone()].iter_mut().for_each(|c| *c = true);
        let bits: u64 = match (float, val) {
            (true, toml::Value::Float(x)) => {
                if n == 4 {
                    (*x as f32).to_bits() as u64
                } else {
                    x.to_bits()
                }
            }
            (true, toml::Value::Integer(x)) => {
                if n == 4 {
                    (*x as f32).to_bits() as u64
                } else {
                    (*x as f64).to_bits()
                }
            }
            (false, toml::Value::Integer(x)) => encode_int(*x, n * 8).map_err(|r| (vf.clone(), format!("{x} does not fit a {name} field"), Some(r)))?,
            (false, toml::Value::String(b)) if n == 8 => {
                let bi = find_buffer(buffers, b).map_err(|(_, m, a)| (vf.clone(), m, a))?;
                buffer_slots.push((at as u32, bi));
                0
            }
            (_, other) => {
                let want = if float {
                    "a number"
                } else if n == 8 {
                    "an integer or a buffer name"
                } else {
                    "an integer"
                };
                return Err((vf, format!("{other} for a {name} field"), Some(want.into())));
            }
        };
        bytes[range].copy_from_slice(&bits.to_le_bytes()[..n as usize]);
        cursor = at + n as u64;
    }
    Ok(Arg::Bytes { bytes, buffers: buffer_slots })
}

/// The `[check]` section: a reference with its outputs, and/or expected files.
fn parse_check(c: RawCheck, buffers: &[BufferSpec], dir: &Path, ferr: &dyn Fn(String, String, Option<String>) -> LaunchError) -> Result<CheckSpec, LaunchError> {
    if c.reference.is_none() && c.expect.is_empty() {
        return Err(ferr("check".into(), "nothing to check".into(), Some("`reference` with `outputs`, or [[check.expect]] entries".into())));
    }
    if let Some(r) = &c.reference {
        if !super::workloads::REFERENCES.contains(&r.as_str()) {
            return Err(ferr("check.reference".into(), format!("no reference implementation `{r}`"), Some(super::workloads::REFERENCES.join(", "))));
        }
        if c.outputs.is_empty() {
            return Err(ferr("check.outputs".into(), "no output buffer to compare with the reference".into(), Some("at least one buffer name".into())));
        }
    } else if !c.outputs.is_empty() || !c.params.is_empty() {
        return Err(ferr("check.outputs".into(), "`outputs` and `params` belong to a `reference`".into(), Some("check.reference = one of the references".into())));
    }
    let mut outputs = Vec::new();
    for (j, o) in c.outputs.iter().enumerate() {
        outputs.push(find_buffer(buffers, o).map_err(|(_, m, a)| ferr(format!("check.outputs[{j}]"), m, a))?);
    }
    let tol_ok = |t: f64| t.is_finite() && t >= 0.0;
    if !tol_ok(c.rtol) || !tol_ok(c.atol) {
        return Err(ferr("check.rtol".into(), format!("rtol {} / atol {}: tolerances must be finite and >= 0", c.rtol, c.atol), Some(">= 0".into())));
    }
    for (k, v) in &c.params {
        if !v.is_finite() {
            return Err(ferr(format!("check.params.{k}"), format!("{v} is not a finite number"), Some("a finite number".into())));
        }
    }
    let mut expect = Vec::new();
    for (j, e) in c.expect.into_iter().enumerate() {
        let f = format!("check.expect[{j}]");
        let bi = find_buffer(buffers, &e.buffer).map_err(|(_, m, a)| ferr(format!("{f}.buffer"), m, a))?;
        if !tol_ok(e.rtol) || !tol_ok(e.atol) {
            return Err(ferr(format!("{f}.rtol"), format!("rtol {} / atol {}: tolerances must be finite and >= 0", e.rtol, e.atol), Some(">= 0".into())));
        }
        let b = &buffers[bi];
        let file = dir.join(&e.file);
        let expected = super::npy::read_expected(&file, &b.name, b.elem, b.len).map_err(|m| ferr(format!("{f}.file"), m.0, Some(m.1)))?;
        expect.push(ExpectSpec { buffer: bi, file, expected, rtol: e.rtol, atol: e.atol });
    }
    Ok(CheckSpec { reference: c.reference, outputs, rtol: c.rtol, atol: c.atol, params: c.params, expect })
}
