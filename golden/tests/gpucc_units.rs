//! GPU-CC functional units, LSUs and memory model composed in an SM (spec §1.6–1.8):
//! timing rules, token-identical timing modes, LSU ordering, prefetch, last_only,
//! and the unit-side invariants of spec §4.3 — each checker shown to fail on a
//! planted bug.

use crate::gpucc_common;

use golden::gpucc::check::Violation;
use golden::gpucc::config::UnitKind;
use golden::gpucc::cr::op;
use golden::gpucc::fu::FuMutation;
use golden::gpucc::lsu::LsuMutation;
use golden::gpucc::mapper::{self, AppGraph, Node, Operand};
use golden::gpucc::mem::{Backing, MemMutation, MemSystem};
use golden::gpucc::run::{run_app_with, RunOptions, RunOutput};
use golden::gpucc::sm::{CcSm, SmOutcome};
use golden::gpucc::unit_check::UnitChecker;
use golden::gpucc::GpuccConfig;

/// The paper SM (16 slices of core, core, LSU; 5 lanes; 16/256/16), with knobs.
fn config(timing: &str, sms: u32, app: Option<(&str, u32)>, extra: &str) -> GpuccConfig {
    gpucc_common::parse_gpucc(&gpucc_common::paper_sm_with(timing, sms, extra, app))
}

const STRICT: &str = "mode = \"strict\"";
const PIPELINED: &str = "mode = \"pipelined\"\nlat_int = 1\nlat_fp = 4";

fn checked(c: &GpuccConfig, opts: RunOptions) -> RunOutput {
    run_app_with(c, &RunOptions { check: true, ..opts }).unwrap()
}

fn invariants(v: &[Violation]) -> Vec<&'static str> {
    let mut k: Vec<&'static str> = v.iter().map(|x| x.invariant).collect();
    k.dedup();
    k
}

/// Run hand-made graphs on one SM with both scoreboards; returns the SM, the final
/// memory, the outcome and every violation.
fn run_graphs(c: &GpuccConfig, graphs: &[AppGraph], mem: Backing) -> (CcSm, Backing, SmOutcome, Vec<Violation>) {
    let pl = mapper::place(&graphs[0], c).unwrap();
    let words = mapper::encode(c, &pl, graphs).unwrap();
    let mut m = MemSystem::new(&c.memory, 1, c.n_lsu(), mem.clone());
    let mut sm = CcSm::new(c, 0, &words).with_net_checker();
    let mut uc = UnitChecker::new(c, 1, &mem);
    let mut now = 0;
    while sm.outcome().is_none() {
        assert!(now < 1_000_000, "runaway");
        m.tick(now);
        sm.eval(now, &m);
        uc.observe(0, sm.trace(), now);
        sm.commit(now, &mut m);
        now += 1;
    }
    uc.finish(m.backing(), now);
    let mut v: Vec<Violation> = sm.net_checker.as_ref().unwrap().violations().to_vec();
    v.extend(uc.violations().iter().cloned());
    let out = sm.outcome().unwrap();
    (sm, m.backing().clone(), out, v)
}

/// A SELF-loop address counter streaming into a store of the address itself:
/// mem[a] = a for `n` words from `base`.
fn counter_store(base: u32, n: u32) -> AppGraph {
    let mut g = AppGraph::new("counter");
    let a = g.add(Node::new("CNT", UnitKind::Core, op::IADD).imm(4).input(0, Operand::SelfLoop).input(1, Operand::Imm).init(0, 1, base - 4).fire_count(n));
    g.add(Node::new("ST", UnitKind::Lsu, op::ST).input(0, Operand::Node(a)).input(1, Operand::Node(a)).fire_count(n));
    g
}

#[test]
fn strict_self_loop_fires_every_cycle_and_stops_at_fire_count() {
    let c = config(STRICT, 1, None, "");
    let n = 500;
    let (sm, mem, out, v) = run_graphs(&c, &[counter_store(4096, n)], Backing::new(vec![0; 16384]));
    assert!(v.is_empty(), "{}", v[0]);
    assert!(matches!(out, SmOutcome::Done { .. }));
    for i in 0..n {
        let a = 4096 + 4 * i;
        assert_eq!(mem.read32(a), Some(a));
    }
    assert_eq!(mem.read32(4096 + 4 * n), Some(0), "exactly fire_count stores");
    // one token per cycle: RUN lasts n firings, the hop to the ST, and the wait for
    // the last write acknowledge (at least l1_latency)
    let run = sm.events.run_cycles;
    assert!(run >= n as u64 + 20 && run <= n as u64 + 30, "{run} RUN cycles for {n} tokens");
    assert_eq!(sm.events.fires[op::IADD as usize], n as u64);
    assert_eq!(sm.events.fires[op::ST as usize], n as u64);
}

