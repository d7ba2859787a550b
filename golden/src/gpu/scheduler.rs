//! Warp schedulers (tfb_bdib.md §2.14; GPGPU-Sim `scheduler_unit`): loose round robin,
//! greedy-then-oldest, and the barrier-aware MWF and fMWF, which rank warps by a key
//! (higher first, [`barrier_key`]) and break ties in GTO order. Warp slot `w` belongs to
//! scheduler `w % schedulers` (as in GPGPU-Sim). Age is the order in which warps were
//! launched; ties cannot occur.

use super::config::SchedulerPolicy;

#[derive(Debug, Clone)]
pub struct WarpScheduler {
    pub policy: SchedulerPolicy,
    /// Warp slots this scheduler owns that hold a live warp, oldest first.
    pub warps: Vec<u16>,
    /// Warp that issued last (GTO greedy warp, LRR position).
    pub last: Option<u16>,
    /// Bit `i` set: `warps[i]` is not parked (the SM's scan passes over parked warps,
    /// [`super::core::Sm`]); kept for the first 64 positions.
    pub unparked: u64,
}

impl WarpScheduler {
    pub fn new(policy: SchedulerPolicy) -> Self {
        WarpScheduler { policy, warps: Vec::with_capacity(64), last: None, unparked: 0 }
    }

    /// A newly launched warp is the youngest (and not parked).
    pub fn add(&mut self, w: u16) {
        self.warps.push(w);
        self.set_unparked(w, true);
    }

    pub fn remove(&mut self, w: u16) {
        if let Some(i) = self.warps.iter().position(|&x| x == w) {
            self.warps.remove(i);
            if i < 64 {
                // the positions above `i` move down by one
                let below = self.unparked & ((1u64 << i) - 1);
                let above = if i == 63 { 0 } else { (self.unparked >> (i + 1)) << i };
                self.unparked = below | above;
            }
        }
        if self.last == Some(w) {
            self.last = None;
        }
    }

    /// Mark warp `w` parked or not (in [`Self::unparked`]).
    #[inline]
    pub fn set_unparked(&mut self, w: u16, unparked: bool) {
        if let Some(i) = self.warps.iter().position(|&x| x == w).filter(|&i| i < 64) {
            if unparked {
                self.unparked |= 1 << i;
            } else {
                self.unparked &= !(1 << i);
            }
        }
    }

    /// Whether the order depends on barrier state ([`Self::order_keyed`]).
    pub fn keyed(&self) -> bool {
        matches!(self.policy, SchedulerPolicy::Mwf | SchedulerPolicy::Fmwf)
    }

    /// MWF / fMWF: the GTO order, stably sorted by `key` (higher first).
    pub fn order_keyed(&self, out: &mut Vec<u16>, key: impl Fn(u16) -> u32) {
        self.order(out);
        out.sort_by_key(|&w| std::cmp::Reverse(key(w)));
    }

    /// Fill `out` with this cycle's priority order (MWF and fMWF without their keys:
    /// GTO).
    #[inline]
    pub fn order(&self, out: &mut Vec<u16>) {
        out.clear();
        match self.policy {
            SchedulerPolicy::Gto | SchedulerPolicy::Mwf | SchedulerPolicy::Fmwf => {
                if let Some(g) = self.last {
                    out.push(g);
                    out.extend(self.warps.iter().copied().filter(|&w| w != g));
                } else {
                    out.extend_from_slice(&self.warps);
                }
            }
            SchedulerPolicy::Lrr => {
                let start = match self.last {
                    Some(l) => self.warps.iter().position(|&w| w == l).map_or(0, |i| i + 1),
                    None => 0,
                };
                let n = self.warps.len();
                for k in 0..n {
                    out.push(self.warps[(start + k) % n]);
                }
            }
        }
    }
}

/// The priority key of a warp under MWF or fMWF (tfb_bdib.md §2.14): `in_bar`, the warp
/// has arrived at a barrier that has not completed for it; `at`, warps of its CTA in
/// that state; `past`, warps of its CTA past their barrier with entries still buffered
/// (DRAIN, [OC] counted as "past"). MWF: `at`. fMWF: 0 for a warp at the barrier (as a
/// warp of a CTA without a barrier), else `at + past`. GTO and LRR: 0.
pub fn barrier_key(policy: SchedulerPolicy, in_bar: bool, at: u32, past: u32) -> u32 {
    match policy {
        SchedulerPolicy::Mwf => at,
        SchedulerPolicy::Fmwf if in_bar => 0,
        SchedulerPolicy::Fmwf => at + past,
        SchedulerPolicy::Gto | SchedulerPolicy::Lrr => 0,
    }
}
