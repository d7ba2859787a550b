//! yosys synthesis check: generic `synth`, `check -assert`, no latches, and a cell
//! report (cells by type, flip-flop bits, a CMOS transistor estimate) as JSON.
//!
//! [`census`] is the storage-only variant: yosys's coarse synthesis (`synth -run
//! begin:fine`: `proc`, where latches are inferred, word-level optimization, memories
//! found) with the memories and flip-flops then mapped to one-bit cells, and no logic
//! mapping (`techmap` of the logic, `abc`). Its flip-flop counts and cell types are the
//! ones the full `synth` reports, for a fraction of the time: 11 s against 81 s of CPU
//! for the small LLC SQ core, 41 s against about 100 s for the GPU-CC paper SM.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use hdl_gen::design::Design;

use crate::verilator::BuildError;

/// Cell counts of a synthesized design (flattened top).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SynthReport {
    pub top: String,
    pub yosys: String,
    pub cells: u64,
    pub cells_by_type: BTreeMap<String, u64>,
    /// Flip-flop cells (each one bit after techmap).
    pub flops: u64,
    /// yosys `stat -tech cmos` transistor estimate.
    pub transistors: u64,
    pub latches: u64,
    pub seconds: f64,
}

/// Bumped whenever the synthesis script or the report's reading changes, so cached
/// reports ([`synth_cached`]) of an older script are not reused.
pub const SCRIPT_VERSION: u32 = 1;

/// `yosys -V`, or the tool missing.
pub fn yosys_version() -> Result<String, BuildError> {
    let out = Command::new("yosys").arg("-V").output().map_err(|e| BuildError::Missing { tool: "yosys".into(), detail: e.to_string() })?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The design's options to yosys's `synth` command: `-noshare` where its manifest turns
/// resource sharing off ([`hdl_gen::manifest::Manifest::synth_share`]).
fn synth_options(design: &Design) -> &'static str {
    if design.manifest.synth_share {
        ""
    } else {
        " -noshare"
    }
}

/// Write `design`'s files to `work` (emptied first), run the yosys script that
/// `body(top, files)` returns there, and refuse a failed run or an inferred latch. The
/// yosys version and the seconds taken.
fn run_yosys(design: &Design, work: &Path, what: &str, body: impl Fn(&str, &str) -> String) -> Result<(String, f64), BuildError> {
    let yosys = yosys_version()?;
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work)?;
    let mut files = Vec::new();
    for (name, text) in &design.files {
        std::fs::write(work.join(name), text)?;
        files.push(name.clone());
    }
    let top = &design.manifest.top;
    std::fs::write(work.join("synth.ys"), body(top, &files.join(" ")))?;
    let t0 = std::time::Instant::now();
    let out = Command::new("yosys").current_dir(work).args(["-q", "-l", "yosys.log", "-s", "synth.ys"]).output()?;
    let seconds = t0.elapsed().as_secs_f64();
    let log = work.join("yosys.log");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        return Err(BuildError::Failed {
            what: format!("yosys {what} of {top}"),
            code: out.status.code(),
            log,
            tail: tail.into_iter().rev().collect::<Vec<_>>().join("\n") + &String::from_utf8_lossy(&out.stderr),
        });
    }
    if text.contains("Latch inferred") {
        return Err(BuildError::Failed {
            what: format!("yosys {what} of {top}: latch inferred"),
            code: None,
            log,
            tail: text.lines().filter(|l| l.contains("Latch inferred")).take(5).collect::<Vec<_>>().join("\n"),
        });
    }
    Ok((yosys, seconds))
}

/// Latch cell types after `synth` (and before techmap, should any survive).
const LATCH_SEL: &str = "t:$_DLATCH_* t:$_DLATCHSR_* t:$_SR_* t:$dlatch t:$adlatch t:$dlatchsr t:$sr";

/// The script's end: no latch, a flattened top, its cell counts as JSON.
fn report_tail() -> String {
    format!(
        "tee -o latches.txt select -count {LATCH_SEL}\n\
         select -assert-none {LATCH_SEL}\n\
         flatten\n\
         tee -q -o stat.json stat -json\n"
    )
}

/// Synthesize `design` (its files written to `work`) and check it.
pub fn synth(design: &Design, work: &Path) -> Result<SynthReport, BuildError> {
    let options = synth_options(design);
    let (yosys, seconds) = run_yosys(design, work, "synth", |top, files| {
        format!(
            "read_verilog {files}\n\
             hierarchy -check -top {top}\n\
             synth -top {top}{options}\n\
             check -assert\n\
             {}\
             tee -q -o cmos.txt stat -tech cmos\n",
            report_tail()
        )
    })?;
    parse_reports(work, &design.manifest.top, yosys, seconds)
}

/// The flip-flops and latches of a design: what [`census`] finds.
#[derive(Debug, Clone, PartialEq)]
pub struct Census {
    pub top: String,
    pub yosys: String,
    /// One-bit flip-flop cells by yosys type (`$_DFFE_PP_`, `$_SDFF_PP0_`, ...), as the
    /// full `synth` names them.
    pub flops_by_type: BTreeMap<String, u64>,
    /// Flip-flop bits.
    pub flops: u64,
    pub latches: u64,
    pub seconds: f64,
}

