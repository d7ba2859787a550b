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
//! is found by buffer name (`out`, `flags`, `sums`, `qctl`: workloads/qcache/); with a
//! launch that lacks one of them the CPU cores stay idle.
//!
//! Actuation (spec §1.8, GPU side): a request addressed to the GPU domain moves every
//! SM's clock from where it is by the request's ratio: `clock · 16 / ratio` to slow it,
//! `clock · ratio / 16` to speed it, in steps of 1/256 between 1/16 (the 16:1 range of
//! §1.8, which the thesis reaches with DVFS and TB draining together; we model both as
//! one clock fraction) and full speed, NACKed when already at that limit; RESTORE
//! returns every SM to full speed; the answer comes in the next cycle. Requests to a CPU core's domain set its clock one P-state or more toward
//! `clock / ratio` (slow) or `clock · ratio` (speed), NACKed at the limit (spec §1.8,
//! CPU actuator). Requests are carried out only in queue mode `qcache`; in the other
//! modes (the software techniques without Q-cache) the monitor runs and counts, and
//! every request is NACKed.
//!
//! ```toml
//! [hooks.qcache]     # any [qcache] key; omitted keys take the spec's defaults
//! nbanks = 4
//! eval_interval = 1024
//! [hooks.qcache.cpu] # optional: CPU consumer cores (super::cpu), any key optional
//! cores = 2
//! mode = "qcache"    # serial | fusion | unbounded | finite | qcache
//! ```

use super::config::{QcacheConfig, RawQcache};
use super::cpu::{Consume, CpuCluster, CpuConfig, QueueLayout, QueueMode, RawCpu};
use super::monitor::{MonitorInputs, RateMonitor, SLOW};
use crate::config::FieldError;
use crate::gpu::config::GpuConfig;
use crate::gpu::hooks::{count, params, CoreControl, HookBlock, HookCounters, HookSet, L2Access, L2Hook, LaunchBuffer, Requester, SmThrottle};
use crate::model::Model;

/// The GPU clock's granularity and its lowest setting (1/16 of full speed).
const GPU_CLOCK_DEN: u32 = 256;
const GPU_CLOCK_MIN: u32 = 16;

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
    /// Rate requests to the GPU that changed its clock (slow, speed or restore).
    gpu_changes: u64,
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
            gpu_changes: 0,
        }
    }

    /// With CPU consumer cores (the heterogeneous system) on a GPU at `gpu_mhz`.
    pub fn with_cpu(c: &QcacheConfig, cpu: &CpuConfig, gpu_mhz: u32) -> QcacheHook {
        QcacheHook { cpu: Some(CpuCluster::new(cpu, gpu_mhz)), ..QcacheHook::new(c) }
    }

    fn actuating(&self) -> bool {
        self.cpu.as_ref().is_some_and(|c| c.cfg.mode == QueueMode::Qcache)
    }

    fn bank(&self, part: usize) -> usize {
        part % self.backlog.len()
    }

    /// Carry out a request addressed to the GPU; the answer (ACK or NACK).
    fn actuate(&mut self, ctl: &mut dyn CoreControl) -> bool {
        let o = self.m.outputs();
        let q = o.req;
        if self.cpu.is_some() && !self.actuating() {
            return false; // a software technique without Q-cache: hints are ignored
        }
        if let Some(cpu) = self.cpu.as_mut() {
            if q.restore {
                cpu.restore();
            } else if q.target >> self.gpu_dom & 1 == 0 {
                let mut any = false;
                for c in 0..cpu.cores.len() {
                    if q.target >> c & 1 != 0 {
                        any |= cpu.dvfs(c, q.dir == SLOW, q.ratio_q44 as u32);
                    }
                }
                return any;
            }
        }
        if q.target >> self.gpu_dom & 1 == 0 && !q.restore {
            return false;
        }
        // the GPU's throughput as a clock fraction num/256 of full speed, 16/256 (the
        // 16:1 range of §1.8) to 256/256, moved by the request's ratio from where it is
        let cur = ctl.throttle(0);
        let num = (cur.clock_num as u32 * GPU_CLOCK_DEN).div_ceil(cur.clock_den as u32);
        let ratio = q.ratio_q44.max(16) as u32;
        let next = if q.restore {
            GPU_CLOCK_DEN
        } else if q.dir == SLOW {
            (num * 16 / ratio).max(GPU_CLOCK_MIN)
        } else {
            (num * ratio / 16).min(GPU_CLOCK_DEN)
        };
        if next == num && !q.restore {
            return false; // at the limit in the requested direction
        }
        self.gpu_changes += 1;
        let t = if next == GPU_CLOCK_DEN { SmThrottle::FULL } else { SmThrottle { dispatch: true, clock_num: next as u16, clock_den: GPU_CLOCK_DEN as u16 } };
        for s in 0..ctl.sms() {
            ctl.set_throttle(s, t);
        }
        true
    }
}

impl L2Hook for QcacheHook {
    fn access(&mut self, _now: u64, a: &L2Access) {
        if matches!(a.requester, Requester::Sm(_)) && a.dirty_after && !a.dirty_before {
            let b = self.bank(a.part);
            self.backlog[b][0] += 1;
        }
    }

    fn fill(&mut self, _now: u64, part: usize, _line: u64, dirty_before: bool, dirty_after: bool) {
        if dirty_after && !dirty_before {
            let b = self.bank(part);
            self.backlog[b][0] += 1;
        }
    }

    fn writeback(&mut self, _now: u64, part: usize, _line: u64) {
        let b = self.bank(part);
        self.backlog[b][1] += 1;
    }

    fn buffers(&mut self, bufs: &[LaunchBuffer]) {
        if let Some(cpu) = self.cpu.as_mut() {
            cpu.set_layout(QueueLayout::find(bufs));
        }
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
                self.cons_backlog[c.slice % nb].push_back(c.core);
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
        self.answer = None;
        // the request on the channel this cycle is taken (req_ready is always high)
        if self.m.outputs().req_valid {
            let restore = self.m.outputs().req.restore;
            let ack = self.actuate(ctl);
            self.counts[if restore { 3 } else { 2 }] += 1;
            if ack {
                self.counts[4] += 1;
            }
            self.answer = Some(ack);
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
        count(out, "qcache.gpu_rate_changes", self.gpu_changes);
        if let Some(cpu) = &self.cpu {
            let s = cpu.stats;
            for (name, v) in [
                ("tasks", s.tasks),
                ("lines", s.lines),
                ("consumed_dirty", s.consumed_dirty),
                ("llc_hits", s.llc_hits),
                ("dram_reads", s.dram_reads),
                ("polls", s.polls),
                ("busy_cycles", s.busy_cycles),
                ("done_at", s.done_at),
            ] {
                count(out, &format!("qcache.cpu.{name}"), v);
            }
        }
        count(out, &format!("qcache.final_state_{}", super::monitor::st::NAMES[self.m.r.state as usize].to_lowercase()), 1);
    }
}

fn attach(cfg: &GpuConfig, table: &toml::Table, set: &mut HookSet) -> Result<(), FieldError> {
    let mut table = table.clone();
    let cpu = table.remove("cpu");
    let raw: RawQcache = params("qcache", &table)?;
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
                return Err(FieldError::new("hooks.qcache.cpu.cores", format!("{} CPU cores need {} coherence domains and ndom is {}", cpu.cores, cpu.cores + 1, c.ndom), Some(format!("1 to {}", c.ndom - 1))));
            }
            QcacheHook::with_cpu(&c, &cpu, cfg.clock_mhz)
        }
    };
    set.set_l2("qcache", Box::new(hook))
}
