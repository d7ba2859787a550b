//! The SIMT core (SM, GPGPU-Sim `shader_core_ctx`; tfb_bdib.md §2.1 pipeline): fetch
//! into per-warp I-buffers, scoreboard, warp schedulers, functional units, the LD/ST
//! unit with shared memory and the L1D, drain barriers and fences, CTA residency.
//!
//! Per cycle (`cycle`), stages run back to front so each reads the state the previous
//! cycle left, as a registered pipeline would (the sequential form of eval/commit):
//! 1. completions due this cycle (L1 hits, shared-memory accesses) write back;
//! 2. the LD/ST unit sends one access of the memory instruction it holds to the L1
//!    (one tag port) — the instruction issued last cycle or earlier;
//! 3. each scheduler issues up to `issue_width` instructions, in policy order;
//! 4. fetch refills up to `fetch_width` empty I-buffers (usable next cycle; our choice:
//!    a perfect instruction cache);
//! 5. one packet of the miss queue is injected into the network.
//!
//! Replies from the network are handled before all of this (`receive`).
//!
//! Hooks ([`super::hooks`]): the SM owns its [`IssueHook`]. Before the schedulers (step
//! 3) it may hand back one deferred instruction, which executes then; the schedulers
//! ask it where its taps say (warps at a barrier or holding deferred instructions,
//! every instruction, the candidate order); barrier arrival and completion are reported
//! as they happen. Step 5 offers the departing request to the SM's
//! [`super::hooks::CoreNetHook`] (in [`SmPorts`]).
//!
//! Our choices, in one place:
//! * warp slot `w` belongs to scheduler `w % schedulers`; schedulers arbitrate for shared
//!   functional units in fixed order (scheduler 0 first) within a cycle;
//! * one LD/ST unit per SM holds one memory instruction at a time: a global/local
//!   instruction sends one line access per cycle (coalesced segments, [`super::coalesce`]),
//!   a shared one occupies the shared-memory pipeline for its conflict degree;
//! * one request packet per cycle leaves the SM; every arrived reply is taken each cycle;
//! * packet sizes: read request 1 flit; write 1 + ceil(bytes / flit); atomic
//!   1 + ceil(operand bytes / flit) both ways; read reply 1 + line / flit; write ack 1;
//! * drain barrier (tfb_bdib.md §1.4, §2.3): a warp's ERF completes `erf_latency` after
//!   its older loads, shared accesses and atomics have completed and the LD/ST unit has
//!   accepted its older stores (CTA scope: a store accepted by the write-through L1 is
//!   done, tfb_bdib.md §3.3); when every live warp of the CTA finished its ERF, all
//!   resume `eaf_latency` after the last ERF;
//! * `membar.cta` waits like an ERF then `fence_cta_latency`; `membar.gl`/`.sys` also
//!   waits for the LLC's acknowledgement of older stores and atomics, then invalidates
//!   the L1 (acquire) and waits `fence_gpu_latency`;
//! * a warp whose lanes all exited retires when its memory operations (including store
//!   acknowledgements) are done; a CTA retires with its last warp;
//! * registers, predicates and local memory of a new warp start at zero (a register no
//!   thread can read before writing it keeps what the slot's last warp left: no thread
//!   sees it; [`super::ptx::cfg::read_before_written`]).
//!
//! Timing definitions (used by the microbenchmark tests): an ALU result is ready
//! `latency` cycles after issue; a load that hits the L1 is ready `1 + hit_latency`
//! cycles after issue; a shared-memory load with conflict degree d is ready
//! `latency + d - 1` cycles after issue and keeps the LD/ST unit busy d cycles; a miss
//! is ready in the cycle its reply leaves the network.

use std::collections::VecDeque;

use crate::network::{Class, Network, Packet};

use super::coalesce::{coalesce, local_timing_addr, Segment};
use super::config::{BarrierMode, BarrierScope, GpuConfig, L1Config, SchedulerPolicy, SharedMemConfig, SyncConfig};
use super::cta::KernelRun;
use super::exec::{Effect, MemCtx, MemRecord, WarpExec, WarpIds, WARP};
use super::fu::FuPool;
use super::hooks::{Absorb, Absorbed, Deferred, HeldLine, HookCounters, IssueDecision, IssueHook, IssueTaps, KernelShape, NoHook, OffloadEvent, SmNetHook, WarpView};
use super::l1::{ReadOutcome, L1D};
use super::mapping::AddressMap;
use super::mempart::flits_for;
use super::memspace::DeviceMemory;
use super::occupancy::{CtaOccupancy, OccupancySums, OccupancyTrace};
use super::predecode::Fast;
use super::ptx::{CacheOp, Kernel, Op, OpClass, Scope, Space, NO_PRED};
use super::scheduler::WarpScheduler;
use super::scoreboard::{Scoreboard, PENDING};
use super::shmem::conflict_degree;
use super::simt::SimtStack;
use super::stats::{IssueStats, LoadSourceStats, MissLatencyStats, ShmemStats, SmReport, SyncStats};
use super::txn::{Txn, TxnKind, TxnTable};

/// Lanes in `mask`. A full warp, the common case, without counting: the baseline
/// x86-64 target has no `popcnt`, and `count_ones` is some twenty instructions.
#[inline(always)]
fn lane_count(mask: u32) -> u64 {
    if mask == u32::MAX {
        WARP as u64
    } else {
        mask.count_ones() as u64
    }
}

/// No memory-instruction token.
const NO_TOKEN: u32 = u32::MAX;

/// Why a warp could not issue (also the stall statistics' categories, in precedence
/// order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stall {
    MemData = 0,
    AluData = 1,
    FuBusy = 2,
    LsuBusy = 3,
    Barrier = 4,
    Fence = 5,
    Fetch = 6,
    Other = 7,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpState {
    Active,
    /// Issued `bar.sync`, waiting for the CTA (drain barrier, tfb_bdib.md §1.4, §2.3).
    Barrier,
    /// Issued a fence, draining (tfb_bdib.md §2.2).
    Fence(Scope),
    /// All lanes exited; retiring once its memory operations are done.
    Finished,
}

/// A hardware warp slot. The fields a scheduler's check reads come first, in the
/// slot's first cache line.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
pub struct Warp {
    /// Cached "cannot issue before" and its reason (see `check`).
    pub blocked_until: u64,
    /// I-buffer: `ibuf_n` decoded instructions starting at `ibuf_pc`, usable from
    /// cycle `ibuf_ready`.
    pub ibuf_ready: u64,
    pub ibuf_pc: u32,
    pub ibuf_n: u32,
    pub stall: Stall,
    pub state: WarpState,
    /// Instructions issued into the issue hook and not yet executed.
    pub deferred: u32,
    pub simt: SimtStack,
    pub valid: bool,
    pub cta: u16,
    pub in_fetch_q: bool,
    pub erf_done: bool,
    /// The named barrier the warp waits at (while in [`WarpState::Barrier`]).
    pub bar_id: u8,
    /// Outstanding loads/atomics/shared accesses (instructions), global stores and
    /// atomics-without-return awaiting their LLC ack, accesses still in the LD/ST unit.
    pub pending_loads: u32,
    pub pending_stores: u32,
    pub lsu_pending: u32,
    /// Parked until the issue hook answers its offloaded chain: an older load's data
    /// arriving meanwhile does not release it.
    pub offload_wait: bool,
    /// Its next instruction may touch what other SMs share ([`Sm::runs_alone`]).
    at_shared: bool,
    pub age: u64,
    pub resume_at: u64,
    pub sync_since: u64,
    /// Occupancy-loss split (tfb_bdib.md §4.4, S4): the CTA's contended cycles before
    /// this warp's arrival at its barrier, and the cycle it resumed from its last barrier
    /// until its first issue after it ([`NO_CYCLE`]: none pending, ramp-up counted).
    pub cont_mark: u64,
    pub ramp_since: u64,
    pub ids: WarpIds,
}

/// No cycle (a ramp-up not pending, no contended cycle yet).
const NO_CYCLE: u64 = u64::MAX;

impl Warp {
    fn empty() -> Self {
        Warp {
            valid: false,
            cta: 0,
            age: 0,
            ids: WarpIds::default(),
            simt: SimtStack::new(),
            ibuf_pc: 0,
            ibuf_n: 0,
            ibuf_ready: 0,
            in_fetch_q: false,
            state: WarpState::Finished,
            resume_at: 0,
            sync_since: 0,
            cont_mark: 0,
            ramp_since: NO_CYCLE,
            erf_done: false,
            offload_wait: false,
            at_shared: false,
            bar_id: 0,
            pending_loads: 0,
            pending_stores: 0,
            lsu_pending: 0,
            deferred: 0,
            blocked_until: 0,
            stall: Stall::Other,
        }
    }
}

/// How an instruction that passed `check` issues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    Execute,
    /// Into the issue hook ([`IssueDecision::Defer`]).
    Defer,
    /// Absorbed by the hook's offload queue ([`IssueDecision::Offload`]).
    Offload,
}

/// A resident CTA.
#[derive(Debug, Clone, Default)]
struct CtaSlot {
    valid: bool,
    warps: Vec<u16>,
    /// Warps that have not executed `exit` / have not retired.
    live: u32,
    unretired: u32,
    shared: Vec<u8>,
    /// Per named barrier (0..16): warps whose ERF finished for the current barrier,
    /// and the cycle the last one did.
    erf_count: [u32; NAMED_BARRIERS],
    release_at: [u64; NAMED_BARRIERS],
    /// Expected arrivals (warps) when `bar.sync`/`bar.arrive` carried a thread count.
    bar_expected: [Option<u32>; NAMED_BARRIERS],
    /// Warps that executed `bar.arrive` (counted, not waiting).
    arrived: [u32; NAMED_BARRIERS],
    /// The cycle of the latest arrival at the current barrier (occupancy-loss split).
    last_arrival: [u64; NAMED_BARRIERS],
    /// Occupancy-loss split (S4): warps waiting at a barrier, cycles in which one of
    /// them waited while a lagging warp of this CTA could have issued but its scheduler
    /// issued another CTA's warp (issue contention), and the latest such cycle.
    at_barrier: u32,
    cont_cycles: u64,
    cont_last: u64,
    /// Warp instructions in flight (S3, S13).
    occ: CtaOccupancy,
}

