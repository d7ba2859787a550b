//! Algorithm 1 (spec §2.4) against the paper: Fig. 3's EMN table of core 15 on the
//! default 8×8 placement, the §2.4.2 properties on other meshes, and the zero-load hop
//! examples of §2.7 (paper Sec. 3). Every expected value is typed from the spec's
//! tables (the paper's numbers), not computed by the code under test.

use golden::llc_compute::chain::Pattern;
use golden::llc_compute::emn::{emn, route_xy, route_yx, EmnPaths, Node, Placement, Site};
use golden::llc_compute::hops::{self, ChainHomes, Hops};

const P: EmnPaths = EmnPaths::RequestRoute;

/// Spec §2.4.3: "LUT of core 15 (row = MC(a), column = MC(b))", typed from the spec.
const FIG3_CORE15: [[&str; 8]; 8] = [
    ["L0", "c8", "-", "-", "-", "-", "-", "-"],
    ["c8", "L1", "-", "-", "-", "-", "-", "-"],
    ["-", "-", "L2", "-", "-", "-", "-", "-"],
    ["-", "-", "-", "L3", "c22", "c22", "c22", "c22"],
    ["-", "-", "-", "c22", "L4", "L4", "L4", "L4"],
    ["-", "-", "-", "c22", "L4", "L5", "c36", "c36"],
    ["-", "-", "-", "c22", "L4", "c36", "L6", "c42"],
    ["-", "-", "-", "c22", "L4", "c36", "c42", "L7"],
];

#[test]
fn fig3_placement_numbers_cores_row_major_around_the_llcs() {
    let p = Placement::fig3();
    // spec §2.4.3 map: core 15 = (1,2), core 36 = (1,5), c8 = (1,1), c22 = (1,3), c42 = (1,6)
    assert_eq!(p.core(15), Node::new(1, 2));
    assert_eq!(p.core(36), Node::new(1, 5));
    assert_eq!(p.core(8), Node::new(1, 1));
    assert_eq!(p.core(22), Node::new(1, 3));
    assert_eq!(p.core(42), Node::new(1, 6));
    assert_eq!(p.core(55), Node::new(7, 7));
    assert_eq!(p.cores(), 56);
    assert_eq!(p.mcs.iter().map(|m| p.id(*m)).collect::<Vec<_>>(), [2, 13, 19, 31, 33, 46, 48, 60]);
    assert_eq!(p.site(Node::new(6, 5)), Site::Llc(5));
}

#[test]
fn fig3_distances_from_core_15() {
    let p = Placement::fig3();
    let c15 = p.core(15);
    // paper Fig. 3: 8 hops to L5, 5 to L6, 8 to L7; core 36 is 3 hops away, 5 to L5, 2 to L6, 5 to L7
    assert_eq!([5, 6, 7].map(|i| c15.manhattan(p.mcs[i])), [8, 5, 8]);
    let c36 = p.core(36);
    assert_eq!(c15.manhattan(c36), 3);
    assert_eq!([5, 6, 7].map(|i| c36.manhattan(p.mcs[i])), [5, 2, 5]);
}

#[test]
fn fig3_emn_table_of_core_15_exactly() {
    let p = Placement::fig3();
    let lut = p.lut(p.core(15), P);
    for (a, row) in FIG3_CORE15.iter().enumerate() {
        for (b, want) in row.iter().enumerate() {
            let got = lut[a][b].map(|n| p.site(n).to_string()).unwrap_or_else(|| "-".into());
            assert_eq!(&got, want, "LUT[L{a}][L{b}] of core 15");
        }
    }
    // the paper's two named cases
    assert_eq!(emn(p.core(15), p.mcs[5], p.mcs[6], P), Some(p.core(36)));
    assert_eq!(emn(p.core(15), p.mcs[0], p.mcs[6], P), None);
}

#[test]
fn fig3_placement_statistics() {
    // spec §2.4.3 regression values (the spec's own script, not the paper): 50% of the
    // different-MC pairs have an EMN (per core 18..42 of 56), 56.25% counting same-MC
    // pairs, 7.1% of the different-MC pairs meet at an LLC node.
    let p = Placement::fig3();
    let a = p.availability(P);
    assert_eq!((a.pairs, a.distinct_pairs), (56 * 64, 56 * 56));
    assert_eq!(a.distinct_with_emn, 56 * 28);
    assert_eq!(a.with_emn * 10000 / a.pairs, 5625);
    assert_eq!((f64::from(a.distinct_llc_emn) * 1000.0 / f64::from(a.distinct_pairs)).round(), 71.0);
    let per_core: Vec<usize> = (0..56)
        .map(|c| {
            let l = p.lut(p.core(c), P);
            (0..8).flat_map(|i| (0..8).map(move |j| (i, j))).filter(|&(i, j)| i != j && l[i][j].is_some()).count()
        })
        .collect();
    assert_eq!((*per_core.iter().min().unwrap(), *per_core.iter().max().unwrap()), (18, 42));
}

