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
//!
//! Hooks ([`super::hooks`]): packets tagged for a hook go to the partition's
//! [`super::hooks::PartitionHook`] in (1), its completed LLC accesses are reported in
//! (2)/(3), and its cycle runs before (4), where it may take the tag access; every
//! accepted tag access, fill and dirty write-back is reported to the
//! [`super::hooks::L2Hook`].

use std::collections::VecDeque;

use crate::network::{Class, Network, Packet};

use super::config::GpuConfig;
use super::dram::DramChannel;
use super::hooks::{self, L2Access, L2Hook, L2Outcome, PartHooks, PartitionPort, Requester, HOOK_TAG};
use super::llc::{LlcRead, LlcSlice, LlcWrite};
use super::mapping::AddressMap;
use super::net::ZeroLoad;
use super::txn::{Txn, TxnKind, TxnTable, HOOK_SM, UNSTAMPED};

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
    /// (transaction, line) of the input queue's head when the LLC refused it: its
    /// retries ask [`LlcSlice::refuses_again`] first.
    refused_head: (u32, u64),
    next_packet_id: u64,
    /// Packets' network time on an idle network (the latency breakdown's traversal).
    zero_load: ZeroLoad,
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
            refused_head: (u32::MAX, u64::MAX),
            next_packet_id: (id as u64) << 48 | 1 << 63,
            zero_load: ZeroLoad::of(&cfg.network),
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

    /// Whether a request waits in the input queue for the tag port.
    pub(crate) fn queue_waiting(&self) -> bool {
        !self.in_q.is_empty()
    }

    /// Transaction `tag`'s reply is ready (`from_dram`: after a DRAM fill, not an LLC
    /// hit): to the hook, or into the output queue.
    fn reply(&mut self, now: u64, txns: &mut TxnTable, sm_nodes: &[usize], hooks: &mut PartHooks, tag: u32, from_dram: bool) {
        let t = *txns.get(tag);
        if t.sm == HOOK_SM {
            txns.release(tag);
            hooks.hook.llc_done(now, t.token);
            hooks.wake = now;
            return;
        }
        let flits = match t.kind {
            TxnKind::Read | TxnKind::ReadBypass => flits_for(self.line_bytes, self.flit_bytes),
            TxnKind::Atomic => flits_for(t.bytes, self.flit_bytes),
            TxnKind::Write => 1,
        };
        let st = txns.stamps_mut(tag);
        (st.ready, st.from_dram) = (now, from_dram);
        self.next_packet_id += 1;
        self.out_q.push_back(Packet { id: self.next_packet_id, src: self.node, dst: sm_nodes[t.sm as usize], class: Class::Reply, flits, tag: tag as u64, injected_at: 0 });
    }

    /// One tag access for transaction `tag`; false if the LLC refused it (the request
    /// stays where it is).
    fn access(&mut self, now: u64, tag: u32, t: &Txn, map: &AddressMap, l2: &mut dyn L2Hook) -> bool {
        let ll = self.local_line(map, t.line);
        let mut evicted = None;
        let outcome = match t.kind {
            TxnKind::Read | TxnKind::ReadBypass | TxnKind::Atomic => match self.llc.read(t.line, ll, tag, t.kind == TxnKind::Atomic) {
                LlcRead::Hit => {
                    self.reply_pipe.push_back((now + self.latency, tag));
                    L2Outcome::Hit
                }
                LlcRead::Miss => {
                    self.miss_pipe.push_back((now + self.latency, t.line));
                    L2Outcome::Miss
                }
                LlcRead::Merged => L2Outcome::Merged,
                LlcRead::Blocked => return false,
            },
            TxnKind::Write => {
                let (how, ev) = self.llc.write(t.line, ll, t.mask);
                if let Some(ev) = ev {
                    self.writebacks.push_back(ev);
                    evicted = Some(ev);
                }
                self.reply_pipe.push_back((now + self.latency, tag));
                match how {
                    LlcWrite::Hit => L2Outcome::Hit,
                    LlcWrite::Merged => L2Outcome::Merged,
                    LlcWrite::Allocated => L2Outcome::Miss,
                }
            }
        };
        let (dirty_before, dirty_after) = self.llc.last_dirty;
        let requester = if t.sm == HOOK_SM { Requester::Partition } else { Requester::Sm(t.sm) };
        l2.access(now, &L2Access { part: self.id, requester, kind: t.kind, line: t.line, outcome, dirty_before, dirty_after });
        if let Some(ev) = evicted {
            l2.writeback(now, self.id, ev);
        }
        true
    }

    /// A tag access made by the partition's hook ([`PartitionPort::llc`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn hook_access(&mut self, now: u64, txns: &mut TxnTable, map: &AddressMap, l2: &mut dyn L2Hook, kind: TxnKind, line: u64, mask: u128, tag: u32) -> bool {
        let t = Txn { kind, sm: HOOK_SM, warp: 0, token: tag, line, mask, bytes: mask.count_ones() };
        let id = txns.alloc(t);
        let ok = self.access(now, id, &t, map, l2);
        if !ok {
            txns.release(id);
        }
        ok
    }

    /// One core cycle (see the module docs for the order; `hooks` are this partition's,
    /// `l2` the L2's).
    #[allow(clippy::too_many_arguments)]
    pub fn cycle(&mut self, now: u64, net: &mut dyn Network, txns: &mut TxnTable, map: &AddressMap, sm_nodes: &[usize], hooks: &mut PartHooks, l2: &mut dyn L2Hook) {
        // (1) network -> input queue; packets for the hook -> the hook
        while self.in_q.len() < self.input_cap {
            match net.eject(self.node) {
                Some(mut p) if p.tag & HOOK_TAG != 0 => {
                    p.tag &= !HOOK_TAG;
                    hooks.hook.arrive(now, p);
                    hooks.wake = now;
                }
                Some(p) => {
                    let st = txns.stamps_mut(p.tag as u32);
                    st.arrive = now;
                    st.zero_load = self.zero_load.cycles(p.src, p.dst, p.flits).unwrap_or(UNSTAMPED);
                    self.in_q.push_back(p);
                }
                None => break,
            }
        }
        // (2) DRAM
        self.dram.cycle(now);
        while let Some(line) = self.dram.pop_return(now) {
            let ll = self.local_line(map, line);
            let mut waiters = std::mem::take(&mut self.fill_scratch);
            waiters.clear();
            let ev = self.llc.fill(line, ll, &mut waiters);
            if !waiters.is_empty() {
                l2.fill(now, self.id, line, self.llc.last_dirty.0, self.llc.last_dirty.1);
            }
            if let Some(ev) = ev {
                self.writebacks.push_back(ev);
                l2.writeback(now, self.id, ev);
            }
            for &w in &waiters {
                self.reply(now, txns, sm_nodes, hooks, w, true);
            }
            self.fill_scratch = waiters;
        }
        // (3) tag pipeline outputs
        while let Some(&(t, tag)) = self.reply_pipe.front() {
            if t > now {
                break;
            }
            self.reply_pipe.pop_front();
            self.reply(now, txns, sm_nodes, hooks, tag, false);
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
        // (4) the hook's cycle (it may take the tag port), then one tag access
        let mut tag_used = false;
        if hooks.wake <= now {
            let PartHooks { hook, wake, next_id } = hooks;
            let mut port = Port { part: self, now, txns, map, net, l2, next_id, tag_used: false };
            *wake = hook.cycle(now, &mut port);
            tag_used = port.tag_used;
        }
        if !tag_used {
            if let Some(p) = self.in_q.front() {
                let tag = p.tag as u32;
                let (rtag, rline) = self.refused_head;
                if rtag != tag || !self.llc.refuses_again(rline) {
                    let t = *txns.get(tag);
                    if self.access(now, tag, &t, map, l2) {
                        self.in_q.pop_front();
                        self.refused_head = (u32::MAX, u64::MAX);
                    } else {
                        self.refused_head = (tag, t.line);
                    }
                }
            }
        }
        // (5) inject one reply
        if !self.out_q.is_empty() && net.can_inject(self.node, Class::Reply) {
            let p = self.out_q.pop_front().expect("front exists");
            let st = txns.stamps_mut(p.tag as u32);
            st.injected = now;
            st.zero_load = match self.zero_load.cycles(p.src, p.dst, p.flits) {
                Some(z) if st.zero_load != UNSTAMPED => st.zero_load + z,
                _ => UNSTAMPED,
            };
            net.inject(p);
        }
    }
}

/// What the partition offers its hook in the hook's cycle.
struct Port<'a> {
    part: &'a mut MemPartition,
    now: u64,
    txns: &'a mut TxnTable,
    map: &'a AddressMap,
    net: &'a mut dyn Network,
    l2: &'a mut dyn L2Hook,
    next_id: &'a mut u64,
    tag_used: bool,
}

impl PartitionPort for Port<'_> {
    fn node(&self) -> usize {
        self.part.node
    }

    fn queue_waiting(&self) -> bool {
        self.part.queue_waiting()
    }

    fn llc(&mut self, kind: TxnKind, line: u64, mask: u128, tag: u32) -> bool {
        if self.tag_used {
            return false;
        }
        self.tag_used = true;
        self.part.hook_access(self.now, self.txns, self.map, self.l2, kind, line, mask, tag)
    }

    fn can_send(&self, class: Class) -> bool {
        self.net.can_inject(self.part.node, class)
    }

    fn send(&mut self, dst: usize, class: Class, flits: u32, tag: u64) {
        hooks::send(self.net, self.next_id, self.part.node, dst, class, flits, tag);
    }
}
