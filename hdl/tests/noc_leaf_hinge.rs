//! Tests of `hdl_gen::noc::leaf::hinge` (`hdl/src/noc/leaf/hinge.rs`).
//!
//! Instances at the paper's 4x4 platform (75-bit links, 2-bit coordinates).
//! The input selection is checked against golden's `HingeRouter` (its live
//! configuration, `eval`, `grant` and `bypass_out`) with the router's latches
//! set directly; the latches against golden's per-latch rule, transcribed.

use crate::leaf_check::{bv, lint_and_synth, noc_preset, val, LeafSim, Rng};
use golden::noc::config::NocConfig;
use golden::noc::hinge_router::{HingeRouter, Latch, RouterMutation, CAPTURED, IDLE, TURNING};
use golden::noc::link::{Flit, LinkFmt, T_DATA, T_GOMCFG, T_STATUS};
use golden::noc::overlay_ctrl::{CtrlOut, Live};
use golden::noc::route_rom::{E, L, N, S, W};
use hdl_gen::noc::leaf::hinge::*;

const LW: usize = 75;
const CW: usize = 2;
/// Overlay code "none" of the controller.
const NONE: u32 = 0xf;

#[test]
fn hinge_select_is_lint_clean_and_synthesizable() {
    lint_and_synth(HingeSelect::<LW, CW>::default(), "macro_hinge_sel_l75_c2");
}

#[test]
fn hinge_inject_is_lint_clean_and_synthesizable() {
    lint_and_synth(HingeInject::<LW>::default(), "macro_hinge_inj_l75");
}

#[test]
fn hinge_latch_is_lint_clean_and_synthesizable() {
    lint_and_synth(HingeLatch::<LW>::default(), "macro_hinge_latch_l75");
}

#[test]
fn hinge_end_latch_is_lint_clean_and_synthesizable() {
    lint_and_synth(HingeEndLatch::<LW>::default(), "macro_hinge_end_latch_l75");
}

#[test]
fn bypass_ew_is_lint_clean_and_synthesizable() {
    lint_and_synth(BypassEw::<LW>::default(), "macro_bypass_ew_l75");
}

#[test]
fn bypass_ns_is_lint_clean_and_synthesizable() {
    lint_and_synth(BypassNs::<LW>::default(), "macro_bypass_ns_l75");
}

/// A random reply link near router (x, y): data, STATUS or GOMCFG, a
/// destination in its row or column more often than not.
fn random_link(c: &NocConfig, f: &LinkFmt, r: &mut Rng, x: u32, y: u32) -> u128 {
    let n = c.n as u64;
    let ty = [T_DATA, T_DATA, T_STATUS, T_GOMCFG][r.below(4) as usize];
    let dst_x = if r.pct(60) { x } else { r.below(n) as u32 };
    let dst_y = if r.pct(40) { y } else { r.below(n) as u32 };
    let flit = Flit { valid: true, ty, head: true, tail: true, src: r.below(c.m() as u64) as u32, dst_x, dst_y, payload: r.next() };
    f.pack(&flit)
}

/// The live overlays' ROM addresses for a live configuration: (ovl_a, ovl_b).
fn live_rows(c: &NocConfig, live: Live) -> (u32, u32) {
    match live {
        Live::None => (NONE, NONE),
        Live::Gom => (c.m() as u32, NONE),
        Live::Group(g) => (c.groups[g][0] as u32, c.groups[g].get(1).map_or(NONE, |&i| i as u32)),
    }
}

