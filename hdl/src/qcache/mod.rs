//! Verilog generator for the Q-cache rate monitor (`qc_rate_monitor_<preset>`, spec §5):
//! the design `monitor/`, and the companion blocks of spec §5 ([`companion`]): `filter/`,
//! `gpu_actuator/`, `cpu_dvfs/`.
//!
//! The datapath is rust-hdl leaves ([`leaf`]): the per-bank event sums (one
//! `qc_bank_events_*` per bank, chained), the rate comparison (`qc_rate_cmp_*`, with the
//! multipliers `qc_mul_*`) and the request magnitude with its serial divider
//! (`qc_ratio_div_*`), monomorphized over the supported widths. The register file, the
//! six states and the Table 6.1 policy are the askama template
//! `templates/qcache/rate_monitor.v`, written statement for statement after
//! `golden::qcache::monitor::RateMonitor::step`; every width and constant comes from
//! `golden::qcache::config`.

pub mod companion;
pub mod leaf;

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
use leaf::bank_events::BankEvents;
use leaf::rate_cmp::RateCmp;
use leaf::ratio_div::{DivBug, RatioDiv};
use leaf::window_events::WindowEvents;

/// The designs Q-cache generates (the manifest's `design`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum QcacheDesign {
    /// `qc_rate_monitor_<preset>`: the rate monitor of one L2.
    Monitor,
    /// `qc_transition_filter_<preset>`: the L2 banks' transition filters.
    TransitionFilter,
    /// `qc_gpu_actuator_<preset>`: the GPU core scheduler's actuator.
    GpuActuator,
    /// `qc_cpu_dvfs_<preset>`: one CPU core's DVFS controller.
    CpuDvfs,
}

