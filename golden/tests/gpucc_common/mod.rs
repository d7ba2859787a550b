//! Shared by the GPU-CC golden tests: config text to a validated config.

#![allow(dead_code)]

use std::path::Path;

use golden::block;
use golden::gpucc::{Gpucc, GpuccConfig};

/// The paper's SM (spec §3.1) as a `[gpucc]` table without timing, memory or app.
pub const PAPER_SM: &str = r#"
name = "paper"
[gpucc]
slices = 16
slice = ["core", "core", "lsu"]
lanes = 5
data_width = 32
core_fifo_depth = 16
lsu_addr_depth = 256
lsu_data_depth = 16
"#;

/// Parse and validate a `[gpucc]` config, panicking with the error on bad text.
pub fn parse_gpucc(text: &str) -> GpuccConfig {
    block::parse::<Gpucc>(Path::new("test.toml"), text).unwrap_or_else(|e| panic!("{e}\n{text}")).config
}
