//! GPU configuration (`configs/gpu/*.toml`): one validated struct for the whole chip.
//!
//! Every field is required unless noted, so a preset states each value (with its spec
//! section, or "our choice", in a TOML comment). Errors name the file, the dotted field
//! and the allowed range ([`crate::config::ConfigError`]; the CLI maps them to exit
//! status 2).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use crate::config::{check_name, check_range, FieldError};
use crate::energy::EnergyTable;
use crate::noc::config::{RawVc, ReplyKnobs, Routing};

use super::ptx::OpClass;

/// Warp scheduling policy (tfb_bdib.md §2.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SchedulerPolicy {
    /// Loose round robin: start one past the warp that issued last.
    Lrr,
    /// Greedy-then-oldest: keep the last warp while it can issue, else the oldest.
    Gto,
    /// Most-waiting-first: warps of the CTA with the most warps waiting at a barrier
    /// first; ties in GTO order.
    Mwf,
    /// Fuzzy most-waiting-first: warps not at a barrier, of the CTA with the most warps
    /// at or past its barrier, first (warps at a barrier rank as CTAs without one);
    /// ties in GTO order.
    Fmwf,
}

/// What `bar` does (tfb_bdib.md §6 "No Barriers": the thesis's PBS binaries, §4.3, with
/// `bar.sync` deleted or swapped for a fence before the finalizer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
pub enum BarrierMode {
    /// The drain barrier (§1.4, §2.3), the default.
    #[default]
    #[serde(rename = "drain")]
    Drain,
    /// `bar` removed: it issues as a no-op. Results may be wrong (races the barrier
    /// prevented), as on the thesis's PBS binaries.
    #[serde(rename = "none")]
    None,
    /// `bar` replaced by `membar.cta`.
    #[serde(rename = "membar.cta")]
    MembarCta,
    /// `bar` replaced by `membar.gl`.
    #[serde(rename = "membar.gl")]
    MembarGl,
}

impl BarrierMode {
    pub fn is_drain(&self) -> bool {
        *self == BarrierMode::Drain
    }
}

/// Scope of a barrier's entry-release and exit-acquire fences (tfb_bdib.md §4.8, study
/// S12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BarrierScope {
    /// Work-group (CTA) scope, `bar.sync`'s own (the default).
    #[default]
    Cta,
    /// Device scope, as `membar.gl` + `bar.sync` + `membar.gl`: the ERF also waits for
    /// the LLC's acknowledgement of the warp's older stores and atomics, and the EAF
    /// invalidates the L1 and takes `fence_gpu_latency` instead of `eaf_latency`.
    Gpu,
}

impl BarrierScope {
    pub fn is_cta(&self) -> bool {
        *self == BarrierScope::Cta
    }
}

/// One functional-unit class: `count` pipelines, each accepting one warp instruction
/// every `interval` cycles; results are ready `latency` cycles after issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitConfig {
    pub count: u32,
    pub latency: u32,
    pub interval: u32,
}

/// Execution units per SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitsConfig {
    pub int: UnitConfig,
    pub fp32: UnitConfig,
    pub fp64: UnitConfig,
    pub sfu: UnitConfig,
    /// Integer and fp32 instructions share the `int` pipelines (one SP pipeline, as in
    /// llc_omni_compute.md §3 and tfb_bdib.md §3.1); `fp32` is then unused.
    #[serde(default)]
    pub alu_shared: bool,
}

impl UnitsConfig {
    pub fn get(&self, c: OpClass) -> Option<&UnitConfig> {
        match c {
            OpClass::Int => Some(&self.int),
            OpClass::Fp32 => Some(&self.fp32),
            OpClass::Fp64 => Some(&self.fp64),
            OpClass::Sfu => Some(&self.sfu),
            OpClass::Mem | OpClass::Ctrl => None,
        }
    }
}

/// Shared memory (scratchpad) timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SharedMemConfig {
    pub banks: u32,
    pub bank_bytes: u32,
    /// Load-to-use latency of a conflict-free access.
    pub latency: u32,
}

