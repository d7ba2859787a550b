//! The GPU top level: SMs, memory partitions and the network, the per-cycle loop, and
//! [`run`], which executes a [`Launch`] and returns a [`GpuReport`].
//!
//! Our choices: one clock for SMs, LLC and network (DRAM has its own, [`super::dram`]);
//! L1s are invalidated between kernels, the LLC keeps its contents; the run ends when the
//! last CTA of the last kernel retires (dirty LLC lines are not flushed).
//!
//! Per GPU cycle (our order): (1) every memory partition runs a cycle (taking requests
//! that arrived, replying); (2) every SM takes the replies that arrived; (3) every SM
//! with resident CTAs runs a cycle (issuing requests); (4) the CTA dispatcher hands out
//! CTAs; (5) the network steps once. SMs without resident CTAs are skipped (exact: they
//! have no state that changes). Kernels of a launch run back to back in order (stream
//! semantics); each starts when the previous one's last CTA retired.
//!
//! Running ahead (exact, [`RunAhead::On`]): after its cycle in (3), an SM whose next
//! cycles touch nothing another part of the GPU sees ([`Sm::runs_alone`]: no request in
//! flight or queued, an empty LD/ST unit, no warp about to issue a memory instruction
//! outside shared memory or a `printf`) and that no CTA can reach (no room, or the
//! dispatcher has none left) runs its following cycles at once, up to [`RUN_AHEAD`]
//! of them, until that stops being true; the GPU then skips it up to the cycle it
//! reached, and the dispatcher sees it only from there. Nothing it does in those
//! cycles reaches another SM, a partition or the network, so the order in which the
//! SMs run them does not matter; it keeps one SM's warps, registers and scoreboard in
//! the host's caches (the compute-bound kernels' gain). Not with hooks or throttled
//! SMs, whose cycles interact through the hook.
//!
//! Hooks ([`super::hooks`]): in (2) packets for an SM's network hook go to it and its
//! cycle runs; an SM whose throttle slows its clock skips its cycle in (3) in the
//! cycles its clock does not tick, and a drained SM gets no CTA in (4); the L2 hook's
//! cycle runs between (4) and (5) and sees kernel begin and end.

use std::sync::Arc;

use crate::network::{Class, Network, Packet};

use super::config::GpuConfig;
use super::core::{CoreFault, Sm, SmPorts};
use super::cta::{occupancy, CtaDispatcher, KernelRun};
use super::hooks::{self, CoreControl, CorePort, HookCounters, HookSet, SmThrottle, HOOK_TAG};
use super::launch::{Arg, Elem, HostBuffer, HostBuffers, Launch, LaunchError};
use super::mapping::AddressMap;
use super::mempart::MemPartition;
use super::memspace::DeviceMemory;
use super::net::{build, NetError};
use super::stats::*;
use super::txn::TxnTable;
use super::workloads;

/// How many cycles at most an SM runs ahead of the GPU at once.
const RUN_AHEAD: u64 = 4096;

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Network(#[from] NetError),
    /// The `[hooks]` of the config do not validate (a config changed after loading).
    #[error("{0}")]
    Hooks(crate::config::FieldError),
    #[error("kernel `{kernel}` cannot run on this GPU: {reason}")]
    DoesNotFit { kernel: String, reason: String },
    #[error("{file}:{line}: kernel `{kernel}`, SM {sm}, warp slot {warp}, cycle {cycle}: {message}")]
    Fault { file: String, line: u32, kernel: String, sm: usize, warp: usize, cycle: u64, message: String },
    #[error("no progress for {idle} cycles at cycle {cycle} in kernel `{kernel}` (deadlock?): {detail}")]
    Deadlock { kernel: String, cycle: u64, idle: u64, detail: String },
    #[error("cycle limit of {0} cycles reached before the launch finished (raise it with --max-cycles)")]
    CycleLimit(u64),
    /// The launch does not fit this GPU or its `[check]` cannot run (found before the
    /// simulation starts; bad input, exit status 2 at the CLI).
    #[error("{0}")]
    BadLaunch(super::launch::LaunchError),
    #[error("launch `{launch}`: {message}")]
    Launch { launch: String, message: String },
    #[error("reference `{name}`: {message}")]
    Reference { name: String, message: String },
}

/// The cycle limit of `gpuforge sim` without `--max-cycles` (our choice: far above the
/// shipped workloads, a few minutes of simulation at most).
pub const DEFAULT_MAX_CYCLES: u64 = 50_000_000;

/// Options of one run.
pub struct RunOptions<'a> {
    /// Seed for buffer generators without their own seed.
    pub seed: u64,
    /// Called every `progress_every` cycles with (cycles, warp instructions so far).
    pub progress: Option<&'a mut dyn FnMut(u64, u64)>,
    pub progress_every: u64,
    /// Stop with [`SimError::CycleLimit`] after this many cycles (the CLI always sets
    /// one: [`DEFAULT_MAX_CYCLES`] unless `--max-cycles` is given).
    pub max_cycles: Option<u64>,
    /// Cycles without an issued instruction or a delivered packet before
    /// [`SimError::Deadlock`].
    pub watchdog: u64,
    /// Compare outputs with the reference named in the launch's `[check]`.
    pub check: bool,
    /// Whether SMs run ahead of the GPU while they touch nothing shared (exact: the
    /// same report either way; `Off` is the plain cycle-by-cycle loop).
    pub run_ahead: RunAhead,
}

