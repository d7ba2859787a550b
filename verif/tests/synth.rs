//! yosys synthesis of both GPU-CC presets: no latches, a cell report, and the
//! storage the paper counts (spec §1.4) found again in the netlist.

mod common;

use golden::gpucc::config::N_IN;
use verif::synth::{synth, SynthReport};

fn run(preset: &str) -> (golden::gpucc::GpuccConfig, SynthReport) {
    let (_, c, d) = common::preset(preset);
    let work = std::env::temp_dir().join(format!("gpuforge-synth-{preset}-{}", std::process::id()));
    let r = synth(&d, &work).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&work);
    (c, r)
}

/// FIFO storage bits (depth x width, every FIFO) and CR bits of a config.
fn storage(c: &golden::gpucc::GpuccConfig) -> (u64, u64) {
    let fifo: u64 = (0..c.n_pos())
        .flat_map(|p| (0..N_IN).filter_map(move |k| c.fifo_depth(p, k)))
        .map(|d| d as u64 * c.data_width as u64)
        .sum();
    (fifo, 128 * c.n_pos() as u64)
}

#[test]
fn small_preset_synthesizes_without_latches() {
    let (c, r) = run("gpucc_small");
    assert_eq!(r.latches, 0);
    assert!(r.cells > 1000 && r.transistors > 0);
    // storage words are the enable-flops (written only on push); everything else
    // (pointers, counts, CRs, mode) is a reset flop
    assert_eq!(r.cells_by_type.get("$_DFFE_PP_").copied().unwrap_or(0), storage(&c).0);
}

/// Paper preset: the netlist holds exactly the spec's 188,416 FIFO bits, and with the
/// 6,144 CR bits the 194,560 = "195 kbit" of the paper.
#[test]
fn paper_preset_synthesizes_and_holds_the_papers_195_kbit() {
    let (c, r) = run("gpucc_paper_sm");
    assert_eq!(r.latches, 0);
    let (fifo, cr) = storage(&c);
    assert_eq!(fifo, 188_416);
    assert_eq!(r.cells_by_type.get("$_DFFE_PP_").copied().unwrap_or(0), fifo);
    assert_eq!(fifo + cr, 194_560);
    assert!(r.flops >= fifo + cr, "{} flops < {} storage bits", r.flops, fifo + cr);
}

#[test]
fn synth_rejects_a_planted_latch() {
    use hdl_gen::design::Design;
    use hdl_gen::manifest::{Manifest, Port};
    let text = "module latchy (input wire clk_i, input wire en_i, input wire d_i, output reg q_o);\n  always @(*) if (en_i) q_o = d_i;\nendmodule\n";
    let files = vec![("latchy.v".to_string(), text.to_string())];
    let manifest = Manifest {
        generator: "test".into(),
        block: "test".into(),
        preset: "latchy".into(),
        top: "latchy".into(),
        files: vec!["latchy.v".into()],
        ports: vec![Port::clock("clk_i"), Port::input("en_i", 1, ""), Port::input("d_i", 1, ""), Port::output("q_o", 1, "")],
        parameters: Default::default(),
        tables: Default::default(),
        config: serde_json::Value::Null,
        config_source: String::new(),
        content_hash: String::new(),
    };
    let d = Design { files, manifest };
    let work = std::env::temp_dir().join(format!("gpuforge-synth-latch-{}", std::process::id()));
    let r = synth(&d, &work);
    let _ = std::fs::remove_dir_all(&work);
    assert!(r.is_err(), "a latch was accepted: {r:?}");
}

/// Router-level designs of the NoC presets: each synthesizes without latches, and the
/// combined router area of MACRO-NoC (one hinge router + one 64-bit 1-VC request
/// router) against the baseline's (two 128-bit 3-VC routers) is compared with the
/// seed's Table 2 (MACRO = 0.672 x baseline, DSENT + gate level).
#[test]
fn noc_routers_synthesize_and_macro_is_smaller_than_the_baseline() {
    let router = |preset: &str, sub: &str| -> SynthReport {
        let cfg = golden::config::load(&common::repo().join("configs").join(format!("{preset}.toml"))).unwrap();
        let d = hdl_gen::generate(&cfg).unwrap().into_iter().find(|(p, _)| p.as_os_str() == sub).unwrap().1;
        let work = std::env::temp_dir().join(format!("gpuforge-synth-{preset}-{}-{}", sub.replace('/', "-"), std::process::id()));
        let r = synth(&d, &work).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_dir_all(&work);
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
