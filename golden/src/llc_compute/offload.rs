//! LLC-Compute and Omni-Compute in the GPU model, the core side (`[hooks.llc_compute]
//! mode = "llc"` or `"omni"`): the Offload Queue's run-time decision of spec §2.5 at
//! each SM, and (Omni) the core's own Service Queue beside it at the network port.
//!
//! The SM issues a tagged chain's instructions into this hook
//! ([`IssueDecision::Offload`]): each one executes at once, so results are the
//! baseline's by construction, and its timing is the OQ's. Per chain instance:
//! * `01` (a load): OQSR full, DISCARD: the chain runs normally [P]. The CPGU forming
//!   another warp's chain: the `01` waits ([OC] `cpgu_busy_policy = wait`, charged as a
//!   barrier-class stall by the SM). Otherwise an OQSR entry is allocated.
//! * each chain load's lines are looked up in the L1 without a fill (pending MSHRs count
//!   as hits [OC]): a hit on the first load DISCARDs, on a later one FLUSHes (the held
//!   misses go out the normal way) [P]; a load or store of which no lane ran flushes.
//! * memory divergence (§2.6, `divergence_policy`): under `discard` a load or store
//!   touching more than one line flushes. Under `split` each memory operand regroups the
//!   chain's lanes by the line each lane accesses, so the groups are the lanes with one
//!   (line_a, line_b, line_c); lanes an operand's guard left out ride with their group
//!   (in its first line). Each group needs its own OQSR entry: more groups than the
//!   chain's entry plus the free ones DISCARDs the whole chain (it runs normally),
//!   checked as each operand regroups. Each group is placed on its own (the target
//!   rules below, per group); if one cannot go, the chain FLUSHes. A chain of more than
//!   one group is sent only if every group reads and writes each line at unit stride
//!   (lane k of the group at word `(start + k) mod 32`, 4-byte words), which is what the
//!   extension flit can address ([`CpExtension`]: per operand the group's lanes and a
//!   5-bit start word); else it FLUSHes at its `11`. (One group needs no extension flit
//!   and keeps the `discard` rule: one line per operand, any lanes.) Each group leaves
//!   as its own 2-flit CP (`has_ext`, `len_flits = 2`) with its lanes as the CP's mask;
//!   its SQ writes the group's store words ([`super::wire::Wire::store_enables`]). The
//!   warp goes on when every group is answered: RESUME if all were served, FALLBACK if
//!   one fell back (the core stores the whole instruction itself: the other groups'
//!   lanes are written twice, with the same values; results are exact either way).
//! * where the chain goes, checked as soon as it is known (spec §2.5 "early check"):
//!   - LLC-Compute: every memory operand maps to one LLC partition [P], checked as each
//!     operand is absorbed; else FLUSH.
//!   - Omni-Compute: the EMN of the source core's lookup table (spec §1.4), keyed by the
//!     operands' partitions (a, b for two loads; a, c for a load and a store; a, a for a
//!     lone load), once the key's operands are absorbed. No EMN: FLUSH. An EMN core whose
//!     SQ is off for this kernel (its threadblocks need the shared memory the SQSR's
//!     slots take, §1.7 `disable_core_sq`): FLUSH. An EMN at an LLC node takes the chain
//!     only if every memory operand is in that partition (our choice: the LLC SQ writes
//!     its own LLC only, as the RTL does); else FLUSH.
//! * the `11` absorbed with every load a held miss: the ComputePacket (one 32-B flit,
//!   [`ComputePacket`], two for a split group) leaves for the target node, and the warp issues nothing until
//!   the answer [P]: ACK, DATA or BITMAP resumes it; fallback data (the SQSR was full,
//!   §1.6.4) means the core computes and stores itself (the held store goes out).
//!
//! Chain-aware priority (spec §1.2, `chain_priority`, on by default): from a chain's
//! `01` issue until its `11` issues (or the chain is discarded or flushed) its warp is
//! the core's priority warp: first in its scheduler's GTO order
//! ([`IssueHook::order`]) and first in fetch ([`IssueHook::fetch_first`]). Counters
//! `oq.prio_ahead` (scheduler cycles in which the priority warp was moved ahead of
//! another) and `oq.prio_fetch` (cycles with a fetch-priority warp).
//!
//! Differences from the spec, each a documented model choice: fetch priority starts at
//! the `01`'s issue, not its fetch (the SM's fetch stage does not see tags); a FLUSH at a chain
//! store sends the store right after the re-sent loads instead of after their data
//! returns (it changes no result); the `ld i` of a register-held uniform operand travels
//! as 0 in the packet (the SQ's data path does not affect its timing, and results come
//! from the core's execution); ComputePackets ride the request class (no separate CP
//! virtual channels, §1.8).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::chain::{InstrKind, Pattern};
use super::core_service::SqCoreService;
use super::emn::EmnTableCounts;
use super::packet::{ComputePacket, CpExtension};
use super::tagger::{find_chains, Chain, Uniform};
use super::wire::{CoreSink, Msg, Wire};
use crate::gpu::hooks::{count, Absorb, Absorbed, CoreNetHook, CorePort, HookCounters, IssueDecision, IssueHook, IssueTaps, KernelShape, OffloadEvent, WarpView};
use crate::gpu::mapping::AddressMap;
use crate::gpu::ptx::{Inst, Kernel};
use crate::network::{Class, Packet};

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
#[doc(hidden)]
pub struct Entry {
    /// Whether the entry holds a group in flight.
    pub valid: bool,
    /// The warp whose chain it holds.
    pub warp: u16,
    /// Its chain's loads (the fallback data packets it waits for).
    pub loads: u32,
    /// Fallback data packets received.
    pub fb: u32,
}

