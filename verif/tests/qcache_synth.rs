//! yosys synthesis of the Q-cache monitor: no latches, and the flip-flops found again
//! against our register count and the thesis's 41 B (spec §1.9).

mod common;

use golden::qcache::Qcache;
use verif::synth::synth;

#[test]
fn small_preset_synthesizes_without_latches_with_its_register_count() {
    let (cfg, g) = common::preset::<Qcache>("qcache_small");
    let d = common::design(&g, "monitor");
    let work = std::env::temp_dir().join(format!("gpuforge-synth-qcache-{}", std::process::id()));
    let r = synth(d, &work).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&work);
    assert_eq!(r.latches, 0);
    let c = &cfg.config;
    // our register file (golden::qcache::config::storage, summed by hand for CNT_W 16,
    // NDOM 5 and the small preset's timer widths): 325 bits; yosys may drop bits it
    // proves constant (the damping flag under table_6_1, the divider's shifted-in zero)
    assert_eq!(c.storage_bits(), 325);
    assert!(r.flops <= 325 && r.flops >= 315, "{} flops", r.flops);
    // the thesis's register set at this width: 5 x 16 + 5 + 3 = 88 bits (41 B at CNT_W 64)
    assert_eq!(c.thesis_bits(), 88);
    assert!(r.flops >= c.thesis_bits() as u64);
}
