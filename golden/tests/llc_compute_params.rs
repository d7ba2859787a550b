//! Random legal `[llc_compute]` parameters (16 cases, small sizes): every golden model
//! under random traffic with its scoreboard, drained without leaks.

use golden::llc_compute::sim::{run_oq, run_sq, run_sq_core, sample_core};
use golden::llc_compute::LlcCompute;
use proptest::prelude::*;

/// The config text of one case (a helper of the generator, so it takes every knob).
#[allow(clippy::too_many_arguments)]
fn config(w: u32, h: u32, mcs: &[(u32, u32)], oq: u32, warps: u32, lanes: u32, sq: u32, buf: u32, lat: u32, mode: &str) -> String {
    let mcs: Vec<String> = mcs.iter().map(|(x, y)| format!("[{x}, {y}]")).collect();
    format!(
        "name = \"p\"\n[llc_compute]\nmesh = [{w}, {h}]\nmcs = [{}]\nmode = \"{mode}\"\n[llc_compute.oq]\nentries = {oq}\nwarps = {warps}\nlanes = {lanes}\n[llc_compute.sq]\nentries = {sq}\nbuffer = {buf}\nalu_latency = {lat}\nsmem_aw = 10\n",
        mcs.join(", ")
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
    #[test]
    fn random_parameters_hold_every_invariant(
        w in 2u32..=4, h in 2u32..=4, n_mc in 1usize..=3, pick in any::<u64>(),
        oq in 1u32..=8, warps in 1u32..=12, lanes_i in 0usize..4, sq in 1u32..=10, buf in 1u32..=4, lat in 1u32..=5,
        llc in any::<bool>(), seed in any::<u64>(),
    ) {
        // distinct MC nodes chosen from the mesh by `pick`
        let mut nodes: Vec<(u32, u32)> = (0..w * h).map(|i| (i % w, i / w)).collect();
        let mut mcs = Vec::new();
        let mut p = pick;
        for _ in 0..n_mc.min(nodes.len() - 1) {
            let k = (p % nodes.len() as u64) as usize;
            p /= 7;
            mcs.push(nodes.remove(k));
        }
        let text = config(w, h, &mcs, oq, warps, [4, 8, 16, 32][lanes_i], sq, buf, lat, if llc { "llc" } else { "omni" });
        let c = golden::block::parse::<LlcCompute>(std::path::Path::new("p.toml"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?.config;
        let core = sample_core(&c);
        run_oq(&c, core, 3_000, seed, |_, _| {}).map_err(|v| TestCaseError::fail(format!("oq: {v}\n{text}")))?;
        run_sq(&c, 3_000, seed, |_| {}).map_err(|v| TestCaseError::fail(format!("sq: {v}\n{text}")))?;
        run_sq_core(&c, core, 3_000, seed, |_| {}).map_err(|v| TestCaseError::fail(format!("sq_core: {v}\n{text}")))?;
    }
}
