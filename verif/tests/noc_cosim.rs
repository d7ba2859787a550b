//! Lockstep co-simulation of the generated NoC Verilog against the golden models
//! (spec §4.3 level L1: every link, injection, ejection and credit, every cycle, with
//! the golden-side invariant scoreboards), one test per kind of design `gen` writes:
//! the 4x4 MACRO-NoC top (both planes), its request plane alone, the 4x4 baseline top
//! (both planes), the 8x8 reply plane of placement 8(c), and every router-level
//! design of every NoC preset (hinge and request routers of the MACRO presets, the
//! baseline router of the baseline presets). Planted golden bugs (hinge router, VC
//! router, at mesh and router level) are caught as named mismatches; random small
//! placements and VC-plane configs run under proptest.

use crate::common;

use golden::noc::config::NocConfig;
use golden::noc::hinge_router::RouterMutation;
use golden::noc::vc_router::VcMutation;
use golden::noc::Noc;
use hdl_gen::design::Design;
use hdl_gen::noc::{NocDesign, Plane};
use proptest::prelude::*;
use verif::lockstep::{self, Bench, CosimError, Options, Report};
use verif::noc::{baseline_bench, hinge_bench, macro_bench, reply_bench, vc_bench, vc_router_bench};
use verif::rtl::Rtl;
use verif::run::BenchOptions;
use verif::verilator::Opt;

/// A NoC preset's config and its design in sub-directory `sub`.
fn preset(name: &str, sub: &str) -> (NocConfig, Design) {
    let (cfg, g) = common::preset::<Noc>(name);
    (cfg.config, common::design(&g, sub).clone())
}

fn opts(seed: u64) -> BenchOptions {
    BenchOptions { seed, check: true }
}

fn report(r: Result<Report, CosimError>) -> Report {
    let r = r.unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{}: {} cycles in {:.1}s ({:.0} cycles/s)", r.top, r.cycles, r.seconds, r.cycles_per_second());
    assert!(r.checked, "{}: the scoreboard did not run", r.top);
    r
}

/// Co-simulate design `sub` of preset `name` for `cycles` cycles with the bench the
/// manifest's design kind names (as `gpuforge cosim --design` does).
fn cosim_design(name: &str, sub: &str, cycles: u64, seed: u64, opt: Opt) -> Report {
    let (cfg, g) = common::preset::<Noc>(name);
    let d = common::design(&g, sub);
    let mut rtl = common::rtl_opt(d, opt);
    let layout = rtl.layout.clone();
    let make = verif::run::bench_factory::<Noc>(&cfg.config, d, &layout, opts(seed)).unwrap_or_else(|e| panic!("{e}"));
    report(lockstep::run(&mut rtl, make, &Options::new(cycles, seed)))
}

#[test]
fn macro_noc_4x4_both_planes_50k_cycles() {
    // E = 10,000 + 32: five epochs with GOM recomputation on the reply plane; random
    // packets with stalls and bursts on the request plane
    let (c, d) = preset("noc_macro_4x4", "macro_top");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    report(lockstep::run(&mut rtl, || macro_bench(&c, &layout, &opts(1)).unwrap(), &Options::new(50_000, 1)));
    // the traffic really flowed: rerun the golden side alone and count
    let mut b = macro_bench(&c, &layout, &opts(1)).unwrap();
    let (mut i, mut e) = (verif::frame::Frame::zeroed(layout.in_words), verif::frame::Frame::zeroed(layout.out_words));
    for cy in 0..20_000 {
        b.cycle(cy, &mut i, &mut e).unwrap();
    }
    let (reply, request) = (b.0.checker.as_ref().unwrap().delivered, b.1.checker.as_ref().unwrap().delivered);
    assert!(reply > 1_000 && request > 1_000, "reply {reply} request {request}");
}

#[test]
fn request_plane_4x4_20k_cycles() {
    cosim_design("noc_macro_4x4", "request", 20_000, 4, Opt::Debug);
}

#[test]
fn baseline_4x4_both_planes_50k_cycles() {
    let (c, d) = preset("noc_baseline_4x4", "baseline");
    assert_eq!((c.baseline.flit_width, c.baseline.vcs, c.baseline.buf_depth, c.baseline.planes), (128, 3, 4, 2));
    let mut rtl = common::rtl_opt(&d, Opt::Debug);
    let layout = rtl.layout.clone();
    report(lockstep::run(&mut rtl, || baseline_bench(&c, &layout, &opts(2)).unwrap(), &Options::new(50_000, 2)));
}

