//! NoC configuration (`[noc]` table). Placeholder: being written.

use serde::Deserialize;

use crate::config::FieldError;

/// Raw `[noc]` table as written in TOML.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNoc {}

/// A validated NoC configuration.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NocConfig {}

impl NocConfig {
    pub fn validate(_r: RawNoc) -> Result<Self, FieldError> {
        Err(FieldError::new("noc", "NoC configs are not supported yet", None))
    }
}