/// The longest completion latency [`CtaOccupancy`] registers ahead: a functional unit's
/// result latency, a parameter load's (the integer latency), one cycle.
fn occupancy_horizon(c: &super::config::CoreConfig) -> u32 {
    let u = &c.units;
    [u.int.latency, u.fp32.latency, u.fp64.latency, u.sfu.latency, 1].into_iter().max().unwrap_or(1)
}

/// Named barriers per CTA (PTX: ids 0..15).
const NAMED_BARRIERS: usize = 16;

/// A memory instruction waiting for its accesses.
#[derive(Debug, Clone, Copy)]
struct MemInst {
    warp: u16,
    defs: [u16; 4],
    n_def: u8,
    remaining: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AccKind {
    Read,
    ReadBypass,
    Write,
    Atomic,
}

/// One line access waiting in the LD/ST unit.
#[derive(Debug, Clone, Copy)]
struct Access {
    kind: AccKind,
    line: u64,
    mask: u128,
    bytes: u32,
    token: u32,
    warp: u16,
}

/// The registers a memory instruction's data returns to (none when it `returns` nothing).
#[inline(always)]
fn returned_defs(inst: &super::ptx::Inst, returns: bool) -> ([u16; 4], usize) {
    let mut defs = [0u16; 4];
    let nd = if returns { inst.n_def as usize } else { 0 };
    defs[..nd].copy_from_slice(&inst.sb_def[..nd]);
    (defs, nd)
}

/// A line access an offload queue holds ([`IssueDecision::Offload`]): it enters the
/// LD/ST unit only if the chain is released ([`Absorb::Release`],
/// [`OffloadEvent::Fallback`]).
#[derive(Debug, Clone, Copy)]
struct Held {
    acc: Access,
    /// The load instruction it belongs to (one memory token per instruction).
    inst: u32,
    defs: [u16; 4],
    n_def: u8,
}

/// What an SM needs from the rest of the GPU during a cycle.
pub struct SmPorts<'a> {
    pub now: u64,
    pub run: &'a KernelRun,
    pub gmem: &'a mut DeviceMemory,
    pub txns: &'a mut TxnTable,
    pub net: &'a mut dyn Network,
    pub map: &'a AddressMap,
    pub mem_nodes: &'a [usize],
    pub flit_bytes: u32,
    /// The hook between this SM and the network.
    pub net_hook: &'a mut SmNetHook,
}

/// A functional fault with where it happened.
#[derive(Debug, Clone)]
pub struct CoreFault {
    pub warp: usize,
    pub line: u32,
    pub message: String,
}

/// One SM.
pub struct Sm {
    pub id: usize,
    pub node: usize,
    nsms: u32,
    l1cfg: L1Config,
    shcfg: SharedMemConfig,
    sync: SyncConfig,
    issue_width: u32,
    ibuffer_entries: u32,
    fetch_width: u32,
    int_latency: u32,
    slots: usize,
    // per-kernel state
    /// The kernel's instructions pre-decoded ([`Fast::decode`]), by pc.
    fast: Vec<Fast>,
    nregs: usize,
    npreds: usize,
    local_bytes: usize,
    regs: Vec<u64>,
    /// Register rows (ranges of register indices) a new warp must find at zero.
    zero_regs: Vec<std::ops::Range<usize>>,
    preds: Vec<u32>,
    local: Vec<u8>,
    pub warps: Vec<Warp>,
    ctas: Vec<CtaSlot>,
    pub resident_ctas: u32,
    scoreboard: Scoreboard,
    schedulers: Vec<WarpScheduler>,
    /// Per scheduler: no warp can issue before this cycle unless an event (memory
    /// completion, barrier/fence release, LD/ST unit free, CTA launch) wakes it; and the
    /// stall reason to charge meanwhile. Exact: it skips scans whose outcome is known.
    sched_sleep: Vec<u64>,
    sched_why: Vec<Stall>,
    /// Warps a scheduler's scan passes over ([`Self::issue_one`]): bit `w` is set while
    /// warp `w` waits for a load (`blocked_until == PENDING`: its check fails with
    /// [`Stall::MemData`] until the load completes) or has finished (its check fails
    /// with [`Stall::Other`]); per scheduler, how many wait for a load.
    parked: Vec<u64>,
    parked_loads: Vec<u32>,
    /// A scheduler never holds more than 64 warps: its scan follows
    /// [`WarpScheduler::unparked`].
    scan_unparked: bool,
    fus: FuPool,
    pub l1: L1D,
    lsu: VecDeque<Access>,
    shared_busy_until: u64,
    mem_insts: Vec<MemInst>,
    free_tokens: Vec<u32>,
    /// (ready cycle, token): L1 hits and shared-memory accesses, in ready order.
    l1_hits: VecDeque<(u64, u32)>,
    shmem_done: VecDeque<(u64, u32)>,
    miss_q: VecDeque<Packet>,
    fetch_q: VecDeque<u16>,
    next_age: u64,
    next_packet_id: u64,
    // scratch
    rec: MemRecord,
    /// Lanes the last executed instruction ran on (active lanes the guard allowed).
    rec_guard: u32,
    taddr: [u64; WARP],
    segs: Vec<Segment>,
    order: Vec<u16>,
    /// Per warp slot: this cycle's MWF / fMWF key ([`super::scheduler::barrier_key`]).
    keys: Vec<u32>,
    wake: Vec<u32>,
    // hooks
    issue_hook: Box<dyn IssueHook>,
    taps: IssueTaps,
    /// Deferred instructions over all warps.
    deferred_total: u32,
    /// Warps waiting at a barrier, over all CTAs (the contention probe runs while > 0).
    bar_waiting: u32,
    /// Per warp slot: accesses its offload queue holds; warps waiting for an answer.
    held: Vec<Vec<Held>>,
    held_lines: Vec<HeldLine>,
    next_held_inst: u32,
    offload_waiting: u32,
    // statistics
    pub issue: IssueStats,
    pub shmem: ShmemStats,
    pub syncs: SyncStats,
    pub occupancy: OccupancySums,
    pub load_source: LoadSourceStats,
    pub miss_latency: MissLatencyStats,
    /// Per L1 MSHR: bytes of the read accesses waiting for its line (load sources).
    mshr_bytes: Vec<u64>,
    /// `[stats] occupancy_trace`: the threadblock to trace, and its trace once it
    /// started here (one per SM: the first such threadblock the SM runs).
    trace_cfg: Option<super::config::TraceConfig>,
    pub trace: Option<OccupancyTrace>,
    pub report: SmReport,
    // idle skipping
    /// The SM's cycles before this one would only count stalls (see [`Self::plan_sleep`]):
    /// the GPU does not run them. 0: awake.
    pub sleep_until: u64,
    // running ahead ([`Self::runs_alone`])
    /// Per pc of the kernel: the instruction may touch what the SMs share (device
    /// memory, the network, the printf buffer).
    shared_pc: Vec<bool>,
    /// Live warps whose next instruction is such a one.
    at_shared: u32,
    /// Requests sent into the network and not answered yet.
    in_flight: u32,
    /// The last cycle the SM ran ahead of the GPU to (the GPU skips it up to there).
    pub ran_to: u64,
    /// First slept cycle not yet counted, and whether each slept cycle retries a read
    /// the L1 refuses.
    slept_from: u64,
    sleep_l1_refused: bool,
}

impl Sm {
    pub fn new(id: usize, cfg: &GpuConfig) -> Self {
        let c = &cfg.core;
        let slots = c.warp_slots() as usize;
        Sm {
            id,
            node: cfg.network.sm_nodes[id],
            nsms: cfg.sms,
            l1cfg: cfg.l1,
            shcfg: c.shared_memory,
            sync: c.sync,
            issue_width: c.issue_width,
            ibuffer_entries: c.ibuffer_entries,
            fetch_width: c.fetch_width,
            int_latency: c.units.int.latency,
            slots,
            fast: Vec::new(),
            nregs: 0,
            npreds: 0,
            local_bytes: 0,
            regs: Vec::new(),
            zero_regs: Vec::new(),
            preds: Vec::new(),
            local: Vec::new(),
            warps: (0..slots).map(|_| Warp::empty()).collect(),
            ctas: (0..c.max_ctas).map(|_| CtaSlot { occ: CtaOccupancy::new(occupancy_horizon(c)), ..CtaSlot::default() }).collect(),
            resident_ctas: 0,
            scoreboard: Scoreboard::default(),
            schedulers: (0..c.schedulers).map(|_| WarpScheduler::new(c.scheduler)).collect(),
            sched_sleep: vec![0; c.schedulers as usize],
            sched_why: vec![Stall::Other; c.schedulers as usize],
            parked: vec![0; slots.div_ceil(64)],
            parked_loads: vec![0; c.schedulers as usize],
            scan_unparked: slots.div_ceil(c.schedulers as usize) <= 64,
            fus: FuPool::new(&c.units),
            l1: L1D::new(&cfg.l1),
            lsu: VecDeque::new(),
            shared_busy_until: 0,
            mem_insts: Vec::new(),
            free_tokens: Vec::new(),
            l1_hits: VecDeque::new(),
            shmem_done: VecDeque::new(),
            miss_q: VecDeque::new(),
            fetch_q: VecDeque::new(),
            next_age: 0,
            next_packet_id: (id as u64) << 40,
            rec: MemRecord::default(),
            rec_guard: 0,
            taddr: [0; WARP],
            segs: Vec::with_capacity(WARP),
            order: Vec::with_capacity(slots),
            keys: vec![0; slots],
            wake: Vec::new(),
            issue_hook: Box::new(NoHook),
            taps: IssueTaps::default(),
            deferred_total: 0,
            bar_waiting: 0,
            held: vec![Vec::new(); slots],
            held_lines: Vec::new(),
            next_held_inst: 0,
            offload_waiting: 0,
            issue: IssueStats::default(),
            shmem: ShmemStats::default(),
            syncs: SyncStats::default(),
            occupancy: OccupancySums::default(),
            load_source: LoadSourceStats::default(),
            miss_latency: MissLatencyStats::default(),
            mshr_bytes: vec![0; cfg.l1.mshrs as usize],
            trace_cfg: cfg.stats.occupancy_trace,
            trace: None,
            report: SmReport::default(),
            sleep_until: 0,
            shared_pc: Vec::new(),
            at_shared: 0,
            in_flight: 0,
            ran_to: 0,
            slept_from: 0,
            sleep_l1_refused: false,
        }
    }

