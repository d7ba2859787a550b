//! Leaves of the hinge router (spec §1.3, §1.6, §4.1; golden
//! `golden::noc::hinge_router`). The router itself is the structural template
//! `templates/noc/hinge_router.v`, one module per preset shared by every router of
//! the mesh: the router's position, its MC/GOM role and its route-ROM rows come in
//! on constant ports (the ROM is [`super::rom::RouteRom`], one module whose rows each
//! instance sets).
//!
//! The split follows the combinational paths of a mesh, so no leaf's single
//! `always @(*)` both reads a signal and writes one that can reach it again:
//! * [`HingeSelect`]: input selection (Algorithm 2 with types and multiplexing),
//!   live-configuration decode, grant, ejection, and what every bypass mux and latch
//!   does next. It reads registers and constants only.
//! * [`HingeInject`]: the local injection (`valid & grant`).
//! * [`HingeLatch`] (E, W, L: may turn) and [`HingeEndLatch`] (N, S: eject only):
//!   `lat_r`/`st_r` (IDLE/CAPTURED/TURNING)/`dn_r`/`ds_r` registers, capture of the
//!   incoming wire, overrun. Their register outputs leave through [`RegQ`] links.
//! * [`BypassEw`], [`BypassNs`]: the bypass (straight-through) muxes, one per output,
//!   so the E, W, N and S chains of a row or column stay separate.
//!
//! Legal sources (spec §1.3) are the only ones decoded: E from the W bypass or the
//! local injection, W from the E bypass or the local injection, N/S from the
//! straight bypass or a TURNING latch of E, W or L, L from any latch. The generator
//! rejects a ROM row with any other source before it builds the ROM.
//!
//! Generic over the link width `LW` and the coordinate width `CW` (monomorphized by
//! the generator for the widths a config can take).

use golden::noc::hinge_router::{CAPTURED, IDLE, LATCH_STATE_BITS, TURNING};
use golden::noc::link::LinkFmt;
use golden::noc::route_rom::{Source, FIELD_BITS, ROW_BITS, ROW_FIELDS, SRC_VALID};
use rust_hdl::prelude::*;

use crate::prim::{QReg, RegQ};

/// Width of a route-ROM row, of one source field and of a latch-state code
/// (`golden::noc::{route_rom, hinge_router}`).
pub const ROW_W: usize = ROW_BITS as usize;
const FB: usize = FIELD_BITS as usize;
const ST_W: usize = LATCH_STATE_BITS as usize;
// `src >= f_valid` tests the valid bit: it must be the field's top bit.
const _: () = assert!(SRC_VALID.msb() == FIELD_BITS - 1);

/// Route-ROM field codes (spec §1.4) of the direct / latch source of direction `d`.
fn direct(d: usize) -> u64 {
    Source::Direct(d as u8).encode() as u64
}
fn latch(d: usize) -> u64 {
    Source::Latch(d as u8).encode() as u64
}

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

/// The valid bit of an `N`-bit reply link, set (`LinkFmt::valid_lsb`).
fn valid_bit<const N: usize>() -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::default().replace_bit(LinkFmt::valid_lsb(N as u32) as usize, true))
}

