//! Tests of `hdl_gen::tfb_bdib::leaf::warp_ctl` (`hdl/src/tfb_bdib/leaf/warp_ctl.rs`).

use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};
use hdl_gen::tfb_bdib::leaf::warp_ctl::*;

#[test]
fn warp_ctl_is_lint_clean_and_synthesizable() {
    lint_and_synth(WarpCtl::<2>::new(2), "tfb_warp_ctl_d2");
    lint_and_synth(WarpCtl::<3>::new(5), "tfb_warp_ctl_d5");
}

#[derive(Clone, Copy, Default, Debug)]
struct In {
    push: bool,
    pop: bool,
    bar: bool,
    fence: bool,
    eaf: bool,
    fdone: bool,
    flush: bool,
}

/// `(count, in_bar, fence_wait, full, nonempty, drain_req)`
type Out = (u128, bool, bool, bool, bool, bool);

fn step<const C: usize>(s: &mut LeafSim<WarpCtl<C>>, i: In) -> Out {
    s.push_i.next = i.push;
    s.pop_i.next = i.pop;
    s.set_bar_i.next = i.bar;
    s.set_fence_i.next = i.fence;
    s.eaf_done_i.next = i.eaf;
    s.fence_done_i.next = i.fdone;
    s.flush_i.next = i.flush;
    s.settle();
    let o = (val(&s.count_o), s.in_bar_o.val(), s.fence_wait_o.val(), s.full_o.val(), s.nonempty_o.val(), s.drain_req_o.val());
    s.tick();
    o
}

/// §5.3 written out by hand for one warp, D = 2: a barrier arrives, two entries
/// are pushed (full), EAF ends the barrier, a FENCE head pops and holds the next
/// pop until `fence_done`, a push and a pop in one cycle keep the count, a flush
/// clears everything.
#[test]
fn warp_ctl_walks_a_barrier_by_hand() {
    let mut s = LeafSim::clocked(WarpCtl::<2>::new(2), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let z = In::default();
    let seq: [(In, Out); 10] = [
        (In { bar: true, ..z }, (0, false, false, false, false, false)),
        (In { push: true, ..z }, (0, true, false, false, false, false)),
        (In { push: true, ..z }, (1, true, false, false, true, false)),
        (In { eaf: true, ..z }, (2, true, false, true, true, false)),
        (In { pop: true, fence: true, ..z }, (2, false, false, true, true, true)),
        (z, (1, false, true, false, true, false)),
        (In { fdone: true, ..z }, (1, false, true, false, true, false)),
        (In { push: true, pop: true, ..z }, (1, false, false, false, true, true)),
        (In { push: true, flush: true, bar: true, ..z }, (1, false, false, false, true, true)),
        (z, (0, false, false, false, false, false)),
    ];
    for (c, (i, want)) in seq.into_iter().enumerate() {
        assert_eq!(step(&mut s, i), want, "cycle {c}: {i:?}");
    }
}

/// Random legal inputs against a reference written from §5.3.
#[test]
fn warp_ctl_matches_the_spec_rules() {
    for depth in [1usize, 3] {
        let mut s = LeafSim::clocked(WarpCtl::<2>::new(depth), |b| &mut b.clk_i);
        s.reset(|b| &mut b.rst_i);
        let (mut q, mut ib, mut fw) = (0u128, false, false);
        let mut r = Rng::new(depth as u64);
        for c in 0..3000 {
            let req = !ib && !fw && q > 0;
            let i = In { push: q < depth as u128 && r.pct(40), pop: req && r.pct(60), bar: r.pct(10), fence: r.pct(10), eaf: r.pct(20), fdone: r.pct(20), flush: r.pct(2) };
            let want = (q, ib, fw, q == depth as u128, q > 0, req);
            assert_eq!(step(&mut s, i), want, "depth {depth}, cycle {c}: {i:?}");
            q = if i.flush { 0 } else { q + i.push as u128 - i.pop as u128 };
            ib = !i.flush && (i.bar || (ib && !i.eaf));
            fw = !i.flush && (i.fence || (fw && !i.fdone));
        }
    }
}
