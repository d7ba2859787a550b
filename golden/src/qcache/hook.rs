//! `[hooks.qcache]`: the rate monitor attached to the GPU model's L2 through
//! [`L2Hook`] (spec §1.1: one monitor summing every LLC slice), acting on the SMs
//! through the core-scheduler controls (spec §1.8).
//!
//! Events (spec §1.2): an access or fill that makes a line dirty is a PRODUCE by the GPU
//! domain (`ndom - 1`); a dirty write-back is a SPILL. The GPU model has no CPU cores,
//! so nothing is ever CONSUMEd from another domain: on the GPU alone the monitor stays
//! in DETECT until its timeout and goes OFF, as the thesis's monitor does when no
//! producer-consumer relationship exists. Slice `p` reports on bank `p mod nbanks`;
//! events of one kind beyond one per bank and cycle wait for the next cycle.
//!
//! Actuation (spec §1.8, GPU side): a request addressed to the GPU domain sets every
//! SM's clock to `16 / ratio` of full speed to slow it (`clock = [16, ratio]`, the
//! finest DVFS the throttle offers), back to full speed to speed it (NACK when already
//! there), and RESTORE returns every SM to full speed; the answer comes in the next
//! cycle. Requests to other domains (CPU cores, absent here) are NACKed.
//!
//! ```toml
//! [hooks.qcache]     # any [qcache] key; omitted keys take the spec's defaults
//! nbanks = 4
//! eval_interval = 1024
//! ```

use super::config::{QcacheConfig, RawQcache};
use super::monitor::{MonitorInputs, RateMonitor, SLOW};
use crate::config::FieldError;
use crate::gpu::config::GpuConfig;
use crate::gpu::hooks::{count, params, CoreControl, HookBlock, HookCounters, HookSet, L2Access, L2Hook, Requester, SmThrottle};
use crate::model::Model;

pub const BLOCK: HookBlock = HookBlock { name: "qcache", attach };

/// The monitor and what it is waiting to see.
pub struct QcacheHook {
    m: RateMonitor,
    inputs: MonitorInputs,
    /// Events not yet presented, per bank: [produce, spill].
    backlog: Vec<[u32; 2]>,
    gpu_dom: u8,
    /// The answer to the request taken last cycle: Some(ack).
    answer: Option<bool>,
    counts: [u64; 5],
}

impl QcacheHook {
    pub fn new(c: &QcacheConfig) -> QcacheHook {
        let mut m = RateMonitor::new(c);
        m.reset();
        let inputs = m.idle_inputs();
        QcacheHook { m, inputs, backlog: vec![[0; 2]; c.nbanks as usize], gpu_dom: (c.ndom - 1) as u8, answer: None, counts: [0; 5] }
    }

    fn bank(&self, part: usize) -> usize {
        part % self.backlog.len()
    }

    /// Carry out a request addressed to the GPU; the answer (ACK or NACK).
    fn actuate(&mut self, ctl: &mut dyn CoreControl) -> bool {
        let o = self.m.outputs();
        let q = o.req;
        if q.target >> self.gpu_dom & 1 == 0 && !q.restore {
            return false;
        }
        let full = (0..ctl.sms()).all(|s| ctl.throttle(s) == SmThrottle::FULL);
        let t = if q.restore || q.dir != SLOW {
            if full && !q.restore {
                return false; // already at full speed
            }
            SmThrottle::FULL
        } else {
            SmThrottle { dispatch: true, clock_num: 16, clock_den: q.ratio_q44.max(16) as u16 }
        };
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

    fn kernel_begin(&mut self, _now: u64) {
        self.inputs.kbegin = true;
    }

    fn kernel_end(&mut self, _now: u64) {
        self.inputs.kend = true;
    }

    /// One monitor cycle per GPU cycle.
    fn cycle(&mut self, now: u64, ctl: &mut dyn CoreControl) -> u64 {
        let i = &mut self.inputs;
        i.ev_prod = 0;
        i.ev_spill = 0;
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
        for (k, name) in ["produced", "spilled", "requests", "restores", "acks"].iter().enumerate() {
            count(out, &format!("qcache.{name}"), self.counts[k]);
        }
        count(out, &format!("qcache.final_state_{}", super::monitor::st::NAMES[self.m.r.state as usize].to_lowercase()), 1);
    }
}

fn attach(_cfg: &GpuConfig, table: &toml::Table, set: &mut HookSet) -> Result<(), FieldError> {
    let raw: RawQcache = params("qcache", table)?;
    let c = QcacheConfig::validate(raw).map_err(|e| FieldError { field: format!("hooks.{}", e.field), ..e })?;
    set.set_l2("qcache", Box::new(QcacheHook::new(&c)))
}
