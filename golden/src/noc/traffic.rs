//! Synthetic traffic for the golden meshes (issue 3): uniform random, transpose,
//! hotspot, and the GPU pattern (cores send 1-flit read requests to MCs; an MC
//! answers `mc_latency` cycles after a request arrives with a reply of
//! `1 + line_bytes/8` 64-bit flits). Sizes are in 64-bit flits (the networks are
//! built with `flit_bits = 64`); synthetic patterns send 4-flit request packets.
//! Injection is Bernoulli per node and cycle with probability `rate / size`, so
//! `rate` is offered flits per node per cycle (for `gpu`: request flits per core).
//!
//! Packets are created in the generator's own source queue, which is unbounded, and
//! handed to the network as its source queue (64 packets per node and class) takes
//! them; a packet's latency ([`Delivery::latency`]) counts from its creation, so past
//! saturation it grows without bound, as in every NoC simulator. The creation cycle
//! travels in the packet's `tag` (the sender's handle, which the network never reads).

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::config::{NocConfig, Pattern, VcParams};
use super::hinge_router::{HingeInputs, HingeOutputs, HingeTop};
use super::link::{Flit, LinkFmt, T_DATA, T_STATUS};
use super::reply_mesh::{ReplyInputs, ReplyMesh, ReplyOutputs};
use super::vc_mesh::{VcMesh, VcMeshInputs, VcMeshOutputs, VcNi, VcPacket};
use super::vc_router::{vc_data, VcFlit, VcRouter, VcRouterInputs, VcRouterOutputs};
use crate::model::Stimulus;
use crate::network::{Class, Network, Packet};

/// Size of a synthetic-pattern packet in 64-bit flits.
pub const SYNTH_FLITS: u32 = 4;