/// Input selection and configuration decode of one hinge router.
#[derive(LogicBlock)]
pub struct HingeSelect<const LW: usize, const CW: usize> {
    /// ROM rows of the live overlays (0 for none).
    pub row_a_i: Signal<In, Bits<ROW_W>>,
    pub row_b_i: Signal<In, Bits<ROW_W>>,
    /// Position and role (constants).
    pub x_i: Signal<In, Bits<CW>>,
    pub y_i: Signal<In, Bits<CW>>,
    pub mc_i: Signal<In, Bit>,
    pub mc_idx_i: Signal<In, Bits<4>>,
    pub ph_i: Signal<In, Bit>,
    pub gom_i: Signal<In, Bit>,
    /// Overlay controller.
    pub ovl_a_i: Signal<In, Bits<4>>,
    pub ovl_b_i: Signal<In, Bits<4>>,
    pub slot0_i: Signal<In, Bit>,
    pub slot1_i: Signal<In, Bit>,
    pub fin0_i: Signal<In, Bit>,
    pub fin1_i: Signal<In, Bit>,
    pub last_period_i: Signal<In, Bit>,
    pub gom_slot_i: Signal<In, Bit>,
    /// Latch registers E, W, N, S, L; the N/S drive of E, W, L.
    pub lat_i: [Signal<In, Bits<LW>>; 5],
    pub st_i: [Signal<In, Bits<ST_W>>; 5],
    pub dn_i: [Signal<In, Bit>; 3],
    pub ds_i: [Signal<In, Bit>; 3],
    pub grant_o: Signal<Out, Bit>,
    pub status_o: Signal<Out, Bit>,
    /// Per latch: capture enable (some live output uses it), turn N / S next.
    pub cap_en_o: [Signal<Out, Bit>; 5],
    pub turn_n_o: [Signal<Out, Bit>; 3],
    pub turn_s_o: [Signal<Out, Bit>; 3],
    /// Bypass muxes: straight select, injection select (E/W), drive value (N/S).
    pub e_str_o: Signal<Out, Bit>,
    pub e_inj_o: Signal<Out, Bit>,
    pub w_str_o: Signal<Out, Bit>,
    pub w_inj_o: Signal<Out, Bit>,
    pub n_str_o: Signal<Out, Bit>,
    pub s_str_o: Signal<Out, Bit>,
    pub n_drv_o: Signal<Out, Bits<LW>>,
    pub s_drv_o: Signal<Out, Bits<LW>>,
    pub loc_out_o: Signal<Out, Bits<LW>>,
    pub drop_o: [Signal<Out, Bit>; 5],
    pub collision_o: Signal<Out, Bit>,
    fa: [Signal<Local, Bits<FB>>; 5],
    fb: [Signal<Local, Bits<FB>>; 5],
    src: [Signal<Local, Bits<FB>>; 4],
    to_n: [Signal<Local, Bit>; 5],
    to_s: [Signal<Local, Bit>; 5],
    to_l: [Signal<Local, Bit>; 5],
    typ: [Signal<Local, Bits<2>>; 5],
    dx: [Signal<Local, Bits<CW>>; 5],
    dy: [Signal<Local, Bits<CW>>; 5],
    cpt: [Signal<Local, Bit>; 5],
    cfg: [Signal<Local, Bit>; 5],
    ej: [Signal<Local, Bit>; 5],
    tn: [Signal<Local, Bit>; 5],
    ts: [Signal<Local, Bit>; 5],
    turning: [Signal<Local, Bit>; 3],
    grant: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    nej: Signal<Local, Bits<3>>,
    /// Bit offset of each output's source field in a row.
    f_off: [Constant<Bits<5>>; 5],
    lat_code: [Constant<Bits<FB>>; 5],
    d_e: Constant<Bits<FB>>,
    d_w: Constant<Bits<FB>>,
    d_n: Constant<Bits<FB>>,
    d_s: Constant<Bits<FB>>,
    d_l: Constant<Bits<FB>>,
    f_valid: Constant<Bits<FB>>,
    c_dx: Constant<Bits<7>>,
    c_dy: Constant<Bits<7>>,
    c_ty: Constant<Bits<7>>,
    zero_lw: Constant<Bits<LW>>,
    ty_cfg: Constant<Bits<2>>,
    st_cap: Constant<Bits<ST_W>>,
    st_turn: Constant<Bits<ST_W>>,
    zero3: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
}

