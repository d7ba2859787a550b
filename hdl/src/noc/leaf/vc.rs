//! Leaves of the input-buffered wormhole VC router (spec §1.11–1.12; golden
//! `golden::noc::vc_router`): request plane (64 bit, 1 VC x 8) and baseline
//! (128 bit, 3 VCs x 4). The router is the structural template
//! `templates/noc/vc_router.v`; its dataflow, one leaf per box, is
//!
//! ```text
//!  VcBuffer x5V --> RouteCompute x5V --> VcAlloc --> RrArb<5V> x5V (VA) --> SwAlloc
//!     ^   |                                                                  |
//!     |   +------------------------------------------------------------------+--> RrArb<5> x5 (SA out)
//!     |                                                                      v
//!   pop  <-- SaResult <------------------------------------------------ grants
//!               |--> CreditCounter x5V, VcState (alloc, busy, pointers, credit return)
//!               +--> Crossbar (switch register st_r -> link register link_r -> output link)
//! ```
//!
//! State leaves (`VcBuffer`, `CreditCounter`, `VcState`, `Crossbar`) present only
//! register outputs, routed to their ports by [`RegQ`] links; every other leaf is
//! purely combinational. No leaf's `always @(*)` both reads a signal and writes one
//! that can reach it again, so Verilator sees no loop (a router's outputs are all
//! registers anyway).
//!
//! Index conventions (as golden): input VC `iv = p*V + v`, output VC `ov = o*V + u`,
//! ports E=0, W=1, N=2, S=3, L=4. Round-robin pointers are kept as masks of the
//! positions *below* the pointer (`nm`), so golden's "first request at or after the
//! pointer, else the first" is `hi = req & ~nm`, grant = lowest set bit of `hi`, else of
//! `req`; after a grant `g` (one-hot) the new mask is `g | (g - 1)` (golden:
//! pointer = winner + 1).
//!
//! Flit layout (FW = W + 4 CW + 2 bits): `{head, tail, src_y, src_x, dst_y, dst_x,
//! data[W-1:0]}`, defined by `golden::noc::flit::VcLayout`.
#![allow(clippy::needless_range_loop, reason = "hdl_gen bodies index port arrays by loop variable: rust-hdl unrolls only range loops into Verilog")]

use rust_hdl::prelude::*;

use crate::prim::{MemRead, QReg, ReadPtrMem, RegQ};

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

/// Input VC buffer: a FIFO of `D = 2^A` flits in a [`ReadPtrMem`] (write at the
/// tail pointer, read at the memory's own read pointer) with a count register. Its
/// outputs, the head flit (`head__data_o`) and the count (`count__q_o`), are functions
/// of registers only. Push and pop in the same cycle are fine; the credit protocol
/// guarantees no push when full and the switch allocator no pop when empty.
#[derive(LogicBlock)]
pub struct VcBuffer<const FW: usize, const C: usize, const A: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub push_v_i: Signal<In, Bit>,
    pub push_flit_i: Signal<In, Bits<FW>>,
    pub pop_i: Signal<In, Bit>,
    pub head: MemRead<FW>,
    pub count: RegQ<C>,
    mem: ReadPtrMem<FW, A>,
    tail_r: QReg<A>,
    count_r: QReg<C>,
    one_c: Constant<Bits<C>>,
    one_a: Constant<Bits<A>>,
}

impl<const FW: usize, const C: usize, const A: usize> Default for VcBuffer<FW, C, A> {
    fn default() -> Self {
        assert!((1 << A) < (1 << C));
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            push_v_i: Default::default(),
            push_flit_i: Default::default(),
            pop_i: Default::default(),
            head: Default::default(),
            count: Default::default(),
            mem: Default::default(),
            tail_r: Default::default(),
            count_r: Default::default(),
            one_c: k(1),
            one_a: k(1),
        }
    }
}

impl<const FW: usize, const C: usize, const A: usize> Logic for VcBuffer<FW, C, A> {
    #[hdl_gen]
    fn update(&mut self) {
        MemRead::<FW>::link(&mut self.head, &mut self.mem.rd);
        RegQ::<C>::link(&mut self.count, &mut self.count_r.q);
        self.mem.clk_i.next = self.clk_i.val();
        self.mem.rst_i.next = self.rst_i.val();
        self.tail_r.clk_i.next = self.clk_i.val();
        self.tail_r.rst_i.next = self.rst_i.val();
        self.count_r.clk_i.next = self.clk_i.val();
        self.count_r.rst_i.next = self.rst_i.val();
        self.mem.w_v_i.next = self.push_v_i.val();
        self.mem.w_addr_i.next = self.tail_r.q.q_o.val();
        self.mem.w_data_i.next = self.push_flit_i.val();
        self.mem.pop_i.next = self.pop_i.val();
        self.tail_r.d_i.next = self.tail_r.q.q_o.val();
        if self.push_v_i.val() {
            self.tail_r.d_i.next = self.tail_r.q.q_o.val() + self.one_a.val();
        }
        self.count_r.d_i.next = self.count.q_o.val();
        if self.push_v_i.val() & !self.pop_i.val() {
            self.count_r.d_i.next = self.count.q_o.val() + self.one_c.val();
        }
        if self.pop_i.val() & !self.push_v_i.val() {
            self.count_r.d_i.next = self.count.q_o.val() - self.one_c.val();
        }
    }
}

