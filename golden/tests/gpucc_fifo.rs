//! Tests of `golden::gpucc::fifo` (`golden/src/gpucc/fifo.rs`).

use std::collections::VecDeque;

use proptest::prelude::*;

use golden::gpucc::fifo::*;

#[test]
fn initial_tokens_come_first_then_pushed_values() {
    let mut f = Fifo::new(4);
    f.init(2);
    assert_eq!(f.count(), 2);
    f.clock(false, Some(7));
    assert_eq!(f.count(), 3);
    assert_eq!(f.head(9), 9);
    f.clock(true, None);
    assert_eq!(f.head(9), 9);
    f.clock(true, None);
    assert_eq!(f.head(9), 7);
}

#[test]
fn full_refuses_push_even_when_popped() {
    let mut f = Fifo::new(2);
    f.clock(false, Some(1));
    f.clock(false, Some(2));
    assert!(f.full());
    assert_eq!(f.clock(true, Some(3)), (true, false));
    assert_eq!(f.count(), 1);
    assert_eq!(f.head(0), 2);
}

#[test]
fn preload_is_clamped_to_depth() {
    let mut f = Fifo::new(3);
    f.init(15);
    assert_eq!(f.count(), 3);
    assert!(f.full());
}

proptest! {
    /// Against a reference queue: order, occupancy and peeks agree for any depth
    /// (powers of two or not) and any push/pop pattern.
    #[test]
    fn matches_reference_queue(depth in 1u32..20, pre in 0u32..16, ops in proptest::collection::vec((any::<bool>(), any::<Option<u16>>()), 0..200)) {
        let mut f = Fifo::new(depth);
        f.init(pre);
        let init_val = 0xABCD;
        let mut q: VecDeque<u64> = std::iter::repeat_n(init_val, pre.min(depth) as usize).collect();
        for (pop, push) in ops {
            let full = q.len() as u32 == depth;
            let (popped, pushed) = f.clock(pop, push.map(u64::from));
            prop_assert_eq!(popped, pop && !q.is_empty());
            prop_assert_eq!(pushed, push.is_some() && !full);
            if popped { q.pop_front(); }
            if pushed { q.push_back(push.unwrap() as u64); }
            prop_assert_eq!(f.count() as usize, q.len());
            for i in 0..depth {
                prop_assert_eq!(f.peek(i, init_val), q.get(i as usize).copied().unwrap_or(0));
            }
        }
    }
}