/// An SM that touches nothing shared runs ahead of the others (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RunAhead {
    #[default]
    On,
    Off,
    /// Planted bug: runs ahead while the SM has room for a CTA the dispatcher still
    /// holds, so the CTA starts in another cycle (the equality tests must catch it).
    PlantedIgnoreDispatch,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions { seed: 1, progress: None, progress_every: 4096, max_cycles: None, watchdog: 1_000_000, check: true, run_ahead: RunAhead::On }
    }
}

/// A GPU built from a config.
pub struct Gpu {
    pub cfg: GpuConfig,
    pub sms: Vec<Sm>,
    pub parts: Vec<MemPartition>,
    pub net: Box<dyn Network>,
    pub txns: TxnTable,
    pub map: AddressMap,
    pub mem: DeviceMemory,
    pub now: u64,
    /// The hooks outside the SMs (the SMs own their issue hooks).
    pub hooks: HookSet,
    /// Per SM: CTA dispatch and clock (set by the L2 hook), and the clock's phase.
    pub throttle: Vec<SmThrottle>,
    clock_phase: Vec<u32>,
    kernels: Vec<KernelReport>,
    /// SM-cycles of static power not drawn under throttles (drained SMs power-gated,
    /// slower clocks at a lower voltage: [`SmThrottle::static_share`]); 0 without.
    static_unpowered: f64,
}

impl Gpu {
    /// The GPU a config describes: its network and its hooks.
    pub fn new(cfg: &GpuConfig) -> Result<Gpu, SimError> {
        Self::build(cfg, build(&cfg.network)?, hooks::build(cfg).map_err(SimError::Hooks)?)
    }

    /// Build with a given network (for tests and for networks built elsewhere).
    pub fn with_network(cfg: &GpuConfig, net: Box<dyn Network>) -> Result<Gpu, SimError> {
        Self::build(cfg, net, hooks::build(cfg).map_err(SimError::Hooks)?)
    }

    /// Build with given hooks (for tests and for hooks built elsewhere).
    pub fn with_hooks(cfg: &GpuConfig, hooks: HookSet) -> Result<Gpu, SimError> {
        Self::build(cfg, build(&cfg.network)?, hooks)
    }

    /// Build with a given network and hooks.
    pub fn build(cfg: &GpuConfig, net: Box<dyn Network>, mut hooks: HookSet) -> Result<Gpu, SimError> {
        if net.nodes() < cfg.network.nodes {
            return Err(NetError::TooFewNodes { have: net.nodes(), need: cfg.network.nodes }.into());
        }
        assert!(
            hooks.issue.len() == cfg.sms as usize && hooks.core_net.len() == cfg.sms as usize && hooks.parts.len() == cfg.mem_nodes as usize,
            "hook set not built for this config"
        );
        let mut sms: Vec<Sm> = (0..cfg.sms as usize).map(|i| Sm::new(i, cfg)).collect();
        for (sm, h) in sms.iter_mut().zip(hooks.issue.drain(..)) {
            sm.set_issue_hook(h);
        }
        Ok(Gpu {
            cfg: cfg.clone(),
            sms,
            parts: (0..cfg.mem_nodes as usize).map(|i| MemPartition::new(i, cfg)).collect(),
            net,
            txns: TxnTable::default(),
            map: AddressMap::new(&cfg.mapping, &cfg.dram, cfg.mem_nodes),
            mem: DeviceMemory::new(),
            now: 0,
            hooks,
            throttle: vec![SmThrottle::FULL; cfg.sms as usize],
            clock_phase: vec![0; cfg.sms as usize],
            kernels: Vec::new(),
            static_unpowered: 0.0,
        })
    }

    fn warp_insts(&self) -> u64 {
        self.sms.iter().map(|s| s.issue.warp_insts).sum()
    }

