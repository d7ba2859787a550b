//! The CPU side of the heterogeneous system (spec §3.1, §2.2–2.3): N simple CPU cores
//! sharing the GPU's L2, each running one consumer thread of the software task queue.
//!
//! Timing model (ours, documented in the README; the thesis uses gem5 O3 cores):
//! * **In-order, blocking**: a core does one thing at a time. Instructions retire at
//!   `ipc` per CPU cycle; a memory access stalls the core for its latency. With
//!   `mlp` > 1 a consumer reads that many lines of its chunk together (an out-of-order
//!   core's overlapped misses): the group costs its slowest line's latency once.
//! * **Clock**: `mhz` (a P-state of spec §1.8, `800..=3500`), changed by the monitor's
//!   rate requests (CPU DVFS, applied at once, ACKed the next GPU cycle). Time is kept in
//!   GPU cycles: `n` CPU cycles take `n · gpu_mhz / mhz` GPU cycles.
//! * **Memory**: a line of the intermediate buffer comes from the GPU L2 when the L2
//!   holds it (`llc_latency` CPU cycles; a dirty line is forwarded with its write-back
//!   duty, MOESI M→O, which the L2's monitor sees as a CONSUME by this core's domain),
//!   else from DRAM (`dram_latency`; an off-chip access, counted). Queue words (flags,
//!   `q_tail`, the shared `q_next`) cost one `llc_latency` per access: a spinning core
//!   pays one L2 round trip per poll. The CPU's own caches are not modelled beyond this
//!   (the consumed lines are used once), and CPU accesses do not queue at the GPU's
//!   DRAM channels (a fixed latency).
//! * **Consumer thread** (spec §2.3 ③④, one per core): pull the next task index (shared
//!   `q_next`), spin until `flags[task]` is published, read the chunk line by line and
//!   consume its words (`ops_per_word` instructions per word; [`ConsumerKind`]: a sum,
//!   or kmeans's and streamcluster's conditional consumers, whose taken condition costs
//!   [`COND_OPS`] times more), store the result in `sums[task]`, free the slot
//!   (`q_tail += 1`, which wakes finite-queue producers).
//!   With fine-grained signaling (`fine_grained`) there is no per-chunk flag: before
//!   each line (group) the consumer polls its signal line (one L2 round trip a poll)
//!   until the 32 signals of its words are set, then reads the signal line (a dirty
//!   one is a CONSUME, as the data line) and the data line.
//!
//! Data move functionally through the GPU's device memory: the consumers read exactly
//! what the producer kernel wrote, so the sums prove what was consumed.

use serde::Deserialize;

use super::actuator::Actuation;
use crate::config::{check_range, FieldError};
use crate::energy::Part;
use crate::gpu::hooks::{CoreControl, HookEnergy, LaunchBuffer};

/// The software technique the system runs (spec §2.2, §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueMode {
    /// Kernel synchronization: the consumers start when the producer kernel has ended.
    Serial,
    /// The consumer's reduction appended to the producer CTA (in-L2 atomics); the CPU idles.
    Fusion,
    /// Concurrent, software unbounded queue: producers never wait.
    Unbounded,
    /// Concurrent, software finite queue: a producer CTA waits while `cap_tasks` chunks
    /// are allocated and not freed (the static footprint estimate of Eq. 6.1).
    Finite,
    /// The unbounded queue with the Q-cache monitor's rate requests carried out.
    Qcache,
    /// Concurrent, fine-grained signaling (spec §2.2): every producer thread fences and
    /// sets the signal word of its own output (`signals[idx]`, no per-CTA publish); a
    /// consumer polls the signal line of each data line (the 32 signals of its 32 words)
    /// until every signal is set, then reads the signal line and the data line.
    FineGrained,
    /// Fine-grained signaling with the Q-cache monitor's rate requests carried out.
    FineGrainedQcache,
}

impl QueueMode {
    pub const ALL: [QueueMode; 7] =
        [QueueMode::Serial, QueueMode::Fusion, QueueMode::Unbounded, QueueMode::Finite, QueueMode::Qcache, QueueMode::FineGrained, QueueMode::FineGrainedQcache];

