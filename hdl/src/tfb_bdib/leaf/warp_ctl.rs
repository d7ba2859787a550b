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
