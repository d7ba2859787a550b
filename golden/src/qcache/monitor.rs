//! `qc_rate_monitor`: the Q-cache rate monitor of one L2 (spec §1.2-§1.8, §5),
//! cycle-exact at every port of the generated Verilog.
//!
//! One struct of registers ([`Regs`]); [`RateMonitor::eval`] computes the next registers
//! from the registered ones and this cycle's inputs in the spec §1.6 order (kernel end,
//! kernel begin, events, the state's work, the delayed decision), and every output is a
//! register (BaseJump style: nothing combinational reaches an output).
//! [`RateMonitor::commit`] is the clock edge.
//!
//! Our timing choices (spec §1.6 "timing rules", [OC] where the spec leaves it open):
//! * the request channel is a register: a request loaded at an edge is `req_v_o` from
//!   the next cycle until the edge where `req_ready_i` is high;
//! * a decision made in the evaluation cycle `t` is loaded at the edge of cycle
//!   `t + RC_LAT - 1`, so `req_v_o` rises in cycle `t + RC_LAT`, together with the
//!   state change (->PENDING or ->OFF); if the request register is still busy then
//!   (an unaccepted RESTORE), the decision waits for it;
//! * an evaluation instant while a decision is waiting is consumed without evaluating;
//! * a response counts only in PENDING once the request was accepted (`pend_t` counts
//!   from the handshake); others are ignored. `rsp_dom_i` is not used: the first
//!   response to a multicast request answers it;
//! * at kernel end the request register gets RESTORE(`throttled`) if any domain is
//!   throttled; otherwise an unaccepted RESTORE stays and any other request is dropped;
//! * a RESTORE (kernel end, give-up) clears `throttled` when it is loaded (its
//!   acknowledgement arrives outside PENDING and is ignored);
//! * `LOCK_PROBE_EVALS` = N > 0 (spec §1.6, off by default): an evaluation *in* LOCKED
//!   whose outcome is row 3 again is a quiet one (the evaluation that enters LOCKED from
//!   ACTIVE is not); after N quiet ones in a row, the next such evaluation decides a
//!   probe instead, speed the producer by `MIN_STEP` with no fallback (a NACK means the
//!   producer already runs at full rate; row 4's "slow the consumer" would throttle
//!   further, the opposite of a probe). Any evaluation with another outcome restarts the
//!   count; skipped evaluations (before `MIN_OBS_CYCLES`, too few lines, a decision
//!   waiting) and a give-up leave it.

use super::config::{Policy, QcacheConfig};
use crate::model::Model;

/// Monitor states (spec §1.4), 3-bit codes.
pub mod st {
    pub const DISABLED: u8 = 0;
    pub const DETECT: u8 = 1;
    pub const ACTIVE: u8 = 2;
    pub const PENDING: u8 = 3;
    pub const LOCKED: u8 = 4;
    pub const OFF: u8 = 5;
    pub const NAMES: [&str; 6] = ["DISABLED", "DETECT", "ACTIVE", "PENDING", "LOCKED", "OFF"];
}

/// `req_role_o`: which side a request addresses.
pub const PRODUCER: bool = false;
pub const CONSUMER: bool = true;
/// `req_dir_o`: slow down or speed up.
pub const SLOW: bool = false;
pub const SPEED: bool = true;

/// One rate-scaling request (spec §1.7). A RESTORE has role, dir and ratio 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Req {
    pub target: u8,
    pub role: bool,
    pub dir: bool,
    pub ratio_q44: u8,
    pub restore: bool,
}

impl Req {
    pub fn restore(target: u8) -> Req {
        Req { target, restore: true, ..Req::default() }
    }
}

/// A decision waiting `RC_LAT` cycles (spec §1.6 `sched`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sched {
    /// Cycles left before the edge that emits it.
    pub cnt: u32,
    /// A give-up (->OFF with RESTORE) rather than a request.
    pub giveup: bool,
    pub req: Req,
    /// The alternative action if `req` is NACKed.
    pub fallback: Option<Req>,
}