impl<const LW: usize, const CW: usize> Default for HingeSelect<LW, CW> {
    fn default() -> Self {
        let f = LinkFmt::for_link(LW as u32, CW as u32);
        assert!(f.sw >= 1 && LW < 128, "a {LW}-bit link with {CW}-bit coordinates");
        Self {
            row_a_i: Default::default(),
            row_b_i: Default::default(),
            x_i: Default::default(),
            y_i: Default::default(),
            mc_i: Default::default(),
            mc_idx_i: Default::default(),
            ph_i: Default::default(),
            gom_i: Default::default(),
            ovl_a_i: Default::default(),
            ovl_b_i: Default::default(),
            slot0_i: Default::default(),
            slot1_i: Default::default(),
            fin0_i: Default::default(),
            fin1_i: Default::default(),
            last_period_i: Default::default(),
            gom_slot_i: Default::default(),
            lat_i: Default::default(),
            st_i: Default::default(),
            dn_i: Default::default(),
            ds_i: Default::default(),
            grant_o: Default::default(),
            status_o: Default::default(),
            cap_en_o: Default::default(),
            turn_n_o: Default::default(),
            turn_s_o: Default::default(),
            e_str_o: Default::default(),
            e_inj_o: Default::default(),
            w_str_o: Default::default(),
            w_inj_o: Default::default(),
            n_str_o: Default::default(),
            s_str_o: Default::default(),
            n_drv_o: Default::default(),
            s_drv_o: Default::default(),
            loc_out_o: Default::default(),
            drop_o: Default::default(),
            collision_o: Default::default(),
            fa: Default::default(),
            fb: Default::default(),
            src: Default::default(),
            to_n: Default::default(),
            to_s: Default::default(),
            to_l: Default::default(),
            typ: Default::default(),
            dx: Default::default(),
            dy: Default::default(),
            cpt: Default::default(),
            cfg: Default::default(),
            ej: Default::default(),
            tn: Default::default(),
            ts: Default::default(),
            turning: Default::default(),
            grant: Default::default(),
            found: Default::default(),
            nej: Default::default(),
            f_off: std::array::from_fn(|o| k(ROW_FIELDS[o].lsb as u64)),
            lat_code: std::array::from_fn(|d| k(latch(d))),
            d_e: k(direct(golden::noc::route_rom::E)),
            d_w: k(direct(golden::noc::route_rom::W)),
            d_n: k(direct(golden::noc::route_rom::N)),
            d_s: k(direct(golden::noc::route_rom::S)),
            d_l: k(direct(golden::noc::route_rom::L)),
            f_valid: k(1 << SRC_VALID.lsb),
            c_dx: k(f.dst_x().lsb as u64),
            c_dy: k(f.dst_y().lsb as u64),
            c_ty: k(f.ty().lsb as u64),
            zero_lw: k(0),
            ty_cfg: k(golden::noc::link::T_GOMCFG as u64),
            st_cap: k(CAPTURED as u64),
            st_turn: k(TURNING as u64),
            zero3: k(0),
            one3: k(1),
        }
    }
}

