//! Verilog generator for the Q-cache rate monitor (`qc_rate_monitor_<preset>`, spec §5):
//! one design, `monitor/`.
//!
//! The monitor is one clocked module: a register file and one next-state block written
//! statement for statement after `golden::qcache::monitor::RateMonitor::step`, rendered
//! by the askama template `templates/qcache/rate_monitor.v` with every width and constant
//! from `golden::qcache::config`. Its bank count, counter width and constants come from
//! the config, so it is rendered per preset rather than built from rust-hdl leaves.

use askama::Template;
use golden::block::ConfigFile;
use golden::qcache::config::QcacheConfig;
use golden::qcache::monitor::st;
use golden::qcache::Qcache;
use serde_json::json;

use crate::catalog::{Catalog, ModuleDoc};
use crate::design::{DesignSpec, GenError, Generated};
use crate::library::Library;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};
use crate::Generate;

/// The designs Q-cache generates (the manifest's `design`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum QcacheDesign {
    /// `qc_rate_monitor_<preset>`: the rate monitor of one L2.
    Monitor,
}

/// Every module Q-cache generates.
#[derive(Debug, Clone)]
pub enum QcacheModule<'a> {
    Monitor { preset: &'a str, cfg: &'a QcacheConfig },
}

const PROTOCOL: &str = "\
Events: per bank b, ev_prod_i[b] / ev_cons_i[b] / ev_spill_i[b] are one-cycle strobes
  of a coherence transition (I/S/E->M by a local write; a request of another domain
  supplied from M; a writeback of M), with the requester's domain in
  ev_*_dom_i[b*DOM_W +: DOM_W]. kbegin_i / kend_i: one-cycle kernel delimiters.
Requests: req_v_o / req_ready_i valid-ready; req_v_o and every req_* field are
  registers, held until the edge where req_ready_i is high (fields 0 when not valid).
  A request leaves RC_LAT cycles after the evaluation that decided it, together with
  the state change (-> PENDING, or -> OFF with a RESTORE).
Responses: rsp_v_i with rsp_ack_i (1 ACK: reconfigured, 0 NACK: refused) counts only in
  PENDING after the request was accepted; others are ignored.
Every output is a register. Single clock clk_i; synchronous active-high reset rst_i.";

impl Catalog for QcacheModule<'_> {
    fn name(&self) -> String {
        match self {
            QcacheModule::Monitor { preset, .. } => top_name(preset),
        }
    }

    fn doc(&self) -> ModuleDoc {
        match self {
            QcacheModule::Monitor { cfg, .. } => ModuleDoc::new(
                "Q-cache producer/consumer rate monitor of one L2: event counters, footprint Q, state machine, Table 6.1 policy, request channel (spec 1.2-1.8, 5)",
                PROTOCOL,
            )
            .param("NBANKS", cfg.nbanks)
            .param("NDOM", cfg.ndom)
            .param("CNT_W", cfg.cnt_w)
            .param("CAP_LINES", cfg.cap_lines)
            .param("EVAL_INTERVAL", cfg.eval_interval)
            .param("MIN_OBS_CYCLES", cfg.min_obs_cycles)
            .param("WINDOW_CYCLES", cfg.window_cycles)
            .param("MIN_LINES", cfg.min_lines)
            .param("RC_LAT", cfg.rc_lat)
            .param("POLICY", cfg.policy.name()),
        }
    }
}

/// Name of the top module for a preset.
pub fn top_name(preset: &str) -> String {
    format!("qc_rate_monitor_{preset}")
}

/// The ports of `qc_rate_monitor`, in declaration order (also the manifest's port list).
pub fn ports(c: &QcacheConfig) -> Vec<Port> {
    let (nb, nd, dw, w) = (c.nbanks, c.ndom, c.dom_w, c.cnt_w);
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("kbegin_i", 1, "pulse: kernel begin (GPU work scheduler)"),
        Port::input("kend_i", 1, "pulse: kernel end"),
        Port::input("ev_prod_i", nb, "per bank: PRODUCE strobe (I/S/E -> M by a local write)").fields(nb),
        Port::input("ev_prod_dom_i", nb * dw, "per bank: domain of the producer").fields(nb),
        Port::input("ev_cons_i", nb, "per bank: CONSUME strobe (another domain's request supplied from M)").fields(nb),
        Port::input("ev_cons_dom_i", nb * dw, "per bank: domain of the consumer").fields(nb),
        Port::input("ev_spill_i", nb, "per bank: SPILL strobe (writeback of an M line)").fields(nb),
        Port::input("req_ready_i", 1, "the core schedulers take the request"),
        Port::input("rsp_v_i", 1, "a reconfiguration response"),
        Port::input("rsp_ack_i", 1, "1 ACK (reconfigured), 0 NACK (refused or at its limit)"),
        Port::input("rsp_dom_i", dw, "responding domain (not used: the first response answers)"),
        Port::output("req_v_o", 1, "a rate-scaling request is valid"),
        Port::output("req_target_o", nd, "request: multicast domain mask"),
        Port::output("req_role_o", 1, "request: 0 producer, 1 consumer"),
        Port::output("req_dir_o", 1, "request: 0 slow, 1 speed"),
        Port::output("req_ratio_q44_o", 8, "request: magnitude, unsigned 4.4 (>= 1.0; 0 for RESTORE)"),
        Port::output("req_restore_o", 1, "request: return the targets to nominal"),
        Port::output("state_o", 3, &st_codes()),
        Port::output("produced_o", w, "PRODUCE events in the window"),
        Port::output("consumed_o", w, "CONSUME events in the window"),
        Port::output("spilled_o", w, "SPILL events in the window"),
        Port::output("cyc_p_o", w, "cycles since the window's first PRODUCE"),
        Port::output("cyc_c_o", w, "cycles since the window's first CONSUME"),
        Port::output("q_o", w, "queued dirty footprint Q (lines), saturating"),
        Port::output("q_max_o", w, "Q at the last spill onset"),
        Port::output("qmax_valid_o", 1, "q_max_o holds a spill onset of this kernel"),
        Port::output("prod_mask_o", nd, "domains that produced this kernel"),
        Port::output("cons_mask_o", nd, "domains that consumed this kernel"),
        Port::output("throttled_o", nd, "domains slowed or sped, to restore"),
    ]
}

