//! Q-cache sensitivity studies as tests (spec §6 A9, A10) and the policy scoreboard
//! over random parameters (proptest, 16 small configs).
//!
//! A9 (thesis §6.7.1): per-access jitter of up to 30 cycles moves the rate estimate by
//! at most 2.8% and leaves the scaling decisions unchanged. A10 (§6.7.2): a bursty GPU
//! producer (768 lines every 5,000 cycles) is estimated within 10-25% after 3-5 bursts.

use std::path::Path;

use golden::block::parse;
use golden::model::{Model, Scoreboard, Stimulus};
use golden::qcache::check::MonitorChecker;
use golden::qcache::monitor::{MonitorInputs, MonitorOutputs, RateMonitor, Req};
use golden::qcache::traffic::{EventTraffic, TrafficParams};
use golden::qcache::Qcache;
use proptest::prelude::*;

/// A small deterministic generator (the streams must not depend on the model's RNG).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Per-cycle PRODUCE/CONSUME/SPILL counts of a stream, turned into bank strobes.
fn inputs(m: &RateMonitor, p: u32, c: u32, s: u32) -> MonitorInputs {
    let mut i = m.idle_inputs();
    let ones = |n: u32| if n == 0 { 0 } else { (1u64 << n) - 1 };
    i.ev_prod = ones(p);
    i.ev_cons = ones(c);
    i.ev_spill = ones(s);
    i.ev_prod_dom.iter_mut().for_each(|d| *d = 4);
    i.req_ready = true;
    i
}

fn step(m: &mut RateMonitor, i: &MonitorInputs) -> MonitorOutputs {
    let mut o = m.new_outputs();
    m.eval(i, &mut o);
    m.commit(i);
    m.outputs()
}

/// A9: a 2:1 producer/consumer kernel on the thesis L2, with per-event delays of
/// 0..=`jitter` cycles. Returns the R_P/R_C estimates sampled every 4096 cycles once a
/// window has 8192 cycles of history, and the requests (role, dir, ratio, target).
fn a9_run(jitter: u64) -> (Vec<f64>, Vec<Req>) {
    let cfg = golden::presets::load::<Qcache>("qcache_l2").unwrap().config;
    let mut m = RateMonitor::new(&cfg);
    m.reset();
    let mut rng = Lcg(99);
    let mut i = inputs(&m, 0, 0, 0);
    i.kbegin = true;
    step(&mut m, &i);
    // events due per cycle: produce 1 every 2 cycles, consume 1 every 4, the queue over
    // 16384 lines spills
    let n = 300_000u64;
    let mut due = vec![[0u32; 3]; (n + 64) as usize];
    let mut queued: i64 = 0;
    for t in 0..n {
        let p = (t % 2 == 0) as u32;
        let c = (t % 4 == 0 && queued > 0) as u32;
        queued += p as i64 - c as i64;
        let s = (queued > 16384) as u32;
        queued -= s as i64;
        for (k, x) in [p, c, s].into_iter().enumerate() {
            if x > 0 {
                let d = if jitter > 0 { rng.below(jitter + 1) } else { 0 };
                due[(t + d) as usize][k] += x;
            }
        }
    }
    let (mut est, mut reqs) = (Vec::new(), Vec::new());
    for t in 0..n {
        let [p, c, s] = due[t as usize];
        let i = inputs(&m, p.min(16), c.min(16), s.min(16));
        let o = step(&mut m, &i);
        // req_ready is always high: each request is valid for exactly one cycle
        if o.req_valid {
            reqs.push(o.req);
        }
        if t % 4096 == 0 && o.cyc_p >= 8192 && o.cyc_c >= 8192 {
            est.push((o.produced as f64 / o.cyc_p as f64) / (o.consumed as f64 / o.cyc_c as f64));
        }
    }
    (est, reqs)
}

#[test]
fn a9_jitter_moves_the_estimate_by_at_most_2_8_percent_and_not_the_decisions() {
    let (base, base_reqs) = a9_run(0);
    let (jit, jit_reqs) = a9_run(30);
    assert_eq!(base.len(), jit.len());
    assert!(base.len() >= 20, "{} samples", base.len());
    // without jitter the estimate is the stream's 2:1 (to within the cycle counters' start)
    assert!(base.iter().all(|e| (e - 2.0).abs() < 0.01), "{base:?}");
    let dev: Vec<f64> = base.iter().zip(&jit).map(|(b, j)| (j - b).abs() / b).collect();
    let max = dev.iter().cloned().fold(0.0, f64::max);
    let mean = dev.iter().sum::<f64>() / dev.len() as f64;
    eprintln!("A9: rate-estimate deviation max {:.3}%, mean {:.3}% over {} samples (thesis: <= 2.8%, mean 0.21%)", max * 100.0, mean * 100.0, dev.len());
    assert!(max <= 0.028, "max deviation {max}");
    // the same requests in the same order (Row 1: speed the consumer, after the first
    // spill); the 4.4 magnitude of a ratio sitting on 2.0 may round to the LSB below
    // (1.9375 = 0x1f) with jitter or without: our quantisation, one LSB at most
    assert!(!base_reqs.is_empty());
    assert_eq!(base_reqs.len(), jit_reqs.len());
    for (b, j) in base_reqs.iter().zip(&jit_reqs) {
        assert_eq!((b.role, b.dir, b.target, b.restore), (j.role, j.dir, j.target, j.restore));
        assert!(b.ratio_q44.abs_diff(j.ratio_q44) <= 1, "{b:?} vs {j:?}");
        assert_eq!((b.role, b.dir, b.target), (true, true, 0b00001));
        assert!((0x1f..=0x20).contains(&b.ratio_q44), "2:1 measured as {:#x}", b.ratio_q44);
    }
}

