//! The `gpuforge` package: the block registry ([`blocks`], [`registry`]) that the CLI
//! (`src/main.rs`) and the integration tests go through, and the study layer
//! ([`study`]: a paper's experiments run through that registry, and its subcommands),
//! the exit-status contract of every subcommand ([`outcome`]), and a worker pool for
//! independent jobs ([`pool`]).

pub mod blocks;
pub mod outcome;
pub mod pool;
pub mod registry;
pub mod study;