/// Every register of the monitor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Regs {
    pub state: u8,
    pub produced: u64,
    pub consumed: u64,
    pub spilled: u64,
    pub cyc_p: u64,
    pub cyc_c: u64,
    pub q: u64,
    pub q_max: u64,
    pub qmax_valid: bool,
    pub prod_mask: u8,
    pub cons_mask: u8,
    pub throttled: u8,
    pub eval_t: u32,
    pub win_t: u32,
    pub det_t: u32,
    pub pend_t: u32,
    pub lowq_streak: u8,
    pub giveup_streak: u8,
    pub tot_p_seen: bool,
    pub tot_c_seen: bool,
    pub force_eval: bool,
    /// Direction class of the last decision (damping policy): 0 none, 1 lowered
    /// P/C (speed consumer or slow producer), 2 raised it.
    pub last_dir: u8,
    /// Quiet LOCKED evaluations in a row (`LOCK_PROBE_EVALS`, spec §1.6).
    pub lock_quiet: u32,
    pub sched: Option<Sched>,
    /// Fallback of the request in flight.
    pub fallback: Option<Req>,
    /// The request register (`req_v_o` and its fields).
    pub req: Option<Req>,
    /// Target of the last non-restore request loaded (what an ACK throttled).
    pub issued_target: u8,
}

/// One cycle of the monitor's input ports (`rst_i` included).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MonitorInputs {
    pub rst: bool,
    pub kbegin: bool,
    pub kend: bool,
    /// Per-bank strobes, bank `b` at bit `b`.
    pub ev_prod: u64,
    pub ev_prod_dom: Vec<u8>,
    pub ev_cons: u64,
    pub ev_cons_dom: Vec<u8>,
    pub ev_spill: u64,
    pub req_ready: bool,
    pub rsp_valid: bool,
    pub rsp_ack: bool,
    pub rsp_dom: u8,
}

/// One cycle of the output ports (all registered).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MonitorOutputs {
    pub req_valid: bool,
    pub req: Req,
    pub state: u8,
    pub produced: u64,
    pub consumed: u64,
    pub spilled: u64,
    pub cyc_p: u64,
    pub cyc_c: u64,
    pub q: u64,
    pub q_max: u64,
    pub qmax_valid: bool,
    pub prod_mask: u8,
    pub cons_mask: u8,
    pub throttled: u8,
}

/// A planted bug, for showing that the checkers catch one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// Q wraps below zero instead of saturating (spec §1.5).
    QWraps,
    /// Row 1 asks the producer to speed up instead of the consumer.
    WrongRole,
    /// The earlier comparison: a window with no CONSUME (or no PRODUCE) compares 0
    /// against 0 and reads as "rates equal".
    ZeroRatesEqual,
    /// The lock probe carries row 4's fallback (slow the consumer) when NACKed.
    ProbeWithFallback,
}

/// What an evaluation decided (spec §1.6 `evaluate`).
enum Decision {
    GiveUp,
    /// A request and its fallback (role, dir) if NACKed; the lock probe has none.
    Req {
        role: bool,
        dir: bool,
        ratio: u8,
        fallback: Option<(bool, bool)>,
    },
}

/// The rate monitor of one L2.
#[derive(Debug, Clone)]
pub struct RateMonitor {
    pub cfg: QcacheConfig,
    pub r: Regs,
    next: Regs,
    pub mutation: Option<Mutation>,
}

/// `ratio_q44 = sat8((max << 4) / max(1, min))` for `max >= min` (spec §1.5), without
/// overflow at 128-bit products: integer part, then four fraction bits by restoring
/// division (what the RTL's divider computes, one bit per step).
pub fn q44(max: u128, min: u128) -> u8 {
    let d = min.max(1);
    let int = max / d;
    if int >= 16 {
        return 0xff;
    }
    let mut rem = max % d;
    let mut q = int as u32;
    for _ in 0..4 {
        // rem < d: 2*rem >= d  <=>  rem >= d - rem (no overflow)
        let bit = rem >= d - rem;
        rem = if bit { rem - (d - rem) } else { rem + rem };
        q = 2 * q + bit as u32;
    }
    q.min(0xff) as u8
}

fn sat_add(a: u64, b: u64, max: u64) -> u64 {
    a.saturating_add(b).min(max)
}

/// The domains named by the banks whose strobe is set in `mask` (`dom[b]` is bank b's
/// domain id; ids >= NDOM name no domain), as a domain mask.
fn doms(mask: u64, dom: &[u8], ndom: u32) -> u8 {
    let mut m = 0u8;
    for (b, &d) in dom.iter().enumerate() {
        if mask >> b & 1 == 1 && (d as u32) < ndom {
            m |= 1 << d;
        }
    }
    m
}

