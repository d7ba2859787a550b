//! Wormhole VC planes (spec §1.11–1.12, §4.2 step 4): the router template
//! `templates/noc/vc_router.v` over the leaves of [`super::leaf::vc`], the mesh
//! template `templates/noc/vc_mesh.v` and the router-level top
//! `templates/noc/vc_router_top.v`. One router module per plane (position on constant
//! ports), one mesh module per plane. Behaviour is that of
//! `golden::noc::{vc_router, vc_mesh}`; every port list is a `Port` vector ([`ports`],
//! [`router_ports`], [`router_top_ports`]) that both the template and the manifest take.
//!
//! Widths: leaves are monomorphized over the flit widths (32/64/128/256-bit data with
//! 1..3-bit coordinates), 1..8 VCs and buffer depths 2/4/8, the ranges
//! `golden::noc::config` validates; anything else is a [`GenError::Unsupported`].
//! Every bit position of a link and a flit comes from `golden::noc::flit::VcLayout`.

use askama::Template;
use golden::bits::clog2;
use golden::bits::Field;
use golden::noc::config::{NocConfig, Routing, VcParams};
use golden::noc::flit::{vc_width, VcLayout};

use super::catalog::NocModule;
use super::leaf::vc::{CreditCounter, Crossbar, RouteCompute, RrArb, SaResult, SwAlloc, VcAlloc, VcBuffer, VcState};
use crate::catalog::Catalog;
use crate::design::GenError;
use crate::library::Library;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

fn count_bits(depth: u32) -> u32 {
    count_w(depth as usize) as u32
}

/// Ports of a VC mesh, in declaration order (`pre` prefixes every name but the
/// clock and reset, for tops with several planes).
pub fn ports(c: &NocConfig, p: &VcParams, pre: &str) -> Vec<Port> {
    let nn = c.nodes() as u32;
    let lay = VcLayout::for_plane(c, p);
    let h = lay.header_width();
    let w = p.flit_width;
    let dw = w.div_ceil(64);
    let v = p.vcs;
    let n = |s: &str| format!("{pre}{s}");
    let hdr_names: Vec<&str> = lay.fields().iter().filter(|f| f.lsb >= w).map(|f| f.name).collect();
    let inj_doc = format!("per node: injected flit header {{{}}}", hdr_names.join(", "));
    vec![
        Port::input(&n("inj_hdr_i"), nn * h, &inj_doc).fields(nn),
        Port::input(&n("inj_data_i"), nn * w, "per node: injected flit data (64-bit words when wider)").fields(nn * dw),
        Port::input(&n("ej_credit_i"), nn * v, "per node: one credit per ejection VC returned by the sink").fields(nn),
        Port::output(&n("ej_hdr_o"), nn * h, "per node: ejected flit header (registered)").fields(nn),
        Port::output(&n("ej_data_o"), nn * w, "per node: ejected flit data").fields(nn * dw),
        Port::output(&n("inj_credit_o"), nn * v, "per node: credits of the injection buffers (one cycle after the pop)").fields(nn),
        Port::output(&n("link_hdr_o"), nn * 4 * h, "per node, output E,W,N,S: link header (registered)").fields(nn * 4),
        Port::output(&n("link_data_o"), nn * 4 * w, "per node, output: link data").fields(nn * 4 * dw),
        Port::output(&n("credit_o"), nn * 4 * v, "per node, input E,W,N,S: credits returned upstream").fields(nn * 4),
    ]
}

// ---------------------------------------------------------------------------
// leaf emission, monomorphized
// ---------------------------------------------------------------------------

fn unsupported(field: &str, what: String, allowed: &str) -> GenError {
    GenError::Unsupported { field: field.into(), message: what, allowed: allowed.into() }
}

