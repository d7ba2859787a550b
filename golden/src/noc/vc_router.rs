//! Input-buffered wormhole VC router (spec §1.11–1.12), cycle-accurate: the
//! request-plane router (64 bit, 1 VC x 8), the baseline router (128 bit,
//! 3 VCs x 4) and the LLC-Compute platform's router (256 bit, 8 VCs x 8,
//! llc_omni_compute.md §3). Up to [`MAX_VC`] VCs per port and 256-bit payloads.
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
//!
//! **Data layout** ([`VcRouters`]): the routers of a plane (or the one router of the
//! router-level design) are one value, not one object each. Each router's registered
//! state is one cache-aligned block of arrays (its VC buffers as 4-byte flit words,
//! per-VC occupancy, allocation, credits and round-robin pointers, and `u64` bit masks
//! of the VCs that hold flits, are allocated, are ready or are free: 5 x 8 = 40 VCs
//! fit); the flits
//! themselves sit in a shared pool until they leave, with the cycle they entered.
//! Sets of routers are `u64` masks (routers with flits buffered, with registers to
//! drain), so an edge touches only the routers, VCs and ports with work, and an idle
//! plane costs nothing. The switch and link registers are a three-slot ring per
//! router (slot `t % 3` drives the link in cycle `t`, `(t + 1) % 3` is the switch
//! register, `(t + 2) % 3` receives the next switch winners); the credit-return
//! registers a two-slot ring. A register therefore moves from switch to link by the
//! cycle count alone, and a link is read where it is, at the edge, straight into the
//! neighbour's buffer: nothing is copied into per-router input arrays.
//!
//! An edge is three passes: **switch** (RC + VA + SA and the pops, every router with
//! flits, from registered state only), **links** (every link and credit register of
//! the cycle written into the neighbour's buffer and counters, then freed) and
//! **inputs** (the terminal or port inputs of the cycle, the same way). Pops come
//! before pushes and all reads before writes, which is the clocked model's order.
//! The first model (one object per router, inputs gathered from the neighbours'
//! registers every cycle) is gone; `golden/tests/noc_vc_exact.rs` holds digests of
//! its behaviour, which this one reproduces cycle for cycle.

use super::config::{Routing, VcParams};
use super::route_rom::{E, L, N, S, W};
use crate::model::Model;

pub const MAX_VC: usize = 8;
pub const MAX_DEPTH: usize = 8;
pub const NIV: usize = 5 * MAX_VC;

/// A flit's payload: up to 256 bits as little-endian `u64` words (bits above the
/// plane's flit width are 0).
pub type VcData = [u64; 4];

/// A flit of a VC plane (sideband fields as in the RTL: head, tail, src, dst).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct VcFlit {
    pub head: bool,
    pub tail: bool,
    /// Source and destination node ids (y*N + x).
    pub src: u16,
    pub dst: u16,
    pub data: VcData,
}

impl VcFlit {
    /// The low 128 bits of the payload.
    #[inline]
    pub fn data_lo(&self) -> u128 {
        lo128(&self.data)
    }
}

/// The low 128 bits of a payload.
#[inline]
pub fn lo128(d: &VcData) -> u128 {
    d[0] as u128 | (d[1] as u128) << 64
}

/// Payload words `lo` (bits 0..128) and `hi` (128..256), cut to `width` bits.
#[inline]
pub fn vc_data(lo: u128, hi: u128, width: u32) -> VcData {
    let mut d = [lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64];
    for (k, w) in d.iter_mut().enumerate() {
        let from = 64 * k as u32;
        if width <= from {
            *w = 0;
        } else if width - from < 64 {
            *w &= (1u64 << (width - from)) - 1;
        }
    }
    d
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
    /// VC allocation ignores the `xy_yx` VC classes (a reply may take a request VC).
    IgnoreVcClass,
    /// The VC id on an output link keeps its low two bits only (a 2-bit VC field: what a
    /// router written for at most 4 VCs does with VCs 4..=7). Invisible with up to 4
    /// VCs.
    TruncatedVcId,
}

/// Most routers a [`VcRouters`] holds (an 8x8 mesh; router sets are `u64` masks).
pub const MAX_ROUTERS: usize = 64;
/// No router there (a mesh edge) / no output VC allocated.
const NONE: u8 = u8::MAX;
/// The port facing each direction's neighbour (index E, W, N, S).
pub const OPP: [usize; 4] = [W, E, S, N];