/// Route computation of a head flit: XY (or YX with `yx_i`) dimension order.
/// `port_o`: E=0, W=1, N=2, S=3, L=4.
#[derive(LogicBlock)]
pub struct RouteCompute<const CW: usize> {
    pub dx_i: Signal<In, Bits<CW>>,
    pub dy_i: Signal<In, Bits<CW>>,
    pub x_i: Signal<In, Bits<CW>>,
    pub y_i: Signal<In, Bits<CW>>,
    pub yx_i: Signal<In, Bit>,
    pub port_o: Signal<Out, Bits<3>>,
    xok: Signal<Local, Bit>,
    p_e: Constant<Bits<3>>,
    p_w: Constant<Bits<3>>,
    p_n: Constant<Bits<3>>,
    p_s: Constant<Bits<3>>,
    p_l: Constant<Bits<3>>,
}

impl<const CW: usize> Default for RouteCompute<CW> {
    fn default() -> Self {
        Self {
            dx_i: Default::default(),
            dy_i: Default::default(),
            x_i: Default::default(),
            y_i: Default::default(),
            yx_i: Default::default(),
            port_o: Default::default(),
            xok: Default::default(),
            p_e: k(0),
            p_w: k(1),
            p_n: k(2),
            p_s: k(3),
            p_l: k(4),
        }
    }
}

impl<const CW: usize> Logic for RouteCompute<CW> {
    #[hdl_gen]
    fn update(&mut self) {
        // X first (XY), or X only once Y is done (YX)
        self.xok.next = !self.yx_i.val() | (self.dy_i.val() == self.y_i.val());
        if self.xok.val() & (self.dx_i.val() > self.x_i.val()) {
            self.port_o.next = self.p_e.val();
        } else if self.xok.val() & (self.dx_i.val() < self.x_i.val()) {
            self.port_o.next = self.p_w.val();
        } else if self.dy_i.val() > self.y_i.val() {
            self.port_o.next = self.p_n.val();
        } else if self.dy_i.val() < self.y_i.val() {
            self.port_o.next = self.p_s.val();
        } else if self.dx_i.val() > self.x_i.val() {
            self.port_o.next = self.p_e.val();
        } else if self.dx_i.val() < self.x_i.val() {
            self.port_o.next = self.p_w.val();
        } else {
            self.port_o.next = self.p_l.val();
        }
    }
}

/// Round-robin arbiter over `N` requesters: one-hot grant of the first request at or
/// after the pointer (cyclically). The pointer (as the mask `nm_i` of the positions
/// below it) is a register of the owner, updated with `g | (g - 1)` on a grant.
#[derive(LogicBlock)]
pub struct RrArb<const N: usize> {
    pub req_i: Signal<In, Bits<N>>,
    pub nm_i: Signal<In, Bits<N>>,
    pub gnt_o: Signal<Out, Bits<N>>,
    hi: Signal<Local, Bits<N>>,
    zero: Constant<Bits<N>>,
    one: Constant<Bits<N>>,
}

impl<const N: usize> Default for RrArb<N> {
    fn default() -> Self {
        Self { req_i: Default::default(), nm_i: Default::default(), gnt_o: Default::default(), hi: Default::default(), zero: k(0), one: k(1) }
    }
}

impl<const N: usize> Logic for RrArb<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.hi.next = self.req_i.val() & !self.nm_i.val();
        if self.hi.val() != self.zero.val() {
            self.gnt_o.next = self.hi.val() & (!self.hi.val() + self.one.val());
        } else {
            self.gnt_o.next = self.req_i.val() & (!self.req_i.val() + self.one.val());
        }
    }
}

/// Tables shared by the allocation leaves: one-hot bit of each VC (`bit`), the VCs
/// of each port (`pmask`, NV bits), the port of
/// each VC (`vport`) and each VC's bit among its port's VCs (`vbit`).
struct Tables<const V: usize, const NV: usize> {
    bit: [Constant<Bits<NV>>; NV],
    pmask: [Constant<Bits<NV>>; 5],
    vport: [Constant<Bits<3>>; NV],
    vbit: [Constant<Bits<V>>; NV],
    pc: [Constant<Bits<3>>; 5],
}

fn onehot<const N: usize>(i: usize) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::default().replace_bit(i, true))
}

