//! The chain tagger (spec §2.1, §2.2) on the shipped workloads' PTX: every chain it
//! finds, as (pattern, source lines of its instructions in chain order), against a
//! reading of each file by hand.

use std::path::{Path, PathBuf};

use golden::gpu::ptx::{load_module, parse_module, Kernel};
use golden::llc_compute::tagger::{census, find_chains, Chain, Tag, Uniform};

fn workloads() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../workloads")).to_path_buf()
}

/// Every kernel of `file`: its chains as (pattern, lines).
fn chains(file: &str) -> Vec<(u32, Vec<u32>)> {
    let m = load_module(&workloads().join(file)).unwrap_or_else(|e| panic!("{e}"));
    m.kernels.iter().flat_map(|k| find_chains(k).into_iter().map(|c| (c.pattern, c.pcs().map(|p| k.insts[p as usize].line).collect()))).collect()
}

#[test]
fn the_chains_of_the_shipped_workloads_are_the_ones_read_by_hand() {
    // vecadd: `ld b (46); ld a (47); add a+b (48); ...address... st c (51)`: pattern 1, a first
    assert_eq!(chains("vecadd/vecadd.ptx"), [(1, vec![47, 46, 48, 51])]);
    // copy: a load stored unchanged, the store's address computed in between (pattern 3)
    assert_eq!(chains("copy/copy.ptx"), [(3, vec![44, 48])]);
    // gaussian: `a[i] += f` with f a kernel parameter (ld.param.f32): pattern 7; Fan1's
    // multiplier `m = a[..] / a[..]` (div.rn of two loads, stored): pattern 1
    assert_eq!(chains("gaussian/gaussian.ptx"), [(7, vec![48, 49, 50]), (1, vec![90, 94, 95, 98])]);
    // bfs: a level compared with the parameter `level` (87) and a cost with -1 (108): pattern 6
    assert_eq!(chains("bfs/bfs.ptx"), [(6, vec![86, 87]), (6, vec![107, 108])]);
    // bptree: only the second load (a child pointer tested against 0) feeds a compare alone
    assert_eq!(chains("bptree/bptree.ptx"), [(6, vec![160, 161])]);
    // kmeans, streamcluster: the difference of two loads, then folded into the core's
    // accumulator by an fma (pattern 2, §2.1's "result returns to the core")
    assert_eq!(chains("kmeans/kmeans.ptx"), [(2, vec![75, 79, 80])]);
    assert_eq!(chains("streamcluster/streamcluster.ptx"), [(2, vec![78, 82, 83])]);
    // stream_read: four loads summed pairwise; the two first-level sums are chains
    assert_eq!(chains("micro/stream.ptx"), [(2, vec![51, 53, 58]), (2, vec![55, 57, 59])]);
    // hotspot: the two neighbour sums
    assert_eq!(chains("hotspot/hotspot.ptx"), [(2, vec![91, 95, 96]), (2, vec![104, 108, 109])]);
    // the paper's microbenchmarks COMPARE (5), DENSITY (6) and NORM (7: IEEE division by
    // a parameter, in place)
    assert_eq!(chains("micro_llc/compare.ptx"), [(5, vec![46, 49, 50])]);
    assert_eq!(chains("micro_llc/density.ptx"), [(6, vec![44, 45])]);
    assert_eq!(chains("micro_llc/norm.ptx"), [(7, vec![39, 40, 41])]);
    // TRIAD and SAXPY compile to `fma`: no chain (the EMN would round twice)
    assert_eq!(chains("triad/triad.ptx"), []);
    assert_eq!(chains("saxpy/saxpy.ptx"), []);
    // spin-waits on volatile flags are not offloaded
    assert_eq!(chains("prodcons/prodcons.ptx"), []);
    assert_eq!(chains("qcache/producer.ptx"), []);
}

