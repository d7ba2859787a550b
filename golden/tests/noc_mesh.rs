//! Golden meshes: spec §4.3 invariants under random traffic (with a planted bug in
//! each of router, controller and GOM caught), baseline zero-load latency for every
//! pair (acceptance 4), and the Network interface.

use golden::block;
use golden::model::{Model, Scoreboard, Stimulus};
use golden::network::{Class, Network, Packet};
use golden::noc::check::{HingeChecker, VcRouterChecker};
use golden::noc::check::{ReplyChecker, VcChecker};
use golden::noc::config::NocConfig;
use golden::noc::gom::GomMutation;
use golden::noc::hinge_router::HingeTop;
use golden::noc::hinge_router::RouterMutation;
use golden::noc::mesh::{build_network, BaselineNetwork, NetKind};
use golden::noc::overlay_ctrl::CtrlMutation;
use golden::noc::reply_mesh::ReplyMesh;
use golden::noc::traffic::{HingeStimulus, ReplyStimulus, VcRouterStimulus, VcStimulus};
use golden::noc::vc_mesh::VcMesh;
use golden::noc::vc_router::{VcMutation, VcRouter};
use golden::noc::Noc;

fn preset(name: &str) -> NocConfig {
    golden::presets::load::<Noc>(name).unwrap_or_else(|e| panic!("{e}")).config
}

/// A 4x4 MACRO config with short epochs so a test crosses many of them.
fn short(mesh: u32, mcs: &str, extra: &str) -> NocConfig {
    let text = format!("name = \"t\"\n[noc]\nkind = \"macro\"\nmesh = {mesh}\nmcs = {mcs}\n[noc.reply]\nepoch = 1200\nperiod = 200\nt_min = 8\nreply_queue = 16\n{extra}");
    block::parse::<Noc>(std::path::Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}")).config
}

/// Run `model` for up to `cycles` cycles under `stim` (reset in cycle 0), watched by
/// `chk`: the first finding, if any.
fn run<M: Model, S: Stimulus<M>, C: Scoreboard<M>>(mut model: M, mut stim: S, chk: &mut C, cycles: u64) -> Option<String> {
    let (mut i, mut o, mut prev) = (model.idle_inputs(), model.new_outputs(), model.new_outputs());
    for cy in 0..cycles {
        stim.drive(&model, &prev, &mut i);
        if cy == 0 {
            M::assert_reset(&mut i);
        }
        model.eval(&i, &mut o);
        if let Err(v) = chk.observe(cy, &i, &o) {
            return Some(v.to_string());
        }
        model.commit(&i);
        std::mem::swap(&mut prev, &mut o);
    }
    None
}

fn run_reply(c: &NocConfig, cycles: u64, seed: u64, plant: impl Fn(&mut ReplyMesh)) -> (Vec<String>, u64) {
    let mut mesh = ReplyMesh::new(c);
    plant(&mut mesh);
    let mut chk = ReplyChecker::new(c);
    let found = run(mesh, ReplyStimulus::new(c, seed), &mut chk, cycles);
    (found.into_iter().collect(), chk.delivered)
}

#[test]
fn reply_plane_invariants_hold_4x4_paper_placement() {
    let c = short(4, "[[2,3],[0,2],[3,1],[1,0]]", "");
    let (v, d) = run_reply(&c, 30_000, 7, |_| {});
    assert!(v.is_empty(), "{v:#?}");
    assert!(d > 2000, "only {d} flits delivered");
}

#[test]
fn reply_plane_invariants_hold_unpipelined_and_unmultiplexed() {
    let c = short(4, "[[2,3],[0,2],[3,1],[1,0]]", "interval = 3\nmux = false\n");
    let (v, d) = run_reply(&c, 20_000, 3, |_| {});
    assert!(v.is_empty(), "{v:#?}");
    assert!(d > 1000);
}

