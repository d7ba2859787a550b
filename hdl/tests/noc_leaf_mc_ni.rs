//! Tests of `hdl_gen::noc::leaf::mc_ni` (`hdl/src/noc/leaf/mc_ni.rs`).

use crate::leaf_check::{bv, lint_and_synth, noc_config, noc_preset, val, LeafSim, Rng, NOC_EIGHT_GROUPS, NOC_SHORT_4X4};
use golden::noc::config::NocConfig;
use golden::noc::link::{status_fields, LinkFmt};
use golden::noc::mc_ni;
use hdl_gen::noc::leaf::mc_ni::*;

fn leaf<const LW: usize>(c: &NocConfig) -> McNi<LW, 9> {
    McNi::new(c.reply.reply_queue as usize, c.cw(), c.sw(), c.gom)
}

#[test]
fn mc_ni_is_lint_clean_and_synthesizable() {
    lint_and_synth(leaf::<75>(&noc_preset("noc_macro_4x4")), "macro_mc_ni_noc_macro_4x4");
}

/// MC `idx`'s NI against golden's `McNi` under random L2 pushes, grants and
/// STATUS slots: ready, valid and the offered link (data with src = the MC, or the
/// STATUS flit with the arrival and occupancy counters) every cycle.
fn ni_vs_golden<const LW: usize>(c: &NocConfig, idx: usize, seed: u64) {
    let mut s = LeafSim::clocked(leaf::<LW>(c), |b| &mut b.clk_i);
    s.mc_idx_i.next = bv(idx as u128);
    s.reset(|b| &mut b.rst_i);
    let mut g = mc_ni::McNi::new(c, idx);
    let f = LinkFmt::new(c);
    let mut r = Rng::new(seed);
    let (mut full, mut statuses) = (false, 0);
    for cyc in 0..600 {
        let (push, link) = (r.pct(55), r.bits(LW as u32));
        let grant = r.pct(if cyc % 200 < 100 { 30 } else { 70 });
        let status = r.pct(4);
        s.push_v_i.next = push;
        s.push_link_i.next = bv(link);
        s.grant_i.next = grant;
        s.status_i.next = status;
        s.settle();
        let o = g.out(status);
        let got = (s.ready_o.val(), s.loc_in_v_o.val(), val(&s.loc_in_link_o));
        assert_eq!(got, (o.ready, o.loc_in_valid, o.loc_in_link), "MC {idx}, cycle {cyc}: (ready, valid, link)");
        full |= !o.ready;
        if status && grant && status_fields(f.unpack(o.loc_in_link).payload).2 > 0 {
            statuses += 1;
        }
        g.eval(push, link, grant, status);
        s.tick();
        g.commit();
    }
    assert!(full && statuses > 3, "the queue filled ({full}) and STATUS carried occupancy ({statuses})");
}

#[test]
fn mc_ni_matches_golden_ni() {
    ni_vs_golden::<75>(&noc_config("leaf_short_4x4", NOC_SHORT_4X4), 2, 51);
    ni_vs_golden::<76>(&noc_config("leaf_eight_groups", NOC_EIGHT_GROUPS), 6, 52);
}
