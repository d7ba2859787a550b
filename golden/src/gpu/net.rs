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
    #[error("network config: {0}")]
    Invalid(String),
}

/// `[network.router]` keys and the `[noc.baseline]` keys they set
/// (macro_noc.md §1.11–1.12; the VC router model has a fixed 3-stage pipeline).
const ROUTER_KEYS: [(&str, &str); 3] = [("routing", "routing"), ("vcs", "vcs"), ("vc_buffers", "buf_depth")];

/// Build the network a config asks for.
///
/// `mesh` and `macro` build the golden meshes of `golden::noc` on the configured
/// placement: memory node `j` is MC `j` (its overlay, for MACRO-NoC), SMs sit on the
/// other nodes. `mesh` is the baseline VC mesh with `[network.router]` applied;
/// `macro` is MACRO-NoC with the spec's default planes (64-bit request plane,
/// hinge-router reply plane). Packets are counted in `flit_bytes` units and each
/// plane converts them to its own width.
pub fn build(cfg: &NetworkConfig) -> Result<Box<dyn Network>, NetError> {
    if cfg.kind == NetworkKind::Ideal {
        return Ok(Box::new(IdealNetwork::new(cfg.nodes, cfg.latency as u64)));
    }
    let (w, h) = cfg.mesh.ok_or_else(|| NetError::Invalid("network.mesh: a mesh network needs `mesh = [w, h]`".into()))?;
    if w != h {
        return Err(NetError::Invalid(format!("network.mesh: {w}x{h} is not square (allowed: NxN, N in 2..=8)")));
    }
    if cfg.nodes != (w * h) as usize {
        return Err(NetError::Invalid(format!("network: {} terminals on a {w}x{h} mesh", cfg.nodes)));
    }
    let mcs: Vec<[u32; 2]> = cfg.mem_nodes.iter().map(|&id| [id as u32 % w, id as u32 / w]).collect();
    let mut text = format!(
        "kind = \"{}\"\nmesh = {w}\nmcs = {}\n",
        if cfg.kind == NetworkKind::Macro { "macro" } else { "baseline" },
        serde_json::to_string(&mcs).expect("json")
    );
    if cfg.kind == NetworkKind::Mesh {
        text += &format!("[baseline]\nflit_width = {}\n", cfg.flit_bytes * 8);
        for (key, value) in &cfg.router {
            match ROUTER_KEYS.iter().find(|(k, _)| k == key) {
                Some((_, noc_key)) => text += &format!("{noc_key} = {value}\n"),
                None if key == "pipeline_stages" && value.as_integer() == Some(3) => {}
                None => {
                    let allowed = ROUTER_KEYS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ");
                    return Err(NetError::Invalid(format!(
                        "network.router.{key} = {value} is not supported by the golden VC mesh (allowed: {allowed}, pipeline_stages = 3)"
                    )));
                }
            }
        }
    }
    let raw: crate::noc::config::RawNoc = toml::from_str(&text).map_err(|e| NetError::Invalid(e.message().to_string()))?;
    let noc = crate::noc::config::NocConfig::validate(raw).map_err(|e| NetError::Invalid(format!("network (as {e})")))?;
    Ok(crate::noc::mesh::from_config(&noc, cfg.flit_bytes * 8))
}
