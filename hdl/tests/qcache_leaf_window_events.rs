//! Tests of `hdl_gen::qcache::leaf::window_events` (`hdl/src/qcache/leaf/window_events.rs`).

use crate::leaf_check::{bv, lint_and_synth, val, LeafSim};
use hdl_gen::qcache::leaf::window_events::*;

#[test]
fn window_events_is_lint_clean_and_synthesizable() {
    lint_and_synth(WindowEvents::<8, 9, 2>::default(), "qc_window_events_w8_p2");
    lint_and_synth(WindowEvents::<16, 17, 3>::default(), "qc_window_events_w16_p3");
}

/// In: `(en, onset_ok, np, nc, ns, produced, consumed, spilled, cyc_p, cyc_c, q, q_max, qmax_valid, force_eval)`.
type In = (bool, bool, u128, u128, u128, u128, u128, u128, u128, u128, u128, u128, bool, bool);
/// Out: `(produced, consumed, spilled, cyc_p, cyc_c, q, q_max, qmax_valid, force_eval)`.
type Out = (u128, u128, u128, u128, u128, u128, u128, bool, bool);

fn eval(s: &mut LeafSim<WindowEvents<8, 9, 3>>, i: In) -> Out {
    s.en_i.next = i.0;
    s.onset_ok_i.next = i.1;
    s.np_i.next = bv(i.2);
    s.nc_i.next = bv(i.3);
    s.ns_i.next = bv(i.4);
    s.produced_i.next = bv(i.5);
    s.consumed_i.next = bv(i.6);
    s.spilled_i.next = bv(i.7);
    s.cyc_p_i.next = bv(i.8);
    s.cyc_c_i.next = bv(i.9);
    s.q_i.next = bv(i.10);
    s.q_max_i.next = bv(i.11);
    s.qmax_valid_i.next = i.12;
    s.force_eval_i.next = i.13;
    s.settle();
    (val(&s.produced_o), val(&s.consumed_o), val(&s.spilled_o), val(&s.cyc_p_o), val(&s.cyc_c_o), val(&s.q_o), val(&s.q_max_o), s.qmax_valid_o.val(), s.force_eval_o.val())
}

/// 8-bit counters, worked by hand.
#[test]
fn window_events_by_hand() {
    let mut s = LeafSim::comb(WindowEvents::<8, 9, 3>::default());
    // counts add; Q 10 + 3 - 5 - 4 = 4; cyc_p starts with the first PRODUCE, cyc_c counts on;
    // a spill with some already in the window is no onset
    assert_eq!(eval(&mut s, (true, true, 3, 5, 4, 1, 2, 3, 0, 7, 10, 9, false, false)), (4, 7, 7, 1, 8, 4, 9, false, false));
    // saturation: 250 + 7 = 255, Q 254 + 3 -> 255 - 1 = 254, cycle counters stay at 255
    assert_eq!(eval(&mut s, (true, true, 7, 1, 0, 250, 255, 0, 255, 255, 254, 0, false, false)), (255, 255, 0, 255, 255, 254, 0, false, false));
    // Q saturates at 0: 2 + 0 - 3 - 1; no PRODUCE: cyc_p has not started and stays 0;
    // the window's first spill is an onset: q_max = 2
    assert_eq!(eval(&mut s, (true, true, 0, 3, 1, 0, 0, 0, 0, 0, 2, 0, false, false)), (0, 3, 1, 0, 1, 0, 2, true, true));
    // spill onset: q_max takes Q before the events (20), valid, an evaluation is asked for
    assert_eq!(eval(&mut s, (true, true, 1, 0, 2, 5, 5, 0, 3, 3, 20, 7, false, false)), (6, 5, 2, 4, 4, 19, 20, true, true));
    // the same in DETECT (onset_ok low): no onset
    assert_eq!(eval(&mut s, (true, false, 1, 0, 2, 5, 5, 0, 3, 3, 20, 7, false, false)), (6, 5, 2, 4, 4, 19, 7, false, false));
    // disabled: everything passes unchanged
    assert_eq!(eval(&mut s, (false, true, 7, 7, 7, 5, 6, 0, 0, 9, 20, 7, true, true)), (5, 6, 0, 0, 9, 20, 7, true, true));
}
