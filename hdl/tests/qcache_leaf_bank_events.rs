//! Tests of `hdl_gen::qcache::leaf::bank_events` (`hdl/src/qcache/leaf/bank_events.rs`).

use crate::leaf_check::{bv, check_outs, emit, lint_and_synth, outs, rtl_run, val, LeafSim};
use hdl_gen::qcache::leaf::bank_events::*;

#[test]
fn bank_events_is_lint_clean_and_synthesizable() {
    lint_and_synth(BankEvents::<3, 3, 5>::default(), "qc_bank_events_p3_d5");
    lint_and_synth(BankEvents::<2, 1, 2>::default(), "qc_bank_events_p2_d2");
    lint_and_synth(BankEvents::<6, 3, 8>::default(), "qc_bank_events_p6_d8");
}

/// `(prod, prod_dom, cons, cons_dom, spill, np, nc, ns, pm, cm)` in, the five sums out.
type Vec5 = ((bool, u128, bool, u128, bool, u128, u128, u128, u128, u128), (u128, u128, u128, u128, u128));

fn run<const PW: usize, const DW: usize, const ND: usize>(vs: &[Vec5]) {
    let mut s = LeafSim::comb(BankEvents::<PW, DW, ND>::default());
    for (k, ((p, pd, c, cd, sp, np, nc, ns, pm, cm), want)) in vs.iter().copied().enumerate() {
        s.prod_i.next = p;
        s.prod_dom_i.next = bv(pd);
        s.cons_i.next = c;
        s.cons_dom_i.next = bv(cd);
        s.spill_i.next = sp;
        s.np_i.next = bv(np);
        s.nc_i.next = bv(nc);
        s.ns_i.next = bv(ns);
        s.pm_i.next = bv(pm);
        s.cm_i.next = bv(cm);
        s.settle();
        let got = (val(&s.np_o), val(&s.nc_o), val(&s.ns_o), val(&s.pm_o), val(&s.cm_o));
        assert_eq!(got, want, "vector {k}");
    }
}

/// Five domains (3-bit ids): a strobe adds one to its count and sets its domain's
/// bit; no strobe passes the sums through whatever its domain field says; ids 5-7
/// name no domain (spec §1.2: 0-3 CPU cores, 4 GPU).
#[test]
fn a_bank_adds_its_strobes_and_domains_by_hand() {
    run::<3, 3, 5>(&[
        // nothing: pass-through, domains ignored
        ((false, 4, false, 2, false, 3, 2, 1, 0b00001, 0b00100), (3, 2, 1, 0b00001, 0b00100)),
        // GPU produces, CPU 1 consumes, a spill
        ((true, 4, true, 1, true, 0, 0, 0, 0, 0), (1, 1, 1, 0b10000, 0b00010)),
        // already-set bits stay; counts saturate nowhere (PW holds NB)
        ((true, 0, false, 3, false, 6, 5, 0, 0b10000, 0b00001), (7, 5, 0, 0b10001, 0b00001)),
        // ids 5, 6, 7 are no domain: counted, no mask bit
        ((true, 5, true, 7, false, 1, 1, 0, 0b00010, 0b00100), (2, 2, 0, 0b00010, 0b00100)),
        ((true, 6, false, 0, true, 0, 0, 6, 0, 0), (1, 0, 7, 0, 0)),
    ]);
    // two domains, 1-bit ids, 2-bit counts
    run::<2, 1, 2>(&[((true, 1, true, 0, true, 2, 0, 1, 0b01, 0b00), (3, 1, 2, 0b11, 0b01)), ((false, 1, true, 1, false, 0, 2, 0, 0, 0b01), (0, 3, 0, 0, 0b11))]);
}

/// The emitted Verilog under Icarus: a one-hot shifted past the ND-bit mask is 0 in
/// Verilog as in the model (ids 5-7 of five domains set no bit).
#[test]
fn bank_events_verilog_drops_ids_beyond_the_domains() {
    let ms = emit(BankEvents::<3, 3, 5>::default(), "qc_bank_events_p3_d5");
    let cycles: Vec<Vec<(&str, u128)>> = vec![
        vec![("prod_i", 1), ("prod_dom_i", 4), ("cons_i", 1), ("cons_dom_i", 1), ("spill_i", 1)],
        vec![("prod_dom_i", 5), ("cons_dom_i", 7), ("np_i", 1), ("nc_i", 1), ("pm_i", 0b00010), ("cm_i", 0b00100)],
        vec![("prod_i", 0), ("cons_i", 0), ("spill_i", 0), ("np_i", 6), ("pm_i", 0b10001)],
    ];
    let want = vec![
        outs(&[("np_o", 1), ("nc_o", 1), ("ns_o", 1), ("pm_o", 0b10000), ("cm_o", 0b00010)]),
        outs(&[("np_o", 2), ("nc_o", 2), ("ns_o", 1), ("pm_o", 0b00010), ("cm_o", 0b00100)]),
        outs(&[("np_o", 6), ("nc_o", 1), ("ns_o", 0), ("pm_o", 0b10001), ("cm_o", 0b00100)]),
    ];
    check_outs(&rtl_run(&ms, "qc_bank_events_p3_d5", &cycles), &want, 0).unwrap_or_else(|e| panic!("{e}"));
}