impl RateMonitor {
    pub fn new(cfg: &QcacheConfig) -> RateMonitor {
        RateMonitor { cfg: cfg.clone(), r: Regs::default(), next: Regs::default(), mutation: None }
    }

    /// The registered outputs.
    pub fn outputs(&self) -> MonitorOutputs {
        let r = &self.r;
        MonitorOutputs {
            req_valid: r.req.is_some(),
            req: r.req.unwrap_or_default(),
            state: r.state,
            produced: r.produced,
            consumed: r.consumed,
            spilled: r.spilled,
            cyc_p: r.cyc_p,
            cyc_c: r.cyc_c,
            q: r.q,
            q_max: r.q_max,
            qmax_valid: r.qmax_valid,
            prod_mask: r.prod_mask,
            cons_mask: r.cons_mask,
            throttled: r.throttled,
        }
    }

    fn window_reset(n: &mut Regs) {
        n.produced = 0;
        n.consumed = 0;
        n.spilled = 0;
        n.cyc_p = 0;
        n.cyc_c = 0;
        n.win_t = 0;
        n.eval_t = 0;
        n.force_eval = false;
    }

    /// The registers after the clock edge of a cycle with inputs `i`.
    pub fn step(&self, i: &MonitorInputs) -> Regs {
        let c = &self.cfg;
        let r = &self.r;
        if i.rst {
            return Regs::default();
        }
        let mut n = r.clone();
        // the request register empties at the edge where it is accepted
        if n.req.is_some() && i.req_ready {
            n.req = None;
        }
        // (1) kernel end has top priority
        if i.kend && r.state != st::DISABLED {
            let held = n.req.filter(|q| q.restore);
            let req = if r.throttled != 0 { Some(Req::restore(r.throttled)) } else { held };
            return Regs { req, ..Regs::default() };
        }
        // (2) kernel begin
        if i.kbegin && r.state == st::DISABLED {
            let req = n.req;
            n = Regs { req, state: st::DETECT, ..Regs::default() };
        }
        if n.state == st::DISABLED || n.state == st::OFF {
            return n;
        }
        // (3) this cycle's events, popcounts over the banks
        let bank_mask = if c.nbanks == 64 { u64::MAX } else { (1u64 << c.nbanks) - 1 };
        let (ep, ec, es) = (i.ev_prod & bank_mask, i.ev_cons & bank_mask, i.ev_spill & bank_mask);
        let (np, nc, ns) = (ep.count_ones() as u64, ec.count_ones() as u64, es.count_ones() as u64);
        let max = c.cnt_max();
        if ns > 0 && n.spilled == 0 && n.state != st::DETECT {
            n.q_max = n.q;
            n.qmax_valid = true;
            n.force_eval = true;
        }
        n.produced = sat_add(n.produced, np, max);
        n.consumed = sat_add(n.consumed, nc, max);
        n.spilled = sat_add(n.spilled, ns, max);
        let up = sat_add(n.q, np, max);
        n.q = match self.mutation {
            Some(Mutation::QWraps) => up.wrapping_sub(nc + ns) & max,
            _ => up.saturating_sub(nc + ns),
        };
        n.prod_mask |= doms(ep, &i.ev_prod_dom, c.ndom);
        n.cons_mask |= doms(ec, &i.ev_cons_dom, c.ndom);
        if n.cyc_p > 0 || np > 0 {
            n.cyc_p = sat_add(n.cyc_p, 1, max);
        }
        if n.cyc_c > 0 || nc > 0 {
            n.cyc_c = sat_add(n.cyc_c, 1, max);
        }
        n.tot_p_seen |= np > 0;
        n.tot_c_seen |= nc > 0;

        // (4) the state's work
        match n.state {
            st::DETECT => {
                n.det_t += 1;
                if n.tot_p_seen && n.tot_c_seen {
                    Self::window_reset(&mut n);
                    n.state = st::ACTIVE;
                } else if n.det_t >= c.detect_timeout {
                    n.state = st::OFF;
                }
            }
            st::PENDING if r.req.is_none() => {
                n.pend_t += 1;
                if i.rsp_valid {
                    if i.rsp_ack {
                        n.throttled |= n.issued_target;
                        n.fallback = None;
                        Self::window_reset(&mut n);
                        n.state = st::ACTIVE;
                    } else if let Some(fb) = n.fallback.take() {
                        n.req = Some(fb);
                        n.issued_target = fb.target;
                        n.pend_t = 0;
                    } else {
                        n.state = st::ACTIVE;
                    }
                } else if n.pend_t >= c.ack_timeout {
                    n.fallback = None;
                    n.state = st::ACTIVE;
                }
            }
            st::ACTIVE | st::LOCKED => {
                n.win_t += 1;
                n.eval_t += 1;
                if n.win_t >= c.window_cycles {
                    Self::window_reset(&mut n);
                } else if n.eval_t >= c.eval_interval || n.force_eval {
                    n.eval_t = 0;
                    n.force_eval = false;
                    // an evaluation instant while a decision waits is consumed
                    if n.sched.is_none() {
                        if let Some(d) = self.evaluate(&mut n) {
                            n.sched = Some(self.schedule(&mut n, d));
                        }
                    }
                }
            }
            _ => {}
        }
        Self::emit_due(r, n)
    }

