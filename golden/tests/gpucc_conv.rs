//! GPU-CC convolution end to end (spec §2.1, §2.2, §3, §4.3 items 9–10): the 3×3 and
//! 5×5 mappings run through the golden SM (network + units + memory), strict and
//! pipelined, watched by both scoreboards, compared with direct loops; the paper's
//! Table 1 experiment; deadlock detection.

use crate::gpucc_common;

use golden::gpucc::apps::ConvKernel;
use golden::gpucc::run::{run_app, run_app_with, GraphMutation, Outcome, RunOptions, RunOutput};
use golden::gpucc::GpuccConfig;

fn config(timing: &str, sms: u32, app: &str, image: u32) -> GpuccConfig {
    gpucc_common::parse_gpucc(&gpucc_common::paper_sm_with(timing, sms, "", Some((app, image))))
}

const STRICT: &str = "mode = \"strict\"";
const PIPELINED: &str = "mode = \"pipelined\"\nlat_int = 1\nlat_fp = 4";

fn checked(c: &GpuccConfig, opts: RunOptions) -> RunOutput {
    run_app_with(c, &RunOptions { check: true, ..opts }).unwrap()
}

#[test]
fn conv_interiors_are_bit_identical_to_the_same_order_loop() {
    for (app, r, taps) in [("conv3x3", 1, 9), ("conv5x5", 2, 25)] {
        for image in [64u32, 61] {
            let mut mems = Vec::new();
            for timing in [STRICT, PIPELINED] {
                let c = config(timing, 2, app, image);
                let o = checked(&c, RunOptions { seed: image as u64, ..RunOptions::default() });
                let rep = &o.report;
                assert!(o.violations.is_empty(), "{app} {image} {timing}: {}", o.violations[0]);
                assert_eq!(rep.outcome, Outcome::Done);
                assert_eq!(rep.check.compared, ((image - 2 * r) * (image - 2 * r)) as u64, "interior pixels, R-pixel border masked");
                assert!(rep.check.bit_identical_f32, "{rep}");
                assert_eq!(rep.check.tolerance_ulps, taps);
                assert!(rep.check.max_ulps_vs_f64 <= taps as f64, "{rep}");
                assert_eq!(rep.l1.out_of_range, 0);
                assert!(rep.pass, "{rep}");
                mems.push(o.memory);
            }
            assert!(mems[0] == mems[1], "{app} {image}: strict and pipelined write the same image");
        }
    }
}

#[test]
fn a_non_symmetric_kernel_is_applied_in_correlation_form() {
    // a positive but lopsided kernel catches any transposition of dx/dy
    for r in [1usize, 2] {
        let s = 2 * r + 1;
        let k = ConvKernel { r, k: (0..s * s).map(|i| (i as f32 + 1.0) / 37.0).collect() };
        let app = if r == 1 { "conv3x3" } else { "conv5x5" };
        let c = config(PIPELINED, 2, app, 37);
        let o = checked(&c, RunOptions { kernel: Some(k), ..RunOptions::default() });
        assert!(o.report.pass && o.violations.is_empty(), "{}", o.report);
    }
}

#[test]
fn paper_sm_resources_per_mapping() {
    let r3 = run_app(&config(PIPELINED, 1, "conv3x3", 32)).unwrap();
    assert_eq!((r3.mapping.cores_per_copy, r3.mapping.lsus_per_copy, r3.mapping.lanes_used, r3.copies_per_sm), (13, 4, 4, 2));
    assert_eq!(r3.instructions_fetched, 34);
    let r5 = run_app(&config(PIPELINED, 1, "conv5x5", 32)).unwrap();
    assert_eq!((r5.mapping.cores_per_copy, r5.mapping.lsus_per_copy, r5.copies_per_sm), (31, 6, 1));
    // spec §2.2's hand placement needs 5 lanes; the automatic placement needs 4
    assert_eq!(r5.mapping.lanes_used, 4);
    assert!(r3.pass && r5.pass);
}

/// The paper's Table 1 experiment: 3×3 Gaussian on a 512×512 fp32 image, 14 SMs,
/// 2 copies per SM, pipelined timing, memory defaults (spec §3.1).
///
/// Paper: 14.8 Gpixel/s and 89% of peak DRAM bandwidth (counting one read and one
/// write per pixel); spec-derived 0.435 pixel/cycle per copy; 476 instructions
/// fetched. We accept 0.8–1.2× of each rate (our memory model is not GPGPU-Sim's:
/// one FIFO DRAM channel, no L2, write combining), and the fetch count exactly.
#[test]
fn paper_table1_3x3_512_on_14_sms() {
    let c = config(PIPELINED, 14, "conv3x3", 512);
    let rep = run_app(&c).unwrap();
    println!("{rep}");
    assert!(rep.pass, "{rep}");
    assert_eq!(rep.instructions_fetched, 476, "17 units x 2 copies x 14 SMs");
    assert_eq!(rep.copies_with_work, 28);
    let (lo, hi) = (0.8 * 14.8, 1.2 * 14.8);
    assert!(rep.giga_items_per_s >= lo && rep.giga_items_per_s <= hi, "{} Gpixel/s outside {lo}..{hi}", rep.giga_items_per_s);
    assert!(rep.dram.utilisation_paper >= 0.8 * 0.89 && rep.dram.utilisation_paper <= 1.0, "{}", rep.dram.utilisation_paper);
    assert!(rep.items_per_cycle_per_copy >= 0.8 * 0.435 && rep.items_per_cycle_per_copy <= 1.2 * 0.435);
    // memory-bound: the model's DRAM channel is almost saturated
    assert!(rep.dram.utilisation_actual > 0.85, "{}", rep.dram.utilisation_actual);
}