    /// Run one kernel launch to completion.
    pub fn run_kernel(&mut self, run: &KernelRun, opts: &mut RunOptions<'_>) -> Result<(), SimError> {
        let start = self.now;
        let insts_before = self.warp_insts();
        self.mem.install_module(&run.kernel.file, &run.kernel.module_image);
        self.mem.select_textures(&run.kernel.textures);
        for sm in &mut self.sms {
            sm.start_kernel(run);
        }
        let mut disp = CtaDispatcher::new(run.total_ctas());
        let sm_nodes = self.cfg.network.sm_nodes.clone();
        let mem_nodes = self.cfg.network.mem_nodes.clone();
        let flit_bytes = self.cfg.network.flit_bytes();
        let mut last_progress = self.now;
        let mut last_insts = insts_before;
        let mut last_delivered = self.net.stats().packets_delivered;
        // SMs may run ahead (see the module docs) without hooks or throttles
        let alone_ok = opts.run_ahead != RunAhead::Off && self.hooks.is_empty() && self.throttle.iter().all(|t| *t == SmThrottle::FULL);
        let planted = opts.run_ahead == RunAhead::PlantedIgnoreDispatch;
        self.hooks.l2.kernel_begin(self.now);
        loop {
            let now = self.now;
            for (p, h) in self.parts.iter_mut().zip(&mut self.hooks.parts) {
                p.cycle(now, self.net.as_mut(), &mut self.txns, &self.map, &sm_nodes, h, self.hooks.l2.as_mut());
            }
            for (sm, h) in self.sms.iter_mut().zip(&mut self.hooks.core_net) {
                while let Some(mut pk) = self.net.eject(sm.node) {
                    if pk.tag & HOOK_TAG != 0 {
                        pk.tag &= !HOOK_TAG;
                        h.hook.arrive(now, pk);
                        h.wake = now;
                    } else {
                        sm.receive(pk, &mut self.txns, now);
                    }
                }
                if h.wake <= now {
                    let mut port = SmPort { sm, now, txns: &mut self.txns, net: self.net.as_mut(), next_id: &mut h.next_id };
                    h.wake = h.hook.cycle(now, &mut port);
                }
            }
            for ((sm, h), (t, phase)) in self.sms.iter_mut().zip(&mut self.hooks.core_net).zip(self.throttle.iter().zip(&mut self.clock_phase)) {
                if *t != SmThrottle::FULL {
                    self.static_unpowered += 1.0 - t.static_share(sm.busy());
                }
                if !sm.busy() {
                    continue;
                }
                let throttled = t.clock_num != t.clock_den;
                if throttled {
                    // a slower SM clock: tick in clock_num of every clock_den cycles (and
                    // no idle skipping, which counts every cycle)
                    sm.wake_up(now);
                    *phase += t.clock_num as u32;
                    if *phase < t.clock_den as u32 {
                        continue;
                    }
                    *phase -= t.clock_den as u32;
                } else if now <= sm.ran_to || now < sm.sleep_until {
                    continue;
                }
                let mut ports =
                    SmPorts { now, run, gmem: &mut self.mem, txns: &mut self.txns, net: self.net.as_mut(), map: &self.map, mem_nodes: &mem_nodes, flit_bytes, net_hook: h };
                let sm_id = sm.id;
                let fault = |f: CoreFault, cycle: u64| SimError::Fault {
                    file: run.kernel.file.display().to_string(),
                    line: f.line,
                    kernel: run.kernel.name.clone(),
                    sm: sm_id,
                    warp: f.warp,
                    cycle,
                    message: f.message,
                };
                sm.cycle(&mut ports).map_err(|f| fault(f, now))?;
                if throttled {
                    sm.stay_awake();
                } else if alone_ok {
                    // run ahead while the SM touches nothing shared and no CTA can
                    // arrive: until it has room for one the dispatcher still holds, or
                    // a cycle limit
                    // (its progress shows early: half the watchdog at most, so a
                    // stretch the others idle through cannot look like a deadlock)
                    let limit = opts.max_cycles.unwrap_or(u64::MAX).min(now + RUN_AHEAD.min(opts.watchdog / 2).max(1));
                    let mut t = now;
                    while sm.runs_alone() && (disp.done() || !sm.has_room(run) || planted) && sm.busy() {
                        let next = sm.sleep_until.max(t + 1);
                        if next >= limit {
                            break;
                        }
                        ports.now = next;
                        sm.cycle(&mut ports).map_err(|f| fault(f, next))?;
                        t = next;
                    }
                    sm.ran_to = t;
                }
            }
            let sms = &mut self.sms;
            let throttle = &self.throttle;
            // (most cycles no SM has room: the dispatcher would offer none a CTA)
            if !disp.done() && sms.iter().any(|s| s.ran_to <= now && s.has_room(run)) {
                disp.cycle(sms.len(), |i, id| {
                    // (an SM that ran ahead has its future state: it had no room till then)
                    if sms[i].ran_to <= now && sms[i].has_room(run) && throttle[i].dispatch {
                        sms[i].launch_cta(run, id, now);
                        true
                    } else {
                        false
                    }
                });
            }
            if self.hooks.l2_wake <= now {
                self.l2_hook_cycle(now);
            }
            self.net.step();
            self.now += 1;
            if disp.done() && self.sms.iter().all(|s| !s.busy() && s.ran_to < self.now) {
                break;
            }
            // progress, limits, watchdog
            if self.now.is_multiple_of(256) {
                let insts = self.warp_insts();
                let delivered = self.net.stats().packets_delivered;
                if insts != last_insts || delivered != last_delivered {
                    last_progress = self.now;
                    last_insts = insts;
                    last_delivered = delivered;
                } else if self.now - last_progress > opts.watchdog {
                    let detail = self.sms.iter().filter(|s| s.busy()).take(2).map(|s| format!("SM {}: {}", s.id, s.describe_waits())).collect::<Vec<_>>().join(" | ");
                    return Err(SimError::Deadlock { kernel: run.kernel.name.clone(), cycle: self.now, idle: self.now - last_progress, detail });
                }
            }
            if let Some(m) = opts.max_cycles {
                if self.now >= m {
                    return Err(SimError::CycleLimit(m));
                }
            }
            if opts.progress_every > 0 && self.now.is_multiple_of(opts.progress_every) {
                if let Some(cb) = opts.progress.as_mut() {
                    cb(self.now, self.warp_insts());
                }
            }
        }
        self.hooks.l2.kernel_end(self.now);
        self.kernels.push(KernelReport {
            name: run.kernel.name.clone(),
            grid: run.grid,
            block: run.block,
            ctas: run.total_ctas(),
            ctas_per_sm: run.ctas_per_sm,
            occupancy_limit: run.limit.name().to_string(),
            regs_per_thread: run.regs_per_thread,
            start_cycle: start,
            cycles: self.now - start,
            warp_insts: self.warp_insts() - insts_before,
        });
        Ok(())
    }

