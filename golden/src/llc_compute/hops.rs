//! The zero-load hop model of spec §2.7 (paper Sec. 3): every message of one chain,
//! with and without offloading, and its hop and weighted-hop counts.
//!
//! Hops of a message = links on its minimal dimension-order route (injection and
//! ejection channels are not counted); weighted hops = hops × flits.

use serde::Serialize;

use super::chain::{Pattern, DATA_FLITS};
use super::emn::Node;

/// One packet of the hop accounting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Msg {
    pub what: &'static str,
    pub from: Node,
    pub to: Node,
    pub flits: u32,
}

impl Msg {
    pub fn hops(&self) -> u32 {
        self.from.manhattan(self.to)
    }
}

/// Hop and weighted-hop totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Hops {
    pub hops: u32,
    pub weighted: u32,
}

pub fn total(msgs: &[Msg]) -> Hops {
    msgs.iter().fold(Hops::default(), |h, m| Hops { hops: h.hops + m.hops(), weighted: h.weighted + m.hops() * m.flits })
}

/// The operand homes of one chain instance: the LLC node of each load, of the store.
#[derive(Debug, Clone)]
pub struct ChainHomes {
    pub loads: Vec<Node>,
    pub store: Option<Node>,
}

/// The chain run by the core: each load a request and a data reply, the store a data
/// packet and its ack; a DATA/BITMAP result stays in the core.
pub fn baseline(src: Node, homes: &ChainHomes) -> Vec<Msg> {
    let mut v = Vec::new();
    for &l in &homes.loads {
        v.push(Msg { what: "load request", from: src, to: l, flits: 1 });
        v.push(Msg { what: "load data", from: l, to: src, flits: DATA_FLITS });
    }
    if let Some(c) = homes.store {
        v.push(Msg { what: "store", from: src, to: c, flits: DATA_FLITS });
        v.push(Msg { what: "store ack", from: c, to: src, flits: 1 });
    }
    v
}

/// The chain offloaded to `emn` (spec §1.6.2, §1.7): the CP, the EMN's loads and their
/// data, its store and the store's ack, then the response to the source.
pub fn offloaded(src: Node, emn: Node, homes: &ChainHomes, pattern: &Pattern) -> Vec<Msg> {
    let mut v = vec![Msg { what: "ComputePacket", from: src, to: emn, flits: 1 }];
    for &l in &homes.loads {
        v.push(Msg { what: "load request", from: emn, to: l, flits: 1 });
        v.push(Msg { what: "load data", from: l, to: emn, flits: DATA_FLITS });
    }
    if let Some(c) = homes.store {
        v.push(Msg { what: "store", from: emn, to: c, flits: DATA_FLITS });
        v.push(Msg { what: "store ack", from: c, to: emn, flits: 1 });
    }
    v.push(Msg { what: "response", from: emn, to: src, flits: pattern.resp.flits() });
    v
}
