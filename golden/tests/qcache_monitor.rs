//! `qc_rate_monitor` golden model, directed (spec §1.4-§1.6): every state transition
//! and every row of Table 6.1 walked with hand-derived expectations, the storage count
//! of §1.9, the fixed-point ratio, saturation, and the scoreboard shown to catch
//! planted bugs on random streams.
//!
//! The directed config (`tiny`): 2 banks, 5 domains (0-3 CPU, 4 GPU), 16-bit counters,
//! a 64-line L2, evaluation every 4 cycles, MIN_OBS 4, window 64, MIN_LINES 4,
//! QLOW 2 lines over 2 evaluations, lock at q >= cap_ref/4, RC_LAT 10, DETECT timeout
//! 20, ACK timeout 30. Domain 4 (GPU) produces, domain 0 (CPU) consumes.

use std::path::Path;

use golden::block::parse;
use golden::model::{Model, Scoreboard, Stimulus};
use golden::qcache::check::MonitorChecker;
use golden::qcache::config::QcacheConfig;
use golden::qcache::monitor::{q44, st, MonitorInputs, MonitorOutputs, Mutation, RateMonitor, CONSUMER, PRODUCER, SLOW, SPEED};
use golden::qcache::traffic::{EventTraffic, TrafficParams};
use golden::qcache::Qcache;

const TINY: &str = "name = \"tiny\"\n[qcache]\nnbanks = 2\nndom = 5\ncnt_w = 16\ncap_lines = 64\neval_interval = 4\n\
min_obs_cycles = 4\nwindow_cycles = 64\nmin_lines = 4\nqlow_lines = 2\nqlow_streak = 2\nqlock_shift = 2\n\
rc_lat = 10\ndetect_timeout = 20\nack_timeout = 30\ngiveup_streak = 2\n";

fn cfg(text: &str) -> QcacheConfig {
    parse::<Qcache>(Path::new("t.toml"), text).unwrap().config
}

fn tiny() -> QcacheConfig {
    cfg(TINY)
}

/// Drives the model cycle by cycle; `out` is what the registered outputs show after
/// the last edge.
struct Drv {
    m: RateMonitor,
    cycle: u64,
}

/// One cycle's inputs: `p` produce strobes (domain 4), `c` consume strobes (domain 0),
/// `s` spill strobes, request always accepted.
#[derive(Clone, Copy, Default)]
struct Ev {
    p: u32,
    c: u32,
    s: u32,
}

fn ev(p: u32, c: u32, s: u32) -> Ev {
    Ev { p, c, s }
}

impl Drv {
    fn new(c: &QcacheConfig) -> Drv {
        let mut m = RateMonitor::new(c);
        m.reset();
        Drv { m, cycle: 0 }
    }

    fn inputs(&self, e: Ev) -> MonitorInputs {
        let mut i = self.m.idle_inputs();
        i.ev_prod = (1u64 << e.p) - 1;
        i.ev_cons = (1u64 << e.c) - 1;
        i.ev_spill = (1u64 << e.s) - 1;
        i.ev_prod_dom.iter_mut().for_each(|d| *d = 4);
        i.req_ready = true;
        i
    }

    fn step_with(&mut self, i: &MonitorInputs) -> MonitorOutputs {
        let mut o = self.m.new_outputs();
        self.m.eval(i, &mut o);
        self.m.commit(i);
        self.cycle += 1;
        self.m.outputs()
    }

    fn step(&mut self, e: Ev) -> MonitorOutputs {
        let i = self.inputs(e);
        self.step_with(&i)
    }

    fn steps(&mut self, n: usize, e: Ev) -> MonitorOutputs {
        let mut o = self.m.outputs();
        for _ in 0..n {
            o = self.step(e);
        }
        o
    }

    fn kbegin(&mut self) -> MonitorOutputs {
        let mut i = self.inputs(ev(0, 0, 0));
        i.kbegin = true;
        self.step_with(&i)
    }

    fn kend(&mut self) -> MonitorOutputs {
        let mut i = self.inputs(ev(0, 0, 0));
        i.kend = true;
        self.step_with(&i)
    }

    fn rsp(&mut self, ack: bool) -> MonitorOutputs {
        let mut i = self.inputs(ev(0, 0, 0));
        i.rsp_valid = true;
        i.rsp_ack = ack;
        self.step_with(&i)
    }