    pub fn name(self) -> &'static str {
        match self {
            QueueMode::Serial => "serial",
            QueueMode::Fusion => "fusion",
            QueueMode::Unbounded => "unbounded",
            QueueMode::Finite => "finite",
            QueueMode::Qcache => "qcache",
            QueueMode::FineGrained => "fine_grained",
            QueueMode::FineGrainedQcache => "fine_grained_qcache",
        }
    }

    /// Fine-grained signaling (per-word signals instead of the per-chunk queue).
    pub fn fine(self) -> bool {
        matches!(self, QueueMode::FineGrained | QueueMode::FineGrainedQcache)
    }

    /// The monitor's rate requests are carried out (Q-cache on).
    pub fn actuated(self) -> bool {
        matches!(self, QueueMode::Qcache | QueueMode::FineGrainedQcache)
    }
}

/// The CPU P-states of spec §1.8 (MHz).
pub const CPU_PSTATES: [u32; 6] = [800, 1340, 1880, 2420, 2960, 3500];

/// Supply voltage of each CPU P-state relative to the nominal one at 3.5 GHz (our
/// choice: linear from 0.7 at 800 MHz; the thesis's McPAT runs do not list theirs).
pub const CPU_VOLTS: [f64; 6] = [0.70, 0.76, 0.82, 0.88, 0.94, 1.00];

/// The energy events of the CPU cycles spent at each P-state.
const CPU_CYCLE_EVENTS: [&str; 6] = ["cpu_cycle_800mhz", "cpu_cycle_1340mhz", "cpu_cycle_1880mhz", "cpu_cycle_2420mhz", "cpu_cycle_2960mhz", "cpu_cycle_3500mhz"];

/// `[hooks.qcache.cpu]` as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RawCpu {
    cores: u32,
    mhz: u32,
    ipc: f64,
    llc_latency: u32,
    dram_latency: u32,
    ops_per_word: u32,
    mode: QueueMode,
    cap_tasks: u32,
    mlp: u32,
    trace: u32,
    actuation: Actuation,
    dvfs_ns: u32,
    dvfs_step_ns: u32,
    dvfs_max_ns: u32,
    rate_period: u32,
    rate_depth_pct: u32,
    false_share_pct: u32,
    unconsumed_pct: u32,
    core_dynamic_w: f64,
    core_leakage_w: f64,
}

impl Default for RawCpu {
    fn default() -> Self {
        RawCpu {
            cores: 1,
            mhz: 3500,
            ipc: 2.0,
            llc_latency: 60,
            dram_latency: 350,
            ops_per_word: 4,
            mode: QueueMode::Unbounded,
            cap_tasks: 4,
            mlp: 1,
            trace: 0,
            actuation: Actuation::DvfsDrain,
            dvfs_ns: 15_000,
            dvfs_step_ns: 10_000,
            dvfs_max_ns: 45_000,
            rate_period: 0,
            rate_depth_pct: 0,
            false_share_pct: 0,
            unconsumed_pct: 0,
            core_dynamic_w: 3.0,
            core_leakage_w: 1.0,
        }
    }
}

