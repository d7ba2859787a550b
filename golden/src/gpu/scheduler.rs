//! Warp schedulers (tfb_bdib.md §2.14; GPGPU-Sim `scheduler_unit`): loose round robin
//! and greedy-then-oldest. Warp slot `w` belongs to scheduler `w % schedulers` (as in
//! GPGPU-Sim). Age is the order in which warps were launched; ties cannot occur.

use super::config::SchedulerPolicy;

#[derive(Debug, Clone)]
pub struct WarpScheduler {
    pub policy: SchedulerPolicy,
    /// Warp slots this scheduler owns that hold a live warp, oldest first.
    pub warps: Vec<u16>,
    /// Warp that issued last (GTO greedy warp, LRR position).
    pub last: Option<u16>,
}

impl WarpScheduler {
    pub fn new(policy: SchedulerPolicy) -> Self {
        WarpScheduler { policy, warps: Vec::with_capacity(64), last: None }
    }

    /// A newly launched warp is the youngest.
    pub fn add(&mut self, w: u16) {
        self.warps.push(w);
    }

    pub fn remove(&mut self, w: u16) {
        if let Some(i) = self.warps.iter().position(|&x| x == w) {
            self.warps.remove(i);
        }
        if self.last == Some(w) {
            self.last = None;
        }
    }

    /// Fill `out` with this cycle's priority order.
    #[inline]
    pub fn order(&self, out: &mut Vec<u16>) {
        out.clear();
        match self.policy {
            SchedulerPolicy::Gto => {
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
}
