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
