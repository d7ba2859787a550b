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
pub mod leaf;
