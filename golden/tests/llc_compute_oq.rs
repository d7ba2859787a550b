//! The OQ golden model (spec §1.3) under random legal traffic with the spec §6.4
//! scoreboard, planted bugs the scoreboard must catch, and directed scenarios.

use golden::llc_compute::sim::{run_oq, sample_core};
use golden::llc_compute::{LlcCompute, LlcComputeConfig};

fn preset(name: &str) -> LlcComputeConfig {
    golden::presets::load::<LlcCompute>(name).unwrap_or_else(|e| panic!("{e}")).config
}

fn with(name: &str, edit: impl FnOnce(&mut String)) -> LlcComputeConfig {
    let mut text = golden::presets::text(name);
    edit(&mut text);
    golden::block::parse::<LlcCompute>(std::path::Path::new("edited.toml"), &text).unwrap_or_else(|e| panic!("{e}")).config
}

#[test]
fn oq_random_traffic_paper_and_small_presets_hold_every_invariant() {
    for (name, cycles) in [("llc_compute_paper", 100_000), ("llc_compute_small", 100_000)] {
        let c = preset(name);
        let s = run_oq(&c, sample_core(&c), cycles, 1, |_, _| {}).unwrap_or_else(|v| panic!("{name}: {v}"));
        assert!(s.cps > 1000 && s.flushes > 100 && s.discards > 100 && s.responses > s.cps, "{name}: {s:?}");
    }
}

