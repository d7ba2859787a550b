//! The companion blocks of spec §5, generated beside `qc_rate_monitor` from the same
//! `[qcache]` config (its `[qcache.companion]` table):
//!
//! * `filter/`: `qc_transition_filter_<preset>`, the transition filters of the L2's
//!   banks (leaf `qc_filter_rule_*` per bank, the strobes registered), in the shape of
//!   the monitor's event inputs.
//! * `gpu_actuator/`: `qc_gpu_actuator_<preset>`, the GPU core scheduler's
//!   `active_core_mask` and `pstate`, the transition countdown and the drain, the
//!   closest setting by a chain of `qc_dvfs_pick` leaves (one per (cores, P-state)).
//! * `cpu_dvfs/`: `qc_cpu_dvfs_<preset>`, one CPU core's DVFS controller.
//!
//! Every constant (P-state tables, transition latencies in cycles at `clock_mhz`, the
//! nominal CPU P-state) comes from `golden::qcache::config::Companion`.

use askama::Template;
use golden::qcache::actuator::{GpuSetting, GPU_PSTATES};
use golden::qcache::config::QcacheConfig;
use golden::qcache::cpu::CPU_PSTATES;
use serde_json::json;

use super::leaf::companion::{DvfsPick, DvfsScale, FilterRule};
use super::QcacheModule;
use crate::design::{DesignSpec, GenError};
use crate::library::Library;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

/// One candidate of the closest-setting chain.
pub struct Cand {
    pub cores: u32,
    pub mhz: u32,
    pub s: u64,
    pub s16: u64,
    pub mask: String,
    pub p: usize,
    /// `s·r` of the same P-state with one core fewer: a wire, or 0 for one core.
    pub sr_prev: String,
}

/// Candidate `k` of a chain over `np` P-states (index `(cores − 1)·np + pstate`).
fn cand(k: usize, np: usize, cores: u32, pstate: usize, mhz: u32, mask: u32) -> Cand {
    let s = cores as u64 * mhz as u64;
    let sr_prev = if cores == 1 { "32'd0".to_string() } else { format!("sr[{}]", k - np) };
    Cand { cores, mhz, s, s16: 16 * s, mask: format!("{mask:04x}"), p: pstate, sr_prev }
}

/// One P-state of the chain: `f·r` is one product per P-state.
pub struct Pst {
    pub p: usize,
    pub mhz: u32,
}

fn low_mask(n: u32) -> u32 {
    ((1u64 << n) - 1) as u32
}

pub fn filter_top(preset: &str) -> String {
    format!("qc_transition_filter_{preset}")
}

pub fn gpu_top(preset: &str) -> String {
    format!("qc_gpu_actuator_{preset}")
}

pub fn cpu_top(preset: &str) -> String {
    format!("qc_cpu_dvfs_{preset}")
}

pub const FILTER_PROTOCOL: &str = "\
Per bank b: v_i[b] marks a line transition this cycle: cur_state_i / next_state_i (3 bits each,
  I 0, S 1, E 2, O 3, M 4; 5-7 read as I), req_type_i (READ 0, WRITE 1, FWD_GETS 2, FWD_GETX 3,
  WRITEBACK 4), req_dom_i (the requester's domain), is_local_i (the bank's own side).
Outputs: the next cycle, ev_prod_o / ev_cons_o / ev_spill_o[b] (spec 1.2) with the domain in
  ev_*_dom_o[b*DOM_W +: DOM_W] (0 without a strobe): the monitor's event inputs. Every output is a
  register. Single clock clk_i; synchronous active-high reset rst_i.";

pub const ACT_PROTOCOL: &str = "\
Requests: req_v_i with req_dir_i (0 slow, 1 speed), req_ratio_q44_i (4.4) and req_restore_i; every
  request is taken (no ready): it is answered by one response, rsp_v_o with rsp_ack_o (1 ACK,
  0 NACK). NACK the next cycle when a reconfiguration is under way (RESTORE replaces it) or no
  setting lies in the requested direction (the limit). Accepted: the setting closest to
  cur/r (slow) or cur*r (speed), ties to fewer cores then the lower P-state; the ACK the cycle
  after the transition's countdown (15 us + 10 us per further step, at most 45 us, in cycles)
  has run out and, GPU only, every core being switched off is empty (core_busy_i low).
