//! Random legal traffic for the BDIB: warp programs, the scoreboard's §1.7 decision,
//! the single memory-path issue port, and the barrier unit and memory pipeline that
//! answer with `eaf_done` and `fence_done` (spec §2.3, §2.7 T1–T5, §5.5 item 10).
//!
//! The barrier unit follows the per-warp FSM of §2.7 on its side: a warp enters
//! ENTRY when its barrier reaches the memory port (pass-through or BAR_MARKER pop),
//! WAIT when its ERF completes after a random latency, and when every warp of its
//! threadblock waits, all of them move to EXIT together (`start_exit`, T3); each EAF
//! completes after its own random latency with an `eaf_done` pulse (T4/T5).
//!
//! Payload convention (opaque to the block, read by the scoreboard's WAR-safety
//! check): bits `[0, REG_W)` the destination register, bit `REG_W` "has a
//! destination", the bits above a per-warp sequence tag.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bdib::{decide, Bdib, BdibIn, BdibOut, Decision, Entry};
use super::config::{Cls, TfbConfig};
use crate::model::Stimulus;

/// The destination register a traffic payload names, if any.
pub fn payload_dst(reg_w: u32, payload: u128) -> Option<u8> {
    ((payload >> reg_w) & 1 == 1).then_some((payload & ((1u128 << reg_w) - 1)) as u8)
}

/// A payload carrying destination `dst` and sequence tag `seq`.
pub fn payload(cfg: &TfbConfig, dst: Option<u8>, seq: u64, fill: u128) -> u128 {
    let tag_lsb = cfg.reg_w + 1;
    let mut p = (fill << tag_lsb) ^ ((seq as u128) << tag_lsb);
    if let Some(r) = dst {
        p |= (r as u128) | (1u128 << cfg.reg_w);
    }
    p & cfg.payload_mask()
}

/// Knobs of the random traffic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrafficParams {
    /// Warps per threadblock (must divide NUM_WARPS).
    pub tb_warps: usize,
    /// Probability that `mem_ready` is high in a cycle.
    pub p_ready: f64,
    /// Mean instructions between barriers of a warp.
    pub bar_interval: u32,
    /// Latencies (uniform 1..=max).
    pub erf_max: u32,
    pub eaf_max: u32,
    pub fence_max: u32,
    /// Registers the programs use (small: WAR hazards happen).
    pub regs: u8,
}

impl TrafficParams {
    pub fn for_config(cfg: &TfbConfig) -> Self {
        let n = cfg.n();
        let tb_warps = (1..=n.min(8)).rev().find(|&k| n.is_multiple_of(k)).unwrap_or(1);
        TrafficParams { tb_warps, p_ready: 0.85, bar_interval: 10, erf_max: 12, eaf_max: 24, fence_max: 30, regs: 8.min(cfg.reg_mask()) }
    }
}

/// The barrier unit's view of a warp (spec §2.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarState {
    Run,
    /// ERF outstanding, cycles left.
    Entry(u32),
    Wait,
    /// EAF outstanding, cycles left.
    Exit(u32),
}

/// One warp instruction of a program.
#[derive(Debug, Clone, Copy)]
struct Instr {
    /// None: ALU/control (not on the memory path).
    cls: Option<Cls>,
    e: Entry,
    dst: Option<u8>,
}

/// The random traffic: programs, schedulers, barrier unit and memory pipeline.
pub struct BdibTraffic {
    cfg: TfbConfig,
    p: TrafficParams,
    rng: Xoshiro256PlusPlus,
    /// Each warp's next instruction (program order).
    next: Vec<Instr>,
    seq: Vec<u64>,
    since_bar: Vec<u32>,
    pub bar: Vec<BarState>,
    /// Outstanding BDIB fence per warp (cycles left).
    fence: Vec<Option<u32>>,
    /// A pass-through fence in flight: the scoreboard's fence bit (§2.2).
    pass_fence: Vec<u32>,
    /// Last cycle's inputs (to see which transfers happened).
    last: Option<BdibIn>,
    /// Wind down: a warp issues only until it has issued as many barriers as the
    /// furthest warp of its threadblock, so every barrier completes and the
    /// buffers drain (kernel end, INV-3).
    pub quiesce: bool,
    /// Barriers each warp has issued.
    bars_issued: Vec<u64>,
    /// Instructions retired per class (ALU counted under None).
    pub alu_issued: u64,
}