/// Set bits of `m`, lowest first.
#[inline]
pub(crate) fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            b
        })
    })
}

/// A flit arriving on an input port at the coming edge: (router, port, vc, flit).
pub type PortFlit = (usize, usize, u8, VcFlit);
/// Credits arriving for an output port at the coming edge: (router, port, bit u =
/// one credit of VC u).
pub type PortCredits = (usize, usize, u8);

/// VC-indexed arrays hold this many entries (5 ports x [`MAX_VC`] = 40, rounded up to
/// a power of two so that an index masked with [`IVM`] needs no bounds check).
const NVA: usize = 64;
const IVM: usize = NVA - 1;

/// The registered state of a set of VC routers (see the module doc): a whole mesh
/// plane ([`super::vc_mesh::VcMesh`]), whose links go router to router, or one
/// router ([`VcRouter`]), whose links are all ports.
#[derive(Debug, Clone)]
pub struct VcRouters {
    /// Mesh side (node ids are y * n + x).
    n: u32,
    v: usize,
    /// Input (and output) VCs per router: 5 v.
    nin: usize,
    depth: u8,
    params: VcParams,
    pos: Vec<(u32, u32)>,
    /// Port and VC of each VC index `p * v + u` (no division in the allocators).
    port_of: [u8; NVA],
    vc_of: [u8; NVA],
    pub mutation: Option<VcMutation>,
    /// Output port towards each node, per VC class and router (`(class * routers +
    /// router) * n * n + dst`; both classes route alike but under `xy_yx`).
    route: Vec<u8>,
    /// Per input VC index: the offset of its class's table in `route`, and the output
    /// VCs its packets may take (bit u = VC u; every VC but under `xy_yx`).
    class_route: [u32; NVA],
    class_vcs: [u64; NVA],
    /// Neighbour per router and direction E, W, N, S ([`NONE`] at an edge; always
    /// NONE for a lone router, whose links are ports).
    nbr: Vec<[u8; 4]>,
    /// Per router: its buffers, allocators and registers.
    st: Vec<RouterState>,
    /// Every flit inside the routers, with the cycle it entered; buffers and
    /// registers hold flit words (see [`word`]) that point here. Free slots are
    /// listed in `free`.
    pool: Vec<VcFlit>,
    born: Vec<u64>,
    free: Vec<u32>,
    overflow: Vec<bool>,
    /// Cycles since reset.
    t: u64,
    /// Routers with flits in a buffer; with a valid register in pipe slot s; with
    /// credits in credit slot s; with an ejection (port L) in pipe slot s; with
    /// injection credits (port L) in credit slot s.
    has_buf: u64,
    has_pipe: [u64; 3],
    has_cred: [u64; 2],
    has_ej: [u64; 3],
    has_inj_cred: [u64; 2],
    /// Output VCs (router, ov) taken below zero credits in this edge (planted bug
    /// only).
    negative: Vec<(usize, usize)>,
    /// VA requests per output VC (scratch of `switch`, all zero between calls).
    va_req: [u64; NVA],
}

