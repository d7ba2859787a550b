//! NoC configuration (`[noc]` table, spec §2.2, §4.2) and everything derived from it.
//!
//! One config describes either a MACRO-NoC (`kind = "macro"`: hinge-router reply
//! plane + 1-VC wormhole request plane) or the baseline VC mesh
//! (`kind = "baseline"`). Both carry the mesh size and the MC placement, which the
//! traffic generator and the GPU model need either way.
//!
//! ```toml
//! name = "noc_macro_4x4"
//! [noc]
//! kind = "macro"
//! mesh = 4
//! mcs = [[2, 3], [0, 2], [3, 1], [1, 0]]   # overlay order = list order
//! gom = [2, 2]                               # default (N/2, N/2)
//! [noc.reply]      # epoch = 10000, period = 1000, prologue = 32, t_min = 8, interval = 2, mux = true, reply_queue = 256
//! [noc.request]    # flit_width = 64, vcs = 1, buf_depth = 8
//! [noc.baseline]   # flit_width = 128, vcs = 3, buf_depth = 4, planes = 2
//! [noc.traffic]    # pattern = "gpu", rate = 0.05, cycles = 20000, ...
//! ```
//!
//! Everything derived (route ROMs, compatibility, window groups, the default window
//! set) is computed here, once, and written into the generator's manifest.

use serde::Deserialize;

use crate::bits::clog2;
use crate::config::{check_one_of, check_range, FieldError};

use super::route_rom::{self, RomRow};

/// Which network the config describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NocKind {
    /// MACRO-NoC: hinge-router reply plane + wormhole request plane.
    Macro,
    /// The baseline: 3-stage VC routers on every plane.
    Baseline,
}

/// Dimension-order routing of a VC plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Routing {
    Xy,
    Yx,
    /// The XY-YX comparator of MACRO-NoC's evaluation (spec macro_noc.md §1.12, its
    /// reference [11]): one plane whose VCs are split in two classes, the lower half
    /// carrying requests routed XY, the upper half replies routed YX; a packet keeps
    /// its class from hop to hop. A golden-model network (no RTL is generated for it).
    #[serde(rename = "xy_yx")]
    XyYx,
}

impl Routing {
    /// The dimension order of VC class `class` (0: requests, 1: replies; only
    /// [`Routing::XyYx`] has two classes).
    pub fn of_class(self, class: u8) -> Routing {
        match (self, class) {
            (Routing::XyYx, 0) => Routing::Xy,
            (Routing::XyYx, _) => Routing::Yx,
            (r, _) => r,
        }
    }
}

/// Synthetic traffic patterns (spec §5, issue 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    /// Every node sends to a uniformly random other node (requests only).
    Uniform,
    /// (x, y) sends to (y, x).
    Transpose,
    /// A fraction of the traffic goes to one hotspot node.
    Hotspot,
    /// Cores send read requests to MCs; MCs answer with reply packets.
    Gpu,
}

/// A NoC as a config states it (defaults filled in), before validation. A `[noc]`
/// table deserializes into one; the GPU model builds one from its `[network]` table
/// ([`NocConfig::for_gpu`]). Either way [`NocConfig::build`] validates it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNoc {
    kind: NocKind,
    mesh: u32,
    mcs: Vec<[i64; 2]>,
    #[serde(default)]
    gom: Option<[i64; 2]>,
    #[serde(default)]
    reply: RawReply,
    #[serde(default)]
    request: RawVc,
    /// Keys left out take the baseline's defaults, not the request plane's.
    #[serde(default = "RawVc::baseline", deserialize_with = "baseline_keys")]
    baseline: RawVc,
    #[serde(default)]
    traffic: RawTraffic,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawReply {
    epoch: u32,
    period: u32,
    prologue: u32,
    t_min: u32,
    interval: u32,
    mux: bool,
    reply_queue: u32,
    alpha: u32,
    gamma: u32,
}

impl Default for RawReply {
    fn default() -> Self {
        RawReply { epoch: 10_000, period: 1000, prologue: 32, t_min: 8, interval: 2, mux: true, reply_queue: 256, alpha: 3, gamma: 2 }
    }
}