impl<const V: usize, const NV: usize> Tables<V, NV> {
    fn new() -> Self {
        assert_eq!(NV, 5 * V);
        Tables {
            bit: std::array::from_fn(onehot::<NV>),
            pmask: std::array::from_fn(|p| {
                let mut b = Bits::<NV>::default();
                for u in 0..V {
                    b = b.replace_bit(p * V + u, true);
                }
                Constant::new(b)
            }),
            vport: std::array::from_fn(|i| k((i / V) as u64)),
            vbit: std::array::from_fn(|i| onehot::<V>(i % V)),
            pc: std::array::from_fn(|p| k(p as u64)),
        }
    }
}

fn arr<T: Default, const L: usize>() -> [T; L] {
    std::array::from_fn(|_| T::default())
}

/// VC allocation requests (separable, input first). A head flit at the front of an
/// unallocated input VC asks for the lowest-numbered free VC of its output port (free
/// = not busy and holding all `D` credits, `used == 0`). Every requester of a port
/// asks for the same VC, so `req_o[ov]` is the port's requesters when `ov` is that
/// VC, else 0; `rq_o[iv]` is the requested VC (one-hot, 0 for no request).
#[derive(LogicBlock)]
pub struct VcAlloc<const V: usize, const NV: usize, const C: usize> {
    pub count_i: [Signal<In, Bits<C>>; NV],
    /// Head bit of every input VC's front flit.
    pub head_i: Signal<In, Bits<NV>>,
    pub port_i: [Signal<In, Bits<3>>; NV],
    pub allocd_i: Signal<In, Bits<NV>>,
    pub busy_i: Signal<In, Bits<NV>>,
    pub used_i: [Signal<In, Bits<C>>; NV],
    pub rq_o: [Signal<Out, Bits<NV>>; NV],
    pub req_o: [Signal<Out, Bits<NV>>; NV],
    freev: Signal<Local, Bits<NV>>,
    /// Lowest free VC of each port (one-hot) and the port's requesters.
    lf: [Signal<Local, Bits<NV>>; 5],
    preq: [Signal<Local, Bits<NV>>; 5],
    cand: [Signal<Local, Bits<NV>>; 5],
    bit: [Constant<Bits<NV>>; NV],
    pmask: [Constant<Bits<NV>>; 5],
    pc: [Constant<Bits<3>>; 5],
    zero_c: Constant<Bits<C>>,
    zero_nv: Constant<Bits<NV>>,
    one_nv: Constant<Bits<NV>>,
}

impl<const V: usize, const NV: usize, const C: usize> Default for VcAlloc<V, NV, C> {
    fn default() -> Self {
        let t = Tables::<V, NV>::new();
        Self {
            count_i: arr(),
            head_i: Default::default(),
            port_i: arr(),
            allocd_i: Default::default(),
            busy_i: Default::default(),
            used_i: arr(),
            rq_o: arr(),
            req_o: arr(),
            freev: Default::default(),
            lf: arr(),
            preq: arr(),
            cand: arr(),
            bit: t.bit,
            pmask: t.pmask,
            pc: t.pc,
            zero_c: k(0),
            zero_nv: k(0),
            one_nv: k(1),
        }
    }
}

impl<const V: usize, const NV: usize, const C: usize> Logic for VcAlloc<V, NV, C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.freev.next = !self.busy_i.val();
        for ov in 0..NV {
            if self.used_i[ov].val() != self.zero_c.val() {
                self.freev.next = self.freev.val() & !self.bit[ov].val();
            }
        }
        for p in 0..5 {
            self.cand[p].next = self.freev.val() & self.pmask[p].val();
            self.lf[p].next = self.cand[p].val() & (!self.cand[p].val() + self.one_nv.val());
            self.preq[p].next = self.zero_nv.val();
        }
        for iv in 0..NV {
            self.rq_o[iv].next = self.zero_nv.val();
            if (self.count_i[iv].val() != self.zero_c.val()) & ((self.head_i.val() & !self.allocd_i.val() & self.bit[iv].val()) != self.zero_nv.val()) {
                for p in 0..5 {
                    if self.port_i[iv].val() == self.pc[p].val() {
                        self.rq_o[iv].next = self.lf[p].val();
                        if self.lf[p].val() != self.zero_nv.val() {
                            self.preq[p].next = self.preq[p].val() | self.bit[iv].val();
                        }
                    }
                }
            }
        }
        for ov in 0..NV {
            self.req_o[ov].next = self.zero_nv.val();
            for p in 0..5 {
                if (self.lf[p].val() & self.bit[ov].val()) != self.zero_nv.val() {
                    self.req_o[ov].next = self.preq[p].val();
                }
            }
        }
    }
}

