//! GPU-CC's conventional SIMT convolutions (seed 004 section 4.1, Table 1) on the GPU
//! model: every version computes the zero-padded convolution exactly (the `conv2d`
//! reference, a direct loop), on the paper's GTX 470 and on a small GPU, and the
//! versions differ the way the paper describes them: By line (R) keeps its window in
//! registers, so it issues fewer global loads than By line; the shared-memory versions
//! load each pixel from global memory once per band.

use crate::gpu_common;

use golden::gpu::sim::{run, RunOptions};
use golden::gpu::GpuReport;
use gpu_common::*;

const SIMT: [&str; 6] = [
    "conv2d/conv3x3_512.toml",
    "gpucc_simt/conv3x3_512_byline.toml",
    "gpucc_simt/conv3x3_512_byline_r.toml",
    "gpucc_simt/conv3x3_512_shared.toml",
    "gpucc_simt/conv3x3_512_shared_r.toml",
    "gpucc_simt/conv5x5_512_byline_r.toml",
];

fn sim(cfg: &str, launch: &str) -> GpuReport {
    run(&config(cfg), &gpu_common::launch(launch), RunOptions::default()).unwrap_or_else(|e| panic!("{launch} on {cfg}: {e}"))
}

#[test]
fn every_simt_version_equals_the_direct_convolution_on_the_gtx470() {
    for l in SIMT {
        let r = sim("gtx470", l);
        assert!(!r.checks.is_empty() && r.checks_passed(), "{l}: {:?}", r.checks);
        assert_eq!(r.items, Some(512 * 512), "{l}");
        let g = r.giga_items_per_s.unwrap();
        // throughput is pixels x clock / cycles
        assert!((g - 262144.0 * 1215e6 / r.cycles as f64 / 1e9).abs() < 1e-9, "{l}: {g}");
    }
}

#[test]
fn the_versions_load_what_the_paper_says() {
    let by_line = sim("gtx470", SIMT[1]);
    let by_line_r = sim("gtx470", SIMT[2]);
    let shared = sim("gtx470", SIMT[3]);
    // By line loads 9 pixels per output pixel, By line (R) 3 (plus a 2-row prologue per
    // band of 36-37 rows): at least 2.5x fewer L1 reads
    assert!(by_line.l1.read_accesses as f64 >= 2.5 * by_line_r.l1.read_accesses as f64, "{} vs {}", by_line.l1.read_accesses, by_line_r.l1.read_accesses);
    // Shared memory: one global load per pixel per band (plus 2 prologue rows per band)
    // and 9 shared-memory reads per output: 512 x 512 x 9 / 32 lanes warp accesses
    let pixels = 512 * 512u64;
    assert!(shared.shmem.accesses >= pixels * 9 / 32, "{}", shared.shmem.accesses);
    assert!(shared.l1.read_accesses < by_line_r.l1.read_accesses, "{} vs {}", shared.l1.read_accesses, by_line_r.l1.read_accesses);
}

#[test]
fn a_wrong_radius_leaves_the_output_unwritten_and_the_check_fails() {
    // the planted bug: By line (R) is written for r = 1; launched with r = 2 every thread
    // returns at once, so the 5x5 reference finds the zeros
    let text = std::fs::read_to_string(root().join("workloads").join(SIMT[2])).unwrap();
    let bad = text
        .replace("[\"image\", \"weights\", \"out\", 512, 512, 1]", "[\"image\", \"weights\", \"out\", 512, 512, 2]")
        .replace("radius = 1", "radius = 2")
        .replace("len = 9\n", "len = 25\n");
    assert_ne!(bad, text);
    let r = run(&config("gtx470"), &launch_text(SIMT[2], &bad), RunOptions::default()).unwrap();
    assert!(!r.checks_passed(), "the check must catch an unwritten output");
}