impl<const LW: usize, const CW: usize> Logic for HingeSelect<LW, CW> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- live configuration: the fields of the two live rows ----
        for o in 0..5 {
            self.fa[o].next = self.row_a_i.val().get_bits::<FB>(self.f_off[o].val().index());
            self.fb[o].next = self.row_b_i.val().get_bits::<FB>(self.f_off[o].val().index());
        }
        // E, W, N, S: the non-φ one of the two rows (the partner's if both)
        for o in 0..4 {
            if self.fb[o].val() >= self.f_valid.val() {
                self.src[o].next = self.fb[o].val();
            } else {
                self.src[o].next = self.fa[o].val();
            }
        }
        for d in 0..5 {
            self.to_n[d].next = (self.fa[2].val() == self.lat_code[d].val()) | (self.fb[2].val() == self.lat_code[d].val());
            self.to_s[d].next = (self.fa[3].val() == self.lat_code[d].val()) | (self.fb[3].val() == self.lat_code[d].val());
            self.to_l[d].next = (self.fa[4].val() == self.lat_code[d].val()) | (self.fb[4].val() == self.lat_code[d].val());
            self.cap_en_o[d].next = self.to_n[d].val() | self.to_s[d].val() | self.to_l[d].val();
        }

        // ---- injection grant: counters only ----
        self.grant.next = false;
        if self.mc_i.val() {
            if self.ph_i.val() {
                self.grant.next = (self.ovl_b_i.val() == self.mc_idx_i.val()) & self.slot1_i.val();
            } else {
                self.grant.next = (self.ovl_a_i.val() == self.mc_idx_i.val()) & self.slot0_i.val();
            }
        } else if self.gom_i.val() {
            self.grant.next = self.gom_slot_i.val();
        }
        self.grant_o.next = self.grant.val();
        if self.ph_i.val() {
            self.status_o.next = self.mc_i.val() & self.grant.val() & self.fin1_i.val() & self.last_period_i.val();
        } else {
            self.status_o.next = self.mc_i.val() & self.grant.val() & self.fin0_i.val() & self.last_period_i.val();
        }

        // ---- input selection (Algorithm 2) on every CAPTURED latch ----
        self.found.next = false;
        self.nej.next = self.zero3.val();
        self.loc_out_o.next = self.zero_lw.val();
        for d in 0..5 {
            self.typ[d].next = self.lat_i[d].val().get_bits::<2>(self.c_ty.val().index());
            self.dx[d].next = self.lat_i[d].val().get_bits::<CW>(self.c_dx.val().index());
            self.dy[d].next = self.lat_i[d].val().get_bits::<CW>(self.c_dy.val().index());
            self.cpt[d].next = self.st_i[d].val() == self.st_cap.val();
            self.cfg[d].next = self.cpt[d].val() & (self.typ[d].val() == self.ty_cfg.val());
            self.ej[d].next = self.cpt[d].val() & !self.cfg[d].val() & (self.dx[d].val() == self.x_i.val()) & (self.dy[d].val() == self.y_i.val()) & self.to_l[d].val();
            if self.cfg[d].val() {
                // GOMCFG: consumed here (T-pending), turned onto every configured Y output
                self.tn[d].next = self.to_n[d].val();
                self.ts[d].next = self.to_s[d].val();
            } else {
                self.tn[d].next = self.cpt[d].val() & !self.ej[d].val() & (self.dx[d].val() == self.x_i.val()) & (self.dy[d].val() > self.y_i.val()) & self.to_n[d].val();
                self.ts[d].next = self.cpt[d].val() & !self.ej[d].val() & (self.dx[d].val() == self.x_i.val()) & (self.dy[d].val() < self.y_i.val()) & self.to_s[d].val();
            }
            self.drop_o[d].next = self.cpt[d].val() & !self.cfg[d].val() & !self.ej[d].val() & !self.tn[d].val() & !self.ts[d].val();
            // the lowest ejecting latch wins the local port
            if self.ej[d].val() {
                self.nej.next = self.nej.val() + self.one3.val();
                if !self.found.val() {
                    self.loc_out_o.next = self.lat_i[d].val();
                }
                self.found.next = true;
            }
        }
        self.collision_o.next = self.nej.val() > self.one3.val();
        self.turn_n_o[0].next = self.tn[0].val();
        self.turn_s_o[0].next = self.ts[0].val();
        self.turn_n_o[1].next = self.tn[1].val();
        self.turn_s_o[1].next = self.ts[1].val();
        self.turn_n_o[2].next = self.tn[4].val();
        self.turn_s_o[2].next = self.ts[4].val();

        // ---- bypass muxes (legal sources only) ----
        self.e_str_o.next = self.src[0].val() == self.d_w.val();
        self.e_inj_o.next = self.src[0].val() == self.d_l.val();
        self.w_str_o.next = self.src[1].val() == self.d_e.val();
        self.w_inj_o.next = self.src[1].val() == self.d_l.val();
        self.n_str_o.next = self.src[2].val() == self.d_s.val();
        self.s_str_o.next = self.src[3].val() == self.d_n.val();
        self.turning[0].next = self.st_i[0].val() == self.st_turn.val();
        self.turning[1].next = self.st_i[1].val() == self.st_turn.val();
        self.turning[2].next = self.st_i[4].val() == self.st_turn.val();
        self.n_drv_o.next = self.zero_lw.val();
        self.s_drv_o.next = self.zero_lw.val();
        // a TURNING latch of E, W or L drives the Y output the live row sources from it
        if (self.src[2].val() == self.lat_code[0].val()) & self.turning[0].val() & self.dn_i[0].val() {
            self.n_drv_o.next = self.lat_i[0].val();
        }
        if (self.src[3].val() == self.lat_code[0].val()) & self.turning[0].val() & self.ds_i[0].val() {
            self.s_drv_o.next = self.lat_i[0].val();
        }
        if (self.src[2].val() == self.lat_code[1].val()) & self.turning[1].val() & self.dn_i[1].val() {
            self.n_drv_o.next = self.lat_i[1].val();
        }
        if (self.src[3].val() == self.lat_code[1].val()) & self.turning[1].val() & self.ds_i[1].val() {
            self.s_drv_o.next = self.lat_i[1].val();
        }
        if (self.src[2].val() == self.lat_code[4].val()) & self.turning[2].val() & self.dn_i[2].val() {
            self.n_drv_o.next = self.lat_i[4].val();
        }
        if (self.src[3].val() == self.lat_code[4].val()) & self.turning[2].val() & self.ds_i[2].val() {
            self.s_drv_o.next = self.lat_i[4].val();
        }
    }
}

/// The local injection: the offered link with its valid bit set on a transfer
/// (`valid & grant`), else 0.
#[derive(LogicBlock)]
pub struct HingeInject<const LW: usize> {
    pub v_i: Signal<In, Bit>,
    pub link_i: Signal<In, Bits<LW>>,
    pub grant_i: Signal<In, Bit>,
    pub inj_o: Signal<Out, Bits<LW>>,
    vbit: Constant<Bits<LW>>,
    zero_lw: Constant<Bits<LW>>,
}

