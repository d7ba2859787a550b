//! Golden meshes behind [`crate::network::Network`], for the GPU model and for
//! `gpuforge sim`: the baseline VC mesh (1 or 2 planes) and MACRO-NoC (a 1-VC
//! request plane plus the hinge-router reply plane).
//!
//! Build one with [`build_network`] (mesh size, memory nodes, the GPU model's flit
//! width) or [`from_config`] (a loaded `[noc]` config). Packet sizes are given in
//! the caller's flit width and converted to each plane's width (rounded up).
//!
//! Latency is counted from the cycle `inject` is called (before that cycle's `step`)
//! to the cycle whose `step` ejects the tail; the packet can be taken with `eject`
//! after that `step`. MACRO-NoC replies must come from memory nodes (the MCs); a
//! reply from another node is a usage error and panics.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use super::config::{NocConfig, NocFields, NocKind, RawVc, ReplyKnobs};
use super::link::{Flit, LinkFmt, T_DATA};
use super::reply_mesh::{ReplyInputs, ReplyMesh, ReplyOutputs};
use super::route_rom::L;
use super::vc_mesh::{VcMesh, VcNi, VcPacket};
use super::vc_router::{bits, PortCredits, PortFlit};
use crate::config::FieldError;
use crate::network::{Class, NetStats, Network, Packet};

/// Source-queue bound per node and class (`can_inject` is false beyond it).
pub const SOURCE_QUEUE: usize = 64;

/// Statistics beyond [`NetStats`] (all cycle counts).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct NocStats {
    /// Per delivered packet: latency (tail ejection - inject call), class.
    pub packet_latency: Vec<(u32, Class)>,
    /// Per ejected flit: ejection - the flit's entry into the network.
    pub flit_latency_sum: u64,
    pub flits: u64,
    /// Reply packets: head entering the reply network - inject call (MC queueing).
    pub mc_queueing_sum: u64,
    pub mc_queueing_n: u64,
}

/// A hasher for the ids the meshes key their books by (packet ids, `id << 8 | flit`):
/// a multiply and a fold, deterministic, much cheaper than SipHash on these keys.
#[derive(Debug, Clone, Copy, Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(b as u64));
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    #[inline]
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
}

type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// A plane of VC routers with its terminals.
#[derive(Debug, Clone)]
struct VcPlane {
    mesh: VcMesh,
    nis: Vec<VcNi>,
    /// NIs with a packet to send; NIs with an ejection credit to return (bit =
    /// node): with the mesh's active terminals, the NIs a cycle visits.
    sending: u64,
    returning: u64,
    /// This cycle's injections and ejection credits (scratch).
    inj: Vec<PortFlit>,
    ej_credit: Vec<PortCredits>,
    width: u32,
}

impl VcPlane {
    fn new(p: &super::config::VcParams, n: u32) -> VcPlane {
        let nn = (n * n) as usize;
        VcPlane { mesh: VcMesh::new(p, n), nis: (0..nn).map(|i| VcNi::new(p, i)).collect(), sending: 0, returning: 0, inj: Vec::new(), ej_credit: Vec::new(), width: p.flit_width }
    }

    fn enqueue(&mut self, src: usize, p: VcPacket) {
        self.nis[src].queue.push_back(p);
        self.sending |= 1 << src;
    }

    /// One cycle; returns ejected flits as (node, data, tail) and counts their
    /// flit latency (the mesh keeps each flit's injection cycle). Visits only the
    /// terminals with something to do.
    fn step(&mut self, ejected: &mut Vec<(usize, u128, bool)>, st: &mut NocStats) {
        self.inj.clear();
        self.ej_credit.clear();
        // VcNi::drive in its parts, each for the NIs it concerns: send, then credits
        // and the sink
        for id in bits(self.sending) {
            let ni = &mut self.nis[id];
            if let Some((vc, f)) = ni.send() {
                self.inj.push((id, L, vc, f));
            }
            if !ni.busy() {
                self.sending &= !(1 << id);
            }
        }
        for id in bits(self.mesh.terminals_active() | self.returning) {
            let (inj_credit, ej) = self.mesh.terminal(id);
            let ni = &mut self.nis[id];
            ni.take_credits(inj_credit);
            let c = ni.sink(ej.map(|(u, _)| u));
            if c != 0 {
                self.ej_credit.push((id, L, c));
            }
            if ni.returning() {
                self.returning |= 1 << id;
            } else {
                self.returning &= !(1 << id);
            }
            if let Some((_, f)) = ej {
                st.flit_latency_sum += self.mesh.ejection_age(id).expect("a flit on the link");
                st.flits += 1;
                ejected.push((id, f.data_lo(), f.tail));
            }
        }
        self.mesh.clock(&self.inj, &self.ej_credit);
    }
}

