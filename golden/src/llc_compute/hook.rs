//! LLC-Compute in the GPU model (`[hooks.llc_compute]`): the compiler side and the
//! offloading itself.
//!
//! ```toml
//! [hooks.llc_compute]
//! mode = "llc"       # or "profile": tag and count only
//! oq_entries = 48    # OQSR entries per SM (1..=64)
//! sq_entries = 96    # SQSR entries per LLC partition (1..=256)
//! sq_buffer = 4      # SQ temporary-buffer slots (1..=16)
//! alu_latency = 4    # the partition ALU's cycles per op (1..=16)
//! divergence_policy = "split"   # or "discard" (memory-divergent chains, spec §2.6)
//! core_sq_alu_lanes = 0         # omni: 0 = the core SQ shares the core's ALU; 4, 8,
//!                               # 16, 32 = a dedicated SQ ALU of that width (study 19)
//! chain_priority = true         # chain-aware fetch and issue priority (spec §1.2)
//! ```
//!
//! `divergence_policy` (under `llc` and `omni`; spec §2.6 [OC]): a chain instruction
//! whose lanes touch several lines either flushes the chain (`discard`, the RTL v1's
//! policy) or splits it (`split`, the spec's golden default and ours): the lanes are
//! grouped by their (line_a, line_b, line_c), each group takes its own OQSR entry and
//! goes as its own 2-flit ComputePacket (the extension flit of
//! [`super::packet::CpExtension`]) to its own target; see [`super::offload`].
//!
//! `profile` runs the [`super::tagger`] on every kernel as it starts on an SM and counts,
//! at the issue stage, the warp instructions that belong to a tagged chain (spec §7
//! study 5, the paper's Table 3: tagged chain instructions over all dynamic instructions,
//! chain memory requests over all memory requests). It changes nothing: every decision
//! is the baseline's, so cycles and results equal a run without the hook (a test).
//!
//! `llc` is LLC-Compute (spec §2.5, §1.6): the OQ of [`super::offload`] at every SM and
//! the golden SQ of [`super::service`] at every memory partition. `omni` is
//! Omni-Compute (§1.7): the same, plus the golden core SQ of [`super::core_service`] at
//! every SM, and the OQ sends each chain to the Earliest Meet Node of its operands'
//! partitions (Algorithm 1, [`super::emn`], on the mesh's request routes: YX when
//! `network.router.routing = "yx"`, else XY), a core or an LLC. `omni` needs a mesh
//! (`network.mesh`). Results and dynamic instruction counts equal the baseline's (a
//! test on every workload with chains); cycles and traffic are the offloading's.
//!
//! Counters (summed over SMs, `hooks` in the run report): `llc_compute.warp_insts`,
//! `llc_compute.chain_warp_insts`, `llc_compute.mem_warp_insts`,
//! `llc_compute.chain_mem_warp_insts` (`.global` loads, stores and atomics, counted per
//! warp instruction),
//! `llc_compute.chains` (dynamic chain instances: a chain's last instruction issued) and
//! `llc_compute.static_chains` (the tagger's chains, per kernel start on an SM), under
//! `profile`; `llc_compute.oq.*` (chains, sent, answers, fallbacks and why chains ran
//! normally) and `llc_compute.sq.*` (CPs, LLC accesses by kind, answers, fallback
//! loads; under `omni` also the core SQs' loads, stores and fallback loads served) under
//! `llc` and `omni`, and `llc_compute.sq_core.*` (CPs, loads, stores, answers, ALU ops
//! and ALU contention cycles) under `omni`. Under `omni` also the SMs' EMN tables, static
//! (spec §7 study 21, [`super::emn::EmnTableCounts`] summed over SMs):
//! `llc_compute.emn.pairs` (ordered pairs of different partitions), `.with_emn` (of
//! those with an EMN) and `.llc_emn` (of those whose EMN is a partition's node).

use std::cell::RefCell;
use std::rc::Rc;

use serde::Deserialize;

