//! Tests of `hdl_gen::library` (`hdl/src/library.rs`).

use hdl_gen::catalog::ModuleDoc;
use hdl_gen::library::*;

fn m(name: &str, text: &str) -> Module {
    Module { name: name.into(), text: text.into(), doc: ModuleDoc::new("a test module", "no handshake") }
}

#[test]
fn closure_lists_leaves_first_and_only_what_is_used() {
    let mut lib = Library::default();
    lib.add(m("leaf_a", "module leaf_a();\nendmodule\n")).unwrap();
    lib.add(m("leaf_b", "module leaf_b();\n  leaf_a u_a ();\nendmodule\n")).unwrap();
    lib.add(m("top", "module top();\n  leaf_b u_b ();\n  leaf_a u_a (\n  );\nendmodule\n")).unwrap();
    lib.add(m("spare", "module spare();\nendmodule\n")).unwrap();
    let names: Vec<&str> = lib.closure("top").unwrap().iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["leaf_a", "leaf_b", "top"]);
    assert_eq!(lib.unused(&["top"]).unwrap(), ["spare"]);
    assert!(lib.closure("nope").is_err());
}

#[test]
fn same_name_other_body_is_a_clash_and_undocumented_modules_are_refused() {
    let mut lib = Library::default();
    lib.add(m("x", "module x(); endmodule")).unwrap();
    lib.add(m("x", "module x(); endmodule")).unwrap();
    assert!(lib.add(m("x", "module x(); wire w; endmodule")).is_err());
    let mut bad = m("y", "module y(); endmodule");
    bad.doc.protocol.clear();
    assert!(lib.add(bad).is_err());
}

#[test]
fn headers_carry_parameters_protocol_and_config_for_tops() {
    let mut mm = m("leaf_a", "module leaf_a(); endmodule");
    mm.doc = ModuleDoc::new("a FIFO", "push_v_i/ready_o valid-ready").param("DEPTH", 4);
    let from = Provenance { file: "p.toml".into(), preset: "p".into(), source: "name = \"p\"\n".into() };
    let h = file_header(&mm, &from, true);
    assert!(h.contains("// leaf_a: a FIFO\n"), "{h}");
    assert!(h.contains("// Parameters: DEPTH = 4\n"), "{h}");
    assert!(h.contains("//   push_v_i/ready_o valid-ready\n"), "{h}");
    assert!(h.contains("//   name = \"p\"\n"), "{h}");
    assert!(!file_header(&mm, &from, false).contains("Config ("));
}
