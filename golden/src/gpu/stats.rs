//! Statistics and the run report. Every struct serializes with a fixed field order
//! (the one map, the hooks' counters, is sorted by name), so identical runs give
//! byte-identical JSON.

use std::fmt;

use crate::energy::EnergyReport;
use crate::network::NetStats;

/// Issue-stage counters of one SM (or summed over SMs).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct IssueStats {
    pub warp_insts: u64,
    /// Thread instructions: active lanes (after the guard) summed over warp instructions.
    pub thread_insts: u64,
    /// Warp instructions per functional-unit class: int, fp32, fp64, sfu, mem, ctrl.
    pub by_class: [u64; 6],
    /// Scheduler issue slots (cycles with live warps x schedulers x issue width).
    pub issue_slots: u64,
    /// Why a scheduler issue slot went unused (each unused slot counted once, under the
    /// first applicable reason in this order).
    pub stalls: StallStats,
}

/// Unused issue slots by cause.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct StallStats {
    /// A warp's next instruction waits for a load/atomic result.
    pub mem_data: u64,
    /// Waits for an ALU/SFU result (pipeline latency).
    pub alu_data: u64,
    /// Functional unit busy (initiation interval).
    pub fu_busy: u64,
    /// LD/ST unit busy (previous memory instruction still sending, L1 back-pressure,
    /// shared-memory bank conflicts).
    pub lsu_busy: u64,
    /// Warps waiting at a barrier.
    pub barrier: u64,
    /// Warps waiting on a fence.
    pub fence: u64,
    /// I-buffer empty.
    pub fetch: u64,
    /// All of the scheduler's warps finished, waiting for memory to drain or another
    /// slot of this cycle already used the ready warps.
    pub other: u64,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct L1Stats {
    pub read_accesses: u64,
    pub read_hits: u64,
    pub read_misses: u64,
    pub mshr_merges: u64,
    /// Accesses refused (MSHRs or miss queue full), retried later.
    pub reservation_fails: u64,
    pub writes: u64,
    pub write_hits: u64,
    pub bypass_reads: u64,
    pub atomics: u64,
    pub fills: u64,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ShmemStats {
    pub accesses: u64,
    /// Sum over accesses of (conflict degree - 1).
    pub conflict_cycles: u64,
    pub max_degree: u32,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct LlcStats {
    pub reads: u64,
    pub atomics: u64,
    pub read_hits: u64,
    pub read_misses: u64,
    pub mshr_merges: u64,
    pub writes: u64,
    pub write_hits: u64,
    pub writebacks: u64,
    pub fills: u64,
    /// Tag accesses refused (MSHRs full or merge limit), retried.
    pub blocked: u64,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct DramStats {
    pub reads: u64,
    pub writes: u64,
    pub activates: u64,
    pub precharges: u64,
    /// Command-clock cycles with data on the bus.
    pub bus_busy_cycles: u64,
    pub dram_cycles: u64,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SyncStats {
    /// `bar.sync` executions (warp level) and completed CTA barriers.
    pub barrier_warps: u64,
    pub barriers_completed: u64,
    /// Warp-cycles spent between issuing `bar.sync` and resuming.
    pub barrier_wait_cycles: u64,
    /// The barrier occupancy loss of tfb_bdib.md §4.4 (S4), warp-cycles: for each warp
    /// and barrier, from its arrival to its first issue after the barrier (the waiting
    /// above plus the ramp-up), split exactly into
    /// * issue contention: before the CTA's last arrival, cycles in which a lagging warp
    ///   of the CTA could have issued but its scheduler issued another CTA's warp;
    /// * load imbalance: the other cycles from the warp's arrival to the last arrival;
    /// * fence: from the last arrival to the warp's resumption (ERFs, then the EAF);
    /// * ramp-up: from the resumption to the warp's first issue after the barrier.
    pub barrier_lost_cycles: u64,
    pub barrier_imbalance_cycles: u64,
    pub barrier_contention_cycles: u64,
    pub barrier_fence_cycles: u64,
    pub barrier_rampup_cycles: u64,
    pub fences: u64,
    pub fence_wait_cycles: u64,
}

/// Warp-instruction occupancy per threadblock (tfb_bdib.md §1.1; studies S3 and S13;
/// [`super::occupancy`] defines it): warp instructions issued and not completed.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct OccupancyStats {
    /// Mean in flight per resident threadblock over its residency (`inst_cycles /
    /// cta_cycles`), and inside barrier windows, from the first warp's arrival to the
    /// threadblock's resumption (`barrier_inst_cycles / barrier_cycles`).
    pub overall: f64,
    pub during_barrier: f64,
    /// Mean lost occupancy window per barrier (S3, Fig. 5.2): from the first arrival until
    /// the in-flight count is back at its level just before it (`lost_window_cycles /
    /// windows`).
    pub lost_window: f64,
    /// The sums these divide.
    #[serde(flatten)]
    pub sums: super::occupancy::OccupancySums,
}

impl OccupancyStats {
    pub fn from_sums(s: &super::occupancy::OccupancySums) -> Self {
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        OccupancyStats {
            overall: ratio(s.inst_cycles, s.cta_cycles),
            during_barrier: ratio(s.barrier_inst_cycles, s.barrier_cycles),
            lost_window: ratio(s.lost_window_cycles, s.windows),
            sums: *s,
        }
    }
}

/// Where the bytes of loads come from (spec llc_omni_compute.md section 7 study 1, the
/// paper's Fig. 2a). Counted per L1 read access (one per line a warp's load touches),
/// its bytes being the bytes its active lanes read in that line:
/// * served by the L1: the access hits in the L1;
/// * served by the LLC: it misses in the L1 (or merges into an L1 MSHR, or bypasses the
///   L1) and the miss it waits for hits in the LLC;
/// * served by DRAM: that miss misses in the LLC (or merges into an LLC MSHR) and waits
///   for DRAM.
///
/// Loads are `ld.global` and `ld.local` (both go through the L1); atomics, stores,
/// shared memory and loads an offloading hook makes for itself are not counted. Shares
/// are of the three's sum.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct LoadSourceStats {
    pub l1_bytes: u64,
    pub llc_bytes: u64,
    pub dram_bytes: u64,
    pub l1_share: f64,
    pub llc_share: f64,
    pub dram_share: f64,
}

impl LoadSourceStats {
    pub fn add(&mut self, o: &LoadSourceStats) {
        self.l1_bytes += o.l1_bytes;
        self.llc_bytes += o.llc_bytes;
        self.dram_bytes += o.dram_bytes;
    }

    /// Set the shares from the byte counts.
    pub fn finish(&mut self) {
        let all = (self.l1_bytes + self.llc_bytes + self.dram_bytes) as f64;
        let share = |b: u64| if all == 0.0 { 0.0 } else { b as f64 / all };
        (self.l1_share, self.llc_share, self.dram_share) = (share(self.l1_bytes), share(self.llc_bytes), share(self.dram_bytes));
    }
}

/// Round trips of L1 read misses (spec llc_omni_compute.md section 7 studies 3 and 13,
/// the paper's Fig. 2b and 13), split at the stamps of [`super::txn::TxnStamps`] into
/// four phases that add up to the round trip:
/// * `request_net`: issue at the SM to arrival at the partition: the SM's miss queue,
///   the request's network interface queue, traversal, ejection;
/// * `service`: arrival to reply ready: the partition's input queue, the LLC tag
///   pipeline, and on an LLC miss the DRAM queue and access (LLC + DRAM service);
/// * `out_queue`: reply ready to its injection into the network: the partition's reply
///   (output) queue, the LLC node's injection queue in front of the network;
/// * `reply_net`: injection to delivery at the SM: the network interface's source queue
///   at the LLC node, traversal (with contention), ejection.
///
/// For the paper's three parts (Fig. 2b: NoC traversal, queuing at injection/ejection
/// ports, LLC/DRAM service) the network time both ways is split once more: its
/// `zero_load` part is what the request and the reply would take on an idle network
/// (route, VC and switch allocation, links, serialization: [`super::net::ZeroLoad`];
/// the traversal), and `net_queue = request_net + reply_net - zero_load` is the waiting
/// in network-interface queues, behind other packets in routers and at ejection. Then
/// `queue_share = (out_queue + net_queue) / round trip` and `traversal_share =
/// zero_load / round trip` (both 0 on MACRO-NoC, which has no zero-load formula here).
///
/// A miss is an SM's `Read` or `ReadBypass` transaction (L1 misses and L1-bypassing
/// loads). Replies without a full set of stamps (answered by a hook) count in
/// `unstamped`, stamps out of order (never in a correct model) in `out_of_order`;
/// neither enters the sums. The means and shares are of the `misses` counted.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct MissLatencyStats {
    pub misses: u64,
    pub unstamped: u64,
    pub out_of_order: u64,
    pub round_trip_sum: u64,
    pub request_net_sum: u64,
    pub service_sum: u64,
    pub out_queue_sum: u64,
    pub reply_net_sum: u64,
    /// The misses served by DRAM, and their round trips.
    pub dram_misses: u64,
    pub dram_round_trip_sum: u64,
    /// Network time both ways at zero load, and the rest of the network time; misses
    /// whose zero-load time is not derived (MACRO-NoC) count in `zero_load_unknown`.
    pub zero_load_sum: u64,
    pub net_queue_sum: u64,
    pub zero_load_unknown: u64,
    /// Misses whose network time was below the zero-load time (never, if it is right).
    pub zero_load_over: u64,
    pub mean_round_trip: f64,
    pub request_net_share: f64,
    pub service_share: f64,
    pub out_queue_share: f64,
    pub reply_net_share: f64,
    /// `request_net + reply_net`: the whole time in the network, both ways.
    pub net_share: f64,
    /// The paper's three parts: `queue_share + service_share + traversal_share = 1`.
    pub queue_share: f64,
    pub traversal_share: f64,
}

impl MissLatencyStats {
    /// One reply delivered to its SM at cycle `delivered`, with its transaction's stamps.
    #[inline]
    pub fn record(&mut self, s: &super::txn::TxnStamps, delivered: u64) {
        use super::txn::UNSTAMPED;
        if [s.issue, s.arrive, s.ready, s.injected].contains(&UNSTAMPED) {
            self.unstamped += 1;
            return;
        }
        if !(s.issue <= s.arrive && s.arrive <= s.ready && s.ready <= s.injected && s.injected <= delivered) {
            self.out_of_order += 1;
            return;
        }
        self.misses += 1;
        self.round_trip_sum += delivered - s.issue;
        self.request_net_sum += s.arrive - s.issue;
        self.service_sum += s.ready - s.arrive;
        self.out_queue_sum += s.injected - s.ready;
        self.reply_net_sum += delivered - s.injected;
        if s.from_dram {
            self.dram_misses += 1;
            self.dram_round_trip_sum += delivered - s.issue;
        }
        let net = (s.arrive - s.issue) + (delivered - s.injected);
        if s.zero_load == UNSTAMPED {
            self.zero_load_unknown += 1;
        } else {
            // (a network is never faster than idle: a wrong formula shows here)
            if s.zero_load > net {
                self.zero_load_over += 1;
            }
            let z = s.zero_load.min(net);
            self.zero_load_sum += z;
            self.net_queue_sum += net - z;
        }
    }

    pub fn add(&mut self, o: &MissLatencyStats) {
        self.misses += o.misses;
        self.unstamped += o.unstamped;
        self.out_of_order += o.out_of_order;
        self.round_trip_sum += o.round_trip_sum;
        self.request_net_sum += o.request_net_sum;
        self.service_sum += o.service_sum;
        self.out_queue_sum += o.out_queue_sum;
        self.reply_net_sum += o.reply_net_sum;
        self.dram_misses += o.dram_misses;
        self.dram_round_trip_sum += o.dram_round_trip_sum;
        self.zero_load_sum += o.zero_load_sum;
        self.net_queue_sum += o.net_queue_sum;
        self.zero_load_unknown += o.zero_load_unknown;
        self.zero_load_over += o.zero_load_over;
    }

    /// Set the mean and the shares from the sums.
    pub fn finish(&mut self) {
        let t = self.round_trip_sum as f64;
        let share = |x: u64| if t == 0.0 { 0.0 } else { x as f64 / t };
        self.mean_round_trip = if self.misses == 0 { 0.0 } else { t / self.misses as f64 };
        self.request_net_share = share(self.request_net_sum);
        self.service_share = share(self.service_sum);
        self.out_queue_share = share(self.out_queue_sum);
        self.reply_net_share = share(self.reply_net_sum);
        self.net_share = share(self.request_net_sum + self.reply_net_sum);
        if self.zero_load_unknown == 0 {
            self.queue_share = share(self.out_queue_sum + self.net_queue_sum);
            self.traversal_share = share(self.zero_load_sum);
        }
    }
}

/// One kernel launch (one iteration of a repeated kernel counts separately).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct KernelReport {
    pub name: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub ctas: u64,
    /// CTAs resident per SM at most (occupancy) and which limit set it.
    pub ctas_per_sm: u32,
    pub occupancy_limit: String,
    /// Registers per thread used for occupancy (the kernel's liveness estimate, or the
    /// launch file's `regs_per_thread`).
    pub regs_per_thread: u32,
    pub start_cycle: u64,
    pub cycles: u64,
    pub warp_insts: u64,
}