#[test]
fn reply_plane_invariants_hold_8x8_c_with_two_gomcfg_flits() {
    let c = short(8, "[[0,7],[2,7],[4,7],[6,7],[1,0],[3,0],[5,0],[7,0]]", "mux = false\n");
    assert_eq!(c.g(), 8);
    let (v, _) = run_reply(&c, 8_000, 5, |_| {});
    assert!(v.is_empty(), "{v:#?}");
    let c = short(8, "[[0,7],[2,7],[4,7],[6,7],[1,0],[3,0],[5,0],[7,0]]", "");
    let (v, _) = run_reply(&c, 8_000, 5, |_| {});
    assert!(v.is_empty(), "{v:#?}");
}

#[test]
fn planted_router_bug_is_caught() {
    let c = short(4, "[[2,3],[0,2],[3,1],[1,0]]", "");
    let (v, _) = run_reply(&c, 20_000, 7, |m| m.routers.iter_mut().for_each(|r| r.mutation = Some(RouterMutation::EjectIgnoresY)));
    assert!(v.iter().any(|s| s.contains("exactly once") || s.contains("drop rule")), "{v:#?}");
}

#[test]
fn planted_controller_bug_is_caught() {
    let c = short(4, "[[2,3],[0,2],[3,1],[1,0]]", "");
    let (v, _) = run_reply(&c, 20_000, 7, |m| m.routers.iter_mut().for_each(|r| r.ctrl.mutation = Some(CtrlMutation::LateLastSlot)));
    assert!(v.iter().any(|s| s.contains("grant legality")), "{v:#?}");
}

#[test]
fn planted_gom_bug_is_caught() {
    let c = short(4, "[[2,3],[0,2],[3,1],[1,0]]", "");
    let (v, _) = run_reply(&c, 20_000, 7, |m| m.gom.mutation = Some(GomMutation::NoRemainder));
    assert!(v.iter().any(|s| s.contains("GOM exactness") || s.contains("schedule")), "{v:#?}");
}

fn run_vc(c: &golden::noc::config::VcParams, n: u32, cycles: u64, seed: u64, plant: Option<VcMutation>) -> (Vec<String>, u64) {
    let mut mesh = VcMesh::new(c, n);
    mesh.set_mutation(plant);
    let mut chk = VcChecker::new(n, c);
    let found = run(mesh, VcStimulus::new(c, n, seed), &mut chk, cycles);
    (found.into_iter().collect(), chk.delivered)
}

#[test]
fn vc_mesh_invariants_baseline_and_request_plane() {
    let c = preset("noc_baseline_4x4");
    let (v, d) = run_vc(&c.baseline, 4, 20_000, 11, None);
    assert!(v.is_empty(), "{v:#?}");
    assert!(d > 5000);
    let c = preset("noc_macro_4x4");
    let (v, d) = run_vc(&c.request, 4, 20_000, 12, None);
    assert!(v.is_empty(), "{v:#?}");
    assert!(d > 5000);
}

#[test]
fn planted_vc_router_bug_is_caught() {
    let c = preset("noc_baseline_4x4");
    let (v, _) = run_vc(&c.baseline, 4, 20_000, 11, Some(VcMutation::IgnoreCredits));
    assert!(v.iter().any(|s| s.contains("credit bounds")), "{v:#?}");
}

/// One hinge router of every MACRO preset (each a different role: MC on phase 0 or
/// 1, GOM, plain) under random legal inputs: its port scoreboard holds.
#[test]
fn hinge_router_invariants_hold_for_every_role() {
    for name in ["noc_macro_4x4", "noc_macro_8x8_b", "noc_macro_8x8_c"] {
        let c = preset(name);
        let gom = c.xy(c.gom_node());
        let phase1 = c.mcs.iter().copied().find(|&p| c.group_of[c.mc_at(c.node(p.0, p.1)).unwrap()].1 == 1);
        let plain = (0..c.nodes()).map(|i| c.xy(i)).find(|&p| c.mc_at(c.node(p.0, p.1)).is_none() && p != gom).unwrap();
        for (x, y) in [Some(c.mcs[0]), phase1, Some(gom), Some(plain)].into_iter().flatten() {
            let mut chk = HingeChecker::new(&c, x, y);
            let found = run(HingeTop::new(&c, x, y), HingeStimulus::new(&c, 5), &mut chk, c.epoch_len() as u64 + 3000);
            assert_eq!(found, None, "{name} router ({x}, {y})");
            assert!(chk.ejected > 20, "{name} ({x}, {y}): {} flits ejected", chk.ejected);
        }
    }
}