/// Switch allocation, input stage (separable, input first): VA wins (a VC's bit in
/// any VA grant), the effective allocation (registered, or won now), the VCs ready to
/// send (flit buffered, VC allocated, a credit downstream), one round-robin winner
/// per input port and its request to the output port it is allocated to.
#[derive(LogicBlock)]
pub struct SwAlloc<const V: usize, const NV: usize, const C: usize, const VW: usize, const NB: usize> {
    pub count_i: [Signal<In, Bits<C>>; NV],
    pub allocd_i: Signal<In, Bits<NV>>,
    pub alloc_i: [Signal<In, Bits<NV>>; NV],
    pub rq_i: [Signal<In, Bits<NV>>; NV],
    pub va_gnt_i: [Signal<In, Bits<NV>>; NV],
    pub used_i: [Signal<In, Bits<C>>; NV],
    pub in_nm_i: [Signal<In, Bits<V>>; 5],
    pub won_o: Signal<Out, Bits<NV>>,
    pub effv_o: Signal<Out, Bits<NV>>,
    pub eff_o: [Signal<Out, Bits<NV>>; NV],
    pub in_gnt_o: [Signal<Out, Bits<V>>; 5],
    pub cand_u_o: [Signal<Out, Bits<VW>>; 5],
    pub out_req_o: [Signal<Out, Bits<5>>; 5],
    won: Signal<Local, Bits<NV>>,
    effv: Signal<Local, Bits<NV>>,
    eff: [Signal<Local, Bits<NV>>; NV],
    credv: Signal<Local, Bits<NV>>,
    availv: Signal<Local, Bits<NV>>,
    mask: [Signal<Local, Bits<V>>; 5],
    hi: [Signal<Local, Bits<V>>; 5],
    gnt: [Signal<Local, Bits<V>>; 5],
    cand: [Signal<Local, Bits<NV>>; 5],
    csel: [Signal<Local, Bits<NV>>; 5],
    bit: [Constant<Bits<NV>>; NV],
    /// Offset of each port's VCs in a VC vector (an index of clog2(NV) = NB bits).
    poff: [Constant<Bits<NB>>; 5],
    vport: [Constant<Bits<3>>; NV],
    pc: [Constant<Bits<3>>; 5],
    vbit: [Constant<Bits<V>>; NV],
    pmask: [Constant<Bits<NV>>; 5],
    ucode: [Constant<Bits<VW>>; NV],
    depth: Constant<Bits<C>>,
    zero_c: Constant<Bits<C>>,
    zero_nv: Constant<Bits<NV>>,
    zero_v: Constant<Bits<V>>,
    one_v: Constant<Bits<V>>,
    zero_vw: Constant<Bits<VW>>,
    zero5: Constant<Bits<5>>,
    pbit: [Constant<Bits<5>>; 5],
}

impl<const V: usize, const NV: usize, const C: usize, const VW: usize, const NB: usize> SwAlloc<V, NV, C, VW, NB> {
    pub fn new(depth: usize) -> Self {
        let t = Tables::<V, NV>::new();
        Self {
            count_i: arr(),
            allocd_i: Default::default(),
            alloc_i: arr(),
            rq_i: arr(),
            va_gnt_i: arr(),
            used_i: arr(),
            in_nm_i: arr(),
            won_o: Default::default(),
            effv_o: Default::default(),
            eff_o: arr(),
            in_gnt_o: arr(),
            cand_u_o: arr(),
            out_req_o: arr(),
            won: Default::default(),
            effv: Default::default(),
            eff: arr(),
            credv: Default::default(),
            availv: Default::default(),
            mask: arr(),
            hi: arr(),
            gnt: arr(),
            cand: arr(),
            csel: arr(),
            bit: t.bit,
            poff: std::array::from_fn(|p| k((p * V) as u64)),
            vport: t.vport,
            pc: t.pc,
            vbit: t.vbit,
            pmask: t.pmask,
            ucode: std::array::from_fn(|i| k((i % V) as u64)),
            depth: k(depth as u64),
            zero_c: k(0),
            zero_nv: k(0),
            zero_v: k(0),
            one_v: k(1),
            zero_vw: k(0),
            zero5: k(0),
            pbit: std::array::from_fn(|p| k(1 << p)),
        }
    }
}

