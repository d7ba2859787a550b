//! Overlay controller (spec §1.5, golden `golden::noc::overlay_ctrl`): Algorithm 1
//! with the spec's fixes in counter form, plus the T-pending register the GOMCFG
//! broadcast writes (golden keeps it in the router; the controller is its only
//! reader, so it lives here and watches the router's latch registers for a CAPTURED
//! GOMCFG flit, the lowest latch winning, as golden `hinge_router` does).
//!
//! Registers: `ecyc_r` (epoch-relative cycle), `lc_r` (cycle in the window), `gi_r`
//! (window index), `sc_r` (slot phase), `live_r` (0 none, 1 GOM row, 2+g group g),
//! `t_r[0..8]` (active windows) and `tp_r[0..8]` (T-pending), both reset to the
//! config's default window set. Up to 8 window groups; entries past G are constant.
//!
//! Every input and output is a register value, so the controller's single
//! combinational block cannot close a loop: the live overlays `ovl_a_o`/`ovl_b_o`
//! (`OVL_BITS`-bit overlay codes: MC index, m = the GOM row, `OVL_NONE` = none), the schedule view
//! `sched_o` = `{prologue, reconf, ovl_b, ovl_a}` at the mesh's width (`SCHW` =
//! 2 (SW + 1) + 2), injection slots per phase, the final-slot flags,
//! `last_period_o`, `gom_slot_o` and `ecyc_o`.
#![allow(clippy::if_same_then_else, reason = "one branch per condition of the spec's counter update, as the golden model writes it")]

use golden::noc::config::NocConfig;
use golden::noc::gom::{GOMCFG_CYCLE, SWAP_CYCLE};
use golden::noc::hinge_router::{CAPTURED, LATCH_STATE_BITS};
use golden::noc::link::{gomcfg_flits, gomcfg_window, GOMCFG_IDX, GOMCFG_WINDOWS};
use golden::noc::route_rom::OVL_NONE;
use rust_hdl::prelude::*;

use crate::prim::Reg;
use crate::prim::RegInit;

/// Width of a latch-state code (`golden::noc::hinge_router`).
const ST_W: usize = LATCH_STATE_BITS as usize;

/// Maximum window groups (one per MC at most: `golden::noc::config::MC_MAX`).
pub const MAX_G: usize = golden::noc::config::MC_MAX as usize;

