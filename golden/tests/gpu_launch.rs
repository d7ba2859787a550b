//! Launch files (issue 9 item 3): signed 32-bit arguments, struct-by-value arguments,
//! host loops over several kernels, texture bindings, expected-file checks; and the
//! checks that run before a simulation (item 5). Expected values are derived by hand
//! from the kernels' PTX, independent of the model.

use crate::gpu_common;

use std::path::Path;

use golden::gpu::launch::Arg;
use golden::gpu::sim::{run_capture, Gpu, SimError};
use golden::gpu::{Launch, LaunchError, RunOptions};
use gpu_common::config;

/// Kernels for these tests: `store_u32(out, v)` writes v to out[0]; `store_struct(out, s)`
/// copies the fields of `struct { u32 a; f32 b; u64 p; u16 c; }` (offsets 0, 4, 8, 16) and
/// loads through the pointer p; `bump(counter)` adds 1 to counter[0]; `test_below(counter,
/// flag, last, limit, iter)` sets flag[0] = 1 while counter[0] < limit and records iter.
const PTX: &str = r#"
.version 8.0
.target sm_52
.address_size 64

.visible .entry store_u32(
	.param .u64 out,
	.param .u32 v
)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [v];
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r1;
	ret;
}

.visible .entry store_struct(
	.param .u64 out,
	.param .align 8 .b8 s[24]
)
{
	.reg .b32 %r<6>;
	.reg .f32 %f<2>;
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	ld.param.u32 %r1, [s];
	ld.param.f32 %f1, [s+4];
	ld.param.u64 %rd3, [s+8];
	ld.param.u32 %r2, [s+16];
	st.global.u32 [%rd2], %r1;
	st.global.f32 [%rd2+4], %f1;
	cvta.to.global.u64 %rd4, %rd3;
	ld.global.u32 %r3, [%rd4];
	st.global.u32 [%rd2+8], %r3;
	st.global.u32 [%rd2+12], %r2;
	ret;
}

.visible .entry bump(
	.param .u64 counter
)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [counter];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u32 %r1, [%rd2];
	add.s32 %r2, %r1, 1;
	st.global.u32 [%rd2], %r2;
	ret;
}

.visible .entry test_below(
	.param .u64 counter,
	.param .u64 flag,
	.param .u64 last,
	.param .u32 limit,
	.param .u32 iter
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	.reg .b64 %rd<7>;
	ld.param.u64 %rd1, [counter];
	ld.param.u64 %rd2, [flag];
	ld.param.u64 %rd3, [last];
	ld.param.u32 %r1, [limit];
	ld.param.u32 %r2, [iter];
	cvta.to.global.u64 %rd4, %rd1;
	cvta.to.global.u64 %rd5, %rd2;
	cvta.to.global.u64 %rd6, %rd3;
	st.global.u32 [%rd6], %r2;
	ld.global.u32 %r3, [%rd4];
	setp.ge.u32 %p1, %r3, %r1;
	@%p1 bra $L_done;
	mov.u32 %r4, 1;
	st.global.u32 [%rd5], %r4;
$L_done:
	ret;
}
"#;

/// A scratch directory holding the test kernels.
fn scratch(tag: &str) -> tempfile::TempDir {
    // removed when dropped, at the end of the test
    let d = tempfile::Builder::new().prefix(&format!("gpuforge-launch-{tag}-")).tempdir().unwrap();
    std::fs::write(d.path().join("k.ptx"), PTX).unwrap();
    d
}

fn parse(dir: &Path, text: &str) -> Result<Launch, LaunchError> {
    Launch::parse(&dir.join("l.toml"), text)
}

fn err(dir: &Path, text: &str) -> String {
    parse(dir, text).unwrap_err().to_string()
}

fn run(l: &Launch) -> Result<golden::gpu::launch::HostBuffers, SimError> {
    run_capture(Gpu::new(&config("tiny")).unwrap(), l, RunOptions::default()).map(|(_, b)| b)
}

const OUT: &str = "name = \"t\"\n[[buffer]]\nname = \"out\"\ntype = \"u32\"\nlen = 4\ninit = { kind = \"zeros\" }\n";

fn store(v: &str) -> String {
    format!("{OUT}[[kernel]]\nptx = \"k.ptx\"\nentry = \"store_u32\"\ngrid = 1\nblock = 1\nargs = [\"out\", {v}]\n")
}

