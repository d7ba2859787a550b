//! Tests of `golden::noc::link` (`golden/src/noc/link.rs`).

use golden::bits::tiles;
use golden::noc::link::*;

/// The spec's link, written out by hand for a 4x4 mesh with 4 MCs (CW 2, SW 2):
/// payload 63:0, dst_x 65:64, dst_y 67:66, src 69:68, tail 70, head 71, type
/// 73:72, valid 74.
#[test]
fn link_positions_by_hand() {
    let f = LinkFmt::for_mesh(4, 4);
    let pos: Vec<(&str, u32, u32)> = f.fields().iter().map(|x| (x.name, x.lsb, x.width)).collect();
    assert_eq!(pos, [("valid", 74, 1), ("type", 72, 2), ("head", 71, 1), ("tail", 70, 1), ("src", 68, 2), ("dst_y", 66, 2), ("dst_x", 64, 2), ("payload", 0, 64)]);
    assert_eq!((f.width, f.header().lsb, f.header().width), (75, 64, 11));
    for (cw, sw) in [(1, 1), (2, 3), (3, 3)] {
        let f = LinkFmt::for_widths(cw, sw);
        assert!(tiles(&f.fields(), f.width), "{f:?}");
        assert_eq!(f.width, 69 + sw + 2 * cw);
        assert_eq!(LinkFmt::for_link(f.width, cw), f);
        assert_eq!(f.valid().lsb, LinkFmt::valid_lsb(f.width));
    }
}

#[test]
fn pack_unpack_round_trip() {
    let f = LinkFmt::for_mesh(8, 8);
    let x = Flit { valid: true, ty: T_STATUS, head: true, tail: false, src: 5, dst_x: 7, dst_y: 2, payload: 0xdead_beef_0123_4567 };
    let v = f.pack(&x);
    assert_eq!(f.unpack(v), x);
    assert!(f.is_valid(v) && f.type_of(v) == T_STATUS && f.dst(v) == (7, 2));
    assert_eq!(f.unpack(f.with_src(v, 3)).src, 3);
    assert_eq!(v & !f.mask(), 0);
}

/// Payloads by hand: STATUS `{4'h1, mc, arr, occ, 16'h0}`, GOMCFG `{idx, T0..T5}`.
#[test]
fn payloads_by_hand() {
    assert!(tiles(&STATUS_FIELDS, 64));
    assert_eq!(status_payload(3, 0x1234, 0xab_cdef), 0x1000_0000_0000_0000 | 3 << 56 | 0x1234 << 40 | 0xab_cdef << 16);
    assert_eq!(status_fields(status_payload(3, 0x1234, 0xab_cdef)), (3, 0x1234, 0xab_cdef));
    assert_eq!((gomcfg_window(0).lsb, gomcfg_window(5).lsb), (50, 0));
    let t: Vec<u32> = (1..=8).map(|i| 100 + i).collect();
    let p = gomcfg_payload(1, &t);
    assert_eq!(p, 1 << 60 | 107 << 50 | 108 << 40);
    let mut back = vec![0; 8];
    gomcfg_apply(gomcfg_payload(0, &t), &mut back);
    gomcfg_apply(p, &mut back);
    assert_eq!(back, t);
    assert_eq!(gomcfg_index(p), 1);
}
