//! The block registry: every block gpuforge knows, listed once. Adding a block is one
//! line here (plus its own folders: see the README's "Adding a block").
//!
//! `rtl` blocks generate Verilog (`hdl_gen::Generate`), co-simulate it (`verif::run::Cosim`)
//! and run their golden model alone (`golden::block::Simulate`); `model` blocks only
//! run their golden model. Config loading, `gen`, `lint`, `synth`, `cosim`, `sim` and the
//! CLI all go through this list.

use std::path::Path;

use golden::block;
use golden::config::{read_text, ConfigError};

use crate::registry::{BlockEntry, Loaded};

pub static BLOCKS: &[BlockEntry] = &[
    BlockEntry::rtl::<golden::gpucc::Gpucc>(),
    BlockEntry::rtl::<golden::noc::Noc>(),
    BlockEntry::rtl::<golden::qcache::Qcache>(),
    BlockEntry::rtl::<golden::tfb_bdib::TfbBdib>(),
    BlockEntry::model::<golden::gpu::GpuModel>(),
    BlockEntry::rtl::<golden::llc_compute::LlcCompute>(),
];

/// Load any registered block's config file: exactly one registered table must be in it.
pub fn load(path: &Path) -> Result<Box<dyn Loaded>, ConfigError> {
    load_text(path, &read_text(path)?)
}

/// Load config `text` of any registered block (a file's text after edits, such as a
/// study's knob overrides); `path` names it in messages.
pub fn load_text(path: &Path, text: &str) -> Result<Box<dyn Loaded>, ConfigError> {
    let tables: Vec<&str> = BLOCKS.iter().map(|b| b.table).collect();
    let table = block::detect(path, text, &tables)?;
    let entry = BLOCKS.iter().find(|b| b.table == table).expect("detect returns a registered table");
    entry.load(path, text)
}

/// The tables of the blocks with RTL, for messages (`[gpucc], [noc]`).
pub fn rtl_tables() -> String {
    BLOCKS.iter().filter(|b| b.rtl).map(|b| format!("[{}]", b.table)).collect::<Vec<_>>().join(", ")
}
