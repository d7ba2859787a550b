//! Global Overlay Manager (spec §1.9; golden `golden::noc::gom`): the latest STATUS
//! of each MC, the integer window computation and the GOMCFG broadcast in prologue
//! cycles 23 (and 25 when G > 6).
//!
//! Compute timeline (inside the spec's 21-cycle budget), all in integers, bit-exact
//! with `gom::window_lengths`:
//! * prologue cycle 2 (snapshot): `w_i = alpha*arr_i + gamma*occ_i` (shift-add),
//!   `W_g` = max over the group's members (all-zero weights count as 1),
//!   `we_r[g] = W_g`, `den_r = sum W`; the status registers are cleared (a STATUS
//!   arriving in the same cycle still lands);
//! * cycles 3..12: `rem_r[g] += we_r[g] << b` for each set bit b of the budget
//!   `K - G*T_MIN` (a 10-step shift-add multiplier);
//! * cycles 13..22: 10 restoring-division steps `rem_r / den_r` -> `q_r` (< 1024);
//! * at the broadcast: `T_g = T_MIN + q_g + (rank_g < left)`, `left = budget - sum q`,
//!   `rank_g` = groups with a larger remainder (ties: lower index first), i.e. the
//!   largest-remainder rule.
//!
//! Up to 8 MCs and 8 window groups; entries past m / G are constant zero.
#![allow(clippy::collapsible_if, reason = "nested ifs mirror the golden model's decision order; collapsing them changes the generated Verilog")]

use golden::noc::config::NocConfig;
use golden::noc::gom::{GOMCFG_CYCLE, SNAPSHOT_CYCLE};
use golden::noc::link::{gomcfg_flits, gomcfg_payload, gomcfg_window, Flit, LinkFmt, GOMCFG_WINDOWS, STATUS_ARR, STATUS_MC, STATUS_OCC, T_GOMCFG, T_STATUS};
use golden::noc::route_rom::OVL_NONE;
use rust_hdl::prelude::*;

use crate::prim::Reg;
use crate::prim::Zext;

/// MCs and window groups the GOM is built for (`golden::noc::config::MC_MAX`).
const M: usize = golden::noc::config::MC_MAX as usize;

#[derive(LogicBlock)]
pub struct Gom<const LW: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    /// Epoch-relative cycle of the GOM node's router.
    pub ecyc_i: Signal<In, Bits<16>>,
    /// The GOM router's ejection (STATUS flits are the GOM's).
    pub status_i: Signal<In, Bits<LW>>,
    pub inj_v_o: Signal<Out, Bit>,
    pub inj_link_o: Signal<Out, Bits<LW>>,
    arr_r: [Reg<16>; M],
    occ_r: [Reg<24>; M],
    we_r: [Reg<42>; M],
    rem_r: [Reg<42>; M],
    q_r: [Reg<10>; M],
    den_r: Reg<42>,
    k_r: Reg<4>,
    s_r: Reg<4>,
    z_arr: [Zext<16, 42>; M],
    z_occ: [Zext<24, 42>; M],
    z_key: [Zext<42, 48>; M],
    z_t: [Zext<10, LW>; M],
    st_v: Signal<Local, Bit>,
    st_mc: Signal<Local, Bits<4>>,
    w: [Signal<Local, Bits<42>>; M],
    wg: [Signal<Local, Bits<42>>; M],
    allz: Signal<Local, Bit>,
    wsum: Signal<Local, Bits<42>>,
    dsh: Signal<Local, Bits<42>>,
    key: [Signal<Local, Bits<48>>; M],
    rank: [Signal<Local, Bits<10>>; M],
    qsum: Signal<Local, Bits<10>>,
    left: Signal<Local, Bits<10>>,
    t: [Signal<Local, Bits<10>>; M],
    p0: Signal<Local, Bits<LW>>,
    p1: Signal<Local, Bits<LW>>,
    f0: Signal<Local, Bit>,
    f1: Signal<Local, Bit>,
    // ---- constants ----
    /// Set bits of alpha / gamma (weights, <= 15) and the shift of each bit.
    a_bit: [Constant<Bit>; 4],
    g_bit: [Constant<Bit>; 4],
    sh4: [Constant<Bits<6>>; 4],
    /// MC index constants, group members (4'hf = none) and whether group g exists.
    idx: [Constant<Bits<4>>; M],
    g_m0: [Constant<Bits<4>>; M],
    g_m1: [Constant<Bits<4>>; M],
    g_ok: [Constant<Bit>; M],
    /// Tie-break of the remainder ranking: 7 - g (lower index ranks first).
    g_inv: [Constant<Bits<48>>; M],
    /// Group g's GOMCFG flit (0/1) and its bit offset in the payload.
    g_flit1: [Constant<Bit>; M],
    g_off: [Constant<Bits<6>>; M],
    c_budget: Constant<Bits<10>>,
    c_tmin: Constant<Bits<10>>,
    c_snap: Constant<Bits<16>>,
    c_mul_lo: Constant<Bits<16>>,
    c_mul_hi: Constant<Bits<16>>,
    c_div_hi: Constant<Bits<16>>,
    c_gom0: Constant<Bits<16>>,
    c_gom1: Constant<Bits<16>>,
    c_two_flits: Constant<Bit>,
    c_ty: Constant<Bits<7>>,
    c_v: Constant<Bits<7>>,
    c_mc: Constant<Bits<7>>,
    c_arr: Constant<Bits<7>>,
    c_occ: Constant<Bits<7>>,
    c_p1: Constant<Bits<LW>>,
    c_hdr: Constant<Bits<LW>>,
    ty_status: Constant<Bits<2>>,
    zero_lw: Constant<Bits<LW>>,
    zero42: Constant<Bits<42>>,
    one42: Constant<Bits<42>>,
    c3_48: Constant<Bits<6>>,
    zero24: Constant<Bits<24>>,
    zero16: Constant<Bits<16>>,
    zero10: Constant<Bits<10>>,
    one10: Constant<Bits<10>>,
    zero4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    nine4: Constant<Bits<4>>,
}

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

