//! Tests of `hdl_gen::emit` (`hdl/src/emit.rs`).

use hdl_gen::catalog::ModuleDoc;
use hdl_gen::emit::*;

const SAMPLE: &str = "\n\nmodule top(a,b);\n    input wire a;\n    output reg b;\n    reg x$d;\n    wire x$q;\n    top$x x(\n        .d(x$d),\n        .q(x$q)\n    );\n    top$y y(\n        .d(x$q)\n    );\nendmodule // top\n\n\nmodule top$x(d,q);\n// gf-module: gf_reg_w1\n// gf-doc: register\n// gf-protocol: none\nendmodule // top$x\n\nmodule top$y(d,q);\n// gf-module: gf_reg_w1\n// gf-doc: register\n// gf-protocol: none\nendmodule // top$y\n";

fn doc() -> ModuleDoc {
    ModuleDoc::new("a leaf", "none")
}

#[test]
fn renames_roots_primitives_and_locals() {
    let ms = split_and_rename(SAMPLE, "leaf_a", doc()).unwrap();
    let names: Vec<_> = ms.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["gf_reg_w1", "leaf_a"]);
    let top = &ms[1].text;
    assert!(top.starts_with("module leaf_a(a,b);"), "{top}");
    assert!(top.contains("    gf_reg_w1 x("), "{top}");
    assert!(top.contains("    gf_reg_w1 y("), "{top}");
    assert!(top.contains("reg x__d;"), "{top}");
    assert!(!top.contains('$'));
    assert!(top.trim_end().ends_with("endmodule // leaf_a"));
    assert!(!ms[0].text.contains("gf-"), "markers are stripped: {}", ms[0].text);
    assert_eq!(ms[0].doc.what, "register");
}

#[test]
fn uncatalogued_sub_modules_are_refused() {
    let bad = SAMPLE.replace("// gf-module: gf_reg_w1\n// gf-doc: register\n// gf-protocol: none\nendmodule // top$y", "endmodule // top$y");
    let e = split_and_rename(&bad, "leaf_a", doc()).unwrap_err().to_string();
    assert!(e.contains("top$y"), "{e}");
}

#[test]
fn clashing_bodies_are_an_error() {
    let bad = SAMPLE.replace("module top$y(d,q);\n// gf-module: gf_reg_w1", "module top$y(d,q);\n// gf-module: gf_reg_w1\n    wire extra;");
    assert!(split_and_rename(&bad, "leaf_a", doc()).is_err());
}