struct Tracked {
    pkt: Packet,
}

/// Shared bookkeeping of both meshes.
struct Book {
    nodes: usize,
    now: u64,
    next_id: u64,
    /// Internal id -> packet.
    live: IdMap<u64, Tracked>,
    arrived: Vec<VecDeque<Packet>>,
    stats: NetStats,
    noc: NocStats,
    flit_bits: u32,
    hops: Box<dyn Fn(usize, usize) -> u64 + Send>,
}

impl Book {
    fn new(nodes: usize, flit_bits: u32, n: u32) -> Book {
        Book {
            nodes,
            now: 0,
            next_id: 1,
            live: IdMap::default(),
            arrived: vec![VecDeque::new(); nodes],
            stats: NetStats::default(),
            noc: NocStats::default(),
            flit_bits,
            hops: Box::new(move |a, b| {
                let n = n as usize;
                ((a % n).abs_diff(b % n) + (a / n).abs_diff(b / n) + 1) as u64
            }),
        }
    }

    fn plane_flits(&self, p: &Packet, width: u32) -> u32 {
        ((p.flits.max(1) as u64 * self.flit_bits as u64).div_ceil(width as u64)).max(1) as u32
    }

    fn register(&mut self, mut pkt: Packet) -> u64 {
        pkt.injected_at = self.now;
        let id = self.next_id;
        self.next_id += 1;
        self.stats.packets_injected += 1;
        self.live.insert(id, Tracked { pkt });
        id
    }

    fn deliver(&mut self, id: u64) {
        if let Some(t) = self.live.remove(&id) {
            let lat = self.now - t.pkt.injected_at;
            self.stats.delivered(&t.pkt, self.now, (self.hops)(t.pkt.src, t.pkt.dst));
            self.noc.packet_latency.push((lat as u32, t.pkt.class));
            self.arrived[t.pkt.dst].push_back(t.pkt);
        }
    }

    fn in_flight(&self) -> usize {
        self.live.len() + self.arrived.iter().map(VecDeque::len).sum::<usize>()
    }
}

/// The baseline mesh: VC routers on every plane (requests on plane 0, replies on
/// plane 1; with one plane both share it).
pub struct BaselineNetwork {
    cfg: NocConfig,
    planes: Vec<VcPlane>,
    book: Book,
    ej: Vec<(usize, u128, bool)>,
}

impl BaselineNetwork {
    pub fn new(c: &NocConfig, flit_bits: u32) -> BaselineNetwork {
        let p = c.baseline;
        BaselineNetwork { cfg: c.clone(), planes: (0..p.planes).map(|_| VcPlane::new(&p, c.n)).collect(), book: Book::new(c.nodes(), flit_bits, c.n), ej: Vec::new() }
    }

    fn plane_of(&self, class: Class) -> usize {
        if self.planes.len() == 2 && class == Class::Reply {
            1
        } else {
            0
        }
    }

    pub fn noc_stats(&self) -> &NocStats {
        &self.book.noc
    }
}

impl Network for BaselineNetwork {
    fn nodes(&self) -> usize {
        self.book.nodes
    }

    fn can_inject(&self, src: usize, class: Class) -> bool {
        self.planes[self.plane_of(class)].nis[src].queue.len() < SOURCE_QUEUE
    }

    fn inject(&mut self, pkt: Packet) {
        assert!(pkt.src < self.book.nodes && pkt.dst < self.book.nodes, "packet {pkt:?} outside the mesh");
        let pl = self.plane_of(pkt.class);
        let pkt_class = pkt.class;
        let flits = self.book.plane_flits(&pkt, self.planes[pl].width);
        let (src, dst) = (pkt.src, pkt.dst);
        let id = self.book.register(pkt);
        let class = u8::from(pkt_class == Class::Reply);
        self.planes[pl].enqueue(src, VcPacket { id, src: src as u16, dst: dst as u16, flits, created: self.book.now, class });
    }

    fn eject(&mut self, node: usize) -> Option<Packet> {
        self.book.arrived[node].pop_front()
    }