impl<const V: usize, const NV: usize, const C: usize, const VW: usize, const NB: usize> Logic for SwAlloc<V, NV, C, VW, NB> {
    #[hdl_gen]
    fn update(&mut self) {
        // VA winners: every input VC asks for one output VC, so a bit in any grant
        self.won.next = self.zero_nv.val();
        self.credv.next = self.zero_nv.val();
        for ov in 0..NV {
            self.won.next = self.won.val() | self.va_gnt_i[ov].val();
            if self.used_i[ov].val() != self.depth.val() {
                self.credv.next = self.credv.val() | self.bit[ov].val();
            }
        }
        self.won_o.next = self.won.val();
        self.effv.next = self.allocd_i.val() | self.won.val();
        self.effv_o.next = self.effv.val();
        self.availv.next = self.zero_nv.val();
        for iv in 0..NV {
            if (self.allocd_i.val() & self.bit[iv].val()) != self.zero_nv.val() {
                self.eff[iv].next = self.alloc_i[iv].val();
            } else {
                self.eff[iv].next = self.rq_i[iv].val();
            }
            self.eff_o[iv].next = self.eff[iv].val();
            // ready to send: a flit, a VC downstream, a credit for it
            if (self.count_i[iv].val() != self.zero_c.val())
                & ((self.effv.val() & self.bit[iv].val()) != self.zero_nv.val())
                & ((self.eff[iv].val() & self.credv.val()) != self.zero_nv.val())
            {
                self.availv.next = self.availv.val() | self.bit[iv].val();
            }
        }
        // one winner per input port (round robin over its VCs) and its output request
        for o in 0..5 {
            self.out_req_o[o].next = self.zero5.val();
        }
        for p in 0..5 {
            self.mask[p].next = self.availv.val().get_bits::<V>(self.poff[p].val().index());
            self.hi[p].next = self.mask[p].val() & !self.in_nm_i[p].val();
            if self.hi[p].val() != self.zero_v.val() {
                self.gnt[p].next = self.hi[p].val() & (!self.hi[p].val() + self.one_v.val());
            } else {
                self.gnt[p].next = self.mask[p].val() & (!self.mask[p].val() + self.one_v.val());
            }
            self.in_gnt_o[p].next = self.gnt[p].val();
            self.cand[p].next = self.zero_nv.val();
            for iv in 0..NV {
                if (self.vport[iv].val() == self.pc[p].val()) & ((self.gnt[p].val() & self.vbit[iv].val()) != self.zero_v.val()) {
                    self.cand[p].next = self.eff[iv].val();
                }
            }
            // the downstream VC's index
            self.cand_u_o[p].next = self.zero_vw.val();
            for ov in 0..NV {
                if (self.cand[p].val() & self.bit[ov].val()) != self.zero_nv.val() {
                    self.cand_u_o[p].next = self.ucode[ov].val();
                }
            }
            for o in 0..5 {
                self.csel[o].next = self.cand[p].val() & self.pmask[o].val();
                if self.csel[o].val() != self.zero_nv.val() {
                    self.out_req_o[o].next = self.out_req_o[o].val() | self.pbit[p].val();
                }
            }
        }
    }
}

/// Switch-allocation results: the input VCs that pop (their port's winner got its
/// output), the credit taken per output VC (`dec_o`), the VCs whose tail left
/// (`release_o`) and, per output VC, the allocations that end (`rel_ov_o`) or start
/// and survive this cycle (`won_ov_o`).
#[derive(LogicBlock)]
pub struct SaResult<const V: usize, const NV: usize> {
    pub in_gnt_i: [Signal<In, Bits<V>>; 5],
    pub out_gnt_i: [Signal<In, Bits<5>>; 5],
    pub eff_i: [Signal<In, Bits<NV>>; NV],
    pub won_i: Signal<In, Bits<NV>>,
    /// Tail bit of every input VC's front flit.
    pub tail_i: Signal<In, Bits<NV>>,
    pub pop_o: Signal<Out, Bits<NV>>,
    pub release_o: Signal<Out, Bits<NV>>,
    pub port_win_o: Signal<Out, Bits<5>>,
    pub dec_o: Signal<Out, Bits<NV>>,
    pub rel_ov_o: Signal<Out, Bits<NV>>,
    pub won_ov_o: Signal<Out, Bits<NV>>,
    win: Signal<Local, Bits<5>>,
    pop: Signal<Local, Bits<NV>>,
    rel: Signal<Local, Bits<NV>>,
    vport: [Constant<Bits<3>>; NV],
    pc: [Constant<Bits<3>>; 5],
    vbit: [Constant<Bits<V>>; NV],
    bit: [Constant<Bits<NV>>; NV],
    pbit: [Constant<Bits<5>>; 5],
    zero_v: Constant<Bits<V>>,
    zero5: Constant<Bits<5>>,
    zero_nv: Constant<Bits<NV>>,
}

impl<const V: usize, const NV: usize> Default for SaResult<V, NV> {
    fn default() -> Self {
        let t = Tables::<V, NV>::new();
        Self {
            in_gnt_i: arr(),
            out_gnt_i: arr(),
            eff_i: arr(),
            won_i: Default::default(),
            tail_i: Default::default(),
            pop_o: Default::default(),
            release_o: Default::default(),
            port_win_o: Default::default(),
            dec_o: Default::default(),
            rel_ov_o: Default::default(),
            won_ov_o: Default::default(),
            win: Default::default(),
            pop: Default::default(),
            rel: Default::default(),
            vport: t.vport,
            pc: t.pc,
            vbit: t.vbit,
            bit: t.bit,
            pbit: std::array::from_fn(|p| k(1 << p)),
            zero_v: k(0),
            zero5: k(0),
            zero_nv: k(0),
        }
    }
}