use super::config::{ALU_LAT_MAX, OQ_ENTRIES_MAX, SQ_BUFFER_MAX, SQ_ENTRIES_MAX};
use super::core_service::SqCoreService;
use super::emn::{emn, EmnPaths, Node};
use super::offload::{Divergence, Oq, OqIssue, OqNet, Target};
use super::service::SqService;
use super::sq::Sq;
use super::sq_core::SqCore;
use super::tagger::find_chains;
use super::wire::Wire;
use crate::config::{check_range, FieldError};
use crate::gpu::config::GpuConfig;
use crate::gpu::hooks::{count, params, HookBlock, HookCounters, HookSet, IssueDecision, IssueHook, IssueTaps, WarpView};
use crate::gpu::mapping::AddressMap;
use crate::gpu::ptx::{Inst, Kernel, Op, Space};

pub const BLOCK: HookBlock = HookBlock { name: "llc_compute", attach };

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    mode: String,
    /// OQSR entries per SM (spec §6.1, 48 in the paper).
    #[serde(default = "default_oq")]
    oq_entries: i64,
    /// SQSR entries per partition (spec §6.2, 96 in the paper).
    #[serde(default = "default_sq")]
    sq_entries: i64,
    /// Temporary-buffer slots per SQ (spec §1.6.2 step 5, our choice 4).
    #[serde(default = "default_buf")]
    sq_buffer: i64,
    /// The partition ALU's latency per op (spec §3 [OC], 4).
    #[serde(default = "default_alu")]
    alu_latency: i64,
    /// Memory-divergent chains (spec §2.6): `split` or `discard`.
    #[serde(default = "default_div")]
    divergence_policy: String,
    /// Omni: the core SQ's ALU, 0 = the core's (shared, the paper's design) or a
    /// dedicated one of 4, 8, 16 or 32 lanes (spec §5.6, §7 study 19).
    #[serde(default)]
    core_sq_alu_lanes: i64,
    /// Chain-aware fetch and issue priority (spec §1.2): on in the paper's design.
    #[serde(default = "default_prio")]
    chain_priority: bool,
}

fn default_oq() -> i64 {
    48
}
fn default_sq() -> i64 {
    96
}
fn default_buf() -> i64 {
    4
}
fn default_alu() -> i64 {
    4
}
fn default_prio() -> bool {
    true
}
fn default_div() -> String {
    "split".into()
}

const MODES: &str = "\"profile\", \"llc\", \"omni\"";

fn attach(cfg: &GpuConfig, table: &toml::Table, set: &mut HookSet) -> Result<(), FieldError> {
    let p: Params = params("llc_compute", table)?;
    match p.mode.as_str() {
        "profile" => set.set_issue("llc_compute", |_| Box::new(ChainProfile::default())),
        "llc" => attach_offload(cfg, &p, false, set),
        "omni" => attach_offload(cfg, &p, true, set),
        m => Err(FieldError::new("hooks.llc_compute.mode", format!("`{m}` is not a mode"), Some(MODES.into()))),
    }
}

