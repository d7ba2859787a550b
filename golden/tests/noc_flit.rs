//! Tests of `golden::noc::flit` (`golden/src/noc/flit.rs`).

use proptest::prelude::*;

use golden::bits::{clog2, tiles};
use golden::noc::config::{VC_FLIT_WIDTHS, VC_MAX};
use golden::noc::flit::*;
use golden::noc::vc_router::{VcData, VcFlit};

/// `l`'s fields as (name, lsb, width), most significant first, and its (flit,
/// header, VC-index, link) widths and words, against values placed by hand.
fn check_layout(l: VcLayout, fields: [(&str, u32, u32); 9], sizes: (u32, u32, u32, u32, usize)) {
    let got: Vec<(&str, u32, u32)> = l.fields().iter().map(|f| (f.name, f.lsb, f.width)).collect();
    assert_eq!(got, fields, "{l:?}");
    assert_eq!((l.flit_width(), l.header_width(), l.vc_width(), l.link_width(), l.words()), sizes, "{l:?}");
}

/// 4x4 mesh (CW 2), 64-bit data, 1 VC (VW 1), derived by hand from the spec's
/// `{valid, vc, head, tail, src_y, src_x, dst_y, dst_x, data}`.
#[test]
fn request_plane_4x4_positions() {
    check_layout(
        VcLayout::new(64, 2, 1),
        [("valid", 75, 1), ("vc", 74, 1), ("head", 73, 1), ("tail", 72, 1), ("src_y", 70, 2), ("src_x", 68, 2), ("dst_y", 66, 2), ("dst_x", 64, 2), ("data", 0, 64)],
        (74, 12, 1, 76, 2),
    );
}

/// 8x8 mesh (CW 3), 128-bit data, 3 VCs (VW 2): a 145-bit link in three words.
#[test]
fn baseline_8x8_positions() {
    check_layout(
        VcLayout::new(128, 3, 3),
        [("valid", 144, 1), ("vc", 142, 2), ("head", 141, 1), ("tail", 140, 1), ("src_y", 137, 3), ("src_x", 134, 3), ("dst_y", 131, 3), ("dst_x", 128, 3), ("data", 0, 128)],
        (142, 17, 2, 145, 3),
    );
    // the 4x4 baseline (128-bit data, CW 2): the 138-bit flit of the shipped preset
    assert_eq!(VcLayout::new(128, 2, 3).flit_width(), 138);
}

/// 8x8 mesh (CW 3), 256-bit data, 8 VCs (VW 3): the LLC-Compute platform's router
/// (llc_omni_compute.md §3: 32-B flits, 8 VCs), by hand from the field order:
/// data 0..=255, then 3-bit dst_x, dst_y, src_x, src_y from 256, tail 268, head 269,
/// vc 270..=272, valid 273: a 274-bit link in five words.
#[test]
fn llc_compute_8x8_positions() {
    check_layout(
        VcLayout::new(256, 3, 8),
        [("valid", 273, 1), ("vc", 270, 3), ("head", 269, 1), ("tail", 268, 1), ("src_y", 265, 3), ("src_x", 262, 3), ("dst_y", 259, 3), ("dst_x", 256, 3), ("data", 0, 256)],
        (270, 18, 3, 274, 5),
    );
    assert_eq!(MAX_LINK_WORDS, 5);
}

/// A 256-bit flit packs its payload word for word into bits 0..256 and its header
/// above: 3x3 mesh (CW 2), 8 VCs, VC 7, tail, src (2,1), dst (0,2).
#[test]
fn wide_flit_by_hand() {
    let l = VcLayout::new(256, 2, 8);
    let data = [0x1111_2222_3333_4444, 0x5555_6666_7777_8888, 0x9999_aaaa_bbbb_cccc, 0xdddd_eeee_ffff_0001];
    let f = VcFlit { head: false, tail: true, src: 3 + 2, dst: 2 * 3, data };
    let mut w = vec![0u64; l.words()];
    l.pack(3, &Some((7, f)), &mut w);
    assert_eq!(&w[..4], &data);
    // header from bit 256: dst_x 0, dst_y 2, src_x 2, src_y 1, tail, head 0, vc 7, valid
    let hdr = (2 << 2) | (2 << 4) | (1 << 6) | (1 << 8) | (7 << 10) | (1 << 13);
    assert_eq!(w[4], hdr);
    assert_eq!(l.unpack(3, &w), Some((7, f)));
}

