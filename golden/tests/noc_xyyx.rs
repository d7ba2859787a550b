//! The XY-YX comparator network (spec macro_noc.md §1.12, reference [11] of seed 003):
//! one VC plane whose lower VCs carry requests routed XY and upper VCs replies routed
//! YX. Checked against hand-traced paths on an 8x8 mesh, exactly-once delivery under load, the single-router checker (with a planted VC
//! allocator that ignores the classes), and the config rules. The baseline's zero-load
//! formula holds for both classes (golden/tests/noc_mesh.rs).

use std::path::Path;

use golden::block;
use golden::model::{Model, Scoreboard, Stimulus};
use golden::network::{Class, Network, Packet};
use golden::noc::check::VcRouterChecker;
use golden::noc::config::{NocConfig, Routing, VcParams};
use golden::noc::mesh::BaselineNetwork;
use golden::noc::route_rom::{E, N, S, W};
use golden::noc::traffic::VcRouterStimulus;
use golden::noc::vc_mesh::{VcMesh, VcNi, VcPacket};
use golden::noc::vc_router::{VcMutation, VcRouter};
use golden::noc::Noc;

/// An n x n baseline NoC with one xy_yx plane of `vcs` VCs x 4 flits.
fn xyyx(n: u32, vcs: u32) -> NocConfig {
    let text = format!("name = \"t\"\n[noc]\nkind = \"baseline\"\nmesh = {n}\nmcs = [[0, {}]]\n[noc.baseline]\nrouting = \"xy_yx\"\nvcs = {vcs}\nplanes = 1\n", n - 1);
    block::parse::<Noc>(Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}")).config
}

/// Every (router, output direction, VC) one single-flit packet of `class` from `src`
/// to `dst` crosses on an otherwise idle mesh, in order.
fn trace(p: &VcParams, n: u32, src: usize, dst: usize, class: u8) -> Vec<(usize, usize, u8)> {
    let mut mesh = VcMesh::new(p, n);
    let nodes = (n * n) as usize;
    let mut nis: Vec<VcNi> = (0..nodes).map(|i| VcNi::new(p, i)).collect();
    nis[src].queue.push_back(VcPacket { id: 1, src: src as u16, dst: dst as u16, flits: 1, created: 0, class });
    let (mut inp, mut out) = (mesh.idle_inputs(), mesh.new_outputs());
    VcMesh::assert_reset(&mut inp);
    mesh.commit(&inp);
    let mut hops = Vec::new();
    for _ in 0..200 {
        let mut inp = mesh.idle_inputs();
        for (id, ni) in nis.iter_mut().enumerate() {
            let (credit, ej) = mesh.terminal(id);
            let (l, c) = ni.drive(credit, ej, true);
            inp.inj[id] = l;
            inp.ej_credit[id] = c;
        }
        mesh.eval(&inp, &mut out);
        for (id, links) in out.links.iter().enumerate() {
            for (d, l) in links.iter().enumerate() {
                if let Some((vc, _)) = l {
                    hops.push((id, d, *vc));
                }
            }
        }
        if out.ej[dst].is_some() {
            return hops;
        }
        mesh.commit(&inp);
    }
    panic!("{src} -> {dst} (class {class}) not delivered in 200 cycles: {hops:?}");
}

#[test]
fn requests_go_xy_and_replies_yx_on_their_own_vcs() {
    let c = xyyx(8, 4);
    // node id = y * 8 + x; the MC at (0, 7) = 56 answers the core at (5, 2) = 21
    let reply: Vec<(usize, usize)> = vec![(56, S), (48, S), (40, S), (32, S), (24, S), (16, E), (17, E), (18, E), (19, E), (20, E)];
    let request: Vec<(usize, usize)> = vec![(21, W), (20, W), (19, W), (18, W), (17, W), (16, N), (24, N), (32, N), (40, N), (48, N)];
    for (src, dst, class, path) in [(56, 21, 1u8, &reply), (21, 56, 0u8, &request)] {
        let hops = trace(&c.baseline, 8, src, dst, class);
        assert_eq!(hops.iter().map(|&(r, d, _)| (r, d)).collect::<Vec<_>>(), *path, "class {class}");
        let vcs = if class == 0 { 0..2 } else { 2..4 };
        assert!(hops.iter().all(|&(_, _, vc)| vcs.contains(&(vc as usize))), "class {class} left its VCs: {hops:?}");
    }
    // plain XY sends the reply along x first: the classes are what differs
    let mut xy = c.baseline;
    xy.routing = Routing::Xy;
    let hops = trace(&xy, 8, 56, 21, 1);
    assert_eq!(hops[0].1, E, "{hops:?}");
}

