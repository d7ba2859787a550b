//! One OQSR entry's state (spec §1.3.4), as `golden::llc_compute::oq::EntState`:
//! FREE 0, FORMING 1, SENT 2, FALLBACK 3, FLUSH 4.
//!
//! At the edge, only the FSM's transitions are taken (any other event is ignored):
//! FREE -alloc-> FORMING; FORMING -send-> SENT, -flush-> FLUSH, -free-> FREE (first-load
//! L1 hit); SENT -fallback-> FALLBACK, -free-> FREE (ACK/DATA/BITMAP); FALLBACK -free->
//! FREE (FB_REPLAY); FLUSH -free-> FREE (FLUSH_REPLAY). `rst_i` returns to FREE.
//! Combinational from the register: `busy_o` (not FREE), `wait_o` (the warp waits:
//! SENT, FALLBACK or FLUSH).

use rust_hdl::prelude::*;

use crate::prim::Reg;

pub const S_FREE: u64 = 0;
pub const S_FORMING: u64 = 1;
pub const S_SENT: u64 = 2;
pub const S_FALLBACK: u64 = 3;
pub const S_FLUSH: u64 = 4;

#[derive(LogicBlock)]
pub struct OqEntryFsm {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub alloc_i: Signal<In, Bit>,
    pub send_i: Signal<In, Bit>,
    pub flush_i: Signal<In, Bit>,
    pub fallback_i: Signal<In, Bit>,
    pub free_i: Signal<In, Bit>,
    pub state_o: Signal<Out, Bits<3>>,
    pub busy_o: Signal<Out, Bit>,
    pub wait_o: Signal<Out, Bit>,
    state_r: Reg<3>,
    free: Constant<Bits<3>>,
    forming: Constant<Bits<3>>,
    sent: Constant<Bits<3>>,
    fallback: Constant<Bits<3>>,
    flush: Constant<Bits<3>>,
}

impl Default for OqEntryFsm {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            alloc_i: Default::default(),
            send_i: Default::default(),
            flush_i: Default::default(),
            fallback_i: Default::default(),
            free_i: Default::default(),
            state_o: Default::default(),
            busy_o: Default::default(),
            wait_o: Default::default(),
            state_r: Default::default(),
            free: Constant::new(S_FREE.to_bits()),
            forming: Constant::new(S_FORMING.to_bits()),
            sent: Constant::new(S_SENT.to_bits()),
            fallback: Constant::new(S_FALLBACK.to_bits()),
            flush: Constant::new(S_FLUSH.to_bits()),
        }
    }
}

impl Logic for OqEntryFsm {
    #[hdl_gen]
    fn update(&mut self) {
        self.state_r.clk_i.next = self.clk_i.val();
        self.state_r.rst_i.next = self.rst_i.val();
        self.state_r.d_i.next = self.state_r.q_o.val();
        if self.state_r.q_o.val() == self.free.val() {
            if self.alloc_i.val() {
                self.state_r.d_i.next = self.forming.val();
            }
        } else if self.state_r.q_o.val() == self.forming.val() {
            if self.send_i.val() {
                self.state_r.d_i.next = self.sent.val();
            } else if self.flush_i.val() {
                self.state_r.d_i.next = self.flush.val();
            } else if self.free_i.val() {
                self.state_r.d_i.next = self.free.val();
            }
        } else if self.state_r.q_o.val() == self.sent.val() {
            if self.fallback_i.val() {
                self.state_r.d_i.next = self.fallback.val();
            } else if self.free_i.val() {
                self.state_r.d_i.next = self.free.val();
            }
        } else if self.free_i.val() {
            self.state_r.d_i.next = self.free.val();
        }
        self.state_o.next = self.state_r.q_o.val();
        self.busy_o.next = self.state_r.q_o.val() != self.free.val();
        self.wait_o.next = (self.state_r.q_o.val() == self.sent.val()) | (self.state_r.q_o.val() == self.fallback.val()) | (self.state_r.q_o.val() == self.flush.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};

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
}