/// Fence and drain-barrier costs (tfb_bdib.md §2.2–2.3, §3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SyncConfig {
    /// Cycles an entry-release fence adds after the warp's older accesses are done.
    pub erf_latency: u32,
    /// Cycles of the exit-acquire fence after the last warp's ERF.
    pub eaf_latency: u32,
    /// Extra cycles of `membar.cta` after the drain.
    pub fence_cta_latency: u32,
    /// Extra cycles of `membar.gl`/`.sys` after the drain (includes the L1
    /// flash-invalidate of the acquire side).
    pub fence_gpu_latency: u32,
    /// What `bar` does (optional, default `"drain"`; `"none"`, `"membar.cta"`,
    /// `"membar.gl"`).
    #[serde(default, skip_serializing_if = "BarrierMode::is_drain")]
    pub barrier: BarrierMode,
    /// Scope of the barrier's fences (optional, default `"cta"`; `"gpu"`).
    #[serde(default, skip_serializing_if = "BarrierScope::is_cta")]
    pub barrier_scope: BarrierScope,
}

/// SM (shader core) parameters.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct CoreConfig {
    pub max_threads: u32,
    pub max_ctas: u32,
    /// 32-bit registers per SM.
    pub registers: u32,
    pub shared_bytes: u32,
    pub schedulers: u32,
    /// Warp instructions each scheduler may issue per cycle.
    pub issue_width: u32,
    pub scheduler: SchedulerPolicy,
    /// Decoded instructions per warp I-buffer.
    pub ibuffer_entries: u32,
    /// Warps whose I-buffer can be refilled per cycle.
    pub fetch_width: u32,
    pub units: UnitsConfig,
    pub shared_memory: SharedMemConfig,
    pub sync: SyncConfig,
}

impl CoreConfig {
    pub fn warp_slots(&self) -> u32 {
        self.max_threads / 32
    }
}

/// Per-SM L1 data cache. Our choice: write-through, no write-allocate (a store that
/// hits updates the line in place), LRU, allocate on fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct L1Config {
    pub size_bytes: u32,
    pub ways: u32,
    pub line_bytes: u32,
    /// Cycles from the L1 access to data in the register (load-to-use is one more:
    /// the LD/ST unit accesses the L1 the cycle after issue).
    pub hit_latency: u32,
    pub mshrs: u32,
    /// Requests that may wait on one MSHR (the first included).
    pub mshr_merge: u32,
    /// Packets waiting for network injection at the SM.
    pub miss_queue: u32,
}

impl L1Config {
    pub fn sets(&self) -> u32 {
        self.size_bytes / (self.ways * self.line_bytes)
    }
}

/// One LLC slice per memory node. Our choice: write-back, write-allocate without fetch
/// (per-byte valid mask), LRU, one tag access per cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct LlcConfig {
    /// Bytes per slice (per memory node).
    pub size_bytes: u32,
    pub ways: u32,
    /// Tag-pipeline latency: a hit's reply leaves this many cycles after the tag access.
    pub latency: u32,
    pub mshrs: u32,
    pub mshr_merge: u32,
    /// Requests buffered between the network and the tag pipeline.
    pub input_queue: u32,
}

/// DRAM channel per memory node (GDDR-style, open page, FR-FCFS). Timing parameters are
/// in DRAM command-clock cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct DramConfig {
    pub clock_mhz: u32,
    pub banks: u32,
    pub row_bytes: u32,
    /// Data-bus bytes per command-clock cycle (width x transfers per clock).
    pub bus_bytes: u32,
    pub queue: u32,
    #[serde(rename = "tRCD")]
    pub t_rcd: u32,
    #[serde(rename = "tRP")]
    pub t_rp: u32,
    #[serde(rename = "tCL")]
    pub t_cl: u32,
    #[serde(rename = "tRAS")]
    pub t_ras: u32,
    #[serde(rename = "tCCD")]
    pub t_ccd: u32,
    #[serde(rename = "tRRD")]
    pub t_rrd: u32,
    #[serde(rename = "tWR")]
    pub t_wr: u32,
    /// Fixed controller pipeline latency added to every read, in core cycles.
    pub ctrl_latency: u32,
}

/// How addresses spread over memory nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InterleaveHash {
    /// node = (addr / interleave) mod nodes.
    None,
    /// XOR-fold higher chunk bits into the node index (power-of-two node counts).
    Xor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct MappingConfig {
    /// Chunk of consecutive addresses owned by one memory node.
    pub interleave_bytes: u32,
    pub hash: InterleaveHash,
    /// Inside a node: chunk of consecutive (node-local) addresses that stay in one DRAM
    /// bank before the next bank takes over; rows span `row_bytes / bank_interleave_bytes`
    /// such chunks (see [`super::mapping`]).
    pub bank_interleave_bytes: u32,
}