/// LLC-Compute: an OQ at every SM, an SQ at every partition (spec §2.5, §1.6); with
/// `omni`, also an SQ at every SM and EMN targets (§1.7, §2.4).
fn attach_offload(cfg: &GpuConfig, p: &Params, omni: bool, set: &mut HookSet) -> Result<(), FieldError> {
    let range = |f: &str, v: i64, max: u32| check_range(&format!("hooks.llc_compute.{f}"), v, 1, i64::from(max)).map(|v| v as usize);
    let oq_entries = range("oq_entries", p.oq_entries, OQ_ENTRIES_MAX)?;
    let sq_entries = range("sq_entries", p.sq_entries, SQ_ENTRIES_MAX)?;
    let sq_buffer = range("sq_buffer", p.sq_buffer, SQ_BUFFER_MAX)?;
    let alu = range("alu_latency", p.alu_latency, ALU_LAT_MAX)? as u32;
    let divergence = match p.divergence_policy.as_str() {
        "split" => Divergence::Split,
        "discard" => Divergence::Discard,
        d => return Err(FieldError::new("hooks.llc_compute.divergence_policy", format!("`{d}` is not a divergence policy"), Some("\"split\", \"discard\"".into()))),
    };
    let passes = match p.core_sq_alu_lanes {
        0 => None,
        w @ (4 | 8 | 16 | 32) => Some(32 / w as u64),
        w => return Err(FieldError::new("hooks.llc_compute.core_sq_alu_lanes", format!("{w} is not an SQ ALU width"), Some("0 (the core's ALU), 4, 8, 16, 32".into()))),
    };
    let mode = if omni { "omni" } else { "llc" };
    let nodes = cfg.network.sm_nodes.iter().chain(&cfg.network.mem_nodes).copied().max().unwrap_or(0);
    if nodes >= 64 {
        return Err(FieldError::new(
            "hooks.llc_compute.mode",
            format!("`{mode}` needs network node ids below 64 (the ComputePacket's 6-bit node fields, spec §2.3); this network has node {nodes}"),
            Some("a network of at most 64 nodes".into()),
        ));
    }
    let sms = cfg.sms as usize;
    let line = u64::from(cfg.l1.line_bytes);
    let wire = Rc::new(RefCell::new(Wire::new(sms, oq_entries, sq_entries)));
    let map = Rc::new(AddressMap::new(&cfg.mapping, &cfg.dram, cfg.mem_nodes));
    let mem_nodes = Rc::new(cfg.network.mem_nodes.clone());
    let warps = cfg.core.warp_slots() as usize;
    let luts = if omni { Some(emn_luts(cfg)?) } else { None };
    let oqs: Vec<_> = (0..sms)
        .map(|i| {
            let target = match &luts {
                Some(l) => Target::Omni { lut: l[i].clone(), core_sq_bytes: sq_entries as u64 * 2 * line, shared_bytes: u64::from(cfg.core.shared_bytes) },
                None => Target::Llc,
            };
            let oq = Oq::new(i, cfg.network.sm_nodes[i], oq_entries, warps, wire.clone(), map.clone(), mem_nodes.clone(), target, divergence);
            Rc::new(RefCell::new(oq.with_priority(p.chain_priority)))
        })
        .collect();
    set.set_issue("llc_compute", |i| Box::new(OqIssue(oqs[i].clone())))?;
    let mc_nodes: Vec<u32> = mem_nodes.iter().map(|&n| n as u32).collect();
    let smem_latency = u64::from(cfg.core.shared_memory.latency);
    set.set_core_net("llc_compute", |i| {
        let sq = omni.then(|| {
            // a dedicated narrow ALU: 32 / w passes per op, the last one `alu` cycles long
            let lat = alu + passes.map_or(0, |n| n as u32 - 1);
            let core = SqCore::with_sizes(sq_entries, sq_buffer, 32, lat, cfg.network.sm_nodes[i] as u32, mc_nodes.clone());
            let sq = SqCoreService::new(core, i, line, smem_latency, wire.clone(), map.clone(), mem_nodes.clone());
            match passes {
                Some(n) => sq.with_dedicated_alu(n),
                None => sq,
            }
        });
        Box::new(OqNet { oq: oqs[i].clone(), sq })
    })?;
    set.set_partition("llc_compute", |_| Box::new(SqService::new(Sq::with_sizes(sq_entries, sq_buffer, 32, alu), line, wire.clone())))
}

