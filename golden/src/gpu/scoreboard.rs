//! Scoreboard (tfb_bdib.md §2.1 step 3): per warp and register, the cycle at which the
//! register's pending write completes. An instruction may issue when every register it
//! reads or writes is ready (RAW and WAW; WAR cannot occur because operands are read
//! at issue). Memory results are pending with an unknown time ([`PENDING`]) until the
//! memory system completes them.

use super::ptx::Inst;

/// Ready time of a register whose memory result has not arrived.
pub const PENDING: u64 = u64::MAX;

#[derive(Debug, Clone, Default)]
pub struct Scoreboard {
    /// `[warp][entry]`: general registers, then predicates.
    ready_at: Vec<u64>,
    stride: usize,
}

impl Scoreboard {
    pub fn new(warps: usize, entries: usize) -> Self {
        Scoreboard { ready_at: vec![0; warps * entries.max(1)], stride: entries.max(1) }
    }

    /// Cycle at which every operand of `inst` is ready for warp `w`.
    #[inline(always)]
    pub fn ready_cycle(&self, w: usize, inst: &Inst) -> u64 {
        let row = &self.ready_at[w * self.stride..(w + 1) * self.stride];
        let mut t = 0;
        for &r in &inst.sb_use[..inst.n_use as usize] {
            t = t.max(row[r as usize]);
        }
        for &r in &inst.sb_def[..inst.n_def as usize] {
            t = t.max(row[r as usize]);
        }
        t
    }

    #[inline(always)]
    pub fn set(&mut self, w: usize, entry: u16, at: u64) {
        self.ready_at[w * self.stride + entry as usize] = at;
    }

    /// Mark every destination of `inst` ready at `at`.
    #[inline(always)]
    pub fn set_defs(&mut self, w: usize, inst: &Inst, at: u64) {
        let row = &mut self.ready_at[w * self.stride..(w + 1) * self.stride];
        for &r in &inst.sb_def[..inst.n_def as usize] {
            row[r as usize] = at;
        }
    }

    pub fn clear_warp(&mut self, w: usize) {
        self.ready_at[w * self.stride..(w + 1) * self.stride].fill(0);
    }
}
