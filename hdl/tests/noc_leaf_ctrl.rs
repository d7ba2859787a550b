//! Tests of `hdl_gen::noc::leaf::ctrl` (`hdl/src/noc/leaf/ctrl.rs`).

use crate::leaf_check::{bv, lint_and_synth, noc_config, noc_preset, val, LeafSim, Rng, NOC_EIGHT_GROUPS, NOC_SHORT_4X4};
use golden::noc::config::NocConfig;
use golden::noc::gom::window_lengths;
use golden::noc::hinge_router::{CAPTURED, IDLE, TURNING};
use golden::noc::link::{gomcfg_apply, gomcfg_payload, T_DATA, T_GOMCFG, T_STATUS};
use golden::noc::overlay_ctrl::{self, Live};
use hdl_gen::noc::leaf::ctrl::*;

#[test]
fn overlay_ctrl_is_lint_clean_and_synthesizable() {
    lint_and_synth(OverlayCtrl::<8>::new(&noc_preset("noc_macro_4x4")), "macro_ovl_ctrl_noc_macro_4x4");
}

/// The controller against golden's `OverlayCtrl` plus the router's T-pending
/// register, for `epochs` epochs: the latches carry random flits, some of them
/// CAPTURED GOMCFG flits with window sets from `window_lengths` (the lowest
/// latch's is written, as in golden's router). Every output, every cycle.
fn ctrl_vs_golden<const SCHW: usize>(c: &NocConfig, epochs: u32, seed: u64) -> Result<(), String> {
    let mut s = LeafSim::clocked(OverlayCtrl::<SCHW>::new(c), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut g = overlay_ctrl::OverlayCtrl::new(c);
    let mut tpend = c.default_windows.clone();
    let mut r = Rng::new(seed);
    let ow = c.sw() + 1;
    let none = (1u128 << ow) - 1;
    let mut swapped = 0;
    for cyc in 0..epochs * c.epoch_len() {
        let mut write = None;
        for d in 0..5 {
            let st = [IDLE, CAPTURED, CAPTURED, TURNING][r.below(4) as usize];
            let ty = if r.pct(6) { T_GOMCFG } else { [T_DATA, T_STATUS][r.below(2) as usize] };
            let pay = if ty == T_GOMCFG {
                let w: Vec<u64> = (0..c.g()).map(|_| r.below(50)).collect();
                gomcfg_payload(r.below(golden::noc::link::gomcfg_flits(c.g()) as u64) as u32, &window_lengths(&w, c.reply.period, c.reply.t_min))
            } else {
                r.next()
            };
            s.pay_i[d].next = bv(pay as u128);
            s.ty_i[d].next = bv(ty as u128);
            s.st_i[d].next = bv(st as u128);
            if st == CAPTURED && ty == T_GOMCFG && write.is_none() {
                write = Some(pay);
            }
        }
        s.settle();
        let o = g.out();
        let (a, b) = match o.live {
            Live::None => (None, None),
            Live::Gom => (Some(c.m()), None),
            Live::Group(j) => (Some(c.groups[j][0]), c.groups[j].get(1).copied()),
        };
        let code = |m: Option<usize>, none: u128| m.map_or(none, |i| i as u128);
        let sched = code(a, none) | code(b, none) << ow | (o.reconf as u128) << (2 * ow) | (o.prologue as u128) << (2 * ow + 1);
        let want = (code(a, 0xf), code(b, 0xf), o.slot, o.final_slot, o.last_period, o.gom_slot, o.ecyc as u128, sched);
        let got = (
            val(&s.ovl_a_o),
            val(&s.ovl_b_o),
            [s.slot0_o.val(), s.slot1_o.val()],
            [s.fin0_o.val(), s.fin1_o.val()],
            s.last_period_o.val(),
            s.gom_slot_o.val(),
            val(&s.ecyc_o),
            val(&s.sched_o),
        );
        if got != want {
            return Err(format!("cycle {cyc}: (ovl_a, ovl_b, slot, final, last_period, gom_slot, ecyc, sched) = {got:x?}, golden {want:x?}"));
        }
        s.tick();
        let before = g.t.clone();
        g.clock(&tpend);
        swapped += (g.t != before) as u32;
        if let Some(p) = write {
            gomcfg_apply(p, &mut tpend);
        }
    }
    assert!(swapped >= epochs - 1, "new window sets took effect ({swapped} swaps)");
    Ok(())
}

#[test]
fn overlay_ctrl_matches_golden_controller() {
    ctrl_vs_golden::<8>(&noc_config("leaf_short_4x4", NOC_SHORT_4X4), 4, 41).unwrap();
    // eight groups: two GOMCFG flits, interval 3, 3-bit MC indices
    let c = noc_config("leaf_eight_groups", NOC_EIGHT_GROUPS);
    assert_eq!(c.g(), 8);
    ctrl_vs_golden::<10>(&c, 4, 42).unwrap();
}
