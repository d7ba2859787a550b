//! Registers per thread estimated like `ptxas` (liveness + max pressure, see
//! `golden/src/gpu/ptx/pressure.rs`): hand-derived counts for small kernels, and every
//! shipped workload within the architecture's limit and below the declared-register sum.
//!
//! The hand derivations list the live set after each instruction (64-bit registers
//! count 2, predicates 0, registers only loaded from `.param` or `%ntid` 0) and take
//! the maximum; the estimate is that plus the 2 registers ptxas reports for an empty
//! kernel.

use crate::gpu_common;

use std::path::Path;

use golden::gpu::ptx::parse_module;
use golden::gpu::ptx::pressure::{ARCH_REG_LIMIT, FIXED_OVERHEAD};
use gpu_common::*;

fn kernel(body: &str, params: &str, extra: &str) -> golden::gpu::ptx::Kernel {
    let src = format!(".version 8.0\n.target sm_52\n.address_size 64\n.visible .entry k({params}){extra}\n{{\n{body}\n}}\n");
    let m = parse_module(Path::new("regs.ptx"), &src).unwrap_or_else(|e| panic!("{e}"));
    m.kernels[0].clone()
}

#[test]
fn empty_kernel_uses_the_fixed_two() {
    let k = kernel("ret;", "", "");
    assert_eq!(k.regs_per_thread, 2);
    assert_eq!(FIXED_OVERHEAD, 2);
}

#[test]
fn straight_line_overlap() {
    let body = "
    .reg .b32 %r<8>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];          // {} (constant bank)
    cvta.to.global.u64 %rd2, %rd1;   // {rd2} = 2
    mov.u32 %r1, %tid.x;             // {rd2 r1} = 3
    mov.u32 %r2, %ctaid.x;           // {rd2 r1 r2} = 4
    mul.lo.s32 %r3, %r1, 3;          // {rd2 r1 r2 r3} = 5
    mul.lo.s32 %r4, %r2, 5;          // {rd2 r1 r2 r3 r4} = 6  <- peak
    add.s32 %r5, %r1, %r2;           // {rd2 r3 r4 r5} = 5
    add.s32 %r6, %r3, %r4;           // {rd2 r5 r6} = 4
    add.s32 %r7, %r5, %r6;           // {rd2 r7} = 3
    st.global.u32 [%rd2], %r7;
    ret;";
    let k = kernel(body, ".param .u64 p", "");
    assert_eq!(k.regs_per_thread, 6 + 2);
    // the old count: 8 x b32 + 3 x b64
    assert_eq!(k.declared_reg_words, 8 + 6);
}

#[test]
fn loop_carried_values_stay_live_around_the_back_edge() {
    let body = "
    .reg .pred %p<2>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];          // {}
    ld.param.u32 %r1, [n];           // {} (constant bank)
    cvta.to.global.u64 %rd2, %rd1;   // {rd2} = 2
    mov.u32 %r2, 0;                  // {rd2 r2} = 3
    mov.u32 %r3, 0;                  // {rd2 r2 r3} = 4
$L:
    mul.lo.s32 %r4, %r3, %r3;        // {rd2 r2 r3 r4} = 5  <- peak
    add.s32 %r2, %r2, %r4;           // {rd2 r2 r3} = 4
    add.s32 %r3, %r3, 1;             // {rd2 r2 r3} = 4
    setp.lt.u32 %p1, %r3, %r1;       // predicates do not count
    @%p1 bra $L;                     // back edge: r2, r3 live into $L
    st.global.u32 [%rd2], %r2;
    ret;";
    let k = kernel(body, ".param .u64 p, .param .u32 n", "");
    assert_eq!(k.regs_per_thread, 5 + 2);
}

#[test]
fn diamond_takes_the_heavier_arm() {
    let body = "
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd2, %rd1;   // {rd2} = 2
    mov.u32 %r1, %tid.x;             // {rd2 r1} = 3
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra $ELSE;
    mul.lo.s32 %r2, %r1, 7;          // {rd2 r1 r2} = 4
    mul.lo.s32 %r5, %r1, 3;          // {rd2 r1 r2 r5} = 5  <- peak (then arm)
    add.s32 %r3, %r2, %r5;           // {rd2 r1 r3} = 4
    bra.uni $JOIN;
$ELSE:
    mov.u32 %r3, 5;                  // {rd2 r1 r3} = 4
$JOIN:
    add.s32 %r4, %r1, %r3;           // {rd2 r4} = 3
    st.global.u32 [%rd2], %r4;
    ret;";
    let k = kernel(body, ".param .u64 p", "");
    assert_eq!(k.regs_per_thread, 5 + 2);
}

#[test]
fn sixty_four_bit_values_count_two_and_dead_defs_count_where_written() {
    let body = "
    .reg .b64 %rd<5>;
    mov.u64 %rd1, 1;                 // {rd1} = 2
    mov.u64 %rd2, 2;                 // {rd1 rd2} = 4
    mov.u64 %rd3, 3;                 // {rd1 rd2 rd3} = 6, rd3 is never read  <- peak
    add.s64 %rd4, %rd1, %rd2;        // {rd4} = 2
    ret;";
    let k = kernel(body, "", "");
    assert_eq!(k.regs_per_thread, 6 + 2);
}

#[test]
fn maxnreg_caps_the_estimate() {
    let body = "
    .reg .b64 %rd<5>;
    mov.u64 %rd1, 1;
    mov.u64 %rd2, 2;
    mov.u64 %rd3, 3;
    add.s64 %rd4, %rd1, %rd2;
    add.s64 %rd4, %rd4, %rd3;
    ret;";
    assert_eq!(kernel(body, "", "").regs_per_thread, 8);
    assert_eq!(kernel(body, "", "\n.maxnreg 4").regs_per_thread, 4);
}

