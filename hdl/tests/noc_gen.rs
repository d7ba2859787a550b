//! Generated MACRO-NoC Verilog: committed rtl_out is current, every file is
//! `verilator --lint-only -Wall` clean, and one hinge router synthesizes in yosys
//! without latches (cell counts printed for docs/noc.md).

use std::path::Path;
use std::process::Command;

use golden::config::{load, BlockConfig};

const PRESETS: [&str; 3] = ["noc_macro_4x4", "noc_macro_8x8_b", "noc_macro_8x8_c"];

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn committed_rtl_is_current_and_lint_clean() {
    for p in PRESETS {
        let cfg = load(&root().join("configs").join(format!("{p}.toml"))).unwrap();
        for (sub, d) in hdl_gen::generate(&cfg).unwrap() {
            let dir = root().join("rtl_out").join(p).join(&sub);
            let stale = d.stale_files(&dir);
            assert!(stale.is_empty(), "{} is stale ({stale:?}); run `gpuforge gen configs/{p}.toml`", dir.display());
            for (name, _) in &d.files {
                let top = name.trim_end_matches(".v");
                let o = Command::new("verilator")
                    .args(["--lint-only", "-Wall", "--top-module", top, "-y"])
                    .arg(&dir)
                    .arg(dir.join(name))
                    .output()
                    .expect("verilator on PATH (make setup)");
                let text = String::from_utf8_lossy(&o.stderr);
                assert!(o.status.success() && !text.contains("%Warning"), "{name}: {text}");
            }
        }
    }
}

#[test]
fn hinge_router_synthesizes_without_latches() {
    let cfg = load(&root().join("configs/noc_macro_4x4.toml")).unwrap();
    let BlockConfig::Noc(c) = &cfg.block else { panic!() };
    let d = hdl_gen::noc::hinge_router_design(&cfg, c).unwrap();
    let work = tempfile_dir();
    let files: Vec<String> = d.files.iter().map(|(n, t)| {
        std::fs::write(work.join(n), t).unwrap();
        n.clone()
    }).collect();
    let top = &d.manifest.top;
    let script = format!("read_verilog {}\nhierarchy -check -top {top}\nsynth -top {top}\ncheck -assert\nselect -assert-none t:$_DLATCH_* t:$dlatch\nflatten\nstat\n", files.join(" "));
    let o = Command::new("yosys").current_dir(&work).args(["-q", "-p", &script]).output().expect("yosys on PATH (make setup)");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new("yosys").current_dir(&work).args(["-p", &script]).output().unwrap();
    let log = String::from_utf8_lossy(&o.stdout);
    let cells = log.lines().rev().find(|l| l.trim_start().starts_with("Number of cells:")).unwrap_or("?");
    println!("{top}: {cells}");
    assert!(!log.contains("Latch inferred"));
}

fn tempfile_dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gf-noc-synth-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
