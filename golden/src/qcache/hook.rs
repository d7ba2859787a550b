//! `[hooks.qcache]`: the rate monitor attached to the GPU model's L2 through
//! [`L2Hook`] (spec §1.1: one monitor summing every LLC slice), acting on the SMs
//! through the core-scheduler controls (spec §1.8).
//!
//! Events (spec §1.2): an access or fill that makes a line dirty is a PRODUCE by the GPU
//! domain (`ndom - 1`); a dirty write-back is a SPILL; a dirty line forwarded to a CPU
//! core of `[hooks.qcache.cpu]` ([`super::cpu`]) is a CONSUME by that core's domain
//! (its index; the line stays in the L2, clean, so its later eviction is silent: the
//! M→O of §1.2). Without CPU cores nothing is ever CONSUMEd: on the GPU alone the
//! monitor stays in DETECT until its timeout and goes OFF, as the thesis's monitor does
//! when no producer-consumer relationship exists. Slice `p` reports on bank
//! `p mod nbanks`; events of one kind beyond one per bank and cycle wait for the next
//! cycle.
//!
//! The heterogeneous system (spec §3.1): with a `[hooks.qcache.cpu]` table the hook
//! also runs the CPU cores ([`super::cpu::CpuCluster`]) beside the GPU, one step per
//! GPU cycle before the monitor's, sharing the L2 through [`CoreControl`]'s memory side;
//! the consumers start at the producer kernel's begin (concurrent modes) or end
//! (serial), and the run goes on after the last kernel until they are done. The queue
//! is found by buffer name (`out`, `flags`, `sums`, `qctl`: workloads/qcache/); a
//! launch that lacks one of them is refused before the run starts, naming the buffer.
//!
//! Actuation (spec §1.8): a request addressed to the GPU domain goes to the GPU's core
//! scheduler ([`super::actuator::GpuActuator`]): DVFS over 5 P-states with the thesis's
//! 15-45 µs transition plus TB draining and core disable, ACKed once the new setting is
//! in effect (`actuation = "dvfs_drain"`, the default), or the earlier one clock fraction
//! applied at once (`"instant"`). Requests to a CPU core's domain set its clock one
//! P-state or more toward `clock / ratio` (slow) or `clock · ratio` (speed), after the
//! same transition, NACKed at the limit (spec §1.8, CPU actuator). A request that comes
//! while a reconfiguration is under way is NACKed; RESTORE replaces it. Requests are
//! carried out only in queue modes `qcache` and `fine_grained_qcache`; in the other
//! modes (the software techniques without Q-cache) the monitor runs and counts, and
//! every request is NACKed.
//! `trace = N` in `[hooks.qcache.cpu]` prints a timeline line every N cycles and every
//! request on stderr.
//!
//! ```toml
//! [hooks.qcache]     # any [qcache] key; omitted keys take the spec's defaults
//! nbanks = 4
//! eval_interval = 1024
//! [hooks.qcache.cpu] # optional: CPU consumer cores (super::cpu), any key optional
//! cores = 2
//! mode = "qcache"    # serial | fusion | unbounded | finite | qcache | fine_grained | fine_grained_qcache
//! # prodcons sensitivity knobs (studies A13-A15, super::cpu::CpuConfig); 0 = off
//! rate_period = 16   # producer CTAs per phase of the rate modulation (producer_sens.ptx)
//! rate_depth_pct = 50
//! false_share_pct = 5
//! unconsumed_pct = 20  # needs a `spare` buffer (producer_sens.ptx)
//! ```

use super::actuator::{dvfs_delay_cycles, Actuation, GpuActuator, QcCpuDvfs};
use super::config::{QcacheConfig, RawQcache};
use super::cpu::{Consume, CpuCluster, CpuConfig, QueueLayout, RawCpu, CPU_PSTATES};
use super::filter::{moesi, req, Strobes, Transition, TransitionFilter};
use super::monitor::{MonitorInputs, RateMonitor, SLOW};
use crate::config::FieldError;
use crate::gpu::config::GpuConfig;
use crate::gpu::hooks::{count, params, CoreControl, HookBlock, HookCounters, HookEnergy, HookSet, L2Access, L2Hook, LaunchBuffer, Requester};
use crate::model::Model;

pub const BLOCK: HookBlock = HookBlock { name: "qcache", attach };

