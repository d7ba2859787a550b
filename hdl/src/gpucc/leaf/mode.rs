//! GPU-CC mode FSM with watchdog (spec §1.9), as in `golden::gpucc::net`:
//! GPU -(cc_start)-> ARM (one cycle: init) -> RUN -(all_done)-> DRAIN -(mem_idle)-> GPU.
//! In RUN, `watchdog` consecutive cycles without any fire abort to GPU and pulse
//! `wdog_o`. `cc_done_o`, `wdog_o` and `cfg_err_o` are registered one-cycle pulses.

use golden::gpucc::net::{Mode, MODE_BITS};
use rust_hdl::prelude::*;

use crate::prim::{Flag, Reg};

/// Width of `mode_o`; the codes are `golden::gpucc::net::Mode::code`.
const MW: usize = MODE_BITS as usize;

#[derive(LogicBlock)]
pub struct ModeFsm {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub cc_start_i: Signal<In, Bit>,
    /// Every counted unit reports done (and at least one unit is counted).
    pub all_done_i: Signal<In, Bit>,
    /// Some unit fires this cycle.
    pub any_fire_i: Signal<In, Bit>,
    pub mem_idle_i: Signal<In, Bit>,
    /// A configuration write is presented, to an existing unit (`unit_ok_i`).
    pub cfg_we_i: Signal<In, Bit>,
    pub unit_ok_i: Signal<In, Bit>,
    pub mode_o: Signal<Out, Bits<MW>>,
    /// RUN or DRAIN: the network moves tokens.
    pub active_o: Signal<Out, Bit>,
    /// ARM: clear FIFOs and preload initial tokens this cycle.
    pub init_o: Signal<Out, Bit>,
    /// The configuration write is accepted this cycle.
    pub cfg_accept_o: Signal<Out, Bit>,
    pub cc_done_o: Signal<Out, Bit>,
    pub wdog_o: Signal<Out, Bit>,
    pub cfg_err_o: Signal<Out, Bit>,
    mode_r: Reg<2>,
    wdog_cnt_r: Reg<32>,
    cc_done_r: Flag,
    wdog_r: Flag,
    cfg_err_r: Flag,
    gpu: Constant<Bits<MW>>,
    arm: Constant<Bits<MW>>,
    run: Constant<Bits<MW>>,
    drain: Constant<Bits<MW>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    /// Watchdog threshold minus one: trip when the idle count reaches it.
    wdog_last: Constant<Bits<32>>,
}

impl ModeFsm {
    pub fn new(watchdog: u32) -> Self {
        assert!(watchdog >= 1);
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            cc_start_i: Default::default(),
            all_done_i: Default::default(),
            any_fire_i: Default::default(),
            mem_idle_i: Default::default(),
            cfg_we_i: Default::default(),
            unit_ok_i: Default::default(),
            mode_o: Default::default(),
            active_o: Default::default(),
            init_o: Default::default(),
            cfg_accept_o: Default::default(),
            cc_done_o: Default::default(),
            wdog_o: Default::default(),
            cfg_err_o: Default::default(),
            mode_r: Default::default(),
            wdog_cnt_r: Default::default(),
            cc_done_r: Default::default(),
            wdog_r: Default::default(),
            cfg_err_r: Default::default(),
            gpu: Constant::new(Mode::Gpu.code().to_bits()),
            arm: Constant::new(Mode::Arm.code().to_bits()),
            run: Constant::new(Mode::Run.code().to_bits()),
            drain: Constant::new(Mode::Drain.code().to_bits()),
            zero32: Constant::new(0u64.to_bits()),
            one32: Constant::new(1u64.to_bits()),
            wdog_last: Constant::new((watchdog as u64 - 1).to_bits()),
        }
    }
}

impl Logic for ModeFsm {
    #[hdl_gen]
    fn update(&mut self) {
        self.mode_r.clk_i.next = self.clk_i.val();
        self.wdog_cnt_r.clk_i.next = self.clk_i.val();
        self.cc_done_r.clk_i.next = self.clk_i.val();
        self.wdog_r.clk_i.next = self.clk_i.val();
        self.cfg_err_r.clk_i.next = self.clk_i.val();
        self.mode_r.rst_i.next = self.rst_i.val();
        self.wdog_cnt_r.rst_i.next = self.rst_i.val();
        self.cc_done_r.rst_i.next = self.rst_i.val();
        self.wdog_r.rst_i.next = self.rst_i.val();
        self.cfg_err_r.rst_i.next = self.rst_i.val();

        self.mode_r.d_i.next = self.mode_r.q_o.val();
        self.wdog_cnt_r.d_i.next = self.wdog_cnt_r.q_o.val();
        self.cc_done_r.d_i.next = false;
        self.wdog_r.d_i.next = false;

        if self.mode_r.q_o.val() == self.gpu.val() {
            if self.cc_start_i.val() {
                self.mode_r.d_i.next = self.arm.val();
            }
        } else if self.mode_r.q_o.val() == self.arm.val() {
            self.mode_r.d_i.next = self.run.val();
            self.wdog_cnt_r.d_i.next = self.zero32.val();
        } else if self.mode_r.q_o.val() == self.run.val() {
            if self.all_done_i.val() {
                self.mode_r.d_i.next = self.drain.val();
                self.wdog_cnt_r.d_i.next = self.zero32.val();
            } else if self.any_fire_i.val() {
                self.wdog_cnt_r.d_i.next = self.zero32.val();
            } else if self.wdog_cnt_r.q_o.val() >= self.wdog_last.val() {
                self.mode_r.d_i.next = self.gpu.val();
                self.wdog_r.d_i.next = true;
                self.wdog_cnt_r.d_i.next = self.zero32.val();
            } else {
                self.wdog_cnt_r.d_i.next = self.wdog_cnt_r.q_o.val() + self.one32.val();
            }
        } else if self.mem_idle_i.val() {
            self.mode_r.d_i.next = self.gpu.val();
            self.cc_done_r.d_i.next = true;
        }

        self.cfg_accept_o.next = self.cfg_we_i.val() & self.unit_ok_i.val() & (self.mode_r.q_o.val() == self.gpu.val());
        self.cfg_err_r.d_i.next = self.cfg_we_i.val() & !(self.unit_ok_i.val() & (self.mode_r.q_o.val() == self.gpu.val()));

        self.mode_o.next = self.mode_r.q_o.val();
        self.active_o.next = (self.mode_r.q_o.val() == self.run.val()) | (self.mode_r.q_o.val() == self.drain.val());
        self.init_o.next = self.mode_r.q_o.val() == self.arm.val();
        self.cc_done_o.next = self.cc_done_r.q_o.val();
        self.wdog_o.next = self.wdog_r.q_o.val();
        self.cfg_err_o.next = self.cfg_err_r.q_o.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{lint_and_synth, val, LeafSim, Rng};

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
}
