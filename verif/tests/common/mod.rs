//! Shared by the co-simulation tests of every block: presets from `configs/` (through
//! `golden::presets`, never retyped) or config text, generated in memory (independent
//! of rtl_out/), built with Verilator (cached) and loaded.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use golden::block::{self, ConfigFile};
use golden::gpucc::{Gpucc, GpuccConfig};
use hdl_gen::design::{Design, Generated};
use hdl_gen::Generate;
use verif::rtl::Rtl;
use verif::verilator::{build, Opt};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A shipped preset of block `B`, loaded and generated.
pub fn preset<B: Generate>(name: &str) -> (ConfigFile<B::Config>, Generated) {
    let cfg = golden::presets::load::<B>(name).unwrap_or_else(|e| panic!("{e}"));
    let g = B::generate(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
    (cfg, g)
}

/// A config of block `B` from text, loaded and generated.
pub fn from_text<B: Generate>(text: &str) -> (ConfigFile<B::Config>, Generated) {
    let cfg = block::parse::<B>(Path::new("test.toml"), text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let g = B::generate(&cfg).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (cfg, g)
}

/// The design in directory `dir` of a generated preset.
pub fn design<'g>(g: &'g Generated, dir: &str) -> &'g Design {
    g.design(dir).unwrap_or_else(|| panic!("preset {} has no design `{dir}`", g.preset))
}

/// A GPU-CC preset's config and its one design (`net`).
pub fn gpucc(name: &str) -> (GpuccConfig, Design) {
    let (cfg, g) = preset::<Gpucc>(name);
    (cfg.config, design(&g, "net").clone())
}

/// A GPU-CC config from text and its one design.
pub fn gpucc_text(text: &str) -> (GpuccConfig, Design) {
    let (cfg, g) = from_text::<Gpucc>(text);
    (cfg.config, design(&g, "net").clone())
}

/// The Verilated model of a design (built once, then cached by content hash).
pub fn rtl(d: &Design) -> Rtl {
    rtl_opt(d, Opt::Quick)
}

pub fn rtl_opt(d: &Design, opt: Opt) -> Rtl {
    let t = std::time::Instant::now();
    let built = build(d, opt).unwrap_or_else(|e| panic!("{e}"));
    if built.compiled {
        eprintln!("built {} ({opt:?}) in {:.1}s", d.manifest.top, t.elapsed().as_secs_f64());
    }
    Rtl::load(&built).unwrap_or_else(|e| panic!("{e}"))
}

/// The number of random configs a Verilator proptest draws: `default` (sized so that
/// `make test` stays inside CI's 30 minutes on 2 cores; every config is a Verilator
/// build), or `PROPTEST_CASES` when set, for a deeper run (`PROPTEST_CASES=16 make
/// test`). A malformed value is a loud failure, not a silent default.
pub fn proptest_cases(default: u32) -> u32 {
    match std::env::var("PROPTEST_CASES") {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("PROPTEST_CASES={v:?} is not a case count (a positive integer)")),
        Err(_) => default,
    }
}
