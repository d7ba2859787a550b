//! One L2 bank's events (spec §1.2), as `golden::qcache::monitor::RateMonitor::step`
//! counts them: the running PRODUCE / CONSUME / SPILL counts of the banks before this
//! one (`np_i`, `nc_i`, `ns_i`, `PW` bits) plus this bank's strobes, and the running
//! producer / consumer domain masks (`ND` bits) with this bank's domain bit set when
//! its strobe is. A domain id at or above `ND` names no domain (a one-hot shifted out
//! of the mask). Combinational; the monitor chains one per bank, bank 0 first, from
//! zero counts and masks, so the last bank's outputs are the cycle's popcounts and
//! domain masks.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BankEvents<const PW: usize, const DW: usize, const ND: usize> {
    /// This bank's PRODUCE strobe and the producer's domain.
    pub prod_i: Signal<In, Bit>,
    pub prod_dom_i: Signal<In, Bits<DW>>,
    /// This bank's CONSUME strobe and the consumer's domain.
    pub cons_i: Signal<In, Bit>,
    pub cons_dom_i: Signal<In, Bits<DW>>,
    /// This bank's SPILL strobe.
    pub spill_i: Signal<In, Bit>,
    /// Counts and masks of the banks before this one.
    pub np_i: Signal<In, Bits<PW>>,
    pub nc_i: Signal<In, Bits<PW>>,
    pub ns_i: Signal<In, Bits<PW>>,
    pub pm_i: Signal<In, Bits<ND>>,
    pub cm_i: Signal<In, Bits<ND>>,
    /// Counts and masks including this bank.
    pub np_o: Signal<Out, Bits<PW>>,
    pub nc_o: Signal<Out, Bits<PW>>,
    pub ns_o: Signal<Out, Bits<PW>>,
    pub pm_o: Signal<Out, Bits<ND>>,
    pub cm_o: Signal<Out, Bits<ND>>,
    one: Constant<Bits<PW>>,
    dom0: Constant<Bits<ND>>,
}

impl<const PW: usize, const DW: usize, const ND: usize> Default for BankEvents<PW, DW, ND> {
    fn default() -> Self {
        assert!(ND >= 2 && ND <= 1 << DW, "{ND} domains need ids of at least clog2({ND}) bits, not {DW}");
        Self {
            prod_i: Default::default(),
            prod_dom_i: Default::default(),
            cons_i: Default::default(),
            cons_dom_i: Default::default(),
            spill_i: Default::default(),
            np_i: Default::default(),
            nc_i: Default::default(),
            ns_i: Default::default(),
            pm_i: Default::default(),
            cm_i: Default::default(),
            np_o: Default::default(),
            nc_o: Default::default(),
            ns_o: Default::default(),
            pm_o: Default::default(),
            cm_o: Default::default(),
            one: Constant::new(1u64.to_bits()),
            dom0: Constant::new(1u64.to_bits()),
        }
    }
}

impl<const PW: usize, const DW: usize, const ND: usize> Logic for BankEvents<PW, DW, ND> {
    #[hdl_gen]
    fn update(&mut self) {
        self.np_o.next = self.np_i.val();
        self.nc_o.next = self.nc_i.val();
        self.ns_o.next = self.ns_i.val();
        self.pm_o.next = self.pm_i.val();
        self.cm_o.next = self.cm_i.val();
        if self.prod_i.val() {
            self.np_o.next = self.np_i.val() + self.one.val();
            self.pm_o.next = self.pm_i.val() | (self.dom0.val() << self.prod_dom_i.val());
        }
        if self.cons_i.val() {
            self.nc_o.next = self.nc_i.val() + self.one.val();
            self.cm_o.next = self.cm_i.val() | (self.dom0.val() << self.cons_dom_i.val());
        }
        if self.spill_i.val() {
            self.ns_o.next = self.ns_i.val() + self.one.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, check_outs, emit, lint_and_synth, outs, rtl_run, val, LeafSim};

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
}
