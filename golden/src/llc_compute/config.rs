//! The `[llc_compute]` config (spec §6 parameters, §1.4/§2.4 knobs) and the tables
//! derived from it (EMN lookup tables, compute-capable mask, widths).

use serde::{Deserialize, Serialize};

use super::emn::{EmnLut, EmnPaths, Node, Placement};
use crate::bits::clog2;
use crate::config::{check_range, FieldError};

/// Offload mode (`cfg_mode`: 0 off, 1 LLC-Compute, 2 Omni-Compute).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Off,
    Llc,
    Omni,
}

impl Mode {
    pub fn code(self) -> u32 {
        match self {
            Mode::Off => 0,
            Mode::Llc => 1,
            Mode::Omni => 2,
        }
    }
}

/// LLC-Compute offload condition (knob `llc_compute_rule`, spec §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlcRule {
    /// Every memory operand maps to one MC (the paper's definition, default).
    SamePartition,
    /// The EMN is an LLC node (allows the rare off-partition pair).
    EmnIsLlc,
}

/// Memory-divergent chains (knob `divergence_policy`, spec §2.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DivPolicy {
    /// Flush the chain (Verilog v1 default).
    Discard,
    /// One CP per line group (GPU model only).
    Split,
}

/// A `01` while another chain is forming (knob `cpgu_busy_policy`, spec §1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CpguBusyPolicy {
    /// The `01` is not accepted until the CPGU is free (default).
    Wait,
    /// The chain is discarded and runs normally.
    RunNormally,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLlcCompute {
    mesh: [i64; 2],
    mcs: Vec<[i64; 2]>,
    #[serde(default = "default_mode")]
    mode: Mode,
    #[serde(default = "default_rule")]
    llc_rule: LlcRule,
    #[serde(default = "default_paths")]
    emn_paths: EmnPaths,
    #[serde(default)]
    oq: RawOq,
    #[serde(default)]
    sq: RawSq,
}

fn default_mode() -> Mode {
    Mode::Omni
}
fn default_rule() -> LlcRule {
    LlcRule::SamePartition
}
fn default_paths() -> EmnPaths {
    EmnPaths::RequestRoute
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawOq {
    entries: u32,
    warps: u32,
    lanes: u32,
    keep_dst_regs: bool,
    div_policy: DivPolicy,
    cpgu_busy_policy: CpguBusyPolicy,
    l1_tag_latency: u32,
}

impl Default for RawOq {
    fn default() -> Self {
        // spec §6.1 defaults
        Self { entries: 48, warps: 48, lanes: 32, keep_dst_regs: true, div_policy: DivPolicy::Discard, cpgu_busy_policy: CpguBusyPolicy::Wait, l1_tag_latency: 1 }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawSq {
    entries: u32,
    buffer: u32,
    alu_latency: u32,
    fdiv: bool,
    fdiv_latency: u32,
    smem_aw: u32,
}

impl Default for RawSq {
    fn default() -> Self {
        // spec §6.2, §1.6.2 step 6, §1.7 (96 slots x 256 B = 24 kB of 48 kB: 12-bit line addresses of 128 B... see smem_aw)
        Self { entries: 96, buffer: 4, alu_latency: 4, fdiv: false, fdiv_latency: 20, smem_aw: 8 }
    }
}

/// Ranges (spec §6; widths fixed by the §2.3 ComputePacket layout).
pub const MESH_MAX: u32 = 8; // NODE_W = 6: 64 nodes
pub const MC_MAX: u32 = 8; // MC_W = 3
pub const OQ_ENTRIES_MAX: u32 = 64; // 6-bit oq_tag in the CP
pub const WARPS_MAX: u32 = 64; // 6-bit wid
pub const LANES: [u32; 4] = [4, 8, 16, 32]; // 32-bit active-mask field
pub const SQ_ENTRIES_MAX: u32 = 256; // sweep to (128, 256), spec §5.6
pub const SQ_BUFFER_MAX: u32 = 16;
pub const ALU_LAT_MAX: u32 = 16;
pub const FDIV_LAT_MAX: u32 = 64;
pub const L1_TAG_LAT_MAX: u32 = 8;

/// Offload Queue parameters (spec §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OqParams {
    pub entries: u32,
    pub warps: u32,
    pub lanes: u32,
    pub keep_dst_regs: bool,
    pub div_policy: DivPolicy,
    pub cpgu_busy_policy: CpguBusyPolicy,
    pub l1_tag_latency: u32,
}

/// Service Queue parameters (spec §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SqParams {
    pub entries: u32,
    pub buffer: u32,
    pub alu_latency: u32,
    pub fdiv: bool,
    pub fdiv_latency: u32,
    /// Shared-memory line-address width of the core variant (slots of 2 lines = 256 B).
    pub smem_aw: u32,
}

/// The validated `[llc_compute]` config and what is derived from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LlcComputeConfig {
    pub placement: Placement,
    pub mode: Mode,
    pub llc_rule: LlcRule,
    pub emn_paths: EmnPaths,
    pub oq: OqParams,
    pub sq: SqParams,
    /// Every node's EMN lookup table (Algorithm 1), indexed by node id.
    pub luts: Vec<EmnLut>,
    /// Compute-capable nodes (spec §1.4): the LLCs, plus every core in Omni mode.
    pub capable: Vec<bool>,
}

