//! The committed Verilog (`rtl_out/`), for every preset of every block with RTL (found
//! through the registry, so a new preset or block is covered without editing this):
//! current with the generator; every design's filelist lints `-Wall` clean from its
//! directory; every module documented by its catalog entry (no generic header); no two
//! files of a preset alike. Each check is shown to catch a planted problem.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gpuforge::blocks::load;
use hdl_gen::design::{Design, Generated};
use verif::lint::{lint_design, lint_design_with_stubs, lint_files};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every shipped preset that generates Verilog, with its generated output.
fn generated() -> Vec<(PathBuf, Generated)> {
    let mut v = Vec::new();
    for p in golden::presets::all() {
        let cfg = load(&p).unwrap_or_else(|e| panic!("{e}"));
        if let Some(g) = cfg.generate() {
            v.push((p.clone(), g.unwrap_or_else(|e| panic!("{}: {e}", p.display()))));
        }
    }
    assert!(v.len() >= 8, "presets missing: {}", v.len());
    v
}

#[test]
fn committed_rtl_out_is_current_for_every_preset() {
    let mut stale = Vec::new();
    for (_, g) in generated() {
        stale.extend(g.stale_files(&repo().join("rtl_out").join(&g.preset)));
    }
    assert!(stale.is_empty(), "rtl_out is stale (run `make rtl`): {stale:#?}");
    // and nothing in rtl_out that no preset writes
    let presets: Vec<String> = generated().into_iter().map(|(_, g)| g.preset).collect();
    for e in std::fs::read_dir(repo().join("rtl_out")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        assert!(presets.contains(&name), "rtl_out/{name} belongs to no preset");
    }
}

