//! gpuforge RTL generation.
//!
//! The framework, knowing no block: [`catalog`] (every module's name and header entry),
//! [`emit`] (rust-hdl's Verilog to readable, uniquely named modules), [`library`] (a
//! preset's modules, each once, and each design's closure), [`design`] (what `gen`
//! writes: the library, a filelist and manifest per design, atomically), [`manifest`]
//! (what the co-simulation reads), [`ports`] (port declaration lines), [`prim`] (the
//! primitive registers and memories every leaf is built from) and the [`Generate`]
//! trait a block implements.
//!
//! The blocks, each in its own folder: [`gpucc`], [`noc`]. Leaf blocks are rust-hdl
//! `LogicBlock`s in `<block>/leaf/`, each with its tests in `hdl/tests/<block>_leaf_<leaf>.rs`
//! (lint, synthesis and behaviour against golden or a hand-derived reference, through
//! the test support in `hdl/tests/leaf_check.rs`); structures whose shape comes from a
//! config are askama templates under `templates/<block>/`. Everything derived from a
//! config comes from `golden`.
//!
//! Every test of this crate is in the one integration-test binary `hdl/tests/main.rs`
//! (a module per source module, `hdl/tests/<module_path>.rs`), so that `cargo test`
//! compiles this library once and not a second time with `cfg(test)`.

pub mod catalog;
pub mod design;
pub mod emit;
pub mod error;
pub mod gpucc;
pub mod library;
pub mod llc_compute;
pub mod manifest;
pub mod noc;
pub mod ports;
pub mod prim;
pub mod qcache;
pub mod tfb_bdib;

use golden::block::{Block, ConfigFile};

/// A block's Verilog generator (implemented on the block's marker type from `golden`).
pub trait Generate: Block {
    /// The designs the generator writes, with their parameters: serialized into each
    /// manifest's `design`, read back by the co-simulation to choose its bench.
    type Design: serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug + Clone + PartialEq;

    /// Every design of a preset, over one module library.
    fn generate(cfg: &ConfigFile<Self::Config>) -> Result<design::Generated, design::GenError>;
}
