//! Tests of `golden::gpu::predecode` (`golden/src/gpu/predecode.rs`).

use std::path::Path;

use golden::gpu::exec::{WarpExec, WarpIds, WARP};
use golden::gpu::predecode::*;
use golden::gpu::ptx::parse_module;

/// Each line: an instruction and whether the fast path must take it.
const CASES: &[(&str, bool)] = &[
    ("add.s32 %r1, %r2, %r3;", true),
    ("add.s32 %r1, %r1, 7;", true),
    ("sub.u32 %r4, %r2, %r3;", true),
    ("mul.lo.s32 %r5, %r2, %r3;", true),
    ("and.b32 %r6, %r2, 255;", true),
    ("or.b64 %rd1, %rd2, %rd3;", true),
    ("xor.b32 %r7, %r2, %r3;", true),
    ("mad.lo.s32 %r1, %r2, %r3, %r4;", true),
    ("mad.lo.s32 %r1, %r1, 3, %r4;", true),
    ("add.s64 %rd1, %rd2, %rd3;", true),
    ("sub.s16 %rs1, %rs2, %rs3;", true),
    ("add.f32 %f1, %f2, %f3;", true),
    ("sub.f32 %f4, %f2, %f3;", true),
    ("mul.f32 %f5, %f2, 0f40400000;", true),
    ("fma.rn.f32 %f1, %f1, %f2, %f3;", true),
    ("mov.u32 %r2, %r3;", true),
    ("mov.b32 %r5, %r5;", true),
    ("mov.f32 %f6, 0f3F800000;", true),
    ("setp.lt.s32 %p1, %r2, %r3;", true),
    ("setp.ge.u32 %p2|%p3, %r2, 100;", true),
    ("setp.lt.f32 %p1, %f2, %f3;", true),
    ("setp.neu.f32 %p1, %f2, %f3;", true),
    ("mul.wide.s32 %rd1, %r2, %r3;", true),
    ("mul.wide.u32 %rd2, %r2, 4;", true),
    ("mul.wide.s16 %r4, %rs2, %rs3;", true),
    ("mul.wide.u16 %r5, %rs2, 65535;", true),
    ("cvta.to.global.u64 %rd3, %rd1;", true),
    ("cvta.shared.u64 %rd1, %rd2;", true),
    ("cvta.to.local.u64 %rd2, %rd3;", true),
    ("cvta.to.shared.u32 %r6, %r2;", true),
    // the general path
    ("add.sat.s32 %r1, %r2, %r3;", false),
    ("add.rz.f32 %f1, %f2, %f3;", false),
    ("add.ftz.f32 %f1, %f2, %f3;", false),
    ("fma.rn.ftz.f32 %f1, %f2, %f3, %f4;", false),
    ("fma.rn.f32 %f1, %f2, 0f3F800000, %f4;", false),
    ("mov.u32 %r1, %tid.x;", false),
    ("setp.lt.and.s32 %p1, %r2, %r3, %p2;", false),
    ("mul.hi.s32 %r1, %r2, %r3;", false),
    ("add.f64 %fd1, %fd2, %fd3;", false),
];

fn kernel() -> golden::gpu::ptx::Kernel {
    let body: String = CASES.iter().map(|(i, _)| format!("  {i}\n")).collect();
    let text = format!(
        ".version 8.0\n.target sm_52\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{{\n  .reg .pred %p<4>;\n  .reg .b16 %rs<4>;\n  .reg .f32 %f<8>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .f64 %fd<4>;\n{body}  ret;\n}}\n"
    );
    let m = parse_module(Path::new("predecode_test.ptx"), &text).unwrap_or_else(|e| panic!("{e}"));
    m.kernel("k").expect("kernel k").clone()
}

#[test]
fn decodes_the_common_forms_and_leaves_the_rest() {
    let k = kernel();
    for (i, &(text, fast)) in CASES.iter().enumerate() {
        let f = Fast::decode(&k.insts[i]);
        assert_eq!(f != Fast::Generic, fast, "{text}: decoded {f:?}");
    }
}

/// A hand-computed case: fma.rn.f32 of 1.5 * 2 + 0.25 is 3.25 on every active lane;
/// inactive lanes keep their value; then with every lane active (the row path).
#[test]
fn fma_by_hand() {
    let k = kernel();
    let i = CASES.iter().position(|c| c.0.starts_with("fma.rn.f32 %f1, %f1")).unwrap();
    let inst = &k.insts[i];
    let Fast::Fma32 { d, a, b, c, .. } = Fast::decode(inst) else { panic!("not an fma handler") };
    let mut regs = vec![0u64; k.nregs as usize * WARP];
    for (r, v) in [(a, 1.5f32), (b, 2.0), (c, 0.25)] {
        regs[r as usize * WARP..][..WARP].fill(v.to_bits() as u64);
    }
    let mask = 0x0000_ffff;
    let before = regs[d as usize * WARP + 16];
    Fast::decode(inst).run(&mut regs, &mut [0; 4], mask);
    assert_eq!(regs[d as usize * WARP], 3.25f32.to_bits() as u64);
    assert_eq!(regs[d as usize * WARP + 15], 3.25f32.to_bits() as u64);
    assert_eq!(regs[d as usize * WARP + 16], before);
    // every lane: the rows are read and written in place (d is also a source)
    regs[a as usize * WARP..][..WARP].fill(1.5f32.to_bits() as u64);
    Fast::decode(inst).run(&mut regs, &mut [0; 4], u32::MAX);
    assert!(regs[d as usize * WARP..][..WARP].iter().all(|&v| v == 3.25f32.to_bits() as u64));
}

/// Every fast handler against the general interpreter (`execute_reg`), on random
/// registers with the float values that differ between formulas (NaN, -0, infinity,
/// subnormals), full and partial masks.
#[test]
fn matches_the_general_path() {
    let k = kernel();
    let specials = [0x7fc0_0000u64, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 1, 0x8000_0001, 0x3f80_0000, 0x7fff_ffff, 0xffff_ffff];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let ids = WarpIds::default();
    let mut checked = 0;
    for round in 0..64 {
        let mut regs: Vec<u64> = (0..k.nregs as usize * WARP)
            .map(|i| {
                let v = next();
                let v = if v % 4 == 0 { specials[(v >> 8) as usize % specials.len()] } else { v };
                v & k.reg_types[i / WARP].mask()
            })
            .collect();
        let mut preds: Vec<u32> = (0..k.npreds).map(|_| next() as u32).collect();
        let mask = match round % 3 {
            0 => u32::MAX,
            1 => next() as u32,
            _ => 1 << (round % 32),
        };
        for (i, &(text, fast)) in CASES.iter().enumerate() {
            if !fast {
                continue;
            }
            let inst = &k.insts[i];
            let (mut r1, mut p1) = (regs.clone(), preds.clone());
            Fast::decode(inst).run(&mut r1, &mut p1, mask);
            let (mut r2, mut p2) = (regs.clone(), preds.clone());
            let mut ex = WarpExec { regs: &mut r2, preds: &mut p2, ids: &ids, clock: 0 };
            ex.execute_reg(inst, mask).unwrap();
            assert!(r1 == r2 && p1 == p2, "{text}, mask {mask:#x}: the fast path differs from execute_reg");
            checked += 1;
            // the next instruction sees this one's result, as in a kernel
            (regs, preds) = (r1, p1);
        }
    }
    assert_eq!(checked, 64 * CASES.iter().filter(|c| c.1).count());
}
