//! Where blocks attach to the GPU model: four hook points, each a trait in the style of
//! [`crate::network::Network`], with its cycle discipline written down and a no-op
//! default ([`NoHook`] implements all four). A block implements the points it needs in
//! its own folder and joins with one line in [`BLOCKS`]; `core.rs`, `mempart.rs` and
//! `sim.rs` call the hooks and are not edited per block.
//!
//! | point | trait | called from | serves |
//! |---|---|---|---|
//! | memory partition (LLC slice) | [`PartitionHook`] | `mempart.rs` | the service queue SQ: llc_omni_compute.md §1.5 (NI demux), §1.6 (SQ at the LLC: CP in, touch/read/write on the LLC tag port, responses out), §6.2 |
//! | SM issue and barrier logic | [`IssueHook`] | `core.rs` | the BDIB: tfb_bdib.md §1.7 (decide: issue, buffer or block past a barrier), §2.5–2.9 (snooped barrier arrival and completion, drain into the memory pipeline), §2.14 (MWF/fMWF order); chain-aware issue priority, llc_omni_compute.md §1.2 |
//! | between the SM and the network | [`CoreNetHook`] | `core.rs`, `sim.rs` | the offload queue OQ: llc_omni_compute.md §1.3 (requests held or sent, ComputePackets out, responses in, held loads answered), §1.5, §6.1 |
//! | the L2 (all LLC slices) | [`L2Hook`] | `mempart.rs`, `sim.rs` | the Q-cache rate monitor: qcache.md §1.2 (accesses by requester and line with the dirty state before and after, fills, dirty write-backs), §1.4 (kernel begin/end), §1.8 and §3 (core-scheduler throttling: CTA drain and SM clock) |
//!
//! Selection: an optional `[hooks]` table in the GPU config, one sub-table per block,
//! whose keys are the block's own parameters; absent means no hooks. [`build`] is the
//! one factory: it looks each name up in [`BLOCKS`] and lets the block attach. Unknown
//! names are config errors (`hooks.<name>: unknown hook (allowed: ...)`), and so are two
//! blocks on one hook point.
//!
//! ```toml
//! [hooks.throttle]       # the built-in static throttle (throttle.rs)
//! sms = [0, 1]
//! clock = [1, 2]         # SMs 0 and 1 run every other cycle
//! ```
//!
//! Packets between hooks carry [`HOOK_TAG`] in their tag (the "sink" header bit of
//! llc_omni_compute.md §1.5): at a memory node or an SM such a packet goes to the hook
//! there, everything else takes the normal path.
//!
//! Cost: with no hooks, the model makes no call per cycle. Hooks are asked per event
//! (a barrier arrival, a request leaving an SM, an LLC access, a packet for a hook);
//! the per-cycle calls ([`PartitionHook::cycle`], [`CoreNetHook::cycle`],
//! [`L2Hook::cycle`]) run only in the cycle a hook asked for or after one of its
//! events, and the issue-stage questions only where [`IssueHook::taps`] asks for them.

use std::collections::BTreeMap;

use crate::config::FieldError;
use crate::network::{Class, Network, Packet};

use super::config::GpuConfig;
use super::ptx::Inst;
use super::txn::{Txn, TxnKind};

pub mod throttle;

/// Tag bit of packets sent by hooks: they are delivered to the hook at the destination.
pub const HOOK_TAG: u64 = 1 << 63;

/// Every block that attaches to the GPU model. A new block adds one line here.
pub const BLOCKS: &[HookBlock] = &[throttle::BLOCK, crate::qcache::hook::BLOCK, crate::tfb_bdib::hook::BLOCK, crate::llc_compute::hook::BLOCK];

/// A block as the GPU config selects it: `[hooks.<name>]`.
pub struct HookBlock {
    pub name: &'static str,
    /// Validate the block's parameters (the `[hooks.<name>]` table) and put its hooks
    /// into the set. Errors name `hooks.<name>...` fields.
    pub attach: fn(&GpuConfig, &toml::Table, &mut HookSet) -> Result<(), FieldError>,
}

