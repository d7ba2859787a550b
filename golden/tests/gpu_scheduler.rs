//! Tests of `golden::gpu::scheduler` (`golden/src/gpu/scheduler.rs`).

use golden::gpu::config::SchedulerPolicy;
use golden::gpu::scheduler::*;

#[test]
fn gto_prefers_last_then_oldest() {
    let mut s = WarpScheduler::new(SchedulerPolicy::Gto);
    for w in [4, 0, 2] {
        s.add(w);
    }
    let mut o = Vec::new();
    s.order(&mut o);
    assert_eq!(o, vec![4, 0, 2]);
    s.last = Some(2);
    s.order(&mut o);
    assert_eq!(o, vec![2, 4, 0]);
}

#[test]
fn lrr_rotates() {
    let mut s = WarpScheduler::new(SchedulerPolicy::Lrr);
    for w in [0, 2, 4] {
        s.add(w);
    }
    let mut o = Vec::new();
    s.last = Some(2);
    s.order(&mut o);
    assert_eq!(o, vec![4, 0, 2]);
}

/// Four warps launched 0, 1, 2, 3 (oldest first), warp 3 issued last. Warps 0 and 1
/// are CTA A, with warp 0 at a barrier; warps 2 and 3 are CTA B, both running, and
/// B has one warp (not on this scheduler) at its barrier and one past it. By hand:
/// GTO order 3, 0, 1, 2.
/// MWF keys (warps at a barrier in the CTA): A 1, B 1 -> all equal: 3, 0, 1, 2.
/// fMWF keys: warp 0 at the barrier -> 0; warp 1 -> A's 1 at + 0 past = 1; warps
/// 2, 3 -> B's 1 at + 1 past = 2: 3, 2 (key 2, GTO order), 1 (key 1), 0 (key 0).
#[test]
fn mwf_and_fmwf_by_hand() {
    // (warp, cta, in_bar); CTA A = 0: at 1, past 0; CTA B = 1: at 1, past 1
    let warps = [(0u16, 0usize, true), (1, 0, false), (2, 1, false), (3, 1, false)];
    let at = [1u32, 1];
    let past = [0u32, 1];
    let order = |policy| {
        let mut s = WarpScheduler::new(policy);
        for (w, _, _) in warps {
            s.add(w);
        }
        s.last = Some(3);
        let mut o = Vec::new();
        s.order_keyed(&mut o, |w| {
            let (_, c, b) = warps[w as usize];
            barrier_key(policy, b, at[c], past[c])
        });
        o
    };
    assert_eq!(order(SchedulerPolicy::Gto), vec![3, 0, 1, 2]);
    assert_eq!(order(SchedulerPolicy::Mwf), vec![3, 0, 1, 2]);
    assert_eq!(order(SchedulerPolicy::Fmwf), vec![3, 2, 1, 0]);
}

/// MWF puts the CTA with the most waiting warps first, also ahead of the greedy
/// warp: CTA A (warps 0, 1) has 2 at its barrier, CTA B (warps 2, 3) none, warp 2
/// issued last. GTO: 2, 0, 1, 3. MWF: keys 2, 2, 0, 0 -> 0, 1, 2, 3 (the ties keep
/// GTO order: 0 before 1, then the greedy 2 before 3). fMWF: A's warps are at the
/// barrier (key 0) and B has nobody at or past one (key 0): GTO, 2, 0, 1, 3.
#[test]
fn mwf_prefers_the_most_waiting_cta() {
    let cta = [0usize, 0, 1, 1];
    let in_bar = [true, true, false, false];
    let at = [2u32, 0];
    for (policy, want) in [(SchedulerPolicy::Gto, vec![2, 0, 1, 3]), (SchedulerPolicy::Mwf, vec![0, 1, 2, 3]), (SchedulerPolicy::Fmwf, vec![2, 0, 1, 3])] {
        let mut s = WarpScheduler::new(policy);
        for w in 0..4 {
            s.add(w);
        }
        s.last = Some(2);
        let mut o = Vec::new();
        s.order_keyed(&mut o, |w| barrier_key(policy, in_bar[w as usize], at[cta[w as usize]], 0));
        assert_eq!(o, want, "{policy:?}");
    }
}