    fn step(&mut self) {
        for pl in self.planes.iter_mut() {
            self.ej.clear();
            pl.step(&mut self.ej, &mut self.book.noc);
            for &(_, data, tail) in &self.ej {
                if tail {
                    self.book.deliver((data >> 8) as u64 & ((1u64 << (pl.width.min(64) - 8).min(56)) - 1));
                }
            }
        }
        self.book.now += 1;
        self.book.stats.cycles = self.book.now;
    }

    fn cycle(&self) -> u64 {
        self.book.now
    }

    fn stats(&self) -> NetStats {
        self.book.stats.clone()
    }

    fn in_flight(&self) -> usize {
        self.book.in_flight()
    }

    fn describe(&self) -> String {
        let p = &self.cfg.baseline;
        format!("baseline {n}x{n} mesh, {} plane(s), {}-bit, {} VCs x {} flits", p.planes, p.flit_width, p.vcs, p.buf_depth, n = self.cfg.n)
    }
}

/// MACRO-NoC: request plane (VC routers) + reply plane (hinge routers, overlays).
pub struct MacroNetwork {
    cfg: NocConfig,
    req: VcPlane,
    reply: ReplyMesh,
    rin: ReplyInputs,
    rout: ReplyOutputs,
    fmt: LinkFmt,
    /// Per MC: reply packets waiting to enter the reply queue (id, dst, flits, sent).
    feed: Vec<VecDeque<(u64, usize, u32, u32)>>,
    /// Reply flits in flight: (id<<8|seq) -> entry cycle.
    entered: IdMap<u64, u64>,
    book: Book,
    ej: Vec<(usize, u128, bool)>,
}

impl MacroNetwork {
    pub fn new(c: &NocConfig, flit_bits: u32) -> MacroNetwork {
        let mut rin = ReplyInputs::new(c);
        rin.rst = true;
        let mut reply = ReplyMesh::new(c);
        let mut rout = ReplyOutputs::new(c);
        reply.eval(&rin, &mut rout);
        reply.commit(&rin);
        rin.rst = false;
        MacroNetwork {
            cfg: c.clone(),
            req: VcPlane::new(&c.request, c.n),
            reply,
            rin,
            rout,
            fmt: LinkFmt::new(c),
            feed: vec![VecDeque::new(); c.m()],
            entered: IdMap::default(),
            book: Book::new(c.nodes(), flit_bits, c.n),
            ej: Vec::new(),
        }
    }

    pub fn noc_stats(&self) -> &NocStats {
        &self.book.noc
    }

    pub fn reply_mesh(&self) -> &ReplyMesh {
        &self.reply
    }

    /// Flits waiting in MC reply queues and feeders.
    pub fn mc_backlog(&self) -> usize {
        self.reply.nis.iter().map(|n| n.q.len()).sum::<usize>() + self.feed.iter().flatten().map(|f| (f.2 - f.3) as usize).sum::<usize>()
    }
}

impl Network for MacroNetwork {
    fn nodes(&self) -> usize {
        self.book.nodes
    }

    fn can_inject(&self, src: usize, class: Class) -> bool {
        match class {
            Class::Request => self.req.nis[src].queue.len() < SOURCE_QUEUE,
            Class::Reply => self.cfg.mc_at(src).is_some_and(|i| self.feed[i].len() < SOURCE_QUEUE),
        }
    }

    fn inject(&mut self, pkt: Packet) {
        assert!(pkt.src < self.book.nodes && pkt.dst < self.book.nodes, "packet {pkt:?} outside the mesh");
        let (src, dst, class) = (pkt.src, pkt.dst, pkt.class);
        match class {
            Class::Request => {
                let flits = self.book.plane_flits(&pkt, self.cfg.request.flit_width);
                let id = self.book.register(pkt);
                self.req.enqueue(src, VcPacket { id, src: src as u16, dst: dst as u16, flits, created: self.book.now, class: 0 });
            }
            Class::Reply => {
                let mc = self.cfg.mc_at(src).unwrap_or_else(|| panic!("MACRO-NoC reply from node {src}, which is not an MC"));
                let flits = self.book.plane_flits(&pkt, 64);
                let id = self.book.register(pkt);
                self.feed[mc].push_back((id, dst, flits, 0));
            }
        }
    }