#[test]
fn pipelined_self_loop_carries_one_token_per_lat_cycles() {
    for lat in [1u64, 2, 3, 5] {
        let c = config(&format!("mode = \"pipelined\"\nlat_int = {lat}\nlat_fp = 4"), 1, None, "");
        let n = 200;
        let (sm, mem, _, v) = run_graphs(&c, &[counter_store(4096, n)], Backing::new(vec![0; 16384]));
        assert!(v.is_empty(), "lat {lat}: {}", v[0]);
        assert_eq!(mem.read32(4096 + 4 * (n - 1)), Some(4096 + 4 * (n - 1)));
        let run = sm.events.run_cycles;
        assert!(run >= lat * n as u64 + 20 && run <= lat * n as u64 + lat + 30, "lat {lat}: {run} RUN cycles for {n} tokens");
    }
}

#[test]
fn timing_modes_and_latencies_give_identical_tokens() {
    // conv5x5 exercises FMUL/FMAD/FADD chains, initial tokens and all LSU paths
    let mut images = Vec::new();
    for timing in [STRICT.to_string(), PIPELINED.to_string(), "mode = \"pipelined\"\nlat_int = 2\nlat_fp = 1".into(), "mode = \"pipelined\"\nlat_int = 1\nlat_fp = 7".into()] {
        let c = config(&timing, 1, Some(("conv5x5", 29)), "");
        let o = checked(&c, RunOptions::default());
        assert!(o.report.pass, "{timing}: {}", o.report);
        images.push((timing, o.memory, o.report.cycles));
    }
    for (t, m, _) in &images[1..] {
        assert!(m == &images[0].1, "{t} differs from strict");
    }
    // only the timing differs
    let cycles: std::collections::BTreeSet<u64> = images.iter().map(|x| x.2).collect();
    assert!(cycles.len() > 1, "{cycles:?}");
}

#[test]
fn last_only_sends_just_the_final_sum() {
    let c = config(PIPELINED, 2, Some(("reduce", 1001)), "");
    let o = checked(&c, RunOptions::default());
    assert!(o.report.pass, "{}", o.report);
    let copies = o.report.copies_with_work as u64;
    assert_eq!(copies, 16, "8 copies per SM on 2 SMs");
    assert_eq!(o.report.events.fires["ST"], copies, "one store per copy");
    assert_eq!(o.report.events.fires["FADD"], 1001, "every element accumulated (SELF gets every result)");
}

#[test]
fn saxpy_and_vecadd_run_correctly_in_both_modes() {
    for timing in [STRICT, PIPELINED] {
        for app in ["saxpy", "vecadd"] {
            let c = config(timing, 2, Some((app, 3001)), "");
            let o = checked(&c, RunOptions::default());
            assert!(o.report.pass, "{app} {timing}: {}", o.report);
            assert_eq!(o.report.copies_per_sm, 5);
        }
    }
}

#[test]
fn prefetch_changes_timing_not_results() {
    let on = config(PIPELINED, 1, Some(("vecadd", 8192)), "");
    let off = config(PIPELINED, 1, Some(("vecadd", 8192)), "[gpucc.lsu]\nmax_inflight = 32\nprefetch = false");
    let a = checked(&on, RunOptions::default());
    let b = checked(&off, RunOptions::default());
    assert!(a.report.pass && b.report.pass, "{}\n{}", a.report, b.report);
    assert!(a.memory == b.memory);
    assert_eq!(b.report.l1.prefetch_requests, 0);
    assert!(a.report.l1.prefetch_fills > 0);
    assert!(a.report.l1.hit_rate > b.report.l1.hit_rate);
    assert!(a.report.cycles < b.report.cycles, "prefetching hides DRAM latency: {} vs {}", a.report.cycles, b.report.cycles);
}

