//! An independent scoreboard of the spec §5 co-simulation invariants over the ports of
//! `qc_rate_monitor`: it sees only the inputs and the registered outputs, cycle by
//! cycle, and recomputes what they imply (the saturating footprint, Table 6.1 from the
//! snapshot `RC_LAT` cycles before a request, the fallback pairs, the restores).
//!
//! Written apart from [`super::monitor`]: it shares the config and the port structs,
//! never the model's code.

use std::collections::VecDeque;

use super::config::{Policy, QcacheConfig};
use super::monitor::{st, MonitorInputs, MonitorOutputs, RateMonitor};
use crate::invariant::Violation;
use crate::model::Scoreboard;

/// Policy findings counted over a run (what the scoreboard saw, for reports and tests).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Seen {
    /// Requests by Table 6.1 row: [row 1, row 2, row 4], fallbacks, restores.
    pub rows: [u64; 3],
    pub fallbacks: u64,
    pub restores: u64,
    pub giveups: u64,
    pub locks: u64,
    /// Lock probes (`LOCK_PROBE_EVALS`): speed-producer MIN_STEP requests from LOCKED.
    pub probes: u64,
    /// Cycles in each state.
    pub state_cycles: [u64; 6],
}

/// The scoreboard.
pub struct MonitorChecker {
    c: QcacheConfig,
    prev: Option<(MonitorInputs, MonitorOutputs)>,
    /// Outputs of the last `RC_LAT` cycles (the snapshot of an evaluation).
    hist: VecDeque<MonitorOutputs>,
    /// The last request handed over (role, dir, ratio) and whether its fallback came.
    last_req: Option<(bool, bool, u8)>,
    /// The last request was a lock probe, which has no fallback.
    last_probe: bool,
    fallback_used: bool,
    pub seen: Seen,
}

fn pop(x: u64, nbanks: u32) -> u64 {
    let m = if nbanks == 64 { u64::MAX } else { (1u64 << nbanks) - 1 };
    (x & m).count_ones() as u64
}

impl MonitorChecker {
    pub fn new(c: &QcacheConfig) -> MonitorChecker {
        MonitorChecker { c: c.clone(), prev: None, hist: VecDeque::new(), last_req: None, last_probe: false, fallback_used: false, seen: Seen::default() }
    }

    fn v(cycle: u64, inv: &'static str, detail: String) -> Result<(), Violation> {
        Err(Violation { cycle, invariant: inv, detail })
    }

    /// R_P against R_C from the window counts: (R_P > R_C, R_P < R_C, the faster
    /// side's product, the slower side's), beyond the `EQ_TOL_SHIFT` tolerance.
    fn rates(&self, s: &MonitorOutputs) -> (bool, bool, u128, u128) {
        let lhs = s.produced as u128 * s.cyc_c as u128;
        let rhs = s.consumed as u128 * s.cyc_p as u128;
        let hi = if lhs > rhs { lhs } else { rhs };
        let lo = if lhs > rhs { rhs } else { lhs };
        let tol = hi >> self.c.eq_tol_shift;
        // R_P = produced / cyc_p, R_C = consumed / cyc_c; a side that saw no event in
        // the window has rate 0, whatever its (unstarted) cycle counter says
        let (rp_zero, rc_zero) = (s.produced == 0, s.consumed == 0);
        let both = !rp_zero && !rc_zero;
        let gt = (rc_zero && !rp_zero) || (both && lhs > rhs && lhs - rhs > tol);
        let lt = (rp_zero && !rc_zero) || (both && rhs > lhs && rhs - lhs > tol);
        (gt, lt, hi, lo)
    }

