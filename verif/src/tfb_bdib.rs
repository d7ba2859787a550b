//! The TFB BDIB in lockstep: the port map of `tfb_bdib` (golden `Bdib` ports to
//! frames), the bench of its one design kind, and a directed driver. This file is all
//! the block adds to the generic bench ([`crate::bench::ModelBench`]).

use golden::model::Model;
use golden::model::{Manual, Stimulus};
use golden::tfb_bdib::bdib::{Bdib, BdibIn, BdibMutation, BdibOut, Entry};
use golden::tfb_bdib::check::BdibChecker;
use golden::tfb_bdib::traffic::{BdibTraffic, TrafficParams};
use golden::tfb_bdib::{TfbBdib, TfbConfig};
use hdl_gen::tfb_bdib::TfbDesign;

use crate::bench::{expect_fields, expect_width, ModelBench, PortMap};
use crate::frame::{set_bits, Frame, Layout, Slot};
use crate::lockstep::Bench;
use crate::run::{BenchOptions, Cosim};

/// Frame slots of every `tfb_bdib` port, resolved once.
#[derive(Debug, Clone)]
pub struct Ports {
    rst: Slot,
    iss_valid: Slot,
    iss_warp: Slot,
    iss_cls: Slot,
    iss_scope: Slot,
    iss_src: Slot,
    iss_src_v: Slot,
    iss_payload: Slot,
    eaf_done: Slot,
    fence_done: Slot,
    mem_ready: Slot,
    warq_v: Slot,
    warq_warp: Slot,
    warq_dst: Slot,
    flush_valid: Slot,
    flush_warp: Slot,
    iss_ready: Slot,
    mem_valid: Slot,
    mem_warp: Slot,
    mem_cls: Slot,
    mem_scope: Slot,
    mem_src: Slot,
    mem_src_v: Slot,
    mem_payload: Slot,
    mem_from_bdib: Slot,
    mem_bar_arrive: Slot,
    warp_full: Slot,
    warp_nonempty: Slot,
    warp_in_bar: Slot,
    mem_issue_stall: Slot,
    warq_hit: Slot,
    dbg_count: Slot,
    dbg_fence_wait: Slot,
    nsrc: usize,
}

impl Ports {
    pub fn new(l: &Layout, cfg: &TfbConfig) -> Ports {
        Ports {
            rst: l.input("rst_i"),
            iss_valid: l.input("iss_valid_i"),
            iss_warp: l.input("iss_warp_i"),
            iss_cls: l.input("iss_cls_i"),
            iss_scope: l.input("iss_scope_i"),
            iss_src: l.input("iss_src_i"),
            iss_src_v: l.input("iss_src_v_i"),
            iss_payload: l.input("iss_payload_i"),
            eaf_done: l.input("eaf_done_i"),
            fence_done: l.input("fence_done_i"),
            mem_ready: l.input("mem_ready_i"),
            warq_v: l.input("warq_v_i"),
            warq_warp: l.input("warq_warp_i"),
            warq_dst: l.input("warq_dst_i"),
            flush_valid: l.input("flush_valid_i"),
            flush_warp: l.input("flush_warp_i"),
            iss_ready: l.output("iss_ready_o"),
            mem_valid: l.output("mem_valid_o"),
            mem_warp: l.output("mem_warp_o"),
            mem_cls: l.output("mem_cls_o"),
            mem_scope: l.output("mem_scope_o"),
            mem_src: l.output("mem_src_o"),
            mem_src_v: l.output("mem_src_v_o"),
            mem_payload: l.output("mem_payload_o"),
            mem_from_bdib: l.output("mem_from_bdib_o"),
            mem_bar_arrive: l.output("mem_bar_arrive_o"),
            warp_full: l.output("warp_full_o"),
            warp_nonempty: l.output("warp_nonempty_o"),
            warp_in_bar: l.output("warp_in_bar_o"),
            mem_issue_stall: l.output("mem_issue_stall_o"),
            warq_hit: l.output("warq_hit_o"),
            dbg_count: l.output("dbg_count_o"),
            dbg_fence_wait: l.output("dbg_fence_wait_o"),
            nsrc: cfg.nsrc as usize,
        }
    }

    fn set_entry(&self, f: &mut Frame, e: &Entry, s: [&Slot; 5]) {
        f.set(s[0], e.cls as u64);
        f.set(s[1], e.scope as u64);
        for j in 0..self.nsrc {
            f.set_field(s[2], j, e.src[j] as u64);
            f.set_field(s[3], j, (e.src_v >> j & 1) as u64);
        }
        let w = s[4].width as usize;
        let words = f.slice_mut(s[4]);
        set_bits(words, 0, w.min(64), e.payload as u64);
        if w > 64 {
            set_bits(words, 64, w - 64, (e.payload >> 64) as u64);
        }
    }
}