#[test]
fn fields_tile_the_link_and_the_flit() {
    for w in VC_FLIT_WIDTHS {
        for cw in 1..=3 {
            for v in 1..=VC_MAX {
                let l = VcLayout::new(w, cw, v);
                assert!(tiles(&l.fields(), l.link_width()), "{l:?}");
                assert!(tiles(&l.flit_fields(), l.flit_width()), "{l:?}");
                assert_eq!(l.header().end(), l.link_width());
            }
        }
    }
    assert_eq!((vc_width(1), vc_width(2), vc_width(3), vc_width(4)), (1, 1, 2, 2));
    assert_eq!((vc_width(5), vc_width(6), vc_width(7), vc_width(8)), (3, 3, 3, 3));
}

/// A header value computed by hand: 4x4, 3 VCs, VC 2, head, src (1,1), dst (2,3).
#[test]
fn header_by_hand() {
    let l = VcLayout::new(64, 2, 3);
    let f = VcFlit { head: true, tail: false, src: 4 + 1, dst: 3 * 4 + 2, data: [0xdead_beef, 0, 0, 0] };
    let mut w = vec![0u64; l.words()];
    l.pack(4, &Some((2, f)), &mut w);
    let hdr = 2 | (3 << 2) | (1 << 4) | (1 << 6) | (1 << 9) | (2 << 10) | (1 << 12);
    assert_eq!(l.header().read(&w), hdr);
    assert_eq!(l.data().read(&w), 0xdead_beef);
    // None packs as all zeros, over whatever was there
    l.pack(4, &None, &mut w);
    assert_eq!(w, vec![0, 0]);
}

/// W + 4 CW + 2 for W in 32, 64, 128, 256 and CW in 1, 2, 3, by hand.
#[test]
fn supported_flit_widths() {
    assert_eq!(vc_flit_widths(), [38, 42, 46, 70, 74, 78, 134, 138, 142, 262, 266, 270]);
}

fn arb_case() -> impl Strategy<Value = (u32, u32, u32, u8, bool, bool, u16, u16, VcData)> {
    (prop::sample::select(VC_FLIT_WIDTHS.to_vec()), 2u32..=8, 1u32..=VC_MAX)
        .prop_flat_map(|(w, n, v)| {
            let nn = (n * n) as u16;
            (Just(w), Just(n), Just(v), 0..v as u8, any::<bool>(), any::<bool>(), 0..nn, 0..nn, any::<[u64; 4]>())
        })
        .prop_map(|(w, n, v, vc, h, t, s, d, data)| {
            // the payload's bits above W are 0
            let data: VcData = std::array::from_fn(|k| match w.saturating_sub(64 * k as u32) {
                0 => 0,
                r if r >= 64 => data[k],
                r => data[k] & ((1u64 << r) - 1),
            });
            (w, n, v, vc, h, t, s, d, data)
        })
}

proptest! {
    #[test]
    fn pack_unpack_round_trip((w, n, v, vc, head, tail, src, dst, data) in arb_case(), junk in any::<u64>()) {
        let l = VcLayout::new(w, clog2(n as u64), v);
        let link = Some((vc, VcFlit { head, tail, src, dst, data }));
        // bits above the link are left alone
        let mut words = vec![junk; l.words()];
        l.pack(n, &link, &mut words);
        prop_assert_eq!(l.unpack(n, &words), link);
        let spare = l.words() as u32 * 64 - l.link_width();
        if spare > 0 {
            prop_assert_eq!(words[l.words() - 1] >> (64 - spare), junk >> (64 - spare));
        }
        l.pack(n, &None, &mut words);
        prop_assert_eq!(l.unpack(n, &words), None);
        // a flit alone: the bits above it (valid, vc) are left alone
        let mut flit_words = vec![junk; l.words()];
        l.pack_flit(n, link.as_ref().map(|(_, f)| f), &mut flit_words);
        l.valid().write(&mut flit_words, 1);
        l.vc().write(&mut flit_words, vc as u128);
        prop_assert_eq!(l.unpack(n, &flit_words), link);
        prop_assert!(l.words() <= MAX_LINK_WORDS);
    }
}