fn big<const N: usize>(v: u128) -> Constant<Bits<N>> {
    let mut b = Bits::<N>::default();
    for i in 0..N {
        b = b.replace_bit(i, (v >> i) & 1 == 1);
    }
    Constant::new(b)
}

impl<const LW: usize> Gom<LW> {
    pub fn new(c: &NocConfig) -> Self {
        assert_eq!(LW as u32, c.link_w(), "link width");
        assert!(c.m() <= M && c.g() <= M);
        let r = &c.reply;
        let g = c.g();
        let budget = r.period - g as u32 * r.t_min;
        assert!(budget < 1024 && r.alpha < 16 && r.gamma < 16);
        let f = LinkFmt::new(c);
        // the broadcast flit without its payload (golden `Gom::inject`)
        let hdr = f.pack(&Flit { valid: true, ty: T_GOMCFG, head: true, tail: true, src: 0, dst_x: 0, dst_y: 0, payload: 0 });
        let none = OVL_NONE as u64;
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            ecyc_i: Default::default(),
            status_i: Default::default(),
            inj_v_o: Default::default(),
            inj_link_o: Default::default(),
            arr_r: Default::default(),
            occ_r: Default::default(),
            we_r: Default::default(),
            rem_r: Default::default(),
            q_r: Default::default(),
            den_r: Default::default(),
            k_r: Default::default(),
            s_r: Default::default(),
            z_arr: Default::default(),
            z_occ: Default::default(),
            z_key: Default::default(),
            z_t: Default::default(),
            st_v: Default::default(),
            st_mc: Default::default(),
            w: Default::default(),
            wg: Default::default(),
            allz: Default::default(),
            wsum: Default::default(),
            dsh: Default::default(),
            key: Default::default(),
            rank: Default::default(),
            qsum: Default::default(),
            left: Default::default(),
            t: Default::default(),
            p0: Default::default(),
            p1: Default::default(),
            f0: Default::default(),
            f1: Default::default(),
            a_bit: std::array::from_fn(|b| Constant::new((r.alpha >> b) & 1 == 1)),
            g_bit: std::array::from_fn(|b| Constant::new((r.gamma >> b) & 1 == 1)),
            sh4: std::array::from_fn(|b| k(b as u64)),
            idx: std::array::from_fn(|i| k(i as u64)),
            g_m0: std::array::from_fn(|j| k(c.groups.get(j).map_or(none, |m| m[0] as u64))),
            g_m1: std::array::from_fn(|j| k(c.groups.get(j).and_then(|m| m.get(1)).map_or(none, |&i| i as u64))),
            g_ok: std::array::from_fn(|j| Constant::new(j < g)),
            g_inv: std::array::from_fn(|j| k(7 - j as u64)),
            g_flit1: std::array::from_fn(|j| Constant::new(j >= GOMCFG_WINDOWS)),
            g_off: std::array::from_fn(|j| k(gomcfg_window(j % GOMCFG_WINDOWS).lsb as u64)),
            c_budget: k(budget as u64),
            c_tmin: k(r.t_min as u64),
            c_snap: k(SNAPSHOT_CYCLE as u64),
            c_mul_lo: k(SNAPSHOT_CYCLE as u64 + 1),
            c_mul_hi: k(SNAPSHOT_CYCLE as u64 + 10),
            c_div_hi: k(SNAPSHOT_CYCLE as u64 + 20),
            c_gom0: k(GOMCFG_CYCLE[0] as u64),
            c_gom1: k(GOMCFG_CYCLE[1] as u64),
            c_two_flits: Constant::new(gomcfg_flits(g) > 1),
            c_ty: k(f.ty().lsb as u64),
            c_v: k(f.valid().lsb as u64),
            c_mc: k(STATUS_MC.lsb as u64),
            c_arr: k(STATUS_ARR.lsb as u64),
            c_occ: k(STATUS_OCC.lsb as u64),
            c_p1: big(gomcfg_payload(1, &[]) as u128),
            c_hdr: big(hdr),
            ty_status: k(T_STATUS as u64),
            zero_lw: k(0),
            zero42: k(0),
            one42: k(1),
            c3_48: k(3),
            zero24: k(0),
            zero16: k(0),
            zero10: k(0),
            one10: k(1),
            zero4: k(0),
            one4: k(1),
            nine4: k(9),
        }
    }
}