impl PortMap<Bdib> for Ports {
    fn pack_inputs(&self, i: &BdibIn, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        f.set(&self.iss_valid, i.iss_valid as u64);
        f.set(&self.iss_warp, i.iss_warp as u64);
        self.set_entry(f, &i.iss, [&self.iss_cls, &self.iss_scope, &self.iss_src, &self.iss_src_v, &self.iss_payload]);
        for w in 0..i.eaf_done.len() {
            f.set_bool(&self.eaf_done, w, i.eaf_done[w]);
            f.set_bool(&self.fence_done, w, i.fence_done[w]);
        }
        f.set(&self.mem_ready, i.mem_ready as u64);
        for k in 0..i.warq_v.len() {
            f.set_bool(&self.warq_v, k, i.warq_v[k]);
            f.set_field(&self.warq_warp, k, i.warq_warp[k] as u64);
            f.set_field(&self.warq_dst, k, i.warq_dst[k] as u64);
        }
        f.set(&self.flush_valid, i.flush_valid as u64);
        f.set(&self.flush_warp, i.flush_warp as u64);
    }

    fn pack_outputs(&self, o: &BdibOut, f: &mut Frame) {
        f.set(&self.iss_ready, o.iss_ready as u64);
        f.set(&self.mem_valid, o.mem_valid as u64);
        f.set(&self.mem_warp, o.mem_warp as u64);
        self.set_entry(f, &o.mem, [&self.mem_cls, &self.mem_scope, &self.mem_src, &self.mem_src_v, &self.mem_payload]);
        f.set(&self.mem_from_bdib, o.mem_from_bdib as u64);
        f.set(&self.mem_bar_arrive, o.mem_bar_arrive as u64);
        for w in 0..o.warp_full.len() {
            f.set_bool(&self.warp_full, w, o.warp_full[w]);
            f.set_bool(&self.warp_nonempty, w, o.warp_nonempty[w]);
            f.set_bool(&self.warp_in_bar, w, o.warp_in_bar[w]);
            f.set_field(&self.dbg_count, w, o.dbg_count[w] as u64);
            f.set_bool(&self.dbg_fence_wait, w, o.dbg_fence_wait[w]);
        }
        f.set(&self.mem_issue_stall, o.mem_issue_stall as u64);
        for (k, &h) in o.warq_hit.iter().enumerate() {
            f.set_bool(&self.warq_hit, k, h);
        }
    }
}

/// Golden `tfb_bdib` driven by a stimulus, optionally watched by the scoreboard.
pub type BdibBench<S> = ModelBench<Bdib, Ports, S, BdibChecker>;

/// The bench of `tfb_bdib` for `cfg` with stimulus `stim` (scoreboard on).
pub fn bdib_bench<S: Stimulus<Bdib>>(cfg: &TfbConfig, layout: &Layout, stim: S) -> Result<BdibBench<S>, String> {
    expect_fields(layout, "eaf_done_i", cfg.n())?;
    expect_fields(layout, "warq_v_i", cfg.nwarq as usize)?;
    expect_width(layout, "iss_payload_i", cfg.instr_w)?;
    expect_width(layout, "dbg_count_o", cfg.num_warps * cfg.cnt_w())?;
    Ok(ModelBench::new(Bdib::new(cfg), stim, Some(BdibChecker::new(cfg)), Ports::new(layout, cfg)))
}

impl Cosim for TfbBdib {
    fn bench(cfg: &TfbConfig, design: &TfbDesign, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String> {
        match design {
            TfbDesign::Bdib => {
                let b = bdib_bench(cfg, layout, BdibTraffic::new(cfg, TrafficParams::for_config(cfg), opts.seed))?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
        }
    }
}

impl<S: Stimulus<Bdib>> BdibBench<S> {
    /// Plant a bug in the golden model.
    pub fn with_mutation(mut self, m: BdibMutation) -> Self {
        self.model.mutation = Some(m);
        self
    }
}

/// A directed co-simulation of `tfb_bdib`: the test sets inputs, steps the RTL and
/// the golden model in lockstep (any disagreement fails the step), and reads the
/// RTL's outputs by port name to check hand-derived expectations.
pub struct BdibDriver<'r> {
    pub ls: crate::lockstep::Lockstep<'r, BdibBench<Manual<BdibIn>>>,
    layout: Layout,
}

impl<'r> BdibDriver<'r> {
    /// A driver whose first cycle resets the design.
    pub fn new(cfg: &TfbConfig, rtl: &'r mut crate::rtl::Rtl) -> Self {
        let layout = rtl.layout.clone();
        let idle = Bdib::new(cfg).idle_inputs();
        let bench = bdib_bench(cfg, &layout, Manual { inputs: idle }).unwrap_or_else(|e| panic!("{e}"));
        let mut d = BdibDriver { ls: crate::lockstep::Lockstep::new(rtl, bench), layout };
        d.set(|i| i.rst = true);
        d.step();
        d.set(|i| i.rst = false);
        d
    }

    /// Change the inputs applied from the next cycle on.
    pub fn set(&mut self, f: impl FnOnce(&mut BdibIn)) {
        f(&mut self.ls.bench.stim.inputs)
    }

    /// One lockstep cycle; panics with the differing ports on a mismatch.
    pub fn step(&mut self) {
        if let Err(e) = self.ls.step() {
            panic!("cycle {}: {e:?}", self.ls.cycle - 1);
        }
    }

    /// Field `i` of RTL output `port` in the last cycle (pre-edge value).
    pub fn out(&self, port: &str, i: usize) -> u64 {
        self.ls.actual.field(&self.layout.output(port), i)
    }

    pub fn out_bool(&self, port: &str, i: usize) -> bool {
        self.out(port, i) != 0
    }
}
