//! The event-energy model on the GPU (issue 8 item 5): each `[energy]` constant is wired
//! to the right counter, static energy is power x time, a mesh run spends NoC energy in
//! proportion to flit hops, and a bad `[energy]` table is rejected naming the field.
//!
//! Expected values are written here from the report's counters and the config by hand,
//! one formula per event, independently of `golden::gpu::sim::energy`'s table.

use crate::gpu_common;

use golden::energy::EnergyTable;
use golden::gpu::sim::{energy, run, RunOptions};
use golden::gpu::{GpuConfig, GpuReport};
use gpu_common::*;

/// A table with every constant 0 but `field` = 1.
fn only(field: &str) -> EnergyTable {
    let mut v = serde_json::to_value(EnergyTable::default()).unwrap();
    for (k, x) in v.as_object_mut().unwrap().iter_mut() {
        *x = serde_json::json!(if k == field { 1.0 } else { 0.0 });
    }
    serde_json::from_value(v).unwrap()
}

/// The dynamic energy (pJ) that `field` = 1 pJ must give, from the counters.
fn expected_pj(field: &str, cfg: &GpuConfig, r: &GpuReport) -> f64 {
    let lanes = r.thread_insts as f64 / r.warp_insts as f64;
    let line_bits = 8.0 * cfg.l1.line_bytes as f64;
    let flit_bits = cfg.network.flit_width as f64;
    match field {
        "warp_inst_pj" => r.warp_insts as f64,
        "thread_inst_pj" => r.thread_insts as f64,
        "int_op_pj" => r.issue.by_class[0] as f64 * lanes,
        "fp32_op_pj" => r.issue.by_class[1] as f64 * lanes,
        "fp64_op_pj" => r.issue.by_class[2] as f64 * lanes,
        "sfu_op_pj" => r.issue.by_class[3] as f64 * lanes,
        "l1_access_pj" => (r.l1.read_accesses + r.l1.writes + r.l1.atomics) as f64,
        "shmem_access_pj" => (r.shmem.accesses + r.shmem.conflict_cycles) as f64,
        "llc_access_pj" => (r.llc.reads + r.llc.writes + r.llc.atomics + r.llc.fills) as f64,
        "dram_activate_pj" => r.dram.activates as f64 * cfg.dram.row_bytes as f64 / 4096.0,
        "dram_bit_pj" => (r.dram.reads + r.dram.writes) as f64 * line_bits,
        "router_bit_pj" | "link_bit_pj" => r.noc.stats.flit_hops_sum as f64 * flit_bits,
        _ => 0.0,
    }
}

