//! Golden meshes: spec §4.3 invariants under random traffic (with a planted bug in
//! each of router, controller and GOM caught), baseline zero-load latency for every
//! pair (acceptance 4), and the Network interface.

use golden::block;
use golden::noc::Noc;
use golden::network::{Class, Network, Packet};
use golden::noc::check::{ReplyChecker, VcChecker};
use golden::noc::config::NocConfig;
use golden::noc::gom::GomMutation;
use golden::noc::hinge_router::RouterMutation;
use golden::noc::mesh::{build_network, BaselineNetwork, NetKind};
use golden::noc::overlay_ctrl::CtrlMutation;
use golden::noc::reply_mesh::{ReplyInputs, ReplyMesh, ReplyOutputs};
use golden::noc::traffic::{ReplyStimulus, VcStimulus};
use golden::noc::vc_mesh::{VcMesh, VcMeshInputs, VcMeshOutputs};
use golden::noc::vc_router::VcMutation;

fn preset(name: &str) -> NocConfig {
    golden::presets::load::<Noc>(name).unwrap_or_else(|e| panic!("{e}")).config
}

/// A 4x4 MACRO config with short epochs so a test crosses many of them.
fn short(mesh: u32, mcs: &str, extra: &str) -> NocConfig {
    let text = format!("name = \"t\"\n[noc]\nkind = \"macro\"\nmesh = {mesh}\nmcs = {mcs}\n[noc.reply]\nepoch = 1200\nperiod = 200\nt_min = 8\nreply_queue = 16\n{extra}");
    block::parse::<Noc>(std::path::Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}")).config
}

fn run_reply(c: &NocConfig, cycles: u64, seed: u64, plant: impl Fn(&mut ReplyMesh)) -> (Vec<String>, u64) {
    let mut mesh = ReplyMesh::new(c);
    plant(&mut mesh);
    let mut chk = ReplyChecker::new(c);
    let mut stim = ReplyStimulus::new(c, seed);
    let mut inp = ReplyInputs::new(c);
    let mut out = ReplyOutputs::new(c);
    for cy in 0..cycles {
        stim.drive(&mut inp);
        inp.rst = cy == 0;
        mesh.eval(&inp, &mut out);
        chk.observe(&inp, &out);
        if !inp.rst {
            stim.accepted(&out.mc_ready);
        }
        mesh.commit();
        if !chk.violations().is_empty() {
            break;
        }
    }
    (chk.violations().iter().map(|v| v.to_string()).collect(), chk.delivered)
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
    for r in mesh.routers.iter_mut() {
        r.mutation = plant;
    }
    let mut chk = VcChecker::new(n, c);
    let mut stim = VcStimulus::new(c, n, seed);
    let nn = (n * n) as usize;
    let (mut inp, mut out) = (VcMeshInputs::new(nn), VcMeshOutputs::new(nn));
    for cy in 0..cycles {
        mesh.outputs(&mut out);
        stim.drive(&out, &mut inp);
        inp.rst = cy == 0;
        chk.observe(&inp, &out);
        mesh.step(&inp);
        if !chk.violations().is_empty() {
            break;
        }
    }
    (chk.violations().iter().map(|v| v.to_string()).collect(), chk.delivered)
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

fn zero_load(c: &NocConfig) {
    let n = c.n as usize;
    for src in 0..n * n {
        for dst in 0..n * n {
            let mut net = BaselineNetwork::new(c, 128);
            let flits = 3u32;
            net.inject(Packet { id: 1, src, dst, class: Class::Request, flits, tag: 0, injected_at: 0 });
            let mut got = None;
            for _ in 0..200 {
                net.step();
                if let Some(p) = net.eject(dst) {
                    got = Some(net.cycle() - 1 - p.injected_at);
                    break;
                }
            }
            let routers = ((src % n).abs_diff(dst % n) + (src / n).abs_diff(dst / n) + 1) as u64;
            assert_eq!(got, Some(3 * routers + flits as u64 - 1), "{src} -> {dst}");
        }
    }
}

#[test]
fn baseline_zero_load_latency_is_3_per_router_plus_serialization() {
    zero_load(&preset("noc_baseline_4x4"));
    zero_load(&preset("noc_baseline_8x8_c"));
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
