//! MACRO-NoC reply-plane bench: golden `ReplyMesh` + `ReplyChecker` (spec §4.3
//! invariants) + `ReplyStimulus`, packed into frames by the port map below. Level L1
//! of spec §4.3: every ejection and every bypass link, plus injections, grants,
//! latch states, drops, flags and each router's schedule view, every cycle.

use golden::noc::check::ReplyChecker;
use golden::noc::config::NocConfig;
use golden::noc::reply_mesh::{ReplyInputs, ReplyMesh, ReplyOutputs};
use golden::noc::traffic::ReplyStimulus;
use hdl_gen::design::Design;

use crate::frame::{Frame, Layout, Slot};
use crate::lockstep::{self, Bench, CosimError, Options, Report};
use crate::rtl::Rtl;

/// Frame slots of `macro_reply_mesh_*`.
#[derive(Debug, Clone)]
struct Ports {
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

impl Ports {
    fn new(l: &Layout) -> Ports {
        Ports {
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
    ports: Ports,
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
            ports: Ports::new(layout),
            reported: 0,
        }
    }

    /// Run without the scoreboard (benchmarks of the bare harness).
    pub fn without_checker(mut self) -> Self {
        self.checker = None;
        self
    }
}

impl Bench for ReplyBench {
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), String> {
        self.stim.drive(&mut self.inp);
        self.inp.rst = cycle == 0;
        self.mesh.eval(&self.inp, &mut self.out);
        if let Some(chk) = self.checker.as_mut() {
            chk.observe(&self.inp, &self.out);
            if chk.violations().len() > self.reported {
                self.reported = chk.violations().len();
                return Err(chk.violations()[self.reported - 1].to_string());
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

/// Co-simulate one generated NoC design.
pub fn cosim(c: &NocConfig, design: &Design, rtl: &mut Rtl, opts: &Options) -> Result<Report, CosimError> {
    let layout = rtl.layout.clone();
    if !design.manifest.top.starts_with("macro_reply_mesh_") {
        return Err(CosimError::Invariant {
            top: design.manifest.top.clone(),
            cycle: 0,
            seed: opts.seed,
            message: "no bench for this NoC design".into(),
        });
    }
    lockstep::run(rtl, || ReplyBench::new(c, &layout, opts.seed), opts)
}
