//! Shared by the co-simulation tests: presets from configs/, generated in memory
//! (independent of rtl_out/), built with Verilator (cached) and loaded.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use golden::config::{load, parse, ConfigFile};
use golden::gpucc::GpuccConfig;
use hdl_gen::design::Design;
use verif::rtl::Rtl;
use verif::verilator::{build, Opt};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A shipped preset: its config file, GPU-CC config and generated design.
pub fn preset(name: &str) -> (ConfigFile, GpuccConfig, Design) {
    let cfg = load(&repo().join("configs").join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}"));
    from_cfg(cfg)
}

/// A config from text.
pub fn from_text(text: &str) -> (ConfigFile, GpuccConfig, Design) {
    let cfg = parse(Path::new("test.toml"), text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    from_cfg(cfg)
}

fn from_cfg(cfg: ConfigFile) -> (ConfigFile, GpuccConfig, Design) {
    let c = cfg.block.gpucc().expect("a [gpucc] config").clone();
    let d = hdl_gen::gpucc::generate(&cfg, &c).unwrap_or_else(|e| panic!("{e}"));
    (cfg, c, d)
}

/// The Verilated model of a design (built once, then cached by content hash).
pub fn rtl(d: &Design) -> Rtl {
    let built = build(d, Opt::Quick).unwrap_or_else(|e| panic!("{e}"));
    Rtl::load(&built).unwrap_or_else(|e| panic!("{e}"))
}