    fn l2_hook_cycle(&mut self, now: u64) {
        let line_bytes = self.cfg.l1.line_bytes as u64;
        let mut ctl = Control { sms: &self.sms, throttle: &mut self.throttle, parts: &mut self.parts, mem: &mut self.mem, map: &self.map, line_bytes };
        self.hooks.l2_wake = self.hooks.l2.cycle(now, &mut ctl);
    }

    /// One GPU cycle with no kernel running (after the last kernel, while the L2 hook
    /// has work [`pending`](super::hooks::L2Hook::pending)): the memory partitions, the
    /// L2 hook in the cycles it asked for, the network. No SM has work, so none runs.
    pub fn idle_cycle(&mut self) {
        let now = self.now;
        let sm_nodes = self.cfg.network.sm_nodes.clone();
        for (p, h) in self.parts.iter_mut().zip(&mut self.hooks.parts) {
            p.cycle(now, self.net.as_mut(), &mut self.txns, &self.map, &sm_nodes, h, self.hooks.l2.as_mut());
        }
        for (sm, t) in self.sms.iter_mut().zip(&self.throttle) {
            while let Some(pk) = self.net.eject(sm.node) {
                sm.receive(pk, &mut self.txns, now);
            }
            if *t != SmThrottle::FULL {
                self.static_unpowered += 1.0 - t.static_share(sm.busy());
            }
        }
        if self.hooks.l2_wake <= now {
            self.l2_hook_cycle(now);
        }
        self.net.step();
        self.now += 1;
    }