/// The paper's GPGPU workloads the other suites lack (spec §4.2 Table 3: FDTD 1, 2; MVT
/// 1, 2; SCP 2; RED 1, 2), read by hand against Table 1 (spec §2.2) and the tagger's
/// rules (no reuse of a loaded value, no `fma`, `.global` word accesses only).
#[test]
fn the_chains_of_the_papers_fdtd_mvt_scp_and_red_hybrid2_are_the_ones_read_by_hand() {
    // FDTD (PolyBench fdtd-2d): in each kernel the difference of two hz (or ex) loads
    // feeds `x - c * diff`, which nvcc contracts into an fma with the third load: the
    // difference is pattern 2 (DATA back to the core), the fma stays on the core, so
    // Table 3's pattern 1 is not found in nvcc's form (a store of op(load, load) would
    // need `-fmad=false` and then the mul by c sits between). ey's row 0 copies fict[t]:
    // ld fict (87), st ey (91) is pattern 3, which Table 3 does not list for FDTD.
    // step1: hz[i][j] (73), hz[i-1][j] (77), sub (78); step2: hz[i][j] (142),
    // hz[i][j-1] (143), sub (144); step3: ex[i][j+1] (196), ex[i][j] (197), sub (198); the
    // later add of ey[i+1][j] (204) and sub of ey[i][j] (207) take the core's difference
    // (not a load, not a uniform I: no pattern 8)
    assert_eq!(chains("fdtd/fdtd2d.ptx"), [(2, vec![73, 77, 78]), (3, vec![87, 91]), (2, vec![142, 143, 144]), (2, vec![196, 197, 198])]);
    // MVT (PolyBench mvt, the paper's mul + add rewrite of the fma): A (57/110) times y
    // (58/111) is pattern 2 in each kernel; `x[i] = x[i] + product` (60-62, 113-115) adds
    // a load to the core's product, which is neither pattern 1 (two loads) nor 7/9 (a
    // uniform I): Table 3's pattern 1 is not found in this form
    assert_eq!(chains("mvt/mvt.ptx"), [(2, vec![57, 58, 59]), (2, vec![110, 111, 112])]);
    // SCP (CUDA SDK scalarProd, mul + add rewrite): d_A[pos] (84) times d_B[pos] (86),
    // the product folded into the core's sum: pattern 2, as Table 3
    assert_eq!(chains("scp/scalarprod.ptx"), [(2, vec![84, 86, 87])]);
    // RED-Hybrid2 (SHOC reduction): g[i] + g[i + 256] (73-75) folded into the sum is
    // pattern 2; the two global tree levels gs[t] = gs[t] + gs[t + 128] (103-106) and
    // + gs[t + 64] (113-116) are pattern 1; the lone tail element (88) adds to the core's
    // sum, the survivors' copy (125) goes to shared memory, the rest is shared: Table 3's 1, 2
    assert_eq!(chains("red/reduce_hybrid2.ptx"), [(2, vec![73, 74, 75]), (1, vec![103, 104, 105, 106]), (1, vec![113, 114, 115, 116])]);
}

#[test]
fn the_uniform_operand_and_the_census() {
    let m = load_module(&workloads().join("bfs/bfs.ptx")).unwrap();
    let k = m.kernel("bfs_step").unwrap();
    let ch = find_chains(k);
    let Some(Uniform::Reg(r)) = ch[0].uniform else { panic!("{:?}", ch[0]) };
    assert_eq!(k.reg_names[r as usize], "%r6", "the kernel parameter `level`");
    assert_eq!(ch[1].uniform, Some(Uniform::Imm(u32::MAX)), "-1 as a 32-bit pattern");
    let c = census(k, &ch);
    assert_eq!((c.by_pattern[5], c.chain_insts, c.chain_mem_insts), (2, 4, 2));
    assert!(c.insts > c.chain_insts && c.mem_insts >= c.chain_mem_insts);
}

/// Every shipped PTX file goes through the tagger, and every chain it finds has the
/// shape of its pattern and distinct instructions.
#[test]
fn every_shipped_kernel_is_tagged_without_overlap() {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&workloads(), &mut files);
    assert!(files.len() > 20);
    for f in files {
        let Ok(m) = load_module(&f) else { continue };
        for k in &m.kernels {
            let mut seen = std::collections::HashSet::new();
            for c in find_chains(k) {
                let p = golden::llc_compute::chain::Pattern::get(c.pattern).unwrap();
                assert_eq!(c.steps.iter().map(|s| s.kind).collect::<Vec<_>>(), p.seq, "{}: {}", f.display(), k.name);
                assert!(c.pcs().all(|pc| seen.insert(pc)), "{}: an instruction in two chains", f.display());
            }
        }
    }
}

