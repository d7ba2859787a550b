//! Tests of `golden::gpu::coalesce` (`golden/src/gpu/coalesce.rs`).

use golden::gpu::coalesce::*;
use golden::gpu::exec::{MemRecord, WARP};

#[test]
fn unit_stride_is_one_line_strided_is_many() {
    let mut rec = MemRecord { mask: u32::MAX, bytes: 4, ..Default::default() };
    let mut addrs = [0u64; WARP];
    for (l, a) in addrs.iter_mut().enumerate() {
        *a = 0x1000 + 4 * l as u64;
    }
    let mut out = Vec::new();
    coalesce(&rec, &addrs, 128, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].bytes, u128::MAX);
    for (l, a) in addrs.iter_mut().enumerate() {
        *a = 0x1000 + 128 * l as u64;
    }
    coalesce(&rec, &addrs, 128, &mut out);
    assert_eq!(out.len(), 32);
    rec.mask = 0b101;
    coalesce(&rec, &addrs, 128, &mut out);
    assert_eq!(out.len(), 2);
}

/// Hand-derived: 32 floats from the middle of a 128-byte line cover its upper half
/// (lanes 0-15) and the next line's lower half (lanes 16-31).
#[test]
fn unit_stride_across_a_line_boundary() {
    let rec = MemRecord { mask: u32::MAX, bytes: 4, ..Default::default() };
    let addrs: [u64; WARP] = std::array::from_fn(|l| 0x1040 + 4 * l as u64);
    let mut out = Vec::new();
    coalesce(&rec, &addrs, 128, &mut out);
    let upper = u128::MAX << 64;
    assert_eq!(out, vec![Segment { line: 0x1000, bytes: upper, lanes: 0xffff }, Segment { line: 0x1080, bytes: !upper, lanes: 0xffff_0000 }]);
}

/// The whole-warp unit-stride path gives the lane-by-lane segments, for every element
/// size, line size and alignment, and leaves any other access to the lane-by-lane path.
#[test]
fn unit_stride_path_matches_lane_by_lane() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    let mut cases = 0;
    for bytes in [1u32, 2, 4, 8, 16, 32] {
        for line in [32u64, 64, 128] {
            for _ in 0..200 {
                let a0 = (0x10_0000 + (next() % 4096)) & !(bytes as u64 - 1);
                let mut addrs: [u64; WARP] = std::array::from_fn(|l| a0 + bytes as u64 * l as u64);
                let mut rec = MemRecord { mask: u32::MAX, bytes, ..Default::default() };
                match next() % 4 {
                    0 => addrs[(next() % 32) as usize] += bytes as u64 * (1 + next() % 3),
                    1 => rec.mask = next() as u32,
                    _ => {}
                }
                coalesce(&rec, &addrs, line, &mut fast);
                slow.clear();
                coalesce_lanes(&rec, &addrs, line, &mut slow);
                assert_eq!(fast, slow, "bytes {bytes}, line {line}, mask {:#x}, addrs {addrs:x?}", rec.mask);
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 6 * 3 * 200);
}