    /// Assemble the report.
    pub fn report(&self, launch: &str, seed: u64, checks: Vec<CheckReport>) -> GpuReport {
        let mut r = GpuReport {
            config: self.cfg.name.clone(),
            launch: launch.to_string(),
            seed,
            sms: self.cfg.sms,
            mem_nodes: self.cfg.mem_nodes,
            clock_mhz: self.cfg.clock_mhz,
            cycles: self.now,
            kernels: self.kernels.clone(),
            checks,
            printf: self.mem.printf_output().to_string(),
            ..Default::default()
        };
        let mut occupancy = super::occupancy::OccupancySums::default();
        for sm in &self.sms {
            let i = &sm.issue;
            r.issue.warp_insts += i.warp_insts;
            r.issue.thread_insts += i.thread_insts;
            for k in 0..6 {
                r.issue.by_class[k] += i.by_class[k];
            }
            r.issue.issue_slots += i.issue_slots;
            let (a, b) = (&mut r.issue.stalls, &i.stalls);
            a.mem_data += b.mem_data;
            a.alu_data += b.alu_data;
            a.fu_busy += b.fu_busy;
            a.lsu_busy += b.lsu_busy;
            a.barrier += b.barrier;
            a.fence += b.fence;
            a.fetch += b.fetch;
            a.other += b.other;
            let l = &sm.l1.stats;
            r.l1.read_accesses += l.read_accesses;
            r.l1.read_hits += l.read_hits;
            r.l1.read_misses += l.read_misses;
            r.l1.mshr_merges += l.mshr_merges;
            r.l1.reservation_fails += l.reservation_fails;
            r.l1.writes += l.writes;
            r.l1.write_hits += l.write_hits;
            r.l1.bypass_reads += l.bypass_reads;
            r.l1.atomics += l.atomics;
            r.l1.fills += l.fills;
            r.shmem.accesses += sm.shmem.accesses;
            r.shmem.conflict_cycles += sm.shmem.conflict_cycles;
            r.shmem.max_degree = r.shmem.max_degree.max(sm.shmem.max_degree);
            let s = &sm.syncs;
            r.sync.barrier_warps += s.barrier_warps;
            r.sync.barriers_completed += s.barriers_completed;
            r.sync.barrier_wait_cycles += s.barrier_wait_cycles;
            r.sync.barrier_lost_cycles += s.barrier_lost_cycles;
            r.sync.barrier_imbalance_cycles += s.barrier_imbalance_cycles;
            r.sync.barrier_contention_cycles += s.barrier_contention_cycles;
            r.sync.barrier_fence_cycles += s.barrier_fence_cycles;
            r.sync.barrier_rampup_cycles += s.barrier_rampup_cycles;
            r.sync.fences += s.fences;
            r.sync.fence_wait_cycles += s.fence_wait_cycles;
            occupancy.add(&sm.occupancy);
            r.load_source.add(&sm.load_source);
            r.miss_latency.add(&sm.miss_latency);
            let mut sr = sm.report.clone();
            sr.l1_read_hits = l.read_hits;
            sr.l1_read_misses = l.read_misses;
            r.per_sm.push(sr);
        }
        r.occupancy = OccupancyStats::from_sums(&occupancy);
        r.load_source.finish();
        r.miss_latency.finish();
        // the first kernel's threadblock: the earliest trace
        r.occupancy_trace = self.sms.iter().filter_map(|sm| sm.trace.clone()).filter(|t| !t.in_flight.is_empty()).min_by_key(|t| t.start);
        for p in &self.parts {
            let l = &p.llc.stats;
            r.llc.reads += l.reads;
            r.llc.atomics += l.atomics;
            r.llc.read_hits += l.read_hits;
            r.llc.read_misses += l.read_misses;
            r.llc.mshr_merges += l.mshr_merges;
            r.llc.writes += l.writes;
            r.llc.write_hits += l.write_hits;
            r.llc.writebacks += l.writebacks;
            r.llc.fills += l.fills;
            r.llc.blocked += l.blocked;
            let d = &p.dram.stats;
            r.dram.reads += d.reads;
            r.dram.writes += d.writes;
            r.dram.activates += d.activates;
            r.dram.precharges += d.precharges;
            r.dram.bus_busy_cycles += d.bus_busy_cycles;
            r.dram.dram_cycles += d.dram_cycles;
        }
        let mut counters = HookCounters::new();
        for sm in &self.sms {
            sm.hook_counters(&mut counters);
        }
        self.hooks.counters(&mut counters);
        r.hooks = counters;
        let ns = self.net.stats();
        r.noc = NocReport { description: self.net.describe(), mean_latency: ns.mean_latency(), mean_hops: ns.mean_hops(), stats: ns };
        r.warp_insts = r.issue.warp_insts;
        r.thread_insts = r.issue.thread_insts;
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        r.ipc = ratio(r.warp_insts, r.cycles);
        r.l1_hit_rate = ratio(r.l1.read_hits, r.l1.read_accesses);
        r.llc_hit_rate = ratio(r.llc.read_hits, r.llc.reads + r.llc.atomics);
        let line = self.cfg.l1.line_bytes as f64;
        let col = r.dram.reads + r.dram.writes;
        r.dram_bandwidth_gbps = if r.cycles == 0 { 0.0 } else { col as f64 * line * self.cfg.clock_mhz as f64 / (r.cycles as f64 * 1000.0) };
        r.dram_peak_gbps = self.cfg.mem_nodes as f64 * self.cfg.dram.bus_bytes as f64 * self.cfg.dram.clock_mhz as f64 / 1000.0;
        r.dram_utilization = ratio(r.dram.bus_busy_cycles, r.dram.dram_cycles);
        r.dram_row_hit_rate = if col == 0 { 0.0 } else { 1.0 - r.dram.activates as f64 / col as f64 };
        r.energy = energy(&self.cfg, &r);
        if self.static_unpowered > 0.0 {
            // the static energy throttled SMs did not draw (gated, or at a lower voltage)
            let gpu_hz = self.cfg.clock_mhz as f64 * 1e6;
            r.energy.add(&[], -self.static_unpowered * self.cfg.energy.sm_static_w / gpu_hz * 1e9);
        }
        let beside = self.hooks.energy(self.cfg.clock_mhz);
        r.energy.add(&beside.events, beside.static_nj);
        r
    }
}

