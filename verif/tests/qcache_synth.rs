//! yosys synthesis of the Q-cache monitor: no latches, and the flip-flops found again
//! against our register count and the thesis's 41 B (spec §1.9).

use crate::common;

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

/// The companion blocks of spec §5 synthesize without latches; their flip-flops against
/// the registers the templates declare, counted by hand for the small preset (4 banks,
/// 3-bit domains, a 4-core GPU, a 9-bit countdown for the 315-cycle longest transition).
#[test]
fn companion_blocks_synthesize_without_latches() {
    let (cfg, g) = common::preset::<Qcache>("qcache_small");
    assert_eq!(cfg.config.companion.lat_w, 9);
    // filter: 3 strobes x 4 banks + 2 domains x 4 banks x 3 bits = 36
    // GPU: active 4, dispatch 4, P-state 3 + 3, proxy 16 + 16, flight/ACK/NACK 3, countdown 9 = 58
    // CPU: P-state 3 + 3, MHz 16 + 16, flight/ACK/NACK 3, countdown 9 = 50
    for (dir, declared) in [("filter", 36u64), ("gpu_actuator", 58), ("cpu_dvfs", 50)] {
        let d = common::design(&g, dir);
        let work = std::env::temp_dir().join(format!("gpuforge-synth-qcache-{dir}-{}", std::process::id()));
        let r = synth(d, &work).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_dir_all(&work);
        eprintln!("{dir}: {} cells, {} flops", r.cells, r.flops);
        assert_eq!(r.latches, 0, "{dir}");
        // yosys drops the flip-flops it proves constant (the proxies' and clocks' high bits)
        assert!(r.flops <= declared && r.flops >= declared - 12, "{dir}: {} flops of {declared}", r.flops);
    }
}