#[test]
fn u32_parameters_take_negative_values_in_twos_complement() {
    let tmp = scratch("signed");
    let d = tmp.path();
    // -3 as 32 bits: 2^32 - 3
    for (v, want) in [("-3", 4294967293u32), ("-2147483648", 2147483648), ("4294967295", 4294967295), ("7", 7)] {
        let b = run(&parse(d, &store(v)).unwrap()).unwrap();
        assert_eq!(b["out"].u32s()[0], want, "argument {v}");
    }
    for v in ["-2147483649", "4294967296"] {
        let e = err(d, &store(v));
        assert!(e.contains("kernel[0].args[1]") && e.contains("-2147483648..=4294967295"), "{e}");
    }
}

fn with_struct(s: &str) -> String {
    format!(
        "{OUT}[[buffer]]\nname = \"src\"\ntype = \"u32\"\nlen = 1\ninit = {{ kind = \"constant\", value = 77 }}\n\
         [[kernel]]\nptx = \"k.ptx\"\nentry = \"store_struct\"\ngrid = 1\nblock = 1\nargs = [\"out\", {s}]\n"
    )
}

#[test]
fn struct_arguments_are_laid_out_field_by_field() {
    let tmp = scratch("struct");
    let d = tmp.path();
    // C layout: a u32 at 0, f32 at 4, u64 at 8 (aligned), u16 at 16
    let l = parse(d, &with_struct("{ struct = [ { u32 = 5 }, { f32 = 1.5 }, { u64 = \"src\" }, { u16 = 65535 } ] }")).unwrap();
    match &l.kernels[0].args[1] {
        Arg::Bytes { bytes, buffers } => {
            let mut want = vec![0u8; 24];
            want[0..4].copy_from_slice(&5u32.to_le_bytes());
            want[4..8].copy_from_slice(&1.5f32.to_le_bytes());
            want[16..18].copy_from_slice(&[0xff, 0xff]);
            assert_eq!(bytes, &want);
            assert_eq!(buffers, &vec![(8, 1)]);
        }
        other => panic!("{other:?}"),
    }
    let b = run(&l).unwrap();
    assert_eq!(b["out"].u32s(), vec![5, 1.5f32.to_bits(), 77, 65535]);
    // explicit offsets: the same struct written out of order
    let l2 = parse(d, &with_struct("{ struct = [ { u16 = 65535, offset = 16 }, { u64 = \"src\", offset = 8 }, { u32 = 5, offset = 0 }, { f32 = 1.5, offset = 4 } ] }")).unwrap();
    assert_eq!(run(&l2).unwrap()["out"].u32s(), vec![5, 1.5f32.to_bits(), 77, 65535]);
}

#[test]
fn struct_arguments_that_do_not_fit_are_errors() {
    let tmp = scratch("struct_bad");
    let d = tmp.path();
    let cases = [
        ("7", "kernel[0].args[1]: 7 for array parameter `s` (24 bytes)"),
        ("\"src\"", "for array parameter `s`"),
        ("{ struct = [ { u64 = 1 }, { u64 = 2 }, { u64 = 3 }, { u32 = 4 } ] }", "kernel[0].args[1].struct[3].u32: bytes 24..28 do not fit parameter `s` of 24 bytes"),
        ("{ struct = [ { u32 = 1 }, { u32 = 2, offset = 2 } ] }", "kernel[0].args[1].struct[1].offset: 2 is not aligned"),
        ("{ struct = [ { u64 = 1 }, { u32 = 2, offset = 4 } ] }", "kernel[0].args[1].struct[1].u32: bytes 4..8 overlap"),
        ("{ struct = [ { u24 = 1 } ] }", "kernel[0].args[1].struct[0].u24: unknown struct field key"),
        ("{ struct = [ { u16 = 70000 } ] }", "kernel[0].args[1].struct[0].u16: 70000 does not fit a u16 field (allowed: -32768..=65535)"),
        ("{ struct = [ { u64 = \"nope\" } ] }", "kernel[0].args[1].struct[0].u64: no buffer named `nope`"),
        ("{ struct = [ { f32 = \"src\" } ] }", "kernel[0].args[1].struct[0].f32"),
        ("{ fields = [] }", "for array parameter `s`"),
    ];
    for (arg, want) in cases {
        let e = err(d, &with_struct(arg));
        assert!(e.contains(want), "{arg}: {e}");
        assert!(e.contains("l.toml"), "{e}");
    }
}

