//! The golden GPU model: SIMT cores running a PTX subset, L1 caches with coalescing and
//! MSHRs, LLC slices and DRAM at memory nodes, and any [`crate::network::Network`]
//! between them (ARCHITECTURE.md, "The golden GPU model").
//!
//! Entry points: [`GpuConfig::load`], [`Launch::load`], [`sim::run`]. The blocks, one
//! module each: [`core`] (the SM pipeline) with [`simt`], [`scoreboard`],
//! [`scheduler`], [`fu`], [`shmem`], [`coalesce`] and [`l1`]; [`mempart`] (memory
//! node) with [`llc`] and [`dram`]; [`mapping`] (address interleaving); [`cta`]
//! (dispatch and occupancy); [`net`] (network construction); [`exec`] and
//! [`memspace`] (functional execution); [`ptx`] (the kernel language).

pub mod coalesce;
pub mod config;
pub mod core;
pub mod cta;
pub mod dram;
pub mod exec;
pub mod fu;
pub mod l1;
pub mod launch;
pub mod llc;
pub mod mapping;
pub mod mempart;
pub mod memspace;
pub mod net;
pub mod ptx;
pub mod scheduler;
pub mod scoreboard;
pub mod shmem;
pub mod sim;
pub mod simt;
pub mod stats;
pub mod txn;
pub mod workloads;

pub use config::GpuConfig;
pub use launch::{Launch, LaunchError};
pub use sim::{run, RunOptions, SimError};
pub use stats::GpuReport;
