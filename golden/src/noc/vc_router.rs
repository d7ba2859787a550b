//! Input-buffered wormhole VC router (spec §1.11–1.12), cycle-accurate: the
//! request-plane router (64 bit, 1 VC x 8) and the baseline router (128 bit,
//! 3 VCs x 4).
//!
//! Pipeline (3 cycles per router at zero load):
//! 1. **BW**: a flit on an input link is written into its VC buffer at the edge.
//! 2. **RC + VA + SA** on the buffer head: XY (or YX) route; separable input-first
//!    VC allocation (a head requests the lowest-numbered free VC of its output port;
//!    each output VC picks one requester round-robin); separable input-first switch
//!    allocation (each input port picks one ready VC round-robin, each output port
//!    one input round-robin). A head may win VA and SA in the same cycle. The winner
//!    is popped into the output port's switch register.
//! 3. **ST + LT**: switch register -> link register, which drives the link.
//!
//! Credit flow control: one counter per output VC (BUF_DEPTH at reset); a credit
//! is returned from a register set in the cycle the flit leaves the buffer, so the
//! upstream counter sees it one cycle later. An output VC is free when it is not
//! allocated and holds all its credits (atomic VC reuse); the allocation ends when
//! the tail wins the switch. Round-robin pointers move past the winner on a grant.

use super::config::{Routing, VcParams};
use super::route_rom::{E, L, N, S, W};
use crate::model::Model;

pub const MAX_VC: usize = 4;
pub const MAX_DEPTH: usize = 8;
pub const NIV: usize = 5 * MAX_VC;

/// A flit of a VC plane (sideband fields as in the RTL: head, tail, src, dst).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct VcFlit {
    pub head: bool,
    pub tail: bool,
    /// Source and destination node ids (y*N + x).
    pub src: u16,
    pub dst: u16,
    pub data: u128,
}

/// A link value: `(vc, flit)` when valid.
pub type VcLink = Option<(u8, VcFlit)>;

/// Planted VC-router bugs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VcMutation {
    /// Switch allocation ignores the output VC's credits (buffer overrun downstream).
    IgnoreCredits,
    /// VC allocation grants the lowest-numbered requester instead of round robin
    /// (still a legal allocator: no invariant breaks, only the order changes).
    FixedPriorityVa,
}

#[derive(Debug, Clone, Copy, Default)]
struct Ring {
    f: [VcFlit; MAX_DEPTH],
    head: u8,
    count: u8,
}

impl Ring {
    #[inline]
    fn front(&self) -> Option<&VcFlit> {
        (self.count > 0).then(|| &self.f[self.head as usize])
    }
}

#[derive(Debug, Clone)]
pub struct VcRouter {
    pub x: u32,
    pub y: u32,
    pub n: u32,
    pub v: usize,
    pub depth: u8,
    routing: Routing,
    bufs: [Ring; NIV],
    alloc: [Option<(u8, u8)>; NIV],
    busy: [bool; NIV],
    pub credits: [u8; NIV],
    va_ptr: [u8; NIV],
    sa_in_ptr: [u8; 5],
    sa_out_ptr: [u8; 5],
    pub st: [VcLink; 5],
    /// Output link registers (index = output port; L = ejection).
    pub link: [VcLink; 5],
    /// Credit-return registers (index p*V + v).
    pub cred_out: [bool; NIV],
    pub mutation: Option<VcMutation>,
    /// A flit was written into a full buffer (never, with correct credits).
    pub overflow: bool,
    /// Flits in buffers and pipeline registers (for idle skipping).
    occupancy: u32,
    credit_deficit: u32,
}

impl VcRouter {
    pub fn new(p: &VcParams, n: u32, x: u32, y: u32) -> VcRouter {
        VcRouter {
            x,
            y,
            n,
            v: p.vcs as usize,
            depth: p.buf_depth as u8,
            routing: p.routing,
            bufs: [Ring::default(); NIV],
            alloc: [None; NIV],
            busy: [false; NIV],
            credits: [p.buf_depth as u8; NIV],
            va_ptr: [0; NIV],
            sa_in_ptr: [0; 5],
            sa_out_ptr: [0; 5],
            st: [None; 5],
            link: [None; 5],
            cred_out: [false; NIV],
            mutation: None,
            overflow: false,
            occupancy: 0,
            credit_deficit: 0,
        }
    }

