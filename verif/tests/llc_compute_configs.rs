//! Random legal LLC-Compute configurations (small meshes and OQs), each generated, built
//! by Verilator and its OQ co-simulated in lockstep under random legal chain traffic
//! with the spec §6.4 scoreboard on. 2 x 8 = 16 configurations per run (two tests so
//! both cores build); the knobs drawn: mesh size, MC placement, offload mode, LLC rule,
//! OQSR entries, warps, lanes, CPGU-busy policy, kept destination registers and the L1
//! tag latency.

mod common;

use golden::llc_compute::LlcCompute;
use hdl_gen::llc_compute::LlcDesign;
use proptest::prelude::*;
use verif::llc_compute::oq_bench;
use verif::lockstep::{self, Options};
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
    (mesh, knobs)
        .prop_flat_map(|((w, h), knobs)| {
            // 1..=3 distinct MCs, never every node (a mesh needs a core)
            let mcs = proptest::sample::subsequence((0..w * h).collect::<Vec<u32>>(), 1..=3usize.min((w * h - 1) as usize));
            (Just((w, h)), mcs, Just(knobs))
        })
        .prop_map(|((w, h), mcs, (mode, rule, entries, warps, lanes, busy, keep, tag_lat))| {
            let mcs: Vec<String> = mcs.iter().map(|n| format!("[{}, {}]", n % w, n / w)).collect();
            format!(
                "name = \"prop_{w}x{h}_m{}_{mode}_e{entries}_w{warps}_l{lanes}\"\n[llc_compute]\nmesh = [{w}, {h}]\nmcs = [{}]\nmode = \"{mode}\"\n\
                 llc_rule = \"{rule}\"\n[llc_compute.oq]\nentries = {entries}\nwarps = {warps}\nlanes = {lanes}\ncpgu_busy_policy = \"{busy}\"\n\
                 keep_dst_regs = {keep}\nl1_tag_latency = {tag_lat}\n",
                mcs.len(),
                mcs.join(", ")
            )
        })
}

fn cosim(text: &str, seed: u64) -> Result<(), TestCaseError> {
    let (cfg, g) = common::from_text::<LlcCompute>(text);
    let d = common::design(&g, "oq");
    let LlcDesign::Oq { self_node } = d.kind::<LlcDesign>().unwrap() else { panic!("design `oq` is not an OQ") };
    // short runs: the quickest build (-O0) is cheaper than the cycles it would save
    let mut rtl = common::rtl_opt(d, Opt::Debug);
    let layout = rtl.layout.clone();
    let c = &cfg.config;
    let r = lockstep::run(&mut rtl, || oq_bench(c, self_node, &layout, seed).unwrap(), &Options::new(5_000, seed));
    prop_assert!(r.as_ref().is_ok_and(|r| r.checked), "{}\n{}", text, r.err().map(|e| e.to_string()).unwrap_or_default());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, max_shrink_iters: 4, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_configs_a_oq_cosims_in_lockstep(text in config_text(), seed in 0u64..1000) {
        cosim(&text, seed)?;
    }

    #[test]
    fn random_configs_b_oq_cosims_in_lockstep(text in config_text(), seed in 1000u64..2000) {
        cosim(&text, seed)?;
    }
}
