//! Lockstep co-simulation of the generated NoC Verilog against the golden models
//! (spec §4.3 level L1: every link, injection, ejection and credit, every cycle, with
//! the golden-side invariant scoreboards): the 4x4 MACRO-NoC (both planes), the 4x4
//! baseline (both planes), the 8x8 reply plane of placement 8(c); planted golden bugs
//! (hinge router, VC router) caught as named mismatches; random small placements and
//! VC-plane configs (proptest).

mod common;

use golden::noc::config::NocConfig;
use golden::noc::hinge_router::RouterMutation;
use golden::noc::vc_router::VcMutation;
use golden::noc::Noc;
use hdl_gen::design::Design;
use proptest::prelude::*;
use verif::lockstep::{self, CosimError, Options, Report};
use verif::noc::{BaselineBench, MacroBench, ReplyBench, VcBench};
use verif::rtl::Rtl;
use verif::verilator::Opt;

/// A NoC preset's config and its design in sub-directory `sub`.
fn preset(name: &str, sub: &str) -> (NocConfig, Design) {
    let (cfg, g) = common::preset::<Noc>(name);
    (cfg.config, common::design(&g, sub).clone())
}

fn build(d: &Design, opt: Opt) -> Rtl {
    common::rtl_opt(d, opt)
}

fn report(r: Result<Report, CosimError>) -> Report {
    let r = r.unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{}: {} cycles in {:.1}s ({:.0} cycles/s)", r.top, r.cycles, r.seconds, r.cycles_per_second());
    r
}

#[test]
fn macro_noc_4x4_both_planes_50k_cycles() {
    // E = 10,000 + 32: five epochs with GOM recomputation on the reply plane; random
    // packets with stalls and bursts on the request plane
    let (c, d) = preset("noc_macro_4x4", "macro_top");
    let c = &c;
    let mut rtl = build(&d, Opt::Quick);
    let layout = rtl.layout.clone();
    report(lockstep::run(&mut rtl, || MacroBench::new(c, &layout, 1), &Options::new(50_000, 1)));
    // the traffic really flowed: rerun the golden side alone and count
    let mut b = MacroBench::new(c, &layout, 1);
    let (mut i, mut e) = (verif::frame::Frame::zeroed(layout.in_words), verif::frame::Frame::zeroed(layout.out_words));
    for cy in 0..20_000 {
        use lockstep::Bench;
        b.cycle(cy, &mut i, &mut e).unwrap();
    }
    assert!(b.reply.delivered() > 1_000 && b.request.delivered() > 1_000, "reply {} request {}", b.reply.delivered(), b.request.delivered());
}

#[test]
fn baseline_4x4_both_planes_50k_cycles() {
    let (c, d) = preset("noc_baseline_4x4", "baseline");
    let c = &c;
    assert_eq!((c.baseline.flit_width, c.baseline.vcs, c.baseline.buf_depth, c.baseline.planes), (128, 3, 4, 2));
    let mut rtl = build(&d, Opt::Debug);
    let layout = rtl.layout.clone();
    report(lockstep::run(&mut rtl, || BaselineBench::new(c, &layout, 2), &Options::new(50_000, 2)));
}

#[test]
fn reply_plane_8x8_placement_c_50k_cycles() {
    // the preset itself (E = 10,032 with the prologue: 5 epochs, 4 multiplexed pairs)
    let (c, d) = preset("noc_macro_8x8_c", "reply");
    let c = &c;
    let mut rtl = build(&d, Opt::Debug);
    let layout = rtl.layout.clone();
    report(lockstep::run(&mut rtl, || ReplyBench::new(c, &layout, 3), &Options::new(50_000, 3)));
}

fn expect_mismatch(r: Result<Report, CosimError>, port: &str) {
    match r {
        Err(CosimError::Mismatch(m)) => {
            eprintln!("{m}");
            assert!(m.diffs.iter().any(|d| d.port.starts_with(port)), "{m}")
        }
        other => panic!("expected a mismatch on {port}*, got {other:?}"),
    }
}