    pub fn reset(&mut self) {
        let m = self.mutation;
        let p = VcParams { flit_width: 0, vcs: self.v as u32, buf_depth: self.depth as u32, routing: self.routing, planes: 1 };
        *self = VcRouter::new(&p, self.n, self.x, self.y);
        self.mutation = m;
    }

    /// Output port for a destination node.
    #[inline]
    pub fn route(&self, dst: u16) -> usize {
        let (dx, dy) = (dst as u32 % self.n, dst as u32 / self.n);
        let xfirst = self.routing == Routing::Xy;
        if xfirst || dy == self.y {
            if dx > self.x {
                return E;
            }
            if dx < self.x {
                return W;
            }
        }
        if dy > self.y {
            return N;
        }
        if dy < self.y {
            return S;
        }
        if dx > self.x {
            E
        } else if dx < self.x {
            W
        } else {
            L
        }
    }

    /// Buffer occupancy of input VC `p*V + v`.
    pub fn buf_count(&self, iv: usize) -> u8 {
        self.bufs[iv].count
    }

    /// Nothing buffered, in flight or owed: `step` would change nothing but pointers
    /// that cannot move without requests.
    #[inline]
    pub fn idle(&self) -> bool {
        self.occupancy == 0 && self.credit_deficit == 0 && !self.cred_out.iter().any(|&c| c)
    }

    /// Credits returned upstream this cycle for input port `p` (bit u = VC u).
    #[inline]
    pub fn credits_out(&self, p: usize) -> u8 {
        (0..self.v).fold(0u8, |a, u| a | (self.cred_out[p * self.v + u] as u8) << u)
    }

    /// The clock edge: inputs are this cycle's incoming links and credits (index
    /// o*V+u). Every output is a register, so the router's eval is reading `link` and
    /// `cred_out`.
    pub fn clock(&mut self, inl: &[VcLink; 5], cred_in: &[bool; NIV]) {
        let v = self.v;
        let nin = 5 * v;
        let d = self.depth;
        // ---- RC + VA ----
        let mut eff = self.alloc;
        let mut va_req: [u32; NIV] = [0; NIV]; // per output VC: bitmask of input VCs
        let mut any_va = false;
        for iv in 0..nin {
            if self.alloc[iv].is_none() {
                if let Some(f) = self.bufs[iv].front() {
                    if f.head {
                        let o = self.route(f.dst);
                        if let Some(u) = (0..v).find(|&u| !self.busy[o * v + u] && self.credits[o * v + u] == d) {
                            va_req[o * v + u] |= 1 << iv;
                            any_va = true;
                        }
                    }
                }
            }
        }
        let mut va_won: u32 = 0;
        if any_va {
            for ov in 0..nin {
                let r = va_req[ov];
                if r != 0 {
                    let w = if self.mutation == Some(VcMutation::FixedPriorityVa) {
                        r.trailing_zeros() as usize
                    } else {
                        rr_pick(r, self.va_ptr[ov] as u32, nin as u32)
                    };
                    eff[w] = Some(((ov / v) as u8, (ov % v) as u8));
                    va_won |= 1 << w;
                    self.va_ptr[ov] = ((w + 1) % nin) as u8;
                }
            }
        }
        // ---- SA ----
        let ignore = self.mutation == Some(VcMutation::IgnoreCredits);
        let mut cand: [Option<(usize, u8, u8)>; 5] = [None; 5];
        let mut out_req = [0u32; 5];
        for p in 0..5 {
            let mut mask = 0u32;
            for vv in 0..v {
                let iv = p * v + vv;
                if self.bufs[iv].count > 0 {
                    if let Some((o, u)) = eff[iv] {
                        if ignore || self.credits[o as usize * v + u as usize] > 0 {
                            mask |= 1 << vv;
                        }
                    }
                }
            }
            if mask != 0 {
                let vv = rr_pick(mask, self.sa_in_ptr[p] as u32, v as u32);
                let (o, u) = eff[p * v + vv].expect("allocated");
                cand[p] = Some((vv, o, u));
                out_req[o as usize] |= 1 << p;
            }
        }
        let mut dec = [false; NIV];
        let mut new_st: [VcLink; 5] = [None; 5];
        let mut popped = [false; NIV];
        for o in 0..5 {
            if out_req[o] != 0 {
                let p = rr_pick(out_req[o], self.sa_out_ptr[o] as u32, 5);
                self.sa_out_ptr[o] = ((p + 1) % 5) as u8;
                let (vv, _, u) = cand[p].expect("candidate");
                self.sa_in_ptr[p] = ((vv + 1) % v) as u8;
                let iv = p * v + vv;
                let f = self.bufs[iv].f[self.bufs[iv].head as usize];
                popped[iv] = true;
                new_st[o] = Some((u, f));
                dec[o * v + u as usize] = true;
                if f.tail {
                    eff[iv] = None;
                    self.busy[o * v + u as usize] = false;
                    va_won &= !(1 << iv);
                }
            }
        }
        for iv in 0..nin {
            if va_won & (1 << iv) != 0 {
                let (o, u) = eff[iv].expect("won");
                self.busy[o as usize * v + u as usize] = true;
            }
        }
        self.alloc = eff;
        // ---- registers ----
        let mut occ = self.occupancy;
        for iv in 0..nin {
            self.cred_out[iv] = popped[iv];
            if popped[iv] {
                let b = &mut self.bufs[iv];
                b.head = (b.head + 1) % d;
                b.count -= 1;
                occ -= 1;
            }
        }
        for (p, l) in inl.iter().enumerate() {
            if let Some((vc, f)) = l {
                let b = &mut self.bufs[p * v + *vc as usize];
                if b.count >= d {
                    self.overflow = true;
                } else {
                    let t = (b.head + b.count) % d;
                    b.f[t as usize] = *f;
                    b.count += 1;
                    occ += 1;
                }
            }
        }
        for o in 0..5 {
            if self.link[o].is_some() {
                occ -= 1;
            }
            self.link[o] = self.st[o];
            self.st[o] = new_st[o];
            if new_st[o].is_some() {
                occ += 1;
            }
        }
        let mut deficit = 0;
        for ov in 0..nin {
            let c = self.credits[ov] as i32 - dec[ov] as i32 + cred_in[ov] as i32;
            self.credits[ov] = c.clamp(0, 255) as u8;
            deficit += (d as i32 - c).max(0) as u32;
        }
        self.credit_deficit = deficit;
        self.occupancy = occ;
    }
}