impl VcRouters {
    /// Routers at `pos` of an `n` x `n` mesh; `mesh` wires each to its neighbours
    /// (the routers must then be the whole mesh, in node order).
    pub fn new(p: &VcParams, n: u32, pos: &[(u32, u32)], mesh: bool) -> VcRouters {
        let (v, nr) = (p.vcs as usize, pos.len());
        assert!((1..=MAX_VC).contains(&v) && (1..=MAX_DEPTH as u32).contains(&p.buf_depth) && nr <= MAX_ROUTERS, "{p:?}, {nr} routers");
        let nn = (n * n) as usize;
        let route = (0..2u8).flat_map(|c| pos.iter().flat_map(move |&(x, y)| (0..nn).map(move |dst| route(p.routing.of_class(c), n, x, y, dst as u16) as u8))).collect();
        let class_of = |i: usize| if p.class_vcs(1).start == 0 { 0 } else { u8::from(p.class_vcs(1).contains(&(i % v))) };
        let nbr = pos
            .iter()
            .map(|&(x, y)| {
                let mut nb = [NONE; 4];
                if mesh {
                    assert_eq!(nr, nn, "a mesh holds every node");
                    let id = (y * n + x) as usize;
                    for (d, s) in nb.iter_mut().enumerate() {
                        *s = match d {
                            E if x + 1 < n => id + 1,
                            W if x > 0 => id - 1,
                            N if y + 1 < n => id + n as usize,
                            S if y > 0 => id - n as usize,
                            _ => NONE as usize,
                        } as u8;
                    }
                }
                nb
            })
            .collect();
        VcRouters {
            n,
            v,
            nin: 5 * v,
            depth: p.buf_depth as u8,
            params: *p,
            pos: pos.to_vec(),
            port_of: std::array::from_fn(|i| (i / v).min(7) as u8),
            vc_of: std::array::from_fn(|i| (i % v) as u8),
            mutation: None,
            route,
            class_route: std::array::from_fn(|i| class_of(i) as u32 * (nr * nn) as u32),
            class_vcs: std::array::from_fn(|i| p.class_vcs(class_of(i)).fold(0, |m, u| m | 1 << u)),
            nbr,
            st: vec![RouterState::new(p.buf_depth as i8); nr],
            pool: Vec::new(),
            born: Vec::new(),
            free: Vec::new(),
            overflow: vec![false; nr],
            t: 0,
            has_buf: 0,
            has_pipe: [0; 3],
            has_cred: [0; 2],
            has_ej: [0; 3],
            has_inj_cred: [0; 2],
            negative: Vec::new(),
            va_req: [0; NVA],
        }
    }

    /// The synchronous reset (the planted bug stays).
    pub fn reset(&mut self) {
        let m = self.mutation;
        let mesh = self.nbr.iter().any(|nb| nb.iter().any(|&x| x != NONE));
        *self = VcRouters::new(&self.params, self.n, &self.pos, mesh);
        self.mutation = m;
    }

    /// Router `r`'s link register on output port `o` in this cycle.
    #[inline]
    pub fn link(&self, r: usize, o: usize) -> VcLink {
        let (st, ls) = (&self.st[r], (self.t % 3) as usize);
        (st.pipe_valid[ls] >> o & 1 == 1).then(|| (st.pipe_vc[ls][o], self.pool[word::slot(st.pipe_word[ls][o])]))
    }

    /// Cycles since the edge that took the flit on router `r`'s link `o` in through
    /// a port (for a mesh: injected it), if the link carries one.
    #[inline]
    pub fn link_age(&self, r: usize, o: usize) -> Option<u64> {
        let (st, ls) = (&self.st[r], (self.t % 3) as usize);
        (st.pipe_valid[ls] >> o & 1 == 1).then(|| self.t - self.born[word::slot(st.pipe_word[ls][o])])
    }

    /// Credits router `r` returns upstream on input port `p` in this cycle (bit u =
    /// VC u).
    #[inline]
    pub fn credits_out(&self, r: usize, p: usize) -> u8 {
        (self.st[r].cred[(self.t % 2) as usize] >> (p * self.v) & ((1u64 << self.v) - 1)) as u8
    }

    /// Routers whose terminal port (L) carries an ejected flit or injection credits
    /// in this cycle.
    #[inline]
    pub fn terminal_active(&self) -> u64 {
        self.has_ej[(self.t % 3) as usize] | self.has_inj_cred[(self.t % 2) as usize]
    }

    /// Flits buffered in input VC `iv` (= p * V + v) of router `r`.
    pub fn buf_count(&self, r: usize, iv: usize) -> u8 {
        self.st[r].count[iv]
    }

    /// Router `r` has written a flit into a full buffer (never, with correct credits).
    pub fn overflow(&self, r: usize) -> bool {
        self.overflow[r]
    }

    /// Output port of router `r` towards node `dst` (for requests, the lower VC class).
    #[inline]
    pub fn route(&self, r: usize, dst: u16) -> usize {
        self.route[r * (self.n * self.n) as usize + dst as usize] as usize
    }