/// The CPU cores and the queue mode, validated.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CpuConfig {
    /// Cores, one consumer thread each (1–4, spec §3.1).
    pub cores: u32,
    /// Initial clock (a P-state of [`CPU_PSTATES`]).
    pub mhz: u32,
    /// Instructions per CPU cycle (0.25–8).
    pub ipc: f64,
    /// CPU cycles to reach the GPU L2 and back.
    pub llc_latency: u32,
    /// CPU cycles for a line from DRAM.
    pub dram_latency: u32,
    /// Consumer instructions per 32-bit word.
    pub ops_per_word: u32,
    pub mode: QueueMode,
    /// Finite queue: chunks allocated and not freed at most.
    pub cap_tasks: u32,
    /// Memory-level parallelism: lines of a chunk a consumer has in flight together
    /// (1: in-order and blocking; an out-of-order core overlaps its misses).
    pub mlp: u32,
    /// Every `trace` GPU cycles a timeline line on stderr (0: off; see the hook).
    pub trace: u32,
    /// How the core schedulers carry out a rate request ([`Actuation`]).
    pub actuation: Actuation,
    /// DVFS transition in ns (spec §1.8, Table 6.2): `dvfs_ns` for one P-state step plus
    /// `dvfs_step_ns` per further step, at most `dvfs_max_ns` (15, 10, 45 µs).
    pub dvfs_ns: u32,
    pub dvfs_step_ns: u32,
    pub dvfs_max_ns: u32,
    /// The prodcons sensitivity knobs of spec §4.6 (studies A13-A15); every default
    /// leaves the run as it was. The producer's two are written to the queue's control
    /// block (`qctl[4..7]`) for the sensitivity producer (`workloads/qcache/producer_sens.ptx`),
    /// which needs a `qctl` of 8 words.
    /// A13: producer CTAs per phase of the rate modulation (0: off). CTA `b`'s compute
    /// loop runs `ci·(100 − rate_depth_pct)/100` times in even phases `⌊b / rate_period⌋`
    /// and `ci·(100 + rate_depth_pct)/100` in odd ones.
    pub rate_period: u32,
    /// A13: the modulation's depth in percent of the compute intensity.
    pub rate_depth_pct: u32,
    /// A14: percent of the intermediate data a consumer skips in the lines it reads
    /// (false sharing): line `g` of a chunk loses its last
    /// `⌊(g+1)·32·f/100⌋ − ⌊g·32·f/100⌋` words ([`false_tail`]).
    pub false_share_pct: u32,
    /// A15: percent of the lines the producer writes that no consumer reads: output line
    /// `L` is also written to the never-read buffer `spare` when
    /// `⌊(L+1)·u/(100−u)⌋ > ⌊L·u/(100−u)⌋`.
    pub unconsumed_pct: u32,
    /// Energy (system energy of A8, spec §3.1: the thesis adds McPAT's CPU energy to
    /// GPUWattch's): a core's dynamic power in W at 3.5 GHz and nominal voltage, scaled
    /// per P-state by f·V² ([`CPU_VOLTS`]), and its leakage in W, scaled by V. A core
    /// draws both from the consumers' start to its last task, busy or spinning; before
    /// and after it is power-gated (the thesis: idle cores clock- and power-gated).
    /// Defaults (our choice, the order of a McPAT out-of-order core): 3 W and 1 W.
    pub core_dynamic_w: f64,
    pub core_leakage_w: f64,
}

/// A14: the words at the end of line `g` of a chunk (32-word lines) a consumer skips at
/// `pct` percent false sharing: the chunk's first `n` lines skip `⌊n·32·pct/100⌋` words
/// in all, spread evenly (the thesis's consumer ignores the tail of a line past an offset,
/// §6.7.4; ours spreads the tails evenly rather than at random).
pub fn false_tail(g: u32, pct: u32) -> u32 {
    ((g + 1) * 32 * pct) / 100 - (g * 32 * pct) / 100
}