    /// kbegin, `preload` (even) lines produced two a cycle, one more produced line,
    /// then one consumed line: DETECT -> ACTIVE with q = preload.
    fn enter_active(&mut self, preload: u32) -> MonitorOutputs {
        self.kbegin();
        for _ in 0..preload / 2 {
            self.step(ev(2, 0, 0));
        }
        let o = self.step(ev(1, 0, 0));
        assert_eq!(o.state, st::DETECT);
        let o = self.step(ev(0, 1, 0));
        assert_eq!(o.state, st::ACTIVE, "production and consumption seen: ACTIVE");
        assert_eq!((o.produced, o.consumed, o.cyc_p, o.cyc_c), (0, 0, 0, 0), "DETECT -> ACTIVE resets the window");
        assert_eq!(o.q, preload as u64, "q keeps the footprint: {preload} + 1 - 1");
        assert_eq!((o.prod_mask, o.cons_mask), (0b10000, 0b00001));
        o
    }
}

#[test]
fn thesis_register_set_is_41_bytes_at_64_bit_counters() {
    // spec §1.3 [D]: five 64-bit registers + 5-bit active-core vector + 3-bit state
    let c = cfg(&TINY.replace("cnt_w = 16", "cnt_w = 64"));
    assert_eq!(c.thesis_bits(), 5 * 64 + 5 + 3);
    assert_eq!(c.thesis_bits(), 41 * 8);
    // the shipped thesis L2 preset at 32-bit counters: 5*32 + 5 + 3 = 168 bits = 21 B
    let l2 = golden::presets::load::<Qcache>("qcache_l2").unwrap().config;
    assert_eq!(l2.thesis_bits(), 168);
    // our full register file is larger (spill counter, q_max, timers, the request path)
    assert!(l2.storage_bits() > l2.thesis_bits());
}

#[test]
fn ratio_is_unsigned_4_4_faster_over_slower() {
    // hand: floor(16 * max / min), saturating at 0xff
    assert_eq!(q44(3, 1), 0x30);
    assert_eq!(q44(5, 4), 20);
    assert_eq!(q44(17, 16), 17);
    assert_eq!(q44(7, 0), 112, "min 0 divides by 1");
    assert_eq!(q44(16 * 1000, 1000), 0xff, "16.0 saturates");
    assert_eq!(q44(159, 10), 254);
    assert_eq!(q44(u128::MAX, u128::MAX - 1), 0x10, "128-bit products do not overflow");
    assert_eq!(q44(3 << 120, 2 << 120), 0x18, "1.5 at 122-bit products");
    assert_eq!(q44(u128::MAX / 2, u128::MAX / 3), 23, "just under 1.5: 0x17");
}

#[test]
fn detect_to_active_and_detect_timeout_to_off() {
    let mut d = Drv::new(&tiny());
    assert_eq!(d.m.outputs().state, st::DISABLED);
    // DISABLED counts nothing
    let o = d.steps(3, ev(2, 1, 1));
    assert_eq!((o.state, o.produced, o.q), (st::DISABLED, 0, 0));
    d.enter_active(0);
    // a kernel with no consumer: the kbegin cycle is DETECT cycle 1; cycle 20 -> OFF
    let mut d = Drv::new(&tiny());
    assert_eq!(d.kbegin().state, st::DETECT);
    let o = d.steps(18, ev(1, 0, 0));
    assert_eq!(o.state, st::DETECT, "19 DETECT cycles");
    assert_eq!(o.produced, 18);
    let o = d.step(ev(1, 0, 0));
    assert_eq!(o.state, st::OFF, "det_t reaches 20");
    // OFF is silent and counts nothing until the kernel ends
    let o2 = d.steps(5, ev(2, 2, 2));
    assert_eq!(o2, MonitorOutputs { req_valid: false, ..o.clone() });
    assert_eq!(d.kend().state, st::DISABLED);
}

