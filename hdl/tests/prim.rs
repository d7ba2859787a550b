//! Tests of `hdl_gen::prim` (`hdl/src/prim.rs`).
//!
//! Each primitive's Verilog body is hand-written, and its `update()` is a model of
//! that body. So every behaviour test runs the same vectors three ways: the
//! emitted Verilog under Icarus, the rust-hdl model, and a reference written
//! from the doc comment; all three must agree.

use crate::leaf_check::{bv, check_outs, emit, lint_and_synth, outs, rtl_run, sim_run, val, LeafSim, Outs, Rng};
use hdl_gen::prim::*;
use rust_hdl::prelude::*;

type Cycles = Vec<Vec<(&'static str, u128)>>;

/// Verilog, model and reference agree from cycle `from` on.
#[allow(clippy::too_many_arguments)]
fn agree<B: Block>(block: B, name: &str, sim: Option<LeafSim<B>>, cycles: &Cycles, want: &[Outs], from: usize, drive: impl Fn(&mut B, &str, u128), sample: impl Fn(&B) -> Outs) {
    let rtl = rtl_run(&emit(block, name), name, cycles);
    check_outs(&rtl, want, from).unwrap_or_else(|e| panic!("{name} Verilog: {e}"));
    if let Some(mut sim) = sim {
        let model = sim_run(&mut sim, cycles, drive, sample);
        check_outs(&model, want, from).unwrap_or_else(|e| panic!("{name} rust-hdl model: {e}"));
    }
}

/// A reset cycle, then `n` cycles of random `d_i` (and a reset 1 time in 10).
fn reg_cycles(n: usize, w: u32, seed: u64) -> Cycles {
    let mut r = Rng::new(seed);
    let mut c = vec![vec![("rst_i", 1), ("d_i", r.bits(w))]];
    c.extend((0..n).map(|_| vec![("rst_i", r.pct(10) as u128), ("d_i", r.bits(w))]));
    c
}

/// What a register with synchronous reset to `init` shows before each edge.
fn reg_want(c: &Cycles, port: &str, init: u128) -> Vec<Outs> {
    let mut q = 0;
    c.iter()
        .map(|v| {
            let o = outs(&[(port, q)]);
            let get = |n: &str| v.iter().find(|p| p.0 == n).map(|p| p.1).unwrap_or(0);
            q = if get("rst_i") == 1 { init } else { get("d_i") };
            o
        })
        .collect()
}

#[test]
fn reg_is_lint_clean_and_synthesizable() {
    lint_and_synth(Reg::<5>::default(), "gf_reg_w5");
}

#[test]
fn reg_loads_d_and_resets_to_zero() {
    let c = reg_cycles(40, 5, 1);
    let drive = |b: &mut Reg<5>, n: &str, v: u128| match n {
        "rst_i" => b.rst_i.next = v == 1,
        _ => b.d_i.next = bv(v),
    };
    let sim = LeafSim::clocked(Reg::<5>::default(), |b| &mut b.clk_i);
    agree(Reg::<5>::default(), "gf_reg_w5", Some(sim), &c, &reg_want(&c, "q_o", 0), 1, drive, |b| outs(&[("q_o", val(&b.q_o))]));
}

#[test]
fn flag_is_lint_clean_and_synthesizable() {
    lint_and_synth(Flag::default(), "gf_flag");
}

#[test]
fn flag_loads_d_and_resets_to_zero() {
    let c = reg_cycles(40, 1, 2);
    let drive = |b: &mut Flag, n: &str, v: u128| match n {
        "rst_i" => b.rst_i.next = v == 1,
        _ => b.d_i.next = v == 1,
    };
    let sim = LeafSim::clocked(Flag::default(), |b| &mut b.clk_i);
    agree(Flag::default(), "gf_flag", Some(sim), &c, &reg_want(&c, "q_o", 0), 1, drive, |b| outs(&[("q_o", b.q_o.val() as u128)]));
}

#[test]
fn reg_init_is_lint_clean_and_synthesizable() {
    lint_and_synth(RegInit::<6>::default(), "gf_reg_init_w6");
}

#[test]
fn reg_init_resets_to_init_i() {
    let mut c = reg_cycles(40, 6, 3);
    for v in c.iter_mut() {
        v.push(("init_i", 0x2d));
    }
    let drive = |b: &mut RegInit<6>, n: &str, v: u128| match n {
        "rst_i" => b.rst_i.next = v == 1,
        "init_i" => b.init_i.next = bv(v),
        _ => b.d_i.next = bv(v),
    };
    let sim = LeafSim::clocked(RegInit::<6>::default(), |b| &mut b.clk_i);
    agree(RegInit::<6>::default(), "gf_reg_init_w6", Some(sim), &c, &reg_want(&c, "q_o", 0x2d), 1, drive, |b| outs(&[("q_o", val(&b.q_o))]));
}

#[test]
fn qreg_is_lint_clean_and_synthesizable() {
    lint_and_synth(QReg::<4>::default(), "gf_qreg_w4");
}

#[test]
fn qreg_loads_d_and_resets_to_zero() {
    let c = reg_cycles(40, 4, 4);
    let drive = |b: &mut QReg<4>, n: &str, v: u128| match n {
        "rst_i" => b.rst_i.next = v == 1,
        _ => b.d_i.next = bv(v),
    };
    let sim = LeafSim::clocked(QReg::<4>::default(), |b| &mut b.clk_i);
    agree(QReg::<4>::default(), "gf_qreg_w4", Some(sim), &c, &reg_want(&c, "q__q_o", 0), 1, drive, |b| outs(&[("q__q_o", val(&b.q.q_o))]));
}

#[test]
fn count_reg_is_lint_clean_and_synthesizable() {
    lint_and_synth(CountReg::<3>::new(5), "gf_count_reg_c3_d5");
}

/// `full` is `q == depth` on the registered count.
#[test]
fn count_reg_flags_full_at_depth() {
    let c = reg_cycles(60, 3, 5);
    let want: Vec<Outs> = reg_want(&c, "q_o", 0)
        .into_iter()
        .map(|o| {
            let q = o["q_o"].unwrap();
            outs(&[("q_o", q), ("status__full_o", (q == 5) as u128)])
        })
        .collect();
    assert!(want.iter().any(|o| o["status__full_o"] == Some(1)), "the vectors reach depth");
    let drive = |b: &mut CountReg<3>, n: &str, v: u128| match n {
        "rst_i" => b.rst_i.next = v == 1,
        _ => b.d_i.next = bv(v),
    };
    let sim = LeafSim::clocked(CountReg::<3>::new(5), |b| &mut b.clk_i);
    let sample = |b: &CountReg<3>| outs(&[("q_o", val(&b.q_o)), ("status__full_o", b.status.full_o.val() as u128)]);
    agree(CountReg::<3>::new(5), "gf_count_reg_c3_d5", Some(sim), &c, &want, 1, drive, sample);
}

#[test]
fn zext_is_lint_clean_and_synthesizable() {
    lint_and_synth(Zext::<3, 8>::default(), "gf_zext_i3_o8");
}

#[test]
fn zext_keeps_the_value() {
    let c: Cycles = (0..8).map(|i| vec![("i", i)]).collect();
    let want: Vec<Outs> = (0..8).map(|i| outs(&[("o", i)])).collect();
    let sim = LeafSim::comb(Zext::<3, 8>::default());
    let drive = |b: &mut Zext<3, 8>, _: &str, v: u128| b.i.next = bv(v);
    agree(Zext::<3, 8>::default(), "gf_zext_i3_o8", Some(sim), &c, &want, 0, drive, |b| outs(&[("o", val(&b.o))]));
}

#[test]
fn init_clamp_is_lint_clean_and_synthesizable() {
    lint_and_synth(InitClamp::<2>::new(3), "gf_init_clamp_c2_d3");
    lint_and_synth(InitClamp::<5>::new(9), "gf_init_clamp_c5_d9");
}

/// `o = min(i, depth)` for every 4-bit count, with `C` narrower and wider than 4.
#[test]
fn init_clamp_is_min_of_count_and_depth() {
    fn case<const C: usize>(depth: usize) {
        let name = format!("gf_init_clamp_c{C}_d{depth}");
        let c: Cycles = (0..16).map(|i| vec![("i", i)]).collect();
        let want: Vec<Outs> = (0..16).map(|i| outs(&[("o", i.min(depth as u128))])).collect();
        let sim = LeafSim::comb(InitClamp::<C>::new(depth));
        let drive = |b: &mut InitClamp<C>, _: &str, v: u128| b.i.next = bv(v);
        agree(InitClamp::<C>::new(depth), &name, Some(sim), &c, &want, 0, drive, |b| outs(&[("o", val(&b.o))]));
    }
    case::<2>(3);
    case::<5>(9);
}

/// Write every entry first (Verilog memories are x until written), then random
/// writes and reads at any `C`-bit address: at or past `depth` a write does
/// nothing and a read gives 0.
fn mem_cycles(depth: u128, reads: &[&'static str], seed: u64) -> (Cycles, Vec<Outs>) {
    let mut r = Rng::new(seed);
    let mut mem = vec![0u128; depth as usize];
    let (mut c, mut want) = (Cycles::new(), Vec::new());
    for k in 0..60 {
        let (w_v, w_addr) = if (k as u128) < depth { (1, k as u128) } else { (r.pct(60) as u128, r.bits(3)) };
        let data = r.bits(8);
        let mut v = vec![("w_v_i", w_v), ("w_addr_i", w_addr), ("w_data_i", data)];
        let mut o = Outs::new();
        for rd in reads {
            let a = if (k as u128) < depth { depth } else { r.bits(3) };
            v.push((if *rd == "r0" { "r0_addr_i" } else { "r1_addr_i" }, a));
            let port = if *rd == "r0" { "r0_data_o" } else { "r1_data_o" };
            o.insert(port.into(), Some(mem.get(a as usize).copied().unwrap_or(0)));
        }
        if w_v == 1 && w_addr < depth {
            mem[w_addr as usize] = data;
        }
        c.push(v);
        want.push(o);
    }
    (c, want)
}

fn mem_drive<const W: usize, const C: usize>(w_v: &mut Signal<In, Bit>, w_addr: &mut Signal<In, Bits<C>>, w_data: &mut Signal<In, Bits<W>>, n: &str, v: u128) -> bool {
    match n {
        "w_v_i" => w_v.next = v == 1,
        "w_addr_i" => w_addr.next = bv(v),
        "w_data_i" => w_data.next = bv(v),
        _ => return false,
    }
    true
}

#[test]
fn mem1r_is_lint_clean_and_synthesizable() {
    lint_and_synth(Mem1R::<8, 3>::new(3), "gf_mem1r_w8_d3");
}

#[test]
fn mem1r_reads_what_was_written() {
    let (c, want) = mem_cycles(3, &["r0"], 6);
    let drive = |b: &mut Mem1R<8, 3>, n: &str, v: u128| {
        if !mem_drive(&mut b.w_v_i, &mut b.w_addr_i, &mut b.w_data_i, n, v) {
            b.r0_addr_i.next = bv(v);
        }
    };
    let sim = LeafSim::clocked(Mem1R::<8, 3>::new(3), |b| &mut b.clk_i);
    agree(Mem1R::<8, 3>::new(3), "gf_mem1r_w8_d3", Some(sim), &c, &want, 0, drive, |b| outs(&[("r0_data_o", val(&b.r0_data_o))]));
}

#[test]
fn mem2r_is_lint_clean_and_synthesizable() {
    lint_and_synth(Mem2R::<8, 3>::new(4), "gf_mem2r_w8_d4");
}

#[test]
fn mem2r_reads_what_was_written_on_both_ports() {
    let (c, want) = mem_cycles(4, &["r0", "r1"], 7);
    let drive = |b: &mut Mem2R<8, 3>, n: &str, v: u128| {
        if !mem_drive(&mut b.w_v_i, &mut b.w_addr_i, &mut b.w_data_i, n, v) {
            match n {
                "r0_addr_i" => b.r0_addr_i.next = bv(v),
                _ => b.r1_addr_i.next = bv(v),
            }
        }
    };
    let sim = LeafSim::clocked(Mem2R::<8, 3>::new(4), |b| &mut b.clk_i);
    let sample = |b: &Mem2R<8, 3>| outs(&[("r0_data_o", val(&b.r0_data_o)), ("r1_data_o", val(&b.r1_data_o))]);
    agree(Mem2R::<8, 3>::new(4), "gf_mem2r_w8_d4", Some(sim), &c, &want, 0, drive, sample);
}

#[test]
fn read_ptr_mem_is_lint_clean_and_synthesizable() {
    lint_and_synth(ReadPtrMem::<8, 2>::default(), "gf_rdptr_mem_w8_d4");
}

/// The read port shows the entry at the read pointer, which `pop_i` advances
/// (mod 4) and `rst_i` clears. `update()` is empty (not simulatable), so only the
/// Verilog runs.
#[test]
fn read_ptr_mem_reads_at_the_pointer() {
    let mut r = Rng::new(8);
    let (mut mem, mut rp) = ([0u128; 4], 0usize);
    let (mut c, mut want) = (Cycles::new(), Vec::new());
    for k in 0..60u128 {
        let rst = (k == 0 || r.pct(5)) as u128;
        let (w_v, w_addr, data) = if k < 4 { (1, k, r.bits(8)) } else { (r.pct(50) as u128, r.bits(2), r.bits(8)) };
        let pop = (k >= 4 && r.pct(50)) as u128;
        c.push(vec![("rst_i", rst), ("w_v_i", w_v), ("w_addr_i", w_addr), ("w_data_i", data), ("pop_i", pop)]);
        want.push(outs(&[("rd__data_o", mem[rp])]));
        if w_v == 1 {
            mem[w_addr as usize] = data;
        }
        rp = if rst == 1 { 0 } else { (rp + pop as usize) % 4 };
    }
    // from cycle 4: every entry written, the pointer reset
    let drive = |_: &mut ReadPtrMem<8, 2>, _: &str, _: u128| {};
    agree(ReadPtrMem::<8, 2>::default(), "gf_rdptr_mem_w8_d4", None, &c, &want, 4, drive, |_| Outs::new());
}
