//! The Offload Queue (spec §1.3, ports §6.1): OQMU (controller), OQSR (status table,
//! one entry per chain in flight) and CPGU (the single forming chain's partial
//! ComputePacket), with the core's EMN lookup table as a ROM inside (spec §1.4).
//!
//! Per cycle, in the spec's order (§1.3.5): (1) the response port, (2) the L1 result of
//! the forming chain's pending load, (3) the chain-instruction port, (4) the CPGU's
//! decision on the forming chain (EMN check, CP build), (5) the flush engine, plus the
//! CP output register. `eval` computes every output from registered state and this
//! cycle's inputs and prepares the next state; `commit` makes it current.
//!
//! Our resolutions where the spec leaves room (each is a directed test):
//! * At most one L1 lookup is outstanding: a chain instruction that follows a load is
//!   accepted in the cycle that load's L1 miss arrives (back-to-back at
//!   `l1_tag_latency = 1`), never earlier; a chain instruction offered in the cycle of
//!   an L1 hit is refused (the core sees the DISCARD/FLUSH and runs it normally).
//! * The EMN key is checked as soon as its operands are absorbed and their loads
//!   missed: two-load chains at the second load, one-load chains with a store at the
//!   store, pattern 6 (one load, no store) at its `11` (the `01` does not say which
//!   pattern follows). A failed check (no EMN, not capable, LLC mode with operands in
//!   different partitions, a memory-divergent access) flushes.
//! * Flush and fallback replay from the first absorbed instruction that is neither a
//!   held-miss load nor the `ld i`; an `ld i` before that point is written by the OQ
//!   (the `movi` fields of the replay event).
//! * Events have one port per source, each a one-cycle pulse the core always takes:
//!   `evc` (a `01` discarded at the chain port), `evl` (first-load L1 hit: DISCARD),
//!   `evr` (responses: RESUME, WB_RESUME, FB_WB, FB_REPLAY), `evf` (FLUSH_REPLAY). The
//!   register-file write port is the response port's back-pressure (`wb_busy`).

use super::chain::{InstrKind, Pattern};
use super::config::{CpguBusyPolicy, LlcComputeConfig, LlcRule, Mode};
use super::emn::{EmnLut, Node};
use super::packet::{ComputePacket, Flit, FLIT_WORDS};
use crate::model::Model;

/// `rsp_kind` codes.
pub const RSP_ACK: u32 = 0;
pub const RSP_DATA: u32 = 1;
pub const RSP_BITMAP: u32 = 2;
pub const RSP_FB_A: u32 = 3;
pub const RSP_FB_B: u32 = 4;

/// `evr_kind` codes.
pub const EV_RESUME: u32 = 0;
pub const EV_WB_RESUME: u32 = 1;
pub const EV_FB_WB: u32 = 2;
pub const EV_FB_REPLAY: u32 = 3;

/// Chain tags (spec §1.2).
pub const TAG_FIRST: u32 = 1;
pub const TAG_MIDDLE: u32 = 2;
pub const TAG_LAST: u32 = 3;

/// Inputs of one cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OqIn {
    pub rst: bool,
    /// 0 off, 1 LLC-Compute, 2 Omni-Compute.
    pub cfg_mode: u32,
    /// One bit per node: compute-capable.
    pub cfg_capable: u64,
    /// 1: LLC-Compute offloads when the EMN is an LLC node (`emn_is_llc`).
    pub cfg_llc_rule: bool,
    pub ci_valid: bool,
    pub ci_wid: u32,
    pub ci_tag: u32,
    pub ci_kind: u32,
    pub ci_op: u32,
    pub ci_dtype: bool,
    pub ci_addr: u64,
    pub ci_mc: u32,
    pub ci_imm: u32,
    pub ci_dst: u32,
    pub ci_mask: u32,
    pub ci_unit_stride: bool,
    pub l1r_valid: bool,
    pub l1r_hit: bool,
    pub cp_ready: bool,
    pub fm_ready: bool,
    pub rsp_valid: bool,
    pub rsp_kind: u32,
    pub rsp_tag: u32,
    /// One 32-bit word per lane.
    pub rsp_data: Vec<u32>,
    pub wb_busy: bool,
}