/// Which interconnect (macro_noc.md §1, llc_omni_compute.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NetworkKind {
    Ideal,
    Mesh,
    Macro,
}

/// `[network.router]`: the VC routers of `kind = "mesh"`, in the NoC's own words
/// (`[noc.baseline]`, macro_noc.md §1.11–1.12). Every key is optional; an absent one
/// takes the baseline mesh's default ([`RawVc::baseline`]: 3 VCs x 4 flits, XY, 2
/// planes). Unknown keys are refused for every network kind; the values are checked
/// against the golden VC mesh when the config is loaded with `kind = "mesh"`, and only
/// record the paper's routers for `"ideal"` and `"macro"` (MACRO-NoC uses the spec's
/// default planes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct RouterConfig {
    pub routing: Option<Routing>,
    pub vcs: Option<u32>,
    /// Flit buffers per VC.
    pub buf_depth: Option<u32>,
    /// 1: requests and replies share one plane; 2: one plane each.
    pub planes: Option<u32>,
    /// The golden VC router has a fixed 3-stage pipeline (VA, SA, ST); only 3 is
    /// accepted.
    pub pipeline_stages: Option<u32>,
    /// Message classes on one plane (llc_omni_compute.md §1.8): the last `reply_vcs` VCs
    /// of every port carry replies only, the others requests (ComputePackets ride the
    /// request class), so replies never wait behind requests (`kind = "mesh"`, one
    /// plane, `yx` or `xy` routing; absent: both classes share every VC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_vcs: Option<u32>,
}

impl RouterConfig {
    /// The baseline plane these keys describe, for a `flit_width`-bit flit.
    pub fn vc_plane(&self, flit_width: u32) -> RawVc {
        let d = RawVc::baseline();
        RawVc {
            flit_width,
            vcs: self.vcs.unwrap_or(d.vcs),
            buf_depth: self.buf_depth.unwrap_or(d.buf_depth),
            routing: self.routing.unwrap_or(d.routing),
            planes: self.planes.unwrap_or(d.planes),
        }
    }
}

/// The network and where SMs and memory nodes sit on it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NetworkConfig {
    pub kind: NetworkKind,
    /// Ideal network: fixed latency in cycles.
    pub latency: u32,
    /// Bits per flit: the unit packet sizes are counted in (a multiple of 8); on a
    /// `mesh`, also the VC planes' flit width.
    pub flit_width: u32,
    /// Mesh width and height, when a placement is given.
    pub mesh: Option<(u32, u32)>,
    /// Network node of each SM and each memory node (node id = y * width + x on a
    /// mesh; SMs 0.. then memory nodes without one).
    pub sm_nodes: Vec<usize>,
    pub mem_nodes: Vec<usize>,
    /// Number of network terminals.
    pub nodes: usize,
    pub router: RouterConfig,
    /// `[network.reply]`: MACRO-NoC's overlay multiplexing (`mux`, default true) and
    /// injection interval (`interval`: 2 pipelined, the default, or 3 basic), for
    /// `kind = "macro"` only (spec macro_noc.md §1.7, §1.8; study S2).
    #[serde(skip_serializing_if = "is_default_reply")]
    pub reply: ReplyKnobs,
}

fn is_default_reply(r: &ReplyKnobs) -> bool {
    *r == ReplyKnobs::default()
}

impl NetworkConfig {
    /// Bytes per flit (`flit_width / 8`).
    pub fn flit_bytes(&self) -> u32 {
        self.flit_width / 8
    }
}

