//! Verilog generator for LLC-Compute / Omni-Compute (`[llc_compute]`, spec §6): one
//! design per spec §6 block. Today: `oq/` (the Offload Queue of one core: OQMU, OQSR
//! with the §1.3.4 entry FSM, CPGU and the core's EMN LUT ROM) and `emn_lut/` (the
//! writable EMN table of §6.3 for the same core) and `chain_prio_arb/` (§1.2's
//! chain-aware warp priority), `ni_demux_core/` and `ni_demux_llc/` (§1.5's ejection
//! demux with 3 and 2 outputs), `simd_alu/` (the LLC partition's pipelined 32-bit int/fp
//! ALU of §1.1 item 7 and §6.3), `sq/` (§1.6's Service Queue at an LLC partition: the
//! SQ core both variants share, the chain ALU, the LLC request and response ports),
//! `sq_core/` (§1.7's Service Queue in a core, Omni-Compute: the same SQ core with the
//! NoC, shared-memory and core-ALU ports).
//!
//! The OQ is the askama template `templates/llc_compute/oq.v`; every code, width, bit
//! position and table in it (Table 1 as chain-prefix functions, the EMN LUT of the
//! node, the ComputePacket layout) comes from `golden::llc_compute`.

pub mod chain_prio_arb;
pub mod emn_lut;
pub mod leaf;
pub mod ni_demux;
pub mod oq;
pub mod simd_alu;
pub mod sq;
pub mod sq_core;

use std::collections::BTreeMap;

use golden::block::ConfigFile;
use golden::llc_compute::{LlcCompute, LlcComputeConfig};

use crate::catalog::{Catalog, ModuleDoc};
use crate::design::{DesignSpec, GenError, Generated};
use crate::library::Library;
use crate::Generate;

/// The designs the generator writes (the manifest's `design`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LlcDesign {
    /// `llc_oq_<preset>`: the OQ of the core at node `self_node` (the sample core of
    /// `golden::llc_compute::sim::sample_core`).
    Oq { self_node: u32 },
    /// `llc_emn_lut_<preset>`: the EMN lookup table of the same core.
    EmnLut { self_node: u32 },
    /// `llc_chain_prio_arb_<preset>`: the chain-aware priority of the core's warps.
    ChainPrioArb,
    /// `llc_ni_demux_n<n_out>`: the ejection-port demux of a core (3) or an LLC node (2).
    NiDemux { n_out: u32 },
    /// `llc_simd_alu_<preset>`: the LLC partition's pipelined SIMD ALU.
    SimdAlu,
    /// `llc_sq_<preset>`: the Service Queue at an LLC partition (its shared core is the
    /// module `llc_sqsr_<preset>`).
    Sq,
    /// `llc_core_sq_<preset>`: the Service Queue in the core at `self_node` (Omni-Compute;
    /// the same shared core `llc_sqsr_<preset>`).
    SqCore { self_node: u32 },
}

/// Every module the generator writes.
#[derive(Debug, Clone)]
pub enum LlcModule<'a> {
    Oq {
        preset: &'a str,
        cfg: &'a LlcComputeConfig,
        self_node: u32,
    },
    /// One OQSR entry's state machine.
    EntryFsm,
    EmnLut {
        preset: &'a str,
        cfg: &'a LlcComputeConfig,
        self_node: u32,
    },
    ChainPrioArb {
        preset: &'a str,
        cfg: &'a LlcComputeConfig,
    },
    NiDemux {
        n_out: u32,
    },
    SimdAlu {
        preset: &'a str,
        cfg: &'a LlcComputeConfig,
    },
    /// One lane of the SIMD ALU.
    LaneAlu,
    Sq {
        preset: &'a str,
        cfg: &'a LlcComputeConfig,
    },
    Sqsr {
        preset: &'a str,
        cfg: &'a LlcComputeConfig,
    },
    /// One SQSR entry's state machine.
    SqEntryFsm,
    SqChainAlu {
        lanes: u32,
    },
    SqFifo(sq::Fifo),
    SqCore {
        preset: &'a str,
        cfg: &'a LlcComputeConfig,
        self_node: u32,
    },
}