impl BdibTraffic {
    pub fn new(cfg: &TfbConfig, p: TrafficParams, seed: u64) -> Self {
        assert!(cfg.n().is_multiple_of(p.tb_warps), "threadblocks of {} warps do not tile {} warps", p.tb_warps, cfg.n());
        let n = cfg.n();
        let mut t = BdibTraffic {
            cfg: cfg.clone(),
            p,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            next: Vec::new(),
            seq: vec![0; n],
            since_bar: vec![0; n],
            bar: vec![BarState::Run; n],
            fence: vec![None; n],
            pass_fence: vec![0; n],
            last: None,
            quiesce: false,
            bars_issued: vec![0; n],
            alu_issued: 0,
        };
        t.next = (0..n).map(|w| t.gen(w)).collect();
        t
    }

    /// Every warp idle at the barrier unit and no fence outstanding.
    pub fn settled(&self) -> bool {
        self.bar.iter().all(|b| *b == BarState::Run) && self.fence.iter().all(Option::is_none)
    }

    fn gen(&mut self, w: usize) -> Instr {
        let r = &mut self.rng;
        self.since_bar[w] += 1;
        let cls = if self.since_bar[w] >= self.p.bar_interval && r.random_bool(0.3) {
            self.since_bar[w] = 0;
            Some(Cls::Barrier)
        } else {
            match r.random_range(0..100) {
                0..=29 => None,
                30..=41 => Some(Cls::Priv),
                42..=49 => Some(Cls::Ro),
                50..=72 => Some(Cls::Global),
                73..=95 => Some(Cls::Scratch),
                _ => Some(Cls::Fence),
            }
        };
        let regs = self.p.regs.max(1);
        let dst = match cls {
            None | Some(Cls::Priv) | Some(Cls::Ro) | Some(Cls::Global) | Some(Cls::Scratch) if r.random_bool(0.5) => Some(r.random_range(0..regs)),
            _ => None,
        };
        let mut e = Entry::default();
        if let Some(c) = cls {
            e.cls = c.code();
            e.scope = r.random_range(0..3);
            for j in 0..self.cfg.nsrc as usize {
                e.src[j] = r.random_range(0..regs);
            }
            e.src_v = r.random_range(0..(1u32 << self.cfg.nsrc)) as u8;
            let fill: u128 = (r.random::<u64>() as u128) << 64 | r.random::<u64>() as u128;
            e.payload = payload(&self.cfg, dst, self.seq[w], fill);
        }
        self.seq[w] += 1;
        Instr { cls, e, dst }
    }

    /// The memory port and the barrier unit react to last cycle's transfers.
    fn observe_last(&mut self, prev: &BdibOut) {
        let Some(last) = self.last.take() else { return };
        if last.rst {
            return;
        }
        if last.iss_valid && prev.iss_ready {
            let w = last.iss_warp as usize;
            if self.next[w].e.cls == Cls::Fence.code() && !prev.mem_from_bdib && prev.mem_valid && prev.mem_warp as usize == w && last.mem_ready {
                // a fence that passed straight to the LSQ: the scoreboard's fence bit
                self.pass_fence[w] = self.rng.random_range(1..=self.p.fence_max);
            }
            self.bars_issued[w] += (self.next[w].cls == Some(Cls::Barrier)) as u64;
            self.next[w] = self.gen(w);
        }
        if prev.mem_valid && last.mem_ready {
            let w = prev.mem_warp as usize;
            if prev.mem_bar_arrive {
                debug_assert_eq!(self.bar[w], BarState::Run);
                self.bar[w] = BarState::Entry(self.rng.random_range(1..=self.p.erf_max));
            } else if prev.mem_from_bdib && prev.mem.cls == Cls::Fence.code() {
                self.fence[w] = Some(self.rng.random_range(1..=self.p.fence_max));
            }
        }
    }

