//! Shared by the GPU-CC golden tests: the paper SM preset cut into its tables (never
//! retyped: the text is `configs/gpucc/gpucc_paper_sm.toml` through `golden::presets`),
//! and config text to a validated config.

#![allow(dead_code)]

use std::path::Path;

use golden::block;
use golden::gpucc::{Gpucc, GpuccConfig};

/// A `[gpucc...]` table of the paper preset, header and body (empty if absent).
fn table(name: &str) -> String {
    let text = golden::presets::text("gpucc_paper_sm");
    let head = format!("[{name}]");
    let Some(start) = text.find(&format!("\n{head}\n")) else { return String::new() };
    let body = &text[start + 1..];
    let end = body[head.len()..].find("\n[").map_or(body.len(), |e| e + head.len() + 1);
    body[..end].trim_end().to_string() + "\n"
}

/// The paper's SM (spec §3.1) as the preset's `[gpucc]` table alone: no timing,
/// memory or application.
pub fn paper_sm() -> String {
    format!("name = \"paper\"\n{}", table("gpucc"))
}

/// The paper SM with the preset's memory side on `sms` SMs, the given timing table
/// body, extra lines and, optionally, an application.
pub fn paper_sm_with(timing: &str, sms: u32, extra: &str, app: Option<(&str, u32)>) -> String {
    let memory = table("gpucc.memory");
    assert!(memory.contains("sms = 14\n"), "the preset's memory table changed: {memory}");
    let mut t = format!("{}[gpucc.timing]\n{timing}\n{}{extra}\n", paper_sm(), memory.replace("sms = 14\n", &format!("sms = {sms}\n")));
    if let Some((kind, image)) = app {
        t += &format!("[gpucc.app]\nkind = \"{kind}\"\nimage = {image}\n");
    }
    t
}

/// Parse and validate a `[gpucc]` config, panicking with the error on bad text.
pub fn parse_gpucc(text: &str) -> GpuccConfig {
    block::parse::<Gpucc>(Path::new("test.toml"), text).unwrap_or_else(|e| panic!("{e}\n{text}")).config
}
