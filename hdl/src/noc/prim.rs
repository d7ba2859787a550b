//! Generic primitives of the NoC leaves, with hand-written Verilog bodies (like
//! [`crate::leaf::prim`]): a register with a reset value taken from an input (the
//! window registers reset to the config's default window set) and a zero-extension
//! (rust-hdl's `bit_cast` emits `x & mask` of mismatched widths, which `-Wall` flags).
//!
//! Each body starts with a `gf-module:` marker so identical primitives collapse into
//! one module (see [`crate::emit`]).

use rust_hdl::prelude::*;

/// Register with synchronous active-high reset to `init_i` (normally a constant).
#[derive(LogicBlock, Default)]
pub struct RegInit<const W: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub init_i: Signal<In, Bits<W>>,
    pub d_i: Signal<In, Bits<W>>,
    pub q_o: Signal<Out, Bits<W>>,
}

impl<const W: usize> Logic for RegInit<W> {
    fn update(&mut self) {
        if self.clk_i.pos_edge() {
            self.q_o.next = if self.rst_i.val() { self.init_i.val() } else { self.d_i.val() };
        }
    }

    fn connect(&mut self) {
        self.q_o.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "// gf-module: gf_reg_init_w{W}\n\
             always @(posedge clk_i) begin\n  if (rst_i) q_o <= init_i;\n  else q_o <= d_i;\nend"
        ))
    }
}

/// `o = {0, i}`: zero-extension from `I` to `O > I` bits.
#[derive(LogicBlock, Default)]
pub struct Zext<const I: usize, const O: usize> {
    pub i: Signal<In, Bits<I>>,
    pub o: Signal<Out, Bits<O>>,
}

impl<const I: usize, const O: usize> Logic for Zext<I, O> {
    fn update(&mut self) {
        self.o.next = (self.i.val().to_u64()).to_bits();
    }

    fn connect(&mut self) {
        self.o.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(O > I, "zero-extension from {I} to {O} bits");
        Verilog::Custom(format!("// gf-module: gf_zext_i{I}_o{O}\nalways @(*) o = {{{}'d0, i}};", O - I))
    }
}

/// The output of a [`QReg`]: its `q`, routed to the owning leaf's port with
/// `RegQ::link` so it never passes through the leaf's combinational block (a
/// register value read by logic that also feeds this leaf's inputs would otherwise
/// make Verilator see a combinational loop through the leaf's single `always @(*)`).
#[derive(LogicInterface, Default)]
pub struct RegQ<const W: usize> {
    pub q_o: Signal<Out, Bits<W>>,
}

/// Register with synchronous active-high reset to zero whose output is a [`RegQ`].
#[derive(LogicBlock, Default)]
pub struct QReg<const W: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub d_i: Signal<In, Bits<W>>,
    pub q: RegQ<W>,
}

impl<const W: usize> Logic for QReg<W> {
    fn update(&mut self) {
        if self.clk_i.pos_edge() {
            self.q.q_o.next = if self.rst_i.val() { Bits::<W>::default() } else { self.d_i.val() };
        }
    }

    fn connect(&mut self) {
        self.q.q_o.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "// gf-module: gf_qreg_w{W}\n\
             always @(posedge clk_i) begin\n  if (rst_i) q$q_o <= {W}'d0;\n  else q$q_o <= d_i;\nend"
        ))
    }
}

/// The read port of a [`ReadPtrMem`]: the entry at the read pointer, a function of
/// registers only (routed to the owner's port with `MemRead::link`).
#[derive(LogicInterface, Default)]
pub struct MemRead<const W: usize> {
    pub data_o: Signal<Out, Bits<W>>,
}

/// `2^A` x `W` memory with one synchronous write port and a read pointer register
/// (reset 0) advanced by `pop_i`; `rd` reads the entry at the pointer. No reset of
/// the contents: the owner tracks which entries are valid.
#[derive(LogicBlock, Default)]
pub struct ReadPtrMem<const W: usize, const A: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub w_v_i: Signal<In, Bit>,
    pub w_addr_i: Signal<In, Bits<A>>,
    pub w_data_i: Signal<In, Bits<W>>,
    pub pop_i: Signal<In, Bit>,
    pub rd: MemRead<W>,
}

impl<const W: usize, const A: usize> Logic for ReadPtrMem<W, A> {
    fn update(&mut self) {}

    fn connect(&mut self) {
        self.rd.data_o.connect();
    }

    fn hdl(&self) -> Verilog {
        let d = 1usize << A;
        Verilog::Custom(format!(
            "// gf-module: gf_rdptr_mem_w{W}_d{d}\n\
             reg [{w1}:0] mem_r [0:{d1}];\n\
             reg [{a1}:0] rp_r;\n\
             always @(posedge clk_i) begin\n  if (w_v_i) mem_r[w_addr_i] <= w_data_i;\nend\n\
             always @(posedge clk_i) begin\n  if (rst_i) rp_r <= {A}'d0;\n  else if (pop_i) rp_r <= rp_r + {A}'d1;\nend\n\
             always @(*) rd$data_o = mem_r[rp_r];",
            w1 = W - 1,
            d1 = d - 1,
            a1 = A - 1,
        ))
    }
}