/// Build the hooks a GPU config selects (no hooks when it has no `[hooks]` table).
/// [`GpuConfig::load`] runs this once to validate; every GPU built from the config runs
/// it again for fresh hook state.
pub fn build(cfg: &GpuConfig) -> Result<HookSet, FieldError> {
    let mut set = HookSet::none(cfg);
    for (name, params) in &cfg.hooks {
        let Some(block) = BLOCKS.iter().find(|b| b.name == name) else {
            let allowed = BLOCKS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ");
            return Err(FieldError::new(format!("hooks.{name}"), format!("unknown hook `{name}`"), Some(allowed)));
        };
        (block.attach)(cfg, params, &mut set)?;
    }
    Ok(set)
}

/// A block's parameters as its own typed struct (serde, `deny_unknown_fields` where the
/// block says so); errors name `hooks.<name>`.
///
/// The table is read back from its own TOML text so that a wrong value names its key and
/// the type or range allowed (`hooks.<name>.<key>`, as [`crate::config::toml_error`]
/// does for whole files); `name` may be dotted for a nested table (`qcache.cpu`).
pub fn params<T: serde::de::DeserializeOwned>(name: &str, table: &toml::Table) -> Result<T, FieldError> {
    let text = toml::to_string(table).unwrap_or_default();
    toml::from_str(&text).map_err(|e: toml::de::Error| {
        let c = crate::config::toml_error(std::path::Path::new(""), &text, &e);
        // an unknown key is the table's fault (the message names the key); a wrong value, the key's
        let unknown = c.message.starts_with("unknown field");
        let key = c.field.split(" (line").next().filter(|k| !unknown && !k.starts_with("line ") && *k != "<file>" && !k.is_empty());
        FieldError::new(key.map_or(format!("hooks.{name}"), |k| format!("hooks.{name}.{k}")), c.message, c.allowed)
    })
}

/// Named counters a hook adds to the run report (`hooks` in the JSON, summed over
/// every instance of the hook, sorted by name).
pub type HookCounters = BTreeMap<String, u64>;

/// Add `v` to counter `name`.
pub fn count(out: &mut HookCounters, name: &str, v: u64) {
    *out.entry(name.to_string()).or_insert(0) += v;
}

// ------------------------------------------------------------------ (a) partition

/// The memory partition's hook (the service queue of llc_omni_compute.md §1.6).
///
/// Cycle discipline, per core cycle of the partition (mempart.rs order):
/// 1. packets tagged [`HOOK_TAG`] that eject at the memory node are handed to
///    [`arrive`](Self::arrive) (tag bit cleared), in ejection order, while the input
///    queue has room (one ejection path, as the NI demux of §1.5);
/// 2. DRAM returns and tag-pipeline outputs: a completed access the hook made is
///    reported by [`llc_done`](Self::llc_done) (its line is present in the LLC: a hit
///    after the tag latency, a miss when DRAM filled it, a write when accepted);
/// 3. [`cycle`](Self::cycle) runs if it asked for this cycle or an event of steps 1–2
///    happened since its last run; through the port it may take this cycle's LLC tag
///    access (the input queue's head then waits, §1.6.2 step 3) and send packets;
/// 4. the partition's own tag access (if the port did not take it) and reply injection.
pub trait PartitionHook {
    /// A packet for this hook arrived.
    fn arrive(&mut self, now: u64, pkt: Packet) {
        unexpected("partition", &pkt, now)
    }

    /// An LLC access made through [`PartitionPort::llc`] with `tag` is done.
    fn llc_done(&mut self, _now: u64, _tag: u32) {}

    /// Act for this cycle; returns the next cycle this must run even without an event
    /// (`u64::MAX`: only after the next event).
    fn cycle(&mut self, _now: u64, _port: &mut dyn PartitionPort) -> u64 {
        u64::MAX
    }

    fn counters(&self, _out: &mut HookCounters) {}
}

/// What a [`PartitionHook`] may do in its cycle (implemented by the memory partition).
pub trait PartitionPort {
    /// The partition's network node.
    fn node(&self) -> usize;

    /// Whether a request of the input queue waits for the tag port (for the hook's
    /// round-robin against it, llc_omni_compute.md §1.6.2).
    fn queue_waiting(&self) -> bool;

    /// Use this cycle's tag access for `kind` on the line at byte address `line` (bytes
    /// `mask` for a write). `false` when the tag port was already used this cycle or
    /// the LLC refused (MSHRs or merge limit): try again in a later cycle. Completion is
    /// reported to [`PartitionHook::llc_done`] with `tag`.
    fn llc(&mut self, kind: TxnKind, line: u64, mask: u128, tag: u32) -> bool;

