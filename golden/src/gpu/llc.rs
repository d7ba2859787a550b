//! LLC slice at a memory node (GPGPU-Sim `l2_cache` in a memory partition): tags with
//! LRU, MSHRs merging misses to the same line, a fixed tag-pipeline latency.
//!
//! Our choices (llc_omni_compute.md §3, tagged OC there): write-back, write-allocate without fetch
//! (a per-byte valid mask; a read needing bytes the line lacks is a miss and merges the
//! DRAM data under the written bytes), allocate on fill, atomics executed at the LLC
//! (they need the line, like a read, and leave it dirty).

use super::config::LlcConfig;
use super::stats::LlcStats;

/// [`LlcSlice`]'s MSHR line of a free MSHR (no line address is all ones).
const NO_LINE: u64 = u64::MAX;

#[derive(Debug, Clone)]
struct Mshr {
    valid: bool,
    line: u64,
    /// Transactions waiting for the line.
    waiters: Vec<u32>,
    /// Bytes written while the line was being fetched, and whether an atomic waits.
    dirty_on_fill: bool,
    write_mask: u128,
}

/// Outcome of a read-like access (read, bypass read, atomic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlcRead {
    Hit,
    /// New miss: fetch the line from DRAM.
    Miss,
    Merged,
    Blocked,
}

/// How a write found its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlcWrite {
    Hit,
    /// The line is being fetched: the bytes join the fill.
    Merged,
    /// The line was allocated (write-allocate without fetch).
    Allocated,
}

#[derive(Debug, Clone)]
pub struct LlcSlice {
    sets: u64,
    ways: usize,
    full: u128,
    tags: Vec<u64>,
    stamp: Vec<u64>,
    valid: Vec<u128>,
    dirty: Vec<bool>,
    clock: u64,
    mshrs: Vec<Mshr>,
    /// Per MSHR: its line while valid, [`NO_LINE`] when free (the lookups scan this).
    mshr_lines: Vec<u64>,
    free_mshrs: usize,
    /// Bumped by every change of tags or MSHRs; with `refused`, the line of the last
    /// read refused while absent from the tags and the epoch then: the same read is
    /// refused again, with nothing to look up, until the epoch moves.
    epoch: u64,
    refused: Option<(u64, u64)>,
    merge: usize,
    /// Whether the line of the last `read`, `write` or `fill` was present and dirty
    /// before it, and is after it.
    pub last_dirty: (bool, bool),
    pub stats: LlcStats,
}

impl LlcSlice {
    pub fn new(c: &LlcConfig, line_bytes: u32) -> Self {
        let sets = (c.size_bytes / (c.ways * line_bytes)) as u64;
        let n = sets as usize * c.ways as usize;
        LlcSlice {
            sets,
            ways: c.ways as usize,
            full: if line_bytes >= 128 { u128::MAX } else { (1u128 << line_bytes) - 1 },
            tags: vec![u64::MAX; n],
            stamp: vec![0; n],
            valid: vec![0; n],
            dirty: vec![false; n],
            clock: 0,
            mshrs: (0..c.mshrs).map(|_| Mshr { valid: false, line: 0, waiters: Vec::new(), dirty_on_fill: false, write_mask: 0 }).collect(),
            mshr_lines: vec![NO_LINE; c.mshrs as usize],
            free_mshrs: c.mshrs as usize,
            epoch: 0,
            refused: None,
            merge: c.mshr_merge as usize,
            last_dirty: (false, false),
            stats: LlcStats::default(),
        }
    }

    /// Index of the set is computed from the node-local line number so that all sets
    /// are used although only every n-th line maps to this node.
    #[inline]
    fn set_of(&self, local_line: u64) -> usize {
        (local_line % self.sets) as usize
    }

    fn find(&mut self, line: u64, local_line: u64) -> Option<usize> {
        let s = self.set_of(local_line) * self.ways;
        (s..s + self.ways).find(|&w| self.tags[w] == line).inspect(|&w| {
            self.clock += 1;
            self.stamp[w] = self.clock;
        })
    }

    /// Allocate a way for `line`; returns the evicted dirty line, if any.
    fn allocate(&mut self, line: u64, local_line: u64) -> (usize, Option<u64>) {
        let s = self.set_of(local_line) * self.ways;
        let w = (s..s + self.ways).min_by_key(|&w| if self.tags[w] == u64::MAX { 0 } else { self.stamp[w] }).expect("ways >= 1");
        let evicted = (self.tags[w] != u64::MAX && self.dirty[w]).then_some(self.tags[w]);
        if evicted.is_some() {
            self.stats.writebacks += 1;
        }
        self.clock += 1;
        self.tags[w] = line;
        self.stamp[w] = self.clock;
        self.valid[w] = 0;
        self.dirty[w] = false;
        (w, evicted)
    }

    /// A coherence request from outside the GPU (another domain's cache) for `line`:
    /// `None` when the line is absent, else whether it was dirty. With `forward_dirty`
    /// a dirty line's data and write-back duty go to the requester (MOESI M -> O with
    /// the owner's copy handed over): the line stays, clean, and leaves silently.
    /// Neither the LRU order nor the statistics change (the GPU did not use the line).
    pub fn snoop(&mut self, line: u64, local_line: u64, forward_dirty: bool) -> Option<bool> {
        let s = self.set_of(local_line) * self.ways;
        let w = (s..s + self.ways).find(|&w| self.tags[w] == line)?;
        let dirty = self.dirty[w];
        if forward_dirty {
            self.dirty[w] = false;
        }
        Some(dirty)
    }

