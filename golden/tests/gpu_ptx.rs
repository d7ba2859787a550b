//! Acceptance 2: the PTX subset parses (every shipped kernel, nvcc-style text) and
//! executes as documented (an instruction-coverage kernel checked lane by lane against
//! Rust), and bad input gives clear errors with file:line:col.

use crate::gpu_common;

use std::path::Path;

use golden::gpu::ptx::{parse_module, Op, OpClass, Space, RPC_EXIT};
use golden::gpu::sim::{run_capture, Gpu};
use golden::gpu::{Launch, LaunchError, RunOptions};
use gpu_common::*;

#[test]
fn every_shipped_kernel_parses_and_decodes() {
    let files = all_ptx();
    assert!(files.len() >= 15, "{files:?}");
    for f in files {
        let m = golden::gpu::ptx::load_module(&f).unwrap_or_else(|e| panic!("{e}"));
        assert!(!m.kernels.is_empty(), "{}", f.display());
        for k in &m.kernels {
            assert!(!k.insts.is_empty());
            // every branch has a resolved target and a reconvergence point inside the kernel
            for i in &k.insts {
                if i.op == Op::Bra {
                    assert!((i.target as usize) < k.insts.len());
                    assert!(i.rpc == RPC_EXIT || (i.rpc as usize) < k.insts.len());
                }
            }
        }
    }
}

#[test]
fn decode_resolves_nvcc_vecadd() {
    let m = golden::gpu::ptx::load_module(&root().join("workloads/vecadd/vecadd.ptx")).unwrap();
    let k = &m.kernels[0];
    assert_eq!(k.name, "_Z6vecaddPKfS0_Pfi");
    assert_eq!(k.params.len(), 4);
    assert_eq!((k.params[3].offset, k.params[3].size), (24, 4));
    // %p<2> + %f<4> + %r<6> + %rd<11>: 2 predicates, 4 + 6 + 11 general registers
    assert_eq!((k.npreds, k.nregs), (2, 21));
    // 4 x f32 + 6 x b32 + 11 x b64 = 4 + 6 + 22 declared 32-bit registers; the
    // liveness estimate is 8 (hand derivation in gpu_ptx_regs.rs)
    assert_eq!(k.declared_reg_words, 32);
    assert_eq!(k.regs_per_thread, 8);
    let bra = k.insts.iter().find(|i| i.op == Op::Bra).unwrap();
    assert_ne!(bra.guard, golden::gpu::ptx::NO_PRED);
    // the guarded branch skips to `ret`: it reconverges there
    assert_eq!(bra.rpc, bra.target);
    assert!(k.insts.iter().any(|i| matches!(i.op, Op::Ld { space: Space::Param, .. })));
    assert!(k.insts.iter().any(|i| matches!(i.op, Op::St { space: Space::Global, .. }) && i.class == OpClass::Mem));
}

#[test]
fn loop_reconverges_after_the_loop() {
    let m = golden::gpu::ptx::load_module(&root().join("workloads/reduce/reduce.ptx")).unwrap();
    let k = &m.kernels[0];
    // `@%p3 bra $L__BB0_5` (if t < s) reconverges at $L__BB0_5 = its target;
    // the loop back-edge `@%p4 bra $L__BB0_3` reconverges at its fall-through.
    let back = k.insts.iter().enumerate().filter(|(_, i)| i.op == Op::Bra).find(|(pc, i)| (i.target as usize) < *pc).unwrap();
    assert_eq!(back.1.rpc as usize, back.0 + 1);
}

fn err_of(src: &str) -> String {
    parse_module(Path::new("bad.ptx"), src).unwrap_err().to_string()
}

const HEAD: &str =
    ".version 8.0\n.target sm_52\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<3>;\n\t.reg .s32 %s<2>;\n";

#[test]
fn unsupported_instruction_names_file_line_column_and_instruction() {
    let e = err_of(&format!("{HEAD}\tmov.u32 %r1, 0;\n\tmatch.any.sync.b32 %r2, %r1, -1;\n\tret;\n}}\n"));
    assert_eq!(e, "bad.ptx:11:2: unsupported instruction `match.any.sync.b32` (not in the supported PTX subset, see docs/ptx_subset.md)");
}

