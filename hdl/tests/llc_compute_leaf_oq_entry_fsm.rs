//! Tests of `hdl_gen::llc_compute::leaf::oq_entry_fsm` (`hdl/src/llc_compute/leaf/oq_entry_fsm.rs`).

use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};
use hdl_gen::llc_compute::leaf::oq_entry_fsm::*;

#[test]
fn oq_entry_fsm_is_lint_clean_and_synthesizable() {
    lint_and_synth(OqEntryFsm::default(), "llc_oq_entry_fsm");
}

#[derive(Clone, Copy, Default, Debug)]
struct Ev {
    alloc: bool,
    send: bool,
    flush: bool,
    fallback: bool,
    free: bool,
}

fn step(s: &mut LeafSim<OqEntryFsm>, e: Ev) -> (u128, bool, bool) {
    s.alloc_i.next = e.alloc;
    s.send_i.next = e.send;
    s.flush_i.next = e.flush;
    s.fallback_i.next = e.fallback;
    s.free_i.next = e.free;
    s.settle();
    let o = (val(&s.state_o), s.busy_o.val(), s.wait_o.val());
    s.tick();
    o
}

/// The paper's scenarios by hand (spec §1.3.4, Fig. 10): a chain offloaded and
/// acknowledged; one that falls back; one flushed; a first-load hit; events that
/// are not transitions of the current state change nothing.
#[test]
fn oq_entry_fsm_walks_the_scenarios_by_hand() {
    let mut s = LeafSim::clocked(OqEntryFsm::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let z = Ev::default();
    let seq: [(Ev, (u128, bool, bool)); 14] = [
        (Ev { send: true, free: true, ..z }, (0, false, false)), // FREE ignores all but alloc
        (Ev { alloc: true, ..z }, (0, false, false)),
        (Ev { send: true, ..z }, (1, true, false)),
        (Ev { alloc: true, fallback: true, ..z }, (2, true, true)), // SENT -> FALLBACK (alloc ignored)
        (Ev { free: true, ..z }, (3, true, true)),
        (Ev { alloc: true, ..z }, (0, false, false)),
        (Ev { flush: true, ..z }, (1, true, false)),
        (Ev { send: true, fallback: true, ..z }, (4, true, true)), // FLUSH ignores send/fallback
        (Ev { free: true, ..z }, (4, true, true)),
        (Ev { alloc: true, ..z }, (0, false, false)),
        (Ev { free: true, ..z }, (1, true, false)), // first-load hit
        (Ev { alloc: true, ..z }, (0, false, false)),
        (Ev { send: true, ..z }, (1, true, false)),
        (Ev { free: true, ..z }, (2, true, true)), // ACK
    ];
    for (c, (e, want)) in seq.into_iter().enumerate() {
        assert_eq!(step(&mut s, e), want, "cycle {c}: {e:?}");
    }
    assert_eq!(step(&mut s, z), (0, false, false));
}

/// Random events against the transition table of spec §1.3.4 written as a match.
#[test]
fn oq_entry_fsm_matches_the_spec_table() {
    let mut s = LeafSim::clocked(OqEntryFsm::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut r = Rng::new(3);
    let mut st = 0u128;
    for c in 0..4000 {
        let e = Ev { alloc: r.pct(30), send: r.pct(20), flush: r.pct(20), fallback: r.pct(20), free: r.pct(25) };
        let want = (st, st != 0, matches!(st, 2..=4));
        assert_eq!(step(&mut s, e), want, "cycle {c}: {e:?}");
        st = match st {
            0 if e.alloc => 1,
            1 if e.send => 2,
            1 if e.flush => 4,
            1 if e.free => 0,
            2 if e.fallback => 3,
            2..=4 if e.free => 0,
            x => x,
        };
    }
}