#[derive(LogicBlock)]
pub struct OverlayCtrl<const SCHW: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    /// The router's latch registers E, W, N, S, L (payload, type, state): a CAPTURED
    /// GOMCFG flit writes its windows `{idx[3:0], T(6idx) .. T(6idx+5)}` into T-pending.
    pub pay_i: [Signal<In, Bits<64>>; 5],
    pub ty_i: [Signal<In, Bits<2>>; 5],
    pub st_i: [Signal<In, Bits<ST_W>>; 5],
    pub sched_o: Signal<Out, Bits<SCHW>>,
    /// Live overlays: first member (or the GOM row m), second member of a pair.
    pub ovl_a_o: Signal<Out, Bits<4>>,
    pub ovl_b_o: Signal<Out, Bits<4>>,
    /// Injection slot of the phase-0 / phase-1 member of the live group.
    pub slot0_o: Signal<Out, Bit>,
    pub slot1_o: Signal<Out, Bit>,
    /// That slot is the member's final one in the window.
    pub fin0_o: Signal<Out, Bit>,
    pub fin1_o: Signal<Out, Bit>,
    pub last_period_o: Signal<Out, Bit>,
    pub gom_slot_o: Signal<Out, Bit>,
    pub ecyc_o: Signal<Out, Bits<16>>,
    ecyc_r: Reg<16>,
    lc_r: Reg<10>,
    gi_r: Reg<4>,
    sc_r: Reg<2>,
    live_r: Reg<4>,
    t_r: [RegInit<10>; MAX_G],
    tp_r: [RegInit<10>; MAX_G],
    pro: Signal<Local, Bit>,
    tcur: Signal<Local, Bits<10>>,
    last: Signal<Local, Bits<10>>,
    lc_iv: Signal<Local, Bits<10>>,
    slot0: Signal<Local, Bit>,
    slot1: Signal<Local, Bit>,
    tp_we: Signal<Local, Bit>,
    tp_data: Signal<Local, Bits<64>>,
    tp_idx: Signal<Local, Bits<4>>,
    sched: Signal<Local, Bits<SCHW>>,
    ty_cfg: Constant<Bits<2>>,
    st_cap: Constant<Bits<ST_W>>,
    zero64: Constant<Bits<64>>,
    /// Schedule words: the ovl part for none / the GOM row / each group, and the
    /// reconf / prologue bits.
    s_none: Constant<Bits<SCHW>>,
    s_gom: Constant<Bits<SCHW>>,
    g_sched: [Constant<Bits<SCHW>>; MAX_G],
    s_reconf: Constant<Bits<SCHW>>,
    s_pro: Constant<Bits<SCHW>>,
    // ---- constants from the config ----
    /// P, P-1, P+E-1 (wrap), P+E-K (last period), the swap cycle, GOMCFG cycles.
    c_p: Constant<Bits<16>>,
    c_pm1: Constant<Bits<16>>,
    c_wrap: Constant<Bits<16>>,
    c_lastp: Constant<Bits<16>>,
    c_swap: Constant<Bits<16>>,
    c_gom0: Constant<Bits<16>>,
    c_gom1: Constant<Bits<16>>,
    /// A second GOMCFG flit is sent (G > 6).
    c_two_flits: Constant<Bit>,
    /// Pipelined injection (interval 2): phase 1 has slots.
    c_iv2: Constant<Bit>,
    c_iv10: Constant<Bits<10>>,
    c_ivm1: Constant<Bits<2>>,
    c_gm1: Constant<Bits<4>>,
    c_ovl_gom: Constant<Bits<4>>,
    c_ovl_none: Constant<Bits<4>>,
    /// Per group: its live code (2+g), members (phase 0, phase 1 or none), index,
    /// default window, whether it exists (g < G), GOMCFG flit and bit offset.
    g_code: [Constant<Bits<4>>; MAX_G],
    g_mem0: [Constant<Bits<4>>; MAX_G],
    g_mem1: [Constant<Bits<4>>; MAX_G],
    g_idx: [Constant<Bits<4>>; MAX_G],
    g_dflt: [Constant<Bits<10>>; MAX_G],
    g_ok: [Constant<Bit>; MAX_G],
    g_flit: [Constant<Bits<4>>; MAX_G],
    g_off: [Constant<Bits<6>>; MAX_G],
    c_off_idx: Constant<Bits<6>>,
    one16: Constant<Bits<16>>,
    two16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    zero10: Constant<Bits<10>>,
    one10: Constant<Bits<10>>,
    two10: Constant<Bits<10>>,
    three10: Constant<Bits<10>>,
    zero4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    two4: Constant<Bits<4>>,
    live_gom: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    one2: Constant<Bits<2>>,
}

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

impl<const SCHW: usize> OverlayCtrl<SCHW> {
    pub fn new(c: &NocConfig) -> Self {
        let r = &c.reply;
        let g = c.g();
        assert!(g <= MAX_G && c.m() <= 8);
        let gi = |f: &dyn Fn(usize) -> u64| -> [Constant<Bits<4>>; MAX_G] { std::array::from_fn(|j| k(f(j))) };
        let none = OVL_NONE as u64;
        let ow = c.sw() + 1;
        assert_eq!(SCHW as u32, 2 * ow + 2, "schedule width");
        let onone = (1u64 << ow) - 1;
        let sw = |a: u64, b: u64| -> Constant<Bits<SCHW>> { k(a | (b << ow)) };
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            pay_i: Default::default(),
            ty_i: Default::default(),
            st_i: Default::default(),
            sched_o: Default::default(),
            ovl_a_o: Default::default(),
            ovl_b_o: Default::default(),
            slot0_o: Default::default(),
            slot1_o: Default::default(),
            fin0_o: Default::default(),
            fin1_o: Default::default(),
            last_period_o: Default::default(),
            gom_slot_o: Default::default(),
            ecyc_o: Default::default(),
            ecyc_r: Default::default(),
            lc_r: Default::default(),
            gi_r: Default::default(),
            sc_r: Default::default(),
            live_r: Default::default(),
            t_r: Default::default(),
            tp_r: Default::default(),
            pro: Default::default(),
            tcur: Default::default(),
            last: Default::default(),
            lc_iv: Default::default(),
            slot0: Default::default(),
            slot1: Default::default(),
            tp_we: Default::default(),
            tp_data: Default::default(),
            tp_idx: Default::default(),
            sched: Default::default(),
            ty_cfg: k(golden::noc::link::T_GOMCFG as u64),
            st_cap: k(CAPTURED as u64),
            zero64: k(0),
            s_none: sw(onone, onone),
            s_gom: sw(c.m() as u64, onone),
            g_sched: std::array::from_fn(|j| match c.groups.get(j) {
                Some(m) => sw(m[0] as u64, m.get(1).map_or(onone, |&i| i as u64)),
                None => sw(onone, onone),
            }),
            s_reconf: k(1 << (2 * ow)),
            s_pro: k(1 << (2 * ow + 1)),
            c_p: k(r.prologue as u64),
            c_pm1: k(r.prologue as u64 - 1),
            c_wrap: k((r.prologue + r.epoch) as u64 - 1),
            c_lastp: k((r.prologue + r.epoch - r.period) as u64),
            c_swap: k(SWAP_CYCLE as u64),
            c_gom0: k(GOMCFG_CYCLE[0] as u64),
            c_gom1: k(GOMCFG_CYCLE[1] as u64),
            c_two_flits: Constant::new(gomcfg_flits(g) > 1),
            c_iv2: Constant::new(r.interval == 2),
            c_iv10: k(r.interval as u64),
            c_ivm1: k(r.interval as u64 - 1),
            c_gm1: k(g as u64 - 1),
            c_ovl_gom: k(c.m() as u64),
            c_ovl_none: k(none),
            g_code: gi(&|j| 2 + j as u64),
            g_mem0: gi(&|j| c.groups.get(j).map_or(none, |m| m[0] as u64)),
            g_mem1: gi(&|j| c.groups.get(j).and_then(|m| m.get(1)).map_or(none, |&i| i as u64)),
            g_idx: gi(&|j| j as u64),
            g_dflt: std::array::from_fn(|j| k(c.default_windows.get(j).copied().unwrap_or(0) as u64)),
            g_ok: std::array::from_fn(|j| Constant::new(j < g)),
            g_flit: gi(&|j| (j / GOMCFG_WINDOWS) as u64),
            g_off: std::array::from_fn(|j| k(gomcfg_window(j % GOMCFG_WINDOWS).lsb as u64)),
            c_off_idx: k(GOMCFG_IDX.lsb as u64),
            one16: k(1),
            two16: k(2),
            zero16: k(0),
            zero10: k(0),
            one10: k(1),
            two10: k(2),
            three10: k(3),
            zero4: k(0),
            one4: k(1),
            two4: k(2),
            live_gom: k(1),
            zero2: k(0),
            one2: k(1),
        }
    }
}