#[test]
fn undefined_register_is_reported_where_it_is_used() {
    let e = err_of(&format!("{HEAD}\tadd.s32 %r1, %r9, 1;\n\tret;\n}}\n"));
    assert_eq!(e, "bad.ptx:10:15: undefined register `%r9`");
}

#[test]
fn type_mismatches_are_reported() {
    let e = err_of(&format!("{HEAD}\tadd.u32 %r1, %f1, 1;\n\tret;\n}}\n"));
    assert_eq!(e, "bad.ptx:10:15: type mismatch: `%f1` is declared .f32 but `add.u32` needs a 32-bit integer or .b32 register");
    let e = err_of(&format!("{HEAD}\tadd.f32 %f1, %s1, %f2;\n\tret;\n}}\n"));
    assert!(e.starts_with("bad.ptx:10:15: type mismatch: `%s1` is declared .s32"), "{e}");
    let e = err_of(&format!("{HEAD}\t@%r1 bra $L;\n$L:\n\tret;\n}}\n"));
    assert!(e.contains("guard `%r1` is declared .b32, not .pred"), "{e}");
    let e = err_of(&format!("{HEAD}\tadd.f32 %f1, %f2, 7;\n\tadd.u32 %r1, %r2, 1.5;\n\tret;\n}}\n"));
    assert!(e.starts_with("bad.ptx:11:20: type mismatch: floating-point literal"), "{e}");
}

#[test]
fn other_malformed_input_is_reported() {
    let cases = [
        (format!("{HEAD}\tbra $L_nowhere;\n}}\n"), "bad.ptx:10:6: undefined label `$L_nowhere`"),
        (format!("{HEAD}\tadd.s32 %r1, %r2\n\tret;\n}}\n"), "bad.ptx:11:2: expected `,` or `;` after an operand, found `ret`"),
        (format!("{HEAD}\tadd.rz.f64 %f1, %f2, %f2;\n\tret;\n}}\n"), "bad.ptx:10:2: a rounding mode other than .rn in `add.rz.f64` is not in the supported PTX subset"),
        (format!("{HEAD}\tld.global.cs.bf16 %f1, [%r1];\n}}\n"), "bad.ptx:10:2: unsupported modifier `.bf16` in `ld.global.cs.bf16` (not in the supported PTX subset)"),
        (format!("{HEAD}\tbar.sync 16;\n}}\n"), "bad.ptx:10:11: `bar.sync`: the barrier id must be an immediate in 0..=15"),
        (
            ".version 8.0\n.func f()\n{ call.uni f; ret; }\n.entry k()\n{ call.uni f;\n ret; }\n".to_string(),
            "bad.ptx:3:3: recursive call of `f`: recursion is not supported (calls are inlined)",
        ),
        (format!("{HEAD}\tret;\n"), "bad.ptx:11:1: unexpected end of file inside an entry body (missing `}`)"),
        (format!("{HEAD}\tld.global.u32 %r1, [%r2];\n}}\n"), "bad.ptx:10:21: type mismatch: `%r2` is 32-bit but global/generic addresses are 64-bit"),
    ];
    for (src, want) in cases {
        assert_eq!(err_of(&src), want);
    }
}

