//! Tests of `golden::config` (`golden/src/config.rs`).

use std::path::{Path, PathBuf};

use golden::config::*;

#[test]
fn range_errors_name_field_and_range() {
    let e = check_range("gpucc.lanes", 9u32, 1, 5).unwrap_err();
    assert_eq!(e.to_string(), "gpucc.lanes: 9 is out of range (allowed: 1..=5)");
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let text = "name = \"a\"\n[gpucc\n";
    let e = toml::from_str::<toml::Table>(text).unwrap_err();
    let e = toml_error(Path::new("x.toml"), text, &e);
    assert_eq!(e.file, PathBuf::from("x.toml"));
    assert!(e.field.contains("line 2"), "{e}");
}

fn field_of(text: &str) -> ConfigError {
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct Gpucc {
        lanes: u32,
        #[serde(default)]
        init: Option<Init>,
    }
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct Init {
        lo: f64,
        args: Option<Vec<u8>>,
    }
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct Kernel {
        ptx: String,
        #[serde(default)]
        args: Vec<u8>,
    }
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct File {
        name: String,
        gpucc: Option<Gpucc>,
        #[serde(default)]
        buffer: Vec<toml::Table>,
        #[serde(default)]
        kernel: Vec<Kernel>,
    }
    let e = toml::from_str::<File>(text).unwrap_err();
    toml_error(Path::new("x.toml"), text, &e)
}

#[test]
fn type_errors_name_the_key_line_and_range() {
    let base = "name = \"a\"\n[gpucc]\n# lanes per slice\nlanes = LANES\n";
    let e = field_of(&base.replace("LANES", "-1"));
    assert_eq!((e.field.as_str(), e.allowed.as_deref()), ("gpucc.lanes (line 4)", Some("u32: an integer in 0..=4294967295")), "{e}");
    let e = field_of(&base.replace("LANES", "3.0"));
    assert_eq!(e.field, "gpucc.lanes (line 4)", "{e}");
    assert!(e.allowed.as_deref().is_some_and(|a| a.contains("0..=4294967295")), "{e}");
    let e = field_of(&base.replace("LANES", "5000000000"));
    assert_eq!(e.field, "gpucc.lanes (line 4)", "{e}");
    assert!(e.to_string().contains("0..=4294967295"), "{e}");
    let e = field_of(&base.replace("LANES", "\"x\""));
    assert_eq!(e.field, "gpucc.lanes (line 4)", "{e}");
}

#[test]
fn keys_inside_inline_tables_and_arrays() {
    let e = field_of("name = \"a\"\n[gpucc]\nlanes = 1\ninit = { lo = \"x\" }\n");
    assert_eq!(e.field, "gpucc.init.lo (line 4)", "{e}");
    let e = field_of("name = \"a\"\n[gpucc]\nlanes = 1\ninit = { lo = 1.5, args = [1, 2, 300] }\n");
    assert_eq!(e.field, "gpucc.init.args[2] (line 4)", "{e}");
    let e = field_of("name = \"a\"\n[[kernel]]\nptx = \"k\"\nargs = [\n  1,\n  -2,\n]\n");
    assert_eq!(e.field, "kernel[0].args[1] (line 6)", "{e}");
}

#[test]
fn missing_fields_name_the_right_table_of_an_array() {
    let e = field_of("name = \"a\"\n[[buffer]]\nx = 1\n\n[[kernel]]\nptx = \"a\"\n\n[[kernel]]\nargs = []\n");
    assert_eq!(e.field, "kernel[1].ptx (line 8)", "{e}");
    assert!(e.message.contains("missing field `ptx`"), "{e}");
}

#[test]
fn unknown_keys_are_named() {
    let e = field_of("name = \"a\"\n[gpucc]\nlanes = 1\nlane_count = 3\n");
    assert_eq!(e.field, "gpucc.lane_count (line 4)", "{e}");
}

#[test]
fn names_are_checked() {
    assert!(check_name("name", "gpucc_small").is_ok());
    assert!(check_name("name", "Bad-Name").is_err());
    assert!(check_name("name", "").is_err());
}