    /// Attach the SM's issue hook (replacing the no-op one).
    pub fn set_issue_hook(&mut self, hook: Box<dyn IssueHook>) {
        self.taps = hook.taps();
        self.issue_hook = hook;
    }

    /// Add the issue hook's counters.
    pub fn hook_counters(&self, out: &mut HookCounters) {
        self.issue_hook.counters(out);
    }

    /// Size the register files for a kernel (between kernels; the SM must be empty).
    pub fn start_kernel(&mut self, run: &KernelRun) {
        debug_assert_eq!(self.resident_ctas, 0);
        let k = &*run.kernel;
        self.issue_hook.kernel_begin(k);
        self.issue_hook.kernel_shape(&KernelShape { ctas_per_sm: run.ctas_per_sm, shared_bytes_per_cta: run.shared_bytes });
        self.fast.clear();
        self.fast.extend(k.insts.iter().map(Fast::decode));
        self.shared_pc.clear();
        self.shared_pc.extend(k.insts.iter().map(touches_shared));
        debug_assert_eq!(self.at_shared, 0, "a warp of the last kernel still counted");
        self.nregs = k.nregs as usize;
        self.npreds = k.npreds as usize;
        self.local_bytes = k.local_bytes as usize;
        self.regs = vec![0; self.slots * self.nregs * WARP];
        // registers no thread reads before writing keep what the slot's last warp left
        self.zero_regs.clear();
        for (r, &z) in k.read_before_written.iter().enumerate() {
            match self.zero_regs.last_mut() {
                Some(run) if z && run.end == r => run.end = r + 1,
                _ if z => self.zero_regs.push(r..r + 1),
                _ => {}
            }
        }
        self.preds = vec![0; self.slots * self.npreds];
        self.local = vec![0; self.slots * WARP * self.local_bytes];
        self.scoreboard = Scoreboard::new(self.slots, self.nregs + self.npreds);
        // our choice: L1s are invalidated at kernel boundaries
        self.l1.invalidate_all();
    }

    /// Whether anything is resident.
    #[inline]
    pub fn busy(&self) -> bool {
        self.resident_ctas > 0
    }

    pub fn has_room(&self, run: &KernelRun) -> bool {
        self.resident_ctas < run.ctas_per_sm
    }

    /// Make CTA `cta_id` resident.
    pub fn launch_cta(&mut self, run: &KernelRun, cta_id: u64, now: u64) {
        // dispatch follows the SMs' cycles: cycle `now` is over
        self.wake_up(now + 1);
        let slot = self.ctas.iter().position(|c| !c.valid).expect("has_room checked");
        let ctaid = run.ctaid(cta_id);
        // (the slot's warp list keeps its allocation from CTA to CTA)
        let mut warps = std::mem::take(&mut self.ctas[slot].warps);
        warps.clear();
        for k in 0..run.warps_per_cta {
            let w = self.warps.iter().position(|w| !w.valid).expect("occupancy leaves warp slots");
            let first = k * 32;
            let n = (run.threads_per_cta - first).min(32);
            let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
            let wp = &mut self.warps[w];
            wp.valid = true;
            wp.cta = slot as u16;
            wp.age = self.next_age;
            self.next_age += 1;
            wp.ids =
                WarpIds { first_tid: first, ntid: run.block, ctaid, nctaid: run.grid, warp_slot: w as u32, nwarp_slots: self.slots as u32, smid: self.id as u32, nsmid: self.nsms };
            wp.simt.reset(0, mask);
            wp.ibuf_n = 0;
            wp.ibuf_pc = 0;
            wp.in_fetch_q = true;
            wp.state = WarpState::Active;
            wp.resume_at = 0;
            wp.cont_mark = 0;
            wp.ramp_since = NO_CYCLE;
            wp.erf_done = false;
            wp.pending_loads = 0;
            wp.pending_stores = 0;
            wp.lsu_pending = 0;
            wp.offload_wait = false;
            wp.at_shared = false;
            wp.deferred = 0;
            debug_assert!(self.parked[w >> 6] >> (w & 63) & 1 == 0, "warp slot {w} was parked when it retired");
            wp.blocked_until = 0;
            wp.stall = Stall::Other;
            self.fetch_q.push_back(w as u16);
            let rb = w * self.nregs * WARP;
            for run in &self.zero_regs {
                self.regs[rb + run.start * WARP..rb + run.end * WARP].fill(0);
            }
            let pb = w * self.npreds;
            self.preds[pb..pb + self.npreds].fill(0);
            let lb = w * WARP * self.local_bytes;
            self.local[lb..lb + WARP * self.local_bytes].fill(0);
            self.scoreboard.clear_warp(w);
            let ns = self.schedulers.len();
            self.schedulers[w % ns].add(w as u16);
            self.sched_sleep[w % ns] = 0;
            self.note_next(w);
            warps.push(w as u16);
        }
        let c = &mut self.ctas[slot];
        c.valid = true;
        c.live = warps.len() as u32;
        c.unretired = warps.len() as u32;
        c.warps = warps;
        c.shared.clear();
        c.shared.resize(run.shared_bytes as usize, 0);
        c.erf_count = [0; NAMED_BARRIERS];
        c.release_at = [0; NAMED_BARRIERS];
        c.bar_expected = [None; NAMED_BARRIERS];
        c.arrived = [0; NAMED_BARRIERS];
        c.at_barrier = 0;
        c.cont_cycles = 0;
        c.cont_last = NO_CYCLE;
        c.occ.launch(now + 1);
        if let Some(t) = self.trace_cfg.filter(|t| t.cta == cta_id && self.trace.is_none()) {
            self.trace = Some(OccupancyTrace::default());
            c.occ.trace = Some(Box::new(OccupancyTrace { sm: self.id as u32, cta: cta_id, start: now + 1, cycles: t.cycles, ..Default::default() }));
        }
        self.resident_ctas += 1;
        self.report.ctas += 1;
    }

    /// Something changed for warp `w`: its scheduler must look again.
    #[inline]
    fn wake(&mut self, w: usize) {
        let ns = self.sched_sleep.len();
        self.sched_sleep[w % ns] = 0;
    }

    // ---------------------------------------------------------------- memory side

    fn alloc_token(&mut self, m: MemInst) -> u32 {
        match self.free_tokens.pop() {
            Some(t) => {
                self.mem_insts[t as usize] = m;
                t
            }
            None => {
                self.mem_insts.push(m);
                (self.mem_insts.len() - 1) as u32
            }
        }
    }

    /// One access of memory instruction `token` is done at `now`.
    fn complete(&mut self, token: u32, now: u64) {
        let m = &mut self.mem_insts[token as usize];
        m.remaining -= 1;
        if m.remaining > 0 {
            return;
        }
        let m = *m;
        self.free_tokens.push(token);
        let w = m.warp as usize;
        let occ = &mut self.ctas[self.warps[w].cta as usize].occ;
        occ.before(now);
        occ.complete(now, now);
        for &d in &m.defs[..m.n_def as usize] {
            self.scoreboard.set(w, d, now);
        }
        self.memory_wait_done(w, now);
    }

    /// One of warp `w`'s memory waits ended (a load's data, an offloaded chain's answer).
    #[inline(always)]
    fn memory_wait_done(&mut self, w: usize, now: u64) {
        if self.warps[w].offload_wait {
            // a load issued before the chain: the warp still waits for the chain's answer
            self.warps[w].pending_loads -= 1;
            return;
        }
        self.unpark_load(w);
        let wp = &mut self.warps[w];
        wp.pending_loads -= 1;
        wp.blocked_until = 0;
        self.wake(w);
        self.progress(w, now);
    }

    #[inline(always)]
    fn is_parked(&self, w: usize) -> bool {
        self.parked[w >> 6] >> (w & 63) & 1 != 0
    }

    #[inline(always)]
    fn park(&mut self, w: usize, load: bool) {
        debug_assert!(!self.is_parked(w));
        self.parked[w >> 6] |= 1 << (w & 63);
        let ns = self.schedulers.len();
        self.schedulers[w % ns].set_unparked(w as u16, false);
        if load {
            self.parked_loads[w % ns] += 1;
        }
    }

    /// Warp `w`'s load wait ends (it may not have parked).
    #[inline(always)]
    fn unpark_load(&mut self, w: usize) {
        if self.warps[w].blocked_until == PENDING {
            debug_assert!(self.is_parked(w));
            self.parked[w >> 6] &= !(1 << (w & 63));
            let ns = self.schedulers.len();
            self.schedulers[w % ns].set_unparked(w as u16, true);
            self.parked_loads[w % ns] -= 1;
        }
    }

    /// A reply from the network.
    pub fn receive(&mut self, p: Packet, txns: &mut TxnTable, now: u64) {
        self.wake_up(now);
        let tag = p.tag as u32;
        let t = *txns.get(tag);
        let stamps = txns.stamps(tag);
        txns.release(tag);
        if matches!(t.kind, TxnKind::Read | TxnKind::ReadBypass) {
            self.miss_latency.record(&stamps, now);
            if stamps.injected != super::txn::UNSTAMPED {
                let bytes = if t.kind == TxnKind::Read { std::mem::take(&mut self.mshr_bytes[t.token as usize]) } else { t.bytes as u64 };
                if stamps.from_dram {
                    self.load_source.dram_bytes += bytes;
                } else {
                    self.load_source.llc_bytes += bytes;
                }
            }
        }
        // (a hook may answer for a transaction it made itself)
        self.in_flight = self.in_flight.saturating_sub(1);
        match t.kind {
            TxnKind::Read => {
                let mut wake = std::mem::take(&mut self.wake);
                wake.clear();
                self.l1.fill(t.token, &mut wake);
                for &tok in &wake {
                    self.complete(tok, now);
                }
                self.wake = wake;
            }
            TxnKind::ReadBypass => self.complete(t.token, now),
            TxnKind::Atomic if t.token != NO_TOKEN => self.complete(t.token, now),
            TxnKind::Atomic | TxnKind::Write => {
                let w = t.warp as usize;
                self.warps[w].pending_stores -= 1;
                self.progress(w, now);
            }
        }
    }