/// Input selection, grant and bypass selects of router (x, y) for random latch
/// contents and controller outputs under every live configuration, against
/// golden's router (`mutation` planted in it). Returns the first disagreement.
fn select_vs_golden(c: &NocConfig, mutation: Option<RouterMutation>, seed: u64) -> Result<(), String> {
    let f = LinkFmt::new(c);
    let mut s = LeafSim::comb(HingeSelect::<LW, CW>::default());
    let mut r = Rng::new(seed);
    let lives: Vec<Live> = [Live::None, Live::Gom].into_iter().chain((0..c.g()).map(Live::Group)).collect();
    let (mut ejects, mut turns, mut drops) = (0u32, 0u32, 0u32);
    for id in 0..c.nodes() {
        let (x, y) = c.xy(id);
        let rom = &c.roms[id];
        for &live in &lives {
            for k in 0..12 {
                let mut g = HingeRouter::new(c, x, y);
                g.mutation = mutation;
                g.ctrl.live = live;
                for d in 0..5 {
                    let state = [IDLE, CAPTURED, CAPTURED, TURNING][r.below(4) as usize];
                    g.lat[d] = Latch { state, drive_n: r.pct(50), drive_s: r.pct(50), flit: random_link(c, &f, &mut r, x, y) };
                }
                let o = CtrlOut {
                    prologue: false,
                    reconf: false,
                    live,
                    slot: [r.pct(50), r.pct(50)],
                    final_slot: [r.pct(50), r.pct(50)],
                    last_period: r.pct(50),
                    gom_slot: r.pct(50),
                    ecyc: 0,
                };
                // ---- the leaf ----
                let (a, b) = live_rows(c, live);
                let row = |i: u32| rom.get(i as usize).map_or(0, |r| r.bits() as u128);
                s.row_a_i.next = bv(row(a));
                s.row_b_i.next = bv(row(b));
                s.ovl_a_i.next = bv(a as u128);
                s.ovl_b_i.next = bv(b as u128);
                s.x_i.next = bv(x as u128);
                s.y_i.next = bv(y as u128);
                let mc = c.mc_at(id);
                s.mc_i.next = mc.is_some();
                s.mc_idx_i.next = bv(mc.map_or(NONE as u128, |i| i as u128));
                s.ph_i.next = mc.is_some_and(|i| c.group_of[i].1 == 1);
                s.gom_i.next = c.gom_node() == id;
                s.slot0_i.next = o.slot[0];
                s.slot1_i.next = o.slot[1];
                s.fin0_i.next = o.final_slot[0];
                s.fin1_i.next = o.final_slot[1];
                s.last_period_i.next = o.last_period;
                s.gom_slot_i.next = o.gom_slot;
                for d in 0..5 {
                    s.lat_i[d].next = bv(g.lat[d].flit);
                    s.st_i[d].next = bv(g.lat[d].state as u128);
                }
                for (k3, d) in [E, W, L].into_iter().enumerate() {
                    s.dn_i[k3].next = g.lat[d].drive_n;
                    s.ds_i[k3].next = g.lat[d].drive_s;
                }
                s.settle();
                let (straight, inj) = (r.bits(LW as u32), r.bits(LW as u32));
                let leaf_e = if s.e_str_o.val() {
                    straight
                } else if s.e_inj_o.val() {
                    inj
                } else {
                    0
                };
                let leaf_w = if s.w_str_o.val() {
                    straight
                } else if s.w_inj_o.val() {
                    inj
                } else {
                    0
                };
                let leaf_n = if s.n_str_o.val() { straight } else { val(&s.n_drv_o) };
                let leaf_s = if s.s_str_o.val() { straight } else { val(&s.s_drv_o) };
                let cap_en: Vec<bool> = (0..5).map(|d| s.cap_en_o[d].val()).collect();
                let drop = (0..5).fold(0u8, |m, d| m | (s.drop_o[d].val() as u8) << d);
                let turn: Vec<(bool, bool)> = (0..3).map(|k3| (s.turn_n_o[k3].val(), s.turn_s_o[k3].val())).collect();
                let leaf = (s.grant_o.val(), s.status_o.val(), cap_en, drop, s.collision_o.val(), val(&s.loc_out_o), turn, [leaf_e, leaf_w, leaf_n, leaf_s]);
                // ---- golden ----
                let cfg = *g.live_cfg();
                let (grant, status) = g.grant(&o);
                let bypass = [E, W, N, S].map(|p| g.bypass_out(p, straight, inj));
                let out = g.eval(&[0; 5]);
                g.commit();
                let gturn: Vec<(bool, bool)> = [E, W, L].iter().map(|&d| (g.lat[d].state == TURNING && g.lat[d].drive_n, g.lat[d].state == TURNING && g.lat[d].drive_s)).collect();
                let gcap: Vec<bool> = (0..5).map(|d| cfg.uses >> d & 1 == 1).collect();
                let want = (grant, status, gcap, out.drop, out.collision, out.loc_out, gturn, bypass);
                if leaf != want {
                    return Err(format!(
                        "router ({x},{y}), live {live:?}, sample {k}: leaf {leaf:x?}\n golden {want:x?}\n(grant, status, cap_en, drop, collision, loc_out, turn N/S of E,W,L, bypass E,W,N,S)"
                    ));
                }
                ejects += out.ejects as u32;
                turns += out.turns as u32;
                drops += out.drop.count_ones();
            }
        }
    }
    assert!(ejects > 100 && turns > 20 && drops > 100, "the samples eject ({ejects}), turn ({turns}) and drop ({drops})");
    Ok(())
}

#[test]
fn hinge_select_matches_golden_router() {
    select_vs_golden(&noc_preset("noc_macro_4x4"), None, 31).unwrap();
}

/// The comparison can fail: golden with the planted `EjectIgnoresY` bug (a
/// column router ejects a flit meant for another row) disagrees with the leaf.
#[test]
fn hinge_select_check_catches_a_planted_router_bug() {
    let e = select_vs_golden(&noc_preset("noc_macro_4x4"), Some(RouterMutation::EjectIgnoresY), 31).expect_err("the mutant differs");
    assert!(e.contains("router"), "{e}");
}