/// The chain profile of `[hooks.llc_compute] mode = "profile"` (spec §7 study 5) on
/// vecadd, against a count by hand, and the run it watches is unchanged.
#[test]
fn the_chain_profile_counts_vecadd_by_hand_and_changes_nothing() {
    use golden::gpu::{run, GpuConfig, Launch, RunOptions};
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let plain = GpuConfig::load(&root.join("configs/gpu/tiny.toml")).unwrap();
    let mut profiled = plain.clone();
    profiled.hooks.insert("llc_compute".into(), toml::from_str("mode = \"profile\"").unwrap());
    let launch = Launch::load(&workloads().join("vecadd/vecadd.toml")).unwrap();
    let a = run(&plain, &launch, RunOptions::default()).unwrap();
    let b = run(&profiled, &launch, RunOptions::default()).unwrap();
    assert!(b.checks_passed());
    assert_eq!((a.cycles, a.warp_insts), (b.cycles, b.warp_insts), "the profile must not change the run");
    // 40 CTAs x 8 warps: warps 0-311 all in range, warp 312 half (both paths: the same
    // 22 instructions: 4 ld.param, 3 mov, mad, setp, bra, 11 of the body, ret); warps
    // 313-319 none (10 + ret). The chain is 2 loads, the add and the store.
    let h = |k: &str| b.hooks.get(&format!("llc_compute.{k}")).copied().unwrap_or_else(|| panic!("no counter {k}: {:?}", b.hooks));
    assert_eq!(h("warp_insts"), 313 * 22 + 7 * 11);
    assert_eq!(h("warp_insts"), b.warp_insts, "the hook sees every issued warp instruction");
    assert_eq!((h("chain_warp_insts"), h("mem_warp_insts"), h("chain_mem_warp_insts")), (313 * 4, 313 * 3, 313 * 3));
    assert_eq!((h("chains"), h("static_chains")), (313, 2), "one chain per warp in range; the kernel tagged once per SM (2 SMs)");
}

/// `omni` needs a mesh (the EMN comes from its routes); an unknown mode is named.
#[test]
fn omni_without_a_mesh_and_unknown_modes_are_refused() {
    use golden::gpu::GpuConfig;
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let text = std::fs::read_to_string(root.join("configs/gpu/tiny.toml")).unwrap();
    for (mode, says) in [("omni", "needs a mesh network"), ("lcc", "is not a mode")] {
        let e = GpuConfig::parse(Path::new("t.toml"), &format!("{text}\n[hooks.llc_compute]\nmode = \"{mode}\"\n")).unwrap_err().to_string();
        assert!(e.contains("hooks.llc_compute.mode") && e.contains(says) && e.contains("profile"), "{e}");
    }
}

// ---------------------------------------------------------------------------------------
// The tests of `golden::llc_compute::tagger` (`golden/src/llc_compute/tagger.rs`),
// which were its `#[cfg(test)] mod tests` (see main.rs).