    fn eject(&mut self, node: usize) -> Option<Packet> {
        self.book.arrived[node].pop_front()
    }

    fn step(&mut self) {
        let now = self.book.now;
        // request plane
        self.ej.clear();
        self.req.step(&mut self.ej, &mut self.book.noc);
        for &(_, data, tail) in &self.ej {
            if tail {
                self.book.deliver((data >> 8) as u64);
            }
        }
        // reply plane: feeders -> MC queues
        for i in 0..self.cfg.m() {
            self.rin.mc_v[i] = false;
            if let Some(&(id, dst, flits, sent)) = self.feed[i].front() {
                let (dx, dy) = self.cfg.xy(dst);
                let f = Flit { valid: false, ty: T_DATA, head: sent == 0, tail: sent + 1 == flits, src: i as u32, dst_x: dx, dst_y: dy, payload: (id << 8) | (sent as u64 & 0xff) };
                self.rin.mc_v[i] = true;
                self.rin.mc_link[i] = self.fmt.pack(&f);
            }
        }
        self.reply.eval(&self.rin, &mut self.rout);
        for i in 0..self.cfg.m() {
            if self.rin.mc_v[i] && self.rout.mc_ready[i] {
                let e = self.feed[i].front_mut().expect("fed");
                e.3 += 1;
                if e.3 == e.2 {
                    self.feed[i].pop_front();
                }
            }
            let node = self.reply.mc_node[i];
            let inj = self.rout.inj[node];
            if self.fmt.is_valid(inj) && self.fmt.type_of(inj) == T_DATA {
                let f = self.fmt.unpack(inj);
                self.entered.insert(f.payload, now);
                if f.head {
                    if let Some(t) = self.book.live.get(&(f.payload >> 8)) {
                        self.book.noc.mc_queueing_sum += now - t.pkt.injected_at;
                        self.book.noc.mc_queueing_n += 1;
                    }
                }
            }
        }
        for node in 0..self.book.nodes {
            let e = self.rout.eject[node];
            if self.fmt.is_valid(e) && self.fmt.type_of(e) == T_DATA {
                let f = self.fmt.unpack(e);
                if let Some(t) = self.entered.remove(&f.payload) {
                    self.book.noc.flit_latency_sum += now - t;
                    self.book.noc.flits += 1;
                }
                if f.tail {
                    self.book.deliver(f.payload >> 8);
                }
            }
        }
        self.reply.commit(&self.rin);
        self.book.now += 1;
        self.book.stats.cycles = self.book.now;
    }

    fn cycle(&self) -> u64 {
        self.book.now
    }

    fn stats(&self) -> NetStats {
        self.book.stats.clone()
    }

    fn in_flight(&self) -> usize {
        self.book.in_flight()
    }

    fn describe(&self) -> String {
        format!("MACRO-NoC {n}x{n}, {} MCs, {} window groups, interval {}, 64-bit request + reply planes", self.cfg.m(), self.cfg.g(), self.cfg.reply.interval, n = self.cfg.n)
    }
}

/// Which golden mesh [`build_network`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetKind {
    Baseline,
    Macro,
}

/// A golden mesh for the GPU model: an `n` x `n` mesh (node id = y*n + x) whose
/// memory nodes are `mem_nodes` (overlay order = list order), all other knobs at
/// the spec defaults. `flit_bits` is the width the caller counts `Packet::flits` in.
/// SM node ids need no declaration: every non-memory node may host an SM.
pub fn build_network(kind: NetKind, n: u32, mem_nodes: &[usize], flit_bits: u32) -> Result<Box<dyn Network>, FieldError> {
    let mcs: Vec<(u32, u32)> = mem_nodes.iter().map(|&id| (id as u32 % n.max(1), id as u32 / n.max(1))).collect();
    let kind = if kind == NetKind::Macro { NocKind::Macro } else { NocKind::Baseline };
    let c = NocConfig::for_gpu(kind, n, &mcs, RawVc::baseline(), ReplyKnobs::default(), &NocFields::noc())?;
    Ok(from_config(&c, flit_bits))
}

/// The golden mesh a validated config describes.
pub fn from_config(c: &NocConfig, flit_bits: u32) -> Box<dyn Network> {
    match c.kind {
        NocKind::Baseline => Box::new(BaselineNetwork::new(c, flit_bits)),
        NocKind::Macro => Box::new(MacroNetwork::new(c, flit_bits)),
    }
}
