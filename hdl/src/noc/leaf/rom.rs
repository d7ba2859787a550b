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