    /// Re-evaluate a warp waiting on memory (barrier ERF, fence, retirement).
    fn progress(&mut self, w: usize, now: u64) {
        match self.warps[w].state {
            WarpState::Active => {}
            WarpState::Barrier => self.try_erf(w, now),
            WarpState::Fence(_) => self.try_fence(w, now),
            WarpState::Finished => self.try_retire(w, now),
        }
    }

    /// The LD/ST unit sends one access to the L1 (step 2).
    fn lsu_step(&mut self, p: &mut SmPorts<'_>) {
        let Some(&a) = self.lsu.front() else {
            return;
        };
        let now = p.now;
        let room = self.miss_q.len() < self.l1cfg.miss_queue as usize;
        let fb = p.flit_bytes;
        let mut send = |me: &mut Sm, kind: TxnKind, token: u32, flits: u32| {
            let txn = p.txns.alloc(Txn { kind, sm: me.id as u32, warp: a.warp, token, line: a.line, mask: a.mask, bytes: a.bytes });
            p.txns.stamps_mut(txn).issue = now;
            me.in_flight += 1;
            let dst = p.mem_nodes[p.map.node(a.line)];
            me.next_packet_id += 1;
            me.miss_q.push_back(Packet { id: me.next_packet_id, src: me.node, dst, class: Class::Request, flits, tag: txn as u64, injected_at: 0 });
        };
        let ok = match a.kind {
            AccKind::Read => match self.l1.read(a.line, a.token, room) {
                ReadOutcome::Hit => {
                    self.l1_hits.push_back((now + self.l1cfg.hit_latency as u64, a.token));
                    self.load_source.l1_bytes += a.bytes as u64;
                    true
                }
                ReadOutcome::Merged => {
                    if let Some(i) = self.l1.mshr_holding(a.line) {
                        self.mshr_bytes[i as usize] += a.bytes as u64;
                    }
                    true
                }
                ReadOutcome::Miss(idx) => {
                    self.mshr_bytes[idx as usize] = a.bytes as u64;
                    send(self, TxnKind::Read, idx, 1);
                    true
                }
                ReadOutcome::Blocked => false,
            },
            AccKind::ReadBypass => {
                if room {
                    self.l1.stats.bypass_reads += 1;
                    send(self, TxnKind::ReadBypass, a.token, 1);
                    true
                } else {
                    self.l1.stats.reservation_fails += 1;
                    false
                }
            }
            AccKind::Write => {
                if room {
                    self.l1.write(a.line);
                    self.warps[a.warp as usize].pending_stores += 1;
                    send(self, TxnKind::Write, NO_TOKEN, flits_for(a.bytes, fb));
                    true
                } else {
                    self.l1.stats.reservation_fails += 1;
                    false
                }
            }
            AccKind::Atomic => {
                if room {
                    self.l1.stats.atomics += 1;
                    if a.token == NO_TOKEN {
                        self.warps[a.warp as usize].pending_stores += 1;
                    }
                    send(self, TxnKind::Atomic, a.token, flits_for(a.bytes, fb));
                    true
                } else {
                    self.l1.stats.reservation_fails += 1;
                    false
                }
            }
        };
        if ok {
            self.lsu.pop_front();
            if self.lsu.is_empty() {
                self.sched_sleep.fill(0);
            }
            let w = a.warp as usize;
            self.warps[w].lsu_pending -= 1;
            if self.warps[w].lsu_pending == 0 {
                self.progress(w, now);
            }
        }
    }

    /// Timing side of a memory instruction just executed (its record is in `self.rec`).
    fn mem_issue(&mut self, w: usize, inst: &super::ptx::Inst, p: &mut SmPorts<'_>) {
        let now = p.now;
        let rec_mask = self.rec.mask;
        let (returns, bypass, kind) = match inst.op {
            Op::Ld { cache, .. } => (true, cache == CacheOp::BypassL1, AccKind::Read),
            Op::St { .. } => (false, false, AccKind::Write),
            Op::Atom { .. } => (true, true, AccKind::Atomic),
            Op::Red { .. } => (false, true, AccKind::Atomic),
            // texture fetches time as cached global loads (no texture cache is modelled)
            Op::Tex => (true, false, AccKind::Read),
            _ => unreachable!("mem_issue on a non-memory instruction"),
        };
        let cta = self.warps[w].cta as usize;
        if rec_mask == 0 {
            self.ctas[cta].occ.complete(now, now + 1);
            return;
        }
        let (defs, nd) = returned_defs(inst, returns);
        match self.rec.space {
            Space::Param => {
                // our choice: parameter loads are constant-cache hits with the integer
                // ALU latency and do not occupy the LD/ST unit
                self.scoreboard.set_defs(w, inst, now + self.int_latency as u64);
                self.ctas[cta].occ.complete(now, now + self.int_latency as u64);
            }
            Space::Shared => {
                let d = conflict_degree(&self.rec, self.shcfg.banks, self.shcfg.bank_bytes);
                self.shmem.accesses += 1;
                self.shmem.conflict_cycles += (d - 1) as u64;
                self.shmem.max_degree = self.shmem.max_degree.max(d);
                let tok = self.alloc_token(MemInst { warp: w as u16, defs, n_def: nd as u8, remaining: 1 });
                let start = now.max(self.shared_busy_until);
                self.shared_busy_until = start + d as u64;
                self.shmem_done.push_back((start + self.shcfg.latency as u64 + d as u64 - 1, tok));
                self.warps[w].pending_loads += 1;
                for &r in &defs[..nd] {
                    self.scoreboard.set(w, r, PENDING);
                }
            }
            Space::Global | Space::Local => {
                if self.rec.space == Space::Local {
                    for l in 0..WARP {
                        if rec_mask & (1 << l) != 0 {
                            self.taddr[l] = local_timing_addr(self.id, w, self.slots, self.local_bytes as u64, l, self.rec.addr[l]);
                        }
                    }
                } else {
                    self.taddr = self.rec.addr;
                }
                let mut segs = std::mem::take(&mut self.segs);
                coalesce(&self.rec, &self.taddr, self.l1cfg.line_bytes as u64, &mut segs);
                let token = if returns {
                    self.warps[w].pending_loads += 1;
                    for &r in &defs[..nd] {
                        self.scoreboard.set(w, r, PENDING);
                    }
                    self.alloc_token(MemInst { warp: w as u16, defs, n_def: nd as u8, remaining: segs.len() as u32 })
                } else {
                    self.ctas[cta].occ.complete(now, now + 1);
                    NO_TOKEN
                };
                let kind = if kind == AccKind::Read && bypass { AccKind::ReadBypass } else { kind };
                let cas = matches!(inst.op, Op::Atom { op: super::ptx::AtomOp::Cas, .. });
                for s in &segs {
                    let bytes = match kind {
                        AccKind::Atomic => s.lanes.count_ones() * inst.ty.bytes() * if cas { 2 } else { 1 },
                        _ => s.bytes.count_ones(),
                    };
                    self.lsu.push_back(Access { kind, line: s.line, mask: s.bytes, bytes, token, warp: w as u16 });
                }
                self.warps[w].lsu_pending += segs.len() as u32;
                self.segs = segs;
            }
            Space::Generic => unreachable!("resolved by exec"),
        }
    }

    /// Timing side of an absorbed global load or store (its record is in `self.rec`):
    /// its line accesses are held, a load's lines looked up in the L1 (no fill, no
    /// MSHR), and listed in `lines` for the hook.
    fn hold(&mut self, w: usize, inst: &super::ptx::Inst, now: u64, lines: &mut Vec<HeldLine>) {
        let store = matches!(inst.op, Op::St { .. });
        let cta = self.warps[w].cta as usize;
        if store || self.rec.mask == 0 {
            // a store is done at issue for the warp, as in `mem_issue`
            self.ctas[cta].occ.complete(now, now + 1);
        }
        if self.rec.mask == 0 {
            return;
        }
        let mut segs = std::mem::take(&mut self.segs);
        coalesce(&self.rec, &self.rec.addr, self.l1cfg.line_bytes as u64, &mut segs);
        let id = self.next_held_inst;
        self.next_held_inst = self.next_held_inst.wrapping_add(1);
        let (defs, nd) = returned_defs(inst, !store);
        for s in &segs {
            let l1_hit = !store && self.l1.probe(s.line);
            lines.push(HeldLine { line: s.line, bytes: s.bytes, lanes: s.lanes, store, l1_hit });
            let kind = if store { AccKind::Write } else { AccKind::Read };
            let acc = Access { kind, line: s.line, mask: s.bytes, bytes: s.bytes.count_ones(), token: NO_TOKEN, warp: w as u16 };
            self.held[w].push(Held { acc, inst: id, defs, n_def: nd as u8 });
        }
        self.segs = segs;
    }

    /// Warp `w`'s held accesses go the normal way or are dropped: loads (if `loads`, else
    /// they were answered elsewhere) become L1 accesses with their registers reserved,
    /// one memory token per instruction; stores (if `stores`, else done elsewhere) follow
    /// into the LD/ST unit.
    fn release_held(&mut self, w: usize, loads: bool, stores: bool, now: u64) {
        let held = std::mem::take(&mut self.held[w]);
        let cta = self.warps[w].cta as usize;
        self.ctas[cta].occ.before(now);
        let mut i = 0;
        while i < held.len() {
            let h = held[i];
            let j = i + held[i..].iter().take_while(|x| x.inst == h.inst).count();
            match h.acc.kind {
                AccKind::Read if loads => {
                    for &r in &h.defs[..h.n_def as usize] {
                        self.scoreboard.set(w, r, PENDING);
                    }
                    self.warps[w].pending_loads += 1;
                    let token = self.alloc_token(MemInst { warp: w as u16, defs: h.defs, n_def: h.n_def, remaining: (j - i) as u32 });
                    self.lsu.extend(held[i..j].iter().map(|x| Access { token, ..x.acc }));
                    self.warps[w].lsu_pending += (j - i) as u32;
                }
                // answered elsewhere: the load's data is home now
                AccKind::Read => self.ctas[cta].occ.complete(now, now),
                _ if stores => {
                    self.lsu.extend(held[i..j].iter().map(|x| x.acc));
                    self.warps[w].lsu_pending += (j - i) as u32;
                }
                _ => {}
            }
            i = j;
        }
        self.held[w] = held;
        self.held[w].clear();
        if !self.lsu.is_empty() {
            self.sched_sleep.fill(0);
        }
    }

