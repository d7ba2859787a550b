//! Tests of `gpuforge::registry` (`src/registry.rs`).

use gpuforge::blocks::{load, BLOCKS};

#[test]
fn tables_are_unique_and_every_preset_loads_through_the_registry() {
    let mut t: Vec<&str> = BLOCKS.iter().map(|b| b.table).collect();
    t.sort();
    t.dedup();
    assert_eq!(t.len(), BLOCKS.len(), "two blocks claim one table");
    let presets = golden::presets::all();
    assert!(presets.len() >= 10, "{presets:?}");
    for p in presets {
        let l = load(&p).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.parent().unwrap().file_name().unwrap(), l.table(), "{}: presets live in configs/<table>/", p.display());
    }
}