#[test]
fn planted_hinge_router_bug_is_a_mismatch() {
    // the golden router ejects pass-through copies (ignores dst_y): the RTL does not
    let (c, d) = preset("noc_macro_4x4", "macro_top");
    let c = &c;
    let mut rtl = build(&d, Opt::Quick);
    let layout = rtl.layout.clone();
    let mut opts = Options::new(20_000, 1);
    opts.mismatch_dir = None;
    let r = lockstep::run(
        &mut rtl,
        || {
            let mut b = MacroBench::new(c, &layout, 1).without_checker();
            b.reply.mesh.routers.iter_mut().for_each(|r| r.mutation = Some(RouterMutation::EjectIgnoresY));
            b
        },
        &opts,
    );
    expect_mismatch(r, "eject");
}

#[test]
fn planted_vc_router_bug_is_a_mismatch() {
    // the golden VC allocator grants the lowest requester instead of round robin: no
    // invariant breaks, but the order of flits on some link changes
    let (c, d) = preset("noc_baseline_4x4", "baseline");
    let c = &c;
    let mut rtl = build(&d, Opt::Debug);
    let layout = rtl.layout.clone();
    let mut opts = Options::new(20_000, 2);
    opts.mismatch_dir = None;
    let r = lockstep::run(
        &mut rtl,
        || {
            let mut b = BaselineBench::new(c, &layout, 2);
            for p in b.planes.iter_mut() {
                p.mesh.routers.iter_mut().for_each(|r| r.mutation = Some(VcMutation::FixedPriorityVa));
            }
            b
        },
        &opts,
    );
    expect_mismatch(r, "p");
}

/// A small random reply-plane placement or VC-plane config, co-simulated for 3,000
/// cycles (reply: several 432-cycle epochs).
fn small_case(text: &str, sub: &str, seed: u64) -> Result<(), String> {
    let (cfg, g) = common::from_text::<Noc>(text);
    let c = cfg.config;
    let mut rtl = build(common::design(&g, sub), Opt::Debug);
    let layout = rtl.layout.clone();
    let opts = Options::new(3_000, seed);
    let r = if sub == "reply" {
        lockstep::run(&mut rtl, || ReplyBench::new(&c, &layout, seed), &opts)
    } else {
        lockstep::run(&mut rtl, || VcBench::new(&c, &c.request, &layout, "", seed), &opts)
    };
    r.map(|_| ()).map_err(|e| format!("{text}\n{e}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_small_placements_and_vc_configs(
        n in 2u32..=3,
        picks in proptest::collection::vec(0u32..9, 1..=3),
        gsel in 0u32..9,
        interval3 in any::<bool>(),
        vc_plane in any::<bool>(),
        vcs in 1u32..=4,
        depth_sel in 0usize..3,
        width_sel in 0usize..3,
        yx in any::<bool>(),
        seed in 0u64..1000,
    ) {
        let nodes = n * n;
        let mut mcs: Vec<u32> = Vec::new();
        for p in picks { let p = p % nodes; if !mcs.contains(&p) { mcs.push(p); } }
        let gom = (0..nodes).map(|k| (gsel + k) % nodes).find(|g| !mcs.contains(g));
        prop_assume!(gom.is_some() && (mcs.len() as u32) < nodes);
        let gom = gom.unwrap();
        let list: Vec<String> = mcs.iter().map(|&p| format!("[{}, {}]", p % n, p / n)).collect();
        let text = format!(
            "name = \"noc_prop_n{n}\"\n[noc]\nkind = \"macro\"\nmesh = {n}\nmcs = [{}]\ngom = [{}, {}]\n[noc.reply]\nepoch = 400\nperiod = 100\nreply_queue = 8\ninterval = {}\nmux = {}\n[noc.request]\nflit_width = {}\nvcs = {vcs}\nbuf_depth = {}\nrouting = \"{}\"\n",
            list.join(", "), gom % n, gom / n, if interval3 { 3 } else { 2 }, !interval3,
            [32, 64, 128][width_sel], [2, 4, 8][depth_sel], if yx { "yx" } else { "xy" }
        );
        let r = small_case(&text, if vc_plane { "request" } else { "reply" }, seed);
        prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
    }
}