#[test]
fn reply_plane_8x8_placement_c_30k_cycles() {
    // the preset itself (E = 10,032 with the prologue: 3 epochs, 4 multiplexed pairs;
    // 30,000 cycles rather than 50,000 keep `make test` inside CI's budget: the run is
    // 1.2 ms a cycle)
    let (c, d) = preset("noc_macro_8x8_c", "reply");
    let mut rtl = common::rtl_opt(&d, Opt::Debug);
    let layout = rtl.layout.clone();
    report(lockstep::run(&mut rtl, || reply_bench(&c, &layout, &opts(3)).unwrap(), &Options::new(30_000, 3)));
}

/// The hinge router of every MACRO preset, for two epochs of the 4x4 (one of the 8x8s:
/// 12,000 cycles cross an epoch end either way).
#[test]
fn hinge_router_of_every_macro_preset() {
    for name in ["noc_macro_4x4", "noc_macro_8x8_b", "noc_macro_8x8_c"] {
        cosim_design(name, "routers/hinge", 12_000, 5, Opt::Quick);
    }
}

#[test]
fn request_router_of_every_macro_preset() {
    for name in ["noc_macro_4x4", "noc_macro_8x8_b", "noc_macro_8x8_c"] {
        cosim_design(name, "routers/request", 20_000, 6, Opt::Quick);
    }
}

/// The baseline router of every baseline preset: 128-bit data, so 138- and 142-bit
/// router flits. Regression: with seeds 1-3 the old bench packed the flit into a
/// `u128` from bit 128 up, lost every header field and failed at cycle 3
/// (`in_e_credit_o RTL 0 golden 1`); the port map now writes the flit through
/// `VcLayout` on the frame's words.
#[test]
fn baseline_router_of_every_baseline_preset() {
    for seed in 1..=3 {
        cosim_design("noc_baseline_4x4", "routers/baseline", 2_000, seed, Opt::Quick);
    }
    for name in ["noc_baseline_4x4", "noc_baseline_8x8_b", "noc_baseline_8x8_c"] {
        cosim_design(name, "routers/baseline", 20_000, 7, Opt::Quick);
    }
}

/// The baseline router's 138-bit flit ports carry the header above bit 127: a head
/// flit packed by the port map reads back through golden's layout, field by field.
#[test]
fn router_flits_wider_than_128_bits_keep_their_header() {
    use golden::noc::flit::VcLayout;
    use golden::noc::vc_router::{VcFlit, VcRouterInputs};
    use verif::bench::PortMap;
    let (c, d) = preset("noc_baseline_4x4", "routers/baseline");
    let layout = verif::frame::Layout::from_manifest(&d.manifest).unwrap();
    let lay = VcLayout::for_plane(&c, &c.baseline);
    assert_eq!(lay.flit_width(), 138);
    let ports = verif::noc::ports::VcRouterPorts::new(&c, lay, c.baseline.vcs, &layout).unwrap();
    let flit = VcFlit { head: true, tail: false, src: 3 * 4 + 1, dst: 2 * 4 + 3, data: golden::noc::vc_router::vc_data(u128::MAX - 5, 0, 128) };
    let mut inputs = VcRouterInputs { rst: false, links: [None; 5], credits: [0; 5] };
    inputs.links[golden::noc::route_rom::W] = Some((2, flit));
    let mut frame = verif::frame::Frame::zeroed(layout.in_words);
    ports.pack_inputs(&inputs, &mut frame);
    let slot = layout.input("in_w_flit_i");
    let mut words = frame.slice(&slot).to_vec();
    lay.valid().write(&mut words, 1);
    lay.vc().write(&mut words, 2);
    assert_eq!(lay.unpack(4, &words), Some((2, flit)));
    assert_eq!(lay.dst_x().read(frame.slice(&slot)), 3, "dst_x sits at bits 128..=129");
    assert_eq!(frame.get(&layout.input("in_w_vc_i")), 2);
    assert_eq!(frame.slice(&slot)[2] >> 10, 0, "nothing above the 138-bit port");
}

/// The LLC-Compute platform's router (llc_omni_compute.md §3: 8 VCs x 8 flits, 32-B
/// flits, YX, one plane) on a 3x3 mesh, small enough for a quick Verilator build.
const PAPER_ROUTER_3X3: &str =
    "name = \"noc_paper_router_3x3\"\n[noc]\nkind = \"baseline\"\nmesh = 3\nmcs = [[1, 2]]\n[noc.baseline]\nflit_width = 256\nvcs = 8\nbuf_depth = 8\nrouting = \"yx\"\nplanes = 1\n";

