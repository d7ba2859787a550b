//! The one interface between a GPU model and its interconnect.
//!
//! SMs inject requests towards memory nodes, memory nodes inject replies towards SMs.
//! Every interconnect model — the ideal fixed-latency network here, the baseline
//! VC-router mesh and the MACRO-NoC planes — implements [`Network`], so the GPU model
//! runs unchanged on any of them and only timing differs.
//!
//! Cycle discipline: during a cycle the GPU model calls [`Network::can_inject`] /
//! [`Network::inject`] and [`Network::eject`] any number of times, then
//! [`Network::step`] once to advance the network by one clock.

use std::collections::VecDeque;

/// Traffic class; networks may carry classes on separate planes or VCs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Class {
    /// SM -> memory node (read request, write with data, atomic).
    Request,
    /// Memory node -> SM (read data, write ack).
    Reply,
}

/// A packet as the GPU model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    /// Unique per network instance; assigned by the sender.
    pub id: u64,
    /// Source and destination node ids (0..nodes()).
    pub src: usize,
    pub dst: usize,
    pub class: Class,
    /// Size in flits of the network's flit width (>= 1).
    pub flits: u32,
    /// Opaque to the network: the GPU model's handle for this transaction.
    pub tag: u64,
    /// Cycle at which the packet was handed to the network (set by `inject`).
    pub injected_at: u64,
}

/// Latency and traffic statistics every network keeps.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct NetStats {
    pub cycles: u64,
    pub packets_injected: u64,
    pub packets_delivered: u64,
    pub flits_delivered: u64,
    /// Sum over delivered packets of (delivery cycle - injection cycle).
    pub packet_latency_sum: u64,
    pub packet_latency_max: u64,
    /// Sum over delivered packets of routers traversed (0 for an ideal network).
    pub hops_sum: u64,
    /// Sum over delivered packets of flits x routers traversed: flit traversals of
    /// routers (and of the links between them), for the energy model.
    pub flit_hops_sum: u64,
    /// Per class: (packets delivered, latency sum).
    pub request: (u64, u64),
    pub reply: (u64, u64),
}

impl NetStats {
    pub fn mean_latency(&self) -> f64 {
        if self.packets_delivered == 0 {
            0.0
        } else {
            self.packet_latency_sum as f64 / self.packets_delivered as f64
        }
    }

    pub fn mean_hops(&self) -> f64 {
        if self.packets_delivered == 0 {
            0.0
        } else {
            self.hops_sum as f64 / self.packets_delivered as f64
        }
    }

    /// Record one delivery.
    pub fn delivered(&mut self, p: &Packet, now: u64, hops: u64) {
        let lat = now.saturating_sub(p.injected_at);
        self.packets_delivered += 1;
        self.flits_delivered += p.flits as u64;
        self.packet_latency_sum += lat;
        self.packet_latency_max = self.packet_latency_max.max(lat);
        self.hops_sum += hops;
        self.flit_hops_sum += p.flits as u64 * hops;
        let c = match p.class {
            Class::Request => &mut self.request,
            Class::Reply => &mut self.reply,
        };
        c.0 += 1;
        c.1 += lat;
    }
}

/// An interconnect between `nodes()` terminals.
pub trait Network {
    /// Number of terminals.
    fn nodes(&self) -> usize;
    /// Whether `src` can hand a packet of `class` to the network this cycle.
    fn can_inject(&self, src: usize, class: Class) -> bool;
    /// Hand a packet to the network (only after `can_inject` said yes).
    fn inject(&mut self, pkt: Packet);
    /// Take the next packet that has fully arrived at `node`, if any. Packets not
    /// taken stay in the node's ejection buffer and may back-pressure the network.
    fn eject(&mut self, node: usize) -> Option<Packet>;
    /// Advance one clock cycle.
    fn step(&mut self);
    /// Current cycle (number of `step`s so far).
    fn cycle(&self) -> u64;
    fn stats(&self) -> NetStats;
    /// Packets injected but not yet ejected.
    fn in_flight(&self) -> usize;
    /// Short description for reports ("ideal, 20 cycles", "baseline 8x8 mesh", ...).
    fn describe(&self) -> String;
}

/// A fixed-latency network with unbounded bandwidth: every packet arrives exactly
/// `latency` cycles after injection plus its serialization (`flits - 1` cycles),
/// in injection order per destination.
#[derive(Debug, Clone)]
pub struct IdealNetwork {
    nodes: usize,
    latency: u64,
    now: u64,
    /// (arrival cycle, packet), kept sorted by arrival per destination.
    pending: Vec<VecDeque<(u64, Packet)>>,
    arrived: Vec<VecDeque<Packet>>,
    stats: NetStats,
    in_flight: usize,
    /// The earliest arrival cycle in `pending` (`u64::MAX`: none): a step before it
    /// moves nothing, so it visits no node.
    next_arrival: u64,
}

impl IdealNetwork {
    pub fn new(nodes: usize, latency: u64) -> Self {
        IdealNetwork {
            nodes,
            latency,
            now: 0,
            pending: vec![VecDeque::new(); nodes],
            arrived: vec![VecDeque::new(); nodes],
            stats: NetStats::default(),
            in_flight: 0,
            next_arrival: u64::MAX,
        }
    }
}

impl Network for IdealNetwork {
    fn nodes(&self) -> usize {
        self.nodes
    }

    fn can_inject(&self, _src: usize, _class: Class) -> bool {
        true
    }

    fn inject(&mut self, mut pkt: Packet) {
        assert!(pkt.src < self.nodes && pkt.dst < self.nodes, "packet {pkt:?} outside {} nodes", self.nodes);
        pkt.injected_at = self.now;
        let at = self.now + self.latency + pkt.flits.max(1) as u64 - 1;
        let q = &mut self.pending[pkt.dst];
        // keep arrival order; equal arrival times stay in injection order
        let pos = q.iter().rposition(|(t, _)| *t <= at).map_or(0, |i| i + 1);
        q.insert(pos, (at, pkt));
        self.next_arrival = self.next_arrival.min(at);
        self.stats.packets_injected += 1;
        self.in_flight += 1;
    }

    fn eject(&mut self, node: usize) -> Option<Packet> {
        let p = self.arrived[node].pop_front()?;
        self.in_flight -= 1;
        Some(p)
    }

    fn step(&mut self) {
        self.now += 1;
        self.stats.cycles = self.now;
        if self.now < self.next_arrival {
            return;
        }
        let mut next = u64::MAX;
        for d in 0..self.nodes {
            while self.pending[d].front().is_some_and(|(t, _)| *t <= self.now) {
                let (_, p) = self.pending[d].pop_front().expect("front exists");
                self.stats.delivered(&p, self.now, 0);
                self.arrived[d].push_back(p);
            }
            if let Some(&(t, _)) = self.pending[d].front() {
                next = next.min(t);
            }
        }
        self.next_arrival = next;
    }

    fn cycle(&self) -> u64 {
        self.now
    }

    fn stats(&self) -> NetStats {
        self.stats.clone()
    }

    fn in_flight(&self) -> usize {
        self.in_flight
    }

    fn describe(&self) -> String {
        format!("ideal network, {} nodes, {} cycles", self.nodes, self.latency)
    }
}
