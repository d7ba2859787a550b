//! The LLC-partition SQ golden model (spec §1.6) under random legal traffic with the
//! spec §6.4 SQ scoreboard, and a planted bug the scoreboard catches.

use golden::llc_compute::sim::run_sq;
use golden::llc_compute::LlcCompute;

#[test]
fn sq_llc_random_traffic_holds_every_invariant() {
    for (name, cycles) in [("llc_compute_paper", 100_000), ("llc_compute_small", 100_000)] {
        let c = golden::presets::load::<LlcCompute>(name).unwrap().config;
        let s = run_sq(&c, cycles, 1, |_| {}).unwrap_or_else(|v| panic!("{name}: {v}"));
        assert!(s.cps > 10_000 && s.responses > 5_000 && s.writes > 1_000, "{name}: {s:?}");
        if name == "llc_compute_small" {
            assert!(s.fallbacks > 100, "6 entries fill up: {s:?}");
        }
    }
}

#[test]
fn sq_scoreboard_catches_bytes_of_inactive_lanes() {
    let c = golden::presets::load::<LlcCompute>("llc_compute_small").unwrap().config;
    let v = run_sq(&c, 20_000, 1, |m| m.plant_full_wbe = true).unwrap_err();
    assert_eq!(v.invariant, "5 WRITE", "{v}");
}

/// The core SQ (Omni-Compute): NoC loads, shared-memory staging, the shared core ALU.
#[test]
fn sq_core_random_traffic_holds_every_invariant() {
    use golden::llc_compute::sim::{run_sq_core, sample_core};
    for (name, cycles) in [("llc_compute_paper", 100_000), ("llc_compute_small", 100_000)] {
        let c = golden::presets::load::<LlcCompute>(name).unwrap().config;
        let s = run_sq_core(&c, sample_core(&c), cycles, 1, |_| {}).unwrap_or_else(|v| panic!("{name}: {v}"));
        assert!(s.cps > 5_000 && s.responses > 2_000 && s.stores > 500 && s.contention > 100, "{name}: {s:?}");
        assert!(s.ni_held > 0, "{name}: the shared-memory write queue fills and holds NoC replies: {s:?}");
    }
}

#[test]
fn sq_core_scoreboard_catches_the_alu_taken_from_the_core() {
    use golden::llc_compute::sim::{run_sq_core, sample_core};
    let c = golden::presets::load::<LlcCompute>("llc_compute_small").unwrap().config;
    let v = run_sq_core(&c, sample_core(&c), 20_000, 1, |m| m.plant_ignore_gnt = true).unwrap_err();
    assert_eq!(v.invariant, "7 ALU sharing", "{v}");
}

/// The core SQ's planted STORE_REQ byte enables of every lane: the scoreboard's store
/// check (invariant 5: bytes of inactive lanes never enabled) catches it on its own.
#[test]
fn sq_core_scoreboard_catches_bytes_of_inactive_lanes() {
    use golden::llc_compute::sim::{run_sq_core, sample_core};
    let c = golden::presets::load::<LlcCompute>("llc_compute_small").unwrap().config;
    let v = run_sq_core(&c, sample_core(&c), 20_000, 1, |m| m.plant_full_wbe = true).unwrap_err();
    assert_eq!(v.invariant, "5 store", "{v}");
}
