//! Route lookup ROM of one hinge router (spec §1.4): rows 0..m-1 (one per overlay =
//! MC), row m the GOM broadcast overlay, each `golden::noc::route_rom::ROW_BITS` (30)
//! bits `{f_L, f_S, f_N, f_W, f_E}`.
//! Two combinational read ports: the live overlay and its multiplexed partner. Any
//! other address (4'hf = none) reads 0 (all outputs φ). The rows are sized
//! constants computed by `golden::noc::route_rom`; the generator checks each against
//! the legal-source table before it builds the ROM.

use rust_hdl::prelude::*;

use super::hinge::ROW_W;

/// Rows of the largest ROM: 8 overlays plus the GOM row.
pub const MAX_ROWS: usize = 9;

#[derive(LogicBlock)]
pub struct RouteRom {
    pub addr_a_i: Signal<In, Bits<4>>,
    pub addr_b_i: Signal<In, Bits<4>>,
    pub row_a_o: Signal<Out, Bits<ROW_W>>,
    pub row_b_o: Signal<Out, Bits<ROW_W>>,
    /// Row contents (rows past m + 1 are 0 and never addressed).
    row: [Constant<Bits<ROW_W>>; MAX_ROWS],
    idx: [Constant<Bits<4>>; MAX_ROWS],
    /// A row of zeros (the name is kept: it is a localparam of the emitted Verilog).
    zero30: Constant<Bits<ROW_W>>,
}

impl RouteRom {
    /// `rows[i]` = the encoding of row i (`RomRow::bits`).
    pub fn new(rows: &[u32]) -> Self {
        assert!(rows.len() <= MAX_ROWS);
        Self {
            addr_a_i: Default::default(),
            addr_b_i: Default::default(),
            row_a_o: Default::default(),
            row_b_o: Default::default(),
            row: std::array::from_fn(|i| Constant::new((rows.get(i).copied().unwrap_or(0) as u64).to_bits())),
            idx: std::array::from_fn(|i| Constant::new((i as u64).to_bits())),
            zero30: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for RouteRom {
    #[hdl_gen]
    fn update(&mut self) {
        self.row_a_o.next = self.zero30.val();
        self.row_b_o.next = self.zero30.val();
        for i in 0..9 {
            if self.addr_a_i.val() == self.idx[i].val() {
                self.row_a_o.next = self.row[i].val();
            }
            if self.addr_b_i.val() == self.idx[i].val() {
                self.row_b_o.next = self.row[i].val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf_check::{bv, lint_and_synth, noc_preset, val, LeafSim};
    use golden::noc::route_rom::RomRow;

    fn rom(rows: &[RomRow]) -> RouteRom {
        RouteRom::new(&rows.iter().map(RomRow::bits).collect::<Vec<_>>())
    }

    #[test]
    fn route_rom_is_lint_clean_and_synthesizable() {
        let c = noc_preset("noc_macro_4x4");
        lint_and_synth(rom(&c.roms[c.node(3, 1)]), "macro_route_rom_noc_macro_4x4_x3y1");
    }

    /// Every address on both ports (each port with a different address at once):
    /// the row, decoded with golden's field table, must be `want[addr]`, and any
    /// address past the rows (4'hf = none) must read 0. The disagreements, listed.
    fn disagreements(leaf: RouteRom, want: &[RomRow]) -> Vec<String> {
        let mut s = LeafSim::comb(leaf);
        let mut bad = Vec::new();
        for a in 0..16u32 {
            let b = 15 - a;
            s.addr_a_i.next = bv(a as u128);
            s.addr_b_i.next = bv(b as u128);
            s.settle();
            for (port, addr, got) in [("a", a, val(&s.row_a_o)), ("b", b, val(&s.row_b_o))] {
                let expect = want.get(addr as usize).map_or(0, RomRow::bits);
                if got as u32 != expect {
                    bad.push(format!("port {port} addr {addr}: {} , golden {}", RomRow::from_bits(got as u32).symbolic(), RomRow::from_bits(expect).symbolic()));
                }
            }
        }
        bad
    }

    /// Every router's ROM of the paper's 4x4 platform and of the 8x8 preset (9 rows:
    /// 8 overlays and the GOM row) reads golden's rows.
    #[test]
    fn route_rom_reads_golden_rows() {
        for preset in ["noc_macro_4x4", "noc_macro_8x8_b"] {
            let c = noc_preset(preset);
            for id in 0..c.nodes() {
                let rows = &c.roms[id];
                assert_eq!(disagreements(rom(rows), rows), Vec::<String>::new(), "{preset} router {:?}", c.xy(id));
            }
        }
    }

    /// The check can fail: router (3,1)'s ROM against router (0,0)'s golden rows (a
    /// planted wrong expectation) disagrees, and names the rows.
    #[test]
    fn route_rom_check_catches_wrong_rows() {
        let c = noc_preset("noc_macro_4x4");
        let bad = disagreements(rom(&c.roms[c.node(3, 1)]), &c.roms[c.node(0, 0)]);
        assert!(!bad.is_empty());
        assert!(bad.iter().any(|b| b.contains("Lat(")), "{bad:?}");
    }
}
