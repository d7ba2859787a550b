//! Route ROM generator against the seed's Fig. 5 and spec Appendix A (transcribed
//! by hand: independent truth), plus the compatibility results of spec §1.8/§2.3.

use golden::noc::config::NocConfig;
use golden::noc::route_rom::{self, RomRow, Source};
use golden::noc::Noc;

fn cfg(name: &str) -> NocConfig {
    golden::presets::load::<Noc>(name).unwrap_or_else(|e| panic!("{e}")).config
}

/// Spec Appendix A: (x, y) -> overlays 1..4, hex.
const APPENDIX_A: [((u32, u32), [u32; 4]); 16] = [
    ((0, 3), [0x30c00000, 0x36000000, 0x36000000, 0x36000000]),
    ((1, 3), [0x30c00800, 0x36000000, 0x36000000, 0x36000000]),
    ((2, 3), [0x38e00a28, 0x36000000, 0x36000000, 0x36000000]),
    ((3, 3), [0x32c80000, 0x36000000, 0x36000000, 0x36000000]),
    ((0, 2), [0x34900000, 0x38e38028, 0x36026000, 0x36026000]),
    ((1, 2), [0x34900000, 0x32cb2022, 0x36026000, 0x36026000]),
    ((2, 2), [0x34900000, 0x32cb2022, 0x36026000, 0x36026000]),
    ((3, 2), [0x34900000, 0x32cb2000, 0x36026000, 0x36026000]),
    ((0, 1), [0x34900000, 0x34900000, 0x30c30000, 0x36026000]),
    ((1, 1), [0x34900000, 0x34900000, 0x30c30800, 0x36026000]),
    ((2, 1), [0x34900000, 0x34900000, 0x30c30800, 0x36026000]),
    ((3, 1), [0x34900000, 0x34900000, 0x38e38a00, 0x36026000]),
    ((0, 0), [0x34000000, 0x34000000, 0x34000000, 0x30030000]),
    ((1, 0), [0x34000000, 0x34000000, 0x34000000, 0x38038a28]),
    ((2, 0), [0x34000000, 0x34000000, 0x34000000, 0x32032022]),
    ((3, 0), [0x34000000, 0x34000000, 0x34000000, 0x32032000]),
];

#[test]
fn appendix_a_full_4x4_rom() {
    let c = cfg("noc_macro_4x4");
    for ((x, y), rows) in APPENDIX_A {
        for (i, want) in rows.iter().enumerate() {
            let got = c.roms[c.node(x, y)][i].bits();
            assert_eq!(got, *want, "router ({x},{y}) overlay {}: {got:#010x} vs Appendix A {want:#010x}", i + 1);
        }
    }
}

#[test]
fn figure_5_green_router_3_1() {
    use Source::*;
    // Fig. 5, transcribed: outputs E, W, N, S, L per overlay (E=0 W=1 N=2 S=3 L=4)
    let fig5 = [
        [None, None, None, Direct(2), Latch(2)],
        [None, None, None, Direct(2), Latch(2)],
        [None, Direct(4), Latch(4), Latch(4), Latch(4)],
        [None, None, Direct(3), None, Latch(3)],
    ];
    let mcs = [(2, 3), (0, 2), (3, 1), (1, 0)];
    for (i, want) in fig5.iter().enumerate() {
        assert_eq!(route_rom::row(4, (3, 1), mcs[i]), RomRow(*want), "overlay {}", i + 1);
    }
    assert_eq!(route_rom::row(4, (3, 1), mcs[2]).symbolic(), "W<L N<Lat(L) S<Lat(L) L<Lat(L)");
}

#[test]
fn rom_sizes_match_paper_plus_gom_row() {
    // 6 bits x 5 outputs per overlay: 120 bits (4x4, m=4), 240 (8x8, m=8), + 30 for the GOM row
    assert_eq!(cfg("noc_macro_4x4").roms[0].len() * 30, 120 + 30);
    assert_eq!(cfg("noc_macro_8x8_c").roms[0].len() * 30, 240 + 30);
}

#[test]
fn every_generated_row_is_legal_and_round_trips() {
    for n in 2..=8u32 {
        for x in 0..n {
            for y in 0..n {
                for a in 0..n {
                    for b in 0..n {
                        let r = route_rom::row(n, (x, y), (a, b));
                        route_rom::check_legal(&r).unwrap();
                        assert_eq!(RomRow::from_bits(r.bits()), r);
                    }
                }
            }
        }
    }
}

#[test]
fn placements_8b_8c_compatibility() {
    // spec 2.3: 8(b) has no compatible pair; 8(c) pairs every top MC with a bottom MC
    let b = cfg("noc_macro_8x8_b");
    assert!(b.compatible.iter().flatten().all(|x| !x));
    assert_eq!(b.g(), 8);
    let c = cfg("noc_macro_8x8_c");
    for i in 0..4 {
        for j in 4..8 {
            assert!(c.compatible[i][j], "{i} {j}");
        }
        for j in 0..4 {
            assert!(!c.compatible[i][j]);
        }
    }
    assert_eq!(c.groups, vec![vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7]]);
}

#[test]
fn full_overlays_compatible_iff_top_and_bottom_rows() {
    // spec 1.8 [D]: for MCs in different columns and rows, compatible iff one is at y=0 and the other at y=N-1
    for n in 3..=6u32 {
        for (a, b) in [((0, 0), (1, n - 1)), ((0, 1), (2, n - 1)), ((1, 0), (0, 2))] {
            let roms: Vec<Vec<RomRow>> = (0..n * n).map(|id| vec![route_rom::row(n, (id % n, id / n), a), route_rom::row(n, (id % n, id / n), b)]).collect();
            let want = (a.1 == 0 && b.1 == n - 1) || (b.1 == 0 && a.1 == n - 1);
            assert_eq!(route_rom::compatible(&roms, 0, 1), want, "n={n} {a:?} {b:?}");
        }
    }
}