#[test]
fn many_simultaneous_values_cap_at_the_architecture_limit() {
    // 200 64-bit values all live at the end: 400 words of pressure
    let mut body = String::from(".reg .b64 %rd<201>;\n.reg .b64 %acc;\n");
    for i in 0..200 {
        body.push_str(&format!("mov.u64 %rd{i}, {i};\n"));
    }
    body.push_str("mov.u64 %acc, 0;\n");
    for i in 0..200 {
        body.push_str(&format!("add.s64 %acc, %acc, %rd{i};\n"));
    }
    body.push_str("ret;");
    let k = kernel(&body, "", "");
    assert_eq!(k.regs_per_thread, ARCH_REG_LIMIT);
}

#[test]
fn every_shipped_workload_estimates_within_the_limit_and_below_the_declared_sum() {
    let mut n = 0;
    for f in all_ptx() {
        let m = golden::gpu::ptx::load_module(&f).unwrap_or_else(|e| panic!("{e}"));
        for k in &m.kernels {
            n += 1;
            assert!((1..=255).contains(&k.regs_per_thread), "{} {}: {}", f.display(), k.name, k.regs_per_thread);
            assert!(
                k.regs_per_thread < k.declared_reg_words.max(3),
                "{} {}: estimate {} not below the declared sum {}",
                f.display(),
                k.name,
                k.regs_per_thread,
                k.declared_reg_words
            );
        }
    }
    assert!(n >= 15, "{n} kernels");
}

#[test]
fn nvcc_vecadd_estimates_like_ptxas() {
    // Hand derivation over workloads/vecadd/vecadd.ptx (params and %ntid folded):
    // mov r3,%ctaid {r3}=1; mov r5,%tid {r3 r5}=2; mad r1 {r1}=1; cvta rd4 {r1 rd4}=3;
    // mul.wide rd5 {rd4 rd5}=4; add rd6 {rd5 rd6}=4; cvta rd7 {rd5 rd6 rd7}=6;
    // add rd8 {rd5 rd6 rd8}=6; ld f1 {rd5 rd6 f1}=5; ld f2 {rd5 f1 f2}=4; add f3 {rd5 f3}=3;
    // cvta rd9 {rd5 f3 rd9}=5; add rd10 {f3 rd10}=3. Peak 6, plus 2 = 8 (ptxas -v for
    // this kernel on sm_52: 8 registers).
    let m = golden::gpu::ptx::load_module(&root().join("workloads/vecadd/vecadd.ptx")).unwrap();
    assert_eq!(m.kernels[0].regs_per_thread, 8);
}

#[test]
fn a_kernel_too_large_to_analyse_counts_its_declared_registers_within_bounded_memory() {
    // 60,000 declared registers (938 bitset words) x 5,000 instructions passes the
    // liveness budget (five tables of 37 MiB here; gigabytes for larger mutants): the
    // estimate falls back to the declared words, capped at 255
    use golden::gpu::ptx::pressure::MAX_LIVENESS_WORDS;
    let insts = 5_000;
    assert!(insts * 60_000usize.div_ceil(64) > MAX_LIVENESS_WORDS);
    let mut body = String::from(".reg .b32 %r<60000>;\n");
    for i in 0..insts {
        body.push_str(&format!("mov.u32 %r{}, {i};\n", i % 2));
    }
    body.push_str("ret;");
    let k = kernel(&body, "", "");
    // (analysed, this kernel would estimate a handful: no value stays live)
    assert_eq!(k.declared_reg_words, 60_000);
    assert_eq!(k.regs_per_thread, ARCH_REG_LIMIT);
}

/// Which registers a new warp must find at zero (`cfg::read_before_written`), by hand:
/// r1 is written unguarded before its reads; r2 only under `@%p1`, so `add` may read it
/// unwritten; r4 is written on both arms of the branch, r5 on one, so the join may read
/// r5 unwritten; r7 is read in the loop before any write; r3 and r6 are written before
/// their reads; r0 is never read. With `shfl` (a lane reads another lane's register,
/// also a lane that never ran) every register must start at zero.
#[test]
fn registers_read_before_written_by_hand() {
    let body = "
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mov.u32 %r2, 1;
    add.u32 %r3, %r2, %r1;
    @%p1 bra $Lelse;
    mov.u32 %r4, 1;
    mov.u32 %r5, 2;
    bra $Ljoin;
$Lelse:
    mov.u32 %r4, 3;
$Ljoin:
    add.u32 %r6, %r4, %r5;
$Lloop:
    add.u32 %r7, %r7, %r6;
    setp.lt.u32 %p1, %r7, %r3;
    @%p1 bra $Lloop;
    ret;";
    let k = kernel(body, "", "");
    let first: Vec<&str> = k.reg_names.iter().zip(&k.read_before_written).filter(|(_, &z)| z).map(|(n, _)| n.as_str()).collect();
    assert_eq!(first, ["%r2", "%r5", "%r7"]);
    let shfl = kernel(
        "
    .reg .b32 %r<3>;
    mov.u32 %r1, %tid.x;
    shfl.sync.down.b32 %r2, %r1, 1, 31, -1;
    ret;",
        "",
        "",
    );
    assert!(shfl.read_before_written.iter().all(|&z| z), "{:?}", shfl.read_before_written);
}
