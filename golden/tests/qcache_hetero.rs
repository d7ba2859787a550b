//! The heterogeneous CPU-GPU system (spec §3.1, §2.2-2.3): a GPU producer kernel and
//! CPU consumer cores sharing the GPU's L2 through `[hooks.qcache.cpu]`. Every queue
//! mode consumes the same data (an independent Rust reference of the producer and the
//! consumer computation); the CPU's reads of dirty lines reach the monitor as CONSUMEs;
//! the finite queue bounds the producers; Q-cache's actuation slows the GPU.

mod gpu_common;

use golden::gpu::host::HostBuffers;
use golden::gpu::sim::{run_capture, Gpu};
use golden::gpu::stats::GpuReport;
use golden::gpu::{GpuConfig, RunOptions};
use gpu_common::*;

/// The producer's output word `idx` and the consumer's chunk sums, written from the
/// kernel's C description (producer.ptx header), not from the simulator.
fn reference_sums(input: &[u32], tasks: usize, chunk: usize, rw: usize, ci: u32) -> Vec<u32> {
    let total = tasks * chunk;
    let word = |idx: usize| {
        let mut acc = 0u32;
        for r in 0..rw {
            acc = acc.wrapping_add(input[r * total + idx]);
        }
        for _ in 0..ci {
            acc = acc.wrapping_mul(1664525).wrapping_add(1013904223);
        }
        acc
    };
    (0..tasks).map(|b| (0..chunk).fold(0u32, |s, i| s.wrapping_add(word(b * chunk + i)))).collect()
}

fn u32s(h: &HostBuffers, name: &str) -> Vec<u32> {
    h[name].data.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn hetero(edits: &[(&str, &str, &str)]) -> GpuConfig {
    config_with("qcache_hetero", edits)
}

fn run_mode(mode: &str, launch_file: &str, extra: &[(&str, &str, &str)]) -> (GpuReport, HostBuffers) {
    let m = format!("\"{mode}\"");
    let mut edits = vec![("hooks.qcache.cpu", "mode", m.as_str())];
    edits.extend_from_slice(extra);
    let cfg = hetero(&edits);
    let l = launch(launch_file);
    run_capture(Gpu::new(&cfg).unwrap(), &l, RunOptions { max_cycles: Some(20_000_000), ..RunOptions::default() }).unwrap()
}

fn h(r: &GpuReport, k: &str) -> u64 {
    r.hooks.get(&format!("qcache.{k}")).copied().unwrap_or(0)
}

#[test]
fn explore() {
    let modes = std::env::var("QC_MODES").unwrap_or("serial,fusion,unbounded,finite,qcache".into());
    let lf = std::env::var("QC_LAUNCH").unwrap_or("qcache/reduce_rw2.toml".into());
    for mode in modes.split(',') {
        let t = std::time::Instant::now();
        let ed = std::env::var("QC_EDITS").unwrap_or_default();
        let edits: Vec<(&str, &str, &str)> = ed
            .split(';')
            .filter(|e| !e.is_empty())
            .map(|e| {
                let (t, kv) = e.split_once(':').unwrap();
                let (k, v) = kv.split_once('=').unwrap();
                (t, k, v)
            })
            .collect();
        let (r, _) = run_mode(mode, &lf, &edits);
        eprintln!(
            "{mode:10} cycles {:8} dram r/w {:6}/{:6} wb {:6} cpu dram {:5} consumed {:5} prod {:6} spill {:6} req {} acks {} gpuch {} state {:?} [{:.1}s]",
            r.cycles,
            r.dram.reads,
            r.dram.writes,
            r.llc.writebacks,
            h(&r, "cpu.dram_reads"),
            h(&r, "consumed"),
            h(&r, "produced"),
            h(&r, "spilled"),
            h(&r, "requests"),
            h(&r, "acks"),
            h(&r, "gpu_rate_changes"),
            r.hooks.keys().filter(|k| k.contains("final_state")).collect::<Vec<_>>(),
            t.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn every_queue_mode_consumes_the_reference_data() {
    let l = launch("qcache/reduce_rw2.toml");
    let host = l.materialize(1);
    let input = u32s(&host, "in");
    let want = reference_sums(&input, 256, 1024, 2, 0);
    for mode in ["serial", "fusion", "unbounded", "finite", "qcache"] {
        let (r, out) = run_mode(mode, "qcache/reduce_rw2.toml", &[]);
        assert_eq!(u32s(&out, "sums"), want, "mode {mode}");
        if mode != "fusion" {
            assert_eq!(h(&r, "cpu.tasks"), 256, "mode {mode}");
            assert_eq!(h(&r, "cpu.lines"), 256 * 1024 / 32, "mode {mode}");
        }
    }
}
