//! Tests of `hdl_gen::noc::leaf::gom` (`hdl/src/noc/leaf/gom.rs`).
//!
//! The behaviour runs on the emitted Verilog (Icarus), not on rust-hdl's model:
//! `update()` selects `c_budget[k_r]`, and right after the last multiply step
//! (`k_r` = 10) rust-hdl evaluates the block once with the previous cycle's
//! `ecyc_i` still inside the multiply window, where `Bits::get_bit(10)` of a
//! 10-bit value panics. In hardware that evaluation never happens (and the branch
//! is not taken once `ecyc_i` moves on), so the Verilog is fine, but the model
//! cannot be driven by a testbench.

use crate::leaf_check::{check_outs, emit, lint_and_synth, noc_config, noc_preset, outs, rtl_run, Outs, Rng, NOC_EIGHT_GROUPS, NOC_SHORT_4X4};
use golden::noc::config::NocConfig;
use golden::noc::gom::GomMutation;
use golden::noc::link::{status_payload, Flit, LinkFmt, T_DATA, T_STATUS};
use hdl_gen::noc::leaf::gom::*;

#[test]
fn gom_is_lint_clean_and_synthesizable() {
    lint_and_synth(Gom::<75>::new(&noc_preset("noc_macro_4x4")), "macro_gom_noc_macro_4x4");
}

type Cycles = Vec<Vec<(&'static str, u128)>>;

/// Stimulus and golden's broadcast for `epochs` epochs of golden's `Gom` (with
/// `mutation` planted): STATUS flits from random MCs with random counters at
/// random cycles (and DATA flits, which the leaf must ignore and the mesh never
/// hands golden), the epoch counter as the controller runs it; cycle 0 resets.
fn vectors(c: &NocConfig, mutation: Option<GomMutation>, epochs: u32, seed: u64) -> (Cycles, Vec<Outs>) {
    let mut g = golden::noc::gom::Gom::new(c);
    g.mutation = mutation;
    let f = LinkFmt::new(c);
    let mut r = Rng::new(seed);
    let (mut cycles, mut want): (Cycles, Vec<Outs>) = (vec![vec![("rst_i", 1)]], vec![Outs::new()]);
    let mut uneven = 0;
    for cyc in 0..epochs * c.epoch_len() {
        let ecyc = cyc % c.epoch_len();
        let mc = r.below(c.m() as u64) as u32;
        // small counters some epochs, large ones others
        let scale = if (cyc / c.epoch_len()).is_multiple_of(2) { 8 } else { 24 };
        let (arr, occ) = (r.bits(scale.min(16)) as u32, r.bits(scale) as u32);
        let flit = |ty, payload| f.pack(&Flit { valid: true, ty, head: true, tail: true, src: mc, dst_x: c.gom.0, dst_y: c.gom.1, payload });
        let (link, to_golden) = match r.below(10) {
            0 | 1 => {
                let l = flit(T_STATUS, status_payload(mc, arr, occ));
                (l, l)
            }
            2 => (flit(T_DATA, r.next()), 0),
            _ => (0, 0),
        };
        cycles.push(vec![("rst_i", 0), ("ecyc_i", ecyc as u128), ("status_i", link)]);
        let inj = g.inject(ecyc);
        want.push(outs(&[("inj_v_o", (inj != 0) as u128), ("inj_link_o", inj)]));
        if inj != 0 && g.result.iter().any(|&t| t != g.result[0]) {
            uneven += 1;
        }
        g.eval(ecyc, to_golden);
        g.commit();
    }
    assert!(uneven >= epochs - 1, "weighted window sets were broadcast ({uneven})");
    (cycles, want)
}

/// The leaf's broadcast (valid and link) every cycle against golden's; the error
/// names the first differing cycle.
fn gom_vs_golden<const LW: usize>(c: &NocConfig, name: &str, mutation: Option<GomMutation>, seed: u64) -> Result<(), String> {
    let (cycles, want) = vectors(c, mutation, 6, seed);
    let got = rtl_run(&emit(Gom::<LW>::new(c), name), name, &cycles);
    check_outs(&got, &want, 1)
}

#[test]
fn gom_matches_golden_gom() {
    gom_vs_golden::<75>(&noc_config("leaf_short_4x4", NOC_SHORT_4X4), "gom_short", None, 61).unwrap();
    // eight groups: both GOMCFG flits, other weights
    gom_vs_golden::<76>(&noc_config("leaf_eight_groups", NOC_EIGHT_GROUPS), "gom_eight", None, 62).unwrap();
}

/// The comparison can fail: golden with its planted `NoRemainder` bug (ΣT < K)
/// disagrees with the leaf's largest-remainder rounding at the broadcast.
#[test]
fn gom_check_catches_a_planted_gom_bug() {
    let c = noc_config("leaf_short_4x4", NOC_SHORT_4X4);
    let e = gom_vs_golden::<75>(&c, "gom_short", Some(GomMutation::NoRemainder), 61).expect_err("the mutant differs");
    assert!(e.contains("inj_link_o"), "{e}");
}
