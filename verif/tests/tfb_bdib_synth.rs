//! yosys synthesis of the BDIB: no latches, and its storage found again in the
//! netlist's flip-flops, against the thesis's Table 5.4 (spec §2.13): 10-14 B per
//! buffered instruction, under 900 B for 64 warps x 1 entry. (yosys's storage census,
//! `verif::synth::census`: the flip-flops, for a fraction of a full synthesis's time.)

use crate::common;

use golden::tfb_bdib::TfbBdib;
use verif::synth::{census, Census};

fn run(text: &str, tag: &str) -> Census {
    let (_, g) = common::from_text::<TfbBdib>(text);
    let d = common::design(&g, "bdib");
    let work = std::env::temp_dir().join(format!("gpuforge-synth-{tag}-{}", std::process::id()));
    let r = census(d, &work).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&work);
    r
}

/// tfb_small by hand: an entry is cls 3 + scope 2 + 2 sources x (4 + 1) + payload 16
/// = 31 b; 4 warps x 2 entries x 31 b = 248; per warp a 2-bit count, in_bar and
/// fence_wait = 16; the 2-bit round-robin pointer: 266 flip-flops.
#[test]
fn small_preset_synthesizes_without_latches_with_the_hand_counted_storage() {
    let r = run(&golden::presets::text("tfb_small"), "tfb_small");
    assert_eq!(r.latches, 0);
    assert_eq!(r.flops, 4 * 2 * 31 + 4 * 4 + 2);
}

/// The Maxwell entry format (112 b = 14 B) with 64 warps x 1 entry, the thesis's
/// "< 900 B" point: 64 x 112 = 7,168 entry bits = 896 B, plus a 1-bit count,
/// in_bar and fence_wait per warp (192 b) and a 6-bit pointer.
#[test]
fn sixty_four_warps_by_one_entry_stay_under_900_bytes() {
    let text = golden::presets::text("tfb_maxwell_subcore").replace("num_warps = 32", "num_warps = 64").replace("depth = 2", "depth = 1");
    let r = run(&text, "tfb_64x1");
    assert_eq!(r.latches, 0);
    let entry_bits = 64 * 112;
    assert_eq!(r.flops, entry_bits + 64 * 3 + 6);
    assert_eq!(entry_bits / 8, 896);
    assert!(entry_bits / 8 < 900);
    assert!((10..=14).contains(&(112 / 8)), "14 B per entry");
}