impl<const V: usize, const NV: usize> Logic for SaResult<V, NV> {
    #[hdl_gen]
    fn update(&mut self) {
        self.win.next = self.zero5.val();
        for o in 0..5 {
            self.win.next = self.win.val() | self.out_gnt_i[o].val();
        }
        self.port_win_o.next = self.win.val();
        self.pop.next = self.zero_nv.val();
        for iv in 0..NV {
            for p in 0..5 {
                if (self.vport[iv].val() == self.pc[p].val())
                    & ((self.win.val() & self.pbit[p].val()) != self.zero5.val())
                    & ((self.in_gnt_i[p].val() & self.vbit[iv].val()) != self.zero_v.val())
                {
                    self.pop.next = self.pop.val() | self.bit[iv].val();
                }
            }
        }
        self.pop_o.next = self.pop.val();
        self.rel.next = self.pop.val() & self.tail_i.val();
        self.release_o.next = self.rel.val();
        self.dec_o.next = self.zero_nv.val();
        self.rel_ov_o.next = self.zero_nv.val();
        self.won_ov_o.next = self.zero_nv.val();
        for iv in 0..NV {
            if (self.pop.val() & self.bit[iv].val()) != self.zero_nv.val() {
                self.dec_o.next = self.dec_o.val() | self.eff_i[iv].val();
            }
            if (self.rel.val() & self.bit[iv].val()) != self.zero_nv.val() {
                self.rel_ov_o.next = self.rel_ov_o.val() | self.eff_i[iv].val();
            }
            if (self.won_i.val() & !self.rel.val() & self.bit[iv].val()) != self.zero_nv.val() {
                self.won_ov_o.next = self.won_ov_o.val() | self.eff_i[iv].val();
            }
        }
    }
}

/// Credit counter of one output VC, kept as credits *used* (`D - credits`, reset 0):
/// +1 when a flit is sent on the VC, -1 when the downstream buffer returns a credit.
#[derive(LogicBlock)]
pub struct CreditCounter<const C: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub dec_i: Signal<In, Bit>,
    pub inc_i: Signal<In, Bit>,
    pub used: RegQ<C>,
    used_r: QReg<C>,
    one_c: Constant<Bits<C>>,
}

impl<const C: usize> Default for CreditCounter<C> {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            dec_i: Default::default(),
            inc_i: Default::default(),
            used: Default::default(),
            used_r: Default::default(),
            one_c: k(1),
        }
    }
}

impl<const C: usize> Logic for CreditCounter<C> {
    #[hdl_gen]
    fn update(&mut self) {
        RegQ::<C>::link(&mut self.used, &mut self.used_r.q);
        self.used_r.clk_i.next = self.clk_i.val();
        self.used_r.rst_i.next = self.rst_i.val();
        self.used_r.d_i.next = self.used.q_o.val();
        if self.dec_i.val() & !self.inc_i.val() {
            self.used_r.d_i.next = self.used.q_o.val() + self.one_c.val();
        }
        if self.inc_i.val() & !self.dec_i.val() {
            self.used_r.d_i.next = self.used.q_o.val() - self.one_c.val();
        }
    }
}

/// Allocation state of the router: per input VC its output VC (one-hot, `alloc`),
/// the allocated input VCs (`allocd`), the busy output VCs, the round-robin pointer
/// masks of VA (per output VC), SA input (per port) and SA output (per port), and the
/// credit-return register (one cycle after the pop, spec §1.12).
#[derive(LogicBlock)]
pub struct VcState<const V: usize, const NV: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub eff_i: [Signal<In, Bits<NV>>; NV],
    pub effv_i: Signal<In, Bits<NV>>,
    pub release_i: Signal<In, Bits<NV>>,
    pub pop_i: Signal<In, Bits<NV>>,
    pub rel_ov_i: Signal<In, Bits<NV>>,
    pub won_ov_i: Signal<In, Bits<NV>>,
    pub va_gnt_i: [Signal<In, Bits<NV>>; NV],
    pub in_gnt_i: [Signal<In, Bits<V>>; 5],
    pub port_win_i: Signal<In, Bits<5>>,
    pub out_gnt_i: [Signal<In, Bits<5>>; 5],
    pub alloc: [RegQ<NV>; NV],
    pub allocd: RegQ<NV>,
    pub busy: RegQ<NV>,
    pub va_nm: [RegQ<NV>; NV],
    pub in_nm: [RegQ<V>; 5],
    pub out_nm: [RegQ<5>; 5],
    pub cred: RegQ<NV>,
    alloc_r: [QReg<NV>; NV],
    allocd_r: QReg<NV>,
    busy_r: QReg<NV>,
    va_nm_r: [QReg<NV>; NV],
    in_nm_r: [QReg<V>; 5],
    out_nm_r: [QReg<5>; 5],
    cred_r: QReg<NV>,
    keep: Signal<Local, Bits<NV>>,
    pbit: [Constant<Bits<5>>; 5],
    zero_nv: Constant<Bits<NV>>,
    one_nv: Constant<Bits<NV>>,
    one_v: Constant<Bits<V>>,
    zero5: Constant<Bits<5>>,
    one5: Constant<Bits<5>>,
    bit: [Constant<Bits<NV>>; NV],
}

