//! GPU-CC: the reconfigurable SM with communicating cores (seed 004, spec `gpucc.md`).
//!
//! * [`config`]: the validated configuration and everything derived from it.
//! * [`cr`]: the 128-bit configuration register layout (spec §1.5), shared with the HDL.
//! * [`fifo`]: the operand FIFO with its virtual initial-token prefix (spec §1.4).
//! * [`net`]: the lane network with FIFOs, CRs and mode control, cycle-accurate at every
//!   port of the generated `gpucc_net` Verilog.
//! * [`check`]: an independent scoreboard of the spec §4.3 invariants over the network ports.
//! * [`fp`]: fp32/int32 semantics of the fixed instructions (spec §1.6).
//! * [`fu`]: the core functional unit, strict and pipelined (spec §1.7).
//! * [`lsu`]: the load-store unit with issue pointer and prefetch element (spec §1.8).
//! * [`mem`]: the memory timing model: backing store, L1s, shared DRAM (spec §1.8, §3.1).
//! * [`mapper`]: application graph -> placement -> lanes -> CR words (spec §4.2).
//! * [`apps`]: the convolution and §2.3 graphs, data and reference loops (spec §2).
//! * [`sm`]: one SM in CC mode with its mode driver (spec §1.9).
//! * [`run`]: the chip and `run_app`, the `gpuforge sim` entry point.
//! * [`unit_check`]: the unit-side scoreboard of the spec §4.3 invariants.

pub mod apps;
pub mod check;
pub mod config;
pub mod cr;
pub mod fifo;
pub mod fp;
pub mod fu;
pub mod lsu;
pub mod mapper;
pub mod mem;
pub mod net;
pub mod run;
pub mod sm;
pub mod traffic;
pub mod unit_check;

pub use config::{GpuccConfig, UnitKind};

use crate::block::{self, Block, ConfigFile, SimArgs, SimError, SimFlag, SimOutcome, Simulate};
use crate::config::FieldError;

/// GPU-CC as the framework sees it: the `[gpucc]` table, validated, and the configured
/// application (if any) checked to fit the network.
pub struct Gpucc;

impl Block for Gpucc {
    const TABLE: &'static str = "gpucc";
    const TITLE: &'static str = "GPU-CC (SM with communicating cores)";
    type Raw = config::RawGpucc;
    type Config = GpuccConfig;

    fn validate(raw: config::RawGpucc) -> Result<GpuccConfig, FieldError> {
        let c = GpuccConfig::validate(raw)?;
        apps::check_fits(&c)?;
        Ok(c)
    }
}

impl Simulate for Gpucc {
    const FLAGS: &'static [SimFlag] = &[SimFlag::Check, SimFlag::MaxCycles];

    /// The config's `[gpucc.app]` on the chip of `[gpucc.chip]` (spec §3).
    fn simulate(cfg: &ConfigFile<GpuccConfig>, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        let c = &cfg.config;
        if c.app.is_none() {
            return Err(SimError::Input(format!(
                "{}: gpucc.app: no application to simulate (allowed: add a [gpucc.app] table with kind = one of {})",
                cfg.path.display(),
                config::AppKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
            )));
        }
        let mut opts = run::RunOptions { seed: args.seed, check: args.check, ..Default::default() };
        if let Some(m) = args.max_cycles {
            opts.max_cycles = m;
        }
        let out = run::run_app_with(c, &opts).map_err(|e| SimError::Failed(format!("error: {e}")))?;
        let failure = (!out.report.pass).then(|| format!("FAIL {}: outputs differ from the reference or the run did not finish", cfg.name));
        Ok(SimOutcome { text: out.report.to_string(), json: block::to_json(&out.report), failure })
    }
}
