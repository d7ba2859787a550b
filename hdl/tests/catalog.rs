//! Tests of `hdl_gen::catalog` (`hdl/src/catalog.rs`).

use hdl_gen::catalog::*;

#[test]
fn primitive_markers_parse_and_incomplete_entries_are_refused() {
    let body = "// gf-module: gf_reg_w5\n// gf-doc: register\n// gf-param: W = 5\n// gf-protocol: no handshake\nalways ...";
    let (name, doc) = prim_entry(body).unwrap();
    assert_eq!(name, "gf_reg_w5");
    let doc = doc.unwrap();
    assert_eq!(doc.params, vec![("W".to_string(), "5".to_string())]);
    assert_eq!((doc.what.as_str(), doc.protocol.as_str()), ("register", "no handshake"));
    let (_, bad) = prim_entry("// gf-module: gf_x\nalways ...").unwrap();
    assert!(bad.is_err(), "a primitive without gf-doc/gf-protocol must be refused");
    assert!(prim_entry("module m; endmodule").is_none());
    assert!(ModuleDoc::new("x", "").check("m").is_err());
}