    /// Whether the network takes a packet of `class` from this node now.
    fn can_send(&self, class: Class) -> bool;

    /// Send a packet to the hook at network node `dst` (only after `can_send`).
    fn send(&mut self, dst: usize, class: Class, flits: u32, tag: u64);
}

// ------------------------------------------------------------------ (b) issue

/// How a kernel occupies each SM (from its launch and the occupancy calculation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelShape {
    /// Threadblocks an SM holds at once.
    pub ctas_per_sm: u32,
    /// Static plus dynamic shared memory of one threadblock.
    pub shared_bytes_per_cta: u32,
}

/// Where [`IssueHook`] wants the SM to ask it (read once when the GPU is built).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IssueTaps {
    /// Ask [`IssueHook::decide`] for warps waiting at a barrier and for warps that
    /// have deferred instructions (a BDIB).
    pub past_barrier: bool,
    /// Ask [`IssueHook::decide`] for every instruction about to issue (chain-aware
    /// issue, llc_omni_compute.md §1.2), warps at a barrier included (answer
    /// [`IssueDecision::Block`] for them to keep the drain barrier).
    pub every_inst: bool,
    /// Let [`IssueHook::order`] reorder each scheduler's candidates (MWF, fMWF,
    /// priority warps).
    pub order: bool,
    /// Ask [`IssueHook::fetch_first`] each cycle which warp the fetch stage serves
    /// first (the chain-aware fetch priority of llc_omni_compute.md §1.2).
    pub fetch_first: bool,
}

/// What happens to the instruction a warp would issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueDecision {
    /// Issue and execute now.
    Issue,
    /// Issue into the hook (a barrier-displaced instruction buffer): the warp moves
    /// past it, its destination registers are reserved, and it executes when the hook
    /// hands it back through [`IssueHook::drain`]. Only memory instructions, `bar` and
    /// `membar` can be deferred; for others this acts as [`Block`](Self::Block).
    Defer,
    /// Do not issue this cycle (charged as a barrier stall).
    Block,
    /// Issue into the hook's offload queue (a chain instruction the OQ absorbs,
    /// llc_omni_compute.md §1.2–1.3). It executes now, so results are the baseline's,
    /// and counts as issued; it takes no functional unit and reserves no register. A
    /// global load's or store's line accesses are held by the SM instead of entering the
    /// LD/ST unit (a load's lines are looked up in the L1 without a fill or an MSHR).
    /// [`IssueHook::absorb`] then says what becomes of the warp's held accesses. Only
    /// global loads and stores and ALU instructions can be absorbed.
    Offload,
}

/// One line an absorbed global load or store touches ([`IssueHook::absorb`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldLine {
    /// Line-aligned byte address.
    pub line: u64,
    /// Bytes of the line (bit i = byte i).
    pub bytes: u128,
    /// The lanes whose access falls in this line (bit i = lane i; the lines of one
    /// instruction partition its lanes).
    pub lanes: u32,
    pub store: bool,
    /// A load whose line is in the L1 or already on its way there (a pending MSHR).
    pub l1_hit: bool,
}

/// The instruction [`IssueDecision::Offload`] just issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Absorbed<'a> {
    pub warp: u16,
    pub pc: u32,
    /// The lanes it ran on (active lanes its guard allowed).
    pub mask: u32,
    /// Its line accesses (empty for an ALU instruction or when no lane ran).
    pub lines: &'a [HeldLine],
    /// A global load's or store's per-lane byte addresses (lane i at index i; only the
    /// lanes of `lines` are meaningful) and bytes per lane; `lane_bytes` is 0 for an ALU
    /// instruction.
    pub addrs: &'a [u64; 32],
    pub lane_bytes: u32,
}

/// What the SM does with a warp's held accesses after [`IssueHook::absorb`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absorb {
    /// Keep holding them (the chain is still forming).
    Hold,
    /// Send them the normal way now (a DISCARD or FLUSH, spec §2.5): loads become
    /// ordinary L1 accesses and reserve their registers; a held store follows the loads
    /// into the LD/ST unit. The warp goes on.
    Release,
    /// The chain left as a ComputePacket: the warp issues nothing more until the hook
    /// answers with an [`OffloadEvent`] (charged as a memory-data stall).
    Wait,
}

