//! Q-cache: the producer/consumer rate monitor of an L2 (seed 002 ch. 6, spec `qcache.md`).
//!
//! * [`config`]: the `[qcache]` table (every [OC] constant of spec §1.5), validated, and
//!   the register widths and storage count derived from it.
//! * [`monitor`]: `qc_rate_monitor`, cycle-exact at every port of the generated Verilog
//!   (events §1.2, registers §1.3, states §1.4, arithmetic §1.5, policy §1.6, messages
//!   §1.7, actuation requests §1.8).
//! * [`traffic`]: random legal event streams with responding core schedulers.
//! * [`check`]: an independent scoreboard of the spec §5 invariants over the ports.
//! * [`run`]: `gpuforge sim` on a config: the monitor on random streams.
//! * [`hook`]: `[hooks.qcache]`, the monitor on the GPU model's L2 (`L2Hook`), and with
//!   `[hooks.qcache.cpu]` the heterogeneous CPU-GPU system.
//! * [`actuator`]: the GPU core scheduler's DVFS and TB draining for rate requests
//!   (`qc_gpu_actuator`) and one CPU core's DVFS (`qc_cpu_dvfs`).
//! * [`filter`]: an L2 bank's transition filter (`qc_transition_filter`, spec §1.2).
//! * [`cpu`]: the CPU cores of that system: timing model, consumer threads, queue modes.

pub mod actuator;
pub mod check;
pub mod config;
pub mod cpu;
pub mod filter;
pub mod hook;
pub mod monitor;
pub mod run;
pub mod traffic;

pub use config::QcacheConfig;

use crate::block::{self, Block, ConfigFile, SimArgs, SimError, SimFlag, SimOutcome, Simulate};
use crate::config::FieldError;

/// Q-cache as the framework sees it: the `[qcache]` table.
pub struct Qcache;

impl Block for Qcache {
    const TABLE: &'static str = "qcache";
    const TITLE: &'static str = "Q-cache L2 rate monitor";
    type Raw = config::RawQcache;
    type Config = QcacheConfig;

    fn validate(raw: config::RawQcache) -> Result<QcacheConfig, FieldError> {
        QcacheConfig::validate(raw)
    }
}

impl Simulate for Qcache {
    const FLAGS: &'static [SimFlag] = &[SimFlag::Check, SimFlag::MaxCycles];

    /// The monitor on random legal event streams (spec §5), optionally with the scoreboard.
    fn simulate(cfg: &ConfigFile<QcacheConfig>, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        let cycles = args.max_cycles.unwrap_or(run::DEFAULT_CYCLES);
        let report = run::run(&cfg.config, &cfg.name, cycles, args.seed, args.check);
        let failure = report.violation.clone().map(|v| format!("FAIL {}: {v}", cfg.name));
        Ok(SimOutcome { text: report.to_string(), json: block::to_json(&report), failure })
    }
}
