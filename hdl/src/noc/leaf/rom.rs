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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, emit, lint_and_synth, noc_preset, outs, rtl_run, val, LeafSim, Outs};
    use crate::library::Module;
    use golden::noc::route_rom::{RomRow, OVL_NONE};
    use golden::noc::NocConfig;

    fn bits(rows: &[RomRow]) -> Vec<u32> {
        rows.iter().map(RomRow::bits).collect()
    }

    #[test]
    fn route_rom_is_lint_clean_and_synthesizable() {
        let c = noc_preset("noc_macro_4x4");
        lint_and_synth(RouteRom::new(&bits(&c.roms[c.node(3, 1)])), "macro_route_rom_r5");
    }

    /// The instance parameter of the Fig. 5 router (3,1): its five rows, row 4 (the
    /// GOM row) first, each a sized 30-bit constant.
    #[test]
    fn rows_param_by_hand() {
        let c = noc_preset("noc_macro_4x4");
        assert_eq!(rows_param(&bits(&c.roms[c.node(3, 1)])), "{30'h34900000, 30'h36026000, 30'h38e38a00, 30'h34900000, 30'h34900000}");
    }

    /// Every address on both ports (each port with a different address at once):
    /// `addr` reads `want[addr]`, anything past the rows reads 0 (φ).
    fn addresses() -> Vec<(u32, u32)> {
        (0..1u32 << OVL_BITS).map(|a| (a, OVL_NONE - a)).collect()
    }

    fn expect(want: &[RomRow], addr: u32) -> u32 {
        want.get(addr as usize).map_or(0, RomRow::bits)
    }

    /// The rust-hdl model of `rows` against golden rows `want`: the disagreements.
    fn model_disagreements(rows: &[u32], want: &[RomRow]) -> Vec<String> {
        let mut s = LeafSim::comb(RouteRom::new(rows));
        let mut bad = Vec::new();
        for (a, b) in addresses() {
            s.addr_a_i.next = bv(a as u128);
            s.addr_b_i.next = bv(b as u128);
            s.settle();
            for (port, addr, got) in [("a", a, val(&s.row_a_o)), ("b", b, val(&s.row_b_o))] {
                if got as u32 != expect(want, addr) {
                    bad.push(format!("port {port} addr {addr}: {}, golden {}", RomRow::from_bits(got as u32).symbolic(), RomRow::from_bits(expect(want, addr)).symbolic()));
                }
            }
        }
        bad
    }

    /// The generated library's ROM module (rows default φ) instantiated once per
    /// router with the parameter the templates write ([`rows_param`]), under Icarus:
    /// every router's rows read back at every address as golden's.
    fn rtl_disagreements(c: &NocConfig, param_of: impl Fn(usize) -> String) -> Vec<String> {
        let rows = c.m() + 1;
        let rom = format!("macro_route_rom_r{rows}");
        let lib = emit(RouteRom::new(&vec![0; rows]), &rom);
        let ids: Vec<usize> = (0..c.nodes()).collect();
        let mut text = format!("module rom_wrap(addr_a_i,addr_b_i,{});\n", ids.iter().map(|i| format!("ra_{i}_o,rb_{i}_o")).collect::<Vec<_>>().join(","));
        text += &format!("    input wire [{}:0] addr_a_i;\n    input wire [{0}:0] addr_b_i;\n", OVL_BITS - 1);
        for i in &ids {
            text += &format!("    output wire [{}:0] ra_{i}_o;\n    output wire [{0}:0] rb_{i}_o;\n", ROW_BITS - 1);
        }
        for &i in &ids {
            text += &format!("    {rom} #(.ROWS({})) rom_{i} (.addr_a_i(addr_a_i), .addr_b_i(addr_b_i), .row_a_o(ra_{i}_o), .row_b_o(rb_{i}_o));\n", param_of(i));
        }
        text += "endmodule\n";
        let mut modules = lib.clone();
        modules.push(Module { name: "rom_wrap".into(), text, doc: crate::catalog::ModuleDoc::new("test wrapper", "combinational") });
        let cycles: Vec<Vec<(&str, u128)>> = addresses().iter().map(|&(a, b)| vec![("addr_a_i", a as u128), ("addr_b_i", b as u128)]).collect();
        let got = rtl_run(&modules, "rom_wrap", &cycles);
        let mut bad = Vec::new();
        for (k, (a, b)) in addresses().into_iter().enumerate() {
            for &i in &ids {
                let want: Outs = outs(&[(format!("ra_{i}_o").as_str(), expect(&c.roms[i], a) as u128), (format!("rb_{i}_o").as_str(), expect(&c.roms[i], b) as u128)]);
                for (port, v) in want {
                    if got[k][&port] != v {
                        bad.push(format!("router {:?} {port} at addresses ({a}, {b}): {:x?}, golden {:x?}", c.xy(i), got[k][&port], v));
                    }
                }
            }
        }
        bad
    }

    /// Every router's ROM of the paper's 4x4 platform and of both 8x8 presets (9 rows:
    /// 8 overlays and the GOM row) reads golden's rows, in the model and in the
    /// emitted Verilog with the templates' parameter.
    #[test]
    fn route_rom_reads_golden_rows() {
        for preset in ["noc_macro_4x4", "noc_macro_8x8_b", "noc_macro_8x8_c"] {
            let c = noc_preset(preset);
            for id in 0..c.nodes() {
                let rows = &c.roms[id];
                assert_eq!(model_disagreements(&bits(rows), rows), Vec::<String>::new(), "{preset} router {:?}", c.xy(id));
            }
            let bad = rtl_disagreements(&c, |i| rows_param(&bits(&c.roms[i])));
            assert!(bad.is_empty(), "{preset}: {bad:#?}");
        }
    }

    /// The checks can fail: router (3,1)'s rows against router (0,0)'s golden rows (a
    /// planted wrong expectation) disagree in the model and, with every instance given
    /// router (0,0)'s parameter, in the Verilog; both name the rows.
    #[test]
    fn route_rom_check_catches_wrong_rows() {
        let c = noc_preset("noc_macro_4x4");
        let bad = model_disagreements(&bits(&c.roms[c.node(3, 1)]), &c.roms[c.node(0, 0)]);
        assert!(bad.iter().any(|b| b.contains("Lat(")), "{bad:?}");
        let bad = rtl_disagreements(&c, |_| rows_param(&bits(&c.roms[0])));
        assert!(bad.iter().any(|b| b.contains("router (3, 1)")), "{bad:?}");
    }
}