    /// (5) the delayed decision (one that was waiting before this cycle): counted
    /// down, and emitted at its edge.
    fn emit_due(r: &Regs, mut n: Regs) -> Regs {
        if r.sched.is_none() {
            return n;
        }
        let mut s = n.sched.expect("a waiting decision");
        if s.cnt > 0 {
            s.cnt -= 1;
            n.sched = Some(s);
            return n;
        }
        if n.req.is_some() {
            return n; // the request register is busy: wait for it
        }
        n.sched = None;
        if s.giveup {
            n.state = st::OFF;
            n.fallback = None;
            if n.throttled != 0 {
                n.req = Some(Req::restore(n.throttled));
                n.throttled = 0;
            }
        } else {
            n.req = Some(s.req);
            n.fallback = s.fallback;
            n.issued_target = s.req.target;
            n.state = st::PENDING;
            n.pend_t = 0;
        }
        n
    }

    /// A decision, with its targets and magnitude fixed now (spec invariant 5).
    fn schedule(&self, n: &mut Regs, d: Decision) -> Sched {
        let cnt = self.cfg.rc_lat - 2;
        match d {
            Decision::GiveUp => Sched { cnt, giveup: true, req: Req::default(), fallback: None },
            Decision::Req { role, dir, ratio, fallback } => {
                let class = if (role == CONSUMER) == (dir == SPEED) { 1 } else { 2 };
                let ratio = if self.cfg.policy == Policy::DampOnReversal && n.last_dir != 0 && n.last_dir != class { 0x10 + ((ratio - 0x10) >> 1) } else { ratio };
                n.last_dir = class;
                let target = |role: bool| if role == PRODUCER { n.prod_mask } else { n.cons_mask };
                Sched {
                    cnt,
                    giveup: false,
                    req: Req { target: target(role), role, dir, ratio_q44: ratio, restore: false },
                    fallback: fallback.map(|(fb_role, fb_dir)| Req { target: target(fb_role), role: fb_role, dir: fb_dir, ratio_q44: ratio, restore: false }),
                }
            }
        }
    }