fn looped(max: u32, limit: u32) -> String {
    format!(
        "name = \"t\"\n\
         [[buffer]]\nname = \"counter\"\ntype = \"u32\"\nlen = 1\ninit = {{ kind = \"zeros\" }}\n\
         [[buffer]]\nname = \"flag\"\ntype = \"u32\"\nlen = 1\ninit = {{ kind = \"zeros\" }}\n\
         [[buffer]]\nname = \"last\"\ntype = \"u32\"\nlen = 1\ninit = {{ kind = \"constant\", value = 99 }}\n\
         [[buffer]]\nname = \"after\"\ntype = \"u32\"\nlen = 1\ninit = {{ kind = \"zeros\" }}\n\
         [[kernel]]\nptx = \"k.ptx\"\nentry = \"bump\"\ngrid = 1\nblock = 1\nargs = [\"after\"]\n\
         [[kernel]]\nptx = \"k.ptx\"\nentry = \"bump\"\ngrid = 1\nblock = 1\nargs = [\"counter\"]\n\
         [[kernel]]\nptx = \"k.ptx\"\nentry = \"test_below\"\ngrid = 1\nblock = 1\nargs = [\"counter\", \"flag\", \"last\", {limit}, \"$iter\"]\n\
         [[kernel]]\nptx = \"k.ptx\"\nentry = \"bump\"\ngrid = 1\nblock = 1\nargs = [\"after\"]\n\
         [[loop]]\nfirst = 1\nlast = 2\nwhile = \"flag\"\nmax_iterations = {max}\n"
    )
}