#[test]
fn malformed_launch_files_name_the_field() {
    let dir = root().join("workloads/vecadd");
    let base = std::fs::read_to_string(dir.join("vecadd.toml")).unwrap();
    let path = dir.join("vecadd.toml");
    let e = |text: &str| Launch::parse(&path, text).unwrap_err().to_string();
    let p = path.display().to_string();
    assert_eq!(e(&base.replace("grid = 40", "grid = 0")), format!("{p}: kernel[0].grid: dimension 0 = 0 is out of range (allowed: x 1..=2^31-1, y and z 1..=65535)"));
    assert_eq!(
        e(&base.replace("args = [\"a\", \"b\", \"c\", 10000]", "args = [\"a\", \"b\", \"c\"]")),
        format!("{p}: kernel[0].args: 3 arguments for 4 parameters (allowed: _Z6vecaddPKfS0_Pfi_param_0 .u64, _Z6vecaddPKfS0_Pfi_param_1 .u64, _Z6vecaddPKfS0_Pfi_param_2 .u64, _Z6vecaddPKfS0_Pfi_param_3 .u32)")
    );
    assert_eq!(e(&base.replace("\"a\", \"b\", \"c\", 10000", "\"a\", \"bb\", \"c\", 10000")), format!("{p}: kernel[0].args[1]: no buffer named `bb` (allowed: a, b, c)"));
    assert_eq!(
        e(&base.replace("10000]", "-2147483649]")),
        format!("{p}: kernel[0].args[3]: -2147483649 does not fit .u32 parameter `_Z6vecaddPKfS0_Pfi_param_3` (allowed: -2147483648..=4294967295)")
    );
    assert!(
        e(&base.replace("len = 10000\ninit = { kind = \"zeros\" }", "len = 10000\ninit = { kind = \"zeroes\" }"))
            .contains("buffer[2].init.kind (line 20): unknown variant `zeroes`, expected one of `zeros`,"),
        "{}",
        e(&base.replace("kind = \"zeros\"", "kind = \"zeroes\""))
    );
    assert_eq!(
        e(&base.replace("[check]", "[check]\nbogus = 1")),
        format!("{p}: check.bogus (line 29): unknown field `bogus`, expected one of `reference`, `outputs`, `rtol`, `atol`, `params`, `expect`")
    );
    assert_eq!(e(&base.replace("reference = \"vecadd\"", "reference = \"vecadd2\"")), format!("{p}: check.reference: no reference implementation `vecadd2` (allowed: vecadd, saxpy, triad, copy, reduce, transpose, conv2d, matvec, bfs, kmeans, backprop, bpnn_layerforward, stencil, prodcons, tpacf, heartwall, dwt53, floyd_warshall, compare, density, norm, hotspot, pathfinder, srad, nn, gaussian, lavamd, streamcluster, bptree, nw, fdtd2d, mvt, scalar_prod, reduce_hybrid2)"));
    assert!(e("name = \"x\"\n[[kernel]\n").contains("line 2"), "{}", e("name = \"x\"\n[[kernel]\n"));
    // a PTX error surfaces through the launch with its own position
    let scratch = tempfile::tempdir().unwrap();
    let tmp = scratch.path();
    std::fs::write(tmp.join("k.ptx"), format!("{HEAD}\tfoo.bar %r1;\n}}\n")).unwrap();
    let l = "name = \"x\"\n[[kernel]]\nptx = \"k.ptx\"\ngrid = 1\nblock = 1\nargs = []\n";
    match Launch::parse(&tmp.join("x.toml"), l).unwrap_err() {
        LaunchError::Ptx(p) => assert_eq!((p.line, p.col, p.message.contains("`foo.bar`")), (10, 2, true)),
        other => panic!("{other}"),
    }
}

// ------------------------------------------------------------------ execution

fn as_i32(x: f64) -> i32 {
    x as i64 as i32
}

/// Round-toward-zero int -> f32.
fn rz_f32(v: i32) -> f32 {
    let r = v as f32;
    if (r as i64).abs() > (v as i64).abs() {
        f32::from_bits(r.to_bits() - 1)
    } else {
        r
    }
}

