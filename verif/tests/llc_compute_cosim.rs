//! Lockstep co-simulation of the LLC-Compute OQ, the SQ at an LLC partition and the SQ in
//! a core under random legal traffic (the golden `OqTraffic`, `SqTraffic`,
//! `SqCoreTraffic`) with the spec §6.4 OQ, SQ and core-SQ scoreboards on the golden side; planted bugs caught by lockstep; the EMN LUT and the chain-priority arbiter under random inputs. One
//! Verilator build per preset and design (build cache).

use crate::common;

use golden::llc_compute::chain_prio_arb::{ChainPrioArb, ChainPrioIn, ChainPrioOut};
use golden::llc_compute::ni_demux::{NiDemux, NiDemuxIn, NiDemuxOut};
use golden::llc_compute::LlcCompute;
use hdl_gen::llc_compute::LlcDesign;
use verif::bench::{ModelBench, NoScoreboard, PortMap};
use verif::frame::{Frame, Slot};
use verif::llc_compute::{alu_bench, arb_bench, demux_bench, lut_bench, oq_bench, sq_bench, sq_core_bench, ArbPorts, ArbTraffic, DemuxPorts, DemuxTraffic};
use verif::lockstep::{self, CosimError, Options};

/// The demux's port map with in_tail_i held high on the RTL side.
struct TailToRtl(DemuxPorts, Slot);

impl PortMap<NiDemux> for TailToRtl {
    fn pack_inputs(&self, i: &NiDemuxIn, f: &mut Frame) {
        self.0.pack_inputs(i, f);
        f.set(&self.1, 1);
    }

    fn pack_outputs(&self, o: &NiDemuxOut, f: &mut Frame) {
        self.0.pack_outputs(o, f);
    }
}

/// The arbiter's port map with abort_i held low on the RTL side.
struct DropAbort(ArbPorts, Slot);

impl PortMap<ChainPrioArb> for DropAbort {
    fn pack_inputs(&self, i: &ChainPrioIn, f: &mut Frame) {
        self.0.pack_inputs(i, f);
        f.set(&self.1, 0);
    }

    fn pack_outputs(&self, o: &ChainPrioOut, f: &mut Frame) {
        self.0.pack_outputs(o, f);
    }
}

fn oq_node(d: &hdl_gen::design::Design) -> u32 {
    match d.kind::<LlcDesign>().unwrap() {
        LlcDesign::Oq { self_node } | LlcDesign::EmnLut { self_node } | LlcDesign::SqCore { self_node } => self_node,
        LlcDesign::ChainPrioArb | LlcDesign::NiDemux { .. } | LlcDesign::SimdAlu | LlcDesign::Sq => 0,
    }
}

#[test]
fn small_oq_100k_random_cycles_in_lockstep() {
    let (cfg, g) = common::preset::<LlcCompute>("llc_compute_small");
    let d = common::design(&g, "oq");
    let node = oq_node(d);
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let make = || oq_bench(c, node, &layout, 11).unwrap();
    let r = lockstep::run(&mut rtl, make, &Options::new(100_000, 11)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, 100_000);
    assert!(r.checked, "the scoreboard ran");
}

#[test]
fn paper_oq_100k_random_cycles_in_lockstep() {
    let (cfg, g) = common::preset::<LlcCompute>("llc_compute_paper");
    let d = common::design(&g, "oq");
    let node = oq_node(d);
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let make = || oq_bench(c, node, &layout, 12).unwrap();
    let r = lockstep::run(&mut rtl, make, &Options::new(100_000, 12)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, 100_000);
    assert!(r.checked, "the scoreboard ran");
}

/// The golden model's planted bug (a `01` allocates entry 0 when the OQSR is full)
/// makes the RTL comparison fail, naming a cycle and a port.
#[test]
fn a_planted_oq_bug_is_caught_by_lockstep() {
    let (cfg, g) = common::preset::<LlcCompute>("llc_compute_small");
    let d = common::design(&g, "oq");
    let node = oq_node(d);
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let make = || {
        let mut b = oq_bench(c, node, &layout, 5).unwrap().without_checker();
        b.model.plant_alloc_when_full = true;
        b
    };
    match lockstep::run(&mut rtl, make, &Options::new(50_000, 5).without_waveform()) {
        Err(CosimError::Mismatch(mm)) => assert!(mm.cycle > 0 && !mm.diffs.is_empty(), "{mm}"),
        other => panic!("the planted bug was not caught: {other:?}"),
    }
}

