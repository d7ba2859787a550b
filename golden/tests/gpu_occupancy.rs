//! Tests of `golden::gpu::occupancy` (`golden/src/gpu/occupancy.rs`).

use golden::gpu::occupancy::*;

/// A hand-drawn threadblock up to cycle 12: an ALU instruction issued at 10 with
/// latency 4 (in flight 10..14), a load issued at 11, a barrier at 12 (12..13).
fn timeline_to_12(o: &mut CtaOccupancy) {
    o.before(10);
    o.issue(10);
    o.complete(10, 14);
    o.before(11);
    o.issue(11);
    o.before(12);
    o.issue(12);
    o.complete(12, 13);
}

/// [`timeline_to_12`], the load completing at 30 (in flight 11..30).
#[test]
fn area_and_in_flight_by_hand() {
    let mut o = CtaOccupancy::new(20);
    o.launch(10);
    timeline_to_12(&mut o);
    assert_eq!(o.in_flight(12), 3);
    // before 12: cycle 10 (1) + cycle 11 (2) = 3
    assert_eq!(o.area(12), 3);
    // cycle 12: 3 in flight; 13: the ALU and the load; 14..: the load alone
    assert_eq!(o.in_flight(13), 2);
    assert_eq!(o.in_flight(14), 1);
    assert_eq!(o.area(16), 3 + 3 + 2 + 1 + 1);
    o.before(30);
    o.complete(30, 30);
    assert_eq!(o.in_flight(30), 0);
    // 10..14: 1 + 2 + 3 + 2 = 8; the load alone 14..30: 16
    assert_eq!(o.area(30), 8 + 16);
    o.retire(40);
    assert_eq!(o.sums.inst_cycles, 24);
    assert_eq!(o.sums.cta_cycles, 30);
}

/// The same timeline traced cycle by cycle (1 at 10, 2 at 11, 3 at 12, 2 at 13, then
/// the load alone until 30), 8 cycles recorded.
#[test]
fn trace_by_hand() {
    let mut o = CtaOccupancy::new(20);
    o.launch(10);
    o.trace = Some(Box::new(OccupancyTrace { start: 10, cycles: 8, ..Default::default() }));
    timeline_to_12(&mut o);
    o.open_window(12);
    o.before(30);
    o.complete(30, 30);
    let t = o.trace.as_ref().unwrap();
    assert_eq!(t.in_flight, [1, 2, 3, 2, 1, 1, 1, 1]);
    assert_eq!(t.arrivals, [12]);
    assert!(t.csv().starts_with("cycle,in_flight,event\n10,1,\n11,2,\n12,3,arrival\n13,2,\n"), "{}", t.csv());
}

/// A barrier window by hand: two ALU instructions in flight (issued at 0 and 1,
/// latency 10); the first warp arrives at 2 (its `bar` in flight at 2 only), so the
/// level before it is 2; released, resuming at 20. In flight during [2, 20): cycle 2:
/// 3; 3..10: 2 each (7 cycles); 10: 1 (the second ALU until 11); 11..20: 0. Then
/// one issue at 20 (latency 10) is below the level, a second at 25 brings it back:
/// the lost window is 2..25.
#[test]
fn barrier_window_and_lost_window_by_hand() {
    let mut o = CtaOccupancy::new(16);
    o.launch(0);
    for t in [0, 1] {
        o.before(t);
        o.issue(t);
        o.complete(t, t + 10);
    }
    o.before(2);
    o.issue(2);
    o.complete(2, 3);
    o.open_window(2);
    o.close_window(20);
    for t in [20, 25] {
        o.before(t);
        o.issue(t);
        o.complete(t, t + 10);
        o.after_issue(t);
    }
    assert_eq!(o.sums.barrier_cycles, 18);
    assert_eq!(o.sums.barrier_inst_cycles, 3 + 7 * 2 + 1);
    assert_eq!((o.sums.lost_window_cycles, o.sums.windows), (23, 1));
    // a ramp that never gets back ends at the cap
    let mut o = CtaOccupancy::new(16);
    o.launch(0);
    for t in [0, 1] {
        o.issue(t);
        o.complete(t, t + 10);
    }
    o.issue(2);
    o.complete(2, 3);
    o.open_window(2);
    o.close_window(20);
    o.before(20 + RAMP_CAP + 5);
    assert_eq!((o.sums.lost_window_cycles, o.sums.windows), (20 + RAMP_CAP - 2, 1));
}
