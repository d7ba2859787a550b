//! Functional-unit pools of an SM: per class, `count` pipelines that each accept a warp
//! instruction every `interval` cycles and produce results `latency` cycles after issue.
//! Our choice: pipelines are shared by all schedulers of the SM; the register-file
//! write port is never a bottleneck.

use super::config::UnitsConfig;
use super::ptx::OpClass;

#[derive(Debug, Clone)]
pub struct FuPool {
    /// Per class (Int, Fp32, Fp64, Sfu): next cycle each pipeline accepts an instruction.
    next_free: [Vec<u64>; 4],
    /// Per pool: the earliest of `next_free` (what `free_at` answers).
    min_free: [u64; 4],
    latency: [u32; 4],
    interval: [u32; 4],
    /// Pool index per class (fp32 maps to the int pool when the ALU is shared).
    pool: [usize; 4],
    /// Per pool: the last cycle an instruction issued into it (`u64::MAX`: never).
    last_issue: [u64; 4],
}

impl FuPool {
    pub fn new(u: &UnitsConfig) -> Self {
        let cs = [u.int, u.fp32, u.fp64, u.sfu];
        FuPool {
            next_free: cs.map(|c| vec![0; c.count as usize]),
            min_free: [0; 4],
            latency: cs.map(|c| c.latency),
            interval: cs.map(|c| c.interval),
            pool: if u.alu_shared { [0, 0, 2, 3] } else { [0, 1, 2, 3] },
            last_issue: [u64::MAX; 4],
        }
    }

    /// Earliest cycle a pipeline of `class` accepts (0 for classes without a pool).
    #[inline(always)]
    pub fn free_at(&self, class: OpClass) -> u64 {
        let i = class.index();
        if i >= 4 {
            return 0;
        }
        self.min_free[self.pool[i]]
    }

    /// Whether an instruction of `class` issued into its pool in cycle `cycle` (the
    /// SP pipeline's use that an Omni-Compute SQ yields to, llc_omni_compute.md §1.7).
    pub fn issued_at(&self, class: OpClass, cycle: u64) -> bool {
        let i = class.index();
        i < 4 && self.last_issue[self.pool[i]] == cycle
    }

    /// Issue into a free pipeline; returns the result latency.
    #[inline(always)]
    pub fn issue(&mut self, class: OpClass, now: u64) -> u32 {
        let i = class.index();
        if i >= 4 {
            return 1;
        }
        let i = self.pool[i];
        self.last_issue[i] = now;
        let iv = self.interval[i] as u64;
        if let Some(p) = self.next_free[i].iter_mut().find(|p| **p <= now) {
            *p = now + iv;
            self.min_free[i] = self.next_free[i].iter().copied().min().unwrap_or(0);
        }
        self.latency[i]
    }
}