/// The answer to a waiting warp ([`IssueHook::poll`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffloadEvent {
    /// The chain was served elsewhere (an ACK, DATA or BITMAP response): the held
    /// accesses are dropped and the warp goes on.
    Resume(u16),
    /// The service queue fell back (spec §1.6.4): the loads' data came back to the
    /// core, which computes and stores itself; the held loads are dropped, the held
    /// stores go out the normal way, and the warp goes on.
    Fallback(u16),
}

/// The warp [`IssueHook::decide`] is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarpView {
    /// Warp slot in the SM.
    pub slot: u16,
    /// The instruction's index in the kernel (the one [`IssueHook::kernel_begin`] gave).
    pub pc: u32,
    /// CTA slot in the SM.
    pub cta: u16,
    /// Arrived at a barrier that has not completed for it yet.
    pub at_barrier: bool,
    /// That barrier is a named or partial one (`bar.sync id` with id > 0, or with a
    /// thread count), not barrier 0 of the whole CTA.
    pub named_barrier: bool,
    /// Instructions the hook holds for this warp.
    pub deferred: u32,
}

/// An instruction issued into the hook: which warp, where, with which SIMT mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deferred {
    pub warp: u16,
    pub pc: u32,
    /// Active lanes at issue (the guard predicate is evaluated when it executes).
    pub mask: u32,
}

/// The SM's issue and barrier hook (the BDIB of tfb_bdib.md §2.5).
///
/// Cycle discipline, per SM cycle (core.rs order): after the LD/ST unit's step and
/// before the schedulers, if the SM holds deferred instructions, [`drain`](Self::drain)
/// may hand one back; it executes at once (operands read now, §2.5) and enters the
/// memory pipeline, so pass-through memory instructions find the LD/ST unit busy this
/// cycle (§2.9). Then each scheduler, after [`order`](Self::order), checks its warps
/// in order: the baseline conditions (I-buffer, scoreboard, units) come first, then
/// [`decide`](Self::decide) where the taps ask for it. Barrier events are reported as
/// they happen: arrival when `bar` executes, release when the CTA's barrier completes
/// (the warp resumes at `resume_at`, after its exit-acquire fence), and each fence's
/// completion. A deferred instruction counts as a warp instruction when it issues into
/// the hook and as thread instructions when it executes. A warp does not retire while it
/// has deferred instructions.
pub trait IssueHook {
    fn taps(&self) -> IssueTaps {
        IssueTaps::default()
    }

    /// A kernel starts on this SM (before its first CTA): a hook that reads the code
    /// (the LLC-Compute chain tags, llc_omni_compute.md §2.1) analyses it here.
    fn kernel_begin(&mut self, _kernel: &super::ptx::Kernel) {}

    /// Right after [`kernel_begin`](Self::kernel_begin): how the kernel occupies the SM
    /// (for a hook that reserves SM resources, the core SQ's shared-memory slots of
    /// llc_omni_compute.md §1.7).
    fn kernel_shape(&mut self, _shape: &KernelShape) {}

    /// The drain-barrier baseline: nothing issues past a barrier.
    fn decide(&mut self, _now: u64, warp: &WarpView, _inst: &Inst) -> IssueDecision {
        if warp.at_barrier {
            IssueDecision::Block
        } else {
            IssueDecision::Issue
        }
    }

    /// Take an instruction [`decide`](Self::decide) deferred.
    fn defer(&mut self, now: u64, d: Deferred) {
        panic!("cycle {now}: issue hook deferred {d:?} but keeps no buffer (implement IssueHook::defer and drain)")
    }

    /// Hand back one deferred instruction to execute now (`lsu_free`: the LD/ST unit
    /// and shared-memory pipeline can take it this cycle).
    fn drain(&mut self, _now: u64, _lsu_free: bool) -> Option<Deferred> {
        None
    }

    /// Reorder scheduler `sched`'s warps for this cycle (`order` holds them in policy
    /// order; keep the same set).
    fn order(&mut self, _now: u64, _sched: usize, _order: &mut Vec<u16>) {}