impl Catalog for LlcModule<'_> {
    fn name(&self) -> String {
        match self {
            LlcModule::Oq { preset, .. } => oq::top_name(preset),
            LlcModule::EntryFsm => "llc_oq_entry_fsm".into(),
            LlcModule::EmnLut { preset, .. } => emn_lut::top_name(preset),
            LlcModule::ChainPrioArb { preset, .. } => chain_prio_arb::top_name(preset),
            LlcModule::NiDemux { n_out } => ni_demux::top_name(*n_out),
            LlcModule::SimdAlu { preset, .. } => simd_alu::top_name(preset),
            LlcModule::LaneAlu => simd_alu::LANE.into(),
            LlcModule::Sq { preset, .. } => sq::top_name(preset),
            LlcModule::Sqsr { preset, .. } => sq::core_name(preset),
            LlcModule::SqEntryFsm => "llc_sq_entry_fsm".into(),
            LlcModule::SqChainAlu { lanes } => sq::chain_alu_name(*lanes),
            LlcModule::SqFifo(f) => f.name(),
            LlcModule::SqCore { preset, .. } => sq_core::top_name(preset),
        }
    }

    fn doc(&self) -> ModuleDoc {
        match self {
            LlcModule::Oq { cfg, self_node, .. } => oq::doc(cfg, *self_node),
            LlcModule::EmnLut { cfg, self_node, .. } => emn_lut::doc(cfg, *self_node),
            LlcModule::ChainPrioArb { cfg, .. } => chain_prio_arb::doc(cfg),
            LlcModule::NiDemux { n_out } => ni_demux::doc(*n_out),
            LlcModule::SimdAlu { cfg, .. } => simd_alu::doc(cfg),
            LlcModule::LaneAlu => simd_alu::lane_doc(),
            LlcModule::Sq { cfg, .. } => sq::doc(cfg),
            LlcModule::Sqsr { cfg, .. } => sq::core_doc(cfg),
            LlcModule::SqChainAlu { lanes } => sq::chain_alu_doc(*lanes),
            LlcModule::SqFifo(f) => f.doc(),
            LlcModule::SqCore { cfg, self_node, .. } => sq_core::doc(cfg, *self_node),
            LlcModule::SqEntryFsm => ModuleDoc::new(
                "LLC-Compute SQSR entry state machine (spec 1.6.2): FREE 0, WAIT 1, READY 2, BUF 3, ALU 4, STORE 5, RESP 6",
                "No handshake. At the edge only these transitions are taken: FREE -alloc_i-> WAIT -ready_i-> READY -fill_i-> BUF\n\
                 -issue_i-> ALU -done_i-> STORE (store_i) or RESP; STORE -written_i-> RESP -free_i-> FREE. rst_i returns to FREE.\n\
                 state_o and busy_o (not FREE) come from the register.",
            ),
            LlcModule::EntryFsm => ModuleDoc::new(
                "LLC-Compute OQSR entry state machine (spec 1.3.4): FREE 0, FORMING 1, SENT 2, FALLBACK 3, FLUSH 4",
                "No handshake. At the edge only the FSM's transitions are taken: FREE -alloc_i-> FORMING; FORMING -send_i-> SENT,\n\
                 -flush_i-> FLUSH, -free_i-> FREE; SENT -fallback_i-> FALLBACK, -free_i-> FREE; FALLBACK, FLUSH -free_i-> FREE.\n\
                 rst_i returns to FREE. state_o, busy_o (not FREE) and wait_o (SENT, FALLBACK, FLUSH) come from the register.",
            ),
        }
    }
}

impl Generate for LlcCompute {
    type Design = LlcDesign;