    /// The clock edge: every router's switch stage, its link and credit registers
    /// into its neighbours, then this cycle's port inputs (flits on input ports,
    /// credits on output ports).
    pub fn clock(&mut self, flits: &[PortFlit], credits: &[PortCredits]) {
        let (ns, cs) = (((self.t + 2) % 3) as usize, ((self.t + 1) % 2) as usize);
        for r in bits(self.has_buf) {
            self.switch(r, ns, cs);
        }
        self.drain_links();
        for &(r, p, vc, f) in flits {
            let slot = match self.free.pop() {
                Some(k) => k as usize,
                None => {
                    self.pool.push(f);
                    self.born.push(0);
                    self.pool.len() - 1
                }
            };
            self.pool[slot] = f;
            self.born[slot] = self.t;
            self.push(r, p * self.v + vc as usize, word::new(slot, &f));
            self.has_buf |= 1 << r;
        }
        for &(r, o, b) in credits {
            self.credit(r, o, b);
        }
        for (r, ov) in self.negative.drain(..) {
            self.st[r].credits[ov] = self.st[r].credits[ov].max(0);
        }
        self.t += 1;
    }

    /// Write flit word `f` into input VC `iv` of router `r` (BW); a full buffer
    /// drops it. The caller marks `r` in `has_buf` (kept in a register by the loops).
    #[inline]
    fn push(&mut self, r: usize, iv: usize, f: u32) {
        let st = &mut self.st[r];
        let k = iv & IVM;
        let c = st.count[k];
        if c >= self.depth {
            self.overflow[r] = true;
            self.free.push(word::slot(f) as u32);
            return;
        }
        st.count[k] = c + 1;
        st.nonempty |= 1 << k;
        // rings of MAX_DEPTH slots whatever the depth (the count bounds them)
        st.buf[k][(st.head[k] + c) as usize & (MAX_DEPTH - 1)] = f;
    }

    /// Credits `bits` (bit u = VC u) for output port `o` of router `r`.
    #[inline]
    fn credit(&mut self, r: usize, o: usize, bits: u8) {
        for u in 0..self.v {
            if bits >> u & 1 == 1 {
                self.credit_one(r, o * self.v + u);
            }
        }
    }

    /// One credit for output VC `ov` of router `r`.
    #[inline]
    fn credit_one(&mut self, r: usize, ov: usize) {
        let st = &mut self.st[r];
        let ov = ov & IVM;
        st.credits[ov] += 1;
        let c = st.credits[ov];
        if c == 1 {
            st.cred_ok |= 1 << ov;
            if st.owner[ov] != NONE {
                st.ok_in |= 1 << st.owner[ov];
            }
        }
        // exactly full (a planted IgnoreCredits can take a counter past it)
        if c == self.depth as i8 {
            st.cred_full |= 1 << ov;
        } else {
            st.cred_full &= !(1 << ov);
        }
    }

    /// The link and credit registers of this cycle into the neighbours (a lone
    /// router's go to its ports, which the caller has read), then free.
    fn drain_links(&mut self) {
        let (ls, cs) = ((self.t % 3) as usize, (self.t % 2) as usize);
        let mut has_buf = 0u64;
        for r in bits(self.has_pipe[ls] | self.has_cred[cs]) {
            let nb = self.nbr[r];
            let st = &mut self.st[r];
            let valid = std::mem::take(&mut st.pipe_valid[ls]);
            let (words, vcs) = (st.pipe_word[ls], st.pipe_vc[ls]);
            let c = std::mem::take(&mut st.cred[cs]);
            for o in bits(valid as u64) {
                let o = o & 7;
                let f = words[o];
                if o != L && nb[o] != NONE {
                    self.push(nb[o] as usize, OPP[o] * self.v + vcs[o] as usize, f);
                    has_buf |= 1 << nb[o];
                } else {
                    // out of the routers: ejected, or to a lone router's port
                    self.free.push(word::slot(f) as u32);
                }
            }
            for iv in bits(c) {
                let p = self.port_of[iv & IVM] as usize;
                if p != L && nb[p] != NONE {
                    self.credit_one(nb[p] as usize, OPP[p] * self.v + self.vc_of[iv & IVM] as usize);
                }
            }
        }
        self.has_buf |= has_buf;
        self.has_pipe[ls] = 0;
        self.has_cred[cs] = 0;
        self.has_ej[ls] = 0;
        self.has_inj_cred[cs] = 0;
    }

