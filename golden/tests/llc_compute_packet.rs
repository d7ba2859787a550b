//! Tests of `golden::llc_compute::packet` (`golden/src/llc_compute/packet.rs`).

use golden::bits::Field;
use golden::llc_compute::packet::*;

#[test]
fn cp_fields_tile_the_flit_and_match_the_paper_sizes() {
    assert!(golden::bits::tiles(&CP_FIELDS, FLIT_W));
    // paper Fig. 5: header 3 B, opcodes 1 B, status 1 B, 3 addresses of 6 B, imm 4 B, extra 5 B
    let bytes = |fs: &[Field]| fs.iter().map(|f| f.width).sum::<u32>() / 8;
    assert_eq!(bytes(&[IS_CP, SINK, MSG_CLASS, SRC_NODE, DST_NODE, LEN_FLITS, NON_OFFLOADABLE, HDR_RSVD]), 3);
    assert_eq!(bytes(&[OP1, OP0]), 1);
    assert_eq!(bytes(&[PATTERN, RESP_KIND, DTYPE, HAS_EXT]), 1);
    assert_eq!(bytes(&[ADDR_A, ADDR_B, ADDR_C]), 18);
    assert_eq!(bytes(&[IMM]), 4);
    assert_eq!(bytes(&[MASK, OQ_TAG, EXTRA_RSVD]), 5);
}

/// Spec §2.6: three 32-bit group masks (96 b) and three 5-bit start offsets (15 b)
/// in one 256-b flit.
#[test]
fn the_extension_flit_tiles_and_round_trips() {
    assert!(golden::bits::tiles(&EXT_FIELDS, FLIT_W));
    assert_eq!(EXT_MASK_A.width + EXT_MASK_B.width + EXT_MASK_C.width, 96);
    assert_eq!(EXT_START_A.width + EXT_START_B.width + EXT_START_C.width, 15);
    let x = CpExtension { masks: [0xffff_0000, 0x0000_ffff, 0x8000_0001], start: [16, 0, 31] };
    assert_eq!(CpExtension::decode(&x.encode()), x);
    let mut head = ComputePacket::default().encode();
    CpExtension::mark(&mut head);
    assert_eq!((LEN_FLITS.read(&head), HAS_EXT.read(&head)), (2, 1));
}

#[test]
fn encode_decode_round_trip() {
    let cp = ComputePacket {
        src_node: 17,
        dst_node: 46,
        op0: 8,
        op1: 10,
        pattern: 9,
        resp_kind: 0,
        dtype: true,
        addr_a: 0xABCD_EF01_2380,
        addr_b: 0x80,
        addr_c: (1 << 48) - 128,
        imm: 0xDEAD_BEEF,
        mask: 0x8000_0001,
        oq_tag: 47,
    };
    assert_eq!(ComputePacket::decode(&cp.encode()), cp);
    assert_eq!(cp.encode()[3] >> 63, 1, "is_cp is bit 255");
}