impl CpuConfig {
    /// Errors name `cpu.<field>` (the caller prefixes `hooks.qcache.`).
    pub fn validate(r: RawCpu) -> Result<CpuConfig, FieldError> {
        check_range("cpu.cores", r.cores as u64, 1, 4)?;
        if !CPU_PSTATES.contains(&r.mhz) {
            return Err(FieldError::new("cpu.mhz", format!("{} is not a CPU P-state", r.mhz), Some(format!("one of {CPU_PSTATES:?}"))));
        }
        if !(0.25..=8.0).contains(&r.ipc) {
            return Err(FieldError::new("cpu.ipc", format!("{} is out of range", r.ipc), Some("0.25 to 8".into())));
        }
        check_range("cpu.llc_latency", r.llc_latency as u64, 1, 10_000)?;
        check_range("cpu.dram_latency", r.dram_latency as u64, 1, 100_000)?;
        check_range("cpu.ops_per_word", r.ops_per_word as u64, 1, 10_000)?;
        check_range("cpu.cap_tasks", r.cap_tasks as u64, 1, 1 << 20)?;
        check_range("cpu.mlp", r.mlp as u64, 1, 32)?;
        check_range("cpu.dvfs_ns", r.dvfs_ns as u64, 0, 1_000_000)?;
        check_range("cpu.dvfs_step_ns", r.dvfs_step_ns as u64, 0, 1_000_000)?;
        check_range("cpu.dvfs_max_ns", r.dvfs_max_ns as u64, r.dvfs_ns as u64, 1_000_000)?;
        check_range("cpu.rate_period", r.rate_period as u64, 0, 1 << 16)?;
        check_range("cpu.rate_depth_pct", r.rate_depth_pct as u64, 0, 90)?;
        if r.rate_depth_pct > 0 && r.rate_period == 0 {
            return Err(FieldError::new(
                "cpu.rate_period",
                format!("is 0 (no modulation) while rate_depth_pct is {}", r.rate_depth_pct),
                Some("1..=65536 when rate_depth_pct > 0".into()),
            ));
        }
        check_range("cpu.false_share_pct", r.false_share_pct as u64, 0, 90)?;
        check_range("cpu.unconsumed_pct", r.unconsumed_pct as u64, 0, 50)?;
        for (name, w) in [("cpu.core_dynamic_w", r.core_dynamic_w), ("cpu.core_leakage_w", r.core_leakage_w)] {
            if !(0.0..=100.0).contains(&w) {
                return Err(FieldError::new(name, format!("{w} is out of range"), Some("0 to 100 (W per core)".into())));
            }
        }
        Ok(CpuConfig {
            cores: r.cores,
            mhz: r.mhz,
            ipc: r.ipc,
            llc_latency: r.llc_latency,
            dram_latency: r.dram_latency,
            ops_per_word: r.ops_per_word,
            mode: r.mode,
            cap_tasks: r.cap_tasks,
            mlp: r.mlp,
            trace: r.trace,
            actuation: r.actuation,
            dvfs_ns: r.dvfs_ns,
            dvfs_step_ns: r.dvfs_step_ns,
            dvfs_max_ns: r.dvfs_max_ns,
            rate_period: r.rate_period,
            rate_depth_pct: r.rate_depth_pct,
            false_share_pct: r.false_share_pct,
            unconsumed_pct: r.unconsumed_pct,
            core_dynamic_w: r.core_dynamic_w,
            core_leakage_w: r.core_leakage_w,
        })
    }
}

/// What a consumer thread does with the words of a chunk (Table 6.4's consumer kinds),
/// told by the launch's buffers: `prev` and `counts` make it kmeans's, `switch`
/// streamcluster's, neither the chunk sum of reduce, backprop, prodcons and color.
/// A taken condition costs [`COND_OPS`] · `ops_per_word` more instructions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ConsumerKind {
    /// Sum the chunk's words into `sums[task]`.
    #[default]
    Sum,
    /// kmeans (Rodinia; regular, M:1, conditional reduction-like): word `p` is point p's
    /// nearest cluster; `counts[cluster] += 1` (the M:1 reduction over `k` clusters;
    /// other values count nowhere) and, when it differs from `prev[p]`, the chunk's
    /// delta `sums[task] += 1` (taken: the point moves between clusters' accumulators).
    Kmeans { prev: u64, counts: u64, k: u32 },
    /// streamcluster (Rodinia pgain; irregular, conditional, independent per output):
    /// word `p` is point p's gain from switching to the candidate centre; a gain > 0
    /// (taken) sets `switch[p] = 1` and adds to the chunk's total `sums[task]`.
    Strmclstr { switch: u64 },
}

/// Extra instructions of a taken consumer condition, in units of `ops_per_word` (our
/// choice: the point's move, a read-modify-write of two accumulators or of its
/// assignment and cost).
pub const COND_OPS: u32 = 2;

impl ConsumerKind {
    pub fn name(self) -> &'static str {
        match self {
            ConsumerKind::Sum => "sum",
            ConsumerKind::Kmeans { .. } => "kmeans",
            ConsumerKind::Strmclstr { .. } => "strmclstr",
        }
    }

    /// Consume word `idx` of the intermediate buffer, value `v`, into the chunk's
    /// result `acc`; returns whether the condition was taken.
    fn word(self, mem: &mut dyn CoreControl, idx: u64, v: u32, acc: &mut u32) -> bool {
        match self {
            ConsumerKind::Sum => {
                *acc = acc.wrapping_add(v);
                false
            }
            ConsumerKind::Kmeans { prev, counts, k } => {
                if v < k {
                    let a = counts + 4 * v as u64;
                    let n = mem.read_word(a).unwrap_or(0);
                    mem.write_word(a, n.wrapping_add(1));
                }
                let moved = mem.read_word(prev + 4 * idx).unwrap_or(0) != v;
                *acc = acc.wrapping_add(moved as u32);
                moved
            }
            ConsumerKind::Strmclstr { switch } => {
                if v != 0 {
                    mem.write_word(switch + 4 * idx, 1);
                    *acc = acc.wrapping_add(v);
                }
                v != 0
            }
        }
    }
}