/// A run's energy from its counters: every event of [`crate::energy`] the GPU model
/// counts. Lane operations by class are estimated from warp instructions by class times
/// the run's mean active lanes (the issue stage counts active lanes in total, not by
/// class); memory-class instructions spend their energy in the L1, shared memory and
/// beyond, not in a functional unit.
pub fn energy(cfg: &GpuConfig, r: &GpuReport) -> crate::energy::EnergyReport {
    use crate::energy::{account, Part};
    let t = &cfg.energy;
    let lanes = if r.warp_insts == 0 { 0.0 } else { r.thread_insts as f64 / r.warp_insts as f64 };
    let class = |k: usize| r.issue.by_class[k] as f64 * lanes;
    let line_bits = cfg.l1.line_bytes as f64 * 8.0;
    let flit_bits = cfg.network.flit_bytes() as f64 * 8.0;
    let flit_hops = r.noc.stats.flit_hops_sum as f64;
    let events = [
        ("warp_inst", Part::Core, r.warp_insts as f64, t.warp_inst_pj),
        ("thread_inst", Part::Core, r.thread_insts as f64, t.thread_inst_pj),
        ("int_op", Part::Core, class(0), t.int_op_pj),
        ("fp32_op", Part::Core, class(1), t.fp32_op_pj),
        ("fp64_op", Part::Core, class(2), t.fp64_op_pj),
        ("sfu_op", Part::Core, class(3), t.sfu_op_pj),
        ("l1_access", Part::L1, (r.l1.read_accesses + r.l1.writes + r.l1.atomics) as f64, t.l1_access_pj),
        ("shmem_access", Part::L1, (r.shmem.accesses + r.shmem.conflict_cycles) as f64, t.shmem_access_pj),
        ("router_bit", Part::Noc, flit_hops * flit_bits, t.router_bit_pj),
        ("link_bit", Part::Noc, flit_hops * flit_bits, t.link_bit_pj),
        ("llc_access", Part::Llc, (r.llc.reads + r.llc.writes + r.llc.atomics + r.llc.fills) as f64, t.llc_access_pj),
        ("dram_activate", Part::Dram, r.dram.activates as f64, t.dram_activate_pj * cfg.dram.row_bytes as f64 / 4096.0),
        ("dram_bit", Part::Dram, (r.dram.reads + r.dram.writes) as f64 * line_bits, t.dram_bit_pj),
    ];
    let static_w = cfg.sms as f64 * t.sm_static_w + cfg.mem_nodes as f64 * t.mem_static_w;
    account(&events, static_w, r.cycles as f64 / (cfg.clock_mhz as f64 * 1e6))
}

/// Encode the parameter buffer of a kernel launch.
fn param_bytes(spec: &super::launch::KernelSpec, addrs: &[u64], iter: u64) -> Vec<u8> {
    let k = &spec.kernel;
    let mut out = vec![0u8; k.param_bytes as usize];
    for (a, p) in spec.args.iter().zip(&k.params) {
        let v = match a {
            Arg::Buffer(i) => addrs[*i],
            Arg::Iter => iter,
            Arg::Scalar(v) => *v,
            Arg::Bytes { bytes, buffers } => {
                let at = p.offset as usize;
                out[at..at + bytes.len()].copy_from_slice(bytes);
                for &(off, bi) in buffers {
                    let o = at + off as usize;
                    out[o..o + 8].copy_from_slice(&addrs[bi].to_le_bytes());
                }
                continue;
            }
        };
        let n = (p.size as usize).min(8);
        out[p.offset as usize..p.offset as usize + n].copy_from_slice(&v.to_le_bytes()[..n]);
    }
    out
}

/// Run `launch` on the GPU described by `cfg`.
pub fn run(cfg: &GpuConfig, launch: &Launch, opts: RunOptions<'_>) -> Result<GpuReport, SimError> {
    let gpu = Gpu::new(cfg)?;
    run_on(gpu, launch, opts)
}

/// Run `launch` on an already built GPU (e.g. one with a custom network).
pub fn run_on(gpu: Gpu, launch: &Launch, opts: RunOptions<'_>) -> Result<GpuReport, SimError> {
    run_capture(gpu, launch, opts).map(|(r, _)| r)
}

