//! The Q-cache companion blocks of spec §5 in lockstep with Verilator:
//! `qc_transition_filter` (spec §1.2's table as the scoreboard), `qc_gpu_actuator` and
//! `qc_cpu_dvfs` (spec §1.8: the brute-force closest setting, ACK after the transition
//! and the drain, NACK at the limit) on ≥ 100,000 random cycles each; directed vectors
//! derived by hand from the spec (transition latency for 1 to 5 steps, slow by 2.0 from
//! 16 cores at 700 MHz); a planted bug per block caught.

use crate::common;

use golden::model::{Model, Stimulus};
use golden::qcache::actuator::{ActInputs, ActMutation, ActOutputs, QcCpuDvfs, QcGpuActuator};
use golden::qcache::config::QcacheConfig;
use golden::qcache::filter::FilterMutation;
use golden::qcache::Qcache;
use hdl_gen::design::Design;
use verif::bench::ModelBench;
use verif::lockstep::{self, CosimError, Options};
use verif::qcache::{cpu_dvfs_bench, filter_bench, gpu_actuator_bench, ActChecker, ActPorts};

fn design(preset: &str, dir: &str) -> (QcacheConfig, Design) {
    let (cfg, g) = common::preset::<Qcache>(preset);
    (cfg.config, common::design(&g, dir).clone())
}

#[test]
fn transition_filter_100k_random_cycles_in_lockstep() {
    for (preset, seed) in [("qcache_small", 31), ("qcache_l2", 32)] {
        let (c, d) = design(preset, "filter");
        let mut rtl = common::rtl(&d);
        let layout = rtl.layout.clone();
        let r = lockstep::run(&mut rtl, || filter_bench(&c, &layout, seed).unwrap(), &Options::new(100_000, seed)).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.checked && r.cycles == 100_000);
        // every strobe fired many times (10,000 cycles of the same stream)
        let mut b = filter_bench(&c, &layout, seed).unwrap();
        let mut m = b.model.clone();
        let (mut i, mut o) = (m.idle_inputs(), m.new_outputs());
        for _ in 0..10_000 {
            b.stim.drive(&m, &o, &mut i);
            m.eval(&i, &mut o);
            m.commit(&i);
        }
        assert!(b.stim.fired.iter().all(|&n| n > 300), "{preset}: {:?}", b.stim.fired);
    }
}

/// `n` random cycles of an actuator design in lockstep, with the scoreboard; returns the
/// scoreboard's counts of ACKs and NACKs of a golden-only rerun.
fn actuator_run(preset: &str, dir: &str, cycles: u64, seed: u64) -> [u64; 3] {
    let (c, d) = design(preset, dir);
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    if dir == "gpu_actuator" {
        let r = lockstep::run(&mut rtl, || gpu_actuator_bench(&c, &layout, seed).unwrap(), &Options::new(cycles, seed)).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.checked);
        let mut b = gpu_actuator_bench(&c, &layout, seed).unwrap();
        golden_only(&mut b.model, &mut b.stim, b.checker.as_mut().unwrap(), cycles)
    } else {
        let r = lockstep::run(&mut rtl, || cpu_dvfs_bench(&c, &layout, seed).unwrap(), &Options::new(cycles, seed)).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.checked);
        let mut b = cpu_dvfs_bench(&c, &layout, seed).unwrap();
        golden_only(&mut b.model, &mut b.stim, b.checker.as_mut().unwrap(), cycles)
    }
}

fn golden_only<M: Model<In = ActInputs, Out = ActOutputs>, S: Stimulus<M>>(m: &mut M, stim: &mut S, chk: &mut ActChecker, cycles: u64) -> [u64; 3] {
    use golden::model::Scoreboard;
    let (mut i, mut o, mut prev) = (m.idle_inputs(), m.new_outputs(), m.new_outputs());
    for cyc in 0..cycles {
        stim.drive(m, &prev, &mut i);
        if cyc == 0 {
            M::assert_reset(&mut i);
        }
        m.eval(&i, &mut o);
        Scoreboard::<M>::observe(chk, cyc, &i, &o).unwrap_or_else(|e| panic!("{e}"));
        m.commit(&i);
        prev = o;
    }
    chk.seen
}

