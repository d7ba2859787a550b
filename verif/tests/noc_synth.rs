//! Router-level designs of the NoC presets: each synthesizes without latches, and the
//! combined router area of MACRO-NoC (one hinge router + one 64-bit 1-VC request
//! router) against the baseline's (two 128-bit 3-VC routers) is compared with the
//! seed's Table 2 (MACRO = 0.672 x baseline, DSENT + gate level).

use crate::common;

use golden::noc::Noc;
use verif::synth::{synth_cached, SynthReport};

#[test]
fn noc_routers_synthesize_and_macro_is_smaller_than_the_baseline() {
    let router = |preset: &str, sub: &str| -> SynthReport {
        let (_, g) = common::preset::<Noc>(preset);
        let d = common::design(&g, sub);
        assert!(d.manifest.synth, "{sub} is marked for synthesis");
        // the report of the identical design by the same yosys, if the Table 2 study (or an
        // earlier run) synthesized it already: `make test` runs yosys on each router once
        let (r, _) = synth_cached(d).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.latches, 0, "{}", r.top);
        eprintln!("{}: {} cells, {} flops, ~{} transistors", r.top, r.cells, r.flops, r.transistors);
        r
    };
    let hinge = router("noc_macro_4x4", "routers/hinge");
    let request = router("noc_macro_4x4", "routers/request");
    let base = router("noc_baseline_4x4", "routers/baseline");
    // the baseline router buffers 5 ports x 3 VCs x 4 flits x 128 bits of payload
    assert!(base.flops >= 5 * 3 * 4 * 128, "{} flops", base.flops);
    let macro_t = (hinge.transistors + request.transistors) as f64;
    let base_t = 2.0 * base.transistors as f64;
    eprintln!("MACRO / baseline combined router transistors: {:.3} (Table 2: 0.672)", macro_t / base_t);
    assert!(macro_t < base_t, "MACRO-NoC routers ({macro_t}) not smaller than the baseline's ({base_t})");
}
