//! Operand FIFOs of the GPU-CC network (spec §1.4), as rust-hdl leaf blocks.
//!
//! Behaviour is that of `golden::gpucc::fifo::Fifo`: registered `count`, `full`
//! refuses a push even while popping, `init_i` clears the FIFO and preloads
//! `min(init_cnt_i, depth)` *virtual* initial tokens that read as `init_val_i`.
//! Any depth from 2 to 2^(C-1) works (pointers wrap at `depth - 1`); pointers and
//! counts are all `C` bits wide so that every operation stays in one width, and the
//! memory primitive takes the `C`-bit pointers as addresses.
//!
//! [`OperandFifo`] has one read port (the head); [`AddrFifo`] adds the LSU
//! look-ahead port (`peek_idx_i` -> `peek_data_o`: entry `idx` from the head, 0 at or
//! past the count). One macro produces both, so their shared logic exists once
//! (`#[hdl_gen]` cannot call helper functions).

use rust_hdl::prelude::*;

use crate::prim::{CountReg, FullFlag, InitClamp, Mem1R, Mem2R, Reg};

macro_rules! operand_fifo {
    ($(#[$doc:meta])* $name:ident, $mem:ident $(, $peek_idx:ident, $peek_data:ident)?) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name<const W: usize, const C: usize> {
            pub clk_i: Signal<In, Clock>,
            pub rst_i: Signal<In, Bit>,
            /// One-cycle clear + preload (the ARM cycle of the mode FSM).
            pub init_i: Signal<In, Bit>,
            pub init_cnt_i: Signal<In, Bits<4>>,
            pub init_val_i: Signal<In, Bits<W>>,
            /// Push; the caller never pushes when full.
            pub v_i: Signal<In, Bit>,
            pub data_i: Signal<In, Bits<W>>,
            /// Pop; ignored when empty.
            pub yumi_i: Signal<In, Bit>,
            /// Not empty.
            pub v_o: Signal<Out, Bit>,
            /// Head entry (meaningful when `v_o`).
            pub data_o: Signal<Out, Bits<W>>,
            /// `status__full_o` in Verilog: registered `count == depth`.
            pub status: FullFlag,
            pub count_o: Signal<Out, Bits<C>>,
            $(
            pub $peek_idx: Signal<In, Bits<C>>,
            pub $peek_data: Signal<Out, Bits<W>>,
            peek_off: Signal<Local, Bits<C>>,
            peek_sum: Signal<Local, Bits<C>>,
            peek_wrap: Signal<Local, Bits<C>>,
            zero_w: Constant<Bits<W>>,
            depth_c: Constant<Bits<C>>,
            )?
            head_r: Reg<C>,
            tail_r: Reg<C>,
            count_r: CountReg<C>,
            pre_r: Reg<C>,
            mem: $mem<W, C>,
            clamp: InitClamp<C>,
            empty: Signal<Local, Bit>,
            full: Signal<Local, Bit>,
            pop: Signal<Local, Bit>,
            push: Signal<Local, Bit>,
            last_c: Constant<Bits<C>>,
            zero_c: Constant<Bits<C>>,
            one_c: Constant<Bits<C>>,
        }

        impl<const W: usize, const C: usize> $name<W, C> {
            pub fn new(depth: usize) -> Self {
                assert!(depth >= 2 && depth < (1 << C), "depth {depth} does not fit {C} count bits");
                Self {
                    clk_i: Default::default(),
                    rst_i: Default::default(),
                    init_i: Default::default(),
                    init_cnt_i: Default::default(),
                    init_val_i: Default::default(),
                    v_i: Default::default(),
                    data_i: Default::default(),
                    yumi_i: Default::default(),
                    v_o: Default::default(),
                    data_o: Default::default(),
                    status: Default::default(),
                    count_o: Default::default(),
                    $(
                    $peek_idx: Default::default(),
                    $peek_data: Default::default(),
                    peek_off: Default::default(),
                    peek_sum: Default::default(),
                    peek_wrap: Default::default(),
                    zero_w: Constant::new(0u64.to_bits()),
                    depth_c: Constant::new((depth as u64).to_bits()),
                    )?
                    head_r: Default::default(),
                    tail_r: Default::default(),
                    count_r: CountReg::new(depth),
                    pre_r: Default::default(),
                    mem: $mem::new(depth),
                    clamp: InitClamp::new(depth),
                    empty: Default::default(),
                    full: Default::default(),
                    pop: Default::default(),
                    push: Default::default(),
                    last_c: Constant::new((depth as u64 - 1).to_bits()),
                    zero_c: Constant::new(0u64.to_bits()),
                    one_c: Constant::new(1u64.to_bits()),
                }
            }
        }

        impl<const W: usize, const C: usize> Logic for $name<W, C> {
            #[hdl_gen]
            fn update(&mut self) {
                self.head_r.clk_i.next = self.clk_i.val();
                self.tail_r.clk_i.next = self.clk_i.val();
                self.count_r.clk_i.next = self.clk_i.val();
                self.pre_r.clk_i.next = self.clk_i.val();
                self.mem.clk_i.next = self.clk_i.val();
                self.head_r.rst_i.next = self.rst_i.val();
                self.tail_r.rst_i.next = self.rst_i.val();
                self.count_r.rst_i.next = self.rst_i.val();
                self.pre_r.rst_i.next = self.rst_i.val();
                self.head_r.d_i.next = self.head_r.q_o.val();
                self.tail_r.d_i.next = self.tail_r.q_o.val();
                self.count_r.d_i.next = self.count_r.q_o.val();
                self.pre_r.d_i.next = self.pre_r.q_o.val();
                self.clamp.i.next = self.init_cnt_i.val();

                self.empty.next = self.count_r.q_o.val() == self.zero_c.val();
                FullFlag::link(&mut self.status, &mut self.count_r.status);
                self.full.next = self.status.full_o.val();
                self.pop.next = self.yumi_i.val() & !self.empty.val();
                self.push.next = self.v_i.val() & !self.full.val();

                if self.init_i.val() {
                    self.head_r.d_i.next = self.zero_c.val();
                    self.tail_r.d_i.next = self.zero_c.val();
                    self.count_r.d_i.next = self.clamp.o.val();
                    self.pre_r.d_i.next = self.clamp.o.val();
                } else {
                    if self.pop.val() {
                        if self.pre_r.q_o.val() != self.zero_c.val() {
                            self.pre_r.d_i.next = self.pre_r.q_o.val() - self.one_c.val();
                        } else if self.head_r.q_o.val() == self.last_c.val() {
                            self.head_r.d_i.next = self.zero_c.val();
                        } else {
                            self.head_r.d_i.next = self.head_r.q_o.val() + self.one_c.val();
                        }
                    }
                    if self.push.val() {
                        if self.tail_r.q_o.val() == self.last_c.val() {
                            self.tail_r.d_i.next = self.zero_c.val();
                        } else {
                            self.tail_r.d_i.next = self.tail_r.q_o.val() + self.one_c.val();
                        }
                    }
                    if self.pop.val() & !self.push.val() {
                        self.count_r.d_i.next = self.count_r.q_o.val() - self.one_c.val();
                    }
                    if self.push.val() & !self.pop.val() {
                        self.count_r.d_i.next = self.count_r.q_o.val() + self.one_c.val();
                    }
                }

                self.mem.w_v_i.next = self.push.val() & !self.init_i.val();
                self.mem.w_addr_i.next = self.tail_r.q_o.val();
                self.mem.w_data_i.next = self.data_i.val();
                self.mem.r0_addr_i.next = self.head_r.q_o.val();

                if self.pre_r.q_o.val() != self.zero_c.val() {
                    self.data_o.next = self.init_val_i.val();
                } else {
                    self.data_o.next = self.mem.r0_data_o.val();
                }
                self.v_o.next = !self.empty.val();
                self.count_o.next = self.count_r.q_o.val();

                $(
                // look-ahead: entry idx = pre + off lives at (head + off) mod depth
                self.peek_off.next = self.$peek_idx.val() - self.pre_r.q_o.val();
                self.peek_sum.next = self.head_r.q_o.val() + self.peek_off.val();
                self.peek_wrap.next = self.peek_sum.val() - self.depth_c.val();
                if self.peek_sum.val() > self.last_c.val() {
                    self.mem.r1_addr_i.next = self.peek_wrap.val();
                } else {
                    self.mem.r1_addr_i.next = self.peek_sum.val();
                }
                if self.$peek_idx.val() >= self.count_r.q_o.val() {
                    self.$peek_data.next = self.zero_w.val();
                } else if self.$peek_idx.val() < self.pre_r.q_o.val() {
                    self.$peek_data.next = self.init_val_i.val();
                } else {
                    self.$peek_data.next = self.mem.r1_data_o.val();
                }
                )?
            }
        }
    };
}

operand_fifo!(
    /// Core operand FIFO / LSU store-data FIFO: head read only.
    OperandFifo, Mem1R
);

operand_fifo!(
    /// LSU address FIFO: head read plus the look-ahead port used by the LSU's issue
    /// pointer and prefetch element (spec §1.8).
    AddrFifo, Mem2R, peek_idx_i, peek_data_o
);
