//! MC network interface of the reply plane (spec §1.9, §1.10; golden
//! `golden::noc::mc_ni`): the reply queue (REPLY_Q flits, fed by L2/DRAM with
//! valid/ready), the arrival and occupancy counters, and the STATUS flit the MC sends
//! in its final slot of the epoch. One module per preset, shared by every MC (the MC
//! index comes in on a constant port).
//!
//! * `ready_o = count < REPLY_Q`; a pushed flit is stored with `src` = the MC index.
//! * `loc_in_v_o = status_i | !empty`; the link is the STATUS flit in the status slot
//!   (priority over data), else the head. Transfer = valid & grant.
//! * `arr_r` counts pushes (16 bits, saturating), `occ_r` adds the registered count
//!   every cycle (24 bits, saturating); both restart on a STATUS send with this
//!   cycle's push and count.

use golden::noc::link::{status_payload, Flit, LinkFmt, STATUS_ARR, STATUS_MC, STATUS_OCC, T_STATUS};
use rust_hdl::prelude::*;

use crate::prim::Zext;
use crate::prim::{Mem1R, Reg};

#[derive(LogicBlock)]
pub struct McNi<const LW: usize, const C: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    /// This MC's index (constant).
    pub mc_idx_i: Signal<In, Bits<4>>,
    pub push_v_i: Signal<In, Bit>,
    /// Reply flit from L2/DRAM (valid and src fields are ignored).
    pub push_link_i: Signal<In, Bits<LW>>,
    pub ready_o: Signal<Out, Bit>,
    pub grant_i: Signal<In, Bit>,
    /// This cycle is the MC's STATUS slot.
    pub status_i: Signal<In, Bit>,
    pub loc_in_v_o: Signal<Out, Bit>,
    pub loc_in_link_o: Signal<Out, Bits<LW>>,
    mem: Mem1R<LW, C>,
    head_r: Reg<C>,
    tail_r: Reg<C>,
    count_r: Reg<C>,
    arr_r: Reg<16>,
    occ_r: Reg<24>,
    z_src: Zext<4, LW>,
    z_mc: Zext<4, 64>,
    z_arr: Zext<16, 64>,
    z_occ: Zext<24, 64>,
    z_cnt: Zext<C, 24>,
    z_pay: Zext<64, LW>,
    empty: Signal<Local, Bit>,
    ready: Signal<Local, Bit>,
    xfer: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    src: Signal<Local, Bits<LW>>,
    /// Link header of a STATUS flit (valid, type, head, tail, dst = the GOM).
    c_status_hdr: Constant<Bits<LW>>,
    /// Bits of a pushed link that are kept (all but valid and src).
    c_keep: Constant<Bits<LW>>,
    c_src: Constant<Bits<7>>,
    vbit: Constant<Bits<LW>>,
    zero_lw: Constant<Bits<LW>>,
    /// The STATUS payload's tag; the positions of its mc, arr and occ fields.
    c_tag: Constant<Bits<64>>,
    c_mc: Constant<Bits<6>>,
    c_arr: Constant<Bits<6>>,
    c_occ: Constant<Bits<6>>,
    depth: Constant<Bits<C>>,
    last: Constant<Bits<C>>,
    zero_c: Constant<Bits<C>>,
    one_c: Constant<Bits<C>>,
    arr_max: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    occ_max: Constant<Bits<24>>,
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

impl<const LW: usize, const C: usize> McNi<LW, C> {
    /// `depth` = REPLY_Q; `cw`, `sw` = coordinate and source widths of the link;
    /// `gom` = the GOM's coordinates (STATUS destination).
    pub fn new(depth: usize, cw: u32, sw: u32, gom: (u32, u32)) -> Self {
        let f = LinkFmt::for_widths(cw, sw);
        assert_eq!(LW as u32, f.width, "link width");
        // the STATUS flit without its src and payload (golden `McNi::status_link`)
        let status = f.pack(&Flit { valid: true, ty: T_STATUS, head: true, tail: true, src: 0, dst_x: gom.0, dst_y: gom.1, payload: 0 });
        // a pushed link keeps everything but valid and src
        let keep = f.mask() & !f.valid_bit() & !(f.src().mask() << f.src().lsb);
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            mc_idx_i: Default::default(),
            push_v_i: Default::default(),
            push_link_i: Default::default(),
            ready_o: Default::default(),
            grant_i: Default::default(),
            status_i: Default::default(),
            loc_in_v_o: Default::default(),
            loc_in_link_o: Default::default(),
            mem: Mem1R::new(depth),
            head_r: Default::default(),
            tail_r: Default::default(),
            count_r: Default::default(),
            arr_r: Default::default(),
            occ_r: Default::default(),
            z_src: Default::default(),
            z_mc: Default::default(),
            z_arr: Default::default(),
            z_occ: Default::default(),
            z_cnt: Default::default(),
            z_pay: Default::default(),
            empty: Default::default(),
            ready: Default::default(),
            xfer: Default::default(),
            pop: Default::default(),
            push: Default::default(),
            src: Default::default(),
            c_status_hdr: big(status),
            c_keep: big(keep),
            c_src: k(f.src().lsb as u64),
            vbit: big(f.valid_bit()),
            zero_lw: k(0),
            c_tag: k(status_payload(0, 0, 0)),
            c_mc: k(STATUS_MC.lsb as u64),
            c_arr: k(STATUS_ARR.lsb as u64),
            c_occ: k(STATUS_OCC.lsb as u64),
            depth: k(depth as u64),
            last: k(depth as u64 - 1),
            zero_c: k(0),
            one_c: k(1),
            arr_max: k(0xffff),
            one16: k(1),
            zero16: k(0),
            occ_max: k(0xff_ffff),
        }
    }
}

