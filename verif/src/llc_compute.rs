//! LLC-Compute in lockstep: the port maps of the OQ, SQ and EMN LUT designs (golden `Oq`, `Sq`, `SqCore`,
//! `EmnLut`, `ChainPrioArb`, `NiDemux` and `SimdAlu` ports to frames), the OQ and both SQ benches with their
//! traffic and spec §6.4 scoreboards, the EMN LUT, arbiter, demux and SIMD ALU benches with random inputs. This file is all
//! the block adds to the generic bench ([`crate::bench::ModelBench`]).

use golden::llc_compute::chain_prio_arb::{ChainPrioArb, ChainPrioIn, ChainPrioOut};
use golden::llc_compute::check::OqScoreboard;
use golden::llc_compute::emn_lut::{EmnLut, EmnLutIn, EmnLutOut};
use golden::llc_compute::ni_demux::{NiDemux, NiDemuxIn, NiDemuxOut};
use golden::llc_compute::oq::{Oq, OqIn, OqOut};
use golden::llc_compute::simd_alu::{SimdAlu, SimdAluIn, SimdAluOut};
use golden::llc_compute::sq::{Sq, SqIn, SqOut};
use golden::llc_compute::sq_check::SqScoreboard;
use golden::llc_compute::sq_core::{SqCore, SqCoreIn, SqCoreOut};
use golden::llc_compute::sq_core_check::SqCoreScoreboard;
use golden::llc_compute::sq_core_traffic::SqCoreTraffic;
use golden::llc_compute::sq_traffic::SqTraffic;
use golden::llc_compute::traffic::OqTraffic;
use golden::llc_compute::{LlcCompute, LlcComputeConfig};
use golden::model::Stimulus;
use hdl_gen::llc_compute::LlcDesign;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::bench::{expect_fields, expect_width, ModelBench, NoScoreboard, PortMap};
use crate::frame::{Frame, Layout, Slot};
use crate::lockstep::Bench;
use crate::run::{BenchOptions, Cosim};

/// Frame slots of every OQ port, resolved once.
#[derive(Debug, Clone)]
pub struct OqPorts {
    i: Vec<Slot>,
    o: Vec<Slot>,
}

/// Input ports in the order [`OqPorts::pack_inputs`] writes them.
const OQ_IN: [&str; 25] = [
    "rst_i",
    "cfg_mode_i",
    "cfg_capable_i",
    "cfg_llc_rule_i",
    "ci_valid_i",
    "ci_wid_i",
    "ci_tag_i",
    "ci_kind_i",
    "ci_op_i",
    "ci_dtype_i",
    "ci_addr_i",
    "ci_mc_i",
    "ci_imm_i",
    "ci_dst_i",
    "ci_mask_i",
    "ci_unit_stride_i",
    "l1r_valid_i",
    "l1r_hit_i",
    "cp_ready_i",
    "fm_ready_i",
    "rsp_valid_i",
    "rsp_kind_i",
    "rsp_tag_i",
    "rsp_data_i",
    "wb_busy_i",
];

/// Output ports in the order [`OqPorts::pack_outputs`] writes them.
const OQ_OUT: [&str; 34] = [
    "ci_ready_o",
    "cp_valid_o",
    "cp_flit_o",
    "fm_valid_o",
    "fm_wid_o",
    "fm_addr_o",
    "fm_dst_o",
    "fm_mask_o",
    "rsp_ready_o",
    "evc_valid_o",
    "evc_wid_o",
    "evl_valid_o",
    "evl_wid_o",
    "evr_valid_o",
    "evr_kind_o",
    "evr_wid_o",
    "evr_reg_o",
    "evr_data_o",
    "evr_replay_idx_o",
    "evr_movi_valid_o",
    "evr_movi_reg_o",
    "evr_movi_imm_o",
    "evf_valid_o",
    "evf_wid_o",
    "evf_replay_idx_o",
    "evf_movi_valid_o",
    "evf_movi_reg_o",
    "evf_movi_imm_o",
    "err_o",
    "st_count_o",
    "st_full_o",
    "st_forming_o",
    "st_forming_wid_o",
    "st_warp_wait_o",
];

impl OqPorts {
    pub fn new(l: &Layout) -> OqPorts {
        OqPorts { i: OQ_IN.iter().map(|n| l.input(n)).collect(), o: OQ_OUT.iter().map(|n| l.output(n)).collect() }
    }
}

fn words(f: &mut Frame, s: &Slot, d: &[u32]) {
    f.set_fields(s, d.iter().map(|w| u64::from(*w)));
}

