//! A mesh of [`VcRouter`]s (request plane or one baseline plane), cycle-accurate at
//! every port of `vc_mesh_<...>`, plus the terminal network interfaces ([`VcNi`])
//! that inject packets under credit flow control and sink ejected flits.
//!
//! Ports: per node injection `inj` (valid, vc, flit) in and its credits
//! `inj_credit` (one bit per VC) out; ejection `ej` out and `ej_credit` in (the
//! sink returns one credit per ejected flit, in the following cycle). Every router
//! output is a register, so every port and link is a function of registered state.

use std::collections::VecDeque;

use super::config::VcParams;
use super::route_rom::{E, L, N, S, W};
use super::vc_router::{VcFlit, VcLink, VcMutation, VcRouter, NIV};
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

#[derive(Debug, Clone)]
pub struct VcMesh {
    pub n: usize,
    pub v: usize,
    pub params: VcParams,
    pub routers: Vec<VcRouter>,
    links_in: Vec<[VcLink; 5]>,
    creds_in: Vec<[bool; NIV]>,
    /// Routers stepped this cycle (scratch).
    active: Vec<usize>,
}

const OPP: [usize; 4] = [W, E, S, N];

/// The node next to `id` in direction `dir` of an `n` x `n` mesh.
#[inline]
fn neighbour(n: usize, id: usize, dir: usize) -> Option<usize> {
    let (x, y) = (id % n, id / n);
    match dir {
        E if x + 1 < n => Some(id + 1),
        W if x > 0 => Some(id - 1),
        N if y + 1 < n => Some(id + n),
        S if y > 0 => Some(id - n),
        _ => None,
    }
}

impl VcMesh {
    pub fn new(p: &VcParams, n: u32) -> VcMesh {
        let mut routers = Vec::new();
        for y in 0..n {
            for x in 0..n {
                routers.push(VcRouter::new(p, n, x, y));
            }
        }
        let nn = (n * n) as usize;
        VcMesh {
            n: n as usize,
            v: p.vcs as usize,
            params: *p,
            routers,
            links_in: vec![[None; 5]; nn],
            creds_in: vec![[false; NIV]; nn],
            active: Vec::with_capacity(nn),
        }
    }

    /// Node `id`'s terminal outputs alone: its injection credits and ejection link
    /// (what a network interface reads; cheaper than a whole [`Model::eval`]).
    #[inline]
    pub fn terminal(&self, id: usize) -> (u8, VcLink) {
        let r = &self.routers[id];
        (r.credits_out(L), r.link[L])
    }

    /// Plant `m` in every router (`None`: the correct router).
    pub fn set_mutation(&mut self, m: Option<VcMutation>) {
        for r in self.routers.iter_mut() {
            r.mutation = m;
        }
    }

    pub fn overflow(&self) -> bool {
        self.routers.iter().any(|r| r.overflow)
    }
}

/// Every router output is a register: eval reads them (the inputs act at the edge).
impl Model for VcMesh {
    type In = VcMeshInputs;
    type Out = VcMeshOutputs;

    fn idle_inputs(&self) -> VcMeshInputs {
        VcMeshInputs::new(self.routers.len())
    }

    fn new_outputs(&self) -> VcMeshOutputs {
        VcMeshOutputs::new(self.routers.len())
    }

    /// The registered outputs (`inputs` act only at the edge).
    fn eval(&mut self, _inputs: &VcMeshInputs, out: &mut VcMeshOutputs) {
        for (id, r) in self.routers.iter().enumerate() {
            out.ej[id] = r.link[L];
            out.inj_credit[id] = r.credits_out(L);
            for d in 0..4 {
                out.links[id][d] = r.link[d];
                out.credits[id][d] = r.credits_out(d);
            }
        }
    }

