//! Network construction: the one place that turns a [`NetworkConfig`] into a
//! [`Network`] (macro_noc.md §1; ARCHITECTURE.md "The golden GPU model").
//!
//! Terminal numbering: SM `i` is network node `cfg.sm_nodes[i]`, memory node `j` is
//! `cfg.mem_nodes[j]`. On a mesh, node id = `y * width + x` (x = column, y = row),
//! which is how presets write placements.
//!
//! The path from the GPU config to a golden mesh is typed end to end: `[network]` and
//! `[network.router]` become a [`NocConfig`] through [`NocConfig::for_gpu`], the same
//! validation a `[noc]` config goes through, with errors naming the GPU config's fields
//! (`network.router.vcs`, `network.flit_width`, `network.mem_nodes[2]`).

use crate::config::{check_one_of, check_range, FieldError};
use crate::network::{IdealNetwork, Network};
use crate::noc::config::{NocConfig, NocFields, NocKind, RawVc, ReplyKnobs, Routing, VcFields};

use super::config::{NetworkConfig, NetworkKind};

/// Why a network could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The network section does not validate. [`super::GpuConfig::load`] already checks
    /// this, so only a config changed after loading gets here.
    #[error("{0}")]
    Config(FieldError),
    /// A network handed to [`super::sim::Gpu::with_network`] is too small.
    #[error("network: {have} nodes, the placement needs {need}")]
    TooFewNodes { have: usize, need: usize },
}

/// The names of the GPU config's network fields, for NoC validation errors. The GOM,
/// reply plane, request plane and traffic have no GPU fields: they stay at the NoC's
/// defaults, which validate, and are charged to `network.kind`.
fn gpu_fields() -> NocFields {
    let kind = "network.kind";
    NocFields {
        mesh: "network.mesh".into(),
        mcs: "network.mem_nodes".into(),
        gom: kind.into(),
        reply: "network.reply".into(),
        traffic: kind.into(),
        request: VcFields::under(kind),
        baseline: VcFields {
            flit_width: "network.flit_width".into(),
            vcs: "network.router.vcs".into(),
            buf_depth: "network.router.buf_depth".into(),
            planes: "network.router.planes".into(),
        },
    }
}

/// The golden NoC a `mesh` or `macro` network config describes (`None` for `ideal`).
///
/// Memory node `j` is MC `j` (its overlay, for MACRO-NoC); SMs sit on the other nodes.
/// `mesh` is the baseline VC mesh with `[network.router]` applied and `flit_width`-bit
/// flits; `macro` is MACRO-NoC with the spec's default planes (64-bit request plane,
/// hinge-router reply plane).
pub fn noc_config(cfg: &NetworkConfig) -> Result<Option<NocConfig>, FieldError> {
    if cfg.router.reply_vcs.is_some() && cfg.kind != NetworkKind::Mesh {
        return Err(FieldError::new("network.router.reply_vcs", "reply VCs split the VC mesh's classes", Some("only with kind = \"mesh\"".into())));
    }
    let kind = match cfg.kind {
        NetworkKind::Ideal => return Ok(None),
        NetworkKind::Mesh => NocKind::Baseline,
        NetworkKind::Macro => NocKind::Macro,
    };
    let Some((w, h)) = cfg.mesh else {
        return Err(FieldError::new("network.mesh", "a mesh network needs a mesh size", Some("[N, N], N in 2..=8".into())));
    };
    if w != h {
        return Err(FieldError::new("network.mesh", format!("{w}x{h} is not square"), Some("[N, N], N in 2..=8".into())));
    }
    if cfg.nodes != (w * h) as usize {
        return Err(FieldError::new("network.mesh", format!("{} terminals on a {w}x{h} mesh", cfg.nodes), Some(format!("{} terminals", w * h))));
    }
    let baseline = match kind {
        NocKind::Baseline => {
            if let Some(s) = cfg.router.pipeline_stages {
                check_one_of("network.router.pipeline_stages", s, &[3])?;
            }
            cfg.router.vc_plane(cfg.flit_width)
        }
        NocKind::Macro => RawVc::baseline(),
    };
    let reply = match kind {
        NocKind::Macro => cfg.reply,
        NocKind::Baseline if cfg.reply == ReplyKnobs::default() => cfg.reply,
        NocKind::Baseline => {
            return Err(FieldError::new("network.reply", "MACRO-NoC's reply-plane keys on a VC mesh", Some("[network.reply] only with kind = \"macro\"".into())));
        }
    };
    let mcs: Vec<(u32, u32)> = cfg.mem_nodes.iter().map(|&id| (id as u32 % w, id as u32 / w)).collect();
    let mut noc = NocConfig::for_gpu(kind, w, &mcs, baseline, reply, &gpu_fields())?;
    if let Some(r) = cfg.router.reply_vcs {
        noc.baseline.reply_vcs = reply_vcs(&baseline, r)?;
    }
    Ok(Some(noc))
}

