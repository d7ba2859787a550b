//! MACRO-NoC (seed 003, spec `macro_noc.md`): hinge-router reply plane, overlay
//! controller, GOM, request-plane and baseline VC routers, golden meshes.
//!
//! * [`config`]: the validated `[noc]` config and its derived tables (ROMs, groups).
//! * [`route_rom`]: the route-lookup ROM generator, its row encoding, legal sources,
//!   compatibility.
//! * [`link`]: the reply-plane link's field table, STATUS and GOMCFG payloads;
//!   [`flit`]: the VC planes' link and flit layout (`VcLayout`).
//! * [`overlay_ctrl`]: Algorithm 1 with the spec's fixes, in cycle-exact form.
//! * [`hinge_router`], [`mc_ni`], [`gom`]: the reply-plane blocks; `HingeTop` is one
//!   router as the router-level design sees it.
//! * [`reply_mesh`]: the reply plane as one block (`macro_reply_mesh`).
//! * [`vc_router`], [`vc_mesh`]: the wormhole VC router, its mesh and terminal NIs.
//! * Every design the generator writes has a golden [`crate::model::Model`]
//!   (`ReplyMesh`, `VcMesh`, `HingeTop`, `VcRouter`), a [`crate::model::Stimulus`] in
//!   [`traffic`] and a [`crate::model::Scoreboard`] in [`check`] (the spec §4.3
//!   invariants).
//! * [`mesh`]: golden meshes behind `golden::network::Network` (baseline, MACRO).
//! * [`traffic`]: synthetic traffic and the port-level stimuli; [`sim`]: `gpuforge
//!   sim` runs and sweeps.
//! * [`window`]: the GOM's integer window split, shared with config validation.

pub mod check;
pub mod config;
pub mod flit;
pub mod gom;
pub mod hinge_router;
pub mod link;
pub mod mc_ni;
pub mod mesh;
pub mod overlay_ctrl;
pub mod reply_mesh;
pub mod route_rom;
pub mod sim;
pub mod traffic;
pub mod vc_mesh;
pub mod vc_router;
pub mod window;

pub use config::NocConfig;

use crate::block::{self, Block, ConfigFile, SimArgs, SimError, SimFlag, SimOutcome, Simulate};
use crate::config::FieldError;

/// MACRO-NoC (and its baseline) as the framework sees it: the `[noc]` table.
pub struct Noc;

impl Block for Noc {
    const TABLE: &'static str = "noc";
    const TITLE: &'static str = "MACRO-NoC / baseline VC mesh";
    type Raw = config::RawNoc;
    type Config = NocConfig;

    fn validate(raw: config::RawNoc) -> Result<NocConfig, FieldError> {
        NocConfig::validate(raw)
    }
}

impl Simulate for Noc {
    const FLAGS: &'static [SimFlag] = &[SimFlag::Sweep, SimFlag::OutDir];

    /// The config's synthetic traffic, or a latency-throughput sweep.
    fn simulate(cfg: &ConfigFile<NocConfig>, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        if let Some(r) = args.sweep.iter().find(|r| !(**r >= 0.0 && **r <= 1.0)) {
            return Err(SimError::Input(format!("--sweep: rate {r} is out of range (allowed: 0..=1 flits/node/cycle)")));
        }
        let req = sim::SimRequest { seed: args.seed, sweep: args.sweep.clone(), out_dir: args.out_dir.clone() };
        let report = sim::run(&cfg.config, &req).map_err(|e| SimError::Failed(format!("error: {e}")))?;
        Ok(SimOutcome { text: report.to_string(), json: block::to_json(&report), failure: None })
    }
}
