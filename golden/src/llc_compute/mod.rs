//! LLC-Compute and Omni-Compute (seed 000, spec `llc_omni_compute.md`): the offload
//! blocks beside the LD/ST unit (OQ) and at the LLC partitions and cores (SQ), the EMN
//! lookup table, the NI demux, the LLC's 32-lane ALU and chain-aware priority.
//!
//! * [`config`]: the validated `[llc_compute]` config; its EMN tables and capable mask.
//! * [`emn`]: Algorithm 1 (spec §2.4) for any mesh and MC placement.
//! * [`chain`]: the nine chain patterns of Table 1; [`tagger`]: the compiler pass that
//!   finds and tags them in PTX (§2.1); [`hook`]: `[hooks.llc_compute]` in the GPU
//!   model (the chain profile of study 5, and LLC-Compute offloading: [`offload`], the
//!   OQ's run-time decision at each SM, and [`service`], the SQ at each partition).
//! * [`hops`]: the zero-load hop model of spec §2.7.
//! * [`packet`]: the ComputePacket flit layout (§2.3); [`lane_op`]: the ALU semantics.
//! * Golden models (`eval`/`commit`, [`crate::model::Model`]): [`oq`], [`sq`] (at an
//!   LLC partition), [`sq_core`] (in a core, Omni), both on the shared [`sqsr`],
//!   [`emn_lut`], [`simd_alu`],
//!   [`ni_demux`], [`chain_prio_arb`].
//! * Random legal traffic ([`traffic`], [`sq_traffic`], [`sq_core_traffic`]) and the
//!   independent spec §6.4 scoreboards ([`check`], [`sq_check`], [`sq_core_check`]).
//! * [`sim`]: the `gpuforge sim` runs.

pub mod chain;
pub mod chain_prio_arb;
pub mod check;
pub mod config;
pub mod core_service;
pub mod emn;
pub mod emn_lut;
pub mod hook;
pub mod hops;
pub mod lane_op;
pub mod ni_demux;
pub mod offload;
pub mod oq;
pub mod packet;
pub mod service;
pub mod sim;
pub mod simd_alu;
pub mod sq;
pub mod sq_check;
pub mod sq_core;
pub mod sq_core_check;
pub mod sq_core_traffic;
pub mod sq_traffic;
pub mod sqsr;
pub mod tagger;
pub mod traffic;
pub mod wire;

pub use config::LlcComputeConfig;

use crate::block::{self, Block, ConfigFile, SimArgs, SimError, SimFlag, SimOutcome, Simulate};
use crate::config::FieldError;

/// LLC-Compute / Omni-Compute as the framework sees it: the `[llc_compute]` table.
pub struct LlcCompute;

impl Block for LlcCompute {
    const TABLE: &'static str = "llc_compute";
    const TITLE: &'static str = "LLC-Compute / Omni-Compute offload blocks";
    type Raw = config::RawLlcCompute;
    type Config = LlcComputeConfig;

    fn validate(raw: config::RawLlcCompute) -> Result<LlcComputeConfig, FieldError> {
        LlcComputeConfig::validate(raw)
    }
}

impl Simulate for LlcCompute {
    const FLAGS: &'static [SimFlag] = &[SimFlag::MaxCycles];

    /// The EMN statistics and the OQ under random legal traffic with its scoreboard.
    fn simulate(cfg: &ConfigFile<LlcComputeConfig>, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        let cycles = args.max_cycles.unwrap_or(20_000);
        match sim::run(&cfg.config, &cfg.name, args.seed, cycles) {
            Ok(r) => Ok(SimOutcome { text: r.to_string(), json: block::to_json(&r), failure: None }),
            Err(v) => Err(SimError::Failed(format!("error: {}: {v}", cfg.name))),
        }
    }
}