/// Every module Q-cache generates.
#[derive(Debug, Clone)]
pub enum QcacheModule<'a> {
    Monitor {
        preset: &'a str,
        cfg: &'a QcacheConfig,
    },
    /// One bank's events: `pw`-bit counts, `nd` domains.
    BankEvents {
        pw: u32,
        nd: u32,
    },
    /// The window counters after the cycle's events: `w`-bit counters, `pw`-bit counts.
    WindowEvents {
        w: u32,
        pw: u32,
    },
    /// The rate comparison of `w`-bit counters with tolerance `max >> tol_shift`.
    RateCmp {
        w: u32,
        tol_shift: u32,
    },
    /// The magnitude register and divider over `2w`-bit products (`bug`: planted).
    RatioDiv {
        w: u32,
        bug: Option<DivBug>,
    },
    /// The companion tops (spec §5).
    Filter {
        preset: &'a str,
        cfg: &'a QcacheConfig,
    },
    GpuActuator {
        preset: &'a str,
        cfg: &'a QcacheConfig,
    },
    CpuDvfs {
        preset: &'a str,
        cfg: &'a QcacheConfig,
    },
    /// One bank's transition-filter rule with its two options.
    FilterRule {
        o_to_m: bool,
        local_hit_m: bool,
    },
    /// The actuators' request scaling and one candidate of the closest-setting chain.
    DvfsScale,
    DvfsPick,
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
            QcacheModule::BankEvents { pw, nd } => format!("qc_bank_events_p{pw}_d{nd}"),
            QcacheModule::WindowEvents { w, pw } => format!("qc_window_events_w{w}_p{pw}"),
            QcacheModule::RateCmp { w, tol_shift } => format!("qc_rate_cmp_w{w}_t{tol_shift}"),
            QcacheModule::RatioDiv { w, bug: None } => format!("qc_ratio_div_w{w}"),
            QcacheModule::RatioDiv { w, bug: Some(DivBug::SevenSteps) } => format!("qc_ratio_div_w{w}_planted_7_steps"),
            QcacheModule::Filter { preset, .. } => companion::filter_top(preset),
            QcacheModule::GpuActuator { preset, .. } => companion::gpu_top(preset),
            QcacheModule::CpuDvfs { preset, .. } => companion::cpu_top(preset),
            QcacheModule::FilterRule { o_to_m, local_hit_m } => format!("qc_filter_rule_o{}_l{}", *o_to_m as u8, *local_hit_m as u8),
            QcacheModule::DvfsScale => "qc_dvfs_scale".into(),
            QcacheModule::DvfsPick => "qc_dvfs_pick".into(),
        }
    }

    fn doc(&self) -> ModuleDoc {
        match self {
            QcacheModule::Monitor { cfg, .. } => {
                let doc = ModuleDoc::new(
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
                .param("POLICY", cfg.policy.name());
                // the probe's registers exist only when it is on (the spec's default is off)
                if cfg.lock_probe_evals > 0 {
                    doc.param("LOCK_PROBE_EVALS", cfg.lock_probe_evals)
                } else {
                    doc
                }
            }
            QcacheModule::BankEvents { pw, nd } => ModuleDoc::new(
                "Q-cache monitor: one L2 bank's PRODUCE / CONSUME / SPILL strobes added to the running counts and its domains to the running masks (spec 1.2)",
                "Combinational; no handshake. n*_o = n*_i + strobe; pm_o / cm_o = pm_i / cm_i with bit dom set when\n\
                 the strobe is (a domain id >= ND sets nothing). Chained bank 0 .. NB-1 from zero.",
            )
            .param("PW", pw)
            .param("ND", nd),
            QcacheModule::WindowEvents { w, pw } => ModuleDoc::new(
                "Q-cache monitor: the window counters and footprint Q after the cycle's events, saturating; cycle counters from the window's first event; the spill onset's q_max (spec 1.3, 1.6 step 3)",
                "Combinational; no handshake. With en_i: produced/consumed/spilled += np/nc/ns (saturating), q = max(0, sat(q + np) - nc - ns),\n\
                 cyc_p / cyc_c + 1 once started or on their first event, and on a spill onset (ns, spilled 0, onset_ok_i)\n\
                 q_max = q, qmax_valid and force_eval set. Without en_i every value passes.",
            )
            .param("W", w)
            .param("PW", pw),
            QcacheModule::RateCmp { w, tol_shift } => ModuleDoc::new(
                "Q-cache monitor: division-free rate comparison produced*cyc_c against consumed*cyc_p with tolerance max >> EQ_TOL_SHIFT and the zero-count terms (spec 1.5)",
                "Combinational; no handshake. gt_o = consumed == 0 | lhs - rhs > tol, lt_o = produced == 0 | rhs - lhs > tol,\n\
                 rmax_o / rmin_o the larger / smaller product (2W bits), rc_zero_o = consumed == 0.",
            )
            .param("W", w)
            .param("EQ_TOL_SHIFT", tol_shift),
            QcacheModule::RatioDiv { w, bug } => ModuleDoc::new(
                match bug {
                    None => "Q-cache monitor: request magnitude register (4.4), a constant step or sat8((rmax << 4) / max(1, rmin)) by an 8-step serial divider (spec 1.5)",
                    Some(DivBug::SevenSteps) => "Q-cache monitor: request magnitude register with a PLANTED BUG (the division stops after 7 steps), for the checker tests",
                },
                "No handshake. At the edge: rst_i / clear_i zero everything; start_i saturates to 0xff (inf_i or rmax >> 4 >= rmin)\n\
                 or starts the 8 steps; load_i loads load_ratio_i; otherwise one quotient bit a cycle while steps remain.\n\
                 ratio_o is the register.",
            )
            .param("W2", 2 * w),
            QcacheModule::Filter { cfg, .. } => ModuleDoc::new("Q-cache transition filters of an L2's banks: (cur, next) MOESI state, request kind and domain to the PRODUCE / CONSUME / SPILL strobes (spec 1.2, 5)", companion::FILTER_PROTOCOL)
                .param("NBANKS", cfg.nbanks)
                .param("DOM_W", cfg.dom_w)
                .param("COUNT_O_TO_M", cfg.companion.filter.count_o_to_m as u8)
                .param("COUNT_LOCAL_HIT_M", cfg.companion.filter.count_local_hit_m as u8),
            QcacheModule::GpuActuator { cfg, .. } => ModuleDoc::new("Q-cache GPU actuator: DVFS over 5 P-states plus threadblock draining and core disable for rate requests (spec 1.8, 5)", companion::ACT_PROTOCOL)
                .param("NCORES", cfg.companion.gpu_cores)
                .param("CLOCK_MHZ", cfg.companion.clock_mhz)
                .param("TRANSITION_CYCLES", format!("{:?}", cfg.companion.gpu_lat)),
            QcacheModule::CpuDvfs { cfg, .. } => ModuleDoc::new("Q-cache CPU DVFS of one CPU core: 6 P-states for rate requests, NACK at the limit (spec 1.8, 5)", companion::ACT_PROTOCOL)
                .param("NOMINAL_MHZ", cfg.companion.cpu_mhz)
                .param("CLOCK_MHZ", cfg.companion.clock_mhz)
                .param("TRANSITION_CYCLES", format!("{:?}", cfg.companion.cpu_lat)),
            QcacheModule::FilterRule { o_to_m, local_hit_m } => ModuleDoc::new(
                "Q-cache transition filter: one bank's rule of spec 1.2 (PRODUCE: a local WRITE makes I/S/E (O with COUNT_O_TO_M) M; CONSUME: another domain's FWD_GETS/FWD_GETX hits M; SPILL: WRITEBACK of M)",
                "Combinational; no handshake. Every strobe 0 without v_i.",
            )
            .param("COUNT_O_TO_M", *o_to_m as u8)
            .param("COUNT_LOCAL_HIT_M", *local_hit_m as u8),
            QcacheModule::DvfsScale => ModuleDoc::new("Q-cache actuators: the request's ratio r = max(ratio, 16) and the scaled current throughput 16*cur and cur*r (spec 1.8)", "Combinational; no handshake."),
            QcacheModule::DvfsPick => ModuleDoc::new(
                "Q-cache actuators: one candidate setting against the best so far; in the requested direction, distance |s*r - 16*cur| (slow) or |16*s - cur*r| (speed), taken when strictly closer (spec 1.8)",
                "Combinational; no handshake. Chained from bv_i = 0; the first candidate wins a tie.",
            ),
        }
    }
}

