//! An independent scoreboard of the spec §4.3 invariants on the unit side, beside
//! [`super::check::NetChecker`] (which covers the network's).
//!
//! It watches one chip: every SM's network ports and LSU memory ports each cycle
//! ([`super::sm::SmTrace`]), re-decodes the CRs from `unit_cfg` in ARM, and keeps
//! its own shadow of memory (the initial image plus the stores it saw, in order).
//! It shares no code with the unit models.
//!
//! Checked:
//! * **4 firing rule** (strict cores): `u_out_v` equals `en & running & !done &
//!   AND(used_k -> u_in_v_k)` every cycle, with `done` from its own count of `u_fire`;
//!   every used FIFO slot pops exactly on fire, IMM/unused slots never; `lane_en` is
//!   low only for non-final `last_only` results. Pipelined cores: pops are
//!   all-or-nothing over the used slots and only of valid operands.
//! * **7 LSU semantics**: an LD pops its address exactly when its data token leaves;
//!   loads complete in program order (the k-th token answers the k-th issued load,
//!   whose address is the popped head + imm) with the value memory holds there; a ST
//!   fires exactly when a write leaves, carrying the popped address + imm and the
//!   popped data, and the stores are applied in that order; prefetches never write,
//!   and at the end memory equals the initial image plus the observed stores (so
//!   prefetches changed nothing).
//! * **8 mode isolation**: no memory request from a unit outside RUN (*our rule*,
//!   stricter than "not in GPU mode": units start nothing in DRAIN either).
//!
//! Limitation (*stated*): the load-value check reads the shadow at completion, the
//! memory model at issue; they agree unless a store to the same word lands in
//! between, which none of the shipped apps do.

use std::collections::VecDeque;

use super::check::Violation;
use super::config::{GpuccConfig, TimingMode, UnitKind, N_IN};
use super::cr::{op, Cr, Src};
use super::fp;
use super::mem::Backing;
use super::net::Mode;
use super::sm::SmTrace;

#[derive(Debug, Clone, Default)]
struct SmShadow {
    crs: Vec<Cr>,
    fires: Vec<u32>,
    /// Per LSU: issued load addresses not yet answered.
    issued: Vec<VecDeque<u32>>,
}

/// The unit-side scoreboard of one chip.
#[derive(Debug, Clone)]
pub struct UnitChecker {
    cfg: GpuccConfig,
    shadow: Backing,
    sms: Vec<SmShadow>,
    violations: Vec<Violation>,
    /// Stop recording after this many.
    pub max_violations: usize,
}

impl UnitChecker {
    pub fn new(cfg: &GpuccConfig, sms: usize, initial: &Backing) -> Self {
        UnitChecker { cfg: cfg.clone(), shadow: initial.clone(), sms: vec![SmShadow::default(); sms], violations: Vec::new(), max_violations: 16 }
    }

    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    fn flag(&mut self, cycle: u64, invariant: &'static str, detail: String) {
        if self.violations.len() < self.max_violations {
            self.violations.push(Violation { cycle, invariant, detail });
        }
    }