/// Where the queue lives in unified memory (the launch's buffers by name).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueLayout {
    /// The intermediate buffer, its chunks back to back.
    pub out: u64,
    pub flags: u64,
    pub sums: u64,
    /// `[cap_tasks, q_tail, fuse, fine]`.
    pub qctl: u64,
    /// Fine-grained signaling: one signal word per word of `out` (optional buffer).
    pub signals: Option<u64>,
    /// A15: the never-read half of the output (optional buffer `spare`).
    pub spare: Option<u64>,
    /// Words of `qctl` (4; 8 for the sensitivity producer's knobs).
    pub qctl_words: u32,
    pub tasks: u32,
    pub chunk_words: u32,
    /// What the consumers do with a chunk (from the launch's buffers).
    pub consumer: ConsumerKind,
}

impl QueueLayout {
    /// The buffers the queue lives in, by name, and what each holds.
    pub const BUFFERS: [(&'static str, &'static str); 4] =
        [("out", "the intermediate data"), ("flags", "the publish flags"), ("sums", "the consumers' results"), ("qctl", "the queue's control block")];

    /// From the launch's buffers `out`, `flags`, `sums`, `qctl`; the error names the first
    /// one missing.
    pub fn find(bufs: &[LaunchBuffer]) -> Result<QueueLayout, FieldError> {
        let get = |n: &str| {
            bufs.iter().find(|b| b.name == n).ok_or_else(|| {
                let what = Self::BUFFERS.iter().find(|b| b.0 == n).map_or("", |b| b.1);
                FieldError::new(
                    "buffer",
                    format!("the CPU consumers of [hooks.qcache.cpu] need a buffer named `{n}` ({what}) and the launch has none; without it they would stay idle"),
                    Some("buffers named out, flags, sums and qctl (workloads/qcache/*.toml)".into()),
                )
            })
        };
        let (out, flags, sums, qctl) = (get("out")?, get("flags")?, get("sums")?, get("qctl")?);
        let tasks = (flags.bytes / 4) as u32;
        let opt = |n: &str| bufs.iter().find(|b| b.name == n).map(|b| b.addr);
        let by_name = |n: &str| bufs.iter().find(|b| b.name == n);
        let consumer =
            match (by_name("prev"), by_name("counts"), by_name("switch")) {
                (Some(prev), Some(counts), None) => ConsumerKind::Kmeans { prev: prev.addr, counts: counts.addr, k: (counts.bytes / 4) as u32 },
                (None, None, Some(switch)) => ConsumerKind::Strmclstr { switch: switch.addr },
                (None, None, None) => ConsumerKind::Sum,
                _ => return Err(FieldError::new(
                    "buffer",
                    "the consumer is told by the launch's buffers: `prev` with `counts` (kmeans), `switch` (streamcluster) or none of them (a chunk sum); this launch mixes them"
                        .to_string(),
                    Some("`prev` and `counts` together, or `switch` alone (workloads/qcache/kmeans.toml, strmclstr.toml)".into()),
                )),
            };
        Ok(QueueLayout {
            out: out.addr,
            flags: flags.addr,
            sums: sums.addr,
            qctl: qctl.addr,
            signals: opt("signals"),
            spare: opt("spare"),
            qctl_words: (qctl.bytes / 4) as u32,
            tasks,
            chunk_words: (out.bytes / 4 / tasks.max(1) as u64) as u32,
            consumer,
        })
    }
}

/// A consumer thread's step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Not started (serial: until the producer kernel ends).
    Idle,
    /// Take the next task index.
    Pull,
    /// Spin on `flags[task]`.
    Wait(u32),
    /// Fine-grained: poll the signal lines of lines `line..` of chunk `task` (one group).
    Signal(u32, u32),
    /// Read line `line` of chunk `task`.
    Read(u32, u32),
    /// No tasks left.
    Done,
}