impl PortMap<Oq> for OqPorts {
    fn pack_inputs(&self, i: &OqIn, f: &mut Frame) {
        let s = &self.i;
        let scalars = [
            u64::from(i.rst),
            u64::from(i.cfg_mode),
            0,
            u64::from(i.cfg_llc_rule),
            u64::from(i.ci_valid),
            u64::from(i.ci_wid),
            u64::from(i.ci_tag),
            u64::from(i.ci_kind),
            u64::from(i.ci_op),
            u64::from(i.ci_dtype),
            i.ci_addr,
            u64::from(i.ci_mc),
            u64::from(i.ci_imm),
            u64::from(i.ci_dst),
            u64::from(i.ci_mask),
            u64::from(i.ci_unit_stride),
            u64::from(i.l1r_valid),
            u64::from(i.l1r_hit),
            u64::from(i.cp_ready),
            u64::from(i.fm_ready),
            u64::from(i.rsp_valid),
            u64::from(i.rsp_kind),
            u64::from(i.rsp_tag),
        ];
        for (k, v) in scalars.iter().enumerate() {
            if k != 2 {
                f.set(&s[k], *v);
            }
        }
        f.set_flags(&s[2], i.cfg_capable);
        words(f, &s[23], &i.rsp_data);
        f.set(&s[24], u64::from(i.wb_busy));
    }

    fn pack_outputs(&self, o: &OqOut, f: &mut Frame) {
        let s = &self.o;
        let scalars: [(usize, u64); 31] = [
            (0, o.ci_ready.into()),
            (1, o.cp_valid.into()),
            (3, o.fm_valid.into()),
            (4, o.fm_wid.into()),
            (5, o.fm_addr),
            (6, o.fm_dst.into()),
            (7, o.fm_mask.into()),
            (8, o.rsp_ready.into()),
            (9, o.evc_valid.into()),
            (10, o.evc_wid.into()),
            (11, o.evl_valid.into()),
            (12, o.evl_wid.into()),
            (13, o.evr_valid.into()),
            (14, o.evr_kind.into()),
            (15, o.evr_wid.into()),
            (16, o.evr_reg.into()),
            (18, o.evr_replay_idx.into()),
            (19, o.evr_movi_valid.into()),
            (20, o.evr_movi_reg.into()),
            (21, o.evr_movi_imm.into()),
            (22, o.evf_valid.into()),
            (23, o.evf_wid.into()),
            (24, o.evf_replay_idx.into()),
            (25, o.evf_movi_valid.into()),
            (26, o.evf_movi_reg.into()),
            (27, o.evf_movi_imm.into()),
            (28, o.err.into()),
            (29, o.st_count.into()),
            (30, o.st_full.into()),
            (31, o.st_forming.into()),
            (32, o.st_forming_wid.into()),
        ];
        for (k, v) in scalars {
            f.set(&s[k], v);
        }
        f.slice_mut(&s[2]).copy_from_slice(&o.cp_flit);
        words(f, &s[17], &o.evr_data);
        f.set_flags(&s[33], o.st_warp_wait);
    }
}

/// Golden OQ driven by a stimulus, optionally watched by the scoreboard.
pub type OqBench<S> = ModelBench<Oq, OqPorts, S, OqScoreboard>;

/// The golden OQ of the design (the core at `self_node`).
pub fn oq_model(cfg: &LlcComputeConfig, self_node: u32) -> Oq {
    Oq::new(cfg, cfg.placement.node(self_node))
}

/// The OQ bench for `cfg` (design for node `self_node`) with the random legal traffic of
/// seed `seed`, scoreboard on.
pub fn oq_bench(cfg: &LlcComputeConfig, self_node: u32, layout: &Layout, seed: u64) -> Result<OqBench<OqTraffic>, String> {
    expect_fields(layout, "rsp_data_i", cfg.oq.lanes as usize)?;
    expect_fields(layout, "cfg_capable_i", cfg.placement.nodes() as usize)?;
    expect_width(layout, "st_warp_wait_o", cfg.oq.warps)?;
    let m = oq_model(cfg, self_node);
    let stim = OqTraffic::new(cfg, &m, seed);
    let sb = OqScoreboard::new(cfg, &m);
    Ok(ModelBench::new(m, stim, Some(sb), OqPorts::new(layout)))
}

