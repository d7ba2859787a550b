//! Random legal GPU-CC configurations, each generated, built by Verilator and
//! co-simulated in lockstep under random traffic with the scoreboard on.
//! 2 x 5 = 10 configurations per run (two tests so both cores build; `PROPTEST_CASES`
//! sets each test's count).

use crate::common;

use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use proptest::prelude::*;
use verif::gpucc::net_bench;
use verif::lockstep::{self, Options};
use verif::verilator::Opt;

fn config_text() -> impl Strategy<Value = String> {
    (
        1u32..=4,
        proptest::collection::vec(prop_oneof![Just("core"), Just("lsu")], 1..=3),
        1u32..=5,
        prop_oneof![Just(8u32), Just(16), Just(32), Just(64)],
        2u32..=9,
        2u32..=13,
        2u32..=5,
        8u32..=300,
    )
        .prop_filter("at least 2 positions", |(s, sl, ..)| s * sl.len() as u32 >= 2)
        .prop_map(|(slices, slice, lanes, w, core, addr, data, wdog)| {
            let slice = slice.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", ");
            format!(
                "name = \"prop_s{slices}_l{lanes}_w{w}_c{core}_a{addr}_d{data}_wd{wdog}\"\n[gpucc]\nslices = {slices}\nslice = [{slice}]\n\
                 lanes = {lanes}\ndata_width = {w}\ncore_fifo_depth = {core}\nlsu_addr_depth = {addr}\nlsu_data_depth = {data}\nwatchdog = {wdog}\n"
            )
        })
}

fn cosim(text: &str, seed: u64) -> Result<(), TestCaseError> {
    let (c, d) = common::gpucc_text(text);
    // short runs: the quickest build (-O0) is cheaper than the cycles it would save
    let mut rtl = common::rtl_opt(&d, Opt::Debug);
    let layout = rtl.layout.clone();
    let params = TrafficParams { run_cycles: (30, 600), ..TrafficParams::default() };
    let r = lockstep::run(&mut rtl, || net_bench(&c, &layout, NetTraffic::new(&c, seed, params)).unwrap(), &Options::new(6_000, seed));
    prop_assert!(r.is_ok(), "{}\n{}", text, r.err().map(|e| e.to_string()).unwrap_or_default());
    Ok(())
}

proptest! {
    // past failures (the regressions file, found from the package root where cargo and
    // nextest run integration tests) are replayed before the new random cases
    #![proptest_config(ProptestConfig {
        cases: common::proptest_cases(5),
        max_shrink_iters: 8,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/gpucc_configs.proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_configs_a(text in config_text(), seed in any::<u64>()) {
        cosim(&text, seed)?;
    }

    #[test]
    fn random_configs_b(text in config_text(), seed in any::<u64>()) {
        cosim(&text, seed)?;
    }
}

/// Found by `random_configs_b`: one LSU with a 2-deep address FIFO has a 1-bit
/// look-ahead port, which was declared as a scalar and then indexed.
#[test]
fn one_lsu_with_a_one_bit_look_ahead_index() {
    let text = "name = \"prop_s1_l5_w16_c3_a2_d3_wd185\"\n[gpucc]\nslices = 1\nslice = [\"core\", \"lsu\"]\nlanes = 5\ndata_width = 16\n\
                core_fifo_depth = 3\nlsu_addr_depth = 2\nlsu_data_depth = 3\nwatchdog = 185\n";
    cosim(text, 1).unwrap();
}
