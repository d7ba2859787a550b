//! GPU-CC in lockstep: the port map of `gpucc_net` (golden `CcNet` ports to frames)
//! and the bench of each design kind. This file is all the block adds to the generic
//! bench ([`crate::bench::ModelBench`]).

use golden::gpucc::check::NetChecker;
use golden::gpucc::config::{GpuccConfig, N_IN};
use golden::gpucc::net::{CcNet, NetInputs, NetOutputs};
use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use golden::gpucc::Gpucc;
use golden::model::{Manual, Stimulus};
use hdl_gen::gpucc::GpuccDesign;

use crate::bench::{expect_fields, ModelBench, PortMap};
use crate::frame::{Frame, Layout, Slot};
use crate::lockstep::Bench;
use crate::run::{BenchOptions, Cosim};

/// Frame slots of every `gpucc_net` port, resolved once.
#[derive(Debug, Clone)]
pub struct Ports {
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
    pub fn new(l: &Layout) -> Ports {
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
}

impl PortMap<CcNet> for Ports {
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
pub type NetBench<S> = ModelBench<CcNet, Ports, S, NetChecker>;

/// The bench of `gpucc_net` for `cfg` with stimulus `stim` (scoreboard on).
pub fn net_bench<S: Stimulus<CcNet>>(cfg: &GpuccConfig, layout: &Layout, stim: S) -> Result<NetBench<S>, String> {
    expect_fields(layout, "u_in_yumi_i", cfg.n_pos() * N_IN)?;
    Ok(ModelBench::new(CcNet::new(cfg), stim, Some(NetChecker::new(cfg)), Ports::new(layout)))
}

impl Cosim for Gpucc {
    fn bench(cfg: &GpuccConfig, design: &GpuccDesign, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String> {
        match design {
            GpuccDesign::Net => {
                let b = net_bench(cfg, layout, NetTraffic::new(cfg, opts.seed, TrafficParams::default()))?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
        }
    }
}

/// A directed co-simulation of `gpucc_net`: the test sets inputs, steps the RTL and
/// the golden model in lockstep (any disagreement fails the step), and reads the
/// RTL's outputs by port name to check hand-derived expectations.
pub struct NetDriver<'r> {
    pub ls: crate::lockstep::Lockstep<'r, NetBench<Manual<NetInputs>>>,
    layout: Layout,
}

impl<'r> NetDriver<'r> {
    /// A driver whose first cycle resets the design.
    pub fn new(cfg: &GpuccConfig, rtl: &'r mut crate::rtl::Rtl) -> Self {
        let layout = rtl.layout.clone();
        let bench = net_bench(cfg, &layout, Manual { inputs: NetInputs::new(cfg) }).unwrap_or_else(|e| panic!("{e}"));
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

impl<S: Stimulus<CcNet>> NetBench<S> {
    /// Plant a bug in the golden model.
    pub fn with_mutation(mut self, m: golden::gpucc::net::Mutation) -> Self {
        self.model.mutation = Some(m);
        self
    }
}
