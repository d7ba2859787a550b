//! One unit's 128-bit configuration register (spec §1.5): four 32-bit words with a
//! word-addressed write port. Decoding is done where the lane count is known (the
//! structural top), from the field table in `golden::gpucc::cr`.

use rust_hdl::prelude::*;

use crate::prim::Reg;

/// Configuration register of one unit.
#[derive(LogicBlock)]
pub struct ConfigReg {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    /// Write strobe, already qualified (this unit addressed, GPU mode).
    pub we_i: Signal<In, Bit>,
    pub word_i: Signal<In, Bits<2>>,
    pub wdata_i: Signal<In, Bits<32>>,
    /// Words 0..3 of the CR.
    pub w0_o: Signal<Out, Bits<32>>,
    pub w1_o: Signal<Out, Bits<32>>,
    pub w2_o: Signal<Out, Bits<32>>,
    pub w3_o: Signal<Out, Bits<32>>,
    w0_r: Reg<32>,
    w1_r: Reg<32>,
    w2_r: Reg<32>,
    w3_r: Reg<32>,
    word0: Constant<Bits<2>>,
    word1: Constant<Bits<2>>,
    word2: Constant<Bits<2>>,
    word3: Constant<Bits<2>>,
}

impl Default for ConfigReg {
    fn default() -> Self {
        Self {
            clk_i: Default::default(),
            rst_i: Default::default(),
            we_i: Default::default(),
            word_i: Default::default(),
            wdata_i: Default::default(),
            w0_o: Default::default(),
            w1_o: Default::default(),
            w2_o: Default::default(),
            w3_o: Default::default(),
            w0_r: Default::default(),
            w1_r: Default::default(),
            w2_r: Default::default(),
            w3_r: Default::default(),
            word0: Constant::new(0u64.to_bits()),
            word1: Constant::new(1u64.to_bits()),
            word2: Constant::new(2u64.to_bits()),
            word3: Constant::new(3u64.to_bits()),
        }
    }
}

impl Logic for ConfigReg {
    #[hdl_gen]
    fn update(&mut self) {
        self.w0_r.clk_i.next = self.clk_i.val();
        self.w1_r.clk_i.next = self.clk_i.val();
        self.w2_r.clk_i.next = self.clk_i.val();
        self.w3_r.clk_i.next = self.clk_i.val();
        self.w0_r.rst_i.next = self.rst_i.val();
        self.w1_r.rst_i.next = self.rst_i.val();
        self.w2_r.rst_i.next = self.rst_i.val();
        self.w3_r.rst_i.next = self.rst_i.val();
        self.w0_r.d_i.next = self.w0_r.q_o.val();
        self.w1_r.d_i.next = self.w1_r.q_o.val();
        self.w2_r.d_i.next = self.w2_r.q_o.val();
        self.w3_r.d_i.next = self.w3_r.q_o.val();
        if self.we_i.val() {
            if self.word_i.val() == self.word0.val() {
                self.w0_r.d_i.next = self.wdata_i.val();
            }
            if self.word_i.val() == self.word1.val() {
                self.w1_r.d_i.next = self.wdata_i.val();
            }
            if self.word_i.val() == self.word2.val() {
                self.w2_r.d_i.next = self.wdata_i.val();
            }
            if self.word_i.val() == self.word3.val() {
                self.w3_r.d_i.next = self.wdata_i.val();
            }
        }
        self.w0_o.next = self.w0_r.q_o.val();
        self.w1_o.next = self.w1_r.q_o.val();
        self.w2_o.next = self.w2_r.q_o.val();
        self.w3_o.next = self.w3_r.q_o.val();
    }
}