/// Flits on the golden mesh's links with a VC id of 4 or more, and with a nonzero upper
/// half (bits 128..256), over `cycles` cycles of the bench's stimulus.
fn upper_vcs_and_lanes(c: &NocConfig, layout: &verif::frame::Layout, seed: u64, cycles: u64) -> (usize, usize) {
    let mut b = baseline_bench(c, layout, &opts(seed)).unwrap();
    let (mut i, mut e) = (verif::frame::Frame::zeroed(layout.in_words), verif::frame::Frame::zeroed(layout.out_words));
    let (mut high_vc, mut high_data) = (0, 0);
    for cy in 0..cycles {
        b.cycle(cy, &mut i, &mut e).unwrap();
        for (vc, f) in b[0].prev.links.iter().flatten().flatten() {
            high_vc += usize::from(*vc >= 4);
            high_data += usize::from(f.data[2] | f.data[3] != 0);
        }
    }
    (high_vc, high_data)
}

/// 8 VCs and 256-bit data, mesh-level: the generated 3x3 mesh in lockstep with golden
/// for 20,000 cycles (the scoreboard on), the traffic shown to use VCs 4..=7 and the
/// upper data lanes; then the planted `TruncatedVcId` (output VC ids cut to two bits,
/// invisible with up to 4 VCs: golden `noc_vc_exact.rs`) is a mismatch on a link header.
#[test]
fn paper_router_8_vcs_256_bit_3x3_lockstep_and_planted_vc_truncation() {
    let (cfg, g) = common::from_text::<Noc>(PAPER_ROUTER_3X3);
    let c = cfg.config;
    let d = common::design(&g, "baseline");
    let mut rtl = common::rtl_opt(d, Opt::Debug);
    let layout = rtl.layout.clone();
    let (high_vc, high_data) = upper_vcs_and_lanes(&c, &layout, 11, 20_000);
    assert!(high_vc > 1_000 && high_data > 10_000, "VC >= 4 on {high_vc} link flits, upper lanes on {high_data}");
    report(lockstep::run(&mut rtl, || baseline_bench(&c, &layout, &opts(11)).unwrap(), &Options::new(20_000, 11)));
    let plant = || {
        let mut b = baseline_bench(&c, &layout, &BenchOptions { seed: 11, check: false }).unwrap();
        b[0].model.set_mutation(Some(VcMutation::TruncatedVcId));
        b
    };
    expect_mismatch(lockstep::run(&mut rtl, plant, &Options::new(20_000, 11).without_waveform()), &["p0_link_hdr", "p0_ej_hdr"]);
}

/// 8 VCs and 256-bit data, router-level: the router of the same config (266-bit flit
/// ports) in lockstep under the router stimulus, whose payloads fill all 256 bits.
#[test]
fn paper_router_8_vcs_256_bit_router_level() {
    let (cfg, g) = common::from_text::<Noc>(PAPER_ROUTER_3X3);
    let d = common::design(&g, "routers/baseline");
    let mut rtl = common::rtl_opt(d, Opt::Quick);
    let layout = rtl.layout.clone();
    let NocDesign::VcRouter { plane, x, y } = d.kind().unwrap() else { panic!("{}", d.manifest.design) };
    assert_eq!(layout.input("in_e_flit_i").width, 256 + 4 * 2 + 2, "256-bit data, 2-bit coordinates");
    report(lockstep::run(&mut rtl, || vc_router_bench(&cfg.config, plane, &layout, (x, y), &opts(12)).unwrap(), &Options::new(20_000, 12)));
}

/// A mismatch on a port named with one of `ports` (prefixes).
fn expect_mismatch(r: Result<Report, CosimError>, ports: &[&str]) {
    match r {
        Err(CosimError::Mismatch(m)) => {
            eprintln!("{m}");
            assert!(m.diffs.iter().any(|d| ports.iter().any(|p| d.port.starts_with(p))), "{m}")
        }
        other => panic!("expected a mismatch on {ports:?}, got {other:?}"),
    }
}