/// A buffer compared against the Rust reference or an expected file.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct CheckReport {
    pub buffer: String,
    pub elements: u64,
    pub mismatches: u64,
    /// First mismatch: (index, got, expected) as text.
    pub first_mismatch: Option<String>,
    pub max_abs_error: f64,
    pub passed: bool,
    /// The `[[check.expect]]` file compared with (None: the Rust reference).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_file: Option<String>,
}

impl CheckReport {
    fn against(&self) -> String {
        self.expected_file.as_ref().map(|f| format!(" vs {f}")).unwrap_or_default()
    }
}

/// Per-SM summary.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SmReport {
    pub warp_insts: u64,
    pub ctas: u64,
    pub active_cycles: u64,
    pub l1_read_hits: u64,
    pub l1_read_misses: u64,
}

/// Network summary.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct NocReport {
    pub description: String,
    pub mean_latency: f64,
    pub mean_hops: f64,
    pub stats: NetStats,
}

/// Everything a run measured.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct GpuReport {
    pub config: String,
    pub launch: String,
    pub seed: u64,
    pub sms: u32,
    pub mem_nodes: u32,
    pub clock_mhz: u32,
    pub cycles: u64,
    pub warp_insts: u64,
    pub thread_insts: u64,
    /// Warp instructions per cycle, whole GPU.
    pub ipc: f64,
    pub l1_hit_rate: f64,
    pub llc_hit_rate: f64,
    /// Achieved DRAM bandwidth, GB/s, and the configured peak.
    pub dram_bandwidth_gbps: f64,
    pub dram_peak_gbps: f64,
    /// Fraction of DRAM command cycles with data on the bus, over all channels.
    pub dram_utilization: f64,
    /// 1 - activates / column accesses.
    pub dram_row_hit_rate: f64,
    pub kernels: Vec<KernelReport>,
    pub issue: IssueStats,
    pub l1: L1Stats,
    pub shmem: ShmemStats,
    pub llc: LlcStats,
    pub dram: DramStats,
    pub sync: SyncStats,
    pub occupancy: OccupancyStats,
    /// `[stats] occupancy_trace`: one threadblock's in-flight count, cycle by cycle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupancy_trace: Option<super::occupancy::OccupancyTrace>,
    pub noc: NocReport,
    /// Where load bytes come from (L1, LLC, DRAM).
    pub load_source: LoadSourceStats,
    /// L1-miss round trips and their phases.
    pub miss_latency: MissLatencyStats,
    pub per_sm: Vec<SmReport>,
    pub checks: Vec<CheckReport>,
    /// Counters of the attached hooks (see `gpu::hooks`), by name; absent without hooks.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub hooks: std::collections::BTreeMap<String, u64>,
    /// The launch's work items (its `items`) and the throughput in 10^9 items per
    /// second at the configured clock; absent when the launch declares none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub giga_items_per_s: Option<f64>,
    /// Energy of the run by the event-energy model (`[energy]` of the config).
    pub energy: EnergyReport,
    /// Device `printf` output of the run, in execution order (absent when empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub printf: String,
}