impl<const SCHW: usize> Logic for OverlayCtrl<SCHW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ecyc_r.clk_i.next = self.clk_i.val();
        self.lc_r.clk_i.next = self.clk_i.val();
        self.gi_r.clk_i.next = self.clk_i.val();
        self.sc_r.clk_i.next = self.clk_i.val();
        self.live_r.clk_i.next = self.clk_i.val();
        self.ecyc_r.rst_i.next = self.rst_i.val();
        self.lc_r.rst_i.next = self.rst_i.val();
        self.gi_r.rst_i.next = self.rst_i.val();
        self.sc_r.rst_i.next = self.rst_i.val();
        self.live_r.rst_i.next = self.rst_i.val();
        for j in 0..8 {
            self.t_r[j].clk_i.next = self.clk_i.val();
            self.t_r[j].rst_i.next = self.rst_i.val();
            self.t_r[j].init_i.next = self.g_dflt[j].val();
            self.t_r[j].d_i.next = self.t_r[j].q_o.val();
            self.tp_r[j].clk_i.next = self.clk_i.val();
            self.tp_r[j].rst_i.next = self.rst_i.val();
            self.tp_r[j].init_i.next = self.g_dflt[j].val();
            self.tp_r[j].d_i.next = self.tp_r[j].q_o.val();
        }

        // ---- outputs (registers only) ----
        self.pro.next = self.ecyc_r.q_o.val() < self.c_p.val();
        self.tcur.next = self.zero10.val();
        for j in 0..8 {
            if self.gi_r.q_o.val() == self.g_idx[j].val() {
                self.tcur.next = self.t_r[j].q_o.val();
            }
        }
        self.last.next = self.tcur.val() - self.two10.val();
        self.lc_iv.next = self.lc_r.q_o.val() + self.c_iv10.val();
        self.slot0.next = !self.pro.val() & (self.lc_r.q_o.val() >= self.two10.val()) & (self.lc_r.q_o.val() <= self.last.val()) & (self.sc_r.q_o.val() == self.zero2.val());
        self.slot1.next =
            !self.pro.val() & self.c_iv2.val() & (self.lc_r.q_o.val() >= self.three10.val()) & (self.lc_r.q_o.val() <= self.last.val()) & (self.sc_r.q_o.val() == self.one2.val());
        self.slot0_o.next = self.slot0.val();
        self.slot1_o.next = self.slot1.val();
        self.fin0_o.next = self.slot0.val() & (self.lc_iv.val() > self.last.val());
        self.fin1_o.next = self.slot1.val() & (self.lc_iv.val() > self.last.val());
        self.last_period_o.next = self.ecyc_r.q_o.val() >= self.c_lastp.val();
        self.gom_slot_o.next = self.pro.val() & ((self.ecyc_r.q_o.val() == self.c_gom0.val()) | (self.c_two_flits.val() & (self.ecyc_r.q_o.val() == self.c_gom1.val())));
        self.ecyc_o.next = self.ecyc_r.q_o.val();
        self.ovl_a_o.next = self.c_ovl_none.val();
        self.ovl_b_o.next = self.c_ovl_none.val();
        self.sched.next = self.s_none.val();
        if self.live_r.q_o.val() == self.live_gom.val() {
            self.ovl_a_o.next = self.c_ovl_gom.val();
            self.sched.next = self.s_gom.val();
        }
        for j in 0..8 {
            if self.live_r.q_o.val() == self.g_code[j].val() {
                self.ovl_a_o.next = self.g_mem0[j].val();
                self.ovl_b_o.next = self.g_mem1[j].val();
                self.sched.next = self.g_sched[j].val();
            }
        }
        if self.pro.val() {
            self.sched.next = self.sched.val() | self.s_pro.val();
            if self.ecyc_r.q_o.val() < self.two16.val() {
                self.sched.next = self.sched.val() | self.s_reconf.val();
            }
        } else if self.lc_r.q_o.val() < self.two10.val() {
            self.sched.next = self.sched.val() | self.s_reconf.val();
        }
        self.sched_o.next = self.sched.val();

        // ---- next state ----
        self.live_r.d_i.next = self.live_r.q_o.val();
        if self.pro.val() {
            if self.ecyc_r.q_o.val() == self.one16.val() {
                self.live_r.d_i.next = self.live_gom.val();
            }
        } else if self.lc_r.q_o.val() == self.one10.val() {
            self.live_r.d_i.next = self.gi_r.q_o.val() + self.two4.val();
        }
        if !self.pro.val() & (self.lc_r.q_o.val() == self.one10.val()) {
            self.sc_r.d_i.next = self.zero2.val();
        } else if self.sc_r.q_o.val() == self.c_ivm1.val() {
            self.sc_r.d_i.next = self.zero2.val();
        } else {
            self.sc_r.d_i.next = self.sc_r.q_o.val() + self.one2.val();
        }
        self.lc_r.d_i.next = self.lc_r.q_o.val();
        self.gi_r.d_i.next = self.gi_r.q_o.val();
        if self.ecyc_r.q_o.val() == self.c_pm1.val() {
            self.lc_r.d_i.next = self.zero10.val();
            self.gi_r.d_i.next = self.zero4.val();
        } else if !self.pro.val() {
            if (self.lc_r.q_o.val() + self.one10.val()) == self.tcur.val() {
                self.lc_r.d_i.next = self.zero10.val();
                if self.gi_r.q_o.val() == self.c_gm1.val() {
                    self.gi_r.d_i.next = self.zero4.val();
                } else {
                    self.gi_r.d_i.next = self.gi_r.q_o.val() + self.one4.val();
                }
            } else {
                self.lc_r.d_i.next = self.lc_r.q_o.val() + self.one10.val();
            }
        }
        if self.ecyc_r.q_o.val() == self.c_wrap.val() {
            self.ecyc_r.d_i.next = self.zero16.val();
        } else {
            self.ecyc_r.d_i.next = self.ecyc_r.q_o.val() + self.one16.val();
        }
        // T <- T-pending at the end of prologue cycle SWAP (the old T-pending)
        if self.pro.val() & (self.ecyc_r.q_o.val() == self.c_swap.val()) {
            for j in 0..8 {
                self.t_r[j].d_i.next = self.tp_r[j].q_o.val();
            }
        }
        // GOMCFG in a CAPTURED latch (the lowest wins): T-pending[6*idx + k] <-
        // payload[50-10k +: 10] for the existing groups
        self.tp_we.next = false;
        self.tp_data.next = self.zero64.val();
        for d in 0..5 {
            if (self.st_i[d].val() == self.st_cap.val()) & (self.ty_i[d].val() == self.ty_cfg.val()) & !self.tp_we.val() {
                self.tp_we.next = true;
                self.tp_data.next = self.pay_i[d].val();
            }
        }
        self.tp_idx.next = self.tp_data.val().get_bits::<4>(self.c_off_idx.val().index());
        for j in 0..8 {
            if self.tp_we.val() & self.g_ok[j].val() & (self.tp_idx.val() == self.g_flit[j].val()) {
                self.tp_r[j].d_i.next = self.tp_data.val().get_bits::<10>(self.g_off[j].val().index());
            }
        }
    }
}
