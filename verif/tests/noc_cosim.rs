//! Lockstep co-simulation of the MACRO-NoC reply plane (spec §4.3 L1: every link,
//! injection and ejection every cycle, with the golden-side invariant scoreboard),
//! a planted golden bug caught as a mismatch, and random placements (proptest).

use golden::config::{load, parse, BlockConfig, ConfigFile};
use golden::noc::config::NocConfig;
use golden::noc::hinge_router::RouterMutation;
use proptest::prelude::*;
use verif::lockstep::{self, CosimError, Options};
use verif::noc::ReplyBench;
use verif::rtl::Rtl;
use verif::verilator::{self, Opt};

fn preset(name: &str) -> ConfigFile {
    load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs").join(name)).unwrap()
}

fn noc(cfg: &ConfigFile) -> &NocConfig {
    match &cfg.block {
        BlockConfig::Noc(c) => c,
        _ => panic!(),
    }
}

fn build(cfg: &ConfigFile) -> Rtl {
    let designs = hdl_gen::generate(cfg).unwrap();
    let built = verilator::build(&designs[0].1, Opt::Quick).unwrap();
    Rtl::load(&built).unwrap()
}

fn cosim(cfg: &ConfigFile, cycles: u64, seed: u64) -> Result<lockstep::Report, CosimError> {
    let c = noc(cfg);
    let mut rtl = build(cfg);
    let layout = rtl.layout.clone();
    lockstep::run(&mut rtl, || ReplyBench::new(c, &layout, seed), &Options::new(cycles, seed))
}

#[test]
fn reply_plane_4x4_paper_placement_50k_cycles() {
    // E = 10,000 + 32: five epochs with GOM recomputation
    let cfg = preset("noc_macro_4x4.toml");
    cosim(&cfg, 50_000, 1).unwrap();
}

#[test]
fn reply_plane_8x8_placement_c_50k_cycles() {
    // the preset itself (E = 10,032 with the prologue: 5 epochs); its Verilator build is
    // shared with `gpuforge cosim configs/noc_macro_8x8_c.toml`
    let cfg = preset("noc_macro_8x8_c.toml");
    cosim(&cfg, 50_000, 3).unwrap();
}

#[test]
fn planted_router_bug_is_a_mismatch() {
    let cfg = preset("noc_macro_4x4.toml");
    let c = noc(&cfg);
    let mut rtl = build(&cfg);
    let layout = rtl.layout.clone();
    let mut opts = Options::new(20_000, 1);
    opts.mismatch_dir = None;
    let r = lockstep::run(
        &mut rtl,
        || {
            let mut b = ReplyBench::new(c, &layout, 1).without_checker();
            b.mesh.routers.iter_mut().for_each(|r| r.mutation = Some(RouterMutation::EjectIgnoresY));
            b
        },
        &opts,
    );
    match r {
        Err(CosimError::Mismatch(m)) => assert!(m.diffs.iter().any(|d| d.port.starts_with("eject")), "{m}"),
        other => panic!("expected a mismatch, got {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_small_placements(n in 2u32..=3, picks in proptest::collection::vec(0u32..9, 1..=3), gsel in 0u32..9, interval3 in any::<bool>(), seed in 0u64..1000) {
        let nodes = n * n;
        let mut mcs: Vec<u32> = Vec::new();
        for p in picks { let p = p % nodes; if !mcs.contains(&p) { mcs.push(p); } }
        let gom = (0..nodes).map(|k| (gsel + k) % nodes).find(|g| !mcs.contains(g));
        prop_assume!(gom.is_some() && (mcs.len() as u32) < nodes);
        let gom = gom.unwrap();
        let list: Vec<String> = mcs.iter().map(|&p| format!("[{}, {}]", p % n, p / n)).collect();
        let text = format!(
            "name = \"noc_prop_n{n}\"\n[noc]\nkind = \"macro\"\nmesh = {n}\nmcs = [{}]\ngom = [{}, {}]\n[noc.reply]\nepoch = 400\nperiod = 100\nreply_queue = 8\ninterval = {}\nmux = {}\n",
            list.join(", "), gom % n, gom / n, if interval3 { 3 } else { 2 }, !interval3
        );
        let cfg = parse(std::path::Path::new("prop.toml"), &text).unwrap();
        let r = cosim(&cfg, 3_000, seed);
        prop_assert!(r.is_ok(), "{text}\n{:?}", r.err().map(|e| e.to_string()));
    }
}
