//! Verilog generators for MACRO-NoC and the baseline VC mesh (spec §4.1–4.2).
//!
//! `gpuforge gen configs/noc/noc_macro_*.toml` writes, under `rtl_out/<preset>/`, one
//! module library and these designs ([`NocDesign`]): `reply/` (the hinge-router reply
//! plane `macro_reply_mesh_<preset>`), `request/` (the wormhole request plane),
//! `macro_top/` (both planes), `routers/hinge/` and `routers/request/` (one router each,
//! for synthesis and router-level co-simulation); a baseline config writes `baseline/`
//! (every plane) and `routers/baseline/`. Every derived table (ROM rows, compatibility,
//! groups, default windows, schedule constants) comes from `golden::noc`; every module is
//! named and documented by [`catalog::NocModule`].

pub mod catalog;
pub mod leaf;
pub mod reply;
pub mod vc;

use golden::block::{Block, ConfigFile};
use golden::noc::config::{NocConfig, NocKind, Routing, VcParams};
use golden::noc::flit::VcLayout;
use golden::noc::link::LinkFmt;
use golden::noc::Noc;
use serde_json::json;

use crate::catalog::Catalog;
use crate::design::{DesignSpec, GenError, Generated};
use crate::library::Library;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};
use crate::Generate;
use catalog::NocModule;

/// A wormhole VC plane of a config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plane {
    /// MACRO-NoC's request plane (`[noc.request]`).
    Request,
    /// The baseline's planes (`[noc.baseline]`).
    Baseline,
}

impl Plane {
    pub fn params(self, c: &NocConfig) -> &VcParams {
        match self {
            Plane::Request => &c.request,
            Plane::Baseline => &c.baseline,
        }
    }

    /// Module-name suffix of the plane.
    fn tag(self) -> &'static str {
        match self {
            Plane::Request => "req",
            Plane::Baseline => "base",
        }
    }
}

/// The designs the NoC generator writes (the manifest's `design`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum NocDesign {
    /// The MACRO-NoC reply plane.
    ReplyMesh,
    /// One wormhole VC mesh (MACRO-NoC's request plane).
    VcMesh { plane: Plane },
    /// MACRO-NoC's both planes (reply ports, then the request plane's with `req_`).
    MacroTop,
    /// Every baseline plane (ports `p<k>_`).
    BaselineTop { planes: u32 },
    /// One hinge router with its ROM, position (x, y) tied.
    HingeRouter { x: u32, y: u32 },
    /// One VC router of a plane, position (x, y) tied.
    VcRouter { plane: Plane, x: u32, y: u32 },
}

/// A route ROM's rows, as hex words and symbolically.
fn rom_rows(rows: &[golden::noc::route_rom::RomRow]) -> serde_json::Value {
    json!({"rows": rows.iter().map(|r| format!("{:#010x}", r.bits())).collect::<Vec<_>>(),
           "symbolic": rows.iter().map(|r| r.symbolic()).collect::<Vec<_>>()})
}

/// The reply link's field table and its payloads' (golden `noc::link`), and the route
/// ROM's row encoding (golden `noc::route_rom`).
fn link_tables(d: DesignSpec, c: &NocConfig) -> DesignSpec {
    use golden::noc::link::{gomcfg_window, GOMCFG_IDX, GOMCFG_WINDOWS, STATUS_FIELDS, T_DATA, T_GOMCFG, T_STATUS};
    use golden::noc::route_rom::{OVL_BITS, OVL_NONE, ROW_BITS, ROW_FIELDS, SRC_FIELDS};
    let f = LinkFmt::new(c);
    d.table(
        "link",
        json!({"width": f.width, "fields": f.fields(), "types": {"data": T_DATA, "status": T_STATUS, "gomcfg": T_GOMCFG},
               "status_payload": STATUS_FIELDS,
               "gomcfg_payload": {"index": GOMCFG_IDX, "windows": (0..GOMCFG_WINDOWS).map(gomcfg_window).collect::<Vec<_>>()}}),
    )
    .table("route_rom_row", json!({"width": ROW_BITS, "fields": ROW_FIELDS, "source_fields": SRC_FIELDS, "address_bits": OVL_BITS, "address_none": OVL_NONE}))
}

/// The overlay schedule every hinge router runs: groups, default windows, constants.
fn schedule_tables(d: DesignSpec, c: &NocConfig) -> DesignSpec {
    use golden::noc::gom::{GOMCFG_CYCLE, SNAPSHOT_CYCLE, SWAP_CYCLE};
    d.table("groups", json!(c.groups)).table("default_windows", json!(c.default_windows)).table(
        "schedule",
        json!({"prologue": c.reply.prologue, "epoch": c.reply.epoch, "period": c.reply.period, "interval": c.reply.interval,
               "t_min": c.reply.t_min, "gomcfg_cycles": GOMCFG_CYCLE, "snapshot_cycle": SNAPSHOT_CYCLE, "swap_cycle": SWAP_CYCLE}),
    )
}

