//! Verilog generators for MACRO-NoC (spec §4.1–4.2).
//!
//! `gpuforge gen configs/noc/noc_macro_*.toml` writes, under `rtl_out/<preset>/`:
//! * `reply/`: the reply plane `macro_reply_mesh_<preset>` (hinge routers with their
//!   overlay controllers, MC network interfaces, the GOM) — co-simulated in lockstep;
//! [`hinge_router_design`] gives one router alone for synthesis area numbers.
//! Every derived table (ROM rows per router, compatibility, groups, default windows,
//! schedule constants) is in each manifest's `tables`, computed by `golden::noc`.

pub mod leaf;
pub mod reply;
pub mod vc;

use std::collections::BTreeMap;
use std::path::PathBuf;

use golden::config::ConfigFile;
use golden::noc::config::{NocConfig, NocKind};
use serde_json::json;

use crate::design::{Design, GenError};
use crate::emit::ModuleSet;
use crate::manifest::{Manifest, Port};

fn header(name: &str, cfg: &ConfigFile, top: &str) -> String {
    if let Some(what) = crate::leaf::prim::describe(name) {
        return crate::design::file_header(name, what, cfg, "", false);
    }
    let (what, notes) = describe(name);
    let protocol = if notes.is_empty() {
        String::new()
    } else {
        notes.lines().fold("Protocol: single clock clk_i, synchronous active-high reset rst_i.\n".to_string(), |p, l| p + "  " + l + "\n")
    };
    crate::design::file_header(name, what, cfg, &protocol, name == top)
}

/// One line saying what a module is, and its protocol notes (empty for primitives).
fn describe(name: &str) -> (&'static str, &'static str) {
    const MESH: &str = "* mc_reply_v_i / mc_reply_ready_o: valid-ready; a flit enters MC i's reply queue when both are high.
* Injection happens only in the MC's overlay slots; a flit reaches its node in 1 cycle (same row)
  or 3 cycles (turn) on the established overlay. eject_* has no back-pressure.
* dbg_* expose every bypass link and the latch/schedule state for lockstep comparison (spec 4.3 L1).";
    const ROUTER: &str = "* byp_in_* -> byp_out_*: combinational straight-through (bypass) paths; turns only from latch registers.
* loc_in_v_i & loc_in_grant_o = a transfer; loc_in_grant_o depends on counters only, never on loc_in_v_i.
* loc_out_o: ejection, valid in the MSB, no back-pressure. rom_addr_*_o / rom_row_*_i: this router's ROM.
* x_i, y_i, mc_i, mc_idx_i, ph_i, gom_i: constants of the router's position and role.";
    if name.starts_with("macro_reply_mesh_") {
        ("MACRO-NoC reply plane: hinge-router mesh, MC interfaces, GOM (spec 4.2)", MESH)
    } else if name.starts_with("macro_hinge_router_") {
        ("hinge router: bypass paths, latches (IDLE/CAPTURED/TURNING), input selection, overlay controller (spec 1.3-1.6)", ROUTER)
    } else if name.starts_with("macro_hinge_top_") {
        ("one hinge router with its route lookup ROM, position and role tied (router-level design for synthesis)", ROUTER)
    } else if name.starts_with("macro_hinge_sel_") {
        ("hinge router input selection (Algorithm 2), live-configuration decode, grant and ejection (spec 1.6)",
         "Purely combinational; reads registers (latches, controller) and constant ROM rows only.")
    } else if name.starts_with("macro_hinge_inj_") {
        ("hinge router local injection: the offered link with valid set on a transfer (valid & grant)", "Purely combinational.")
    } else if name.starts_with("macro_hinge_latch_") {
        ("hinge router latch that may turn: IDLE -> CAPTURED -> (TURNING ->) IDLE, N/S drive (spec 1.3)",
         "Captures wire_i when its valid bit and cap_en_i are high; lat/st/dn/ds are register outputs.")
    } else if name.starts_with("macro_hinge_end_latch_") {
        ("hinge router N/S latch: IDLE -> CAPTURED -> IDLE (eject or drop) (spec 1.3)",
         "Captures wire_i when its valid bit and cap_en_i are high; lat/st are register outputs.")
    } else if name.starts_with("macro_bypass_ew_") {
        ("E/W bypass output: straight bypass input or the local injection (spec 1.3 legal sources)", "Purely combinational.")
    } else if name.starts_with("macro_bypass_ns_") {
        ("N/S bypass output: straight bypass input or the turning latch (spec 1.3 legal sources)", "Purely combinational.")
    } else if name.starts_with("macro_ovl_ctrl_") {
        ("overlay controller: Algorithm 1 with exact-sum windows, T_MIN, the GOM prologue and T-pending (spec 1.5)",
         "All outputs are functions of registers; GOMCFG flits are taken from the router's CAPTURED latches.")
    } else if name.starts_with("macro_route_rom_") {
        ("route lookup ROM of one hinge router: rows 0..m-1 overlays, row m the GOM broadcast (spec 1.4)",
         "Two combinational read ports; an address past the last row (4'hf = none) reads 0.")
    } else if name.starts_with("macro_mc_ni_") {
        ("MC network interface: reply queue, arrival/occupancy counters, STATUS flits (spec 1.9-1.10)",
         "push_v_i / ready_o valid-ready from L2/DRAM; loc_in_v_o never depends on grant_i.")
    } else if name.starts_with("macro_gom_") {
        ("Global Overlay Manager: status collection, integer window computation, GOMCFG broadcast (spec 1.9)",
         "Snapshot at prologue cycle 2, shift-add multiply 3..12, division 13..22, broadcast at 23 (and 25).")
    } else {
        ("part of a gpuforge NoC leaf block", "")
    }
}