fn sim(cfg: &GpuConfig, launch: &str) -> GpuReport {
    run(cfg, &gpu_common::launch(launch), RunOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Every event constant, alone at 1 pJ, gives exactly its counter's energy.
fn check_wiring(cfg: &GpuConfig, r: &GpuReport, expected: impl Fn(&str, &GpuConfig, &GpuReport) -> f64) -> Result<(), String> {
    for (field, _) in EnergyTable::default().fields() {
        if field.ends_with("_w") {
            continue;
        }
        let mut c = cfg.clone();
        c.energy = only(field);
        let e = energy(&c, r);
        let want = expected(field, cfg, r) / 1000.0;
        if (e.dynamic_nj - want).abs() > 1e-9 * want.max(1.0) {
            return Err(format!("{field}: {} nJ, expected {want} nJ", e.dynamic_nj));
        }
    }
    Ok(())
}

#[test]
fn every_energy_constant_is_charged_to_its_own_counter() {
    // a mesh network (flit hops), shared memory and barriers (reduce), fp32 and memory
    let cfg = config_with("macro_16", &[("network", "kind", "\"mesh\"")]);
    for launch in ["reduce/reduce.toml", "saxpy/saxpy.toml", "backprop/backprop.toml"] {
        let r = sim(&cfg, launch);
        assert!(r.checks_passed(), "{launch}");
        check_wiring(&cfg, &r, expected_pj).unwrap_or_else(|e| panic!("{launch}: {e}"));
    }
}

#[test]
fn a_constant_charged_to_the_wrong_counter_is_caught() {
    // the planted bug: LLC accesses charged at the L1 count
    let cfg = config("tiny");
    let r = sim(&cfg, "saxpy/saxpy.toml");
    let planted = |f: &str, c: &GpuConfig, r: &GpuReport| if f == "llc_access_pj" { expected_pj("l1_access_pj", c, r) } else { expected_pj(f, c, r) };
    let err = check_wiring(&cfg, &r, planted).expect_err("a swapped counter must be caught");
    assert!(err.starts_with("llc_access_pj"), "{err}");
}

#[test]
fn static_energy_is_static_power_times_run_time() {
    let mut cfg = config("tiny");
    cfg.energy = only("none");
    cfg.energy.sm_static_w = 2.0;
    cfg.energy.mem_static_w = 3.0;
    let r = sim(&cfg, "vecadd/vecadd.toml");
    let seconds = r.cycles as f64 / (cfg.clock_mhz as f64 * 1e6);
    let want_nj = (2.0 * cfg.sms as f64 + 3.0 * cfg.mem_nodes as f64) * seconds * 1e9;
    assert!((r.energy.static_nj - want_nj).abs() < 1e-9 * want_nj, "{} vs {want_nj}", r.energy.static_nj);
    assert_eq!(r.energy.dynamic_nj, 0.0);
    assert!((r.energy.mean_power_w - (2.0 * cfg.sms as f64 + 3.0 * cfg.mem_nodes as f64)).abs() < 1e-9);
}

/// Throttled SMs (the Q-cache actuators' controls): a drained SM without CTAs is
/// power-gated and a slower clock runs at a lower voltage, V(x) = 1 - 0.42 (1 - x), with
/// leakage following V. By hand on `tiny` (2 SMs, 2 W each here; partitions 3 W): SM 1
/// drained from the start never gets a CTA, so the run draws SM 0 and the partitions
/// only; SM 0 at half clock besides draws 1 - 0.42 x 0.5 = 0.79 of its 2 W while it has
/// CTAs (and the full 2 W x 0.79 as it is never drained).
#[test]
fn throttled_sms_draw_less_static_power() {
    use golden::gpu::hooks::SmThrottle;
    let mut cfg = config("tiny");
    cfg.energy = only("none");
    cfg.energy.sm_static_w = 2.0;
    cfg.energy.mem_static_w = 3.0;
    let l = launch("vecadd/vecadd.toml");
    let run_with = |t0: SmThrottle, t1: SmThrottle| {
        let mut gpu = golden::gpu::sim::Gpu::new(&cfg).unwrap();
        gpu.throttle = vec![t0, t1];
        golden::gpu::sim::run_capture(gpu, &l, RunOptions::default()).unwrap().0
    };
    let drained = SmThrottle { dispatch: false, ..SmThrottle::FULL };
    let r = run_with(SmThrottle::FULL, drained);
    let seconds = r.cycles as f64 / (cfg.clock_mhz as f64 * 1e6);
    let want_nj = (2.0 + 3.0 * cfg.mem_nodes as f64) * seconds * 1e9;
    assert!((r.energy.static_nj - want_nj).abs() < 1e-9 * want_nj, "{} vs {want_nj}", r.energy.static_nj);
    assert_eq!(r.per_sm[1].warp_insts, 0, "the drained SM ran nothing");
    let half = SmThrottle { dispatch: true, clock_num: 1, clock_den: 2 };
    let r = run_with(half, drained);
    let seconds = r.cycles as f64 / (cfg.clock_mhz as f64 * 1e6);
    let want_nj = (2.0 * 0.79 + 3.0 * cfg.mem_nodes as f64) * seconds * 1e9;
    assert!((r.energy.static_nj - want_nj).abs() < 1e-9 * want_nj, "{} vs {want_nj}", r.energy.static_nj);
    // full throttles: every SM's full static power, as before (the test above)
    let r = run_with(SmThrottle::FULL, SmThrottle::FULL);
    let seconds = r.cycles as f64 / (cfg.clock_mhz as f64 * 1e6);
    let want_nj = (2.0 * 2.0 + 3.0 * cfg.mem_nodes as f64) * seconds * 1e9;
    assert!((r.energy.static_nj - want_nj).abs() < 1e-9 * want_nj, "{} vs {want_nj}", r.energy.static_nj);
}

#[test]
fn vecadd_reads_at_least_its_inputs_from_dram() {
    // independent lower bound: a and b (n floats each) come from a cold DRAM once at
    // least, so the DRAM bit energy at 1 pJ/bit is at least 2 x n x 32
    let mut cfg = config("tiny");
    cfg.energy = only("dram_bit_pj");
    let r = sim(&cfg, "vecadd/vecadd.toml");
    let n = 10_000.0;
    assert!(r.energy.dynamic_nj * 1000.0 >= 2.0 * n * 32.0, "{:?}", r.energy);
}

#[test]
fn an_ideal_network_spends_nothing_and_a_mesh_spends_per_flit_hop() {
    let ideal = config("macro_16");
    let mesh = config_with("macro_16", &[("network", "kind", "\"mesh\"")]);
    let (ri, rm) = (sim(&ideal, "vecadd/vecadd.toml"), sim(&mesh, "vecadd/vecadd.toml"));
    assert_eq!(ri.energy.parts.get(&golden::energy::Part::Noc).copied().unwrap_or(0.0), 0.0);
    let noc = rm.energy.parts[&golden::energy::Part::Noc];
    // every delivered packet crosses at least one router, so flit hops >= flits
    assert!(rm.noc.stats.flit_hops_sum >= rm.noc.stats.flits_delivered && rm.noc.stats.flits_delivered > 0);
    let t = &mesh.energy;
    let want = rm.noc.stats.flit_hops_sum as f64 * mesh.network.flit_width as f64 * (t.router_bit_pj + t.link_bit_pj) / 1000.0;
    assert!((noc - want).abs() < 1e-9 * want, "{noc} vs {want}");
}

#[test]
fn a_bad_energy_table_names_the_field_and_the_range() {
    let path = config_path("tiny");
    let text = std::fs::read_to_string(&path).unwrap();
    let e = GpuConfig::parse(&path, &format!("{text}\n[energy]\ndram_bit_pj = -4.0\n")).unwrap_err().to_string();
    assert!(e.contains("energy.dram_bit_pj") && e.contains("0..="), "{e}");
    let e = GpuConfig::parse(&path, &format!("{text}\n[energy]\ndram_bits_pj = 4.0\n")).unwrap_err().to_string();
    assert!(e.contains("dram_bits_pj"), "{e}");
    let ok = GpuConfig::parse(&path, &format!("{text}\n[energy]\ndram_bit_pj = 14.0\n")).unwrap();
    assert_eq!(ok.energy.dram_bit_pj, 14.0);
    assert_eq!(ok.energy.llc_access_pj, EnergyTable::default().llc_access_pj);
}