/// Every SM's EMN lookup table over the GPU's mesh (spec §1.4, §2.4): `lut[a][b]` is
/// the network node where the chains of partitions `a` and `b` meet, if an SM or a
/// partition sits there. Algorithm 1 runs on the request routes: YX as written, XY on
/// the transposed mesh.
pub fn emn_luts(cfg: &GpuConfig) -> Result<Vec<Vec<Vec<Option<usize>>>>, FieldError> {
    let n = &cfg.network;
    let Some((w, _)) = n.mesh else {
        return Err(FieldError::new(
            "hooks.llc_compute.mode",
            "`omni` needs a mesh network: the Earliest Meet Node comes from the mesh's routes (spec §2.4); this network has no `network.mesh`",
            Some("\"profile\", \"llc\" on this network, or a config with network.mesh".into()),
        ));
    };
    let yx = n.router.routing == Some(crate::noc::config::Routing::Yx);
    let node = |id: usize| {
        let (x, y) = ((id as u32) % w, (id as u32) / w);
        if yx {
            Node::new(x, y)
        } else {
            Node::new(y, x)
        }
    };
    let id = |v: Node| (if yx { v.y * w + v.x } else { v.x * w + v.y }) as usize;
    let mcs: Vec<Node> = n.mem_nodes.iter().map(|&m| node(m)).collect();
    // a meet node without an SM or a partition has no SQ: not compute-capable (§1.4)
    let capable = |v: usize| n.sm_nodes.contains(&v) || n.mem_nodes.contains(&v);
    Ok(n.sm_nodes
        .iter()
        .map(|&s| mcs.iter().map(|&a| mcs.iter().map(|&b| emn(node(s), a, b, EmnPaths::RequestRoute).map(id).filter(|&v| capable(v))).collect()).collect())
        .collect())
}

/// A global-memory request: a load, store, atomic or reduction in `.global` (the
/// paper's memory requests; parameter, shared, local and generic accesses are not).
fn global_access(i: &Inst) -> bool {
    matches!(i.op, Op::Ld { space: Space::Global, .. } | Op::St { space: Space::Global, .. } | Op::Atom { space: Space::Global, .. } | Op::Red { space: Space::Global, .. })
}

/// What a pc is to the chain profile.
#[derive(Debug, Clone, Copy, Default)]
struct PcClass {
    in_chain: bool,
    last: bool,
    mem: bool,
}

/// The issue-stage chain counter of one SM.
#[derive(Debug, Default)]
pub struct ChainProfile {
    pcs: Vec<PcClass>,
    warp_insts: u64,
    chain_warp_insts: u64,
    mem_warp_insts: u64,
    chain_mem_warp_insts: u64,
    chains: u64,
    static_chains: u64,
}

impl IssueHook for ChainProfile {
    fn taps(&self) -> IssueTaps {
        IssueTaps { every_inst: true, ..IssueTaps::default() }
    }

    fn kernel_begin(&mut self, kernel: &Kernel) {
        self.pcs = kernel.insts.iter().map(|i| PcClass { mem: global_access(i), ..PcClass::default() }).collect();
        let chains = find_chains(kernel);
        self.static_chains += chains.len() as u64;
        for c in &chains {
            for pc in c.pcs() {
                self.pcs[pc as usize].in_chain = true;
            }
            if let Some(last) = c.pcs().last() {
                self.pcs[last as usize].last = true;
            }
        }
    }

    /// The baseline's decision (nothing issues past a barrier), counting what issues.
    fn decide(&mut self, _now: u64, warp: &WarpView, _inst: &Inst) -> IssueDecision {
        if warp.at_barrier {
            return IssueDecision::Block;
        }
        let c = self.pcs[warp.pc as usize];
        self.warp_insts += 1;
        self.chain_warp_insts += u64::from(c.in_chain);
        self.mem_warp_insts += u64::from(c.mem);
        self.chain_mem_warp_insts += u64::from(c.in_chain && c.mem);
        self.chains += u64::from(c.last);
        IssueDecision::Issue
    }

    fn counters(&self, out: &mut HookCounters) {
        count(out, "llc_compute.warp_insts", self.warp_insts);
        count(out, "llc_compute.chain_warp_insts", self.chain_warp_insts);
        count(out, "llc_compute.mem_warp_insts", self.mem_warp_insts);
        count(out, "llc_compute.chain_mem_warp_insts", self.chain_mem_warp_insts);
        count(out, "llc_compute.chains", self.chains);
        count(out, "llc_compute.static_chains", self.static_chains);
    }
}