/// Row 1 (R_P > R_C): silent until the first spill (warm-up), then a spill-triggered
/// request to speed the consumer by the measured ratio; NACK -> fallback (slow
/// producer); ACK -> throttled, ACTIVE with the window reset; kend -> RESTORE.
#[test]
fn row1_waits_for_the_first_spill_then_speeds_the_consumer() {
    let mut d = Drv::new(&tiny());
    d.enter_active(0);
    // 2 produced, 1 consumed per cycle: after k cycles lhs = 2k*k, rhs = k*k: GT, ratio 2.0
    let o = d.steps(12, ev(2, 1, 0));
    assert_eq!((o.state, o.produced, o.consumed, o.cyc_p, o.cyc_c, o.q), (st::ACTIVE, 24, 12, 12, 12, 12));
    assert!(!o.req_valid && !o.qmax_valid, "three evaluations saw GT without a spill: no request");
    // cycle 13: 2 produced, 1 consumed, 1 spill -> onset: q_max = 12, evaluation now
    let o = d.step(ev(2, 1, 1));
    assert_eq!((o.q_max, o.qmax_valid, o.q), (12, true, 12));
    // the request is valid RC_LAT = 10 cycles after the evaluation cycle e: the outputs
    // after the step of cycle e + k are those of cycle e + k + 1
    for k in 1..9 {
        let o = d.step(ev(2, 1, 0));
        assert!(!o.req_valid && o.state == st::ACTIVE, "cycle {k} after the evaluation");
    }
    let o = d.step(ev(2, 1, 0));
    assert!(o.req_valid);
    assert_eq!(o.state, st::PENDING);
    assert_eq!((o.req.target, o.req.role, o.req.dir, o.req.ratio_q44, o.req.restore), (0b00001, CONSUMER, SPEED, 0x20, false));
    // accepted at that edge; NACK: the fallback goes out next (slow the producer by 2.0)
    let o = d.step(ev(0, 0, 0));
    assert!(!o.req_valid && o.state == st::PENDING);
    let o = d.rsp(false);
    assert!(o.req_valid && o.state == st::PENDING);
    assert_eq!((o.req.target, o.req.role, o.req.dir, o.req.ratio_q44), (0b10000, PRODUCER, SLOW, 0x20));
    let _ = d.step(ev(1, 1, 0));
    // ACK: the producer domain is throttled, the window restarts, q and q_max stay
    let q_before = d.m.outputs().q;
    let o = d.rsp(true);
    assert_eq!((o.state, o.throttled, o.produced, o.consumed, o.spilled, o.cyc_p), (st::ACTIVE, 0b10000, 0, 0, 0, 0));
    assert_eq!((o.q, o.q_max), (q_before, 12));
    // kernel end: RESTORE to the throttled domains, DISABLED, everything cleared
    let o = d.kend();
    assert_eq!(o.state, st::DISABLED);
    assert!(o.req_valid && o.req.restore && o.req.target == 0b10000);
    assert_eq!((o.throttled, o.q, o.q_max, o.qmax_valid), (0, 0, 0, false));
    let o = d.step(ev(0, 0, 0));
    assert!(!o.req_valid, "RESTORE accepted");
}

/// Row 3 (R_P = R_C, Q large, no spills): LOCKED and silent; leaving the match
/// without a request goes back to ACTIVE.
#[test]
fn row3_locks_when_rates_match_with_a_large_queue() {
    let mut d = Drv::new(&tiny());
    // 20 lines queued before the consumer starts: q = 20 >= cap/4 = 16
    d.enter_active(20);
    let o = d.steps(4, ev(1, 1, 0));
    assert_eq!((o.state, o.q), (st::LOCKED, 20), "first evaluation (eval_t = 4): EQ, q >= 16");
    let o = d.steps(40, ev(1, 1, 0));
    assert_eq!(o.state, st::LOCKED);
    assert!(!o.req_valid);
    // the producer stops (cycles 45..56): cycle 48 produced 44, consumed 48, cyc 48/48:
    // 44*48 vs 48*48 differ by 192 <= tol 288: still EQ with q = 16: LOCKED; cycle 52:
    // 44*52 vs 52*52 differ by 416 > tol 338: LT with q = 12 not low: ACTIVE, silent
    let o = d.steps(7, ev(0, 1, 0));
    assert_eq!((o.state, o.q), (st::LOCKED, 13));
    let o = d.steps(5, ev(0, 1, 0));
    assert_eq!((o.state, o.q), (st::ACTIVE, 8), "LT and q not low: nothing to do");
    assert!(!o.req_valid);
}

