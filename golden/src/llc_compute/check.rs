//! The OQ scoreboard: spec §6.4 OQ invariants 1-9, checked from the ports alone.
//!
//! It shares no logic with [`super::oq`]: it follows each warp's chain from the
//! chain-port transfers and L1 results, works out on its own (its own YX walk for the
//! EMN, its own reading of Table 1) whether the chain must be offloaded or flushed, and
//! holds the OQ's outputs against that: the count, the discards, the CP's every field,
//! one terminal event per chain, the flush order, the warp-wait bits, no leaks.

use std::collections::HashMap;

use super::chain::InstrKind;
use super::config::{LlcComputeConfig, Mode};
use super::emn::Node;
use super::oq::{Oq, OqIn, OqOut, EV_FB_REPLAY, EV_FB_WB, EV_RESUME, EV_WB_RESUME, RSP_ACK, RSP_BITMAP, RSP_DATA, RSP_FB_A, RSP_FB_B, TAG_FIRST, TAG_LAST};
use super::packet::ComputePacket;
use crate::invariant::Violation;
use crate::model::Scoreboard;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Forming,
    /// Complete and offloadable: the CP is built (or waiting for injection).
    Built,
    Sent(u32),
    Flush,
}

/// An absorbed chain instruction: (kind, addr, mc, dst, imm, op, dtype, unit_stride).
pub type Absorbed = (InstrKind, u64, u32, u32, u32, u32, bool, bool);

#[derive(Debug, Clone)]
struct Chain {
    phase: Phase,
    instrs: Vec<Absorbed>,
    mask: u32,
    /// The `11` has been absorbed.
    complete: bool,
    /// L1 result of each load, in chain order (true = hit).
    l1: Vec<bool>,
    /// Loads already re-sent by the flush engine, or written back by fallback data.
    done_loads: Vec<bool>,
}

impl Chain {
    fn loads(&self) -> Vec<usize> {
        self.instrs.iter().enumerate().filter(|(_, x)| x.0 == InstrKind::Ld).map(|(i, _)| i).collect()
    }

    /// Our reading of the replay rule: resume at the first absorbed instruction that is
    /// not a load that missed and not the `ld i`.
    fn replay_point(&self) -> usize {
        let mut k = 0;
        for (i, x) in self.instrs.iter().enumerate() {
            match x.0 {
                InstrKind::Ld => {
                    if self.l1.get(k) != Some(&false) {
                        return i;
                    }
                    k += 1;
                }
                InstrKind::Movi => {}
                _ => return i,
            }
        }
        self.instrs.len()
    }
}

/// Spec §6.4 OQ invariants over one OQ's ports.
pub struct OqScoreboard {
    n_ent: u32,
    self_node: Node,
    width: u32,
    mcs: Vec<Node>,
    capable: Vec<bool>,
    mode: Mode,
    wait_policy: bool,
    chains: HashMap<u32, Chain>,
    /// OQ tags of SENT chains -> warp.
    tags: HashMap<u32, u32>,
    /// The warp whose load awaits its L1 result.
    l1_wait: Option<u32>,
    pub cps: u64,
    pub flushes: u64,
    pub discards: u64,
    pub responses: u64,
}

impl OqScoreboard {
    pub fn new(c: &LlcComputeConfig, oq: &Oq) -> Self {
        let p = &c.placement;
        Self {
            n_ent: c.oq.entries,
            self_node: p.node(oq.self_node),
            width: p.width,
            mcs: p.mcs.clone(),
            capable: c.capable.clone(),
            mode: c.mode,
            wait_policy: c.oq.cpgu_busy_policy == super::config::CpguBusyPolicy::Wait,
            chains: HashMap::new(),
            tags: HashMap::new(),
            l1_wait: None,
            cps: 0,
            flushes: 0,
            discards: 0,
            responses: 0,
        }
    }

    /// Invariant 8, after a drain: nothing left.
    pub fn finish(&self, cycle: u64, last: &OqOut) -> Result<(), Violation> {
        if !self.chains.is_empty() || last.st_count != 0 || last.st_warp_wait != 0 {
            return Err(v(cycle, "8 no leaks", format!("{} chains open, st_count {}, warp_wait {:#x}", self.chains.len(), last.st_count, last.st_warp_wait)));
        }
        Ok(())
    }

