//! Tests of `hdl_gen::ports` (`hdl/src/ports.rs`).

use hdl_gen::manifest::Port;
use hdl_gen::ports::*;

#[test]
fn one_bit_vectors_keep_a_range_and_scalars_do_not() {
    let ports = [Port::clock("clk_i"), Port::reset("rst_i"), Port::input("peek_i", 1, "per LSU").fields(1), Port::output("q_o", 8, "data")];
    let v = port_views(&ports);
    assert_eq!(v[0].decl, "input  wire clk_i,");
    assert_eq!(v[1].decl, "input  wire rst_i,");
    assert_eq!(v[2].decl, "input  wire [0:0] peek_i,");
    assert_eq!(v[3].decl, "output wire [7:0] q_o");
    let col: Vec<usize> = v.iter().map(|p| p.decl.len() + p.pad.len()).collect();
    assert!(col.iter().all(|&c| c == col[0]), "doc comments aligned: {col:?}");
}
