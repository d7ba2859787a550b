//! The block registry: every block gpuforge knows, listed once. Adding a block is one
//! line here (plus its own folders: see the README's "Adding a block").
//!
//! `rtl` blocks generate Verilog (`hdl_gen::Generate`), co-simulate it (`verif::run::Cosim`)
//! and run their golden model alone (`golden::block::Simulate`); `model` blocks only
//! run their golden model. Config loading, `gen`, `lint`, `synth`, `cosim`, `sim` and the
//! CLI all go through this list.

use crate::registry::BlockEntry;

pub static BLOCKS: &[BlockEntry] = &[
    BlockEntry::rtl::<golden::gpucc::Gpucc>(),
    BlockEntry::rtl::<golden::noc::Noc>(),
    BlockEntry::model::<golden::gpu::GpuModel>(),
];
