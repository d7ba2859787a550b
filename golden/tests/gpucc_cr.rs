//! Tests of `golden::gpucc::cr` (`golden/src/gpucc/cr.rs`).

use proptest::prelude::*;

use golden::gpucc::cr::*;

#[test]
fn fields_tile_word0_exactly() {
    let mut covered = 0u64;
    for f in FIELDS {
        let m = ((1u64 << f.width) - 1) << f.lsb;
        assert_eq!(covered & m, 0, "{} overlaps", f.name);
        covered |= m;
    }
    assert_eq!(covered, 0xFFFF_FFFF);
}

#[test]
fn spec_example_iadd_in() {
    // spec §2.1 position 0: IADD, imm 4, in0 SELF, in1 IMM, out lane A,
    // one initial token in FIFO0.
    let cr = Cr { en: true, opcode: op::IADD, out_lane: 1, in_src: [SRC_SELF, SRC_IMM, SRC_UNUSED], init_cnt: [1, 0, 0], imm: 4, ..Cr::default() };
    let w = cr.to_words();
    // en=1 | opcode 1<<1 | out_lane 1<<7 | in0 6<<10 | in1 7<<13 | init0 1<<19
    assert_eq!(w[0], 1 | (1 << 1) | (1 << 7) | (6 << 10) | (7 << 13) | (1 << 19));
    assert_eq!(w[1], 4);
}

proptest! {
    #[test]
    fn words_round_trip(w0 in any::<u32>(), w1 in any::<u32>(), w2 in any::<u32>(), w3 in any::<u32>()) {
        let cr = Cr::from_words([w0, w1, w2, w3]);
        prop_assert_eq!(cr.to_words(), [w0, w1, w2, w3]);
    }

    #[test]
    fn lane_codes_beyond_lanes_are_unused(code in 0u32..8, lanes in 1u32..=5) {
        let s = Src::decode(code, lanes);
        match code {
            0 => prop_assert_eq!(s, Src::Unused),
            6 => prop_assert_eq!(s, Src::SelfLoop),
            7 => prop_assert_eq!(s, Src::Imm),
            c if c <= lanes => prop_assert_eq!(s, Src::Lane((c - 1) as u8)),
            _ => prop_assert_eq!(s, Src::Unused),
        }
    }
}
