//! `[hooks.tfb]`: P-, G- and F-TFB in the GPU model, through the SM's issue hook
//! (`golden::gpu::hooks::IssueHook`): the scoreboard decision of spec §1.7 and a BDIB
//! of `depth` entries per warp with the drain rules of §2.7–2.9 (one drained entry per
//! cycle when the LD/ST unit is free, round robin over warps whose barrier has
//! completed, §2.9) and the WAR check of §2.10.
//!
//! ```toml
//! [hooks.tfb]
//! mode = "f"      # "p", "g" or "f"; "drain" attaches nothing (the baseline)
//! depth = 2       # entries per warp, 1..=5 (G and F)
//! ```
//!
//! Fences (§2.11): G and F buffer a fence during a barrier (or behind buffered entries)
//! as a FENCE entry; when it drains, no younger entry of the warp drains until the SM
//! reports the fence done (`fence_done`, DRAIN_F of §2.7 T9). Differences from §2.11:
//! P-TFB blocks a fence during a barrier instead of executing it (the SM's warp is
//! either at a barrier or in a fence, not both), and a drained fence stops the warp's
//! issue until it completes, ALU work included (the SM's drain fence, §2.2), where the
//! spec's fence bit would hold only shared-class instructions.
//! Barriers during a barrier are buffered as BAR_MARKERs in G/F (§2.11) and block in P.

use std::collections::VecDeque;

use serde::Deserialize;

use super::config::{Cls, Variant, MAX_DEPTH};
use crate::config::{check_range, FieldError};
use crate::gpu::config::GpuConfig;
use crate::gpu::hooks::{count, params, Deferred, HookBlock, HookCounters, HookSet, IssueDecision, IssueHook, IssueTaps, WarpView};
use crate::gpu::ptx::{Inst, Op, Space, Src};

pub const BLOCK: HookBlock = HookBlock { name: "tfb", attach };

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    mode: String,
    #[serde(default = "default_depth")]
    depth: u32,
}

fn default_depth() -> u32 {
    2
}

fn attach(cfg: &GpuConfig, table: &toml::Table, set: &mut HookSet) -> Result<(), FieldError> {
    let p: Params = params("tfb", table)?;
    check_range("hooks.tfb.depth", p.depth, 1, MAX_DEPTH)?;
    let _ = cfg;
    if p.mode == "drain" {
        // the baseline drain barrier: no hook at all (a study's knob can name it)
        return Ok(());
    }
    let mode = Variant::ALL
        .into_iter()
        .find(|v| v.name() == p.mode)
        .ok_or_else(|| FieldError::new("hooks.tfb.mode", format!("`{}` is not a TFB variant", p.mode), Some("one of \"drain\", \"p\", \"g\", \"f\"".into())))?;
    set.set_issue("tfb", |_| Box::new(TfbHook::new(mode, p.depth as usize)))
}

/// The class of a PTX instruction as the BDIB sees it (§1.7; None: ALU and control).
pub fn class(inst: &Inst) -> Option<Cls> {
    match inst.op {
        Op::Ld { space, .. } | Op::St { space, .. } | Op::Atom { space, .. } | Op::Red { space, .. } => Some(match space {
            Space::Global => Cls::Global,
            // generic addresses count as scratch (worst case, §2.11)
            Space::Shared | Space::Generic => Cls::Scratch,
            Space::Local => Cls::Priv,
            Space::Param => Cls::Ro,
        }),
        Op::Tex => Some(Cls::Ro),
        Op::Membar(_) => Some(Cls::Fence),
        Op::Bar | Op::BarArrive => Some(Cls::Barrier),
        _ => None,
    }
}

/// One SM's TFB: per-warp FIFOs of deferred instructions with the registers they read.
pub struct TfbHook {
    mode: Variant,
    depth: usize,
    /// Per warp: deferred instructions with the registers they read and whether each
    /// is a fence.
    q: Vec<VecDeque<(Deferred, Vec<u16>, bool)>>,
    /// Per warp: the cycle the warp's barrier completes (u64::MAX while waiting).
    bar_until: Vec<u64>,
    /// Per warp: the cycle its drained fence completes (u64::MAX while it runs, DRAIN_F).
    fence_until: Vec<u64>,
    pending_uses: Option<(Vec<u16>, bool)>,
    rr: usize,
    deferred: u64,
    drained: u64,
    issued_past: u64,
    war_blocks: u64,
    full_blocks: u64,
}

