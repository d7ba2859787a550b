//! The reply plane (spec §4.2 step 3): rust-hdl leaves ([`super::leaf`]) assembled by
//! the askama templates `templates/noc/hinge_router.v` (one hinge-router module per
//! preset), `templates/noc/reply_mesh.v` (the mesh top `macro_reply_mesh_<preset>`)
//! and `templates/noc/hinge_top.v` (the router-level design). Behaviour is that of
//! `golden::noc::{overlay_ctrl, hinge_router, mc_ni, gom, reply_mesh}`; every port
//! list is a `Port` vector ([`ports`], [`hinge_router_ports`], [`hinge_top_ports`])
//! that both the template and the manifest take, and every link bit position comes
//! from `golden::noc::link::LinkFmt`.
//!
//! Modules of a reply plane:
//! * `macro_hinge_router_<preset>`: the hinge router, shared by every router (position,
//!   role and ROM rows on constant ports); it instantiates `macro_ovl_ctrl_<preset>`,
//!   `macro_hinge_sel_l<LW>_c<CW>`, `macro_hinge_inj_l<LW>`, the latches
//!   `macro_hinge_latch_l<LW>` / `macro_hinge_end_latch_l<LW>` and the bypass muxes
//!   `macro_bypass_ew_l<LW>` / `macro_bypass_ns_l<LW>`;
//! * `macro_route_rom_r<ROWS>`: the route lookup ROM, one module for every router: each
//!   instance gets its router's rows as the parameter `ROWS`;
//! * `macro_mc_ni_<preset>` (one instance per MC) and `macro_gom_<preset>`.
//!
//! Widths: the leaves are monomorphized over the link widths a config can take
//! (N = 2..8 gives CW = 1..3, m = 1..8 gives SW = 1..3); anything else is a
//! [`GenError::Unsupported`].

use askama::Template;
use golden::bits::Field;
use golden::noc::config::NocConfig;
use golden::noc::hinge_router::LATCH_STATE_BITS;
use golden::noc::link::{LinkFmt, T_STATUS};
use golden::noc::overlay_ctrl::ECYC_BITS;
use golden::noc::route_rom::{self, DIRS, OVL_BITS, OVL_NONE, ROW_BITS};

use super::catalog::NocModule;
use super::leaf::ctrl::OverlayCtrl;
use super::leaf::gom::Gom;
use super::leaf::hinge::{BypassEw, BypassNs, HingeEndLatch, HingeInject, HingeLatch, HingeSelect};
use super::leaf::mc_ni::McNi;
use super::leaf::rom::{rows_param, RouteRom};
use crate::catalog::Catalog;
use crate::design::GenError;
use crate::library::Library;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

/// Width of one `dbg_sched` entry: ovl_a, ovl_b (SW+1 each), reconf, prologue.
pub fn sched_w(c: &NocConfig) -> u32 {
    2 * (c.sw() + 1) + 2
}

/// Header width of a link (everything above the payload: `LinkFmt::header`).
pub fn hdr_w(c: &NocConfig) -> u32 {
    LinkFmt::new(c).header().width
}

/// Width of a link's payload (`LinkFmt::payload`).
fn pay_w(c: &NocConfig) -> u32 {
    LinkFmt::new(c).payload().width
}

/// A field's Verilog part-select range, `msb:lsb`.
fn range(f: Field) -> String {
    format!("{}:{}", f.msb(), f.lsb)
}