    /// One clock edge with this cycle's inputs.
    fn commit(&mut self, inp: &VcMeshInputs) {
        if inp.rst {
            for r in self.routers.iter_mut() {
                r.reset();
            }
            return;
        }
        let v = self.v;
        let nn = self.routers.len();
        // gather every router's inputs from its neighbours' registered outputs (all
        // before any router steps); routers with nothing to do are skipped
        self.active.clear();
        for id in 0..nn {
            let mut any = inp.inj[id].is_some() || inp.ej_credit[id] != 0;
            for d in 0..4 {
                if let Some(nb) = neighbour(self.n, id, d) {
                    let r = &self.routers[nb];
                    any |= r.link[OPP[d]].is_some() || r.cred_out[OPP[d] * v..OPP[d] * v + v].iter().any(|&c| c);
                }
            }
            if !any && self.routers[id].idle() {
                continue;
            }
            let li = &mut self.links_in[id];
            let ci = &mut self.creds_in[id];
            for d in 0..4 {
                match neighbour(self.n, id, d) {
                    Some(nb) => {
                        let r = &self.routers[nb];
                        li[d] = r.link[OPP[d]];
                        ci[d * v..d * v + v].copy_from_slice(&r.cred_out[OPP[d] * v..OPP[d] * v + v]);
                    }
                    None => li[d] = None,
                }
            }
            li[L] = inp.inj[id];
            for u in 0..v {
                ci[L * v + u] = inp.ej_credit[id] >> u & 1 == 1;
            }
            self.active.push(id);
        }
        for &id in &self.active {
            self.routers[id].clock(&self.links_in[id], &self.creds_in[id]);
        }
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
}

/// Terminal network interface: a source queue sending one packet at a time (head
/// on the lowest VC with a credit, the rest of the packet on that VC), credit
/// counters per VC (updated at the end of the cycle a credit is seen), and a sink
/// that accepts every flit and returns its credit in the next cycle. Flit data is
/// `packet id * 256 + flit index` (masked to the plane's width), so a scoreboard can
/// check exactly-once, in-order delivery from the flits alone.
#[derive(Debug, Clone)]
pub struct VcNi {
    pub node: u16,
    pub v: usize,
    pub credits: [u8; 4],
    pub queue: VecDeque<VcPacket>,
    cur: Option<(u8, u32, VcPacket)>,
    ret: u8,
    data_mask: u128,
}

impl VcNi {
    pub fn new(p: &VcParams, node: usize) -> VcNi {
        VcNi {
            node: node as u16,
            v: p.vcs as usize,
            credits: [p.buf_depth as u8; 4],
            queue: VecDeque::new(),
            cur: None,
            ret: 0,
            data_mask: crate::bits::Field::new("data", 0, p.flit_width).mask(),
        }
    }

    pub fn busy(&self) -> bool {
        self.cur.is_some() || !self.queue.is_empty()
    }

    /// This cycle's injection and ejection credit, given the mesh's registered outputs
    /// for this node. `allow` gates injection (a stall knob for random stimulus).
    pub fn drive(&mut self, inj_credit: u8, ej: VcLink, allow: bool) -> (VcLink, u8) {
        let mut link = None;
        if allow {
            if self.cur.is_none() {
                if let Some(p) = self.queue.front().copied() {
                    if let Some(vc) = (0..self.v).find(|&u| self.credits[u] > 0) {
                        self.queue.pop_front();
                        self.cur = Some((vc as u8, 0, p));
                    }
                }
            }
            if let Some((vc, sent, p)) = self.cur {
                if self.credits[vc as usize] > 0 {
                    let f = VcFlit {
                        head: sent == 0,
                        tail: sent + 1 == p.flits,
                        src: self.node,
                        dst: p.dst,
                        data: ((p.id as u128) << 8 | sent as u128) & self.data_mask,
                    };
                    link = Some((vc, f));
                    self.credits[vc as usize] -= 1;
                    self.cur = if sent + 1 == p.flits { None } else { Some((vc, sent + 1, p)) };
                }
            }
        }
        for u in 0..self.v {
            if inj_credit >> u & 1 == 1 {
                self.credits[u] += 1;
            }
        }
        let ret = self.ret;
        self.ret = match ej {
            Some((u, _)) => 1 << u,
            None => 0,
        };
        (link, ret)
    }
}
