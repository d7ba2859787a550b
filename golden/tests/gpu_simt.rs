//! Tests of `golden::gpu::simt` (`golden/src/gpu/simt.rs`).

use golden::gpu::ptx::RPC_EXIT;
use golden::gpu::simt::*;

#[test]
fn diverge_and_reconverge() {
    let mut s = SimtStack::new();
    s.reset(0, 0xF);
    // branch at pc 0 to 5, fallthrough 1, reconverge at 8
    s.branch(0b0011, 5, 1, 8);
    assert_eq!((s.pc(), s.mask()), (5, 0b0011));
    s.advance(8); // taken path reaches the reconvergence point
    assert_eq!((s.pc(), s.mask()), (1, 0b1100));
    s.advance(8);
    assert_eq!((s.pc(), s.mask()), (8, 0xF));
    assert_eq!(s.depth(), 1);
}

#[test]
fn exits_remove_lanes_everywhere() {
    let mut s = SimtStack::new();
    s.reset(0, 0xF);
    s.branch(0b0001, 5, 1, RPC_EXIT);
    assert!(!s.exit(0b0001));
    assert_eq!((s.pc(), s.mask()), (1, 0b1110));
    assert!(s.exit(0b1110));
}

#[test]
fn uniform_branches_do_not_push() {
    let mut s = SimtStack::new();
    s.reset(0, 0xF);
    s.branch(0xF, 7, 1, 9);
    assert_eq!((s.pc(), s.depth()), (7, 1));
    s.branch(0, 2, 8, 9);
    assert_eq!((s.pc(), s.depth()), (8, 1));
}