    /// The warp the fetch stage serves before the round-robin order this cycle, if it
    /// waits for an I-buffer refill (asked only where [`IssueTaps::fetch_first`] is set;
    /// a warp that does not wait for fetch is ignored).
    fn fetch_first(&mut self, _now: u64) -> Option<u16> {
        None
    }

    fn barrier_arrive(&mut self, _now: u64, _warp: u16, _cta: u16) {}

    fn barrier_release(&mut self, _now: u64, _warp: u16, _resume_at: u64) {}

    /// Warp `warp`'s fence completed (its older accesses are done at the fence's
    /// scope); the warp resumes at `resume_at`. Reported for every fence, deferred or
    /// not (the `fence_done` of tfb_bdib.md §2.7 T9, which ends DRAIN_F).
    fn fence_done(&mut self, _now: u64, _warp: u16, _resume_at: u64) {}

    /// An instruction issued by [`IssueDecision::Offload`] was absorbed.
    fn absorb(&mut self, now: u64, a: &Absorbed<'_>) -> Absorb {
        panic!("cycle {now}: issue hook answered Offload for {a:?} but keeps no offload queue (implement IssueHook::absorb and poll)")
    }

    /// An answer for a warp that waits ([`Absorb::Wait`]); asked before the schedulers
    /// in every cycle the SM runs while a warp waits (the SM may sleep: the hook's
    /// network side wakes it with [`CorePort::wake_sm`] when an answer arrives).
    fn poll(&mut self, _now: u64) -> Option<OffloadEvent> {
        None
    }

    fn counters(&self, _out: &mut HookCounters) {}
}

// ------------------------------------------------------------------ (c) SM <-> network

/// The hook between an SM and the network (the offload queue of
/// llc_omni_compute.md §1.3).
///
/// Cycle discipline, per GPU cycle (sim.rs order): packets tagged [`HOOK_TAG`] that
/// eject at the SM's node go to [`arrive`](Self::arrive) (tag bit cleared), the others
/// to the SM; then [`cycle`](Self::cycle) runs if it asked for this cycle or an event
/// happened since its last run (it may send packets, forward requests it holds, and
/// hand replies to the SM as if they came from the network); then the SM's cycle, whose
/// last step offers the request at the head of its miss queue to
/// [`depart`](Self::depart) when the network can take it.
pub trait CoreNetHook {
    /// A request leaves the SM. Return it (possibly changed) to inject it, or keep it
    /// (`None`): the hook then owns the transaction and must forward it or answer it
    /// with [`CorePort::deliver`].
    fn depart(&mut self, _now: u64, pkt: Packet, _txn: &Txn) -> Option<Packet> {
        Some(pkt)
    }

    /// A packet for this hook arrived.
    fn arrive(&mut self, now: u64, pkt: Packet) {
        unexpected("SM", &pkt, now)
    }

    /// Act for this cycle; returns the next cycle this must run even without an event
    /// (`u64::MAX`: only after the next event).
    fn cycle(&mut self, _now: u64, _port: &mut dyn CorePort) -> u64 {
        u64::MAX
    }

    fn counters(&self, _out: &mut HookCounters) {}
}

/// What a [`CoreNetHook`] may do in its cycle (implemented by the GPU for one SM).
pub trait CorePort {
    /// The SM's network node.
    fn node(&self) -> usize;

    fn can_send(&self, class: Class) -> bool;

    /// Send a packet to the hook at network node `dst` (only after `can_send`).
    fn send(&mut self, dst: usize, class: Class, flits: u32, tag: u64);

    /// Inject a request the hook kept in [`CoreNetHook::depart`], unchanged (only
    /// after `can_send(Class::Request)`).
    fn forward(&mut self, pkt: Packet);

    /// Hand the SM a reply to one of its transactions (`pkt.tag` = the transaction)
    /// as if it had arrived from the network now.
    fn deliver(&mut self, pkt: Packet);

    /// Run the SM this cycle even if it planned to sleep (its issue hook has an answer
    /// for a waiting warp, [`IssueHook::poll`]).
    fn wake_sm(&mut self);

    /// Whether the SM's shared-memory port is free this cycle: no banked access of its
    /// warps still occupies it (the core has priority over a hook's accesses).
    fn shared_port_free(&self) -> bool;

