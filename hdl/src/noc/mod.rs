//! Verilog generators for MACRO-NoC and the baseline mesh. Placeholder: being written.

use std::path::PathBuf;

use golden::config::ConfigFile;
use golden::noc::config::NocConfig;

use crate::design::{Design, GenError};

/// Every design of a NoC config, each with its sub-directory of the preset's output.
pub fn generate(_cfg: &ConfigFile, _c: &NocConfig) -> Result<Vec<(PathBuf, Design)>, GenError> {
    Err(GenError::Unsupported { field: "noc".into(), message: "NoC generation is not implemented yet".into(), allowed: "-".into() })
}