#[test]
fn planted_hinge_router_bug_is_a_mismatch() {
    // the golden router ejects pass-through copies (ignores dst_y): the RTL does not
    let (c, d) = preset("noc_macro_4x4", "macro_top");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    let unchecked = BenchOptions { seed: 1, check: false };
    let plant = || {
        let mut b = macro_bench(&c, &layout, &unchecked).unwrap();
        b.0.model.routers.iter_mut().for_each(|r| r.mutation = Some(RouterMutation::EjectIgnoresY));
        b
    };
    expect_mismatch(lockstep::run(&mut rtl, plant, &Options::new(20_000, 1).without_waveform()), &["eject"]);
    // the same bug in the router-level design
    let (c, d) = preset("noc_macro_4x4", "routers/hinge");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    let NocDesign::HingeRouter { x, y } = d.kind().unwrap() else { panic!("{}", d.manifest.design) };
    let plant = || {
        let mut b = hinge_bench(&c, &layout, (x, y), &unchecked).unwrap();
        b.model.router.mutation = Some(RouterMutation::EjectIgnoresY);
        b
    };
    expect_mismatch(lockstep::run(&mut rtl, plant, &Options::new(20_000, 1).without_waveform()), &["loc_out"]);
}

#[test]
fn planted_vc_router_bug_is_a_mismatch() {
    // the golden VC allocator grants the lowest requester instead of round robin: no
    // invariant breaks, but the order of flits on some link changes
    let (c, d) = preset("noc_baseline_4x4", "baseline");
    let mut rtl = common::rtl_opt(&d, Opt::Debug);
    let layout = rtl.layout.clone();
    let plant = || {
        let mut b = baseline_bench(&c, &layout, &opts(2)).unwrap();
        for p in b.iter_mut() {
            p.model.set_mutation(Some(VcMutation::FixedPriorityVa));
        }
        b
    };
    expect_mismatch(lockstep::run(&mut rtl, plant, &Options::new(20_000, 2).without_waveform()), &["p0_", "p1_"]);
    // the same bug in the router-level design
    let (c, d) = preset("noc_baseline_4x4", "routers/baseline");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    let NocDesign::VcRouter { plane, x, y } = d.kind().unwrap() else { panic!("{}", d.manifest.design) };
    let plant = || {
        let mut b = vc_router_bench(&c, plane, &layout, (x, y), &opts(2)).unwrap();
        b.model.set_mutation(Some(VcMutation::FixedPriorityVa));
        b
    };
    // a link or a credit: whichever the other allocation order reaches first
    expect_mismatch(lockstep::run(&mut rtl, plant, &Options::new(20_000, 2).without_waveform()), &["out_", "in_"]);
}

/// `--no-check` reaches every kind of NoC design: each bench runs its scoreboard
/// exactly when asked to (no Verilator needed: the bench is built from the manifest).
#[test]
fn every_noc_design_kind_honours_no_check() {
    let mut kinds = std::collections::HashSet::new();
    for name in ["noc_macro_4x4", "noc_baseline_4x4"] {
        let (cfg, g) = common::preset::<Noc>(name);
        for d in &g.designs {
            let layout = verif::frame::Layout::from_manifest(&d.manifest).unwrap();
            for check in [true, false] {
                let make = verif::run::bench_factory::<Noc>(&cfg.config, d, &layout, BenchOptions { seed: 1, check }).unwrap();
                assert_eq!(make().checked(), check, "{} with check = {check}", d.dir);
            }
            let kind: NocDesign = d.kind().unwrap();
            kinds.insert(std::mem::discriminant(&kind));
        }
    }
    assert_eq!(kinds.len(), 6, "every NocDesign kind was tried");
}

/// `cosim` reports the scoreboard it ran: `checked` follows `--no-check`.
#[test]
fn cosim_summary_reports_the_scoreboard() {
    let (cfg, g) = common::preset::<Noc>("noc_macro_4x4");
    let d = common::design(&g, "routers/request");
    for check in [true, false] {
        let req = verif::run::CosimRequest { cycles: 500, seed: 1, trace: None, build: Opt::Quick.into(), check };
        let s = verif::run::cosim::<Noc>(&cfg, d, &req).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.checked, s.cycles), (check, 500));
    }
}

/// A design generated from another config is refused before the build, naming the port.
#[test]
fn a_design_of_another_config_is_refused() {
    let (c4, _) = preset("noc_baseline_4x4", "routers/baseline");
    let (_, d8) = preset("noc_baseline_8x8_b", "routers/baseline");
    let layout = verif::frame::Layout::from_manifest(&d8.manifest).unwrap();
    let e = vc_router_bench(&c4, Plane::Baseline, &layout, (1, 1), &opts(1)).err().expect("refused");
    assert!(e.contains("flit_i") && e.contains("design and config disagree"), "{e}");
    let (_, r8) = preset("noc_macro_8x8_c", "reply");
    let (c4, _) = preset("noc_macro_4x4", "reply");
    let layout = verif::frame::Layout::from_manifest(&r8.manifest).unwrap();
    let e = reply_bench(&c4, &layout, &opts(1)).err().expect("refused");
    assert!(e.contains("design and config disagree"), "{e}");
}