    /// Whether the SM issued into its SP (integer / shared ALU) pipeline in cycle
    /// `cycle`. The hook runs before the SM in a GPU cycle, so the latest cycle it can
    /// know is the previous one.
    fn alu_issued_at(&self, cycle: u64) -> bool;
}

// ------------------------------------------------------------------ (d) L2

/// Who made an LLC access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requester {
    Sm(u32),
    /// The memory partition's hook ([`PartitionPort::llc`]).
    Partition,
}

/// How the LLC took an access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum L2Outcome {
    Hit,
    /// New miss (reads, atomics: DRAM fetch) or a write allocating the line.
    Miss,
    /// Merged into the pending miss of the same line (the line becomes dirty, for a
    /// write, when it is filled).
    Merged,
}

/// One LLC tag access the LLC accepted (refused ones are retried and reported when
/// accepted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L2Access {
    /// Memory partition (LLC slice).
    pub part: usize,
    pub requester: Requester,
    pub kind: TxnKind,
    /// Byte address of the line.
    pub line: u64,
    pub outcome: L2Outcome,
    /// The line was present and dirty before / is present and dirty after the access.
    pub dirty_before: bool,
    pub dirty_after: bool,
}

/// Per-SM actuators (qcache.md §1.8): CTA dispatch and the SM clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmThrottle {
    /// New CTAs may start on the SM; `false` drains it (resident CTAs finish).
    pub dispatch: bool,
    /// The SM runs its cycle in `clock_num` of every `clock_den` GPU cycles, evenly
    /// spread (a lower clock, DVFS); 1/1 is full speed. `0 < clock_num <= clock_den`.
    pub clock_num: u16,
    pub clock_den: u16,
}

impl SmThrottle {
    pub const FULL: SmThrottle = SmThrottle { dispatch: true, clock_num: 1, clock_den: 1 };

    /// The SM's static power as a share of full power under this throttle (energy model,
    /// our choice; README "Energy"): a drained SM without CTAs is power-gated, 0 (spec
    /// qcache.md §1.8: a drained core is powered off); a slower clock runs at a lower
    /// voltage, `V(x) = 1 - 0.42 (1 - x)` for the clock fraction x (0.7 of nominal at
    /// 2/7 of the clock, the Q-cache GPU's 200 of 700 MHz; at least 0.5), and leakage
    /// scales with V. Full speed: 1.
    pub fn static_share(&self, busy: bool) -> f64 {
        if !self.dispatch && !busy {
            return 0.0;
        }
        let x = self.clock_num as f64 / self.clock_den as f64;
        (1.0 - 0.42 * (1.0 - x)).max(0.5)
    }
}

/// The GPU's core-scheduler controls as an [`L2Hook`] sees them (implemented by the GPU).
pub trait CoreControl {
    fn sms(&self) -> usize;

    /// CTAs resident on SM `sm` (a drained SM reaches 0).
    fn resident_ctas(&self, sm: usize) -> u32;

    fn throttle(&self, sm: usize) -> SmThrottle;

    /// Applies from the next cycle.
    fn set_throttle(&mut self, sm: usize, t: SmThrottle);

    /// The memory side, for agents an L2 hook models beside the GPU (CPU cores sharing
    /// the L2, qcache.md §3.1). The 32-bit word at `addr` of device memory (functional,
    /// as the SMs see it); `None` outside the allocated memory.
    fn read_word(&self, _addr: u64) -> Option<u32> {
        None
    }

    /// Write the word at `addr` (functional); `false` outside the allocated memory.
    fn write_word(&mut self, _addr: u64, _v: u32) -> bool {
        false
    }

    /// A coherence request from another domain for the line holding `addr`, at the
    /// LLC slice that maps it: `None` when the line is absent, else whether it was
    /// dirty; with `forward_dirty` the dirty data and its write-back duty go to the
    /// requester (the line stays, clean: [`super::llc::LlcSlice::snoop`]).
    fn l2_snoop(&mut self, _addr: u64, _forward_dirty: bool) -> Option<bool> {
        None
    }

    /// The LLC slice (memory partition) that maps `addr`.
    fn l2_slice(&self, _addr: u64) -> usize {
        0
    }
}