#[test]
fn every_packet_of_both_classes_arrives_once_under_load() {
    let c = xyyx(8, 4);
    let mut net = BaselineNetwork::new(&c, 128);
    let mut sent = std::collections::BTreeMap::new();
    let mut x = 0x2545f4914f6cdd1du64;
    let mut rnd = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let mut id = 0;
    for t in 0..4000u64 {
        for src in 0..64 {
            if rnd(100) < 3 {
                let class = if rnd(2) == 0 { Class::Request } else { Class::Reply };
                if net.can_inject(src, class) {
                    id += 1;
                    let dst = rnd(64) as usize;
                    let flits = 1 + rnd(5) as u32;
                    net.inject(Packet { id, src, dst, class, flits, tag: t, injected_at: 0 });
                    sent.insert(id, dst);
                }
            }
        }
        net.step();
        for node in 0..64 {
            while let Some(p) = net.eject(node) {
                assert_eq!(sent.remove(&p.id), Some(node), "packet {} delivered twice or to the wrong node", p.id);
            }
        }
    }
    for _ in 0..20_000 {
        if sent.is_empty() {
            break;
        }
        net.step();
        for node in 0..64 {
            while let Some(p) = net.eject(node) {
                assert_eq!(sent.remove(&p.id), Some(node));
            }
        }
    }
    assert!(id > 5_000, "{id} packets offered");
    assert!(sent.is_empty(), "{} packets never arrived", sent.len());
}

fn run_router(p: &VcParams, plant: Option<VcMutation>) -> (Option<String>, u64) {
    let (n, x, y) = (4, 1, 2);
    let mut r = VcRouter::new(p, n, x, y);
    r.set_mutation(plant);
    let mut stim = VcRouterStimulus::new(p, n, 9);
    let mut chk = VcRouterChecker::new(p, n, x, y);
    let (mut i, mut o, mut prev) = (r.idle_inputs(), r.new_outputs(), r.new_outputs());
    for cy in 0..10_000 {
        stim.drive(&r, &prev, &mut i);
        if cy == 0 {
            VcRouter::assert_reset(&mut i);
        }
        r.eval(&i, &mut o);
        if let Err(v) = Scoreboard::observe(&mut chk, cy, &i, &o) {
            return (Some(v.to_string()), chk.forwarded);
        }
        r.commit(&i);
        std::mem::swap(&mut prev, &mut o);
    }
    (None, chk.forwarded)
}

#[test]
fn the_router_checker_holds_xy_yx_and_catches_a_class_blind_allocator() {
    for vcs in [2, 4, 8] {
        let p = xyyx(4, vcs).baseline;
        let (found, forwarded) = run_router(&p, None);
        assert_eq!(found, None, "{vcs} VCs");
        assert!(forwarded > 2_000, "{forwarded} flits forwarded");
        let (found, _) = run_router(&p, Some(VcMutation::IgnoreVcClass));
        assert!(found.as_deref().is_some_and(|s| s.contains("VC class") || s.contains("routing")), "{vcs} VCs, planted: {found:?}");
    }
}