fn unsupported(field: &str, value: u32, allowed: &str) -> GenError {
    GenError::Unsupported { field: field.into(), message: format!("{value} has no monomorphized leaf"), allowed: allowed.into() }
}

/// One bank's event leaf for `pw`-bit counts and `nd` domains (ids of clog2(nd) bits).
fn emit_bank_events(lib: &mut Library, pw: u32, nd: u32) -> Result<String, GenError> {
    let entry = QcacheModule::BankEvents { pw, nd };
    macro_rules! by_nd {
        ($pw:literal) => {
            match nd {
                2 => lib.emit(&entry, BankEvents::<$pw, 1, 2>::default),
                3 => lib.emit(&entry, BankEvents::<$pw, 2, 3>::default),
                4 => lib.emit(&entry, BankEvents::<$pw, 2, 4>::default),
                5 => lib.emit(&entry, BankEvents::<$pw, 3, 5>::default),
                6 => lib.emit(&entry, BankEvents::<$pw, 3, 6>::default),
                7 => lib.emit(&entry, BankEvents::<$pw, 3, 7>::default),
                8 => lib.emit(&entry, BankEvents::<$pw, 3, 8>::default),
                _ => Err(unsupported("qcache.ndom", nd, "2..=8")),
            }
        };
    }
    match pw {
        2 => by_nd!(2),
        3 => by_nd!(3),
        4 => by_nd!(4),
        5 => by_nd!(5),
        6 => by_nd!(6),
        _ => Err(unsupported("qcache.nbanks", pw, "1..=32")),
    }
}

/// The window counters' leaf for `w`-bit counters and `pw`-bit counts.
fn emit_window_events(lib: &mut Library, w: u32, pw: u32) -> Result<String, GenError> {
    let entry = QcacheModule::WindowEvents { w, pw };
    macro_rules! by_pw {
        ($w:literal, $w1:literal) => {
            match pw {
                2 => lib.emit(&entry, WindowEvents::<$w, $w1, 2>::default),
                3 => lib.emit(&entry, WindowEvents::<$w, $w1, 3>::default),
                4 => lib.emit(&entry, WindowEvents::<$w, $w1, 4>::default),
                5 => lib.emit(&entry, WindowEvents::<$w, $w1, 5>::default),
                6 => lib.emit(&entry, WindowEvents::<$w, $w1, 6>::default),
                _ => Err(unsupported("qcache.nbanks", pw, "1..=32")),
            }
        };
    }
    match w {
        8 => by_pw!(8, 9),
        16 => by_pw!(16, 17),
        32 => by_pw!(32, 33),
        64 => by_pw!(64, 65),
        _ => Err(unsupported("qcache.cnt_w", w, "8, 16, 32, 64")),
    }
}