/// One delivered packet as the driver saw it.
#[derive(Debug, Clone, Copy)]
pub struct Delivery {
    pub class: Class,
    /// Tail delivery - creation: source queueing included.
    pub latency: u64,
    /// Hand-over to the network - creation: the time spent in the generator's queue
    /// because the network's source queue was full.
    pub queued: u64,
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
    /// Replies due per cycle: (MC, core).
    replies: BTreeMap<u64, Vec<(usize, usize)>>,
    next_id: u64,
    /// Packets that could not be injected (source queue full) and wait.
    backlog: Vec<std::collections::VecDeque<Packet>>,
    pub generated: u64,
    /// Flits of the generated packets (64-bit flits).
    pub generated_flits: u64,
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
            generated_flits: 0,
        }
    }

    /// A packet created in cycle `now` (its `tag`).
    fn pkt(&mut self, src: usize, dst: usize, class: Class, flits: u32, now: u64) -> Packet {
        let id = self.next_id;
        self.next_id += 1;
        self.generated += 1;
        self.generated_flits += flits as u64;
        Packet { id, src, dst, class, flits, tag: now, injected_at: 0 }
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
                        let pk = self.pkt(src, dst, Class::Request, 1, now);
                        self.backlog[src].push_back(pk);
                    }
                }
                if let Some(v) = self.replies.remove(&now) {
                    for (mc, core) in v {
                        let pk = self.pkt(mc, core, Class::Reply, self.reply_flits, now);
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
                    let pk = self.pkt(src, dst, Class::Request, SYNTH_FLITS, now);
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
                out.push(Delivery { class: p.class, latency: at - p.tag, queued: p.injected_at - p.tag, flits: p.flits, at });
                if self.pattern == Pattern::Gpu && p.class == Class::Request {
                    self.replies.entry(at + self.mc_latency).or_default().push((node, p.src));
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
/// unchanged, until accepted (valid never looks at ready). The first cycle is a
/// reset.
pub struct ReplyStimulus {
    rng: Xoshiro256PlusPlus,
    fmt: LinkFmt,
    cores: Vec<(u32, u32)>,
    m: usize,
    p_pkt: Vec<f64>,
    cur: Vec<Option<Offer>>,
    pub max_flits: u32,
    pub phase: u64,
    cycle: u64,
    seq: u64,
}

/// An MC's packet in flight: the link word on offer, flits sent, packet length and
/// the destination core.
type Offer = (u128, u32, u32, (u32, u32));

impl ReplyStimulus {
    pub fn new(c: &NocConfig, seed: u64) -> ReplyStimulus {
        let cores = (0..c.nodes()).filter(|&i| c.mc_at(i).is_none()).map(|i| c.xy(i)).collect();
        ReplyStimulus {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            fmt: LinkFmt::new(c),
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

    /// After a cycle out of reset: which offers were accepted (`mc_v & mc_ready`).
    fn accepted(&mut self, ready: &[bool]) {
        for (cur, &taken) in self.cur.iter_mut().zip(ready) {
            if let Some((link, sent, len, _)) = cur {
                if taken {
                    *sent += 1;
                    *link = 0;
                    if *sent == *len {
                        *cur = None;
                    }
                }
            }
        }
    }
}

impl Stimulus<ReplyMesh> for ReplyStimulus {
    /// `prev.mc_ready` says which of last cycle's offers were taken (none in the
    /// reset cycle).
    fn drive(&mut self, _mesh: &ReplyMesh, prev: &ReplyOutputs, inp: &mut ReplyInputs) {
        if self.cycle > 1 {
            self.accepted(&prev.mc_ready);
        }
        inp.rst = self.cycle == 0;
        if self.cycle.is_multiple_of(self.phase) {
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
                        let f = Flit {
                            valid: self.rng.random_bool(0.5),
                            ty: T_DATA,
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
}

/// Port-level random stimulus of a VC mesh: terminal NIs with random packets
/// (random destinations, 1..=`max_flits` flits), injection stalls and bursts. The
/// first cycle is a reset (nothing offered, nothing returned).
pub struct VcStimulus {
    rng: Xoshiro256PlusPlus,
    pub nis: Vec<VcNi>,
    nodes: usize,
    p_pkt: f64,
    pub max_flits: u32,
    cycle: u64,
    next_id: u64,
}

impl VcStimulus {
    pub fn new(p: &VcParams, n: u32, seed: u64) -> VcStimulus {
        let nodes = (n * n) as usize;
        VcStimulus { rng: Xoshiro256PlusPlus::seed_from_u64(seed), nis: (0..nodes).map(|i| VcNi::new(p, i)).collect(), nodes, p_pkt: 0.05, max_flits: 5, cycle: 0, next_id: 1 }
    }
}

impl Stimulus<VcMesh> for VcStimulus {
    /// Each NI reads this cycle's (registered) injection credits and ejection from
    /// the mesh.
    fn drive(&mut self, mesh: &VcMesh, _prev: &VcMeshOutputs, inp: &mut VcMeshInputs) {
        let t = self.cycle;
        self.cycle += 1;
        inp.rst = t == 0;
        if t == 0 {
            inp.inj.iter_mut().for_each(|l| *l = None);
            inp.ej_credit.iter_mut().for_each(|c| *c = 0);
            return;
        }
        if t % 1000 == 1 {
            self.p_pkt = [0.0, 0.02, 0.1, 0.3, 1.0][self.rng.random_range(0..5)];
        }
        for id in 0..self.nodes {
            if self.nis[id].queue.len() < 4 && self.rng.random_bool(self.p_pkt) {
                let dst = self.rng.random_range(0..self.nodes);
                let flits = self.rng.random_range(1..=self.max_flits);
                // both VC classes of xy_yx, without a draw (the random stream stays)
                let class = (self.next_id & 1) as u8;
                self.nis[id].queue.push_back(VcPacket { id: self.next_id, src: id as u16, dst: dst as u16, flits, created: self.cycle, class });
                self.next_id += 1;
            }
            let allow = self.rng.random_bool(0.9);
            let (inj_credit, ej) = mesh.terminal(id);
            let (l, c) = self.nis[id].drive(inj_credit, ej, allow);
            inp.inj[id] = l;
            inp.ej_credit[id] = c;
        }
    }
}

/// Random legal inputs of one hinge router (the router-level design): DATA and STATUS
/// flits to random destinations on every bypass input (30 % of cycles) and a local
/// offer (60 %). No GOMCFG flits, so the window set stays at the config's defaults.
/// The first cycle is a reset.
pub struct HingeStimulus {
    rng: Xoshiro256PlusPlus,
    fmt: LinkFmt,
    n: u32,
    m: u32,
    cycle: u64,
}

impl HingeStimulus {
    pub fn new(c: &NocConfig, seed: u64) -> HingeStimulus {
        HingeStimulus { rng: Xoshiro256PlusPlus::seed_from_u64(seed), fmt: LinkFmt::new(c), n: c.n, m: c.m() as u32, cycle: 0 }
    }

    /// A valid DATA or STATUS flit with probability `p`, else 0.
    fn flit(&mut self, p: f64) -> u128 {
        if !self.rng.random_bool(p) {
            return 0;
        }
        let f = Flit {
            valid: true,
            ty: if self.rng.random_bool(0.1) { T_STATUS } else { T_DATA },
            head: self.rng.random(),
            tail: self.rng.random(),
            src: self.rng.random_range(0..self.m),
            dst_x: self.rng.random_range(0..self.n),
            dst_y: self.rng.random_range(0..self.n),
            payload: self.rng.random(),
        };
        self.fmt.pack(&f)
    }
}

impl Stimulus<HingeTop> for HingeStimulus {
    fn drive(&mut self, _router: &HingeTop, _prev: &HingeOutputs, inp: &mut HingeInputs) {
        inp.rst = self.cycle == 0;
        self.cycle += 1;
        for d in 0..4 {
            inp.byp_in[d] = self.flit(0.3);
        }
        inp.loc_in_v = self.rng.random_bool(0.6);
        // the offered link's valid bit is random: the router must ignore it
        let valid = if self.rng.random_bool(0.5) { self.fmt.valid_bit() } else { 0 };
        inp.loc_in_link = self.flit(1.0) & !self.fmt.valid_bit() | valid;
    }
}

/// Random legal inputs of one VC router (the router-level design): an upstream
/// sender per input VC (whole packets of 1 to BUF_DEPTH + 2 flits, to random destinations anywhere
/// in the mesh, at most one flit per input port per cycle, within its credits) and a
/// downstream sink per output VC that returns each credit after a random delay.
/// Offered load and sink speed change every 500 cycles (from a trickle to every
/// cycle, from stalled sinks to instant ones), so buffers fill and drain. The first
/// cycle is a reset.
pub struct VcRouterStimulus {
    rng: Xoshiro256PlusPlus,
    v: usize,
    depth: u8,
    n: u32,
    /// Payload width in bits.
    width: u32,
    /// Per input VC: upstream credits, the packet in flight (flits left, dst).
    up_credit: Vec<u8>,
    up_pkt: Vec<Option<(u32, u16)>>,
    /// Per output VC: flits held downstream (each returns one credit when released).
    down: Vec<u32>,
    p_send: f64,
    p_release: f64,
    seq: u128,
    cycle: u64,
}

impl VcRouterStimulus {
    pub fn new(p: &VcParams, n: u32, seed: u64) -> VcRouterStimulus {
        let nv = 5 * p.vcs as usize;
        VcRouterStimulus {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            v: p.vcs as usize,
            depth: p.buf_depth as u8,
            n,
            width: p.flit_width,
            up_credit: vec![p.buf_depth as u8; nv],
            up_pkt: vec![None; nv],
            down: vec![0; nv],
            p_send: 0.4,
            p_release: 0.5,
            seq: 0,
            cycle: 0,
        }
    }
}

impl Stimulus<VcRouter> for VcRouterStimulus {
    /// Reads the router's registered outputs (this cycle's links and credits).
    fn drive(&mut self, router: &VcRouter, _prev: &VcRouterOutputs, inp: &mut VcRouterInputs) {
        let v = self.v;
        let reset = self.cycle == 0;
        self.cycle += 1;
        inp.rst = reset;
        inp.links = [None; 5];
        inp.credits = [0; 5];
        if reset {
            self.up_credit.iter_mut().for_each(|c| *c = self.depth);
            self.up_pkt.iter_mut().for_each(|p| *p = None);
            self.down.iter_mut().for_each(|d| *d = 0);
            return;
        }
        if self.cycle % 500 == 2 {
            self.p_send = [0.05, 0.4, 0.9][self.rng.random_range(0..3)];
            self.p_release = [0.02, 0.2, 0.5, 1.0][self.rng.random_range(0..4)];
        }
        // upstream: at most one flit per input port per cycle
        for p in 0..5 {
            let u0 = self.rng.random_range(0..v);
            for k in 0..v {
                let u = (u0 + k) % v;
                let iv = p * v + u;
                if self.up_credit[iv] == 0 || !self.rng.random_bool(self.p_send) {
                    continue;
                }
                let (left, dst, head) = match self.up_pkt[iv] {
                    Some((left, dst)) => (left, dst, false),
                    None => (self.rng.random_range(1..=self.depth as u32 + 2), self.rng.random_range(0..self.n * self.n) as u16, true),
                };
                self.seq += 1;
                let src = self.rng.random_range(0..self.n * self.n) as u16;
                let lo = self.rng.random::<u128>() ^ self.seq;
                // (a second draw only where there are upper lanes: narrower planes keep
                // their random sequence)
                let hi = if self.width > 128 { self.rng.random::<u128>() } else { 0 };
                let data = vc_data(lo, hi, self.width);
                self.up_pkt[iv] = if left == 1 { None } else { Some((left - 1, dst)) };
                self.up_credit[iv] -= 1;
                inp.links[p] = Some((u as u8, VcFlit { head, tail: left == 1, src, dst, data }));
                break;
            }
        }
        // downstream: flits held on the output VCs are released at random, one credit each
        for o in 0..5 {
            for u in 0..v {
                let ov = o * v + u;
                if self.down[ov] > 0 && self.rng.random_bool(self.p_release) {
                    self.down[ov] -= 1;
                    inp.credits[o] |= 1 << u;
                }
            }
        }
        for o in 0..5 {
            if let Some((u, _)) = router.link(o) {
                self.down[o * v + u as usize] += 1;
            }
        }
        // credits the router returns this cycle reach the upstream counters
        for p in 0..5 {
            let c = router.credits_out(p);
            for u in 0..v {
                if c >> u & 1 == 1 {
                    self.up_credit[p * v + u] += 1;
                }
            }
        }
    }
}