/// The monitor and what it is waiting to see.
pub struct QcacheHook {
    m: RateMonitor,
    inputs: MonitorInputs,
    /// Events not yet presented, per bank: [produce, spill].
    backlog: Vec<[u32; 2]>,
    /// CONSUMEs not yet presented, per bank: the consuming domains in order.
    cons_backlog: Vec<std::collections::VecDeque<u8>>,
    gpu_dom: u8,
    /// The answer to the request taken last cycle: Some(ack).
    answer: Option<bool>,
    counts: [u64; 6],
    /// The CPU cores of the heterogeneous system, if configured.
    pub cpu: Option<CpuCluster>,
    consumed: Vec<Consume>,
    /// The GPU's core scheduler and clock controller (spec §1.8).
    gpu: GpuActuator,
    /// Per CPU core, its DVFS controller (`qc_cpu_dvfs`, `dvfs_drain` actuation).
    cpu_dvfs: Vec<QcCpuDvfs>,
    /// The L2 banks' transition filter (spec §1.2; its options at their defaults).
    filter: TransitionFilter,
}

impl QcacheHook {
    pub fn new(c: &QcacheConfig) -> QcacheHook {
        let mut m = RateMonitor::new(c);
        m.reset();
        let inputs = m.idle_inputs();
        let nb = c.nbanks as usize;
        QcacheHook {
            m,
            inputs,
            backlog: vec![[0; 2]; nb],
            cons_backlog: vec![Default::default(); nb],
            gpu_dom: (c.ndom - 1) as u8,
            answer: None,
            counts: [0; 6],
            cpu: None,
            consumed: Vec::new(),
            gpu: GpuActuator::new(Actuation::Instant, 1, 1, 0, 0, 0),
            cpu_dvfs: Vec::new(),
            filter: TransitionFilter::default(),
        }
    }

    /// With CPU consumer cores (the heterogeneous system) on a GPU of `sms` SMs at `gpu_mhz`.
    pub fn with_cpu(c: &QcacheConfig, cpu: &CpuConfig, sms: u32, gpu_mhz: u32) -> QcacheHook {
        let gpu = GpuActuator::new(cpu.actuation, sms, gpu_mhz, cpu.dvfs_ns, cpu.dvfs_step_ns, cpu.dvfs_max_ns);
        let lat: Vec<u64> = (0..CPU_PSTATES.len() as u32).map(|s| dvfs_delay_cycles(s, cpu.dvfs_ns, cpu.dvfs_step_ns, cpu.dvfs_max_ns, gpu_mhz)).collect();
        let nominal = CPU_PSTATES.iter().position(|&p| p == cpu.mhz).expect("a validated CPU P-state");
        let cpu_dvfs = (0..cpu.cores).map(|_| QcCpuDvfs::new(nominal, lat.clone())).collect();
        QcacheHook { cpu: Some(CpuCluster::new(cpu, gpu_mhz)), gpu, cpu_dvfs, ..QcacheHook::new(c) }
    }

    fn actuating(&self) -> bool {
        self.cpu.as_ref().is_some_and(|c| c.cfg.mode.actuated())
    }

    fn bank(&self, part: usize) -> usize {
        part % self.backlog.len()
    }

    /// The PRODUCE and SPILL strobes of a transition on slice `part`, queued on its bank.
    fn event(&mut self, part: usize, s: Strobes) {
        let b = self.bank(part);
        self.backlog[b][0] += s.prod as u32;
        self.backlog[b][1] += s.spill as u32;
    }

