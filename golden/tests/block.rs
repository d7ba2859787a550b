//! Tests of `golden::block` (`golden/src/block.rs`).

use std::path::Path;

use serde::Deserialize;

use golden::block::*;
use golden::config::FieldError;

/// A stand-in block with two fields.
struct Toy;
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToy {
    width: u32,
}
impl Block for Toy {
    const TABLE: &'static str = "toy";
    const TITLE: &'static str = "a toy block";
    type Raw = RawToy;
    type Config = u32;
    fn validate(raw: RawToy) -> Result<u32, FieldError> {
        golden::config::check_range("toy.width", raw.width, 1, 8)
    }
}

fn p() -> &'static Path {
    Path::new("x.toml")
}

#[test]
fn a_table_file_loads_and_validates() {
    let f = parse::<Toy>(p(), "name = \"t1\"\n[toy]\nwidth = 3\n").unwrap();
    assert_eq!((f.name.as_str(), f.config), ("t1", 3));
    let e = parse::<Toy>(p(), "name = \"t1\"\n[toy]\nwidth = 9\n").unwrap_err();
    assert_eq!(e.to_string(), "x.toml: toy.width: 9 is out of range (allowed: 1..=8)");
}

#[test]
fn unknown_keys_and_tables_are_named_with_their_line() {
    let e = parse::<Toy>(p(), "name = \"t1\"\n[toy]\nwidht = 3\n").unwrap_err();
    assert_eq!(e.field, "toy.widht (line 3)", "{e}");
    let e = parse::<Toy>(p(), "name = \"t1\"\nextra = 1\n[toy]\nwidth = 3\n").unwrap_err();
    assert_eq!(e.field, "extra (line 2)", "{e}");
    assert!(e.message.contains("unknown field"), "{e}");
}

#[test]
fn exactly_one_block_table() {
    let e = detect(p(), "name = \"a\"\n", &["toy", "other"]).unwrap_err();
    assert_eq!(e.to_string(), "x.toml: <file>: no block table found (allowed: exactly one of [toy], [other])");
    let e = detect(p(), "name = \"a\"\n[toy]\n[other]\n", &["toy", "other"]).unwrap_err();
    assert!(e.message.contains("more than one"), "{e}");
    assert_eq!(detect(p(), "name = \"a\"\n[other]\n", &["toy", "other"]).unwrap(), "other");
}

#[test]
fn names_are_checked() {
    let e = parse::<Toy>(p(), "name = \"Bad Name\"\n[toy]\nwidth = 3\n").unwrap_err();
    assert_eq!(e.field, "name");
}

struct Sim;
impl Block for Sim {
    const TABLE: &'static str = "sim";
    const TITLE: &'static str = "a simulated toy";
    type Raw = RawToy;
    type Config = u32;
    fn validate(raw: RawToy) -> Result<u32, FieldError> {
        Ok(raw.width)
    }
}
impl Simulate for Sim {
    const FLAGS: &'static [SimFlag] = &[SimFlag::Check];
    fn simulate(_: &ConfigFile<u32>, _: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        unreachable!()
    }
}

#[test]
fn unused_sim_flags_are_refused_by_name() {
    let ok = SimArgs { check: true, ..Default::default() };
    assert!(check_sim_flags::<Sim>(&ok).is_ok());
    let bad = SimArgs { sweep: vec![0.1], max_cycles: Some(5), ..Default::default() };
    let e = check_sim_flags::<Sim>(&bad).unwrap_err().to_string();
    assert!(e.contains("--max-cycles, --sweep") && e.contains("allowed for [sim]: --check"), "{e}");
}