    /// The meet node of the YX paths to `a` and `b`: walk both routes hop by hop from
    /// the source while they agree.
    fn meet(&self, a: Node, b: Node) -> Option<Node> {
        if a == b {
            return Some(a);
        }
        let step = |n: Node, d: Node| -> Node {
            if n.y != d.y {
                Node::new(n.x, if d.y > n.y { n.y + 1 } else { n.y - 1 })
            } else {
                Node::new(if d.x > n.x { n.x + 1 } else { n.x - 1 }, n.y)
            }
        };
        let (mut pa, mut pb) = (self.self_node, self.self_node);
        let mut last = None;
        while pa != a && pb != b {
            let (na, nb) = (step(pa, a), step(pb, b));
            if na != nb {
                break;
            }
            (pa, pb) = (na, nb);
            last = Some(na);
        }
        last
    }

    /// Must this chain (all loads missed, complete) be offloaded, and to which node id?
    fn expected_emn(&self, ch: &Chain, llc_rule_emn: bool) -> Option<u32> {
        let mem: Vec<_> = ch.instrs.iter().filter(|x| matches!(x.0, InstrKind::Ld | InstrKind::St)).collect();
        if mem.iter().any(|x| !x.7) {
            return None;
        }
        let lds: Vec<_> = ch.instrs.iter().filter(|x| x.0 == InstrKind::Ld).collect();
        let st = ch.instrs.iter().find(|x| x.0 == InstrKind::St);
        let kinds: Vec<InstrKind> = ch.instrs.iter().map(|x| x.0).collect();
        let pat89 = kinds.len() >= 3 && kinds[1] == InstrKind::Movi && kinds[2] == InstrKind::Ld;
        let (a, b) = match (lds.len(), st) {
            (2, _) if pat89 => (lds[1].2, lds[0].2),
            (2, _) => (lds[0].2, lds[1].2),
            (1, Some(s)) => (lds[0].2, s.2),
            _ => (lds[0].2, lds[0].2),
        };
        let node = self.meet(self.mcs[a as usize], self.mcs[b as usize])?;
        let id = node.y * self.width + node.x;
        if !self.capable[id as usize] {
            return None;
        }
        match self.mode {
            Mode::Off => None,
            Mode::Omni => Some(id),
            Mode::Llc if llc_rule_emn => self.mcs.contains(&node).then_some(id),
            Mode::Llc => mem.iter().all(|x| x.2 == mem[0].2).then_some(id),
        }
    }
}

fn v(cycle: u64, inv: &'static str, detail: String) -> Violation {
    Violation { cycle, invariant: inv, detail }
}

