//! Tests of `hdl_gen::gpucc::leaf::mode` (`hdl/src/gpucc/leaf/mode.rs`).

use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};
use golden::gpucc::net::Mode;
use hdl_gen::gpucc::leaf::mode::*;

#[test]
fn mode_fsm_is_lint_clean_and_synthesizable() {
    lint_and_synth(ModeFsm::new(64), "gpucc_mode_wdog64");
}

#[derive(Clone, Copy, Default)]
struct In {
    start: bool,
    done: bool,
    fire: bool,
    idle: bool,
    we: bool,
    ok: bool,
}

/// `(mode, active, init, cfg_accept, cc_done, wdog, cfg_err)`
type Out = (Mode, bool, bool, bool, bool, bool, bool);

fn step(s: &mut LeafSim<ModeFsm>, i: In) -> Out {
    s.cc_start_i.next = i.start;
    s.all_done_i.next = i.done;
    s.any_fire_i.next = i.fire;
    s.mem_idle_i.next = i.idle;
    s.cfg_we_i.next = i.we;
    s.unit_ok_i.next = i.ok;
    s.settle();
    let o = (
        Mode::from_code(val(&s.mode_o) as u64).expect("a mode code"),
        s.active_o.val(),
        s.init_o.val(),
        s.cfg_accept_o.val(),
        s.cc_done_o.val(),
        s.wdog_o.val(),
        s.cfg_err_o.val(),
    );
    s.tick();
    o
}

/// The mode control of `golden::gpucc::net::CcNet::{eval, commit}`, transcribed
/// (golden keeps it inside the network model).
struct Reference {
    mode: Mode,
    cnt: u32,
    done: bool,
    wdog: bool,
    err: bool,
    watchdog: u32,
}

impl Reference {
    fn step(&mut self, i: In) -> Out {
        let gpu = self.mode == Mode::Gpu;
        let o = (self.mode, self.mode.active(), self.mode == Mode::Arm, i.we && i.ok && gpu, self.done, self.wdog, self.err);
        self.err = i.we && !(i.ok && gpu);
        self.done = false;
        self.wdog = false;
        match self.mode {
            Mode::Gpu if i.start => self.mode = Mode::Arm,
            Mode::Gpu => {}
            Mode::Arm => (self.mode, self.cnt) = (Mode::Run, 0),
            Mode::Run if i.done => (self.mode, self.cnt) = (Mode::Drain, 0),
            Mode::Run if i.fire => self.cnt = 0,
            Mode::Run if self.cnt + 1 >= self.watchdog => (self.mode, self.wdog, self.cnt) = (Mode::Gpu, true, 0),
            Mode::Run => self.cnt += 1,
            Mode::Drain if i.idle => (self.mode, self.done) = (Mode::Gpu, true),
            Mode::Drain => {}
        }
        o
    }
}

fn fsm(watchdog: u32) -> LeafSim<ModeFsm> {
    let mut s = LeafSim::clocked(ModeFsm::new(watchdog), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    s
}

/// Spec §1.9 by hand, watchdog 3: start -> ARM (init) -> RUN; three idle RUN
/// cycles abort to GPU with a `wdog` pulse; a second run fires (the count restarts),
/// finishes -> DRAIN -> (mem idle) GPU with a `cc_done` pulse. Configuration
/// writes are accepted only in GPU mode; others pulse `cfg_err` a cycle later.
#[test]
fn mode_fsm_walks_the_spec_sequence() {
    use Mode::*;
    let mut s = fsm(3);
    let idle = In::default();
    let go = In { start: true, ..idle };
    let fire = In { fire: true, ..idle };
    let done = In { done: true, ..idle };
    let mem_idle = In { idle: true, ..idle };
    let wr = In { we: true, ok: true, ..idle };
    let bad_wr = In { we: true, ok: false, ..idle };
    // (input, mode, active, init, cfg_accept, cc_done, wdog, cfg_err) per cycle
    let seq: [(In, Out); 17] = [
        (wr, (Gpu, false, false, true, false, false, false)),
        (bad_wr, (Gpu, false, false, false, false, false, false)),
        (go, (Gpu, false, false, false, false, false, true)),
        (idle, (Arm, false, true, false, false, false, false)),
        (idle, (Run, true, false, false, false, false, false)),
        (wr, (Run, true, false, false, false, false, false)),
        (idle, (Run, true, false, false, false, false, true)),
        (idle, (Gpu, false, false, false, false, true, false)),
        (go, (Gpu, false, false, false, false, false, false)),
        (idle, (Arm, false, true, false, false, false, false)),
        (idle, (Run, true, false, false, false, false, false)),
        (idle, (Run, true, false, false, false, false, false)),
        (fire, (Run, true, false, false, false, false, false)),
        (idle, (Run, true, false, false, false, false, false)),
        (done, (Run, true, false, false, false, false, false)),
        (mem_idle, (Drain, true, false, false, false, false, false)),
        (idle, (Gpu, false, false, false, true, false, false)),
    ];
    for (c, (i, want)) in seq.into_iter().enumerate() {
        assert_eq!(step(&mut s, i), want, "cycle {c}");
    }
}

/// Random inputs against the transcribed golden mode control.
#[test]
fn mode_fsm_matches_golden_mode_control() {
    for watchdog in [1, 4] {
        let mut s = fsm(watchdog);
        let mut g = Reference { mode: Mode::Gpu, cnt: 0, done: false, wdog: false, err: false, watchdog };
        let mut r = Rng::new(watchdog as u64);
        let mut seen = [false; 4];
        for c in 0..2000 {
            let i = In { start: r.pct(30), done: r.pct(8), fire: r.pct(40), idle: r.pct(30), we: r.pct(20), ok: r.pct(80) };
            let want = g.step(i);
            assert_eq!(step(&mut s, i), want, "watchdog {watchdog}, cycle {c}");
            seen[want.0 as usize] = true;
        }
        assert_eq!(seen, [true; 4], "every mode visited");
    }
}
