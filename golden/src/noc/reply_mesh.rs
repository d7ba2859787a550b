//! The reply plane as one block (spec §4.2 step 3): N x N hinge routers wired into a
//! mesh, an MC network interface at every MC node and the GOM at its node.
//! Cycle-accurate at every port and every link of `macro_reply_mesh_<preset>`.
//!
//! Ports: per MC `mc_reply_v/link` in (from L2/DRAM) and `mc_reply_ready` out; per
//! node the ejection `eject` (the router's `loc_out`, except STATUS flits at the GOM
//! node, which go to the GOM). Observability: every router's four bypass outputs,
//! local injection, grant, latch states, drop pulses, overrun/collision flags and
//! its schedule view `(prologue, reconf, ovl_b, ovl_a)`.

use super::config::NocConfig;
use super::gom::Gom;
use super::hinge_router::{HingeRouter, RouterOut};
use super::link::{LinkFmt, T_STATUS};
use super::mc_ni::McNi;
use super::route_rom::{E, L, N, S, W};
use crate::model::Model;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyInputs {
    pub rst: bool,
    pub mc_v: Vec<bool>,
    /// Reply flits from L2/DRAM (valid and src fields are ignored).
    pub mc_link: Vec<u128>,
}

impl ReplyInputs {
    pub fn new(c: &NocConfig) -> Self {
        ReplyInputs { rst: false, mc_v: vec![false; c.m()], mc_link: vec![0; c.m()] }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyOutputs {
    pub mc_ready: Vec<bool>,
    /// Per node: ejected flit (valid bit = eject valid).
    pub eject: Vec<u128>,
    /// Per node: bypass outputs E, W, N, S.
    pub links: Vec<[u128; 4]>,
    /// Per node: local injection on a transfer (else 0).
    pub inj: Vec<u128>,
    pub grant: Vec<bool>,
    pub latch_state: Vec<u32>,
    pub drop: Vec<u8>,
    pub overrun: Vec<bool>,
    pub collision: Vec<bool>,
    /// Per node `{prologue, reconf, ovl_b, ovl_a}` (see [`HingeRouter::sched_word`]).
    pub sched: Vec<u32>,
    /// Epoch-relative cycle of router 0.
    pub ecyc: u32,
    // ---- not ports: for the scoreboard ----
    /// Per node: the router's loc_out (including STATUS at the GOM node).
    pub loc_out: Vec<u128>,
    pub rout: Vec<RouterOut>,
    /// Per node: the flit that entered the network at this node (with its injection).
    pub gom_inject: u128,
}

impl ReplyOutputs {
    pub fn new(c: &NocConfig) -> Self {
        let n = c.nodes();
        ReplyOutputs {
            mc_ready: vec![false; c.m()],
            eject: vec![0; n],
            links: vec![[0; 4]; n],
            inj: vec![0; n],
            grant: vec![false; n],
            latch_state: vec![0; n],
            drop: vec![0; n],
            overrun: vec![false; n],
            collision: vec![false; n],
            sched: vec![0; n],
            ecyc: 0,
            loc_out: vec![0; n],
            rout: vec![RouterOut::default(); n],
            gom_inject: 0,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ReplyMesh {
    pub cfg: NocConfig,
    pub fmt: LinkFmt,
    pub n: usize,
    pub routers: Vec<HingeRouter>,
    pub nis: Vec<McNi>,
    /// Node of each MC.
    pub mc_node: Vec<usize>,
    pub gom: Gom,
    status_slot: Vec<bool>,
}

impl ReplyMesh {
    pub fn new(c: &NocConfig) -> ReplyMesh {
        let n = c.n as usize;
        let mut routers = Vec::new();
        for y in 0..c.n {
            for x in 0..c.n {
                routers.push(HingeRouter::new(c, x, y));
            }
        }
        ReplyMesh {
            cfg: c.clone(),
            fmt: LinkFmt::new(c),
            n,
            routers,
            nis: (0..c.m()).map(|i| McNi::new(c, i)).collect(),
            mc_node: c.mcs.iter().map(|&(x, y)| c.node(x, y)).collect(),
            gom: Gom::new(c),
            status_slot: vec![false; c.m()],
        }
    }

    /// Width of one `sched` entry: ovl_a, ovl_b (SW+1 each), reconf, prologue.
    pub fn sched_w(&self) -> u32 {
        2 * (self.cfg.sw() + 1) + 2
    }

    /// Overlay code "none" (all ones).
    pub fn ovl_none(&self) -> u32 {
        (1 << (self.cfg.sw() + 1)) - 1
    }

    pub fn sched_word(&self, r: &HingeRouter) -> u32 {
        r.sched_word(&self.cfg)
    }

    /// Evaluate one cycle: outputs from registered state and `inp`, next state prepared.
    pub fn eval(&mut self, inp: &ReplyInputs, out: &mut ReplyOutputs) {
        let n = self.n;
        let nn = n * n;
        // 1. grants and injections
        let gom_node = self.cfg.gom_node();
        for id in 0..nn {
            out.grant[id] = false;
            out.inj[id] = 0;
        }
        for (i, &id) in self.mc_node.iter().enumerate() {
            let r = &self.routers[id];
            let (g, st) = r.grant(&r.ctrl.out());
            self.status_slot[i] = st;
            out.grant[id] = g;
            let o = self.nis[i].out(st);
            out.mc_ready[i] = o.ready;
            if g && o.loc_in_valid {
                out.inj[id] = o.loc_in_link;
            }
        }
        {
            let r = &self.routers[gom_node];
            let co = r.ctrl.out();
            let (g, _) = r.grant(&co);
            out.grant[gom_node] = g;
            let f = self.gom.inject(co.ecyc);
            if g && self.fmt.is_valid(f) {
                out.inj[gom_node] = f;
            }
            out.gom_inject = out.inj[gom_node];
        }
        // 2. bypass sweeps
        for y in 0..n {
            for x in 0..n {
                let id = y * n + x;
                let sin = if x > 0 { out.links[id - 1][E] } else { 0 };
                out.links[id][E] = self.routers[id].bypass_out(E, sin, out.inj[id]);
            }
            for x in (0..n).rev() {
                let id = y * n + x;
                let sin = if x + 1 < n { out.links[id + 1][W] } else { 0 };
                out.links[id][W] = self.routers[id].bypass_out(W, sin, out.inj[id]);
            }
        }
        for x in 0..n {
            for y in 0..n {
                let id = y * n + x;
                let sin = if y > 0 { out.links[id - n][N] } else { 0 };
                out.links[id][N] = self.routers[id].bypass_out(N, sin, 0);
            }
            for y in (0..n).rev() {
                let id = y * n + x;
                let sin = if y + 1 < n { out.links[id + n][S] } else { 0 };
                out.links[id][S] = self.routers[id].bypass_out(S, sin, 0);
            }
        }
        // 3. latches
        for id in 0..nn {
            let (x, y) = (id % n, id / n);
            let mut w = [0u128; 5];
            w[E] = if x + 1 < n { out.links[id + 1][W] } else { 0 };
            w[W] = if x > 0 { out.links[id - 1][E] } else { 0 };
            w[N] = if y + 1 < n { out.links[id + n][S] } else { 0 };
            w[S] = if y > 0 { out.links[id - n][N] } else { 0 };
            w[L] = out.inj[id];
            out.sched[id] = self.sched_word(&self.routers[id]);
            out.latch_state[id] = self.routers[id].latch_states();
            let ro = self.routers[id].eval(&w);
            out.loc_out[id] = ro.loc_out;
            out.eject[id] = ro.loc_out;
            out.drop[id] = ro.drop;
            out.overrun[id] = ro.overrun;
            out.collision[id] = ro.collision;
            out.rout[id] = ro;
        }
        out.ecyc = self.routers[0].ctrl.ecyc;
        // 4. GOM and NIs
        let lo = out.loc_out[gom_node];
        let status = if self.fmt.is_valid(lo) && self.fmt.type_of(lo) == T_STATUS { lo } else { 0 };
        if status != 0 {
            out.eject[gom_node] = 0;
        }
        self.gom.eval(self.routers[gom_node].ctrl.ecyc, status);
        for (i, &id) in self.mc_node.iter().enumerate() {
            let st = self.status_slot[i];
            self.nis[i].eval(inp.mc_v[i], inp.mc_link[i], out.grant[id], st);
        }
    }

    /// The clock edge after [`ReplyMesh::eval`] with the same inputs.
    pub fn commit(&mut self, inp: &ReplyInputs) {
        if inp.rst {
            for r in self.routers.iter_mut() {
                r.reset();
            }
            for ni in self.nis.iter_mut() {
                ni.reset();
            }
            self.gom.reset();
            return;
        }
        for r in self.routers.iter_mut() {
            r.commit();
        }
        for ni in self.nis.iter_mut() {
            ni.commit();
        }
        self.gom.commit();
    }
}

impl Model for ReplyMesh {
    type In = ReplyInputs;
    type Out = ReplyOutputs;

    fn idle_inputs(&self) -> ReplyInputs {
        ReplyInputs::new(&self.cfg)
    }

    fn new_outputs(&self) -> ReplyOutputs {
        ReplyOutputs::new(&self.cfg)
    }

    fn eval(&mut self, inputs: &ReplyInputs, outputs: &mut ReplyOutputs) {
        ReplyMesh::eval(self, inputs, outputs)
    }

    fn commit(&mut self, inputs: &ReplyInputs) {
        ReplyMesh::commit(self, inputs)
    }

    fn assert_reset(inputs: &mut ReplyInputs) {
        inputs.rst = true;
    }
}