/// 5×5 on the same chip: 1 copy per SM. Not in the paper (only "2.4× over an
/// optimised GPU kernel"). Each LD reads every address twice (issue pointer and
/// prefetch scan) through the one look-ahead port `gpucc_net` gives it, so a copy
/// tops out at 0.5 pixel/cycle: the 5×5 is port-bound here, not DRAM-bound (the
/// spec's §2.2 estimate of ~1 pixel/cycle/SM assumes a free scan).
#[test]
fn conv5x5_512_on_14_sms() {
    let c = config(PIPELINED, 14, "conv5x5", 512);
    let rep = run_app(&c).unwrap();
    println!("{rep}");
    assert!(rep.pass, "{rep}");
    assert_eq!(rep.instructions_fetched, 37 * 14);
    assert!(rep.items_per_cycle_per_sm > 0.4 && rep.items_per_cycle_per_sm <= 0.5, "{}", rep.items_per_cycle_per_sm);
}

#[test]
fn a_missing_initial_token_deadlocks_and_trips_the_watchdog() {
    for timing in [STRICT, PIPELINED] {
        let c = config(timing, 1, "conv3x3", 16);
        let o = checked(&c, RunOptions { graph_mutation: Some(GraphMutation::DropInitTokens("IADD_in".into())), ..RunOptions::default() });
        let rep = &o.report;
        // Nothing that depends on the input addresses ever fires; IADD_out still has
        // its token and emits its 7 rows x 16 = 112 addresses per copy into the ST's
        // address FIFO, one per cycle from the first RUN cycle (cycle config_cycles
        // + 1). The pulse shows the cycle after the 10,000th idle RUN cycle that
        // follows. The network scoreboard re-derives the trip cycle independently.
        let Outcome::Watchdog { sm: 0, cycle } = rep.outcome else { panic!("{rep}") };
        assert_eq!(rep.events.fires["IADD"], 2 * 112);
        assert_eq!(cycle, rep.config_cycles + 1 + 111 + 10_000 + 1, "{rep}");
        assert!(!rep.pass);
        assert!(o.violations.is_empty(), "the scoreboards agree on the trip: {:?}", o.violations);
        assert!(rep.to_string().contains("WATCHDOG on SM 0 at cycle"));
    }
}

#[test]
fn a_missing_fir_delay_token_is_caught_by_the_reference() {
    // without FMAD01's 0.0 token row 0 of the FIR is misaligned by one pixel: no
    // deadlock, wrong pixels
    let c = config(STRICT, 1, "conv3x3", 24);
    let o = checked(&c, RunOptions { graph_mutation: Some(GraphMutation::DropInitTokens("FMAD01".into())), ..RunOptions::default() });
    assert_eq!(o.report.outcome, Outcome::Done);
    assert!(o.report.check.mismatches_f32 > 0);
    assert!(!o.report.pass);
}

#[test]
fn runs_are_deterministic_and_reports_serialize() {
    let c = config(PIPELINED, 3, "conv3x3", 40);
    let a = run_app(&c).unwrap();
    let b = run_app(&c).unwrap();
    assert_eq!(a, b);
    let j = serde_json::to_value(&a).unwrap();
    assert_eq!(j["instructions_fetched"], 3 * 34);
    assert_eq!(j["outcome"]["status"], "done");
    assert!(j["dram"]["utilisation_paper"].as_f64().unwrap() > 0.0);
    assert!(j["events"]["fires"]["FMAD"].as_u64().unwrap() > 0);
    let text = a.to_string();
    assert!(text.contains("Gpixel/s") && text.contains("PASS"), "{text}");
}

#[test]
fn more_copies_than_rows_leave_idle_copies_unconfigured() {
    // 10x10 has 8 interior rows for 14 x 2 bands: 8 copies work, the rest stay off
    let rep = run_app(&config(STRICT, 14, "conv3x3", 10)).unwrap();
    assert!(rep.pass, "{rep}");
    assert_eq!(rep.copies_with_work, 8);
    assert_eq!(rep.sms_with_work, 4);
    assert_eq!(rep.instructions_fetched, 8 * 17);
}