/// `match $e` over a list of literals, binding the matched value to the const `$c`.
/// The list comes first: it is passed in by the callbacks below.
macro_rules! dispatch {
    ([$($v:literal),+] $e:expr; $c:ident => $body:expr; $err:expr) => {
        match $e {
            $( $v => { #[allow(dead_code)] const $c: usize = $v; $body } )+
            _ => $err,
        }
    };
}

// The supported sets, as literals because `match` arms and `const` need them. Each
// is written once and passed to `$m!([...] rest)`; the tests check them against
// `golden::noc::{flit::vc_flit_widths, config::{VC_MAX, VC_BUF_DEPTHS, coord_widths}}`.
macro_rules! flit_widths {
    ($m:ident!($($rest:tt)*)) => { $m!([38, 42, 46, 70, 74, 78, 134, 138, 142, 262, 266, 270] $($rest)*) };
}
macro_rules! vc_counts {
    ($m:ident!($($rest:tt)*)) => { $m!([1, 2, 3, 4, 5, 6, 7, 8] $($rest)*) };
}
macro_rules! buf_depths {
    ($m:ident!($($rest:tt)*)) => { $m!([2, 4, 8] $($rest)*) };
}
macro_rules! coord_widths {
    ($m:ident!($($rest:tt)*)) => { $m!([1, 2, 3] $($rest)*) };
}

// A supported set as a `&[u32]` (`flit_widths!(list!())`).
macro_rules! list {
    ([$($v:literal),+]) => { &[$($v as u32),+] };
}

/// The flit widths the leaves are monomorphized over (the list of `flit_widths!`),
/// for the test that holds it equal to `golden::noc::flit::vc_flit_widths`.
#[doc(hidden)]
pub const MONO_FLIT_WIDTHS: &[u32] = flit_widths!(list!());
/// The VC counts of `vc_counts!` (tested against `1..=golden::noc::config::VC_MAX`).
#[doc(hidden)]
pub const MONO_VC_COUNTS: &[u32] = vc_counts!(list!());
/// The buffer depths of `buf_depths!` (tested against `golden::noc::config::VC_BUF_DEPTHS`).
#[doc(hidden)]
pub const MONO_BUF_DEPTHS: &[u32] = buf_depths!(list!());
/// The coordinate widths of `coord_widths!` (tested against `golden::noc::config::coord_widths`).
#[doc(hidden)]
pub const MONO_COORD_WIDTHS: &[u32] = coord_widths!(list!());

/// The allowed values named in the errors, from golden's ranges.
fn allowed_flits() -> String {
    use golden::noc::config::{MESH_MAX, MESH_MIN, VC_FLIT_WIDTHS};
    let w: Vec<String> = VC_FLIT_WIDTHS.iter().map(u32::to_string).collect();
    format!("{}-bit data on a {MESH_MIN}..={MESH_MAX} mesh", w.join(", "))
}
fn allowed_depths() -> String {
    golden::noc::config::VC_BUF_DEPTHS.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}
fn allowed_vcs() -> String {
    format!("1..={}", golden::noc::config::VC_MAX)
}
fn allowed_meshes() -> String {
    format!("{}..={}", golden::noc::config::MESH_MIN, golden::noc::config::MESH_MAX)
}

/// Count width of a buffer of depth `d` (0..=d), as a const generic.
const fn count_w(d: usize) -> usize {
    clog2(d as u64 + 1) as usize
}

/// VC-index width of `v` VCs, as a const generic.
const fn vc_w(v: usize) -> usize {
    vc_width(v as u32) as usize
}

/// The VC buffer leaf for `fw`-bit flits and depth `d`: its module name, or
/// [`GenError::Unsupported`] naming the field outside the monomorphized sets.
/// Public for the tests of the monomorphized dispatch.
#[doc(hidden)]
pub fn emit_buffer(lib: &mut Library, fw: u32, d: u32) -> Result<String, GenError> {
    let entry = NocModule::VcBuffer { fw, depth: d };
    flit_widths!(dispatch!(fw as usize; FW => buf_depths!(dispatch!(d as usize; D => {
        const C: usize = count_w(D);
        const A: usize = C - 1;
        lib.emit(&entry, VcBuffer::<FW, C, A>::default)
    }; Err(unsupported("buf_depth", format!("{d}"), &allowed_depths())))); Err(unsupported("flit_width", format!("{fw}-bit flits"), &allowed_flits()))))
}

/// The crossbar leaf for `fw`-bit flits and `v` VCs: its module name, or
/// [`GenError::Unsupported`] naming the field outside the monomorphized sets.
/// Public for the tests of the monomorphized dispatch.
#[doc(hidden)]
pub fn emit_xbar(lib: &mut Library, fw: u32, v: u32) -> Result<String, GenError> {
    let entry = NocModule::Crossbar { fw, v };
    flit_widths!(dispatch!(fw as usize; FW => vc_counts!(dispatch!(v as usize; V => {
        const NV: usize = 5 * V;
        const VW: usize = vc_w(V);
        lib.emit(&entry, Crossbar::<FW, V, NV, VW>::default)
    }; Err(unsupported("vcs", format!("{v}"), &allowed_vcs())))); Err(unsupported("flit_width", format!("{fw}-bit flits"), &allowed_flits()))))
}

/// The control leaves of a router with `v` VCs of depth `d` (VC and switch
/// allocation, SA result, VC state, arbiters, credit counter), or
/// [`GenError::Unsupported`] naming the field outside the monomorphized sets.
/// Public for the tests of the monomorphized dispatch.
#[doc(hidden)]
pub fn emit_control(lib: &mut Library, v: u32, d: u32) -> Result<(), GenError> {
    vc_counts!(dispatch!(v as usize; V => buf_depths!(dispatch!(d as usize; D => {
        const NV: usize = 5 * V;
        const VW: usize = vc_w(V);
        const C: usize = count_w(D);
        // index of a bit in a 5V-bit VC vector
        const NB: usize = clog2(NV as u64) as usize;
        lib.emit(&NocModule::VcAlloc { v, depth: d }, VcAlloc::<V, NV, C>::default)?;
        lib.emit(&NocModule::SwAlloc { v, depth: d }, || SwAlloc::<V, NV, C, VW, NB>::new(D))?;
        lib.emit(&NocModule::SaResult { v }, SaResult::<V, NV>::default)?;
        lib.emit(&NocModule::VcState { v }, VcState::<V, NV>::default)?;
        lib.emit(&NocModule::RrArb { n: NV as u32 }, RrArb::<NV>::default)?;
        lib.emit(&NocModule::CreditCounter { depth: d }, CreditCounter::<C>::default)?;
        Ok(())
    }; Err(unsupported("buf_depth", format!("{d}"), &allowed_depths())))); Err(unsupported("vcs", format!("{v}"), &allowed_vcs()))))
}

fn emit_route(lib: &mut Library, cw: u32) -> Result<String, GenError> {
    coord_widths!(
        dispatch!(cw as usize; CW => lib.emit(&NocModule::VcRoute { cw }, RouteCompute::<CW>::default); Err(unsupported("mesh", format!("{cw}-bit coordinates"), &allowed_meshes())))
    )
}

// ---------------------------------------------------------------------------
// templates
// ---------------------------------------------------------------------------

struct DirView {
    name: &'static str,
    p: usize,
    last: bool,
    /// Bits of this input port's VCs in the VC vectors.
    c_hi: usize,
    c_lo: usize,
}

struct IvView {
    i: usize,
    dir: &'static str,
    vc: u32,
    last: bool,
}

#[derive(Template)]
#[template(path = "noc/vc_router.v", escape = "none")]
struct RouterTop {
    name: String,
    ports: Vec<PortView>,
    w: u32,
    v: u32,
    vw: u32,
    fw: u32,
    c: u32,
    nv: u32,
    depth: u32,
    routing: &'static str,
    yx: u8,
    dx_hi: u32,
    dy_hi: u32,
    dy_lo: u32,
    head_bit: u32,
    tail_bit: u32,
    dirs: Vec<DirView>,
    ivs: Vec<IvView>,
    ivs_rev: Vec<usize>,
    port_ids: Vec<usize>,
    buffer: String,
    route: String,
    va: String,
    va_arb: String,
    sa: String,
    sa_arb: String,
    sar: String,
    credit: String,
    state: String,
    xbar: String,
}

struct InView {
    d: &'static str,
    v: String,
    vc: String,
    flit: String,
    cred: String,
    last: bool,
}

struct MeshLinkView {
    d: &'static str,
    h_hi: u32,
    h_lo: u32,
    d_hi: u32,
    d_lo: u32,
    c_hi: u32,
    c_lo: u32,
}

struct MeshRouterView {
    t: String,
    x: u32,
    y: u32,
    ins: Vec<InView>,
    links: Vec<MeshLinkView>,
    h_hi: u32,
    h_lo: u32,
    d_hi: u32,
    d_lo: u32,
    c_hi: u32,
    c_lo: u32,
}

#[derive(Template)]
#[template(path = "noc/vc_mesh.v", escape = "none")]
struct MeshTop {
    name: String,
    ports: Vec<PortView>,
    router: String,
    n: u32,
    cw: u32,
    w: u32,
    v: u32,
    vw: u32,
    fw: u32,
    ih: u32,
    depth: u32,
    routing: &'static str,
    dirs: Vec<&'static str>,
    routers: Vec<MeshRouterView>,
}

const DIRS: [(&str, &str); 5] = [("e", "E"), ("w", "W"), ("n", "N"), ("s", "S"), ("l", "L (local)")];

fn routing_name(p: &VcParams) -> &'static str {
    match p.routing {
        Routing::Xy => "XY",
        Routing::Yx => "YX",
        Routing::XyYx => unreachable!("generate refuses xy_yx planes"),
    }
}

/// The router module of a plane and every leaf it uses.
pub fn router_modules(c: &NocConfig, p: &VcParams, preset: &str, plane: &str, lib: &mut Library) -> Result<String, GenError> {
    let cw = c.cw();
    let v = p.vcs;
    let d = p.buf_depth;
    let lay = VcLayout::for_plane(c, p);
    let f = lay.flit_width();
    let buffer = emit_buffer(lib, f, d)?;
    let xbar = emit_xbar(lib, f, v)?;
    emit_control(lib, v, d)?;
    let route = emit_route(lib, cw)?;
    let sa_arb = lib.emit(&NocModule::RrArb { n: 5 }, RrArb::<5>::default)?;
    let entry = NocModule::VcRouter { preset, plane, vcs: v, depth: d, flit_width: p.flit_width };
    let name = entry.name();
    let vv = v as usize;
    let top = RouterTop {
        name: name.clone(),
        ports: port_views(&router_ports(c, p)),
        w: p.flit_width,
        v,
        vw: lay.vc_width(),
        fw: f,
        c: count_bits(d),
        nv: 5 * v,
        depth: d,
        routing: routing_name(p),
        yx: (p.routing == Routing::Yx) as u8,
        dx_hi: lay.dst_x().msb(),
        dy_hi: lay.dst_y().msb(),
        dy_lo: lay.dst_y().lsb,
        head_bit: lay.head().lsb,
        tail_bit: lay.tail().lsb,
        dirs: DIRS.iter().enumerate().map(|(k, (n, _))| DirView { name: n, p: k, last: k == 4, c_hi: (k + 1) * vv - 1, c_lo: k * vv }).collect(),
        ivs: (0..5 * vv).map(|i| IvView { i, dir: DIRS[i / vv].0, vc: (i % vv) as u32, last: i + 1 == 5 * vv }).collect(),
        ivs_rev: (0..5 * vv).rev().collect(),
        port_ids: (0..5).collect(),
        buffer,
        route,
        va: NocModule::VcAlloc { v, depth: d }.name(),
        va_arb: NocModule::RrArb { n: 5 * v }.name(),
        sa: NocModule::SwAlloc { v, depth: d }.name(),
        sa_arb,
        sar: NocModule::SaResult { v }.name(),
        credit: NocModule::CreditCounter { depth: d }.name(),
        state: NocModule::VcState { v }.name(),
        xbar,
    };
    lib.add_text(&entry, top.render()?)
}

/// Every module of the VC mesh `vc_mesh_<preset>_<plane>`.
pub fn mesh_modules(c: &NocConfig, p: &VcParams, preset: &str, plane: &str, lib: &mut Library) -> Result<String, GenError> {
    let router = router_modules(c, p, preset, plane, lib)?;
    let lay = VcLayout::for_plane(c, p);
    let n = c.n;
    let (h, w, v) = (lay.header_width(), p.flit_width, p.vcs);
    let (vwv, f) = (lay.vc_width(), lay.flit_width());
    let mut routers = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let id = c.node(x, y) as u32;
            let t = format!("x{x}y{y}");
            let nb = |d: usize| -> Option<String> {
                match d {
                    0 if x + 1 < n => Some(format!("x{}y{y}", x + 1)),
                    1 if x > 0 => Some(format!("x{}y{y}", x - 1)),
                    2 if y + 1 < n => Some(format!("x{x}y{}", y + 1)),
                    3 if y > 0 => Some(format!("x{x}y{}", y - 1)),
                    _ => None,
                }
            };
            let opp = ["w", "e", "s", "n"];
            let mut ins = Vec::new();
            for (k, (dn, _)) in DIRS.iter().enumerate() {
                let iv = if k < 4 {
                    match nb(k) {
                        Some(o) => InView {
                            d: dn,
                            v: format!("ov_{o}_{}", opp[k]),
                            vc: format!("ovc_{o}_{}", opp[k]),
                            flit: format!("of_{o}_{}", opp[k]),
                            cred: format!("ic_{o}_{}", opp[k]),
                            last: false,
                        },
                        None => InView { d: dn, v: "1'b0".into(), vc: format!("{vwv}'d0"), flit: format!("{f}'d0"), cred: format!("{v}'d0"), last: false },
                    }
                } else {
                    // a field's bits in node id's slice of the header port
                    let hdr = |f: Field| (id * h + f.msb() - w, id * h + f.lsb - w);
                    InView {
                        d: dn,
                        v: format!("inj_hdr_i[{}]", hdr(lay.valid()).0),
                        vc: format!("inj_hdr_i[{}:{}]", hdr(lay.vc()).0, hdr(lay.vc()).1),
                        flit: format!("{{inj_hdr_i[{}:{}], inj_data_i[{}:{}]}}", hdr(lay.head()).0, id * h, (id + 1) * w - 1, id * w),
                        cred: format!("ej_credit_i[{}:{}]", (id + 1) * v - 1, id * v),
                        last: true,
                    }
                };
                ins.push(iv);
            }
            routers.push(MeshRouterView {
                t,
                x,
                y,
                ins,
                links: (0..4)
                    .map(|k| {
                        let fi = id * 4 + k as u32;
                        MeshLinkView { d: DIRS[k].0, h_hi: (fi + 1) * h - 1, h_lo: fi * h, d_hi: (fi + 1) * w - 1, d_lo: fi * w, c_hi: (fi + 1) * v - 1, c_lo: fi * v }
                    })
                    .collect(),
                h_hi: (id + 1) * h - 1,
                h_lo: id * h,
                d_hi: (id + 1) * w - 1,
                d_lo: id * w,
                c_hi: (id + 1) * v - 1,
                c_lo: id * v,
            });
        }
    }
    let entry = NocModule::VcMesh { preset, plane, n, vcs: v, depth: p.buf_depth, flit_width: w };
    let name = entry.name();
    let mut all = vec![Port::clock("clk_i"), Port::reset("rst_i")];
    all.extend(ports(c, p, ""));
    let top = MeshTop {
        name: name.clone(),
        ports: port_views(&all),
        router,
        n,
        cw: c.cw(),
        w,
        v,
        vw: vwv,
        fw: f,
        ih: h,
        depth: p.buf_depth,
        routing: routing_name(p),
        dirs: DIRS.iter().map(|(d, _)| *d).collect(),
        routers,
    };
    lib.add_text(&entry, top.render()?)
}

