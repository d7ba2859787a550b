//! DRAM channel at a memory node: banks with row buffers, open-page policy, FR-FCFS
//! scheduling (Rixner et al., ISCA 2000), GDDR-style timing (llc_omni_compute.md §3,
//! tom.md §1.3).
//!
//! The channel runs in its own clock domain (`dram.clock_mhz`); timing parameters are in
//! its command-clock cycles. One command per command cycle. A line moves in
//! `line_bytes / bus_bytes` bus cycles, so the peak is `bus_bytes x clock` per channel.
//! FR-FCFS: the oldest request whose row is open and whose column timing is met gets
//! the column command; otherwise the oldest request that needs a row command gets it
//! (precharge only when no queued request hits the open row).
//! Our choices: writes use tCL as their write latency; no refresh; no read/write
//! turnaround penalty; the controller pipeline (`ctrl_latency`, core cycles) is added
//! to every read's return.

use std::collections::VecDeque;

use super::config::DramConfig;
use super::stats::DramStats;

#[derive(Debug, Clone, Copy)]
struct Req {
    line: u64,
    bank: u32,
    row: u64,
    write: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct Bank {
    open: Option<u64>,
    /// Earliest column command (ACT + tRCD).
    col_ready: u64,
    /// Earliest precharge (ACT + tRAS, write data + tWR).
    pre_ready: u64,
    /// Earliest activate (PRE + tRP).
    act_ready: u64,
}

#[derive(Debug, Clone)]
pub struct DramChannel {
    t: DramConfig,
    burst: u64,
    core_mhz: u64,
    acc: u64,
    /// Command-clock cycle count.
    now: u64,
    queue: VecDeque<Req>,
    banks: Vec<Bank>,
    /// Per bank: queued requests, and those hitting its open row.
    reqs: Vec<u32>,
    hits: Vec<u32>,
    last_act: Option<u64>,
    last_col: Option<u64>,
    bus_free: u64,
    /// No command can issue before this command cycle (set when a cycle issued nothing;
    /// cleared by a new request). Exact: nothing else changes the channel meanwhile.
    idle_until: u64,
    /// (data-done command cycle, line) of reads on the bus.
    in_flight: VecDeque<(u64, u64)>,
    /// (core cycle, line) of reads returned to the LLC side.
    returns: VecDeque<(u64, u64)>,
    pub stats: DramStats,
}

impl DramChannel {
    pub fn new(t: &DramConfig, line_bytes: u32, core_mhz: u32) -> Self {
        DramChannel {
            t: *t,
            burst: (line_bytes / t.bus_bytes) as u64,
            core_mhz: core_mhz as u64,
            acc: 0,
            now: 0,
            queue: VecDeque::with_capacity(t.queue as usize),
            banks: vec![Bank::default(); t.banks as usize],
            reqs: vec![0; t.banks as usize],
            hits: vec![0; t.banks as usize],
            last_act: None,
            last_col: None,
            bus_free: 0,
            idle_until: 0,
            in_flight: VecDeque::new(),
            returns: VecDeque::new(),
            stats: DramStats::default(),
        }
    }

    pub fn can_accept(&self) -> bool {
        self.queue.len() < self.t.queue as usize
    }

    /// Queue a line read or write (caller checked [`Self::can_accept`]).
    ///
    /// A sleeping scheduler ([`Self::idle_until`]) wakes no later than the first command
    /// cycle the new request could get a command: the others cannot get one earlier than
    /// before (the new request is the youngest, and a row hit it adds to a bank only
    /// holds back that bank's precharge).
    pub fn push(&mut self, line: u64, bank: u32, row: u64, write: bool) {
        let req = Req { line, bank, row, write };
        if self.idle_until != 0 {
            self.idle_until = self.idle_until.min(self.earliest(&req));
        }
        self.reqs[bank as usize] += 1;
        if self.banks[bank as usize].open == Some(row) {
            self.hits[bank as usize] += 1;
        }
        self.queue.push_back(req);
    }

    /// The first command cycle `r` could get a command, as far as timers say (a
    /// precharge is assumed allowed).
    fn earliest(&self, r: &Req) -> u64 {
        let t = self.t;
        let b = &self.banks[r.bank as usize];
        match b.open {
            Some(row) if row == r.row => {
                let col_at = self.last_col.map_or(0, |c| c + t.t_ccd as u64).max(self.bus_free.saturating_sub(t.t_cl as u64));
                b.col_ready.max(col_at)
            }
            None => b.act_ready.max(self.last_act.map_or(0, |a| a + t.t_rrd as u64)),
            Some(_) => b.pre_ready,
        }
    }

    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.in_flight.is_empty() && self.returns.is_empty()
    }

