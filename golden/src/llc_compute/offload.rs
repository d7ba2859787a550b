//! LLC-Compute in the GPU model, the core side (`[hooks.llc_compute] mode = "llc"`):
//! the Offload Queue's run-time decision of spec §2.5 at each SM.
//!
//! The SM issues a tagged chain's instructions into this hook
//! ([`IssueDecision::Offload`]): each one executes at once, so results are the
//! baseline's by construction, and its timing is the OQ's. Per chain instance:
//! * `01` (a load): OQSR full, DISCARD: the chain runs normally [P]. The CPGU forming
//!   another warp's chain: the `01` waits ([OC] `cpgu_busy_policy = wait`, charged as a
//!   barrier-class stall by the SM). Otherwise an OQSR entry is allocated.
//! * each chain load's lines are looked up in the L1 without a fill (pending MSHRs count
//!   as hits [OC]): a hit on the first load DISCARDs, on a later one FLUSHes (the held
//!   misses go out the normal way) [P]; a load or store touching more than one line is
//!   memory-divergent and flushes ([OC] `div_policy = discard`).
//! * every memory operand must map to one LLC partition (LLC-Compute) [P]: checked as
//!   each operand is absorbed, which is when the spec's EMN key becomes known for loads
//!   and stores; else FLUSH.
//! * the `11` absorbed with every load a held miss: the ComputePacket (one 32-B flit,
//!   [`ComputePacket`]) leaves for the partition's node, and the warp issues nothing
//!   until the answer [P]: ACK, DATA or BITMAP resumes it; fallback data (the SQSR was
//!   full, §1.6.4) means the core computes and stores itself (the held store goes out).
//!
//! Differences from the spec, each a documented model choice: chain-aware fetch and
//! issue priority (§1.2) are not modelled (the GTO order is kept); a FLUSH at a chain
//! store sends the store right after the re-sent loads instead of after their data
//! returns (it changes no result); the `ld i` of a register-held uniform operand travels
//! as 0 in the packet (the SQ's data path does not affect its timing, and results come
//! from the core's execution).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::chain::{InstrKind, Pattern, RespKind};
use super::packet::{ComputePacket, Flit};
use super::tagger::{find_chains, Chain, Uniform};
use crate::gpu::hooks::{count, Absorb, Absorbed, CoreNetHook, CorePort, HookCounters, IssueDecision, IssueHook, IssueTaps, OffloadEvent, WarpView};
use crate::gpu::mapping::AddressMap;
use crate::gpu::ptx::{Inst, Kernel};
use crate::network::{Class, Packet};

/// Response kinds on the wire (a packet's tag bits 15:8, its OQ tag in bits 7:0): the
/// CP's `resp_kind` codes, then fallback data for operand a and b (the OQ's `rsp_kind`).
pub const WIRE_FB_A: u64 = 3;

/// ComputePackets between an SM's OQ and a partition's SQ: the flit a packet carries
/// (the GPU network moves sizes, not payloads), by source SM and OQ tag.
#[derive(Debug, Default)]
pub struct Wire {
    cps: Vec<Vec<Option<Flit>>>,
}

impl Wire {
    pub fn new(sms: usize, entries: usize) -> Self {
        Self { cps: vec![vec![None; entries]; sms] }
    }

    /// The packet tag of SM `sm`'s CP with OQ tag `tag`.
    fn key(sm: usize, tag: usize) -> u64 {
        (sm as u64) << 8 | tag as u64
    }

    /// Take the flit a CP packet with tag `key` carries.
    pub fn take(&mut self, key: u64) -> Flit {
        let (sm, tag) = ((key >> 8) as usize, (key & 0xff) as usize);
        self.cps[sm][tag].take().unwrap_or_else(|| panic!("a ComputePacket from SM {sm} with OQ tag {tag} carries no flit"))
    }
}

/// A pc's place in a chain.
#[derive(Debug, Clone, Copy, Default)]
struct Role {
    /// Index + 1 into the kernel's chains (0: not in a chain).
    chain: u32,
    kind: Option<InstrKind>,
    /// A load's operand (0: a, 1: b), by its place in Table 1's order.
    operand: usize,
    /// First and last in program order (the `01` and `11` tags, spec §2.1).
    first: bool,
    last: bool,
}