/// Row 2 (R_P = R_C, Q > 0, light spilling): speed the consumer by MIN_STEP.
#[test]
fn row2_light_spilling_at_matched_rates_speeds_the_consumer_by_min_step() {
    let mut d = Drv::new(&tiny());
    d.enter_active(20);
    d.steps(5, ev(1, 1, 0));
    // spill onset: q_max = 20, an evaluation now: produced 6, consumed 6, cyc 6/6: EQ;
    // spilled 1 > 6 >> 5 = 0: spills Y; q = 19 > 2
    let o = d.step(ev(1, 1, 1));
    assert_eq!((o.q, o.q_max, o.spilled), (19, 20, 1));
    let o = d.steps(8, ev(1, 1, 0));
    assert!(!o.req_valid && o.state == st::LOCKED, "the cycle-4 evaluation locked; the request waits");
    let o = d.step(ev(1, 1, 0));
    assert!(o.req_valid && o.state == st::PENDING);
    assert_eq!((o.req.role, o.req.dir, o.req.ratio_q44, o.req.target), (CONSUMER, SPEED, 0x12, 0b00001));
}

/// Row 4 (R_P <= R_C, Q -> 0 over QLOW_STREAK evaluations): speed the producer by
/// UP_STEP, fallback slow the consumer; the ACK timeout returns to ACTIVE unthrottled.
#[test]
fn row4_starving_consumer_speeds_the_producer_and_ack_timeout_returns() {
    let mut d = Drv::new(&tiny());
    d.enter_active(0);
    // q stays 0: first evaluation (cycle 4) streak 1, second (cycle 8) streak 2 -> request
    let o = d.steps(8, ev(1, 1, 0));
    assert!(!o.req_valid && o.state == st::ACTIVE);
    let o = d.steps(8, ev(1, 1, 0));
    assert!(!o.req_valid, "8 cycles after the evaluation");
    let o = d.step(ev(1, 1, 0));
    assert!(o.req_valid && o.state == st::PENDING);
    assert_eq!((o.req.role, o.req.dir, o.req.ratio_q44, o.req.target), (PRODUCER, SPEED, 0x14, 0b10000));
    // accepted in the next cycle; no answer: ACK_TIMEOUT = 30 cycles after that
    // handshake cycle -> ACTIVE, nothing throttled
    let o = d.steps(30, ev(1, 1, 0));
    assert_eq!(o.state, st::PENDING);
    let o = d.step(ev(1, 1, 0));
    assert_eq!((o.state, o.throttled), (st::ACTIVE, 0));
}

