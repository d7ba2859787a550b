//! The `gpuforge` package: the block registry ([`blocks`], [`registry`]) that the CLI
//! (`src/main.rs`) and the integration tests go through, and the study layer
//! ([`study`]: a paper's experiments run through that registry).

pub mod blocks;
pub mod registry;
pub mod study;
