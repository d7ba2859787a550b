//! TFB BDIB: the barrier-displaced instruction buffer of transparent fuzzy barriers
//! (seed 002 chapter 5, spec `tfb_bdib.md`).
//!
//! * [`config`]: the validated `[tfb_bdib]` table, class codes, the entry layout and
//!   its storage (§2.6, §2.13, §5.1).
//! * [`bdib`]: the buffer with its per-warp barrier state, cycle-accurate at every
//!   port of the generated Verilog (§2.5–2.9, §5.3), and the §1.7 decision.
//! * [`check`]: an independent scoreboard of §5.4's invariants and §2.12's ordering
//!   guarantees over the ports.
//! * [`traffic`]: random legal traffic with the barrier unit and memory pipeline
//!   around the buffer (§2.3, §2.7).
//! * [`hook`]: P/G/F-TFB in the GPU model (`[hooks.tfb]`, the SM's issue hook).
//! * [`sim`]: `gpuforge sim`: the golden model on random traffic with the scoreboard.

pub mod bdib;
pub mod check;
pub mod config;
pub mod hook;
pub mod sim;
pub mod traffic;

pub use config::{Cls, TfbConfig, Variant};

use crate::block::{self, Block, ConfigFile, SimArgs, SimError, SimFlag, SimOutcome, Simulate};
use crate::config::FieldError;

/// The TFB BDIB as the framework sees it: the `[tfb_bdib]` table.
pub struct TfbBdib;

impl Block for TfbBdib {
    const TABLE: &'static str = "tfb_bdib";
    const TITLE: &'static str = "TFB BDIB (barrier-displaced instruction buffer)";
    type Raw = config::RawTfb;
    type Config = TfbConfig;

    fn validate(raw: config::RawTfb) -> Result<TfbConfig, FieldError> {
        TfbConfig::validate(raw)
    }
}

impl Simulate for TfbBdib {
    const FLAGS: &'static [SimFlag] = &[SimFlag::Check, SimFlag::MaxCycles];

    /// Random legal traffic through the golden BDIB for `--max-cycles` cycles
    /// (default 100,000), then a drain; the scoreboard always runs.
    fn simulate(cfg: &ConfigFile<TfbConfig>, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        let cycles = args.max_cycles.unwrap_or(100_000);
        let r = sim::run(&cfg.config, cycles, args.seed);
        let failure = r.violation.as_ref().map(|v| format!("FAIL {}: {v}", cfg.name));
        Ok(SimOutcome { text: r.to_string(), json: block::to_json(&r), failure })
    }
}
