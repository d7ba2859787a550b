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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gto_prefers_last_then_oldest() {
        let mut s = WarpScheduler::new(SchedulerPolicy::Gto);
        for w in [4, 0, 2] {
            s.add(w);
        }
        let mut o = Vec::new();
        s.order(&mut o);
        assert_eq!(o, vec![4, 0, 2]);
        s.last = Some(2);
        s.order(&mut o);
        assert_eq!(o, vec![2, 4, 0]);
    }

    #[test]
    fn lrr_rotates() {
        let mut s = WarpScheduler::new(SchedulerPolicy::Lrr);
        for w in [0, 2, 4] {
            s.add(w);
        }
        let mut o = Vec::new();
        s.last = Some(2);
        s.order(&mut o);
        assert_eq!(o, vec![4, 0, 2]);
    }

    /// Four warps launched 0, 1, 2, 3 (oldest first), warp 3 issued last. Warps 0 and 1
    /// are CTA A, with warp 0 at a barrier; warps 2 and 3 are CTA B, both running, and
    /// B has one warp (not on this scheduler) at its barrier and one past it. By hand:
    /// GTO order 3, 0, 1, 2.
    /// MWF keys (warps at a barrier in the CTA): A 1, B 1 -> all equal: 3, 0, 1, 2.
    /// fMWF keys: warp 0 at the barrier -> 0; warp 1 -> A's 1 at + 0 past = 1; warps
    /// 2, 3 -> B's 1 at + 1 past = 2: 3, 2 (key 2, GTO order), 1 (key 1), 0 (key 0).
    #[test]
    fn mwf_and_fmwf_by_hand() {
        // (warp, cta, in_bar); CTA A = 0: at 1, past 0; CTA B = 1: at 1, past 1
        let warps = [(0u16, 0usize, true), (1, 0, false), (2, 1, false), (3, 1, false)];
        let at = [1u32, 1];
        let past = [0u32, 1];
        let order = |policy| {
            let mut s = WarpScheduler::new(policy);
            for (w, _, _) in warps {
                s.add(w);
            }
            s.last = Some(3);
            let mut o = Vec::new();
            s.order_keyed(&mut o, |w| {
                let (_, c, b) = warps[w as usize];
                barrier_key(policy, b, at[c], past[c])
            });
            o
        };
        assert_eq!(order(SchedulerPolicy::Gto), vec![3, 0, 1, 2]);
        assert_eq!(order(SchedulerPolicy::Mwf), vec![3, 0, 1, 2]);
        assert_eq!(order(SchedulerPolicy::Fmwf), vec![3, 2, 1, 0]);
    }

    /// MWF puts the CTA with the most waiting warps first, also ahead of the greedy
    /// warp: CTA A (warps 0, 1) has 2 at its barrier, CTA B (warps 2, 3) none, warp 2
    /// issued last. GTO: 2, 0, 1, 3. MWF: keys 2, 2, 0, 0 -> 0, 1, 2, 3 (the ties keep
    /// GTO order: 0 before 1, then the greedy 2 before 3). fMWF: A's warps are at the
    /// barrier (key 0) and B has nobody at or past one (key 0): GTO, 2, 0, 1, 3.
    #[test]
    fn mwf_prefers_the_most_waiting_cta() {
        let cta = [0usize, 0, 1, 1];
        let in_bar = [true, true, false, false];
        let at = [2u32, 0];
        for (policy, want) in [(SchedulerPolicy::Gto, vec![2, 0, 1, 3]), (SchedulerPolicy::Mwf, vec![0, 1, 2, 3]), (SchedulerPolicy::Fmwf, vec![2, 0, 1, 3])] {
            let mut s = WarpScheduler::new(policy);
            for w in 0..4 {
                s.add(w);
            }
            s.last = Some(2);
            let mut o = Vec::new();
            s.order_keyed(&mut o, |w| barrier_key(policy, in_bar[w as usize], at[cta[w as usize]], 0));
            assert_eq!(o, want, "{policy:?}");
        }
    }
}