/// Like [`run_on`], also returning every buffer's final contents.
///
/// Before anything is simulated: the buffers must fit the device memory, every kernel
/// must fit an SM (and its `.local` storage the memory), and the `[check]` reference runs
/// on the initial buffers (check parameters it cannot take are bad input, not a failed
/// check). Kernels then run in order, host loops repeating their range while the flag is
/// set.
pub fn run_capture(mut gpu: Gpu, launch: &Launch, mut opts: RunOptions<'_>) -> Result<(GpuReport, HostBuffers), SimError> {
    let cfg_field = format!("gpu.memory_bytes of {}", if gpu.cfg.path.as_os_str().is_empty() { gpu.cfg.name.clone() } else { gpu.cfg.path.display().to_string() });
    launch.check_fits(gpu.cfg.memory_bytes, &cfg_field).map_err(SimError::BadLaunch)?;
    let mut fits = Vec::new();
    for (i, spec) in launch.kernels.iter().enumerate() {
        let k = &spec.kernel;
        let threads = spec.block.iter().product::<u32>();
        let shared = if k.uses_dynamic_shared { k.dynamic_shared_offset.saturating_add(spec.dynamic_shared) } else { k.shared_static_bytes };
        let fit = occupancy(&gpu.cfg.core, threads, spec.regs_per_thread, shared).map_err(|reason| SimError::DoesNotFit { kernel: k.name.clone(), reason })?;
        let local = gpu.cfg.sms as u64 * gpu.cfg.core.warp_slots() as u64 * 32 * k.local_bytes as u64;
        if local > gpu.cfg.memory_bytes {
            return Err(SimError::BadLaunch(LaunchError::Field(crate::config::ConfigError {
                file: launch.path.clone(),
                field: format!("kernel[{i}].ptx"),
                message: format!("`{}` has {} B of .local storage per thread: {local} B for every thread the GPU holds exceed the device memory", k.name, k.local_bytes),
                allowed: Some(format!("at most {} B in total ({cfg_field})", gpu.cfg.memory_bytes)),
            })));
        }
        fits.push((threads, shared, fit));
    }
    let host = launch.materialize(opts.seed);
    let expected = match (&launch.check, opts.check) {
        (Some(super::launch::CheckSpec { reference: Some(r), params, .. }), true) => Some(workloads::reference(r, &host, params).map_err(|message| {
            SimError::BadLaunch(LaunchError::Field(crate::config::ConfigError {
                file: launch.path.clone(),
                field: "check.params".into(),
                message: format!("reference `{r}`: {message}"),
                allowed: Some(format!("parameters and buffers the `{r}` reference can take")),
            }))
        })?),
        _ => None,
    };
    let mut addrs = Vec::new();
    for b in &launch.buffers {
        let h = &host[&b.name];
        let a = gpu.mem.alloc_at(h.data.len() as u64, b.align, b.skew);
        gpu.mem.write(a, &h.data).expect("just allocated");
        addrs.push(a);
    }
    let bufs: Vec<hooks::LaunchBuffer> =
        launch.buffers.iter().zip(&addrs).map(|(b, &addr)| hooks::LaunchBuffer { name: b.name.clone(), addr, bytes: host[&b.name].data.len() as u64 }).collect();
    gpu.hooks.l2.buffers(&bufs).map_err(|e| SimError::BadLaunch(LaunchError::Field(e.in_file(&launch.path))))?;
    let launch_kernel = |gpu: &mut Gpu, opts: &mut RunOptions<'_>, i: usize, iter: u64| -> Result<(), SimError> {
        let spec = &launch.kernels[i];
        let (threads, shared, (ctas_per_sm, limit)) = fits[i];
        let run = KernelRun {
            kernel: Arc::clone(&spec.kernel),
            params: param_bytes(spec, &addrs, iter),
            grid: spec.grid,
            block: spec.block,
            threads_per_cta: threads,
            warps_per_cta: threads.div_ceil(32),
            shared_bytes: shared,
            regs_per_thread: spec.regs_per_thread,
            ctas_per_sm,
            limit,
        };
        // the launch file's `textures`: one-channel texels, the buffer's elements
        for (t, &b) in &spec.textures {
            gpu.mem.bind_texture(t, super::memspace::TexBinding { addr: addrs[b], elems: launch.buffers[b].len as u64, channels: 1 });
        }
        gpu.run_kernel(&run, opts)
    };
    let mut i = 0;
    while i < launch.kernels.len() {
        if let Some(l) = launch.loops.iter().find(|l| l.first == i) {
            let flag = addrs[l.flag];
            let mut pass = 0u64;
            loop {
                gpu.mem.write(flag, &0u32.to_le_bytes()).expect("flag buffer");
                for k in l.first..=l.last {
                    launch_kernel(&mut gpu, &mut opts, k, pass)?;
                }
                pass += 1;
                if gpu.mem.read(flag, 4).expect("flag buffer") == [0, 0, 0, 0] {
                    break;
                }
                if pass == l.max_iterations as u64 {
                    return Err(SimError::Launch {
                        launch: launch.name.clone(),
                        message: format!("`{}` still set after max_iterations = {}", launch.buffers[l.flag].name, l.max_iterations),
                    });
                }
            }
            i = l.last + 1;
        } else {
            for iter in 0..launch.kernels[i].repeat as u64 {
                launch_kernel(&mut gpu, &mut opts, i, iter)?;
            }
            i += 1;
        }
    }
    while gpu.hooks.l2.pending() {
        gpu.idle_cycle();
        if let Some(m) = opts.max_cycles {
            if gpu.now >= m {
                return Err(SimError::CycleLimit(m));
            }
        }
    }
    let mut finals = HostBuffers::new();
    for (b, &a) in launch.buffers.iter().zip(&addrs) {
        let data = gpu.mem.read(a, b.len * b.elem.bytes()).expect("buffer").to_vec();
        finals.insert(b.name.clone(), HostBuffer { name: b.name.clone(), elem: b.elem, data });
    }
    // checks
    let mut checks = Vec::new();
    if let (true, Some(c)) = (opts.check, &launch.check) {
        if let (Some(expected), Some(r)) = (&expected, &c.reference) {
            for &bi in &c.outputs {
                let got = &finals[&launch.buffers[bi].name];
                let want = expected.get(&got.name).ok_or_else(|| SimError::Reference { name: r.clone(), message: format!("produces no buffer `{}`", got.name) })?;
                checks.push(compare(got, want, c.rtol, c.atol));
            }
        }
        for e in &c.expect {
            let got = &finals[&launch.buffers[e.buffer].name];
            let mut r = compare(got, &e.expected, e.rtol, e.atol);
            r.expected_file = Some(e.file.display().to_string());
            checks.push(r);
        }
    }
    let mut report = gpu.report(&launch.name, opts.seed, checks);
    if let Some(n) = launch.items {
        report.items = Some(n);
        report.giga_items_per_s = Some(if report.cycles == 0 { 0.0 } else { n as f64 * gpu.cfg.clock_mhz as f64 / (report.cycles as f64 * 1000.0) });
    }
    Ok((report, finals))
}

