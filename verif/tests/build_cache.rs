//! The Verilator build cache: a second build of the same design is a cache hit, and a
//! new design reuses the compiled Verilator runtime (which keeps CI within budget).

use crate::common;

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

/// `Opt::Debug` really compiles the model at -O0 (Verilator's makefile would append its
/// own `-Os`), without the trace code; such a model refuses a waveform, and a run that
/// asks for one gets the traced twin of the model, with the waveform written.
#[test]
fn debug_builds_are_untraced_at_o0_and_a_waveform_brings_the_traced_twin() {
    use golden::gpucc::traffic::{NetTraffic, TrafficParams};
    use verif::lockstep::{self, Options};
    let tag = std::process::id();
    let text = format!(
        "name = \"cache_c{tag}\"\n[gpucc]\nslices = 1\nslice = [\"core\", \"lsu\"]\nlanes = 2\ndata_width = 8\n\
         core_fifo_depth = 2\nlsu_addr_depth = 3\nlsu_data_depth = 2\nwatchdog = 9\n"
    );
    let (c, d) = common::gpucc_text(&text);
    let built = build(&d, Opt::Debug).unwrap_or_else(|e| panic!("{e}"));
    assert!(built.compiled && !built.opts.trace);
    let log = std::fs::read_to_string(built.lib.parent().unwrap().join("build.log")).unwrap();
    // the model's files (the Verilator runtime, compiled once per cache, keeps -Os)
    let compiles: Vec<&str> = log.lines().filter(|l| l.contains(" -c -o ") && !l.contains(" -c -o verilated")).collect();
    assert!(!compiles.is_empty(), "no compile lines in the build log:\n{log}");
    for l in &compiles {
        let last = l.split_whitespace().rfind(|t| t.starts_with("-O"));
        assert_eq!(last, Some("-O0"), "a model file was not compiled at -O0: {l}");
        assert!(!l.contains("Trace"), "an untraced build compiled trace code: {l}");
    }
    let mut rtl = verif::rtl::Rtl::load(&built).unwrap();
    assert!(!rtl.has_trace);
    let dir = std::env::temp_dir().join(format!("gpuforge-trace-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    let e = rtl.trace_open(&dir.join("refused.vcd")).expect_err("an untraced model cannot write a VCD");
    assert!(e.to_string().contains("without --trace"), "{e}");
    let layout = rtl.layout.clone();
    let mut o = Options::new(200, 1);
    o.vcd = Some(dir.join("run.vcd"));
    lockstep::run(&mut rtl, || verif::gpucc::net_bench(&c, &layout, NetTraffic::new(&c, 1, TrafficParams::default())).unwrap(), &o).unwrap_or_else(|e| panic!("{e}"));
    assert!(rtl.has_trace, "the run swapped in the traced twin");
    let body = std::fs::read_to_string(dir.join("run.vcd")).unwrap();
    assert!(body.contains("$enddefinitions") && body.contains("#1990"), "a VCD of 200 cycles:\n{}", &body[..body.len().min(400)]);
    let _ = std::fs::remove_dir_all(&dir);
    let twin = build(&d, verif::verilator::BuildOpts::from(Opt::Debug).traced()).unwrap();
    assert!(!twin.compiled, "the traced twin is cached");
    for b in [&built, &twin] {
        let _ = std::fs::remove_dir_all(b.lib.parent().unwrap());
    }
}