#[test]
fn planted_router_bug_is_caught_at_the_router() {
    // the mutant ejects a flit for another row: the hinge scoreboard names it
    let c = preset("noc_macro_4x4");
    let (x, y) = c.mcs[0];
    let mut top = HingeTop::new(&c, x, y);
    top.router.mutation = Some(RouterMutation::EjectIgnoresY);
    let found = run(top, HingeStimulus::new(&c, 5), &mut HingeChecker::new(&c, x, y), 20_000);
    assert!(found.as_deref().is_some_and(|s| s.contains("exactly once")), "{found:?}");
}

/// One VC router of each plane (request 1 VC x 8, baseline 3 VCs x 4 with 128-bit
/// data, YX routing) under random legal traffic: its port scoreboard holds.
#[test]
fn vc_router_invariants_hold() {
    let yx = short(4, "[[1,1]]", "[noc.request]\nrouting = \"yx\"\nvcs = 2\nbuf_depth = 2\n");
    for (p, n) in [(preset("noc_macro_4x4").request, 4), (preset("noc_baseline_8x8_b").baseline, 8), (yx.request, 4)] {
        for (x, y) in [(n / 2, n / 2), (0, 0), (n - 1, 1)] {
            let mut chk = VcRouterChecker::new(&p, n, x, y);
            let found = run(VcRouter::new(&p, n, x, y), VcRouterStimulus::new(&p, n, 9), &mut chk, 10_000);
            assert_eq!(found, None, "{p:?} router ({x}, {y})");
            assert!(chk.forwarded > 2_000, "{p:?}: {} flits forwarded", chk.forwarded);
        }
    }
}

#[test]
fn planted_vc_router_bug_is_caught_at_the_router() {
    // switch allocation ignores credits: the router overruns a downstream buffer
    let p = preset("noc_baseline_4x4").baseline;
    let mut r = VcRouter::new(&p, 4, 2, 2);
    r.set_mutation(Some(VcMutation::IgnoreCredits));
    let found = run(r, VcRouterStimulus::new(&p, 4, 9), &mut VcRouterChecker::new(&p, 4, 2, 2), 10_000);
    assert!(found.as_deref().is_some_and(|s| s.contains("credit bounds")), "{found:?}");
}

/// Every `stride`-th destination from every source, a request and a reply alone on the
/// network: 3 cycles per router on the path plus serialization (a packet of three
/// 128-bit flits is `ceil(384 / W)` flits of the plane's width W: 3 at 128 bits, 2 at
/// 256).
fn zero_load(c: &NocConfig, stride: usize) {
    let n = c.n as usize;
    let plane_flits = (3 * 128u32).div_ceil(c.baseline.flit_width) as u64;
    for src in 0..n * n {
        for dst in (0..n * n).step_by(stride) {
            for class in [Class::Request, Class::Reply] {
                let mut net = BaselineNetwork::new(c, 128);
                let flits = 3u32;
                net.inject(Packet { id: 1, src, dst, class, flits, tag: 0, injected_at: 0 });
                let mut got = None;
                for _ in 0..200 {
                    net.step();
                    if let Some(p) = net.eject(dst) {
                        got = Some(net.cycle() - 1 - p.injected_at);
                        break;
                    }
                }
                let routers = ((src % n).abs_diff(dst % n) + (src / n).abs_diff(dst / n) + 1) as u64;
                assert_eq!(got, Some(3 * routers + plane_flits - 1), "{src} -> {dst} {class:?}");
            }
        }
    }
}