/// `inj = v & grant ? link | valid : 0`.
#[test]
fn hinge_inject_sets_valid_on_a_transfer() {
    let mut s = LeafSim::comb(HingeInject::<LW>::default());
    let mut r = Rng::new(32);
    for _ in 0..64 {
        let (v, grant, link) = (r.pct(50), r.pct(50), r.bits(LW as u32 - 1));
        s.v_i.next = v;
        s.grant_i.next = grant;
        s.link_i.next = bv(link);
        s.settle();
        assert_eq!(val(&s.inj_o), if v && grant { link | 1 << (LW - 1) } else { 0 }, "v {v} grant {grant}");
    }
}

#[test]
fn bypass_muxes_select_their_sources() {
    let mut ew = LeafSim::comb(BypassEw::<LW>::default());
    let mut ns = LeafSim::comb(BypassNs::<LW>::default());
    let mut r = Rng::new(33);
    for _ in 0..32 {
        let (a, b) = (r.bits(LW as u32), r.bits(LW as u32));
        for sel in 0..4u32 {
            let (st, inj) = (sel & 1 == 1, sel & 2 == 2);
            ew.straight_i.next = bv(a);
            ew.inj_i.next = bv(b);
            ew.str_i.next = st;
            ew.inj_sel_i.next = inj;
            ew.settle();
            assert_eq!(
                val(&ew.out_o),
                if st {
                    a
                } else if inj {
                    b
                } else {
                    0
                },
                "E/W str {st} inj {inj}"
            );
            ns.straight_i.next = bv(a);
            ns.drv_i.next = bv(b);
            ns.str_i.next = st;
            ns.settle();
            assert_eq!(val(&ns.out_o), if st { a } else { b }, "N/S str {st}");
        }
    }
}

/// golden's latch rule (`HingeRouter::eval`, per latch): a valid wire with the
/// latch in use captures (an overrun if it was CAPTURED); otherwise a CAPTURED
/// latch turns (TURNING, driving N and/or S) when input selection says so, and
/// anything else goes IDLE; the flit is kept until the next capture.
fn latch_next(l: Latch, wire: u128, cap_en: bool, tn: bool, ts: bool) -> (Latch, bool) {
    let cap = wire >> (LW - 1) & 1 == 1 && cap_en;
    if cap {
        (Latch { state: CAPTURED, drive_n: false, drive_s: false, flit: wire }, l.state == CAPTURED)
    } else if tn || ts {
        (Latch { state: TURNING, drive_n: tn, drive_s: ts, flit: l.flit }, false)
    } else {
        (Latch { state: IDLE, drive_n: false, drive_s: false, flit: l.flit }, false)
    }
}

#[test]
fn hinge_latch_follows_golden_latch_rule() {
    let mut s = LeafSim::clocked(HingeLatch::<LW>::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut r = Rng::new(34);
    let mut l = Latch::default();
    let mut seen = [false; 3];
    for c in 0..400 {
        let wire = if r.pct(50) { r.bits(LW as u32) | 1 << (LW - 1) } else { r.bits(LW as u32 - 1) };
        let cap_en = r.pct(60);
        // input selection turns only CAPTURED latches
        let (tn, ts) = if l.state == CAPTURED { (r.pct(40), r.pct(40)) } else { (false, false) };
        s.wire_i.next = bv(wire);
        s.cap_en_i.next = cap_en;
        s.turn_n_i.next = tn;
        s.turn_s_i.next = ts;
        s.settle();
        let (next, overrun) = latch_next(l, wire, cap_en, tn, ts);
        assert_eq!(s.overrun_o.val(), overrun, "cycle {c}: overrun");
        s.tick();
        l = next;
        let got = (val(&s.st.q_o) as u8, val(&s.dn.q_o) == 1, val(&s.ds.q_o) == 1, val(&s.lat.q_o));
        assert_eq!(got, (l.state, l.drive_n, l.drive_s, l.flit), "cycle {c}: (state, drive N, drive S, flit)");
        seen[l.state as usize] = true;
    }
    assert_eq!(seen, [true; 3], "every latch state");
}

#[test]
fn hinge_end_latch_captures_and_never_turns() {
    let mut s = LeafSim::clocked(HingeEndLatch::<LW>::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    let mut r = Rng::new(35);
    let mut l = Latch::default();
    let mut overruns = 0;
    for c in 0..300 {
        let wire = if r.pct(50) { r.bits(LW as u32) | 1 << (LW - 1) } else { r.bits(LW as u32 - 1) };
        let cap_en = r.pct(60);
        s.wire_i.next = bv(wire);
        s.cap_en_i.next = cap_en;
        s.settle();
        let (next, overrun) = latch_next(l, wire, cap_en, false, false);
        assert_eq!(s.overrun_o.val(), overrun, "cycle {c}: overrun");
        overruns += overrun as u32;
        s.tick();
        l = next;
        assert_eq!((val(&s.st.q_o) as u8, val(&s.lat.q_o)), (l.state, l.flit), "cycle {c}: (state, flit)");
    }
    assert!(overruns > 0, "the vectors overrun");
}
