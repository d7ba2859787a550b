//! The GPU-CC network bench: golden `CcNet` + invariant scoreboard + stimulus,
//! packed into frames by the port map below. This file is all a block adds to plug
//! into the harness: the port map and a stimulus.

use golden::gpucc::check::NetChecker;
use golden::gpucc::config::{GpuccConfig, N_IN};
use golden::gpucc::net::{CcNet, Mutation, NetInputs, NetOutputs};
use golden::gpucc::traffic::NetStimulus;

use crate::frame::{Frame, Layout, Slot};
use crate::lockstep::Bench;

/// Frame slots of every `gpucc_net` port, resolved once.
#[derive(Debug, Clone)]
struct Ports {
    rst: Slot,
    cc_start: Slot,
    unit_done: Slot,
    mem_idle: Slot,
    cfg_we: Slot,
    cfg_unit: Slot,
    cfg_word: Slot,
    cfg_wdata: Slot,
    u_out_v: Slot,
    u_out_lane_en: Slot,
    u_out_data: Slot,
    u_in_yumi: Slot,
    lsu_peek_idx: Option<Slot>,
    mode: Slot,
    cc_done: Slot,
    wdog: Slot,
    cfg_rdata: Slot,
    cfg_err: Slot,
    unit_cfg: Slot,
    u_out_ready: Slot,
    u_fire: Slot,
    u_in_v: Slot,
    u_in_data: Slot,
    lsu_peek_data: Option<Slot>,
    lsu_addr_count: Option<Slot>,
    fifo_count: Slot,
    seg_fire: Slot,
    pop_err: Slot,
    push_err: Slot,
}

impl Ports {
    fn new(l: &Layout) -> Ports {
        let lsu = l.has_input("lsu_peek_idx_i");
        Ports {
            rst: l.input("rst_i"),
            cc_start: l.input("cc_start_i"),
            unit_done: l.input("unit_done_i"),
            mem_idle: l.input("mem_idle_i"),
            cfg_we: l.input("cfg_we_i"),
            cfg_unit: l.input("cfg_unit_i"),
            cfg_word: l.input("cfg_word_i"),
            cfg_wdata: l.input("cfg_wdata_i"),
            u_out_v: l.input("u_out_v_i"),
            u_out_lane_en: l.input("u_out_lane_en_i"),
            u_out_data: l.input("u_out_data_i"),
            u_in_yumi: l.input("u_in_yumi_i"),
            lsu_peek_idx: lsu.then(|| l.input("lsu_peek_idx_i")),
            mode: l.output("mode_o"),
            cc_done: l.output("cc_done_o"),
            wdog: l.output("wdog_o"),
            cfg_rdata: l.output("cfg_rdata_o"),
            cfg_err: l.output("cfg_err_o"),
            unit_cfg: l.output("unit_cfg_o"),
            u_out_ready: l.output("u_out_ready_o"),
            u_fire: l.output("u_fire_o"),
            u_in_v: l.output("u_in_v_o"),
            u_in_data: l.output("u_in_data_o"),
            lsu_peek_data: lsu.then(|| l.output("lsu_peek_data_o")),
            lsu_addr_count: lsu.then(|| l.output("lsu_addr_count_o")),
            fifo_count: l.output("dbg_fifo_count_o"),
            seg_fire: l.output("dbg_seg_fire_o"),
            pop_err: l.output("dbg_pop_empty_err_o"),
            push_err: l.output("dbg_push_full_err_o"),
        }
    }

    fn pack_inputs(&self, i: &NetInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        f.set(&self.cc_start, i.cc_start as u64);
        f.set(&self.mem_idle, i.mem_idle as u64);
        f.set(&self.cfg_we, i.cfg_we as u64);
        f.set(&self.cfg_unit, i.cfg_unit as u64);
        f.set(&self.cfg_word, i.cfg_word as u64);
        f.set(&self.cfg_wdata, i.cfg_wdata as u64);
        for p in 0..i.u_out_v.len() {
            f.set_bool(&self.unit_done, p, i.unit_done[p]);
            f.set_bool(&self.u_out_v, p, i.u_out_v[p]);
            f.set_bool(&self.u_out_lane_en, p, i.u_out_lane_en[p]);
            f.set_field(&self.u_out_data, p, i.u_out_data[p]);
        }
        for (s, &y) in i.u_in_yumi.iter().enumerate() {
            f.set_bool(&self.u_in_yumi, s, y);
        }
        if let Some(slot) = &self.lsu_peek_idx {
            for (j, &x) in i.lsu_peek_idx.iter().enumerate() {
                f.set_field(slot, j, x as u64);
            }
        }
    }

    fn pack_outputs(&self, o: &NetOutputs, f: &mut Frame) {
        f.set(&self.mode, o.mode as u64);
        f.set(&self.cc_done, o.cc_done as u64);
        f.set(&self.wdog, o.wdog as u64);
        f.set(&self.cfg_rdata, o.cfg_rdata as u64);
        f.set(&self.cfg_err, o.cfg_err as u64);
        for (p, words) in o.unit_cfg.iter().enumerate() {
            for (w, &v) in words.iter().enumerate() {
                f.set_field(&self.unit_cfg, p * 4 + w, v as u64);
            }
        }
        for p in 0..o.u_fire.len() {
            f.set_bool(&self.u_out_ready, p, o.u_out_ready[p]);
            f.set_bool(&self.u_fire, p, o.u_fire[p]);
        }
        for s in 0..o.u_in_v.len() {
            f.set_bool(&self.u_in_v, s, o.u_in_v[s]);
            f.set_field(&self.u_in_data, s, o.u_in_data[s]);
            f.set_field(&self.fifo_count, s, o.fifo_count[s] as u64);
        }
        if let (Some(d), Some(c)) = (&self.lsu_peek_data, &self.lsu_addr_count) {
            for j in 0..o.lsu_peek_data.len() {
                f.set_field(d, j, o.lsu_peek_data[j]);
                f.set_field(c, j, o.lsu_addr_count[j] as u64);
            }
        }
        for (b, &v) in o.seg_fire.iter().enumerate() {
            f.set_bool(&self.seg_fire, b, v);
        }
        f.set(&self.pop_err, o.pop_empty_err as u64);
        f.set(&self.push_err, o.push_full_err as u64);
    }
}

