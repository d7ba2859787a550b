//! The Q-cache monitor on the GPU model's L2 (`[hooks.qcache]`, spec §1.1-§1.2): it
//! counts every line a kernel makes dirty and every dirty write-back, and with no CPU
//! consumer in the GPU model it finds no producer-consumer relationship, times out of
//! DETECT into OFF, sends nothing and leaves the run's timing untouched.

use crate::gpu_common;

use golden::gpu::hooks::HookSet;
use golden::gpu::sim::{run_capture, Gpu};
use golden::gpu::{run, RunOptions};
use golden::qcache::hook::QcacheHook;
use gpu_common::*;

#[test]
fn the_monitor_on_the_gpu_l2_counts_production_and_spills_and_stays_silent() {
    // a small LLC so that dirty lines are written back
    let cfg = config_with("tiny", &[("llc", "size_bytes", "8192")]);
    let l = launch("vecadd/vecadd.toml");
    let plain = run(&cfg, &l, RunOptions::default()).unwrap();
    let text = "name = \"hooked\"\n[qcache]\nnbanks = 4\ncnt_w = 32\ncap_lines = 64\neval_interval = 256\nmin_obs_cycles = 256\n\
                window_cycles = 4096\nmin_lines = 16\nqlow_lines = 4\ndetect_timeout = 1000\nrc_lat = 12\n";
    let qc = golden::block::parse::<golden::qcache::Qcache>(std::path::Path::new("h.toml"), text).unwrap().config;
    let mut hooks = HookSet::none(&cfg);
    hooks.set_l2("qcache", Box::new(QcacheHook::new(&qc))).unwrap();
    let (r, _) = run_capture(Gpu::with_hooks(&cfg, hooks).unwrap(), &l, RunOptions::default()).unwrap();
    assert!(r.checks_passed(), "{r}");
    assert_eq!(r.cycles, plain.cycles, "a silent monitor changes no timing");
    let h = |k: &str| r.hooks.get(&format!("qcache.{k}")).copied().unwrap_or(0);
    // every dirty write-back is a SPILL; every written-back line was produced first
    assert_eq!(h("spilled"), r.llc.writebacks);
    assert!(r.llc.writebacks > 0 && h("produced") >= h("spilled"), "produced {} spilled {}", h("produced"), h("spilled"));
    assert_eq!((h("requests"), h("restores")), (0, 0));
    // vecadd runs longer than the DETECT timeout with production and no consumption
    assert!(plain.cycles > 1000, "{} cycles", plain.cycles);
    assert_eq!(h("final_state_disabled") + h("final_state_off"), 1);
}

#[test]
fn bad_monitor_parameters_in_the_gpu_config_name_the_hook_field() {
    let path = config_path("tiny");
    let text = std::fs::read_to_string(&path).unwrap() + "\n[hooks.qcache]\neval_interval = 0\n";
    let e = golden::gpu::GpuConfig::parse(&path, &text).unwrap_err().to_string();
    assert!(e.contains("hooks.qcache.eval_interval: 0 is out of range (allowed: 1..=131072)"), "{e}");
    let text = std::fs::read_to_string(&path).unwrap() + "\n[hooks.qcache]\nnbanks = 4\neval_interval = 256\n";
    assert!(golden::gpu::GpuConfig::parse(&path, &text).is_ok());
}
