//! Golden-model NoC runs under synthetic traffic. Placeholder: being written.

use std::fmt;

use super::config::NocConfig;

/// What `gpuforge sim` asks for.
#[derive(Debug, Clone, Default)]
pub struct SimRequest {
    pub seed: u64,
    /// Injection rates (flits/node/cycle) to sweep; empty = the config's own rate.
    pub sweep: Vec<f64>,
    /// Directory for sweep tables (CSV, JSON) and the SVG plot.
    pub out_dir: Option<std::path::PathBuf>,
}

/// Statistics of a run (or a sweep).
#[derive(Debug, Clone, serde::Serialize)]
pub struct SimReport {}

impl fmt::Display for SimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(no NoC statistics)")
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SimError(pub String);

pub fn run(_cfg: &NocConfig, _req: &SimRequest) -> Result<SimReport, SimError> {
    Err(SimError("NoC simulation is not implemented yet".into()))
}