/// A small random reply-plane placement or VC-plane config, co-simulated for 3,000
/// cycles (reply: several 432-cycle epochs).
fn small_case(text: &str, sub: &str, seed: u64) -> Result<(), String> {
    let (cfg, g) = common::from_text::<Noc>(text);
    let c = cfg.config;
    let mut rtl: Rtl = common::rtl_opt(common::design(&g, sub), Opt::Debug);
    let layout = rtl.layout.clone();
    let o = Options::new(3_000, seed);
    let r = if sub == "reply" {
        lockstep::run(&mut rtl, || reply_bench(&c, &layout, &opts(seed)).unwrap(), &o)
    } else {
        lockstep::run(&mut rtl, || vc_bench(&c, Plane::Request, &layout, "", &opts(seed)).unwrap(), &o)
    };
    r.map(|_| ()).map_err(|e| format!("{text}\n{e}"))
}

/// One random case: a 2x2 or 3x3 MACRO mesh with 1-3 MCs and a GOM anywhere else, either
/// reply-plane interval, and a request plane of 1-8 VCs, 2-8 deep, 32-256-bit flits, XY
/// or YX; the reply plane or the request plane co-simulated.
#[allow(clippy::too_many_arguments)]
fn random_case(
    n: u32,
    picks: Vec<u32>,
    gsel: u32,
    interval3: bool,
    vc_plane: bool,
    vcs: u32,
    depth_sel: usize,
    width_sel: usize,
    yx: bool,
    seed: u64,
) -> Result<(), TestCaseError> {
    let nodes = n * n;
    let mut mcs: Vec<u32> = Vec::new();
    for p in picks {
        let p = p % nodes;
        if !mcs.contains(&p) {
            mcs.push(p);
        }
    }
    let gom = (0..nodes).map(|k| (gsel + k) % nodes).find(|g| !mcs.contains(g));
    prop_assume!(gom.is_some() && (mcs.len() as u32) < nodes);
    let gom = gom.unwrap();
    let list: Vec<String> = mcs.iter().map(|&p| format!("[{}, {}]", p % n, p / n)).collect();
    let text = format!(
        "name = \"noc_prop_n{n}\"\n[noc]\nkind = \"macro\"\nmesh = {n}\nmcs = [{}]\ngom = [{}, {}]\n[noc.reply]\nepoch = 400\nperiod = 100\nreply_queue = 8\ninterval = {}\nmux = {}\n[noc.request]\nflit_width = {}\nvcs = {vcs}\nbuf_depth = {}\nrouting = \"{}\"\n",
        list.join(", "),
        gom % n,
        gom / n,
        if interval3 { 3 } else { 2 },
        !interval3,
        [32, 64, 128, 256][width_sel],
        [2, 4, 8][depth_sel],
        if yx { "yx" } else { "xy" }
    );
    let r = small_case(&text, if vc_plane { "request" } else { "reply" }, seed);
    prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
    Ok(())
}

// 2 x 3 cases (PROPTEST_CASES sets each half's count): two tests, so the two halves
// run on both cores
proptest! {
    #![proptest_config(ProptestConfig { cases: common::proptest_cases(3), failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_small_placements_and_vc_configs_a(
        n in 2u32..=3, picks in proptest::collection::vec(0u32..9, 1..=3), gsel in 0u32..9, interval3 in any::<bool>(), vc_plane in any::<bool>(),
        vcs in 1u32..=8, depth_sel in 0usize..3, width_sel in 0usize..4, yx in any::<bool>(), seed in 0u64..1000,
    ) {
        random_case(n, picks, gsel, interval3, vc_plane, vcs, depth_sel, width_sel, yx, seed)?;
    }

    #[test]
    fn random_small_placements_and_vc_configs_b(
        n in 2u32..=3, picks in proptest::collection::vec(0u32..9, 1..=3), gsel in 0u32..9, interval3 in any::<bool>(), vc_plane in any::<bool>(),
        vcs in 1u32..=8, depth_sel in 0usize..3, width_sel in 0usize..4, yx in any::<bool>(), seed in 1000u64..2000,
    ) {
        random_case(n, picks, gsel, interval3, vc_plane, vcs, depth_sel, width_sel, yx, seed)?;
    }
}