impl TfbHook {
    pub fn new(mode: Variant, depth: usize) -> TfbHook {
        TfbHook {
            mode,
            depth,
            q: Vec::new(),
            bar_until: Vec::new(),
            fence_until: Vec::new(),
            pending_uses: None,
            rr: 0,
            deferred: 0,
            drained: 0,
            issued_past: 0,
            war_blocks: 0,
            full_blocks: 0,
        }
    }

    fn grow(&mut self, w: usize) {
        if self.q.len() <= w {
            self.q.resize_with(w + 1, VecDeque::new);
            self.bar_until.resize(w + 1, 0);
            self.fence_until.resize(w + 1, 0);
        }
    }
}

impl IssueHook for TfbHook {
    fn taps(&self) -> IssueTaps {
        IssueTaps { past_barrier: true, ..Default::default() }
    }

    fn decide(&mut self, _now: u64, w: &WarpView, inst: &Inst) -> IssueDecision {
        let slot = w.slot as usize;
        self.grow(slot);
        let q = self.q[slot].len();
        debug_assert_eq!(q as u32, w.deferred, "the SM and the hook agree on the buffer");
        let defs = &inst.sb_def[..inst.n_def as usize];
        if q > 0 && self.q[slot].iter().any(|(_, uses, _)| defs.iter().any(|d| uses.contains(d))) {
            self.war_blocks += 1;
            return IssueDecision::Block;
        }
        if w.named_barrier {
            // named and partial barriers fall back to drain (§2.11)
            return IssueDecision::Block;
        }
        let pend = w.at_barrier;
        if !pend && q == 0 {
            return IssueDecision::Issue;
        }
        let c = class(inst);
        if matches!(inst.op, Op::Exit | Op::Ret) {
            return IssueDecision::Block;
        }
        let c = match c {
            None | Some(Cls::Priv) | Some(Cls::Ro) => {
                self.issued_past += pend as u64;
                return IssueDecision::Issue;
            }
            Some(c) => c,
        };
        // named/partial barriers fall back to drain (§2.11): not buffered; P blocks
        // fences (module doc)
        let named = matches!(inst.a[1], Src::Imm(id) if id != 0) || matches!(inst.a[0], Src::Imm(_));
        if matches!(inst.op, Op::BarArrive) || (inst.op == Op::Bar && named) || self.mode == Variant::P {
            return IssueDecision::Block;
        }
        if q == self.depth {
            self.full_blocks += 1;
            return IssueDecision::Block;
        }
        if pend && c == Cls::Scratch && self.mode == Variant::G {
            return IssueDecision::Block;
        }
        self.pending_uses = Some((inst.sb_use[..inst.n_use as usize].to_vec(), c == Cls::Fence));
        IssueDecision::Defer
    }

    fn defer(&mut self, _now: u64, d: Deferred) {
        let (uses, fence) = self.pending_uses.take().expect("decide said Defer");
        let w = d.warp as usize;
        self.grow(w);
        self.q[w].push_back((d, uses, fence));
        self.deferred += 1;
    }

    fn drain(&mut self, now: u64, lsu_free: bool) -> Option<Deferred> {
        let n = self.q.len();
        if !lsu_free || n == 0 {
            return None;
        }
        let w = (0..n).map(|k| (self.rr + k) % n).find(|&w| !self.q[w].is_empty() && now >= self.bar_until[w] && now >= self.fence_until[w])?;
        self.rr = (w + 1) % n;
        self.drained += 1;
        let (d, _, fence) = self.q[w].pop_front().expect("a non-empty FIFO");
        if fence {
            // DRAIN_F until the SM reports the fence done
            self.fence_until[w] = u64::MAX;
        }
        Some(d)
    }

    fn barrier_arrive(&mut self, _now: u64, warp: u16, _cta: u16) {
        let w = warp as usize;
        self.grow(w);
        self.bar_until[w] = u64::MAX;
    }

    fn barrier_release(&mut self, _now: u64, warp: u16, resume_at: u64) {
        let w = warp as usize;
        self.grow(w);
        self.bar_until[w] = resume_at;
    }

    fn fence_done(&mut self, _now: u64, warp: u16, resume_at: u64) {
        let w = warp as usize;
        self.grow(w);
        self.fence_until[w] = resume_at;
    }

    fn counters(&self, out: &mut HookCounters) {
        count(out, "tfb.deferred", self.deferred);
        count(out, "tfb.drained", self.drained);
        count(out, "tfb.issued_past_barrier", self.issued_past);
        count(out, "tfb.war_blocks", self.war_blocks);
        count(out, "tfb.full_blocks", self.full_blocks);
    }
}