fn tables(c: &NocConfig) -> BTreeMap<String, serde_json::Value> {
    let mut t = BTreeMap::new();
    let roms: Vec<serde_json::Value> = (0..c.nodes())
        .map(|id| {
            let (x, y) = c.xy(id);
            json!({"x": x, "y": y, "rows": c.roms[id].iter().map(|r| format!("{:#010x}", r.bits())).collect::<Vec<_>>(),
                   "symbolic": c.roms[id].iter().map(|r| r.symbolic()).collect::<Vec<_>>()})
        })
        .collect();
    t.insert("route_rom".into(), json!(roms));
    t.insert("compatible".into(), json!(c.compatible));
    t.insert("groups".into(), json!(c.groups));
    t.insert("default_windows".into(), json!(c.default_windows));
    t.insert(
        "schedule".into(),
        json!({"prologue": c.reply.prologue, "epoch": c.reply.epoch, "period": c.reply.period, "interval": c.reply.interval,
               "t_min": c.reply.t_min, "gomcfg_cycles": golden::noc::gom::GOMCFG_CYCLE, "snapshot_cycle": golden::noc::gom::SNAPSHOT_CYCLE,
               "swap_cycle": golden::noc::gom::SWAP_CYCLE}),
    );
    t.insert("link".into(), json!({"width": c.link_w(), "cw": c.cw(), "sw": c.sw(), "payload": 64}));
    t
}

fn parameters(c: &NocConfig) -> BTreeMap<String, serde_json::Value> {
    let mut m = BTreeMap::new();
    m.insert("MESH_N".into(), json!(c.n));
    m.insert("NUM_OVL".into(), json!(c.m()));
    m.insert("NUM_GROUPS".into(), json!(c.g()));
    m.insert("LINK_W".into(), json!(c.link_w()));
    m.insert("FLIT_W".into(), json!(64));
    m.insert("EPOCH".into(), json!(c.reply.epoch));
    m.insert("KPER".into(), json!(c.reply.period));
    m.insert("PROLOGUE".into(), json!(c.reply.prologue));
    m.insert("T_MIN".into(), json!(c.reply.t_min));
    m.insert("INTERVAL".into(), json!(c.reply.interval));
    m.insert("MUX_EN".into(), json!(c.reply.mux));
    m.insert("REPLY_Q".into(), json!(c.reply.reply_queue));
    m
}

fn design(cfg: &ConfigFile, c: &NocConfig, top: String, ports: Vec<Port>, set: ModuleSet) -> Result<Design, GenError> {
    let manifest = Manifest {
        generator: format!("gpuforge {}", env!("CARGO_PKG_VERSION")),
        block: "noc".into(),
        preset: cfg.name.clone(),
        top: top.clone(),
        files: Vec::new(),
        ports,
        parameters: parameters(c),
        tables: tables(c),
        config: serde_json::to_value(c).expect("config serializes"),
        config_source: cfg.source.clone(),
        content_hash: String::new(),
    };
    Ok(Design::from_modules(&set, |name| header(name, cfg, &top), manifest))
}

pub(crate) use crate::ports::{port_views, PortView};

#[derive(askama::Template)]
#[template(path = "noc_macro_top.v", escape = "none")]
struct MacroTop {
    name: String,
    ports: Vec<PortView>,
    reply: String,
    request: String,
    reply_ports: Vec<String>,
    req_ports: Vec<String>,
}

