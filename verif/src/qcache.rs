//! The Q-cache rate monitor in lockstep: the port map of `qc_rate_monitor` (golden
//! `RateMonitor` ports to frames) and the bench of its one design kind.

use golden::model::Stimulus;
use golden::qcache::check::MonitorChecker;
use golden::qcache::config::QcacheConfig;
use golden::qcache::monitor::{MonitorInputs, MonitorOutputs, RateMonitor};
use golden::qcache::traffic::{EventTraffic, TrafficParams};
use golden::qcache::Qcache;
use hdl_gen::qcache::QcacheDesign;

use crate::bench::{expect_fields, expect_width, ModelBench, PortMap};
use crate::frame::{Frame, Layout, Slot};
use crate::lockstep::Bench;
use crate::run::{BenchOptions, Cosim};

/// Frame slots of every `qc_rate_monitor` port, resolved once.
#[derive(Debug, Clone)]
pub struct Ports {
    rst: Slot,
    kbegin: Slot,
    kend: Slot,
    ev_prod: Slot,
    ev_prod_dom: Slot,
    ev_cons: Slot,
    ev_cons_dom: Slot,
    ev_spill: Slot,
    req_ready: Slot,
    rsp_v: Slot,
    rsp_ack: Slot,
    rsp_dom: Slot,
    req_v: Slot,
    req_target: Slot,
    req_role: Slot,
    req_dir: Slot,
    req_ratio: Slot,
    req_restore: Slot,
    state: Slot,
    produced: Slot,
    consumed: Slot,
    spilled: Slot,
    cyc_p: Slot,
    cyc_c: Slot,
    q: Slot,
    q_max: Slot,
    qmax_valid: Slot,
    prod_mask: Slot,
    cons_mask: Slot,
    throttled: Slot,
    nbanks: usize,
}

impl Ports {
    pub fn new(l: &Layout, nbanks: usize) -> Ports {
        Ports {
            rst: l.input("rst_i"),
            kbegin: l.input("kbegin_i"),
            kend: l.input("kend_i"),
            ev_prod: l.input("ev_prod_i"),
            ev_prod_dom: l.input("ev_prod_dom_i"),
            ev_cons: l.input("ev_cons_i"),
            ev_cons_dom: l.input("ev_cons_dom_i"),
            ev_spill: l.input("ev_spill_i"),
            req_ready: l.input("req_ready_i"),
            rsp_v: l.input("rsp_v_i"),
            rsp_ack: l.input("rsp_ack_i"),
            rsp_dom: l.input("rsp_dom_i"),
            req_v: l.output("req_v_o"),
            req_target: l.output("req_target_o"),
            req_role: l.output("req_role_o"),
            req_dir: l.output("req_dir_o"),
            req_ratio: l.output("req_ratio_q44_o"),
            req_restore: l.output("req_restore_o"),
            state: l.output("state_o"),
            produced: l.output("produced_o"),
            consumed: l.output("consumed_o"),
            spilled: l.output("spilled_o"),
            cyc_p: l.output("cyc_p_o"),
            cyc_c: l.output("cyc_c_o"),
            q: l.output("q_o"),
            q_max: l.output("q_max_o"),
            qmax_valid: l.output("qmax_valid_o"),
            prod_mask: l.output("prod_mask_o"),
            cons_mask: l.output("cons_mask_o"),
            throttled: l.output("throttled_o"),
            nbanks,
        }
    }
}

impl PortMap<RateMonitor> for Ports {
    fn pack_inputs(&self, i: &MonitorInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        f.set(&self.kbegin, i.kbegin as u64);
        f.set(&self.kend, i.kend as u64);
        let banks = self.ev_prod.last_mask();
        f.set_flags(&self.ev_prod, i.ev_prod & banks);
        f.set_flags(&self.ev_cons, i.ev_cons & banks);
        f.set_flags(&self.ev_spill, i.ev_spill & banks);
        f.set_fields(&self.ev_prod_dom, i.ev_prod_dom[..self.nbanks].iter().map(|d| u64::from(*d)));
        f.set_fields(&self.ev_cons_dom, i.ev_cons_dom[..self.nbanks].iter().map(|d| u64::from(*d)));
        f.set(&self.req_ready, i.req_ready as u64);
        f.set(&self.rsp_v, i.rsp_valid as u64);
        f.set(&self.rsp_ack, i.rsp_ack as u64);
        f.set(&self.rsp_dom, i.rsp_dom as u64);
    }

    fn pack_outputs(&self, o: &MonitorOutputs, f: &mut Frame) {
        f.set(&self.req_v, o.req_valid as u64);
        f.set(&self.req_target, o.req.target as u64);
        f.set(&self.req_role, o.req.role as u64);
        f.set(&self.req_dir, o.req.dir as u64);
        f.set(&self.req_ratio, o.req.ratio_q44 as u64);
        f.set(&self.req_restore, o.req.restore as u64);
        f.set(&self.state, o.state as u64);
        f.set(&self.produced, o.produced);
        f.set(&self.consumed, o.consumed);
        f.set(&self.spilled, o.spilled);
        f.set(&self.cyc_p, o.cyc_p);
        f.set(&self.cyc_c, o.cyc_c);
        f.set(&self.q, o.q);
        f.set(&self.q_max, o.q_max);
        f.set(&self.qmax_valid, o.qmax_valid as u64);
        f.set(&self.prod_mask, o.prod_mask as u64);
        f.set(&self.cons_mask, o.cons_mask as u64);
        f.set(&self.throttled, o.throttled as u64);
    }
}

/// Golden `qc_rate_monitor` driven by a stimulus, optionally watched by the scoreboard.
pub type MonitorBench<S> = ModelBench<RateMonitor, Ports, S, MonitorChecker>;

/// The bench of `qc_rate_monitor` for `cfg` with stimulus `stim` (scoreboard on).
pub fn monitor_bench<S: Stimulus<RateMonitor>>(cfg: &QcacheConfig, layout: &Layout, stim: S) -> Result<MonitorBench<S>, String> {
    expect_fields(layout, "ev_prod_i", cfg.nbanks as usize)?;
    expect_width(layout, "q_o", cfg.cnt_w)?;
    expect_width(layout, "req_target_o", cfg.ndom)?;
    Ok(ModelBench::new(RateMonitor::new(cfg), stim, Some(MonitorChecker::new(cfg)), Ports::new(layout, cfg.nbanks as usize)))
}

impl Cosim for Qcache {
    fn bench(cfg: &QcacheConfig, design: &QcacheDesign, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String> {
        match design {
            QcacheDesign::Monitor => {
                let b = monitor_bench(cfg, layout, EventTraffic::new(cfg, opts.seed, TrafficParams::for_config(cfg)))?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
        }
    }
}

impl<S: Stimulus<RateMonitor>> MonitorBench<S> {
    /// Plant a bug in the golden model.
    pub fn with_mutation(mut self, m: golden::qcache::monitor::Mutation) -> Self {
        self.model.mutation = Some(m);
        self
    }
}