#[test]
fn one_load_in_flight_is_slow_but_correct() {
    let c = config(PIPELINED, 1, Some(("conv3x3", 20)), "[gpucc.lsu]\nmax_inflight = 1\nprefetch = true");
    let o = checked(&c, RunOptions::default());
    assert!(o.report.pass, "{}", o.report);
    let fast = checked(&config(PIPELINED, 1, Some(("conv3x3", 20)), ""), RunOptions::default());
    assert!(o.memory == fast.memory);
    assert!(o.report.cycles > 2 * fast.report.cycles);
}

#[test]
fn tiny_fifos_still_flow() {
    // the smallest legal FIFOs (depth 2; a full FIFO refuses a push even when
    // popped) slow the pipeline but cannot deadlock it
    let c = config(STRICT, 1, Some(("conv3x3", 16)), "");
    let mut t = c.clone();
    t.core_fifo_depth = 2;
    t.lsu_data_depth = 2;
    t.lsu_addr_depth = 2;
    let o = checked(&t, RunOptions::default());
    assert!(o.report.pass, "{}", o.report);
}

// ---------------------------------------------------------------------------
// Planted bugs: each checker must fail.

fn small_conv(timing: &str) -> GpuccConfig {
    config(timing, 1, Some(("conv3x3", 24)), "")
}

#[test]
fn clean_runs_have_no_violations() {
    for timing in [STRICT, PIPELINED] {
        let o = checked(&small_conv(timing), RunOptions::default());
        assert!(o.violations.is_empty() && o.report.pass, "{}", o.report);
    }
}

#[test]
fn planted_ld_pop_at_issue_breaks_the_lsu_invariant() {
    let o = checked(&small_conv(STRICT), RunOptions { lsu_mutation: Some(LsuMutation::LdPopAtIssue), ..RunOptions::default() });
    assert!(invariants(&o.violations).contains(&"7 LSU semantics"), "{:?}", o.violations);
    assert!(o.violations.iter().any(|v| v.detail.contains("address pop")), "{}", o.violations[0]);
    assert!(!o.report.pass);
}

#[test]
fn planted_stale_store_data_breaks_store_order_and_the_reference() {
    let o = checked(&small_conv(PIPELINED), RunOptions { lsu_mutation: Some(LsuMutation::StoreStaleData), ..RunOptions::default() });
    assert!(invariants(&o.violations).contains(&"7 LSU semantics"));
    assert!(!o.report.check.bit_identical_f32);
}

#[test]
fn planted_prefetch_that_writes_memory_is_caught() {
    let o = checked(&small_conv(PIPELINED), RunOptions { mem_mutation: Some(MemMutation::PrefetchClobbers), ..RunOptions::default() });
    let v = &o.violations;
    assert!(v.iter().any(|x| x.detail.contains("final memory differs")), "{v:?}");
    assert!(!o.report.pass);
}

#[test]
fn planted_prefetch_outside_run_breaks_mode_isolation() {
    let o = checked(&small_conv(STRICT), RunOptions { lsu_mutation: Some(LsuMutation::PrefetchOutsideRun), ..RunOptions::default() });
    assert!(invariants(&o.violations).contains(&"8 mode isolation"), "{:?}", o.violations);
}

#[test]
fn planted_firing_past_fire_count_breaks_the_firing_rule() {
    let o = checked(&small_conv(STRICT), RunOptions { fu_mutation: Some(FuMutation::FireBeyondCount), ..RunOptions::default() });
    assert!(invariants(&o.violations).contains(&"4 firing rule"), "{:?}", o.violations);
}

#[test]
fn planted_unfused_fmad_fails_the_reference() {
    // 5x5 binomial coefficients (6/256, 36/256, ...) make products inexact, so a
    // second rounding shows; the scoreboards see nothing wrong (values are not
    // their business).
    let c = config(PIPELINED, 1, Some(("conv5x5", 24)), "");
    let o = checked(&c, RunOptions { fu_mutation: Some(FuMutation::FmadUnfused), ..RunOptions::default() });
    assert!(o.violations.is_empty(), "{:?}", o.violations);
    assert!(!o.report.check.bit_identical_f32, "{}", o.report);
    assert!(!o.report.pass);
}
