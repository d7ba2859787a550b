//! The OQ golden model (spec §1.3) under random legal traffic with the spec §6.4
//! scoreboard, planted bugs the scoreboard must catch, and directed scenarios.

use golden::llc_compute::sim::{run_oq, sample_core};
use golden::llc_compute::{LlcCompute, LlcComputeConfig};

fn preset(name: &str) -> LlcComputeConfig {
    golden::presets::load::<LlcCompute>(name).unwrap_or_else(|e| panic!("{e}")).config
}

fn with(name: &str, edit: impl FnOnce(&mut String)) -> LlcComputeConfig {
    let mut text = golden::presets::text(name);
    edit(&mut text);
    golden::block::parse::<LlcCompute>(std::path::Path::new("edited.toml"), &text).unwrap_or_else(|e| panic!("{e}")).config
}

#[test]
fn oq_random_traffic_paper_and_small_presets_hold_every_invariant() {
    for (name, cycles) in [("llc_compute_paper", 100_000), ("llc_compute_small", 100_000)] {
        let c = preset(name);
        let s = run_oq(&c, sample_core(&c), cycles, 1, |_, _| {}).unwrap_or_else(|v| panic!("{name}: {v}"));
        assert!(s.cps > 1000 && s.flushes > 100 && s.discards > 100 && s.responses > s.cps, "{name}: {s:?}");
    }
}

#[test]
fn oq_random_traffic_llc_mode_and_policies() {
    let c = with("llc_compute_small", |t| *t = t.replace("mode = \"omni\"", "mode = \"llc\""));
    let s = run_oq(&c, sample_core(&c), 20_000, 2, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    assert!(s.cps > 50, "{s:?}");
    let c = with("llc_compute_small", |t| *t = t.replace("mode = \"omni\"", "mode = \"llc\"\nllc_rule = \"emn_is_llc\""));
    run_oq(&c, sample_core(&c), 20_000, 3, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    let c = with("llc_compute_small", |t| *t = t.replace("lanes = 8", "lanes = 8\ncpgu_busy_policy = \"run_normally\""));
    run_oq(&c, sample_core(&c), 20_000, 4, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    let c = with("llc_compute_small", |t| *t = t.replace("mode = \"omni\"", "mode = \"off\""));
    let s = run_oq(&c, sample_core(&c), 5_000, 5, |_, _| {}).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(s.cps, 0);
}

#[test]
fn oq_scoreboard_catches_an_allocation_while_full() {
    let c = preset("llc_compute_small");
    let v = run_oq(&c, sample_core(&c), 50_000, 1, |m, _| m.plant_alloc_when_full = true).unwrap_err();
    assert!(v.invariant.starts_with("2 "), "{v}");
}