fn st_codes() -> String {
    st::NAMES.iter().enumerate().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
}

#[derive(Template)]
#[template(path = "qcache/rate_monitor.v", escape = "none")]
struct MonitorTop {
    top: String,
    ports: Vec<PortView>,
    w: u32,
    w2: u32,
    nb: u32,
    nd: u32,
    dw: u32,
    pw: u32,
    et: u32,
    wt: u32,
    dt: u32,
    pt: u32,
    sw: u32,
    cap_lines: u64,
    min_lines: u64,
    qlow_lines: u64,
    eval_interval: u32,
    window_cycles: u32,
    min_obs_cycles: u32,
    detect_timeout: u32,
    ack_timeout: u32,
    sched_cnt: u32,
    qlow_streak: u32,
    giveup_streak: u32,
    qpre_num: u32,
    qpre_den: u32,
    min_step: u8,
    up_step: u8,
    eq_tol_shift: u32,
    spill_shift: u32,
    qlock_shift: u32,
    damp: u32,
}

fn view(c: &QcacheConfig, preset: &str) -> MonitorTop {
    MonitorTop {
        top: top_name(preset),
        ports: port_views(&ports(c)),
        w: c.cnt_w,
        w2: 2 * c.cnt_w,
        nb: c.nbanks,
        nd: c.ndom,
        dw: c.dom_w,
        pw: c.ev_w,
        et: c.eval_t_w,
        wt: c.win_t_w,
        dt: c.det_t_w,
        pt: c.pend_t_w,
        sw: c.sched_w,
        cap_lines: c.cap_lines,
        min_lines: c.min_lines,
        qlow_lines: c.qlow_lines,
        eval_interval: c.eval_interval,
        window_cycles: c.window_cycles,
        min_obs_cycles: c.min_obs_cycles,
        detect_timeout: c.detect_timeout,
        ack_timeout: c.ack_timeout,
        sched_cnt: c.rc_lat - 2,
        qlow_streak: c.qlow_streak,
        giveup_streak: c.giveup_streak,
        qpre_num: c.qpre_num,
        qpre_den: c.qpre_den,
        min_step: c.min_step_q44,
        up_step: c.up_step_q44,
        eq_tol_shift: c.eq_tol_shift,
        spill_shift: c.spill_little_shift,
        qlock_shift: c.qlock_shift,
        damp: (c.policy == golden::qcache::config::Policy::DampOnReversal) as u32,
    }
}

impl Generate for Qcache {
    type Design = QcacheDesign;

    fn generate(cfg: &ConfigFile<QcacheConfig>) -> Result<Generated, GenError> {
        let c = &cfg.config;
        let mut lib = Library::default();
        let top = lib.add_text(&QcacheModule::Monitor { preset: &cfg.name, cfg: c }, view(c, &cfg.name).render()?)?;
        let mut d = DesignSpec::new("monitor", &QcacheDesign::Monitor, &top, ports(c));
        for (k, v) in [
            ("NBANKS", json!(c.nbanks)),
            ("NDOM", json!(c.ndom)),
            ("DOM_W", json!(c.dom_w)),
            ("CNT_W", json!(c.cnt_w)),
            ("CAP_LINES", json!(c.cap_lines)),
            ("EVAL_INTERVAL", json!(c.eval_interval)),
            ("MIN_OBS_CYCLES", json!(c.min_obs_cycles)),
            ("WINDOW_CYCLES", json!(c.window_cycles)),
            ("MIN_LINES", json!(c.min_lines)),
            ("RC_LAT", json!(c.rc_lat)),
            ("POLICY", json!(c.policy.name())),
        ] {
            d = d.param(k, v);
        }
        d = d.table("state_codes", json!(st::NAMES)).table("storage_bits", json!(c.storage()));
        Generated::new(cfg, <Qcache as golden::block::Block>::TABLE, lib, vec![d])
    }
}