    /// Table 6.1 from a snapshot: the (role, dir, ratio) pairs a request may carry.
    fn allowed(&self, s: &MonitorOutputs) -> Vec<(bool, bool, u8, &'static str)> {
        let c = &self.c;
        let (gt, lt, hi, lo) = self.rates(s);
        let rc_zero = s.consumed == 0 && s.produced != 0;
        let q_low = s.q <= c.qlow_lines;
        // spilled > produced / 2^shift (rounded down)  <=>  spilled * 2^shift > produced
        let spills_y = (s.spilled as u128) << c.spill_little_shift > s.produced as u128;
        let mut v = Vec::new();
        if gt {
            let ratio = if rc_zero {
                Some(255) // R_P / 0: unbounded, the largest magnitude
            } else if hi.leading_zeros() >= 5 {
                Some(((hi << 4) / lo.max(1)).min(255) as u8)
            } else {
                None
            };
            match ratio {
                Some(r) => {
                    v.push((true, true, r, "row 1"));
                    if c.policy == Policy::DampOnReversal {
                        v.push((true, true, 0x10 + ((r - 0x10) >> 1), "row 1 damped"));
                    }
                }
                None => v.push((true, true, 0, "row 1 (any magnitude)")),
            }
        }
        if !gt && !lt && spills_y && !q_low {
            v.push((true, true, c.min_step_q44, "row 2"));
            if c.policy == Policy::DampOnReversal {
                v.push((true, true, 0x10 + ((c.min_step_q44 - 0x10) >> 1), "row 2 damped"));
            }
        }
        if !gt && q_low {
            v.push((false, true, c.up_step_q44, "row 4"));
            if c.policy == Policy::DampOnReversal {
                v.push((false, true, 0x10 + ((c.up_step_q44 - 0x10) >> 1), "row 4 damped"));
            }
        }
        // LOCK_PROBE_EVALS: from LOCKED, where row 3 held again (rates matched, no row-2
        // spilling, Q at least the lock level), speed the producer by MIN_STEP
        let cap_ref = if s.qmax_valid { s.q_max } else { c.cap_lines };
        let row2 = !gt && !lt && spills_y && !q_low;
        let row3 = !gt && !lt && !row2 && s.q >= cap_ref >> c.qlock_shift;
        if c.lock_probe_evals > 0 && s.state == st::LOCKED && row3 {
            v.push((false, true, c.min_step_q44, "probe"));
            if c.policy == Policy::DampOnReversal {
                v.push((false, true, 0x10 + ((c.min_step_q44 - 0x10) >> 1), "probe damped"));
            }
        }
        v
    }
}

