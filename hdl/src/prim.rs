//! Primitive rust-hdl blocks with hand-written Verilog bodies: registers with
//! synchronous active-high reset (rust-hdl's own `DFF` relies on `initial`, which
//! the architecture forbids), to zero or to a value from an input, or presenting
//! their output through an interface ([`QReg`]); 1-write, N-read memories with
//! combinational reads or a read pointer; a zero-extension (rust-hdl's `bit_cast`
//! emits `x & mask` of mismatched widths, which `-Wall` flags).
//!
//! Each body starts with its catalog entry ([`body`]): a `gf-module:` marker naming the module after its
//! parameters, so identical primitives collapse into one Verilog module no matter
//! where they are instantiated (see [`crate::emit`]).

use rust_hdl::prelude::*;

/// A primitive's Verilog body with its catalog entry in marker lines (see
/// [`crate::catalog`]): the module's name, what it is, the parameters it was generated
/// for and its protocol, written once, beside the Verilog itself.
pub fn body(name: &str, what: &str, params: &[(&str, usize)], protocol: &str, verilog: &str) -> Verilog {
    use crate::catalog::{PRIM_DOC, PRIM_MODULE, PRIM_PARAM, PRIM_PROTOCOL};
    let mut s = format!("{PRIM_MODULE}{name}\n{PRIM_DOC}{what}\n");
    for (k, v) in params {
        s += &format!("{PRIM_PARAM}{k} = {v}\n");
    }
    s += &format!("{PRIM_PROTOCOL}{protocol}\n{verilog}");
    Verilog::Custom(s)
}

const REG: &str = "No handshake: q_o takes d_i at every rising edge of clk_i; rst_i (synchronous, active high) clears it.";

/// Register with synchronous active-high reset to zero.
#[derive(LogicBlock, Default)]
pub struct Reg<const W: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub d_i: Signal<In, Bits<W>>,
    pub q_o: Signal<Out, Bits<W>>,
}

impl<const W: usize> Logic for Reg<W> {
    fn update(&mut self) {
        if self.clk_i.pos_edge() {
            self.q_o.next = if self.rst_i.val() { Bits::<W>::default() } else { self.d_i.val() };
        }
    }

    fn connect(&mut self) {
        self.q_o.connect();
    }

    fn hdl(&self) -> Verilog {
        body(
            &format!("gf_reg_w{W}"),
            "register, synchronous active-high reset to 0",
            &[("W", W)],
            REG,
            &format!("always @(posedge clk_i) begin\n  if (rst_i) q_o <= {W}'d0;\n  else q_o <= d_i;\nend"),
        )
    }
}

/// Single-bit register with synchronous reset to zero.
#[derive(LogicBlock, Default)]
pub struct Flag {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub d_i: Signal<In, Bit>,
    pub q_o: Signal<Out, Bit>,
}

impl Logic for Flag {
    fn update(&mut self) {
        if self.clk_i.pos_edge() {
            self.q_o.next = !self.rst_i.val() && self.d_i.val();
        }
    }

    fn connect(&mut self) {
        self.q_o.connect();
    }

    fn hdl(&self) -> Verilog {
        body("gf_flag", "one-bit register, synchronous active-high reset to 0", &[], REG, "always @(posedge clk_i) begin\n  if (rst_i) q_o <= 1'b0;\n  else q_o <= d_i;\nend")
    }
}

/// `depth` x `W` memory, one synchronous write port, two combinational read ports.
/// No reset: readers gate data with their own valid. Addresses are `C` bits, one
/// more than the array needs, matching the FIFO pointers; an address at or past
/// `depth` writes nothing and reads 0.
#[derive(LogicBlock)]
pub struct Mem2R<const W: usize, const C: usize> {
    pub clk_i: Signal<In, Clock>,
    pub w_v_i: Signal<In, Bit>,
    pub w_addr_i: Signal<In, Bits<C>>,
    pub w_data_i: Signal<In, Bits<W>>,
    pub r0_addr_i: Signal<In, Bits<C>>,
    pub r0_data_o: Signal<Out, Bits<W>>,
    pub r1_addr_i: Signal<In, Bits<C>>,
    pub r1_data_o: Signal<Out, Bits<W>>,
    _depth: usize,
    _sim: Vec<Bits<W>>,
}

/// `depth` x `W` memory, one synchronous write port, one combinational read port.
#[derive(LogicBlock)]
pub struct Mem1R<const W: usize, const C: usize> {
    pub clk_i: Signal<In, Clock>,
    pub w_v_i: Signal<In, Bit>,
    pub w_addr_i: Signal<In, Bits<C>>,
    pub w_data_i: Signal<In, Bits<W>>,
    pub r0_addr_i: Signal<In, Bits<C>>,
    pub r0_data_o: Signal<Out, Bits<W>>,
    _depth: usize,
    _sim: Vec<Bits<W>>,
}