/// Outputs of one cycle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OqOut {
    pub ci_ready: bool,
    pub cp_valid: bool,
    pub cp_flit: Flit,
    pub fm_valid: bool,
    pub fm_wid: u32,
    pub fm_addr: u64,
    pub fm_dst: u32,
    pub fm_mask: u32,
    pub rsp_ready: bool,
    pub evc_valid: bool,
    pub evc_wid: u32,
    pub evl_valid: bool,
    pub evl_wid: u32,
    pub evr_valid: bool,
    pub evr_kind: u32,
    pub evr_wid: u32,
    pub evr_reg: u32,
    pub evr_data: Vec<u32>,
    pub evr_replay_idx: u32,
    pub evr_movi_valid: bool,
    pub evr_movi_reg: u32,
    pub evr_movi_imm: u32,
    pub evf_valid: bool,
    pub evf_wid: u32,
    pub evf_replay_idx: u32,
    pub evf_movi_valid: bool,
    pub evf_movi_reg: u32,
    pub evf_movi_imm: u32,
    /// A protocol error this cycle (a response naming an entry not in SENT/FALLBACK, an
    /// L1 result with no pending load, a middle instruction of no forming chain).
    pub err: bool,
    pub st_count: u32,
    pub st_full: bool,
    pub st_forming: bool,
    pub st_forming_wid: u32,
    pub st_warp_wait: u64,
}

/// OQSR entry state (spec §1.3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EntState {
    #[default]
    Free,
    Forming,
    Sent,
    Fallback,
    Flush,
}

/// Per-load status (spec §1.3.2 `ld*_st`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LdState {
    #[default]
    None,
    WaitL1,
    MissHeld,
    /// Hit in L1 (the load that caused a flush; it is replayed).
    Hit,
    /// Fallback data written back.
    Present,
    /// Sent by the flush engine as a normal miss.
    Flushed,
}

/// One OQSR entry (spec §1.3.2 fields plus the `oq_keep_dst_regs` registers).
#[derive(Debug, PartialEq, Eq, Default)]
pub struct Entry {
    pub state: EntState,
    pub wid: u32,
    /// The absorbed instruction kinds, in chain order (the pattern once complete).
    pub seq: Vec<InstrKind>,
    pub ld: [LdState; 2],
    pub ld_addr: [u64; 2],
    pub ld_dst: [u32; 2],
    pub mask: u32,
    pub dst_last: u32,
    /// The `ld i`: its position in the chain, register and immediate.
    pub movi: Option<(u32, u32, u32)>,
}

impl Entry {
    fn loads(&self) -> usize {
        self.seq.iter().filter(|k| **k == InstrKind::Ld).count()
    }

    /// Where the warp resumes normal execution after a flush or fallback: the first
    /// absorbed instruction that is neither a held (or fallback-present) load nor the `ld i`.
    pub fn replay_idx(&self) -> u32 {
        let mut k = 0;
        for (i, kind) in self.seq.iter().enumerate() {
            match kind {
                InstrKind::Ld => {
                    if !matches!(self.ld[k], LdState::MissHeld | LdState::Present | LdState::Flushed) {
                        return i as u32;
                    }
                    k += 1;
                }
                InstrKind::Movi => {}
                _ => return i as u32,
            }
        }
        self.seq.len() as u32
    }

    /// The `ld i` the OQ writes on replay: only one before the replay point.
    fn movi_before_replay(&self) -> Option<(u32, u32)> {
        let r = self.replay_idx();
        self.movi.filter(|m| m.0 < r).map(|m| (m.1, m.2))
    }
}

/// The CPGU's partial packet of the single forming chain (spec §1.3.3).
#[derive(Debug, PartialEq, Eq, Default)]
pub struct Cpgu {
    pub ent: usize,
    pub ops: Vec<u32>,
    pub dtype: bool,
    pub ld_mc: [u32; 2],
    pub addr_c: Option<u64>,
    pub mc_c: u32,
    pub imm: u32,
    pub divergent: bool,
    pub complete: bool,
}

/// Registered state.
#[derive(Debug, PartialEq, Eq)]
pub struct OqState {
    pub ents: Vec<Entry>,
    pub cpgu: Option<Cpgu>,
    /// The built CP waiting for the injection port.
    pub cp: Option<Flit>,
    /// The entry the flush engine is draining.
    pub flush: Option<usize>,
}