/// The reply-plane keys a GPU config may set for MACRO-NoC (`[network.reply]`): overlay
/// multiplexing and the injection interval (2 pipelined, 3 basic; spec §1.7, study S2).
/// An absent key keeps the `[noc.reply]` default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReplyKnobs {
    pub mux: Option<bool>,
    pub interval: Option<u32>,
}

/// A VC plane as a config states it (`[noc.request]`, `[noc.baseline]`), before
/// validation. The default is the request plane's; [`RawVc::baseline`] the baseline's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RawVc {
    /// Payload bits per flit.
    pub flit_width: u32,
    pub vcs: u32,
    /// Flit buffers per VC.
    pub buf_depth: u32,
    pub routing: Routing,
    pub planes: u32,
}

impl Default for RawVc {
    fn default() -> Self {
        RawVc { flit_width: 64, vcs: 1, buf_depth: 8, routing: Routing::Xy, planes: 1 }
    }
}

/// A `[noc.baseline]` table: the keys it gives over [`RawVc::baseline`].
fn baseline_keys<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RawVc, D::Error> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Keys {
        flit_width: Option<u32>,
        vcs: Option<u32>,
        buf_depth: Option<u32>,
        routing: Option<Routing>,
        planes: Option<u32>,
    }
    let k = Keys::deserialize(d)?;
    let b = RawVc::baseline();
    Ok(RawVc {
        flit_width: k.flit_width.unwrap_or(b.flit_width),
        vcs: k.vcs.unwrap_or(b.vcs),
        buf_depth: k.buf_depth.unwrap_or(b.buf_depth),
        routing: k.routing.unwrap_or(b.routing),
        planes: k.planes.unwrap_or(b.planes),
    })
}

impl RawVc {
    /// The baseline mesh's defaults (macro_noc.md §1.12): 128-bit flits, 3 VCs x 4
    /// flits, XY, requests and replies on two planes.
    pub fn baseline() -> Self {
        RawVc { flit_width: 128, vcs: 3, buf_depth: 4, routing: Routing::Xy, planes: 2 }
    }
}

/// The dotted name of every validated [`RawNoc`] value in the file it came from, so
/// that errors name the caller's own fields: `noc.baseline.vcs` in a NoC config,
/// `network.router.vcs` in a GPU config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NocFields {
    pub mesh: String,
    /// The MC list; entries are named `<mcs>[i]`.
    pub mcs: String,
    pub gom: String,
    /// Prefix of the reply-plane and traffic parameters.
    pub reply: String,
    pub traffic: String,
    pub request: VcFields,
    pub baseline: VcFields,
}

/// Names of a VC plane's validated values (see [`NocFields`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VcFields {
    pub flit_width: String,
    pub vcs: String,
    pub buf_depth: String,
    pub planes: String,
}

impl VcFields {
    /// Every value under one table: `<table>.flit_width`, `<table>.vcs`, ...
    pub fn under(table: &str) -> VcFields {
        VcFields { flit_width: format!("{table}.flit_width"), vcs: format!("{table}.vcs"), buf_depth: format!("{table}.buf_depth"), planes: format!("{table}.planes") }
    }
}