#[derive(Template)]
#[template(path = "noc/vc_router_top.v", escape = "none")]
struct RouterWrap {
    name: String,
    ports: Vec<PortView>,
    /// The top's ports, connected by name to the router's.
    pass: Vec<String>,
    router: String,
    n: u32,
    x: u32,
    y: u32,
    cw: u32,
}

/// The router-level design's position: the mesh centre (N/2, N/2).
pub fn router_top_xy(c: &NocConfig) -> (u32, u32) {
    (c.n / 2, c.n / 2)
}

/// The links of a VC router, per direction E, W, N, S, L: the input link and the
/// credits returned for it, the output link and the credits coming back.
fn router_links(c: &NocConfig, p: &VcParams) -> Vec<Port> {
    let lay = VcLayout::for_plane(c, p);
    let (f, w, vc) = (lay.flit_width(), lay.vc_width(), p.vcs);
    let names: Vec<&str> = lay.flit_fields().iter().map(|f| f.name).collect();
    let flit = names.join(", ");
    let mut v = Vec::new();
    for (d, upper) in DIRS {
        v.push(Port::input(&format!("in_{d}_v_i"), 1, &format!("port {upper}: input link valid")));
        v.push(Port::input(&format!("in_{d}_vc_i"), w, "input link VC"));
        v.push(Port::input(&format!("in_{d}_flit_i"), f, &format!("input flit {{{flit}}}")));
        v.push(Port::output(&format!("in_{d}_credit_o"), vc, "credits returned for this input, one per VC (registered: the cycle after the pop)").fields(vc));
        v.push(Port::output(&format!("out_{d}_v_o"), 1, &format!("port {upper}: output link valid (registered)")));
        v.push(Port::output(&format!("out_{d}_vc_o"), w, "output link VC (registered)"));
        v.push(Port::output(&format!("out_{d}_flit_o"), f, "output flit (registered)"));
        v.push(Port::input(&format!("out_{d}_credit_i"), vc, "credits coming back, one per VC").fields(vc));
    }
    v
}