fn emit_rate_cmp(lib: &mut Library, w: u32, tol_shift: u32) -> Result<String, GenError> {
    let entry = QcacheModule::RateCmp { w, tol_shift };
    match w {
        8 => lib.emit(&entry, || RateCmp::<8, 16>::new(tol_shift)),
        16 => lib.emit(&entry, || RateCmp::<16, 32>::new(tol_shift)),
        32 => lib.emit(&entry, || RateCmp::<32, 64>::new(tol_shift)),
        64 => lib.emit(&entry, || RateCmp::<64, 128>::new(tol_shift)),
        _ => Err(unsupported("qcache.cnt_w", w, "8, 16, 32, 64")),
    }
}

fn emit_ratio_div(lib: &mut Library, w: u32, bug: Option<DivBug>) -> Result<String, GenError> {
    let entry = QcacheModule::RatioDiv { w, bug };
    match w {
        8 => lib.emit(&entry, || RatioDiv::<16>::new(bug)),
        16 => lib.emit(&entry, || RatioDiv::<32>::new(bug)),
        32 => lib.emit(&entry, || RatioDiv::<64>::new(bug)),
        64 => lib.emit(&entry, || RatioDiv::<128>::new(bug)),
        _ => Err(unsupported("qcache.cnt_w", w, "8, 16, 32, 64")),
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
    spill_shift: u32,
    qlock_shift: u32,
    damp: u32,
    lock_probe: u32,
    lpw: u32,
    bank_mod: String,
    win_mod: String,
    cmp_mod: String,
    div_mod: String,
}

/// The leaf modules the top instantiates.
struct Leaves {
    bank_mod: String,
    win_mod: String,
    cmp_mod: String,
    div_mod: String,
}

fn view(c: &QcacheConfig, preset: &str, l: Leaves) -> MonitorTop {
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
        spill_shift: c.spill_little_shift,
        qlock_shift: c.qlock_shift,
        damp: (c.policy == golden::qcache::config::Policy::DampOnReversal) as u32,
        lock_probe: c.lock_probe_evals,
        lpw: c.lock_probe_w,
        bank_mod: l.bank_mod,
        win_mod: l.win_mod,
        cmp_mod: l.cmp_mod,
        div_mod: l.div_mod,
    }
}

impl Generate for Qcache {
    type Design = QcacheDesign;

    fn generate(cfg: &ConfigFile<QcacheConfig>) -> Result<Generated, GenError> {
        generate_with(cfg, None)
    }
}

/// The monitor with the magnitude divider's planted bug `bug` (None: the real one), for
/// showing that the lockstep co-simulation catches a wrong leaf.
pub fn generate_with(cfg: &ConfigFile<QcacheConfig>, bug: Option<DivBug>) -> Result<Generated, GenError> {
    let c = &cfg.config;
    let mut lib = Library::default();
    let leaves = Leaves {
        bank_mod: emit_bank_events(&mut lib, c.ev_w, c.ndom)?,
        win_mod: emit_window_events(&mut lib, c.cnt_w, c.ev_w)?,
        cmp_mod: emit_rate_cmp(&mut lib, c.cnt_w, c.eq_tol_shift)?,
        div_mod: emit_ratio_div(&mut lib, c.cnt_w, bug)?,
    };
    let top = lib.add_text(&QcacheModule::Monitor { preset: &cfg.name, cfg: c }, view(c, &cfg.name, leaves).render()?)?;
    let companions = companion::designs(&mut lib, &cfg.name, c)?;
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
        ("LOCK_PROBE_EVALS", json!(c.lock_probe_evals)),
    ] {
        d = d.param(k, v);
    }
    d = d.table("state_codes", json!(st::NAMES)).table("storage_bits", json!(c.storage()));
    let mut designs = vec![d];
    designs.extend(companions);
    Generated::new(cfg, <Qcache as golden::block::Block>::TABLE, lib, designs)
}
