//! Tests of `golden::gpu::exec` (`golden/src/gpu/exec.rs`).

use golden::gpu::exec::*;
use golden::gpu::ptx::{AtomOp, Cmp, Rnd, Ty};

/// `setp` comparison of one lane (the reference [`setp_lanes`] is tested against).
fn compare(cmp: Cmp, ty: Ty, a: u64, b: u64, ftz: bool) -> bool {
    if ty.is_float() {
        let (x, y) = if ty == Ty::F32 { (ftz32(f32v(a), ftz) as f64, ftz32(f32v(b), ftz) as f64) } else { (f64v(a), f64v(b)) };
        let un = x.is_nan() || y.is_nan();
        return match cmp {
            Cmp::Eq => x == y,
            Cmp::Ne => !un && x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
            Cmp::Equ => un || x == y,
            Cmp::Neu => un || x != y,
            Cmp::Ltu => un || x < y,
            Cmp::Leu => un || x <= y,
            Cmp::Gtu => un || x > y,
            Cmp::Geu => un || x >= y,
            Cmp::Num => !un,
            Cmp::Nan => un,
            Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => false,
        };
    }
    let (x, y) = (int_val(a, ty), int_val(b, ty));
    let (ux, uy) = (a & ty.mask(), b & ty.mask());
    match cmp {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        Cmp::Lt => x < y,
        Cmp::Le => x <= y,
        Cmp::Gt => x > y,
        Cmp::Ge => x >= y,
        Cmp::Lo => ux < uy,
        Cmp::Ls => ux <= uy,
        Cmp::Hi => ux > uy,
        Cmp::Hs => ux >= uy,
        _ => false,
    }
}

#[test]
fn conversions() {
    assert_eq!(convert(f32b(2.5), Ty::F32, Ty::S32, Rnd::Rni, false, false), 2);
    assert_eq!(convert(f32b(-2.5), Ty::F32, Ty::S32, Rnd::Rzi, false, false), (-2i32) as u32 as u64);
    assert_eq!(convert(f32b(1e20), Ty::F32, Ty::S32, Rnd::Rzi, false, false), i32::MAX as u64);
    assert_eq!(convert(f32b(f32::NAN), Ty::F32, Ty::U32, Rnd::Rzi, false, false), 0);
    assert_eq!(convert(0xffff_ffff, Ty::S32, Ty::S64, Rnd::Default, false, false), u64::MAX);
    assert_eq!(convert(0xffff_ffff, Ty::U32, Ty::U64, Rnd::Default, false, false), 0xffff_ffff);
    assert_eq!(convert(300, Ty::U32, Ty::U8, Rnd::Default, false, true), 255);
    // 2^24 + 1 is not representable: rn rounds to even (2^24), rz too; 2^24 + 3 -> rn 2^24+4, rz 2^24+2
    let v = (1u64 << 24) + 3;
    assert_eq!(f32v(convert(v, Ty::U32, Ty::F32, Rnd::Rn, false, false)), 16_777_220.0);
    assert_eq!(f32v(convert(v, Ty::U32, Ty::F32, Rnd::Rz, false, false)), 16_777_218.0);
    assert_eq!(f32v(convert(f32b(1.7), Ty::F32, Ty::F32, Rnd::Default, false, true)), 1.0);
}

#[test]
fn setp_lanes_is_compare_on_every_lane() {
    // values at the edges of every width and of both float formats, plus a stream
    let mut vals = vec![0u64, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, u64::MAX, 1 << 63];
    for f in [0.0f32, -0.0, 1.0, -1.5, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MIN_POSITIVE / 4.0, -f32::MIN_POSITIVE / 2.0] {
        vals.push(f32b(f));
    }
    for f in [0.0f64, -0.0, 2.5, f64::NEG_INFINITY, f64::NAN, f64::MIN_POSITIVE / 8.0] {
        vals.push(f.to_bits());
    }
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    while vals.len() < 64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        vals.push(x);
    }
    let cmps =
        [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Lo, Cmp::Ls, Cmp::Hi, Cmp::Hs, Cmp::Equ, Cmp::Neu, Cmp::Ltu, Cmp::Leu, Cmp::Gtu, Cmp::Geu, Cmp::Num, Cmp::Nan];
    let tys = [Ty::B16, Ty::B32, Ty::U8, Ty::U16, Ty::U32, Ty::U64, Ty::S8, Ty::S16, Ty::S32, Ty::S64, Ty::F32, Ty::F64];
    for shift in 0..vals.len() {
        let a: Lanes = std::array::from_fn(|l| vals[l % vals.len()]);
        let b: Lanes = std::array::from_fn(|l| vals[(l * 7 + shift) % vals.len()]);
        for cmp in cmps {
            for ty in tys {
                for ftz in [false, true] {
                    let want = (0..WARP).fold(0u32, |m, l| m | (compare(cmp, ty, a[l], b[l], ftz) as u32) << l);
                    assert_eq!(setp_lanes(cmp, ty, ftz, &a, &b), want, "{cmp:?} .{} ftz {ftz}", ty.name());
                }
            }
        }
    }
}

#[test]
fn packed_fma_is_mul_add_on_every_lane() {
    let specials = [0.0f32, -0.0, 1.0, -3.25, 1e-40, -1e-45, f32::MAX, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::from_bits(0x7fc0_1234), f32::from_bits(0xffa0_0001)];
    let mut x = 12345u64;
    let mut next = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let r = (x >> 33) as usize;
        if r.is_multiple_of(3) {
            f32b(specials[r % specials.len()])
        } else {
            (x >> 32) & 0xffff_ffff
        }
    };
    for _ in 0..200 {
        let (a, b, c): (Lanes, Lanes, Lanes) = (std::array::from_fn(|_| next()), std::array::from_fn(|_| next()), std::array::from_fn(|_| next()));
        let want: Lanes = std::array::from_fn(|l| f32b(f32v(a[l]).mul_add(f32v(b[l]), f32v(c[l]))));
        let mut got = [0; WARP];
        fma_f32(&a, &b, &c, &mut got);
        assert_eq!(got, want);
    }
}

#[test]
fn atomics() {
    assert_eq!(atomic_apply(AtomOp::Inc, Ty::U32, 5, 5, 0), 0);
    assert_eq!(atomic_apply(AtomOp::Inc, Ty::U32, 4, 5, 0), 5);
    assert_eq!(atomic_apply(AtomOp::Dec, Ty::U32, 0, 5, 0), 5);
    assert_eq!(atomic_apply(AtomOp::Cas, Ty::B32, 7, 7, 9), 9);
    assert_eq!(atomic_apply(AtomOp::Min, Ty::S32, 3, 0xffff_ffff, 0), 0xffff_ffff);
}