/// A GPU network's `reply_vcs` (llc_omni_compute.md §1.8) on YX routing: of 8 VCs the
/// last 3 carry replies, the first 5 requests (by hand: 0..5 and 5..8); a packet of each
/// class keeps to its VCs along its YX path; the router checker holds under random
/// traffic and catches a class-blind VC allocator.
#[test]
fn reply_vcs_keep_each_class_on_its_own_vcs() {
    let p = VcParams { flit_width: 256, vcs: 8, buf_depth: 8, routing: Routing::Yx, planes: 1, reply_vcs: 3 };
    assert_eq!((p.class_vcs(0), p.class_vcs(1)), (0..5, 5..8));
    let shared = VcParams { reply_vcs: 0, ..p };
    assert_eq!((shared.class_vcs(0), shared.class_vcs(1)), (0..8, 0..8));
    // the MC at (0, 7) = 56 answers the core at (5, 2) = 21: YX both ways
    let reply: Vec<(usize, usize)> = vec![(56, S), (48, S), (40, S), (32, S), (24, S), (16, E), (17, E), (18, E), (19, E), (20, E)];
    let request: Vec<(usize, usize)> = vec![(21, N), (29, N), (37, N), (45, N), (53, N), (61, W), (60, W), (59, W), (58, W), (57, W)];
    for (src, dst, class, path, vcs) in [(56, 21, 1u8, &reply, 5..8), (21, 56, 0u8, &request, 0..5)] {
        let hops = trace(&p, 8, src, dst, class);
        assert_eq!(hops.iter().map(|&(r, d, _)| (r, d)).collect::<Vec<_>>(), *path, "class {class}");
        assert!(hops.iter().all(|&(_, _, vc)| vcs.contains(&(vc as usize))), "class {class} left its VCs: {hops:?}");
    }
    let p4 = VcParams { flit_width: 128, vcs: 4, buf_depth: 4, routing: Routing::Yx, planes: 1, reply_vcs: 1 };
    let (found, forwarded) = run_router(&p4, None);
    assert_eq!(found, None);
    assert!(forwarded > 2_000, "{forwarded} flits forwarded");
    let (found, _) = run_router(&p4, Some(VcMutation::IgnoreVcClass));
    assert!(found.as_deref().is_some_and(|s| s.contains("VC class")), "planted: {found:?}");
}

#[test]
fn xy_yx_needs_an_even_vc_count_and_one_plane() {
    let bad = |body: &str| {
        block::parse::<Noc>(Path::new("x.toml"), &format!("name = \"t\"\n[noc]\nkind = \"baseline\"\nmesh = 4\nmcs = [[0, 3]]\n[noc.baseline]\nrouting = \"xy_yx\"\n{body}"))
            .err()
            .map(|e| e.to_string())
    };
    let e = bad("vcs = 3\nplanes = 1\n").expect("odd VC count refused");
    assert!(e.contains("x.toml") && e.contains("noc.baseline.vcs") && e.contains("2, 4, 6 or 8 with xy_yx"), "{e}");
    let e = bad("vcs = 4\nplanes = 2\n").expect("two planes refused");
    assert!(e.contains("noc.baseline.planes") && e.contains("1 with xy_yx"), "{e}");
    assert_eq!(bad("vcs = 2\nplanes = 1\n"), None);
}

#[test]
fn a_partial_baseline_table_keeps_the_baseline_defaults() {
    // spec macro_noc.md 1.12: 128-bit flits, 3 VCs x 4 flits, XY, two planes; a table
    // that states only the routing changes only the routing
    let c = xyyx(4, 4);
    assert_eq!(c.baseline, VcParams { flit_width: 128, vcs: 4, buf_depth: 4, routing: Routing::XyYx, planes: 1, reply_vcs: 0 });
    let text = "name = \"t\"\n[noc]\nkind = \"baseline\"\nmesh = 4\nmcs = [[0, 3]]\n[noc.baseline]\nrouting = \"yx\"\n";
    let c = block::parse::<Noc>(Path::new("t.toml"), text).unwrap().config;
    assert_eq!(c.baseline, VcParams { flit_width: 128, vcs: 3, buf_depth: 4, routing: Routing::Yx, planes: 2, reply_vcs: 0 });
    let e = block::parse::<Noc>(Path::new("t.toml"), &text.replace("routing", "routin")).expect_err("an unknown key is refused").to_string();
    assert!(e.contains("routin"), "{e}");
}