#[test]
fn baseline_zero_load_latency_is_3_per_router_plus_serialization() {
    zero_load(&preset("noc_baseline_4x4"), 1);
    zero_load(&preset("noc_baseline_8x8_c"), 1);
    // XY-YX (one plane, replies routed YX on their own VCs): the same hop counts
    let xyyx = |n: u32| {
        let text = format!("name = \"t\"\n[noc]\nkind = \"baseline\"\nmesh = {n}\nmcs = [[0, {}]]\n[noc.baseline]\nrouting = \"xy_yx\"\nvcs = 4\nplanes = 1\n", n - 1);
        block::parse::<Noc>(std::path::Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}")).config
    };
    zero_load(&xyyx(4), 1);
    zero_load(&xyyx(8), 5);
}

/// The LLC-Compute platform's network as the GPU preset `llc_compute_56` builds it
/// (llc_omni_compute.md §3: 8x8, YX, 8 VCs x 8 flits, 32-B flits, 3-stage routers,
/// one plane): 3 cycles per router, a 384-bit packet in two flits; and the same router
/// as XY-YX with 8 VCs (4 per class).
#[test]
fn zero_load_latency_with_eight_vcs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/gpu/llc_compute_56.toml");
    let gpu = golden::gpu::GpuConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let c = golden::gpu::net::noc_config(&gpu.network).unwrap().expect("a mesh");
    let b = c.baseline;
    assert_eq!((c.n, b.vcs, b.buf_depth, b.flit_width, b.routing, b.planes), (8, 8, 8, 256, golden::noc::config::Routing::Yx, 1));
    zero_load(&c, 3);
    let text = "name = \"t\"\n[noc]\nkind = \"baseline\"\nmesh = 4\nmcs = [[0, 3]]\n[noc.baseline]\nrouting = \"xy_yx\"\nvcs = 8\nbuf_depth = 8\nflit_width = 256\nplanes = 1\n";
    zero_load(&block::parse::<Noc>(std::path::Path::new("t.toml"), text).unwrap_or_else(|e| panic!("{e}")).config, 1);
}

/// The scoreboard holds on an 8-VC, 256-bit mesh (every VC, the upper 128 data bits
/// checked end to end), and catches the planted VC-id truncation (VCs 4..=7 land in
/// VCs 0..=3 downstream), which only a mesh of more than 4 VCs can show.
#[test]
fn vc_mesh_invariants_with_eight_vcs_and_256_bit_flits() {
    let p = golden::noc::config::VcParams { flit_width: 256, vcs: 8, buf_depth: 8, routing: golden::noc::config::Routing::Yx, planes: 1, reply_vcs: 0 };
    let (v, d) = run_vc(&p, 4, 20_000, 13, None);
    assert!(v.is_empty(), "{v:#?}");
    assert!(d > 5000, "{d} flits delivered");
    let (v, _) = run_vc(&p, 4, 20_000, 13, Some(VcMutation::TruncatedVcId));
    assert!(v.iter().any(|s| s.contains("contiguity") || s.contains("credit bounds")), "{v:#?}");
}

#[test]
fn build_network_for_the_gpu_model() {
    for kind in [NetKind::Baseline, NetKind::Macro] {
        let mut net = build_network(kind, 4, &[11, 2, 7, 1], 64).unwrap();
        assert_eq!(net.nodes(), 16);
        net.inject(Packet { id: 1, src: 0, dst: 11, class: Class::Request, flits: 1, tag: 5, injected_at: 0 });
        let mut got = Vec::new();
        for _ in 0..3000 {
            net.step();
            if let Some(p) = net.eject(11) {
                net.inject(Packet { id: 2, src: 11, dst: 0, class: Class::Reply, flits: 17, tag: p.tag, injected_at: 0 });
                got.push(1);
            }
            if net.eject(0).is_some() {
                got.push(2);
                break;
            }
        }
        assert_eq!(got, vec![1, 2], "{}", net.describe());
        assert_eq!(net.in_flight(), 0);
    }
    assert!(build_network(NetKind::Macro, 4, &[5, 5], 64).is_err());
}