    fn generate(cfg: &ConfigFile<LlcComputeConfig>) -> Result<Generated, GenError> {
        let c = &cfg.config;
        let mut lib = Library::default();
        let self_node = c.placement.id(golden::llc_compute::sim::sample_core(c));
        let fsm_mod = lib.emit(&LlcModule::EntryFsm, leaf::oq_entry_fsm::OqEntryFsm::default)?;
        let text = oq::render(c, &cfg.name, self_node, fsm_mod)?;
        let top = lib.add_text(&LlcModule::Oq { preset: &cfg.name, cfg: c, self_node }, text)?;
        let d = DesignSpec::new("oq", &LlcDesign::Oq { self_node }, &top, oq::ports(c));
        let d = oq::parameters(c, self_node).into_iter().fold(d, |d, (k, v)| d.param(&k, v));
        let d = d.table("storage", oq::storage(c)).table("prefixes", oq::prefix_names());
        let lut_top = lib.add_text(&LlcModule::EmnLut { preset: &cfg.name, cfg: c, self_node }, emn_lut::render(c, &cfg.name, self_node)?)?;
        let lut = DesignSpec::new("emn_lut", &LlcDesign::EmnLut { self_node }, &lut_top, emn_lut::ports(c))
            .param("N_MC", c.placement.mcs.len())
            .param("NODE_W", c.node_w())
            .param("SELF_NODE", self_node)
            .table("init", emn_lut::init_words(c, self_node));
        let arb_top = lib.add_text(&LlcModule::ChainPrioArb { preset: &cfg.name, cfg: c }, chain_prio_arb::render(c, &cfg.name)?)?;
        let arb = DesignSpec::new("chain_prio_arb", &LlcDesign::ChainPrioArb, &arb_top, chain_prio_arb::ports(c)).param("N_WARPS", c.oq.warps);
        let mut designs = vec![d, lut, arb];
        for (dir, n_out) in [("ni_demux_core", 3), ("ni_demux_llc", 2)] {
            let top = lib.add_text(&LlcModule::NiDemux { n_out }, ni_demux::render(n_out)?)?;
            designs.push(DesignSpec::new(dir, &LlcDesign::NiDemux { n_out }, &top, ni_demux::ports(n_out)).param("N_OUT", n_out));
        }
        lib.add_text(&LlcModule::LaneAlu, simd_alu::render_lane()?)?;
        let alu_top = lib.add_text(&LlcModule::SimdAlu { preset: &cfg.name, cfg: c }, simd_alu::render(c, &cfg.name)?)?;
        let s = &c.sq;
        // not synthesized by `make synth`: each lane's one-cycle IEEE divider, multiplier and
        // 64-bit normalizers keep yosys busy for minutes per lane (README, LLC-Compute); without
        // resource sharing, whose SAT search over the lanes' shifters was most of that time,
        // the small preset's 8 lanes take 85 s of yosys CPU (verif/tests/llc_compute_synth.rs)
        designs.push(
            DesignSpec::new("simd_alu", &LlcDesign::SimdAlu, &alu_top, simd_alu::ports(c))
                .param("LANES", c.oq.lanes)
                .param("LAT", s.alu_latency)
                .param("HAS_FDIV", u32::from(s.fdiv))
                .param("FDIV_LAT", s.fdiv_latency)
                .no_synth()
                .no_synth_share(),
        );
        let sq_fsm = lib.emit(&LlcModule::SqEntryFsm, leaf::sq_entry_fsm::SqEntryFsm::default)?;
        for f in sq::fifos(c).into_iter().chain(sq_core::fifos(c)) {
            lib.add_text(&LlcModule::SqFifo(f), f.render()?)?;
        }
        lib.add_text(&LlcModule::SqChainAlu { lanes: c.oq.lanes }, sq::render_chain_alu(c.oq.lanes)?)?;
        let core_top = lib.add_text(&LlcModule::Sqsr { preset: &cfg.name, cfg: c }, sq::render_core(c, &cfg.name, sq_fsm)?)?;
        let sq_top = lib.add_text(&LlcModule::Sq { preset: &cfg.name, cfg: c }, sq::render(c, &cfg.name)?)?;
        let sq_params =
            |d: DesignSpec| d.param("N_ENT", s.entries).param("N_BUF", s.buffer).param("LANES", c.oq.lanes).param("ALU_LAT", s.alu_latency).table("storage", sq::storage(c));
        // not in `make synth`: its chain ALU is two SIMD ALU lanes per lane (see simd_alu); the
        // core `llc_sqsr_<preset>`, all of the SQ's storage, is synthesized alone by
        // verif/tests/llc_compute_synth.rs
        designs.push(sq_params(DesignSpec::new("sq", &LlcDesign::Sq, &sq_top, sq::ports(c)).param("AT_LLC", 1).param("CORE", &core_top)).no_synth().no_synth_share());
        // the core variant: the same core and chain ALU (not in `make synth` for the same
        // reason; verif/tests/llc_compute_synth.rs synthesizes it with the ALU as a black box)
        let csq_top = lib.add_text(&LlcModule::SqCore { preset: &cfg.name, cfg: c, self_node }, sq_core::render(c, &cfg.name, self_node)?)?;
        designs.push(
            sq_params(DesignSpec::new("sq_core", &LlcDesign::SqCore { self_node }, &csq_top, sq_core::ports(c)))
                .param("AT_LLC", 0)
                .param("CORE", &core_top)
                .param("SELF_NODE", self_node)
                .param("SMEM_AW", s.smem_aw)
                .param("SMW_DEPTH", golden::llc_compute::sq_core::SMW_DEPTH)
                .table("core_storage", sq_core::storage(c))
                .table("mc_nodes", sq_core::mc_nodes(c))
                .no_synth()
                .no_synth_share(),
        );
        Generated::new(cfg, <LlcCompute as golden::block::Block>::TABLE, lib, designs)
    }
}

pub(crate) type Params = BTreeMap<String, serde_json::Value>;