impl GpuReport {
    /// The first failed check in one line: buffer, first mismatching index, got vs
    /// expected (None when every check passed).
    pub fn first_failure(&self) -> Option<String> {
        self.checks
            .iter()
            .find(|c| !c.passed)
            .map(|c| format!("buffer `{}`{}: {} of {} elements differ, first {}", c.buffer, c.against(), c.mismatches, c.elements, c.first_mismatch.as_deref().unwrap_or("?")))
    }

    /// Whether every reference check passed (true when there were none).
    pub fn checks_passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }

    /// JSON of all statistics (deterministic).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("report serializes")
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

impl fmt::Display for GpuReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "gpuforge sim: {} on {} ({} SMs, {} memory nodes, {} MHz)", self.launch, self.config, self.sms, self.mem_nodes, self.clock_mhz)?;
        for k in &self.kernels {
            writeln!(
                f,
                "  kernel {:<24} grid {:?} block {:?}: {} cycles, {} warp insts, {} regs/thread, {} CTAs/SM ({})",
                k.name, k.grid, k.block, k.cycles, k.warp_insts, k.regs_per_thread, k.ctas_per_sm, k.occupancy_limit
            )?;
        }
        writeln!(f, "cycles            {}", self.cycles)?;
        writeln!(f, "warp instructions {} ({} thread instructions)", self.warp_insts, self.thread_insts)?;
        writeln!(f, "IPC               {:.3} warp instructions/cycle", self.ipc)?;
        if let (Some(n), Some(g)) = (self.items, self.giga_items_per_s) {
            writeln!(f, "throughput        {g:.3} G items/s ({n} items)")?;
        }
        writeln!(f, "L1D hit rate      {} ({} reads, {} MSHR merges, {} writes)", pct(self.l1_hit_rate), self.l1.read_accesses, self.l1.mshr_merges, self.l1.writes)?;
        writeln!(f, "LLC hit rate      {} ({} reads, {} writes, {} write-backs)", pct(self.llc_hit_rate), self.llc.reads, self.llc.writes, self.llc.writebacks)?;
        writeln!(
            f,
            "DRAM              {:.1} GB/s of {:.1} GB/s peak ({} busy), row-buffer hit rate {}",
            self.dram_bandwidth_gbps,
            self.dram_peak_gbps,
            pct(self.dram_utilization),
            pct(self.dram_row_hit_rate)
        )?;
        writeln!(
            f,
            "NoC               {}: mean latency {:.1} cycles, mean hops {:.2}, {} packets",
            self.noc.description, self.noc.mean_latency, self.noc.mean_hops, self.noc.stats.packets_delivered
        )?;
        writeln!(f, "shared memory     {} accesses, {} conflict cycles", self.shmem.accesses, self.shmem.conflict_cycles)?;
        let s = &self.issue.stalls;
        let slots = self.issue.issue_slots.max(1) as f64;
        writeln!(
            f,
            "issue slots       {} used {} | stalls: mem data {} alu data {} fu {} lsu {} barrier {} fence {} fetch {} other {}",
            self.issue.issue_slots,
            pct(self.issue.warp_insts as f64 / slots),
            pct(s.mem_data as f64 / slots),
            pct(s.alu_data as f64 / slots),
            pct(s.fu_busy as f64 / slots),
            pct(s.lsu_busy as f64 / slots),
            pct(s.barrier as f64 / slots),
            pct(s.fence as f64 / slots),
            pct(s.fetch as f64 / slots),
            pct(s.other as f64 / slots)
        )?;
        writeln!(f, "energy            {}", self.energy.summary())?;
        for (name, v) in &self.hooks {
            writeln!(f, "hook {name:<13} {v}")?;
        }
        if !self.printf.is_empty() {
            writeln!(f, "printf output:")?;
            for line in self.printf.lines() {
                writeln!(f, "  {line}")?;
            }
        }
        for c in &self.checks {
            match &c.first_mismatch {
                None => writeln!(f, "check {:<12} ok ({} elements{})", c.buffer, c.elements, c.against())?,
                Some(m) => writeln!(f, "check {:<12} FAILED: {} of {} elements differ{}, first {}", c.buffer, c.mismatches, c.elements, c.against(), m)?,
            }
        }
        Ok(())
    }
}