#[test]
fn gpu_actuator_100k_random_cycles_in_lockstep() {
    let seen = actuator_run("qcache_small", "gpu_actuator", 150_000, 41);
    assert!(seen[0] >= 100 && seen[1] >= 100, "ACKs and NACKs: {seen:?}");
    // the thesis's 16-core GPU with 10,500-31,500-cycle transitions
    let seen = actuator_run("qcache_l2", "gpu_actuator", 150_000, 42);
    assert!(seen[0] >= 3 && seen[1] >= 10, "{seen:?}");
}

#[test]
fn cpu_dvfs_100k_random_cycles_in_lockstep() {
    let seen = actuator_run("qcache_small", "cpu_dvfs", 150_000, 43);
    assert!(seen[0] >= 100 && seen[1] >= 100, "{seen:?}");
    let seen = actuator_run("qcache_l2", "cpu_dvfs", 150_000, 44);
    assert!(seen[0] >= 3 && seen[1] >= 10, "{seen:?}");
}

/// Requests at given cycles (idle otherwise), and a core-busy mask per cycle.
struct Script {
    at: Vec<(u64, ActInputs)>,
    busy: fn(u64) -> u32,
    cycle: u64,
    /// Responses seen: (cycle, ack), and the last outputs.
    rsp: Vec<(u64, bool)>,
    last: ActOutputs,
}

impl Script {
    fn new(at: Vec<(u64, ActInputs)>, busy: fn(u64) -> u32) -> Script {
        Script { at, busy, cycle: 0, rsp: Vec::new(), last: ActOutputs::default() }
    }

    fn step(&mut self, prev: &ActOutputs, i: &mut ActInputs) {
        if prev.rsp_v {
            self.rsp.push((self.cycle - 1, prev.rsp_ack));
        }
        self.last = *prev;
        *i = self.at.iter().find(|(c, _)| *c == self.cycle).map_or(ActInputs::default(), |(_, x)| *x);
        i.core_busy = (self.busy)(self.cycle);
        self.cycle += 1;
    }
}

impl Stimulus<QcCpuDvfs> for Script {
    fn drive(&mut self, _m: &QcCpuDvfs, prev: &ActOutputs, i: &mut ActInputs) {
        self.step(prev, i)
    }
}

impl Stimulus<QcGpuActuator> for Script {
    fn drive(&mut self, _m: &QcGpuActuator, prev: &ActOutputs, i: &mut ActInputs) {
        self.step(prev, i)
    }
}

fn req(speed: bool, ratio: u8) -> ActInputs {
    ActInputs { req_v: true, speed, ratio_q44: ratio, ..ActInputs::default() }
}

fn restore() -> ActInputs {
    ActInputs { req_v: true, restore: true, ..ActInputs::default() }
}

/// Run a script on the golden model (returning its responses, as the cycle the
/// response is on the port, and the last outputs) and in lockstep against the RTL.
fn script_run<M>(m: M, d: &Design, make: impl Fn() -> Script, checker: impl Fn() -> ActChecker, cycles: u64) -> (Vec<(u64, bool)>, ActOutputs)
where
    M: Model<In = ActInputs, Out = ActOutputs> + Clone,
    Script: Stimulus<M>,
    ActPorts: verif::bench::PortMap<M>,
    ActChecker: golden::model::Scoreboard<M>,
{
    let mut rtl = common::rtl(d);
    let layout = rtl.layout.clone();
    lockstep::run(&mut rtl, || ModelBench::new(m.clone(), make(), Some(checker()), ActPorts::new(&layout)), &Options::new(cycles, 0)).unwrap_or_else(|e| panic!("{e}"));
    let mut m = m;
    let mut s = make();
    let (mut i, mut o, mut prev) = (m.idle_inputs(), m.new_outputs(), m.new_outputs());
    for cyc in 0..cycles {
        s.drive(&m, &prev, &mut i);
        if cyc == 0 {
            M::assert_reset(&mut i);
        }
        m.eval(&i, &mut o);
        m.commit(&i);
        prev = o;
    }
    s.drive(&m, &prev, &mut i);
    (s.rsp, s.last)
}