impl NocFields {
    /// The names of a NoC config file (`[noc]`).
    pub fn noc() -> NocFields {
        NocFields {
            mesh: "noc.mesh".into(),
            mcs: "noc.mcs".into(),
            gom: "noc.gom".into(),
            reply: "noc.reply".into(),
            traffic: "noc.traffic".into(),
            request: VcFields::under("noc.request"),
            baseline: VcFields::under("noc.baseline"),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawTraffic {
    pattern: Pattern,
    rate: f64,
    cycles: u64,
    warmup: u64,
    line_bytes: u32,
    mc_latency: u32,
    hotspot: Option<[i64; 2]>,
    hotspot_fraction: f64,
}

impl Default for RawTraffic {
    fn default() -> Self {
        RawTraffic { pattern: Pattern::Gpu, rate: 0.02, cycles: 30_000, warmup: 3_000, line_bytes: 128, mc_latency: 20, hotspot: None, hotspot_fraction: 0.2 }
    }
}

/// Reply-plane (hinge router / overlay / GOM) parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ReplyParams {
    /// E: epoch length in cycles after the prologue.
    pub epoch: u32,
    /// K: period of the window set (sum of T over groups).
    pub period: u32,
    /// P: GOM prologue length.
    pub prologue: u32,
    pub t_min: u32,
    /// 2 (pipelined) or 3 (non-pipelined).
    pub interval: u32,
    /// Overlay multiplexing enabled.
    pub mux: bool,
    /// REPLY_Q: MC reply-queue depth in flits.
    pub reply_queue: u32,
    /// Integer GOM weights: w = alpha*arr + gamma*occ (spec §1.9: 3 and 2 = 0.6/0.4).
    pub alpha: u32,
    pub gamma: u32,
}

/// A wormhole VC plane (request plane or baseline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct VcParams {
    pub flit_width: u32,
    pub vcs: u32,
    pub buf_depth: u32,
    pub routing: Routing,
    pub planes: u32,
    /// VCs of every port reserved for replies, the last ones (0: requests and replies
    /// share every VC, but under [`Routing::XyYx`]); a GPU network's
    /// `network.router.reply_vcs` (llc_omni_compute.md §1.8), not a `[noc]` key.
    #[serde(skip_serializing_if = "is_zero")]
    pub reply_vcs: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl VcParams {
    /// The VCs packets of class `class` (0: requests, 1: replies) may use: half of
    /// them each under [`Routing::XyYx`], the last `reply_vcs` for replies and the others
    /// for requests when `reply_vcs` is set, all of them otherwise.
    pub fn class_vcs(&self, class: u8) -> std::ops::Range<usize> {
        let v = self.vcs as usize;
        let r = self.reply_vcs as usize;
        match (self.routing, class) {
            (Routing::XyYx, 0) => 0..v / 2,
            (Routing::XyYx, _) => v / 2..v,
            _ if r > 0 && class == 0 => 0..v - r,
            _ if r > 0 => v - r..v,
            _ => 0..v,
        }
    }
}

/// Synthetic traffic of `gpuforge sim`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TrafficParams {
    pub pattern: Pattern,
    /// Offered load in flits/node/cycle (requests; for `gpu` the cores' request
    /// flits, replies follow from the read ratio).
    pub rate: f64,
    pub cycles: u64,
    pub warmup: u64,
    pub line_bytes: u32,
    /// Cycles between a request's arrival at an MC and its reply entering the MC's
    /// reply queue (a fixed L2 hit time; our choice).
    pub mc_latency: u32,
    pub hotspot: (u32, u32),
    pub hotspot_fraction: f64,
}

/// Supported reply-plane flit payload width (the GOMCFG/STATUS formats fill 64 bits).
pub const REPLY_FLIT_W: u32 = 64;
/// Window-length register width (T < 1000 < 2^10, spec §1.5).
pub const TW: u32 = 10;
/// Supported VC-plane payload widths (monomorphized in the HDL): up to the
/// LLC-Compute platform's 32-B flits (llc_omni_compute.md §3).
pub const VC_FLIT_WIDTHS: [u32; 4] = [32, 64, 128, 256];
/// Supported VC counts per port of a VC plane, 1..=VC_MAX (monomorphized in the HDL):
/// up to the LLC-Compute platform's 8 VCs per port (llc_omni_compute.md §3).
pub const VC_MAX: u32 = 8;
/// Supported VC buffer depths (monomorphized in the HDL).
pub const VC_BUF_DEPTHS: [u32; 3] = [2, 4, 8];
/// Supported mesh sizes: N x N with MESH_MIN <= N <= MESH_MAX.
/// Most MCs (overlays) a config may place.
pub const MC_MAX: u32 = 8;
pub const MESH_MIN: u32 = 2;
pub const MESH_MAX: u32 = 8;

/// The coordinate widths (`clog2(N)`) the supported meshes take, ascending.
pub fn coord_widths() -> Vec<u32> {
    let mut v: Vec<u32> = (MESH_MIN..=MESH_MAX).map(|n| clog2(n as u64)).collect();
    v.dedup();
    v
}

/// A validated NoC configuration and its derived tables.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NocConfig {
    pub kind: NocKind,
    /// N: the mesh is N x N.
    pub n: u32,
    /// MC coordinates (x, y); overlay i = MC i.
    pub mcs: Vec<(u32, u32)>,
    /// GOM node coordinates.
    pub gom: (u32, u32),
    pub reply: ReplyParams,
    pub request: VcParams,
    pub baseline: VcParams,
    pub traffic: TrafficParams,
    // ---- derived ----
    /// Route ROM of every router, node id order (y*N + x): rows 0..m-1 overlays,
    /// row m the GOM broadcast overlay.
    pub roms: Vec<Vec<RomRow>>,
    /// `compatible[i][j]`: overlays i and j may share a window (spec §1.8).
    pub compatible: Vec<Vec<bool>>,
    /// Window groups: members in phase order (1 or 2 MCs each), in window order.
    pub groups: Vec<Vec<usize>>,
    /// Group of each MC, and its phase in the group.
    pub group_of: Vec<(usize, usize)>,
    /// The window set of epoch 0 (equal split, remainder by index).
    pub default_windows: Vec<u32>,
}