#[derive(askama::Template)]
#[template(path = "noc_baseline_top.v", escape = "none")]
struct BaselineTop {
    name: String,
    ports: Vec<PortView>,
    planes: u32,
    plane_ids: Vec<u32>,
    mesh: String,
    mesh_ports: Vec<String>,
}

pub fn macro_top_name(p: &str) -> String {
    format!("macro_noc_top_{p}")
}
pub fn baseline_top_name(p: &str) -> String {
    format!("baseline_noc_top_{p}")
}

/// Ports of `macro_noc_top_*`: the reply plane's, then the request plane's with `req_`.
pub fn macro_top_ports(c: &NocConfig) -> Vec<Port> {
    let mut v = reply::ports(c);
    v.extend(vc::ports(c, &c.request, "req_"));
    v
}

/// Ports of `baseline_noc_top_*`: each plane's with `p<k>_`.
pub fn baseline_top_ports(c: &NocConfig) -> Vec<Port> {
    let mut v = vec![Port::clock("clk_i"), Port::reset("rst_i")];
    for k in 0..c.baseline.planes {
        v.extend(vc::ports(c, &c.baseline, &format!("p{k}_")));
    }
    v
}

fn names(ports: &[Port]) -> Vec<String> {
    ports.iter().filter(|p| p.name != "clk_i" && p.name != "rst_i").map(|p| p.name.clone()).collect()
}

/// Every design of a NoC config, each with its sub-directory of the preset's output:
/// MACRO-NoC `reply/`, `request/`, `macro_top/` (both planes), `routers/hinge/`,
/// `routers/request/`; baseline `baseline/` and `routers/baseline/`.
pub fn generate(cfg: &ConfigFile, c: &NocConfig) -> Result<Vec<(PathBuf, Design)>, GenError> {
    let p = &cfg.name;
    let mut out = Vec::new();
    match c.kind {
        NocKind::Macro => {
            let reply_mods = reply::mesh_modules(c, p)?;
            out.push((PathBuf::from("reply"), design(cfg, c, reply::mesh_name(p), reply::ports(c), reply_mods.clone())?));
            let mut req_mods = ModuleSet::default();
            let req = vc::mesh_modules(c, &c.request, p, "req", &mut req_mods)?;
            let mut req_ports = vec![Port::clock("clk_i"), Port::reset("rst_i")];
            req_ports.extend(vc::ports(c, &c.request, ""));
            out.push((PathBuf::from("request"), design(cfg, c, req.clone(), req_ports, req_mods.clone())?));
            let mut both = reply_mods;
            both.extend(req_mods.iter())?;
            let top = MacroTop {
                name: macro_top_name(p),
                ports: port_views(&macro_top_ports(c)),
                reply: reply::mesh_name(p),
                request: req,
                reply_ports: reply::ports(c).iter().map(|p| p.name.clone()).collect(),
                req_ports: names(&vc::ports(c, &c.request, "")),
            };
            both.add(crate::emit::Module { name: top.name.clone(), text: askama::Template::render(&top)? + "\n" })?;
            out.push((PathBuf::from("macro_top"), design(cfg, c, top.name.clone(), macro_top_ports(c), both)?));
            let (top, mods) = reply::hinge_top_modules(c, p)?;
            out.push((PathBuf::from("routers/hinge"), design(cfg, c, top, reply::hinge_top_ports(c), mods)?));
            let (top, mods) = vc::router_top_modules(c, &c.request, p, "req")?;
            out.push((PathBuf::from("routers/request"), design(cfg, c, top, vc::router_top_ports(c, &c.request), mods)?));
        }
        NocKind::Baseline => {
            let mut mods = ModuleSet::default();
            let mesh = vc::mesh_modules(c, &c.baseline, p, "base", &mut mods)?;
            let top = BaselineTop {
                name: baseline_top_name(p),
                ports: port_views(&baseline_top_ports(c)),
                planes: c.baseline.planes,
                plane_ids: (0..c.baseline.planes).collect(),
                mesh,
                mesh_ports: names(&vc::ports(c, &c.baseline, "")),
            };
            mods.add(crate::emit::Module { name: top.name.clone(), text: askama::Template::render(&top)? + "\n" })?;
            out.push((PathBuf::from("baseline"), design(cfg, c, top.name.clone(), baseline_top_ports(c), mods)?));
            let (top, mods) = vc::router_top_modules(c, &c.baseline, p, "base")?;
            out.push((PathBuf::from("routers/baseline"), design(cfg, c, top, vc::router_top_ports(c, &c.baseline), mods)?));
        }
    }
    Ok(out)
}