/// Count `design`'s storage with yosys (files written to `work`): coarse synthesis,
/// `check -assert`, no latches, memories and flip-flops mapped to one-bit cells (see
/// the module documentation). For checks of flip-flop counts; [`synth`] for anything
/// about logic cells or area.
pub fn census(design: &Design, work: &Path) -> Result<Census, BuildError> {
    let options = synth_options(design);
    let (yosys, seconds) = run_yosys(design, work, "census", |top, files| {
        format!(
            "read_verilog {files}\n\
             hierarchy -check -top {top}\n\
             synth -top {top}{options} -run begin:fine\n\
             memory_map\n\
             opt -full\n\
             techmap -map +/techmap.v t:$*dff*\n\
             check -assert\n\
             {}",
            report_tail()
        )
    })?;
    let top = &design.manifest.top;
    let (_, by_type) = read_stat(work, top)?;
    let flops_by_type: BTreeMap<String, u64> = by_type.into_iter().filter(|(k, _)| k.contains("DFF")).collect();
    if let Some(word) = flops_by_type.keys().find(|k| !k.starts_with("$_")) {
        return Err(BuildError::Design(format!("yosys census of {top}: a word-level flip-flop ({word}) was left unmapped")));
    }
    Ok(Census { top: top.clone(), yosys, flops: flops_by_type.values().sum(), flops_by_type, latches: read_latches(work), seconds })
}

/// The flattened top's cell count and cells by type, from `stat.json`.
fn read_stat(work: &Path, top: &str) -> Result<(u64, BTreeMap<String, u64>), BuildError> {
    let bad = |m: String| BuildError::Design(format!("yosys report in {}: {m}", work.display()));
    let stat: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(work.join("stat.json"))?).map_err(|e| bad(e.to_string()))?;
    let m = &stat["modules"][format!("\\{top}")];
    let cells = m["num_cells"].as_u64().ok_or_else(|| bad(format!("no cell count for {top}")))?;
    let mut cells_by_type = BTreeMap::new();
    if let Some(o) = m["num_cells_by_type"].as_object() {
        for (k, v) in o {
            cells_by_type.insert(k.clone(), v.as_u64().unwrap_or(0));
        }
    }
    Ok((cells, cells_by_type))
}

fn read_latches(work: &Path) -> u64 {
    std::fs::read_to_string(work.join("latches.txt")).ok().and_then(|t| t.split_whitespace().find_map(|w| w.parse::<u64>().ok())).unwrap_or(0)
}

fn parse_reports(work: &Path, top: &str, yosys: String, seconds: f64) -> Result<SynthReport, BuildError> {
    let bad = |m: String| BuildError::Design(format!("yosys report in {}: {m}", work.display()));
    let (cells, cells_by_type) = read_stat(work, top)?;
    let flops = cells_by_type.iter().filter(|(k, _)| k.contains("DFF")).map(|(_, v)| v).sum();
    let cmos = std::fs::read_to_string(work.join("cmos.txt"))?;
    let transistors = cmos
        .lines()
        .rev()
        .find_map(|l| l.split("Estimated number of transistors:").nth(1))
        .and_then(|t| t.trim().trim_end_matches('+').parse().ok())
        .ok_or_else(|| bad("no transistor estimate".into()))?;
    Ok(SynthReport { top: top.to_string(), yosys, cells, cells_by_type, flops, transistors, latches: read_latches(work), seconds })
}

/// [`synth`], or the report of an earlier synthesis of exactly this design (its
/// manifest's content hash over every file) by the same yosys and script, kept under
/// `gpuforge-synth/cache/` beside the Verilator build cache. `true`: the report came
/// from the cache. A failed synthesis is never cached. For studies and tests that
/// synthesize the same router many times; `gpuforge synth` always runs yosys.
pub fn synth_cached(design: &Design) -> Result<(SynthReport, bool), BuildError> {
    let yosys = yosys_version()?;
    // the script: its version and the design's `synth` options
    let script = format!("{SCRIPT_VERSION}{}", synth_options(design));
    let key = crate::cache_key::digest([script.as_str(), yosys.as_str(), design.manifest.content_hash.as_str()].map(str::as_bytes), 8);
    let top = &design.manifest.top;
    let file = work_dir(top).with_file_name("cache").join(format!("{top}-{}.json", &key[..16]));
    if let Some(r) = std::fs::read_to_string(&file).ok().and_then(|t| serde_json::from_str::<SynthReport>(&t).ok()) {
        return Ok((r, true));
    }
    let work = work_dir(top).with_file_name(format!("{top}-{}-{}", &key[..8], std::process::id()));
    let r = synth(design, &work)?;
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(file.parent().expect("cache dir"))?;
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, serde_json::to_string_pretty(&r).expect("a report serializes"))?;
    std::fs::rename(&tmp, &file)?;
    Ok((r, false))
}

/// Default work directory for a design's synthesis.
pub fn work_dir(top: &str) -> PathBuf {
    crate::verilator::cache_root().with_file_name("gpuforge-synth").join(top)
}