#[test]
fn a_host_loop_repeats_a_kernel_range_while_the_flag_is_set() {
    let tmp = scratch("loop");
    let d = tmp.path();
    // pass k (0-based) makes counter k+1 and sets the flag while k+1 < limit: with limit 5
    // the fifth pass (k = 4) leaves it clear, so counter = 5 and the last iter is 4; the
    // kernels before and after the loop run once each
    let b = run(&parse(d, &looped(100, 5)).unwrap()).unwrap();
    assert_eq!((b["counter"].u32s()[0], b["last"].u32s()[0], b["after"].u32s()[0], b["flag"].u32s()[0]), (5, 4, 2, 0));
    // with limit 1 one pass: counter 1, iter 0
    let b = run(&parse(d, &looped(100, 1)).unwrap()).unwrap();
    assert_eq!((b["counter"].u32s()[0], b["last"].u32s()[0]), (1, 0));
    // the bound: 3 passes cannot reach 5
    match run(&parse(d, &looped(3, 5)).unwrap()) {
        Err(SimError::Launch { message, .. }) => assert!(message.contains("`flag` still set after max_iterations = 3"), "{message}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn bad_loops_are_errors() {
    let tmp = scratch("loop_bad");
    let d = tmp.path();
    let base = looped(10, 5);
    let cases = [
        (base.replace("last = 2", "last = 4"), "loop[0].last: kernels 1..=4 are not [[kernel]] entries (allowed: 0 <= first <= last <= 3)"),
        (base.replace("while = \"flag\"", "while = \"nope\""), "loop[0].while: no buffer named `nope`"),
        (base.replace("max_iterations = 10", "max_iterations = 0"), "loop[0].max_iterations: 0 is out of range"),
        (base.clone() + "[[loop]]\nfirst = 2\nlast = 3\nwhile = \"flag\"\n", "loop[1].first: kernels 2..=3 overlap the loop over kernels 1..=2"),
        (base.replace("args = [\"counter\"]\n", "args = [\"counter\"]\nloop_while = \"flag\"\n"), "overlap"),
        (base.replace("while = \"flag\"", "whilst = \"flag\""), "loop[0].whilst (line"),
        (base.replace("args = [\"counter\"]\n", "args = [\"counter\"]\nrepeat = 2\n"), "kernel[1].repeat: kernel 1 is in the loop over kernels 1..=2"),
    ];
    for (text, want) in cases {
        let e = err(d, &text);
        assert!(e.contains(want), "want `{want}`: {e}");
    }
}

/// A kernel that copies texel `t - 1` of texture `tex_in` (component x) to `out[t]`.
const TEX_PTX: &str = ".version 8.0\n.target sm_52\n.address_size 64\n.global .texref tex_in;\n\
.visible .entry fetch(.param .u64 fetch_param_0)\n{\n\t.reg .b32 %r<3>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n\
\tld.param.u64 %rd1, [fetch_param_0];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tsub.s32 %r2, %r1, 1;\n\
\ttex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [tex_in, {%r2}];\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
\tst.global.f32 [%rd3], %f0;\n\tret;\n}\n";

fn tex_launch(binding: &str) -> String {
    format!(
        "name = \"tex\"\n[[buffer]]\nname = \"texels\"\ntype = \"f32\"\nlen = 3\ninit = {{ kind = \"iota\", start = 10.0, step = 1.0 }}\n\
         [[buffer]]\nname = \"wide\"\ntype = \"f64\"\nlen = 3\ninit = {{ kind = \"zeros\" }}\n\
         [[buffer]]\nname = \"out\"\ntype = \"f32\"\nlen = 5\ninit = {{ kind = \"zeros\" }}\n\
         [[kernel]]\nptx = \"tex.ptx\"\ngrid = 1\nblock = 5\n{binding}args = [\"out\"]\n"
    )
}

#[test]
fn textures_bind_a_buffer_and_the_kernel_fetches_it() {
    let tmp = scratch("tex");
    let d = tmp.path();
    std::fs::write(d.join("tex.ptx"), TEX_PTX).unwrap();
    let l = parse(d, &tex_launch("textures = { tex_in = \"texels\" }\n")).unwrap();
    assert_eq!(l.kernels[0].textures.get("tex_in"), Some(&0));
    // thread t reads texel t - 1: out = [0 (below the buffer), 10, 11, 12, 0 (past it)]
    let b = run(&l).unwrap();
    assert_eq!(b["out"].f32s(), vec![0.0, 10.0, 11.0, 12.0, 0.0]);
    // unbound: a fault naming the launch-file key
    let e = run(&parse(d, &tex_launch("")).unwrap()).unwrap_err().to_string();
    assert!(e.contains("texture `tex_in` is not bound"), "{e}");
    for (binding, want) in [
        ("textures = { tex_in = \"nope\" }\n", "kernel[0].textures.tex_in: no buffer named `nope`"),
        ("textures = { \"1x\" = \"texels\" }\n", "kernel[0].textures: `1x` is not a PTX identifier"),
        ("textures = { tex_out = \"texels\" }\n", "kernel[0].textures.tex_out: kernel `fetch` has no texture reference `tex_out` (allowed: tex_in)"),
        ("textures = { tex_in = \"wide\" }\n", "kernel[0].textures.tex_in: buffer `wide` has 8-byte elements"),
    ] {
        let e = err(d, &tex_launch(binding));
        assert!(e.contains(want), "want `{want}`: {e}");
    }
}

fn expect_launch(file: &str) -> String {
    format!("{}[check]\n[[check.expect]]\nbuffer = \"out\"\nfile = \"{file}\"\n", store("-3"))
}

#[test]
fn expected_files_are_compared_and_checked_at_load() {
    let tmp = scratch("expect");
    let d = tmp.path();
    // out = [2^32 - 3, 0, 0, 0] as raw little-endian u32
    let good: Vec<u8> = [4294967293u32, 0, 0, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(d.join("good.bin"), &good).unwrap();
    let l = parse(d, &expect_launch("good.bin")).unwrap();
    let (r, _) = run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()).unwrap();
    assert!(r.checks_passed(), "{:?}", r.checks);
    // planted bug: element 2 off by one -> caught, named
    let mut bad = good.clone();
    bad[8] = 1;
    std::fs::write(d.join("bad.bin"), &bad).unwrap();
    let l = parse(d, &expect_launch("bad.bin")).unwrap();
    let (r, _) = run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()).unwrap();
    let f = r.first_failure().expect("a failed check");
    assert!(f.contains("buffer `out`") && f.contains("[2] = 0, expected 1"), "{f}");
    // wrong size, missing file: load-time errors naming the field
    std::fs::write(d.join("short.bin"), &good[..12]).unwrap();
    let e = err(d, &expect_launch("short.bin"));
    assert!(e.contains("check.expect[0].file") && e.contains("12 bytes for buffer `out` of 4 U32 elements (allowed: 16 bytes"), "{e}");
    let e = err(d, &expect_launch("missing.bin"));
    assert!(e.contains("check.expect[0].file: cannot read"), "{e}");
}