    /// Table 6.1 with the §1.6 refinements, on the registers after this cycle's events.
    fn evaluate(&self, n: &mut Regs) -> Option<Decision> {
        let c = &self.cfg;
        if n.win_t < c.min_obs_cycles || (n.produced < c.min_lines && n.consumed < c.min_lines) {
            return None;
        }
        // fail-safe: spills keep pace with consumption
        if n.consumed as u128 + n.spilled as u128 >= c.min_lines as u128 && n.spilled >= n.consumed {
            n.giveup_streak = (n.giveup_streak + 1).min(3);
            if n.giveup_streak as u32 >= c.giveup_streak {
                return Some(Decision::GiveUp);
            }
        } else {
            n.giveup_streak = 0;
        }
        let (lhs, rhs) = (n.produced as u128 * n.cyc_c as u128, n.consumed as u128 * n.cyc_p as u128);
        let (big, small) = (lhs.max(rhs), lhs.min(rhs));
        let tol = big >> c.eq_tol_shift;
        // A side with no event in the window has rate 0, and its cycle counter has not
        // started: both products are then 0, which must not read as "equal" (our choice,
        // README "Q-cache design notes"). MIN_LINES >= 1 rules out both sides at 0.
        let (no_cons, no_prod) = if self.mutation == Some(Mutation::ZeroRatesEqual) { (false, false) } else { (n.consumed == 0, n.produced == 0) };
        let cmp = if no_cons || (lhs > rhs && lhs - rhs > tol) {
            std::cmp::Ordering::Greater
        } else if no_prod || (rhs > lhs && rhs - lhs > tol) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Equal
        };
        let spills_y = n.spilled > n.produced.checked_shr(c.spill_little_shift).unwrap_or(0);
        // the quiet-LOCKED run ends at any evaluation that does not lock again
        let quiet = std::mem::take(&mut n.lock_quiet);
        let qlow = n.q <= c.qlow_lines;
        n.lowq_streak = if qlow { (n.lowq_streak + 1).min(3) } else { 0 };
        let cap_ref = if n.qmax_valid { n.q_max } else { c.cap_lines };
        // Row 4: the consumer starves
        if n.lowq_streak as u32 >= c.qlow_streak && cmp != std::cmp::Ordering::Greater {
            return Some(Decision::Req { role: PRODUCER, dir: SPEED, ratio: c.up_step_q44, fallback: Some((CONSUMER, SLOW)) });
        }
        match cmp {
            std::cmp::Ordering::Greater => {
                // Row 1: wait for the first spill, then act; afterwards act near q_max
                let near_full = n.qmax_valid && n.q as u128 * c.qpre_den as u128 >= n.q_max as u128 * c.qpre_num as u128;
                if n.spilled > 0 || near_full {
                    let role = if self.mutation == Some(Mutation::WrongRole) { PRODUCER } else { CONSUMER };
                    // R_C = 0: the asymmetry is unbounded, the largest 4.4 magnitude
                    let ratio = if no_cons { 0xff } else { q44(big, small) };
                    Some(Decision::Req { role, dir: SPEED, ratio, fallback: Some((PRODUCER, SLOW)) })
                } else {
                    n.state = st::ACTIVE;
                    None
                }
            }
            // Row 2: rates match but light spilling
            std::cmp::Ordering::Equal if spills_y && !qlow => Some(Decision::Req { role: CONSUMER, dir: SPEED, ratio: c.min_step_q44, fallback: Some((PRODUCER, SLOW)) }),
            // Row 3: locked; with LOCK_PROBE_EVALS, the evaluation after that many quiet
            // ones in LOCKED probes upward instead (speed the producer by MIN_STEP, no
            // fallback: a NACK means the producer is at full rate already)
            std::cmp::Ordering::Equal if n.q >= cap_ref >> c.qlock_shift => {
                if c.lock_probe_evals > 0 && n.state == st::LOCKED {
                    if quiet + 1 > c.lock_probe_evals {
                        let fallback = (self.mutation == Some(Mutation::ProbeWithFallback)).then_some((CONSUMER, SLOW));
                        return Some(Decision::Req { role: PRODUCER, dir: SPEED, ratio: c.min_step_q44, fallback });
                    }
                    n.lock_quiet = quiet + 1;
                }
                n.state = st::LOCKED;
                None
            }
            _ => {
                n.state = st::ACTIVE;
                None
            }
        }
    }
}

impl Model for RateMonitor {
    type In = MonitorInputs;
    type Out = MonitorOutputs;

    fn idle_inputs(&self) -> MonitorInputs {
        let nb = self.cfg.nbanks as usize;
        MonitorInputs { ev_prod_dom: vec![0; nb], ev_cons_dom: vec![0; nb], ..MonitorInputs::default() }
    }

    fn new_outputs(&self) -> MonitorOutputs {
        MonitorOutputs::default()
    }

    fn eval(&mut self, inputs: &MonitorInputs, outputs: &mut MonitorOutputs) {
        *outputs = self.outputs();
        self.next = self.step(inputs);
    }

    fn commit(&mut self, _inputs: &MonitorInputs) {
        self.r = std::mem::take(&mut self.next);
    }

    fn assert_reset(inputs: &mut MonitorInputs) {
        inputs.rst = true;
    }
}