/// One CPU core running one consumer thread.
#[derive(Debug, Clone)]
pub struct CpuCore {
    pub mhz: u32,
    /// GPU cycle at which the current step's latency has passed.
    ready_at: f64,
    step: Step,
    acc: u32,
}

/// What the CPU cores did in a GPU cycle that the L2's monitor must see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Consume {
    /// LLC slice that forwarded the dirty line.
    pub slice: usize,
    /// The consuming core (its coherence domain).
    pub core: u8,
}

/// Counters of the CPU side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct CpuStats {
    pub tasks: u64,
    pub lines: u64,
    /// Lines found dirty in the L2 (CONSUME events).
    pub consumed_dirty: u64,
    pub llc_hits: u64,
    /// Lines read from DRAM (off-chip: spilled or never cached).
    pub dram_reads: u64,
    /// Fine-grained signaling: signal lines read once complete (their dirty ones are
    /// CONSUMEs too, counted in `consumed_dirty`; their DRAM reads in `dram_reads`).
    pub signal_lines: u64,
    pub polls: u64,
    /// A14: words of the lines read that the consumers skipped (false sharing).
    pub false_shared_words: u64,
    /// Words whose consumer condition was taken (kmeans: the cluster changed;
    /// streamcluster: a positive gain); 0 for the chunk sum.
    pub cond_taken: u64,
    /// GPU cycles the cores spent busy (not spinning, not idle), summed over cores.
    pub busy_cycles: u64,
    /// Cycle the last consumer finished.
    pub done_at: u64,
}

/// The CPU cores and their shared queue state.
pub struct CpuCluster {
    pub cfg: CpuConfig,
    pub cores: Vec<CpuCore>,
    gpu_mhz: u32,
    layout: Option<QueueLayout>,
    /// The shared pull index `q_next` (kept here: the consumers' lock-free counter).
    q_next: u32,
    initialized: bool,
    pub stats: CpuStats,
    /// GPU cycles the cores were active (busy or spinning), summed over cores, per
    /// P-state of [`CPU_PSTATES`] (the energy's time base).
    active_cycles: [f64; 6],
}

impl CpuCluster {
    pub fn new(cfg: &CpuConfig, gpu_mhz: u32) -> CpuCluster {
        let cores = (0..cfg.cores).map(|_| CpuCore { mhz: cfg.mhz, ready_at: 0.0, step: Step::Idle, acc: 0 }).collect();
        CpuCluster { cfg: cfg.clone(), cores, gpu_mhz, layout: None, q_next: 0, initialized: false, stats: CpuStats::default(), active_cycles: [0.0; 6] }
    }

    pub fn set_layout(&mut self, l: Option<QueueLayout>) {
        self.layout = l;
    }

    /// The consumers' kind (the chunk sum until a launch says otherwise).
    pub fn consumer(&self) -> ConsumerKind {
        self.layout.map_or(ConsumerKind::Sum, |l| l.consumer)
    }

    /// The consumers start at `now` (a no-op for fusion, whose CPU idles, and once started).
    pub fn start(&mut self, now: u64) {
        if self.cfg.mode == QueueMode::Fusion || self.layout.is_none() {
            return;
        }
        for c in &mut self.cores {
            if c.step == Step::Idle {
                c.step = Step::Pull;
                c.ready_at = now as f64;
            }
        }
    }

    /// Consumers started and not finished.
    pub fn running(&self) -> bool {
        self.cores.iter().any(|c| !matches!(c.step, Step::Idle | Step::Done))
    }

    /// Whether the consumers start at kernel begin (concurrent modes) or end (serial).
    pub fn concurrent(&self) -> bool {
        !matches!(self.cfg.mode, QueueMode::Serial | QueueMode::Fusion)
    }

    /// The cores' energy (see [`CpuConfig::core_dynamic_w`]): the CPU cycles at each
    /// P-state, at `core_dynamic_w / 3.5 GHz · V²` each, and the leakage over the active
    /// time.
    pub fn energy(&self, out: &mut HookEnergy) {
        let fmax_hz = CPU_PSTATES[CPU_PSTATES.len() - 1] as f64 * 1e6;
        for (p, &gpu_cycles) in self.active_cycles.iter().enumerate() {
            let seconds = gpu_cycles / (self.gpu_mhz as f64 * 1e6);
            let v = CPU_VOLTS[p];
            let pj = self.cfg.core_dynamic_w / fmax_hz * v * v * 1e12;
            out.events.push((CPU_CYCLE_EVENTS[p], Part::Cpu, seconds * CPU_PSTATES[p] as f64 * 1e6, pj));
            out.static_nj += self.cfg.core_leakage_w * v * seconds * 1e9;
        }
    }