/// Ports of the router module `vc_router_<preset>_<plane>`: its position on constant
/// ports, then its links.
pub fn router_ports(c: &NocConfig, p: &VcParams) -> Vec<Port> {
    let mut v = vec![Port::clock("clk_i"), Port::reset("rst_i")];
    v.push(Port::input("x_i", c.cw(), "constant: this router's x"));
    v.push(Port::input("y_i", c.cw(), "constant: this router's y"));
    v.extend(router_links(c, p));
    v
}

/// Ports of the router-level design (`vc_router_top_*`): the router's links.
pub fn router_top_ports(c: &NocConfig, p: &VcParams) -> Vec<Port> {
    let mut v = vec![Port::clock("clk_i"), Port::reset("rst_i")];
    v.extend(router_links(c, p));
    v
}

/// One router of the plane with its position tied (router-level design for synthesis).
pub fn router_top_modules(c: &NocConfig, p: &VcParams, preset: &str, plane: &str, lib: &mut Library) -> Result<String, GenError> {
    let router = router_modules(c, p, preset, plane, lib)?;
    let (x, y) = router_top_xy(c);
    let entry = NocModule::VcRouterTop { preset, plane, x, y };
    let name = entry.name();
    let ports = router_top_ports(c, p);
    let top = RouterWrap { name: name.clone(), ports: port_views(&ports), pass: ports.iter().map(|p| p.name.clone()).collect(), router, n: c.n, x, y, cw: c.cw() };
    lib.add_text(&entry, top.render()?)
}
