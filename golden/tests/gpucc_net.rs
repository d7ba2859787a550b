//! Golden network model under random traffic, watched by the independent scoreboard
//! (spec §4.3 invariants), plus planted bugs the scoreboard must catch.

use crate::gpucc_common;

use golden::gpucc::check::NetChecker;
use golden::gpucc::net::{CcNet, Mode, Mutation, NetInputs, NetOutputs, MODE_BITS};
use golden::gpucc::traffic::{NetTraffic, TrafficParams};
use golden::gpucc::GpuccConfig;

fn cfg(text: &str) -> GpuccConfig {
    gpucc_common::parse_gpucc(text)
}

const SMALL: &str = r#"
name = "t"
[gpucc]
slices = 4
slice = ["core", "core", "lsu"]
lanes = 3
data_width = 16
core_fifo_depth = 3
lsu_addr_depth = 5
lsu_data_depth = 2
watchdog = 40
"#;

#[derive(Default, Debug)]
struct Coverage {
    fires: u64,
    backpressured: u64,
    full_fifo_cycles: u64,
    epochs: u64,
    drains: u64,
    wdog: u64,
    cfg_err: u64,
    pop_err: u64,
    self_only: u64,
}

fn run(c: &GpuccConfig, seed: u64, cycles: u64, mutation: Option<Mutation>) -> (NetChecker, Coverage) {
    let mut net = CcNet::new(c);
    net.mutation = mutation;
    let mut chk = NetChecker::new(c);
    let mut traffic = NetTraffic::new(c, seed, TrafficParams::default());
    let mut inp = NetInputs::new(c);
    let mut out = NetOutputs::new(c);
    let mut prev = NetOutputs::new(c);
    let mut cov = Coverage::default();
    for _ in 0..cycles {
        traffic.next(&net, &prev, &mut inp);
        net.eval(&inp, &mut out);
        chk.observe(&inp, &out);
        net.commit();
        for p in 0..c.n_pos() {
            cov.fires += out.u_fire[p] as u64;
            cov.backpressured += (out.mode == Mode::Run && inp.u_out_v[p] && !out.u_out_ready[p] && net.pos_cfg(p).en) as u64;
            cov.self_only += (out.u_fire[p] && !inp.u_out_lane_en[p]) as u64;
        }
        for p in 0..c.n_pos() {
            for k in 0..3 {
                if let (Some(cnt), Some(d)) = (Some(out.fifo_count[p * 3 + k]), c.fifo_depth(p, k)) {
                    cov.full_fifo_cycles += (cnt == d) as u64;
                }
            }
        }
        cov.drains += out.cc_done as u64;
        cov.wdog += out.wdog as u64;
        cov.cfg_err += out.cfg_err as u64;
        cov.pop_err += out.pop_empty_err as u64;
        std::mem::swap(&mut prev, &mut out);
        if !chk.violations().is_empty() && mutation.is_some() {
            break;
        }
    }
    cov.epochs = traffic.epochs();
    (chk, cov)
}

#[test]
fn small_network_holds_invariants_under_random_traffic() {
    let c = cfg(SMALL);
    for seed in 0..4 {
        let (chk, cov) = run(&c, seed, 50_000, None);
        assert!(chk.violations().is_empty(), "seed {seed}: {}", chk.violations()[0]);
        // the traffic really exercised the corners
        assert!(cov.fires > 10_000, "{cov:?}");
        assert!(cov.backpressured > 1_000, "{cov:?}");
        assert!(cov.full_fifo_cycles > 1_000, "{cov:?}");
        assert!(cov.epochs >= 10 && cov.drains >= 3, "{cov:?}");
        assert!(cov.wdog >= 1, "{cov:?}");
        assert!(cov.cfg_err >= 1 && cov.pop_err >= 1 && cov.self_only >= 1, "{cov:?}");
    }
}

#[test]
fn paper_network_holds_invariants_under_random_traffic() {
    let c = cfg(&gpucc_common::paper_sm());
    let (chk, cov) = run(&c, 7, 30_000, None);
    assert!(chk.violations().is_empty(), "{}", chk.violations()[0]);
    assert!(cov.fires > 100_000 && cov.backpressured > 1_000 && cov.drains >= 2, "{cov:?}");
}

#[test]
fn every_planted_bug_is_caught_by_the_scoreboard() {
    let c = cfg(SMALL);
    for m in [Mutation::IgnoreSelfFull, Mutation::ReadyThroughDriver, Mutation::NoPreload, Mutation::CfgWriteAnyMode] {
        let (chk, _) = run(&c, 1, 50_000, Some(m));
        let v = chk.violations();
        assert!(!v.is_empty(), "{m:?} was not caught");
    }
}

/// `Model::reset` leaves the state a power-up reset leaves: after random traffic (CRs
/// written, FIFOs filled, mode changed), a reset network answers idle inputs exactly
/// as a fresh one, every port, for several cycles; without the reset it does not.
#[test]
fn model_reset_returns_to_the_reset_state() {
    use golden::model::Model;
    let c = cfg(&gpucc_common::paper_sm());
    let fresh_outputs = |net: &mut CcNet| {
        let (i, mut o) = (net.idle_inputs(), net.new_outputs());
        (0..5)
            .map(|_| {
                Model::eval(net, &i, &mut o);
                Model::commit(net, &i);
                o.clone()
            })
            .collect::<Vec<_>>()
    };
    let mut fresh = CcNet::new(&c);
    fresh.reset();
    let want = fresh_outputs(&mut fresh);
    let mut used = CcNet::new(&c);
    let mut traffic = NetTraffic::new(&c, 9, TrafficParams::default());
    let (mut inp, mut out, mut prev) = (NetInputs::new(&c), NetOutputs::new(&c), NetOutputs::new(&c));
    for _ in 0..3_000 {
        traffic.next(&used, &prev, &mut inp);
        used.eval(&inp, &mut out);
        used.commit();
        std::mem::swap(&mut prev, &mut out);
    }
    let mut not_reset = used.clone();
    assert_ne!(fresh_outputs(&mut not_reset), want, "the traffic left no state behind: the test cannot fail");
    used.reset();
    assert_eq!(fresh_outputs(&mut used), want);
}

// ---------------------------------------------------------------------------------------
// The tests of `golden::gpucc::net` (`golden/src/gpucc/net.rs`),
// which were its `#[cfg(test)] mod tests` (see main.rs).

/// Spec §1.9's codes, written out: GPU 0, ARM 1, RUN 2, DRAIN 3, all within
/// `MODE_BITS`, and decoding inverts encoding.
#[test]
fn mode_codes_match_the_spec() {
    let codes: Vec<u64> = Mode::ALL.iter().map(|m| m.code()).collect();
    assert_eq!(codes, [0, 1, 2, 3]);
    assert!(codes.iter().all(|&c| c < 1 << MODE_BITS));
    for m in Mode::ALL {
        assert_eq!(Mode::from_code(m.code()), Some(m));
    }
    assert_eq!(Mode::from_code(4), None);
}
