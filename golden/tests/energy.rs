//! Tests of `golden::energy` (`golden/src/energy.rs`).

use golden::energy::*;

#[test]
fn energy_is_the_sum_of_count_times_cost_plus_static_power_times_time() {
    // hand-derived: 1000 x 2 pJ = 2 nJ (core), 10 x 150 pJ = 1.5 nJ (dram);
    // 2 W over 1 us = 2000 nJ
    let r = account(&[("a", Part::Core, 1000.0, 2.0), ("b", Part::Dram, 10.0, 150.0)], 2.0, 1e-6);
    assert!((r.dynamic_nj - 3.5).abs() < 1e-12, "{r:?}");
    assert!((r.static_nj - 2000.0).abs() < 1e-9, "{r:?}");
    assert!((r.total_nj - 2003.5).abs() < 1e-9);
    assert!((r.mean_power_w - 2.0035).abs() < 1e-12);
    assert_eq!(r.parts[&Part::Core], 2.0);
    assert_eq!(r.parts[&Part::Dram], 1.5);
}

#[test]
fn energy_added_beside_the_gpu_joins_the_totals() {
    // hand-derived: the account above plus 100 x 10 pJ = 1 nJ (cpu) and 500 nJ static
    let mut r = account(&[("a", Part::Core, 1000.0, 2.0), ("b", Part::Dram, 10.0, 150.0)], 2.0, 1e-6);
    r.add(&[("c", Part::Cpu, 100.0, 10.0)], 500.0);
    assert!((r.dynamic_nj - 4.5).abs() < 1e-12, "{r:?}");
    assert!((r.static_nj - 2500.0).abs() < 1e-9, "{r:?}");
    assert!((r.total_nj - 2504.5).abs() < 1e-9);
    assert!((r.mean_power_w - 2.5045).abs() < 1e-12);
    assert_eq!(r.parts[&Part::Cpu], 1.0);
    assert_eq!(r.events.len(), 3);
}

#[test]
fn an_empty_run_has_no_power() {
    let r = account(&[], 5.0, 0.0);
    assert_eq!((r.total_nj, r.mean_power_w), (0.0, 0.0));
}

#[test]
fn validation_names_the_field_and_range() {
    let t = EnergyTable { llc_access_pj: -1.0, ..Default::default() };
    let e = t.validate("energy").unwrap_err();
    assert_eq!(e.field, "energy.llc_access_pj");
    assert!(e.allowed.unwrap().contains("0..="));
    let t = EnergyTable { sm_static_w: f64::NAN, ..Default::default() };
    assert_eq!(t.validate("energy").unwrap_err().field, "energy.sm_static_w");
    EnergyTable::default().validate("energy").unwrap();
}

#[test]
fn defaults_follow_the_published_numbers() {
    // Horowitz ISSCC 2014 (45 nm): FP add 0.9 + FP mult 3.7; 64-bit SRAM reads:
    // 32 KB 20 pJ, 1 MB 100 pJ, 128-byte lines = 16 reads; TOM 4 pJ/bit, 11.8 nJ/ACT
    let t = EnergyTable::default();
    assert!((t.fp32_op_pj - (0.9 + 3.7)).abs() < 1e-12);
    assert_eq!(t.l1_access_pj, 16.0 * 20.0);
    assert_eq!(t.llc_access_pj, 16.0 * 100.0);
    assert_eq!((t.dram_bit_pj, t.dram_activate_pj), (4.0, 11_800.0));
}