fn kernel(body: &str, regs: &str) -> Kernel {
    let text = format!(
        ".version 8.0\n.target sm_52\n.address_size 64\n.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 ps)\n{{\n{regs}\n\
         ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 4;\n\
         add.s64 %rd5, %rd1, %rd4;\nadd.s64 %rd6, %rd2, %rd4;\nadd.s64 %rd7, %rd3, %rd4;\n{body}\nret;\n}}\n"
    );
    let m = parse_module(Path::new("t.ptx"), &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    m.kernels.into_iter().next().unwrap()
}

const REGS: &str = ".reg .pred %p<4>;\n.reg .f32 %f<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;";

/// The first instruction of the test body (after the 8-instruction prologue).
const B: u32 = 8;

fn only(body: &str) -> Option<Chain> {
    let k = kernel(body, REGS);
    let mut c = find_chains(&k);
    assert!(c.len() <= 1, "{c:?}");
    c.pop()
}

fn pcs(c: &Chain) -> Vec<u32> {
    c.pcs().collect()
}

#[test]
fn vecadd_is_pattern_1_with_the_alus_operand_order() {
    // c = a + b with b loaded first (as nvcc writes vecadd): A is the add's first operand
    let c = only("ld.global.f32 %f1, [%rd6];\nld.global.f32 %f2, [%rd5];\nadd.f32 %f3, %f2, %f1;\nst.global.f32 [%rd7], %f3;").unwrap();
    assert_eq!((c.pattern, c.op0, c.fp), (1, 8, true));
    assert_eq!(pcs(&c), [B + 1, B, B + 2, B + 3]);
    assert_eq!([c.tag(B + 1), c.tag(B), c.tag(B + 2), c.tag(B + 3)], [Some(Tag::First), Some(Tag::Middle), Some(Tag::Middle), Some(Tag::Last)]);
}

#[test]
fn each_pattern_of_table_1() {
    let p = |body: &str| only(body).map(|c| (c.pattern, c.op0, c.op1, c.uniform));
    // 2: the result goes back to the core (read after the chain)
    assert_eq!(p("ld.global.u32 %r2, [%rd5];\nld.global.u32 %r3, [%rd6];\nmul.lo.s32 %r4, %r2, %r3;\nadd.s32 %r5, %r4, %r1;\nst.global.u32 [%rd7], %r5;"), Some((2, 2, 0, None)));
    // 3: copy
    assert_eq!(p("ld.global.b32 %r2, [%rd5];\nst.global.b32 [%rd7], %r2;"), Some((3, 0, 0, None)));
    // 4: unary (f32 negate: sub-op 3)
    assert_eq!(p("ld.global.f32 %f1, [%rd5];\nneg.f32 %f2, %f1;\nst.global.f32 [%rd7], %f2;"), Some((4, 14, 0, Some(Uniform::Imm(3)))));
    // 5: compare of two loads (signed less-than)
    assert_eq!(
        p("ld.global.u32 %r2, [%rd5];\nld.global.u32 %r3, [%rd6];\nsetp.lt.s32 %p1, %r2, %r3;\nselp.u32 %r4, 1, 0, %p1;\nst.global.u32 [%rd7], %r4;"),
        Some((5, 2, 0, None))
    );
    // 6: compare with an immediate
    assert_eq!(p("ld.global.s32 %r2, [%rd5];\nsetp.eq.s32 %p1, %r2, 0;\nselp.u32 %r4, 1, 0, %p1;\nst.global.u32 [%rd7], %r4;"), Some((6, 0, 0, Some(Uniform::Imm(0)))));
    // 7: op with a kernel parameter (uniform register), commuted into (A, I)
    let k = kernel("ld.param.u32 %r6, [ps];\nld.global.u32 %r2, [%rd5];\nadd.s32 %r3, %r6, %r2;\nst.global.u32 [%rd7], %r3;", REGS);
    let c = &find_chains(&k)[0];
    let Some(Uniform::Reg(r)) = c.uniform else { panic!("{c:?}") };
    assert_eq!((c.pattern, c.op0, k.reg_names[r as usize].as_str()), (7, 0, "%r6"));
    // 9: TRIAD without fma: a = b + s*c, T = mul(C, s), D = add(B, T)
    let triad = "ld.global.f32 %f1, [%rd5];\nld.global.f32 %f2, [%rd6];\nmul.f32 %f3, %f2, 0f40400000;\nadd.f32 %f4, %f1, %f3;\nst.global.f32 [%rd7], %f4;";
    let c = only(triad).unwrap();
    assert_eq!((c.pattern, c.op0, c.op1, c.uniform), (9, 10, 8, Some(Uniform::Imm(3.0f32.to_bits()))));
    assert_eq!(pcs(&c), [B + 1, B, B + 2, B + 3, B + 4], "ld b (the multiplied one), ld a, alu0, alu1, st");
    // 8: the same without the store (the sum is read after the chain)
    assert_eq!(
        p("ld.global.f32 %f1, [%rd5];\nld.global.f32 %f2, [%rd6];\nmul.f32 %f3, %f2, 0f40400000;\nadd.f32 %f4, %f1, %f3;\nadd.f32 %f5, %f4, %f4;\nst.global.f32 [%rd7], %f5;"),
        Some((8, 10, 8, Some(Uniform::Imm(3.0f32.to_bits()))))
    );
}

#[test]
fn what_is_not_tagged() {
    // the loaded value is read again after the chain (§2.1 reuse)
    assert_eq!(only("ld.global.f32 %f1, [%rd5];\nld.global.f32 %f2, [%rd6];\nadd.f32 %f3, %f1, %f2;\nst.global.f32 [%rd7], %f3;\nst.global.f32 [%rd6], %f1;"), None);
    // fma rounds once; the EMN's mul and add round twice
    assert_eq!(only("ld.global.f32 %f1, [%rd5];\nld.global.f32 %f2, [%rd6];\nfma.rn.f32 %f4, %f2, 0f40400000, %f1;\nst.global.f32 [%rd7], %f4;"), None);
    // a store between a chain load and the chain's end orders memory
    assert_eq!(only("ld.global.f32 %f1, [%rd5];\nst.global.f32 [%rd6], %f7;\nld.global.f32 %f2, [%rd6];\nadd.f32 %f3, %f1, %f2;\nst.global.f32 [%rd7], %f3;"), None);
    // the address of a chain load is rewritten before the chain ends
    assert_eq!(
        only("ld.global.f32 %f1, [%rd5];\nadd.s64 %rd5, %rd5, 4;\nld.global.f32 %f2, [%rd5];\nadd.f32 %f3, %f1, %f2;\nst.global.f32 [%rd7], %f3;\nst.global.u64 [%rd6], %rd5;"),
        None
    );
    // 64-bit data does not fit the flit's 32 lanes x 32 bits
    let k = kernel("ld.global.f64 %fd1, [%rd5];\nst.global.f64 [%rd7], %fd1;", &format!("{REGS}\n.reg .f64 %fd<2>;"));
    assert!(find_chains(&k).is_empty());
    // unsigned order, .ftz, ordered f32 NE and approximate division are not the ALU's
    assert_eq!(only("ld.global.u32 %r2, [%rd5];\nld.global.u32 %r3, [%rd6];\nsetp.lt.u32 %p1, %r2, %r3;\nselp.u32 %r4, 1, 0, %p1;\nst.global.u32 [%rd7], %r4;"), None);
    assert_eq!(only("ld.global.f32 %f1, [%rd5];\nld.global.f32 %f2, [%rd6];\nadd.ftz.f32 %f3, %f1, %f2;\nst.global.f32 [%rd7], %f3;"), None);
    assert_eq!(only("ld.global.f32 %f1, [%rd5];\nld.global.f32 %f2, [%rd6];\nsetp.ne.f32 %p1, %f1, %f2;\nselp.u32 %r4, 1, 0, %p1;\nst.global.u32 [%rd7], %r4;"), None);
    assert_eq!(only("ld.global.f32 %f1, [%rd5];\nld.global.f32 %f2, [%rd6];\ndiv.approx.f32 %f3, %f1, %f2;\nst.global.f32 [%rd7], %f3;"), None);
    // a non-commutative op with its operands the other way round: I - A is not op0(A, I)
    assert_eq!(only("ld.global.u32 %r2, [%rd5];\nsub.s32 %r3, 7, %r2;\nst.global.u32 [%rd7], %r3;"), None);
    // shared memory is not an LLC access
    let k = kernel("ld.shared.u32 %r2, [%rd5];\nst.global.u32 [%rd7], %r2;", REGS);
    assert!(find_chains(&k).is_empty());
}

#[test]
fn address_arithmetic_between_chain_instructions_moves_above() {
    // nvcc computes the store's address between the add and the store (vecadd.ptx)
    let c = only("ld.global.f32 %f1, [%rd6];\nld.global.f32 %f2, [%rd5];\nadd.f32 %f3, %f2, %f1;\nadd.s64 %rd7, %rd7, 64;\nst.global.f32 [%rd7], %f3;").unwrap();
    assert_eq!((c.pattern, pcs(&c)), (1, vec![B + 1, B, B + 2, B + 4]));
}