impl<const LW: usize, const C: usize> Logic for McNi<LW, C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.mem.clk_i.next = self.clk_i.val();
        self.head_r.clk_i.next = self.clk_i.val();
        self.tail_r.clk_i.next = self.clk_i.val();
        self.count_r.clk_i.next = self.clk_i.val();
        self.arr_r.clk_i.next = self.clk_i.val();
        self.occ_r.clk_i.next = self.clk_i.val();
        self.head_r.rst_i.next = self.rst_i.val();
        self.tail_r.rst_i.next = self.rst_i.val();
        self.count_r.rst_i.next = self.rst_i.val();
        self.arr_r.rst_i.next = self.rst_i.val();
        self.occ_r.rst_i.next = self.rst_i.val();

        self.empty.next = self.count_r.q_o.val() == self.zero_c.val();
        self.ready.next = self.count_r.q_o.val() < self.depth.val();
        self.ready_o.next = self.ready.val();
        self.push.next = self.push_v_i.val() & self.ready.val();
        self.loc_in_v_o.next = self.status_i.val() | !self.empty.val();
        self.xfer.next = (self.status_i.val() | !self.empty.val()) & self.grant_i.val();
        self.pop.next = self.xfer.val() & !self.status_i.val();

        // STATUS payload {4'h1, mc[3:0], arr[15:0], occ[23:0], 16'h0} and link
        self.z_src.i.next = self.mc_idx_i.val();
        self.src.next = self.z_src.o.val() << self.c_src.val();
        self.z_mc.i.next = self.mc_idx_i.val();
        self.z_arr.i.next = self.arr_r.q_o.val();
        self.z_occ.i.next = self.occ_r.q_o.val();
        self.z_pay.i.next = self.c_tag.val() | (self.z_mc.o.val() << self.c_mc.val()) | (self.z_arr.o.val() << self.c_arr.val()) | (self.z_occ.o.val() << self.c_occ.val());
        self.mem.r0_addr_i.next = self.head_r.q_o.val();
        if self.status_i.val() {
            self.loc_in_link_o.next = self.c_status_hdr.val() | self.src.val() | self.z_pay.o.val();
        } else if self.empty.val() {
            self.loc_in_link_o.next = self.zero_lw.val();
        } else {
            self.loc_in_link_o.next = self.mem.r0_data_o.val() | self.vbit.val();
        }

        // reply queue
        self.mem.w_v_i.next = self.push.val();
        self.mem.w_addr_i.next = self.tail_r.q_o.val();
        self.mem.w_data_i.next = (self.push_link_i.val() & self.c_keep.val()) | self.src.val();
        self.head_r.d_i.next = self.head_r.q_o.val();
        self.tail_r.d_i.next = self.tail_r.q_o.val();
        self.count_r.d_i.next = self.count_r.q_o.val();
        if self.pop.val() {
            if self.head_r.q_o.val() == self.last.val() {
                self.head_r.d_i.next = self.zero_c.val();
            } else {
                self.head_r.d_i.next = self.head_r.q_o.val() + self.one_c.val();
            }
        }
        if self.push.val() {
            if self.tail_r.q_o.val() == self.last.val() {
                self.tail_r.d_i.next = self.zero_c.val();
            } else {
                self.tail_r.d_i.next = self.tail_r.q_o.val() + self.one_c.val();
            }
        }
        if self.push.val() & !self.pop.val() {
            self.count_r.d_i.next = self.count_r.q_o.val() + self.one_c.val();
        }
        if self.pop.val() & !self.push.val() {
            self.count_r.d_i.next = self.count_r.q_o.val() - self.one_c.val();
        }

        // arrival / occupancy counters (saturating), restarted by a STATUS send
        self.z_cnt.i.next = self.count_r.q_o.val();
        if self.xfer.val() & self.status_i.val() {
            if self.push.val() {
                self.arr_r.d_i.next = self.one16.val();
            } else {
                self.arr_r.d_i.next = self.zero16.val();
            }
            self.occ_r.d_i.next = self.z_cnt.o.val();
        } else {
            if self.push.val() & (self.arr_r.q_o.val() != self.arr_max.val()) {
                self.arr_r.d_i.next = self.arr_r.q_o.val() + self.one16.val();
            } else {
                self.arr_r.d_i.next = self.arr_r.q_o.val();
            }
            if self.occ_r.q_o.val() > (self.occ_max.val() - self.z_cnt.o.val()) {
                self.occ_r.d_i.next = self.occ_max.val();
            } else {
                self.occ_r.d_i.next = self.occ_r.q_o.val() + self.z_cnt.o.val();
            }
        }
    }
}