/// An OQSR entry in flight (spec §1.3.2; what the model needs of it).
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    valid: bool,
    warp: u16,
    loads: u32,
    /// Fallback data packets received.
    fb: u32,
}

/// The chain the CPGU is forming (one at a time, §1.2).
#[derive(Debug, Clone, Copy)]
struct Forming {
    warp: u16,
    entry: usize,
    chain: usize,
    mask: u32,
    /// Memory operand lines: a, b (loads, in order), c (the store).
    lines: [Option<u64>; 3],
    /// The partition every operand so far maps to.
    part: Option<usize>,
}

/// The OQ counters (`llc_compute.offload.*`).
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    chains: u64,
    sent: u64,
    discard_full: u64,
    discard_l1_hit: u64,
    flush_l1_hit: u64,
    flush_divergent: u64,
    flush_partitions: u64,
    cpgu_wait: u64,
    answers: u64,
    fallbacks: u64,
}

/// One SM's Offload Queue: the issue side ([`OqIssue`]) and the network side
/// ([`OqNet`]) share it.
#[derive(Debug)]
pub struct Oq {
    sm: usize,
    node: usize,
    entries: Vec<Entry>,
    live: usize,
    forming: Option<Forming>,
    /// Per warp slot: its current chain runs normally (discarded or flushed).
    normal: Vec<bool>,
    roles: Vec<Role>,
    chains: Vec<Chain>,
    /// ComputePackets to inject: (destination node, OQ tag).
    outbox: VecDeque<(usize, usize)>,
    events: VecDeque<OffloadEvent>,
    wire: Rc<RefCell<Wire>>,
    map: Rc<AddressMap>,
    mem_nodes: Rc<Vec<usize>>,
    n: Counts,
}

impl Oq {
    pub fn new(sm: usize, node: usize, entries: usize, warps: usize, wire: Rc<RefCell<Wire>>, map: Rc<AddressMap>, mem_nodes: Rc<Vec<usize>>) -> Self {
        Self {
            sm,
            node,
            entries: vec![Entry::default(); entries],
            live: 0,
            forming: None,
            normal: vec![false; warps],
            roles: Vec::new(),
            chains: Vec::new(),
            outbox: VecDeque::new(),
            events: VecDeque::new(),
            wire,
            map,
            mem_nodes,
            n: Counts::default(),
        }
    }

    fn begin(&mut self, k: &Kernel) {
        self.chains = find_chains(k);
        self.roles = vec![Role::default(); k.insts.len()];
        for (i, c) in self.chains.iter().enumerate() {
            // Table 1 lists a chain's steps in operand order, which need not be program order
            let (lo, hi) = (c.pcs().min().unwrap_or(0), c.pcs().max().unwrap_or(0));
            let mut loads = 0;
            for s in &c.steps {
                let Some(pc) = s.pc else { continue };
                let operand = loads;
                loads += usize::from(s.kind == InstrKind::Ld);
                self.roles[pc as usize] = Role { chain: i as u32 + 1, kind: Some(s.kind), operand, first: pc == lo, last: pc == hi };
            }
        }
    }

    fn decide(&mut self, warp: &WarpView) -> IssueDecision {
        if warp.at_barrier {
            return IssueDecision::Block;
        }
        let role = self.roles[warp.pc as usize];
        if role.chain == 0 {
            return IssueDecision::Issue;
        }
        let w = warp.slot as usize;
        if !role.first {
            return match self.forming {
                Some(f) if f.warp == warp.slot && !self.normal[w] => IssueDecision::Offload,
                _ => IssueDecision::Issue,
            };
        }
        if self.forming.is_some_and(|f| f.warp != warp.slot) {
            self.n.cpgu_wait += 1;
            return IssueDecision::Block;
        }
        self.n.chains += 1;
        self.normal[w] = false;
        if self.live == self.entries.len() {
            self.n.discard_full += 1;
            self.normal[w] = true;
            return IssueDecision::Issue;
        }
        let entry = self.entries.iter().position(|e| !e.valid).expect("not full");
        let chain = role.chain as usize - 1;
        let loads = Pattern::get(self.chains[chain].pattern).map_or(1, |p| p.loads()) as u32;
        self.entries[entry] = Entry { valid: true, warp: warp.slot, loads, fb: 0 };
        self.live += 1;
        self.forming = Some(Forming { warp: warp.slot, entry, chain, mask: 0, lines: [None; 3], part: None });
        IssueDecision::Offload
    }

