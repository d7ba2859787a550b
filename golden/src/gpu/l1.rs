//! Per-SM L1 data cache (GPGPU-Sim `l1_cache`): set-associative tags with LRU,
//! miss-status holding registers that merge requests to the same line, allocate on fill.
//! Data is functional elsewhere ([`super::memspace`]); the L1 models timing only.
//!
//! Write policy (our choice, llc_omni_compute.md §3 and tfb_bdib.md §3.1 both give a
//! write-through L1): write-through, no write-allocate; a write that hits keeps the
//! line (its data is updated in place).

use super::config::L1Config;
use super::stats::L1Stats;

/// [`L1D`]'s MSHR line of a free MSHR (no line address is all ones: lines are aligned).
const NO_LINE: u64 = u64::MAX;

#[derive(Debug, Clone)]
pub struct L1Mshr {
    pub valid: bool,
    pub line: u64,
    /// Memory-instruction tokens waiting for this line.
    pub waiters: Vec<u32>,
}

/// Result of a read access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadOutcome {
    Hit,
    /// Joined an MSHR already waiting for the line.
    Merged,
    /// New miss: send a request for MSHR `idx`.
    Miss(u32),
    /// Could not accept this cycle.
    Blocked,
}

#[derive(Debug, Clone)]
pub struct L1D {
    sets: u64,
    ways: usize,
    line_shift: u32,
    /// `[set][way]` line address, `u64::MAX` = invalid.
    tags: Vec<u64>,
    /// `[set][way]` last-use stamp for LRU.
    stamp: Vec<u64>,
    clock: u64,
    mshrs: Vec<L1Mshr>,
    /// Per MSHR: its line while valid, [`NO_LINE`] when free (the lookups scan this).
    mshr_lines: Vec<u64>,
    free_mshrs: usize,
    merge: usize,
    /// The line of the last read refused for a reason only a fill or an invalidation
    /// removes (absent from the tags, and its MSHR at the merge limit or none free):
    /// the LD/ST unit retries it every cycle, and the retry is refused again without a
    /// lookup (as [`super::llc::LlcSlice`]'s `refused`). [`NO_LINE`]: none.
    refused: u64,
    pub stats: L1Stats,
}

impl L1D {
    pub fn new(c: &L1Config) -> Self {
        let sets = c.sets() as u64;
        let n = (sets as usize) * c.ways as usize;
        L1D {
            sets,
            ways: c.ways as usize,
            line_shift: c.line_bytes.trailing_zeros(),
            tags: vec![u64::MAX; n],
            stamp: vec![0; n],
            clock: 0,
            mshrs: (0..c.mshrs).map(|_| L1Mshr { valid: false, line: 0, waiters: Vec::with_capacity(c.mshr_merge as usize) }).collect(),
            mshr_lines: vec![NO_LINE; c.mshrs as usize],
            free_mshrs: c.mshrs as usize,
            merge: c.mshr_merge as usize,
            refused: NO_LINE,
            stats: L1Stats::default(),
        }
    }

    #[inline]
    fn set_of(&self, line: u64) -> usize {
        ((line >> self.line_shift) % self.sets) as usize
    }

    #[inline]
    fn lookup(&mut self, line: u64) -> bool {
        let s = self.set_of(line) * self.ways;
        for w in s..s + self.ways {
            if self.tags[w] == line {
                self.clock += 1;
                self.stamp[w] = self.clock;
                return true;
            }
        }
        false
    }