    /// GPU cycles for `n` CPU cycles on core `c`.
    fn cycles(&self, c: usize, n: f64) -> f64 {
        n * self.gpu_mhz as f64 / self.cores[c].mhz as f64
    }

    /// Run every core's steps that are due by the end of GPU cycle `now`; dirty lines
    /// forwarded to a core are pushed to `consumed`.
    pub fn cycle(&mut self, now: u64, mem: &mut dyn CoreControl, consumed: &mut Vec<Consume>) {
        let Some(l) = self.layout else { return };
        if !self.initialized {
            // the runtime sets up the queue before the first CTA runs
            let cap = if self.cfg.mode == QueueMode::Finite { self.cfg.cap_tasks } else { 0 };
            mem.write_word(l.qctl, cap);
            mem.write_word(l.qctl + 4, 0);
            mem.write_word(l.qctl + 8, (self.cfg.mode == QueueMode::Fusion) as u32);
            mem.write_word(l.qctl + 12, self.cfg.mode.fine() as u32);
            if l.qctl_words >= 8 {
                // the sensitivity producer's knobs (producer_sens.ptx)
                mem.write_word(l.qctl + 16, self.cfg.rate_period);
                mem.write_word(l.qctl + 20, self.cfg.rate_depth_pct);
                mem.write_word(l.qctl + 24, self.cfg.unconsumed_pct);
            }
            self.initialized = true;
        }
        let line_words = 32u32;
        let lines = l.chunk_words.div_ceil(line_words);
        let fine = self.cfg.mode.fine();
        for c in 0..self.cores.len() {
            while self.cores[c].ready_at < (now + 1) as f64 {
                let llc = self.cycles(c, self.cfg.llc_latency as f64);
                let (delay, busy) = match self.cores[c].step {
                    Step::Idle | Step::Done => break,
                    Step::Pull => {
                        if self.q_next < l.tasks {
                            self.cores[c].acc = 0;
                            self.cores[c].step = if fine { Step::Signal(self.q_next, 0) } else { Step::Wait(self.q_next) };
                            self.q_next += 1;
                        } else {
                            self.cores[c].step = Step::Done;
                            self.stats.done_at = self.stats.done_at.max(now);
                        }
                        (llc, true)
                    }
                    Step::Wait(t) => {
                        self.stats.polls += 1;
                        if mem.read_word(l.flags + 4 * t as u64).unwrap_or(0) != 0 {
                            self.cores[c].step = Step::Read(t, 0);
                            self.cores[c].acc = 0;
                            (llc, true)
                        } else {
                            (llc, false)
                        }
                    }
                    Step::Signal(t, li) => {
                        // the signal words of the group's data words, in signal lines
                        // that mirror the data lines; all set: read each signal line
                        // (a dirty one is forwarded: a CONSUME), then the data lines
                        let group = self.cfg.mlp.min(lines - li);
                        let sig = l.signals.expect("fine-grained mode checks the signals buffer");
                        let first = t as u64 * l.chunk_words as u64 + (li * line_words) as u64;
                        let words = (group * line_words).min(l.chunk_words - li * line_words) as u64;
                        self.stats.polls += 1;
                        if (0..words).all(|w| mem.read_word(sig + 4 * (first + w)).unwrap_or(0) != 0) {
                            let mut lat = 0u32;
                            for g in 0..group as u64 {
                                let addr = sig + 4 * (first + g * line_words as u64);
                                self.stats.signal_lines += 1;
                                lat = lat.max(self.fetch(c, addr, mem, consumed));
                            }
                            self.cores[c].step = Step::Read(t, li);
                            (self.cycles(c, lat as f64), true)
                        } else {
                            (llc, false)
                        }
                    }
                    Step::Read(t, li) => {
                        // up to `mlp` lines of the chunk in flight together: the group
                        // waits for its slowest line, then its words are summed in order
                        let group = self.cfg.mlp.min(lines - li);
                        let (mut lat, mut compute) = (0u32, 0.0);
                        let mut acc = self.cores[c].acc;
                        for g in li..li + group {
                            let first = t as u64 * l.chunk_words as u64 + (g * line_words) as u64;
                            let addr = l.out + 4 * first;
                            self.stats.lines += 1;
                            lat = lat.max(self.fetch(c, addr, mem, consumed));
                            // false sharing (A14): the line's tail is not the consumer's
                            let all = line_words.min(l.chunk_words - g * line_words);
                            let skip = false_tail(g, self.cfg.false_share_pct).min(all);
                            self.stats.false_shared_words += skip as u64;
                            let words = all - skip;
                            let mut taken = 0;
                            for w in 0..words as u64 {
                                let v = mem.read_word(addr + 4 * w).unwrap_or(0);
                                taken += l.consumer.word(mem, first + w, v, &mut acc) as u32;
                            }
                            self.stats.cond_taken += taken as u64;
                            compute += ((words + COND_OPS * taken) * self.cfg.ops_per_word) as f64 / self.cfg.ipc;
                        }
                        self.cores[c].acc = acc;
                        let mut delay = self.cycles(c, lat as f64 + compute);
                        if li + group < lines {
                            self.cores[c].step = if fine { Step::Signal(t, li + group) } else { Step::Read(t, li + group) };
                        } else {
                            // store the chunk's result, free the slot (q_tail += 1)
                            mem.write_word(l.sums + 4 * t as u64, acc);
                            let tail = mem.read_word(l.qctl + 4).unwrap_or(0);
                            mem.write_word(l.qctl + 4, tail + 1);
                            self.stats.tasks += 1;
                            self.cores[c].step = Step::Pull;
                            delay += 2.0 * llc;
                        }
                        (delay, true)
                    }
                };
                let core = &mut self.cores[c];
                core.ready_at = core.ready_at.max(now as f64) + delay;
                let p = CPU_PSTATES.iter().position(|&f| f == core.mhz).unwrap_or(CPU_PSTATES.len() - 1);
                self.active_cycles[p] += delay;
                if busy {
                    self.stats.busy_cycles += delay.round() as u64;
                }
            }
        }
    }