#[test]
fn instruction_subset_executes_as_documented() {
    let l = launch("isa/isa.toml");
    let (r, b) = run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()).unwrap();
    assert!(r.warp_insts > 100);
    let (ni, nf, nd) = (42usize, 20usize, 5usize);
    let mut amax = 0i32;
    for t in 0..32usize {
        let a = as_i32(b["ia"].get(t));
        let bb = as_i32(b["ib"].get(t));
        let x = b["fx"].get(t) as f32;
        let y = b["fy"].get(t) as f32;
        amax = amax.max(a);
        let (au, bu) = (a as u32, bb as u32);
        let wide = a as i64 * bb as i64;
        let vec_pair = {
            let e = t & !1;
            (as_i32(b["ia"].get(e)) as u32).wrapping_add(as_i32(b["ia"].get(e + 1)) as u32)
        };
        let ints: [u32; 42] = [
            a.wrapping_add(bb) as u32,
            a.wrapping_sub(bb) as u32,
            a.wrapping_mul(bb) as u32,
            ((a as i64 * bb as i64) >> 32) as u32,
            ((au as u64 * bu as u64) >> 32) as u32,
            a.wrapping_div(bb) as u32,
            a.wrapping_rem(bb) as u32,
            au / bu,
            a.min(bb) as u32,
            au.max(bu),
            a.wrapping_abs() as u32,
            a.wrapping_neg() as u32,
            au & bu,
            au | bu,
            au ^ bu,
            !au,
            au << (bu & 31),
            (a >> 3) as u32,
            au >> 3,
            au.count_ones(),
            au.leading_zeros(),
            au.reverse_bits(),
            if a < bb { au } else { bu },
            (au == 0) as u32,
            (a > 0 && bb > 40) as u32,
            a.wrapping_mul(bb).wrapping_add(7) as u32,
            x.trunc() as i32 as u32,
            x.round_ties_even() as i32 as u32,
            x.floor() as i32 as u32,
            a.clamp(-128, 127) as u32,
            wide as u64 as u32,
            ((wide as u64) >> 32) as u32,
            t as u32,
            32,
            au,
            32,
            vec_pair,
            if a < 0 { 100 } else { 105 },
            (t * (t + 1) / 2) as u32,
            t as u32,
            t as u32,
            if t == 0 { 0 } else { t as u32 - 1 },
        ];
        for (k, want) in ints.iter().enumerate() {
            let got = b["outi"].get(t * ni + k) as u32;
            assert_eq!(got, *want, "lane {t} int result {k} (a = {a}, b = {bb}, x = {x})");
        }
        let flts: [f32; 20] = [
            x + y,
            x - y,
            x * y,
            x.mul_add(y, 1.5),
            x / y,
            x.abs().sqrt(),
            1.0 / y,
            x.min(y),
            x.max(y),
            x.abs(),
            -x,
            (x * 0.125).exp2(),
            y.abs().log2(),
            a as f32,
            rz_f32(a.wrapping_mul(1000003)),
            (x as f64 * f64::from_bits(0x3FF199999999999A)) as f32,
            1.0 / y.abs().sqrt(),
            if x > y || x.is_nan() || y.is_nan() { x } else { y },
            x + std::f32::consts::PI,
            x.sin(),
        ];
        for (k, want) in flts.iter().enumerate() {
            let got = b["outf"].get(t * nf + k) as f32;
            assert_eq!(got.to_bits(), want.to_bits(), "lane {t} float result {k}: {got} vs {want} (x = {x}, y = {y})");
        }
        let (xd, yd) = (x as f64, y as f64);
        let dbls: [f64; 5] = [xd + yd, xd * yd, xd.mul_add(yd, 1.0), xd / yd, xd.abs().sqrt()];
        for (k, want) in dbls.iter().enumerate() {
            assert_eq!(b["outd"].get(t * nd + k).to_bits(), want.to_bits(), "lane {t} double result {k}");
        }
    }
    let c: Vec<u32> = (0..5).map(|i| b["counters"].get(i) as u32).collect();
    assert_eq!(c, vec![32, amax.max(0) as u32, 32, 31, (0..32).sum::<u32>()]);
}

#[test]
fn out_of_bounds_access_is_a_fault_with_its_line() {
    let scratch = tempfile::tempdir().unwrap();
    let tmp = scratch.path();
    let ptx =
        format!("{HEAD}\tld.param.u64 %rd1, [k_param_0];\n\tld.global.u32 %r1, [%rd1+4096];\n\tret;\n}}\n").replace(".reg .s32 %s<2>;", ".reg .s32 %s<2>;\n\t.reg .b64 %rd<2>;");
    std::fs::write(tmp.join("k.ptx"), ptx).unwrap();
    let text = "name = \"oob\"\n[[buffer]]\nname = \"a\"\ntype = \"u32\"\nlen = 4\ninit = { kind = \"zeros\" }\n[[kernel]]\nptx = \"k.ptx\"\ngrid = 1\nblock = 1\nargs = [\"a\"]\n";
    let l = Launch::parse(&tmp.join("oob.toml"), text).unwrap();
    let e = golden::gpu::run(&config("tiny"), &l, RunOptions::default()).unwrap_err().to_string();
    assert!(e.contains("k.ptx:12:") && e.contains("out-of-bounds global access"), "{e}");
}