/// A window with production and spills but no CONSUME: R_C = 0, so R_P > R_C (row 1)
/// with the largest magnitude, not the 0-against-0 "equal" of the bare products
/// (`produced*cyc_c` = `consumed*cyc_p` = 0 while `cyc_c` has not started), which asked
/// for row 2's 1.125 step. And a window with consumption but no PRODUCE is R_P < R_C
/// (the queue drains): nothing to do, not row 2. Planted: the old comparison.
#[test]
fn a_window_without_consumption_is_row1_at_the_largest_magnitude() {
    // hand, tiny config: after enter_active(0) the window is empty and q = 0.
    // Cycles 1-4: 2 produced each. Evaluation at cycle 4 (eval_t = 4, win_t = 4 >= MIN_OBS
    // 4, produced 8 >= MIN_LINES 4): consumed + spilled = 0 < 4, no give-up streak;
    // R_C = 0 < R_P: GT, but no spill yet and no q_max: warm-up, no request.
    // Cycle 5: 2 produced, 1 spill: onset (q_max = q = 8), forced evaluation: win_t 5,
    // produced 10, consumed 0, spilled 1 (1 + 0 < 4: no give-up streak), q = 9.
    // GT with a spill: row 1, speed the consumer (mask 0b00001) by 0xff (R_P / 0),
    // fallback slow the producer (0b10000) by 0xff. Emitted RC_LAT = 10 cycles later.
    let run = |mutation: Option<Mutation>| {
        let mut d = Drv::new(&tiny());
        d.m.mutation = mutation;
        d.enter_active(0);
        let o = d.steps(4, ev(2, 0, 0));
        assert_eq!((o.state, o.produced, o.consumed, o.cyc_p, o.cyc_c, o.q), (st::ACTIVE, 8, 0, 4, 0, 8));
        assert!(!o.req_valid && !o.qmax_valid);
        let o = d.step(ev(2, 0, 1));
        assert_eq!((o.produced, o.consumed, o.spilled, o.q, o.q_max, o.qmax_valid), (10, 0, 1, 9, 8, true));
        let o = d.steps(8, ev(2, 0, 0));
        assert!(!o.req_valid && o.state == st::ACTIVE);
        let o = d.step(ev(2, 0, 0));
        assert!(o.req_valid && o.state == st::PENDING, "{o:?}");
        (d, o.req)
    };
    let (mut d, req) = run(None);
    assert_eq!((req.target, req.role, req.dir, req.ratio_q44, req.restore), (0b00001, CONSUMER, SPEED, 0xff, false));
    d.step(ev(0, 0, 0));
    let o = d.rsp(false);
    assert!(o.req_valid);
    assert_eq!((o.req.target, o.req.role, o.req.dir, o.req.ratio_q44), (0b10000, PRODUCER, SLOW, 0xff), "the fallback slows the producer 15.94x");
    // the old comparison: 10*0 against 0*5 is EQ; spilled 1 > 10 >> 5 = 0 and q 9 > 2:
    // row 2, MIN_STEP 0x12
    let (_, req) = run(Some(Mutation::ZeroRatesEqual));
    assert_eq!((req.role, req.dir, req.ratio_q44), (CONSUMER, SPEED, 0x12));

    // No production: enter_active(30) (q = 30). Cycle 1: 1 consumed, 1 spill: onset
    // (q_max 30), forced evaluation at win_t 1 < MIN_OBS: nothing, eval_t restarts.
    // Cycles 2-5: 1 consumed each; evaluation at cycle 5: produced 0, consumed 5,
    // spilled 1 (1 < 5: no give-up streak), q = 24 > QLOW 2: R_P = 0 < R_C: LT with the
    // queue not low: no request, ACTIVE. The old comparison saw EQ with spilled 1 >
    // 0 >> 5: row 2 (speed the consumer), emitted at cycle 15.
    let drain = |mutation: Option<Mutation>| {
        let mut d = Drv::new(&tiny());
        d.m.mutation = mutation;
        d.enter_active(30);
        d.step(ev(0, 1, 1));
        let o = d.steps(4, ev(0, 1, 0));
        assert_eq!((o.produced, o.consumed, o.spilled, o.q, o.cyc_p), (0, 5, 1, 24, 0));
        // the outputs after the step of cycle 14 are those of cycle 15
        let o = d.steps(9, ev(0, 1, 0));
        (o.state, o.req_valid)
    };
    assert_eq!(drain(None), (st::ACTIVE, false), "a draining queue asks for nothing");
    assert_eq!(drain(Some(Mutation::ZeroRatesEqual)), (st::PENDING, true));
}

/// The scoreboard's Table 6.1 (written apart from the model) rejects the old
/// comparison's row-2 request for a window without consumption.
#[test]
fn scoreboard_rejects_min_step_for_a_window_without_consumption() {
    let c = tiny();
    let run = |mutation: Option<Mutation>| {
        let mut d = Drv::new(&c);
        d.m.mutation = mutation;
        let mut sb = MonitorChecker::new(&c);
        // reset, kbegin, 8 lines produced in DETECT, one consumed (-> ACTIVE), then the
        // first test's window: 4 cycles of 2 produced, 2 produced + 1 spill, 12 more
        let mut script = vec![(ev(0, 0, 0), false), (ev(0, 0, 0), true)];
        script.extend((0..4).map(|_| (ev(2, 0, 0), false)));
        script.push((ev(0, 1, 0), false));
        script.extend((0..4).map(|_| (ev(2, 0, 0), false)));
        script.push((ev(2, 0, 1), false));
        script.extend((0..12).map(|_| (ev(2, 0, 0), false)));
        let mut o = d.m.new_outputs();
        for (cyc, (e, kbegin)) in script.into_iter().enumerate() {
            let mut i = d.inputs(e);
            i.kbegin = kbegin;
            i.rst = cyc == 0;
            i.req_ready = true;
            d.m.eval(&i, &mut o);
            sb.observe(cyc as u64, &i, &o)?;
            d.m.commit(&i);
        }
        Ok::<_, golden::invariant::Violation>(sb.seen)
    };
    let seen = run(None).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(seen.rows, [1, 0, 0], "one row-1 request");
    let e = run(Some(Mutation::ZeroRatesEqual)).unwrap_err();
    assert_eq!(e.invariant, "5 policy soundness", "{e}");
}

