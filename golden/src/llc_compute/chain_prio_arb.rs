//! Chain-aware fetch/issue priority (spec §1.2, block `chain_prio_arb` of §6.3): one
//! registered priority warp per core. The warp that issues a `01` becomes the priority
//! warp (if none is held) and is granted first whenever it is ready, until its `11`
//! issues or the chain is aborted (DISCARD/FLUSH). Otherwise the grant follows the GTO
//! order. With the CPGU busy a warp whose next instruction is a `01` is not issuable
//! (`cpgu_busy_policy = wait`). The same block serves fetch and issue.

use crate::model::Model;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainPrioIn {
    pub rst: bool,
    pub ready: Vec<bool>,
    pub tag_first: Vec<bool>,
    pub tag_last: Vec<bool>,
    pub cpgu_busy: bool,
    /// Warp ids, highest GTO priority first.
    pub gto_order: Vec<u32>,
    /// The priority warp's chain was discarded or flushed.
    pub abort: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChainPrioOut {
    pub grant: Option<u32>,
    pub prio_valid: bool,
    pub prio_wid: u32,
}

pub struct ChainPrioArb {
    pub warps: usize,
    pub prio: Option<u32>,
    next: Option<Option<u32>>,
}

impl ChainPrioArb {
    pub fn new(warps: usize) -> Self {
        Self { warps, prio: None, next: None }
    }
}

impl Model for ChainPrioArb {
    type In = ChainPrioIn;
    type Out = ChainPrioOut;

    fn idle_inputs(&self) -> ChainPrioIn {
        let w = self.warps;
        ChainPrioIn { rst: false, ready: vec![false; w], tag_first: vec![false; w], tag_last: vec![false; w], cpgu_busy: false, gto_order: (0..w as u32).collect(), abort: false }
    }

    fn new_outputs(&self) -> ChainPrioOut {
        ChainPrioOut::default()
    }

    fn assert_reset(i: &mut ChainPrioIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &ChainPrioIn, o: &mut ChainPrioOut) {
        o.prio_valid = self.prio.is_some();
        o.prio_wid = self.prio.unwrap_or(0);
        let issuable = |w: u32| i.ready[w as usize] && !(i.tag_first[w as usize] && i.cpgu_busy);
        o.grant = match self.prio {
            Some(p) if issuable(p) => Some(p),
            _ => i.gto_order.iter().copied().find(|w| issuable(*w)),
        };
        let mut next = self.prio;
        if i.abort {
            next = None;
        }
        if let Some(g) = o.grant {
            if i.tag_first[g as usize] && next.is_none() {
                next = Some(g);
            } else if i.tag_last[g as usize] && next == Some(g) {
                next = None;
            }
        }
        self.next = Some(if i.rst { None } else { next });
    }

    fn commit(&mut self, _i: &ChainPrioIn) {
        if let Some(n) = self.next.take() {
            self.prio = n;
        }
    }
}
