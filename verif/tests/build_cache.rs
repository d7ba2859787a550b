//! The Verilator build cache: a second build of the same design is a cache hit, and a
//! new design reuses the compiled Verilator runtime (which keeps CI within budget).

mod common;

use verif::verilator::{build, cache_root, Opt};

fn design(name: &str, slices: u32) -> hdl_gen::design::Design {
    let text = format!(
        "name = \"{name}\"\n[gpucc]\nslices = {slices}\nslice = [\"core\", \"lsu\"]\nlanes = 2\ndata_width = 8\n\
         core_fifo_depth = 2\nlsu_addr_depth = 3\nlsu_data_depth = 2\nwatchdog = 9\n"
    );
    common::gpucc_text(&text).1
}

#[test]
fn builds_are_cached_and_share_the_runtime() {
    let tag = std::process::id();
    let first = build(&design(&format!("cache_a{tag}"), 2), Opt::Quick).unwrap_or_else(|e| panic!("{e}"));
    assert!(first.compiled);
    let again = build(&design(&format!("cache_a{tag}"), 2), Opt::Quick).unwrap();
    assert!(!again.compiled, "same design, same flags: cache hit");
    assert_eq!(again.lib, first.lib);
    let second = build(&design(&format!("cache_b{tag}"), 3), Opt::Quick).unwrap();
    assert!(second.compiled);
    let log = std::fs::read_to_string(second.lib.parent().unwrap().join("build.log")).unwrap();
    assert!(!log.contains("verilated.cpp"), "the Verilator runtime was compiled again:\n{log}");
    assert!(log.contains("cosim_shim"), "the build log is the model's:\n{log}");
    for b in [&first, &second] {
        let _ = std::fs::remove_dir_all(b.lib.parent().unwrap());
    }
    assert!(cache_root().exists());
}
