//! MACRO-NoC and baseline in lockstep (spec §4.3 level L1: every ejection and every
//! link, plus injections, grants, credits and the reply plane's latch and schedule
//! state, every cycle): the port maps of [`ports`] and the bench of each design kind,
//! each a [`ModelBench`] of a golden model, its stimulus and its scoreboard.
//!
//! | design (`NocDesign`)        | golden model | stimulus          | scoreboard        |
//! |-----------------------------|--------------|-------------------|-------------------|
//! | `reply/` (`ReplyMesh`)      | `ReplyMesh`  | `ReplyStimulus`   | `ReplyChecker`    |
//! | `request/` (`VcMesh`)       | `VcMesh`     | `VcStimulus`      | `VcChecker`       |
//! | `macro_top/` (`MacroTop`)   | both, as a pair of benches (request ports `req_*`) |||
//! | `baseline/` (`BaselineTop`) | one `VcMesh` bench per plane (ports `p<k>_*`)      |||
//! | `routers/hinge`             | `HingeTop`   | `HingeStimulus`   | `HingeChecker`    |
//! | `routers/<plane>`           | `VcRouter`   | `VcRouterStimulus`| `VcRouterChecker` |
//!
//! Every bench is built from the config and the design's layout alone: port widths
//! from the manifest, bit layouts from golden's field tables; `BenchOptions::check`
//! decides whether the scoreboard runs.

pub mod ports;

use golden::noc::check::{HingeChecker, ReplyChecker, VcChecker, VcRouterChecker};
use golden::noc::config::NocConfig;
use golden::noc::flit::VcLayout;
use golden::noc::hinge_router::HingeTop;
use golden::noc::reply_mesh::ReplyMesh;
use golden::noc::traffic::{HingeStimulus, ReplyStimulus, VcRouterStimulus, VcStimulus};
use golden::noc::vc_mesh::VcMesh;
use golden::noc::vc_router::VcRouter;
use golden::noc::Noc;
use hdl_gen::noc::{NocDesign, Plane};

use crate::bench::ModelBench;
use crate::frame::Layout;
use crate::lockstep::Bench;
use crate::run::{BenchOptions, Cosim};
use ports::{HingePorts, ReplyPorts, VcPorts, VcRouterPorts};

pub type ReplyBench = ModelBench<ReplyMesh, ReplyPorts, ReplyStimulus, ReplyChecker>;
pub type VcBench = ModelBench<VcMesh, VcPorts, VcStimulus, VcChecker>;
/// `macro_noc_top_*`: the reply plane and the request plane side by side.
pub type MacroBench = (ReplyBench, VcBench);
/// `baseline_noc_top_*`: every plane.
pub type BaselineBench = Vec<VcBench>;
pub type HingeBench = ModelBench<HingeTop, HingePorts, HingeStimulus, HingeChecker>;
pub type VcRouterBench = ModelBench<VcRouter, VcRouterPorts, VcRouterStimulus, VcRouterChecker>;

/// The reply plane (the design's unprefixed reply ports).
pub fn reply_bench(c: &NocConfig, layout: &Layout, opts: &BenchOptions) -> Result<ReplyBench, String> {
    let ports = ReplyPorts::new(c, layout)?;
    Ok(ModelBench::new(ReplyMesh::new(c), ReplyStimulus::new(c, opts.seed), opts.check.then(|| ReplyChecker::new(c)), ports).named("reply plane"))
}

/// VC plane `plane` whose ports carry the prefix `pre`.
pub fn vc_bench(c: &NocConfig, plane: Plane, layout: &Layout, pre: &str, opts: &BenchOptions) -> Result<VcBench, String> {
    let p = plane.params(c);
    let ports = VcPorts::new(c, VcLayout::for_plane(c, p), layout, pre)?;
    let name = if pre.is_empty() { "VC plane".to_string() } else { format!("plane {}", pre.trim_end_matches('_')) };
    Ok(ModelBench::new(VcMesh::new(p, c.n), VcStimulus::new(p, c.n, opts.seed), opts.check.then(|| VcChecker::new(c.n, p)), ports).named(name))
}

/// Both planes of `macro_noc_top_*` (the request plane's stimulus on its own seed).
pub fn macro_bench(c: &NocConfig, layout: &Layout, opts: &BenchOptions) -> Result<MacroBench, String> {
    let req = BenchOptions { seed: opts.seed ^ 0x5eed, ..*opts };
    Ok((reply_bench(c, layout, opts)?, vc_bench(c, Plane::Request, layout, "req_", &req)?))
}

/// Every plane of `baseline_noc_top_*`, each on its own seed.
pub fn baseline_bench(c: &NocConfig, layout: &Layout, opts: &BenchOptions) -> Result<BaselineBench, String> {
    (0..c.baseline.planes)
        .map(|k| {
            let o = BenchOptions { seed: opts.seed.wrapping_add(k as u64 * 7919), ..*opts };
            vc_bench(c, Plane::Baseline, layout, &format!("p{k}_"), &o)
        })
        .collect()
}

/// The hinge router at (x, y) with its ROM (`macro_hinge_top_*`).
pub fn hinge_bench(c: &NocConfig, layout: &Layout, (x, y): (u32, u32), opts: &BenchOptions) -> Result<HingeBench, String> {
    let ports = HingePorts::new(c, layout)?;
    Ok(ModelBench::new(HingeTop::new(c, x, y), HingeStimulus::new(c, opts.seed), opts.check.then(|| HingeChecker::new(c, x, y)), ports).named(format!("hinge router ({x}, {y})")))
}

/// The VC router of `plane` at (x, y) (`vc_router_top_*`).
pub fn vc_router_bench(c: &NocConfig, plane: Plane, layout: &Layout, (x, y): (u32, u32), opts: &BenchOptions) -> Result<VcRouterBench, String> {
    let p = plane.params(c);
    let ports = VcRouterPorts::new(c, VcLayout::for_plane(c, p), p.vcs, layout)?;
    Ok(ModelBench::new(VcRouter::new(p, c.n, x, y), VcRouterStimulus::new(p, c.n, opts.seed), opts.check.then(|| VcRouterChecker::new(p, c.n, x, y)), ports)
        .named(format!("VC router ({x}, {y})")))
}

/// A router position of the design that the config's mesh has.
fn position(c: &NocConfig, layout: &Layout, x: u32, y: u32) -> Result<(u32, u32), String> {
    if x < c.n && y < c.n {
        Ok((x, y))
    } else {
        Err(format!("{}: router ({x}, {y}) is outside the config's {n}x{n} mesh (design and config disagree)", layout.top, n = c.n))
    }
}

impl Cosim for Noc {
    fn bench(c: &NocConfig, design: &NocDesign, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String> {
        Ok(match *design {
            NocDesign::ReplyMesh => Box::new(reply_bench(c, layout, opts)?),
            NocDesign::VcMesh { plane } => Box::new(vc_bench(c, plane, layout, "", opts)?),
            NocDesign::MacroTop => Box::new(macro_bench(c, layout, opts)?),
            NocDesign::BaselineTop { planes } => {
                if planes != c.baseline.planes {
                    return Err(format!("{}: {planes} planes in the design, {} in the config (design and config disagree)", layout.top, c.baseline.planes));
                }
                Box::new(baseline_bench(c, layout, opts)?)
            }
            NocDesign::HingeRouter { x, y } => Box::new(hinge_bench(c, layout, position(c, layout, x, y)?, opts)?),
            NocDesign::VcRouter { plane, x, y } => Box::new(vc_router_bench(c, plane, layout, position(c, layout, x, y)?, opts)?),
        })
    }
}
