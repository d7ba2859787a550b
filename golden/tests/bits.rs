//! Tests of `golden::bits` (`golden/src/bits.rs`).

use golden::bits::*;

#[test]
fn clog2_values() {
    // hand-derived: the index width of n entries, never 0
    for (n, w) in [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (257, 9)] {
        assert_eq!(clog2(n), w, "clog2({n})");
    }
    assert_eq!(count_width(4), 3);
    assert_eq!(count_width(8), 4);
    assert_eq!(count_width(2), 2);
}

#[test]
fn read_and_write_across_word_boundaries() {
    let f = Field::new("x", 60, 72); // bits 60..=131: words 0, 1 and 2
    let mut w = [u64::MAX; 3];
    f.write(&mut w, 0);
    assert_eq!(w, [0x0fff_ffff_ffff_ffff, 0, !0xf]);
    let v = 0xab_cdef_0123_4567_89ab_u128;
    f.write(&mut w, v);
    assert_eq!(f.read(&w), v);
    // neighbours untouched
    assert_eq!(w[0] & 0x0fff_ffff_ffff_ffff, 0x0fff_ffff_ffff_ffff);
    assert_eq!(w[2] >> 4, !0 >> 4);
    // excess bits dropped
    f.write(&mut w, u128::MAX);
    assert_eq!(f.read(&w), f.mask());
    assert_eq!(w[2] >> 4, !0 >> 4);
}

/// A 200-bit field from bit 70 (words 1..=4), against bit-by-bit positions
/// computed by hand: value bit i is word (70 + i) / 64, bit (70 + i) % 64.
#[test]
fn wide_fields_read_and_write_words() {
    let f = Field::new("wide", 70, 200);
    let mut w = [u64::MAX; 5];
    let v = [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 0x5555_aaaa_5555_aaaa, 0xff];
    f.write_words(&mut w, &v);
    for i in 0..200usize {
        let want = v[i / 64] >> (i % 64) & 1;
        let (wi, b) = ((70 + i) / 64, (70 + i) % 64);
        assert_eq!(w[wi] >> b & 1, want, "value bit {i}");
    }
    // neighbours untouched: bits 0..70 and 270..320
    assert_eq!(w[0], u64::MAX);
    assert_eq!(w[1] & 0x3f, 0x3f);
    assert_eq!(w[4] >> 14, u64::MAX >> 14);
    let mut out = [7u64; 5];
    f.read_words(&w, &mut out);
    // bits 192..199 of the value are the low 8 of v[3]; the fifth word is past the field
    assert_eq!(out, [v[0], v[1], v[2], 0xff, 0]);
    // a field up to 128 bits reads the same either way
    let g = Field::new("g", 3, 100);
    let mut two = [0u64; 2];
    g.read_words(&w, &mut two);
    assert_eq!(two[0] as u128 | (two[1] as u128) << 64, g.read(&w));
}

#[test]
#[should_panic(expected = "read_words")]
fn a_wide_field_does_not_read_as_u128() {
    Field::new("wide", 0, 256).read(&[0; 4]);
}

#[test]
fn u32_get_put() {
    let f = Field::new("dir", 1, 3);
    assert_eq!(f.get(0b1110), 7);
    assert_eq!(f.put(0xffff_ffff, 0), 0xffff_fff1);
    assert_eq!(f.put(0, 9), 0b0010); // 9 & 7 = 1
}

#[test]
fn tiling() {
    let a = Field::new("a", 0, 3);
    let b = Field::new("b", 3, 2);
    assert!(tiles(&[b, a], 5));
    assert!(!tiles(&[a, b], 6), "gap at bit 5");
    assert!(!tiles(&[a, Field::new("c", 2, 3)], 5), "overlap at bit 2");
}
