//! Route lookup ROM of a hinge router (spec §1.4): rows 0..m-1 (one per overlay =
//! MC), row m the GOM broadcast overlay, each `golden::noc::route_rom::ROW_BITS` (30)
//! bits `{f_L, f_S, f_N, f_W, f_E}`. Two combinational read ports: the live overlay
//! and its multiplexed partner; any other address (`OVL_NONE` = none, or past the
//! last row) reads 0 (all outputs φ).
//!
//! One module per row count, `macro_route_rom_r<ROWS>`, shared by every router of a
//! preset: the rows are the Verilog parameter `ROWS` (row i in bits `[30i +: 30]`),
//! which the mesh and hinge-top templates set on each instance with [`rows_param`]
//! (the rows `golden::noc::route_rom` computes, checked against the legal-source
//! table before). The module's own default is the rows the block was built with:
//! all φ in the generated library, a router's rows in the leaf tests.

use golden::noc::route_rom::{MAX_ROWS, OVL_BITS, ROW_BITS};
use rust_hdl::prelude::*;

const ROW_W: usize = ROW_BITS as usize;
const ADDR_W: usize = OVL_BITS as usize;

/// `ROWS`, the instance parameter of a ROM with `rows`: a concatenation of sized
/// constants, the last row first (`{30'h.., .., 30'h<row 0>}`).
pub fn rows_param(rows: &[u32]) -> String {
    let parts: Vec<String> = rows.iter().rev().map(|r| format!("{ROW_BITS}'h{r:x}")).collect();
    format!("{{{}}}", parts.join(", "))
}

#[derive(LogicBlock)]
pub struct RouteRom {
    pub addr_a_i: Signal<In, Bits<ADDR_W>>,
    pub addr_b_i: Signal<In, Bits<ADDR_W>>,
    pub row_a_o: Signal<Out, Bits<ROW_W>>,
    pub row_b_o: Signal<Out, Bits<ROW_W>>,
    /// The rows (the parameter's default in the emitted Verilog).
    _rows: Vec<u32>,
}

impl RouteRom {
    /// A ROM of `rows.len()` rows whose contents default to `rows` (`RomRow::bits`).
    pub fn new(rows: &[u32]) -> Self {
        assert!(!rows.is_empty() && rows.len() <= MAX_ROWS, "{} rows (1..={MAX_ROWS})", rows.len());
        Self { addr_a_i: Default::default(), addr_b_i: Default::default(), row_a_o: Default::default(), row_b_o: Default::default(), _rows: rows.to_vec() }
    }

    fn read(&self, addr: Bits<ADDR_W>) -> Bits<ROW_W> {
        (self._rows.get(addr.index()).copied().unwrap_or(0) as u64).to_bits()
    }
}

impl Logic for RouteRom {
    fn update(&mut self) {
        self.row_a_o.next = self.read(self.addr_a_i.val());
        self.row_b_o.next = self.read(self.addr_b_i.val());
    }

    fn connect(&mut self) {
        self.row_a_o.connect();
        self.row_b_o.connect();
    }

    /// The body after the port declarations: the `ROWS` parameter and one compare per
    /// row and port (named by its catalog entry when emitted, like any leaf).
    fn hdl(&self) -> Verilog {
        let n = self._rows.len();
        let mut s = format!("// row i of the ROM in ROWS[{ROW_BITS}i +: {ROW_BITS}], set per instance\nparameter [{}:0] ROWS = {};\n", n * ROW_W - 1, rows_param(&self._rows));
        s += &format!("always @(*) begin\n  row_a_o = {ROW_BITS}'h0;\n  row_b_o = {ROW_BITS}'h0;\n");
        for i in 0..n {
            let (hi, lo) = ((i + 1) * ROW_W - 1, i * ROW_W);
            s += &format!("  if (addr_a_i == {OVL_BITS}'d{i}) row_a_o = ROWS[{hi}:{lo}];\n  if (addr_b_i == {OVL_BITS}'d{i}) row_b_o = ROWS[{hi}:{lo}];\n");
        }
        s += "end";
        Verilog::Custom(s)
    }
}