/// Spec §1.8: 15 µs + 10 µs per further P-state step, at most 45 µs; at 700 MHz
/// 10,500 / 17,500 / 24,500 / 31,500 / 31,500 cycles for 1-5 steps. From 3500 MHz:
/// slow by 1.0 -> 2960 (1 step); by 0x17 = 1.4375 -> target 2434.8, 2420 (2 steps);
/// by 0x1e = 1.875 -> 1866.7, 1880 (3); by 0x2a = 2.625 -> 1333.3, 1340 (4); by 0x46 =
/// 4.375 -> 800 (5 steps, capped at 45 µs). Requested at cycle 10, the transition ends
/// at 10 + L and the ACK is on the port the cycle after: 11 + L. A speed-up at 3500 MHz
/// is NACKed on the port at cycle 12.
#[test]
fn cpu_transition_latency_by_steps_by_hand() {
    let (c, d) = design("qcache_l2", "cpu_dvfs");
    let k = &c.companion;
    assert_eq!(k.cpu_lat, vec![0, 10_500, 17_500, 24_500, 31_500, 31_500]);
    for (ratio, steps, lat, pstate) in [(0x10u8, 1, 10_500u64, 4u8), (0x17, 2, 17_500, 3), (0x1e, 3, 24_500, 2), (0x2a, 4, 31_500, 1), (0x46, 5, 31_500, 0)] {
        let make = move || Script::new(vec![(10, req(false, ratio))], |_| 0);
        let (rsp, last) = script_run(QcCpuDvfs::new(k.cpu_nominal, k.cpu_lat.clone()), &d, make, || ActChecker::cpu(k.cpu_mhz, k.cpu_lat.clone()), 33_000);
        assert_eq!(rsp, vec![(11 + lat, true)], "{steps} steps");
        assert_eq!(last.pstate, pstate, "{steps} steps");
    }
    let make = || Script::new(vec![(10, req(true, 0x20))], |_| 0);
    let (rsp, last) = script_run(QcCpuDvfs::new(k.cpu_nominal, k.cpu_lat.clone()), &d, make, || ActChecker::cpu(k.cpu_mhz, k.cpu_lat.clone()), 100);
    assert_eq!((rsp, last.pstate), (vec![(11, false)], 5));
}

/// Slow by 2.0 from 16 cores at 700 MHz (proxy 11,200): the target 5,600 is exactly 8
/// cores at 700 MHz (no P-state change: no transition), so cores 8-15 stop dispatching
/// at once and the ACK waits for their last threadblock: with cores 8-15 busy until
/// cycle 499, the drain ends at cycle 500 and the ACK is on the port at 501. Then speed
/// by 2.0: 16 cores at 700 again, enabling at once (the ACK on the port two cycles after
/// the request). At 16 x 700 a speed-up is NACKed (the limit). Slow by 0x46 = 4.375 from
/// 16 x 700: target 2,560; 13 x 200 = 2,600 and 8 x 325 = 2,600 tie at 40 (4 x 700 =
/// 2,800 is 240 off): fewer cores, 8 at 325 MHz, 3 steps (24,500 cycles).
#[test]
fn gpu_slow_by_two_from_16_cores_by_hand() {
    let (c, d) = design("qcache_l2", "gpu_actuator");
    let k = &c.companion;
    assert_eq!(k.gpu_lat, vec![0, 10_500, 17_500, 24_500, 31_500]);
    let make = || Script::new(vec![(10, req(false, 0x20)), (600, req(true, 0x20)), (700, req(true, 0x20))], |c| if c < 500 { 0xff00 } else { 0 });
    let (rsp, last) = script_run(QcGpuActuator::new(16, k.gpu_lat.clone()), &d, make, || ActChecker::gpu(16, k.gpu_lat.clone()), 800);
    assert_eq!(rsp, vec![(501, true), (602, true), (701, false)]);
    assert_eq!((last.active, last.dispatch, last.pstate), (0xffff, 0xffff, 4));
    // mid-way: 8 cores active at 700 MHz after the first ACK
    let make = || Script::new(vec![(10, req(false, 0x20))], |c| if c < 500 { 0xff00 } else { 0 });
    let (_, last) = script_run(QcGpuActuator::new(16, k.gpu_lat.clone()), &d, make, || ActChecker::gpu(16, k.gpu_lat.clone()), 520);
    assert_eq!((last.active, last.dispatch, last.pstate), (0x00ff, 0x00ff, 4));
    // slow by 4.375: 8 cores at 325 MHz (a tie with 13 x 200 goes to fewer cores), 3 steps
    let make = || Script::new(vec![(10, req(false, 0x46))], |_| 0);
    let (rsp, last) = script_run(QcGpuActuator::new(16, k.gpu_lat.clone()), &d, make, || ActChecker::gpu(16, k.gpu_lat.clone()), 24_600);
    assert_eq!(rsp, vec![(11 + 24_500, true)]);
    assert_eq!((last.active, last.pstate), (0x00ff, 1));
    // slow by 15.9 from 16 x 700 (target 702.7): 1 x 700, no transition (ACK at 12);
    // again (target 43.9): 1 x 200, 4 steps (31,500 cycles: ACK at 101 + 31,500); then a
    // slow request is at the limit (NACK), and RESTORE brings 16 x 700 back in 4 steps
    let make = || Script::new(vec![(10, req(false, 0xff)), (100, req(false, 0xff)), (40_000, req(false, 0x20)), (40_100, restore())], |_| 0);
    let (rsp, last) = script_run(QcGpuActuator::new(16, k.gpu_lat.clone()), &d, make, || ActChecker::gpu(16, k.gpu_lat.clone()), 72_000);
    assert_eq!(rsp, vec![(12, true), (31_601, true), (40_001, false), (71_601, true)]);
    assert_eq!((last.active, last.pstate), (0xffff, 4));
}