/// Ports of the mesh top, in declaration order.
pub fn ports(c: &NocConfig) -> Vec<Port> {
    let nn = c.nodes() as u32;
    let m = c.m() as u32;
    let (h, pw) = (hdr_w(c), pay_w(c));
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("mc_reply_v_i", m, "per MC: reply flit offered by L2/DRAM").fields(m),
        Port::input("mc_reply_hdr_i", m * h, "per MC: link bits above the payload {valid(ignored), type, head, tail, src(ignored), dst_y, dst_x}").fields(m),
        Port::input("mc_reply_data_i", m * pw, "per MC: payload").fields(m),
        Port::output("mc_reply_ready_o", m, "per MC: reply queue has room (transfer = v & ready)").fields(m),
        Port::output("eject_hdr_o", nn * h, "per node: ejected flit header, valid in the MSB (STATUS at the GOM node goes to the GOM)").fields(nn),
        Port::output("eject_data_o", nn * pw, "per node: ejected flit payload").fields(nn),
        Port::output("dbg_link_hdr_o", nn * 4 * h, "per node, direction E,W,N,S: bypass output header").fields(nn * 4),
        Port::output("dbg_link_data_o", nn * 4 * pw, "per node, direction: bypass output payload").fields(nn * 4),
        Port::output("dbg_inj_hdr_o", nn * h, "per node: local injection on a transfer (header)").fields(nn),
        Port::output("dbg_inj_data_o", nn * pw, "per node: local injection payload").fields(nn),
        Port::output("dbg_grant_o", nn, "per node: loc_in_grant").fields(nn),
        Port::output("dbg_latch_state_o", nn * 5 * LATCH_STATE_BITS, "per node: latch states E,W,N,S,L (E in the low bits: 0 idle, 1 captured, 2 turning)").fields(nn),
        Port::output("dbg_drop_o", nn * 5, "per node: per-latch drop pulse").fields(nn),
        Port::output("dbg_overrun_o", nn, "per node: capture into a CAPTURED latch").fields(nn),
        Port::output("dbg_collision_o", nn, "per node: two latches eject in one cycle").fields(nn),
        Port::output("dbg_sched_o", nn * sched_w(c), "per node: {prologue, reconf, ovl_b, ovl_a}").fields(nn),
        Port::output("dbg_ecyc_o", ECYC_BITS, "epoch-relative cycle of router (0,0)"),
    ]
}

/// The hinge router's link ports: clock, reset, the bypass links (combinational
/// straight-through paths), local injection and ejection.
fn hinge_link_ports(c: &NocConfig) -> Vec<Port> {
    let lw = c.link_w();
    let mut v = vec![Port::clock("clk_i"), Port::reset("rst_i")];
    for d in ["e", "w", "n", "s"] {
        v.push(Port::input(&format!("byp_in_{d}_i"), lw, "bypass input (combinational straight-through to the opposite output, spec 1.3)"));
    }
    for d in ["e", "w", "n", "s"] {
        v.push(Port::output(&format!("byp_out_{d}_o"), lw, "bypass output: straight input, local injection (E/W) or a turning latch (N/S)"));
    }
    v.extend([
        Port::input("loc_in_v_i", 1, "local injection offer; transfer = loc_in_v_i & loc_in_grant_o"),
        Port::input("loc_in_link_i", lw, "local injection link (valid bit ignored)"),
        Port::output("loc_in_grant_o", 1, "injection slot (from the controller's counters only, never from loc_in_v_i)"),
        Port::output("loc_in_status_o", 1, "the slot is this MC's STATUS slot"),
        Port::output("loc_out_o", lw, "ejected flit, valid in the MSB, no back-pressure"),
    ]);
    v
}

/// The hinge router's observability ports.
fn hinge_dbg_ports(c: &NocConfig) -> Vec<Port> {
    let lw = c.link_w();
    vec![
        Port::output("dbg_sched_o", sched_w(c), "schedule view {prologue, reconf, ovl_b, ovl_a}"),
        Port::output("dbg_ecyc_o", ECYC_BITS, "epoch-relative cycle"),
        Port::output("dbg_inj_o", lw, "local injection on a transfer (else 0)"),
        Port::output("dbg_latch_state_o", 5 * LATCH_STATE_BITS, "latch states E,W,N,S,L (E in the low bits: 0 idle, 1 captured, 2 turning)"),
        Port::output("dbg_drop_o", 5, "per-latch drop pulse E,W,N,S,L").fields(5),
        Port::output("dbg_overrun_o", 1, "capture into a CAPTURED latch"),
        Port::output("dbg_collision_o", 1, "two latches eject in one cycle"),
    ]
}

/// Ports of the hinge router `macro_hinge_router_<preset>`: its links, the two read
/// ports of its route ROM, its constant position and role, its observability.
pub fn hinge_router_ports(c: &NocConfig) -> Vec<Port> {
    let mut v = hinge_link_ports(c);
    v.extend([
        Port::output("rom_addr_a_o", OVL_BITS, "route ROM read address: the live overlay (MC index, m = GOM row, all ones = none)"),
        Port::output("rom_addr_b_o", OVL_BITS, "route ROM read address: the live overlay's multiplexed partner"),
        Port::input("rom_row_a_i", ROW_BITS, "route ROM row at rom_addr_a_o {f_L, f_S, f_N, f_W, f_E}"),
        Port::input("rom_row_b_i", ROW_BITS, "route ROM row at rom_addr_b_o"),
        Port::input("x_i", c.cw(), "constant: this router's x"),
        Port::input("y_i", c.cw(), "constant: this router's y"),
        Port::input("mc_i", 1, "constant: an MC sits at this router"),
        Port::input("mc_idx_i", OVL_BITS, "constant: its MC index (all ones when none)"),
        Port::input("ph_i", 1, "constant: the MC's phase in its window group"),
        Port::input("gom_i", 1, "constant: the GOM sits at this router"),
    ]);
    v.extend(hinge_dbg_ports(c));
    v
}

