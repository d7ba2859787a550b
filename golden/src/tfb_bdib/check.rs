//! An independent scoreboard of the BDIB invariants (spec §5.4) and ordering
//! guarantees (§2.12), over the ports of `tfb_bdib` only.
//!
//! It shares no code with [`super::bdib`]: it classifies every cycle's transfers from
//! the handshakes (an accepted issue that does not appear on the memory port as a
//! pass-through was pushed), keeps its own shadow FIFO per warp with the program-order
//! index and the barrier epoch each entry must wait for, counts barrier arrivals and
//! `eaf_done` pulses, and re-derives the round-robin grant, the stall, the status bits
//! and the WAR answers from that shadow.
//!
//! Checked: INV-1 no early release (G1), INV-2 per-warp FIFO (G2), INV-3 no loss or
//! duplication, bit-exact payloads, INV-4 bounds, INV-5 full exactness, INV-6 stall
//! exactness, INV-7 no bypass (G3), INV-8 variant legality, INV-9 `in_bar`
//! discipline, INV-10 drain gating, INV-11 fence order (G5), INV-12 liveness (exact
//! round-robin grant; watchdog on barriers), INV-13 WAR answers and WAR safety of
//! accepted instructions (§2.10), INV-14 reset, and G3's program order of every
//! shared-class op of a warp whichever route it took.

use std::collections::VecDeque;

use super::bdib::{BdibIn, BdibOut, Entry};
use super::config::{Cls, TfbConfig, Variant};
use super::traffic::payload_dst;
use crate::invariant::Violation;
use crate::model::Scoreboard;

#[derive(Debug, Clone)]
struct Shadow {
    e: Entry,
    /// Program-order index among the warp's shared-class ops.
    order: u64,
    /// The number of `eaf_done` pulses of the warp that must precede its pop.
    epoch: u64,
}

#[derive(Debug, Clone, Default)]
struct WarpShadow {
    q: VecDeque<Shadow>,
    in_bar: bool,
    fence_wait: bool,
    /// Barrier arrivals dispatched (pass-through or marker pops).
    arrivals: u64,
    /// `eaf_done` pulses seen.
    eafs: u64,
    /// Shared-class ops accepted / dispatched to memory (program order).
    issued: u64,
    dispatched: u64,
    /// Consecutive cycles in a barrier.
    bar_cycles: u64,
    /// Consecutive cycles requesting a drain with `mem_ready` high, ungranted.
    starve: u64,
}

/// Counts over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct BdibStats {
    pub cycles: u64,
    pub issued: u64,
    pub passed: u64,
    pub pushed: u64,
    pub popped: u64,
    pub flushed: u64,
    pub barriers: u64,
    pub marker_pops: u64,
    pub fence_pops: u64,
    pub full_cycles: u64,
    pub stall_cycles: u64,
    pub war_hits: u64,
    pub max_count: u32,
}

/// The scoreboard.
#[derive(Debug, Clone)]
pub struct BdibChecker {
    n: usize,
    d: usize,
    nsrc: usize,
    mode: Variant,
    watchdog: u64,
    reg_w: u32,
    w: Vec<WarpShadow>,
    rr: usize,
    /// Decode the traffic's destination tag from payloads for the WAR-safety check.
    pub check_war_payload: bool,
    pub stats: BdibStats,
}

fn v(cycle: u64, invariant: &'static str, detail: String) -> Violation {
    Violation { cycle, invariant, detail }
}

impl BdibChecker {
    pub fn new(cfg: &TfbConfig) -> Self {
        BdibChecker {
            n: cfg.n(),
            d: cfg.d(),
            nsrc: cfg.nsrc as usize,
            mode: cfg.mode,
            watchdog: cfg.watchdog as u64,
            reg_w: cfg.reg_w,
            w: vec![WarpShadow::default(); cfg.n()],
            rr: 0,
            check_war_payload: true,
            stats: BdibStats::default(),
        }
    }

    fn drain_req(&self, w: usize) -> bool {
        let s = &self.w[w];
        !s.in_bar && !s.fence_wait && !s.q.is_empty()
    }

