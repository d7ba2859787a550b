//! Random legal LLC-Compute configurations (small meshes, OQs and SQs), each generated,
//! built by Verilator and one of its queues co-simulated in lockstep under random legal
//! traffic with its spec §6.4 scoreboard on: the OQ in 2 x 5 configurations, the SQ at
//! an LLC partition in 3 and the SQ in a core in 3 (one test each, so both cores build).
//! The knobs drawn: mesh size, MC placement, offload mode, LLC rule, OQSR entries,
//! warps, lanes, CPGU-busy policy, kept destination registers, the L1 tag latency,
//! SQSR entries, buffer slots, ALU latency and the divider (on or off, its latency).

use crate::common;

use golden::llc_compute::config::LlcComputeConfig;
use golden::llc_compute::LlcCompute;
use hdl_gen::llc_compute::LlcDesign;
use proptest::prelude::*;
use verif::frame::Layout;
use verif::llc_compute::{oq_bench, sq_bench, sq_core_bench};
use verif::lockstep::{self, Bench, Options};
use verif::verilator::Opt;

fn config_text() -> impl Strategy<Value = String> {
    let mesh = (2u32..=4, 2u32..=4);
    let knobs = (
        prop_oneof![Just("llc"), Just("omni")],
        prop_oneof![Just("same_partition"), Just("emn_is_llc")],
        1u32..=8,
        1u32..=8,
        prop_oneof![Just(4u32), Just(8)],
        prop_oneof![Just("wait"), Just("run_normally")],
        any::<bool>(),
        1u32..=3,
    );
    // the SQ: SQSR entries, buffer slots, ALU latency, and the divider, whose latency is
    // never below the ALU's (a shorter one is refused: both would finish in one cycle)
    let sq = (1u32..=8, 1u32..=3, 1u32..=4, any::<bool>(), 0u32..=4);
    (mesh, knobs, sq)
        .prop_flat_map(|((w, h), knobs, sq)| {
            // 1..=3 distinct MCs, never every node (a mesh needs a core)
            let mcs = proptest::sample::subsequence((0..w * h).collect::<Vec<u32>>(), 1..=3usize.min((w * h - 1) as usize));
            (Just((w, h)), mcs, Just(knobs), Just(sq))
        })
        .prop_map(|((w, h), mcs, (mode, rule, entries, warps, lanes, busy, keep, tag_lat), (sq_entries, buffer, alu_lat, fdiv, fdiv_extra))| {
            let mcs: Vec<String> = mcs.iter().map(|n| format!("[{}, {}]", n % w, n / w)).collect();
            format!(
                "name = \"prop_{w}x{h}_m{}_{mode}_e{entries}_w{warps}_l{lanes}_s{sq_entries}b{buffer}a{alu_lat}{}\"\n[llc_compute]\nmesh = [{w}, {h}]\nmcs = [{}]\nmode = \"{mode}\"\n\
                 llc_rule = \"{rule}\"\n[llc_compute.oq]\nentries = {entries}\nwarps = {warps}\nlanes = {lanes}\ncpgu_busy_policy = \"{busy}\"\n\
                 keep_dst_regs = {keep}\nl1_tag_latency = {tag_lat}\n[llc_compute.sq]\nentries = {sq_entries}\nbuffer = {buffer}\nalu_latency = {alu_lat}\n\
                 fdiv = {fdiv}\nfdiv_latency = {}\n",
                mcs.len(),
                if fdiv { "_fdiv" } else { "" },
                mcs.join(", "),
                alu_lat + fdiv_extra,
            )
        })
}

/// Design `dir` of the config in `text`, built at -O0 (for 5,000 cycles the quickest
/// build is cheaper than the cycles it would save) and run 5,000 cycles in lockstep
/// with the bench `make` gives (the block's traffic and scoreboard for the design's
/// node); the scoreboard must have run.
fn lockstep_case<B: Bench>(text: &str, dir: &str, seed: u64, make: impl Fn(&LlcComputeConfig, u32, &Layout, u64) -> Result<B, String>) -> Result<(), TestCaseError> {
    let (cfg, g) = common::from_text::<LlcCompute>(text);
    let d = common::design(&g, dir);
    let node = match d.kind::<LlcDesign>().unwrap() {
        LlcDesign::Oq { self_node } | LlcDesign::SqCore { self_node } => self_node,
        _ => 0,
    };
    let mut rtl = common::rtl_opt(d, Opt::Debug);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let r = lockstep::run(&mut rtl, || make(c, node, &layout, seed).unwrap(), &Options::new(5_000, seed));
    prop_assert!(r.as_ref().is_ok_and(|r| r.checked), "{}\n{}", text, r.err().map(|e| e.to_string()).unwrap_or_default());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::proptest_cases(5), max_shrink_iters: 4, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_configs_a_oq_cosims_in_lockstep(text in config_text(), seed in 0u64..1000) {
        lockstep_case(&text, "oq", seed, oq_bench)?;
    }

    #[test]
    fn random_configs_b_oq_cosims_in_lockstep(text in config_text(), seed in 1000u64..2000) {
        lockstep_case(&text, "oq", seed, oq_bench)?;
    }
}

// the SQs build eight times longer than the OQ (the SIMD ALU): fewer cases each run
proptest! {
    #![proptest_config(ProptestConfig { cases: common::proptest_cases(3), max_shrink_iters: 4, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_configs_sq_cosims_in_lockstep(text in config_text(), seed in 2000u64..3000) {
        lockstep_case(&text, "sq", seed, |c, _, l, s| sq_bench(c, l, s))?;
    }

    #[test]
    fn random_configs_core_sq_cosims_in_lockstep(text in config_text(), seed in 3000u64..4000) {
        lockstep_case(&text, "sq_core", seed, sq_core_bench)?;
    }
}
