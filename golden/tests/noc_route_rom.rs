//! Tests of `golden::noc::route_rom` (`golden/src/noc/route_rom.rs`).

use golden::bits::tiles;
use golden::noc::route_rom::*;

#[test]
fn row_and_source_fields_tile_their_words() {
    assert!(tiles(&ROW_FIELDS, ROW_BITS));
    assert!(tiles(&SRC_FIELDS, FIELD_BITS));
    assert_eq!(ROW_BITS, 30);
}

/// The codes of spec §1.4, written out by hand: bit5 valid, bit4 is_latch,
/// bits 3:1 direction.
#[test]
fn source_codes_match_the_spec() {
    assert_eq!(Source::None.encode(), 0);
    assert_eq!(Source::Direct(W as u8).encode(), 0b10_0010);
    assert_eq!(Source::Direct(L as u8).encode(), 0b10_1000);
    assert_eq!(Source::Latch(E as u8).encode(), 0b11_0000);
    assert_eq!(Source::Latch(S as u8).encode(), 0b11_0110);
    for d in 0..5u8 {
        for s in [Source::None, Source::Direct(d), Source::Latch(d)] {
            assert_eq!(Source::decode(s.encode()), s);
        }
    }
}

#[test]
fn row_bits_place_e_lowest() {
    let r = RomRow([Source::Direct(W as u8), Source::None, Source::Latch(W as u8), Source::None, Source::Latch(W as u8)]);
    assert_eq!(r.bits(), 0b10_0010 | (0b11_0010 << 12) | (0b11_0010 << 24));
    assert_eq!(RomRow::from_bits(r.bits()), r);
}