/// A planted bug per block is caught by the lockstep comparison (scoreboard off) and by
/// the scoreboard (on): the filter counts an O line's writeback as a SPILL, the GPU
/// actuator ACKs without waiting for the drain, the CPU DVFS ACKs a cycle early.
#[test]
fn planted_bugs_are_caught() {
    // filter
    let (c, d) = design("qcache_small", "filter");
    let mut rtl = common::rtl(&d);
    let layout = rtl.layout.clone();
    let mk = |chk: bool| {
        let mut b = filter_bench(&c, &layout, 5).unwrap();
        b.model.mutation = Some(FilterMutation::SpillFromO);
        if chk {
            b
        } else {
            b.without_checker()
        }
    };
    match lockstep::run(&mut rtl, || mk(false), &Options::new(100_000, 5).without_waveform()) {
        Err(CosimError::Mismatch(mm)) => assert!(mm.diffs.iter().any(|x| x.port == "ev_spill_o"), "{mm}"),
        other => panic!("the filter bug was not caught: {other:?}"),
    }
    rtl.renew();
    match lockstep::run(&mut rtl, || mk(true), &Options::new(100_000, 5).without_waveform()) {
        Err(CosimError::Invariant { message, .. }) => assert!(message.contains("1.2"), "{message}"),
        other => panic!("the filter bug was not caught by the scoreboard: {other:?}"),
    }
    // actuators
    for (dir, m) in [("gpu_actuator", ActMutation::AckBeforeDrain), ("cpu_dvfs", ActMutation::EarlyAck)] {
        let (c, d) = design("qcache_small", dir);
        let mut rtl = common::rtl(&d);
        let layout = rtl.layout.clone();
        for chk in [false, true] {
            let res = if dir == "gpu_actuator" {
                lockstep::run(
                    &mut rtl,
                    || {
                        let mut b = gpu_actuator_bench(&c, &layout, 6).unwrap();
                        b.model.mutation = Some(m);
                        if chk {
                            b
                        } else {
                            b.without_checker()
                        }
                    },
                    &Options::new(100_000, 6).without_waveform(),
                )
            } else {
                lockstep::run(
                    &mut rtl,
                    || {
                        let mut b = cpu_dvfs_bench(&c, &layout, 6).unwrap();
                        b.model.mutation = Some(m);
                        if chk {
                            b
                        } else {
                            b.without_checker()
                        }
                    },
                    &Options::new(100_000, 6).without_waveform(),
                )
            };
            match (chk, res) {
                (false, Err(CosimError::Mismatch(mm))) => {
                    assert!(mm.diffs.iter().any(|x| x.port.starts_with("rsp_") || x.port == "active_core_mask_o" || x.port == "busy_o"), "{m:?}: {mm}")
                }
                (true, Err(CosimError::Invariant { message, .. })) => assert!(message.contains("1.8"), "{m:?}: {message}"),
                (_, other) => panic!("{m:?} (scoreboard {chk}) was not caught: {other:?}"),
            }
            rtl.renew();
        }
    }
}
