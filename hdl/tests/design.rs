//! Tests of `hdl_gen::design` (`hdl/src/design.rs`).

use golden::block::ConfigFile;
use hdl_gen::catalog::ModuleDoc;
use hdl_gen::design::*;
use hdl_gen::library::{Library, Module};

fn preset() -> Generated {
    let cfg = ConfigFile { path: "t.toml".into(), name: "t".into(), source: "name = \"t\"\n".into(), config: 1u32 };
    let doc = || ModuleDoc::new("a test module", "no handshake");
    let mut lib = Library::default();
    lib.add(Module { name: "leaf".into(), text: "module leaf(); endmodule\n".into(), doc: doc() }).unwrap();
    lib.add(Module { name: "top_a".into(), text: "module top_a();\n  leaf u ();\nendmodule\n".into(), doc: doc() }).unwrap();
    lib.add(Module { name: "top_b".into(), text: "module top_b();\n  top_a u ();\nendmodule\n".into(), doc: doc() }).unwrap();
    let specs = vec![DesignSpec::new("a", &"kind_a", "top_a", vec![]), DesignSpec::new("deep/b", &"kind_b", "top_b", vec![]).no_synth()];
    Generated::new(&cfg, "toy", lib, specs).unwrap()
}

#[test]
fn every_module_once_and_filelists_reach_the_library() {
    let g = preset();
    assert_eq!(g.lib.len(), 3);
    let b = g.design("deep/b").unwrap();
    assert_eq!(b.manifest.files, ["../../lib/leaf.v", "../../lib/top_a.v", "../../lib/top_b.v"]);
    assert_eq!(g.design("top_a").unwrap().filelist(), "../lib/leaf.v\n../lib/top_a.v\n");
    assert!(!b.manifest.synth);
    assert_eq!(b.kind::<String>().unwrap(), "kind_b");
    // the top of a design carries the config, a leaf does not
    let text = |n: &str| g.lib.iter().find(|(f, _)| f == n).unwrap().1.clone();
    assert!(text("top_a.v").contains("Config (t.toml)") && !text("leaf.v").contains("Config ("));
}

#[test]
fn write_load_and_staleness() {
    let g = preset();
    let dir = std::env::temp_dir().join(format!("gpuforge-design-{}", std::process::id()));
    g.write_to(&dir).unwrap();
    assert!(g.stale_files(&dir).is_empty());
    let d = Design::load(&dir.join("deep/b")).unwrap();
    assert_eq!(d.manifest, g.design("deep/b").unwrap().manifest);
    assert_eq!(Design::find_all(&dir).len(), 2);
    std::fs::write(dir.join("lib/leaf.v"), "// edited\n").unwrap();
    std::fs::write(dir.join("a/extra.v"), "").unwrap();
    assert_eq!(g.stale_files(&dir).len(), 2);
    assert!(Design::load(&dir.join("a")).is_err(), "hash mismatch must be refused");
    let solo = dir.with_extension("solo");
    g.write_standalone(g.design("deep/b").unwrap(), &solo).unwrap();
    assert_eq!(std::fs::read_to_string(solo.join("top_b.f")).unwrap(), "leaf.v\ntop_a.v\ntop_b.v\n");
    assert!(Design::load(&solo).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&solo).unwrap();
}

#[test]
fn unused_modules_and_bad_directories_are_generator_bugs() {
    let cfg = ConfigFile { path: "t.toml".into(), name: "t".into(), source: String::new(), config: 0u8 };
    let doc = ModuleDoc::new("m", "none");
    let mut lib = Library::default();
    lib.add(Module { name: "a".into(), text: "module a(); endmodule\n".into(), doc: doc.clone() }).unwrap();
    lib.add(Module { name: "b".into(), text: "module b(); endmodule\n".into(), doc }).unwrap();
    assert!(Generated::new(&cfg, "toy", lib.clone(), vec![DesignSpec::new("a", &0, "a", vec![])]).is_err());
    let two = vec![DesignSpec::new("x", &0, "a", vec![]), DesignSpec::new("lib", &0, "b", vec![])];
    assert!(Generated::new(&cfg, "toy", lib, two).is_err());
}
