//! Port maps of the NoC designs: the golden models' port structs to and from the
//! frames of `macro_reply_mesh_*`, `vc_mesh_*` (and the planes of the tops),
//! `macro_hinge_top_*` and `vc_router_top_*`.
//!
//! Slots and widths come from the design's manifest (the [`Layout`]); every bit
//! position inside a port comes from golden's field tables ([`LinkFmt`] for the reply
//! link, [`VcLayout`] for the VC links and flits). Ports of any width, 138-bit router
//! flits included, are written as word slices through those tables.

use golden::bits::Field;
use golden::noc::config::NocConfig;
use golden::noc::flit::{VcLayout, MAX_LINK_WORDS};
use golden::noc::hinge_router::{HingeInputs, HingeOutputs, HingeTop, LATCH_STATE_BITS};
use golden::noc::link::LinkFmt;
use golden::noc::reply_mesh::{ReplyInputs, ReplyMesh, ReplyOutputs};
use golden::noc::route_rom::{DIRS, E, N, S, W};
use golden::noc::vc_mesh::{VcMesh, VcMeshInputs, VcMeshOutputs};
use golden::noc::vc_router::{VcLink, VcRouter, VcRouterInputs, VcRouterOutputs};

use crate::bench::{expect_fields, expect_width, PortMap};
use crate::frame::{Frame, Layout, Slot};

/// Write `v` to the whole of `slot` (a port of at most 128 bits) on the frame's words.
fn put(f: &mut Frame, slot: &Slot, v: u128) {
    Field::new("port", 0, slot.width).write(f.slice_mut(slot), v);
}

/// Write `v` to field `i` of `slot` (fields of at most 128 bits) on the frame's words.
fn put_field(f: &mut Frame, slot: &Slot, i: usize, v: u128) {
    let w = slot.field_width();
    Field::new("field", i as u32 * w, w).write(f.slice_mut(slot), v);
}

/// Lower-case direction names of the ports (`e`, `w`, `n`, `s`, `l`).
fn dir(d: usize) -> String {
    DIRS[d].to_lowercase()
}

// ---------------------------------------------------------------------------
// reply plane
// ---------------------------------------------------------------------------

/// The ports of `macro_reply_mesh_*` (and of the reply half of `macro_noc_top_*`):
/// every link is split into a header port (the link above the payload) and a payload
/// port, one field per MC, node or node-and-direction.
#[derive(Debug, Clone)]
pub struct ReplyPorts {
    fmt: LinkFmt,
    rst: Slot,
    mc_v: Slot,
    mc_hdr: Slot,
    mc_data: Slot,
    mc_ready: Slot,
    ej_hdr: Slot,
    ej_data: Slot,
    link_hdr: Slot,
    link_data: Slot,
    inj_hdr: Slot,
    inj_data: Slot,
    grant: Slot,
    latch: Slot,
    drop: Slot,
    overrun: Slot,
    collision: Slot,
    sched: Slot,
    ecyc: Slot,
}

impl ReplyPorts {
    pub fn new(c: &NocConfig, l: &Layout) -> Result<ReplyPorts, String> {
        let fmt = LinkFmt::new(c);
        let (m, nn) = (c.m(), c.nodes());
        for (port, fields, field_w) in [
            ("mc_reply_hdr_i", m, fmt.header().width),
            ("mc_reply_data_i", m, fmt.payload().width),
            ("eject_hdr_o", nn, fmt.header().width),
            ("dbg_link_hdr_o", 4 * nn, fmt.header().width),
        ] {
            expect_fields(l, port, fields)?;
            expect_width(l, port, fields as u32 * field_w)?;
        }
        Ok(ReplyPorts {
            fmt,
            rst: l.input("rst_i"),
            mc_v: l.input("mc_reply_v_i"),
            mc_hdr: l.input("mc_reply_hdr_i"),
            mc_data: l.input("mc_reply_data_i"),
            mc_ready: l.output("mc_reply_ready_o"),
            ej_hdr: l.output("eject_hdr_o"),
            ej_data: l.output("eject_data_o"),
            link_hdr: l.output("dbg_link_hdr_o"),
            link_data: l.output("dbg_link_data_o"),
            inj_hdr: l.output("dbg_inj_hdr_o"),
            inj_data: l.output("dbg_inj_data_o"),
            grant: l.output("dbg_grant_o"),
            latch: l.output("dbg_latch_state_o"),
            drop: l.output("dbg_drop_o"),
            overrun: l.output("dbg_overrun_o"),
            collision: l.output("dbg_collision_o"),
            sched: l.output("dbg_sched_o"),
            ecyc: l.output("dbg_ecyc_o"),
        })
    }