macro_rules! mem_new {
    ($ty:ident { $($extra:ident),* }) => {
        impl<const W: usize, const C: usize> $ty<W, C> {
            pub fn new(depth: usize) -> Self {
                assert!(depth >= 2 && depth <= (1 << (C - 1)), "memory depth {depth} needs more than {} address bits", C - 1);
                Self {
                    clk_i: Default::default(),
                    w_v_i: Default::default(),
                    w_addr_i: Default::default(),
                    w_data_i: Default::default(),
                    r0_addr_i: Default::default(),
                    r0_data_o: Default::default(),
                    $($extra: Default::default(),)*
                    _depth: depth,
                    _sim: vec![Bits::<W>::default(); depth],
                }
            }
        }
    };
}

mem_new!(Mem2R { r1_addr_i, r1_data_o });
mem_new!(Mem1R {});

/// The Verilog body of a memory primitive.
fn mem_body<const W: usize, const C: usize>(name: &str, depth: usize, reads: &[&str]) -> Verilog {
    // index width the array needs
    let a = usize::BITS - (depth - 1).leading_zeros();
    let mut s = format!(
        "reg [{w1}:0] mem_r [0:{d1}];\n\
         always @(posedge clk_i) begin\n  if (w_v_i && w_addr_i < {C}'d{depth}) mem_r[w_addr_i[{a1}:0]] <= w_data_i;\nend\n",
        w1 = W - 1,
        d1 = depth - 1,
        a1 = a - 1,
    );
    for r in reads {
        s += &format!("always @(*) {r}_data_o = ({r}_addr_i < {C}'d{depth}) ? mem_r[{r}_addr_i[{a1}:0]] : {W}'d0;\n", a1 = a - 1);
    }
    body(
        &format!("{name}_w{W}_d{depth}"),
        &format!("{depth} x {W}-bit memory: one synchronous write port, {} combinational read port(s)", reads.len()),
        &[("W", W), ("DEPTH", depth)],
        "No handshake: w_v_i writes w_data_i at w_addr_i on the rising edge (addresses >= DEPTH write nothing); rN_data_o = entry rN_addr_i, combinationally (0 for addresses >= DEPTH). No reset of the contents.",
        &s,
    )
}

fn sim_read<const W: usize, const C: usize>(sim: &[Bits<W>], addr: Bits<C>) -> Bits<W> {
    let a = addr.index();
    if a < sim.len() {
        sim[a]
    } else {
        Bits::<W>::default()
    }
}

impl<const W: usize, const C: usize> Logic for Mem2R<W, C> {
    fn update(&mut self) {
        if self.clk_i.pos_edge() && self.w_v_i.val() {
            let a = self.w_addr_i.val().index();
            if a < self._depth {
                self._sim[a] = self.w_data_i.val();
            }
        }
        self.r0_data_o.next = sim_read(&self._sim, self.r0_addr_i.val());
        self.r1_data_o.next = sim_read(&self._sim, self.r1_addr_i.val());
    }

    fn connect(&mut self) {
        self.r0_data_o.connect();
        self.r1_data_o.connect();
    }

    fn hdl(&self) -> Verilog {
        mem_body::<W, C>("gf_mem2r", self._depth, &["r0", "r1"])
    }
}

impl<const W: usize, const C: usize> Logic for Mem1R<W, C> {
    fn update(&mut self) {
        if self.clk_i.pos_edge() && self.w_v_i.val() {
            let a = self.w_addr_i.val().index();
            if a < self._depth {
                self._sim[a] = self.w_data_i.val();
            }
        }
        self.r0_data_o.next = sim_read(&self._sim, self.r0_addr_i.val());
    }

    fn connect(&mut self) {
        self.r0_data_o.connect();
    }

    fn hdl(&self) -> Verilog {
        mem_body::<W, C>("gf_mem1r", self._depth, &["r0"])
    }
}

/// `o = min(i, DEPTH)` for a 4-bit initial-token count, resized to the FIFO's
/// count width `C` (which may be narrower or wider than 4).
#[derive(LogicBlock)]
pub struct InitClamp<const C: usize> {
    pub i: Signal<In, Bits<4>>,
    pub o: Signal<Out, Bits<C>>,
    _depth: usize,
}

impl<const C: usize> InitClamp<C> {
    pub fn new(depth: usize) -> Self {
        assert!(depth < (1 << C));
        Self { i: Default::default(), o: Default::default(), _depth: depth }
    }
}

impl<const C: usize> Logic for InitClamp<C> {
    fn update(&mut self) {
        self.o.next = (self.i.val().index().min(self._depth) as u64).to_bits();
    }

    fn connect(&mut self) {
        self.o.connect();
    }

