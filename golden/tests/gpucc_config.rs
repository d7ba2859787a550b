//! Tests of `golden::gpucc::config` (`golden/src/gpucc/config.rs`).

use golden::gpucc::config::*;

/// The `[gpucc]` table of `text` (a whole config file).
fn raw(text: &str) -> RawGpucc {
    let mut t: toml::Table = text.parse().unwrap();
    t.remove("gpucc").unwrap().try_into().unwrap()
}

/// The shipped paper preset, never retyped.
fn paper() -> String {
    golden::presets::text("gpucc_paper_sm")
}

#[test]
fn paper_sm_has_48_positions_16_lsus() {
    let c = GpuccConfig::validate(raw(&paper())).unwrap();
    assert_eq!(c.n_pos(), 48);
    assert_eq!(c.n_lsu(), 16);
    // spec §1.3: position p is an LSU iff p mod 3 = 2
    for p in 0..48 {
        assert_eq!(c.kinds[p] == UnitKind::Lsu, p % 3 == 2);
    }
    assert_eq!(c.pos_width(), 6);
    assert_eq!(c.peek_idx_width(), 8);
    assert_eq!(c.addr_count_width(), 9);
    assert_eq!(c.fifo_count_width(), 9);
}

#[test]
fn storage_cost_matches_paper_195_kbit() {
    // spec §1.4: FIFO bits + 128-bit CR per unit = 194,560 = 12.37% of RF+L1.
    let c = &GpuccConfig::validate(raw(&paper())).unwrap();
    let fifo_bits: u64 = (0..c.n_pos()).flat_map(|p| (0..N_IN).filter_map(move |k| c.fifo_depth(p, k))).map(|d| d as u64 * c.data_width as u64).sum();
    assert_eq!(fifo_bits, 188_416);
    let total = fifo_bits + 128 * c.n_pos() as u64;
    assert_eq!(total, 194_560);
    let pct = total as f64 / (1_048_576.0 + 524_288.0) * 100.0;
    assert!((pct - 12.4).abs() < 0.05, "{pct}");
}

#[test]
fn zero_depth_is_rejected_with_range() {
    let t = paper().replace("core_fifo_depth = 16", "core_fifo_depth = 0");
    let e = GpuccConfig::validate(raw(&t)).unwrap_err();
    assert_eq!(e.field, "gpucc.core_fifo_depth");
    assert_eq!(e.allowed.as_deref(), Some("2..=256"));
}
