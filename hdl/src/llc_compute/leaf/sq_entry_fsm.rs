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