/// Golden `gpucc_net` driven by a stimulus, optionally watched by the scoreboard.
pub struct NetBench<S: NetStimulus> {
    pub cfg: GpuccConfig,
    pub net: CcNet,
    pub checker: Option<NetChecker>,
    pub stim: S,
    pub inputs: NetInputs,
    pub outputs: NetOutputs,
    pub prev: NetOutputs,
    ports: Ports,
    reported: usize,
}

impl<S: NetStimulus> NetBench<S> {
    pub fn new(cfg: &GpuccConfig, layout: &Layout, stim: S) -> Self {
        assert_eq!(layout.input("u_in_yumi_i").fields as usize, cfg.n_pos() * N_IN, "design and config disagree");
        NetBench {
            cfg: cfg.clone(),
            net: CcNet::new(cfg),
            checker: Some(NetChecker::new(cfg)),
            stim,
            inputs: NetInputs::new(cfg),
            outputs: NetOutputs::new(cfg),
            prev: NetOutputs::new(cfg),
            ports: Ports::new(layout),
            reported: 0,
        }
    }

    /// Plant a bug in the golden model.
    pub fn with_mutation(mut self, m: Mutation) -> Self {
        self.net.mutation = Some(m);
        self
    }

    /// Run without the scoreboard (benchmarks of the bare harness).
    pub fn without_checker(mut self) -> Self {
        self.checker = None;
        self
    }
}

impl<S: NetStimulus> Bench for NetBench<S> {
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), String> {
        self.stim.next(&self.net, &self.prev, &mut self.inputs);
        if cycle == 0 {
            self.inputs.rst = true;
        }
        self.net.eval(&self.inputs, &mut self.outputs);
        if let Some(chk) = self.checker.as_mut() {
            chk.observe(&self.cfg, &self.inputs, &self.outputs);
            if chk.violations().len() > self.reported {
                self.reported = chk.violations().len();
                return Err(chk.violations()[self.reported - 1].to_string());
            }
        }
        self.net.commit();
        self.ports.pack_inputs(&self.inputs, inputs);
        self.ports.pack_outputs(&self.outputs, expected);
        std::mem::swap(&mut self.prev, &mut self.outputs);
        Ok(())
    }
}

/// A directed co-simulation of `gpucc_net`: the test sets inputs, steps the RTL and
/// the golden model in lockstep (any disagreement fails the step), and reads the
/// RTL's outputs by port name to check hand-derived expectations.
pub struct NetDriver<'r> {
    pub ls: crate::lockstep::Lockstep<'r, NetBench<golden::gpucc::traffic::Manual>>,
    layout: Layout,
}

impl<'r> NetDriver<'r> {
    /// A driver whose first cycle resets the design.
    pub fn new(cfg: &GpuccConfig, rtl: &'r mut crate::rtl::Rtl) -> Self {
        let layout = rtl.layout.clone();
        let bench = NetBench::new(cfg, &layout, golden::gpucc::traffic::Manual::new(cfg));
        let mut d = NetDriver { ls: crate::lockstep::Lockstep::new(rtl, bench), layout };
        d.set(|i| i.rst = true);
        d.step();
        d.set(|i| i.rst = false);
        d
    }

    /// Change the inputs applied from the next cycle on.
    pub fn set(&mut self, f: impl FnOnce(&mut NetInputs)) {
        f(&mut self.ls.bench.stim.inputs)
    }

    /// One lockstep cycle; panics with the differing ports on a mismatch.
    pub fn step(&mut self) {
        if let Err(e) = self.ls.step() {
            panic!("cycle {}: {e:?}", self.ls.cycle - 1);
        }
    }

    pub fn steps(&mut self, n: usize) {
        for _ in 0..n {
            self.step();
        }
    }

    /// Field `i` of RTL output `port` in the last cycle (pre-edge value).
    pub fn out(&self, port: &str, i: usize) -> u64 {
        self.ls.actual.field(&self.layout.output(port), i)
    }

    pub fn out_bool(&self, port: &str, i: usize) -> bool {
        self.out(port, i) != 0
    }

    /// Write all four words of the CR of `unit` through the configuration port
    /// (four cycles), leaving the write strobe low.
    pub fn write_cr(&mut self, unit: usize, cr: &golden::gpucc::cr::Cr) {
        for (w, v) in cr.to_words().iter().enumerate() {
            self.set(|i| {
                i.cfg_we = true;
                i.cfg_unit = unit as u32;
                i.cfg_word = w as u32;
                i.cfg_wdata = *v;
            });
            self.step();
        }
        self.set(|i| i.cfg_we = false);
    }

    /// Pulse `cc_start` and step through ARM into RUN (two cycles).
    pub fn start(&mut self) {
        self.set(|i| i.cc_start = true);
        self.step();
        self.set(|i| i.cc_start = false);
        self.step();
    }
}