    fn reads(&self, e: &Entry, r: u8) -> bool {
        (0..self.nsrc).any(|j| (e.src_v >> j) & 1 == 1 && e.src[j] == r)
    }

    /// INV-3 at kernel end: every queue empty and no warp in a barrier.
    pub fn finish(&self, cycle: u64) -> Result<(), Violation> {
        for (w, s) in self.w.iter().enumerate() {
            if !s.q.is_empty() || s.in_bar {
                return Err(v(cycle, "3 no loss at kernel end", format!("warp {w}: {} entries left, in_bar {}", s.q.len(), s.in_bar)));
            }
        }
        Ok(())
    }

    /// Total entries the shadow holds (INV-3: pushes - pops - flushed).
    pub fn buffered(&self) -> u64 {
        self.w.iter().map(|s| s.q.len() as u64).sum()
    }

    fn check(&mut self, c: u64, i: &BdibIn, o: &BdibOut) -> Result<(), Violation> {
        let n = self.n;
        // ---- status bits against the shadow (INV-4, INV-5, INV-9)
        for w in 0..n {
            let s = &self.w[w];
            let len = s.q.len();
            if o.dbg_count[w] as usize != len || o.warp_full[w] != (len == self.d) || o.warp_nonempty[w] != (len != 0) {
                return Err(v(
                    c,
                    "5 full exactness",
                    format!("warp {w}: count {} full {} nonempty {}, shadow holds {len} of {}", o.dbg_count[w], o.warp_full[w], o.warp_nonempty[w], self.d),
                ));
            }
            if o.warp_in_bar[w] != s.in_bar {
                return Err(v(c, "9 in_bar discipline", format!("warp {w}: warp_in_bar {} but the shadow says {}", o.warp_in_bar[w], s.in_bar)));
            }
            if o.dbg_fence_wait[w] != s.fence_wait {
                return Err(v(c, "11 fence order", format!("warp {w}: fence_wait {} but the shadow says {}", o.dbg_fence_wait[w], s.fence_wait)));
            }
            if i.eaf_done[w] && !s.in_bar {
                return Err(v(c, "9 in_bar discipline", format!("eaf_done[{w}] while warp {w} is not in a barrier")));
            }
        }
        // ---- stall and grant (INV-6, INV-12)
        let want_grant = (0..n).map(|k| (self.rr + k) % n).find(|&w| self.drain_req(w));
        if o.mem_issue_stall != want_grant.is_some() || o.mem_from_bdib != o.mem_issue_stall {
            return Err(v(
                c,
                "6 stall exactness",
                format!(
                    "mem_issue_stall {} mem_from_bdib {}, shadow drain requests {:?}",
                    o.mem_issue_stall,
                    o.mem_from_bdib,
                    (0..n).filter(|&w| self.drain_req(w)).collect::<Vec<_>>()
                ),
            ));
        }
        if let Some(g) = want_grant {
            if !o.mem_valid || o.mem_warp as usize != g {
                return Err(v(
                    c,
                    "12 liveness (round-robin grant)",
                    format!("drain port carries warp {} (valid {}), round-robin from {} grants warp {g}", o.mem_warp, o.mem_valid, self.rr),
                ));
            }
        }
        if o.mem_bar_arrive != (o.mem_valid && o.mem.cls == Cls::Barrier.code()) {
            return Err(v(c, "9 in_bar discipline", format!("mem_bar_arrive {} for class {} (valid {})", o.mem_bar_arrive, o.mem.cls, o.mem_valid)));
        }
        // ---- WAR answers (INV-13)
        for k in 0..o.warq_hit.len() {
            let w = i.warq_warp[k] as usize;
            let want = i.warq_v[k] && w < n && self.w[w].q.iter().any(|s| self.reads(&s.e, i.warq_dst[k]));
            if o.warq_hit[k] != want {
                return Err(v(c, "13 WAR safety", format!("warq_hit[{k}] = {} for warp {w} r{}, shadow says {want}", o.warq_hit[k], i.warq_dst[k])));
            }
            self.stats.war_hits += want as u64;
        }

        // ---- this cycle's transfers
        let iss_fire = i.iss_valid && o.iss_ready;
        let mem_fire = o.mem_valid && i.mem_ready;
        let pass = mem_fire && !o.mem_from_bdib;
        let pop = mem_fire && o.mem_from_bdib;
        if o.mem_issue_stall && i.mem_ready && !pop {
            return Err(v(c, "6 stall exactness", "mem_issue_stall with mem_ready but no pop".into()));
        }
        if pass && !(iss_fire && o.mem == i.iss && o.mem_warp == i.iss_warp) {
            return Err(v(
                c,
                "3 no loss or duplication",
                format!("pass-through dispatch of warp {} is not the accepted issue (issue valid {} ready {})", o.mem_warp, i.iss_valid, o.iss_ready),
            ));
        }
        let push = iss_fire && !pass;
        let iw = i.iss_warp as usize;
        if iss_fire {
            self.stats.issued += 1;
            if iw >= n {
                return Err(v(c, "3 no loss or duplication", format!("accepted an issue for warp {iw} of {n}")));
            }
            let cls = Cls::from_code(i.iss.cls);
            let s = &self.w[iw];
            // §2.10: the accepted instruction must not overwrite a register a buffered
            // entry of its warp still has to read
            if self.check_war_payload {
                if let Some(r) = payload_dst(self.reg_w, i.iss.payload) {
                    if s.q.iter().any(|x| self.reads(&x.e, r)) {
                        return Err(v(c, "13 WAR safety", format!("warp {iw} issued a write of r{r} while a buffered entry reads it")));
                    }
                }
            }
            let shared = cls.is_some_and(Cls::bufferable);
            if pass && shared {
                if self.mode.buffers() && (s.in_bar || !s.q.is_empty()) {
                    return Err(v(c, "7 no bypass", format!("warp {iw}: {:?} passed while in_bar {} with {} entries buffered", cls.unwrap(), s.in_bar, s.q.len())));
                }
                if self.mode == Variant::P && s.in_bar && cls != Some(Cls::Fence) {
                    return Err(v(c, "8 variant legality", format!("P-TFB: warp {iw} dispatched {:?} during its barrier", cls.unwrap())));
                }
            }
            if push {
                if !self.mode.buffers() {
                    return Err(v(c, "8 variant legality", format!("P-TFB buffered an instruction of warp {iw}")));
                }
                if !shared || (!s.in_bar && s.q.is_empty()) {
                    return Err(v(c, "7 no bypass", format!("warp {iw}: class {} buffered outside a barrier/drain (in_bar {}, {} entries)", i.iss.cls, s.in_bar, s.q.len())));
                }
                if s.q.len() >= self.d {
                    return Err(v(c, "4 bounds", format!("push into warp {iw}'s full FIFO ({} of {})", s.q.len(), self.d)));
                }
                if self.mode == Variant::G && s.in_bar && cls == Some(Cls::Scratch) {
                    return Err(v(c, "8 variant legality", format!("G-TFB buffered a scratch op of warp {iw} during its barrier")));
                }
            }
        }
        // pass-through: the next shared op in program order goes to memory now
        if pass {
            self.stats.passed += 1;
            if Cls::from_code(i.iss.cls).is_some_and(Cls::bufferable) {
                let s = &mut self.w[iw];
                if s.dispatched != s.issued {
                    return Err(v(c, "7 no bypass", format!("warp {iw}: shared op {} reached memory before {} older ones", s.issued, s.issued - s.dispatched)));
                }
                s.issued += 1;
                s.dispatched += 1;
            }
            if i.iss.cls == Cls::Barrier.code() {
                self.arrive(c, iw)?;
            }
        }
        if pop {
            let g = o.mem_warp as usize;
            let s = &mut self.w[g];
            let Some(head) = s.q.pop_front() else {
                return Err(v(c, "3 no loss or duplication", format!("pop of warp {g}, whose shadow FIFO is empty")));
            };
            if s.in_bar || s.fence_wait {
                return Err(v(c, "10 drain gating", format!("pop of warp {g} with in_bar {} fence_wait {}", s.in_bar, s.fence_wait)));
            }
            if head.e != o.mem {
                return Err(v(c, "2 per-warp FIFO", format!("warp {g} popped {:?}, its oldest entry is {:?}", o.mem, head.e)));
            }
            if s.eafs < head.epoch {
                return Err(v(c, "1 no early release", format!("warp {g}: entry pops after {} EAFs, it waits for EAF {}", s.eafs, head.epoch)));
            }
            if head.order != s.dispatched {
                return Err(v(c, "7 no bypass", format!("warp {g}: buffered op {} reached memory, next in program order is {}", head.order, s.dispatched)));
            }
            s.dispatched += 1;
            s.starve = 0;
            self.stats.popped += 1;
            if head.e.cls == Cls::Fence.code() {
                s.fence_wait = true;
                self.stats.fence_pops += 1;
            }
            self.rr = (g + 1) % n;
            if head.e.cls == Cls::Barrier.code() {
                self.stats.marker_pops += 1;
                self.arrive(c, g)?;
            }
        }
        if push {
            let s = &mut self.w[iw];
            let markers = s.q.iter().filter(|x| x.e.cls == Cls::Barrier.code()).count() as u64;
            let epoch = s.arrivals + markers;
            s.q.push_back(Shadow { e: i.iss, order: s.issued, epoch });
            s.issued += 1;
            self.stats.pushed += 1;
        }
        // ---- progress inputs take effect at the edge
        for w in 0..n {
            let s = &mut self.w[w];
            if i.eaf_done[w] {
                s.in_bar = false;
                s.eafs += 1;
            }
            if i.fence_done[w] {
                s.fence_wait = false;
            }
        }
        let fw = i.flush_warp as usize;
        if i.flush_valid && fw < n {
            let s = &mut self.w[fw];
            self.stats.flushed += s.q.len() as u64;
            s.q.clear();
            s.in_bar = false;
            s.fence_wait = false;
            s.dispatched = s.issued;
            s.eafs = s.arrivals;
        }
        // ---- liveness
        for w in 0..n {
            let req = self.drain_req(w);
            let s = &mut self.w[w];
            s.bar_cycles = if s.in_bar { s.bar_cycles + 1 } else { 0 };
            if s.bar_cycles > self.watchdog {
                return Err(v(c, "12 liveness", format!("warp {w} has been in a barrier for {} cycles", s.bar_cycles)));
            }
            if req && i.mem_ready && !(pop && o.mem_warp as usize == w) {
                s.starve += 1;
                if s.starve > n as u64 {
                    return Err(v(c, "12 liveness", format!("warp {w} requested a drain {} ready cycles without a grant", s.starve)));
                }
            }
            self.stats.max_count = self.stats.max_count.max(s.q.len() as u32);
            self.stats.full_cycles += (s.q.len() == self.d) as u64;
        }
        self.stats.stall_cycles += o.mem_issue_stall as u64;
        Ok(())
    }

    /// A barrier arrival of warp `w` reached the memory path (T1 or T8).
    fn arrive(&mut self, c: u64, w: usize) -> Result<(), Violation> {
        let s = &mut self.w[w];
        if s.in_bar {
            return Err(v(c, "9 in_bar discipline", format!("warp {w} arrived at a barrier while still in one")));
        }
        s.in_bar = true;
        s.arrivals += 1;
        self.stats.barriers += 1;
        Ok(())
    }
}

impl Scoreboard<super::bdib::Bdib> for BdibChecker {
    fn observe(&mut self, cycle: u64, i: &BdibIn, o: &BdibOut) -> Result<(), Violation> {
        self.stats.cycles = cycle + 1;
        if i.rst {
            // INV-14: the reset leaves everything empty; the shadow starts over
            let (check_war, stats) = (self.check_war_payload, self.stats.clone());
            *self = BdibChecker { w: vec![WarpShadow::default(); self.n], rr: 0, check_war_payload: check_war, stats, ..self.clone() };
            return Ok(());
        }
        self.check(cycle, i, o)
    }
}