#[test]
fn oq_random_traffic_llc_mode_and_policies() {
    let c = with("llc_compute_small", |t| *t = t.replace("mode = \"omni\"", "mode = \"llc\""));
    let s = run_oq(&c, sample_core(&c), 20_000, 2, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    assert!(s.cps > 50, "{s:?}");
    let c = with("llc_compute_small", |t| *t = t.replace("mode = \"omni\"", "mode = \"llc\"\nllc_rule = \"emn_is_llc\""));
    run_oq(&c, sample_core(&c), 20_000, 3, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    let c = with("llc_compute_small", |t| *t = t.replace("lanes = 8", "lanes = 8\ncpgu_busy_policy = \"run_normally\""));
    run_oq(&c, sample_core(&c), 20_000, 4, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    let c = with("llc_compute_small", |t| *t = t.replace("mode = \"omni\"", "mode = \"off\""));
    let s = run_oq(&c, sample_core(&c), 5_000, 5, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(s.cps, 0);
}

#[test]
fn oq_scoreboard_catches_an_allocation_while_full() {
    let c = preset("llc_compute_small");
    let v = run_oq(&c, sample_core(&c), 50_000, 1, |m, _| m.plant_alloc_when_full = true).unwrap_err();
    assert!(v.invariant.starts_with("2 "), "{v}");
}

// ---------------------------------------------------------------------------------------
// Directed scenarios (paper Fig. 10 and the spec's resolutions), expectations by hand
// ---------------------------------------------------------------------------------------

use golden::llc_compute::chain::{InstrKind, Pattern};
use golden::llc_compute::oq::*;
use golden::llc_compute::packet::ComputePacket;
use golden::llc_compute::traffic::{chain, ChainInstr};
use golden::model::Model;

/// A hand-driven OQ: `step` runs one cycle with the inputs the closure sets.
struct Bench {
    m: Oq,
    base: OqIn,
    o: OqOut,
}

impl Bench {
    /// The OQ of core `core` of preset `name`, after one reset cycle.
    fn new(c: &LlcComputeConfig, core: u32) -> Self {
        let m = Oq::new(c, c.placement.core(core));
        let base = m.inputs_for(c);
        let mut b = Self { o: m.new_outputs(), m, base };
        b.step(|i| i.rst = true);
        b
    }

    fn step(&mut self, f: impl FnOnce(&mut OqIn)) -> &OqOut {
        let mut i = self.base.clone();
        f(&mut i);
        self.m.eval(&i, &mut self.o);
        self.m.commit(&i);
        &self.o
    }
}

/// Operand line of MC `mc` (MC = line mod 8 on the paper preset; 1 KB apart keeps the MC).
fn line(mc: u64, k: u64) -> u64 {
    mc + 8 * k
}

fn issue(i: &mut OqIn, wid: u32, ci: ChainInstr) {
    ci.drive(wid, i);
}

/// Fig. 10 scenario 1 (normal offload) for `c = a + b` from core 15 with a in LLC 5,
/// b in LLC 6, c in LLC 7: the EMN is core 36 (node (1,5) = id 41); the CP leaves the
/// cycle after the store is absorbed; the ACK resumes the warp.
#[test]
fn oq_scenario_1_offload_and_ack() {
    let c = preset("llc_compute_paper");
    let mut b = Bench::new(&c, 15);
    let ch = chain(Pattern::get(1).unwrap(), &[line(5, 1), line(6, 2), line(7, 3)], 8, [8, 0], 0, 0xffff_ffff, 10);
    let o = b.step(|i| issue(i, 7, ch[0]));
    assert!(o.ci_ready && !o.evc_valid);
    let o = b.step(|i| {
        i.l1r_valid = true;
        issue(i, 7, ch[1]);
    });
    assert!(o.ci_ready, "ld b is taken in the cycle ld a's miss arrives");
    assert_eq!((o.st_count, o.st_forming, o.st_forming_wid), (1, true, 7));
    let o = b.step(|i| {
        i.l1r_valid = true;
        issue(i, 7, ch[2]);
    });
    assert!(o.ci_ready);
    let o = b.step(|i| issue(i, 7, ch[3]));
    assert!(o.ci_ready && !o.cp_valid);
    let o = b.step(|i| i.cp_ready = true).clone();
    assert!(o.cp_valid, "CP built the cycle after the 11");
    assert_eq!(o.st_warp_wait, 1 << 7);
    let want = ComputePacket {
        src_node: 2 * 8 + 1,
        dst_node: 5 * 8 + 1,
        op0: 8,
        op1: 0,
        pattern: 1,
        resp_kind: 0,
        dtype: true,
        addr_a: line(5, 1) << 7,
        addr_b: line(6, 2) << 7,
        addr_c: line(7, 3) << 7,
        imm: 0,
        mask: 0xffff_ffff,
        oq_tag: 0,
    };
    assert_eq!(ComputePacket::decode(&o.cp_flit), want);
    assert_eq!(o.cp_flit, want.encode());
    let o = b.step(|i| {
        i.rsp_valid = true;
        i.rsp_kind = RSP_ACK;
        i.rsp_tag = 0;
    });
    assert!(o.rsp_ready && o.evr_valid && o.evr_kind == EV_RESUME && o.evr_wid == 7 && !o.err);
    let o = b.step(|_| {});
    assert_eq!((o.st_count, o.st_warp_wait), (0, 0));
}

/// Scenario 1's other branches: the first load hits (DISCARD, the next chain
/// instruction is refused in that cycle), the second load hits (FLUSH: the held miss
/// of `a` goes out as a normal miss, the warp replays from the hit load, index 1).
#[test]
fn oq_scenario_1_l1_hits_discard_or_flush() {
    let c = preset("llc_compute_paper");
    let mut b = Bench::new(&c, 15);
    let ch = chain(Pattern::get(2).unwrap(), &[line(5, 1), line(5, 2)], 8, [0, 0], 0, 0xff, 20);
    b.step(|i| issue(i, 3, ch[0]));
    let o = b.step(|i| {
        i.l1r_valid = true;
        i.l1r_hit = true;
        issue(i, 3, ch[1]);
    });
    assert!(o.evl_valid && o.evl_wid == 3 && !o.ci_ready);
    assert_eq!(b.step(|_| {}).st_count, 0);

    b.step(|i| issue(i, 4, ch[0]));
    b.step(|i| {
        i.l1r_valid = true;
        issue(i, 4, ch[1]);
    });
    let o = b.step(|i| {
        i.l1r_valid = true;
        i.l1r_hit = true;
        issue(i, 4, ch[2]);
    });
    assert!(!o.ci_ready && !o.evl_valid);
    let o = b.step(|i| i.fm_ready = false).clone();
    assert!(o.fm_valid && o.fm_wid == 4 && o.fm_addr == line(5, 1) << 7 && o.fm_dst == 20 && o.fm_mask == 0xff && !o.ci_ready);
    assert_eq!(o.st_warp_wait, 1 << 4);
    let o = b.step(|i| i.fm_ready = true);
    assert!(o.evf_valid && o.evf_wid == 4 && o.evf_replay_idx == 1 && !o.evf_movi_valid);
    let o = b.step(|_| {});
    assert!(!o.fm_valid && o.st_count == 0 && o.ci_ready);
}

/// Early EMN check (spec §1.3.4 (d)): core 15 has no EMN for (L0, L6) (Fig. 3), so the
/// chain flushes once the second load's miss is known; both held misses go out in
/// chain order, one per cycle, and the warp replays from the ALU (index 2).
#[test]
fn oq_no_emn_flushes_both_held_misses_in_order() {
    let c = preset("llc_compute_paper");
    let mut b = Bench::new(&c, 15);
    let ch = chain(Pattern::get(1).unwrap(), &[line(0, 1), line(6, 1), line(0, 2)], 8, [0, 0], 0, 0xf0, 30);
    b.step(|i| issue(i, 9, ch[0]));
    b.step(|i| {
        i.l1r_valid = true;
        issue(i, 9, ch[1]);
    });
    let o = b.step(|i| i.l1r_valid = true);
    assert!(!o.fm_valid);
    let o = b.step(|i| {
        i.fm_ready = true;
        issue(i, 9, ch[2]);
    });
    assert!(!o.ci_ready, "the ALU is refused while the flush drains");
    assert!(o.fm_valid && o.fm_addr == line(0, 1) << 7 && o.fm_dst == 30 && !o.evf_valid);
    let o = b.step(|i| i.fm_ready = true);
    assert!(o.fm_valid && o.fm_addr == line(6, 1) << 7 && o.fm_dst == 31);
    assert!(o.evf_valid && o.evf_wid == 9 && o.evf_replay_idx == 2);
}

/// Fig. 10 scenario 2/3 (SQ full at the EMN: fallback): pattern 7 `c = a * i`; the load
/// data comes back as FB_A; the OQ writes it and the `ld i` immediate and the warp
/// re-executes from the ALU (index 2).
#[test]
fn oq_fallback_writes_load_and_immediate_then_replays() {
    let c = preset("llc_compute_paper");
    let mut b = Bench::new(&c, 15);
    let ch = chain(Pattern::get(7).unwrap(), &[line(5, 1), line(5, 2)], 8, [10, 0], 0x4000_0000, 0xffff, 40);
    b.step(|i| issue(i, 2, ch[0]));
    b.step(|i| {
        i.l1r_valid = true;
        issue(i, 2, ch[1]);
    });
    b.step(|i| issue(i, 2, ch[2]));
    b.step(|i| issue(i, 2, ch[3]));
    let o = b.step(|i| i.cp_ready = true).clone();
    let cp = ComputePacket::decode(&o.cp_flit);
    assert_eq!((cp.dst_node, cp.pattern, cp.imm, cp.op0), (5 * 8 + 6, 7, 0x4000_0000, 10), "same-MC chain: the EMN is LLC 5");
    let data: Vec<u32> = (0..32).collect();
    let o = b.step(|i| {
        i.rsp_valid = true;
        i.rsp_kind = RSP_FB_A;
        i.rsp_tag = 0;
        i.rsp_data = data.clone();
    });
    assert!(o.evr_valid && o.evr_kind == EV_FB_REPLAY && o.evr_reg == 40 && o.evr_data == data);
    assert!(o.evr_movi_valid && o.evr_movi_reg == 41 && o.evr_movi_imm == 0x4000_0000 && o.evr_replay_idx == 2);
    // a second response for the freed tag is an error, and changes nothing
    let o = b.step(|i| {
        i.rsp_valid = true;
        i.rsp_kind = RSP_ACK;
        i.rsp_tag = 0;
    });
    assert!(o.err && !o.evr_valid);
}

/// Scenario 3 (divergence, spec §2.6 v1 `discard`): a memory-divergent load flushes the
/// chain after its miss.
#[test]
fn oq_memory_divergent_chain_is_flushed() {
    let c = preset("llc_compute_paper");
    let mut b = Bench::new(&c, 15);
    let mut ch = chain(Pattern::get(3).unwrap(), &[line(5, 1), line(5, 2)], 8, [0, 0], 0, 0xffff_ffff, 50);
    ch[0].unit_stride = false;
    b.step(|i| issue(i, 1, ch[0]));
    b.step(|i| i.l1r_valid = true);
    let o = b.step(|i| i.fm_ready = true);
    assert!(o.fm_valid && o.evf_valid && o.evf_replay_idx == 1);
}

/// OQSR full at a `01` (paper scenario 2a): DISCARD in the same cycle, nothing stalls,
/// nothing is allocated; with `cpgu_busy_policy = wait` a `01` waits while a chain forms.
#[test]
fn oq_full_discards_and_forming_chain_makes_a_first_wait() {
    let c = preset("llc_compute_small");
    let mut b = Bench::new(&c, 0);
    let n_mc = c.placement.mcs.len() as u32;
    let copy = |k: u64| chain(Pattern::get(3).unwrap(), &[2 * k, 2 * k + 2], n_mc, [0, 0], 0, 0xff, 0);
    for w in 0..4 {
        let ch = copy(w);
        b.step(|i| issue(i, w as u32, ch[0]));
        let o = b.step(|i| {
            i.l1r_valid = true;
            issue(i, w as u32, ch[1]);
        });
        assert!(o.ci_ready);
        let o = b.step(|i| i.cp_ready = true);
        assert!(o.cp_valid, "chain {w}");
    }
    let o = b.step(|i| issue(i, 5, copy(9)[0]));
    assert_eq!(o.st_count, 4);
    assert!(o.st_full && o.ci_ready && o.evc_valid && o.evc_wid == 5);
    assert_eq!(b.step(|_| {}).st_count, 4);
    let mut b = Bench::new(&c, 0);
    b.step(|i| issue(i, 1, copy(1)[0]));
    let o = b.step(|i| issue(i, 2, copy(2)[0]));
    assert!(!o.ci_ready && !o.evc_valid, "wait policy: the second 01 waits");
    assert_eq!(InstrKind::Ld.code(), 0);
}