    fn hdl(&self) -> Verilog {
        let d = self._depth;
        let mw = C.max(4);
        let wide_i = if mw > 4 { format!("{{{}'d0, i}}", mw - 4) } else { "i".to_string() };
        let narrow = if C < mw { format!("wide_i[{}:0]", C - 1) } else { "wide_i".to_string() };
        body(
            &format!("gf_init_clamp_c{C}_d{d}"),
            "min(4-bit initial-token count, FIFO depth), resized to the FIFO count width",
            &[("C", C), ("DEPTH", d)],
            "Combinational; no handshake.",
            &format!(
                "wire [{m1}:0] wide_i = {wide_i};\n\
                 always @(*) begin\n  if (wide_i > {mw}'d{d}) o = {C}'d{d};\n  else o = {narrow};\nend",
                m1 = mw - 1
            ),
        )
    }
}

/// The `full` flag of a FIFO, routed straight from [`CountReg`] to the FIFO's port
/// (rust-hdl `link`), so it does not pass through the FIFO's combinational block
/// and no false loop appears through push -> FIFO -> full.
#[derive(LogicInterface, Default)]
pub struct FullFlag {
    pub full_o: Signal<Out, Bit>,
}

/// FIFO occupancy register (synchronous reset to 0) with its `full` flag
/// (`q == depth`) computed outside any block that also reads the push.
#[derive(LogicBlock)]
pub struct CountReg<const C: usize> {
    pub clk_i: Signal<In, Clock>,
    pub rst_i: Signal<In, Bit>,
    pub d_i: Signal<In, Bits<C>>,
    pub q_o: Signal<Out, Bits<C>>,
    pub status: FullFlag,
    _depth: usize,
}

impl<const C: usize> CountReg<C> {
    pub fn new(depth: usize) -> Self {
        assert!(depth < (1 << C));
        Self { clk_i: Default::default(), rst_i: Default::default(), d_i: Default::default(), q_o: Default::default(), status: Default::default(), _depth: depth }
    }
}

impl<const C: usize> Logic for CountReg<C> {
    fn update(&mut self) {
        if self.clk_i.pos_edge() {
            self.q_o.next = if self.rst_i.val() { Bits::<C>::default() } else { self.d_i.val() };
        }
        self.status.full_o.next = self.q_o.val().index() == self._depth;
    }

    fn connect(&mut self) {
        self.q_o.connect();
        self.status.full_o.connect();
    }

    fn hdl(&self) -> Verilog {
        let d = self._depth;
        body(
            &format!("gf_count_reg_c{C}_d{d}"),
            "FIFO occupancy counter with its full flag",
            &[("C", C), ("DEPTH", d)],
            "No handshake: q_o takes d_i at every rising edge (rst_i clears it); full_o = (q_o == DEPTH), from the register only.",
            &format!(
                "always @(posedge clk_i) begin\n  if (rst_i) q_o <= {C}'d0;\n  else q_o <= d_i;\nend\n\
                 always @(*) status$full_o = (q_o == {C}'d{d});"
            ),
        )
    }
}

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
        body(
            &format!("gf_reg_init_w{W}"),
            "register, synchronous active-high reset to init_i",
            &[("W", W)],
            "No handshake: q_o takes d_i at every rising edge of clk_i; rst_i (synchronous, active high) loads init_i.",
            "always @(posedge clk_i) begin\n  if (rst_i) q_o <= init_i;\n  else q_o <= d_i;\nend",
        )
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
        body(&format!("gf_zext_i{I}_o{O}"), "zero-extension", &[("I", I), ("O", O)], "Combinational; no handshake.", &format!("always @(*) o = {{{}'d0, i}};", O - I))
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
        body(
            &format!("gf_qreg_w{W}"),
            "register, synchronous active-high reset to 0, output through an interface (no false combinational loop)",
            &[("W", W)],
            REG,
            &format!("always @(posedge clk_i) begin\n  if (rst_i) q$q_o <= {W}'d0;\n  else q$q_o <= d_i;\nend"),
        )
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
        body(
            &format!("gf_rdptr_mem_w{W}_d{d}"),
            "memory with one synchronous write port and a read pointer advanced by pop_i",
            &[("W", W), ("DEPTH", d)],
            "No handshake: w_v_i writes w_data_i at w_addr_i on the rising edge; pop_i advances the read pointer (rst_i clears it); data_o = the entry at the pointer, from registers only.",
            &format!(
            "reg [{w1}:0] mem_r [0:{d1}];\n\
             reg [{a1}:0] rp_r;\n\
             always @(posedge clk_i) begin\n  if (w_v_i) mem_r[w_addr_i] <= w_data_i;\nend\n\
             always @(posedge clk_i) begin\n  if (rst_i) rp_r <= {A}'d0;\n  else if (pop_i) rp_r <= rp_r + {A}'d1;\nend\n\
             always @(*) rd$data_o = mem_r[rp_r];",
            w1 = W - 1,
            d1 = d - 1,
            a1 = A - 1,
            ),
        )
    }
}