    /// A read-like access to `line` by transaction `txn`.
    pub fn read(&mut self, line: u64, local_line: u64, txn: u32, atomic: bool) -> LlcRead {
        if self.refuses_again(line) {
            // as below: absent, its MSHR full or none free
            return LlcRead::Blocked;
        }
        let mut dirty = false;
        let mut present = false;
        if let Some(w) = self.find(line, local_line) {
            present = true;
            dirty = self.dirty[w];
            if self.valid[w] == self.full {
                if atomic {
                    self.dirty[w] = true;
                    self.stats.atomics += 1;
                } else {
                    self.stats.reads += 1;
                }
                self.stats.read_hits += 1;
                self.last_dirty = (dirty, self.dirty[w]);
                self.epoch += 1;
                return LlcRead::Hit;
            }
        }
        self.last_dirty = (dirty, dirty);
        let refuse = |me: &mut LlcSlice| {
            me.stats.blocked += 1;
            if !present {
                me.refused = Some((line, me.epoch));
            }
            LlcRead::Blocked
        };
        if let Some(i) = self.mshr_of(line) {
            if self.mshrs[i].waiters.len() >= self.merge {
                return refuse(self);
            }
            self.epoch += 1;
            let m = &mut self.mshrs[i];
            m.waiters.push(txn);
            m.dirty_on_fill |= atomic;
            self.stats.mshr_merges += 1;
            self.count_miss(atomic);
            return LlcRead::Merged;
        }
        if self.free_mshrs == 0 {
            return refuse(self);
        }
        self.epoch += 1;
        let i = self.mshr_of(NO_LINE).expect("free MSHR");
        self.mshr_lines[i] = line;
        let m = &mut self.mshrs[i];
        m.valid = true;
        m.line = line;
        m.waiters.clear();
        m.waiters.push(txn);
        m.dirty_on_fill = atomic;
        m.write_mask = 0;
        self.free_mshrs -= 1;
        self.count_miss(atomic);
        LlcRead::Miss
    }

    /// [`Self::read`] of `line` when it is refused again without a lookup (as the
    /// last refusal, with nothing changed since): counted as that refusal and true, or
    /// false with nothing done.
    #[inline]
    pub fn refuses_again(&mut self, line: u64) -> bool {
        if self.refused != Some((line, self.epoch)) {
            return false;
        }
        self.last_dirty = (false, false);
        self.stats.blocked += 1;
        true
    }

    fn count_miss(&mut self, atomic: bool) {
        if atomic {
            self.stats.atomics += 1;
        } else {
            self.stats.reads += 1;
        }
        self.stats.read_misses += 1;
    }

    /// A write of the bytes in `mask`; returns how it found the line and an evicted
    /// dirty line to write back.
    pub fn write(&mut self, line: u64, local_line: u64, mask: u128) -> (LlcWrite, Option<u64>) {
        self.stats.writes += 1;
        self.epoch += 1;
        if let Some(w) = self.find(line, local_line) {
            self.last_dirty = (self.dirty[w], true);
            self.valid[w] |= mask;
            self.dirty[w] = true;
            self.stats.write_hits += 1;
            return (LlcWrite::Hit, None);
        }
        self.last_dirty = (false, false);
        if let Some(i) = self.mshr_of(line) {
            let m = &mut self.mshrs[i];
            m.write_mask |= mask;
            return (LlcWrite::Merged, None);
        }
        let (w, ev) = self.allocate(line, local_line);
        self.valid[w] = mask;
        self.dirty[w] = true;
        self.last_dirty = (false, true);
        (LlcWrite::Allocated, ev)
    }

    /// DRAM data for `line` arrived: install it, hand the waiting transactions to `out`,
    /// return an evicted dirty line.
    pub fn fill(&mut self, line: u64, local_line: u64, out: &mut Vec<u32>) -> Option<u64> {
        let i = self.mshr_of(line)?;
        self.epoch += 1;
        self.mshr_lines[i] = NO_LINE;
        let (dirty, wmask) = (self.mshrs[i].dirty_on_fill, self.mshrs[i].write_mask);
        out.extend_from_slice(&self.mshrs[i].waiters);
        self.mshrs[i].valid = false;
        self.mshrs[i].waiters.clear();
        self.free_mshrs += 1;
        self.stats.fills += 1;
        let (w, ev) = match self.find(line, local_line) {
            Some(w) => (w, None),
            None => self.allocate(line, local_line),
        };
        let was_dirty = self.dirty[w];
        self.valid[w] = self.full;
        self.dirty[w] = was_dirty || dirty || wmask != 0;
        self.last_dirty = (was_dirty, self.dirty[w]);
        ev
    }

    /// The MSHR holding `line` (the first free one for [`NO_LINE`]).
    #[inline]
    fn mshr_of(&self, line: u64) -> Option<usize> {
        self.mshr_lines.iter().position(|&l| l == line)
    }

    pub fn mshrs_in_use(&self) -> usize {
        self.mshrs.len() - self.free_mshrs
    }
}