/// The reply plane's derived tables: every router's ROM, the compatibility table, the
/// schedule and the link.
fn reply_tables(d: DesignSpec, c: &NocConfig) -> DesignSpec {
    let roms: Vec<serde_json::Value> = (0..c.nodes())
        .map(|id| {
            let (x, y) = c.xy(id);
            let mut r = rom_rows(&c.roms[id]);
            r["x"] = json!(x);
            r["y"] = json!(y);
            r
        })
        .collect();
    let d = d.table("route_rom", json!(roms)).table("compatible", json!(c.compatible));
    link_tables(schedule_tables(d, c), c)
}

/// Parameters every hinge router runs with: the mesh, the link, the schedule.
fn router_parameters(d: DesignSpec, c: &NocConfig) -> DesignSpec {
    d.param("MESH_N", c.n)
        .param("NUM_OVL", c.m())
        .param("NUM_GROUPS", c.g())
        .param("LINK_W", c.link_w())
        .param("FLIT_W", golden::noc::config::REPLY_FLIT_W)
        .param("EPOCH", c.reply.epoch)
        .param("KPER", c.reply.period)
        .param("PROLOGUE", c.reply.prologue)
        .param("T_MIN", c.reply.t_min)
        .param("INTERVAL", c.reply.interval)
        .param("MUX_EN", c.reply.mux)
}

/// Parameters of the reply plane: the routers', the MC queues' and the GOM's weights.
fn reply_parameters(d: DesignSpec, c: &NocConfig) -> DesignSpec {
    router_parameters(d, c).param("REPLY_Q", c.reply.reply_queue).param("ALPHA", c.reply.alpha).param("GAMMA", c.reply.gamma)
}

/// The router-level hinge design of router (x, y): the routers' parameters (no MC
/// queue, no GOM weights), its position and role, its ROM rows, the schedule it runs
/// and the link.
fn hinge_spec(d: DesignSpec, c: &NocConfig, x: u32, y: u32) -> DesignSpec {
    let id = c.node(x, y);
    let mc = c.mc_at(id);
    let d = router_parameters(d, c)
        .param("X", x)
        .param("Y", y)
        .param("MC_IDX", mc.map(|i| i as u32).unwrap_or(golden::noc::route_rom::OVL_NONE))
        .param("PHASE", mc.map_or(0, |i| c.group_of[i].1))
        .param("GOM", c.gom_node() == id)
        .table("route_rom", rom_rows(&c.roms[id]));
    link_tables(schedule_tables(d, c), c)
}

/// Parameters of a VC plane (`pre` prefixes the names on a multi-plane top).
fn vc_parameters(d: DesignSpec, c: &NocConfig, p: &VcParams, pre: &str) -> DesignSpec {
    let lay = VcLayout::for_plane(c, p);
    d.param(&format!("{pre}MESH_N"), c.n)
        .param(&format!("{pre}FLIT_W"), p.flit_width)
        .param(&format!("{pre}VCS"), p.vcs)
        .param(&format!("{pre}BUF_DEPTH"), p.buf_depth)
        .param(&format!("{pre}ROUTING"), format!("{:?}", p.routing).to_uppercase())
        .param(&format!("{pre}ROUTER_FLIT_W"), lay.flit_width())
        .param(&format!("{pre}LINK_HDR_W"), lay.header_width())
}

/// The VC link's field table (golden `VcLayout`): table `<pre>vc_link`.
fn vc_tables(d: DesignSpec, c: &NocConfig, p: &VcParams, pre: &str) -> DesignSpec {
    let lay = VcLayout::for_plane(c, p);
    d.table(&format!("{}vc_link", pre.to_lowercase()), json!({"width": lay.link_width(), "flit_width": lay.flit_width(), "header": lay.header(), "fields": lay.fields()}))
}

/// A VC plane's parameters and link table.
fn vc_spec(d: DesignSpec, c: &NocConfig, p: &VcParams, pre: &str) -> DesignSpec {
    vc_tables(vc_parameters(d, c, p, pre), c, p, pre)
}

#[derive(askama::Template)]
#[template(path = "noc/macro_top.v", escape = "none")]
struct MacroTop {
    name: String,
    ports: Vec<PortView>,
    reply: String,
    request: String,
    reply_ports: Vec<String>,
    req_ports: Vec<String>,
}

#[derive(askama::Template)]
#[template(path = "noc/baseline_top.v", escape = "none")]
struct BaselineTop {
    name: String,
    ports: Vec<PortView>,
    planes: u32,
    plane_ids: Vec<u32>,
    mesh: String,
    mesh_ports: Vec<String>,
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

impl Generate for Noc {
    type Design = NocDesign;

