//! MACRO-NoC and baseline co-simulation benches (spec §4.3, lockstep level L1: every
//! ejection and every link, plus injections, grants, credits and the reply plane's
//! latch and schedule state, every cycle), each with its golden-side scoreboard.
//!
//! * [`ReplyBench`]: `macro_reply_mesh_*`: golden `ReplyMesh` + `ReplyChecker` +
//!   `ReplyStimulus`.
//! * [`VcBench`]: a wormhole VC plane `vc_mesh_*`: golden `VcMesh` + `VcChecker` +
//!   `VcStimulus` (terminal NIs with credit flow control).
//! * [`MacroBench`]: `macro_noc_top_*` (both planes, request ports `req_*`).
//! * [`BaselineBench`]: `baseline_noc_top_*` (planes `p0_*`, `p1_*`).
//!
//! * [`HingeRouterBench`], [`VcRouterBench`]: the router-level designs (`routers/*`,
//!   made for synthesis) against one golden router under random legal inputs.

use golden::invariant::Violation;
use golden::noc::check::{ReplyChecker, VcChecker};
use golden::noc::config::{NocConfig, VcParams};
use golden::noc::reply_mesh::{ReplyInputs, ReplyMesh, ReplyOutputs};
use golden::noc::traffic::{ReplyStimulus, VcStimulus};
use golden::noc::vc_mesh::{VcMesh, VcMeshInputs, VcMeshOutputs};
use golden::noc::vc_router::{VcFlit, VcLink};
use golden::noc::Noc;
use hdl_gen::noc::NocDesign;

use crate::frame::{Frame, Layout, Slot};
use crate::lockstep::Bench;
use crate::run::{BenchOptions, Cosim};

// ---------------------------------------------------------------------------
// reply plane
// ---------------------------------------------------------------------------

/// Frame slots of the reply plane's ports.
#[derive(Debug, Clone)]
struct ReplyPorts {
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
    fn new(l: &Layout) -> ReplyPorts {
        ReplyPorts {
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
        }
    }

    fn link(f: &mut Frame, hdr: &Slot, data: &Slot, i: usize, v: u128) {
        f.set_field(hdr, i, (v >> 64) as u64);
        f.set_field(data, i, v as u64);
    }

    fn pack_inputs(&self, i: &ReplyInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        for k in 0..i.mc_v.len() {
            f.set_bool(&self.mc_v, k, i.mc_v[k]);
            Self::link(f, &self.mc_hdr, &self.mc_data, k, i.mc_link[k]);
        }
    }

