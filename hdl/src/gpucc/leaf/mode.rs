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
