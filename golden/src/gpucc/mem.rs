//! Memory timing model behind the LSU ports (spec §1.8 memory side, §3.1 numbers):
//! a flat byte-addressed backing store, one L1 per SM, and one DRAM channel shared
//! by every SM of the chip.
//!
//! Behaviour and *our choices* (the paper gives none of this; the numbers come from
//! `[gpucc.memory]`):
//!
//! * **Ports.** Each LSU has its own port into its SM's L1 (banked, no conflicts) and
//!   may issue one request per cycle. *Our choice:* ports never back-pressure
//!   (`ready` is always 1) and the MSHR table is unbounded; DRAM bandwidth, not the
//!   L1, is the shared limit the paper's result is about.
//! * **Responses.** Every load and every store gets exactly one response, in request
//!   order per port (a hit behind a miss waits): load data, or a store acknowledge.
//!   Prefetches get none. One response per port per cycle.
//! * **Data.** Loads read the backing store when the request is accepted; stores
//!   write it when accepted. The L1 holds tags only (it never holds stale data), so
//!   the functional result does not depend on timing.
//! * **L1.** `l1_bytes` in sets of `l1_ways` lines of `line_bytes`, LRU replacement.
//!   A load to a resident line responds `l1_latency` cycles later. A load to a line
//!   already being filled merges into that fill (MSHR) and responds at
//!   `max(now + l1_latency, fill)`. A miss sends the line to DRAM and responds when
//!   the fill lands (the tag lookup is folded into `dram_latency`). Lines are
//!   installed when their fill lands, evicting the least recently used way.
//! * **Stores** are write-through, no-allocate: they never install a line and do not
//!   touch LRU state. Each consumes its own 4 bytes of DRAM bandwidth (*our choice*:
//!   a write-combining buffer below L1 packs consecutive stores into full bursts).
//!   The acknowledge comes when the DRAM channel has taken the bytes, and not before
//!   `l1_latency`.
//! * **Prefetch** (spec §1.8): fill the line into L1 unless it is resident or already
//!   pending; a redundant prefetch is dropped and touches nothing.
//! * **DRAM.** One FIFO channel for the whole chip: a transfer of `b` bytes occupies
//!   it for `b / dram_bytes_per_cycle` cycles (fractional), requests are served in
//!   arrival order (same-cycle requests in SM order, then port order), and a line
//!   fill lands `dram_latency` cycles after its transfer ends (rounded up to a
//!   cycle). Fill times are therefore non-decreasing and known at request time.
//! * Addresses outside the backing store read 0 and drop writes; they are counted
//!   (`oob`) and fail a run.
//!
//! Two-phase use per cycle `now`: [`MemSystem::tick`] lands the fills due at `now`
//! (part of the clock edge before `now`); [`MemSystem::response`] is what each port
//! sees during `now` (registered state only); [`MemSystem::commit_port`] applies the
//! port's request and response handshake at the edge ending `now`.

use std::collections::{BTreeMap, VecDeque};

use super::config::MemoryParams;

/// A request on an LSU memory port (spec §4.1 `mem_req_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemReq {
    /// Store (write) when set.
    pub we: bool,
    /// Fill-L1-only request from the prefetch element; no response.
    pub prefetch: bool,
    /// Byte address (word aligned for loads and stores).
    pub addr: u32,
    pub wdata: u32,
}

impl MemReq {
    pub fn load(addr: u32) -> Self {
        MemReq { we: false, prefetch: false, addr, wdata: 0 }
    }
    pub fn store(addr: u32, wdata: u32) -> Self {
        MemReq { we: true, prefetch: false, addr, wdata }
    }
    pub fn prefetch(addr: u32) -> Self {
        MemReq { we: false, prefetch: true, addr, wdata: 0 }
    }
}

/// Planted bugs for showing the unit-side checker catches them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemMutation {
    /// Issuing a prefetch fill zeroes the first word of the line in the backing store.
    PrefetchClobbers,
}

/// The flat byte-addressed backing store (holds the images).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backing {
    bytes: Vec<u8>,
}