/// Ports of the router-level design (`macro_hinge_top_*`): the router's, with the
/// ROM inside and position and role tied.
pub fn hinge_top_ports(c: &NocConfig) -> Vec<Port> {
    let mut v = hinge_link_ports(c);
    v.extend(hinge_dbg_ports(c));
    v
}

// ---------------------------------------------------------------------------
// templates
// ---------------------------------------------------------------------------

#[derive(Template)]
#[template(path = "noc/hinge_router.v", escape = "none")]
struct RouterTop {
    name: String,
    ports: Vec<PortView>,
    lw: u32,
    /// Part-selects of a link's payload and type fields.
    pay: String,
    ty: String,
    ctrl: String,
    sel: String,
    inj: String,
    latch: String,
    end_latch: String,
    bew: String,
    bns: String,
}

#[derive(Template)]
#[template(path = "noc/hinge_top.v", escape = "none")]
struct HingeTop {
    name: String,
    ports: Vec<PortView>,
    /// The top's ports, connected by name to the router's.
    pass: Vec<String>,
    router: String,
    r: RouterView,
    cw: u32,
    ovl_bits: u32,
    row_bits: u32,
}

struct LinkView {
    wire: String,
    h_hi: u32,
    h_lo: u32,
    d_hi: u32,
    d_lo: u32,
}

struct McView {
    i: usize,
    /// `mc_reply_v_i[i]` / `mc_reply_ready_o[i]` (no index when m = 1).
    v: String,
    ready: String,
    h_hi: u32,
    h_lo: u32,
    d_hi: u32,
    d_lo: u32,
}

struct RouterView {
    t: String,
    x: u32,
    y: u32,
    id: u32,
    rom: String,
    /// The ROM instance's `ROWS` parameter (this router's rows).
    rom_rows: String,
    bin_e: String,
    bin_w: String,
    bin_n: String,
    bin_s: String,
    is_mc: u8,
    mc_idx: u32,
    ph: u8,
    is_gom: u8,
    gom: bool,
    mc: Option<McView>,
    sch_hi: u32,
    sch_lo: u32,
    h_hi: u32,
    h_lo: u32,
    d_hi: u32,
    d_lo: u32,
    ls_hi: u32,
    ls_lo: u32,
    dr_hi: u32,
    dr_lo: u32,
    links: Vec<LinkView>,
}

#[derive(Template)]
#[template(path = "noc/reply_mesh.v", escape = "none")]
struct MeshTop {
    name: String,
    ports: Vec<PortView>,
    n: u32,
    lw: u32,
    cw: u32,
    ovl_bits: u32,
    row_bits: u32,
    /// The link's fields, most significant first (`type[1:0]`, ...), for a comment.
    link_fields: String,
    hdr: String,
    pay: String,
    ty: String,
    t_status: u32,
    mcs: String,
    gom: String,
    router: String,
    ni: String,
    gom_mod: String,
    routers: Vec<RouterView>,
    unused: Vec<String>,
}