/// The chain the CPGU is forming (one at a time, §1.2); its lane groups are in
/// [`Oq::groups`].
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Forming {
    /// The warp forming the chain.
    pub warp: u16,
    /// Its OQSR entry.
    pub entry: usize,
    /// Its chain (an index into the kernel's chains).
    pub chain: usize,
    /// Its active lanes.
    pub mask: u32,
}

/// The lanes of a forming chain with one tuple (line_a, line_b, line_c) (spec §2.6):
/// one ComputePacket each. A chain that is not memory-divergent is one group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[doc(hidden)]
pub struct Group {
    /// Its lanes (they partition the chain's active lanes).
    pub mask: u32,
    /// Per memory operand a, b (loads, in order), c (the store): the group's lanes that
    /// access it (lanes the operand's guard left out ride with the group).
    pub lanes: [u32; 3],
    /// Each operand's line and its partition.
    pub lines: [Option<u64>; 3],
    /// Each operand's partition.
    pub parts: [Option<usize>; 3],
    /// The target node, once known.
    pub dst: Option<usize>,
}

/// `divergence_policy` (spec §2.6 [OC]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Divergence {
    /// A chain instruction touching more than one line flushes the chain (the RTL's v1).
    Discard,
    /// The chain's lanes are grouped by their lines, one OQSR entry and one 2-flit CP
    /// per group (the golden default).
    Split,
}

/// Not a 4-byte word of a 32-word line (`Oq::words`).
#[doc(hidden)]
pub const NO_WORD: u8 = u8::MAX;

/// The start-word offset of each group's operands if every group reads (writes) its
/// lines at unit stride: lane k of the group at word `(start + k) mod 32` (spec §2.6,
/// the extension flit's addressing); `None` if one does not.
#[doc(hidden)]
pub fn unit_stride(groups: &[Group], words: &[[u8; 32]; 3]) -> Option<Vec<[u32; 3]>> {
    groups
        .iter()
        .map(|g| {
            let mut start = [0u32; 3];
            for k in 0..3 {
                let m = g.lanes[k];
                if m == 0 {
                    continue;
                }
                let at = |i: u32| (words[k][i as usize] != NO_WORD).then(|| (u32::from(words[k][i as usize]) + 32 - i) % 32);
                let s = at(m.trailing_zeros())?;
                if (0..32).filter(|i| m >> i & 1 == 1).any(|i| at(i) != Some(s)) {
                    return None;
                }
                start[k] = s;
            }
            Some(start)
        })
        .collect()
}

/// A warp's chain in flight: its groups not answered yet, and whether one fell back.
#[derive(Debug, Clone, Copy, Default)]
#[doc(hidden)]
pub struct Pending {
    /// Its groups not answered yet.
    pub left: u32,
    /// Whether one of them fell back.
    pub fallback: bool,
}

