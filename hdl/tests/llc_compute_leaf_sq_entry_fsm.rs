//! Tests of `hdl_gen::llc_compute::leaf::sq_entry_fsm` (`hdl/src/llc_compute/leaf/sq_entry_fsm.rs`).

use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};
use hdl_gen::llc_compute::leaf::sq_entry_fsm::*;

#[test]
fn sq_entry_fsm_is_lint_clean_and_synthesizable() {
    lint_and_synth(SqEntryFsm::default(), "llc_sq_entry_fsm");
}

#[derive(Clone, Copy, Default, Debug)]
struct Ev {
    alloc: bool,
    ready: bool,
    fill: bool,
    issue: bool,
    done: bool,
    store: bool,
    written: bool,
    free: bool,
}

fn step(s: &mut LeafSim<SqEntryFsm>, e: Ev) -> (u128, bool) {
    s.alloc_i.next = e.alloc;
    s.ready_i.next = e.ready;
    s.fill_i.next = e.fill;
    s.issue_i.next = e.issue;
    s.done_i.next = e.done;
    s.store_i.next = e.store;
    s.written_i.next = e.written;
    s.free_i.next = e.free;
    s.settle();
    let o = (val(&s.state_o), s.busy_o.val());
    s.tick();
    o
}

/// Fig. 10 scenario 1 by hand for a store chain (pattern 1: allocated, both operands
/// present, buffer slot, ALU, WRITE, ACK) and a DATA chain (pattern 2: no store);
/// events of other states change nothing.
#[test]
fn sq_entry_fsm_walks_the_paper_flow_by_hand() {
    let mut s = LeafSim::clocked(SqEntryFsm::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let z = Ev::default();
    let seq: [(Ev, (u128, bool)); 16] = [
        (Ev { ready: true, free: true, written: true, ..z }, (0, false)), // FREE ignores all but alloc
        (Ev { alloc: true, ..z }, (0, false)),
        (Ev { fill: true, issue: true, ..z }, (1, true)), // WAIT ignores fill/issue
        (Ev { ready: true, ..z }, (1, true)),
        (Ev { fill: true, ..z }, (2, true)),
        (Ev { issue: true, ..z }, (3, true)),
        (Ev { done: true, store: true, ..z }, (4, true)),
        (Ev { free: true, ..z }, (5, true)), // STORE ignores free: the WRITE goes first
        (Ev { written: true, ..z }, (5, true)),
        (Ev { free: true, ..z }, (6, true)),
        (Ev { alloc: true, ..z }, (0, false)),
        (Ev { ready: true, ..z }, (1, true)),
        (Ev { fill: true, ..z }, (2, true)),
        (Ev { issue: true, ..z }, (3, true)),
        (Ev { done: true, ..z }, (4, true)),
        (Ev { free: true, ..z }, (6, true)), // DATA: straight to RESP, freed when taken
    ];
    for (c, (e, want)) in seq.into_iter().enumerate() {
        assert_eq!(step(&mut s, e), want, "cycle {c}: {e:?}");
    }
    assert_eq!(step(&mut s, z), (0, false));
}

/// Random events against the transition table written as a match.
#[test]
fn sq_entry_fsm_matches_the_table() {
    let mut s = LeafSim::clocked(SqEntryFsm::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut r = Rng::new(7);
    let mut st = 0u128;
    for c in 0..4000 {
        let e = Ev { alloc: r.pct(30), ready: r.pct(30), fill: r.pct(30), issue: r.pct(30), done: r.pct(30), store: r.pct(50), written: r.pct(30), free: r.pct(30) };
        assert_eq!(step(&mut s, e), (st, st != 0), "cycle {c}: {e:?}");
        st = match st {
            0 if e.alloc => 1,
            1 if e.ready => 2,
            2 if e.fill => 3,
            3 if e.issue => 4,
            4 if e.done => {
                if e.store {
                    5
                } else {
                    6
                }
            }
            5 if e.written => 6,
            6 if e.free => 0,
            x => x,
        };
    }
}
