//! Memory partition at a memory node (GPGPU-Sim `memory_partition_unit`): the network
//! interface queues, the LLC slice and the DRAM channel.
//!
//! Our choices: one tag access per cycle; a request the LLC cannot take (MSHRs full or
//! the merge limit reached) blocks the input queue head; a miss leaves the tag pipeline
//! after the same latency as a hit; returned DRAM data fills the LLC and answers every
//! merged request in the same cycle; dirty victims queue for DRAM behind pending reads;
//! one reply packet per cycle enters the network.
//!
//! Per core cycle (our order): (1) take arrived requests from the network into the input
//! queue (bounded: a full queue leaves packets in the network, back-pressuring it);
//! (2) advance DRAM and install returned lines in the LLC, replying to every waiter;
//! (3) move tag-pipeline results that are due: replies to the output queue, misses to
//! the DRAM queue (in order, stalling while it is full), then write-backs; (4) one tag
//! access for the request at the head of the input queue; (5) inject one reply.

use std::collections::VecDeque;

use crate::network::{Class, Network, Packet};

use super::config::GpuConfig;
use super::dram::DramChannel;
use super::llc::{LlcRead, LlcSlice};
use super::mapping::AddressMap;
use super::txn::{TxnKind, TxnTable};

#[derive(Debug, Clone)]
pub struct MemPartition {
    pub id: usize,
    pub node: usize,
    pub llc: LlcSlice,
    pub dram: DramChannel,
    latency: u64,
    input_cap: usize,
    line_bytes: u32,
    flit_bytes: u32,
    in_q: VecDeque<Packet>,
    /// (ready cycle, transaction) of replies leaving the tag pipeline.
    reply_pipe: VecDeque<(u64, u32)>,
    /// (ready cycle, line) of misses leaving the tag pipeline for DRAM.
    miss_pipe: VecDeque<(u64, u64)>,
    writebacks: VecDeque<u64>,
    out_q: VecDeque<Packet>,
    fill_scratch: Vec<u32>,
    next_packet_id: u64,
}

/// Flits of a packet carrying `payload` bytes plus a one-flit header.
pub fn flits_for(payload: u32, flit_bytes: u32) -> u32 {
    1 + payload.div_ceil(flit_bytes)
}

impl MemPartition {
    pub fn new(id: usize, cfg: &GpuConfig) -> Self {
        MemPartition {
            id,
            node: cfg.network.mem_nodes[id],
            llc: LlcSlice::new(&cfg.llc, cfg.l1.line_bytes),
            dram: DramChannel::new(&cfg.dram, cfg.l1.line_bytes, cfg.clock_mhz),
            latency: cfg.llc.latency as u64,
            input_cap: cfg.llc.input_queue as usize,
            line_bytes: cfg.l1.line_bytes,
            flit_bytes: cfg.network.flit_bytes(),
            in_q: VecDeque::new(),
            reply_pipe: VecDeque::new(),
            miss_pipe: VecDeque::new(),
            writebacks: VecDeque::new(),
            out_q: VecDeque::new(),
            fill_scratch: Vec::new(),
            next_packet_id: (id as u64) << 48 | 1 << 63,
        }
    }

    /// Nothing buffered anywhere in the partition.
    pub fn idle(&self) -> bool {
        self.in_q.is_empty()
            && self.reply_pipe.is_empty()
            && self.miss_pipe.is_empty()
            && self.writebacks.is_empty()
            && self.out_q.is_empty()
            && self.dram.idle()
            && self.llc.mshrs_in_use() == 0
    }

    /// Only dirty data remains: the partition has no work that affects the SMs.
    pub fn quiet(&self) -> bool {
        self.in_q.is_empty() && self.reply_pipe.is_empty() && self.out_q.is_empty() && self.llc.mshrs_in_use() == 0
    }

    fn local_line(&self, map: &AddressMap, line: u64) -> u64 {
        map.local(line) >> self.line_bytes.trailing_zeros()
    }

    fn reply(&mut self, txns: &TxnTable, sm_nodes: &[usize], tag: u32) {
        let t = txns.get(tag);
        let flits = match t.kind {
            TxnKind::Read | TxnKind::ReadBypass => flits_for(self.line_bytes, self.flit_bytes),
            TxnKind::Atomic => flits_for(t.bytes, self.flit_bytes),
            TxnKind::Write => 1,
        };
        self.next_packet_id += 1;
        self.out_q.push_back(Packet {
            id: self.next_packet_id,
            src: self.node,
            dst: sm_nodes[t.sm as usize],
            class: Class::Reply,
            flits,
            tag: tag as u64,
            injected_at: 0,
        });
    }

    /// One core cycle.
    pub fn cycle(&mut self, now: u64, net: &mut dyn Network, txns: &TxnTable, map: &AddressMap, sm_nodes: &[usize]) {
        // (1) network -> input queue
        while self.in_q.len() < self.input_cap {
            match net.eject(self.node) {
                Some(p) => self.in_q.push_back(p),
                None => break,
            }
        }
        // (2) DRAM
        self.dram.cycle(now);
        while let Some(line) = self.dram.pop_return(now) {
            let ll = self.local_line(map, line);
            let mut waiters = std::mem::take(&mut self.fill_scratch);
            waiters.clear();
            if let Some(ev) = self.llc.fill(line, ll, &mut waiters) {
                self.writebacks.push_back(ev);
            }
            for &w in &waiters {
                self.reply(txns, sm_nodes, w);
            }
            self.fill_scratch = waiters;
        }
        // (3) tag pipeline outputs
        while let Some(&(t, tag)) = self.reply_pipe.front() {
            if t > now {
                break;
            }
            self.reply_pipe.pop_front();
            self.reply(txns, sm_nodes, tag);
        }
        while let Some(&(t, line)) = self.miss_pipe.front() {
            if t > now || !self.dram.can_accept() {
                break;
            }
            self.miss_pipe.pop_front();
            let loc = map.dram_loc(map.local(line));
            self.dram.push(line, loc.bank, loc.row, false);
        }
        while let Some(&line) = self.writebacks.front() {
            if !self.dram.can_accept() {
                break;
            }
            self.writebacks.pop_front();
            let loc = map.dram_loc(map.local(line));
            self.dram.push(line, loc.bank, loc.row, true);
        }
        // (4) one tag access
        if let Some(p) = self.in_q.front() {
            let tag = p.tag as u32;
            let t = *txns.get(tag);
            let ll = self.local_line(map, t.line);
            let done = match t.kind {
                TxnKind::Read | TxnKind::ReadBypass | TxnKind::Atomic => {
                    match self.llc.read(t.line, ll, tag, t.kind == TxnKind::Atomic) {
                        LlcRead::Hit => {
                            self.reply_pipe.push_back((now + self.latency, tag));
                            true
                        }
                        LlcRead::Miss => {
                            self.miss_pipe.push_back((now + self.latency, t.line));
                            true
                        }
                        LlcRead::Merged => true,
                        LlcRead::Blocked => false,
                    }
                }
                TxnKind::Write => {
                    if let Some(ev) = self.llc.write(t.line, ll, t.mask) {
                        self.writebacks.push_back(ev);
                    }
                    self.reply_pipe.push_back((now + self.latency, tag));
                    true
                }
            };
            if done {
                self.in_q.pop_front();
            }
        }
        // (5) inject one reply
        if !self.out_q.is_empty() && net.can_inject(self.node, Class::Reply) {
            let p = self.out_q.pop_front().expect("front exists");
            net.inject(p);
        }
    }
}