fn router_view(c: &NocConfig, x: u32, y: u32) -> RouterView {
    let n = c.n;
    let lw = c.link_w();
    let (h, pw) = (hdr_w(c), pay_w(c));
    let schw = sched_w(c);
    let ls = 5 * LATCH_STATE_BITS;
    let id = c.node(x, y) as u32;
    let zero = format!("{lw}'d0");
    let t = format!("x{x}y{y}");
    let mc = c.mc_at(id as usize);
    let (g_ph, is_mc) = match mc {
        Some(i) => (c.group_of[i].1 as u8, 1),
        None => (0, 0),
    };
    RouterView {
        t: t.clone(),
        x,
        y,
        id,
        rom: NocModule::RouteRom { rows: c.m() + 1 }.name(),
        rom_rows: rows_param(&c.roms[id as usize].iter().map(|r| r.bits()).collect::<Vec<_>>()),
        bin_e: if x + 1 < n { format!("w_x{}y{y}", x + 1) } else { zero.clone() },
        bin_w: if x > 0 { format!("e_x{}y{y}", x - 1) } else { zero.clone() },
        bin_n: if y + 1 < n { format!("s_x{x}y{}", y + 1) } else { zero.clone() },
        bin_s: if y > 0 { format!("n_x{x}y{}", y - 1) } else { zero },
        is_mc,
        mc_idx: mc.map_or(OVL_NONE, |i| i as u32),
        ph: g_ph,
        is_gom: (c.gom_node() == id as usize) as u8,
        gom: c.gom_node() == id as usize,
        mc: mc.map(|i| {
            let i32_ = i as u32;
            let bit = |p: &str| if c.m() == 1 { p.to_string() } else { format!("{p}[{i}]") };
            McView { i, v: bit("mc_reply_v_i"), ready: bit("mc_reply_ready_o"), h_hi: (i32_ + 1) * h - 1, h_lo: i32_ * h, d_hi: (i32_ + 1) * pw - 1, d_lo: i32_ * pw }
        }),
        sch_hi: (id + 1) * schw - 1,
        sch_lo: id * schw,
        h_hi: (id + 1) * h - 1,
        h_lo: id * h,
        d_hi: (id + 1) * pw - 1,
        d_lo: id * pw,
        ls_hi: (id + 1) * ls - 1,
        ls_lo: id * ls,
        dr_hi: id * 5 + 4,
        dr_lo: id * 5,
        links: ["e", "w", "n", "s"]
            .iter()
            .enumerate()
            .map(|(k, dn)| {
                let f = id * 4 + k as u32;
                LinkView { wire: format!("{dn}_{t}"), h_hi: (f + 1) * h - 1, h_lo: f * h, d_hi: (f + 1) * pw - 1, d_lo: f * pw }
            })
            .collect(),
    }
}

/// The leaves and the router of a reply plane, at the config's widths.
fn leaves<const LW: usize, const CW: usize, const SCHW: usize>(c: &NocConfig, preset: &str, lib: &mut Library) -> Result<(), GenError> {
    let lw = LW as u32;
    let cw = CW as u32;
    let ctrl = lib.emit(&NocModule::OverlayCtrl { preset, cfg: c }, || OverlayCtrl::<SCHW>::new(c))?;
    let sel = lib.emit(&NocModule::HingeSelect { lw, cw }, HingeSelect::<LW, CW>::default)?;
    let inj = lib.emit(&NocModule::HingeInject { lw }, HingeInject::<LW>::default)?;
    let latch = lib.emit(&NocModule::HingeLatch { lw }, HingeLatch::<LW>::default)?;
    let end_latch = lib.emit(&NocModule::HingeEndLatch { lw }, HingeEndLatch::<LW>::default)?;
    let bew = lib.emit(&NocModule::BypassEw { lw }, BypassEw::<LW>::default)?;
    let bns = lib.emit(&NocModule::BypassNs { lw }, BypassNs::<LW>::default)?;
    lib.emit(&NocModule::McNi { preset, reply_queue: c.reply.reply_queue }, || McNi::<LW, 9>::new(c.reply.reply_queue as usize, c.cw(), c.sw(), c.gom))?;
    lib.emit(&NocModule::Gom { preset, cfg: c }, || Gom::<LW>::new(c))?;
    let entry = NocModule::HingeRouter { preset };
    let f = LinkFmt::new(c);
    let router =
        RouterTop { name: entry.name(), ports: port_views(&hinge_router_ports(c)), lw, pay: range(f.payload()), ty: range(f.ty()), ctrl, sel, inj, latch, end_latch, bew, bns };
    lib.add_text(&entry, router.render()?)?;
    Ok(())
}

/// Supported (CW, SW) pairs and their link and schedule widths.
fn with_widths(c: &NocConfig, preset: &str, lib: &mut Library) -> Result<(), GenError> {
    match (c.cw(), c.sw()) {
        (1, 1) => leaves::<72, 1, 6>(c, preset, lib),
        (2, 1) => leaves::<74, 2, 6>(c, preset, lib),
        (3, 1) => leaves::<76, 3, 6>(c, preset, lib),
        (1, 2) => leaves::<73, 1, 8>(c, preset, lib),
        (2, 2) => leaves::<75, 2, 8>(c, preset, lib),
        (3, 2) => leaves::<77, 3, 8>(c, preset, lib),
        (1, 3) => leaves::<74, 1, 10>(c, preset, lib),
        (2, 3) => leaves::<76, 2, 10>(c, preset, lib),
        (3, 3) => leaves::<78, 3, 10>(c, preset, lib),
        (cw, sw) => Err(GenError::Unsupported {
            field: "noc.mesh / noc.mcs".into(),
            message: format!("reply link with {cw}-bit coordinates and {sw}-bit MC indices"),
            allowed: "meshes of 2..=8 nodes a side with 1..=8 MCs".into(),
        }),
    }
}