    /// Observe SM `sm` in cycle `now` (between its eval and commit).
    pub fn observe(&mut self, sm: usize, t: SmTrace<'_>, now: u64) {
        let n = self.cfg.n_pos();
        let lanes = self.cfg.lanes;
        let mode = t.out.mode;
        if mode == Mode::Arm {
            let s = &mut self.sms[sm];
            s.crs = t.out.unit_cfg.iter().map(|w| Cr::from_words(*w)).collect();
            s.fires = vec![0; n];
            s.issued = vec![VecDeque::new(); self.cfg.n_lsu()];
        }
        for (j, r) in t.mem_req.iter().enumerate() {
            if let Some(r) = r {
                if mode != Mode::Run {
                    self.flag(now, "8 mode isolation", format!("SM {sm} LSU {j} sends {r:?} in {mode:?}"));
                }
                if r.prefetch && r.we {
                    self.flag(now, "7 LSU semantics", format!("SM {sm} LSU {j}: a prefetch request writes"));
                }
            }
        }
        if !mode.active() || self.sms[sm].crs.is_empty() {
            return;
        }
        let strict = self.cfg.timing.mode == TimingMode::Strict;
        for p in 0..n {
            let cr = self.sms[sm].crs[p];
            if !cr.en {
                continue;
            }
            let src: Vec<Src> = (0..N_IN).map(|k| if self.cfg.kinds[p] == UnitKind::Lsu && k == 2 { Src::Unused } else { cr.src(k, lanes) }).collect();
            let used = |k: usize| matches!(src[k], Src::Lane(_) | Src::SelfLoop);
            let s = |k: usize| p * N_IN + k;
            let fire = t.out.u_fire[p];
            let fired = self.sms[sm].fires[p];
            let not_done = cr.fire_count == 0 || fired < cr.fire_count;
            match self.cfg.kinds[p] {
                UnitKind::Core => {
                    let all_valid = (0..N_IN).all(|k| !used(k) || t.out.u_in_v[s(k)]);
                    if strict {
                        let want_v = mode == Mode::Run && fp::is_core_op(cr.opcode) && not_done && all_valid;
                        if t.inp.u_out_v[p] != want_v {
                            self.flag(
                                now,
                                "4 firing rule",
                                format!("SM {sm} unit {p}: u_out_v = {} but the rule gives {want_v} (fired {fired}/{})", t.inp.u_out_v[p], cr.fire_count),
                            );
                        }
                        for k in 0..N_IN {
                            if t.inp.u_in_yumi[s(k)] != (fire && used(k)) {
                                self.flag(now, "4 firing rule", format!("SM {sm} unit {p} slot {k}: pop = {} with fire = {fire}, used = {}", t.inp.u_in_yumi[s(k)], used(k)));
                            }
                        }
                        let last = cr.fire_count != 0 && fired + 1 == cr.fire_count;
                        if want_v && t.inp.u_out_lane_en[p] != (!cr.last_only || last) {
                            self.flag(now, "4 firing rule", format!("SM {sm} unit {p}: lane_en = {} on firing {} of {}", t.inp.u_out_lane_en[p], fired + 1, cr.fire_count));
                        }
                    } else {
                        let pops: Vec<bool> = (0..N_IN).filter(|&k| used(k)).map(|k| t.inp.u_in_yumi[s(k)]).collect();
                        let any = pops.iter().any(|&x| x);
                        if any && (!pops.iter().all(|&x| x) || !all_valid) {
                            self.flag(now, "4 firing rule", format!("SM {sm} unit {p}: partial or invalid pop {pops:?}"));
                        }
                        if (0..N_IN).any(|k| !used(k) && t.inp.u_in_yumi[s(k)]) {
                            self.flag(now, "4 firing rule", format!("SM {sm} unit {p}: pops an IMM/unused slot"));
                        }
                    }
                }
                UnitKind::Lsu => {
                    let j = self.cfg.lsu_index[p].expect("LSU index");
                    let req = t.mem_req[j];
                    if cr.opcode == op::LD {
                        self.check_ld(sm, p, j, &cr, &t, now);
                    } else if cr.opcode == op::ST {
                        for k in 0..2 {
                            if used(k) && t.inp.u_in_yumi[s(k)] != fire {
                                self.flag(now, "7 LSU semantics", format!("SM {sm} ST {p} slot {k}: pop = {} with fire = {fire}", t.inp.u_in_yumi[s(k)]));
                            }
                        }
                        match (fire, req) {
                            (true, Some(r)) if r.we && !r.prefetch => {
                                let addr = (t.out.u_in_data[s(0)] as u32).wrapping_add(cr.imm);
                                let data = t.out.u_in_data[s(1)] as u32;
                                if r.addr != addr || r.wdata != data {
                                    self.flag(now, "7 LSU semantics", format!("SM {sm} ST {p} writes {:#x} <- {:#x}, popped {addr:#x} <- {data:#x}", r.addr, r.wdata));
                                }
                                self.shadow.write32(r.addr, r.wdata);
                            }
                            (false, None) => {}
                            (f, r) => self.flag(now, "7 LSU semantics", format!("SM {sm} ST {p}: fire = {f} with request {r:?}")),
                        }
                    }
                }
            }
            if fire {
                self.sms[sm].fires[p] += 1;
            }
        }
    }

    fn check_ld(&mut self, sm: usize, p: usize, j: usize, cr: &Cr, t: &SmTrace<'_>, now: u64) {
        let fire = t.out.u_fire[p];
        let s0 = p * N_IN;
        if t.inp.u_in_yumi[s0] != fire {
            self.flag(now, "7 LSU semantics", format!("SM {sm} LD {p}: address pop = {} but data transfer = {fire}", t.inp.u_in_yumi[s0]));
        }
        if t.inp.u_in_yumi[s0 + 1] || t.inp.u_in_yumi[s0 + 2] {
            self.flag(now, "7 LSU semantics", format!("SM {sm} LD {p} pops a slot other than its address FIFO"));
        }
        if fire {
            let addr = (t.out.u_in_data[s0] as u32).wrapping_add(cr.imm);
            match self.sms[sm].issued[j].pop_front() {
                Some(a) if a == addr => {}
                other => self.flag(now, "7 LSU semantics", format!("SM {sm} LD {p}: token for FIFO head {addr:#x} but the oldest issued load is {other:x?}")),
            }
            let want = self.shadow.read32(addr).unwrap_or(0);
            let got = t.inp.u_out_data[p] as u32;
            if got != want {
                self.flag(now, "7 LSU semantics", format!("SM {sm} LD {p}: returns {got:#x} for {addr:#x}, memory holds {want:#x}"));
            }
        }
        if let Some(r) = t.mem_req[j] {
            if r.we {
                self.flag(now, "7 LSU semantics", format!("SM {sm} LD {p} sends a write"));
            } else if !r.prefetch {
                self.sms[sm].issued[j].push_back(r.addr);
            }
        }
    }

    /// End of run: memory must be the initial image plus the observed stores, in
    /// order. Recorded even when the violation list is full.
    pub fn finish(&mut self, mem: &Backing, now: u64) {
        if mem.bytes() != self.shadow.bytes() {
            let at = mem.bytes().iter().zip(self.shadow.bytes()).position(|(a, b)| a != b).unwrap_or(0) & !3;
            let got = mem.read32(at as u32);
            let want = self.shadow.read32(at as u32);
            self.violations.push(Violation {
                cycle: now,
                invariant: "7 LSU semantics",
                detail: format!("final memory differs from initial image + stores in FIFO order at {at:#x}: {got:x?} vs {want:x?}"),
            });
        }
    }
}
