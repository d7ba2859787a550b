//! Per-warp control of the BDIB (spec §2.7, §5.3), as `golden::tfb_bdib::bdib::Bdib`
//! keeps it per warp: the FIFO occupancy `count` (0..=DEPTH, `C` bits), the
//! "entered barrier" bit `in_bar` and the `fence_wait` bit.
//!
//! At the clock edge: `count += push - pop`; `in_bar` is set by `set_bar_i` (an
//! accepted pass-through barrier or a popped BAR_MARKER, T1/T8) and cleared by
//! `eaf_done_i` (T4/T5); `fence_wait` is set by `set_fence_i` (a popped FENCE, T9) and
//! cleared by `fence_done_i`; `flush_i` clears all three; `rst_i` too.
//! Combinational status from the registers: `full_o = count == DEPTH`, `nonempty_o`,
//! `drain_req_o = !in_bar & !fence_wait & nonempty` (§5.3).

use rust_hdl::prelude::*;

use crate::prim::{Flag, Reg};

#[derive(LogicBlock)]
pub struct WarpCtl<const C: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    /// An entry is pushed at the tail (never when full).
    pub push_i: Signal<In, Bit>,
    /// The head is popped (only when `drain_req_o`).
    pub pop_i: Signal<In, Bit>,
    pub set_bar_i: Signal<In, Bit>,
    pub set_fence_i: Signal<In, Bit>,
    pub eaf_done_i: Signal<In, Bit>,
    pub fence_done_i: Signal<In, Bit>,
    pub flush_i: Signal<In, Bit>,
    pub count_o: Signal<Out, Bits<C>>,
    pub in_bar_o: Signal<Out, Bit>,
    pub fence_wait_o: Signal<Out, Bit>,
    pub full_o: Signal<Out, Bit>,
    pub nonempty_o: Signal<Out, Bit>,
    pub drain_req_o: Signal<Out, Bit>,
    count_r: Reg<C>,
    in_bar_r: Flag,
    fence_r: Flag,
    depth: Constant<Bits<C>>,
    zero: Constant<Bits<C>>,
    one: Constant<Bits<C>>,
}

impl<const C: usize> WarpCtl<C> {
    pub fn new(depth: usize) -> Self {
        assert!(depth >= 1 && depth < (1 << C), "depth {depth} does not fit {C} count bits");
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            push_i: Default::default(),
            pop_i: Default::default(),
            set_bar_i: Default::default(),
            set_fence_i: Default::default(),
            eaf_done_i: Default::default(),
            fence_done_i: Default::default(),
            flush_i: Default::default(),
            count_o: Default::default(),
            in_bar_o: Default::default(),
            fence_wait_o: Default::default(),
            full_o: Default::default(),
            nonempty_o: Default::default(),
            drain_req_o: Default::default(),
            count_r: Default::default(),
            in_bar_r: Default::default(),
            fence_r: Default::default(),
            depth: Constant::new((depth as u64).to_bits()),
            zero: Constant::new(0u64.to_bits()),
            one: Constant::new(1u64.to_bits()),
        }
    }
}

impl<const C: usize> Logic for WarpCtl<C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.count_r.clk_i.next = self.clk_i.val();
        self.in_bar_r.clk_i.next = self.clk_i.val();
        self.fence_r.clk_i.next = self.clk_i.val();
        self.count_r.rst_i.next = self.rst_i.val();
        self.in_bar_r.rst_i.next = self.rst_i.val();
        self.fence_r.rst_i.next = self.rst_i.val();

        self.count_r.d_i.next = self.count_r.q_o.val();
        if self.flush_i.val() {
            self.count_r.d_i.next = self.zero.val();
        } else if self.push_i.val() & !self.pop_i.val() {
            self.count_r.d_i.next = self.count_r.q_o.val() + self.one.val();
        } else if self.pop_i.val() & !self.push_i.val() {
            self.count_r.d_i.next = self.count_r.q_o.val() - self.one.val();
        }
        self.in_bar_r.d_i.next = !self.flush_i.val() & (self.set_bar_i.val() | (self.in_bar_r.q_o.val() & !self.eaf_done_i.val()));
        self.fence_r.d_i.next = !self.flush_i.val() & (self.set_fence_i.val() | (self.fence_r.q_o.val() & !self.fence_done_i.val()));

        self.count_o.next = self.count_r.q_o.val();
        self.in_bar_o.next = self.in_bar_r.q_o.val();
        self.fence_wait_o.next = self.fence_r.q_o.val();
        self.full_o.next = self.count_r.q_o.val() == self.depth.val();
        self.nonempty_o.next = self.count_r.q_o.val() != self.zero.val();
        self.drain_req_o.next = !self.in_bar_r.q_o.val() & !self.fence_r.q_o.val() & (self.count_r.q_o.val() != self.zero.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};

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
}