    /// The forming chain ends without a packet: its entry is freed and the rest of the
    /// chain runs normally.
    fn abandon(&mut self, f: &Forming) -> Absorb {
        self.entries[f.entry].valid = false;
        self.live -= 1;
        self.forming = None;
        self.normal[f.warp as usize] = true;
        Absorb::Release
    }

    fn absorb(&mut self, a: &Absorbed<'_>) -> Absorb {
        let mut f = self.forming.expect("an absorbed instruction belongs to the forming chain");
        assert_eq!(f.warp, a.warp, "the forming chain is another warp's");
        let role = self.roles[a.pc as usize];
        if role.first {
            f.mask = a.mask;
        }
        if let Some(InstrKind::Ld | InstrKind::St) = role.kind {
            let store = role.kind == Some(InstrKind::St);
            if a.lines.len() != 1 {
                // no lane ran, or lanes on several lines: memory-divergent (§2.6, discard)
                self.n.flush_divergent += 1;
                return self.abandon(&f);
            }
            let l = a.lines[0];
            if l.l1_hit {
                // L1 locality wins (§2.5): DISCARD at the first load, else FLUSH
                if role.first {
                    self.n.discard_l1_hit += 1;
                } else {
                    self.n.flush_l1_hit += 1;
                }
                return self.abandon(&f);
            }
            let part = self.map.node(l.line);
            if f.part.is_some_and(|p| p != part) {
                self.n.flush_partitions += 1;
                return self.abandon(&f);
            }
            f.part = Some(part);
            if store {
                f.lines[2] = Some(l.line);
            } else {
                f.lines[role.operand] = Some(l.line);
            }
        }
        if !role.last {
            self.forming = Some(f);
            return Absorb::Hold;
        }
        // the `11`: build the ComputePacket and send it to the partition (§2.5)
        let c = &self.chains[f.chain];
        let p = Pattern::get(c.pattern).expect("tagged chains have a Table 1 pattern");
        let part = f.part.expect("a chain has a memory operand");
        let dst = self.mem_nodes[part];
        let imm = match c.uniform {
            Some(Uniform::Imm(v)) => v,
            _ => 0,
        };
        let cp = ComputePacket {
            src_node: self.node as u32,
            dst_node: dst as u32,
            op0: c.op0,
            op1: c.op1,
            pattern: c.pattern,
            resp_kind: p.resp.code(),
            dtype: c.fp,
            addr_a: f.lines[0].unwrap_or(0),
            addr_b: f.lines[1].unwrap_or(0),
            addr_c: f.lines[2].unwrap_or(0),
            imm,
            mask: f.mask,
            oq_tag: f.entry as u32,
        };
        self.wire.borrow_mut().cps[self.sm][f.entry] = Some(cp.encode());
        self.outbox.push_back((dst, f.entry));
        self.forming = None;
        self.n.sent += 1;
        Absorb::Wait
    }

    /// An answer from an SQ (`kind`: [`RespKind::code`] or fallback data).
    fn answer(&mut self, pkt: &Packet) {
        let (kind, tag) = (pkt.tag >> 8 & 0xff, (pkt.tag & 0xff) as usize);
        let e = &mut self.entries[tag];
        assert!(e.valid, "SM {}: an answer for OQ tag {tag}, which is not in flight", self.sm);
        let want = if kind >= WIRE_FB_A { RespKind::Data } else { RespKind::from_code(kind as u32).expect("a resp_kind code") }.flits();
        assert_eq!(pkt.flits, want, "SM {}: answer kind {kind} of {} flits", self.sm, pkt.flits);
        let done = if kind >= WIRE_FB_A {
            e.fb += 1;
            (e.fb == e.loads).then_some(OffloadEvent::Fallback(e.warp))
        } else {
            Some(OffloadEvent::Resume(e.warp))
        };
        if let Some(ev) = done {
            self.n.answers += 1;
            self.n.fallbacks += u64::from(matches!(ev, OffloadEvent::Fallback(_)));
            e.valid = false;
            self.live -= 1;
            self.events.push_back(ev);
        }
    }

