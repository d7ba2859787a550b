//! The TFB BDIB golden model: config validation, storage against Table 5.4, random
//! legal traffic in every variant under the scoreboard, planted bugs caught.

use golden::block::{self, Block};
use golden::presets;
use golden::tfb_bdib::bdib::BdibMutation;
use golden::tfb_bdib::{sim, TfbBdib, TfbConfig, Variant};
use std::path::Path;

fn cfg_from(text: &str) -> Result<TfbConfig, golden::config::ConfigError> {
    block::parse::<TfbBdib>(Path::new("t.toml"), text).map(|f| f.config)
}

fn small_with(key: &str, value: &str) -> String {
    let t = presets::text("tfb_small");
    let line = t.lines().find(|l| l.starts_with(&format!("{key} ="))).unwrap_or_else(|| panic!("no {key} in tfb_small")).to_string();
    t.replace(&line, &format!("{key} = {value}"))
}

#[test]
fn presets_are_the_thesis_subcore_and_a_small_one() {
    let m = presets::load::<TfbBdib>("tfb_maxwell_subcore").unwrap().config;
    assert_eq!((m.num_warps, m.depth, m.mode, m.nwarq, m.reg_w, m.nsrc), (32, 2, Variant::F, 2, 8, 4));
    assert_eq!((m.wid_w(), m.cnt_w()), (5, 2));
    let s = presets::load::<TfbBdib>("tfb_small").unwrap().config;
    assert_eq!((s.num_warps, s.depth, s.mode), (4, 2, Variant::F));
    assert_eq!(presets::of::<TfbBdib>().len(), 2);
}

#[test]
fn every_field_is_checked_with_its_allowed_range() {
    let cases = [
        ("depth", "0", "tfb_bdib.depth", "1..=5"),
        ("depth", "6", "tfb_bdib.depth", "1..=5"),
        ("num_warps", "0", "tfb_bdib.num_warps", "1..=64"),
        ("num_warps", "65", "tfb_bdib.num_warps", "1..=64"),
        ("mode", "\"q\"", "tfb_bdib.mode", "one of \"p\", \"g\", \"f\""),
        ("nwarq", "3", "tfb_bdib.nwarq", "1..=2"),
        ("nwarq", "0", "tfb_bdib.nwarq", "1..=2"),
        ("nsrc", "5", "tfb_bdib.nsrc", "1..=4"),
        ("reg_w", "9", "tfb_bdib.reg_w", "2..=8"),
        ("instr_w", "129", "tfb_bdib.instr_w", "10..=128"),
        ("instr_w", "9", "tfb_bdib.instr_w", "10..=128"),
        ("schedulers", "5", "tfb_bdib.schedulers", "1..=4"),
    ];
    for (k, val, field, allowed) in cases {
        let e = cfg_from(&small_with(k, val)).expect_err(&format!("{k} = {val} must be refused"));
        assert_eq!(e.field, field, "{e}");
        assert_eq!(e.allowed.as_deref(), Some(allowed), "{e}");
        assert!(e.to_string().starts_with("t.toml: "), "{e}");
    }
}

#[test]
fn storage_matches_table_5_4() {
    // spec §2.6: 112 b = 14 B per entry, the top of the thesis's 10-14 B range
    let m = presets::load::<TfbBdib>("tfb_maxwell_subcore").unwrap().config;
    let s = m.storage();
    assert_eq!(s.entry_bits, 3 + 2 + 4 * (8 + 1) + 71);
    assert_eq!(s.entry_bits, 112);
    assert!((80..=112).contains(&s.entry_bits), "10-14 B per entry");
    // 32 warps x 2 entries x 14 B = 896 B; per-warp state 2+1+1 bits; 5-bit pointer
    assert_eq!(s.entry_storage_bits() / 8, 896);
    assert_eq!(s.total_bits(), 32 * 2 * 112 + 32 * 4 + 5);
    // §2.13: 64 warps x 1 entry = 64 x 14 B = 896 B < 900 B
    let t = presets::text("tfb_maxwell_subcore").replace("num_warps = 32", "num_warps = 64").replace("depth = 2", "depth = 1");
    let s = cfg_from(&t).unwrap().storage();
    assert_eq!(s.entry_storage_bits(), 64 * 112);
    assert!(s.entry_storage_bits() / 8 < 900);
    // the scoreboard's "BDIB full" bits: 1 per warp, <= 8 B for 64 warps
    assert!(64 / 8 <= 8);
}

fn run_mode(mode: &str, cycles: u64, seed: u64) -> sim::SimReport {
    let c = cfg_from(&small_with("mode", &format!("\"{mode}\""))).unwrap();
    sim::run(&c, cycles, seed)
}

#[test]
fn random_legal_traffic_passes_the_scoreboard_in_every_variant() {
    for (mode, seed) in [("p", 1), ("g", 2), ("f", 3)] {
        let r = run_mode(mode, 30_000, seed);
        assert!(r.violation.is_none(), "{r}");
        let s = &r.stats;
        assert!(s.issued > 10_000 && s.barriers > 500, "{r}");
        // INV-3: everything pushed was popped (no flushes in random traffic)
        assert_eq!(s.pushed, s.popped, "{r}");
        if mode == "p" {
            assert_eq!((s.pushed, s.stall_cycles), (0, 0), "P-TFB never buffers: {r}");
        } else {
            assert!(s.pushed > 1000 && s.marker_pops > 5 && s.fence_pops > 10 && s.full_cycles > 100, "{r}");
            assert_eq!(s.max_count, 2);
        }
    }
}

#[test]
fn the_maxwell_subcore_runs_clean() {
    let c = presets::load::<TfbBdib>("tfb_maxwell_subcore").unwrap().config;
    let r = sim::run(&c, 20_000, 9);
    assert!(r.violation.is_none() && r.stats.pushed > 1000 && r.stats.war_hits > 0, "{r}");
}

#[test]
fn planted_bugs_are_caught_in_every_variant() {
    let cases = [
        ("p", BdibMutation::PassBarrierNoInBar, "9 in_bar discipline"),
        ("g", BdibMutation::DrainDuringBarrier, "6 stall exactness"),
        ("f", BdibMutation::RrStuck, "12 liveness (round-robin grant)"),
        ("f", BdibMutation::WarMissesTail, "13 WAR safety"),
    ];
    for (mode, bug, inv) in cases {
        let c = cfg_from(&small_with("mode", &format!("\"{mode}\""))).unwrap();
        let r = sim::run_mutated(&c, 30_000, 5, Some(bug));
        let v = r.violation.clone().unwrap_or_else(|| panic!("{bug:?} in {mode} not caught: {r}"));
        assert_eq!(v.invariant, inv, "{bug:?}: {v}");
    }
}

#[test]
fn the_block_is_named_tfb_bdib() {
    assert_eq!(TfbBdib::TABLE, "tfb_bdib");
}