impl Scoreboard<RateMonitor> for MonitorChecker {
    fn observe(&mut self, cycle: u64, i: &MonitorInputs, o: &MonitorOutputs) -> Result<(), Violation> {
        let c = self.c.clone();
        let max = c.cnt_max();
        self.seen.state_cycles[(o.state as usize).min(5)] += 1;
        let prev = self.prev.replace((i.clone(), o.clone()));
        self.hist.push_back(o.clone());
        if self.hist.len() > c.rc_lat as usize {
            self.hist.pop_front();
        }
        let Some((pi, po)) = prev else { return Ok(()) };
        for (name, x) in [("produced", o.produced), ("consumed", o.consumed), ("spilled", o.spilled), ("cyc_p", o.cyc_p), ("cyc_c", o.cyc_c), ("q", o.q), ("q_max", o.q_max)] {
            if x > max {
                return Self::v(cycle, "7 saturation", format!("{name} = {x} exceeds {max}"));
            }
        }
        if o.state > st::OFF {
            return Self::v(cycle, "state code", format!("state {}", o.state));
        }
        if pi.rst {
            if *o != MonitorOutputs::default() {
                return Self::v(cycle, "reset", format!("after rst_i the outputs are not all zero: {o:?}"));
            }
            self.last_req = None;
            return Ok(());
        }
        let kend = pi.kend && po.state != st::DISABLED;
        let kbegin = pi.kbegin && po.state == st::DISABLED;
        let counting = !kend && (kbegin || matches!(po.state, st::DETECT | st::ACTIVE | st::PENDING | st::LOCKED));
        let (np, nc, ns) = (pop(pi.ev_prod, c.nbanks), pop(pi.ev_cons, c.nbanks), pop(pi.ev_spill, c.nbanks));

        // 2 footprint: the saturating recurrence from the ports
        let q0 = if kbegin { 0 } else { po.q };
        let want_q = if kend {
            0
        } else if counting {
            (q0.saturating_add(np).min(max)).saturating_sub(nc + ns)
        } else {
            po.q
        };
        if o.q != want_q {
            return Self::v(cycle, "2 footprint identity", format!("q = {}, expected {want_q} (q was {}, +{np} -{nc} -{ns})", o.q, po.q));
        }
        // 8 restore completeness at kernel end
        if kend {
            if o.state != st::DISABLED || o.throttled != 0 {
                return Self::v(cycle, "8 restore completeness", format!("after kend: state {} throttled {:#x}", o.state, o.throttled));
            }
            if po.throttled != 0 && !(o.req_valid && o.req.restore && o.req.target == po.throttled) {
                return Self::v(cycle, "8 restore completeness", format!("kend with throttled {:#x} but request {:?}", po.throttled, o.req));
            }
        }
        // 3 quiescence
        let quiet = matches!(po.state, st::DISABLED | st::OFF) && o.state == po.state && !kbegin;
        if quiet {
            let same = (o.produced, o.consumed, o.spilled, o.cyc_p, o.cyc_c, o.q, o.q_max, o.prod_mask, o.cons_mask)
                == (po.produced, po.consumed, po.spilled, po.cyc_p, po.cyc_c, po.q, po.q_max, po.prod_mask, po.cons_mask);
            if !same {
                return Self::v(cycle, "3 quiescence", format!("counters changed in {}", st::NAMES[po.state as usize]));
            }
        }
        // 7 monotonicity: window counters grow by at most this cycle's events, or restart at 0
        let win = [o.produced, o.consumed, o.spilled, o.cyc_p, o.cyc_c];
        let was = [po.produced, po.consumed, po.spilled, po.cyc_p, po.cyc_c];
        let restarted = win.iter().all(|&x| x == 0) || kbegin || kend;
        if !restarted && !quiet {
            let step = [np, nc, ns, 1, 1];
            for k in 0..5 {
                if win[k] < was[k] || win[k] - was[k] > step[k] {
                    return Self::v(cycle, "7 monotonicity", format!("window counter {k} went {} -> {}", was[k], win[k]));
                }
            }
        }
        // 6 reset semantics: an accepted ACK restarts the window and keeps Q
        if po.state == st::PENDING && !po.req_valid && pi.rsp_valid && pi.rsp_ack && !kend {
            if win.iter().any(|&x| x != 0) || o.state != st::ACTIVE {
                return Self::v(cycle, "6 reset semantics", format!("after an ACK: state {} window {win:?}", o.state));
            }
            if ns == 0 && o.q_max != po.q_max {
                return Self::v(cycle, "6 reset semantics", "q_max changed at an ACK".into());
            }
        }
        // give-up (->OFF from ACTIVE/LOCKED) restores every throttled domain
        if o.state == st::OFF && matches!(po.state, st::ACTIVE | st::LOCKED) {
            self.seen.giveups += 1;
            if o.throttled != 0 || (po.throttled != 0 && !(o.req_valid && o.req.restore && o.req.target == po.throttled)) {
                return Self::v(cycle, "8 restore completeness", format!("give-up with throttled {:#x}: request {:?}", po.throttled, o.req));
            }
        }
        if o.state == st::LOCKED && po.state != st::LOCKED {
            // 5, Table 6.1 row 3: the evaluation that locks saw matched rates and a
            // reasonably large Q (its counts are the registers of this cycle)
            let (gt, lt, _, _) = self.rates(o);
            let cap_ref = if o.qmax_valid { o.q_max } else { c.cap_lines };
            if gt || lt || o.q < cap_ref >> c.qlock_shift {
                return Self::v(cycle, "5 policy soundness", format!("LOCKED without matched rates and a large Q: {o:?}"));
            }
            self.seen.locks += 1;
        }
        // a request leaves the register only when accepted
        if po.req_valid && !pi.req_ready && (!o.req_valid || o.req != po.req) && !kend {
            return Self::v(cycle, "channel", format!("request {:?} changed before it was accepted", po.req));
        }
        let rose = o.req_valid && (!po.req_valid || pi.req_ready);
        if rose && o.req.restore {
            self.seen.restores += 1;
        }
        if rose && !o.req.restore {
            let (role, dir, ratio) = (o.req.role, o.req.dir, o.req.ratio_q44);
            if ratio < 0x10 {
                return Self::v(cycle, "5 policy soundness", format!("ratio {ratio:#x} below 1.0"));
            }
            // 9 warm-up
            if ((role && dir) || (!role && !dir)) && !po.qmax_valid {
                return Self::v(cycle, "9 warm-up rule", format!("{:?} before the first spill", o.req));
            }
            if po.state == st::PENDING {
                // 4: the one fallback after a NACK
                let nack = pi.rsp_valid && !pi.rsp_ack && !po.req_valid;
                let Some((r0, d0, m0)) = self.last_req.filter(|_| nack && !self.fallback_used) else {
                    return Self::v(cycle, "4 single outstanding request", format!("request {:?} while PENDING without a NACK", o.req));
                };
                if self.last_probe {
                    return Self::v(cycle, "5 policy soundness", format!("fallback {:?} after a lock probe (it has none)", o.req));
                }
                if (role, dir, ratio) != (!r0, !d0, m0) {
                    return Self::v(cycle, "5 policy soundness", format!("fallback {:?} after ({r0}, {d0}, {m0:#x})", o.req));
                }
                let want = if role { o.cons_mask } else { o.prod_mask };
                if o.req.target & !want != 0 {
                    return Self::v(
                        cycle,
                        "5 policy soundness",
                        format!("fallback target {:#x} outside the {} mask {want:#x}", o.req.target, if role { "consumer" } else { "producer" }),
                    );
                }
                self.fallback_used = true;
                self.seen.fallbacks += 1;
            } else {
                if !matches!(po.state, st::ACTIVE | st::LOCKED) || o.state != st::PENDING {
                    return Self::v(cycle, "4 single outstanding request", format!("request rose in {} -> {}", st::NAMES[po.state as usize], st::NAMES[o.state as usize]));
                }
                // 5: Table 6.1 recomputed from the snapshot after the evaluation cycle
                if self.hist.len() < c.rc_lat as usize {
                    return Self::v(cycle, "5 policy soundness", "request with no evaluation RC_LAT cycles before".into());
                }
                let snap = self.hist[0].clone();
                let ok = self.allowed(&snap);
                let hits: Vec<&'static str> = ok.iter().filter(|(r, d, m, _)| (*r, *d) == (role, dir) && (*m == ratio || *m == 0)).map(|h| h.3).collect();
                let Some(&row) = hits.first() else {
                    return Self::v(cycle, "5 policy soundness", format!("request {:?} not allowed by Table 6.1 for the snapshot {snap:?} (allowed {ok:?})", o.req));
                };
                // a probe only when no Table 6.1 row explains the request (then a fallback may follow)
                self.last_probe = hits.iter().all(|h| h.starts_with("probe"));
                let want = if role { snap.cons_mask } else { snap.prod_mask };
                if o.req.target != want {
                    return Self::v(cycle, "5 policy soundness", format!("target {:#x}, the snapshot's mask is {want:#x}", o.req.target));
                }
                if self.last_probe {
                    self.seen.probes += 1;
                } else {
                    self.seen.rows[match row.as_bytes()[4] {
                        b'1' => 0,
                        b'2' => 1,
                        _ => 2,
                    }] += 1;
                }
                self.last_req = Some((role, dir, ratio));
                self.fallback_used = false;
            }
        }
        Ok(())
    }
}
