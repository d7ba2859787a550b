//! yosys synthesis of both GPU-CC presets: no latches, a cell report, and the
//! storage the paper counts (spec §1.4) found again in the netlist (the paper preset's
//! by yosys's storage census, `verif::synth::census`: its 195 kbit of flip-flops took
//! the full synthesis about 100 s of CPU, the census 41 s).

use crate::common;

use golden::gpucc::config::N_IN;
use golden::gpucc::cr::CR_BITS;
use verif::synth::{census, synth, Census, SynthReport};

/// A preset's network through `yosys` (`synth` or `census`) in a scratch directory.
fn through<R>(preset: &str, yosys: fn(&hdl_gen::design::Design, &std::path::Path) -> Result<R, verif::verilator::BuildError>) -> (golden::gpucc::GpuccConfig, R) {
    let (c, d) = common::gpucc(preset);
    let work = std::env::temp_dir().join(format!("gpuforge-synth-{preset}-{}", std::process::id()));
    let r = yosys(&d, &work).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&work);
    (c, r)
}

fn run(preset: &str) -> (golden::gpucc::GpuccConfig, SynthReport) {
    through(preset, synth)
}

fn run_census(preset: &str) -> (golden::gpucc::GpuccConfig, Census) {
    through(preset, census)
}

/// FIFO storage bits (depth x width, every FIFO) and CR bits of a config.
fn storage(c: &golden::gpucc::GpuccConfig) -> (u64, u64) {
    let fifo: u64 = (0..c.n_pos()).flat_map(|p| (0..N_IN).filter_map(move |k| c.fifo_depth(p, k))).map(|d| d as u64 * c.data_width as u64).sum();
    (fifo, CR_BITS as u64 * c.n_pos() as u64)
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
    let (c, r) = run_census("gpucc_paper_sm");
    assert_eq!(r.latches, 0);
    let (fifo, cr) = storage(&c);
    assert_eq!(fifo, 188_416);
    assert_eq!(r.flops_by_type.get("$_DFFE_PP_").copied().unwrap_or(0), fifo);
    assert_eq!(fifo + cr, 194_560);
    assert!(r.flops >= fifo + cr, "{} flops < {} storage bits", r.flops, fifo + cr);
}