    /// The hook's answer for a waiting warp.
    fn offload_event(&mut self, ev: OffloadEvent, now: u64) {
        let (OffloadEvent::Resume(w) | OffloadEvent::Fallback(w)) = ev;
        let w = w as usize;
        assert!(self.warps[w].blocked_until == PENDING && self.offload_waiting > 0, "cycle {now}: offload answer {ev:?} for a warp that does not wait");
        // the stores of a served chain were done at the EMN; a fallback sends them now
        self.release_held(w, false, matches!(ev, OffloadEvent::Fallback(_)), now);
        self.offload_waiting -= 1;
        self.warps[w].offload_wait = false;
        self.memory_wait_done(w, now);
    }

    // ---------------------------------------------------------------- sync

    fn try_erf(&mut self, w: usize, now: u64) {
        let wp = &mut self.warps[w];
        if wp.state != WarpState::Barrier || wp.erf_done || wp.pending_loads > 0 || wp.lsu_pending > 0 {
            return;
        }
        if self.sync.barrier_scope == BarrierScope::Gpu && wp.pending_stores > 0 {
            // device scope: older stores and atomics acknowledged by the LLC
            return;
        }
        wp.erf_done = true;
        let id = wp.bar_id as usize;
        let c = &mut self.ctas[wp.cta as usize];
        c.erf_count[id] += 1;
        c.release_at[id] = c.release_at[id].max(now + self.sync.erf_latency as u64);
        let cta = wp.cta as usize;
        self.check_release(cta, id, now);
    }

    /// Release the CTA's barrier when every live warp finished its ERF (drain barrier:
    /// `start_exit_fence(TB) = AND over w of entry_fence_done(w)`, tfb_bdib.md §1.4).
    /// Named barrier `id`: released when its waiting warps (ERF done) plus the warps
    /// that only arrived (`bar.arrive`) reach the expected count (the thread count of
    /// the instruction, else every live warp).
    fn check_release(&mut self, cta: usize, id: usize, now: u64) {
        let c = &self.ctas[cta];
        let expected = c.bar_expected[id].map_or(c.live, |e| e.min(c.live));
        let arrivals = c.erf_count[id] + c.arrived[id];
        if arrivals == 0 || arrivals < expected {
            return;
        }
        let gpu_scope = self.sync.barrier_scope == BarrierScope::Gpu;
        let eaf = if gpu_scope { self.sync.fence_gpu_latency } else { self.sync.eaf_latency };
        let resume = c.release_at[id].max(now) + eaf as u64;
        let last_arrival = c.last_arrival[id];
        // contended cycles before the last arrival (none can follow it: no warp lags)
        let cont_before_last = c.cont_cycles - (c.cont_last == last_arrival) as u64;
        if gpu_scope {
            // device-scope acquire: drop possibly stale L1 data
            self.l1.invalidate_all();
        }
        for i in 0..c.warps.len() {
            let w = self.ctas[cta].warps[i];
            let wp = &mut self.warps[w as usize];
            if wp.valid && wp.state == WarpState::Barrier && wp.erf_done && wp.bar_id as usize == id {
                wp.state = WarpState::Active;
                wp.erf_done = false;
                wp.resume_at = resume;
                if wp.blocked_until == PENDING {
                    // (a warp issuing past its barrier may wait for a load)
                    self.parked[w as usize >> 6] &= !(1 << (w & 63));
                    let ns = self.schedulers.len();
                    self.schedulers[w as usize % ns].set_unparked(w, true);
                    self.parked_loads[w as usize % ns] -= 1;
                }
                let wp = &mut self.warps[w as usize];
                wp.blocked_until = resume;
                wp.stall = Stall::Barrier;
                self.syncs.barrier_wait_cycles += resume - wp.sync_since;
                self.syncs.barrier_lost_cycles += resume - wp.sync_since;
                let last = last_arrival.max(wp.sync_since);
                let contention = cont_before_last.saturating_sub(wp.cont_mark).min(last - wp.sync_since);
                self.syncs.barrier_contention_cycles += contention;
                self.syncs.barrier_imbalance_cycles += last - wp.sync_since - contention;
                self.syncs.barrier_fence_cycles += resume - last;
                wp.ramp_since = resume;
                self.ctas[cta].at_barrier -= 1;
                self.bar_waiting -= 1;
                let ns = self.sched_sleep.len();
                self.sched_sleep[w as usize % ns] = 0;
                self.issue_hook.barrier_release(now, w, resume);
            }
        }
        let c = &mut self.ctas[cta];
        if c.at_barrier == 0 {
            c.occ.close_window(resume);
        }
        c.erf_count[id] = 0;
        c.release_at[id] = 0;
        c.bar_expected[id] = None;
        c.arrived[id] = 0;
        self.syncs.barriers_completed += 1;
    }

    fn try_fence(&mut self, w: usize, now: u64) {
        let wp = &mut self.warps[w];
        let WarpState::Fence(scope) = wp.state else {
            return;
        };
        if wp.pending_loads > 0 || wp.lsu_pending > 0 || (scope != Scope::Cta && wp.pending_stores > 0) {
            return;
        }
        let lat = if scope == Scope::Cta { self.sync.fence_cta_latency } else { self.sync.fence_gpu_latency };
        self.unpark_load(w);
        let wp = &mut self.warps[w];
        wp.state = WarpState::Active;
        wp.resume_at = now + lat as u64;
        wp.blocked_until = wp.resume_at;
        wp.stall = Stall::Fence;
        self.syncs.fence_wait_cycles += wp.resume_at - wp.sync_since;
        let resume = wp.resume_at;
        self.wake(w);
        self.issue_hook.fence_done(now, w as u16, resume);
        if scope != Scope::Cta {
            // acquire at device scope: drop possibly stale L1 data
            self.l1.invalidate_all();
        }
    }

    fn try_retire(&mut self, w: usize, now: u64) {
        let wp = &mut self.warps[w];
        if !wp.valid || wp.state != WarpState::Finished || wp.pending_loads > 0 || wp.pending_stores > 0 || wp.lsu_pending > 0 || wp.deferred > 0 {
            return;
        }
        wp.valid = false;
        let cta = wp.cta as usize;
        self.parked[w >> 6] &= !(1 << (w & 63));
        let ns = self.schedulers.len();
        self.schedulers[w % ns].remove(w as u16);
        let c = &mut self.ctas[cta];
        c.unretired -= 1;
        if c.unretired == 0 {
            c.occ.retire(now);
            self.occupancy.add(&c.occ.sums);
            if let Some(t) = c.occ.trace.take() {
                self.trace = Some(*t);
            }
            c.valid = false;
            c.warps.clear();
            self.resident_ctas -= 1;
        }
    }

    // ---------------------------------------------------------------- issue

    /// Whether warp `w` can issue now, and how; caches time-known blocks in
    /// `blocked_until`. The issue hook is asked last, where its taps say.
    #[inline(always)]
    fn check(&mut self, w: usize, k: &Kernel, now: u64, lsu_free: bool) -> Result<Route, Stall> {
        let wp = &mut self.warps[w];
        if now < wp.blocked_until {
            return Err(wp.stall);
        }
        let ask = match wp.state {
            WarpState::Active => self.taps.every_inst || (self.taps.past_barrier && wp.deferred > 0),
            WarpState::Barrier if self.taps.past_barrier || self.taps.every_inst => true,
            WarpState::Barrier => return Err(Stall::Barrier),
            WarpState::Fence(_) => return Err(Stall::Fence),
            WarpState::Finished => return Err(Stall::Other),
        };
        let pc = wp.simt.pc();
        if wp.ibuf_n == 0 || wp.ibuf_pc != pc || now < wp.ibuf_ready {
            return Err(Stall::Fetch);
        }
        let inst = &k.insts[pc as usize];
        let ready = self.scoreboard.ready_cycle(w, inst);
        if ready > now {
            wp.blocked_until = ready;
            wp.stall = if ready == PENDING { Stall::MemData } else { Stall::AluData };
            let stall = wp.stall;
            if ready == PENDING {
                self.park(w, true);
            }
            return Err(stall);
        }
        match inst.class {
            OpClass::Mem => {
                if !lsu_free {
                    return Err(Stall::LsuBusy);
                }
            }
            OpClass::Ctrl => {}
            c => {
                let f = self.fus.free_at(c);
                if f > now {
                    wp.blocked_until = f;
                    wp.stall = Stall::FuBusy;
                    return Err(Stall::FuBusy);
                }
            }
        }
        if !ask {
            return Ok(Route::Execute);
        }
        let at_barrier = wp.state == WarpState::Barrier;
        let named_barrier = at_barrier && (wp.bar_id != 0 || self.ctas[wp.cta as usize].bar_expected[wp.bar_id as usize].is_some());
        let view = WarpView { slot: w as u16, pc, cta: wp.cta, at_barrier, named_barrier, deferred: wp.deferred };
        let deferrable = inst.is_mem() || matches!(inst.op, Op::Bar | Op::Membar(_));
        // a warp at a barrier cannot run another barrier, a fence or `exit` now
        let runs_past = !matches!(inst.op, Op::Bar | Op::Membar(_) | Op::Exit | Op::Ret);
        match self.issue_hook.decide(now, &view, inst) {
            IssueDecision::Issue if !view.at_barrier || runs_past => Ok(Route::Execute),
            IssueDecision::Defer if deferrable => Ok(Route::Defer),
            IssueDecision::Offload if !view.at_barrier => {
                let absorbable = match inst.op {
                    Op::Ld { space, cache, .. } => space == Space::Global && cache != CacheOp::BypassL1,
                    Op::St { space, .. } => space == Space::Global,
                    _ => !matches!(inst.class, OpClass::Mem | OpClass::Ctrl),
                };
                assert!(absorbable, "cycle {now}: issue hook offloads pc {pc}, which an offload queue cannot absorb");
                Ok(Route::Offload)
            }
            _ => Err(Stall::Barrier),
        }
    }