// `clone_from` reuses the vectors' buffers: `eval` copies the registered state into
// the next state every cycle, and a derived `clone_from` would allocate each entry's
// `seq` anew (half the OQ co-simulation's time went to the allocator). The
// destructuring makes a new field a compile error here, not a silently stale copy.
impl Clone for Entry {
    fn clone(&self) -> Self {
        let mut e = Entry::default();
        e.clone_from(self);
        e
    }

    fn clone_from(&mut self, src: &Self) {
        let Entry { state, wid, seq, ld, ld_addr, ld_dst, mask, dst_last, movi } = src;
        self.seq.clone_from(seq);
        (self.state, self.wid, self.ld, self.ld_addr, self.ld_dst, self.mask, self.dst_last, self.movi) = (*state, *wid, *ld, *ld_addr, *ld_dst, *mask, *dst_last, *movi);
    }
}

impl Clone for Cpgu {
    fn clone(&self) -> Self {
        let mut g = Cpgu::default();
        g.clone_from(self);
        g
    }

    fn clone_from(&mut self, src: &Self) {
        let Cpgu { ent, ops, dtype, ld_mc, addr_c, mc_c, imm, divergent, complete } = src;
        self.ops.clone_from(ops);
        (self.ent, self.dtype, self.ld_mc, self.addr_c, self.mc_c, self.imm, self.divergent, self.complete) = (*ent, *dtype, *ld_mc, *addr_c, *mc_c, *imm, *divergent, *complete);
    }
}

impl Clone for OqState {
    fn clone(&self) -> Self {
        let mut s = OqState { ents: Vec::new(), cpgu: None, cp: None, flush: None };
        s.clone_from(self);
        s
    }

    fn clone_from(&mut self, src: &Self) {
        let OqState { ents, cpgu, cp, flush } = src;
        self.ents.clone_from(ents);
        self.cpgu.clone_from(cpgu);
        (self.cp, self.flush) = (*cp, *flush);
    }
}

/// The OQ of the core at node `self_node`.
#[derive(Debug, Clone)]
pub struct Oq {
    pub n_ent: usize,
    pub lanes: usize,
    pub policy: CpguBusyPolicy,
    pub self_node: u32,
    /// The node's EMN LUT as node ids (`None`: no EMN).
    pub lut: Vec<Vec<Option<u32>>>,
    /// LLC node ids (for `emn_is_llc`).
    pub llc_nodes: Vec<u32>,
    pub state: OqState,
    next: Option<OqState>,
    /// The state register's previous value, reused as the next `eval`'s buffer.
    spare: Option<OqState>,
    /// Planted bug for checker tests: allocate on a `01` even when the OQSR is full
    /// (overwriting entry 0).
    pub plant_alloc_when_full: bool,
}

impl Oq {
    /// The OQ of the core (or node) at `self_node` for config `c`.
    pub fn new(c: &LlcComputeConfig, self_node: Node) -> Self {
        let p = &c.placement;
        let lut: &EmnLut = &c.luts[p.id(self_node) as usize];
        Self {
            n_ent: c.oq.entries as usize,
            lanes: c.oq.lanes as usize,
            policy: c.oq.cpgu_busy_policy,
            self_node: p.id(self_node),
            lut: lut.iter().map(|r| r.iter().map(|e| e.map(|n| p.id(n))).collect()).collect(),
            llc_nodes: p.mcs.iter().map(|m| p.id(*m)).collect(),
            state: Self::reset_state(c.oq.entries as usize),
            next: None,
            spare: None,
            plant_alloc_when_full: false,
        }
    }

    fn reset_state(n: usize) -> OqState {
        OqState { ents: vec![Entry::default(); n], cpgu: None, cp: None, flush: None }
    }

    /// Live entries.
    pub fn count(&self) -> usize {
        self.state.ents.iter().filter(|e| e.state != EntState::Free).count()
    }

    /// Inputs for config `c` (mode, capable mask, rule), every port idle.
    pub fn inputs_for(&self, c: &LlcComputeConfig) -> OqIn {
        let mut i = self.idle_inputs();
        i.cfg_mode = c.mode.code();
        i.cfg_capable = c.capable.iter().enumerate().fold(0u64, |m, (k, b)| m | (u64::from(*b) << k));
        i.cfg_llc_rule = c.llc_rule == LlcRule::EmnIsLlc;
        i
    }