impl<const LW: usize> Default for HingeInject<LW> {
    fn default() -> Self {
        Self { v_i: Default::default(), link_i: Default::default(), grant_i: Default::default(), inj_o: Default::default(), vbit: valid_bit(), zero_lw: k(0) }
    }
}

impl<const LW: usize> Logic for HingeInject<LW> {
    #[hdl_gen]
    fn update(&mut self) {
        if self.v_i.val() & self.grant_i.val() {
            self.inj_o.next = self.link_i.val() | self.vbit.val();
        } else {
            self.inj_o.next = self.zero_lw.val();
        }
    }
}

/// A latch that may turn its flit onto the Y bypass (E, W and L).
#[derive(LogicBlock)]
pub struct HingeLatch<const LW: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    /// The incoming bypass wire (or the local injection).
    pub wire_i: Signal<In, Bits<LW>>,
    /// Some output of the live configuration is sourced from this latch.
    pub cap_en_i: Signal<In, Bit>,
    /// Input selection turns the CAPTURED flit onto N / S next cycle.
    pub turn_n_i: Signal<In, Bit>,
    pub turn_s_i: Signal<In, Bit>,
    /// The latched flit, its state (IDLE / CAPTURED / TURNING) and N / S drive.
    pub lat: RegQ<LW>,
    pub st: RegQ<ST_W>,
    pub dn: RegQ<1>,
    pub ds: RegQ<1>,
    /// A capture while CAPTURED (spec 1.3: an assertion).
    pub overrun_o: Signal<Out, Bit>,
    lat_r: QReg<LW>,
    st_r: QReg<ST_W>,
    dn_r: QReg<1>,
    ds_r: QReg<1>,
    cap: Signal<Local, Bit>,
    c_v: Constant<Bits<7>>,
    st_idle: Constant<Bits<ST_W>>,
    st_cap: Constant<Bits<ST_W>>,
    st_turn: Constant<Bits<ST_W>>,
    zero1: Constant<Bits<1>>,
    one1: Constant<Bits<1>>,
}

impl<const LW: usize> Default for HingeLatch<LW> {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            wire_i: Default::default(),
            cap_en_i: Default::default(),
            turn_n_i: Default::default(),
            turn_s_i: Default::default(),
            lat: Default::default(),
            st: Default::default(),
            dn: Default::default(),
            ds: Default::default(),
            overrun_o: Default::default(),
            lat_r: Default::default(),
            st_r: Default::default(),
            dn_r: Default::default(),
            ds_r: Default::default(),
            cap: Default::default(),
            c_v: k(LinkFmt::valid_lsb(LW as u32) as u64),
            st_idle: k(IDLE as u64),
            st_cap: k(CAPTURED as u64),
            st_turn: k(TURNING as u64),
            zero1: k(0),
            one1: k(1),
        }
    }
}

impl<const LW: usize> Logic for HingeLatch<LW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.lat_r.clk_i.next = self.clk_i.val();
        self.st_r.clk_i.next = self.clk_i.val();
        self.dn_r.clk_i.next = self.clk_i.val();
        self.ds_r.clk_i.next = self.clk_i.val();
        self.lat_r.rst_i.next = self.rst_i.val();
        self.st_r.rst_i.next = self.rst_i.val();
        self.dn_r.rst_i.next = self.rst_i.val();
        self.ds_r.rst_i.next = self.rst_i.val();
        RegQ::<LW>::link(&mut self.lat, &mut self.lat_r.q);
        RegQ::<ST_W>::link(&mut self.st, &mut self.st_r.q);
        RegQ::<1>::link(&mut self.dn, &mut self.dn_r.q);
        RegQ::<1>::link(&mut self.ds, &mut self.ds_r.q);
        self.cap.next = self.wire_i.val().get_bit(self.c_v.val().index()) & self.cap_en_i.val();
        self.overrun_o.next = self.cap.val() & (self.st.q_o.val() == self.st_cap.val());
        self.lat_r.d_i.next = self.lat.q_o.val();
        self.st_r.d_i.next = self.st_idle.val();
        self.dn_r.d_i.next = self.zero1.val();
        self.ds_r.d_i.next = self.zero1.val();
        if self.cap.val() {
            // a capture at the end of a TURNING cycle is legal: the flit has left
            self.lat_r.d_i.next = self.wire_i.val();
            self.st_r.d_i.next = self.st_cap.val();
        } else if self.turn_n_i.val() | self.turn_s_i.val() {
            self.st_r.d_i.next = self.st_turn.val();
            if self.turn_n_i.val() {
                self.dn_r.d_i.next = self.one1.val();
            }
            if self.turn_s_i.val() {
                self.ds_r.d_i.next = self.one1.val();
            }
        }
    }
}

