//! Synthetic traffic for the golden meshes (issue 3): uniform random, transpose,
//! hotspot, and the GPU pattern (cores send 1-flit read requests to MCs; an MC
//! answers `mc_latency` cycles after a request arrives with a reply of
//! `1 + line_bytes/8` 64-bit flits). Sizes are in 64-bit flits (the networks are
//! built with `flit_bits = 64`); synthetic patterns send 4-flit request packets.
//! Injection is Bernoulli per node and cycle with probability `rate / size`, so
//! `rate` is offered flits per node per cycle (for `gpu`: request flits per core).

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::config::{NocConfig, Pattern};
use crate::network::{Class, Network, Packet};

/// Size of a synthetic-pattern packet in 64-bit flits.
pub const SYNTH_FLITS: u32 = 4;

/// One delivered packet as the driver saw it.
#[derive(Debug, Clone, Copy)]
pub struct Delivery {
    pub class: Class,
    pub latency: u64,
    pub flits: u32,
    pub at: u64,
}

pub struct Traffic {
    rng: Xoshiro256PlusPlus,
    pattern: Pattern,
    rate: f64,
    n: u32,
    mcs: Vec<usize>,
    cores: Vec<usize>,
    hotspot: usize,
    frac: f64,
    reply_flits: u32,
    mc_latency: u64,
    replies: BTreeMap<u64, Vec<(usize, usize, u64)>>,
    next_id: u64,
    /// Packets that could not be injected (source queue full) and wait.
    backlog: Vec<std::collections::VecDeque<Packet>>,
    pub generated: u64,
}

impl Traffic {
    pub fn new(c: &NocConfig, rate: f64, seed: u64) -> Traffic {
        let mcs: Vec<usize> = c.mcs.iter().map(|&(x, y)| c.node(x, y)).collect();
        let cores = (0..c.nodes()).filter(|i| !mcs.contains(i)).collect();
        Traffic {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            pattern: c.traffic.pattern,
            rate,
            n: c.n,
            mcs,
            cores,
            hotspot: c.node(c.traffic.hotspot.0, c.traffic.hotspot.1),
            frac: c.traffic.hotspot_fraction,
            reply_flits: c.reply_flits(),
            mc_latency: c.traffic.mc_latency as u64,
            replies: BTreeMap::new(),
            next_id: 1,
            backlog: vec![Default::default(); c.nodes()],
            generated: 0,
        }
    }

    fn pkt(&mut self, src: usize, dst: usize, class: Class, flits: u32, tag: u64) -> Packet {
        let id = self.next_id;
        self.next_id += 1;
        self.generated += 1;
        Packet { id, src, dst, class, flits, tag, injected_at: 0 }
    }

    /// Generate this cycle's packets, inject what the network accepts, and drain
    /// every node's ejections into `out`.
    pub fn tick(&mut self, net: &mut dyn Network, out: &mut Vec<Delivery>) {
        let now = net.cycle();
        let nodes = (self.n * self.n) as usize;
        // new packets
        match self.pattern {
            Pattern::Gpu => {
                let p = self.rate.min(1.0);
                for k in 0..self.cores.len() {
                    if self.rng.random_bool(p) {
                        let src = self.cores[k];
                        let dst = self.mcs[self.rng.random_range(0..self.mcs.len())];
                        let pk = self.pkt(src, dst, Class::Request, 1, src as u64);
                        self.backlog[src].push_back(pk);
                    }
                }
                if let Some(v) = self.replies.remove(&now) {
                    for (mc, core, tag) in v {
                        let pk = self.pkt(mc, core, Class::Reply, self.reply_flits, tag);
                        self.backlog[mc].push_back(pk);
                    }
                }
            }
            _ => {
                let p = (self.rate / SYNTH_FLITS as f64).min(1.0);
                for src in 0..nodes {
                    if !self.rng.random_bool(p) {
                        continue;
                    }
                    let (x, y) = (src as u32 % self.n, src as u32 / self.n);
                    let dst = match self.pattern {
                        Pattern::Transpose => (x * self.n + y) as usize,
                        Pattern::Hotspot if self.rng.random_bool(self.frac) => self.hotspot,
                        _ => {
                            let mut d = self.rng.random_range(0..nodes - 1);
                            if d >= src {
                                d += 1;
                            }
                            d
                        }
                    };
                    if dst == src {
                        continue;
                    }
                    let pk = self.pkt(src, dst, Class::Request, SYNTH_FLITS, 0);
                    self.backlog[src].push_back(pk);
                }
            }
        }
        for src in 0..nodes {
            while let Some(p) = self.backlog[src].front() {
                if !net.can_inject(src, p.class) {
                    break;
                }
                let p = self.backlog[src].pop_front().expect("front");
                net.inject(p);
            }
        }
        net.step();
        let at = net.cycle() - 1;
        for node in 0..nodes {
            while let Some(p) = net.eject(node) {
                out.push(Delivery { class: p.class, latency: at - p.injected_at, flits: p.flits, at });
                if self.pattern == Pattern::Gpu && p.class == Class::Request {
                    self.replies.entry(at + self.mc_latency).or_default().push((node, p.src, p.tag));
                }
            }
        }
    }

    /// Packets generated but not yet handed to the network.
    pub fn backlog(&self) -> usize {
        self.backlog.iter().map(|q| q.len()).sum()
    }
}