impl Backing {
    pub fn new(bytes: Vec<u8>) -> Self {
        Backing { bytes }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Little-endian 32-bit read; `None` outside the store.
    pub fn read32(&self, addr: u32) -> Option<u32> {
        let a = addr as usize;
        let b = self.bytes.get(a..a.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Little-endian 32-bit write; false (and no effect) outside the store.
    pub fn write32(&mut self, addr: u32, v: u32) -> bool {
        let a = addr as usize;
        match a.checked_add(4).and_then(|e| self.bytes.get_mut(a..e)) {
            Some(b) => {
                b.copy_from_slice(&v.to_le_bytes());
                true
            }
            None => false,
        }
    }
}

/// Per-SM memory statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemStats {
    pub loads: u64,
    /// Loads that found their line resident.
    pub hits: u64,
    /// Loads that merged into a pending fill.
    pub merged: u64,
    /// Loads that sent their line to DRAM.
    pub misses: u64,
    pub stores: u64,
    pub prefetch_requests: u64,
    /// Prefetches that sent a line to DRAM.
    pub prefetch_fills: u64,
    /// Prefetches dropped because the line was resident or pending.
    pub prefetch_redundant: u64,
    pub dram_read_bytes: u64,
    pub dram_write_bytes: u64,
    pub evictions: u64,
    /// Accesses outside the backing store.
    pub oob: u64,
}

impl MemStats {
    pub fn add(&mut self, o: &MemStats) {
        self.loads += o.loads;
        self.hits += o.hits;
        self.merged += o.merged;
        self.misses += o.misses;
        self.stores += o.stores;
        self.prefetch_requests += o.prefetch_requests;
        self.prefetch_fills += o.prefetch_fills;
        self.prefetch_redundant += o.prefetch_redundant;
        self.dram_read_bytes += o.dram_read_bytes;
        self.dram_write_bytes += o.dram_write_bytes;
        self.evictions += o.evictions;
        self.oob += o.oob;
    }
}

/// Tag store of one L1: set-associative, LRU, plus the lines being filled (MSHRs).
#[derive(Debug, Clone)]
#[doc(hidden)]
pub struct L1 {
    sets: usize,
    ways: usize,
    /// `sets * ways` entries: (line, last-use stamp).
    tags: Vec<Option<(u32, u64)>>,
    stamp: u64,
    /// Line being filled -> cycle its fill lands.
    pending: BTreeMap<u32, u64>,
}

impl L1 {
    /// An empty tag store sized by `p`.
    pub fn new(p: &MemoryParams) -> Self {
        let ways = p.l1_ways as usize;
        let sets = (p.l1_bytes / (p.line_bytes * p.l1_ways)) as usize;
        L1 { sets, ways, tags: vec![None; sets * ways], stamp: 0, pending: BTreeMap::new() }
    }

    fn set_of(&self, line: u32) -> std::ops::Range<usize> {
        let s = line as usize % self.sets;
        s * self.ways..(s + 1) * self.ways
    }

    /// Look a line up; on a hit refresh its LRU stamp.
    pub fn lookup(&mut self, line: u32, touch: bool) -> bool {
        let r = self.set_of(line);
        self.stamp += 1;
        let st = self.stamp;
        for t in self.tags[r].iter_mut().flatten() {
            if t.0 == line {
                if touch {
                    t.1 = st;
                }
                return true;
            }
        }
        false
    }

    /// Install a line (fill landed); returns whether a valid line was evicted.
    pub fn install(&mut self, line: u32) -> bool {
        let r = self.set_of(line);
        self.stamp += 1;
        let st = self.stamp;
        let set = &mut self.tags[r];
        if set.iter().flatten().any(|t| t.0 == line) {
            return false;
        }
        // an invalid way first, else the least recently used (lowest way on ties)
        let victim = match set.iter().position(Option::is_none) {
            Some(w) => w,
            None => (0..set.len()).min_by_key(|&w| set[w].map_or(0, |t| t.1)).unwrap_or(0),
        };
        let evicted = set[victim].is_some();
        set[victim] = Some((line, st));
        evicted
    }
}

/// One port's in-order response queue: (cycle ready, data).
type PortQueue = VecDeque<(u64, u32)>;

/// The whole memory system of a chip.
#[derive(Debug, Clone)]
pub struct MemSystem {
    p: MemoryParams,
    line_shift: u32,
    back: Backing,
    l1: Vec<L1>,
    ports: Vec<Vec<PortQueue>>,
    /// Time (fractional cycles) at which the DRAM channel is next free.
    dram_free: f64,
    /// Fills in landing order: (cycle, sm, line).
    fills: VecDeque<(u64, usize, u32)>,
    stats: Vec<MemStats>,
    pub mutation: Option<MemMutation>,
}

impl MemSystem {
    /// A memory system for `sms` SMs with `ports` LSU ports each, holding `back`.
    pub fn new(p: &MemoryParams, sms: usize, ports: usize, back: Backing) -> Self {
        MemSystem {
            p: *p,
            line_shift: p.line_bytes.trailing_zeros(),
            back,
            l1: (0..sms).map(|_| L1::new(p)).collect(),
            ports: vec![vec![PortQueue::new(); ports]; sms],
            dram_free: 0.0,
            fills: VecDeque::new(),
            stats: vec![MemStats::default(); sms],
            mutation: None,
        }
    }

    pub fn backing(&self) -> &Backing {
        &self.back
    }

    pub fn line_shift(&self) -> u32 {
        self.line_shift
    }

    pub fn stats(&self, sm: usize) -> &MemStats {
        &self.stats[sm]
    }

    /// Sum over SMs.
    pub fn chip_stats(&self) -> MemStats {
        let mut s = MemStats::default();
        for t in &self.stats {
            s.add(t);
        }
        s
    }

    /// Land the fills due at `now` (the clock edge that starts cycle `now`).
    pub fn tick(&mut self, now: u64) {
        while let Some(&(t, sm, line)) = self.fills.front() {
            if t > now {
                break;
            }
            self.fills.pop_front();
            let l1 = &mut self.l1[sm];
            l1.pending.remove(&line);
            if l1.install(line) {
                self.stats[sm].evictions += 1;
            }
        }
    }

    /// `mem_req_ready` of a port. Always 1 in this model (see the module doc).
    pub fn ready(&self, _sm: usize, _port: usize) -> bool {
        true
    }

    /// The response a port sees during cycle `now` (`mem_resp_valid/data`).
    pub fn response(&self, sm: usize, port: usize, now: u64) -> Option<u32> {
        match self.ports[sm][port].front() {
            Some(&(t, d)) if t <= now => Some(d),
            _ => None,
        }
    }

    /// No request of this SM is outstanding: no queued response, no pending fill.
    pub fn idle(&self, sm: usize) -> bool {
        self.ports[sm].iter().all(VecDeque::is_empty) && self.l1[sm].pending.is_empty()
    }

    /// No request of any SM is outstanding.
    pub fn all_idle(&self) -> bool {
        (0..self.l1.len()).all(|s| self.idle(s))
    }

    /// Occupy the DRAM channel for `bytes`; returns the time the transfer ends.
    fn dram(&mut self, now: u64, bytes: u32) -> f64 {
        let start = self.dram_free.max(now as f64);
        self.dram_free = start + bytes as f64 / self.p.dram_bytes_per_cycle;
        self.dram_free
    }

    /// Send `line` of SM `sm` to DRAM; returns the cycle the fill lands.
    fn fill(&mut self, sm: usize, line: u32, now: u64) -> u64 {
        let end = self.dram(now, self.p.line_bytes);
        let t = (end + self.p.dram_latency as f64).ceil() as u64;
        self.stats[sm].dram_read_bytes += self.p.line_bytes as u64;
        self.l1[sm].pending.insert(line, t);
        self.fills.push_back((t, sm, line));
        t
    }

    /// The clock edge ending cycle `now` for one port: `took` = the response shown by
    /// [`MemSystem::response`] was consumed; `req` = the request accepted this cycle.
    pub fn commit_port(&mut self, sm: usize, port: usize, now: u64, took: bool, req: Option<MemReq>) {
        if took {
            self.ports[sm][port].pop_front();
        }
        let Some(r) = req else { return };
        let line = r.addr >> self.line_shift;
        let l1_lat = self.p.l1_latency as u64;
        if r.prefetch {
            self.stats[sm].prefetch_requests += 1;
            let l1 = &mut self.l1[sm];
            if l1.pending.contains_key(&line) || l1.lookup(line, false) {
                self.stats[sm].prefetch_redundant += 1;
            } else {
                self.stats[sm].prefetch_fills += 1;
                self.fill(sm, line, now);
                if self.mutation == Some(MemMutation::PrefetchClobbers) {
                    self.back.write32(line << self.line_shift, 0);
                }
            }
        } else if r.we {
            self.stats[sm].stores += 1;
            if !self.back.write32(r.addr, r.wdata) {
                self.stats[sm].oob += 1;
            }
            let end = self.dram(now, 4);
            self.stats[sm].dram_write_bytes += 4;
            let t = (now + l1_lat).max(end.ceil() as u64);
            self.ports[sm][port].push_back((t, 0));
        } else {
            self.stats[sm].loads += 1;
            let data = match self.back.read32(r.addr) {
                Some(d) => d,
                None => {
                    self.stats[sm].oob += 1;
                    0
                }
            };
            let t = if self.l1[sm].lookup(line, true) {
                self.stats[sm].hits += 1;
                now + l1_lat
            } else if let Some(&f) = self.l1[sm].pending.get(&line) {
                self.stats[sm].merged += 1;
                f.max(now + l1_lat)
            } else {
                self.stats[sm].misses += 1;
                self.fill(sm, line, now).max(now + l1_lat)
            };
            self.ports[sm][port].push_back((t, data));
        }
    }
}