/// The whole GPU.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GpuConfig {
    pub name: String,
    #[serde(skip)]
    pub path: PathBuf,
    pub sms: u32,
    pub mem_nodes: u32,
    pub clock_mhz: u32,
    pub core: CoreConfig,
    pub l1: L1Config,
    pub llc: LlcConfig,
    pub dram: DramConfig,
    pub mapping: MappingConfig,
    pub network: NetworkConfig,
    /// `[gpu] memory_bytes`: device memory capacity. Every buffer of a launch, and the
    /// `.local` storage of all resident threads, must fit it; it bounds what the
    /// simulator allocates on the host. Default [`DEFAULT_MEMORY_BYTES`] (our choice).
    #[serde(skip_serializing_if = "is_default_memory")]
    pub memory_bytes: u64,
    /// `[hooks]`: the blocks attached to the model, each with its own parameters
    /// (`[hooks.<name>]`, see [`super::hooks`]); empty by default.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub hooks: BTreeMap<String, toml::Table>,
    /// `[energy]`: energy per event and static power (optional; defaults in
    /// [`crate::energy`]).
    pub energy: EnergyTable,
    /// `[stats]`: recordings beyond the statistics of every run (off by default).
    #[serde(skip_serializing_if = "StatsConfig::is_off")]
    pub stats: StatsConfig,
}

/// `[stats]` of a GPU config.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct StatsConfig {
    /// Record one threadblock's warp instructions in flight cycle by cycle (S3,
    /// tfb_bdib.md §4.4): `occupancy_trace = { cta = 0, cycles = 3000 }`.
    #[serde(default)]
    pub occupancy_trace: Option<TraceConfig>,
}

impl StatsConfig {
    fn is_off(&self) -> bool {
        self.occupancy_trace.is_none()
    }
}

/// Which threadblock to trace: `cta`, its index in the grid (x fastest) of the first
/// kernel that has it, for `cycles` cycles from its launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    pub cta: u64,
    pub cycles: u64,
}

/// Longest occupancy trace (cycles).
pub const MAX_TRACE_CYCLES: u64 = 1_000_000;

/// A GPU config file as written (every top-level table), before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    name: String,
    gpu: RawGpu,
    core: CoreConfig,
    l1: L1Config,
    llc: LlcConfig,
    dram: DramConfig,
    mapping: MappingConfig,
    network: RawNetwork,
    #[serde(default)]
    hooks: BTreeMap<String, toml::Table>,
    #[serde(default)]
    energy: EnergyTable,
    #[serde(default)]
    stats: StatsConfig,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGpu {
    sms: u32,
    mem_nodes: u32,
    clock_mhz: u32,
    #[serde(default)]
    memory_bytes: Option<u64>,
}

/// Device memory when `[gpu] memory_bytes` is not given: 1 GiB.
pub const DEFAULT_MEMORY_BYTES: u64 = 1 << 30;
/// Largest `[gpu] memory_bytes`: 64 GiB.
pub const MAX_MEMORY_BYTES: u64 = 1 << 36;