impl Cosim for LlcCompute {
    fn bench(cfg: &LlcComputeConfig, design: &LlcDesign, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String> {
        match design {
            LlcDesign::Oq { self_node } => {
                let b = oq_bench(cfg, *self_node, layout, opts.seed)?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
            LlcDesign::EmnLut { self_node } => Ok(Box::new(lut_bench(cfg, *self_node, layout, opts.seed)?)),
            LlcDesign::ChainPrioArb => Ok(Box::new(arb_bench(cfg, layout, opts.seed)?)),
            LlcDesign::NiDemux { n_out } => Ok(Box::new(demux_bench(*n_out, layout, opts.seed)?)),
            LlcDesign::SimdAlu => Ok(Box::new(alu_bench(cfg, layout, opts.seed)?)),
            LlcDesign::Sq => {
                let b = sq_bench(cfg, layout, opts.seed)?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
            LlcDesign::SqCore { self_node } => {
                let b = sq_core_bench(cfg, *self_node, layout, opts.seed)?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
        }
    }
}

/// Frame slots of the EMN LUT ports.
#[derive(Debug, Clone)]
pub struct LutPorts {
    rst: Slot,
    rd_a: Slot,
    rd_b: Slot,
    cfg_we: Slot,
    cfg_idx: Slot,
    cfg_data: Slot,
    rd_node: Slot,
    rd_vld: Slot,
}

impl LutPorts {
    pub fn new(l: &Layout) -> LutPorts {
        LutPorts {
            rst: l.input("rst_i"),
            rd_a: l.input("rd_a_i"),
            rd_b: l.input("rd_b_i"),
            cfg_we: l.input("cfg_we_i"),
            cfg_idx: l.input("cfg_idx_i"),
            cfg_data: l.input("cfg_data_i"),
            rd_node: l.output("rd_node_o"),
            rd_vld: l.output("rd_vld_o"),
        }
    }
}

impl PortMap<EmnLut> for LutPorts {
    fn pack_inputs(&self, i: &EmnLutIn, f: &mut Frame) {
        f.set(&self.rst, u64::from(i.rst));
        f.set(&self.rd_a, u64::from(i.rd_a));
        f.set(&self.rd_b, u64::from(i.rd_b));
        f.set(&self.cfg_we, u64::from(i.cfg_we));
        f.set(&self.cfg_idx, u64::from(i.cfg_idx));
        f.set(&self.cfg_data, i.cfg_data);
    }

    fn pack_outputs(&self, o: &EmnLutOut, f: &mut Frame) {
        f.set(&self.rd_node, u64::from(o.rd_node));
        f.set(&self.rd_vld, u64::from(o.rd_vld));
    }
}

/// Random EMN LUT traffic: a read of any `(a, b)` the port can name (past the table
/// too) every cycle, a write of a random word to a random index (past the table too)
/// in 5% of cycles, a reset in 0.2%.
pub struct LutTraffic {
    rng: Xoshiro256PlusPlus,
    mc_w: u32,
    idx_w: u32,
    data_w: u32,
}

impl LutTraffic {
    pub fn new(cfg: &LlcComputeConfig, seed: u64) -> Self {
        Self { rng: Xoshiro256PlusPlus::seed_from_u64(seed), mc_w: cfg.mc_w(), idx_w: hdl_gen::llc_compute::emn_lut::idx_w(cfg), data_w: cfg.node_w() + 1 }
    }
}

impl Stimulus<EmnLut> for LutTraffic {
    fn drive(&mut self, _m: &EmnLut, _prev: &EmnLutOut, i: &mut EmnLutIn) {
        let r = &mut self.rng;
        i.rst = r.random_bool(0.002);
        i.rd_a = r.random_range(0..1u32 << self.mc_w);
        i.rd_b = r.random_range(0..1u32 << self.mc_w);
        i.cfg_we = r.random_bool(0.05);
        i.cfg_idx = r.random_range(0..1u32 << self.idx_w);
        i.cfg_data = r.random_range(0..1u64 << self.data_w);
    }
}

/// Golden EMN LUT (no scoreboard: the table's function is checked by the Fig. 3 tests).
pub type LutBench = ModelBench<EmnLut, LutPorts, LutTraffic, NoScoreboard>;

pub fn lut_bench(cfg: &LlcComputeConfig, self_node: u32, layout: &Layout, seed: u64) -> Result<LutBench, String> {
    expect_width(layout, "cfg_data_i", cfg.node_w() + 1)?;
    expect_width(layout, "rd_a_i", cfg.mc_w())?;
    let m = EmnLut::new(cfg, cfg.placement.node(self_node));
    Ok(ModelBench::new(m, LutTraffic::new(cfg, seed), None, LutPorts::new(layout)))
}

/// Frame slots of the chain-priority arbiter ports.
#[derive(Debug, Clone)]
pub struct ArbPorts {
    rst: Slot,
    ready: Slot,
    tag_first: Slot,
    tag_last: Slot,
    cpgu_busy: Slot,
    gto_order: Slot,
    abort: Slot,
    grant_valid: Slot,
    grant: Slot,
    prio_valid: Slot,
    prio_wid: Slot,
}

impl ArbPorts {
    pub fn new(l: &Layout) -> ArbPorts {
        ArbPorts {
            rst: l.input("rst_i"),
            ready: l.input("ready_i"),
            tag_first: l.input("tag_first_i"),
            tag_last: l.input("tag_last_i"),
            cpgu_busy: l.input("cpgu_busy_i"),
            gto_order: l.input("gto_order_i"),
            abort: l.input("abort_i"),
            grant_valid: l.output("grant_valid_o"),
            grant: l.output("grant_o"),
            prio_valid: l.output("prio_valid_o"),
            prio_wid: l.output("prio_wid_o"),
        }
    }
}

impl PortMap<ChainPrioArb> for ArbPorts {
    fn pack_inputs(&self, i: &ChainPrioIn, f: &mut Frame) {
        f.set(&self.rst, u64::from(i.rst));
        for w in 0..i.ready.len() {
            f.set_bool(&self.ready, w, i.ready[w]);
            f.set_bool(&self.tag_first, w, i.tag_first[w]);
            f.set_bool(&self.tag_last, w, i.tag_last[w]);
            f.set_field(&self.gto_order, w, u64::from(i.gto_order[w]));
        }
        f.set(&self.cpgu_busy, u64::from(i.cpgu_busy));
        f.set(&self.abort, u64::from(i.abort));
    }

    fn pack_outputs(&self, o: &ChainPrioOut, f: &mut Frame) {
        f.set(&self.grant_valid, u64::from(o.grant.is_some()));
        f.set(&self.grant, u64::from(o.grant.unwrap_or(0)));
        f.set(&self.prio_valid, u64::from(o.prio_valid));
        f.set(&self.prio_wid, u64::from(o.prio_wid));
    }
}

/// Random arbiter inputs: each warp ready with probability 1/2, `01` and `11` tags
/// with 1/4 each, the CPGU busy half the time, a new random GTO permutation in 1 cycle
/// of 8, an abort in 1 of 50, a reset in 1 of 500.
pub struct ArbTraffic {
    rng: Xoshiro256PlusPlus,
    order: Vec<u32>,
}

impl ArbTraffic {
    pub fn new(cfg: &LlcComputeConfig, seed: u64) -> Self {
        Self { rng: Xoshiro256PlusPlus::seed_from_u64(seed), order: (0..cfg.oq.warps).collect() }
    }
}

impl Stimulus<ChainPrioArb> for ArbTraffic {
    fn drive(&mut self, _m: &ChainPrioArb, _prev: &ChainPrioOut, i: &mut ChainPrioIn) {
        let r = &mut self.rng;
        i.rst = r.random_bool(0.002);
        for w in 0..i.ready.len() {
            i.ready[w] = r.random_bool(0.5);
            i.tag_first[w] = r.random_bool(0.25);
            i.tag_last[w] = r.random_bool(0.25);
        }
        i.cpgu_busy = r.random_bool(0.5);
        i.abort = r.random_bool(0.02);
        if r.random_bool(0.125) {
            for k in (1..self.order.len()).rev() {
                let j = r.random_range(0..=k);
                self.order.swap(k, j);
            }
        }
        i.gto_order.clone_from(&self.order);
    }
}

/// Golden chain-priority arbiter (no scoreboard: its rules have directed tests in golden).
pub type ArbBench = ModelBench<ChainPrioArb, ArbPorts, ArbTraffic, NoScoreboard>;

pub fn arb_bench(cfg: &LlcComputeConfig, layout: &Layout, seed: u64) -> Result<ArbBench, String> {
    expect_fields(layout, "ready_i", cfg.oq.warps as usize)?;
    let m = ChainPrioArb::new(cfg.oq.warps as usize);
    Ok(ModelBench::new(m, ArbTraffic::new(cfg, seed), None, ArbPorts::new(layout)))
}

/// Frame slots of the NI demux ports.
#[derive(Debug, Clone)]
pub struct DemuxPorts {
    rst: Slot,
    in_valid: Slot,
    in_ready: Slot,
    in_flit: Slot,
    in_head: Slot,
    in_tail: Slot,
    out_valid: Slot,
    out_ready: Slot,
    out_flit: Slot,
}

impl DemuxPorts {
    pub fn new(l: &Layout) -> DemuxPorts {
        DemuxPorts {
            rst: l.input("rst_i"),
            in_valid: l.input("in_valid_i"),
            in_ready: l.output("in_ready_o"),
            in_flit: l.input("in_flit_i"),
            in_head: l.input("in_head_i"),
            in_tail: l.input("in_tail_i"),
            out_valid: l.output("out_valid_o"),
            out_ready: l.input("out_ready_i"),
            out_flit: l.output("out_flit_o"),
        }
    }
}

impl PortMap<NiDemux> for DemuxPorts {
    fn pack_inputs(&self, i: &NiDemuxIn, f: &mut Frame) {
        f.set(&self.rst, u64::from(i.rst));
        f.set(&self.in_valid, u64::from(i.in_valid));
        f.slice_mut(&self.in_flit).copy_from_slice(&i.in_flit);
        f.set(&self.in_head, u64::from(i.in_head));
        f.set(&self.in_tail, u64::from(i.in_tail));
        for (k, r) in i.out_ready.iter().enumerate() {
            f.set_bool(&self.out_ready, k, *r);
        }
    }

    fn pack_outputs(&self, o: &NiDemuxOut, f: &mut Frame) {
        f.set(&self.in_ready, u64::from(o.in_ready));
        for (k, v) in o.out_valid.iter().enumerate() {
            f.set_bool(&self.out_valid, k, *v);
        }
        f.slice_mut(&self.out_flit).copy_from_slice(&o.out_flit);
    }
}

/// Random ejection traffic: packets of 1 to 5 flits with a random `sink` in every flit
/// (only the head's may count), offered 70% of cycles and held until taken; each output
/// ready 60% of cycles; a reset in 1 of 500.
pub struct DemuxTraffic {
    rng: Xoshiro256PlusPlus,
    /// Flits left in the packet on the port, and whether the next is its head.
    left: u32,
    head: bool,
    held: Option<NiDemuxIn>,
}

impl DemuxTraffic {
    pub fn new(seed: u64) -> Self {
        Self { rng: Xoshiro256PlusPlus::seed_from_u64(seed), left: 0, head: true, held: None }
    }
}

impl Stimulus<NiDemux> for DemuxTraffic {
    fn drive(&mut self, _m: &NiDemux, prev: &NiDemuxOut, i: &mut NiDemuxIn) {
        let r = &mut self.rng;
        // a flit offered and not taken stays on the port (unless a reset intervened)
        i.in_valid = false;
        if let Some(h) = self.held.take() {
            if h.in_valid && !prev.in_ready && !h.rst {
                *i = h;
            }
        }
        if !i.in_valid {
            if r.random_bool(0.7) {
                if self.left == 0 {
                    self.left = r.random_range(1..=5);
                    self.head = true;
                }
                let mut flit = [r.random::<u64>(), r.random::<u64>(), r.random::<u64>(), r.random::<u64>()];
                let sink = r.random_range(0..4u64);
                golden::llc_compute::packet::SINK.write(&mut flit, u128::from(sink));
                i.in_valid = true;
                i.in_flit = flit;
                i.in_head = self.head;
                i.in_tail = self.left == 1;
                self.head = false;
                self.left -= 1;
            } else {
                i.in_head = false;
                i.in_tail = false;
            }
        }
        for k in 0..i.out_ready.len() {
            i.out_ready[k] = r.random_bool(0.6);
        }
        i.rst = r.random_bool(0.002);
        if i.rst {
            self.left = 0;
            self.head = true;
        }
        self.held = Some(i.clone());
    }
}

/// Golden NI demux (no scoreboard: its rules have directed tests in golden).
pub type DemuxBench = ModelBench<NiDemux, DemuxPorts, DemuxTraffic, NoScoreboard>;

pub fn demux_bench(n_out: u32, layout: &Layout, seed: u64) -> Result<DemuxBench, String> {
    expect_fields(layout, "out_valid_o", n_out as usize)?;
    Ok(ModelBench::new(NiDemux::new(n_out as usize), DemuxTraffic::new(seed), None, DemuxPorts::new(layout)))
}

/// Frame slots of the SIMD ALU ports.
#[derive(Debug, Clone)]
pub struct AluPorts {
    rst: Slot,
    in_valid: Slot,
    cmp: Slot,
    op: Slot,
    dtype: Slot,
    a: Slot,
    b: Slot,
    mask: Slot,
    in_ready: Slot,
    out_valid: Slot,
    res: Slot,
    bitmap: Slot,
}

impl AluPorts {
    pub fn new(l: &Layout) -> AluPorts {
        AluPorts {
            rst: l.input("rst_i"),
            in_valid: l.input("in_valid_i"),
            cmp: l.input("cmp_i"),
            op: l.input("op_i"),
            dtype: l.input("dtype_i"),
            a: l.input("a_i"),
            b: l.input("b_i"),
            mask: l.input("mask_i"),
            in_ready: l.output("in_ready_o"),
            out_valid: l.output("out_valid_o"),
            res: l.output("res_o"),
            bitmap: l.output("bitmap_o"),
        }
    }
}

impl PortMap<SimdAlu> for AluPorts {
    fn pack_inputs(&self, i: &SimdAluIn, f: &mut Frame) {
        f.set(&self.rst, u64::from(i.rst));
        f.set(&self.in_valid, u64::from(i.in_valid));
        f.set(&self.cmp, u64::from(i.cmp));
        f.set(&self.op, u64::from(i.op));
        f.set(&self.dtype, u64::from(i.dtype));
        words(f, &self.a, &i.a);
        words(f, &self.b, &i.b);
        f.set_flags(&self.mask, u64::from(i.mask));
    }

    fn pack_outputs(&self, o: &SimdAluOut, f: &mut Frame) {
        f.set(&self.in_ready, u64::from(o.in_ready));
        f.set(&self.out_valid, u64::from(o.out_valid));
        words(f, &self.res, &o.res);
        f.set_flags(&self.bitmap, u64::from(o.bitmap));
    }
}

/// Random SIMD ALU ops: an op offered 80% of cycles (any of the 16 opcodes, a compare
/// in 30%, unary sub-ops 0..7 in `b[3:0]` for op 14), random lane masks, operands per
/// lane from random bits, the FP specials (signed zeros, infinities, quiet and signalling
/// NaNs, subnormals, the extreme normals), small and extreme integers, and pairs of
/// nearly equal magnitude (cancellation, ties); a reset in 1 cycle of 500.
pub struct AluTraffic {
    rng: Xoshiro256PlusPlus,
    lanes: usize,
}

impl AluTraffic {
    pub fn new(cfg: &LlcComputeConfig, seed: u64) -> Self {
        Self { rng: Xoshiro256PlusPlus::seed_from_u64(seed), lanes: cfg.oq.lanes as usize }
    }

    fn operand(&mut self) -> u32 {
        const SPECIAL: [u32; 16] = [
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffc0_1234,
            0x7fa0_0001,
            0x0000_0001,
            0x807f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x4f00_0000,
            0xcf00_0000,
            0x7fff_ffff,
        ];
        let r = &mut self.rng;
        match r.random_range(0..10) {
            0..=3 => r.random(),
            4 => SPECIAL[r.random_range(0..SPECIAL.len())],
            5 => r.random_range(0..0x0080_0000) | (u32::from(r.random_bool(0.5)) << 31),
            6 => r.random_range(0..64u32).wrapping_sub(32),
            _ => {
                // a normal number with an exponent near 127, so sums, products and quotients stay in range
                (r.random_range(100..155u32) << 23) | r.random_range(0..0x0080_0000) | (u32::from(r.random_bool(0.5)) << 31)
            }
        }
    }
}

impl Stimulus<SimdAlu> for AluTraffic {
    fn drive(&mut self, _m: &SimdAlu, _prev: &SimdAluOut, i: &mut SimdAluIn) {
        i.rst = self.rng.random_bool(0.002);
        i.in_valid = self.rng.random_bool(0.8);
        i.cmp = self.rng.random_bool(0.3);
        i.op = if i.cmp { self.rng.random_range(0..8) } else { self.rng.random_range(0..16) };
        i.dtype = self.rng.random_bool(0.5);
        i.mask = self.rng.random::<u32>() & if self.lanes >= 32 { u32::MAX } else { (1 << self.lanes) - 1 };
        for k in 0..self.lanes {
            i.a[k] = self.operand();
            i.b[k] = if i.op == 14 && !i.cmp {
                self.rng.random_range(0..8)
            } else if self.rng.random_bool(0.15) {
                // nearly equal magnitude: cancellation and rounding ties
                (i.a[k] ^ self.rng.random_range(0..4u32)) ^ (u32::from(self.rng.random_bool(0.5)) << 31)
            } else {
                self.operand()
            };
        }
    }
}

/// Golden SIMD ALU (no scoreboard: the lane semantics are golden's `lane_op`, with hand values there).
pub type AluBench = ModelBench<SimdAlu, AluPorts, AluTraffic, NoScoreboard>;

pub fn alu_bench(cfg: &LlcComputeConfig, layout: &Layout, seed: u64) -> Result<AluBench, String> {
    expect_fields(layout, "a_i", cfg.oq.lanes as usize)?;
    Ok(ModelBench::new(SimdAlu::new(cfg), AluTraffic::new(cfg, seed), None, AluPorts::new(layout)))
}

/// Frame slots of the LLC SQ's ports.
#[derive(Debug, Clone)]
pub struct SqPorts {
    i: Vec<Slot>,
    o: Vec<Slot>,
}

/// Input ports in the order [`SqPorts::pack_inputs`] writes them.
const SQ_IN: [&str; 12] =
    ["rst_i", "cp_valid_i", "cp_flit_i", "lr_ready_i", "lp_valid_i", "lp_tag_i", "lp_which_i", "ld_valid_i", "ld_tag_i", "ld_which_i", "ld_data_i", "no_ready_i"];

/// Output ports in the order [`SqPorts::pack_outputs`] writes them.
const SQ_OUT: [&str; 18] = [
    "cp_ready_o",
    "lr_valid_o",
    "lr_kind_o",
    "lr_addr_o",
    "lr_tag_o",
    "lr_which_o",
    "lr_reply_node_o",
    "lr_oq_tag_o",
    "no_valid_o",
    "no_dst_o",
    "no_kind_o",
    "no_oq_tag_o",
    "st_count_o",
    "st_full_o",
    "st_buf_count_o",
    "lr_wdata_o",
    "lr_wbe_o",
    "no_data_o",
];

impl SqPorts {
    pub fn new(l: &Layout) -> SqPorts {
        SqPorts { i: SQ_IN.iter().map(|n| l.input(n)).collect(), o: SQ_OUT.iter().map(|n| l.output(n)).collect() }
    }
}

impl PortMap<Sq> for SqPorts {
    fn pack_inputs(&self, i: &SqIn, f: &mut Frame) {
        let s = &self.i;
        let scalars = [
            (0, u64::from(i.rst)),
            (1, u64::from(i.cp_valid)),
            (3, u64::from(i.lr_ready)),
            (4, u64::from(i.lp_valid)),
            (5, u64::from(i.lp_tag)),
            (6, u64::from(i.lp_which)),
            (7, u64::from(i.ld_valid)),
            (8, u64::from(i.ld_tag)),
            (9, u64::from(i.ld_which)),
            (11, u64::from(i.no_ready)),
        ];
        for (k, v) in scalars {
            f.set(&s[k], v);
        }
        f.slice_mut(&s[2]).copy_from_slice(&i.cp_flit);
        words(f, &s[10], &i.ld_data);
    }

    fn pack_outputs(&self, o: &SqOut, f: &mut Frame) {
        let s = &self.o;
        let scalars = [
            u64::from(o.cp_ready),
            u64::from(o.lr_valid),
            u64::from(o.lr_kind),
            o.lr_addr,
            u64::from(o.lr_tag),
            u64::from(o.lr_which),
            u64::from(o.lr_reply_node),
            u64::from(o.lr_oq_tag),
            u64::from(o.no_valid),
            u64::from(o.no_dst),
            u64::from(o.no_kind),
            u64::from(o.no_oq_tag),
            u64::from(o.st_count),
            u64::from(o.st_full),
            u64::from(o.st_buf_count),
        ];
        for (k, v) in scalars.iter().enumerate() {
            f.set(&s[k], *v);
        }
        words(f, &s[15], &o.lr_wdata);
        for k in 0..o.lr_wdata.len() {
            f.set_field(&s[16], k, ((o.lr_wbe >> (4 * k)) & 0xf) as u64);
        }
        words(f, &s[17], &o.no_data);
    }
}

/// Golden LLC SQ driven by its random legal traffic, optionally watched by the scoreboard.
pub type SqBench = ModelBench<Sq, SqPorts, SqTraffic, SqScoreboard>;

/// The LLC SQ bench for `cfg` with the traffic of seed `seed`, scoreboard on.
pub fn sq_bench(cfg: &LlcComputeConfig, layout: &Layout, seed: u64) -> Result<SqBench, String> {
    expect_fields(layout, "ld_data_i", cfg.oq.lanes as usize)?;
    expect_width(layout, "lp_tag_i", golden::bits::clog2(u64::from(cfg.sq.entries)))?;
    let m = Sq::new(cfg);
    let stim = SqTraffic::new(cfg, &m, seed);
    let sb = SqScoreboard::new(cfg, &m);
    Ok(ModelBench::new(m, stim, Some(sb), SqPorts::new(layout)))
}

/// Frame slots of the core SQ's ports.
#[derive(Debug, Clone)]
pub struct SqCorePorts {
    i: Vec<Slot>,
    o: Vec<Slot>,
}

/// Input ports in the order [`SqCorePorts::pack_inputs`] writes them: the scalars, then
/// the flit and the two lines.
const SQC_IN: [&str; 13] =
    ["rst_i", "cp_valid_i", "no_ready_i", "ni_valid_i", "ni_kind_i", "ni_tag_i", "ni_which_i", "sm_ready_i", "sm_rvalid_i", "alu_gnt_i", "cp_flit_i", "ni_data_i", "sm_rdata_i"];

/// Output ports in the order [`SqCorePorts::pack_outputs`] writes them: the scalars, then
/// the lines and byte enables.
const SQC_OUT: [&str; 22] = [
    "cp_ready_o",
    "no_valid_o",
    "no_dst_o",
    "no_kind_o",
    "no_tag_o",
    "no_which_o",
    "no_oq_tag_o",
    "no_reply_node_o",
    "no_addr_o",
    "ni_ready_o",
    "sm_valid_o",
    "sm_we_o",
    "sm_addr_o",
    "alu_req_o",
    "alu_fire_o",
    "st_count_o",
    "st_full_o",
    "st_buf_count_o",
    "st_contend_o",
    "no_data_o",
    "no_wbe_o",
    "sm_wdata_o",
];

impl SqCorePorts {
    pub fn new(l: &Layout) -> SqCorePorts {
        SqCorePorts { i: SQC_IN.iter().map(|n| l.input(n)).collect(), o: SQC_OUT.iter().map(|n| l.output(n)).collect() }
    }
}

impl PortMap<SqCore> for SqCorePorts {
    fn pack_inputs(&self, i: &SqCoreIn, f: &mut Frame) {
        let s = &self.i;
        let scalars = [
            u64::from(i.rst),
            u64::from(i.cp_valid),
            u64::from(i.no_ready),
            u64::from(i.ni_valid),
            u64::from(i.ni_kind),
            u64::from(i.ni_tag),
            u64::from(i.ni_which),
            u64::from(i.sm_ready),
            u64::from(i.sm_rvalid),
            u64::from(i.alu_gnt),
        ];
        for (k, v) in scalars.iter().enumerate() {
            f.set(&s[k], *v);
        }
        f.slice_mut(&s[10]).copy_from_slice(&i.cp_flit);
        words(f, &s[11], &i.ni_data);
        words(f, &s[12], &i.sm_rdata);
    }

    fn pack_outputs(&self, o: &SqCoreOut, f: &mut Frame) {
        let s = &self.o;
        let scalars = [
            u64::from(o.cp_ready),
            u64::from(o.no_valid),
            u64::from(o.no_dst),
            u64::from(o.no_kind),
            u64::from(o.no_tag),
            u64::from(o.no_which),
            u64::from(o.no_oq_tag),
            u64::from(o.no_reply_node),
            o.no_addr,
            u64::from(o.ni_ready),
            u64::from(o.sm_valid),
            u64::from(o.sm_we),
            u64::from(o.sm_addr),
            u64::from(o.alu_req),
            u64::from(o.alu_fire),
            u64::from(o.st_count),
            u64::from(o.st_full),
            u64::from(o.st_buf_count),
            u64::from(o.st_contend),
        ];
        for (k, v) in scalars.iter().enumerate() {
            f.set(&s[k], *v);
        }
        words(f, &s[19], &o.no_data);
        for k in 0..o.no_data.len() {
            f.set_field(&s[20], k, ((o.no_wbe >> (4 * k)) & 0xf) as u64);
        }
        words(f, &s[21], &o.sm_wdata);
    }
}

/// Golden core SQ driven by its random legal traffic, optionally watched by the scoreboard.
pub type SqCoreBench = ModelBench<SqCore, SqCorePorts, SqCoreTraffic, SqCoreScoreboard>;

/// The core SQ bench for `cfg` (design for the core at `self_node`) with the traffic of
/// seed `seed`, scoreboard on.
pub fn sq_core_bench(cfg: &LlcComputeConfig, self_node: u32, layout: &Layout, seed: u64) -> Result<SqCoreBench, String> {
    expect_fields(layout, "ni_data_i", cfg.oq.lanes as usize)?;
    expect_width(layout, "ni_tag_i", golden::bits::clog2(u64::from(cfg.sq.entries)))?;
    expect_width(layout, "sm_addr_o", cfg.sq.smem_aw)?;
    let m = SqCore::new(cfg, cfg.placement.node(self_node));
    let stim = SqCoreTraffic::new(cfg, &m, seed);
    let sb = SqCoreScoreboard::new(cfg, &m);
    Ok(ModelBench::new(m, stim, Some(sb), SqCorePorts::new(layout)))
}