    /// The offload check of the forming chain once its key is known (spec §2.5).
    fn capable(&self, i: &OqIn, e: &Entry, g: &Cpgu) -> Option<u32> {
        if g.divergent {
            return None;
        }
        let nld = e.loads();
        let key = match (nld, g.addr_c.is_some()) {
            (2, _) => (g.ld_mc[0], g.ld_mc[1]),
            (1, true) => (g.ld_mc[0], g.mc_c),
            (1, false) if g.complete => (g.ld_mc[0], g.ld_mc[0]),
            _ => return Some(u32::MAX), // key not known yet: no decision
        };
        let key = if e.seq.len() >= 3 && e.seq[..3] == [InstrKind::Ld, InstrKind::Movi, InstrKind::Ld] {
            // patterns 8/9: the first load is b, the second a; the key is (MC(a), MC(b))
            (key.1, key.0)
        } else {
            key
        };
        let node = self.lut[key.0 as usize][key.1 as usize]?;
        if (i.cfg_capable >> node) & 1 == 0 {
            return None;
        }
        let omni = i.cfg_mode == Mode::Omni.code();
        if !omni {
            if i.cfg_mode != Mode::Llc.code() {
                return None;
            }
            if i.cfg_llc_rule {
                if !self.llc_nodes.contains(&node) {
                    return None;
                }
            } else {
                let mut mcs: Vec<u32> = g.ld_mc[..nld].to_vec();
                if g.addr_c.is_some() {
                    mcs.push(g.mc_c);
                }
                if mcs.iter().any(|m| *m != mcs[0]) {
                    return None;
                }
            }
        }
        Some(node)
    }

    fn build_cp(&self, e: &Entry, g: &Cpgu, ent: usize, node: u32) -> Flit {
        let pat = Pattern::of_seq(&e.seq).expect("complete chains form a pattern");
        let two_first_b = pat.id == 8 || pat.id == 9;
        let (addr_a, addr_b) = match (e.loads(), two_first_b) {
            (2, true) => (e.ld_addr[1], e.ld_addr[0]),
            (2, false) => (e.ld_addr[0], e.ld_addr[1]),
            _ => (e.ld_addr[0], 0),
        };
        ComputePacket {
            src_node: self.self_node,
            dst_node: node,
            op0: g.ops.first().copied().unwrap_or(0),
            op1: g.ops.get(1).copied().unwrap_or(0),
            pattern: pat.id,
            resp_kind: pat.resp.code(),
            dtype: g.dtype,
            addr_a,
            addr_b,
            addr_c: g.addr_c.unwrap_or(0),
            imm: g.imm,
            mask: e.mask,
            oq_tag: ent as u32,
        }
        .encode()
    }
}

impl Model for Oq {
    type In = OqIn;
    type Out = OqOut;

    fn idle_inputs(&self) -> OqIn {
        OqIn {
            rst: false,
            cfg_mode: 0,
            cfg_capable: 0,
            cfg_llc_rule: false,
            ci_valid: false,
            ci_wid: 0,
            ci_tag: 0,
            ci_kind: 0,
            ci_op: 0,
            ci_dtype: false,
            ci_addr: 0,
            ci_mc: 0,
            ci_imm: 0,
            ci_dst: 0,
            ci_mask: 0,
            ci_unit_stride: true,
            l1r_valid: false,
            l1r_hit: false,
            cp_ready: false,
            fm_ready: false,
            rsp_valid: false,
            rsp_kind: 0,
            rsp_tag: 0,
            rsp_data: vec![0; self.lanes],
            wb_busy: false,
        }
    }

    fn new_outputs(&self) -> OqOut {
        OqOut { evr_data: vec![0; self.lanes], ..Default::default() }
    }