#[test]
fn staleness_is_detected() {
    let (_, g) = generated().into_iter().find(|(_, g)| g.preset == "gpucc_small").expect("gpucc_small");
    let dir = std::env::temp_dir().join(format!("gpuforge-stale-{}", std::process::id()));
    g.write_to(&dir).unwrap();
    assert!(g.stale_files(&dir).is_empty());
    let f = dir.join("lib").join(&g.lib[0].0);
    let mut text = std::fs::read_to_string(&f).unwrap();
    text.push_str("// edited by hand\n");
    std::fs::write(&f, text).unwrap();
    std::fs::write(dir.join("net/extra.v"), "").unwrap();
    let stale = g.stale_files(&dir);
    assert_eq!(stale.len(), 2, "{stale:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What Verilator's lint of a design can depend on: its filelist and the text of each
/// file, with the preset's name (in module and file names) replaced by a placeholder and
/// the whole-line `//` comments (headers, config echoes) dropped; comments that carry a
/// `verilator` directive stay. Two designs with the same key lint alike.
fn lint_key(preset: &str, design: &Design) -> String {
    let mut key = design.manifest.filelist.replace(preset, "<preset>");
    for (name, text) in &design.files {
        key.push_str(&format!("\n== {}\n", name.replace(preset, "<preset>")));
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//") || l.contains("verilator")) {
            key.push_str(&line.replace(preset, "<preset>"));
            key.push('\n');
        }
    }
    key
}

/// [`lint_key`] of a committed design directory (`rtl_out/<preset>/<design>`).
fn lint_key_of(dir: &Path) -> String {
    let preset = dir.parent().unwrap().file_name().unwrap().to_string_lossy().to_string();
    lint_key(&preset, &Design::load(dir).unwrap_or_else(|e| panic!("{e}")))
}

/// Every committed design lints clean through its filelist. Designs whose Verilog is the
/// same up to the preset's name and comments (the baseline 8x8 meshes of placements b and
/// c: the baseline's RTL does not depend on where the MCs are) are linted once: one
/// 8x8 baseline lint is a minute of Verilator. Designs are linted smallest first, and in a
/// mesh the VC router ([`REGISTERED_OUTPUTS`]), already linted whole in its preset's
/// router design, is a port stub ([`verif::lint::lint_design_with_stubs`]): the mesh's own
/// wiring and its connections to every router port are linted, in seconds instead of the
/// minute Verilator takes over 64 router instances. `gpuforge lint` (`make lint`) lints
/// every design whole.
#[test]
fn every_committed_design_lints_clean_through_its_filelist() {
    let mut dirs = Design::find_all(&repo().join("rtl_out"));
    assert!(dirs.len() >= 20, "{} design directories", dirs.len());
    let bytes = |d: &PathBuf| Design::load(d).unwrap_or_else(|e| panic!("{e}")).files.iter().map(|(_, t)| t.len()).sum::<usize>();
    dirs.sort_by_cached_key(|d| (bytes(d), d.clone()));
    let mut linted: BTreeMap<String, PathBuf> = BTreeMap::new();
    // (file name, text) of every module linted whole so far
    let mut whole: BTreeMap<String, String> = BTreeMap::new();
    let mut same = Vec::new();
    let mut stubbed = Vec::new();
    let work = std::env::temp_dir().join(format!("gpuforge-lint-stubs-{}", std::process::id()));
    for d in dirs {
        let key = lint_key_of(&d);
        if let Some(first) = linted.get(&key) {
            same.push((d.clone(), first.clone()));
            continue;
        }
        let design = Design::load(&d).unwrap();
        let stubs = stubs_for(&design, &whole);
        let r = if stubs.is_empty() { lint_design(&d) } else { lint_design_with_stubs(&design, &stubs, &work) }.unwrap_or_else(|e| panic!("{e}"));
        assert!(r.files > 0);
        assert!(r.clean(), "{} (stubs {stubs:?}): {:#?}", r.dir.display(), r.findings);
        if stubs.is_empty() {
            whole.extend(design.files.iter().cloned());
        } else {
            stubbed.push(d.clone());
        }
        linted.insert(key, d);
    }
    let rel = |p: &Path| p.strip_prefix(repo().join("rtl_out")).unwrap().display().to_string();
    let same: Vec<(String, String)> = same.iter().map(|(d, f)| (rel(d), rel(f))).collect();
    assert!(same.contains(&("noc_baseline_8x8_c/baseline".into(), "noc_baseline_8x8_b/baseline".into())), "{same:?}");
    let stubbed: Vec<String> = stubbed.iter().map(|d| rel(d)).collect();
    for mesh in ["noc_baseline_4x4/baseline", "noc_baseline_8x8_b/baseline", "noc_macro_8x8_b/request", "noc_macro_8x8_c/macro_top"] {
        assert!(stubbed.iter().any(|s| s == mesh), "{mesh} is linted with its routers as stubs: {stubbed:?}");
    }
}

/// Module-name prefixes of the modules whose every output is registered: the VC router
/// (spec 1.11-1.12: links registered at the sender, credits returned from a register; its
/// generated header says so, checked below). A stub of one hides no combinational path.
const REGISTERED_OUTPUTS: [&str; 1] = ["vc_router_"];

/// The modules of `design` to lint as port stubs: VC routers ([`REGISTERED_OUTPUTS`])
/// that `whole` holds with the same text (linted whole before) and that the design
/// instantiates at least 8 times (a mesh). Their registered outputs are part of the
/// router's documented protocol: the file's header must state it.
fn stubs_for(design: &Design, whole: &BTreeMap<String, String>) -> std::collections::BTreeSet<String> {
    let mut stubs = std::collections::BTreeSet::new();
    for (name, text) in &design.files {
        let module = name.trim_end_matches(".v");
        if module == design.manifest.top || !REGISTERED_OUTPUTS.iter().any(|p| module.starts_with(p)) || whole.get(name) != Some(text) {
            continue;
        }
        let instances: usize = design.files.iter().map(|(_, t)| t.lines().filter(|l| l.trim_start().starts_with(&format!("{module} "))).count()).sum();
        if instances >= 8 {
            assert!(
                text.contains("registered at the sender") && text.contains("returned from a register"),
                "{module}: its header no longer says its outputs are registered; it cannot be linted as a stub"
            );
            stubs.insert(module.to_string());
        }
    }
    stubs
}

/// A stubbed lint still sees the mesh: a port connection of the wrong width to a stubbed
/// router is a finding, and the stub itself lints clean.
#[test]
fn a_stubbed_lint_still_catches_a_planted_width_mismatch_at_a_router_port() {
    let d = repo().join("rtl_out/noc_baseline_4x4/baseline");
    let design = Design::load(&d).unwrap();
    let router = "vc_router_noc_baseline_4x4_base";
    let stubs: std::collections::BTreeSet<String> = [router.to_string()].into();
    let text = &design.files.iter().find(|(n, _)| n == &format!("{router}.v")).unwrap().1;
    let stub = verif::lint::port_stub(text).expect("the router has a stub");
    assert!(stub.contains("assign out_e_flit_o = '0;") && stub.contains("assign in_l_credit_o = '0;"), "{stub}");
    let work = std::env::temp_dir().join(format!("gpuforge-lint-planted-stub-{}", std::process::id()));
    let r = lint_design_with_stubs(&design, &stubs, &work).unwrap();
    assert!(r.clean(), "{:#?}", r.findings);
    assert!(!work.exists(), "the stubbed copy is removed");
    // plant: one router's x position driven 3 bits wide into its 2-bit port
    let mut planted = design.clone();
    let mesh = planted.files.iter_mut().find(|(_, t)| t.contains(".x_i(2'd0), .y_i(2'd0)")).expect("the mesh");
    mesh.1 = mesh.1.replacen(".x_i(2'd0), .y_i(2'd0)", ".x_i(3'd0), .y_i(2'd0)", 1);
    let r = lint_design_with_stubs(&planted, &stubs, &work).unwrap();
    assert!(r.findings.iter().any(|f| f.contains("WIDTH")), "a 3-bit constant on a 2-bit router port went unnoticed: {:?}", r.findings);
}

/// The lint key tells designs apart by anything but the preset's name and comments: the
/// two 8x8 baselines share one; another size, another MC placement of MACRO, a changed
/// line or a lint directive in a comment make another.
#[test]
fn the_lint_key_ignores_only_names_and_comments() {
    let out = repo().join("rtl_out");
    let b = lint_key_of(&out.join("noc_baseline_8x8_b/baseline"));
    assert_eq!(b, lint_key_of(&out.join("noc_baseline_8x8_c/baseline")));
    assert_ne!(b, lint_key_of(&out.join("noc_baseline_4x4/baseline")));
    assert_ne!(lint_key_of(&out.join("noc_macro_8x8_b/reply")), lint_key_of(&out.join("noc_macro_8x8_c/reply")), "MC placement changes the MACRO RTL");
    let design = Design::load(&out.join("noc_baseline_8x8_b/baseline")).unwrap();
    let edited = |find: &str, with: &str| {
        let mut d = design.clone();
        let f = d.files.iter_mut().find(|(_, t)| t.contains(find)).unwrap_or_else(|| panic!("{find}"));
        f.1 = f.1.replacen(find, with, 1);
        lint_key("noc_baseline_8x8_b", &d)
    };
    assert_eq!(lint_key("noc_baseline_8x8_b", &design), b);
    assert_eq!(edited("endmodule", "// a comment\nendmodule"), b, "a comment is not");
    assert_ne!(edited("endmodule", "// verilator lint_off UNUSEDSIGNAL\nendmodule"), b, "a lint directive is part of the key");
    assert_ne!(edited("endmodule", "wire planted;\nendmodule"), b, "a changed line is");
}

#[test]
fn lint_catches_a_planted_warning() {
    let dir = std::env::temp_dir().join(format!("gpuforge-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("planted.v"), "module planted (input wire [3:0] a_i, output wire [3:0] b_o);\n  wire [7:0] wide = a_i;\n  assign b_o = wide[3:0];\nendmodule\n")
        .unwrap();
    let r = lint_files(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!r.clean(), "a width mismatch and unused bits went unnoticed");
    assert!(r.findings.iter().any(|f| f.contains("WIDTH")), "{:?}", r.findings);
}

#[test]
fn a_planted_warning_in_a_library_module_fails_the_designs_filelist_lint() {
    let (_, g) = generated().into_iter().find(|(_, g)| g.preset == "gpucc_small").expect("gpucc_small");
    let dir = std::env::temp_dir().join(format!("gpuforge-lint-lib-{}", std::process::id()));
    g.write_to(&dir).unwrap();
    assert!(lint_design(&dir.join("net")).unwrap().clean());
    // a width mismatch in a leaf: the design's lint must name it (the content hash
    // check would refuse the edited file, so the manifest's hash is updated too).
    // Verilator 5.006 says nothing about a wire that is neither driven nor used,
    // so the planted wire is driven with a constant too wide for it.
    let leaf = g.lib.iter().find(|(n, _)| n.starts_with("gpucc_cr")).unwrap().0.clone();
    let p = dir.join("lib").join(&leaf);
    let text = std::fs::read_to_string(&p).unwrap().replacen("endmodule", "wire [7:0] planted_unused = 16'hffff;\nendmodule", 1);
    std::fs::write(&p, text).unwrap();
    let mpath = dir.join("net/manifest.json");
    let mut m: hdl_gen::manifest::Manifest = serde_json::from_str(&std::fs::read_to_string(&mpath).unwrap()).unwrap();
    let files: Vec<(String, String)> =
        m.files.iter().map(|f| (Path::new(f).file_name().unwrap().to_string_lossy().to_string(), std::fs::read_to_string(dir.join("net").join(f)).unwrap())).collect();
    m.content_hash = hdl_gen::manifest::content_hash(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
    std::fs::write(&mpath, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let r = lint_design(&dir.join("net")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(r.findings.iter().any(|f| f.contains("WIDTH") && f.contains(&leaf)), "{:?}", r.findings);
}

#[test]
fn every_module_documents_itself_and_no_file_repeats_within_a_preset() {
    for (p, g) in generated() {
        let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
        for (name, text) in &g.lib {
            assert!(!text.contains("part of a gpuforge"), "{}: {name} has a generic header", p.display());
            let header: Vec<&str> = text.lines().take_while(|l| l.starts_with("//")).collect();
            assert!(header.iter().any(|l| l.starts_with("// Protocol:")), "{name}: no protocol in its header");
            assert!(header.get(1).is_some_and(|l| l.starts_with(&format!("// {}: ", name.trim_end_matches(".v")))), "{name}: header does not name the module");
            if let Some(other) = seen.insert(text.as_str(), name) {
                panic!("{}: {name} and {other} are byte-identical", p.display());
            }
        }
        for f in g.files() {
            assert!(!f.1.is_empty(), "{}: empty file {}", p.display(), f.0.display());
        }
    }
    // and the committed tree says the same (nothing hand-added)
    let mut texts: BTreeMap<(String, Vec<u8>), PathBuf> = BTreeMap::new();
    for e in walk(&repo().join("rtl_out")) {
        let preset = e.strip_prefix(repo().join("rtl_out")).unwrap().components().next().unwrap().as_os_str().to_string_lossy().to_string();
        let bytes = std::fs::read(&e).unwrap();
        if let Some(first) = texts.insert((preset, bytes), e.clone()) {
            panic!("{} and {} are byte-identical", e.display(), first.display());
        }
    }
}

fn walk(d: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(d).unwrap().flatten() {
        if e.path().is_dir() {
            v.extend(walk(&e.path()));
        } else {
            v.push(e.path());
        }
    }
    v
}