/// A buffer of the launch as the hooks learn it before the first kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchBuffer {
    pub name: String,
    pub addr: u64,
    pub bytes: u64,
}

/// The L2's hook: one for the whole GPU, seeing every LLC slice (the Q-cache monitor
/// sums its banks, qcache.md §1.1).
///
/// Cycle discipline, per GPU cycle (sim.rs order): while the memory partitions run,
/// [`access`](Self::access), [`fill`](Self::fill) and [`writeback`](Self::writeback)
/// report what the LLC slices did, in partition order; kernel begin and end are
/// reported before the first and after the last cycle of each kernel; at the end of the
/// cycle (also in the idle cycles after the last kernel while [`pending`](Self::pending)
/// holds) (after the SMs and CTA dispatch, before the network steps)
/// [`cycle`](Self::cycle) runs in the cycles it asked for, and may change the SMs'
/// throttles, which apply from the next cycle. Observations do not wake `cycle`.
pub trait L2Hook {
    fn access(&mut self, _now: u64, _a: &L2Access) {}

    /// DRAM data for `line` was installed in slice `part`.
    fn fill(&mut self, _now: u64, _part: usize, _line: u64, _dirty_before: bool, _dirty_after: bool) {}

    /// Slice `part` evicted the dirty `line` (a write-back to DRAM).
    fn writeback(&mut self, _now: u64, _part: usize, _line: u64) {}

    /// The launch's buffers, once, before its first kernel (agents beside the GPU find
    /// their data by name). An error (a buffer the hook needs is missing) names the
    /// launch field; the run stops before it starts with the launch file named.
    fn buffers(&mut self, _bufs: &[LaunchBuffer]) -> Result<(), crate::config::FieldError> {
        Ok(())
    }

    fn kernel_begin(&mut self, _now: u64) {}

    /// Work outstanding after the launch's last kernel (CPU cores still consuming):
    /// while this holds, the run goes on with idle GPU cycles ([`crate::gpu::sim::Gpu::idle_cycle`]:
    /// memory partitions, this hook's cycle, the network) before it ends.
    fn pending(&self) -> bool {
        false
    }

    fn kernel_end(&mut self, _now: u64) {}

    /// Act for this cycle; returns the next cycle this must run (`u64::MAX`: never; the
    /// first call is in cycle 0).
    fn cycle(&mut self, _now: u64, _ctl: &mut dyn CoreControl) -> u64 {
        u64::MAX
    }

    fn counters(&self, _out: &mut HookCounters) {}

    /// Energy the block spends beside the GPU's own events (CPU cores next to the L2),
    /// added to the run's [`crate::energy::EnergyReport`]; `gpu_mhz` converts GPU cycles
    /// to time.
    fn energy(&self, _gpu_mhz: u32, _out: &mut HookEnergy) {}
}

/// What [`L2Hook::energy`] reports: dynamic events (name, part, count, pJ each) and
/// static energy in nJ.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookEnergy {
    pub events: Vec<crate::energy::Event>,
    pub static_nj: f64,
}

// ------------------------------------------------------------------ the set

/// The no-op hook of every point: the GPU model without any block attached.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHook;

impl PartitionHook for NoHook {}
impl IssueHook for NoHook {}
impl CoreNetHook for NoHook {}
impl L2Hook for NoHook {}

/// The hook between one SM and the network, with its schedule.
pub struct SmNetHook {
    pub hook: Box<dyn CoreNetHook>,
    /// Next cycle `hook.cycle` runs, and the id counter of the packets it sends.
    pub(crate) wake: u64,
    pub(crate) next_id: u64,
}

/// The hook of one memory partition, with its schedule.
pub struct PartHooks {
    pub hook: Box<dyn PartitionHook>,
    pub(crate) wake: u64,
    pub(crate) next_id: u64,
}