/// A10: bursts of 768 lines (48 cycles on 16 banks) every 5,000 cycles. The cycle
/// counter starts at the first burst's first cycle, so sampled half-way between bursts
/// after n bursts the estimate is 768n / ((n-1)*5000 + 2500) against the sustained
/// 768/5000 lines per cycle: +20.0% (n = 3), +14.3% (4), +11.1% (5) -- the thesis's
/// "3-5 bursts, 10-25% error"; right after the n-th burst it is 768n/((n-1)*5000+48).
#[test]
fn a10_bursts_amortize_to_10_25_percent_after_3_to_5_bursts() {
    let cfg = golden::presets::load::<Qcache>("qcache_l2").unwrap().config;
    let mut m = RateMonitor::new(&cfg);
    m.reset();
    let mut i = inputs(&m, 0, 0, 0);
    i.kbegin = true;
    step(&mut m, &i);
    let i = inputs(&m, 1, 0, 0);
    step(&mut m, &i);
    let i = inputs(&m, 0, 1, 0);
    step(&mut m, &i); // DETECT -> ACTIVE: the window starts empty
    let sustained = 768.0 / 5000.0;
    let mut acc = 0.0;
    let mut errs = Vec::new();
    for t in 0..(6 * 5000u64) {
        let p = if t % 5000 < 48 { 16 } else { 0 };
        acc += sustained;
        let c = (acc >= 1.0) as u32;
        acc -= c as f64;
        let i = inputs(&m, p, c, 0);
        let o = step(&mut m, &i);
        let n = t / 5000 + 1;
        if t % 5000 == 2499 {
            assert_eq!((o.produced, o.cyc_p), (768 * n, (n - 1) * 5000 + 2500), "burst {n}");
            let err = (o.produced as f64 / o.cyc_p as f64) / sustained - 1.0;
            errs.push((n, err));
        }
        if t % 5000 == 47 && n >= 3 {
            let err = (o.produced as f64 / o.cyc_p as f64) / sustained - 1.0;
            let hand = 768.0 * n as f64 / ((n - 1) as f64 * 5000.0 + 48.0) / sustained - 1.0;
            assert!((err - hand).abs() < 1e-12, "burst {n}: {err} vs {hand}");
        }
    }
    eprintln!("A10: mid-period estimate error after n bursts: {:?}", errs.iter().map(|(n, e)| format!("{n}: {:.1}%", e * 100.0)).collect::<Vec<_>>());
    for (n, e) in &errs {
        if (3..=5).contains(n) {
            assert!((0.10..=0.25).contains(e), "after {n} bursts: {e}");
        }
    }
    assert!((errs[2].1 - 0.2).abs() < 1e-9 && (errs[4].1 - 1.0 / 9.0).abs() < 1e-9);
}

fn config_text() -> impl Strategy<Value = String> {
    (1u32..=8, 2u32..=8, prop_oneof![Just(8u32), Just(16), Just(32)], 32u64..=512, 4u32..=64, 1u32..=4, 10u32..=24, any::<bool>()).prop_map(
        |(nb, nd, w, cap, eval, mult, rc, damp)| {
            let cap = if w == 8 { cap.min(250) } else { cap };
            let window = eval * 8 * mult;
            format!(
                "name = \"prop\"\n[qcache]\nnbanks = {nb}\nndom = {nd}\ncnt_w = {w}\ncap_lines = {cap}\neval_interval = {eval}\n\
                 min_obs_cycles = {}\nwindow_cycles = {window}\nmin_lines = 8\nqlow_lines = {}\ndetect_timeout = {}\nack_timeout = {}\n\
                 rc_lat = {rc}\npolicy = \"{}\"\n",
                eval * 2,
                cap / 16,
                window * 2,
                window / 2,
                if damp { "damp_on_reversal" } else { "table_6_1" }
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, max_shrink_iters: 8, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every spec §5 invariant holds over 40,000 random cycles of any small config.
    #[test]
    fn the_scoreboard_holds_for_random_configs(text in config_text(), seed in any::<u64>()) {
        let c = parse::<Qcache>(Path::new("prop.toml"), &text).unwrap().config;
        let mut m = RateMonitor::new(&c);
        let mut stim = EventTraffic::new(&c, seed, TrafficParams::for_config(&c));
        let mut sb = MonitorChecker::new(&c);
        let (mut i, mut o, mut prev) = (m.idle_inputs(), m.new_outputs(), m.new_outputs());
        for cyc in 0..40_000u64 {
            stim.drive(&m, &prev, &mut i);
            if cyc == 0 {
                RateMonitor::assert_reset(&mut i);
            }
            m.eval(&i, &mut o);
            let r = sb.observe(cyc, &i, &o);
            prop_assert!(r.is_ok(), "{}\n{}", text, r.unwrap_err());
            m.commit(&i);
            std::mem::swap(&mut prev, &mut o);
        }
    }
}