    /// Take the request on the channel: `Some(ack)` answered at once, `None` under way
    /// (the ACK comes when the reconfiguration completes).
    fn actuate(&mut self, ctl: &mut dyn CoreControl) -> Option<bool> {
        let q = self.m.outputs().req;
        if self.cpu.is_some() && !self.actuating() {
            return Some(false); // a software technique without Q-cache: hints are ignored
        }
        let to_gpu = q.target >> self.gpu_dom & 1 != 0;
        let (slow, ratio) = (q.dir == SLOW, q.ratio_q44 as u32);
        if let Some(cpu) = self.cpu.as_mut() {
            let instant = cpu.cfg.actuation == Actuation::Instant;
            if q.restore {
                if instant {
                    cpu.restore();
                } else {
                    for d in &mut self.cpu_dvfs {
                        d.request(true, slow, ratio);
                    }
                }
            } else if !to_gpu {
                let targets = (0..cpu.cores.len()).filter(|&c| q.target >> c & 1 != 0);
                if instant {
                    let to: Vec<(usize, u32)> = targets.filter_map(|c| Some((c, cpu.dvfs_target(c, slow, ratio)?))).collect();
                    for &(c, mhz) in &to {
                        cpu.cores[c].mhz = mhz;
                    }
                    return Some(!to.is_empty());
                }
                if self.cpu_dvfs.iter().any(|d| d.flight.is_some()) {
                    return Some(false);
                }
                let mut started = false;
                for c in targets {
                    started |= self.cpu_dvfs[c].request(false, slow, ratio).is_none();
                }
                return if started { None } else { Some(false) };
            }
        }
        if !to_gpu && !q.restore {
            return Some(false);
        }
        self.gpu.request(ctl, q.restore, slow, ratio)
    }

    /// One line of the `trace` timeline on stderr: the monitor's state and window,
    /// the GPU's setting, the CPU side's progress.
    fn trace_sample(&self, now: u64, ctl: &dyn CoreControl) {
        let r = &self.m.r;
        let g = self.gpu.cur();
        let t = ctl.throttle(0);
        let resident: Vec<u32> = (0..ctl.sms()).map(|s| ctl.resident_ctas(s)).collect();
        let (mhz, s) = self.cpu.as_ref().map(|c| (c.cores[0].mhz, c.stats)).unwrap_or_default();
        eprintln!(
            "qcache t {now}: state {} gpu {} cores x {} MHz (clock {}/{}) ctas {resident:?} | q {} q_max {} window produced {} consumed {} spilled {} | total produced {} spilled {} | cpu {mhz} MHz lines {} dirty {} dram {} polls {}",
            super::monitor::st::NAMES[r.state as usize], g.cores, super::actuator::GPU_PSTATES[g.pstate], t.clock_num, t.clock_den, r.q, r.q_max, r.produced, r.consumed, r.spilled, self.counts[0], self.counts[1], s.lines, s.consumed_dirty, s.dram_reads, s.polls
        );
    }

    /// Reconfigurations completing this cycle: `true` if one was the request's (the
    /// CPU side's when its last core's transition ends).
    fn settle(&mut self, ctl: &mut dyn CoreControl) -> bool {
        let mut done = self.gpu.cycle(ctl);
        if let Some(cpu) = self.cpu.as_mut() {
            let mut ended = false;
            for (c, d) in self.cpu_dvfs.iter_mut().enumerate() {
                if d.settle() {
                    cpu.cores[c].mhz = d.mhz();
                    ended = true;
                }
            }
            done |= ended && self.cpu_dvfs.iter().all(|d| d.flight.is_none());
        }
        done
    }
}

impl L2Hook for QcacheHook {
    fn access(&mut self, _now: u64, a: &L2Access) {
        if matches!(a.requester, Requester::Sm(_)) {
            // the GPU's own access: a write makes the line M, a read leaves it
            let state = |dirty| if dirty { moesi::M } else { moesi::E };
            let kind = if a.dirty_after && !a.dirty_before { req::WRITE } else { req::READ };
            let t = Transition { cur: state(a.dirty_before), next: state(a.dirty_after), req: kind, dom: self.gpu_dom, local: true };
            self.event(a.part, self.filter.classify(&t));
        }
    }

    fn fill(&mut self, _now: u64, part: usize, _line: u64, dirty_before: bool, dirty_after: bool) {
        // a write miss's fill (from not present)
        let kind = if dirty_after && !dirty_before { req::WRITE } else { req::READ };
        let t = Transition { cur: if dirty_before { moesi::M } else { moesi::I }, next: if dirty_after { moesi::M } else { moesi::E }, req: kind, dom: self.gpu_dom, local: true };
        self.event(part, self.filter.classify(&t));
    }

    fn writeback(&mut self, _now: u64, part: usize, _line: u64) {
        // the L2 writes back dirty lines only: M -> I by replacement
        let t = Transition { cur: moesi::M, next: moesi::I, req: req::WRITEBACK, dom: self.gpu_dom, local: true };
        self.event(part, self.filter.classify(&t));
    }

