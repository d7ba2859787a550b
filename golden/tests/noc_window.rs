//! Tests of `golden::noc::window` (`golden/src/noc/window.rs`).

use golden::noc::window::*;

#[test]
fn windows_sum_to_k_and_respect_t_min() {
    assert_eq!(window_lengths(&[0, 0, 0], 1000, 8), vec![334, 333, 333]);
    assert_eq!(window_lengths(&[1, 0, 0, 0], 1000, 8), vec![976, 8, 8, 8]);
    let t = window_lengths(&[5, 7, 11, 13], 1000, 8);
    assert_eq!(t.iter().sum::<u32>(), 1000);
    assert!(t.iter().all(|&x| x >= 8));
}
