//! Tests of `hdl_gen::noc::leaf::rom` (`hdl/src/noc/leaf/rom.rs`).

use crate::leaf_check::{bv, emit, lint_and_synth, noc_preset, outs, rtl_run, val, LeafSim, Outs};
use golden::noc::route_rom::{RomRow, OVL_BITS, OVL_NONE, ROW_BITS};
use golden::noc::NocConfig;
use hdl_gen::library::Module;
use hdl_gen::noc::leaf::rom::*;

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
    modules.push(Module { name: "rom_wrap".into(), text, doc: hdl_gen::catalog::ModuleDoc::new("test wrapper", "combinational") });
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
