//! `gpuforge sim CONFIG LAUNCH` from the command line: `--dump DIR` (raw and `.npy`),
//! `[[check.expect]]` files (pass, a planted wrong value, a missing file), the cycle
//! limit, and bad launches found before the simulation (exit 2, nothing on stdout).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn gpuforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuforge")).current_dir(root()).args(args).output().expect("runs")
}

fn scratch(tag: &str) -> tempfile::TempDir {
    // removed when dropped, at the end of the test
    tempfile::Builder::new().prefix(&format!("gpuforge-simlaunch-{tag}-")).tempdir().unwrap()
}

fn text(o: &Output) -> String {
    format!("status {:?}\nstdout:\n{}\nstderr:\n{}", o.status.code(), String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A `.npy` header parsed here, independently of the model's writer: (descr, fortran
/// order, shape, data offset). Checks the magic, version 1.0 and 64-byte alignment.
fn npy_header(b: &[u8]) -> (String, bool, Vec<usize>, usize) {
    assert_eq!(&b[..6], b"\x93NUMPY", "magic");
    assert_eq!((b[6], b[7]), (1, 0), "version 1.0");
    let hlen = u16::from_le_bytes([b[8], b[9]]) as usize;
    assert_eq!((10 + hlen) % 64, 0, "data aligned to 64 bytes");
    let h = std::str::from_utf8(&b[10..10 + hlen]).unwrap();
    assert!(h.ends_with('\n') && h.starts_with('{'), "{h:?}");
    let field = |k: &str| h.split(&format!("'{k}': ")).nth(1).unwrap_or_else(|| panic!("no {k} in {h}")).to_string();
    let descr = field("descr").split('\'').nth(1).unwrap().to_string();
    let fortran = field("fortran_order").starts_with("True");
    let shape = field("shape").trim_start_matches('(').split(')').next().unwrap().split(',').filter(|s| !s.trim().is_empty()).map(|s| s.trim().parse().unwrap()).collect();
    (descr, fortran, shape, 10 + hlen)
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn dump_writes_every_buffer_raw_and_as_npy() {
    let tmp = scratch("dump");
    let d = tmp.path();
    let o = gpuforge(&["sim", "configs/gpu/tiny.toml", "workloads/vecadd/vecadd.toml", "--dump", d.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    for name in ["a", "b", "c"] {
        let raw = std::fs::read(d.join(format!("{name}.bin"))).unwrap();
        let npy = std::fs::read(d.join(format!("{name}.npy"))).unwrap();
        let (descr, fortran, shape, off) = npy_header(&npy);
        assert_eq!((descr.as_str(), fortran, shape), ("<f4", false, vec![10000]), "{name}");
        assert_eq!(&npy[off..], &raw[..], "{name}: .npy data = .bin");
        assert_eq!(raw.len(), 40000);
    }
    // c = a + b element by element (the kernel's definition), from the dumped inputs
    let (a, b, c) = (f32s(&std::fs::read(d.join("a.bin")).unwrap()), f32s(&std::fs::read(d.join("b.bin")).unwrap()), f32s(&std::fs::read(d.join("c.bin")).unwrap()));
    for i in 0..10000 {
        assert_eq!(c[i], a[i] + b[i], "c[{i}]");
    }
    // a block that writes no buffers refuses the flag
    let o = gpuforge(&["sim", "configs/noc/noc_macro_4x4.toml", "--dump", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// vecadd with its reference check replaced by an expected file.
fn expect_launch(dir: &Path, file: &str) -> PathBuf {
    let base = std::fs::read_to_string(root().join("workloads/vecadd/vecadd.toml")).unwrap();
    let cut = base.find("[check]").unwrap();
    let t = format!("{}[check]\n[[check.expect]]\nbuffer = \"c\"\nfile = \"{file}\"\nrtol = 1e-6\n", &base[..cut]);
    std::fs::copy(root().join("workloads/vecadd/vecadd.ptx"), dir.join("vecadd.ptx")).unwrap();
    let p = dir.join(format!("with_{file}.toml"));
    std::fs::write(&p, t).unwrap();
    p
}

/// `.npy` bytes of f32 data, written here (not by the model).
fn npy_f32(v: &[f32]) -> Vec<u8> {
    let dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}", v.len());
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    let header = format!("{dict}{}\n", " ".repeat(total - 10 - dict.len() - 1));
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
    out
}

#[test]
fn expected_files_pass_catch_a_wrong_value_and_must_exist() {
    let tmp = scratch("expect");
    let d = tmp.path();
    // the expected c = a + b, from the inputs the launch generates (dumped by a run)
    let inputs = d.join("inputs");
    let o = gpuforge(&["sim", "configs/gpu/tiny.toml", "workloads/vecadd/vecadd.toml", "--dump", inputs.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let a = f32s(&std::fs::read(inputs.join("a.bin")).unwrap());
    let b = f32s(&std::fs::read(inputs.join("b.bin")).unwrap());
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    std::fs::write(d.join("c.npy"), npy_f32(&want)).unwrap();
    std::fs::write(d.join("c.bin"), want.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    for f in ["c.npy", "c.bin"] {
        let o = gpuforge(&["sim", "configs/gpu/tiny.toml", expect_launch(d, f).to_str().unwrap()]);
        assert!(o.status.success(), "{f}: {}", text(&o));
        assert!(String::from_utf8_lossy(&o.stdout).contains("check c"), "{}", text(&o));
    }
    // planted: element 1234 off by 1.0 (far beyond rtol)
    let mut bad = want.clone();
    bad[1234] += 1.0;
    std::fs::write(d.join("bad.npy"), npy_f32(&bad)).unwrap();
    let o = gpuforge(&["sim", "configs/gpu/tiny.toml", expect_launch(d, "bad.npy").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(err.contains("buffer `c`") && err.contains("[1234] = ") && err.contains(&format!("expected {}", bad[1234] as f64)), "{}", text(&o));
    assert!(err.contains("1 of 10000 elements differ"), "{}", text(&o));
    // a missing expected file: exit 2 before the simulation (no report on stdout)
    let o = gpuforge(&["sim", "configs/gpu/tiny.toml", expect_launch(d, "nowhere.npy").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(o.stdout.is_empty(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("check.expect[0].file: cannot read"), "{}", text(&o));
}

#[test]
fn the_cycle_limit_ends_a_run_with_exit_1() {
    let o = gpuforge(&["sim", "configs/gpu/tiny.toml", "workloads/vecadd/vecadd.toml", "--max-cycles", "500"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cycle limit of 500 cycles reached"), "{}", text(&o));
}

/// A shipped launch with one edit; expect exit 2, one line naming the file and `want`,
/// nothing on stdout (found before the simulation).
fn rejected_before_the_run(tag: &str, launch: &str, from: &str, to: &str, want: &[&str]) {
    let tmp = scratch(tag);
    let d = tmp.path();
    let src = root().join("workloads").join(launch);
    let dir = src.parent().unwrap();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        std::fs::copy(e.path(), d.join(e.file_name())).unwrap();
    }
    let t = std::fs::read_to_string(&src).unwrap();
    assert!(t.contains(from), "{launch} has no `{from}`");
    let p = d.join(src.file_name().unwrap());
    std::fs::write(&p, t.replacen(from, to, 1)).unwrap();
    let o = gpuforge(&["sim", "configs/gpu/tiny.toml", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{tag}: {}", text(&o));
    assert!(o.stdout.is_empty(), "{tag}: {}", text(&o));
    assert_eq!(err.trim_end().lines().count(), 1, "{tag}: {}", text(&o));
    for w in want {
        assert!(err.contains(w), "{tag}: `{w}` missing: {}", text(&o));
    }
}

#[test]
fn bad_launches_are_exit_2_before_the_simulation() {
    rejected_before_the_run("block0", "reduce/reduce.toml", "block = 256 }", "block = 0 }", &["reduce.toml", "check.params", "block"]);
    rejected_before_the_run("stride", "copy/copy_strided.toml", "stride = 7", "stride = 9.2e18", &["copy_strided.toml", "check.params", "stride"]);
    rejected_before_the_run("noparams", "vecadd/vecadd.toml", "params = { n = 10000 }", "", &["vecadd.toml", "check.params.n"]);
    rejected_before_the_run("huge", "vecadd/vecadd.toml", "len = 10000", "len = 4000000000", &["vecadd.toml", "buffer[0].len", "gpu.memory_bytes"]);
    // the second kernel of bfs cannot fit an SM: found before bfs_init runs
    rejected_before_the_run("regs", "bfs/bfs.toml", "loop_while = \"changed\"", "regs_per_thread = 255\nloop_while = \"changed\"", &["bfs_step", "registers"]);
    rejected_before_the_run("lanes", "vecadd/vecadd.toml", "grid = 40", "grid = -1", &["kernel[0].grid (line", "allowed:"]);
}

#[test]
fn a_larger_device_memory_is_configured_in_gpu_memory_bytes() {
    let tmp = scratch("memcfg");
    let d = tmp.path();
    let cfg = std::fs::read_to_string(root().join("configs/gpu/tiny.toml")).unwrap().replace("clock_mhz = 1000\n\n[core]", "clock_mhz = 1000\nmemory_bytes = 1048576\n\n[core]");
    assert!(cfg.contains("memory_bytes"));
    std::fs::write(d.join("small.toml"), &cfg).unwrap();
    // vecadd's three 40 kB buffers fit 1 MiB; 300000 elements (1.2 MB) do not
    let o = gpuforge(&["sim", d.join("small.toml").to_str().unwrap(), "workloads/vecadd/vecadd.toml"]);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::write(d.join("zero.toml"), cfg.replace("memory_bytes = 1048576", "memory_bytes = 0")).unwrap();
    let o = gpuforge(&["sim", d.join("zero.toml").to_str().unwrap(), "workloads/vecadd/vecadd.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("gpu.memory_bytes: 0 is out of range (allowed: 1048576..=68719476736)"), "{}", text(&o));
}