/// Every hook of one GPU: per SM, per memory partition, and the L2's. The GPU moves
/// the issue hooks into its SMs when it is built.
pub struct HookSet {
    pub issue: Vec<Box<dyn IssueHook>>,
    pub core_net: Vec<SmNetHook>,
    pub parts: Vec<PartHooks>,
    pub l2: Box<dyn L2Hook>,
    pub(crate) l2_wake: u64,
    /// Block using each point: issue, SM-network, partition, L2.
    owners: [Option<&'static str>; 4],
}

const POINTS: [&str; 4] = ["the SM issue stage", "the SM's network port", "the memory partition", "the L2"];

impl HookSet {
    /// No hooks anywhere.
    pub fn none(cfg: &GpuConfig) -> HookSet {
        HookSet {
            issue: (0..cfg.sms).map(|_| Box::new(NoHook) as Box<dyn IssueHook>).collect(),
            core_net: (0..cfg.sms as u64).map(|i| SmNetHook { hook: Box::new(NoHook), wake: 0, next_id: 1 << 62 | i << 40 }).collect(),
            parts: (0..cfg.mem_nodes as u64).map(|i| PartHooks { hook: Box::new(NoHook), wake: 0, next_id: 3 << 61 | i << 40 }).collect(),
            l2: Box::new(NoHook),
            l2_wake: 0,
            owners: [None; 4],
        }
    }

    /// Whether no block attached a hook.
    pub fn is_empty(&self) -> bool {
        self.owners.iter().all(Option::is_none)
    }

    fn claim(&mut self, point: usize, by: &'static str) -> Result<(), FieldError> {
        match self.owners[point] {
            Some(other) if other != by => {
                Err(FieldError::new(format!("hooks.{by}"), format!("attaches at {}, which hooks.{other} already uses", POINTS[point]), Some("one block per hook point".into())))
            }
            _ => {
                self.owners[point] = Some(by);
                Ok(())
            }
        }
    }

    /// Block `by` puts `make(sm)` at every SM's issue stage.
    pub fn set_issue(&mut self, by: &'static str, mut make: impl FnMut(usize) -> Box<dyn IssueHook>) -> Result<(), FieldError> {
        self.claim(0, by)?;
        for (i, s) in self.issue.iter_mut().enumerate() {
            *s = make(i);
        }
        Ok(())
    }

    /// Block `by` puts `make(sm)` between every SM and the network.
    pub fn set_core_net(&mut self, by: &'static str, mut make: impl FnMut(usize) -> Box<dyn CoreNetHook>) -> Result<(), FieldError> {
        self.claim(1, by)?;
        for (i, s) in self.core_net.iter_mut().enumerate() {
            s.hook = make(i);
        }
        Ok(())
    }

    /// Block `by` puts `make(partition)` at every memory partition.
    pub fn set_partition(&mut self, by: &'static str, mut make: impl FnMut(usize) -> Box<dyn PartitionHook>) -> Result<(), FieldError> {
        self.claim(2, by)?;
        for (i, p) in self.parts.iter_mut().enumerate() {
            p.hook = make(i);
        }
        Ok(())
    }

    /// Block `by` puts `hook` at the L2.
    pub fn set_l2(&mut self, by: &'static str, hook: Box<dyn L2Hook>) -> Result<(), FieldError> {
        self.claim(3, by)?;
        self.l2 = hook;
        Ok(())
    }

    /// Add the counters of every hook still in the set.
    pub fn counters(&self, out: &mut HookCounters) {
        for h in &self.issue {
            h.counters(out);
        }
        for s in &self.core_net {
            s.hook.counters(out);
        }
        for p in &self.parts {
            p.hook.counters(out);
        }
        self.l2.counters(out);
    }

    /// The energy the attached blocks report beside the GPU's ([`L2Hook::energy`]).
    pub fn energy(&self, gpu_mhz: u32) -> HookEnergy {
        let mut e = HookEnergy::default();
        self.l2.energy(gpu_mhz, &mut e);
        e
    }
}

/// Inject a hook's packet (tagged [`HOOK_TAG`], delivered to the hook at `dst`).
pub(crate) fn send(net: &mut dyn Network, next_id: &mut u64, src: usize, dst: usize, class: Class, flits: u32, tag: u64) {
    assert!(tag & HOOK_TAG == 0, "hook packet tag {tag:#x} uses the HOOK_TAG bit");
    *next_id += 1;
    net.inject(Packet { id: *next_id, src, dst, class, flits: flits.max(1), tag: tag | HOOK_TAG, injected_at: 0 });
}

fn unexpected(place: &str, pkt: &Packet, now: u64) -> ! {
    panic!("cycle {now}: hook packet {pkt:?} arrived at a {place} whose hook does not take packets (a block sent it to a node without its hook)")
}
