//! One SQSR entry's life (spec §1.6.2 steps 2-8, the same on both SQ variants), as the
//! golden `sqsr::Sqsr` keeps it implicitly (valid bit, present bits, the ready FIFO,
//! the buffer, the ALU pipeline, the store and response queues):
//! FREE 0, WAIT 1 (allocated, operands not all present), READY 2 (in the ready-order
//! FIFO), BUF 3 (holds a temporary-buffer slot), ALU 4 (in the ALU pipeline), STORE 5
//! (its result store is to be issued), RESP 6 (its response is to be offered).
//!
//! At the edge only these transitions are taken (any other event is ignored):
//! FREE -alloc-> WAIT; WAIT -ready-> READY; READY -fill-> BUF; BUF -issue-> ALU;
//! ALU -done-> STORE when `store_i` (the CP answers ACK: a store chain), else RESP;
//! STORE -written-> RESP; RESP -free-> FREE. `rst_i` returns to FREE.
//! Combinational from the register: `state_o`, `busy_o` (not FREE).
#![allow(clippy::collapsible_if, reason = "one branch per FSM state, like the case statement it becomes; collapsing one changes the generated Verilog")]

use rust_hdl::prelude::*;

use crate::prim::Reg;

pub const S_FREE: u64 = 0;
pub const S_WAIT: u64 = 1;
pub const S_READY: u64 = 2;
pub const S_BUF: u64 = 3;
pub const S_ALU: u64 = 4;
pub const S_STORE: u64 = 5;
pub const S_RESP: u64 = 6;

#[derive(LogicBlock)]
pub struct SqEntryFsm {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub alloc_i: Signal<In, Bit>,
    pub ready_i: Signal<In, Bit>,
    pub fill_i: Signal<In, Bit>,
    pub issue_i: Signal<In, Bit>,
    pub done_i: Signal<In, Bit>,
    pub store_i: Signal<In, Bit>,
    pub written_i: Signal<In, Bit>,
    pub free_i: Signal<In, Bit>,
    pub state_o: Signal<Out, Bits<3>>,
    pub busy_o: Signal<Out, Bit>,
    state_r: Reg<3>,
    k_free: Constant<Bits<3>>,
    k_wait: Constant<Bits<3>>,
    k_ready: Constant<Bits<3>>,
    k_buf: Constant<Bits<3>>,
    k_alu: Constant<Bits<3>>,
    k_store: Constant<Bits<3>>,
    k_resp: Constant<Bits<3>>,
}

impl Default for SqEntryFsm {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            alloc_i: Default::default(),
            ready_i: Default::default(),
            fill_i: Default::default(),
            issue_i: Default::default(),
            done_i: Default::default(),
            store_i: Default::default(),
            written_i: Default::default(),
            free_i: Default::default(),
            state_o: Default::default(),
            busy_o: Default::default(),
            state_r: Default::default(),
            k_free: Constant::new(S_FREE.to_bits()),
            k_wait: Constant::new(S_WAIT.to_bits()),
            k_ready: Constant::new(S_READY.to_bits()),
            k_buf: Constant::new(S_BUF.to_bits()),
            k_alu: Constant::new(S_ALU.to_bits()),
            k_store: Constant::new(S_STORE.to_bits()),
            k_resp: Constant::new(S_RESP.to_bits()),
        }
    }
}

impl Logic for SqEntryFsm {
    #[hdl_gen]
    fn update(&mut self) {
        self.state_r.clk_i.next = self.clk_i.val();
        self.state_r.rst_i.next = self.rst_i.val();
        self.state_r.d_i.next = self.state_r.q_o.val();
        if self.state_r.q_o.val() == self.k_free.val() {
            if self.alloc_i.val() {
                self.state_r.d_i.next = self.k_wait.val();
            }
        } else if self.state_r.q_o.val() == self.k_wait.val() {
            if self.ready_i.val() {
                self.state_r.d_i.next = self.k_ready.val();
            }
        } else if self.state_r.q_o.val() == self.k_ready.val() {
            if self.fill_i.val() {
                self.state_r.d_i.next = self.k_buf.val();
            }
        } else if self.state_r.q_o.val() == self.k_buf.val() {
            if self.issue_i.val() {
                self.state_r.d_i.next = self.k_alu.val();
            }
        } else if self.state_r.q_o.val() == self.k_alu.val() {
            if self.done_i.val() {
                if self.store_i.val() {
                    self.state_r.d_i.next = self.k_store.val();
                } else {
                    self.state_r.d_i.next = self.k_resp.val();
                }
            }
        } else if self.state_r.q_o.val() == self.k_store.val() {
            if self.written_i.val() {
                self.state_r.d_i.next = self.k_resp.val();
            }
        } else if self.state_r.q_o.val() == self.k_resp.val() {
            if self.free_i.val() {
                self.state_r.d_i.next = self.k_free.val();
            }
        }
        self.state_o.next = self.state_r.q_o.val();
        self.busy_o.next = self.state_r.q_o.val() != self.k_free.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};

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
}