impl<const V: usize, const NV: usize> Default for VcState<V, NV> {
    fn default() -> Self {
        assert_eq!(NV, 5 * V);
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            eff_i: arr(),
            effv_i: Default::default(),
            release_i: Default::default(),
            pop_i: Default::default(),
            rel_ov_i: Default::default(),
            won_ov_i: Default::default(),
            va_gnt_i: arr(),
            in_gnt_i: arr(),
            port_win_i: Default::default(),
            out_gnt_i: arr(),
            alloc: arr(),
            allocd: Default::default(),
            busy: Default::default(),
            va_nm: arr(),
            in_nm: arr(),
            out_nm: arr(),
            cred: Default::default(),
            alloc_r: arr(),
            allocd_r: Default::default(),
            busy_r: Default::default(),
            va_nm_r: arr(),
            in_nm_r: arr(),
            out_nm_r: arr(),
            cred_r: Default::default(),
            keep: Default::default(),
            pbit: std::array::from_fn(|p| k(1 << p)),
            zero_nv: k(0),
            one_nv: k(1),
            one_v: k(1),
            zero5: k(0),
            one5: k(1),
            bit: std::array::from_fn(onehot::<NV>),
        }
    }
}

impl<const V: usize, const NV: usize> Logic for VcState<V, NV> {
    #[hdl_gen]
    fn update(&mut self) {
        RegQ::<NV>::link(&mut self.allocd, &mut self.allocd_r.q);
        RegQ::<NV>::link(&mut self.busy, &mut self.busy_r.q);
        RegQ::<NV>::link(&mut self.cred, &mut self.cred_r.q);
        self.allocd_r.clk_i.next = self.clk_i.val();
        self.busy_r.clk_i.next = self.clk_i.val();
        self.cred_r.clk_i.next = self.clk_i.val();
        self.allocd_r.rst_i.next = self.rst_i.val();
        self.busy_r.rst_i.next = self.rst_i.val();
        self.cred_r.rst_i.next = self.rst_i.val();
        // allocations: the effective ones, minus those whose tail left
        self.keep.next = self.effv_i.val() & !self.release_i.val();
        self.allocd_r.d_i.next = self.keep.val();
        // busy: cleared by a leaving tail, set by a VA win that did not leave at once
        self.busy_r.d_i.next = (self.busy.q_o.val() & !self.rel_ov_i.val()) | self.won_ov_i.val();
        // credit return one cycle after the pop
        self.cred_r.d_i.next = self.pop_i.val();
        for iv in 0..NV {
            RegQ::<NV>::link(&mut self.alloc[iv], &mut self.alloc_r[iv].q);
            RegQ::<NV>::link(&mut self.va_nm[iv], &mut self.va_nm_r[iv].q);
            self.alloc_r[iv].clk_i.next = self.clk_i.val();
            self.va_nm_r[iv].clk_i.next = self.clk_i.val();
            self.alloc_r[iv].rst_i.next = self.rst_i.val();
            self.va_nm_r[iv].rst_i.next = self.rst_i.val();
            if (self.keep.val() & self.bit[iv].val()) != self.zero_nv.val() {
                self.alloc_r[iv].d_i.next = self.eff_i[iv].val();
            } else {
                self.alloc_r[iv].d_i.next = self.zero_nv.val();
            }
            // VA pointer of output VC iv: past the winner
            self.va_nm_r[iv].d_i.next = self.va_nm[iv].q_o.val();
            if self.va_gnt_i[iv].val() != self.zero_nv.val() {
                self.va_nm_r[iv].d_i.next = self.va_gnt_i[iv].val() | (self.va_gnt_i[iv].val() - self.one_nv.val());
            }
        }
        for p in 0..5 {
            RegQ::<V>::link(&mut self.in_nm[p], &mut self.in_nm_r[p].q);
            RegQ::<5>::link(&mut self.out_nm[p], &mut self.out_nm_r[p].q);
            self.in_nm_r[p].clk_i.next = self.clk_i.val();
            self.out_nm_r[p].clk_i.next = self.clk_i.val();
            self.in_nm_r[p].rst_i.next = self.rst_i.val();
            self.out_nm_r[p].rst_i.next = self.rst_i.val();
            // SA input pointer moves only when the port's winner got its output
            self.in_nm_r[p].d_i.next = self.in_nm[p].q_o.val();
            if (self.port_win_i.val() & self.pbit[p].val()) != self.zero5.val() {
                self.in_nm_r[p].d_i.next = self.in_gnt_i[p].val() | (self.in_gnt_i[p].val() - self.one_v.val());
            }
            self.out_nm_r[p].d_i.next = self.out_nm[p].q_o.val();
            if self.out_gnt_i[p].val() != self.zero5.val() {
                self.out_nm_r[p].d_i.next = self.out_gnt_i[p].val() | (self.out_gnt_i[p].val() - self.one5.val());
            }
        }
    }
}