/// Spec §2.4.2 properties (i)-(v) on every source and LLC pair of several meshes.
#[test]
fn algorithm_1_properties_hold_on_other_meshes() {
    let meshes = [
        Placement { width: 4, height: 4, mcs: vec![Node::new(1, 0), Node::new(2, 3)] },
        Placement { width: 5, height: 3, mcs: vec![Node::new(0, 0), Node::new(4, 2), Node::new(2, 1)] },
        Placement::fig3(),
    ];
    for p in &meshes {
        for s in (0..p.nodes()).map(|i| p.node(i)) {
            for &a in &p.mcs {
                assert_eq!(emn(s, a, a, P), Some(a), "(ii)");
                for &b in &p.mcs {
                    let e = emn(s, a, b, P);
                    assert_eq!(e, emn(s, b, a, P), "(iii) symmetric");
                    let (ra, rb) = (route_yx(s, a), route_yx(s, b));
                    if a != b && s != a && s != b {
                        assert_eq!(e.is_some(), ra[1] == rb[1], "(iv) EMN iff the first hops match: {s:?} {a:?} {b:?}");
                        if let Some(n) = e {
                            // (i) the last node of the shared prefix
                            let k = ra.iter().zip(&rb).take_while(|(x, y)| x == y).count();
                            assert_eq!(n, ra[k - 1], "(i) divergence point");
                        }
                    }
                    if let Some(n) = e {
                        assert_eq!(s.manhattan(n) + n.manhattan(a), s.manhattan(a), "(v) minimal to a");
                        assert_eq!(s.manhattan(n) + n.manhattan(b), s.manhattan(b), "(v) minimal to b");
                    }
                }
            }
        }
    }
}

#[test]
fn reply_routes_can_only_add_meet_nodes() {
    let p = Placement::fig3();
    for c in 0..56 {
        let s = p.core(c);
        for &a in &p.mcs {
            for &b in &p.mcs {
                if emn(s, a, b, P).is_some() {
                    assert!(emn(s, a, b, EmnPaths::RequestOrReplyRoute).is_some());
                }
            }
        }
    }
    // core 15 (1,2) with L0 (2,0) and L6 (0,6): the XY path to L0 starts east, to L6 goes south first: still none
    assert_eq!(emn(p.core(15), p.mcs[0], p.mcs[6], EmnPaths::RequestOrReplyRoute), None);
}

fn homes(p: &Placement, a: usize, b: usize, c: usize) -> ChainHomes {
    ChainHomes { loads: vec![p.mcs[a], p.mcs[b]], store: Some(p.mcs[c]) }
}

/// Spec §2.7 scenario 1 (paper Sec. 3.1): c = a + b with a, b, c in LLC 5, 8 hops from
/// core 15: 48 hops / 144 weighted become 16 / 16.
#[test]
fn hop_example_scenario_1_same_llc() {
    let p = Placement::fig3();
    let (src, pat) = (p.core(15), Pattern::get(1).unwrap());
    let h = homes(&p, 5, 5, 5);
    assert_eq!(hops::total(&hops::baseline(src, &h)), Hops { hops: 48, weighted: 144 });
    let e = emn(src, p.mcs[5], p.mcs[5], P).unwrap();
    assert_eq!(e, p.mcs[5]);
    assert_eq!(hops::total(&hops::offloaded(src, e, &h, pat)), Hops { hops: 16, weighted: 16 });
}

/// Spec §2.7 scenario 2 (paper Sec. 3.2): a in LLC 5, b in LLC 6, c in LLC 7, EMN core
/// 36: 42 / 126 become 30 / 78 (3 + 7 + 7 + 5 + 5 + 3 hops; 3 + 7 + 35 + 25 + 5 + 3).
#[test]
fn hop_example_scenario_2_emn_core_36() {
    let p = Placement::fig3();
    let (src, pat) = (p.core(15), Pattern::get(1).unwrap());
    let h = homes(&p, 5, 6, 7);
    assert_eq!(hops::total(&hops::baseline(src, &h)), Hops { hops: 42, weighted: 126 });
    let e = emn(src, p.mcs[5], p.mcs[6], P).unwrap();
    assert_eq!(e, p.core(36));
    let m = hops::offloaded(src, e, &h, pat);
    assert_eq!(m.iter().map(|m| m.hops()).collect::<Vec<_>>(), [3, 5, 5, 2, 2, 5, 5, 3]);
    assert_eq!(hops::total(&m), Hops { hops: 30, weighted: 78 });
}

// ---------------------------------------------------------------------------------------
// The tests of `golden::llc_compute::emn` (`golden/src/llc_compute/emn.rs`),
// which were its `#[cfg(test)] mod tests` (see main.rs).

#[test]
fn yx_goes_along_y_first() {
    let r = route_yx(Node::new(1, 2), Node::new(3, 0));
    assert_eq!(r, [(1, 2), (1, 1), (1, 0), (2, 0), (3, 0)].map(|(x, y)| Node::new(x, y)));
    let r = route_xy(Node::new(1, 2), Node::new(3, 0));
    assert_eq!(r, [(1, 2), (2, 2), (3, 2), (3, 1), (3, 0)].map(|(x, y)| Node::new(x, y)));
}