impl<const LW: usize> Logic for Gom<LW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.den_r.clk_i.next = self.clk_i.val();
        self.k_r.clk_i.next = self.clk_i.val();
        self.s_r.clk_i.next = self.clk_i.val();
        self.den_r.rst_i.next = self.rst_i.val();
        self.k_r.rst_i.next = self.rst_i.val();
        self.s_r.rst_i.next = self.rst_i.val();
        self.den_r.d_i.next = self.den_r.q_o.val();
        self.k_r.d_i.next = self.k_r.q_o.val();
        self.s_r.d_i.next = self.s_r.q_o.val();

        // ---- STATUS flits ----
        self.st_v.next = self.status_i.val().get_bit(self.c_v.val().index()) & (self.status_i.val().get_bits::<2>(self.c_ty.val().index()) == self.ty_status.val());
        self.st_mc.next = self.status_i.val().get_bits::<4>(self.c_mc.val().index());

        // ---- weights ----
        self.allz.next = true;
        self.wsum.next = self.zero42.val();
        for i in 0..8 {
            self.arr_r[i].clk_i.next = self.clk_i.val();
            self.occ_r[i].clk_i.next = self.clk_i.val();
            self.we_r[i].clk_i.next = self.clk_i.val();
            self.rem_r[i].clk_i.next = self.clk_i.val();
            self.q_r[i].clk_i.next = self.clk_i.val();
            self.arr_r[i].rst_i.next = self.rst_i.val();
            self.occ_r[i].rst_i.next = self.rst_i.val();
            self.we_r[i].rst_i.next = self.rst_i.val();
            self.rem_r[i].rst_i.next = self.rst_i.val();
            self.q_r[i].rst_i.next = self.rst_i.val();
            self.z_arr[i].i.next = self.arr_r[i].q_o.val();
            self.z_occ[i].i.next = self.occ_r[i].q_o.val();
            self.w[i].next = self.zero42.val();
            for b in 0..4 {
                if self.a_bit[b].val() {
                    self.w[i].next = self.w[i].val() + (self.z_arr[i].o.val() << self.sh4[b].val());
                }
                if self.g_bit[b].val() {
                    self.w[i].next = self.w[i].val() + (self.z_occ[i].o.val() << self.sh4[b].val());
                }
            }
        }
        for j in 0..8 {
            self.wg[j].next = self.zero42.val();
            for i in 0..8 {
                if self.g_m0[j].val() == self.idx[i].val() {
                    self.wg[j].next = self.w[i].val();
                }
            }
            for i in 0..8 {
                if (self.g_m1[j].val() == self.idx[i].val()) & (self.w[i].val() > self.wg[j].val()) {
                    self.wg[j].next = self.w[i].val();
                }
            }
            if self.g_ok[j].val() & (self.wg[j].val() != self.zero42.val()) {
                self.allz.next = false;
            }
        }
        for j in 0..8 {
            if self.allz.val() & self.g_ok[j].val() {
                self.wg[j].next = self.one42.val();
            }
            self.wsum.next = self.wsum.val() + self.wg[j].val();
        }

        // ---- status registers, snapshot, multiply, divide ----
        for i in 0..8 {
            self.arr_r[i].d_i.next = self.arr_r[i].q_o.val();
            self.occ_r[i].d_i.next = self.occ_r[i].q_o.val();
            if self.ecyc_i.val() == self.c_snap.val() {
                self.arr_r[i].d_i.next = self.zero16.val();
                self.occ_r[i].d_i.next = self.zero24.val();
            }
            if self.st_v.val() & (self.st_mc.val() == self.idx[i].val()) {
                self.arr_r[i].d_i.next = self.status_i.val().get_bits::<16>(self.c_arr.val().index());
                self.occ_r[i].d_i.next = self.status_i.val().get_bits::<24>(self.c_occ.val().index());
            }
        }
        self.dsh.next = self.den_r.q_o.val() << self.s_r.q_o.val();
        for j in 0..8 {
            self.we_r[j].d_i.next = self.we_r[j].q_o.val();
            self.rem_r[j].d_i.next = self.rem_r[j].q_o.val();
            self.q_r[j].d_i.next = self.q_r[j].q_o.val();
            if self.ecyc_i.val() == self.c_snap.val() {
                self.we_r[j].d_i.next = self.wg[j].val();
                self.rem_r[j].d_i.next = self.zero42.val();
                self.q_r[j].d_i.next = self.zero10.val();
            } else if (self.ecyc_i.val() >= self.c_mul_lo.val()) & (self.ecyc_i.val() <= self.c_mul_hi.val()) {
                if self.c_budget.val().get_bit(self.k_r.q_o.val().index()) {
                    self.rem_r[j].d_i.next = self.rem_r[j].q_o.val() + (self.we_r[j].q_o.val() << self.k_r.q_o.val());
                }
            } else if (self.ecyc_i.val() > self.c_mul_hi.val()) & (self.ecyc_i.val() <= self.c_div_hi.val()) {
                if self.rem_r[j].q_o.val() >= self.dsh.val() {
                    self.rem_r[j].d_i.next = self.rem_r[j].q_o.val() - self.dsh.val();
                    self.q_r[j].d_i.next = self.q_r[j].q_o.val() | (self.one10.val() << self.s_r.q_o.val());
                }
            }
        }
        if self.ecyc_i.val() == self.c_snap.val() {
            self.den_r.d_i.next = self.wsum.val();
            self.k_r.d_i.next = self.zero4.val();
            self.s_r.d_i.next = self.nine4.val();
        } else if (self.ecyc_i.val() >= self.c_mul_lo.val()) & (self.ecyc_i.val() <= self.c_mul_hi.val()) {
            self.k_r.d_i.next = self.k_r.q_o.val() + self.one4.val();
        } else if (self.ecyc_i.val() > self.c_mul_hi.val()) & (self.ecyc_i.val() <= self.c_div_hi.val()) & (self.s_r.q_o.val() != self.zero4.val()) {
            self.s_r.d_i.next = self.s_r.q_o.val() - self.one4.val();
        }

        // ---- largest remainder: T_g = T_MIN + q_g + (rank_g < left) ----
        self.qsum.next = self.zero10.val();
        for j in 0..8 {
            self.z_key[j].i.next = self.rem_r[j].q_o.val();
            self.key[j].next = (self.z_key[j].o.val() << self.c3_48.val()) | self.g_inv[j].val();
            if self.g_ok[j].val() {
                self.qsum.next = self.qsum.val() + self.q_r[j].q_o.val();
            }
        }
        self.left.next = self.c_budget.val() - self.qsum.val();
        self.p0.next = self.zero_lw.val();
        self.p1.next = self.c_p1.val();
        for j in 0..8 {
            self.rank[j].next = self.zero10.val();
            for h in 0..8 {
                if self.g_ok[h].val() & (self.key[h].val() > self.key[j].val()) {
                    self.rank[j].next = self.rank[j].val() + self.one10.val();
                }
            }
            self.t[j].next = self.zero10.val();
            if self.g_ok[j].val() {
                if self.rank[j].val() < self.left.val() {
                    self.t[j].next = self.c_tmin.val() + self.q_r[j].q_o.val() + self.one10.val();
                } else {
                    self.t[j].next = self.c_tmin.val() + self.q_r[j].q_o.val();
                }
            }
            self.z_t[j].i.next = self.t[j].val();
            if self.g_flit1[j].val() {
                self.p1.next = self.p1.val() | (self.z_t[j].o.val() << self.g_off[j].val());
            } else {
                self.p0.next = self.p0.val() | (self.z_t[j].o.val() << self.g_off[j].val());
            }
        }

        // ---- GOMCFG broadcast ----
        self.f0.next = self.ecyc_i.val() == self.c_gom0.val();
        self.f1.next = self.c_two_flits.val() & (self.ecyc_i.val() == self.c_gom1.val());
        self.inj_v_o.next = self.f0.val() | self.f1.val();
        // (the payload words are built link-wide: no zero-extension child between
        // them and the output, which Verilator would see as a combinational loop)
        if self.f1.val() {
            self.inj_link_o.next = self.c_hdr.val() | self.p1.val();
        } else if self.f0.val() {
            self.inj_link_o.next = self.c_hdr.val() | self.p0.val();
        } else {
            self.inj_link_o.next = self.zero_lw.val();
        }
    }
}