fn coord(field: &str, c: [i64; 2], n: u32) -> Result<(u32, u32), FieldError> {
    let ok = |v: i64| v >= 0 && v < n as i64;
    if !ok(c[0]) || !ok(c[1]) {
        return Err(FieldError::new(field, format!("({}, {}) is off the {n}x{n} mesh", c[0], c[1]), Some(format!("x and y in 0..={}", n - 1))));
    }
    Ok((c[0] as u32, c[1] as u32))
}

fn vc_params(f: &VcFields, r: &RawVc) -> Result<VcParams, FieldError> {
    check_one_of(&f.flit_width, r.flit_width, &VC_FLIT_WIDTHS)?;
    check_range(&f.vcs, r.vcs, 1, VC_MAX)?;
    check_one_of(&f.buf_depth, r.buf_depth, &VC_BUF_DEPTHS)?;
    check_range(&f.planes, r.planes, 1, 2)?;
    if r.routing == Routing::XyYx {
        if !r.vcs.is_multiple_of(2) {
            return Err(FieldError::new(
                &f.vcs,
                format!("{} VCs cannot be split into the request and reply classes of routing = \"xy_yx\"", r.vcs),
                Some("2, 4, 6 or 8 with xy_yx".into()),
            ));
        }
        if r.planes != 1 {
            return Err(FieldError::new(
                &f.planes,
                format!("{} planes: routing = \"xy_yx\" carries requests and replies on one plane, in two VC classes", r.planes),
                Some("1 with xy_yx".into()),
            ));
        }
    }
    Ok(VcParams { flit_width: r.flit_width, vcs: r.vcs, buf_depth: r.buf_depth, routing: r.routing, planes: r.planes, reply_vcs: 0 })
}

impl NocConfig {
    /// Validate a `[noc]` table.
    pub fn validate(r: RawNoc) -> Result<Self, FieldError> {
        Self::build(r, &NocFields::noc())
    }

    /// The NoC under a GPU model: an `n` x `n` mesh whose MCs sit at `mcs` ((x, y), in
    /// overlay order), the baseline planes as `baseline` says, every other parameter
    /// (reply plane, request plane, GOM, traffic) at its default. `fields` names the
    /// GPU config's own fields for errors.
    pub fn for_gpu(kind: NocKind, n: u32, mcs: &[(u32, u32)], baseline: RawVc, reply: ReplyKnobs, fields: &NocFields) -> Result<Self, FieldError> {
        let d = RawReply::default();
        let raw = RawNoc {
            kind,
            mesh: n,
            mcs: mcs.iter().map(|&(x, y)| [x as i64, y as i64]).collect(),
            gom: None,
            reply: RawReply { mux: reply.mux.unwrap_or(d.mux), interval: reply.interval.unwrap_or(d.interval), ..d },
            request: RawVc::default(),
            baseline,
            traffic: RawTraffic::default(),
        };
        Self::build(raw, fields)
    }

