//! The `gpuforge` package: the block registry ([`blocks`], [`registry`]) that the CLI
//! (`src/main.rs`) and the integration tests go through.

pub mod blocks;
pub mod registry;