    fn counters(&self, out: &mut HookCounters) {
        let n = &self.n;
        for (name, v) in [
            ("chains", n.chains),
            ("sent", n.sent),
            ("discard_oqsr_full", n.discard_full),
            ("discard_l1_hit", n.discard_l1_hit),
            ("flush_l1_hit", n.flush_l1_hit),
            ("flush_divergent", n.flush_divergent),
            ("flush_partitions", n.flush_partitions),
            ("cpgu_wait", n.cpgu_wait),
            ("answers", n.answers),
            ("fallbacks", n.fallbacks),
        ] {
            count(out, &format!("llc_compute.oq.{name}"), v);
        }
    }
}

/// The OQ at the SM's issue stage.
pub struct OqIssue(pub Rc<RefCell<Oq>>);

impl IssueHook for OqIssue {
    fn taps(&self) -> IssueTaps {
        IssueTaps { every_inst: true, ..IssueTaps::default() }
    }

    fn kernel_begin(&mut self, kernel: &Kernel) {
        self.0.borrow_mut().begin(kernel);
    }

    fn decide(&mut self, _now: u64, warp: &WarpView, _inst: &Inst) -> IssueDecision {
        self.0.borrow_mut().decide(warp)
    }

    fn absorb(&mut self, _now: u64, a: &Absorbed<'_>) -> Absorb {
        self.0.borrow_mut().absorb(a)
    }

    fn poll(&mut self, _now: u64) -> Option<OffloadEvent> {
        self.0.borrow_mut().events.pop_front()
    }

    fn counters(&self, out: &mut HookCounters) {
        self.0.borrow().counters(out);
    }
}

/// The OQ at the SM's network port: ComputePackets out, answers in.
pub struct OqNet(pub Rc<RefCell<Oq>>);

impl CoreNetHook for OqNet {
    fn arrive(&mut self, _now: u64, pkt: Packet) {
        self.0.borrow_mut().answer(&pkt);
    }

    fn cycle(&mut self, now: u64, port: &mut dyn CorePort) -> u64 {
        let mut oq = self.0.borrow_mut();
        if !oq.events.is_empty() {
            port.wake_sm();
        }
        // one CP per cycle into the request class (the CP message class of §1.8 rides
        // the request network here)
        if let Some(&(dst, tag)) = oq.outbox.front() {
            if port.can_send(Class::Request) {
                oq.outbox.pop_front();
                port.send(dst, Class::Request, 1, Wire::key(oq.sm, tag));
            }
        }
        if oq.outbox.is_empty() {
            u64::MAX
        } else {
            now + 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oq() -> Oq {
        let cfg = crate::gpu::GpuConfig::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/gpu/tiny.toml")).unwrap();
        let map = Rc::new(AddressMap::new(&cfg.mapping, &cfg.dram, cfg.mem_nodes));
        let mut q = Oq::new(0, 0, 4, 8, Rc::new(RefCell::new(Wire::new(1, 4))), map, Rc::new(vec![2, 3]));
        q.entries[1] = Entry { valid: true, warp: 5, loads: 2, fb: 0 };
        q.live = 1;
        q
    }

    fn pkt(kind: u64, flits: u32) -> Packet {
        Packet { id: 1, src: 2, dst: 0, class: Class::Reply, flits, tag: kind << 8 | 1, injected_at: 0 }
    }

    #[test]
    fn answers_resume_or_fall_back_after_every_operand() {
        let mut q = oq();
        q.answer(&pkt(0, 1));
        assert_eq!(q.events.pop_front(), Some(OffloadEvent::Resume(5)));
        assert_eq!(q.live, 0);
        let mut q = oq();
        q.answer(&pkt(WIRE_FB_A, 5));
        assert!(q.events.is_empty(), "one of two fallback loads");
        q.answer(&pkt(WIRE_FB_A + 1, 5));
        assert_eq!(q.events.pop_front(), Some(OffloadEvent::Fallback(5)));
    }

    /// A planted protocol bug (an ACK the size of a data packet) is caught.
    #[test]
    #[should_panic(expected = "answer kind 0 of 5 flits")]
    fn a_wrong_sized_answer_is_caught() {
        oq().answer(&pkt(0, 5));
    }

    /// An answer for an entry not in flight is caught.
    #[test]
    #[should_panic(expected = "not in flight")]
    fn an_answer_for_a_free_entry_is_caught() {
        let mut q = oq();
        q.answer(&Packet { tag: 2, ..pkt(0, 1) });
    }
}
