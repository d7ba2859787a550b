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