    /// The one validation of a NoC (mesh, MC placement, GOM, reply plane, VC planes,
    /// traffic) and the derivation of its tables; errors carry the names in `f`.
    pub fn build(r: RawNoc, f: &NocFields) -> Result<Self, FieldError> {
        let n = check_range(&f.mesh, r.mesh, MESH_MIN, MESH_MAX)?;
        check_range(&format!("{} (count)", f.mcs), r.mcs.len() as u32, 1, MC_MAX)?;
        let mut mcs = Vec::new();
        for (i, c) in r.mcs.iter().enumerate() {
            let p = coord(&format!("{}[{i}]", f.mcs), *c, n)?;
            if let Some(j) = mcs.iter().position(|q| *q == p) {
                return Err(FieldError::new(format!("{}[{i}]", f.mcs), format!("({}, {}) is also MC {j}: duplicate MC", p.0, p.1), Some("distinct coordinates".into())));
            }
            mcs.push(p);
        }
        if mcs.len() as u32 >= n * n {
            return Err(FieldError::new(f.mcs.as_str(), "every node is an MC", Some(format!("at most {} MCs", n * n - 1))));
        }
        let gom = match r.gom {
            Some(c) => coord(&f.gom, c, n)?,
            // default: the core node nearest the mesh centre (ties: lowest y, then x)
            None => (0..n * n)
                .map(|id| (id % n, id / n))
                .filter(|p| !mcs.contains(p))
                .min_by_key(|&(x, y)| (x.abs_diff(n / 2) + y.abs_diff(n / 2), y, x))
                .expect("fewer MCs than nodes"),
        };
        if let Some(i) = mcs.iter().position(|p| *p == gom) {
            return Err(FieldError::new(
                f.gom.as_str(),
                format!("({}, {}) is MC {i}; the GOM must sit on a core node", gom.0, gom.1),
                Some(format!("a node that is not in {}", f.mcs)),
            ));
        }
        let rr = &r.reply;
        let rf = |key: &str| format!("{}.{key}", f.reply);
        check_one_of(&rf("interval"), rr.interval, &[2, 3])?;
        check_range(&rf("prologue"), rr.prologue, 32, 1024)?;
        check_range(&rf("t_min"), rr.t_min, 6, 1000)?;
        check_range(&rf("period"), rr.period, rr.t_min, 1000)?;
        check_range(&rf("epoch"), rr.epoch, rr.period, (1 << super::overlay_ctrl::ECYC_BITS) - 1 - rr.prologue)?;
        if !rr.epoch.is_multiple_of(rr.period) {
            return Err(FieldError::new(rf("epoch"), format!("period K = {} does not divide epoch E = {}", rr.period, rr.epoch), Some(format!("a multiple of {}", rf("period")))));
        }
        check_one_of(&rf("reply_queue"), rr.reply_queue, &[4, 8, 16, 32, 64, 128, 256])?;
        check_range(&rf("alpha"), rr.alpha, 0, 15)?;
        check_range(&rf("gamma"), rr.gamma, 0, 15)?;
        if rr.mux && rr.interval != 2 {
            return Err(FieldError::new(rf("mux"), "overlay multiplexing needs pipelined injection (interval 2)", Some("mux = false, or interval = 2".into())));
        }
        let reply = ReplyParams {
            epoch: rr.epoch,
            period: rr.period,
            prologue: rr.prologue,
            t_min: rr.t_min,
            interval: rr.interval,
            mux: rr.mux,
            reply_queue: rr.reply_queue,
            alpha: rr.alpha,
            gamma: rr.gamma,
        };
        let request = vc_params(&f.request, &r.request)?;
        let baseline = vc_params(&f.baseline, &r.baseline)?;
        let t = &r.traffic;
        let tf = |key: &str| format!("{}.{key}", f.traffic);
        if !(t.rate >= 0.0 && t.rate <= 1.0) {
            return Err(FieldError::new(tf("rate"), format!("{} is out of range", t.rate), Some("0 <= rate <= 1".into())));
        }
        check_range(&tf("cycles"), t.cycles, 1, 100_000_000)?;
        check_range(&tf("warmup"), t.warmup, 0, t.cycles - 1)?;
        check_one_of(&tf("line_bytes"), t.line_bytes, &[32, 64, 128, 256])?;
        check_range(&tf("mc_latency"), t.mc_latency, 1, 10_000)?;
        if !(t.hotspot_fraction >= 0.0 && t.hotspot_fraction <= 1.0) {
            return Err(FieldError::new(tf("hotspot_fraction"), format!("{} is out of range", t.hotspot_fraction), Some("0..=1".into())));
        }
        let hotspot = match t.hotspot {
            Some(c) => coord(&tf("hotspot"), c, n)?,
            // default: the core node nearest the mesh centre (ties: lowest y, then x)
            None => (0..n * n)
                .map(|id| (id % n, id / n))
                .filter(|p| !mcs.contains(p))
                .min_by_key(|&(x, y)| (x.abs_diff(n / 2) + y.abs_diff(n / 2), y, x))
                .expect("fewer MCs than nodes"),
        };
        let traffic = TrafficParams {
            pattern: t.pattern,
            rate: t.rate,
            cycles: t.cycles,
            warmup: t.warmup,
            line_bytes: t.line_bytes,
            mc_latency: t.mc_latency,
            hotspot,
            hotspot_fraction: t.hotspot_fraction,
        };

        // ---- derived tables ----
        let m = mcs.len();
        let mut roms = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let mut rows: Vec<RomRow> = mcs.iter().map(|&src| route_rom::row(n, (x, y), src)).collect();
                rows.push(route_rom::row(n, (x, y), gom));
                for (i, row) in rows.iter().enumerate() {
                    if let Err(e) = route_rom::check_legal(row) {
                        return Err(FieldError::new(f.mcs.as_str(), format!("generator bug: router ({x},{y}) row {i}: {e}"), None));
                    }
                }
                roms.push(rows);
            }
        }
        let compatible: Vec<Vec<bool>> = (0..m).map(|i| (0..m).map(|j| i != j && route_rom::compatible(&roms, i, j)).collect()).collect();
        let groups = if reply.mux { route_rom::greedy_pairs(&mcs, &compatible, n) } else { (0..m).map(|i| vec![i]).collect() };
        let mut group_of = vec![(0, 0); m];
        for (g, mem) in groups.iter().enumerate() {
            for (ph, &i) in mem.iter().enumerate() {
                group_of[i] = (g, ph);
            }
        }
        let ng = groups.len() as u32;
        if ng * reply.t_min > reply.period {
            return Err(FieldError::new(
                rf("period"),
                format!("{ng} windows of at least t_min = {} cycles do not fit period K = {}", reply.t_min, reply.period),
                Some(format!("K >= {} (windows x t_min), or a smaller t_min", ng * reply.t_min)),
            ));
        }
        if reply.period > 1000 * ng {
            return Err(FieldError::new(
                rf("period"),
                format!("K = {} cannot be split into {ng} windows of at most 1000 cycles", reply.period),
                Some(format!("K <= {}", 1000 * ng)),
            ));
        }
        let default_windows = super::window::window_lengths(&vec![0; ng as usize], reply.period, reply.t_min);
        Ok(NocConfig { kind: r.kind, n, mcs, gom, reply, request, baseline, traffic, roms, compatible, groups, group_of, default_windows })
    }

    /// Number of MCs (overlays), m.
    pub fn m(&self) -> usize {
        self.mcs.len()
    }

    /// Number of window groups, G.
    pub fn g(&self) -> usize {
        self.groups.len()
    }

    pub fn nodes(&self) -> usize {
        (self.n * self.n) as usize
    }

    pub fn node(&self, x: u32, y: u32) -> usize {
        (y * self.n + x) as usize
    }

    pub fn xy(&self, id: usize) -> (u32, u32) {
        (id as u32 % self.n, id as u32 / self.n)
    }

    /// MC index of node `id`, if it is an MC.
    pub fn mc_at(&self, id: usize) -> Option<usize> {
        let p = self.xy(id);
        self.mcs.iter().position(|q| *q == p)
    }

    pub fn gom_node(&self) -> usize {
        self.node(self.gom.0, self.gom.1)
    }

    /// CW = clog2(N): coordinate width.
    pub fn cw(&self) -> u32 {
        clog2(self.n as u64)
    }

    /// SW = clog2(m): source (MC index) width, at least 1.
    pub fn sw(&self) -> u32 {
        clog2(self.m() as u64)
    }

    /// Reply-plane link width: valid, type(2), head, tail, src, dst_y, dst_x, payload.
    pub fn link_w(&self) -> u32 {
        super::link::LinkFmt::new(self).width
    }

    /// Epoch length including the prologue.
    pub fn epoch_len(&self) -> u32 {
        self.reply.prologue + self.reply.epoch
    }

    /// Reply packet length in flits on the 64-bit reply plane (1 header + data).
    pub fn reply_flits(&self) -> u32 {
        1 + self.traffic.line_bytes / 8
    }

    /// Reply packet length on a VC plane of `width` bits.
    pub fn reply_flits_at(&self, width: u32) -> u32 {
        1 + (self.traffic.line_bytes * 8).div_ceil(width)
    }
}