impl Scoreboard<Oq> for OqScoreboard {
    fn observe(&mut self, cycle: u64, i: &OqIn, o: &OqOut) -> Result<(), Violation> {
        if i.rst {
            self.chains.clear();
            self.tags.clear();
            self.l1_wait = None;
            return Ok(());
        }
        // 1: count (registered: the chains held before this cycle)
        let live = self.chains.len() as u32;
        if o.st_count > self.n_ent || o.st_count != live {
            return Err(v(cycle, "1 count", format!("st_count {} (N_ENT {}), scoreboard {live}", o.st_count, self.n_ent)));
        }
        if o.st_full != (live == self.n_ent) {
            return Err(v(cycle, "1 count", format!("st_full {} with {live} of {}", o.st_full, self.n_ent)));
        }
        // 6: warp-wait bits are exactly the warps with a SENT/FALLBACK/FLUSH chain
        let want_wait = self.chains.iter().filter(|(_, c)| c.phase != Phase::Forming).fold(0u64, |m, (w, _)| m | 1 << w);
        if o.st_warp_wait != want_wait {
            return Err(v(cycle, "6 warp wait", format!("st_warp_wait {:#x}, expected {want_wait:#x}", o.st_warp_wait)));
        }
        let forming: Vec<u32> = self.chains.iter().filter(|(_, c)| c.phase == Phase::Forming).map(|(w, _)| *w).collect();
        if forming.len() > 1 || o.st_forming != (forming.len() == 1) {
            return Err(v(cycle, "3 one forming chain", format!("forming warps {forming:?}, st_forming {}", o.st_forming)));
        }
        let llc_rule_emn = i.cfg_llc_rule;

        // 5, 6, 9: responses, matched by tag only
        let mut legit = false;
        if i.rsp_valid && o.rsp_ready {
            let w = self.tags.get(&i.rsp_tag).copied();
            let ch = w.and_then(|w| self.chains.get(&w));
            legit = match (i.rsp_kind, ch) {
                (RSP_ACK | RSP_DATA | RSP_BITMAP, Some(c)) => c.done_loads.iter().all(|d| !d),
                (RSP_FB_A | RSP_FB_B, Some(c)) => {
                    let k = (i.rsp_kind - RSP_FB_A) as usize;
                    k < c.loads().len() && !c.done_loads[k]
                }
                _ => false,
            };
            if legit == o.err {
                return Err(v(cycle, "5 response to a SENT/FALLBACK entry", format!("tag {} kind {}: legitimate {legit}, err {}", i.rsp_tag, i.rsp_kind, o.err)));
            }
            if legit {
                let w = w.unwrap();
                self.responses += 1;
                let ch = self.chains.get_mut(&w).unwrap();
                let want = match i.rsp_kind {
                    RSP_ACK => (EV_RESUME, None),
                    RSP_DATA | RSP_BITMAP => (EV_WB_RESUME, Some(ch.instrs.last().unwrap().3)),
                    _ => {
                        let k = (i.rsp_kind - RSP_FB_A) as usize;
                        ch.done_loads[k] = true;
                        let li = ch.loads()[k];
                        (if ch.done_loads.iter().all(|d| *d) { EV_FB_REPLAY } else { EV_FB_WB }, Some(ch.instrs[li].3))
                    }
                };
                if !o.evr_valid || o.evr_wid != w || o.evr_kind != want.0 || want.1.is_some_and(|r| r != o.evr_reg) || (want.1.is_some() && o.evr_data != i.rsp_data) {
                    return Err(v(
                        cycle,
                        "6 one terminal event per SENT chain",
                        format!(
                            "response kind {} tag {} of warp {w}: event valid {} kind {} wid {} reg {} (expected kind {} reg {:?})",
                            i.rsp_kind, i.rsp_tag, o.evr_valid, o.evr_kind, o.evr_wid, o.evr_reg, want.0, want.1
                        ),
                    ));
                }
                if want.0 == EV_FB_REPLAY {
                    let rp = ch.instrs.iter().position(|x| !matches!(x.0, InstrKind::Ld | InstrKind::Movi)).unwrap_or(ch.instrs.len());
                    let movi = ch.instrs.iter().position(|x| x.0 == InstrKind::Movi).filter(|m| *m < rp).map(|m| (ch.instrs[m].3, ch.instrs[m].4));
                    if o.evr_replay_idx as usize != rp || (o.evr_movi_valid, o.evr_movi_reg, o.evr_movi_imm) != movi.map_or((false, 0, 0), |m| (true, m.0, m.1)) {
                        return Err(v(
                            cycle,
                            "6 fallback replay",
                            format!("warp {w}: replay {} movi {:?}, expected {rp} {movi:?}", o.evr_replay_idx, (o.evr_movi_valid, o.evr_movi_reg, o.evr_movi_imm)),
                        ));
                    }
                }
                if matches!(want.0, EV_RESUME | EV_WB_RESUME | EV_FB_REPLAY) {
                    self.chains.remove(&w);
                    self.tags.remove(&i.rsp_tag);
                }
            }
        } else if o.err {
            return Err(v(cycle, "5 response to a SENT/FALLBACK entry", "err raised without a response".into()));
        }
        if o.evr_valid && !legit {
            return Err(v(cycle, "6 one terminal event per SENT chain", format!("event kind {} for warp {} without a response", o.evr_kind, o.evr_wid)));
        }

        // 7: the flush engine sends exactly the held misses, in chain order
        if o.fm_valid && i.fm_ready {
            let w = o.fm_wid;
            let ch = self.chains.get_mut(&w).filter(|c| c.phase == Phase::Flush).ok_or_else(|| v(cycle, "7 flush", format!("flush miss of warp {w}, which is not flushing")))?;
            let lds = ch.loads();
            let k = (0..lds.len()).find(|k| ch.l1.get(*k) == Some(&false) && !ch.done_loads[*k]).ok_or_else(|| v(cycle, "7 flush", format!("warp {w}: no held miss left")))?;
            let x = ch.instrs[lds[k]];
            if (o.fm_addr, o.fm_dst, o.fm_mask) != (x.1, x.3, ch.mask) {
                return Err(v(cycle, "7 flush", format!("warp {w}: sent {:#x}/r{}/{:#x}, expected load {k} {:#x}/r{}/{:#x}", o.fm_addr, o.fm_dst, o.fm_mask, x.1, x.3, ch.mask)));
            }
            ch.done_loads[k] = true;
            let rest = (0..lds.len()).any(|k| ch.l1.get(k) == Some(&false) && !ch.done_loads[k]);
            if rest == o.evf_valid {
                return Err(v(cycle, "7 flush", format!("warp {w}: FLUSH_REPLAY {} with held misses left {rest}", o.evf_valid)));
            }
            if o.evf_valid {
                let rp = ch.replay_point();
                let movi = ch.instrs.iter().position(|x| x.0 == InstrKind::Movi).filter(|m| *m < rp).map(|m| (ch.instrs[m].3, ch.instrs[m].4));
                if o.evf_wid != w || o.evf_replay_idx as usize != rp || (o.evf_movi_valid, o.evf_movi_reg, o.evf_movi_imm) != movi.map_or((false, 0, 0), |m| (true, m.0, m.1)) {
                    return Err(v(
                        cycle,
                        "7 flush",
                        format!(
                            "warp {w}: FLUSH_REPLAY wid {} replay {} movi {:?}, expected replay {rp} movi {movi:?}",
                            o.evf_wid,
                            o.evf_replay_idx,
                            (o.evf_movi_valid, o.evf_movi_reg, o.evf_movi_imm)
                        ),
                    ));
                }
                self.chains.remove(&w);
                self.flushes += 1;
            }
        } else if o.evf_valid {
            return Err(v(cycle, "7 flush", "FLUSH_REPLAY without a flush miss sent".into()));
        }

        // L1 result of the pending load
        if i.l1r_valid {
            let w = self.l1_wait.take().ok_or_else(|| v(cycle, "2 L1", "L1 result with no load pending".into()))?;
            let ch = self.chains.get_mut(&w).unwrap();
            let first = ch.l1.is_empty();
            ch.l1.push(i.l1r_hit);
            if i.l1r_hit && first {
                if !(o.evl_valid && o.evl_wid == w) {
                    return Err(v(cycle, "2 discard", format!("first load of warp {w} hit: no DISCARD")));
                }
                self.chains.remove(&w);
                self.discards += 1;
            } else if i.l1r_hit {
                ch.phase = Phase::Flush;
            }
        }
        if o.evl_valid && !(i.l1r_valid && i.l1r_hit) {
            return Err(v(cycle, "2 discard", format!("DISCARD of warp {} without an L1 hit", o.evl_wid)));
        }

        // 2, 3: the chain port
        let mut evc_expected = false;
        if i.ci_valid && o.ci_ready {
            let w = i.ci_wid;
            let kind = InstrKind::from_code(i.ci_kind).ok_or_else(|| v(cycle, "3 chain port", format!("kind {}", i.ci_kind)))?;
            let x = (kind, i.ci_addr, i.ci_mc, i.ci_dst, i.ci_imm, i.ci_op, i.ci_dtype, i.ci_unit_stride);
            if self.chains.get(&w).is_some_and(|c| c.phase != Phase::Forming) {
                return Err(v(cycle, "6 warp wait", format!("warp {w} issued while waiting")));
            }
            if i.ci_tag == TAG_FIRST {
                let busy = !forming.is_empty();
                if busy && self.wait_policy {
                    return Err(v(cycle, "3 one forming chain", format!("a 01 of warp {w} taken while warp {:?} forms", forming)));
                }
                if live >= self.n_ent || busy || i.cfg_mode == 0 {
                    evc_expected = true;
                } else {
                    self.chains.insert(w, Chain { phase: Phase::Forming, instrs: vec![x], mask: i.ci_mask, complete: false, l1: vec![], done_loads: vec![] });
                    self.l1_wait = Some(w);
                }
            } else {
                let ch = self
                    .chains
                    .get_mut(&w)
                    .filter(|c| c.phase == Phase::Forming)
                    .ok_or_else(|| v(cycle, "3 chain port", format!("middle/last instruction of warp {w} with no forming chain")))?;
                ch.instrs.push(x);
                ch.complete = i.ci_tag == TAG_LAST;
                if kind == InstrKind::Ld {
                    self.l1_wait = Some(w);
                }
            }
        } else if i.ci_valid && i.ci_tag == TAG_FIRST && live >= self.n_ent && forming.is_empty() && !o.fm_valid && !o.cp_valid && self.l1_wait.is_none() {
            return Err(v(cycle, "2 no stall when full", format!("a 01 of warp {} refused while the OQSR is full", i.ci_wid)));
        }
        if o.evc_valid != evc_expected || (o.evc_valid && o.evc_wid != i.ci_wid) {
            return Err(v(cycle, "2 discard when full", format!("DISCARD {} (wid {}), expected {evc_expected} ({} live of {})", o.evc_valid, o.evc_wid, live, self.n_ent)));
        }
        if evc_expected {
            self.discards += 1;
        }
        // keep done_loads sized to the loads
        for c in self.chains.values_mut() {
            let n = c.loads().len();
            c.done_loads.resize(n, false);
        }

        // 4: a CP iff the chain is complete, every load missed and the EMN is capable;
        // the flit is every field of the chain
        let built: Vec<u32> = self.chains.iter().filter(|(_, c)| c.phase == Phase::Built).map(|(w, _)| *w).collect();
        if o.cp_valid != (built.len() == 1) || built.len() > 1 {
            return Err(v(cycle, "4 CP iff offloadable", format!("cp_valid {} with complete offloadable chains of warps {built:?}", o.cp_valid)));
        }
        if o.cp_valid {
            let w = built[0];
            let ch = &self.chains[&w];
            let cp = ComputePacket::decode(&o.cp_flit);
            let node = self.expected_emn(ch, llc_rule_emn).expect("built chains are offloadable");
            let src = self.self_node.y * self.width + self.self_node.x;
            let want = expected_cp(src, node, &ch.instrs, ch.mask, cp.oq_tag);
            if cp != want || o.cp_flit != want.encode() {
                return Err(v(cycle, "4 CP bit-identical", format!("warp {w}: CP {cp:?}, expected {want:?}")));
            }
            if i.cp_ready {
                if cp.oq_tag >= self.n_ent || self.tags.insert(cp.oq_tag, w).is_some() {
                    return Err(v(cycle, "4 CP", format!("tag {} already in flight or out of range", cp.oq_tag)));
                }
                self.chains.get_mut(&w).unwrap().phase = Phase::Sent(cp.oq_tag);
                self.cps += 1;
            }
        }
        // the decision on the forming chain, once its loads' L1 results are in
        let l1_wait = self.l1_wait;
        let decide: Vec<(u32, Option<u32>, bool)> = self
            .chains
            .iter()
            .filter(|(w, c)| c.phase == Phase::Forming && l1_wait != Some(**w) && c.l1.iter().all(|h| !h))
            .map(|(w, c)| (*w, self.expected_emn(c, llc_rule_emn), c.complete))
            .collect();
        for (w, emn, complete) in decide {
            let ch = self.chains.get_mut(&w).unwrap();
            match emn {
                None => ch.phase = Phase::Flush,
                Some(_) if complete => ch.phase = Phase::Built,
                _ => {}
            }
        }
        Ok(())
    }
}

