//! The per-core EMN lookup table (spec §1.4, block `emn_lut` of §6.3): 64 entries of
//! `{valid, node}` indexed by `{MC(a), MC(b)}`, filled at reset from Algorithm 1's table
//! for the core, with an optional configuration write port. Reads are combinational
//! (the OQ looks the EMN up in the cycle it builds the packet); a write takes effect at
//! the clock edge.

use super::config::LlcComputeConfig;
use super::emn::{lut_word, Node};
use crate::model::Model;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EmnLutIn {
    pub rst: bool,
    pub rd_a: u32,
    pub rd_b: u32,
    pub cfg_we: bool,
    pub cfg_idx: u32,
    /// `{valid, node[NODE_W-1:0]}`.
    pub cfg_data: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EmnLutOut {
    pub rd_node: u32,
    pub rd_vld: bool,
}

pub struct EmnLut {
    pub n_mc: usize,
    pub node_w: u32,
    /// The reset contents (the `INIT_FILE`), index `a * n_mc + b`.
    pub init: Vec<u64>,
    pub words: Vec<u64>,
    next: Option<Vec<u64>>,
}

impl EmnLut {
    /// The table of the node at `node`.
    pub fn new(c: &LlcComputeConfig, node: Node) -> Self {
        let p = &c.placement;
        let node_w = c.node_w();
        let init: Vec<u64> = c.luts[p.id(node) as usize].iter().flatten().map(|e| lut_word(p, *e, node_w)).collect();
        Self { n_mc: p.mcs.len(), node_w, words: init.clone(), init, next: None }
    }
}

impl Model for EmnLut {
    type In = EmnLutIn;
    type Out = EmnLutOut;

    fn idle_inputs(&self) -> EmnLutIn {
        EmnLutIn::default()
    }

    fn new_outputs(&self) -> EmnLutOut {
        EmnLutOut::default()
    }

    fn assert_reset(i: &mut EmnLutIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &EmnLutIn, o: &mut EmnLutOut) {
        let idx = i.rd_a as usize * self.n_mc + i.rd_b as usize;
        let w = self.words.get(idx).copied().unwrap_or(0);
        o.rd_vld = (w >> self.node_w) & 1 == 1;
        o.rd_node = (w & ((1 << self.node_w) - 1)) as u32;
        let mut n = self.words.clone();
        if i.rst {
            n.clone_from(&self.init);
        } else if i.cfg_we && (i.cfg_idx as usize) < n.len() {
            n[i.cfg_idx as usize] = i.cfg_data & ((2 << self.node_w) - 1);
        }
        self.next = Some(n);
    }

    fn commit(&mut self, _i: &EmnLutIn) {
        if let Some(n) = self.next.take() {
            self.words = n;
        }
    }
}
