//! gpuforge RTL generation.
//!
//! Leaf blocks are rust-hdl `LogicBlock`s ([`leaf`]); [`emit`] turns rust-hdl's
//! output into one readable, uniquely named Verilog module per file; structures
//! whose shape comes from a config (lanes x positions, meshes) are askama templates
//! under `templates/`. Everything derived from a config comes from `golden`.

pub mod design;
pub mod emit;
pub mod gpucc;
pub mod manifest;
pub mod noc;
pub mod leaf;
pub mod ports;

use golden::config::{BlockConfig, ConfigFile};

/// Generate every design a config describes, each with the sub-directory (relative
/// to the preset's output directory, empty for the preset directory itself) it is
/// written to.
pub fn generate(cfg: &ConfigFile) -> Result<Vec<(std::path::PathBuf, design::Design)>, design::GenError> {
    match &cfg.block {
        BlockConfig::Gpucc(c) => Ok(vec![(std::path::PathBuf::new(), gpucc::generate(cfg, c)?)]),
        BlockConfig::Noc(c) => noc::generate(cfg, c),
    }
}