/// The route ROM module of the preset (one per row count: the rows are an instance
/// parameter), after the legal-source check of spec §1.3 of every router's rows.
fn rom(c: &NocConfig, lib: &mut Library) -> Result<String, GenError> {
    for (id, rows) in c.roms.iter().enumerate() {
        let (x, y) = c.xy(id);
        for (i, r) in rows.iter().enumerate() {
            route_rom::check_legal(r).map_err(|e| GenError::Unsupported {
                field: "noc.mcs".into(),
                message: format!("route ROM of router ({x},{y}) row {i} ({}): {e}", r.symbolic()),
                allowed: format!("the legal sources of spec 1.3 per output {DIRS:?}"),
            })?;
        }
    }
    let rows = c.m() + 1;
    lib.emit(&NocModule::RouteRom { rows }, || RouteRom::new(&vec![0; rows]))
}

/// The reply plane `macro_reply_mesh_<preset>` and everything it instantiates, into
/// `lib`; returns the mesh's name.
pub fn mesh_modules(c: &NocConfig, preset: &str, lib: &mut Library) -> Result<String, GenError> {
    with_widths(c, preset, lib)?;
    rom(c, lib)?;
    let n = c.n;
    let mut routers = Vec::new();
    let mut unused = Vec::new();
    for y in 0..n {
        for x in 0..n {
            routers.push(router_view(c, x, y));
            let t = format!("x{x}y{y}");
            if c.mc_at(c.node(x, y)).is_none() {
                unused.push(format!("stt_{t}"));
            }
            if (x, y) != (0, 0) && (x, y) != c.gom {
                unused.push(format!("ec_{t}"));
            }
            if x + 1 == n {
                unused.push(format!("e_{t}"));
            }
            if x == 0 {
                unused.push(format!("w_{t}"));
            }
            if y + 1 == n {
                unused.push(format!("n_{t}"));
            }
            if y == 0 {
                unused.push(format!("s_{t}"));
            }
        }
    }
    let entry = NocModule::ReplyMesh { preset, cfg: c };
    let f = LinkFmt::new(c);
    let top = MeshTop {
        name: entry.name(),
        ports: port_views(&ports(c)),
        n,
        lw: c.link_w(),
        cw: c.cw(),
        ovl_bits: OVL_BITS,
        row_bits: ROW_BITS,
        link_fields: f.fields().iter().map(|x| if x.width == 1 { x.name.to_string() } else { format!("{}[{}:0]", x.name, x.width - 1) }).collect::<Vec<_>>().join(", "),
        hdr: range(f.header()),
        pay: range(f.payload()),
        ty: range(f.ty()),
        t_status: T_STATUS,
        mcs: format!("{:?}", c.mcs),
        gom: format!("{:?}", c.gom),
        router: NocModule::HingeRouter { preset }.name(),
        ni: NocModule::McNi { preset, reply_queue: c.reply.reply_queue }.name(),
        gom_mod: NocModule::Gom { preset, cfg: c }.name(),
        routers,
        unused,
    };
    lib.add_text(&entry, top.render()?)
}

/// The router whose router-level design is generated: the Fig. 5 router (3,1) of a
/// 4x4 mesh when it is an MC, else MC 0's router.
pub fn hinge_top_xy(c: &NocConfig) -> (u32, u32) {
    if c.n == 4 && c.mc_at(c.node(3, 1)).is_some() {
        (3, 1)
    } else {
        c.mcs[0]
    }
}

/// One hinge router with its ROM (constants tied), for synthesis and router-level
/// co-simulation; returns the top's name.
pub fn hinge_top_modules(c: &NocConfig, preset: &str, lib: &mut Library) -> Result<String, GenError> {
    let (x, y) = hinge_top_xy(c);
    with_widths(c, preset, lib)?;
    rom(c, lib)?;
    let entry = NocModule::HingeTop { preset, x, y };
    let ports = hinge_top_ports(c);
    let top = HingeTop {
        name: entry.name(),
        ports: port_views(&ports),
        pass: ports.iter().map(|p| p.name.clone()).collect(),
        router: NocModule::HingeRouter { preset }.name(),
        r: router_view(c, x, y),
        cw: c.cw(),
        ovl_bits: OVL_BITS,
        row_bits: ROW_BITS,
    };
    lib.add_text(&entry, top.render()?)
}