fn is_default_memory(b: &u64) -> bool {
    *b == DEFAULT_MEMORY_BYTES
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawPlacement {
    Named(String),
    List(Vec<[u32; 2]>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNetwork {
    kind: NetworkKind,
    #[serde(default)]
    latency: Option<u32>,
    flit_width: u32,
    #[serde(default)]
    mesh: Option<[u32; 2]>,
    #[serde(default)]
    mem_nodes: Option<Vec<[u32; 2]>>,
    #[serde(default)]
    sm_nodes: Option<RawPlacement>,
    #[serde(default)]
    router: RouterConfig,
    #[serde(default)]
    reply: ReplyKnobs,
}

fn pow2(field: &str, v: u32, lo: u32, hi: u32) -> Result<u32, FieldError> {
    check_range(field, v, lo, hi)?;
    if v.is_power_of_two() {
        Ok(v)
    } else {
        Err(FieldError::new(field, format!("{v} is not a power of two"), Some(format!("a power of two in {lo}..={hi}"))))
    }
}

fn unit(field: &str, u: &UnitConfig) -> Result<(), FieldError> {
    check_range(&format!("{field}.count"), u.count, 1, 64)?;
    check_range(&format!("{field}.latency"), u.latency, 1, 10_000)?;
    check_range(&format!("{field}.interval"), u.interval, 1, 1_000)?;
    Ok(())
}

impl GpuConfig {
    /// Every field checked (naming it, with the allowed range): the GPU's own tables.
    /// Whether the network is one the golden NoC can build and the hooks' parameters
    /// are checked by [`super::GpuModel`], which `GpuConfig::load` goes through.
    pub(crate) fn from_raw(raw: RawFile) -> Result<GpuConfig, FieldError> {
        check_name("name", &raw.name)?;
        let sms = check_range("gpu.sms", raw.gpu.sms, 1, 1024)?;
        let mem_nodes = check_range("gpu.mem_nodes", raw.gpu.mem_nodes, 1, 256)?;
        let clock_mhz = check_range("gpu.clock_mhz", raw.gpu.clock_mhz, 1, 100_000)?;
        let memory_bytes = check_range("gpu.memory_bytes", raw.gpu.memory_bytes.unwrap_or(DEFAULT_MEMORY_BYTES), 1 << 20, MAX_MEMORY_BYTES)?;
        let c = &raw.core;
        check_range("core.max_threads", c.max_threads, 32, 4096)?;
        if !c.max_threads.is_multiple_of(32) {
            return Err(FieldError::new("core.max_threads", format!("{} is not a multiple of the warp size", c.max_threads), Some("multiples of 32 in 32..=4096".into())));
        }
        check_range("core.max_ctas", c.max_ctas, 1, 256)?;
        check_range("core.registers", c.registers, 256, 1 << 22)?;
        check_range("core.shared_bytes", c.shared_bytes, 0, 1 << 24)?;
        check_range("core.schedulers", c.schedulers, 1, 16)?;
        check_range("core.issue_width", c.issue_width, 1, 8)?;
        check_range("core.ibuffer_entries", c.ibuffer_entries, 1, 64)?;
        check_range("core.fetch_width", c.fetch_width, 1, 64)?;
        unit("core.units.int", &c.units.int)?;
        unit("core.units.fp32", &c.units.fp32)?;
        unit("core.units.fp64", &c.units.fp64)?;
        unit("core.units.sfu", &c.units.sfu)?;
        check_range("core.shared_memory.banks", c.shared_memory.banks, 1, 128)?;
        pow2("core.shared_memory.bank_bytes", c.shared_memory.bank_bytes, 4, 8)?;
        check_range("core.shared_memory.latency", c.shared_memory.latency, 1, 10_000)?;
        check_range("core.sync.erf_latency", c.sync.erf_latency, 0, 100_000)?;
        check_range("core.sync.eaf_latency", c.sync.eaf_latency, 0, 100_000)?;
        check_range("core.sync.fence_cta_latency", c.sync.fence_cta_latency, 0, 100_000)?;
        check_range("core.sync.fence_gpu_latency", c.sync.fence_gpu_latency, 0, 100_000)?;
        let l1 = raw.l1;
        pow2("l1.line_bytes", l1.line_bytes, 32, 128)?;
        check_range("l1.ways", l1.ways, 1, 64)?;
        check_range("l1.size_bytes", l1.size_bytes, l1.line_bytes * l1.ways, 1 << 24)?;
        if !l1.size_bytes.is_multiple_of(l1.ways * l1.line_bytes) {
            return Err(FieldError::new(
                "l1.size_bytes",
                format!("{} is not a multiple of ways x line_bytes", l1.size_bytes),
                Some(format!("multiples of {}", l1.ways * l1.line_bytes)),
            ));
        }
        check_range("l1.hit_latency", l1.hit_latency, 1, 10_000)?;
        check_range("l1.mshrs", l1.mshrs, 1, 4096)?;
        check_range("l1.mshr_merge", l1.mshr_merge, 1, 256)?;
        check_range("l1.miss_queue", l1.miss_queue, 1, 4096)?;
        let llc = raw.llc;
        check_range("llc.ways", llc.ways, 1, 64)?;
        check_range("llc.size_bytes", llc.size_bytes, l1.line_bytes * llc.ways, 1 << 30)?;
        if !llc.size_bytes.is_multiple_of(llc.ways * l1.line_bytes) {
            return Err(FieldError::new(
                "llc.size_bytes",
                format!("{} is not a multiple of ways x line_bytes", llc.size_bytes),
                Some(format!("multiples of {}", llc.ways * l1.line_bytes)),
            ));
        }
        check_range("llc.latency", llc.latency, 1, 10_000)?;
        check_range("llc.mshrs", llc.mshrs, 1, 4096)?;
        check_range("llc.mshr_merge", llc.mshr_merge, 1, 256)?;
        check_range("llc.input_queue", llc.input_queue, 1, 4096)?;
        let d = raw.dram;
        check_range("dram.clock_mhz", d.clock_mhz, 1, 100_000)?;
        check_range("dram.banks", d.banks, 1, 64)?;
        check_range("dram.bus_bytes", d.bus_bytes, 1, l1.line_bytes)?;
        if !l1.line_bytes.is_multiple_of(d.bus_bytes) {
            return Err(FieldError::new(
                "dram.bus_bytes",
                format!("{} does not divide the {}-byte line", d.bus_bytes, l1.line_bytes),
                Some(format!("a divisor of {}", l1.line_bytes)),
            ));
        }
        check_range("dram.row_bytes", d.row_bytes, l1.line_bytes, 1 << 20)?;
        if !d.row_bytes.is_multiple_of(l1.line_bytes) {
            return Err(FieldError::new("dram.row_bytes", format!("{} is not a multiple of the line size", d.row_bytes), Some(format!("multiples of {}", l1.line_bytes))));
        }
        check_range("dram.queue", d.queue, 1, 4096)?;
        for (f, v) in [("tRCD", d.t_rcd), ("tRP", d.t_rp), ("tCL", d.t_cl), ("tRAS", d.t_ras), ("tCCD", d.t_ccd), ("tRRD", d.t_rrd), ("tWR", d.t_wr)] {
            check_range(&format!("dram.{f}"), v, 0, 10_000)?;
        }
        check_range("dram.tCCD", d.t_ccd, 1, 10_000)?;
        check_range("dram.ctrl_latency", d.ctrl_latency, 0, 100_000)?;
        let m = raw.mapping;
        check_range("mapping.interleave_bytes", m.interleave_bytes, l1.line_bytes, 1 << 24)?;
        if !m.interleave_bytes.is_multiple_of(l1.line_bytes) {
            return Err(FieldError::new(
                "mapping.interleave_bytes",
                format!("{} is not a multiple of the line size", m.interleave_bytes),
                Some(format!("multiples of {}", l1.line_bytes)),
            ));
        }
        check_range("mapping.bank_interleave_bytes", m.bank_interleave_bytes, l1.line_bytes, d.row_bytes)?;
        if !m.bank_interleave_bytes.is_multiple_of(l1.line_bytes) || !d.row_bytes.is_multiple_of(m.bank_interleave_bytes) {
            return Err(FieldError::new(
                "mapping.bank_interleave_bytes",
                format!("{} must be a multiple of the line size and divide dram.row_bytes", m.bank_interleave_bytes),
                Some(format!("multiples of {} dividing {}", l1.line_bytes, d.row_bytes)),
            ));
        }
        if m.hash == InterleaveHash::Xor && !mem_nodes.is_power_of_two() {
            return Err(FieldError::new("mapping.hash", "xor interleaving needs a power-of-two number of memory nodes".to_string(), Some("\"none\" for other node counts".into())));
        }
        let network = Self::network(raw.network, sms as usize, mem_nodes as usize)?;
        raw.energy.validate("energy")?;
        if let Some(t) = raw.stats.occupancy_trace {
            check_range("stats.occupancy_trace.cycles", t.cycles, 1, MAX_TRACE_CYCLES)?;
        }
        Ok(GpuConfig {
            name: raw.name,
            path: PathBuf::new(),
            sms,
            mem_nodes,
            clock_mhz,
            core: raw.core,
            l1,
            llc,
            dram: d,
            mapping: m,
            network,
            memory_bytes,
            hooks: raw.hooks,
            energy: raw.energy,
            stats: raw.stats,
        })
    }

    fn network(n: RawNetwork, sms: usize, mems: usize) -> Result<NetworkConfig, FieldError> {
        check_range("network.flit_width", n.flit_width, 32, 8192)?;
        if !n.flit_width.is_multiple_of(8) {
            return Err(FieldError::new("network.flit_width", format!("{} bits is not a whole number of bytes", n.flit_width), Some("multiples of 8 in 32..=8192".into())));
        }
        let latency = match (n.kind, n.latency) {
            (NetworkKind::Ideal, None) => return Err(FieldError::new("network.latency", "the ideal network needs a latency".to_string(), Some("1..=100000".into()))),
            (_, Some(l)) => check_range("network.latency", l, 1, 100_000)?,
            (_, None) => 0,
        };
        let (sm_nodes, mem_nodes, nodes) = match n.mesh {
            None => {
                if n.kind != NetworkKind::Ideal {
                    return Err(FieldError::new("network.mesh", "mesh and macro networks need a mesh size".to_string(), Some("[width, height]".into())));
                }
                if n.mem_nodes.is_some() || n.sm_nodes.is_some() {
                    return Err(FieldError::new("network.mem_nodes", "a placement needs `mesh = [width, height]`".to_string(), None));
                }
                ((0..sms).collect(), (sms..sms + mems).collect(), sms + mems)
            }
            Some([w, h]) => {
                check_range("network.mesh[0]", w, 1, 64)?;
                check_range("network.mesh[1]", h, 1, 64)?;
                let total = (w * h) as usize;
                let id = |field: &str, [x, y]: [u32; 2]| -> Result<usize, FieldError> {
                    if x >= w || y >= h {
                        return Err(FieldError::new(field, format!("({x},{y}) is outside the {w}x{h} mesh"), Some(format!("x in 0..{w}, y in 0..{h}"))));
                    }
                    Ok((y * w + x) as usize)
                };
                let mem_list =
                    n.mem_nodes.ok_or_else(|| FieldError::new("network.mem_nodes", "a mesh needs memory-node positions".to_string(), Some(format!("{mems} [x, y] pairs"))))?;
                if mem_list.len() != mems {
                    return Err(FieldError::new("network.mem_nodes", format!("{} positions for {mems} memory nodes", mem_list.len()), Some(format!("exactly {mems}"))));
                }
                let mut used = vec![false; total];
                let mut mem_nodes = Vec::new();
                for (i, p) in mem_list.iter().enumerate() {
                    let f = format!("network.mem_nodes[{i}]");
                    let node = id(&f, *p)?;
                    if used[node] {
                        return Err(FieldError::new(f, format!("({},{}) is used twice", p[0], p[1]), Some("distinct mesh nodes".into())));
                    }
                    used[node] = true;
                    mem_nodes.push(node);
                }
                let sm_nodes: Vec<usize> = match n.sm_nodes.unwrap_or(RawPlacement::Named("row_major".into())) {
                    RawPlacement::Named(s) if s == "row_major" => (0..total).filter(|&k| !used[k]).take(sms).collect(),
                    RawPlacement::Named(s) => {
                        return Err(FieldError::new(
                            "network.sm_nodes",
                            format!("unknown placement `{s}`"),
                            Some("\"row_major\" (row-major over the nodes without a memory node) or a list of [x, y]".into()),
                        ))
                    }
                    RawPlacement::List(l) => {
                        if l.len() != sms {
                            return Err(FieldError::new("network.sm_nodes", format!("{} positions for {sms} SMs", l.len()), Some(format!("exactly {sms}"))));
                        }
                        let mut v = Vec::new();
                        for (i, p) in l.iter().enumerate() {
                            let f = format!("network.sm_nodes[{i}]");
                            let node = id(&f, *p)?;
                            if used[node] {
                                return Err(FieldError::new(f, format!("({},{}) is used twice", p[0], p[1]), Some("distinct mesh nodes".into())));
                            }
                            used[node] = true;
                            v.push(node);
                        }
                        v
                    }
                };
                if sm_nodes.len() != sms {
                    return Err(FieldError::new(
                        "network.mesh",
                        format!("a {w}x{h} mesh has room for {} SMs besides the memory nodes, the GPU has {sms}", total - mems),
                        Some(format!("at least {} nodes", sms + mems)),
                    ));
                }
                (sm_nodes, mem_nodes, total)
            }
        };
        let network =
            NetworkConfig { kind: n.kind, latency, flit_width: n.flit_width, mesh: n.mesh.map(|[w, h]| (w, h)), sm_nodes, mem_nodes, nodes, router: n.router, reply: n.reply };
        Ok(network)
    }

    /// Peak DRAM bandwidth of the whole GPU in bytes per core cycle.
    pub fn dram_peak_bytes_per_cycle(&self) -> f64 {
        self.mem_nodes as f64 * self.dram.bus_bytes as f64 * self.dram.clock_mhz as f64 / self.clock_mhz as f64
    }

    /// Peak warp instructions issued per cycle by the whole GPU.
    pub fn peak_issue_per_cycle(&self) -> u32 {
        self.sms * self.core.schedulers * self.core.issue_width
    }
}
