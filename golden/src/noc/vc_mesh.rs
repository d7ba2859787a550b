//! A mesh of VC routers ([`VcRouters`]) (request plane or one baseline plane), cycle-accurate at
//! every port of `vc_mesh_<...>`, plus the terminal network interfaces ([`VcNi`])
//! that inject packets under credit flow control and sink ejected flits.
//!
//! Ports: per node injection `inj` (valid, vc, flit) in and its credits
//! `inj_credit` (one bit per VC) out; ejection `ej` out and `ej_credit` in (the
//! sink returns one credit per ejected flit, in the following cycle). Every router
//! output is a register, so every port and link is a function of registered state.

use std::collections::VecDeque;

use super::config::VcParams;
use super::route_rom::L;
use super::vc_router::{vc_data, PortCredits, PortFlit, VcFlit, VcLink, VcMutation, VcRouters, MAX_VC};
use crate::model::Model;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VcMeshInputs {
    pub rst: bool,
    pub inj: Vec<VcLink>,
    /// Per node: bit u = one credit of ejection VC u returned.
    pub ej_credit: Vec<u8>,
}

impl VcMeshInputs {
    pub fn new(nodes: usize) -> Self {
        VcMeshInputs { rst: false, inj: vec![None; nodes], ej_credit: vec![0; nodes] }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VcMeshOutputs {
    pub ej: Vec<VcLink>,
    pub inj_credit: Vec<u8>,
    /// Per node: output links E, W, N, S.
    pub links: Vec<[VcLink; 4]>,
    /// Per node and input direction E, W, N, S: credit bits returned upstream.
    pub credits: Vec<[u8; 4]>,
}

impl VcMeshOutputs {
    pub fn new(nodes: usize) -> Self {
        VcMeshOutputs { ej: vec![None; nodes], inj_credit: vec![0; nodes], links: vec![[None; 4]; nodes], credits: vec![[0; 4]; nodes] }
    }
}

/// The routers of one plane, wired as a mesh ([`VcRouters`] holds their state and
/// does the wiring at the edge).
#[derive(Debug, Clone)]
pub struct VcMesh {
    pub n: usize,
    pub v: usize,
    pub params: VcParams,
    routers: VcRouters,
    /// This cycle's terminal inputs (scratch of [`Model::commit`]).
    flits: Vec<PortFlit>,
    credits: Vec<PortCredits>,
}

impl VcMesh {
    pub fn new(p: &VcParams, n: u32) -> VcMesh {
        let pos: Vec<(u32, u32)> = (0..n * n).map(|id| (id % n, id / n)).collect();
        VcMesh { n: n as usize, v: p.vcs as usize, params: *p, routers: VcRouters::new(p, n, &pos, true), flits: Vec::new(), credits: Vec::new() }
    }

    pub fn nodes(&self) -> usize {
        self.n * self.n
    }

    /// Node `id`'s terminal outputs alone: its injection credits and ejection link
    /// (what a network interface reads; cheaper than a whole [`Model::eval`]).
    #[inline]
    pub fn terminal(&self, id: usize) -> (u8, VcLink) {
        (self.routers.credits_out(id, L), self.routers.link(id, L))
    }

    /// Cycles the flit on node `id`'s ejection link has spent in the mesh (from the
    /// edge that injected it to this cycle), if there is one.
    #[inline]
    pub fn ejection_age(&self, id: usize) -> Option<u64> {
        self.routers.link_age(id, L)
    }

    /// Nodes whose terminal outputs carry something this cycle (bit = node id): every
    /// other node's [`VcMesh::terminal`] is `(0, None)`.
    #[inline]
    pub fn terminals_active(&self) -> u64 {
        self.routers.terminal_active()
    }

    /// Plant `m` in every router (`None`: the correct router).
    pub fn set_mutation(&mut self, m: Option<VcMutation>) {
        self.routers.mutation = m;
    }

    pub fn overflow(&self) -> bool {
        (0..self.nodes()).any(|r| self.routers.overflow(r))
    }

    /// One clock edge with this cycle's terminal inputs: `inj` flits (node, vc, flit)
    /// and ejection credits `ej_credit` (node, bit u = VC u); nodes not listed are
    /// idle. Cheaper than [`Model::commit`], which takes every node's inputs.
    pub fn clock(&mut self, inj: &[PortFlit], ej_credit: &[PortCredits]) {
        self.routers.clock(inj, ej_credit);
    }
}

/// Every router output is a register: eval reads them (the inputs act at the edge).
impl Model for VcMesh {
    type In = VcMeshInputs;
    type Out = VcMeshOutputs;

    fn idle_inputs(&self) -> VcMeshInputs {
        VcMeshInputs::new(self.nodes())
    }

    fn new_outputs(&self) -> VcMeshOutputs {
        VcMeshOutputs::new(self.nodes())
    }

    /// The registered outputs (`inputs` act only at the edge).
    fn eval(&mut self, _inputs: &VcMeshInputs, out: &mut VcMeshOutputs) {
        for id in 0..self.nodes() {
            out.ej[id] = self.routers.link(id, L);
            out.inj_credit[id] = self.routers.credits_out(id, L);
            for d in 0..4 {
                out.links[id][d] = self.routers.link(id, d);
                out.credits[id][d] = self.routers.credits_out(id, d);
            }
        }
    }

    /// One clock edge with this cycle's inputs.
    fn commit(&mut self, inp: &VcMeshInputs) {
        if inp.rst {
            self.routers.reset();
            return;
        }
        self.flits.clear();
        self.credits.clear();
        for id in 0..self.nodes() {
            if let Some((vc, f)) = inp.inj[id] {
                self.flits.push((id, L, vc, f));
            }
            if inp.ej_credit[id] != 0 {
                self.credits.push((id, L, inp.ej_credit[id]));
            }
        }
        self.routers.clock(&self.flits, &self.credits);
    }

    fn assert_reset(inputs: &mut VcMeshInputs) {
        inputs.rst = true;
    }
}

/// A packet waiting at or travelling from a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VcPacket {
    pub id: u64,
    pub src: u16,
    pub dst: u16,
    pub flits: u32,
    /// Cycle the packet was handed to the NI.
    pub created: u64,
    /// VC class (0: requests, 1: replies): which VCs it may use under `xy_yx`
    /// routing ([`VcParams::class_vcs`]); every VC otherwise.
    pub class: u8,
}

/// Terminal network interface: a source queue sending one packet at a time (head
/// on the lowest VC of its class with a credit, the rest of the packet on that VC), credit
/// counters per VC (updated at the end of the cycle a credit is seen), and a sink
/// that accepts every flit and returns its credit in the next cycle. Flit data is
/// `packet id * 256 + flit index` in bits 0..128 (masked to the plane's width), so a
/// scoreboard can check exactly-once, in-order delivery from the flits alone; a
/// 256-bit plane carries [`upper_data`] of that value in bits 128..256, so the upper
/// lanes move data that differs from flit to flit.
#[derive(Debug, Clone)]
pub struct VcNi {
    pub node: u16,
    pub v: usize,
    pub credits: [u8; MAX_VC],
    pub queue: VecDeque<VcPacket>,
    /// The VCs of each class (the same range twice but under `xy_yx`).
    class_vcs: [(u8, u8); 2],
    cur: Option<(u8, u32, VcPacket)>,
    ret: u8,
    width: u32,
}

/// Bits 128..256 of the payload whose low bits are `lo` (a multiply-xorshift mix: every
/// bit depends on the packet id and the flit index).
#[inline]
pub fn upper_data(lo: u128) -> u128 {
    let a = (lo as u64 ^ (lo >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let b = (a ^ a >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (a as u128) << 64 | (b ^ b >> 32) as u128
}

impl VcNi {
    pub fn new(p: &VcParams, node: usize) -> VcNi {
        VcNi {
            node: node as u16,
            v: p.vcs as usize,
            credits: [p.buf_depth as u8; MAX_VC],
            queue: VecDeque::new(),
            class_vcs: [0, 1].map(|c| {
                let r = p.class_vcs(c);
                (r.start as u8, r.end as u8)
            }),
            cur: None,
            ret: 0,
            width: p.flit_width,
        }
    }

    pub fn busy(&self) -> bool {
        self.cur.is_some() || !self.queue.is_empty()
    }

    /// A credit to return this cycle ([`VcNi::sink`] would return it).
    pub fn returning(&self) -> bool {
        self.ret != 0
    }

    /// This cycle's injection and ejection credit, given the mesh's registered outputs
    /// for this node. `allow` gates injection (a stall knob for random stimulus).
    /// The three parts ([`VcNi::send`], [`VcNi::take_credits`], [`VcNi::sink`]) may
    /// be called alone, in this order, by a driver that skips idle parts.
    #[inline]
    pub fn drive(&mut self, inj_credit: u8, ej: VcLink, allow: bool) -> (VcLink, u8) {
        let link = if allow { self.send() } else { None };
        self.take_credits(inj_credit);
        let ret = self.sink(ej.map(|(u, _)| u));
        (link, ret)
    }

    /// The flit injected this cycle, if any (with the credits registered before this
    /// cycle's returns).
    #[inline]
    pub fn send(&mut self) -> VcLink {
        if self.cur.is_none() {
            if let Some(p) = self.queue.front().copied() {
                let (lo, hi) = self.class_vcs[(p.class & 1) as usize];
                if let Some(vc) = (lo as usize..hi as usize).find(|&u| self.credits[u] > 0) {
                    self.queue.pop_front();
                    self.cur = Some((vc as u8, 0, p));
                }
            }
        }
        let (vc, sent, p) = self.cur?;
        if self.credits[vc as usize] == 0 {
            return None;
        }
        let lo = (p.id as u128) << 8 | sent as u128;
        let hi = if self.width > 128 { upper_data(lo) } else { 0 };
        let f = VcFlit { head: sent == 0, tail: sent + 1 == p.flits, src: self.node, dst: p.dst, data: vc_data(lo, hi, self.width) };
        self.credits[vc as usize] -= 1;
        self.cur = if sent + 1 == p.flits { None } else { Some((vc, sent + 1, p)) };
        Some((vc, f))
    }

    /// Injection credits returned by the mesh this cycle (bit u = VC u), counted at
    /// the end of the cycle.
    #[inline]
    pub fn take_credits(&mut self, inj_credit: u8) {
        for u in 0..self.v {
            self.credits[u] += inj_credit >> u & 1;
        }
    }

    /// The sink: the ejection credit of this cycle (for last cycle's flit; bit u =
    /// VC u) given this cycle's ejection VC.
    #[inline]
    pub fn sink(&mut self, ej_vc: Option<u8>) -> u8 {
        std::mem::replace(&mut self.ret, ej_vc.map_or(0, |u| 1 << u))
    }
}
