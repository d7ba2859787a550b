//! Lockstep co-simulation of `qc_rate_monitor` on random legal event streams (bursty,
//! jittered, rate-changing kernels with responding core schedulers), the spec §5
//! scoreboard on the golden side; planted bugs caught by the comparison and by the
//! scoreboard, in the golden model and in a rust-hdl leaf of the RTL; a saturating
//! 8-bit, one-bank, damped build.

use crate::common;

use golden::qcache::config::QcacheConfig;
use golden::qcache::monitor::Mutation;
use golden::qcache::traffic::{EventTraffic, TrafficParams};
use golden::qcache::Qcache;
use hdl_gen::design::Design;
use hdl_gen::qcache::leaf::ratio_div::DivBug;
use verif::frame::Frame;
use verif::lockstep::{self, Bench, CosimError, Options};
use verif::qcache::monitor_bench;

fn monitor(preset: &str) -> (QcacheConfig, Design) {
    let (cfg, g) = common::preset::<Qcache>(preset);
    (cfg.config, common::design(&g, "monitor").clone())
}

fn random_run(c: &QcacheConfig, d: &Design, cycles: u64, seed: u64, min_kernels: u64) {
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    let make = || monitor_bench(c, &layout, EventTraffic::new(c, seed, TrafficParams::for_config(c))).unwrap();
    let r = lockstep::run(&mut rtl, make, &Options::new(cycles, seed)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, cycles);
    assert!(r.checked, "the scoreboard ran");
    // the streams went through kernels, requests and responses
    let mut b = make();
    let mut f = (Frame::zeroed(layout.in_words), Frame::zeroed(layout.out_words));
    for cyc in 0..cycles {
        b.cycle(cyc, &mut f.0, &mut f.1).unwrap();
    }
    assert!(b.stim.kernels >= min_kernels && b.stim.requests >= 5 && b.stim.acks >= 2, "kernels {}, requests {}, acks {}", b.stim.kernels, b.stim.requests, b.stim.acks);
    let s = &b.checker.as_ref().unwrap().seen;
    assert!(s.rows.iter().sum::<u64>() > 0 && s.locks > 0, "{s:?}");
    assert!(min_kernels == 1 || s.restores > 0, "kernel ends restore throttled domains: {s:?}");
}

#[test]
fn small_preset_200k_random_cycles_in_lockstep() {
    let (c, d) = monitor("qcache_small");
    random_run(&c, &d, 200_000, 21, 10);
}

#[test]
fn thesis_l2_preset_400k_random_cycles_in_lockstep() {
    let (c, d) = monitor("qcache_l2");
    // thesis-length kernels (1.5-6 windows of 131,072 cycles): one long kernel with its
    // evaluations, requests and responses
    random_run(&c, &d, 400_000, 22, 1);
}

/// CNT_W = 8 (counters saturate within a window), one bank, two domains, the damping
/// policy, RC_LAT at its minimum (the divider's 8 steps just fit).
#[test]
fn saturating_one_bank_damped_build_in_lockstep() {
    let text = "name = \"qc_sat\"\n[qcache]\nnbanks = 1\nndom = 2\ncnt_w = 8\ncap_lines = 200\neval_interval = 64\nmin_obs_cycles = 64\n\
                window_cycles = 1024\nmin_lines = 8\nqlow_lines = 4\ndetect_timeout = 2048\nack_timeout = 512\nrc_lat = 10\npolicy = \"damp_on_reversal\"\n";
    let (cfg, g) = common::from_text::<Qcache>(text);
    random_run(&cfg.config, common::design(&g, "monitor"), 150_000, 23, 10);
}

/// The thesis-cost build: the L2 preset with 64-bit counters (128-bit rate products,
/// the 41 B register set of spec §1.9).
#[test]
fn thesis_cost_64_bit_counters_in_lockstep() {
    let text = golden::presets::text("qcache_l2").replace("cnt_w = 32", "cnt_w = 64").replace("name = \"qcache_l2\"", "name = \"qc64\"");
    let (cfg, g) = common::from_text::<Qcache>(&text);
    assert_eq!(cfg.config.thesis_bits(), 41 * 8);
    random_run(&cfg.config, common::design(&g, "monitor"), 300_000, 24, 1);
}