    /// Core `c` reads the line holding `addr`: from the L2 (a dirty line is forwarded
    /// with its write-back duty: a CONSUME) or from DRAM. Returns its latency in CPU cycles.
    fn fetch(&mut self, c: usize, addr: u64, mem: &mut dyn CoreControl, consumed: &mut Vec<Consume>) -> u32 {
        match mem.l2_snoop(addr, true) {
            Some(dirty) => {
                if dirty {
                    self.stats.consumed_dirty += 1;
                    consumed.push(Consume { slice: mem.l2_slice(addr), core: c as u8 });
                }
                self.stats.llc_hits += 1;
                self.cfg.llc_latency
            }
            None => {
                self.stats.dram_reads += 1;
                self.cfg.dram_latency
            }
        }
    }

    /// CPU DVFS for a rate request to core `c` (spec §1.8, CPU actuator): slow by or
    /// speed by `ratio` (x16), to the closest P-state; `false` (NACK) at the limit.
    pub fn dvfs(&mut self, c: usize, slow: bool, ratio_x16: u32) -> bool {
        match self.dvfs_target(c, slow, ratio_x16) {
            Some(mhz) => {
                self.cores[c].mhz = mhz;
                true
            }
            None => false,
        }
    }

    /// The P-state (MHz) a rate request moves core `c` to; `None` (NACK) at the limit:
    /// the closest to `clock / ratio` or `clock · ratio`, at least one step, the lower on
    /// a tie (spec §1.8; [`super::actuator::closest`], as `qc_cpu_dvfs` picks it).
    pub fn dvfs_target(&self, c: usize, slow: bool, ratio_x16: u32) -> Option<u32> {
        let k = super::actuator::closest(self.cores[c].mhz as u64, CPU_PSTATES.iter().map(|&p| p as u64), slow, ratio_x16)?;
        Some(CPU_PSTATES[k])
    }

    /// Back to the configured clock (RESTORE).
    pub fn restore(&mut self) {
        for c in &mut self.cores {
            c.mhz = self.cfg.mhz;
        }
    }
}
