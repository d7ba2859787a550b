//! Lockstep co-simulation of `gpucc_net` under random valid/ready, configuration
//! and mode traffic, with the spec §4.3 scoreboard on the golden side; and planted
//! bugs that must be caught.

use crate::common;

use golden::gpucc::net::Mutation;
use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use verif::frame::Frame;
use verif::gpucc::net_bench;
use verif::lockstep::{self, Bench, CosimError, Options};

fn random_run(preset: &str, cycles: u64, seed: u64) {
    let (c, d) = common::gpucc(preset);
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    let make = || net_bench(&c, &layout, NetTraffic::new(&c, seed, TrafficParams::default())).unwrap();
    let r = lockstep::run(&mut rtl, make, &Options::new(cycles, seed)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, cycles);
    // the traffic went through many configure/run/drain epochs
    let mut b = make();
    let mut f = (Frame::zeroed(layout.in_words), Frame::zeroed(layout.out_words));
    for cyc in 0..cycles.min(50_000) {
        b.cycle(cyc, &mut f.0, &mut f.1).unwrap();
    }
    assert!(b.stim.epochs() >= 10, "only {} epochs", b.stim.epochs());
}

#[test]
fn small_preset_100k_random_cycles_in_lockstep() {
    random_run("gpucc_small", 100_000, 11);
}

#[test]
fn paper_preset_100k_random_cycles_in_lockstep() {
    random_run("gpucc_paper_sm", 100_000, 12);
}

/// Each planted golden-model bug makes the lockstep comparison fail, with the
/// cycle and port named and a waveform left behind (scoreboard off, so it is the
/// RTL comparison that catches it).
#[test]
fn every_planted_golden_bug_is_a_named_mismatch() {
    let (c, d) = common::gpucc("gpucc_small");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    for m in [Mutation::IgnoreSelfFull, Mutation::ReadyThroughDriver, Mutation::NoPreload, Mutation::CfgWriteAnyMode] {
        let make = || net_bench(&c, &layout, NetTraffic::new(&c, 3, TrafficParams::default())).unwrap().with_mutation(m).without_checker();
        match lockstep::run(&mut rtl, make, &Options::new(50_000, 3)) {
            Err(CosimError::Mismatch(mm)) => {
                assert!(mm.cycle > 0 && !mm.diffs.is_empty(), "{m:?}: {mm}");
                let text = mm.to_string();
                assert!(text.contains(&format!("cycle {}", mm.cycle)) && text.contains(&mm.diffs[0].port), "{text}");
                let vcd = mm.vcd.as_ref().expect("a waveform");
                let body = std::fs::read_to_string(vcd).unwrap();
                assert!(body.contains("$enddefinitions") && body.contains("u_fire_o"), "{m:?}: bad VCD {}", vcd.display());
            }
            other => panic!("{m:?} was not caught: {other:?}"),
        }
        rtl.renew();
    }
}

/// The same bugs are also caught by the golden-side scoreboard on its own.
#[test]
fn every_planted_golden_bug_breaks_an_invariant() {
    let (c, d) = common::gpucc("gpucc_small");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    for m in [Mutation::IgnoreSelfFull, Mutation::ReadyThroughDriver, Mutation::NoPreload, Mutation::CfgWriteAnyMode] {
        let make = || net_bench(&c, &layout, NetTraffic::new(&c, 4, TrafficParams::default())).unwrap().with_mutation(m);
        match lockstep::run(&mut rtl, make, &Options::new(50_000, 4)) {
            Err(CosimError::Invariant { cycle, message, .. }) => assert!(message.contains("invariant"), "{m:?} at {cycle}: {message}"),
            other => panic!("{m:?}: expected an invariant violation, got {other:?}"),
        }
        rtl.renew();
    }
}

/// A wrong expected value (one bit of one port flipped at a known cycle) is
/// reported at exactly that cycle and port.
#[test]
fn a_wrong_expected_value_is_reported_at_its_cycle_and_port() {
    struct Corrupt<B> {
        inner: B,
        at: u64,
        slot: verif::frame::Slot,
    }
    impl<B: Bench> Bench for Corrupt<B> {
        fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), golden::invariant::Violation> {
            self.inner.cycle(cycle, inputs, expected)?;
            if cycle == self.at {
                let v = expected.field(&self.slot, 5);
                expected.set_field(&self.slot, 5, v ^ 1);
            }
            Ok(())
        }
    }
    let (c, d) = common::gpucc("gpucc_small");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    let slot = layout.output("u_in_data_o");
    let make = || Corrupt { inner: net_bench(&c, &layout, NetTraffic::new(&c, 5, TrafficParams::default())).unwrap(), at: 777, slot: slot.clone() };
    match lockstep::run(&mut rtl, make, &Options::new(5_000, 5).without_waveform()) {
        Err(CosimError::Mismatch(mm)) => {
            assert_eq!(mm.cycle, 777);
            assert_eq!(mm.diffs.len(), 1);
            assert_eq!(mm.diffs[0].port, "u_in_data_o");
            assert_eq!(mm.diffs[0].field.map(|f| f.0), Some(5));
        }
        other => panic!("not caught: {other:?}"),
    }
}
