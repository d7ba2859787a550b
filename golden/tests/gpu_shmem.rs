//! Tests of `golden::gpu::shmem` (`golden/src/gpu/shmem.rs`).

use golden::gpu::exec::{MemRecord, WARP};
use golden::gpu::shmem::*;

fn rec(stride: u64) -> MemRecord {
    let mut r = MemRecord { mask: u32::MAX, bytes: 4, ..Default::default() };
    for l in 0..WARP {
        r.addr[l] = l as u64 * 4 * stride;
    }
    r
}

#[test]
fn strides_give_textbook_degrees() {
    assert_eq!(conflict_degree(&rec(1), 32, 4), 1);
    assert_eq!(conflict_degree(&rec(2), 32, 4), 2);
    assert_eq!(conflict_degree(&rec(3), 32, 4), 1);
    assert_eq!(conflict_degree(&rec(32), 32, 4), 32);
    assert_eq!(conflict_degree(&rec(0), 32, 4), 1); // broadcast
}