/// Where an SM's ComputePackets go.
#[derive(Debug, Clone)]
pub enum Target {
    /// LLC-Compute: the SQ of the one partition every memory operand maps to.
    Llc,
    /// Omni-Compute: the EMN of this core's lookup table, `lut[part a][part b]` (a
    /// network node: an SM or a memory node). `core_sq_bytes` of shared memory are the
    /// core SQs' slots; `shared_bytes` is an SM's shared memory.
    Omni { lut: Vec<Vec<Option<usize>>>, core_sq_bytes: u64, shared_bytes: u64 },
}

/// Why a chain cannot go where its operands say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flush {
    /// LLC-Compute, or an LLC EMN: the memory operands span partitions.
    Partitions,
    /// Omni: the lookup table has no EMN for the key.
    NoEmn,
    /// Omni: the EMN is a core whose SQ is off for this kernel.
    CoreSqOff,
}

/// The OQ counters (`llc_compute.oq.*`).
#[derive(Debug, Clone, Copy, Default)]
#[doc(hidden)]
pub struct Counts {
    chains: u64,
    sent: u64,
    sent_core: u64,
    discard_full: u64,
    discard_l1_hit: u64,
    flush_l1_hit: u64,
    flush_divergent: u64,
    flush_partitions: u64,
    flush_no_emn: u64,
    flush_core_sq_off: u64,
    flush_split_stride: u64,
    discard_too_many_groups: u64,
    cpgu_wait: u64,
    cps: u64,
    split: u64,
    split_groups: u64,
    /// Chains answered, every group (`oq.answers`).
    pub answers: u64,
    /// Of those, chains one of whose groups fell back (`oq.fallbacks`).
    pub fallbacks: u64,
    /// Groups that fell back (`oq.group_fallbacks`).
    pub group_fallbacks: u64,
    /// Scheduler cycles in which the priority warp was moved ahead (`oq.prio_ahead`).
    pub prio_ahead: u64,
    prio_fetch: u64,
}

/// One SM's Offload Queue: the issue side ([`OqIssue`]) and the network side
/// ([`OqNet`]) share it.
#[derive(Debug)]
pub struct Oq {
    sm: usize,
    node: usize,
    /// The OQSR entries, by OQ tag.
    #[doc(hidden)]
    pub entries: Vec<Entry>,
    /// Entries holding a group in flight.
    #[doc(hidden)]
    pub live: usize,
    /// The chain the CPGU is forming, if any.
    #[doc(hidden)]
    pub forming: Option<Forming>,
    /// The forming chain's lane groups, and a spare for regrouping.
    #[doc(hidden)]
    pub groups: Vec<Group>,
    spare: Vec<Group>,
    /// The forming chain's memory operands a, b, c: per lane, the 4-byte word of its
    /// line it accesses ([`NO_WORD`]: another size or alignment).
    words: [[u8; 32]; 3],
    divergence: Divergence,
    /// Per warp slot: its current chain runs normally (discarded or flushed).
    normal: Vec<bool>,
    /// Per warp slot: its chain in flight.
    #[doc(hidden)]
    pub pending: Vec<Pending>,
    roles: Vec<Role>,
    chains: Vec<Chain>,
    /// ComputePackets to inject: (destination node, OQ tag, with an extension flit).
    outbox: VecDeque<(usize, usize, bool)>,
    /// Resume and fallback events for the SM, oldest first.
    #[doc(hidden)]
    pub events: VecDeque<OffloadEvent>,
    wire: Rc<RefCell<Wire>>,
    map: Rc<AddressMap>,
    mem_nodes: Rc<Vec<usize>>,
    /// Where its ComputePackets go.
    #[doc(hidden)]
    pub target: Target,
    /// Omni: the core SQs take chains in this kernel (§1.7 shared-memory check).
    #[doc(hidden)]
    pub core_sqs_on: bool,
    /// The OQ counters.
    #[doc(hidden)]
    pub n: Counts,
    /// Chain-aware fetch and issue priority (spec §1.2): the forming chain's warp goes
    /// first in its scheduler's order and in fetch.
    priority: bool,
    /// A planted bug for the tests: the warp resumes at its chain's first answer.
    #[doc(hidden)]
    pub plant_resume_early: bool,
    /// A planted bug for the tests: the priority warp goes last instead of first.
    #[doc(hidden)]
    pub plant_priority_last: bool,
}