/// Inputs of one router (the router-level design `vc_router_top_*`), ports E, W, N,
/// S, L.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VcRouterInputs {
    pub rst: bool,
    /// Input links.
    pub links: [VcLink; 5],
    /// Credits coming back per output port (bit u = one credit of VC u).
    pub credits: [u8; 5],
}

/// Outputs of one router: the link registers and the credit-return registers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VcRouterOutputs {
    /// Output links (registered).
    pub links: [VcLink; 5],
    /// Credits returned per input port (bit u = VC u).
    pub credits: [u8; 5],
}

/// One router with its position tied, as the router-level design `routers/<plane>`.
impl Model for VcRouter {
    type In = VcRouterInputs;
    type Out = VcRouterOutputs;

    fn idle_inputs(&self) -> VcRouterInputs {
        VcRouterInputs { rst: false, links: [None; 5], credits: [0; 5] }
    }

    fn new_outputs(&self) -> VcRouterOutputs {
        VcRouterOutputs::default()
    }

    fn eval(&mut self, _inputs: &VcRouterInputs, out: &mut VcRouterOutputs) {
        out.links = self.link;
        for p in 0..5 {
            out.credits[p] = self.credits_out(p);
        }
    }

    fn commit(&mut self, inputs: &VcRouterInputs) {
        if inputs.rst {
            self.reset();
            return;
        }
        let mut cred = [false; NIV];
        for (o, &bits) in inputs.credits.iter().enumerate() {
            for u in 0..self.v {
                cred[o * self.v + u] = bits >> u & 1 == 1;
            }
        }
        self.clock(&inputs.links, &cred);
    }

    fn assert_reset(inputs: &mut VcRouterInputs) {
        inputs.rst = true;
    }
}

/// Round-robin pick: the first set bit of `req` at or after `ptr` (cyclically, over
/// `n` positions).
#[inline]
pub fn rr_pick(req: u32, ptr: u32, n: u32) -> usize {
    let hi = req & !((1u32 << ptr) - 1);
    if hi != 0 {
        hi.trailing_zeros() as usize
    } else {
        debug_assert!(req & ((1u32 << n) - 1) != 0);
        req.trailing_zeros() as usize
    }
}