/// Fail-safe: spilled >= consumed (with consumed + spilled >= MIN_LINES) at two
/// evaluations in a row -> give up: RESTORE the throttled domains, OFF.
#[test]
fn giveup_restores_and_goes_off() {
    let mut d = Drv::new(&tiny());
    d.enter_active(30);
    // Row 2 first (as in the row 2 test), ACKed: the consumer domain is throttled
    d.steps(5, ev(1, 1, 0));
    d.step(ev(1, 1, 1));
    let o = d.steps(9, ev(1, 1, 0));
    assert!(o.req_valid && o.req.role == CONSUMER);
    let o = d.step(ev(0, 0, 0));
    assert!(!o.req_valid && o.state == st::PENDING, "accepted");
    let o = d.rsp(true);
    assert_eq!((o.state, o.throttled, o.q), (st::ACTIVE, 0b00001, 29));
    // then odd cycles (1 produced, 1 consumed, 1 spilled), even cycles (1 consumed, 1
    // spilled). Cycle 1: spill onset, evaluation, win_t 1 < MIN_OBS: nothing (eval_t
    // restarts). Cycle 5: produced 3, consumed 5, spilled 5, cyc 5/5: 15 vs 25 (tol 3):
    // LT with q = 22: no request; spilled >= consumed: give-up streak 1. Cycle 9: streak 2
    // -> give-up, emitted with the state change in cycle 19 (after the 18th step).
    let pair = |d: &mut Drv| {
        d.step(ev(1, 1, 1));
        d.step(ev(0, 1, 1))
    };
    let mut o = d.m.outputs();
    for _ in 0..8 {
        o = pair(&mut d);
    }
    assert_eq!((o.state, o.spilled, o.consumed, o.produced, o.q), (st::ACTIVE, 16, 16, 8, 5));
    let o = d.step(ev(1, 1, 1));
    assert_eq!(o.state, st::ACTIVE, "after 17 steps");
    let o = d.step(ev(0, 1, 1));
    assert_eq!(o.state, st::OFF);
    assert!(o.req_valid && o.req.restore && o.req.target == 0b00001);
    assert_eq!(o.throttled, 0);
    let o = d.steps(3, ev(1, 1, 1));
    assert!(!o.req_valid && o.state == st::OFF);
}

/// A kernel end while a decision waits its RC_LAT cycles throws it away.
#[test]
fn kend_during_the_request_delay_drops_the_decision() {
    let mut d = Drv::new(&tiny());
    d.enter_active(0);
    d.steps(8, ev(1, 1, 0)); // Row 4 decided in cycle 8
    d.steps(3, ev(1, 1, 0));
    let o = d.kend();
    assert!(!o.req_valid && o.state == st::DISABLED);
    let o = d.steps(20, ev(0, 0, 0));
    assert!(!o.req_valid, "nothing emitted after kernel end");
}

#[test]
fn counters_saturate_instead_of_wrapping() {
    let mut d = Drv::new(&cfg(&TINY.replace("cnt_w = 16", "cnt_w = 8")));
    d.kbegin();
    // DETECT with production only: 2 lines per cycle, 200 cycles (DETECT timeout 20 is
    // reached first) -- use a consumer once to reach ACTIVE and stay below the window
    let o = d.steps(10, ev(2, 0, 0));
    assert_eq!((o.produced, o.q, o.cyc_p), (20, 20, 10));
    let mut d = Drv::new(&cfg(&TINY
        .replace("cnt_w = 16", "cnt_w = 8")
        .replace("window_cycles = 64", "window_cycles = 1000")
        .replace("eval_interval = 4", "eval_interval = 1000")
        .replace("min_obs_cycles = 4", "min_obs_cycles = 1000")));
    d.enter_active(0);
    let o = d.steps(200, ev(2, 0, 0));
    assert_eq!((o.produced, o.q, o.cyc_p, o.cyc_c), (255, 255, 200, 0), "8-bit counters stop at 255");
    let o = d.steps(100, ev(0, 2, 0));
    assert_eq!((o.consumed, o.q, o.cyc_p), (200, 55, 255));
    let o = d.steps(100, ev(0, 2, 0));
    assert_eq!(o.q, 0, "q saturates at 0");
}