Every output is a register. Single clock clk_i; synchronous active-high reset rst_i.";

pub fn filter_ports(c: &QcacheConfig) -> Vec<Port> {
    let (nb, dw) = (c.nbanks, c.dom_w);
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("v_i", nb, "per bank: a line transition this cycle").fields(nb),
        Port::input("cur_state_i", 3 * nb, "per bank: MOESI state before (I0 S1 E2 O3 M4)").fields(nb),
        Port::input("next_state_i", 3 * nb, "per bank: MOESI state after").fields(nb),
        Port::input("req_type_i", 3 * nb, "per bank: READ0 WRITE1 FWD_GETS2 FWD_GETX3 WRITEBACK4").fields(nb),
        Port::input("req_dom_i", dw * nb, "per bank: requester's domain").fields(nb),
        Port::input("is_local_i", nb, "per bank: the requester is the bank's own side").fields(nb),
        Port::output("ev_prod_o", nb, "per bank: PRODUCE strobe").fields(nb),
        Port::output("ev_prod_dom_o", dw * nb, "per bank: producer's domain").fields(nb),
        Port::output("ev_cons_o", nb, "per bank: CONSUME strobe").fields(nb),
        Port::output("ev_cons_dom_o", dw * nb, "per bank: consumer's domain").fields(nb),
        Port::output("ev_spill_o", nb, "per bank: SPILL strobe").fields(nb),
    ]
}

fn req_ports() -> Vec<Port> {
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("req_v_i", 1, "a rate request for this domain"),
        Port::input("req_dir_i", 1, "0 slow, 1 speed"),
        Port::input("req_ratio_q44_i", 8, "magnitude, unsigned 4.4 (below 1.0 reads as 1.0)"),
        Port::input("req_restore_i", 1, "return to the nominal setting"),
    ]
}

pub fn gpu_ports(c: &QcacheConfig) -> Vec<Port> {
    let n = c.companion.gpu_cores;
    let mut p = req_ports();
    p.push(Port::input("core_busy_i", n, "per core: threadblocks resident"));
    p.extend([
        Port::output("rsp_v_o", 1, "a response"),
        Port::output("rsp_ack_o", 1, "1 ACK (reconfigured), 0 NACK"),
        Port::output("busy_o", 1, "a reconfiguration is under way"),
        Port::output("pstate_o", 3, "P-state in effect (200, 325, 450, 575, 700 MHz)"),
        Port::output("dispatch_o", n, "per core: new threadblocks may start"),
        Port::output("active_core_mask_o", n, "per core: active in the setting in effect"),
    ]);
    p
}

pub fn cpu_ports() -> Vec<Port> {
    let mut p = req_ports();
    p.extend([
        Port::output("rsp_v_o", 1, "a response"),
        Port::output("rsp_ack_o", 1, "1 ACK (reconfigured), 0 NACK"),
        Port::output("busy_o", 1, "a transition is under way"),
        Port::output("pstate_o", 3, "P-state in effect (800, 1340, 1880, 2420, 2960, 3500 MHz)"),
    ]);
    p
}

#[derive(Template)]
#[template(path = "qcache/transition_filter.v", escape = "none")]
struct FilterTop {
    top: String,
    ports: Vec<PortView>,
    nb: u32,
    dw: u32,
    rule_mod: String,
}

#[derive(Template)]
#[template(path = "qcache/gpu_actuator.v", escape = "none")]
struct GpuTop {
    top: String,
    ports: Vec<PortView>,
    n: u32,
    lw: u32,
    all16: String,
    top_pst: usize,
    top_mhz: u32,
    nominal_proxy: u64,
    ncand: usize,
    cands: Vec<Cand>,
    psts: Vec<Pst>,
    lat: Vec<u64>,
    scale_mod: String,
    pick_mod: String,
    mul_mod: String,
}

#[derive(Template)]
#[template(path = "qcache/cpu_dvfs.v", escape = "none")]
struct CpuTop {
    top: String,
    ports: Vec<PortView>,
    lw: u32,
    nominal: usize,
    nominal_mhz: u32,
    ncand: usize,
    cands: Vec<Cand>,
    psts: Vec<Pst>,
    lat: Vec<u64>,
    scale_mod: String,
    pick_mod: String,
    mul_mod: String,
}