/// `network.router.reply_vcs` (llc_omni_compute.md §1.8): 1..vcs-1 reply VCs on a
/// one-plane `yx` or `xy` mesh (`xy_yx` already splits the VCs into its two classes;
/// two planes carry the classes apart).
fn reply_vcs(p: &RawVc, r: u32) -> Result<u32, FieldError> {
    let f = "network.router.reply_vcs";
    if p.routing == Routing::XyYx || p.planes != 1 {
        return Err(FieldError::new(f, "the request and reply classes are already apart", Some("only with planes = 1 and routing = \"yx\" or \"xy\"".into())));
    }
    check_range(f, i64::from(r), 1, i64::from(p.vcs) - 1).map(|r| r as u32)
}

/// Build the network a config asks for. Packets are counted in `flit_width`-bit flits;
/// each mesh plane converts them to its own width.
pub fn build(cfg: &NetworkConfig) -> Result<Box<dyn Network>, NetError> {
    Ok(match noc_config(cfg).map_err(NetError::Config)? {
        None => Box::new(IdealNetwork::new(cfg.nodes, cfg.latency as u64)),
        Some(noc) => crate::noc::mesh::from_config(&noc, cfg.flit_width),
    })
}

/// A packet's network time on an idle network, as the GPU sees it (from the cycle a
/// node hands it to the network to the cycle its destination takes it): the "NoC
/// traversal" of the L1-miss latency breakdown ([`super::stats::MissLatencyStats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZeroLoad {
    /// Ideal network: `latency + flits - 1` (the fixed latency, then serialization).
    Ideal(u64),
    /// VC mesh of this width: 3 cycles per router on the path (VA, SA, ST with the
    /// link), `flits - 1` of serialization and 1 for the ejection into the node
    /// (tests/noc_mesh.rs `zero_load` measures the network alone, without that cycle).
    Mesh(usize),
    /// MACRO-NoC: not derived.
    Unknown,
}

impl ZeroLoad {
    pub fn of(cfg: &NetworkConfig) -> ZeroLoad {
        match (cfg.kind, cfg.mesh) {
            (NetworkKind::Ideal, _) => ZeroLoad::Ideal(cfg.latency as u64),
            (NetworkKind::Mesh, Some((w, _))) => ZeroLoad::Mesh(w as usize),
            _ => ZeroLoad::Unknown,
        }
    }

    /// Cycles for `flits` from node `src` to node `dst` (None: not derived).
    #[inline]
    pub fn cycles(self, src: usize, dst: usize, flits: u32) -> Option<u64> {
        let ser = flits.max(1) as u64 - 1;
        match self {
            ZeroLoad::Ideal(l) => Some(l + ser),
            ZeroLoad::Mesh(w) => {
                let routers = ((src % w).abs_diff(dst % w) + (src / w).abs_diff(dst / w) + 1) as u64;
                Some(3 * routers + ser + 1)
            }
            ZeroLoad::Unknown => None,
        }
    }
}