/// The policy's invariants hold on long random streams, and the scoreboard reports
/// planted bugs (Q wrapping below zero; Row 1 addressed to the producer; a window
/// without consumption read as "rates equal").
#[test]
fn scoreboard_holds_on_random_streams_and_catches_planted_bugs() {
    let small = golden::presets::load::<Qcache>("qcache_small").unwrap().config;
    let run = |mutation: Option<Mutation>, seed: u64, cycles: u64| {
        let mut m = RateMonitor::new(&small);
        m.mutation = mutation;
        let mut stim = EventTraffic::new(&small, seed, TrafficParams::for_config(&small));
        let mut sb = MonitorChecker::new(&small);
        let (mut i, mut o, mut prev) = (m.idle_inputs(), m.new_outputs(), m.new_outputs());
        for cyc in 0..cycles {
            stim.drive(&m, &prev, &mut i);
            if cyc == 0 {
                RateMonitor::assert_reset(&mut i);
            }
            m.eval(&i, &mut o);
            sb.observe(cyc, &i, &o)?;
            m.commit(&i);
            std::mem::swap(&mut prev, &mut o);
        }
        Ok::<_, golden::invariant::Violation>(sb.seen)
    };
    let seen = run(None, 7, 300_000).unwrap_or_else(|v| panic!("{v}"));
    assert!(seen.rows.iter().all(|&n| n > 0), "every requesting row of Table 6.1 seen: {seen:?}");
    assert!(seen.fallbacks > 0 && seen.restores > 0 && seen.locks > 0 && seen.giveups > 0, "{seen:?}");
    let e = run(Some(Mutation::QWraps), 7, 300_000).unwrap_err();
    assert_eq!(e.invariant, "2 footprint identity", "{e}");
    let e = run(Some(Mutation::WrongRole), 7, 300_000).unwrap_err();
    assert!(e.invariant.starts_with('5') || e.invariant.starts_with('9'), "{e}");
    // the old 0-against-0 comparison: a lock (or a row-2 request) on a window without CONSUME
    let e = run(Some(Mutation::ZeroRatesEqual), 3, 300_000).unwrap_err();
    assert_eq!(e.invariant, "5 policy soundness", "{e}");
}

