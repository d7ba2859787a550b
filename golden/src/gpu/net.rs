//! Network construction: the one place that turns a [`NetworkConfig`] into a
//! [`Network`] (macro_noc.md §1; ARCHITECTURE.md "The golden GPU model").
//!
//! Terminal numbering: SM `i` is network node `cfg.sm_nodes[i]`, memory node `j` is
//! `cfg.mem_nodes[j]`. On a mesh, node id = `y * width + x` (x = column, y = row),
//! which is how presets write placements.

use crate::network::{IdealNetwork, Network};

use super::config::{NetworkConfig, NetworkKind};

/// Why a network could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("network kind `{0}` is not available yet: the golden mesh/MACRO-NoC models are not wired into the GPU model; use kind = \"ideal\"")]
    NotAvailable(&'static str),
    #[error("network config: {0}")]
    Invalid(String),
}

/// Build the network a config asks for.
pub fn build(cfg: &NetworkConfig) -> Result<Box<dyn Network>, NetError> {
    match cfg.kind {
        NetworkKind::Ideal => Ok(Box::new(IdealNetwork::new(cfg.nodes, cfg.latency as u64))),
        NetworkKind::Mesh => Err(NetError::NotAvailable("mesh")),
        NetworkKind::Macro => Err(NetError::NotAvailable("macro")),
    }
}