    fn buffers(&mut self, bufs: &[LaunchBuffer]) -> Result<(), FieldError> {
        if let Some(cpu) = self.cpu.as_mut() {
            let l = QueueLayout::find(bufs)?;
            if cpu.cfg.mode.fine() && l.signals.is_none() {
                return Err(FieldError::new(
                    "buffer",
                    "the fine-grained modes of [hooks.qcache.cpu] need a buffer named `signals` (one signal word per word of `out`) and the launch has none",
                    Some("a `signals` buffer as long as `out` (workloads/qcache/*.toml)".into()),
                ));
            }
            let c = &cpu.cfg;
            if (c.rate_period > 0 || c.unconsumed_pct > 0) && l.qctl_words < 8 {
                return Err(FieldError::new(
                    "buffer",
                    format!(
                        "rate_period and unconsumed_pct of [hooks.qcache.cpu] are read by the sensitivity producer from `qctl` words 4-6, and this launch's `qctl` has {} words",
                        l.qctl_words
                    ),
                    Some("a `qctl` of 8 words and the kernel producer_sens.ptx (workloads/qcache/prodcons_sens.toml)".into()),
                ));
            }
            if c.unconsumed_pct > 0 && l.spare.is_none() {
                return Err(FieldError::new(
                    "buffer",
                    "unconsumed_pct of [hooks.qcache.cpu] needs a buffer named `spare` (the never-read half of the output) and the launch has none",
                    Some("a `spare` buffer as long as `out` (workloads/qcache/prodcons_sens.toml)".into()),
                ));
            }
            cpu.set_layout(Some(l));
        }
        Ok(())
    }

    fn kernel_begin(&mut self, now: u64) {
        self.inputs.kbegin = true;
        if let Some(cpu) = self.cpu.as_mut() {
            if cpu.concurrent() {
                cpu.start(now);
            }
        }
    }

    fn kernel_end(&mut self, now: u64) {
        self.inputs.kend = true;
        if let Some(cpu) = self.cpu.as_mut() {
            cpu.start(now);
        }
    }

    fn pending(&self) -> bool {
        self.cpu.as_ref().is_some_and(|c| c.running())
    }

    /// One monitor cycle per GPU cycle.
    fn cycle(&mut self, now: u64, ctl: &mut dyn CoreControl) -> u64 {
        if let Some(cpu) = self.cpu.as_mut() {
            cpu.cycle(now, ctl, &mut self.consumed);
            let nb = self.cons_backlog.len();
            for c in self.consumed.drain(..) {
                // a CPU core's read forwarded to the L2's dirty copy: M -> O (the line
                // stays, clean for the L2; its eviction is silent)
                let t = Transition { cur: moesi::M, next: moesi::O, req: req::FWD_GETS, dom: c.core, local: false };
                if self.filter.classify(&t).cons {
                    self.cons_backlog[c.slice % nb].push_back(c.core);
                }
            }
        }
        let i = &mut self.inputs;
        i.ev_prod = 0;
        i.ev_spill = 0;
        i.ev_cons = 0;
        for (b, q) in self.cons_backlog.iter_mut().enumerate() {
            if let Some(d) = q.pop_front() {
                i.ev_cons |= 1 << b;
                i.ev_cons_dom[b] = d;
                self.counts[5] += 1;
            }
        }
        for (b, q) in self.backlog.iter_mut().enumerate() {
            if q[0] > 0 {
                q[0] -= 1;
                i.ev_prod |= 1 << b;
                i.ev_prod_dom[b] = self.gpu_dom;
                self.counts[0] += 1;
            }
            if q[1] > 0 {
                q[1] -= 1;
                i.ev_spill |= 1 << b;
                self.counts[1] += 1;
            }
        }
        i.req_ready = true;
        i.rsp_valid = self.answer.is_some();
        i.rsp_ack = self.answer.unwrap_or(false);
        i.rsp_dom = self.gpu_dom;
        self.answer = self.settle(ctl).then_some(true);
        if self.answer.is_some() {
            self.counts[4] += 1;
        }
        // the request on the channel this cycle is taken (req_ready is always high)
        let trace = self.cpu.as_ref().map_or(0, |c| c.cfg.trace) as u64;
        if trace > 0 && now.is_multiple_of(trace) {
            self.trace_sample(now, ctl);
        }
        if self.m.outputs().req_valid {
            if trace > 0 {
                let (o, r) = (self.m.outputs(), &self.m.r);
                eprintln!(
                    "qcache req {now}: target {:#b} role {} dir {} ratio {:#x} restore {} | q {} produced {} consumed {} spilled {} cyc_p {} cyc_c {}",
                    o.req.target, o.req.role as u8, o.req.dir as u8, o.req.ratio_q44, o.req.restore as u8, o.q, r.produced, r.consumed, r.spilled, r.cyc_p, r.cyc_c
                );
            }
            let restore = self.m.outputs().req.restore;
            let ack = self.actuate(ctl);
            self.counts[if restore { 3 } else { 2 }] += 1;
            if ack == Some(true) {
                self.counts[4] += 1;
            }
            if ack.is_some() {
                self.answer = ack;
            }
        }
        let mut o = self.m.new_outputs();
        let i = self.inputs.clone();
        self.m.eval(&i, &mut o);
        self.m.commit(&i);
        self.inputs.kbegin = false;
        self.inputs.kend = false;
        now + 1
    }