    /// Advance to the end of core cycle `core_now`.
    pub fn cycle(&mut self, core_now: u64) {
        self.acc += self.t.clock_mhz as u64;
        while self.acc >= self.core_mhz {
            self.acc -= self.core_mhz;
            self.command_cycle();
            self.now += 1;
            self.stats.dram_cycles += 1;
        }
        while let Some(&(done, line)) = self.in_flight.front() {
            if done > self.now {
                break;
            }
            self.in_flight.pop_front();
            self.returns.push_back((core_now + self.t.ctrl_latency as u64, line));
        }
    }

    /// Next line whose read data is back by core cycle `core_now`.
    pub fn pop_return(&mut self, core_now: u64) -> Option<u64> {
        match self.returns.front() {
            Some(&(t, line)) if t <= core_now => {
                self.returns.pop_front();
                Some(line)
            }
            _ => None,
        }
    }

    fn command_cycle(&mut self) {
        if self.queue.is_empty() || self.now < self.idle_until {
            return;
        }
        let now = self.now;
        let t = self.t;
        let ccd_ok = self.last_col.is_none_or(|c| now >= c + t.t_ccd as u64);
        let bus_ok = self.bus_free <= now + t.t_cl as u64;
        let col_ok = ccd_ok && bus_ok;
        let rrd_ok = self.last_act.is_none_or(|a| now >= a + t.t_rrd as u64);
        // Per bank (queue order does not matter here): may a row hit get its column
        // command now, may a request get its row command now. A bank with a queued hit
        // on its open row is not precharged.
        let (mut col_banks, mut row_banks) = (0u64, 0u64);
        for (i, b) in self.banks.iter().enumerate() {
            if self.reqs[i] == 0 {
                continue;
            }
            match b.open {
                Some(_) if self.hits[i] > 0 => {
                    if col_ok && now >= b.col_ready {
                        col_banks |= 1 << i;
                    }
                }
                Some(_) => {
                    if now >= b.pre_ready {
                        row_banks |= 1 << i;
                    }
                }
                None => {
                    if rrd_ok && now >= b.act_ready {
                        row_banks |= 1 << i;
                    }
                }
            }
        }
        // first ready: the oldest row hit whose timing is met
        if col_banks != 0 {
            let banks = &self.banks;
            let i = self.queue.iter().position(|r| col_banks & (1 << r.bank) != 0 && banks[r.bank as usize].open == Some(r.row)).expect("a bank with a ready hit has one queued");
            let r = self.queue.remove(i).expect("index valid");
            self.reqs[r.bank as usize] -= 1;
            self.hits[r.bank as usize] -= 1;
            let start = now + t.t_cl as u64;
            let end = start + self.burst;
            self.bus_free = end;
            self.last_col = Some(now);
            self.stats.bus_busy_cycles += self.burst;
            let b = &mut self.banks[r.bank as usize];
            if r.write {
                b.pre_ready = b.pre_ready.max(end + t.t_wr as u64);
                self.stats.writes += 1;
            } else {
                self.in_flight.push_back((end, r.line));
                self.stats.reads += 1;
            }
            return;
        }
        // then the oldest request needing a row command (every request of a bank in
        // `row_banks` needs one: the bank is closed, or open without a queued hit)
        if row_banks != 0 {
            let r = *self.queue.iter().find(|r| row_banks & (1 << r.bank) != 0).expect("a bank with a ready row command has a request");
            let bank = r.bank as usize;
            let bm = &mut self.banks[bank];
            if bm.open.is_none() {
                bm.open = Some(r.row);
                bm.col_ready = now + t.t_rcd as u64;
                bm.pre_ready = bm.pre_ready.max(now + t.t_ras as u64);
                self.last_act = Some(now);
                self.stats.activates += 1;
                self.hits[bank] = self.queue.iter().filter(|q| q.bank == r.bank && q.row == r.row).count() as u32;
            } else {
                bm.open = None;
                bm.act_ready = now + t.t_rp as u64;
                self.stats.precharges += 1;
                self.hits[bank] = 0;
            }
            return;
        }
        // nothing issued: sleep until the earliest timer that could enable a command
        let col_at = self.last_col.map_or(0, |c| c + t.t_ccd as u64).max(self.bus_free.saturating_sub(t.t_cl as u64));
        let act_at = self.last_act.map_or(0, |a| a + t.t_rrd as u64);
        let mut wake = u64::MAX;
        for (i, b) in self.banks.iter().enumerate() {
            if self.reqs[i] == 0 {
                continue;
            }
            let at = match b.open {
                // (the bank's other requests wait for its hits)
                Some(_) if self.hits[i] > 0 => b.col_ready.max(col_at),
                Some(_) => b.pre_ready,
                None => b.act_ready.max(act_at),
            };
            wake = wake.min(at);
        }
        self.idle_until = wake.max(now + 1);
    }
}
