//! Acceptance 1: every shipped workload computes exactly what its Rust reference
//! computes, on the tiny preset and on paper presets (ideal network for now), at sizes
//! that are not multiples of the block size and with divergent branches.

use std::path::{Path, PathBuf};

use golden::gpu::{run, GpuConfig, Launch, RunOptions};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

pub fn config(name: &str) -> GpuConfig {
    GpuConfig::load(&root().join("configs/gpu").join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}"))
}

pub fn launch(path: &str) -> Launch {
    Launch::load(&root().join("workloads").join(path)).unwrap_or_else(|e| panic!("{e}"))
}

const WORKLOADS: &[&str] = &[
    "vecadd/vecadd.toml",
    "saxpy/saxpy.toml",
    "triad/triad.toml",
    "copy/copy_aligned.toml",
    "copy/copy_strided.toml",
    "reduce/reduce.toml",
    "transpose/transpose.toml",
    "conv2d/conv3x3.toml",
    "conv2d/conv5x5.toml",
    "matvec/matvec.toml",
    "bfs/bfs.toml",
    "kmeans/kmeans.toml",
    "backprop/backprop.toml",
    "prodcons/prodcons.toml",
    "micro_llc/compare.toml",
    "micro_llc/density.toml",
    "micro_llc/norm.toml",
    "micro_llc/vecadd_aligned.toml",
    "micro_llc/vecadd_strided.toml",
    "micro_llc/copy_aligned.toml",
    "micro_llc/copy_strided.toml",
    "fdtd/fdtd2d.toml",
    "mvt/mvt.toml",
    "scp/scalarprod.toml",
    "red/reduce_hybrid2.toml",
];

fn check_all(cfg: &GpuConfig) {
    for w in WORKLOADS {
        let l = launch(w);
        let r = run(cfg, &l, RunOptions::default()).unwrap_or_else(|e| panic!("{w} on {}: {e}", cfg.name));
        assert!(!r.checks.is_empty(), "{w}: no checks ran");
        assert!(r.checks_passed(), "{w} on {}:\n{r}", cfg.name);
        assert!(r.cycles > 0 && r.warp_insts > 0);
        eprintln!("{w:28} {:>8} cycles {:>8} warp insts IPC {:.2}", r.cycles, r.warp_insts, r.ipc);
    }
}

#[test]
fn all_workloads_match_references_on_tiny() {
    check_all(&config("tiny"));
}

#[test]
fn all_workloads_match_references_on_macro_16() {
    check_all(&config("macro_16"));
}

#[test]
fn all_workloads_match_references_on_llc_compute_56() {
    check_all(&config("llc_compute_56"));
}

#[test]
fn all_workloads_match_references_on_tfb_maxwell_16() {
    check_all(&config("tfb_maxwell_16"));
}

#[test]
fn all_workloads_match_references_on_macro_64() {
    check_all(&config("macro_64"));
}

#[test]
fn all_workloads_match_with_lrr_dual_issue_shared_alu_and_starved_queues() {
    // scheduler policy, issue width, a shared ALU, tiny caches and 1-entry queues change
    // timing only
    let path = root().join("configs/gpu/tiny.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("scheduler = \"gto\"", "scheduler = \"lrr\"")
        .replace("issue_width = 1", "issue_width = 2")
        .replace("[core.units]", "[core.units]\nalu_shared = true")
        .replace("mshrs = 64", "mshrs = 2")
        .replace("mshr_merge = 8\nmiss_queue = 8", "mshr_merge = 1\nmiss_queue = 1")
        .replace("input_queue = 16", "input_queue = 1")
        .replace("queue = 32", "queue = 1")
        .replace("hash = \"none\"", "hash = \"xor\"");
    let cfg = GpuConfig::parse(&path, &text).unwrap();
    assert_eq!(cfg.core.issue_width, 2);
    check_all(&cfg);
}