    /// RC + VA + SA of router `r` on its buffer heads, from registered state; the
    /// winners are popped into pipe slot `ns`, their credits into credit slot `cs`.
    fn switch(&mut self, r: usize, ns: usize, cs: usize) {
        let (v, nin) = (self.v, self.nin);
        let st = &mut self.st[r];
        let mut nonempty = st.nonempty;
        let mut allocated = st.allocated;
        let mut busy = st.busy;
        let vmask = (1u64 << v) - 1;
        let ignore = self.mutation == Some(VcMutation::IgnoreCredits);
        let heads = nonempty & !allocated;
        if heads == 0 && nonempty & if ignore { allocated } else { st.ok_in } == 0 {
            // every flit waits for a credit: nothing moves
            return;
        }
        // ---- RC + VA: each unallocated head requests the lowest free output VC ----
        if heads != 0 {
            let req = &mut self.va_req;
            let mut asked = 0u64;
            let nn = (self.n * self.n) as usize;
            for iv in bits(heads) {
                let iv = iv & IVM;
                let f = st.buf[iv][st.head[iv] as usize & (MAX_DEPTH - 1)];
                if !word::head(f) {
                    continue;
                }
                let o = self.route[self.class_route[iv] as usize + r * nn + word::dst(f)] as usize;
                let class = if self.mutation == Some(VcMutation::IgnoreVcClass) { vmask } else { self.class_vcs[iv] };
                let free = (!busy & st.cred_full) >> (o * v) & class;
                if free != 0 {
                    let ov = (o * v + free.trailing_zeros() as usize) & IVM;
                    req[ov] |= 1 << iv;
                    asked |= 1 << ov;
                }
            }
            let fixed = self.mutation == Some(VcMutation::FixedPriorityVa);
            for ov in bits(asked) {
                let ov = ov & IVM;
                let w = if fixed { req[ov].trailing_zeros() as usize } else { rr_pick(req[ov], st.va_ptr[ov] as u32, nin as u32) } & IVM;
                req[ov] = 0;
                st.alloc[w] = ov as u8;
                st.owner[ov] = w as u8;
                // a free output VC holds all its credits
                st.ok_in |= 1 << w;
                allocated |= 1 << w;
                // (every request is in: marking the output VC busy now is marking it
                // at the end of the edge; a tail that leaves in this edge frees it)
                busy |= 1 << ov;
                // past the winner (w + 1 = nin wraps in rr_pick)
                st.va_ptr[ov] = (w + 1) as u8;
            }
        }
        // ---- SA: each input port one ready VC, each output port one input ----
        let ready = nonempty & if ignore { allocated } else { st.ok_in };
        let mut cand = [0u8; 8];
        let mut out_req = [0u8; 8];
        let mut outs = 0u32;
        let mut left = ready;
        while left != 0 {
            let p = self.port_of[left.trailing_zeros() as usize & IVM] as usize & 7;
            left &= !(vmask << (p * v));
            let mask = ready >> (p * v) & vmask;
            let vv = rr_pick(mask, st.sa_in_ptr[p] as u32, v as u32);
            let ov = st.alloc[(p * v + vv) & IVM] as usize & IVM;
            cand[p] = vv as u8;
            let o = self.port_of[ov];
            out_req[o as usize & 7] |= 1 << p;
            outs |= 1 << o;
        }
        let mut popped = 0u64;
        let mut valid = 0u8;
        for o in bits(outs as u64) {
            let o = o & 7;
            let p = rr_pick(out_req[o] as u64, st.sa_out_ptr[o] as u32, 5) & 7;
            st.sa_out_ptr[o] = (p + 1) as u8;
            let vv = cand[p] as usize;
            st.sa_in_ptr[p] = (vv + 1) as u8;
            let iv = (p * v + vv) & IVM;
            let ov = st.alloc[iv] as usize & IVM;
            let h = st.head[iv] as usize;
            let f = st.buf[iv][h & (MAX_DEPTH - 1)];
            st.head[iv] = (h as u8 + 1) & (MAX_DEPTH as u8 - 1);
            st.count[iv] -= 1;
            if st.count[iv] == 0 {
                nonempty &= !(1 << iv);
            }
            popped |= 1 << iv;
            st.pipe_word[ns][o] = f;
            st.pipe_vc[ns][o] = if self.mutation == Some(VcMutation::TruncatedVcId) { self.vc_of[ov] & 3 } else { self.vc_of[ov] };
            valid |= 1 << o;
            st.credits[ov] -= 1;
            st.cred_full &= !(1 << ov);
            if st.credits[ov] <= 0 {
                st.cred_ok &= !(1 << ov);
                st.ok_in &= !(1 << iv);
                if st.credits[ov] < 0 {
                    self.negative.push((r, ov));
                }
            }
            if word::tail(f) {
                st.alloc[iv] = NONE;
                st.owner[ov] = NONE;
                st.ok_in &= !(1 << iv);
                allocated &= !(1 << iv);
                busy &= !(1 << ov);
            }
        }
        st.nonempty = nonempty;
        st.allocated = allocated;
        st.busy = busy;
        let bit = 1u64 << r;
        if nonempty == 0 {
            self.has_buf &= !bit;
        }
        if valid != 0 {
            st.pipe_valid[ns] = valid;
            self.has_pipe[ns] |= bit;
            if valid >> L & 1 == 1 {
                self.has_ej[ns] |= bit;
            }
        }
        if popped != 0 {
            st.cred[cs] = popped;
            self.has_cred[cs] |= bit;
            if popped >> (L * v) != 0 {
                self.has_inj_cred[cs] |= bit;
            }
        }
    }
}

