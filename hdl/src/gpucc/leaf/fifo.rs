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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, lint_and_synth, val, LeafSim, Rng};
    use golden::gpucc::fifo::Fifo;

    #[test]
    fn operand_fifo_is_lint_clean_and_synthesizable() {
        lint_and_synth(OperandFifo::<32, 3>::new(4), "gpucc_fifo_w32_d4");
    }

    #[test]
    fn addr_fifo_is_lint_clean_and_synthesizable() {
        lint_and_synth(AddrFifo::<16, 4>::new(6), "gpucc_addr_fifo_w16_d6");
    }

    /// The ports both FIFOs share, so one lockstep loop drives either.
    trait Ports {
        /// Set the inputs and settle.
        fn drive(&mut self, rst: bool, init: Option<u32>, init_val: u64, push: Option<u64>, pop: bool, peek: u32);
        /// `(v, data, count, full, peek_data)`; peek_data is `None` without a peek port.
        fn sample(&self) -> (bool, u64, u32, bool, Option<u64>);
    }

    macro_rules! ports {
        ($ty:ident $(, $peek_i:ident, $peek_o:ident)?) => {
            impl<const W: usize, const C: usize> Ports for LeafSim<$ty<W, C>> {
                fn drive(&mut self, rst: bool, init: Option<u32>, init_val: u64, push: Option<u64>, pop: bool, _peek: u32) {
                    self.rst_i.next = rst;
                    self.init_i.next = init.is_some();
                    self.init_cnt_i.next = bv(init.unwrap_or(0) as u128);
                    self.init_val_i.next = bv(init_val as u128);
                    self.v_i.next = push.is_some();
                    self.data_i.next = bv(push.unwrap_or(0) as u128);
                    self.yumi_i.next = pop;
                    $(self.$peek_i.next = bv(_peek as u128);)?
                    self.settle();
                }
                fn sample(&self) -> (bool, u64, u32, bool, Option<u64>) {
                    let peek: Option<u64> = None $(.or(Some(val(&self.$peek_o) as u64)))?;
                    (self.v_o.val(), val(&self.data_o) as u64, val(&self.count_o) as u32, self.status.full_o.val(), peek)
                }
            }
        };
    }
    ports!(OperandFifo);
    ports!(AddrFifo, peek_idx_i, peek_data_o);

    /// Random init / push / pop traffic (pushes offered even when full, pops even
    /// when empty) in lockstep with `golden::gpucc::fifo::Fifo` of depth `ref_depth`:
    /// valid, head, count, full and (with a peek port) a random look-ahead entry,
    /// every cycle. The first difference is the error.
    fn lockstep<P: Ports>(s: &mut P, tick: impl Fn(&mut P), ref_depth: u32, w: u32, c: u32, seed: u64) -> Result<(), String> {
        let mut g = Fifo::new(ref_depth);
        let mut r = Rng::new(seed);
        let init_val = r.bits(w) as u64;
        s.drive(true, None, init_val, None, false, 0);
        tick(s);
        let mut full_seen = false;
        for cyc in 0..400 {
            let init = r.pct(4).then(|| r.below(16) as u32);
            let push = r.pct(55).then(|| r.bits(w) as u64);
            let pop = r.pct(45);
            let peek = r.below(1 << c) as u32;
            s.drive(false, init, init_val, push, pop, peek);
            let (v, data, count, full, peek_data) = s.sample();
            let want = (!g.empty(), g.head(init_val), g.count(), g.full(), peek_data.map(|_| g.peek(peek, init_val)));
            // the head is meaningful only when valid
            let got = (v, if v { data } else { want.1 }, count, full, peek_data);
            if got != want {
                return Err(format!("cycle {cyc}: (v, head, count, full, peek[{peek}]) = {got:x?}, golden {want:x?}"));
            }
            full_seen |= full;
            tick(s);
            match init {
                Some(n) => g.init(n),
                None => {
                    g.clock(pop, push);
                }
            }
        }
        assert!(full_seen, "the traffic never filled the FIFO");
        Ok(())
    }

    /// The leaf at `depth` (`C` count bits, as `gpucc::fifo_count_bits` gives)
    /// against a golden FIFO of `ref_depth`.
    fn operand<const C: usize>(depth: usize, ref_depth: u32, seed: u64) -> Result<(), String> {
        let mut s = LeafSim::clocked(OperandFifo::<16, C>::new(depth), |b| &mut b.clk_i);
        lockstep(&mut s, |s| s.tick(), ref_depth, 16, C as u32, seed)
    }

    fn addr<const C: usize>(depth: usize, ref_depth: u32, seed: u64) -> Result<(), String> {
        let mut s = LeafSim::clocked(AddrFifo::<16, C>::new(depth), |b| &mut b.clk_i);
        lockstep(&mut s, |s| s.tick(), ref_depth, 16, C as u32, seed)
    }

    /// Against golden, at a non-power-of-two depth and at a power of two.
    #[test]
    fn operand_fifo_matches_golden_fifo() {
        operand::<4>(5, 5, 1).unwrap();
        operand::<3>(4, 4, 2).unwrap();
    }

    #[test]
    fn addr_fifo_matches_golden_fifo_with_look_ahead() {
        addr::<4>(6, 6, 3).unwrap();
        addr::<3>(4, 4, 4).unwrap();
    }

    /// The lockstep check can fail: against a golden FIFO one entry deeper or
    /// shallower (a planted wrong expectation) it reports a cycle.
    #[test]
    fn fifo_lockstep_catches_a_wrong_depth() {
        let e = operand::<4>(5, 6, 1).expect_err("depth 5 is not depth 6");
        assert!(e.contains("cycle"), "{e}");
        assert!(addr::<4>(6, 5, 3).is_err());
    }
}