    fn counters(&self, out: &mut HookCounters) {
        for (k, name) in ["produced", "spilled", "requests", "restores", "acks", "consumed"].iter().enumerate() {
            count(out, &format!("qcache.{name}"), self.counts[k]);
        }
        count(out, "qcache.gpu_rate_changes", self.gpu.act.changes);
        count(out, "qcache.actuation_cycles", self.gpu.act.busy_cycles);
        if let Some(cpu) = &self.cpu {
            let s = cpu.stats;
            for (name, v) in [
                ("tasks", s.tasks),
                ("lines", s.lines),
                ("consumed_dirty", s.consumed_dirty),
                ("llc_hits", s.llc_hits),
                ("dram_reads", s.dram_reads),
                ("signal_lines", s.signal_lines),
                ("polls", s.polls),
                ("busy_cycles", s.busy_cycles),
                ("done_at", s.done_at),
            ] {
                count(out, &format!("qcache.cpu.{name}"), v);
            }
            if cpu.consumer() != super::cpu::ConsumerKind::Sum {
                // only for the conditional consumers: the chunk sums keep their counters
                count(out, "qcache.cpu.cond_taken", s.cond_taken);
            }
            if cpu.cfg.false_share_pct > 0 {
                // only with the knob: the runs without it keep their counters as they were
                count(out, "qcache.cpu.false_shared_words", s.false_shared_words);
            }
        }
        count(out, &format!("qcache.final_state_{}", super::monitor::st::NAMES[self.m.r.state as usize].to_lowercase()), 1);
    }

    fn energy(&self, _gpu_mhz: u32, out: &mut HookEnergy) {
        if let Some(cpu) = &self.cpu {
            cpu.energy(out);
        }
    }
}

fn attach(cfg: &GpuConfig, table: &toml::Table, set: &mut HookSet) -> Result<(), FieldError> {
    let mut table = table.clone();
    let cpu = table.remove("cpu");
    let raw: RawQcache = params("qcache", &table)?;
    if raw.has_companion() {
        return Err(FieldError::new(
            "hooks.qcache.companion",
            "is the generated companion blocks' table; on the GPU model the actuators take the cores and clock from [gpu] and the DVFS from [hooks.qcache.cpu]",
            Some("no [hooks.qcache.companion] table".into()),
        ));
    }
    let c = QcacheConfig::validate(raw).map_err(|e| FieldError { field: format!("hooks.{}", e.field), ..e })?;
    let hook = match cpu {
        None => QcacheHook::new(&c),
        Some(v) => {
            let Some(t) = v.as_table() else {
                return Err(FieldError::new("hooks.qcache.cpu", "is not a table", Some("a [hooks.qcache.cpu] table".into())));
            };
            let raw: RawCpu = params("qcache.cpu", t)?;
            let cpu = CpuConfig::validate(raw).map_err(|e| FieldError { field: format!("hooks.qcache.{}", e.field), ..e })?;
            if cpu.cores as usize >= c.ndom as usize {
                return Err(FieldError::new(
                    "hooks.qcache.cpu.cores",
                    format!("{} CPU cores need {} coherence domains and ndom is {}", cpu.cores, cpu.cores + 1, c.ndom),
                    Some(format!("1 to {}", c.ndom - 1)),
                ));
            }
            QcacheHook::with_cpu(&c, &cpu, cfg.sms, cfg.clock_mhz)
        }
    };
    set.set_l2("qcache", Box::new(hook))
}