/// The CP the scoreboard expects for a complete chain (every field of spec §2.3).
pub fn expected_cp(src: u32, node: u32, instrs: &[Absorbed], mask: u32, tag: u32) -> ComputePacket {
    let kinds: Vec<InstrKind> = instrs.iter().map(|x| x.0).collect();
    let pat = super::chain::Pattern::of_seq(&kinds).map_or(0, |p| p.id);
    let lds: Vec<_> = instrs.iter().filter(|x| x.0 == InstrKind::Ld).collect();
    let (a, b) = match lds.len() {
        2 if pat >= 8 => (lds[1].1, lds[0].1),
        2 => (lds[0].1, lds[1].1),
        _ => (lds[0].1, 0),
    };
    let ops: Vec<_> = instrs.iter().filter(|x| matches!(x.0, InstrKind::Alu | InstrKind::Cmp)).collect();
    let resp = match pat {
        2 | 8 => 1,
        5 | 6 => 2,
        _ => 0,
    };
    ComputePacket {
        src_node: src,
        dst_node: node,
        op0: ops.first().map_or(0, |x| x.5),
        op1: ops.get(1).map_or(0, |x| x.5),
        pattern: pat,
        resp_kind: resp,
        dtype: ops.last().is_some_and(|x| x.6),
        addr_a: a,
        addr_b: b,
        addr_c: instrs.iter().find(|x| x.0 == InstrKind::St).map_or(0, |x| x.1),
        imm: instrs.iter().find(|x| x.0 == InstrKind::Movi).map_or(0, |x| x.4),
        mask,
        oq_tag: tag,
    }
}