    /// A read of `line` for memory instruction `token`. `can_send`: whether the miss
    /// queue has room for a new request.
    pub fn read(&mut self, line: u64, token: u32, can_send: bool) -> ReadOutcome {
        if line == self.refused {
            self.stats.reservation_fails += 1;
            return ReadOutcome::Blocked;
        }
        if self.lookup(line) {
            self.stats.read_accesses += 1;
            self.stats.read_hits += 1;
            return ReadOutcome::Hit;
        }
        if let Some(i) = self.mshr_of(line) {
            let m = &mut self.mshrs[i];
            if m.waiters.len() < self.merge {
                m.waiters.push(token);
                self.stats.read_accesses += 1;
                self.stats.read_misses += 1;
                self.stats.mshr_merges += 1;
                return ReadOutcome::Merged;
            }
            self.stats.reservation_fails += 1;
            self.refused = line;
            return ReadOutcome::Blocked;
        }
        if self.free_mshrs == 0 || !can_send {
            self.stats.reservation_fails += 1;
            if self.free_mshrs == 0 {
                // (a full miss queue is not remembered: it drains without a fill)
                self.refused = line;
            }
            return ReadOutcome::Blocked;
        }
        let idx = self.mshr_of(NO_LINE).expect("a free MSHR exists");
        self.mshr_lines[idx] = line;
        let m = &mut self.mshrs[idx];
        m.valid = true;
        m.line = line;
        m.waiters.clear();
        m.waiters.push(token);
        self.free_mshrs -= 1;
        self.stats.read_accesses += 1;
        self.stats.read_misses += 1;
        ReadOutcome::Miss(idx as u32)
    }

    /// The MSHR waiting for `line`, if any (statistics: the load-source counters).
    #[inline]
    pub fn mshr_holding(&self, line: u64) -> Option<u32> {
        self.mshr_of(line).map(|i| i as u32)
    }

    /// The MSHR holding `line` (the first free one for [`NO_LINE`]).
    #[inline]
    fn mshr_of(&self, line: u64) -> Option<usize> {
        self.mshr_lines.iter().position(|&l| l == line)
    }

    /// Whether [`Self::read`] of `line` with room to send would be refused (a miss whose
    /// MSHR merge limit is reached, or no MSHR free); such a refusal changes nothing
    /// but the statistics, until a fill.
    pub fn refuses_read(&self, line: u64) -> bool {
        if line == self.refused {
            return true;
        }
        let s = self.set_of(line) * self.ways;
        if self.tags[s..s + self.ways].contains(&line) {
            return false;
        }
        match self.mshr_of(line) {
            Some(i) => self.mshrs[i].waiters.len() >= self.merge,
            None => self.free_mshrs == 0,
        }
    }

    /// Whether `line` is in the L1 or on its way (a pending MSHR), without touching the
    /// replacement state or the statistics (the offload queue's tag lookup,
    /// llc_omni_compute.md §1.3.6).
    pub fn probe(&self, line: u64) -> bool {
        let s = self.set_of(line) * self.ways;
        self.tags[s..s + self.ways].contains(&line) || self.mshr_of(line).is_some()
    }

    /// A write-through store to `line`; returns whether it hit.
    pub fn write(&mut self, line: u64) -> bool {
        self.stats.writes += 1;
        let hit = self.lookup(line);
        if hit {
            self.stats.write_hits += 1;
        }
        hit
    }

    /// The reply for MSHR `idx` arrived: install the line (LRU victim) and hand the
    /// waiting tokens to `out`.
    pub fn fill(&mut self, idx: u32, out: &mut Vec<u32>) {
        self.refused = NO_LINE;
        let line = self.mshrs[idx as usize].line;
        let s = self.set_of(line) * self.ways;
        let victim = (s..s + self.ways).min_by_key(|&w| if self.tags[w] == u64::MAX { 0 } else { self.stamp[w] }).expect("ways >= 1");
        self.clock += 1;
        self.tags[victim] = line;
        self.stamp[victim] = self.clock;
        let m = &mut self.mshrs[idx as usize];
        out.extend_from_slice(&m.waiters);
        m.waiters.clear();
        m.valid = false;
        self.mshr_lines[idx as usize] = NO_LINE;
        self.free_mshrs += 1;
        self.stats.fills += 1;
    }

    /// Flash-invalidate (device-scope acquire, kernel boundary).
    pub fn invalidate_all(&mut self) {
        self.refused = NO_LINE;
        self.tags.fill(u64::MAX);
    }

    pub fn mshrs_in_use(&self) -> usize {
        self.mshrs.len() - self.free_mshrs
    }
}