    fn assert_reset(i: &mut OqIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &OqIn, o: &mut OqOut) {
        let mut n = self.spare.take().unwrap_or_else(|| self.state.clone());
        n.clone_from(&self.state);
        let s = &self.state;
        let mut evr_data = std::mem::take(&mut o.evr_data);
        evr_data.clear();
        evr_data.resize(self.lanes, 0);
        *o = OqOut { evr_data, ..Default::default() };
        // registered outputs
        o.st_count = s.ents.iter().filter(|e| e.state != EntState::Free).count() as u32;
        o.st_full = o.st_count as usize == self.n_ent;
        o.st_forming = s.cpgu.is_some();
        o.st_forming_wid = s.cpgu.as_ref().map_or(0, |g| s.ents[g.ent].wid);
        for e in &s.ents {
            if matches!(e.state, EntState::Sent | EntState::Fallback | EntState::Flush) {
                o.st_warp_wait |= 1 << e.wid;
            }
        }
        o.cp_valid = s.cp.is_some();
        o.cp_flit = s.cp.unwrap_or([0; FLIT_WORDS]);
        let flush_k = s.flush.and_then(|f| s.ents[f].ld.iter().position(|l| *l == LdState::MissHeld).map(|k| (f, k)));
        if let Some((f, k)) = flush_k {
            let e = &s.ents[f];
            o.fm_valid = true;
            o.fm_wid = e.wid;
            o.fm_addr = e.ld_addr[k];
            o.fm_dst = e.ld_dst[k];
            o.fm_mask = e.mask;
        }
        if i.rst {
            self.next = Some(Self::reset_state(self.n_ent));
            return;
        }

        // (1) response port
        o.rsp_ready = !i.wb_busy;
        if i.rsp_valid && o.rsp_ready {
            let t = i.rsp_tag as usize;
            let st = s.ents.get(t).map_or(EntState::Free, |e| e.state);
            let fb_k = i.rsp_kind.wrapping_sub(RSP_FB_A) as usize;
            let fb_ok = matches!(i.rsp_kind, RSP_FB_A | RSP_FB_B)
                && matches!(st, EntState::Sent | EntState::Fallback)
                && fb_k < s.ents[t].loads()
                && s.ents[t].ld[fb_k] == LdState::MissHeld;
            if matches!(i.rsp_kind, RSP_ACK | RSP_DATA | RSP_BITMAP) && st == EntState::Sent {
                let e = &mut n.ents[t];
                o.evr_valid = true;
                o.evr_wid = e.wid;
                if i.rsp_kind == RSP_ACK {
                    o.evr_kind = EV_RESUME;
                } else {
                    o.evr_kind = EV_WB_RESUME;
                    o.evr_reg = e.dst_last;
                    o.evr_data.clone_from(&i.rsp_data);
                }
                *e = Entry::default();
            } else if fb_ok {
                let e = &mut n.ents[t];
                e.ld[fb_k] = LdState::Present;
                o.evr_valid = true;
                o.evr_wid = e.wid;
                o.evr_reg = e.ld_dst[fb_k];
                o.evr_data.clone_from(&i.rsp_data);
                if e.ld[..e.loads()].iter().all(|l| *l == LdState::Present) {
                    o.evr_kind = EV_FB_REPLAY;
                    o.evr_replay_idx = e.replay_idx();
                    if let Some((r, v)) = e.movi_before_replay() {
                        (o.evr_movi_valid, o.evr_movi_reg, o.evr_movi_imm) = (true, r, v);
                    }
                    *e = Entry::default();
                } else {
                    o.evr_kind = EV_FB_WB;
                    e.state = EntState::Fallback;
                }
            } else {
                o.err = true;
            }
        }

        // (2) L1 result of the forming chain's pending load
        let pending = s.cpgu.as_ref().and_then(|g| s.ents[g.ent].ld.iter().position(|l| *l == LdState::WaitL1).map(|k| (g.ent, k)));
        let mut hit_now = false;
        if i.l1r_valid {
            match pending {
                None => o.err = true,
                Some((ent, k)) => {
                    if !i.l1r_hit {
                        n.ents[ent].ld[k] = LdState::MissHeld;
                    } else if k == 0 {
                        hit_now = true;
                        o.evl_valid = true;
                        o.evl_wid = s.ents[ent].wid;
                        n.ents[ent] = Entry::default();
                        n.cpgu = None;
                    } else {
                        hit_now = true;
                        n.ents[ent].ld[k] = LdState::Hit;
                        n.ents[ent].state = EntState::Flush;
                        n.flush = Some(ent);
                        n.cpgu = None;
                    }
                }
            }
        }

        // (3) chain-instruction port
        let first = i.ci_tag == TAG_FIRST;
        o.ci_ready = if s.flush.is_some() || s.cp.is_some() {
            false
        } else if pending.is_some() {
            i.l1r_valid && !i.l1r_hit
        } else {
            !(first && s.cpgu.is_some() && self.policy == CpguBusyPolicy::Wait)
        };
        if hit_now {
            o.ci_ready = false;
        }
        if i.ci_valid && o.ci_ready {
            let kind = InstrKind::from_code(i.ci_kind);
            if first {
                let full = o.st_full && !self.plant_alloc_when_full;
                let free = s.ents.iter().position(|e| e.state == EntState::Free).or(if self.plant_alloc_when_full { Some(0) } else { None });
                let refuse = i.cfg_mode == Mode::Off.code() || full || s.cpgu.is_some() || kind != Some(InstrKind::Ld);
                if let (false, Some(ent)) = (refuse, free) {
                    n.ents[ent] = Entry {
                        state: EntState::Forming,
                        wid: i.ci_wid,
                        seq: vec![InstrKind::Ld],
                        ld: [LdState::WaitL1, LdState::None],
                        ld_addr: [i.ci_addr, 0],
                        ld_dst: [i.ci_dst, 0],
                        mask: i.ci_mask,
                        dst_last: 0,
                        movi: None,
                    };
                    n.cpgu = Some(Cpgu { ent, ld_mc: [i.ci_mc, 0], divergent: !i.ci_unit_stride, ..Default::default() });
                } else {
                    o.evc_valid = true;
                    o.evc_wid = i.ci_wid;
                }
            } else {
                match (n.cpgu.as_mut(), kind) {
                    (Some(g), Some(kind)) if n.ents[g.ent].wid == i.ci_wid && !g.complete => {
                        let e = &mut n.ents[g.ent];
                        let idx = e.seq.len() as u32;
                        match kind {
                            InstrKind::Ld => {
                                let k = e.loads();
                                if k < 2 {
                                    e.ld[k] = LdState::WaitL1;
                                    e.ld_addr[k] = i.ci_addr;
                                    e.ld_dst[k] = i.ci_dst;
                                    g.ld_mc[k] = i.ci_mc;
                                }
                                g.divergent |= !i.ci_unit_stride;
                            }
                            InstrKind::Movi => {
                                e.movi = Some((idx, i.ci_dst, i.ci_imm));
                                g.imm = i.ci_imm;
                            }
                            InstrKind::Alu | InstrKind::Cmp => {
                                g.ops.push(i.ci_op);
                                g.dtype = i.ci_dtype;
                                e.dst_last = i.ci_dst;
                            }
                            InstrKind::St => {
                                g.addr_c = Some(i.ci_addr);
                                g.mc_c = i.ci_mc;
                                g.divergent |= !i.ci_unit_stride;
                            }
                        }
                        e.seq.push(kind);
                        let prefix_ok = super::chain::PATTERNS.iter().any(|p| p.seq.starts_with(&e.seq));
                        g.complete = i.ci_tag == TAG_LAST;
                        if !prefix_ok || (g.complete && Pattern::of_seq(&e.seq).is_none()) {
                            o.err = true;
                        }
                    }
                    _ => o.err = true,
                }
            }
        }

        // (4) CPGU: decide on the forming chain once no L1 lookup is pending
        if let Some(g) = n.cpgu.clone() {
            let e = n.ents[g.ent].clone();
            let waiting = e.ld.contains(&LdState::WaitL1);
            if !waiting && !o.err {
                match self.capable(i, &e, &g) {
                    None => {
                        n.ents[g.ent].state = EntState::Flush;
                        n.flush = Some(g.ent);
                        n.cpgu = None;
                    }
                    Some(node) if node != u32::MAX && g.complete => {
                        n.cp = Some(self.build_cp(&e, &g, g.ent, node));
                        n.ents[g.ent].state = EntState::Sent;
                        n.cpgu = None;
                    }
                    _ => {}
                }
            }
        }

        // (5) flush engine
        if let Some((f, k)) = flush_k {
            if i.fm_ready {
                n.ents[f].ld[k] = LdState::Flushed;
                if !n.ents[f].ld.contains(&LdState::MissHeld) {
                    let e = &n.ents[f];
                    o.evf_valid = true;
                    o.evf_wid = e.wid;
                    o.evf_replay_idx = e.replay_idx();
                    if let Some((r, v)) = e.movi_before_replay() {
                        (o.evf_movi_valid, o.evf_movi_reg, o.evf_movi_imm) = (true, r, v);
                    }
                    n.ents[f] = Entry::default();
                    n.flush = None;
                }
            }
        }

        // CP output register
        if s.cp.is_some() && i.cp_ready {
            n.cp = None;
        }
        self.next = Some(n);
    }

    fn commit(&mut self, _i: &OqIn) {
        if let Some(n) = self.next.take() {
            self.spare = Some(std::mem::replace(&mut self.state, n));
        }
    }
}