impl LlcComputeConfig {
    pub fn validate(r: RawLlcCompute) -> Result<Self, FieldError> {
        let w = check_range("llc_compute.mesh[0]", r.mesh[0], 2, i64::from(MESH_MAX))? as u32;
        let h = check_range("llc_compute.mesh[1]", r.mesh[1], 2, i64::from(MESH_MAX))? as u32;
        if r.mcs.is_empty() {
            return Err(FieldError::new("llc_compute.mcs", "no MC: a placement without LLCs has no EMN", Some(format!("1..={MC_MAX} distinct (x, y) nodes"))));
        }
        check_range("llc_compute.mcs (count)", r.mcs.len() as u32, 1, MC_MAX)?;
        let mut mcs: Vec<Node> = Vec::new();
        for (i, c) in r.mcs.iter().enumerate() {
            let f = format!("llc_compute.mcs[{i}]");
            let ok = (0..i64::from(w)).contains(&c[0]) && (0..i64::from(h)).contains(&c[1]);
            if !ok {
                return Err(FieldError::new(&f, format!("({}, {}) is outside the {w}x{h} mesh", c[0], c[1]), Some(format!("x in 0..={}, y in 0..={}", w - 1, h - 1))));
            }
            let n = Node::new(c[0] as u32, c[1] as u32);
            if let Some(j) = mcs.iter().position(|m| *m == n) {
                return Err(FieldError::new(&f, format!("({}, {}) is also MC {j}: duplicate MC", n.x, n.y), Some("distinct coordinates".into())));
            }
            mcs.push(n);
        }
        if mcs.len() as u32 >= w * h {
            return Err(FieldError::new("llc_compute.mcs", "every node is an MC: no core to offload from", Some(format!("at most {} MCs", w * h - 1))));
        }
        let o = &r.oq;
        let oq = OqParams {
            entries: check_range("llc_compute.oq.entries", o.entries, 1, OQ_ENTRIES_MAX)?,
            warps: check_range("llc_compute.oq.warps", o.warps, 1, WARPS_MAX)?,
            lanes: {
                if !LANES.contains(&o.lanes) {
                    return Err(FieldError::new("llc_compute.oq.lanes", format!("{} is not supported", o.lanes), Some("one of 4, 8, 16, 32".into())));
                }
                o.lanes
            },
            keep_dst_regs: o.keep_dst_regs,
            div_policy: match o.div_policy {
                DivPolicy::Discard => DivPolicy::Discard,
                DivPolicy::Split => {
                    return Err(FieldError::new(
                        "llc_compute.oq.div_policy",
                        "split is a GPU-model policy; the OQ block discards divergent chains (spec §2.6)",
                        Some("discard".into()),
                    ))
                }
            },
            cpgu_busy_policy: o.cpgu_busy_policy,
            l1_tag_latency: check_range("llc_compute.oq.l1_tag_latency", o.l1_tag_latency, 1, L1_TAG_LAT_MAX)?,
        };
        let s = &r.sq;
        let sq = SqParams {
            entries: check_range("llc_compute.sq.entries", s.entries, 1, SQ_ENTRIES_MAX)?,
            buffer: check_range("llc_compute.sq.buffer", s.buffer, 1, SQ_BUFFER_MAX)?,
            alu_latency: check_range("llc_compute.sq.alu_latency", s.alu_latency, 1, ALU_LAT_MAX)?,
            fdiv: s.fdiv,
            fdiv_latency: check_range("llc_compute.sq.fdiv_latency", s.fdiv_latency, 1, FDIV_LAT_MAX)?,
            smem_aw: s.smem_aw,
        };
        // an unpipelined divide that finished before the pipelined ops issued ahead of it
        // would leave the ALU's single result port two results in one cycle
        if sq.fdiv && sq.fdiv_latency < sq.alu_latency {
            return Err(FieldError::new(
                "llc_compute.sq.fdiv_latency",
                format!("{} is below alu_latency = {}: the divider would finish before the pipelined ops issued ahead of it", sq.fdiv_latency, sq.alu_latency),
                Some(format!("{}..={FDIV_LAT_MAX}", sq.alu_latency)),
            ));
        }
        // the core SQ keeps 2 lines per entry in shared memory at SMEM_BASE + idx x 256 B (spec §1.7)
        let need = clog2(u64::from(2 * sq.entries)).max(1);
        if sq.smem_aw < need || sq.smem_aw > 16 {
            return Err(FieldError::new(
                "llc_compute.sq.smem_aw",
                format!("{} bits cannot address 2 lines for each of {} entries", sq.smem_aw, sq.entries),
                Some(format!("{need}..=16")),
            ));
        }
        let placement = Placement { width: w, height: h, mcs };
        let luts = placement.luts(r.emn_paths);
        let capable = (0..placement.nodes())
            .map(|i| {
                let llc = placement.mcs.contains(&placement.node(i));
                match r.mode {
                    Mode::Off => false,
                    Mode::Llc => llc,
                    Mode::Omni => true,
                }
            })
            .collect();
        Ok(Self { placement, mode: r.mode, llc_rule: r.llc_rule, emn_paths: r.emn_paths, oq, sq, luts, capable })
    }

    /// Width of a node id (`NODE_W`): 6 for the 8×8 mesh.
    pub fn node_w(&self) -> u32 {
        clog2(u64::from(self.placement.nodes())).max(1)
    }

    /// Width of an MC id (`MC_W`).
    pub fn mc_w(&self) -> u32 {
        clog2(self.placement.mcs.len() as u64).max(1)
    }

    /// The MC of a byte address: `(addr >> 7) mod N_MC` (spec §3 interleave).
    pub fn mc_of(&self, addr: u64) -> u32 {
        ((addr >> 7) % self.placement.mcs.len() as u64) as u32
    }
}