impl Oq {
    #[allow(clippy::too_many_arguments, reason = "the OQ's geometry, one value each")]
    pub fn new(
        sm: usize,
        node: usize,
        entries: usize,
        warps: usize,
        wire: Rc<RefCell<Wire>>,
        map: Rc<AddressMap>,
        mem_nodes: Rc<Vec<usize>>,
        target: Target,
        divergence: Divergence,
    ) -> Self {
        Self {
            sm,
            node,
            entries: vec![Entry::default(); entries],
            live: 0,
            forming: None,
            groups: Vec::new(),
            spare: Vec::new(),
            words: [[NO_WORD; 32]; 3],
            divergence,
            normal: vec![false; warps],
            pending: vec![Pending::default(); warps],
            roles: Vec::new(),
            chains: Vec::new(),
            outbox: VecDeque::new(),
            events: VecDeque::new(),
            wire,
            map,
            mem_nodes,
            target,
            core_sqs_on: true,
            n: Counts::default(),
            priority: false,
            plant_resume_early: false,
            plant_priority_last: false,
        }
    }

    /// With chain-aware fetch and issue priority (spec §1.2, `chain_priority`).
    pub fn with_priority(mut self, on: bool) -> Self {
        self.priority = on;
        self
    }

    /// The priority warp of spec §1.2: the warp whose chain the CPGU is forming, from
    /// its `01`'s issue to its `11`'s (or the chain's DISCARD or FLUSH). A chain
    /// discarded at its `01` (OQSR full) runs normally and gets none. Our choice: fetch
    /// priority starts at the `01`'s issue too (the SM's fetch stage does not know the
    /// tags), and one warp holds both.
    #[doc(hidden)]
    pub fn priority_warp(&self) -> Option<u16> {
        self.forming.filter(|_| self.priority).map(|f| f.warp)
    }