/// Crossbar with the switch register (ST) and the link register (LT): each input
/// port's winning VC head goes to the output its switch grant names, into `st_*`,
/// then into `link_*`, which drives the output link (registered). `link_u` is the
/// downstream VC.
#[derive(LogicBlock)]
pub struct Crossbar<const FW: usize, const V: usize, const NV: usize, const VW: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub head_i: [Signal<In, Bits<FW>>; NV],
    pub in_gnt_i: [Signal<In, Bits<V>>; 5],
    pub cand_u_i: [Signal<In, Bits<VW>>; 5],
    pub out_gnt_i: [Signal<In, Bits<5>>; 5],
    pub link_v: [RegQ<1>; 5],
    pub link_u: [RegQ<VW>; 5],
    pub link_f: [RegQ<FW>; 5],
    st_v_r: [QReg<1>; 5],
    st_u_r: [QReg<VW>; 5],
    st_f_r: [QReg<FW>; 5],
    link_v_r: [QReg<1>; 5],
    link_u_r: [QReg<VW>; 5],
    link_f_r: [QReg<FW>; 5],
    /// Each input port's candidate flit.
    cand: [Signal<Local, Bits<FW>>; 5],
    vport: [Constant<Bits<3>>; NV],
    pc: [Constant<Bits<3>>; 5],
    vbit: [Constant<Bits<V>>; NV],
    pbit: [Constant<Bits<5>>; 5],
    zero_v: Constant<Bits<V>>,
    zero5: Constant<Bits<5>>,
    zero_vw: Constant<Bits<VW>>,
    zero_fw: Constant<Bits<FW>>,
    zero1: Constant<Bits<1>>,
    one1: Constant<Bits<1>>,
}

impl<const FW: usize, const V: usize, const NV: usize, const VW: usize> Default for Crossbar<FW, V, NV, VW> {
    fn default() -> Self {
        let t = Tables::<V, NV>::new();
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            head_i: arr(),
            in_gnt_i: arr(),
            cand_u_i: arr(),
            out_gnt_i: arr(),
            link_v: arr(),
            link_u: arr(),
            link_f: arr(),
            st_v_r: arr(),
            st_u_r: arr(),
            st_f_r: arr(),
            link_v_r: arr(),
            link_u_r: arr(),
            link_f_r: arr(),
            cand: arr(),
            vport: t.vport,
            pc: t.pc,
            vbit: t.vbit,
            pbit: std::array::from_fn(|p| k(1 << p)),
            zero_v: k(0),
            zero5: k(0),
            zero_vw: k(0),
            zero_fw: k(0),
            zero1: k(0),
            one1: k(1),
        }
    }
}

impl<const FW: usize, const V: usize, const NV: usize, const VW: usize> Logic for Crossbar<FW, V, NV, VW> {
    #[hdl_gen]
    fn update(&mut self) {
        for p in 0..5 {
            self.cand[p].next = self.zero_fw.val();
            for iv in 0..NV {
                if (self.vport[iv].val() == self.pc[p].val()) & ((self.in_gnt_i[p].val() & self.vbit[iv].val()) != self.zero_v.val()) {
                    self.cand[p].next = self.head_i[iv].val();
                }
            }
        }
        for o in 0..5 {
            RegQ::<1>::link(&mut self.link_v[o], &mut self.link_v_r[o].q);
            RegQ::<VW>::link(&mut self.link_u[o], &mut self.link_u_r[o].q);
            RegQ::<FW>::link(&mut self.link_f[o], &mut self.link_f_r[o].q);
            self.st_v_r[o].clk_i.next = self.clk_i.val();
            self.st_u_r[o].clk_i.next = self.clk_i.val();
            self.st_f_r[o].clk_i.next = self.clk_i.val();
            self.link_v_r[o].clk_i.next = self.clk_i.val();
            self.link_u_r[o].clk_i.next = self.clk_i.val();
            self.link_f_r[o].clk_i.next = self.clk_i.val();
            self.st_v_r[o].rst_i.next = self.rst_i.val();
            self.st_u_r[o].rst_i.next = self.rst_i.val();
            self.st_f_r[o].rst_i.next = self.rst_i.val();
            self.link_v_r[o].rst_i.next = self.rst_i.val();
            self.link_u_r[o].rst_i.next = self.rst_i.val();
            self.link_f_r[o].rst_i.next = self.rst_i.val();
            // LT: link <- switch register
            self.link_v_r[o].d_i.next = self.st_v_r[o].q.q_o.val();
            self.link_u_r[o].d_i.next = self.st_u_r[o].q.q_o.val();
            self.link_f_r[o].d_i.next = self.st_f_r[o].q.q_o.val();
            // ST: switch register <- the granted input port's candidate (0 when idle)
            self.st_v_r[o].d_i.next = self.zero1.val();
            self.st_u_r[o].d_i.next = self.zero_vw.val();
            self.st_f_r[o].d_i.next = self.zero_fw.val();
            for p in 0..5 {
                if (self.out_gnt_i[o].val() & self.pbit[p].val()) != self.zero5.val() {
                    self.st_v_r[o].d_i.next = self.one1.val();
                    self.st_u_r[o].d_i.next = self.cand_u_i[p].val();
                    self.st_f_r[o].d_i.next = self.cand[p].val();
                }
            }
        }
    }
}