/// One router's registered state: VC buffers (flit words), allocator state and the
/// switch, link and credit-return registers, in one block. VC-indexed arrays hold
/// [`NVA`] = 64 entries and port-indexed ones 8, so an index masked to six (three)
/// bits needs no bounds check.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct RouterState {
    /// Bit iv: input VC iv holds flits / has an output VC.
    nonempty: u64,
    allocated: u64,
    /// Bit ov: output VC ov is allocated / has a credit / holds all its credits.
    busy: u64,
    cred_ok: u64,
    cred_full: u64,
    /// Bit iv: input VC iv has an output VC with a credit (ready for the switch
    /// when it holds a flit).
    ok_in: u64,
    /// Per input VC: occupancy, ring head, the output VC allocated (NONE if none).
    count: [u8; NVA],
    head: [u8; NVA],
    alloc: [u8; NVA],
    /// Per output VC: the input VC it is allocated to (NONE if none), credits
    /// (signed: a planted `IgnoreCredits` may take one below 0 inside an edge, which
    /// ends clamped at 0 as the counter's saturating update does) and the VA
    /// round-robin pointer.
    credits: [i8; NVA],
    va_ptr: [u8; NVA],
    owner: [u8; NVA],
    /// Per port: switch round-robin pointers (input and output side).
    sa_in_ptr: [u8; 8],
    sa_out_ptr: [u8; 8],
    /// Switch and link registers, three slots rotating with the cycle (see the
    /// module doc): flit word and VC per output port, valid ports (bit o).
    pipe_word: [[u32; 8]; 3],
    pipe_vc: [[u8; 8]; 3],
    pipe_valid: [u8; 3],
    /// Credit-return registers, two slots rotating with the cycle: bit iv.
    cred: [u64; 2],
    /// Per input VC: its ring of flit words.
    buf: [[u32; MAX_DEPTH]; NVA],
}

impl RouterState {
    fn new(depth: i8) -> RouterState {
        RouterState {
            nonempty: 0,
            allocated: 0,
            busy: 0,
            cred_ok: !0,
            cred_full: !0,
            ok_in: 0,
            count: [0; NVA],
            head: [0; NVA],
            alloc: [NONE; NVA],
            credits: [depth; NVA],
            va_ptr: [0; NVA],
            owner: [NONE; NVA],
            sa_in_ptr: [0; 8],
            sa_out_ptr: [0; 8],
            pipe_word: [[0; 8]; 3],
            pipe_vc: [[0; 8]; 3],
            pipe_valid: [0; 3],
            cred: [0; 2],
            buf: [[0; MAX_DEPTH]; NVA],
        }
    }
}

/// A flit inside the routers as buffers and registers hold it: its pool slot (bits
/// 0..16), destination (16..24), head (24) and tail (25): what the allocators read,
/// in four bytes; the whole flit stays in the pool until it leaves.
mod word {
    use super::VcFlit;