/// Compare a buffer with its expected contents.
pub fn compare(got: &HostBuffer, want: &HostBuffer, rtol: f64, atol: f64) -> CheckReport {
    let mut r = CheckReport { buffer: got.name.clone(), elements: got.len() as u64, passed: true, ..Default::default() };
    if got.len() != want.len() {
        r.passed = false;
        r.first_mismatch = Some(format!("length {} vs expected {}", got.len(), want.len()));
    }
    let n = got.len().min(want.len());
    match (got.elem, want.elem) {
        // (the element type decoded once for the buffer, not per element)
        (Elem::F32, Elem::F32) => compare_elems(&mut r, n, true, |i| f32_at(&got.data, i), |i| f32_at(&want.data, i), |_| true, rtol, atol),
        _ => {
            let esz = (got.elem.bytes(), want.elem.bytes());
            let same_bytes = |i: usize| got.data[i * esz.0..(i + 1) * esz.0] == want.data[i * esz.1..(i + 1) * esz.1];
            compare_elems(&mut r, n, got.elem.is_float(), |i| got.get(i), |i| want.get(i), same_bytes, rtol, atol)
        }
    }
    r
}

fn f32_at(data: &[u8], i: usize) -> f64 {
    f32::from_le_bytes(data[4 * i..4 * i + 4].try_into().expect("4 bytes")) as f64
}

/// [`compare`]'s element loop: floats within `atol + rtol * |want|` (or both NaN),
/// other elements equal byte for byte (`same_bytes`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn compare_elems(r: &mut CheckReport, n: usize, float: bool, got: impl Fn(usize) -> f64, want: impl Fn(usize) -> f64, same_bytes: impl Fn(usize) -> bool, rtol: f64, atol: f64) {
    for i in 0..n {
        let ok = if float {
            let (g, w) = (got(i), want(i));
            let err = (g - w).abs();
            if err.is_finite() {
                r.max_abs_error = r.max_abs_error.max(err);
            }
            g == w || (g.is_nan() && w.is_nan()) || err <= atol + rtol * w.abs()
        } else {
            same_bytes(i)
        };
        if !ok {
            r.mismatches += 1;
            if r.first_mismatch.is_none() {
                r.first_mismatch = Some(format!("[{i}] = {}, expected {}", got(i), want(i)));
            }
            r.passed = false;
        }
    }
}

/// What the GPU offers an SM's network hook in the hook's cycle.
struct SmPort<'a> {
    sm: &'a mut Sm,
    now: u64,
    txns: &'a mut TxnTable,
    net: &'a mut dyn Network,
    next_id: &'a mut u64,
}

impl CorePort for SmPort<'_> {
    fn node(&self) -> usize {
        self.sm.node
    }

    fn can_send(&self, class: Class) -> bool {
        self.net.can_inject(self.sm.node, class)
    }

    fn send(&mut self, dst: usize, class: Class, flits: u32, tag: u64) {
        hooks::send(self.net, self.next_id, self.sm.node, dst, class, flits, tag);
    }

    fn forward(&mut self, pkt: Packet) {
        self.net.inject(pkt);
    }

    fn deliver(&mut self, pkt: Packet) {
        self.sm.receive(pkt, self.txns, self.now);
    }

    fn wake_sm(&mut self) {
        self.sm.wake_up(self.now);
    }

    fn shared_port_free(&self) -> bool {
        self.sm.shared_port_free(self.now)
    }

    fn alu_issued_at(&self, cycle: u64) -> bool {
        self.sm.alu_issued_at(cycle)
    }
}

/// The core-scheduler controls the GPU offers the L2's hook.
struct Control<'a> {
    sms: &'a [Sm],
    throttle: &'a mut [SmThrottle],
    parts: &'a mut [MemPartition],
    mem: &'a mut DeviceMemory,
    map: &'a AddressMap,
    line_bytes: u64,
}

impl CoreControl for Control<'_> {
    fn sms(&self) -> usize {
        self.sms.len()
    }

    fn resident_ctas(&self, sm: usize) -> u32 {
        self.sms[sm].resident_ctas
    }

    fn throttle(&self, sm: usize) -> SmThrottle {
        self.throttle[sm]
    }

    fn set_throttle(&mut self, sm: usize, t: SmThrottle) {
        assert!(t.clock_num > 0 && t.clock_num <= t.clock_den, "SM {sm}: clock {}/{} is not in (0, 1]", t.clock_num, t.clock_den);
        self.throttle[sm] = t;
    }

    fn read_word(&self, addr: u64) -> Option<u32> {
        self.mem.read(addr, 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn write_word(&mut self, addr: u64, v: u32) -> bool {
        self.mem.write(addr, &v.to_le_bytes()).is_some()
    }

    fn l2_snoop(&mut self, addr: u64, forward_dirty: bool) -> Option<bool> {
        let line = addr & !(self.line_bytes - 1);
        let p = &mut self.parts[self.map.node(line)];
        let local = self.map.local(line) >> self.line_bytes.trailing_zeros();
        p.llc.snoop(line, local, forward_dirty)
    }

    fn l2_slice(&self, addr: u64) -> usize {
        self.map.node(addr)
    }
}