/// Port-level random stimulus of the reply mesh (co-simulation and golden tests):
/// each MC's L2/DRAM side offers reply packets (1..=`max_flits` flits) to random
/// non-MC nodes, in bursts whose probability changes every `phase` cycles, so the
/// GOM sees different loads per epoch and queues fill and drain. A flit is held,
/// unchanged, until accepted (valid never looks at ready).
pub struct ReplyStimulus {
    rng: Xoshiro256PlusPlus,
    fmt: super::link::LinkFmt,
    cores: Vec<(u32, u32)>,
    m: usize,
    p_pkt: Vec<f64>,
    cur: Vec<Option<(u128, u32, u32, (u32, u32))>>,
    pub max_flits: u32,
    pub phase: u64,
    cycle: u64,
    seq: u64,
}

impl ReplyStimulus {
    pub fn new(c: &NocConfig, seed: u64) -> ReplyStimulus {
        let cores = (0..c.nodes()).filter(|&i| c.mc_at(i).is_none()).map(|i| c.xy(i)).collect();
        ReplyStimulus {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            fmt: super::link::LinkFmt::new(c),
            cores,
            m: c.m(),
            p_pkt: vec![0.1; c.m()],
            cur: vec![None; c.m()],
            max_flits: 6,
            phase: 1500,
            cycle: 0,
            seq: 0,
        }
    }

    /// Drive this cycle's inputs.
    pub fn drive(&mut self, inp: &mut super::reply_mesh::ReplyInputs) {
        if self.cycle % self.phase == 0 {
            for i in 0..self.m {
                self.p_pkt[i] = [0.0, 0.01, 0.05, 0.2, 1.0][self.rng.random_range(0..5)];
            }
        }
        self.cycle += 1;
        for i in 0..self.m {
            if self.cur[i].is_none() && self.rng.random_bool(self.p_pkt[i]) {
                let dst = self.cores[self.rng.random_range(0..self.cores.len())];
                let len = self.rng.random_range(1..=self.max_flits);
                self.cur[i] = Some((0, 0, len, dst));
            }
            match &mut self.cur[i] {
                Some((link, sent, len, dst)) => {
                    if *link == 0 {
                        self.seq += 1;
                        let f = super::link::Flit {
                            valid: self.rng.random_bool(0.5),
                            ty: super::link::T_DATA,
                            head: *sent == 0,
                            tail: *sent + 1 == *len,
                            src: self.rng.random_range(0..8),
                            dst_x: dst.0,
                            dst_y: dst.1,
                            payload: self.rng.random::<u64>() ^ self.seq,
                        };
                        *link = self.fmt.pack(&f) | 1; // never 0
                    }
                    inp.mc_v[i] = true;
                    inp.mc_link[i] = *link;
                }
                None => {
                    inp.mc_v[i] = false;
                    inp.mc_link[i] = if self.rng.random_bool(0.1) { self.rng.random::<u64>() as u128 } else { 0 };
                }
            }
        }
    }

    /// After the cycle: which offers were accepted.
    pub fn accepted(&mut self, ready: &[bool]) {
        for i in 0..self.m {
            if let Some((link, sent, len, _)) = &mut self.cur[i] {
                if ready[i] {
                    *sent += 1;
                    *link = 0;
                    if *sent == *len {
                        self.cur[i] = None;
                    }
                }
            }
        }
    }
}

/// Port-level random stimulus of a VC mesh: terminal NIs with random packets
/// (random destinations, 1..=`max_flits` flits), injection stalls and bursts.
pub struct VcStimulus {
    rng: Xoshiro256PlusPlus,
    pub nis: Vec<super::vc_mesh::VcNi>,
    nodes: usize,
    p_pkt: f64,
    pub max_flits: u32,
    cycle: u64,
    next_id: u64,
}

impl VcStimulus {
    pub fn new(p: &super::config::VcParams, n: u32, seed: u64) -> VcStimulus {
        let nodes = (n * n) as usize;
        VcStimulus {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            nis: (0..nodes).map(|i| super::vc_mesh::VcNi::new(p, i)).collect(),
            nodes,
            p_pkt: 0.05,
            max_flits: 5,
            cycle: 0,
            next_id: 1,
        }
    }

    /// Drive this cycle's inputs from the mesh's registered outputs.
    pub fn drive(&mut self, out: &super::vc_mesh::VcMeshOutputs, inp: &mut super::vc_mesh::VcMeshInputs) {
        if self.cycle % 1000 == 0 {
            self.p_pkt = [0.0, 0.02, 0.1, 0.3, 1.0][self.rng.random_range(0..5)];
        }
        self.cycle += 1;
        for id in 0..self.nodes {
            if self.nis[id].queue.len() < 4 && self.rng.random_bool(self.p_pkt) {
                let dst = self.rng.random_range(0..self.nodes);
                let flits = self.rng.random_range(1..=self.max_flits);
                self.nis[id].queue.push_back(super::vc_mesh::VcPacket { id: self.next_id, src: id as u16, dst: dst as u16, flits, created: self.cycle });
                self.next_id += 1;
            }
            let allow = self.rng.random_bool(0.9);
            let (l, c) = self.nis[id].drive(out.inj_credit[id], out.ej[id], allow);
            inp.inj[id] = l;
            inp.ej_credit[id] = c;
        }
    }
}