/// `LOCK_PROBE_EVALS` (spec §1.6 known limitations: "send a speed-producer MIN_STEP
/// after N quiet LOCKED evaluations"), N = 2 on the tiny config, walked by hand: the
/// queue of 20 lines with matched rates locks at the first evaluation (active + 4,
/// entering from ACTIVE: not counted), the evaluations at +8 and +12 are the two quiet
/// LOCKED ones, and the one at +16 probes; the request is on the port RC_LAT - 1 = 9
/// steps later (as row 2's above), to the producer mask, MIN_STEP 0x12. A NACK has no
/// fallback (ACTIVE, nothing sent); an ACK throttles the producer and restarts the
/// window, and the count starts over (after a NACK too). With N = 0 (the spec's default) the same stream
/// stays LOCKED and silent. Planted: the probe carrying row 4's fallback, caught by the
/// scoreboard at the NACK.
#[test]
fn lock_probe_speeds_the_producer_after_n_quiet_locked_evaluations() {
    let probe = cfg(&format!("{TINY}lock_probe_evals = 2\n"));
    assert_eq!(probe.lock_probe_evals, 2);
    let run = |c: &QcacheConfig, mutation: Option<Mutation>, ack: bool| {
        let mut d = Drv::new(c);
        d.m.mutation = mutation;
        let mut sb = MonitorChecker::new(c);
        let mut outs = Vec::new();
        // the scoreboard sees each cycle's inputs with that cycle's (registered) outputs
        let feed = |d: &mut Drv, i: MonitorInputs, sb: &mut MonitorChecker| {
            sb.observe(d.cycle, &i, &d.m.outputs())?;
            Ok(d.step_with(&i))
        };
        // enter ACTIVE with q = 20 (as in enter_active, under the scoreboard)
        let mut i = d.inputs(ev(0, 0, 0));
        i.kbegin = true;
        feed(&mut d, i, &mut sb)?;
        for _ in 0..10 {
            {
                let i = d.inputs(ev(2, 0, 0));
                feed(&mut d, i, &mut sb)
            }?;
        }
        {
            let i = d.inputs(ev(1, 0, 0));
            feed(&mut d, i, &mut sb)
        }?;
        let o = {
            let i = d.inputs(ev(0, 1, 0));
            feed(&mut d, i, &mut sb)
        }?;
        assert_eq!((o.state, o.q), (st::ACTIVE, 20));
        for _ in 0..40 {
            outs.push({
                let i = d.inputs(ev(1, 1, 0));
                feed(&mut d, i, &mut sb)
            }?);
        }
        let mut i = d.inputs(ev(1, 1, 0));
        i.rsp_valid = true;
        i.rsp_ack = ack;
        outs.push(feed(&mut d, i, &mut sb)?);
        for _ in 0..40 {
            outs.push({
                let i = d.inputs(ev(1, 1, 0));
                feed(&mut d, i, &mut sb)
            }?);
        }
        Ok::<_, golden::invariant::Violation>((outs, sb.seen))
    };
    // N = 0: LOCKED from step 4 on, never a request
    let (outs, _) = run(&tiny(), None, true).unwrap();
    assert!(outs[3..].iter().all(|o| o.state == st::LOCKED && !o.req_valid));
    // N = 2, NACK
    let (outs, seen) = run(&probe, None, false).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(outs[3].state, st::LOCKED, "step 4: the first evaluation locks");
    assert!(outs[3..24].iter().all(|o| o.state == st::LOCKED && !o.req_valid), "quiet evaluations at 8, 12; the probe at 16 waits RC_LAT");
    let o = &outs[24];
    assert!(o.req_valid && o.state == st::PENDING, "step 25 = 16 + 9: {o:?}");
    assert_eq!((o.req.role, o.req.dir, o.req.ratio_q44, o.req.target), (PRODUCER, SPEED, 0x12, 0b10000));
    assert!(outs[25..40].iter().all(|o| o.state == st::PENDING && !o.req_valid), "accepted at once, waiting for the answer");
    assert_eq!((outs[40].state, outs[40].req_valid, outs[40].throttled), (st::ACTIVE, false, 0), "NACK: no fallback");
    // eval_t: the instants at 20 and 24 fell while the probe waited (consumed, eval_t 0),
    // step 25 (still LOCKED when the request leaves) counts 1, PENDING counts none, and
    // from the NACK (step 41) on 42, 43, 44: 44 locks, 48 and 52 are quiet, 56 probes
    // again (a NACKed probe is not remembered: the producer may have been slowed since)
    assert!(outs[41..64].iter().all(|o| !o.req_valid) && outs[43].state == st::LOCKED && outs[42].state == st::ACTIVE);
    assert!(outs[64].req_valid && (outs[64].req.role, outs[64].req.dir) == (PRODUCER, SPEED), "step 65 = 56 + 9");
    assert_eq!(seen.probes, 2);
    // N = 2, ACK: the producer throttled, the window restarted, locked again and a
    // second probe after two more quiet evaluations
    let (outs, seen) = run(&probe, None, true).unwrap_or_else(|v| panic!("{v}"));
    let o = &outs[40];
    assert_eq!((o.state, o.throttled, o.produced, o.consumed), (st::ACTIVE, 0b10000, 0, 0));
    // after the ACK (step 41): evaluations at 45 (locks), 49, 53 (quiet), 57 (probe) -> request at 66
    assert!(outs[44..65].iter().all(|o| o.state == st::LOCKED && !o.req_valid));
    assert!(outs[65].req_valid && outs[65].req.role == PRODUCER && outs[65].req.dir == SPEED);
    assert_eq!(seen.probes, 2);
    // planted: the probe with a fallback
    let e = run(&probe, Some(Mutation::ProbeWithFallback), false).unwrap_err();
    assert_eq!(e.invariant, "5 policy soundness", "{e}");
    assert!(e.detail.contains("lock probe"), "{e}");
}
