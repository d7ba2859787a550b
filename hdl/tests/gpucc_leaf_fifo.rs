//! Tests of `hdl_gen::gpucc::leaf::fifo` (`hdl/src/gpucc/leaf/fifo.rs`).

use crate::leaf_check::{bv, lint_and_synth, val, LeafSim, Rng};
use golden::gpucc::fifo::Fifo;
use hdl_gen::gpucc::leaf::fifo::*;

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