    /// Issue warp `w`'s next instruction: execute it (or hand it to the issue hook) and
    /// update the timing state.
    fn issue_warp(&mut self, w: usize, route: Route, p: &mut SmPorts<'_>) -> Result<(), CoreFault> {
        let now = p.now;
        let run: &KernelRun = p.run;
        let k: &Kernel = &run.kernel;
        let pc = self.warps[w].simt.pc();
        let inst = &k.insts[pc as usize];
        let active = self.warps[w].simt.mask();
        let next = pc + 1;
        let cta = self.warps[w].cta as usize;
        self.ctas[cta].occ.before(now);
        if route != Route::Defer {
            // (a deferred instruction is in flight from its drain on)
            self.ctas[cta].occ.issue(now);
        }
        let ramp_since = self.warps[w].ramp_since;
        if ramp_since != NO_CYCLE {
            // the warp's first issue after its barrier: the ramp-up part of S4
            self.syncs.barrier_rampup_cycles += now - ramp_since;
            self.syncs.barrier_lost_cycles += now - ramp_since;
            self.warps[w].ramp_since = NO_CYCLE;
        }
        if route == Route::Defer {
            // the warp moves past it; it executes when the hook drains it
            if matches!(inst.op, Op::Ld { .. } | Op::Atom { .. }) {
                for &r in &inst.sb_def[..inst.n_def as usize] {
                    self.scoreboard.set(w, r, PENDING);
                }
            }
            self.issue.warp_insts += 1;
            self.issue.by_class[inst.class.index()] += 1;
            self.report.warp_insts += 1;
            self.warps[w].simt.advance(next);
            self.warps[w].deferred += 1;
            self.deferred_total += 1;
            self.issue_hook.defer(now, Deferred { warp: w as u16, pc, mask: active });
        } else if route == Route::Offload {
            self.issue.warp_insts += 1;
            self.issue.by_class[inst.class.index()] += 1;
            self.report.warp_insts += 1;
            let mut lines = std::mem::take(&mut self.held_lines);
            lines.clear();
            let lane_bytes = match self.execute(w, pc, inst, active, p)? {
                Effect::Alu => {
                    self.ctas[cta].occ.complete(now, now + 1);
                    0
                }
                Effect::Mem => {
                    self.hold(w, inst, now, &mut lines);
                    self.rec.bytes
                }
                e => unreachable!("absorbed instruction with effect {e:?}"),
            };
            self.warps[w].simt.advance(next);
            let out = self.issue_hook.absorb(now, &Absorbed { warp: w as u16, pc, mask: self.rec_guard, lines: &lines, addrs: &self.rec.addr, lane_bytes });
            self.held_lines = lines;
            match out {
                Absorb::Hold => {}
                Absorb::Release => self.release_held(w, true, true, now),
                Absorb::Wait => {
                    let wp = &mut self.warps[w];
                    wp.pending_loads += 1;
                    wp.blocked_until = PENDING;
                    wp.stall = Stall::MemData;
                    wp.offload_wait = true;
                    self.park(w, true);
                    self.offload_waiting += 1;
                }
            }
            // the hook's network side may have a packet to send
            p.net_hook.wake = p.net_hook.wake.min(now);
        } else {
            self.issue.warp_insts += 1;
            self.issue.by_class[inst.class.index()] += 1;
            self.report.warp_insts += 1;
            let effect = self.execute(w, pc, inst, active, p)?;
            match effect {
                Effect::Alu => {
                    let lat = self.fus.issue(inst.class, now);
                    self.ctas[cta].occ.complete(now, now + lat as u64);
                    self.scoreboard.set_defs(w, inst, now + lat as u64);
                    self.warps[w].simt.advance(next);
                }
                Effect::Branch { taken } => {
                    self.ctas[cta].occ.complete(now, now + 1);
                    self.warps[w].simt.branch(taken, inst.target, next, inst.rpc);
                }
                Effect::Mem => {
                    self.mem_issue(w, inst, p);
                    self.warps[w].simt.advance(next);
                }
                Effect::Bar => {
                    self.ctas[cta].occ.complete(now, now + 1);
                    self.warps[w].simt.advance(next);
                    self.arrive_barrier(w, inst, now);
                }
                Effect::Membar(scope) => {
                    self.ctas[cta].occ.complete(now, now + 1);
                    self.warps[w].simt.advance(next);
                    self.enter_fence(w, scope, now);
                }
                Effect::Exit => {
                    self.ctas[cta].occ.complete(now, now + 1);
                    let survivors = active & !self.rec_guard;
                    let done = self.warps[w].simt.exit(self.rec_guard);
                    if !done && survivors != 0 {
                        self.warps[w].simt.advance(next);
                    }
                    if done {
                        let wp = &mut self.warps[w];
                        wp.state = WarpState::Finished;
                        let cta = wp.cta as usize;
                        self.park(w, false);
                        self.ctas[cta].live -= 1;
                        for id in 0..NAMED_BARRIERS {
                            self.check_release(cta, id, now);
                        }
                        self.note_next(w);
                        self.try_retire(w, now);
                        return Ok(());
                    }
                }
            }
        }
        self.note_next(w);
        self.ctas[cta].occ.after_issue(now);
        // I-buffer
        let wp = &mut self.warps[w];
        wp.ibuf_pc = next;
        wp.ibuf_n -= 1;
        if wp.ibuf_n > 0 && wp.simt.pc() != wp.ibuf_pc {
            wp.ibuf_n = 0;
        }
        if wp.ibuf_n == 0 && !wp.in_fetch_q {
            wp.in_fetch_q = true;
            self.fetch_q.push_back(w as u16);
        }
        Ok(())
    }

    /// Execute `inst` (at `pc`) for warp `w` on the lanes of `active` its guard allows
    /// (the lanes are left in `rec_guard`); counts thread instructions.
    #[inline(always)]
    fn execute(&mut self, w: usize, pc: u32, inst: &super::ptx::Inst, active: u32, p: &mut SmPorts<'_>) -> Result<Effect, CoreFault> {
        let run: &KernelRun = p.run;
        let pb = w * self.npreds;
        let mask = if inst.guard != NO_PRED {
            let g = self.preds[pb + inst.guard as usize];
            active & if inst.guard_neg { !g } else { g }
        } else {
            active
        };
        self.rec_guard = mask;
        let rb = w * self.nregs * WARP;
        let fast = &self.fast[pc as usize];
        if !matches!(fast, Fast::Generic) {
            fast.run(&mut self.regs[rb..rb + self.nregs * WARP], &mut self.preds[pb..pb + self.npreds], mask);
            self.issue.thread_insts += lane_count(mask);
            return Ok(Effect::Alu);
        }
        let mut ex = WarpExec { regs: &mut self.regs[rb..rb + self.nregs * WARP], preds: &mut self.preds[pb..pb + self.npreds], ids: &self.warps[w].ids, clock: p.now };
        // `vprintf` reads memory (its format and arguments) but is no access of the timing model
        let effect = if inst.is_mem() || inst.op == Op::Printf {
            let cta = self.warps[w].cta as usize;
            let lb = w * WARP * self.local_bytes;
            let mut mem = MemCtx {
                global: p.gmem,
                shared: &mut self.ctas[cta].shared,
                local: &mut self.local[lb..lb + WARP * self.local_bytes],
                local_bytes: self.local_bytes as u32,
                params: &run.params,
            };
            ex.execute(inst, mask, &mut mem, &mut self.rec)
        } else {
            ex.execute_reg(inst, mask)
        };
        let effect = effect.map_err(|f| CoreFault { warp: w, line: inst.line, message: f.0 })?;
        self.issue.thread_insts += lane_count(mask);
        Ok(effect)
    }

    /// Warp `w` executed `bar.sync` (drain barrier, tfb_bdib.md §1.4, §2.3).
    /// `bar.arrive` counts the warp at the barrier without waiting.
    /// With `core.sync.barrier` other than drain, `bar` is a no-op or a fence (the
    /// thesis's PBS binaries, tfb_bdib.md §4.3, §6).
    fn arrive_barrier(&mut self, w: usize, inst: &super::ptx::Inst, now: u64) {
        match self.sync.barrier {
            BarrierMode::Drain => {}
            BarrierMode::None => return,
            BarrierMode::MembarCta => return self.enter_fence(w, Scope::Cta, now),
            BarrierMode::MembarGl => return self.enter_fence(w, Scope::Gpu, now),
        }
        let id = match inst.a[1] {
            super::ptx::Src::Imm(id) => id as usize,
            _ => 0,
        };
        let cta = self.warps[w].cta;
        self.ctas[cta as usize].last_arrival[id] = now;
        if let super::ptx::Src::Imm(n) = inst.a[0] {
            self.ctas[cta as usize].bar_expected[id] = Some((n / 32) as u32);
        }
        if inst.op == Op::BarArrive {
            self.ctas[cta as usize].arrived[id] += 1;
            self.check_release(cta as usize, id, now);
            return;
        }
        let wp = &mut self.warps[w];
        debug_assert_eq!(wp.state, WarpState::Active, "warp {w} arrives at a barrier while {:?}", wp.state);
        wp.state = WarpState::Barrier;
        wp.bar_id = id as u8;
        wp.sync_since = now;
        let c = &mut self.ctas[cta as usize];
        // (a cycle already marked contended is one the warp waits in)
        wp.cont_mark = c.cont_cycles - (c.cont_last == now) as u64;
        c.at_barrier += 1;
        if c.at_barrier == 1 {
            c.occ.open_window(now);
        }
        self.bar_waiting += 1;
        self.syncs.barrier_warps += 1;
        self.issue_hook.barrier_arrive(now, w as u16, cta);
        self.try_erf(w, now);
    }

    /// Warp `w` executed a fence.
    fn enter_fence(&mut self, w: usize, scope: Scope, now: u64) {
        let wp = &mut self.warps[w];
        debug_assert_eq!(wp.state, WarpState::Active, "warp {w} enters a fence while {:?}", wp.state);
        wp.state = WarpState::Fence(scope);
        wp.sync_since = now;
        self.syncs.fences += 1;
        self.try_fence(w, now);
    }