/// The EMN LUT on both presets, 20,000 cycles of random reads, writes and resets; a
/// planted golden bug (one reset word changed) is caught as a port mismatch.
#[test]
fn emn_lut_20k_random_cycles_in_lockstep_and_a_planted_bug_caught() {
    for (preset, seed) in [("llc_compute_small", 31), ("llc_compute_paper", 32)] {
        let (cfg, g) = common::preset::<LlcCompute>(preset);
        let d = common::design(&g, "emn_lut");
        let node = oq_node(d);
        let mut rtl = common::rtl_opt(d, verif::verilator::Opt::Debug);
        let layout = rtl.layout.clone();
        let c = &cfg.config;
        let r = lockstep::run(&mut rtl, || lut_bench(c, node, &layout, seed).unwrap(), &Options::new(20_000, seed)).unwrap_or_else(|e| panic!("{preset}: {e}"));
        assert_eq!(r.cycles, 20_000);
        rtl.renew();
        let planted = || {
            let mut b = lut_bench(c, node, &layout, seed).unwrap();
            b.model.init[1] ^= 1;
            b
        };
        match lockstep::run(&mut rtl, planted, &Options::new(20_000, seed).without_waveform()) {
            Err(CosimError::Mismatch(mm)) => assert!(mm.diffs.iter().any(|x| x.port.starts_with("rd_")), "{preset}: {mm}"),
            other => panic!("{preset}: the planted bug was not caught: {other:?}"),
        }
    }
}

/// The chain-priority arbiter on both presets (8 and 48 warps), 20,000 cycles of random
/// ready/tag/CPGU/abort inputs and GTO orders; a planted golden bug (the priority warp
/// held across an abort) is caught as a port mismatch.
#[test]
fn chain_prio_arb_20k_random_cycles_in_lockstep_and_a_planted_bug_caught() {
    for (preset, seed) in [("llc_compute_small", 41), ("llc_compute_paper", 42)] {
        let (cfg, g) = common::preset::<LlcCompute>(preset);
        let d = common::design(&g, "chain_prio_arb");
        let mut rtl = common::rtl_opt(d, verif::verilator::Opt::Debug);
        let layout = rtl.layout.clone();
        let c = &cfg.config;
        let r = lockstep::run(&mut rtl, || arb_bench(c, &layout, seed).unwrap(), &Options::new(20_000, seed)).unwrap_or_else(|e| panic!("{preset}: {e}"));
        assert_eq!(r.cycles, 20_000);
        rtl.renew();
        // the planted bug: the RTL never sees abort_i (the golden model does)
        let abort = layout.input("abort_i");
        let planted = || ModelBench::new(ChainPrioArb::new(c.oq.warps as usize), ArbTraffic::new(c, seed), None::<NoScoreboard>, DropAbort(ArbPorts::new(&layout), abort.clone()));
        match lockstep::run(&mut rtl, planted, &Options::new(20_000, seed).without_waveform()) {
            Err(CosimError::Mismatch(mm)) => assert!(mm.diffs.iter().any(|x| x.port.starts_with("prio_") || x.port.starts_with("grant")), "{preset}: {mm}"),
            other => panic!("{preset}: the planted bug was not caught: {other:?}"),
        }
    }
}

