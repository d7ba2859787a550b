//! Tests of `golden::noc::config` (`golden/src/noc/config.rs`).

use golden::bits::clog2;
use golden::noc::config::*;

fn raw(text: &str) -> RawNoc {
    toml::from_str(text).unwrap()
}

#[test]
fn paper_4x4_widths_and_groups() {
    let c = NocConfig::validate(raw("kind = \"macro\"\nmesh = 4\nmcs = [[2,3],[0,2],[3,1],[1,0]]\n")).unwrap();
    assert_eq!(c.link_w(), 75);
    assert_eq!(c.gom, (2, 2));
    // spec 2.3: one compatible pair, ovl1 & ovl4
    assert!(c.compatible[0][3] && c.compatible[3][0]);
    assert_eq!(c.compatible.iter().flatten().filter(|b| **b).count(), 2);
    assert_eq!(c.groups, vec![vec![0, 3], vec![1], vec![2]]);
    assert_eq!(c.default_windows, vec![334, 333, 333]);
}

#[test]
fn one_validation_names_the_callers_fields() {
    let e = NocConfig::validate(raw("kind = \"baseline\"\nmesh = 4\nmcs = [[0,0]]\n[baseline]\nvcs = 9\n")).unwrap_err();
    assert_eq!(e.to_string(), "noc.baseline.vcs: 9 is out of range (allowed: 1..=8)");
    // the paper's router (llc_omni_compute.md §3) validates: 8 VCs x 8, 256-bit, YX
    let ok =
        NocConfig::validate(raw("kind = \"baseline\"\nmesh = 4\nmcs = [[0,0]]\n[baseline]\nvcs = 8\nbuf_depth = 8\nflit_width = 256\nrouting = \"yx\"\nplanes = 1\n")).unwrap();
    assert_eq!((ok.baseline.vcs, ok.baseline.flit_width), (8, 256));
    let e = NocConfig::validate(raw("kind = \"baseline\"\nmesh = 4\nmcs = [[0,0]]\n[baseline]\nflit_width = 512\n")).unwrap_err();
    assert_eq!(e.to_string(), "noc.baseline.flit_width: 512 is not supported (allowed: one of 32, 64, 128, 256)");
    let mut f = NocFields::noc();
    f.mcs = "network.mem_nodes".into();
    f.baseline.vcs = "network.router.vcs".into();
    let vc = RawVc { vcs: 9, ..RawVc::baseline() };
    let e = NocConfig::for_gpu(NocKind::Baseline, 4, &[(0, 0)], vc, ReplyKnobs::default(), &f).unwrap_err();
    assert_eq!(e.to_string(), "network.router.vcs: 9 is out of range (allowed: 1..=8)");
    let e = NocConfig::for_gpu(NocKind::Macro, 4, &[(1, 1), (1, 1)], RawVc::baseline(), ReplyKnobs::default(), &f).unwrap_err();
    assert_eq!(e.to_string(), "network.mem_nodes[1]: (1, 1) is also MC 0: duplicate MC (allowed: distinct coordinates)");
    // the typed path builds what the text path builds
    let typed = NocConfig::for_gpu(NocKind::Macro, 4, &[(2, 3), (0, 2), (3, 1), (1, 0)], RawVc::baseline(), ReplyKnobs::default(), &f).unwrap();
    let text = NocConfig::validate(raw("kind = \"macro\"\nmesh = 4\nmcs = [[2,3],[0,2],[3,1],[1,0]]\n")).unwrap();
    assert_eq!(typed, text);
}

#[test]
fn coordinate_widths_of_the_supported_meshes() {
    // N = 2 -> 1; 3, 4 -> 2; 5..=8 -> 3
    assert_eq!(coord_widths(), vec![1, 2, 3]);
    assert_eq!((clog2(1), clog2(2), clog2(3), clog2(4), clog2(5), clog2(8), clog2(9)), (1, 1, 2, 2, 3, 3, 4));
}