    /// MACRO-NoC: `reply/`, `request/`, `macro_top/`, `routers/hinge/`,
    /// `routers/request/`; baseline: `baseline/`, `routers/baseline/`.
    fn generate(cfg: &ConfigFile<NocConfig>) -> Result<Generated, GenError> {
        let (c, p) = (&cfg.config, cfg.name.as_str());
        for (plane, vc) in [("request", &c.request), ("baseline", &c.baseline)] {
            if vc.routing == Routing::XyYx {
                return Err(GenError::Unsupported {
                    field: format!("noc.{plane}.routing"),
                    message: "\"xy_yx\" is a comparator network of the golden model (spec macro_noc.md 1.12): no RTL is generated for it".into(),
                    allowed: "\"xy\" or \"yx\" for gen, lint, synth and cosim".into(),
                });
            }
        }
        let mut lib = Library::default();
        let mut designs = Vec::new();
        let clk = || vec![Port::clock("clk_i"), Port::reset("rst_i")];
        match c.kind {
            NocKind::Macro => {
                let reply = reply::mesh_modules(c, p, &mut lib)?;
                let d = DesignSpec::new("reply", &NocDesign::ReplyMesh, &reply, reply::ports(c)).no_synth();
                designs.push(reply_tables(reply_parameters(d, c), c));
                let req = vc::mesh_modules(c, &c.request, p, Plane::Request.tag(), &mut lib)?;
                let mut req_ports = clk();
                req_ports.extend(vc::ports(c, &c.request, ""));
                let d = DesignSpec::new("request", &NocDesign::VcMesh { plane: Plane::Request }, &req, req_ports).no_synth();
                designs.push(vc_spec(d, c, &c.request, ""));
                let entry = NocModule::MacroTop { preset: p };
                let top = MacroTop {
                    name: entry.name(),
                    ports: port_views(&macro_top_ports(c)),
                    reply: reply.clone(),
                    request: req,
                    reply_ports: reply::ports(c).iter().map(|p| p.name.clone()).collect(),
                    req_ports: names(&vc::ports(c, &c.request, "")),
                };
                let top = lib.add_text(&entry, askama::Template::render(&top)?)?;
                let d = DesignSpec::new("macro_top", &NocDesign::MacroTop, &top, macro_top_ports(c)).no_synth();
                designs.push(vc_spec(reply_tables(reply_parameters(d, c), c), c, &c.request, "REQ_"));
                let hinge = reply::hinge_top_modules(c, p, &mut lib)?;
                let (x, y) = reply::hinge_top_xy(c);
                let d = DesignSpec::new("routers/hinge", &NocDesign::HingeRouter { x, y }, &hinge, reply::hinge_top_ports(c));
                designs.push(hinge_spec(d, c, x, y));
                let router = vc::router_top_modules(c, &c.request, p, Plane::Request.tag(), &mut lib)?;
                let (x, y) = vc::router_top_xy(c);
                let d = DesignSpec::new("routers/request", &NocDesign::VcRouter { plane: Plane::Request, x, y }, &router, vc::router_top_ports(c, &c.request));
                designs.push(vc_spec(d, c, &c.request, "").param("X", x).param("Y", y));
            }
            NocKind::Baseline => {
                let mesh = vc::mesh_modules(c, &c.baseline, p, Plane::Baseline.tag(), &mut lib)?;
                let entry = NocModule::BaselineTop { preset: p, planes: c.baseline.planes };
                let top = BaselineTop {
                    name: entry.name(),
                    ports: port_views(&baseline_top_ports(c)),
                    planes: c.baseline.planes,
                    plane_ids: (0..c.baseline.planes).collect(),
                    mesh,
                    mesh_ports: names(&vc::ports(c, &c.baseline, "")),
                };
                let top = lib.add_text(&entry, askama::Template::render(&top)?)?;
                let d = DesignSpec::new("baseline", &NocDesign::BaselineTop { planes: c.baseline.planes }, &top, baseline_top_ports(c)).no_synth();
                designs.push(vc_spec(d, c, &c.baseline, "").param("PLANES", c.baseline.planes));
                let router = vc::router_top_modules(c, &c.baseline, p, Plane::Baseline.tag(), &mut lib)?;
                let (x, y) = vc::router_top_xy(c);
                let d = DesignSpec::new("routers/baseline", &NocDesign::VcRouter { plane: Plane::Baseline, x, y }, &router, vc::router_top_ports(c, &c.baseline));
                designs.push(vc_spec(d, c, &c.baseline, "").param("X", x).param("Y", y));
            }
        }
        Generated::new(cfg, Noc::TABLE, lib, designs)
    }
}