/// The NI demux with 3 outputs (core) and 2 (LLC node), 20,000 cycles of random
/// packets with random sinks and back-pressure; a planted bug (the RTL's route not held
/// past the head flit) is caught as a port mismatch.
#[test]
fn ni_demux_20k_random_cycles_in_lockstep_and_a_planted_bug_caught() {
    let (_, g) = common::preset::<LlcCompute>("llc_compute_small");
    for (dir, n_out, seed) in [("ni_demux_core", 3u32, 51), ("ni_demux_llc", 2, 52)] {
        let mut rtl = common::rtl_opt(common::design(&g, dir), verif::verilator::Opt::Debug);
        let layout = rtl.layout.clone();
        let r = lockstep::run(&mut rtl, || demux_bench(n_out, &layout, seed).unwrap(), &Options::new(20_000, seed)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        assert_eq!(r.cycles, 20_000);
        rtl.renew();
        // planted: the RTL sees every flit as a tail, so it never holds a route
        let tail = layout.input("in_tail_i");
        let planted = || ModelBench::new(NiDemux::new(n_out as usize), DemuxTraffic::new(seed), None::<NoScoreboard>, TailToRtl(DemuxPorts::new(&layout), tail.clone()));
        match lockstep::run(&mut rtl, planted, &Options::new(20_000, seed).without_waveform()) {
            Err(CosimError::Mismatch(mm)) => assert!(!mm.diffs.is_empty(), "{dir}: {mm}"),
            other => panic!("{dir}: the planted bug was not caught: {other:?}"),
        }
    }
}

/// The SIMD ALU, 20,000 cycles of random ops (every opcode, FP specials, subnormals,
/// cancellations, random masks, resets) on the small preset and on the small preset
/// with the unpipelined divider (`fdiv = true`, 6 cycles), and on the paper preset (32
/// lanes, `LAT = 4`); a planted golden bug (one more cycle of latency) is caught as a
/// port mismatch.
#[test]
fn simd_alu_20k_random_cycles_in_lockstep_and_a_planted_bug_caught() {
    let small = std::fs::read_to_string(common::repo().join("configs/llc_compute/llc_compute_small.toml")).unwrap();
    let fdiv =
        small.replace("[llc_compute.sq]\n", "[llc_compute.sq]\nfdiv = true\nfdiv_latency = 6\n").replace("name = \"llc_compute_small\"", "name = \"llc_compute_small_fdiv\"");
    assert!(fdiv.contains("fdiv = true") && fdiv.contains("_fdiv\""), "the small preset has a [llc_compute.sq] table and a name");
    let cases = [(common::preset::<LlcCompute>("llc_compute_small"), 61), (common::from_text::<LlcCompute>(&fdiv), 63), (common::preset::<LlcCompute>("llc_compute_paper"), 62)];
    for ((cfg, g), seed) in cases {
        let name = cfg.name.clone();
        let mut rtl = common::rtl_opt(common::design(&g, "simd_alu"), verif::verilator::Opt::Debug);
        let layout = rtl.layout.clone();
        let c = &cfg.config;
        let r = lockstep::run(&mut rtl, || alu_bench(c, &layout, seed).unwrap(), &Options::new(20_000, seed)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.cycles, 20_000);
        rtl.renew();
        let planted = || {
            let mut b = alu_bench(c, &layout, seed).unwrap();
            b.model.lat += 1;
            b
        };
        match lockstep::run(&mut rtl, planted, &Options::new(20_000, seed).without_waveform()) {
            Err(CosimError::Mismatch(mm)) => assert!(mm.diffs.iter().any(|x| x.port == "out_valid_o"), "{name}: {mm}"),
            other => panic!("{name}: the planted bug was not caught: {other:?}"),
        }
    }
}

/// The SQ at an LLC partition on the small preset (6 entries, 2 buffer slots, 8 lanes,
/// ALU latency 2): 100,000 cycles of the golden `SqTraffic` (random CPs of all nine
/// patterns, SQSR-full fallbacks, random present/read delays and back-pressure) with the
/// SQ scoreboard attached, every output compared every cycle. Then the golden model's
/// planted bug (a WRITE byte-enabling every lane) is caught as a mismatch on `lr_wbe_o`.
#[test]
fn small_sq_100k_random_cycles_in_lockstep_and_a_planted_bug_caught() {
    let (cfg, g) = common::preset::<LlcCompute>("llc_compute_small");
    let mut rtl = common::rtl_opt(common::design(&g, "sq"), verif::verilator::Opt::Debug);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let r = lockstep::run(&mut rtl, || sq_bench(c, &layout, 21).unwrap(), &Options::new(100_000, 21)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, 100_000);
    assert!(r.checked, "the scoreboard ran");
    rtl.renew();
    let planted = || {
        let mut b = sq_bench(c, &layout, 22).unwrap().without_checker();
        b.model.plant_full_wbe = true;
        b
    };
    match lockstep::run(&mut rtl, planted, &Options::new(50_000, 22).without_waveform()) {
        Err(CosimError::Mismatch(mm)) => assert!(mm.diffs.iter().any(|x| x.port == "lr_wbe_o"), "{mm}"),
        other => panic!("the planted bug was not caught: {other:?}"),
    }
}

/// The SQ at an LLC partition on the paper preset (96 entries, 4 buffer slots, 32 lanes,
/// ALU latency 4, its 32-lane chain ALU inside): 30,000 cycles of `SqTraffic` with the
/// SQ scoreboard, every output compared every cycle. (The 100,000-cycle runs are the
/// small preset's; the paper preset's run is shorter to keep `make test` inside CI's
/// budget, 0.4 ms a cycle.)
#[test]
fn paper_sq_30k_random_cycles_in_lockstep() {
    let (cfg, g) = common::preset::<LlcCompute>("llc_compute_paper");
    let mut rtl = common::rtl_opt(common::design(&g, "sq"), verif::verilator::Opt::Debug);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let r = lockstep::run(&mut rtl, || sq_bench(c, &layout, 23).unwrap(), &Options::new(30_000, 23)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, 30_000);
    assert!(r.checked, "the scoreboard ran");
}

/// The SQ in a core (Omni-Compute) on the small preset (6 entries, 2 buffer slots, 8
/// lanes, ALU latency 2, the core of `sim::sample_core`): 100,000 cycles of
/// the golden `SqCoreTraffic` (random CPs of all nine patterns, SQSR-full fallbacks, LLC
/// replies after random delays in any order, shared memory with random back-pressure,
/// the core taking its ALU 40% of cycles) with the core-SQ scoreboard attached, every
/// output compared every cycle. Then the golden model's planted bug (a STORE_REQ
/// byte-enabling every lane) is caught as a mismatch on `no_wbe_o`.
#[test]
fn small_core_sq_100k_random_cycles_in_lockstep_and_a_planted_bug_caught() {
    let (cfg, g) = common::preset::<LlcCompute>("llc_compute_small");
    let d = common::design(&g, "sq_core");
    let node = oq_node(d);
    let mut rtl = common::rtl_opt(d, verif::verilator::Opt::Debug);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let r = lockstep::run(&mut rtl, || sq_core_bench(c, node, &layout, 71).unwrap(), &Options::new(100_000, 71)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, 100_000);
    assert!(r.checked, "the scoreboard ran");
    rtl.renew();
    let planted = || {
        let mut b = sq_core_bench(c, node, &layout, 72).unwrap().without_checker();
        b.model.plant_full_wbe = true;
        b
    };
    match lockstep::run(&mut rtl, planted, &Options::new(50_000, 72).without_waveform()) {
        Err(CosimError::Mismatch(mm)) => assert!(mm.diffs.iter().any(|x| x.port == "no_wbe_o"), "{mm}"),
        other => panic!("the planted bug was not caught: {other:?}"),
    }
}

/// The SQ in a core on the paper preset (96 entries, 4 buffer slots, 32 lanes, ALU latency
/// 4, core 15 at node 17): 30,000 cycles of `SqCoreTraffic` with the core-SQ scoreboard,
/// every output compared every cycle. (Its `Opt::Debug` build takes about 50 s of CPU;
/// 100,000 cycles ran 46 s, so the paper preset runs 30,000 and the small preset keeps
/// the 100,000-cycle run.)
#[test]
fn paper_core_sq_30k_random_cycles_in_lockstep() {
    let (cfg, g) = common::preset::<LlcCompute>("llc_compute_paper");
    let d = common::design(&g, "sq_core");
    let node = oq_node(d);
    let mut rtl = common::rtl_opt(d, verif::verilator::Opt::Debug);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let r = lockstep::run(&mut rtl, || sq_core_bench(c, node, &layout, 73).unwrap(), &Options::new(30_000, 73)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, 30_000);
    assert!(r.checked, "the scoreboard ran");
}