    /// Scheduler order with the priority warp first (spec §1.2 issue rule 1: GTO picks
    /// it first whenever it can issue); the others keep their order.
    #[doc(hidden)]
    pub fn order(&mut self, order: &mut [u16]) {
        let Some(w) = self.priority_warp() else { return };
        if let Some(i) = order.iter().position(|&x| x == w).filter(|&i| i > 0) {
            if self.plant_priority_last {
                order[i..].rotate_left(1);
            } else {
                order[..=i].rotate_right(1);
            }
            self.n.prio_ahead += 1;
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

    /// Spec §1.7 [OC] `disable_core_sq`: the core SQs take no chain of a kernel whose
    /// resident threadblocks need the shared memory their slots would take.
    #[doc(hidden)]
    pub fn shape(&mut self, s: &KernelShape) {
        if let Target::Omni { core_sq_bytes, shared_bytes, .. } = self.target {
            self.core_sqs_on = u64::from(s.ctas_per_sm) * u64::from(s.shared_bytes_per_cta) + core_sq_bytes <= shared_bytes;
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
        self.forming = Some(Forming { warp: warp.slot, entry, chain, mask: 0 });
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

    /// Where a group goes, as far as its absorbed operands tell: `Ok(None)` while
    /// undecided, `Err(counter)` to FLUSH.
    fn place(&self, f: &Group, pattern: &Pattern) -> Result<Option<usize>, Flush> {
        let known = f.parts.iter().flatten();
        let same = |p: usize| known.clone().all(|&q| q == p);
        match &self.target {
            Target::Llc => match f.parts.iter().flatten().next() {
                Some(&p) if same(p) => Ok(Some(self.mem_nodes[p])),
                Some(_) => Err(Flush::Partitions),
                None => Ok(None),
            },
            Target::Omni { lut, .. } => {
                let dst = match f.dst {
                    Some(d) => d,
                    None => {
                        // the key (spec §1.4): (a, b) for two loads, (a, c) for a load and a
                        // store, (a, a) for a lone load
                        let second = if pattern.loads() == 2 {
                            1
                        } else if pattern.has_store() {
                            2
                        } else {
                            0
                        };
                        let (Some(a), Some(b)) = (f.parts[0], f.parts[second]) else { return Ok(None) };
                        lut[a][b].ok_or(Flush::NoEmn)?
                    }
                };
                match self.mem_nodes.iter().position(|&m| m == dst) {
                    Some(p) if !same(p) => Err(Flush::Partitions),
                    None if !self.core_sqs_on => Err(Flush::CoreSqOff),
                    _ => Ok(Some(dst)),
                }
            }
        }
    }

    /// Memory operand `k`'s lines regroup the chain's lanes: each group splits by the
    /// lines its lanes access; a group none of whose lanes ran the instruction takes its
    /// first line. Its lanes' words are noted for the unit-stride check.
    fn regroup(&mut self, k: usize, a: &Absorbed<'_>) {
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        let ran = a.lines.iter().fold(0, |u, l| u | l.lanes);
        for g in &self.groups {
            let first = out.len();
            let mut covered = 0;
            for (li, l) in a.lines.iter().enumerate() {
                let m = g.mask & l.lanes;
                if m != 0 || (li == 0 && g.mask & ran == 0) {
                    let mut n = *g;
                    n.mask = m;
                    for x in &mut n.lanes {
                        *x &= m;
                    }
                    n.lanes[k] = m;
                    (n.lines[k], n.parts[k]) = (Some(l.line), Some(self.map.node(l.line)));
                    out.push(n);
                    covered |= m;
                }
            }
            // lanes the guard left out ride with the group's first line
            let left = g.mask & !covered;
            out[first].mask |= left;
            for j in (0..3).filter(|&j| j != k) {
                out[first].lanes[j] |= g.lanes[j] & left;
            }
        }
        std::mem::swap(&mut self.groups, &mut out);
        self.spare = out;
        let words = &mut self.words[k];
        *words = [NO_WORD; 32];
        for l in a.lines {
            for i in (0..32).filter(|i| l.lanes >> i & 1 == 1) {
                let off = a.addrs[i].wrapping_sub(l.line);
                if a.lane_bytes == 4 && off % 4 == 0 && off < 128 {
                    words[i] = (off / 4) as u8;
                }
            }
        }
    }

    fn absorb(&mut self, a: &Absorbed<'_>) -> Absorb {
        let f = self.forming.expect("an absorbed instruction belongs to the forming chain");
        assert_eq!(f.warp, a.warp, "the forming chain is another warp's");
        let role = self.roles[a.pc as usize];
        let pattern = Pattern::get(self.chains[f.chain].pattern).expect("tagged chains have a Table 1 pattern");
        let mut f = f;
        if role.first {
            f.mask = a.mask;
            self.groups.clear();
            self.groups.push(Group { mask: a.mask, ..Group::default() });
        }
        if let Some(InstrKind::Ld | InstrKind::St) = role.kind {
            if a.lines.is_empty() || (self.divergence == Divergence::Discard && a.lines.len() != 1) {
                // no lane ran, or (discard) lanes on several lines: memory-divergent (§2.6)
                self.n.flush_divergent += 1;
                return self.abandon(&f);
            }
            if a.lines.iter().any(|l| l.l1_hit) {
                // L1 locality wins (§2.5): DISCARD at the first load, else FLUSH
                if role.first {
                    self.n.discard_l1_hit += 1;
                } else {
                    self.n.flush_l1_hit += 1;
                }
                return self.abandon(&f);
            }
            let k = if role.kind == Some(InstrKind::St) { 2 } else { role.operand };
            self.regroup(k, a);
            if self.groups.len() > 1 + self.entries.len() - self.live {
                // an OQSR entry per group, and too few are free: the chain runs normally
                self.n.discard_too_many_groups += 1;
                return self.abandon(&f);
            }
            for g in 0..self.groups.len() {
                match self.place(&self.groups[g], pattern) {
                    Ok(dst) => self.groups[g].dst = self.groups[g].dst.or(dst),
                    Err(why) => {
                        *match why {
                            Flush::Partitions => &mut self.n.flush_partitions,
                            Flush::NoEmn => &mut self.n.flush_no_emn,
                            Flush::CoreSqOff => &mut self.n.flush_core_sq_off,
                        } += 1;
                        return self.abandon(&f);
                    }
                }
            }
        }
        if !role.last {
            self.forming = Some(f);
            return Absorb::Hold;
        }
        // the `11`: a ComputePacket per group to its target (§2.5, §2.6)
        let n = self.groups.len();
        let starts = if n > 1 {
            match unit_stride(&self.groups, &self.words) {
                Some(s) => s,
                None => {
                    // the extension flit addresses a group's lanes at unit stride only
                    self.n.flush_split_stride += 1;
                    return self.abandon(&f);
                }
            }
        } else {
            Vec::new()
        };
        self.check_groups(f.mask);
        let c = &self.chains[f.chain];
        let imm = match c.uniform {
            Some(Uniform::Imm(v)) => v,
            _ => 0,
        };
        let loads = self.entries[f.entry].loads;
        for (j, g) in self.groups.iter().enumerate() {
            let tag = if j == 0 {
                f.entry
            } else {
                let e = self.entries.iter().position(|e| !e.valid).expect("a free OQSR entry per group (checked as the groups formed)");
                self.entries[e] = Entry { valid: true, warp: f.warp, loads, fb: 0 };
                self.live += 1;
                e
            };
            let dst = g.dst.expect("a group's memory operands name its target");
            let cp = ComputePacket {
                src_node: self.node as u32,
                dst_node: dst as u32,
                op0: c.op0,
                op1: c.op1,
                pattern: c.pattern,
                resp_kind: pattern.resp.code(),
                dtype: c.fp,
                addr_a: g.lines[0].unwrap_or(0),
                addr_b: g.lines[1].unwrap_or(0),
                addr_c: g.lines[2].unwrap_or(0),
                imm,
                mask: g.mask,
                oq_tag: tag as u32,
            };
            let mut head = cp.encode();
            let ext = (n > 1).then(|| {
                CpExtension::mark(&mut head);
                CpExtension { masks: g.lanes, start: starts[j] }.encode()
            });
            self.wire.borrow_mut().put_cp(self.sm, tag, head, ext);
            self.outbox.push_back((dst, tag, n > 1));
            self.n.sent_core += u64::from(!self.mem_nodes.contains(&dst));
        }
        self.pending[f.warp as usize] = Pending { left: n as u32, fallback: false };
        self.forming = None;
        self.n.sent += 1;
        self.n.cps += n as u64;
        if n > 1 {
            self.n.split += 1;
            self.n.split_groups += n as u64;
        }
        Absorb::Wait
    }

    /// The groups partition the chain's lanes, and each operand's lanes are the group's.
    #[doc(hidden)]
    pub fn check_groups(&self, mask: u32) {
        let mut seen = 0u32;
        for g in &self.groups {
            assert!((g.mask != 0 || self.groups.len() == 1) && g.mask & seen == 0, "SM {}: group {g:?} is empty or overlaps another", self.sm);
            assert!(g.lanes.iter().all(|&l| l & !g.mask == 0), "SM {}: group {g:?}: operand lanes outside its mask", self.sm);
            seen |= g.mask;
        }
        assert_eq!(seen, mask, "SM {}: the groups {:?} do not partition the chain's lanes {mask:#x}", self.sm, self.groups);
    }

    /// An answer from an SQ: ACK, DATA, BITMAP, or fallback data. The warp goes on when
    /// every group of its chain is answered: it computes and stores itself if one fell back.
    #[doc(hidden)]
    pub fn answer(&mut self, pkt: &Packet) {
        let msg = Msg::decode(pkt.tag);
        let (tag, fallback) = match msg {
            Msg::Answer { tag, .. } => (tag as usize, false),
            Msg::FbData { tag, .. } => (tag as usize, true),
            m => panic!("SM {}: {m:?} is not for the OQ", self.sm),
        };
        let e = &mut self.entries[tag];
        assert!(e.valid, "SM {}: an answer for OQ tag {tag}, which is not in flight", self.sm);
        assert_eq!(pkt.flits, msg.flits(), "SM {}: {msg:?} of {} flits", self.sm, pkt.flits);
        let done = if fallback {
            e.fb += 1;
            e.fb == e.loads
        } else {
            true
        };
        if !done {
            return;
        }
        e.valid = false;
        self.live -= 1;
        let w = e.warp;
        self.n.group_fallbacks += u64::from(fallback);
        let p = &mut self.pending[w as usize];
        assert!(p.left > 0, "SM {}: OQ tag {tag} answers warp {w}, whose chain has no group in flight", self.sm);
        p.left -= 1;
        p.fallback |= fallback;
        if p.left == 0 || self.plant_resume_early {
            self.n.answers += 1;
            self.n.fallbacks += u64::from(p.fallback);
            self.events.push_back(if p.fallback { OffloadEvent::Fallback(w) } else { OffloadEvent::Resume(w) });
        }
    }

    fn counters(&self, out: &mut HookCounters) {
        let n = &self.n;
        for (name, v) in [
            ("chains", n.chains),
            ("sent", n.sent),
            ("sent_core", n.sent_core),
            ("discard_oqsr_full", n.discard_full),
            ("discard_l1_hit", n.discard_l1_hit),
            ("flush_l1_hit", n.flush_l1_hit),
            ("flush_divergent", n.flush_divergent),
            ("flush_partitions", n.flush_partitions),
            ("flush_no_emn", n.flush_no_emn),
            ("flush_core_sq_off", n.flush_core_sq_off),
            ("flush_split_stride", n.flush_split_stride),
            ("discard_too_many_groups", n.discard_too_many_groups),
            ("cpgu_wait", n.cpgu_wait),
            ("cps", n.cps),
            ("split", n.split),
            ("split_groups", n.split_groups),
            ("answers", n.answers),
            ("fallbacks", n.fallbacks),
            ("group_fallbacks", n.group_fallbacks),
            ("prio_ahead", n.prio_ahead),
            ("prio_fetch", n.prio_fetch),
        ] {
            count(out, &format!("llc_compute.oq.{name}"), v);
        }
        // Omni: this core's EMN table, counted once (static; study 21)
        if let Target::Omni { lut, .. } = &self.target {
            let e = EmnTableCounts::of(lut, &self.mem_nodes);
            count(out, "llc_compute.emn.pairs", e.pairs);
            count(out, "llc_compute.emn.with_emn", e.with_emn);
            count(out, "llc_compute.emn.llc_emn", e.llc_emn);
        }
    }
}

/// The OQ at the SM's issue stage.
pub struct OqIssue(pub Rc<RefCell<Oq>>);

impl IssueHook for OqIssue {
    fn taps(&self) -> IssueTaps {
        let prio = self.0.borrow().priority;
        IssueTaps { every_inst: true, order: prio, fetch_first: prio, ..IssueTaps::default() }
    }

    fn kernel_begin(&mut self, kernel: &Kernel) {
        self.0.borrow_mut().begin(kernel);
    }

    fn order(&mut self, _now: u64, _sched: usize, order: &mut Vec<u16>) {
        self.0.borrow_mut().order(order);
    }

    fn fetch_first(&mut self, _now: u64) -> Option<u16> {
        let mut oq = self.0.borrow_mut();
        let w = oq.priority_warp();
        oq.n.prio_fetch += u64::from(w.is_some());
        w
    }

    fn kernel_shape(&mut self, shape: &KernelShape) {
        self.0.borrow_mut().shape(shape);
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

/// The SM's network port (the NI demux of spec §1.5 at a core): the OQ's
/// ComputePackets out and answers in, and under Omni-Compute the core's SQ.
pub struct OqNet {
    pub oq: Rc<RefCell<Oq>>,
    pub sq: Option<SqCoreService>,
}

impl CoreNetHook for OqNet {
    fn arrive(&mut self, _now: u64, pkt: Packet) {
        let msg = Msg::decode(pkt.tag);
        match msg.core_sink() {
            CoreSink::Oq => self.oq.borrow_mut().answer(&pkt),
            CoreSink::Sq => {
                assert_eq!(pkt.flits, msg.flits(), "{msg:?} of {} flits at a core", pkt.flits);
                self.sq.as_mut().unwrap_or_else(|| panic!("{msg:?} at a core without an SQ (LLC-Compute)")).arrive(&pkt, msg)
            }
        }
    }

    fn cycle(&mut self, now: u64, port: &mut dyn CorePort) -> u64 {
        let mut oq = self.oq.borrow_mut();
        if !oq.events.is_empty() {
            port.wake_sm();
        }
        // the core SQ first: its STORE_REQs and answers free SQSR entries (§1.7)
        let sq_wake = self.sq.as_mut().map_or(u64::MAX, |sq| sq.cycle(now, port));
        // one CP per cycle into the request class (the CP message class of §1.8 rides
        // the request network here)
        if let Some(&(dst, tag, ext)) = oq.outbox.front() {
            if port.can_send(Class::Request) {
                oq.outbox.pop_front();
                let msg = Msg::Cp { sm: oq.sm as u8, tag: tag as u8, ext };
                port.send(dst, Class::Request, msg.flits(), msg.encode());
            }
        }
        let oq_wake = if oq.outbox.is_empty() { u64::MAX } else { now + 1 };
        oq_wake.min(sq_wake)
    }

    fn counters(&self, out: &mut HookCounters) {
        if let Some(sq) = &self.sq {
            sq.counters(out);
        }
    }
}