/// The three companion designs of `c` into `lib`.
pub fn designs(lib: &mut Library, preset: &str, c: &QcacheConfig) -> Result<Vec<DesignSpec>, GenError> {
    let k = &c.companion;
    let f = k.filter;
    let rule_mod = lib.emit(&QcacheModule::FilterRule { o_to_m: f.count_o_to_m, local_hit_m: f.count_local_hit_m }, || FilterRule::new(f.count_o_to_m, f.count_local_hit_m))?;
    let scale_mod = lib.emit(&QcacheModule::DvfsScale, DvfsScale::default)?;
    let pick_mod = lib.emit(&QcacheModule::DvfsPick, DvfsPick::default)?;

    let ft = FilterTop { top: filter_top(preset), ports: port_views(&filter_ports(c)), nb: c.nbanks, dw: c.dom_w, rule_mod };
    let ftop = lib.add_text(&QcacheModule::Filter { preset, cfg: c }, ft.render()?)?;
    let fd = DesignSpec::new("filter", &super::QcacheDesign::TransitionFilter, &ftop, filter_ports(c))
        .param("NBANKS", c.nbanks)
        .param("DOM_W", c.dom_w)
        .param("COUNT_O_TO_M", f.count_o_to_m as u32)
        .param("COUNT_LOCAL_HIT_M", f.count_local_hit_m as u32);

    let n = k.gpu_cores;
    let top_pst = GPU_PSTATES.len() - 1;
    let np = GPU_PSTATES.len();
    let cands: Vec<Cand> = GpuSetting::all(n).enumerate().map(|(k, s)| cand(k, np, s.cores, s.pstate, GPU_PSTATES[s.pstate], low_mask(s.cores))).collect();
    // the products f·r: qc_mul_w16, emitted with the scale leaf
    let mul_mod = "qc_mul_w16".to_string();
    assert!(lib.contains(&mul_mod), "qc_dvfs_scale brings {mul_mod}");
    let gt = GpuTop {
        top: gpu_top(preset),
        ports: port_views(&gpu_ports(c)),
        n,
        lw: k.lat_w,
        all16: format!("{:04x}", low_mask(n)),
        top_pst,
        top_mhz: GPU_PSTATES[top_pst],
        nominal_proxy: n as u64 * GPU_PSTATES[top_pst] as u64,
        ncand: cands.len(),
        cands,
        psts: GPU_PSTATES.iter().enumerate().map(|(p, &mhz)| Pst { p, mhz }).collect(),
        lat: k.gpu_lat.clone(),
        scale_mod: scale_mod.clone(),
        pick_mod: pick_mod.clone(),
        mul_mod: mul_mod.clone(),
    };
    let gtop = lib.add_text(&QcacheModule::GpuActuator { preset, cfg: c }, gt.render()?)?;
    let gd = DesignSpec::new("gpu_actuator", &super::QcacheDesign::GpuActuator, &gtop, gpu_ports(c))
        .param("NCORES", n)
        .param("CLOCK_MHZ", k.clock_mhz)
        .table("gpu_pstates_mhz", json!(GPU_PSTATES))
        .table("transition_cycles", json!(k.gpu_lat));

    let cands: Vec<Cand> = CPU_PSTATES.iter().enumerate().map(|(p, &mhz)| cand(p, CPU_PSTATES.len(), 1, p, mhz, 0)).collect();
    let ct = CpuTop {
        top: cpu_top(preset),
        ports: port_views(&cpu_ports()),
        lw: k.lat_w,
        nominal: k.cpu_nominal,
        nominal_mhz: k.cpu_mhz,
        ncand: cands.len(),
        cands,
        psts: CPU_PSTATES.iter().enumerate().map(|(p, &mhz)| Pst { p, mhz }).collect(),
        lat: k.cpu_lat.clone(),
        scale_mod,
        pick_mod,
        mul_mod,
    };
    let ctop = lib.add_text(&QcacheModule::CpuDvfs { preset, cfg: c }, ct.render()?)?;
    let cd = DesignSpec::new("cpu_dvfs", &super::QcacheDesign::CpuDvfs, &ctop, cpu_ports())
        .param("NOMINAL_MHZ", k.cpu_mhz)
        .param("CLOCK_MHZ", k.clock_mhz)
        .table("cpu_pstates_mhz", json!(CPU_PSTATES))
        .table("transition_cycles", json!(k.cpu_lat));
    Ok(vec![fd, gd, cd])
}