/// A latch that only ejects or drops (N and S: spec 1.3 gives no turn from them).
#[derive(LogicBlock)]
pub struct HingeEndLatch<const LW: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub wire_i: Signal<In, Bits<LW>>,
    pub cap_en_i: Signal<In, Bit>,
    pub lat: RegQ<LW>,
    pub st: RegQ<ST_W>,
    pub overrun_o: Signal<Out, Bit>,
    lat_r: QReg<LW>,
    st_r: QReg<ST_W>,
    cap: Signal<Local, Bit>,
    c_v: Constant<Bits<7>>,
    st_idle: Constant<Bits<ST_W>>,
    st_cap: Constant<Bits<ST_W>>,
}

impl<const LW: usize> Default for HingeEndLatch<LW> {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            wire_i: Default::default(),
            cap_en_i: Default::default(),
            lat: Default::default(),
            st: Default::default(),
            overrun_o: Default::default(),
            lat_r: Default::default(),
            st_r: Default::default(),
            cap: Default::default(),
            c_v: k(LinkFmt::valid_lsb(LW as u32) as u64),
            st_idle: k(IDLE as u64),
            st_cap: k(CAPTURED as u64),
        }
    }
}

impl<const LW: usize> Logic for HingeEndLatch<LW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.lat_r.clk_i.next = self.clk_i.val();
        self.st_r.clk_i.next = self.clk_i.val();
        self.lat_r.rst_i.next = self.rst_i.val();
        self.st_r.rst_i.next = self.rst_i.val();
        RegQ::<LW>::link(&mut self.lat, &mut self.lat_r.q);
        RegQ::<ST_W>::link(&mut self.st, &mut self.st_r.q);
        self.cap.next = self.wire_i.val().get_bit(self.c_v.val().index()) & self.cap_en_i.val();
        self.overrun_o.next = self.cap.val() & (self.st.q_o.val() == self.st_cap.val());
        self.lat_r.d_i.next = self.lat.q_o.val();
        self.st_r.d_i.next = self.st_idle.val();
        if self.cap.val() {
            self.lat_r.d_i.next = self.wire_i.val();
            self.st_r.d_i.next = self.st_cap.val();
        }
    }
}

/// E or W bypass output: the straight bypass input, the local injection, or 0.
#[derive(LogicBlock)]
pub struct BypassEw<const LW: usize> {
    pub straight_i: Signal<In, Bits<LW>>,
    pub inj_i: Signal<In, Bits<LW>>,
    pub str_i: Signal<In, Bit>,
    pub inj_sel_i: Signal<In, Bit>,
    pub out_o: Signal<Out, Bits<LW>>,
    zero_lw: Constant<Bits<LW>>,
}

impl<const LW: usize> Default for BypassEw<LW> {
    fn default() -> Self {
        Self { straight_i: Default::default(), inj_i: Default::default(), str_i: Default::default(), inj_sel_i: Default::default(), out_o: Default::default(), zero_lw: k(0) }
    }
}

impl<const LW: usize> Logic for BypassEw<LW> {
    #[hdl_gen]
    fn update(&mut self) {
        if self.str_i.val() {
            self.out_o.next = self.straight_i.val();
        } else if self.inj_sel_i.val() {
            self.out_o.next = self.inj_i.val();
        } else {
            self.out_o.next = self.zero_lw.val();
        }
    }
}

/// N or S bypass output: the straight bypass input or the turning latch's drive.
#[derive(LogicBlock, Default)]
pub struct BypassNs<const LW: usize> {
    pub straight_i: Signal<In, Bits<LW>>,
    pub drv_i: Signal<In, Bits<LW>>,
    pub str_i: Signal<In, Bit>,
    pub out_o: Signal<Out, Bits<LW>>,
}

impl<const LW: usize> Logic for BypassNs<LW> {
    #[hdl_gen]
    fn update(&mut self) {
        if self.str_i.val() {
            self.out_o.next = self.straight_i.val();
        } else {
            self.out_o.next = self.drv_i.val();
        }
    }
}