    /// Link `v` as field `i` of a header port and a payload port.
    fn link(&self, f: &mut Frame, hdr: &Slot, data: &Slot, i: usize, v: u128) {
        let words = [v as u64, (v >> 64) as u64];
        put_field(f, hdr, i, self.fmt.header().read(&words));
        put_field(f, data, i, self.fmt.payload().read(&words));
    }
}

impl PortMap<ReplyMesh> for ReplyPorts {
    fn pack_inputs(&self, i: &ReplyInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        for k in 0..i.mc_v.len() {
            f.set_bool(&self.mc_v, k, i.mc_v[k]);
            self.link(f, &self.mc_hdr, &self.mc_data, k, i.mc_link[k]);
        }
    }

    fn pack_outputs(&self, o: &ReplyOutputs, f: &mut Frame) {
        for k in 0..o.mc_ready.len() {
            f.set_bool(&self.mc_ready, k, o.mc_ready[k]);
        }
        for id in 0..o.eject.len() {
            self.link(f, &self.ej_hdr, &self.ej_data, id, o.eject[id]);
            for d in 0..4 {
                self.link(f, &self.link_hdr, &self.link_data, id * 4 + d, o.links[id][d]);
            }
            self.link(f, &self.inj_hdr, &self.inj_data, id, o.inj[id]);
            f.set_bool(&self.grant, id, o.grant[id]);
            f.set_field(&self.latch, id, o.latch_state[id] as u64);
            f.set_field(&self.drop, id, o.drop[id] as u64);
            f.set_bool(&self.overrun, id, o.overrun[id]);
            f.set_bool(&self.collision, id, o.collision[id]);
            f.set_field(&self.sched, id, o.sched[id] as u64);
        }
        f.set(&self.ecyc, o.ecyc as u64);
    }
}

// ---------------------------------------------------------------------------
// VC planes
// ---------------------------------------------------------------------------

/// The ports of one VC mesh `vc_mesh_*` (or one plane of a top, its names prefixed):
/// every link is a header port (`{valid .. dst_x}`) and a data port, one field per node
/// or node-and-direction; credits are one bit per VC.
#[derive(Debug, Clone)]
pub struct VcPorts {
    lay: VcLayout,
    n: u32,
    rst: Slot,
    inj_hdr: Slot,
    inj_data: Slot,
    ej_credit: Slot,
    ej_hdr: Slot,
    ej_data: Slot,
    inj_credit: Slot,
    link_hdr: Slot,
    link_data: Slot,
    credit: Slot,
}

impl VcPorts {
    /// The plane of layout `lay` whose ports carry the prefix `pre`.
    pub fn new(c: &NocConfig, lay: VcLayout, l: &Layout, pre: &str) -> Result<VcPorts, String> {
        let p = |s: &str| format!("{pre}{s}");
        let nn = c.nodes() as u32;
        for (port, width) in [
            ("inj_hdr_i", nn * lay.header_width()),
            ("inj_data_i", nn * lay.data_w),
            ("ej_hdr_o", nn * lay.header_width()),
            ("link_hdr_o", 4 * nn * lay.header_width()),
            ("link_data_o", 4 * nn * lay.data_w),
        ] {
            expect_width(l, &p(port), width)?;
        }
        Ok(VcPorts {
            lay,
            n: c.n,
            rst: l.input("rst_i"),
            inj_hdr: l.input(&p("inj_hdr_i")),
            inj_data: l.input(&p("inj_data_i")),
            ej_credit: l.input(&p("ej_credit_i")),
            ej_hdr: l.output(&p("ej_hdr_o")),
            ej_data: l.output(&p("ej_data_o")),
            inj_credit: l.output(&p("inj_credit_o")),
            link_hdr: l.output(&p("link_hdr_o")),
            link_data: l.output(&p("link_data_o")),
            credit: l.output(&p("credit_o")),
        })
    }