/// Each planted golden-model bug is a named mismatch of the lockstep comparison
/// (scoreboard off), and an invariant violation of the scoreboard (on).
#[test]
fn planted_golden_bugs_are_caught_by_the_comparison_and_the_scoreboard() {
    let (c, d) = monitor("qcache_small");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    for m in [Mutation::QWraps, Mutation::WrongRole, Mutation::ZeroRatesEqual] {
        let make = || monitor_bench(&c, &layout, EventTraffic::new(&c, 3, TrafficParams::for_config(&c))).unwrap().with_mutation(m).without_checker();
        match lockstep::run(&mut rtl, make, &Options::new(200_000, 3).without_waveform()) {
            Err(CosimError::Mismatch(mm)) => {
                assert!(mm.cycle > 0 && !mm.diffs.is_empty(), "{m:?}: {mm}");
                let port = &mm.diffs[0].port;
                // the old comparison reads a window without CONSUME as "equal": it locks
                // (state_o) or asks for row 2 (req_) where the RTL does not
                let want: &[&str] = match m {
                    Mutation::QWraps => &["q_o"],
                    Mutation::WrongRole => &["req_"],
                    Mutation::ZeroRatesEqual => &["state_o", "req_"],
                    Mutation::ProbeWithFallback => unreachable!("a probe needs lock_probe_evals > 0 (its own test)"),
                };
                assert!(mm.diffs.iter().any(|x| want.iter().any(|w| x.port.starts_with(w))), "{m:?}: {port} ({mm})");
            }
            other => panic!("{m:?} was not caught: {other:?}"),
        }
        rtl.renew();
        let make = || monitor_bench(&c, &layout, EventTraffic::new(&c, 3, TrafficParams::for_config(&c))).unwrap().with_mutation(m);
        match lockstep::run(&mut rtl, make, &Options::new(200_000, 3)) {
            Err(CosimError::Invariant { message, .. }) => assert!(message.contains("invariant"), "{m:?}: {message}"),
            other => panic!("{m:?}: expected an invariant violation, got {other:?}"),
        }
        rtl.renew();
    }
}

/// `LOCK_PROBE_EVALS` = 2 on the small preset: lockstep with the probe's counter and
/// flag in the RTL, the scoreboard on (a probe only from LOCKED with row 3 holding, never
/// a fallback after it), and the random streams do reach it. The planted golden bug (the
/// probe with row 4's fallback) is a lockstep mismatch on the request channel and an
/// invariant violation of the scoreboard.
#[test]
fn lock_probe_build_in_lockstep_and_its_planted_bug() {
    let text = golden::presets::text("qcache_small").replace("lock_probe_evals = 0", "lock_probe_evals = 2").replace("name = \"qcache_small\"", "name = \"qc_probe\"");
    let (cfg, g) = common::from_text::<Qcache>(&text);
    let c = cfg.config;
    assert_eq!(c.lock_probe_evals, 2);
    let d = common::design(&g, "monitor");
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    let (cycles, seed) = (200_000, 25);
    let make = || monitor_bench(&c, &layout, EventTraffic::new(&c, seed, TrafficParams::for_config(&c))).unwrap();
    let r = lockstep::run(&mut rtl, make, &Options::new(cycles, seed)).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.checked);
    let mut b = make();
    let mut f = (Frame::zeroed(layout.in_words), Frame::zeroed(layout.out_words));
    for cyc in 0..cycles {
        b.cycle(cyc, &mut f.0, &mut f.1).unwrap();
    }
    let seen = &b.checker.as_ref().unwrap().seen;
    assert!(seen.probes > 0 && seen.locks > 0, "the streams reach the probe: {seen:?}");
    rtl.renew();
    let m = Mutation::ProbeWithFallback;
    let make = || monitor_bench(&c, &layout, EventTraffic::new(&c, seed, TrafficParams::for_config(&c))).unwrap().with_mutation(m).without_checker();
    match lockstep::run(&mut rtl, make, &Options::new(cycles, seed).without_waveform()) {
        Err(CosimError::Mismatch(mm)) => assert!(mm.diffs.iter().any(|x| x.port.starts_with("req_")), "{mm}"),
        other => panic!("{m:?} was not caught: {other:?}"),
    }
    rtl.renew();
    let make = || monitor_bench(&c, &layout, EventTraffic::new(&c, seed, TrafficParams::for_config(&c))).unwrap().with_mutation(m);
    match lockstep::run(&mut rtl, make, &Options::new(cycles, seed)) {
        Err(CosimError::Invariant { message, .. }) => assert!(message.contains("lock probe"), "{message}"),
        other => panic!("{m:?}: expected an invariant violation, got {other:?}"),
    }
}

/// A planted bug in a rust-hdl leaf of the RTL (`qc_ratio_div`: the magnitude's serial
/// division stops after 7 of its 8 steps, so a row 1 request carries half its ratio) is
/// a mismatch of the lockstep comparison against the unchanged golden model, on the
/// request magnitude.
#[test]
fn a_planted_leaf_bug_is_caught_by_lockstep() {
    let cfg = golden::presets::load::<Qcache>("qcache_small").unwrap_or_else(|e| panic!("{e}"));
    let g = hdl_gen::qcache::generate_with(&cfg, Some(DivBug::SevenSteps)).unwrap_or_else(|e| panic!("{e}"));
    let d = common::design(&g, "monitor");
    assert!(d.manifest.files.iter().any(|f| f.contains("planted_7_steps")), "{:?}", d.manifest.files);
    let c = cfg.config;
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    let make = || monitor_bench(&c, &layout, EventTraffic::new(&c, 21, TrafficParams::for_config(&c))).unwrap().without_checker();
    match lockstep::run(&mut rtl, make, &Options::new(200_000, 21).without_waveform()) {
        Err(CosimError::Mismatch(mm)) => {
            assert!(mm.cycle > 0, "{mm}");
            assert!(mm.diffs.iter().any(|x| x.port == "req_ratio_q44_o"), "{mm}");
        }
        other => panic!("the planted leaf bug was not caught: {other:?}"),
    }
}