    /// Advance the barrier unit and the fences; set this cycle's progress pulses.
    fn progress(&mut self, i: &mut BdibIn) {
        let n = self.cfg.n();
        for w in 0..n {
            i.eaf_done[w] = false;
            i.fence_done[w] = false;
            self.bar[w] = match self.bar[w] {
                BarState::Entry(1) => BarState::Wait,
                BarState::Entry(k) => BarState::Entry(k - 1),
                BarState::Exit(1) => {
                    i.eaf_done[w] = true;
                    BarState::Run
                }
                BarState::Exit(k) => BarState::Exit(k - 1),
                s => s,
            };
            self.fence[w] = match self.fence[w] {
                Some(1) => {
                    i.fence_done[w] = true;
                    None
                }
                Some(k) => Some(k - 1),
                None => None,
            };
            self.pass_fence[w] = self.pass_fence[w].saturating_sub(1);
        }
        // T3: start_exit(TB) when every warp of the threadblock has finished its ERF
        let tb = self.p.tb_warps;
        for t in 0..n / tb {
            if (t * tb..(t + 1) * tb).all(|w| self.bar[w] == BarState::Wait) {
                for w in t * tb..(t + 1) * tb {
                    self.bar[w] = BarState::Exit(self.rng.random_range(1..=self.p.eaf_max));
                }
            }
        }
    }
}

impl Stimulus<Bdib> for BdibTraffic {
    fn drive(&mut self, model: &Bdib, prev: &BdibOut, i: &mut BdibIn) {
        let n = self.cfg.n();
        self.observe_last(prev);
        i.rst = false;
        i.flush_valid = false;
        self.progress(i);
        i.mem_ready = self.rng.random_bool(self.p.p_ready);
        // schedulers: each picks a warp; ALU work issues on its own, memory-path
        // candidates compete for the one issue port; each scheduler's WAR query is
        // its candidate's destination
        i.iss_valid = false;
        let mut cands = Vec::new();
        for k in 0..self.cfg.schedulers as usize {
            let w = self.rng.random_range(0..n);
            let ins = self.next[w];
            let war = ins.dst.is_some_and(|r| model.war_hit(w, r));
            if k < i.warq_v.len() {
                i.warq_v[k] = ins.dst.is_some() || self.rng.random_bool(0.2);
                i.warq_warp[k] = w as u32;
                i.warq_dst[k] = ins.dst.unwrap_or_else(|| self.rng.random_range(0..self.p.regs.max(1)));
            }
            if self.quiesce {
                let t = w / self.p.tb_warps * self.p.tb_warps;
                let furthest = (t..t + self.p.tb_warps).map(|x| self.bars_issued[x]).max().unwrap_or(0);
                if self.bars_issued[w] >= furthest {
                    continue;
                }
            }
            let shared = ins.cls.is_some_and(Cls::bufferable);
            // the scoreboard's fence bit holds shared-class work; a barrier unit still
            // holding the warp (ERF/EAF of a pass-through barrier) is `in_bar` anyway
            if shared && self.pass_fence[w] > 0 {
                continue;
            }
            // P-TFB never lets a warp arrive at a barrier twice (§2.11), and no variant
            // re-arrives while the barrier unit still owns the warp's last arrival
            if ins.cls == Some(Cls::Barrier) && model.count(w) == 0 && self.bar[w] != BarState::Run {
                continue;
            }
            match decide(model, w, ins.cls, war) {
                Decision::Block => {}
                Decision::Exec if ins.cls.is_none() => {
                    self.alu_issued += 1;
                    self.next[w] = self.gen(w);
                }
                _ => cands.push(w),
            }
        }
        if let Some(&w) = cands.first() {
            i.iss_valid = true;
            i.iss_warp = w as u32;
            i.iss = self.next[w].e;
        }
        self.last = Some(i.clone());
    }
}
