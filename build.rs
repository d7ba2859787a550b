//! Build script: a digest of the model sources, so a study's run cache notices a changed
//! model (`src/study/plan.rs`, `run_hash`) without anyone bumping a version by hand.
//!
//! Hashes (FNV-1a, 64 bit) the path and bytes of every file under the directories whose
//! code decides a run's result: the golden models, the Verilog generators and their
//! templates (synthesis runs), the co-simulation library.

use std::path::{Path, PathBuf};

const MODEL_DIRS: [&str; 4] = ["golden/src", "hdl/src", "templates", "verif/src"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let mut all = Vec::new();
    for d in MODEL_DIRS {
        println!("cargo:rerun-if-changed={d}");
        files(Path::new(d), &mut all);
    }
    all.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for p in &all {
        eat(p.to_string_lossy().replace('\\', "/").as_bytes());
        eat(&[0]);
        eat(&std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())));
        eat(&[0]);
    }
    println!("cargo:rustc-env=GPUFORGE_MODEL_SOURCE={h:016x}");
}
