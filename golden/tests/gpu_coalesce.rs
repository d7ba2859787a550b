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