    /// Before the schedulers: the issue hook may hand back one deferred instruction,
    /// which executes now (its operands are read now, tfb_bdib.md §2.5).
    fn drain_stage(&mut self, p: &mut SmPorts<'_>) -> Result<(), CoreFault> {
        let now = p.now;
        let lsu_free = self.lsu_free(now);
        let Some(d) = self.issue_hook.drain(now, lsu_free) else {
            return Ok(());
        };
        let w = d.warp as usize;
        assert!(self.warps[w].deferred > 0, "cycle {now}: issue hook drained {d:?}, but warp {w} has no deferred instruction");
        self.warps[w].deferred -= 1;
        self.deferred_total -= 1;
        let k: &Kernel = &p.run.kernel;
        let inst = &k.insts[d.pc as usize];
        let cta = self.warps[w].cta as usize;
        self.ctas[cta].occ.before(now);
        self.ctas[cta].occ.issue(now);
        if matches!(inst.op, Op::Bar | Op::Membar(_)) {
            self.ctas[cta].occ.complete(now, now + 1);
        }
        match self.execute(w, d.pc, inst, d.mask, p)? {
            Effect::Mem => {
                self.mem_issue(w, inst, p);
                if self.rec.mask == 0 {
                    // no lane accessed memory: release the registers reserved at issue
                    for &r in &inst.sb_def[..inst.n_def as usize] {
                        self.scoreboard.set(w, r, now);
                    }
                }
            }
            Effect::Bar => self.arrive_barrier(w, inst, now),
            Effect::Membar(scope) => self.enter_fence(w, scope, now),
            e => unreachable!("deferred instruction with effect {e:?}"),
        }
        self.unpark_load(w);
        // (a drained fence that completed at once keeps its resume time)
        let wp = &mut self.warps[w];
        wp.blocked_until = if wp.state == WarpState::Active && wp.resume_at > now { wp.resume_at } else { 0 };
        self.wake(w);
        if self.warps[w].deferred == 0 {
            self.progress(w, now);
        }
        Ok(())
    }

    fn issue_stage(&mut self, p: &mut SmPorts<'_>) -> Result<(), CoreFault> {
        let now = p.now;
        for s in 0..self.schedulers.len() {
            if self.schedulers[s].warps.is_empty() {
                continue;
            }
            if now < self.sched_sleep[s] {
                let n = self.issue_width as u64;
                self.issue.issue_slots += n;
                self.charge(self.sched_why[s], n);
                continue;
            }
            if self.issue_width == 1 && !self.taps.order && !self.schedulers[s].keyed() {
                self.issue_one(s, p)?;
            } else {
                self.issue_ordered(s, p)?;
            }
        }
        Ok(())
    }

    /// Scheduler `s`'s one issue slot: its warps checked in policy order
    /// ([`WarpScheduler::order`]) as they are stored, without building the order. A
    /// warp that cannot issue also gives its wake-up time (what the scan after a slot
    /// without issue would compute: nothing the checks touch changes it).
    fn issue_one(&mut self, s: usize, p: &mut SmPorts<'_>) -> Result<(), CoreFault> {
        let now = p.now;
        let k: &Kernel = &p.run.kernel;
        self.issue.issue_slots += 1;
        let lsu_free = self.lsu_free(now);
        let mut why = Stall::Other;
        let mut wake = u64::MAX;
        let n = self.schedulers[s].warps.len();
        let last = self.schedulers[s].last;
        let mut issued = None;
        macro_rules! try_warp {
            ($w:expr) => {{
                let w: u16 = $w;
                match self.check(w as usize, k, now, lsu_free) {
                    Ok(route) => Some((w, route)),
                    Err(r) => {
                        why = why.min(r);
                        wake = wake.min(self.wake_time(w as usize, now));
                        None
                    }
                }
            }};
        }
        match self.schedulers[s].policy {
            SchedulerPolicy::Gto | SchedulerPolicy::Mwf | SchedulerPolicy::Fmwf => {
                // the greedy warp, then the others oldest first (MWF, fMWF: not here)
                if let Some(g) = last.filter(|&g| !self.is_parked(g as usize)) {
                    issued = try_warp!(g);
                }
                if issued.is_none() && self.scan_unparked {
                    // the unparked warps by position (a check parks only the warp it checks)
                    let mut m = self.schedulers[s].unparked;
                    while m != 0 {
                        let w = self.schedulers[s].warps[m.trailing_zeros() as usize];
                        m &= m - 1;
                        if Some(w) != last {
                            issued = try_warp!(w);
                            if issued.is_some() {
                                break;
                            }
                        }
                    }
                } else if issued.is_none() {
                    for i in 0..n {
                        let w = self.schedulers[s].warps[i];
                        if Some(w) != last && !self.is_parked(w as usize) {
                            issued = try_warp!(w);
                            if issued.is_some() {
                                break;
                            }
                        }
                    }
                }
            }
            SchedulerPolicy::Lrr => {
                // round robin from the warp after the last one to issue
                let start = last.and_then(|l| self.schedulers[s].warps.iter().position(|&w| w == l)).map_or(0, |i| i + 1);
                for k in 0..n {
                    let w = self.schedulers[s].warps[(start + k) % n];
                    if !self.is_parked(w as usize) {
                        issued = try_warp!(w);
                        if issued.is_some() {
                            break;
                        }
                    }
                }
            }
        }
        match issued {
            Some((w, route)) => {
                if self.bar_waiting > 0 {
                    self.note_contention(s, w as usize, k, now, lsu_free);
                }
                self.schedulers[s].last = Some(w);
                self.issue_warp(w as usize, route, p)
            }
            None => {
                if self.parked_loads[s] > 0 {
                    // the parked warps: a load wait each, or finished (`Other`, the
                    // scan's starting reason); none wakes without an event
                    why = why.min(Stall::MemData);
                }
                self.charge(why, 1);
                if wake > now + 1 {
                    self.sched_sleep[s] = wake;
                    self.sched_why[s] = why;
                }
                Ok(())
            }
        }
    }

    /// Scheduler `s`'s issue slots with the order built once for the cycle (several
    /// slots, or an issue hook that reorders).
    fn issue_ordered(&mut self, s: usize, p: &mut SmPorts<'_>) -> Result<(), CoreFault> {
        let now = p.now;
        let run = p.run;
        let mut order = std::mem::take(&mut self.order);
        {
            if self.schedulers[s].keyed() {
                self.barrier_keys(self.schedulers[s].policy);
                let keys = &self.keys;
                self.schedulers[s].order_keyed(&mut order, |w| keys[w as usize]);
            } else {
                self.schedulers[s].order(&mut order);
            }
            if self.taps.order {
                self.issue_hook.order(now, s, &mut order);
            }
            for slot in 0..self.issue_width {
                self.issue.issue_slots += 1;
                let mut why = Stall::Other;
                let mut issued = None;
                let lsu_free = self.lsu_free(now);
                for &w in &order {
                    match self.check(w as usize, &run.kernel, now, lsu_free) {
                        Ok(route) => {
                            issued = Some((w, route));
                            break;
                        }
                        Err(r) => why = why.min(r),
                    }
                }
                match issued {
                    Some((w, route)) => {
                        if self.bar_waiting > 0 {
                            self.note_contention(s, w as usize, &run.kernel, now, lsu_free);
                        }
                        self.schedulers[s].last = Some(w);
                        self.issue_warp(w as usize, route, p)?;
                    }
                    None => {
                        let unused = (self.issue_width - slot) as u64;
                        self.issue.issue_slots += unused - 1;
                        self.charge(why, unused);
                        if slot == 0 {
                            let mut wake = u64::MAX;
                            for &w in &order {
                                wake = wake.min(self.wake_time(w as usize, now));
                            }
                            if wake > now + 1 {
                                self.sched_sleep[s] = wake;
                                self.sched_why[s] = why;
                            }
                        }
                        break;
                    }
                }
                if self.schedulers[s].warps.is_empty() {
                    break;
                }
            }
        }
        self.order = order;
        Ok(())
    }

    /// Issue contention (tfb_bdib.md §4.4, S4; our choice of test): scheduler `s` is
    /// about to issue warp `x`. Every other CTA with warps waiting at a barrier marks
    /// this cycle contended when one of its lagging warps on `s` could have issued
    /// instead ([`Self::could_issue`]). Statistics only: nothing here changes state the
    /// timing reads.
    fn note_contention(&mut self, s: usize, x: usize, k: &Kernel, now: u64, lsu_free: bool) {
        let xc = self.warps[x].cta as usize;
        let ns = self.schedulers.len();
        for c in 0..self.ctas.len() {
            let cs = &self.ctas[c];
            if c == xc || !cs.valid || cs.at_barrier == 0 || cs.cont_last == now {
                continue;
            }
            if cs.warps.iter().any(|&w| w as usize % ns == s && self.could_issue(w as usize, k, now, lsu_free)) {
                let cs = &mut self.ctas[c];
                cs.cont_cycles += 1;
                cs.cont_last = now;
            }
        }
    }

    /// Whether lagging (active) warp `w` passes [`Self::check`] now, read only: the
    /// operands, the I-buffer, the functional unit or the LD/ST unit (the issue hook is
    /// not asked).
    fn could_issue(&self, w: usize, k: &Kernel, now: u64, lsu_free: bool) -> bool {
        let wp = &self.warps[w];
        if !wp.valid || wp.state != WarpState::Active || now < wp.blocked_until {
            return false;
        }
        let pc = wp.simt.pc();
        if wp.ibuf_n == 0 || wp.ibuf_pc != pc || now < wp.ibuf_ready {
            return false;
        }
        let inst = &k.insts[pc as usize];
        if self.scoreboard.ready_cycle(w, inst) > now {
            return false;
        }
        match inst.class {
            OpClass::Mem => lsu_free,
            OpClass::Ctrl => true,
            c => self.fus.free_at(c) <= now,
        }
    }

