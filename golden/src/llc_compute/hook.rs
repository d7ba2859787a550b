//! LLC-Compute in the GPU model (`[hooks.llc_compute]`): for now its compiler side alone.
//!
//! ```toml
//! [hooks.llc_compute]
//! mode = "profile"   # tag each kernel's chains and count them as they issue
//! ```
//!
//! `profile` runs the [`super::tagger`] on every kernel as it starts on an SM and counts,
//! at the issue stage, the warp instructions that belong to a tagged chain (spec §7
//! study 5, the paper's Table 3: tagged chain instructions over all dynamic instructions,
//! chain memory requests over all memory requests). It changes nothing: every decision
//! is the baseline's, so cycles and results equal a run without the hook (a test). The
//! offloading modes (`llc`, `omni`: the OQ, SQ and ComputePackets in the GPU, spec §2.5)
//! are not modelled yet and are refused with that message.
//!
//! Counters (summed over SMs, `hooks` in the run report): `llc_compute.warp_insts`,
//! `llc_compute.chain_warp_insts`, `llc_compute.mem_warp_insts`,
//! `llc_compute.chain_mem_warp_insts` (`.global` loads, stores and atomics, counted per
//! warp instruction),
//! `llc_compute.chains` (dynamic chain instances: a chain's last instruction issued) and
//! `llc_compute.static_chains` (the tagger's chains, per kernel start on an SM).

use serde::Deserialize;

use super::tagger::find_chains;
use crate::config::FieldError;
use crate::gpu::config::GpuConfig;
use crate::gpu::hooks::{count, params, HookBlock, HookCounters, HookSet, IssueDecision, IssueHook, IssueTaps, WarpView};
use crate::gpu::ptx::{Inst, Kernel, Op, Space};

pub const BLOCK: HookBlock = HookBlock { name: "llc_compute", attach };

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    mode: String,
}

fn attach(_cfg: &GpuConfig, table: &toml::Table, set: &mut HookSet) -> Result<(), FieldError> {
    let p: Params = params("llc_compute", table)?;
    match p.mode.as_str() {
        "profile" => set.set_issue("llc_compute", |_| Box::new(ChainProfile::default())),
        "llc" | "omni" => Err(FieldError::new(
            "hooks.llc_compute.mode",
            format!("`{}`: offloading in the GPU model (spec 2.5, the OQ and SQ attached to the SMs and partitions) is not modelled yet", p.mode),
            Some("\"profile\"".into()),
        )),
        m => Err(FieldError::new("hooks.llc_compute.mode", format!("`{m}` is not a mode"), Some("\"profile\"".into()))),
    }
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