    #[inline]
    pub fn new(slot: usize, f: &VcFlit) -> u32 {
        assert!(slot < 1 << 16 && f.dst < 1 << 8, "flit pool slot {slot}, destination {}", f.dst);
        slot as u32 | (f.dst as u32) << 16 | (f.head as u32) << 24 | (f.tail as u32) << 25
    }
    #[inline]
    pub fn slot(w: u32) -> usize {
        (w & 0xffff) as usize
    }
    #[inline]
    pub fn dst(w: u32) -> usize {
        (w >> 16 & 0xff) as usize
    }
    #[inline]
    pub fn head(w: u32) -> bool {
        w >> 24 & 1 == 1
    }
    #[inline]
    pub fn tail(w: u32) -> bool {
        w >> 25 & 1 == 1
    }
}

/// Output port for `dst` of the router at (`x`, `y`) of an `n` x `n` mesh (`xy_yx`
/// routes as its request class, XY: see [`Routing::of_class`]).
pub fn route(routing: Routing, n: u32, x: u32, y: u32, dst: u16) -> usize {
    let routing = routing.of_class(0);
    let (dx, dy) = (dst as u32 % n, dst as u32 / n);
    if routing == Routing::Xy || dy == y {
        if dx > x {
            return E;
        }
        if dx < x {
            return W;
        }
    }
    if dy > y {
        return N;
    }
    if dy < y {
        return S;
    }
    if dx > x {
        E
    } else if dx < x {
        W
    } else {
        L
    }
}

/// One router with its position tied (the router-level design `routers/<plane>`):
/// a [`VcRouters`] of one, every link a port.
#[derive(Debug, Clone)]
pub struct VcRouter {
    pub x: u32,
    pub y: u32,
    pub n: u32,
    pub v: usize,
    pub depth: u8,
    core: VcRouters,
    flits: Vec<PortFlit>,
    credits: Vec<PortCredits>,
}

impl VcRouter {
    pub fn new(p: &VcParams, n: u32, x: u32, y: u32) -> VcRouter {
        VcRouter {
            x,
            y,
            n,
            v: p.vcs as usize,
            depth: p.buf_depth as u8,
            core: VcRouters::new(p, n, &[(x, y)], false),
            flits: Vec::with_capacity(5),
            credits: Vec::with_capacity(5),
        }
    }

    pub fn reset(&mut self) {
        self.core.reset();
    }

    /// Plant `m` (`None`: the correct router).
    pub fn set_mutation(&mut self, m: Option<VcMutation>) {
        self.core.mutation = m;
    }

    /// Output port for a destination node.
    #[inline]
    pub fn route(&self, dst: u16) -> usize {
        self.core.route(0, dst)
    }

    /// Buffer occupancy of input VC `p*V + v`.
    pub fn buf_count(&self, iv: usize) -> u8 {
        self.core.buf_count(0, iv)
    }

    /// A flit was written into a full buffer (never, with correct credits).
    pub fn overflow(&self) -> bool {
        self.core.overflow(0)
    }

    /// Output link register of port `o` (L = ejection) in this cycle.
    #[inline]
    pub fn link(&self, o: usize) -> VcLink {
        self.core.link(0, o)
    }

    /// Credits returned upstream this cycle for input port `p` (bit u = VC u).
    #[inline]
    pub fn credits_out(&self, p: usize) -> u8 {
        self.core.credits_out(0, p)
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
        for p in 0..5 {
            out.links[p] = self.link(p);
            out.credits[p] = self.credits_out(p);
        }
    }

    fn commit(&mut self, inputs: &VcRouterInputs) {
        if inputs.rst {
            self.reset();
            return;
        }
        self.flits.clear();
        self.credits.clear();
        for p in 0..5 {
            if let Some((vc, f)) = inputs.links[p] {
                self.flits.push((0, p, vc, f));
            }
            if inputs.credits[p] != 0 {
                self.credits.push((0, p, inputs.credits[p]));
            }
        }
        self.core.clock(&self.flits, &self.credits);
    }

    fn assert_reset(inputs: &mut VcRouterInputs) {
        inputs.rst = true;
    }
}

/// Round-robin pick: the first set bit of `req` at or after `ptr` (cyclically, over
/// `n` positions; `ptr = n` is position 0).
#[inline]
pub fn rr_pick(req: u64, ptr: u32, n: u32) -> usize {
    let hi = req & !((1u64 << ptr) - 1);
    if hi != 0 {
        hi.trailing_zeros() as usize
    } else {
        debug_assert!(req & ((1u64 << n) - 1) != 0);
        req.trailing_zeros() as usize
    }
}