    fn pack_outputs(&self, o: &ReplyOutputs, f: &mut Frame) {
        for k in 0..o.mc_ready.len() {
            f.set_bool(&self.mc_ready, k, o.mc_ready[k]);
        }
        for id in 0..o.eject.len() {
            Self::link(f, &self.ej_hdr, &self.ej_data, id, o.eject[id]);
            for d in 0..4 {
                Self::link(f, &self.link_hdr, &self.link_data, id * 4 + d, o.links[id][d]);
            }
            Self::link(f, &self.inj_hdr, &self.inj_data, id, o.inj[id]);
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

/// Golden reply mesh driven by random traffic, watched by the scoreboard.
pub struct ReplyBench {
    pub mesh: ReplyMesh,
    pub checker: Option<ReplyChecker>,
    pub stim: ReplyStimulus,
    inp: ReplyInputs,
    out: ReplyOutputs,
    ports: ReplyPorts,
    reported: usize,
}

impl ReplyBench {
    pub fn new(c: &NocConfig, layout: &Layout, seed: u64) -> ReplyBench {
        assert_eq!(layout.output("eject_hdr_o").fields as usize, c.nodes(), "design and config disagree");
        ReplyBench {
            mesh: ReplyMesh::new(c),
            checker: Some(ReplyChecker::new(c)),
            stim: ReplyStimulus::new(c, seed),
            inp: ReplyInputs::new(c),
            out: ReplyOutputs::new(c),
            ports: ReplyPorts::new(layout),
            reported: 0,
        }
    }

    /// Run without the scoreboard (benchmarks of the bare harness, planted bugs).
    pub fn without_checker(mut self) -> Self {
        self.checker = None;
        self
    }

    /// Flits the scoreboard saw delivered.
    pub fn delivered(&self) -> u64 {
        self.checker.as_ref().map_or(0, |c| c.delivered)
    }
}

impl Bench for ReplyBench {
    fn checked(&self) -> bool {
        self.checker.is_some()
    }

    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        self.stim.drive(&mut self.inp);
        self.inp.rst = cycle == 0;
        self.mesh.eval(&self.inp, &mut self.out);
        if let Some(chk) = self.checker.as_mut() {
            chk.observe(&self.inp, &self.out);
            if chk.violations().len() > self.reported {
                self.reported = chk.violations().len();
                let mut v = chk.violations()[self.reported - 1].clone();
                v.detail = format!("reply plane: {}", v.detail);
                return Err(v);
            }
        }
        if !self.inp.rst {
            self.stim.accepted(&self.out.mc_ready);
        }
        self.mesh.commit();
        self.ports.pack_inputs(&self.inp, inputs);
        self.ports.pack_outputs(&self.out, expected);
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// VC planes
// ---------------------------------------------------------------------------

/// Frame slots of one VC plane's ports (`pre` = the plane's port prefix).
#[derive(Debug, Clone)]
struct VcPorts {
    inj_hdr: Slot,
    inj_data: Slot,
    ej_credit: Slot,
    ej_hdr: Slot,
    ej_data: Slot,
    inj_credit: Slot,
    link_hdr: Slot,
    link_data: Slot,
    credit: Slot,
    /// Mesh side, coordinate width, VC-index width, data width.
    n: u32,
    cw: u32,
    vw: u32,
    w: u32,
}

impl VcPorts {
    fn new(l: &Layout, pre: &str, c: &NocConfig, p: &VcParams) -> VcPorts {
        let s = |x: &str| format!("{pre}{x}");
        VcPorts {
            inj_hdr: l.input(&s("inj_hdr_i")),
            inj_data: l.input(&s("inj_data_i")),
            ej_credit: l.input(&s("ej_credit_i")),
            ej_hdr: l.output(&s("ej_hdr_o")),
            ej_data: l.output(&s("ej_data_o")),
            inj_credit: l.output(&s("inj_credit_o")),
            link_hdr: l.output(&s("link_hdr_o")),
            link_data: l.output(&s("link_data_o")),
            credit: l.output(&s("credit_o")),
            n: c.n,
            cw: c.cw(),
            vw: hdl_gen::noc::vc::vw(p),
            w: p.flit_width,
        }
    }

    /// `{valid, vc, head, tail, src_y, src_x, dst_y, dst_x}` of a link.
    fn hdr(&self, l: &VcLink) -> u64 {
        match l {
            None => 0,
            Some((vc, f)) => {
                let cw = self.cw;
                let (n, cmask) = (self.n as u64, (1u64 << cw) - 1);
                let (sx, sy) = (f.src as u64 % n, f.src as u64 / n);
                let (dx, dy) = (f.dst as u64 % n, f.dst as u64 / n);
                let mut h = dx & cmask;
                h |= (dy & cmask) << cw;
                h |= (sx & cmask) << (2 * cw);
                h |= (sy & cmask) << (3 * cw);
                h |= (f.tail as u64) << (4 * cw);
                h |= (f.head as u64) << (4 * cw + 1);
                h |= (*vc as u64) << (4 * cw + 2);
                h | (1u64 << (4 * cw + 2 + self.vw))
            }
        }
    }

    /// Data of a link field `i` (64-bit words when the data is wider).
    fn data(&self, f: &mut Frame, slot: &Slot, i: usize, l: &VcLink) {
        let d = l.map_or(0u128, |(_, f): (u8, VcFlit)| f.data);
        if self.w <= 64 {
            let m = if self.w == 64 { u64::MAX } else { (1u64 << self.w) - 1 };
            f.set_field(slot, i, d as u64 & m);
        } else {
            f.set_field(slot, 2 * i, d as u64);
            f.set_field(slot, 2 * i + 1, (d >> 64) as u64);
        }
    }

    fn pack_inputs(&self, i: &VcMeshInputs, f: &mut Frame) {
        for id in 0..i.inj.len() {
            f.set_field(&self.inj_hdr, id, self.hdr(&i.inj[id]));
            self.data(f, &self.inj_data, id, &i.inj[id]);
            f.set_field(&self.ej_credit, id, i.ej_credit[id] as u64);
        }
    }

    fn pack_outputs(&self, o: &VcMeshOutputs, f: &mut Frame) {
        for id in 0..o.ej.len() {
            f.set_field(&self.ej_hdr, id, self.hdr(&o.ej[id]));
            self.data(f, &self.ej_data, id, &o.ej[id]);
            f.set_field(&self.inj_credit, id, o.inj_credit[id] as u64);
            for d in 0..4 {
                f.set_field(&self.link_hdr, id * 4 + d, self.hdr(&o.links[id][d]));
                self.data(f, &self.link_data, id * 4 + d, &o.links[id][d]);
                f.set_field(&self.credit, id * 4 + d, o.credits[id][d] as u64);
            }
        }
    }
}

/// Golden VC mesh with terminal NIs (random packets, stalls, bursts) and the
/// invariant-11 scoreboard.
pub struct VcBench {
    pub mesh: VcMesh,
    pub checker: Option<VcChecker>,
    pub stim: VcStimulus,
    inp: VcMeshInputs,
    out: VcMeshOutputs,
    ports: VcPorts,
    rst: Slot,
    name: String,
    reported: usize,
}

impl VcBench {
    /// The plane with parameters `p` whose ports carry the prefix `pre`.
    pub fn new(c: &NocConfig, p: &VcParams, layout: &Layout, pre: &str, seed: u64) -> VcBench {
        let nn = c.nodes();
        assert_eq!(layout.output(&format!("{pre}ej_hdr_o")).fields as usize, nn, "design and config disagree");
        VcBench {
            mesh: VcMesh::new(p, c.n),
            checker: Some(VcChecker::new(c.n, p)),
            stim: VcStimulus::new(p, c.n, seed),
            inp: VcMeshInputs::new(nn),
            out: VcMeshOutputs::new(nn),
            ports: VcPorts::new(layout, pre, c, p),
            rst: layout.input("rst_i"),
            name: if pre.is_empty() { "VC plane".into() } else { format!("plane {}", pre.trim_end_matches('_')) },
            reported: 0,
        }
    }

    pub fn without_checker(mut self) -> Self {
        self.checker = None;
        self
    }

    pub fn delivered(&self) -> u64 {
        self.checker.as_ref().map_or(0, |c| c.delivered)
    }

    fn step(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        self.mesh.outputs(&mut self.out);
        if cycle == 0 {
            // reset: nothing offered, nothing returned
            self.inp = VcMeshInputs::new(self.out.ej.len());
        } else {
            self.stim.drive(&self.out, &mut self.inp);
        }
        self.inp.rst = cycle == 0;
        inputs.set(&self.rst, self.inp.rst as u64);
        if let Some(chk) = self.checker.as_mut() {
            chk.observe(&self.inp, &self.out);
            if chk.violations().len() > self.reported {
                self.reported = chk.violations().len();
                let mut v = chk.violations()[self.reported - 1].clone();
                v.detail = format!("{}: {}", self.name, v.detail);
                return Err(v);
            }
        }
        self.mesh.step(&self.inp);
        self.ports.pack_inputs(&self.inp, inputs);
        self.ports.pack_outputs(&self.out, expected);
        Ok(())
    }
}

impl Bench for VcBench {
    fn checked(&self) -> bool {
        self.checker.is_some()
    }

    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        self.step(cycle, inputs, expected)
    }
}

/// Both planes of `macro_noc_top_*`.
pub struct MacroBench {
    pub reply: ReplyBench,
    pub request: VcBench,
}

impl MacroBench {
    pub fn new(c: &NocConfig, layout: &Layout, seed: u64) -> MacroBench {
        MacroBench { reply: ReplyBench::new(c, layout, seed), request: VcBench::new(c, &c.request, layout, "req_", seed ^ 0x5eed) }
    }

    pub fn without_checker(self) -> Self {
        MacroBench { reply: self.reply.without_checker(), request: self.request.without_checker() }
    }
}

impl Bench for MacroBench {
    fn checked(&self) -> bool {
        self.reply.checked() && self.request.checked()
    }

    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        self.reply.cycle(cycle, inputs, expected)?;
        self.request.step(cycle, inputs, expected)
    }
}

/// Every plane of `baseline_noc_top_*`.
pub struct BaselineBench {
    pub planes: Vec<VcBench>,
}

impl BaselineBench {
    pub fn new(c: &NocConfig, layout: &Layout, seed: u64) -> BaselineBench {
        BaselineBench {
            planes: (0..c.baseline.planes).map(|k| VcBench::new(c, &c.baseline, layout, &format!("p{k}_"), seed.wrapping_add(k as u64 * 7919))).collect(),
        }
    }

    pub fn without_checker(mut self) -> Self {
        self.planes = self.planes.into_iter().map(VcBench::without_checker).collect();
        self
    }
}

impl Bench for BaselineBench {
    fn checked(&self) -> bool {
        self.planes.iter().all(|p| p.checked())
    }

    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        for p in self.planes.iter_mut() {
            p.step(cycle, inputs, expected)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// router-level designs
// ---------------------------------------------------------------------------

/// Set a port of any width (up to 128 bits) to `v`.
/// One hinge router (`macro_hinge_top_*`, ROM and role tied) against golden
/// `HingeRouter`: random DATA/STATUS flits on every bypass input and the local
/// injection, every output compared.
pub struct HingeRouterBench {
    pub router: golden::noc::hinge_router::HingeRouter,
    cfg: NocConfig,
    fmt: golden::noc::link::LinkFmt,
    rng: rand_xoshiro::Xoshiro256PlusPlus,
    slots: Vec<Slot>,
    outs: Vec<Slot>,
}

impl HingeRouterBench {
    pub fn new(c: &NocConfig, layout: &Layout, x: u32, y: u32, seed: u64) -> Self {
        use rand::SeedableRng;
        let ins = ["rst_i", "byp_in_e_i", "byp_in_w_i", "byp_in_n_i", "byp_in_s_i", "loc_in_v_i", "loc_in_link_i"];
        let outs = [
            "byp_out_e_o", "byp_out_w_o", "byp_out_n_o", "byp_out_s_o", "loc_in_grant_o", "loc_in_status_o", "loc_out_o", "dbg_sched_o",
            "dbg_ecyc_o", "dbg_inj_o", "dbg_latch_state_o", "dbg_drop_o", "dbg_overrun_o", "dbg_collision_o",
        ];
        HingeRouterBench {
            router: golden::noc::hinge_router::HingeRouter::new(c, x, y),
            cfg: c.clone(),
            fmt: golden::noc::link::LinkFmt::new(c),
            rng: rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed),
            slots: ins.iter().map(|n| layout.input(n)).collect(),
            outs: outs.iter().map(|n| layout.output(n)).collect(),
        }
    }

    fn flit(&mut self, p: f64) -> u128 {
        use rand::RngExt;
        if !self.rng.random_bool(p) {
            return 0;
        }
        let n = self.cfg.n;
        let f = golden::noc::link::Flit {
            valid: true,
            ty: if self.rng.random_bool(0.1) { golden::noc::link::T_STATUS } else { golden::noc::link::T_DATA },
            head: self.rng.random(),
            tail: self.rng.random(),
            src: self.rng.random_range(0..self.cfg.m() as u32),
            dst_x: self.rng.random_range(0..n),
            dst_y: self.rng.random_range(0..n),
            payload: self.rng.random(),
        };
        self.fmt.pack(&f)
    }
}

impl Bench for HingeRouterBench {
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        use golden::noc::route_rom::{E, N, S, W};
        use rand::RngExt;
        let rst = cycle == 0;
        let byp = [self.flit(0.3), self.flit(0.3), self.flit(0.3), self.flit(0.3)];
        let loc_v = self.rng.random_bool(0.6);
        let loc_link = self.flit(1.0) & !self.fmt.valid_bit() | if self.rng.random_bool(0.5) { self.fmt.valid_bit() } else { 0 };
        let r = &mut self.router;
        let co = r.ctrl.out();
        let (grant, status) = r.grant(&co);
        let inj = if grant && loc_v { loc_link | self.fmt.valid_bit() } else { 0 };
        let outs = [r.bypass_out(E, byp[W], inj), r.bypass_out(W, byp[E], inj), r.bypass_out(N, byp[S], 0), r.bypass_out(S, byp[N], 0)];
        let sched = golden::noc::reply_mesh::sched_word(&self.cfg, r);
        let ecyc = r.ctrl.ecyc;
        let states = r.latch_states();
        let ro = r.eval(&[byp[0], byp[1], byp[2], byp[3], inj]);
        if rst {
            r.reset();
        } else {
            r.commit();
        }
        inputs.set_u128(&self.slots[0], rst as u128);
        for d in 0..4 {
            inputs.set_u128(&self.slots[1 + d], byp[d]);
        }
        inputs.set_u128(&self.slots[5], loc_v as u128);
        inputs.set_u128(&self.slots[6], loc_link);
        let vals = [
            outs[0], outs[1], outs[2], outs[3], grant as u128, status as u128, ro.loc_out, sched as u128, ecyc as u128, inj, states as u128,
            ro.drop as u128, ro.overrun as u128, ro.collision as u128,
        ];
        for (s, v) in self.outs.iter().zip(vals) {
            expected.set_u128(s, v);
        }
        Ok(())
    }
}

/// One VC router (`vc_router_top_*`, position tied) against golden `VcRouter`:
/// upstream senders per input VC (whole packets, credit flow control, random
/// destinations anywhere in the mesh) and downstream sinks that return each credit
/// after a random delay.
pub struct VcRouterBench {
    pub router: golden::noc::vc_router::VcRouter,
    p: VcParams,
    n: u32,
    cw: u32,
    rng: rand_xoshiro::Xoshiro256PlusPlus,
    /// Per input VC: upstream credits, the packet in flight (flits left, dst).
    up_credit: Vec<u8>,
    up_pkt: Vec<Option<(u32, u16)>>,
    /// Per output VC: flits held downstream (each returns one credit when released).
    down: Vec<u32>,
    seq: u128,
    rst: Slot,
    ins: Vec<[Slot; 4]>,
    outs: Vec<[Slot; 4]>,
}

impl VcRouterBench {
    pub fn new(c: &NocConfig, p: &VcParams, layout: &Layout, x: u32, y: u32, seed: u64) -> Self {
        use rand::SeedableRng;
        let nv = 5 * p.vcs as usize;
        let dirs = ["e", "w", "n", "s", "l"];
        VcRouterBench {
            router: golden::noc::vc_router::VcRouter::new(p, c.n, x, y),
            p: *p,
            n: c.n,
            cw: c.cw(),
            rng: rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed),
            up_credit: vec![p.buf_depth as u8; nv],
            up_pkt: vec![None; nv],
            down: vec![0; nv],
            seq: 0,
            rst: layout.input("rst_i"),
            ins: dirs
                .iter()
                .map(|d| {
                    [
                        layout.input(&format!("in_{d}_v_i")),
                        layout.input(&format!("in_{d}_vc_i")),
                        layout.input(&format!("in_{d}_flit_i")),
                        layout.input(&format!("out_{d}_credit_i")),
                    ]
                })
                .collect(),
            outs: dirs
                .iter()
                .map(|d| {
                    [
                        layout.output(&format!("out_{d}_v_o")),
                        layout.output(&format!("out_{d}_vc_o")),
                        layout.output(&format!("out_{d}_flit_o")),
                        layout.output(&format!("in_{d}_credit_o")),
                    ]
                })
                .collect(),
        }
    }

    /// `{head, tail, src_y, src_x, dst_y, dst_x, data}`.
    fn pack(&self, f: &VcFlit) -> u128 {
        let w = self.p.flit_width;
        let (n, cw) = (self.n as u128, self.cw);
        let mask = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
        let mut v = f.data & mask;
        let mut at = w;
        for field in [f.dst as u128 % n, f.dst as u128 / n, f.src as u128 % n, f.src as u128 / n] {
            v |= field << at;
            at += cw;
        }
        v | ((f.tail as u128) << at) | ((f.head as u128) << (at + 1))
    }
}

impl Bench for VcRouterBench {
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        use rand::RngExt;
        let v = self.p.vcs as usize;
        let nv = 5 * v;
        let rst = cycle == 0;
        // registered outputs of the golden router (pre-edge)
        let links = self.router.link;
        let cred_out = self.router.cred_out;
        // upstream: at most one flit per input port per cycle
        let mut inl: [VcLink; 5] = [None; 5];
        if !rst {
            for p in 0..5 {
                let u0 = self.rng.random_range(0..v);
                for k in 0..v {
                    let u = (u0 + k) % v;
                    let iv = p * v + u;
                    if self.up_credit[iv] == 0 || !self.rng.random_bool(0.4) {
                        continue;
                    }
                    let (left, dst, head) = match self.up_pkt[iv] {
                        Some((left, dst)) => (left, dst, false),
                        None => (self.rng.random_range(1..=4u32), self.rng.random_range(0..self.n * self.n) as u16, true),
                    };
                    self.seq += 1;
                    let f = VcFlit { head, tail: left == 1, src: self.rng.random_range(0..self.n * self.n) as u16, dst, data: self.rng.random::<u128>() ^ self.seq };
                    self.up_pkt[iv] = if left == 1 { None } else { Some((left - 1, dst)) };
                    self.up_credit[iv] -= 1;
                    inl[p] = Some((u as u8, f));
                    break;
                }
            }
        }
        // downstream: flits arriving on the output links wait, then return a credit
        let mut cred_in = [false; golden::noc::vc_router::NIV];
        for ov in 0..nv {
            if self.down[ov] > 0 && self.rng.random_bool(0.5) && !rst {
                self.down[ov] -= 1;
                cred_in[ov] = true;
            }
        }
        for (o, l) in links.iter().enumerate() {
            if let Some((u, _)) = l {
                self.down[o * v + *u as usize] += 1;
            }
        }
        inputs.set_u128(&self.rst, rst as u128);
        for p in 0..5 {
            let (vv, vc, fl) = match &inl[p] {
                Some((u, f)) => (1, *u as u128, self.pack(f)),
                None => (0, 0, 0),
            };
            inputs.set_u128(&self.ins[p][0], vv);
            inputs.set_u128(&self.ins[p][1], vc);
            inputs.set_u128(&self.ins[p][2], fl);
            let c: u128 = (0..v).map(|u| (cred_in[p * v + u] as u128) << u).sum();
            inputs.set_u128(&self.ins[p][3], c);
            let (ov, oc, of) = match &links[p] {
                Some((u, f)) => (1, *u as u128, self.pack(f)),
                None => (0, 0, 0),
            };
            expected.set_u128(&self.outs[p][0], ov);
            expected.set_u128(&self.outs[p][1], oc);
            expected.set_u128(&self.outs[p][2], of);
            let cr: u128 = (0..v).map(|u| (cred_out[p * v + u] as u128) << u).sum();
            expected.set_u128(&self.outs[p][3], cr);
        }
        // credits returned by the router reach the upstream counters
        for iv in 0..nv {
            if cred_out[iv] && !rst {
                self.up_credit[iv] += 1;
            }
        }
        if rst {
            self.router.reset();
            self.up_credit.iter_mut().for_each(|c| *c = self.p.buf_depth as u8);
            self.up_pkt.iter_mut().for_each(|p| *p = None);
            self.down.iter_mut().for_each(|d| *d = 0);
        } else {
            self.router.step(&inl, &cred_in);
            if self.router.overflow {
                return Err(Violation { cycle, invariant: "11 credit flow control", detail: "VC router: a buffer overflowed (bench credit bug)".into() });
            }
        }
        Ok(())
    }
}

impl Cosim for Noc {
    fn bench(c: &NocConfig, design: &NocDesign, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String> {
        let seed = opts.seed;
        Ok(match *design {
            NocDesign::ReplyMesh => {
                let b = ReplyBench::new(c, layout, seed);
                Box::new(if opts.check { b } else { b.without_checker() })
            }
            NocDesign::VcMesh { plane } => {
                let b = VcBench::new(c, plane.params(c), layout, "", seed);
                Box::new(if opts.check { b } else { b.without_checker() })
            }
            NocDesign::MacroTop => {
                let b = MacroBench::new(c, layout, seed);
                Box::new(if opts.check { b } else { b.without_checker() })
            }
            NocDesign::BaselineTop { .. } => {
                let b = BaselineBench::new(c, layout, seed);
                Box::new(if opts.check { b } else { b.without_checker() })
            }
            NocDesign::HingeRouter { x, y } => Box::new(HingeRouterBench::new(c, layout, x, y, seed)),
            NocDesign::VcRouter { plane, x, y } => Box::new(VcRouterBench::new(c, plane.params(c), layout, x, y, seed)),
        })
    }
}