    /// Every live warp's MWF / fMWF key for this cycle (tfb_bdib.md §2.14): per CTA, the
    /// warps at a barrier (arrived, not released) and past it (released, with
    /// instructions still in the issue hook's buffer).
    fn barrier_keys(&mut self, policy: SchedulerPolicy) {
        for c in &self.ctas {
            if !c.valid {
                continue;
            }
            let (mut at, mut past) = (0, 0);
            for &w in &c.warps {
                let wp = &self.warps[w as usize];
                at += (wp.valid && wp.state == WarpState::Barrier) as u32;
                past += (wp.valid && wp.state != WarpState::Barrier && wp.deferred > 0) as u32;
            }
            for &w in &c.warps {
                let in_bar = self.warps[w as usize].state == WarpState::Barrier;
                self.keys[w as usize] = super::scheduler::barrier_key(policy, in_bar, at, past);
            }
        }
    }

    /// The LD/ST unit and the shared-memory pipeline can take an instruction.
    #[inline(always)]
    fn lsu_free(&self, now: u64) -> bool {
        self.lsu.is_empty() && now >= self.shared_busy_until
    }

    fn charge(&mut self, why: Stall, n: u64) {
        let st = &mut self.issue.stalls;
        let c = match why {
            Stall::MemData => &mut st.mem_data,
            Stall::AluData => &mut st.alu_data,
            Stall::FuBusy => &mut st.fu_busy,
            Stall::LsuBusy => &mut st.lsu_busy,
            Stall::Barrier => &mut st.barrier,
            Stall::Fence => &mut st.fence,
            Stall::Fetch => &mut st.fetch,
            Stall::Other => &mut st.other,
        };
        *c += n;
    }

    /// Earliest cycle warp `w` (which just failed `check`) could issue without an event.
    #[inline(always)]
    fn wake_time(&self, w: usize, now: u64) -> u64 {
        let wp = &self.warps[w];
        if wp.blocked_until > now {
            return wp.blocked_until;
        }
        if (self.taps.past_barrier || self.taps.every_inst) && (wp.state == WarpState::Barrier || wp.deferred > 0 || self.taps.every_inst) {
            // the issue hook's answer may change without an event the SM sees
            return now + 1;
        }
        if wp.state != WarpState::Active {
            return u64::MAX;
        }
        if wp.ibuf_n == 0 || wp.ibuf_pc != wp.simt.pc() || now < wp.ibuf_ready {
            return now + 1;
        }
        // blocked by the LD/ST unit
        if self.lsu.is_empty() {
            self.shared_busy_until.max(now + 1)
        } else {
            u64::MAX
        }
    }

    fn fetch_stage(&mut self, k: &Kernel, now: u64) {
        if self.taps.fetch_first {
            // the issue hook's priority warp (llc_omni_compute.md §1.2) is refilled first
            if let Some(w) = self.issue_hook.fetch_first(now) {
                if let Some(i) = self.fetch_q.iter().position(|&x| x == w).filter(|&i| i > 0) {
                    self.fetch_q.remove(i);
                    self.fetch_q.push_front(w);
                }
            }
        }
        let mut n = 0;
        while n < self.fetch_width {
            let Some(w) = self.fetch_q.pop_front() else {
                break;
            };
            let wp = &mut self.warps[w as usize];
            wp.in_fetch_q = false;
            if !wp.valid || wp.ibuf_n > 0 || wp.simt.is_empty() {
                continue;
            }
            let pc = wp.simt.pc();
            wp.ibuf_pc = pc;
            wp.ibuf_n = self.ibuffer_entries.min(k.insts.len() as u32 - pc);
            wp.ibuf_ready = now + 1;
            n += 1;
        }
    }

    /// Idle skipping (exact). After a cycle, when no stage can act before some cycle
    /// `t` — nothing completes before `t`, no instruction waits to be fetched, no request
    /// waits to leave, no deferred instruction, the LD/ST unit is empty or holds a read
    /// the L1 refuses for want of an MSHR (only a fill changes that), and every scheduler
    /// with warps sleeps until `t` or later — the cycles before `t` would each only count
    /// the schedulers' stalls (and the refused read). The SM sleeps through them; a reply,
    /// a new CTA or the cycle at `t` wakes it ([`Self::wake_up`]), which counts them.
    fn plan_sleep(&mut self, now: u64) {
        self.sleep_until = 0;
        if self.resident_ctas == 0 || !self.miss_q.is_empty() || !self.fetch_q.is_empty() || self.deferred_total > 0 {
            return;
        }
        let refused = match self.lsu.front() {
            None => false,
            Some(a) if a.kind == AccKind::Read && self.l1.refuses_read(a.line) => true,
            Some(_) => return,
        };
        let mut t = u64::MAX;
        for (s, sched) in self.schedulers.iter().enumerate() {
            if !sched.warps.is_empty() {
                t = t.min(self.sched_sleep[s]);
            }
        }
        if let Some(&(c, _)) = self.l1_hits.front() {
            t = t.min(c);
        }
        if let Some(&(c, _)) = self.shmem_done.front() {
            t = t.min(c);
        }
        if t > now + 1 {
            self.sleep_until = t;
            self.slept_from = now + 1;
            self.sleep_l1_refused = refused;
        }
    }

    /// Warp `w`'s pc or state changed: count it among the warps whose next instruction
    /// touches what the SMs share (or no longer).
    #[inline(always)]
    fn note_next(&mut self, w: usize) {
        let wp = &mut self.warps[w];
        let now = wp.state != WarpState::Finished && self.shared_pc[wp.simt.pc() as usize];
        if now != wp.at_shared {
            wp.at_shared = now;
            if now {
                self.at_shared += 1;
            } else {
                self.at_shared -= 1;
            }
        }
    }

    /// Whether the SM's next cycle touches nothing another SM, a memory partition or
    /// the network sees, so the GPU may run it ahead of the others (exact; see
    /// [`super::sim`]): no request in flight or waiting to leave, nothing in the LD/ST
    /// unit, no warp about to issue a memory instruction outside shared memory or a
    /// `printf`, and no issue hook holding work. The GPU also keeps CTA dispatch and
    /// hooks out of it.
    #[inline]
    pub fn runs_alone(&self) -> bool {
        self.at_shared == 0 && self.in_flight == 0 && self.lsu.is_empty() && self.miss_q.is_empty() && self.deferred_total == 0 && self.offload_waiting == 0
    }

    /// Whether no banked shared-memory access of the warps occupies the port in `now`.
    pub fn shared_port_free(&self, now: u64) -> bool {
        now >= self.shared_busy_until
    }

    /// Whether an instruction issued into the SP (integer / shared ALU) pipeline in `cycle`.
    pub fn alu_issued_at(&self, cycle: u64) -> bool {
        self.fus.issued_at(OpClass::Int, cycle)
    }

    /// Count the cycles slept before `now` as the cycles they stand for, and stay awake.
    #[inline]
    pub fn wake_up(&mut self, now: u64) {
        if self.sleep_until != 0 {
            self.wake_from_sleep(now);
        }
    }

    fn wake_from_sleep(&mut self, now: u64) {
        debug_assert!(now >= self.slept_from && now <= self.sleep_until, "SM {}: woken at {now}, slept {}..{}", self.id, self.slept_from, self.sleep_until);
        self.sleep_until = 0;
        let n = now - self.slept_from;
        if n == 0 {
            return;
        }
        self.report.active_cycles += n;
        let slots = self.issue_width as u64 * n;
        for s in 0..self.schedulers.len() {
            if !self.schedulers[s].warps.is_empty() {
                self.issue.issue_slots += slots;
                self.charge(self.sched_why[s], slots);
            }
        }
        if self.sleep_l1_refused {
            self.l1.stats.reservation_fails += n;
        }
    }

    /// Run every cycle from now on, until the next [`Self::cycle`] (a clock that does
    /// not tick every cycle).
    pub fn stay_awake(&mut self) {
        self.sleep_until = 0;
    }

    /// One core cycle (see the module docs for the stage order).
    pub fn cycle(&mut self, p: &mut SmPorts<'_>) -> Result<(), CoreFault> {
        let now = p.now;
        self.wake_up(now);
        self.report.active_cycles += 1;
        while let Some(&(t, tok)) = self.l1_hits.front() {
            if t > now {
                break;
            }
            self.l1_hits.pop_front();
            self.complete(tok, t);
        }
        while let Some(&(t, tok)) = self.shmem_done.front() {
            if t > now {
                break;
            }
            self.shmem_done.pop_front();
            self.complete(tok, t);
        }
        self.lsu_step(p);
        if self.deferred_total > 0 {
            self.drain_stage(p)?;
        }
        while self.offload_waiting > 0 {
            let Some(ev) = self.issue_hook.poll(now) else {
                break;
            };
            self.offload_event(ev, now);
        }
        self.issue_stage(p)?;
        let run: &KernelRun = p.run;
        self.fetch_stage(&run.kernel, now);
        if let Some(pk) = self.miss_q.front() {
            if p.net.can_inject(pk.src, Class::Request) {
                let pk = self.miss_q.pop_front().expect("front exists");
                let txn = *p.txns.get(pk.tag as u32);
                match p.net_hook.hook.depart(now, pk, &txn) {
                    Some(pk) => p.net.inject(pk),
                    None => p.net_hook.wake = now,
                }
            }
        }
        self.plan_sleep(now);
        Ok(())
    }

    /// One entry per live warp: pc, state and outstanding memory (deadlock diagnostics).
    pub fn describe_waits(&self) -> String {
        let mut s = String::new();
        for (i, w) in self.warps.iter().enumerate().filter(|(_, w)| w.valid) {
            s.push_str(&format!("warp {i}: pc {} state {:?} loads {} stores {} lsu {}; ", w.simt.pc(), w.state, w.pending_loads, w.pending_stores, w.lsu_pending));
        }
        s
    }
}

/// Whether `inst` may touch what the SMs share: device memory (a memory instruction
/// outside shared memory and the kernel parameters: global, local, constant, texture
/// and generic accesses reach the L1 and the network) or the printf buffer.
fn touches_shared(inst: &super::ptx::Inst) -> bool {
    match inst.op {
        Op::Ld { space: Space::Shared | Space::Param, .. } => false,
        Op::Ld { .. } => true,
        Op::St { space, .. } | Op::Atom { space, .. } | Op::Red { space, .. } => space != Space::Shared,
        _ => inst.is_mem() || inst.op == Op::Printf,
    }
}
