//! Lockstep co-simulation of `tfb_bdib` in each variant (P, G, F) under random legal
//! issue/progress traffic with the §5.4 / §2.12 scoreboard on the golden side; planted
//! bugs caught per variant; the Maxwell sub-core preset.

use crate::common;

use golden::tfb_bdib::bdib::BdibMutation;
use golden::tfb_bdib::traffic::{BdibTraffic, TrafficParams};
use golden::tfb_bdib::{TfbBdib, TfbConfig};
use hdl_gen::design::Design;
use verif::lockstep::{self, CosimError, Options};
use verif::tfb_bdib::bdib_bench;

/// `tfb_small` in variant `mode` ("p", "g", "f"): its config and design.
fn small(mode: &str) -> (TfbConfig, Design) {
    let text = golden::presets::text("tfb_small").replace("mode = \"f\"", &format!("mode = \"{mode}\""));
    let (cfg, g) = common::from_text::<TfbBdib>(&text);
    (cfg.config, common::design(&g, "bdib").clone())
}

fn random_run(c: &TfbConfig, d: &Design, cycles: u64, seed: u64) {
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    let make = || bdib_bench(c, &layout, BdibTraffic::new(c, TrafficParams::for_config(c), seed)).unwrap();
    let r = lockstep::run(&mut rtl, make, &Options::new(cycles, seed)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, cycles);
    assert!(r.checked, "the scoreboard ran");
}

#[test]
fn p_tfb_100k_random_cycles_in_lockstep() {
    let (c, d) = small("p");
    random_run(&c, &d, 100_000, 21);
}

#[test]
fn g_tfb_100k_random_cycles_in_lockstep() {
    let (c, d) = small("g");
    random_run(&c, &d, 100_000, 22);
}

#[test]
fn f_tfb_100k_random_cycles_in_lockstep() {
    let (c, d) = small("f");
    random_run(&c, &d, 100_000, 23);
}

#[test]
fn maxwell_subcore_100k_random_cycles_in_lockstep() {
    let (cfg, g) = common::preset::<TfbBdib>("tfb_maxwell_subcore");
    random_run(&cfg.config, common::design(&g, "bdib"), 100_000, 24);
}

/// A planted golden-model bug per variant makes the RTL comparison fail with the
/// cycle and port named (scoreboard off), and the scoreboard alone flags it too.
#[test]
fn a_planted_bug_per_variant_is_caught_by_lockstep_and_by_the_scoreboard() {
    let cases = [
        ("p", BdibMutation::PassBarrierNoInBar, "warp_in_bar_o"),
        ("g", BdibMutation::DrainDuringBarrier, ""),
        ("f", BdibMutation::RrStuck, ""),
        ("f", BdibMutation::WarMissesTail, ""),
    ];
    for (mode, m, port) in cases {
        let (c, d) = small(mode);
        let mut rtl = common::rtl(&d);
        let layout = rtl.layout.clone();
        let make = || bdib_bench(&c, &layout, BdibTraffic::new(&c, TrafficParams::for_config(&c), 7)).unwrap().with_mutation(m).without_checker();
        match lockstep::run(&mut rtl, make, &Options::new(50_000, 7).without_waveform()) {
            Err(CosimError::Mismatch(mm)) => {
                assert!(mm.cycle > 0 && !mm.diffs.is_empty(), "{m:?}: {mm}");
                if !port.is_empty() {
                    assert!(mm.diffs.iter().any(|x| x.port == port), "{m:?}: {mm}");
                }
            }
            other => panic!("{mode}: {m:?} was not caught by lockstep: {other:?}"),
        }
        rtl.renew();
        let make = || bdib_bench(&c, &layout, BdibTraffic::new(&c, TrafficParams::for_config(&c), 8)).unwrap().with_mutation(m);
        match lockstep::run(&mut rtl, make, &Options::new(50_000, 8)) {
            Err(CosimError::Invariant { message, .. }) => assert!(message.contains("invariant"), "{m:?}: {message}"),
            other => panic!("{mode}: {m:?}: expected an invariant violation, got {other:?}"),
        }
        rtl.renew();
    }
}