#[test]
fn check_params_the_reference_cannot_take_are_bad_input_before_the_run() {
    let root = gpu_common::root().join("workloads");
    let cases = [
        ("reduce/reduce.toml", "block = 256 }", "block = 0 }", "check.params.block"),
        ("copy/copy_strided.toml", "stride = ", "stride = 9.2e18, x = ", "stride"),
        ("vecadd/vecadd.toml", "params = { n = 10000 }", "params = {}", "check.params.n"),
    ];
    for (file, from, to, what) in cases {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no `{from}`");
        let l = Launch::parse(&path, &text.replacen(from, to, 1)).unwrap();
        let t0 = std::time::Instant::now();
        match run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()) {
            Err(SimError::BadLaunch(e)) => {
                let m = e.to_string();
                assert!(m.contains(file) && m.contains("check.params") && m.contains(what), "{m}");
            }
            other => panic!("{file}: {:?}", other.map(|_| ())),
        }
        assert!(t0.elapsed().as_secs() < 5, "found before simulating");
    }
}

#[test]
fn buffers_larger_than_the_device_memory_are_bad_input() {
    let tmp = scratch("mem");
    let d = tmp.path();
    let text = store("1").replace("len = 4", "len = 300000000");
    let l = parse(d, &text).unwrap();
    match run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()) {
        Err(SimError::BadLaunch(e)) => {
            let m = e.to_string();
            assert!(m.contains("buffer[0].len") && m.contains("1073741824") && m.contains("gpu.memory_bytes"), "{m}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn huge_grids_index_ctas_in_64_bits() {
    let tmp = scratch("grid");
    let d = tmp.path();
    // 2^30 x 4 CTAs: gx * gy = 2^32 wraps in u32; the run must reach its cycle limit
    let l = parse(d, &store("1").replace("grid = 1", "grid = [1073741824, 4, 1]")).unwrap();
    let opts = RunOptions { max_cycles: Some(2000), ..Default::default() };
    match run_capture(Gpu::new(&config("tiny")).unwrap(), &l, opts) {
        Err(SimError::CycleLimit(2000)) => {}
        other => panic!("{:?}", other.map(|_| ())),
    }
}

/// Found by tests/fuzz.rs: `.reg .pred %p<2147483648>` made the decoder build 2^31
/// register names (a 48 GiB allocation, abort); 70000 predicates overflowed a u16 count.
#[test]
fn huge_register_and_storage_declarations_are_ptx_errors() {
    let tmp = scratch("regs");
    let d = tmp.path();
    for (decl, want) in [
        (".reg .pred %p<2147483648>;", "declares more registers than the 65533 supported"),
        (".reg .pred %p<40000>;\n\t.reg .pred %q<40000>;", "too many predicate registers"),
        // 4 GiB of shared memory must not wrap around to a small size in u32
        (".shared .align 4 .b32 big[1073741824];", "`.shared` storage up to `big` exceeds 2147483648 bytes"),
        (".shared .align 4 .b8 a[2147483000];\n\t.shared .align 4 .b8 b[1000];", "`.shared` storage up to `b` exceeds"),
        (".local .align 8 .b64 deep[536870912];", "`.local` storage up to `deep` exceeds 2147483648 bytes per thread"),
    ] {
        std::fs::write(
            d.join("k.ptx"),
            PTX.replace(
                ".reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [out];",
                &format!("{decl}\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [out];"),
            ),
        )
        .unwrap();
        match parse(d, &store("1")) {
            Err(LaunchError::Ptx(p)) => assert!(p.message.contains(want), "{p}"),
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
}

/// A later kernel that cannot fit an SM is found before the first one runs: with a
/// one-cycle limit, running the first kernel would end in `CycleLimit` instead.
#[test]
fn every_kernel_must_fit_before_any_runs() {
    let tmp = scratch("fit");
    let d = tmp.path();
    let text = format!("{}[[kernel]]\nptx = \"k.ptx\"\nentry = \"bump\"\ngrid = 1\nblock = 1024\nregs_per_thread = 255\nargs = [\"out\"]\n", store("1"));
    let l = parse(d, &text).unwrap();
    let opts = RunOptions { max_cycles: Some(1), ..Default::default() };
    match run_capture(Gpu::new(&config("tiny")).unwrap(), &l, opts) {
        // 255 x 1024 = 261120 registers per CTA against the tiny SM's 32768
        Err(SimError::DoesNotFit { kernel, reason }) => assert!(kernel == "bump" && reason.contains("261120 registers per CTA"), "{reason}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

/// `.local` storage is allocated for every thread the GPU holds: 100 MB per thread
/// cannot be (tiny: 2 SMs x 32 warp slots x 32 lanes x 100 MB, far beyond 1 GiB).
#[test]
fn local_storage_beyond_the_device_memory_is_bad_input() {
    let tmp = scratch("local");
    let d = tmp.path();
    std::fs::write(
        d.join("k.ptx"),
        PTX.replace(
            ".reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [out];",
            ".local .align 4 .b8 big[100000000];\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [out];",
        ),
    )
    .unwrap();
    let l = parse(d, &store("1")).unwrap();
    assert_eq!(l.kernels[0].kernel.local_bytes, 100_000_000);
    match run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()) {
        Err(SimError::BadLaunch(e)) => {
            let m = e.to_string();
            assert!(m.contains("kernel[0].ptx") && m.contains("100000000 B of .local storage per thread") && m.contains("gpu.memory_bytes"), "{m}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn files_a_launch_reads_must_be_regular_and_bounded() {
    let tmp = scratch("devzero");
    let d = tmp.path();
    // /dev/zero never ends: an input file and an expected file from it are load errors
    let from_zero = "name = \"z\"\n[[buffer]]\nname = \"out\"\ntype = \"u32\"\ninit = { kind = \"file\", path = \"/dev/zero\" }\n\
                     [[kernel]]\nptx = \"k.ptx\"\nentry = \"store_u32\"\ngrid = 1\nblock = 1\nargs = [\"out\", 1]\n";
    let e = err(d, from_zero);
    assert!(e.contains("buffer[0].init.path") && e.contains("/dev/zero is not a regular file"), "{e}");
    let e = err(d, &expect_launch("/dev/zero"));
    assert!(e.contains("check.expect[0].file") && e.contains("/dev/zero is not a regular file"), "{e}");
    // an expected file far larger than its buffer is refused before it is read
    std::fs::write(d.join("big.bin"), vec![0u8; (1 << 20) + 64]).unwrap();
    let e = err(d, &expect_launch("big.bin"));
    assert!(e.contains("check.expect[0].file") && e.contains("more than the 1048592 allowed"), "{e}");
}

/// `align` / `skew` place a buffer at the first address past the buffers before it that is
/// `skew` past a multiple of `align` (hand values); bad values name the field and range.
#[test]
fn buffers_are_placed_by_align_and_skew() {
    use golden::gpu::memspace::place;
    assert_eq!(place(0, 1024, 0), 0);
    assert_eq!(place(40_000, 1024, 0), 40_960);
    assert_eq!(place(40_960, 1024, 128), 41_088);
    assert_eq!(place(41_089, 1024, 128), 42_112);
    assert_eq!(place(100, 256, 200), 200);
    let tmp = scratch("align");
    let d = tmp.path();
    let l = parse(d, &store("1").replace("init = { kind = \"zeros\" }\n", "init = { kind = \"zeros\" }\nalign = 4096\nskew = 256\n")).unwrap();
    assert_eq!((l.buffers[0].align, l.buffers[0].skew), (4096, 256));
    assert!(run(&l).is_ok());
    for (extra, field, allowed) in [
        ("align = 1000", "buffer[0].align", "256..=1048576"),
        ("align = 128", "buffer[0].align", "256..=1048576"),
        ("align = 1024\nskew = 1024", "buffer[0].skew", "0..=1020"),
        ("skew = 2", "buffer[0].skew", "0..=252"),
    ] {
        let m = err(d, &store("1").replace("init = { kind = \"zeros\" }\n", &format!("init = {{ kind = \"zeros\" }}\n{extra}\n")));
        assert!(m.contains(field) && m.contains(allowed) && m.contains("l.toml"), "{extra}: {m}");
    }
}