    /// Link `l` as link number `i` of a header port and a data port.
    fn link(&self, f: &mut Frame, hdr: &Slot, data: &Slot, i: usize, l: &VcLink) {
        let mut words = [0u64; MAX_LINK_WORDS];
        self.lay.pack(self.n, l, &mut words);
        f.set_field(hdr, i, self.lay.header().read(&words) as u64);
        let d = self.lay.data();
        // (up to 256 bits: word by word)
        let mut dw = [0u64; 4];
        d.read_words(&words, &mut dw);
        Field::new("data", i as u32 * d.width, d.width).write_words(f.slice_mut(data), &dw);
    }
}

impl PortMap<VcMesh> for VcPorts {
    fn pack_inputs(&self, i: &VcMeshInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        for id in 0..i.inj.len() {
            self.link(f, &self.inj_hdr, &self.inj_data, id, &i.inj[id]);
            f.set_field(&self.ej_credit, id, i.ej_credit[id] as u64);
        }
    }

    fn pack_outputs(&self, o: &VcMeshOutputs, f: &mut Frame) {
        for id in 0..o.ej.len() {
            self.link(f, &self.ej_hdr, &self.ej_data, id, &o.ej[id]);
            f.set_field(&self.inj_credit, id, o.inj_credit[id] as u64);
            for d in 0..4 {
                self.link(f, &self.link_hdr, &self.link_data, id * 4 + d, &o.links[id][d]);
                f.set_field(&self.credit, id * 4 + d, o.credits[id][d] as u64);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// router-level designs
// ---------------------------------------------------------------------------

/// The ports of `macro_hinge_top_*`: whole reply links (up to 78 bits) per port.
#[derive(Debug, Clone)]
pub struct HingePorts {
    rst: Slot,
    byp_in: [Slot; 4],
    loc_in_v: Slot,
    loc_in_link: Slot,
    byp_out: [Slot; 4],
    grant: Slot,
    status: Slot,
    loc_out: Slot,
    sched: Slot,
    ecyc: Slot,
    inj: Slot,
    latch: Slot,
    drop: Slot,
    overrun: Slot,
    collision: Slot,
}

impl HingePorts {
    pub fn new(c: &NocConfig, l: &Layout) -> Result<HingePorts, String> {
        let lw = LinkFmt::new(c).width;
        let links = [E, W, N, S];
        for d in links {
            expect_width(l, &format!("byp_in_{}_i", dir(d)), lw)?;
        }
        expect_width(l, "loc_out_o", lw)?;
        expect_width(l, "dbg_latch_state_o", 5 * LATCH_STATE_BITS)?;
        Ok(HingePorts {
            rst: l.input("rst_i"),
            byp_in: links.map(|d| l.input(&format!("byp_in_{}_i", dir(d)))),
            loc_in_v: l.input("loc_in_v_i"),
            loc_in_link: l.input("loc_in_link_i"),
            byp_out: links.map(|d| l.output(&format!("byp_out_{}_o", dir(d)))),
            grant: l.output("loc_in_grant_o"),
            status: l.output("loc_in_status_o"),
            loc_out: l.output("loc_out_o"),
            sched: l.output("dbg_sched_o"),
            ecyc: l.output("dbg_ecyc_o"),
            inj: l.output("dbg_inj_o"),
            latch: l.output("dbg_latch_state_o"),
            drop: l.output("dbg_drop_o"),
            overrun: l.output("dbg_overrun_o"),
            collision: l.output("dbg_collision_o"),
        })
    }
}

impl PortMap<HingeTop> for HingePorts {
    fn pack_inputs(&self, i: &HingeInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        for (s, &v) in self.byp_in.iter().zip(&i.byp_in) {
            put(f, s, v);
        }
        f.set(&self.loc_in_v, i.loc_in_v as u64);
        put(f, &self.loc_in_link, i.loc_in_link);
    }

    fn pack_outputs(&self, o: &HingeOutputs, f: &mut Frame) {
        for (s, &v) in self.byp_out.iter().zip(&o.byp_out) {
            put(f, s, v);
        }
        f.set(&self.grant, o.loc_in_grant as u64);
        f.set(&self.status, o.loc_in_status as u64);
        put(f, &self.loc_out, o.loc_out);
        f.set(&self.sched, o.sched as u64);
        f.set(&self.ecyc, o.ecyc as u64);
        put(f, &self.inj, o.inj);
        f.set(&self.latch, o.latch_state as u64);
        f.set(&self.drop, o.drop as u64);
        f.set(&self.overrun, o.overrun as u64);
        f.set(&self.collision, o.collision as u64);
    }
}

/// One direction of `vc_router_top_*`: the input link and the credits it returns, the
/// output link and the credits coming back.
#[derive(Debug, Clone)]
struct RouterPort {
    in_v: Slot,
    in_vc: Slot,
    in_flit: Slot,
    in_credit: Slot,
    out_v: Slot,
    out_vc: Slot,
    out_flit: Slot,
    out_credit: Slot,
}

/// The ports of `vc_router_top_*`: per direction E, W, N, S, L a link (valid, VC and
/// a flit `{head .. data}` as wide as [`VcLayout::flit_width`], 138 bits for the
/// baseline's 128-bit data) and one credit bit per VC each way.
#[derive(Debug, Clone)]
pub struct VcRouterPorts {
    lay: VcLayout,
    n: u32,
    rst: Slot,
    ports: Vec<RouterPort>,
}

impl VcRouterPorts {
    pub fn new(c: &NocConfig, lay: VcLayout, vcs: u32, l: &Layout) -> Result<VcRouterPorts, String> {
        let mut ports = Vec::new();
        for d in (0..5).map(dir) {
            for (port, width) in [
                (format!("in_{d}_flit_i"), lay.flit_width()),
                (format!("out_{d}_flit_o"), lay.flit_width()),
                (format!("in_{d}_vc_i"), lay.vc_width()),
                (format!("in_{d}_credit_o"), vcs),
            ] {
                expect_width(l, &port, width)?;
            }
            ports.push(RouterPort {
                in_v: l.input(&format!("in_{d}_v_i")),
                in_vc: l.input(&format!("in_{d}_vc_i")),
                in_flit: l.input(&format!("in_{d}_flit_i")),
                in_credit: l.output(&format!("in_{d}_credit_o")),
                out_v: l.output(&format!("out_{d}_v_o")),
                out_vc: l.output(&format!("out_{d}_vc_o")),
                out_flit: l.output(&format!("out_{d}_flit_o")),
                out_credit: l.input(&format!("out_{d}_credit_i")),
            });
        }
        Ok(VcRouterPorts { lay, n: c.n, rst: l.input("rst_i"), ports })
    }

    fn link(&self, f: &mut Frame, v: &Slot, vc: &Slot, flit: &Slot, l: &VcLink) {
        f.set(v, l.is_some() as u64);
        f.set(vc, l.map_or(0, |(u, _)| u as u64));
        self.lay.pack_flit(self.n, l.as_ref().map(|(_, fl)| fl), f.slice_mut(flit));
    }
}

impl PortMap<VcRouter> for VcRouterPorts {
    fn pack_inputs(&self, i: &VcRouterInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        for (p, s) in self.ports.iter().enumerate() {
            self.link(f, &s.in_v, &s.in_vc, &s.in_flit, &i.links[p]);
            f.set(&s.out_credit, i.credits[p] as u64);
        }
    }

    fn pack_outputs(&self, o: &VcRouterOutputs, f: &mut Frame) {
        for (p, s) in self.ports.iter().enumerate() {
            self.link(f, &s.out_v, &s.out_vc, &s.out_flit, &o.links[p]);
            f.set(&s.in_credit, o.credits[p] as u64);
        }
    }
}
