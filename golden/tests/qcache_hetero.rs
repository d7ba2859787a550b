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

#[test]
fn the_reference_comparison_catches_a_wrong_producer() {
    // planted bug: the consumers' sums against the reference of a producer with one
    // multiply-add more (as if the kernel's compute loop ran once too often)
    let l = launch("qcache/reduce_rw2.toml");
    let input = u32s(&l.materialize(1), "in");
    let (_, out) = run_mode("serial", "qcache/reduce_rw2.toml", &[]);
    assert_eq!(u32s(&out, "sums"), reference_sums(&input, 256, 1024, 2, 0));
    assert_ne!(u32s(&out, "sums"), reference_sums(&input, 256, 1024, 2, 1));
    assert_ne!(u32s(&out, "sums"), reference_sums(&input, 256, 1024, 1, 0));
}

#[test]
fn cpu_reads_of_dirty_lines_reach_the_monitor_as_consumes() {
    for mode in ["serial", "unbounded"] {
        let (r, _) = run_mode(mode, "qcache/reduce_rw2.toml", &[]);
        let lines = 256 * 1024 / 32;
        // every line of the intermediate buffer is read once, from the L2 or from DRAM
        assert_eq!(h(&r, "cpu.llc_hits") + h(&r, "cpu.dram_reads"), lines, "{mode}");
        // a dirty line handed to a CPU is one CONSUME presented to the monitor
        assert!(h(&r, "cpu.consumed_dirty") > 0, "{mode}");
        assert_eq!(h(&r, "consumed"), h(&r, "cpu.consumed_dirty"), "{mode}");
        // every dirty write-back is a SPILL, and a line read from DRAM was spilled
        // before (the buffer starts as zeros written by nobody: only spills reach DRAM)
        assert_eq!(h(&r, "spilled"), r.llc.writebacks, "{mode}");
        assert!(h(&r, "cpu.dram_reads") <= r.llc.writebacks, "{mode}");
    }
}

#[test]
fn the_finite_queue_bounds_the_footprint_and_the_unbounded_queue_spills() {
    // hand bound: 8 chunks x 32 lines of output plus their 2 x 32 input lines each is
    // 768 lines, well inside the 2048-line L2, so the finite queue cannot spill output;
    // the unbounded producer writes 8192 lines 2.2x faster than two consumers read them
    let (fin, _) = run_mode("finite", "qcache/reduce_rw2.toml", &[("hooks.qcache.cpu", "cap_tasks", "8")]);
    let (unb, _) = run_mode("unbounded", "qcache/reduce_rw2.toml", &[]);
    assert_eq!(h(&fin, "cpu.dram_reads"), 0);
    assert!(fin.llc.writebacks < 64, "finite: {} write-backs", fin.llc.writebacks);
    assert!(unb.llc.writebacks > 8192 / 2, "unbounded: {} write-backs", unb.llc.writebacks);
    assert!(fin.cycles < unb.cycles);
}

#[test]
fn qcache_slows_the_gpu_producer_and_cuts_the_spills() {
    let (q, _) = run_mode("qcache", "qcache/reduce_rw2.toml", &[]);
    let (unb, _) = run_mode("unbounded", "qcache/reduce_rw2.toml", &[]);
    assert!(h(&q, "gpu_rate_changes") > 0);
    assert_eq!(h(&unb, "gpu_rate_changes"), 0, "without Q-cache every request is NACKed");
    assert!(h(&unb, "requests") > 0, "the monitor still runs and asks");
    assert!(q.llc.writebacks * 10 < unb.llc.writebacks, "{} vs {}", q.llc.writebacks, unb.llc.writebacks);
    assert!(q.cycles < unb.cycles);
}

#[test]
fn cpu_dvfs_moves_between_p_states_and_nacks_at_the_limits() {
    use golden::qcache::cpu::{CpuCluster, CpuConfig, RawCpu};
    let cfg = CpuConfig::validate(RawCpu::default()).unwrap();
    let mut c = CpuCluster::new(&cfg, 700);
    assert_eq!(c.cores[0].mhz, 3500);
    assert!(!c.dvfs(0, false, 0x20), "speed-up at 3500 MHz is NACKed (spec 1.8)");
    // slow by 2.0: 1750 MHz is closest to 1880 (130 away; 1340 is 410 away)
    assert!(c.dvfs(0, true, 0x20));
    assert_eq!(c.cores[0].mhz, 1880);
    // slow by 1.125: 1671 is closest to 1880 itself, so one P-state down
    assert!(c.dvfs(0, true, 0x12));
    assert_eq!(c.cores[0].mhz, 1340);
    assert!(c.dvfs(0, true, 0xff));
    assert_eq!(c.cores[0].mhz, 800);
    assert!(!c.dvfs(0, true, 0x20), "slow at 800 MHz is NACKed");
    c.restore();
    assert_eq!(c.cores[0].mhz, 3500);
}
