//! Random legal BDIB configurations (small sizes), each generated, built by Verilator
//! and co-simulated in lockstep under random legal traffic with the scoreboard on.
//! 2 x 8 = 16 configurations per run (two tests so both cores build).

use crate::common;

use golden::tfb_bdib::traffic::{BdibTraffic, TrafficParams};
use golden::tfb_bdib::TfbBdib;
use proptest::prelude::*;
use verif::lockstep::{self, Options};
use verif::tfb_bdib::bdib_bench;
use verif::verilator::Opt;

fn config_text() -> impl Strategy<Value = String> {
    (1u32..=5, 1u32..=5, 2u32..=4, 1u32..=3, 0u32..=4, prop_oneof![Just("p"), Just("g"), Just("f")], 1u32..=2).prop_map(|(warps, depth, reg_w, nsrc, extra, mode, nwarq)| {
        let instr_w = reg_w + 6 + extra;
        format!(
            "name = \"prop_n{warps}_d{depth}_r{reg_w}_s{nsrc}_i{instr_w}_{mode}_q{nwarq}\"\n[tfb_bdib]\nnum_warps = {warps}\ndepth = {depth}\n\
                 instr_w = {instr_w}\nreg_w = {reg_w}\nnsrc = {nsrc}\nmode = \"{mode}\"\nnwarq = {nwarq}\nschedulers = 2\n"
        )
    })
}

fn cosim(text: &str, seed: u64) -> Result<(), TestCaseError> {
    let (c, g) = common::from_text::<TfbBdib>(text);
    let c = c.config;
    // short runs: the quickest build (-O0) is cheaper than the cycles it would save
    let mut rtl = common::rtl_opt(common::design(&g, "bdib"), Opt::Debug);
    let layout = rtl.layout.clone();
    let r = lockstep::run(&mut rtl, || bdib_bench(&c, &layout, BdibTraffic::new(&c, TrafficParams::for_config(&c), seed)).unwrap(), &Options::new(5_000, seed));
    prop_assert!(r.is_ok(), "{}\n{}", text, r.err().map(|e| e.to_string()).unwrap_or_default());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::proptest_cases(4), max_shrink_iters: 4, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_configs_a_cosim_in_lockstep(text in config_text(), seed in 0u64..1000) {
        cosim(&text, seed)?;
    }

    #[test]
    fn random_configs_b_cosim_in_lockstep(text in config_text(), seed in 1000u64..2000) {
        cosim(&text, seed)?;
    }
}
