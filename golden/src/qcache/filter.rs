//! `qc_transition_filter` (spec §1.2, §5 "Companion generated blocks"): one per L2 bank,
//! it turns the (current, next) MOESI state of a line transition, the kind of request
//! and the requester's domain into the monitor's PRODUCE / CONSUME / SPILL strobes.
//!
//! The rule of spec §1.2, one line each ([`TransitionFilter::classify`]):
//!
//! * **PRODUCE**: a local write or atomic makes the line M from I (or not present), S or
//!   E; from O only with `COUNT_O_TO_M`. A write to a line already M is no event.
//! * **CONSUME**: a forwarded request of another domain (Fwd_GETS: M→O, Fwd_GETX or an
//!   invalidation with data: M→I) hits an M line; a local read of an M line only with
//!   `COUNT_LOCAL_HIT_M`.
//! * **SPILL**: the replacement writeback of an M line (an O line's writeback is not: it
//!   was consumed already).
//!
//! The GPU model's hook ([`super::hook`]) classifies its L2 accesses, fills, writebacks
//! and CPU consumptions with the same [`TransitionFilter::classify`]; the generated
//! Verilog registers the strobes (one cycle), as [`FilterBank`] does.

use crate::model::Model;

/// MOESI state codes on `cur_state` / `next_state` ([OC]); 5-7 read as I (not present).
pub mod moesi {
    pub const I: u8 = 0;
    pub const S: u8 = 1;
    pub const E: u8 = 2;
    pub const O: u8 = 3;
    pub const M: u8 = 4;
    pub const NAMES: [&str; 5] = ["I", "S", "E", "O", "M"];
}

/// Request kinds on `req_type` ([OC]); 5-7 are no request (never an event).
pub mod req {
    /// A read by the bank's own side (GETS).
    pub const READ: u8 = 0;
    /// A write or atomic by the bank's own side (GETX, upgrade).
    pub const WRITE: u8 = 1;
    /// A forwarded read of another domain (Fwd_GETS).
    pub const FWD_GETS: u8 = 2;
    /// A forwarded write or invalidation with data of another domain (Fwd_GETX, Inv).
    pub const FWD_GETX: u8 = 3;
    /// A replacement writeback (PUTX).
    pub const WRITEBACK: u8 = 4;
    pub const NAMES: [&str; 5] = ["READ", "WRITE", "FWD_GETS", "FWD_GETX", "WRITEBACK"];
}

/// One line transition as a bank's transition logic sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transition {
    pub cur: u8,
    pub next: u8,
    pub req: u8,
    pub dom: u8,
    /// The requester is the bank's own side (not a forwarded request of another domain).
    pub local: bool,
}

/// The strobes one transition raises.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Strobes {
    pub prod: bool,
    pub cons: bool,
    pub spill: bool,
}

/// The filter's options (spec §1.2 [OC]; both 0 by default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct TransitionFilter {
    pub count_o_to_m: bool,
    pub count_local_hit_m: bool,
}

impl TransitionFilter {
    /// The strobes of transition `t` (spec §1.2's table).
    pub fn classify(&self, t: &Transition) -> Strobes {
        use moesi::*;
        let from_m = t.cur == M;
        let before_m = match t.cur {
            O => self.count_o_to_m,
            M => false,
            _ => true, // I (or not present: 5-7), S, E
        };
        Strobes {
            prod: t.local && t.req == req::WRITE && t.next == M && before_m,
            cons: from_m && (!t.local && matches!(t.req, req::FWD_GETS | req::FWD_GETX) || t.local && self.count_local_hit_m && t.req == req::READ),
            spill: from_m && t.req == req::WRITEBACK,
        }
    }
}

/// Planted bugs for the checker tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterMutation {
    /// An O line's writeback counts as a SPILL (§1.2 says it was consumed already).
    SpillFromO,
}

/// One cycle's inputs of `nbanks` filters.
#[derive(Debug, Clone, Default)]
pub struct FilterInputs {
    pub rst: bool,
    /// Per bank: a transition this cycle.
    pub v: Vec<bool>,
    pub t: Vec<Transition>,
}

/// The registered strobes, in the monitor's input shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilterOutputs {
    pub ev_prod: u64,
    pub ev_cons: u64,
    pub ev_spill: u64,
    pub ev_prod_dom: Vec<u8>,
    pub ev_cons_dom: Vec<u8>,
}

/// `qc_transition_filter`: the filters of every bank with their output registers.
#[derive(Debug, Clone)]
pub struct FilterBank {
    pub filter: TransitionFilter,
    pub nbanks: usize,
    r: FilterOutputs,
    next: FilterOutputs,
    pub mutation: Option<FilterMutation>,
}

impl FilterBank {
    pub fn new(filter: TransitionFilter, nbanks: usize) -> FilterBank {
        let z = FilterOutputs { ev_prod_dom: vec![0; nbanks], ev_cons_dom: vec![0; nbanks], ..Default::default() };
        FilterBank { filter, nbanks, r: z.clone(), next: z, mutation: None }
    }

    fn step(&self, i: &FilterInputs) -> FilterOutputs {
        let mut o = FilterOutputs { ev_prod_dom: vec![0; self.nbanks], ev_cons_dom: vec![0; self.nbanks], ..Default::default() };
        if i.rst {
            return o;
        }
        for b in 0..self.nbanks {
            let t = &i.t[b];
            let mut s = if i.v[b] { self.filter.classify(t) } else { Strobes::default() };
            if self.mutation == Some(FilterMutation::SpillFromO) && i.v[b] && t.cur == moesi::O && t.req == req::WRITEBACK {
                s.spill = true;
            }
            o.ev_prod |= (s.prod as u64) << b;
            o.ev_cons |= (s.cons as u64) << b;
            o.ev_spill |= (s.spill as u64) << b;
            // the domain registers follow the strobe (0 without one)
            o.ev_prod_dom[b] = if s.prod { t.dom } else { 0 };
            o.ev_cons_dom[b] = if s.cons { t.dom } else { 0 };
        }
        o
    }
}

impl Model for FilterBank {
    type In = FilterInputs;
    type Out = FilterOutputs;

    fn idle_inputs(&self) -> FilterInputs {
        FilterInputs { rst: false, v: vec![false; self.nbanks], t: vec![Transition::default(); self.nbanks] }
    }

    fn new_outputs(&self) -> FilterOutputs {
        self.r.clone()
    }

    fn eval(&mut self, inputs: &FilterInputs, outputs: &mut FilterOutputs) {
        outputs.clone_from(&self.r);
        self.next = self.step(inputs);
    }

    fn commit(&mut self, _inputs: &FilterInputs) {
        std::mem::swap(&mut self.r, &mut self.next);
    }

    fn assert_reset(inputs: &mut FilterInputs) {
        inputs.rst = true;
    }
}
