//! Functional execution of one warp instruction over the active lanes.
//!
//! Our choice (as GPGPU-Sim): instructions execute functionally at issue; the timing
//! model then decides when results become visible to dependent instructions (the
//! scoreboard) and how long memory accesses take. Memory is therefore sequentially
//! consistent in issue order, which is stronger than PTX requires, so race-free kernels
//! compute exactly what they compute on hardware. Lanes of one atomic execute in
//! increasing lane order.
//!
//! Registers of a warp are one flat `[reg][lane]` array of u64 (values normalized to
//! the register's width); predicates are one u32 lane mask each.
//!
//! Our choices for what PTX leaves open: `.approx` transcendental and division forms
//! compute the Rust (correctly rounded or libm) result, so results are deterministic and
//! reproducible by the Rust references; integer division by zero gives all ones and
//! remainder by zero the dividend; `fma`/`mad.f32` are truly fused.

use super::memspace::{load_le, resolve_generic, store_le, DeviceMemory, GenericTarget, LOCAL_WINDOW, SHARED_WINDOW};
use super::ptx::*;

pub const WARP: usize = 32;

/// Identity of a warp's threads, for special registers.
#[derive(Debug, Clone, Copy, Default)]
pub struct WarpIds {
    /// Linear thread index (within the CTA) of lane 0.
    pub first_tid: u32,
    pub ntid: [u32; 3],
    pub ctaid: [u32; 3],
    pub nctaid: [u32; 3],
    /// Hardware warp slot, warp slots per SM, SM id, SM count.
    pub warp_slot: u32,
    pub nwarp_slots: u32,
    pub smid: u32,
    pub nsmid: u32,
}

/// The memory spaces one warp can touch.
pub struct MemCtx<'a> {
    pub global: &'a mut DeviceMemory,
    /// The CTA's shared memory.
    pub shared: &'a mut [u8],
    /// The warp's local memory: lane `l` owns `[l * local_bytes, (l + 1) * local_bytes)`.
    pub local: &'a mut [u8],
    pub local_bytes: u32,
    pub params: &'a [u8],
}

/// What the timing model must do after functional execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Register-only instruction.
    Alu,
    /// Branch: lanes that take it.
    Branch {
        taken: u32,
    },
    /// Memory access described in the [`MemRecord`].
    Mem,
    Bar,
    Membar(Scope),
    /// Lanes that exit.
    Exit,
}

/// Per-lane addresses of a memory instruction, in its resolved space.
#[derive(Debug, Clone)]
pub struct MemRecord {
    pub space: Space,
    pub mask: u32,
    /// Bytes per lane (vector width x element size).
    pub bytes: u32,
    pub write: bool,
    pub atomic: bool,
    /// Shared: byte offset in the CTA's shared memory; Local: byte offset in the
    /// thread's local memory; Global: device address.
    pub addr: [u64; WARP],
}

impl Default for MemRecord {
    fn default() -> Self {
        MemRecord { space: Space::Global, mask: 0, bytes: 0, write: false, atomic: false, addr: [0; WARP] }
    }
}

/// A functional fault: out-of-bounds or misaligned access and the like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault(pub String);

/// A warp's values, one per lane.
#[doc(hidden)]
pub type Lanes = [u64; WARP];

/// The `f32` in the low 32 bits of `v`.
#[inline(always)]
#[doc(hidden)]
pub fn f32v(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

/// The bits of `f`, zero-extended.
#[inline(always)]
#[doc(hidden)]
pub fn f32b(f: f32) -> u64 {
    f.to_bits() as u64
}

/// The `f64` of the bits of `v`.
#[inline(always)]
#[doc(hidden)]
pub fn f64v(v: u64) -> f64 {
    f64::from_bits(v)
}

#[inline(always)]
fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// Value of `v` (of type `ty`) as i128: signed types sign-extended, others zero-extended.
#[inline(always)]
#[doc(hidden)]
pub fn int_val(v: u64, ty: Ty) -> i128 {
    if ty.is_signed() {
        sext(v, ty.bits()) as i128
    } else {
        (v & ty.mask()) as i128
    }
}

/// `f`, flushed to a zero of its sign if `on` and it is subnormal (`.ftz`).
#[inline(always)]
#[doc(hidden)]
pub fn ftz32(f: f32, on: bool) -> f32 {
    if on && f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

#[inline(always)]
fn ftz64(f: f64, on: bool) -> f64 {
    if on && f.is_subnormal() {
        0.0f64.copysign(f)
    } else {
        f
    }
}

#[inline(always)]
fn sat01_32(f: f32) -> f32 {
    if f.is_nan() {
        0.0
    } else {
        f.clamp(0.0, 1.0)
    }
}

#[inline(always)]
fn sat01_64(f: f64) -> f64 {
    if f.is_nan() {
        0.0
    } else {
        f.clamp(0.0, 1.0)
    }
}

/// `f` over every lane (one function per operation: the lane loop has the operation
/// inlined, whatever the size of the caller).
#[inline(never)]
fn map1(a: &Lanes, out: &mut Lanes, f: impl Fn(u64) -> u64) {
    for l in 0..WARP {
        out[l] = f(a[l]);
    }
}

#[inline(never)]
fn map2(a: &Lanes, b: &Lanes, out: &mut Lanes, f: impl Fn(u64, u64) -> u64) {
    for l in 0..WARP {
        out[l] = f(a[l], b[l]);
    }
}

#[inline(never)]
fn map3(a: &Lanes, b: &Lanes, c: &Lanes, out: &mut Lanes, f: impl Fn(u64, u64, u64) -> u64) {
    for l in 0..WARP {
        out[l] = f(a[l], b[l], c[l]);
    }
}

/// Lanes (as a mask) where `f` holds.
#[inline(never)]
fn pred_lanes(a: &Lanes, b: &Lanes, f: impl Fn(u64, u64) -> bool) -> u32 {
    let mut m = 0u32;
    for l in 0..WARP {
        m |= (f(a[l], b[l]) as u32) << l;
    }
    m
}

/// Float op on f32 lanes with `.ftz` on inputs/outputs and `.sat` (without either, the
/// plain operation: `ftz32(x, false) == x`).
macro_rules! f32op {
    ($inst:expr, $a:expr, $b:expr, $out:expr, |$x:ident, $y:ident| $e:expr) => {{
        let (ftz, sat) = ($inst.ftz, $inst.sat);
        if !ftz && !sat {
            map2($a, $b, $out, |p, q| {
                let $x = f32v(p);
                let $y = f32v(q);
                f32b($e)
            })
        } else {
            map2($a, $b, $out, |p, q| {
                let $x = ftz32(f32v(p), ftz);
                let $y = ftz32(f32v(q), ftz);
                let r = ftz32($e, ftz);
                f32b(if sat { sat01_32(r) } else { r })
            })
        }
    }};
}

macro_rules! f64op {
    ($inst:expr, $a:expr, $b:expr, $out:expr, |$x:ident, $y:ident| $e:expr) => {{
        let (ftz, sat) = ($inst.ftz, $inst.sat);
        if !ftz && !sat {
            map2($a, $b, $out, |p, q| {
                let $x = f64v(p);
                let $y = f64v(q);
                ($e).to_bits()
            })
        } else {
            map2($a, $b, $out, |p, q| {
                let $x = ftz64(f64v(p), ftz);
                let $y = ftz64(f64v(q), ftz);
                let r = ftz64($e, ftz);
                (if sat { sat01_64(r) } else { r }).to_bits()
            })
        }
    }};
}

/// `fma.rn.f32` on every lane, no `.ftz`/`.sat`: `f32::mul_add`, which on x86-64 with
/// FMA is one `vfmadd213ss x, y, z` per lane (the runtime-selected path of Rust's
/// `fmaf`). With FMA the same instruction form runs eight lanes at a time
/// (`vfmadd213ps`, element-wise identical, NaN operand priority included).
#[doc(hidden)]
pub fn fma_f32(a: &Lanes, b: &Lanes, c: &Lanes, out: &mut Lanes) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the features the function enables were detected just above.
        return unsafe { fma_f32_x86(a, b, c, out) };
    }
    map3(a, b, c, out, |x, y, z| f32b(f32v(x).mul_add(f32v(y), f32v(z))))
}

/// [`fma_f32`] of register rows `a`, `b`, `c` of `regs` written into row `d` on every
/// lane, when the destination keeps 32 bits or more (`dmask`): the rows are read and
/// written eight lanes at a time, with no intermediate copy (`d` may be a source: each
/// group of eight is read before it is written). `false` (nothing written) without AVX2
/// and FMA, or for a narrower destination: the caller takes the general path.
#[inline]
pub(crate) fn fma_f32_rows(regs: &mut [u64], a: usize, b: usize, c: usize, d: usize, dmask: u64) -> bool {
    #[cfg(target_arch = "x86_64")]
    if dmask & 0xffff_ffff == 0xffff_ffff && std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2") {
        let n = regs.len();
        assert!([a, b, c, d].iter().all(|&r| (r + 1) * WARP <= n), "register rows inside the warp's registers");
        // SAFETY: the features were detected just above; every row is inside `regs`
        // (checked), and each group of eight lanes is loaded before it is stored.
        unsafe { fma_f32_rows_x86(regs.as_mut_ptr(), a * WARP, b * WARP, c * WARP, d * WARP) };
        return true;
    }
    let _ = (regs, a, b, c, d, dmask);
    false
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fma_f32_rows_x86(regs: *mut u64, a: usize, b: usize, c: usize, d: usize) {
    use std::arch::x86_64::*;
    // the low 32 bits of eight 64-bit lanes as eight f32, in lane order
    #[inline(always)]
    unsafe fn load8(p: *const u64) -> __m256 {
        // SAFETY (caller): p..p + 8 is inside the register file
        let (lo, hi) = unsafe { (_mm256_loadu_si256(p as *const __m256i), _mm256_loadu_si256(p.add(4) as *const __m256i)) };
        // [l0 l1 h0 h1 | l2 l3 h2 h3], then the 64-bit pairs reordered
        let packed = _mm256_shuffle_ps::<0b10_00_10_00>(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi));
        _mm256_castpd_ps(_mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_castps_pd(packed)))
    }
    for k in (0..WARP).step_by(8) {
        // SAFETY: the caller checked every row; k + 8 <= WARP.
        unsafe {
            let vx = load8(regs.add(a + k));
            let vy = load8(regs.add(b + k));
            let vz = load8(regs.add(c + k));
            let r = _mm256_castps_si256(vfmadd213ps(vx, vy, vz));
            let dst = regs.add(d + k);
            _mm256_storeu_si256(dst as *mut __m256i, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(r)));
            _mm256_storeu_si256(dst.add(4) as *mut __m256i, _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(r)));
        }
    }
}

/// `x * y + z` on eight f32, one rounding: `vfmadd213ps x, y, z`, the form Rust's `fmaf`
/// uses per lane (so NaN operand priority is the scalar path's too).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,fma")]
#[inline]
fn vfmadd213ps(mut x: std::arch::x86_64::__m256, y: std::arch::x86_64::__m256, z: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    // SAFETY: register operands only, no memory; the features are enabled.
    unsafe {
        std::arch::asm!(
            "vfmadd213ps {x}, {y}, {z}",
            x = inout(ymm_reg) x,
            y = in(ymm_reg) y,
            z = in(ymm_reg) z,
            options(pure, nomem, nostack),
        );
    }
    x
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,fma")]
unsafe fn fma_f32_x86(a: &Lanes, b: &Lanes, c: &Lanes, res: &mut Lanes) {
    use std::arch::x86_64::{_mm256_loadu_ps, _mm256_storeu_ps};
    let (mut x, mut y, mut z) = ([0f32; WARP], [0f32; WARP], [0f32; WARP]);
    for l in 0..WARP {
        x[l] = f32v(a[l]);
        y[l] = f32v(b[l]);
        z[l] = f32v(c[l]);
    }
    let mut out = [0f32; WARP];
    for k in (0..WARP).step_by(8) {
        // SAFETY: each access is 8 floats inside a 32-float array.
        unsafe {
            let vx = _mm256_loadu_ps(x.as_ptr().add(k));
            let vy = _mm256_loadu_ps(y.as_ptr().add(k));
            let vz = _mm256_loadu_ps(z.as_ptr().add(k));
            _mm256_storeu_ps(out.as_mut_ptr().add(k), vfmadd213ps(vx, vy, vz));
        }
    }
    for l in 0..WARP {
        res[l] = f32b(out[l]);
    }
}

/// The lanes of `mask` of a destination row get `vals`, cut to the register's width
/// (`dmask`).
#[inline(always)]
pub(crate) fn write_lanes(dst: &mut Lanes, mask: u32, dmask: u64, vals: &Lanes) {
    if mask == u32::MAX {
        for l in 0..WARP {
            dst[l] = vals[l] & dmask;
        }
    } else {
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            dst[l] = vals[l] & dmask;
            m &= m - 1;
        }
    }
}

/// `setp` over every lane: the lanes where `a cmp b` holds (`compare` of
/// `golden/tests/gpu_exec.rs`, specialized per comparison and type outside the lane loop).
#[doc(hidden)]
pub fn setp_lanes(cmp: Cmp, ty: Ty, ftz: bool, a: &Lanes, b: &Lanes) -> u32 {
    if ty.is_float() {
        return match (ty, ftz) {
            (Ty::F32, false) => float_setp(cmp, a, b, |v| f32v(v) as f64),
            (Ty::F32, true) => float_setp(cmp, a, b, |v| ftz32(f32v(v), true) as f64),
            (Ty::F16, ftz) => float_setp(cmp, a, b, |v| half_in(v as u16, ftz)),
            _ => float_setp(cmp, a, b, f64v),
        };
    }
    let m = ty.mask();
    match cmp {
        Cmp::Lo => pred_lanes(a, b, |x, y| x & m < y & m),
        Cmp::Ls => pred_lanes(a, b, |x, y| x & m <= y & m),
        Cmp::Hi => pred_lanes(a, b, |x, y| x & m > y & m),
        Cmp::Hs => pred_lanes(a, b, |x, y| x & m >= y & m),
        Cmp::Eq | Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge if ty.is_signed() => {
            // `int_val`: sign-extended from the type's width
            let sh = 64 - ty.bits();
            int_setp(cmp, a, b, move |v| ((v << sh) as i64) >> sh)
        }
        // `int_val`: zero-extended from the type's width
        Cmp::Eq | Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge => int_setp(cmp, a, b, move |v| v & m),
        _ => 0,
    }
}

#[inline(always)]
fn int_setp<T: Ord>(cmp: Cmp, a: &Lanes, b: &Lanes, v: impl Fn(u64) -> T + Copy) -> u32 {
    match cmp {
        Cmp::Eq => pred_lanes(a, b, |x, y| v(x) == v(y)),
        Cmp::Ne => pred_lanes(a, b, |x, y| v(x) != v(y)),
        Cmp::Lt => pred_lanes(a, b, |x, y| v(x) < v(y)),
        Cmp::Le => pred_lanes(a, b, |x, y| v(x) <= v(y)),
        Cmp::Gt => pred_lanes(a, b, |x, y| v(x) > v(y)),
        Cmp::Ge => pred_lanes(a, b, |x, y| v(x) >= v(y)),
        _ => unreachable!("handled by setp_lanes"),
    }
}

#[inline(always)]
fn float_setp(cmp: Cmp, a: &Lanes, b: &Lanes, v: impl Fn(u64) -> f64 + Copy) -> u32 {
    let un = |x: f64, y: f64| x.is_nan() || y.is_nan();
    match cmp {
        Cmp::Eq => pred_lanes(a, b, |x, y| v(x) == v(y)),
        Cmp::Ne => pred_lanes(a, b, |x, y| !un(v(x), v(y)) && v(x) != v(y)),
        Cmp::Lt => pred_lanes(a, b, |x, y| v(x) < v(y)),
        Cmp::Le => pred_lanes(a, b, |x, y| v(x) <= v(y)),
        Cmp::Gt => pred_lanes(a, b, |x, y| v(x) > v(y)),
        Cmp::Ge => pred_lanes(a, b, |x, y| v(x) >= v(y)),
        Cmp::Equ => pred_lanes(a, b, |x, y| un(v(x), v(y)) || v(x) == v(y)),
        Cmp::Neu => pred_lanes(a, b, |x, y| un(v(x), v(y)) || v(x) != v(y)),
        Cmp::Ltu => pred_lanes(a, b, |x, y| un(v(x), v(y)) || v(x) < v(y)),
        Cmp::Leu => pred_lanes(a, b, |x, y| un(v(x), v(y)) || v(x) <= v(y)),
        Cmp::Gtu => pred_lanes(a, b, |x, y| un(v(x), v(y)) || v(x) > v(y)),
        Cmp::Geu => pred_lanes(a, b, |x, y| un(v(x), v(y)) || v(x) >= v(y)),
        Cmp::Num => pred_lanes(a, b, |x, y| !un(v(x), v(y))),
        Cmp::Nan => pred_lanes(a, b, |x, y| un(v(x), v(y))),
        Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => 0,
    }
}

/// One warp's architectural state and identity, borrowed for one instruction.
pub struct WarpExec<'a> {
    pub regs: &'a mut [u64],
    pub preds: &'a mut [u32],
    pub ids: &'a WarpIds,
    /// The SM's cycle (`%clock`, `%clock64`): passed in, so that an instruction does not
    /// write the warp slot's identity.
    pub clock: u64,
}

impl<'a> WarpExec<'a> {
    #[inline(always)]
    fn reg(&self, r: u16) -> &Lanes {
        let base = r as usize * WARP;
        self.regs[base..base + WARP].try_into().expect("a register is one lane row")
    }

    /// A source operand for all lanes: a register's own row, or the operand
    /// materialized into `buf`.
    #[inline(always)]
    fn operand<'s>(&'s self, s: Src, buf: &'s mut Option<Lanes>) -> &'s Lanes {
        static ZERO: Lanes = [0; WARP];
        match s {
            Src::Reg(r) => self.reg(r),
            Src::None => &ZERO,
            s => buf.insert(self.materialize(s)),
        }
    }

    /// Materialize a source operand for all lanes.
    fn materialize(&self, s: Src) -> Lanes {
        match s {
            Src::Reg(r) => *self.reg(r),
            Src::Imm(v) => [v; WARP],
            Src::Pred(p, neg) => {
                let m = self.preds[p as usize] ^ if neg { u32::MAX } else { 0 };
                std::array::from_fn(|l| ((m >> l) & 1) as u64)
            }
            Src::Special(sp) => {
                let ids = self.ids;
                let uniform = match sp {
                    Special::Tid(c) => return self.tids(c),
                    Special::LaneId => return std::array::from_fn(|l| l as u64),
                    Special::LaneMask(c) => return std::array::from_fn(|l| lane_mask(c, l)),
                    Special::Ntid(c) => ids.ntid[c as usize] as u64,
                    Special::Ctaid(c) => ids.ctaid[c as usize] as u64,
                    Special::Nctaid(c) => ids.nctaid[c as usize] as u64,
                    Special::WarpId => ids.warp_slot as u64,
                    Special::NWarpId => ids.nwarp_slots as u64,
                    Special::SmId => ids.smid as u64,
                    Special::NSmId => ids.nsmid as u64,
                    Special::Clock => self.clock & 0xffff_ffff,
                    Special::Clock64 => self.clock,
                };
                [uniform; WARP]
            }
            Src::None => [0; WARP],
        }
    }

    /// `%tid` component `c` of every lane: lane `l` is thread `first_tid + l` of the
    /// CTA, `x = lin % nx`, `y = (lin / nx) % ny`, `z = lin / (nx * ny)`, stepped lane to
    /// lane instead of divided.
    fn tids(&self, c: u8) -> Lanes {
        let ids = self.ids;
        let [nx, ny, _] = ids.ntid;
        let lin = ids.first_tid;
        let (mut x, mut y, mut z) = (lin % nx, (lin / nx) % ny, lin / (nx * ny));
        std::array::from_fn(|_| {
            let v = match c {
                0 => x,
                1 => y,
                _ => z,
            };
            x += 1;
            if x == nx {
                x = 0;
                y += 1;
                if y == ny {
                    y = 0;
                    z += 1;
                }
            }
            v as u64
        })
    }

    #[inline]
    fn write(&mut self, d: u16, mask: u32, dmask: u64, vals: &Lanes) {
        let base = d as usize * WARP;
        write_lanes((&mut self.regs[base..base + WARP]).try_into().expect("a register is one lane row"), mask, dmask, vals);
    }

    #[inline]
    fn write_pred(&mut self, p: u16, mask: u32, vals: u32) {
        let cur = &mut self.preds[p as usize];
        *cur = (*cur & !mask) | (vals & mask);
    }

    /// Execute `inst` for the lanes in `mask` (active lanes already filtered by the
    /// guard predicate). Memory instructions fill `rec`.
    pub fn execute(&mut self, inst: &Inst, mask: u32, mem: &mut MemCtx<'_>, rec: &mut MemRecord) -> Result<Effect, Fault> {
        if inst.op == Op::Printf {
            self.printf(inst, mask, mem)?;
            return Ok(Effect::Alu);
        }
        if inst.is_mem() {
            self.memory(inst, mask, mem, rec)?;
            return Ok(Effect::Mem);
        }
        self.execute_reg(inst, mask)
    }

    /// [`Self::execute`] for an instruction that is not a memory access.
    pub fn execute_reg(&mut self, inst: &Inst, mask: u32) -> Result<Effect, Fault> {
        debug_assert!(!inst.is_mem());
        let ty = inst.ty;
        match inst.op {
            Op::Bra => {
                return Ok(Effect::Branch { taken: mask });
            }
            Op::Ret | Op::Exit => return Ok(Effect::Exit),
            Op::Bar | Op::BarArrive => return Ok(Effect::Bar),
            Op::WarpSync => return Ok(Effect::Alu),
            Op::Membar(s) => return Ok(Effect::Membar(s)),
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Red { .. } => unreachable!("memory instructions go through execute"),
            Op::Setp(cmp, bop) => {
                let (mut ba, mut bb) = (None, None);
                let a = self.operand(inst.a[0], &mut ba);
                let b = self.operand(inst.a[1], &mut bb);
                let res = setp_lanes(cmp, ty, inst.ftz, a, b);
                let cm = match inst.a[2] {
                    Src::Pred(p, neg) => self.preds[p as usize] ^ if neg { u32::MAX } else { 0 },
                    _ => 0,
                };
                let comb = |x: u32| match bop {
                    BoolOp::None => x,
                    BoolOp::And => x & cm,
                    BoolOp::Or => x | cm,
                    BoolOp::Xor => x ^ cm,
                };
                self.write_pred(inst.d[0], mask, comb(res));
                if inst.nd == 2 {
                    self.write_pred(inst.d[1], mask, comb(!res));
                }
                return Ok(Effect::Alu);
            }
            _ => {}
        }
        match inst.op {
            Op::Shfl(mode) => return Ok(self.shuffle(inst, mode, mask)),
            Op::Vote(mode) => {
                let mut buf = None;
                let p = self.operand(inst.a[0], &mut buf);
                let yes = (0..WARP).fold(0u32, |m, l| m | ((p[l] as u32 & 1) << l)) & mask;
                let all = if mask == 0 { 0 } else { u32::MAX };
                let v = match mode {
                    VoteMode::All => {
                        if yes == mask {
                            all
                        } else {
                            0
                        }
                    }
                    VoteMode::Any => {
                        if yes != 0 {
                            all
                        } else {
                            0
                        }
                    }
                    VoteMode::Uni => {
                        if yes == 0 || yes == mask {
                            all
                        } else {
                            0
                        }
                    }
                    VoteMode::Ballot => {
                        self.write(inst.d[0], mask, inst.dmask, &[yes as u64; WARP]);
                        return Ok(Effect::Alu);
                    }
                };
                self.write_pred(inst.d[0], mask, v);
                return Ok(Effect::Alu);
            }
            Op::ActiveMask => {
                self.write(inst.d[0], mask, inst.dmask, &[mask as u64; WARP]);
                return Ok(Effect::Alu);
            }
            Op::Redux(op) => {
                let mut buf = None;
                let a = self.operand(inst.a[0], &mut buf);
                let v = warp_reduce(op, ty, a, mask);
                self.write(inst.d[0], mask, inst.dmask, &[v; WARP]);
                return Ok(Effect::Alu);
            }
            _ => {}
        }
        // predicate-typed logic and moves
        if ty == Ty::Pred {
            let pv = |s: Src, preds: &[u32]| match s {
                Src::Pred(p, neg) => preds[p as usize] ^ if neg { u32::MAX } else { 0 },
                Src::Imm(v) if v != 0 => u32::MAX,
                _ => 0,
            };
            let x = pv(inst.a[0], self.preds);
            let y = pv(inst.a[1], self.preds);
            let v = match inst.op {
                Op::And => x & y,
                Op::Or => x | y,
                Op::Xor => x ^ y,
                Op::Not => !x,
                _ => x,
            };
            self.write_pred(inst.d[0], mask, v);
            return Ok(Effect::Alu);
        }
        if inst.op == Op::MovUnpack {
            let mut buf = None;
            let v = *self.operand(inst.a[0], &mut buf);
            let eb = ty.bits() / inst.nd as u32;
            for k in 0..inst.nd as usize {
                if inst.d[k] != NO_PRED {
                    let part: Lanes = std::array::from_fn(|l| v[l] >> (k as u32 * eb));
                    self.write(inst.d[k], mask, inst.dmask, &part);
                }
            }
            return Ok(Effect::Alu);
        }
        let mut r = [0; WARP];
        self.alu(inst, &mut r)?;
        self.write(inst.d[0], mask, inst.dmask, &r);
        Ok(Effect::Alu)
    }

    /// The result lanes of a register-only instruction into `r` (operands past `na`
    /// are zero).
    #[inline(always)]
    fn alu(&self, inst: &Inst, r: &mut Lanes) -> Result<(), Fault> {
        let src = |k: usize| if k < inst.na as usize { inst.a[k] } else { Src::None };
        let (mut ba, mut bb, mut bc) = (None, None, None);
        let a = self.operand(src(0), &mut ba);
        let b = self.operand(src(1), &mut bb);
        let c = self.operand(src(2), &mut bc);
        let ty = inst.ty;
        let bits = ty.bits();
        let tm = ty.mask();
        match (inst.op, ty) {
            (Op::Add | Op::Sub | Op::Mul, Ty::F32) if is_directed(inst.rnd) => {
                let (op, rnd, ftz, sat) = (inst.op, inst.rnd, inst.ftz, inst.sat);
                map2(a, b, r, |p, q| {
                    let x = ftz32(f32v(p), ftz) as f64;
                    let y = ftz32(f32v(q), ftz) as f64;
                    let v = match op {
                        Op::Add => add_f32_dir(x, y, rnd),
                        Op::Sub => add_f32_dir(x, -y, rnd),
                        _ => round_f32_dir(x * y, 0.0, rnd),
                    };
                    let v = ftz32(v, ftz);
                    f32b(if sat { sat01_32(v) } else { v })
                })
            }
            (Op::Fma, Ty::F32) if is_directed(inst.rnd) => {
                let (rnd, ftz, sat) = (inst.rnd, inst.ftz, inst.sat);
                map3(a, b, c, r, |p, q, w| {
                    let x = ftz32(f32v(p), ftz) as f64;
                    let y = ftz32(f32v(q), ftz) as f64;
                    let z = ftz32(f32v(w), ftz) as f64;
                    // the f32 product is exact in f64; the sum's error is exact (TwoSum)
                    let v = ftz32(add_f32_dir(x * y, z, rnd), ftz);
                    f32b(if sat { sat01_32(v) } else { v })
                })
            }
            (Op::Add | Op::Sub | Op::Mul | Op::Min | Op::Max | Op::Fma | Op::Abs | Op::Neg, Ty::F16 | Ty::F16x2) => {
                let (op, ftz, sat) = (inst.op, inst.ftz, inst.sat);
                let halves = if ty == Ty::F16x2 { 2 } else { 1 };
                map3(a, b, c, r, |x, y, z| {
                    let mut out = 0u64;
                    for k in 0..halves {
                        let h = |v: u64| (v >> (16 * k)) as u16;
                        out |= (half_op(op, h(x), h(y), h(z), ftz, sat) as u64) << (16 * k);
                    }
                    out
                })
            }
            (Op::Add, Ty::F32) => f32op!(inst, a, b, r, |x, y| x + y),
            (Op::Add, Ty::F64) => f64op!(inst, a, b, r, |x, y| x + y),
            (Op::Add, Ty::S32) if inst.sat => map2(a, b, r, |x, y| (sext(x, 32) + sext(y, 32)).clamp(i32::MIN as i64, i32::MAX as i64) as u64 & tm),
            (Op::Add, _) => map2(a, b, r, |x, y| x.wrapping_add(y) & tm),
            (Op::Sub, Ty::F32) => f32op!(inst, a, b, r, |x, y| x - y),
            (Op::Sub, Ty::F64) => f64op!(inst, a, b, r, |x, y| x - y),
            (Op::Sub, Ty::S32) if inst.sat => map2(a, b, r, |x, y| (sext(x, 32) - sext(y, 32)).clamp(i32::MIN as i64, i32::MAX as i64) as u64 & tm),
            (Op::Sub, _) => map2(a, b, r, |x, y| x.wrapping_sub(y) & tm),
            (Op::Mul, Ty::F32) => f32op!(inst, a, b, r, |x, y| x * y),
            (Op::Mul, Ty::F64) => f64op!(inst, a, b, r, |x, y| x * y),
            (Op::Mul, _) => map2(a, b, r, |x, y| x.wrapping_mul(y) & tm),
            (Op::MulHi, _) => map2(a, b, r, |x, y| ((int_val(x, ty) * int_val(y, ty)) >> bits) as u64 & tm),
            (Op::MulWide, _) => map2(a, b, r, |x, y| (int_val(x, ty) * int_val(y, ty)) as u64),
            (Op::Mad, _) => map3(a, b, c, r, |x, y, z| x.wrapping_mul(y).wrapping_add(z) & tm),
            (Op::MadHi, _) => map3(a, b, c, r, |x, y, z| (((int_val(x, ty) * int_val(y, ty)) >> bits) as u64).wrapping_add(z) & tm),
            (Op::MadWide, _) => {
                let wm = if bits >= 32 { u64::MAX } else { (1u64 << (2 * bits)) - 1 };
                map3(a, b, c, r, |x, y, z| ((int_val(x, ty) * int_val(y, ty)) as u64).wrapping_add(z) & wm)
            }
            (Op::Fma, Ty::F32) if !inst.ftz && !inst.sat => fma_f32(a, b, c, r),
            (Op::Fma, Ty::F32) => {
                let (ftz, sat) = (inst.ftz, inst.sat);
                map3(a, b, c, r, |x, y, z| {
                    let v = ftz32(ftz32(f32v(x), ftz).mul_add(ftz32(f32v(y), ftz), ftz32(f32v(z), ftz)), ftz);
                    f32b(if sat { sat01_32(v) } else { v })
                })
            }
            (Op::Fma, _) => map3(a, b, c, r, |x, y, z| f64v(x).mul_add(f64v(y), f64v(z)).to_bits()),
            (Op::Div, Ty::F32) => f32op!(inst, a, b, r, |x, y| x / y),
            (Op::Div, Ty::F64) => f64op!(inst, a, b, r, |x, y| x / y),
            (Op::Div, _) => map2(a, b, r, |x, y| {
                let (x, y) = (int_val(x, ty), int_val(y, ty));
                // our choice: x / 0 = all ones (what NVIDIA hardware returns for unsigned)
                if y == 0 {
                    tm
                } else {
                    (x / y) as u64 & tm
                }
            }),
            (Op::Rem, _) => map2(a, b, r, |x, y| {
                let (xv, yv) = (int_val(x, ty), int_val(y, ty));
                if yv == 0 {
                    x & tm
                } else {
                    (xv % yv) as u64 & tm
                }
            }),
            (Op::Min, Ty::F32) => f32op!(inst, a, b, r, |x, y| x.min(y)),
            (Op::Min, Ty::F64) => f64op!(inst, a, b, r, |x, y| x.min(y)),
            (Op::Min, _) => map2(a, b, r, |x, y| if int_val(x, ty) <= int_val(y, ty) { x } else { y }),
            (Op::Max, Ty::F32) => f32op!(inst, a, b, r, |x, y| x.max(y)),
            (Op::Max, Ty::F64) => f64op!(inst, a, b, r, |x, y| x.max(y)),
            (Op::Max, _) => map2(a, b, r, |x, y| if int_val(x, ty) >= int_val(y, ty) { x } else { y }),
            (Op::Abs, Ty::F32) => map1(a, r, |x| f32b(ftz32(f32v(x), inst.ftz).abs())),
            (Op::Abs, Ty::F64) => map1(a, r, |x| f64v(x).abs().to_bits()),
            (Op::Abs, _) => map1(a, r, |x| (int_val(x, ty).unsigned_abs() as u64) & tm),
            (Op::Neg, Ty::F32) => map1(a, r, |x| f32b(-ftz32(f32v(x), inst.ftz))),
            (Op::Neg, Ty::F64) => map1(a, r, |x| (-f64v(x)).to_bits()),
            (Op::Neg, _) => map1(a, r, |x| x.wrapping_neg() & tm),
            (Op::And, _) => map2(a, b, r, |x, y| x & y),
            (Op::Or, _) => map2(a, b, r, |x, y| x | y),
            (Op::Xor, _) => map2(a, b, r, |x, y| x ^ y),
            (Op::Not, _) => map1(a, r, |x| !x & tm),
            (Op::Cnot, _) => map1(a, r, |x| (x & tm == 0) as u64),
            (Op::Shl, _) => map2(a, b, r, |x, s| if (s as u32) >= bits { 0 } else { (x << s) & tm }),
            (Op::Shr, _) if ty.is_signed() => map2(a, b, r, |x, s| (sext(x, bits) >> (s as u32).min(bits - 1)) as u64 & tm),
            (Op::Shr, _) => map2(a, b, r, |x, s| if (s as u32) >= bits { 0 } else { (x & tm) >> s }),
            (Op::Popc, _) => map1(a, r, |x| (x & tm).count_ones() as u64),
            (Op::Clz, _) => map1(a, r, |x| ((x & tm).leading_zeros() - (64 - bits)) as u64),
            (Op::Brev, _) => map1(a, r, |x| (x & tm).reverse_bits() >> (64 - bits)),
            (Op::Selp, _) => map3(a, b, c, r, |x, y, p| if p != 0 { x } else { y }),
            (Op::Mov, _) => *r = *a,
            (Op::Bfe, _) => map3(a, b, c, r, |x, pos, len| bit_extract(x, pos, len, ty)),
            (Op::Bfi, _) => {
                let mut bd = None;
                let d = self.operand(src(3), &mut bd);
                for l in 0..WARP {
                    r[l] = bit_insert(a[l], b[l], c[l], d[l], bits);
                }
            }
            (Op::Prmt(PrmtMode::Default), _) => map3(a, b, c, r, permute_bytes),
            (Op::Prmt(mode), _) => map3(a, b, c, r, |x, y, z| permute_bytes_mode(x, y, z, mode)),
            (Op::Shf { left, clamp }, _) => map3(a, b, c, r, |x, y, n| funnel_shift(x, y, n, left, clamp)),
            (Op::MovPack, _) => {
                let eb = bits / inst.na as u32;
                let mut parts = [None, None, None, None];
                let mut acc = [0u64; WARP];
                for (k, part) in parts.iter_mut().enumerate().take(inst.na as usize) {
                    let p = self.operand(inst.a[k], part);
                    for l in 0..WARP {
                        acc[l] |= (p[l] & ((1u64 << eb) - 1)) << (k as u32 * eb);
                    }
                }
                *r = acc;
            }
            (Op::Cvt { from, rnd }, _) => {
                let (ftz, sat) = (inst.ftz, inst.sat);
                map1(a, r, |x| convert(x, from, ty, rnd, ftz, sat))
            }
            (Op::Cvta { dir, space }, _) => {
                let window = cvta_window(space);
                match dir {
                    CvtaDir::ToGeneric => map1(a, r, |x| x.wrapping_add(window) & tm),
                    CvtaDir::FromGeneric => map1(a, r, |x| x.wrapping_sub(window) & tm),
                }
            }
            (Op::Sqrt, Ty::F32) => map1(a, r, |x| f32b(ftz32(ftz32(f32v(x), inst.ftz).sqrt(), inst.ftz))),
            (Op::Sqrt, _) => map1(a, r, |x| f64v(x).sqrt().to_bits()),
            (Op::Rsqrt, Ty::F32) => map1(a, r, |x| f32b(ftz32(1.0 / ftz32(f32v(x), inst.ftz).sqrt(), inst.ftz))),
            (Op::Rsqrt, _) => map1(a, r, |x| (1.0 / f64v(x).sqrt()).to_bits()),
            (Op::Rcp, Ty::F32) => map1(a, r, |x| f32b(ftz32(1.0 / ftz32(f32v(x), inst.ftz), inst.ftz))),
            (Op::Rcp, _) => map1(a, r, |x| (1.0 / f64v(x)).to_bits()),
            (Op::Ex2, Ty::F32) => map1(a, r, |x| f32b(ftz32(ftz32(f32v(x), inst.ftz).exp2(), inst.ftz))),
            (Op::Ex2, _) => map1(a, r, |x| f64v(x).exp2().to_bits()),
            (Op::Lg2, Ty::F32) => map1(a, r, |x| f32b(ftz32(ftz32(f32v(x), inst.ftz).log2(), inst.ftz))),
            (Op::Lg2, _) => map1(a, r, |x| f64v(x).log2().to_bits()),
            (Op::Sin, Ty::F32) => map1(a, r, |x| f32b(ftz32(f32v(x), inst.ftz).sin())),
            (Op::Sin, _) => map1(a, r, |x| f64v(x).sin().to_bits()),
            (Op::Cos, Ty::F32) => map1(a, r, |x| f32b(ftz32(f32v(x), inst.ftz).cos())),
            (Op::Cos, _) => map1(a, r, |x| f64v(x).cos().to_bits()),
            (op, t) => return Err(Fault(format!("no semantics for {op:?} on .{}", t.name()))),
        }
        Ok(())
    }

    /// Resolve lane addresses, do the access functionally, fill `rec`.
    fn memory(&mut self, inst: &Inst, mask: u32, mem: &mut MemCtx<'_>, rec: &mut MemRecord) -> Result<(), Fault> {
        if inst.op == Op::Tex {
            return self.texture(inst, mask, mem, rec);
        }
        let (space, vec, write, atomic) = match inst.op {
            Op::Ld { space, vec, .. } => (space, vec as u32, false, None),
            Op::St { space, vec, .. } => (space, vec as u32, true, None),
            Op::Atom { space, op } => (space, 1, true, Some((op, true))),
            Op::Red { space, op } => (space, 1, true, Some((op, false))),
            _ => unreachable!("memory() on a non-memory instruction"),
        };
        let ty = inst.ty;
        let esz = ty.bytes();
        let bytes = esz * vec;
        rec.mask = mask;
        rec.bytes = bytes;
        rec.write = write;
        rec.atomic = atomic.is_some();
        // addresses
        let zero: Lanes = [0; WARP];
        let base = match inst.addr.base {
            AddrBase::Reg(r) => self.reg(r),
            _ => &zero,
        };
        let off = inst.addr.offset as u64;
        let uniform = !matches!(inst.addr.base, AddrBase::Reg(_));
        if space == Space::Param
            && uniform
            && !write
            && vec == 1
            && mask == u32::MAX
            && bytes.is_power_of_two()
            && off & (bytes as u64 - 1) == 0
            && off + bytes as u64 <= mem.params.len() as u64
        {
            // every lane reads the same parameter (as `param` below, read once)
            rec.addr = [off; WARP];
            rec.space = space;
            let d = inst.d[0];
            if d != NO_PRED {
                let v = load_le(&mem.params[off as usize..off as usize + esz as usize]);
                self.regs[d as usize * WARP..][..WARP].fill(loaded(ty, v, inst.dmask));
            }
            return Ok(());
        }
        if space != Space::Generic && mask == u32::MAX && bytes.is_power_of_two() {
            // every lane, one space: addresses and alignment without per-lane branches
            let mut bad = 0;
            for (a, &b) in rec.addr.iter_mut().zip(base) {
                *a = b.wrapping_add(off);
                bad |= *a & (bytes as u64 - 1);
            }
            if bad != 0 {
                let l = (0..WARP).find(|&l| rec.addr[l] & (bytes as u64 - 1) != 0).expect("a misaligned lane");
                return Err(Fault(format!("misaligned {bytes}-byte access to {} address {:#x} (lane {l})", space_name(space), rec.addr[l])));
            }
            rec.space = space;
            return self.data(inst, mask, space, vec, write, atomic, mem, rec);
        }
        let mut resolved = None;
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let va = base[l].wrapping_add(off);
            let (sp, a) = match space {
                Space::Generic => match resolve_generic(va) {
                    GenericTarget::Global(a) => (Space::Global, a),
                    GenericTarget::Shared(a) => (Space::Shared, a),
                    GenericTarget::Local(a) => (Space::Local, a),
                },
                s => (s, va),
            };
            match resolved {
                None => resolved = Some(sp),
                Some(s) if s != sp => return Err(Fault(format!("generic access at line {} mixes state spaces within one warp (not supported)", inst.line))),
                _ => {}
            }
            let misaligned = if bytes.is_power_of_two() { a & (bytes as u64 - 1) } else { a % bytes as u64 };
            if misaligned != 0 {
                return Err(Fault(format!("misaligned {bytes}-byte access to {} address {a:#x} (lane {l})", space_name(sp))));
            }
            rec.addr[l] = a;
        }
        let sp = resolved.unwrap_or(match space {
            Space::Generic => Space::Global,
            s => s,
        });
        rec.space = sp;
        self.data(inst, mask, sp, vec, write, atomic, mem, rec)
    }

    /// The data side of a memory instruction whose lane addresses are in `rec`.
    #[allow(clippy::too_many_arguments)]
    fn data(&mut self, inst: &Inst, mask: u32, sp: Space, vec: u32, write: bool, atomic: Option<(AtomOp, bool)>, mem: &mut MemCtx<'_>, rec: &MemRecord) -> Result<(), Fault> {
        let ty = inst.ty;
        let esz = ty.bytes();
        let bytes = esz * vec;
        let dmask = inst.dmask;
        if sp == Space::Global && atomic.is_none() {
            return self.global(inst, mask, vec, write, mem, rec);
        }
        if sp == Space::Param && !write {
            return self.param(inst, mask, vec, mem, rec);
        }
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = rec.addr[l];
            let lb = mem.local_bytes as u64;
            let slice: &mut [u8] = match sp {
                Space::Global => {
                    let len = bytes as usize;
                    // device memory is borrowed per access below
                    if mem.global.read(a, len).is_none() {
                        return Err(Fault(format!("out-of-bounds global access at {a:#x} ({bytes} bytes, lane {l})")));
                    }
                    &mut []
                }
                Space::Shared => {
                    let end = a + bytes as u64;
                    if end > mem.shared.len() as u64 {
                        return Err(Fault(format!("out-of-bounds shared access at offset {a:#x} (CTA has {} bytes, lane {l})", mem.shared.len())));
                    }
                    &mut mem.shared[a as usize..end as usize]
                }
                Space::Local => {
                    if a + bytes as u64 > lb {
                        return Err(Fault(format!("out-of-bounds local access at offset {a:#x} (thread has {lb} bytes, lane {l})")));
                    }
                    let s = l as u64 * lb + a;
                    &mut mem.local[s as usize..(s + bytes as u64) as usize]
                }
                Space::Param => {
                    if write {
                        return Err(Fault("store to .param space".into()));
                    }
                    let end = a + bytes as u64;
                    if end > mem.params.len() as u64 {
                        return Err(Fault(format!("parameter access at offset {a} past the {} parameter bytes", mem.params.len())));
                    }
                    for k in 0..vec as usize {
                        let s = a as usize + k * esz as usize;
                        let v = load_le(&mem.params[s..s + esz as usize]);
                        self.set_loaded(inst, k, l, v, dmask);
                    }
                    continue;
                }
                Space::Generic => unreachable!(),
            };
            let is_global = sp == Space::Global;
            match atomic {
                None if !write => {
                    for k in 0..vec as usize {
                        let s = k * esz as usize;
                        let v = if is_global { load_le(mem.global.read(a + s as u64, esz as usize).expect("checked")) } else { load_le(&slice[s..s + esz as usize]) };
                        self.set_loaded(inst, k, l, v, dmask);
                    }
                }
                None => {
                    let mut buf = [0u8; 32];
                    self.store_data(inst, l, vec, esz as usize, &mut buf);
                    if is_global {
                        mem.global.write(a, &buf[..bytes as usize]).expect("checked");
                    } else {
                        slice.copy_from_slice(&buf[..bytes as usize]);
                    }
                }
                Some((op, ret)) => {
                    let old = if is_global { load_le(mem.global.read(a, esz as usize).expect("checked")) } else { load_le(slice) };
                    let bv = self.operand_lane(inst.a[0], l);
                    let cv = self.operand_lane(inst.a[1], l);
                    let new = atomic_apply(op, ty, old, bv, cv);
                    let mut buf = [0u8; 8];
                    store_le(new, &mut buf[..esz as usize]);
                    if is_global {
                        mem.global.write(a, &buf[..esz as usize]).expect("checked");
                    } else {
                        slice.copy_from_slice(&buf[..esz as usize]);
                    }
                    if ret {
                        self.regs[inst.d[0] as usize * WARP + l] = old & dmask;
                    }
                }
            }
        }
        Ok(())
    }

    /// The data side of a global load or store (the addresses are in `rec`), lane by
    /// lane in increasing order.
    fn global(&mut self, inst: &Inst, mask: u32, vec: u32, write: bool, mem: &mut MemCtx<'_>, rec: &MemRecord) -> Result<(), Fault> {
        let esz = inst.ty.bytes() as usize;
        let bytes = esz * vec as usize;
        let dmask = inst.dmask;
        let oob = |a: u64, l: usize| Fault(format!("out-of-bounds global access at {a:#x} ({bytes} bytes, lane {l})"));
        if mask == u32::MAX && vec == 1 && self.global_unit_stride(inst, write, mem, rec) {
            return Ok(());
        }
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = rec.addr[l];
            if write {
                let mut buf = [0u8; 32];
                self.store_data(inst, l, vec, esz, &mut buf);
                mem.global.write(a, &buf[..bytes]).ok_or_else(|| oob(a, l))?;
            } else {
                let data = mem.global.read(a, bytes).ok_or_else(|| oob(a, l))?;
                for k in 0..vec as usize {
                    let v = load_le(&data[k * esz..(k + 1) * esz]);
                    self.set_loaded(inst, k, l, v, dmask);
                }
            }
        }
        Ok(())
    }

    /// [`Self::global`] for a whole warp whose lanes access consecutive elements (lane
    /// `l` at `addr[0] + l * size`) inside one region of device memory: the lanes'
    /// ranges are checked once, and the lanes touch distinct bytes, so the order of the
    /// per-lane path does not matter. False (nothing done) for any other access, which
    /// then takes the per-lane path (and its faults).
    #[inline]
    fn global_unit_stride(&mut self, inst: &Inst, write: bool, mem: &mut MemCtx<'_>, rec: &MemRecord) -> bool {
        let esz = inst.ty.bytes() as usize;
        let a0 = rec.addr[0];
        if (1..WARP).any(|l| rec.addr[l] != a0.wrapping_add((l * esz) as u64)) {
            return false;
        }
        if write {
            let Some(dst) = mem.global.slice_mut(a0, WARP * esz) else {
                return false;
            };
            for l in 0..WARP {
                store_le(self.operand_lane(inst.a[0], l), &mut dst[l * esz..(l + 1) * esz]);
            }
        } else {
            let Some(data) = mem.global.read(a0, WARP * esz) else {
                return false;
            };
            let d = inst.d[0];
            if d != NO_PRED {
                let (ty, dmask) = (inst.ty, inst.dmask);
                let row = &mut self.regs[d as usize * WARP..(d as usize + 1) * WARP];
                for (l, r) in row.iter_mut().enumerate() {
                    *r = loaded(ty, load_le(&data[l * esz..(l + 1) * esz]), dmask);
                }
            }
        }
        true
    }

    /// The data side of a parameter load: lanes reading the address the previous
    /// lane read get the same values.
    fn param(&mut self, inst: &Inst, mask: u32, vec: u32, mem: &MemCtx<'_>, rec: &MemRecord) -> Result<(), Fault> {
        let esz = inst.ty.bytes() as usize;
        let bytes = esz as u64 * vec as u64;
        let mut vals = [0u64; 4];
        let mut prev = None;
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = rec.addr[l];
            if prev != Some(a) {
                let end = a + bytes;
                if end > mem.params.len() as u64 {
                    return Err(Fault(format!("parameter access at offset {a} past the {} parameter bytes", mem.params.len())));
                }
                for (k, v) in vals.iter_mut().enumerate().take(vec as usize) {
                    let s = a as usize + k * esz;
                    *v = load_le(&mem.params[s..s + esz]);
                }
                prev = Some(a);
            }
            for (k, &v) in vals.iter().enumerate().take(vec as usize) {
                self.set_loaded(inst, k, l, v, inst.dmask);
            }
        }
        Ok(())
    }

    /// `shfl.sync` (PTX ISA): each executing lane reads `a` of lane `j` (its own when
    /// `j` is out of its segment). Our choice for what PTX leaves undefined: reading a
    /// lane that does not execute the shuffle gives that lane's current register value;
    /// the member mask is not checked against the executing lanes.
    fn shuffle(&mut self, inst: &Inst, mode: ShflMode, mask: u32) -> Effect {
        let (mut ba, mut bb, mut bc) = (None, None, None);
        let a = *self.operand(inst.a[0], &mut ba);
        let b = *self.operand(inst.a[1], &mut bb);
        let c = *self.operand(inst.a[2], &mut bc);
        let mut out = [0u64; WARP];
        let mut inrange = 0u32;
        for l in 0..WARP {
            let lane = l as i64;
            let bval = (b[l] & 31) as i64;
            let cval = (c[l] & 31) as i64;
            let segmask = ((c[l] >> 8) & 31) as i64;
            let max_lane = (lane & segmask) | (cval & !segmask);
            let min_lane = lane & segmask;
            let (j, ok) = match mode {
                ShflMode::Up => (lane - bval, lane - bval >= max_lane),
                ShflMode::Down => (lane + bval, lane + bval <= max_lane),
                ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
                ShflMode::Idx => {
                    let j = min_lane | (bval & !segmask);
                    (j, j <= max_lane)
                }
            };
            let src = if ok { j as usize } else { l };
            out[l] = a[src];
            inrange |= (ok as u32) << l;
        }
        self.write(inst.d[0], mask, inst.dmask, &out);
        if inst.d[1] != NO_PRED {
            self.write_pred(inst.d[1], mask, inrange);
        }
        Effect::Alu
    }

    /// `tex.1d` (`tex1Dfetch`): texel `x` of the bound buffer, component `k` its
    /// `k`-th 32-bit channel. Our choices: components past the buffer's channels read 0
    /// (and 1 for the fourth, 1.0 for `.f32`), coordinates outside the buffer read all
    /// zeros (CUDA's out-of-range fetch); an unbound texture is a fault naming the
    /// launch-file key.
    fn texture(&mut self, inst: &Inst, mask: u32, mem: &mut MemCtx<'_>, rec: &mut MemRecord) -> Result<(), Fault> {
        let (name, b) = mem.global.texture(inst.target).ok_or_else(|| Fault(format!("texture index {} out of range", inst.target)))?;
        let b = b.ok_or_else(|| Fault(format!("texture `{name}` is not bound to a buffer (launch file: textures = {{ {name} = \"buffer\" }} in its [[kernel]])")))?;
        let stride = 4 * b.channels as u64;
        let one = if inst.ty == Ty::F32 { 1f32.to_bits() as u64 } else { 1 };
        rec.space = Space::Global;
        rec.mask = mask;
        rec.bytes = stride as u32;
        rec.write = false;
        rec.atomic = false;
        let mut buf = None;
        let xs = *self.operand(inst.a[0], &mut buf);
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let x = sext(xs[l], 32);
            let inside = x >= 0 && (x as u64) < b.elems;
            let texel = if inside { x as u64 } else { 0 };
            rec.addr[l] = b.addr + texel * stride;
            for k in 0..4usize {
                let v = if !inside {
                    0
                } else if (k as u32) < b.channels {
                    let a = rec.addr[l] + 4 * k as u64;
                    load_le(mem.global.read(a, 4).ok_or_else(|| Fault(format!("texture `{name}` reads {a:#x} outside device memory (lane {l})")))?)
                } else if k == 3 {
                    one
                } else {
                    0
                };
                self.set_loaded(inst, k, l, v, inst.dmask);
            }
        }
        Ok(())
    }

    /// `vprintf` for each executing lane in increasing lane order: the formatted text
    /// goes to the device `printf` log ([`DeviceMemory::log_printf`]).
    fn printf(&mut self, inst: &Inst, mask: u32, mem: &mut MemCtx<'_>) -> Result<(), Fault> {
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let (fa, aa) = (self.operand_lane(inst.a[0], l), self.operand_lane(inst.a[1], l));
            let lb = mem.local_bytes as usize;
            let mut src = LaneMemory { global: &*mem.global, shared: &*mem.shared, local: &mem.local[l * lb..(l + 1) * lb] };
            let fmt = super::printf::read_string(&mut src, fa).ok_or_else(|| Fault(format!("printf format string at {fa:#x} is not readable (lane {l})")))?;
            let (text, n) = super::printf::format_counted(&fmt, aa, &mut src).map_err(|e| Fault(format!("{e} (lane {l})")))?;
            mem.global.log_printf(&text);
            if inst.nd == 1 {
                self.regs[inst.d[0] as usize * WARP + l] = n as u64 & inst.dmask;
            }
        }
        Ok(())
    }

    #[inline]
    fn operand_lane(&self, s: Src, l: usize) -> u64 {
        match s {
            Src::Reg(r) => self.regs[r as usize * WARP + l],
            Src::Imm(v) => v,
            _ => 0,
        }
    }

    /// Lane `l`'s store data: `vec` elements of `esz` bytes each, little-endian.
    #[inline(always)]
    fn store_data(&self, inst: &Inst, l: usize, vec: u32, esz: usize, buf: &mut [u8; 32]) {
        for k in 0..vec as usize {
            store_le(self.operand_lane(inst.a[k], l), &mut buf[k * esz..(k + 1) * esz]);
        }
    }

    #[inline]
    fn set_loaded(&mut self, inst: &Inst, k: usize, l: usize, v: u64, dmask: u64) {
        let d = inst.d[k];
        if d != NO_PRED {
            self.regs[d as usize * WARP + l] = loaded(inst.ty, v, dmask);
        }
    }
}

/// A loaded element `v` of type `ty` as its destination register holds it: sign-extended
/// for a signed type, masked to the register's width.
#[inline(always)]
fn loaded(ty: Ty, v: u64, dmask: u64) -> u64 {
    (if ty.is_signed() { sext(v, ty.bits()) as u64 } else { v }) & dmask
}

/// The generic-window base `cvta` adds (to generic) or takes (from generic) for an
/// address of `space`: zero for global and the other spaces the windows do not cover.
pub fn cvta_window(space: Space) -> u64 {
    match space {
        Space::Shared => SHARED_WINDOW,
        Space::Local => LOCAL_WINDOW,
        _ => 0,
    }
}

/// `%lanemask_*` of lane `l`: the lanes whose index compares with `l` as `c`.
fn lane_mask(c: Cmp, l: usize) -> u64 {
    let eq = 1u64 << l;
    let m = match c {
        Cmp::Eq => eq,
        Cmp::Lt => eq - 1,
        Cmp::Le => (eq << 1) - 1,
        Cmp::Gt => !((eq << 1) - 1),
        _ => !(eq - 1),
    };
    m & 0xffff_ffff
}

/// `bfe` (PTX ISA): `len = c & 0xff` bits of `x` from bit `pos = b & 0xff`; bits past
/// the msb read as the sign bit (signed types, the bit at `min(pos + len - 1, msb)`)
/// or zero.
pub fn bit_extract(x: u64, pos: u64, len: u64, ty: Ty) -> u64 {
    let bits = ty.bits() as u64;
    let msb = bits - 1;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let x = x & ty.mask();
    let sbit = if ty.is_signed() && len != 0 { (x >> (pos + len - 1).min(msb)) & 1 } else { 0 };
    let mut d = 0u64;
    for i in 0..bits {
        let bit = if i < len && pos + i <= msb { (x >> (pos + i)) & 1 } else { sbit };
        d |= bit << i;
    }
    d
}

/// `bfi` (PTX ISA): `b` with `len = d & 0xff` bits from bit `pos = c & 0xff` replaced
/// by the low bits of `a` (bits past the msb dropped).
pub fn bit_insert(a: u64, b: u64, c: u64, d: u64, bits: u32) -> u64 {
    let (pos, len) = (c & 0xff, d & 0xff);
    let mut f = b;
    for i in 0..len {
        if pos + i >= bits as u64 {
            break;
        }
        let bit = (a >> i) & 1;
        f = (f & !(1 << (pos + i))) | (bit << (pos + i));
    }
    f
}

/// `prmt.b32` default mode: byte `k` of the result is byte `c[4k+2:4k]` of the 8-byte
/// value `{b, a}`, or that byte's sign replicated when `c[4k+3]` is set.
pub fn permute_bytes(a: u64, b: u64, c: u64) -> u64 {
    let tmp = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    let mut d = 0u64;
    for k in 0..4 {
        let sel = (c >> (4 * k)) & 0xf;
        let byte = (tmp >> (8 * (sel & 7))) & 0xff;
        let v = if sel & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        d |= v << (8 * k);
    }
    d
}

/// `redux.sync`: `op` over the 32-bit values of the lanes in `mask` (signed min/max for
/// `.s32`); no lane executing gives the operation's identity.
pub fn warp_reduce(op: AtomOp, ty: Ty, a: &Lanes, mask: u32) -> u64 {
    let lanes = (0..WARP).filter(|l| mask >> l & 1 != 0).map(|l| a[l] & 0xffff_ffff);
    let v = match (op, ty) {
        (AtomOp::Add, _) => lanes.fold(0u64, |s, x| s.wrapping_add(x)),
        (AtomOp::Min, Ty::S32) => lanes.map(|x| x as u32 as i32).min().unwrap_or(i32::MAX) as u32 as u64,
        (AtomOp::Max, Ty::S32) => lanes.map(|x| x as u32 as i32).max().unwrap_or(i32::MIN) as u32 as u64,
        (AtomOp::Min, _) => lanes.min().unwrap_or(0xffff_ffff),
        (AtomOp::Max, _) => lanes.max().unwrap_or(0),
        (AtomOp::And, _) => lanes.fold(0xffff_ffff, |s, x| s & x),
        (AtomOp::Or, _) => lanes.fold(0, |s, x| s | x),
        _ => lanes.fold(0, |s, x| s ^ x),
    };
    v & 0xffff_ffff
}

/// `prmt.b32` in a mode other than the default (PTX ISA, `prmt`): `s = c[1:0]` picks a
/// row of the mode's table, which names the byte of `{b, a}` (0-7, `a` low) that each of
/// d's bytes 3..0 takes.
pub fn permute_bytes_mode(a: u64, b: u64, c: u64, mode: PrmtMode) -> u64 {
    const F4E: [[u8; 4]; 4] = [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]];
    const B4E: [[u8; 4]; 4] = [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]];
    const RC8: [[u8; 4]; 4] = [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]];
    const ECL: [[u8; 4]; 4] = [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]];
    const ECR: [[u8; 4]; 4] = [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]];
    const RC16: [[u8; 4]; 4] = [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]];
    let table = match mode {
        PrmtMode::F4e => &F4E,
        PrmtMode::B4e => &B4E,
        PrmtMode::Rc8 => &RC8,
        PrmtMode::Ecl => &ECL,
        PrmtMode::Ecr => &ECR,
        PrmtMode::Rc16 => &RC16,
        PrmtMode::Default => return permute_bytes(a, b, c),
    };
    let tmp = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    let row = table[(c & 3) as usize];
    (0..4).fold(0, |d, k| d | ((tmp >> (8 * row[3 - k] as u64)) & 0xff) << (8 * k))
}

/// `shf.l`/`shf.r` (PTX ISA): shift the 64-bit `{b, a}` by `n = c & 31` (`.wrap`) or
/// `min(c, 32)` (`.clamp`); `.l` keeps the upper 32 bits, `.r` the lower.
pub fn funnel_shift(a: u64, b: u64, c: u64, left: bool, clamp: bool) -> u64 {
    let n = if clamp { (c & 0xffff_ffff).min(32) } else { c & 31 };
    let v = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    if left {
        ((v << n) >> 32) & 0xffff_ffff
    } else {
        (v >> n) & 0xffff_ffff
    }
}

/// One lane's view of memory by generic address (for `printf` arguments).
struct LaneMemory<'a> {
    global: &'a DeviceMemory,
    shared: &'a [u8],
    local: &'a [u8],
}

impl super::printf::ArgSource for LaneMemory<'_> {
    fn bytes(&mut self, addr: u64, len: usize) -> Option<Vec<u8>> {
        let slice = |d: &[u8], a: u64| d.get(a as usize..(a as usize).checked_add(len)?).map(|s| s.to_vec());
        match resolve_generic(addr) {
            GenericTarget::Global(a) => self.global.read(a, len).map(|s| s.to_vec()),
            GenericTarget::Shared(a) => slice(self.shared, a),
            GenericTarget::Local(a) => slice(self.local, a),
        }
    }
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Global => "global",
        Space::Shared => "shared",
        Space::Local => "local",
        Space::Param => "param",
        Space::Generic => "generic",
    }
}

/// IEEE binary16 bits to f64 (exact).
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let mant = (h & 0x3ff) as f64;
    sign * match exp {
        0 => mant * 2f64.powi(-24),
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + mant / 1024.0) * 2f64.powi(e - 15),
    }
}

/// f64 to IEEE binary16 bits, rounded to nearest even (overflow to infinity, subnormal
/// results kept). Our choice: every NaN becomes the canonical NaN 0x7FFF.
pub fn f64_to_f16(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    // 65520 is halfway between 65504 (the largest half) and 2^16: ties to even go up
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // subnormal (or zero): units of 2^-24; rounding up to 1024 gives the smallest normal
        let q = (a * 2f64.powi(24)).round_ties_even() as u16;
        return sign | q;
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let q = ((a / 2f64.powi(e) - 1.0) * 1024.0).round_ties_even() as u32;
    // a carry out of the mantissa increments the exponent (q = 1024 adds 1 << 10)
    sign | ((((e + 15) as u32) << 10) + q) as u16
}

/// A half's value; `.ftz` flushes a subnormal to a zero of its sign.
fn half_in(h: u16, ftz: bool) -> f64 {
    f16_to_f64(if ftz && h & 0x7c00 == 0 { h & 0x8000 } else { h })
}

/// A correctly rounded half result (`.sat` clamps to [0, 1], NaN to +0; `.ftz`
/// flushes a subnormal result to a zero of its sign).
fn half_out(h: u16, ftz: bool, sat: bool) -> u16 {
    let h = if sat { f64_to_f16(sat01_64(f16_to_f64(h))) } else { h };
    if ftz && h & 0x7c00 == 0 {
        h & 0x8000
    } else {
        h
    }
}

/// `x * y + z` of halves rounded once to the nearest half (ties to even). The product is
/// exact in f64 (22 significant bits). The f64 sum is exact too unless the terms lie more
/// than 53 bits apart, which takes a product below 2^-27 beside a z of normal size (or a
/// product past 2^17, whose result overflows to infinity either way); then the exact value
/// is z plus far less than a quarter of z's half-precision ulp, and it and the f64 sum both
/// round to z. So one rounding of the f64 sum is the correctly rounded result.
fn half_fma(x: f64, y: f64, z: f64) -> u16 {
    f64_to_f16(x * y + z)
}

/// One half-precision lane operation (PTX ISA §9.7.4: add, sub, mul, fma with `.rn`;
/// min/max return the other operand when one is NaN; abs and neg only touch the sign).
/// Sums, differences and products of halves are exact in f64, so one rounding suffices.
fn half_op(op: Op, x: u16, y: u16, z: u16, ftz: bool, sat: bool) -> u16 {
    let flush = |h: u16| if ftz && h & 0x7c00 == 0 { h & 0x8000 } else { h };
    let r = match op {
        Op::Add => f64_to_f16(half_in(x, ftz) + half_in(y, ftz)),
        Op::Sub => f64_to_f16(half_in(x, ftz) - half_in(y, ftz)),
        Op::Mul => f64_to_f16(half_in(x, ftz) * half_in(y, ftz)),
        Op::Fma => half_fma(half_in(x, ftz), half_in(y, ftz), half_in(z, ftz)),
        Op::Min | Op::Max => {
            let (a, b) = (half_in(x, ftz), half_in(y, ftz));
            if a.is_nan() && b.is_nan() {
                0x7fff
            } else if a.is_nan() {
                flush(y)
            } else if b.is_nan() || (op == Op::Min) == (a < b || a == b && x & 0x8000 != 0) {
                flush(x)
            } else {
                flush(y)
            }
        }
        Op::Abs => flush(x) & 0x7fff,
        _ => flush(x) ^ 0x8000,
    };
    half_out(r, ftz, sat)
}

/// `cvt` with an `.f16` source or destination (through f64, exact for every half).
fn convert_f16(x: u64, from: Ty, to: Ty, rnd: Rnd, ftz: bool, sat: bool) -> u64 {
    let v = match from {
        Ty::F16 => f16_to_f64(x as u16),
        Ty::F32 => ftz32(f32v(x), ftz) as f64,
        Ty::F64 => f64v(x),
        t => int_val(x, t) as f64,
    };
    if to == Ty::F16 {
        let v = if sat { sat01_64(v) } else { v };
        let h = f64_to_f16(v);
        // .ftz flushes subnormal results to zero
        let h = if ftz && h & 0x7c00 == 0 { h & 0x8000 } else { h };
        return h as u64;
    }
    convert(v.to_bits(), Ty::F64, to, rnd, ftz && to != Ty::F64, sat)
}

/// `.rz`, `.rm` or `.rp`.
#[inline(always)]
fn is_directed(r: Rnd) -> bool {
    matches!(r, Rnd::Rz | Rnd::Rm | Rnd::Rp)
}

/// The f32 after `c` toward +infinity (`up`) or -infinity.
fn f32_step(c: f32, up: bool) -> f32 {
    if c == 0.0 {
        return f32::from_bits(if up { 1 } else { 0x8000_0001 });
    }
    let b = c.to_bits();
    f32::from_bits(if (c > 0.0) == up { b + 1 } else { b - 1 })
}

/// Our choice for directed rounding of f32 operations (documented in
/// docs/ptx_subset.md): the exact result is `s + e` in f64 arithmetic (`e` is the
/// error term of an error-free transformation, zero when `s` is exact), rounded once to
/// f32 in mode `rnd` (`.rz`, `.rm`, `.rp`; anything else rounds to nearest).
pub fn round_f32_dir(s: f64, e: f64, rnd: Rnd) -> f32 {
    let c = s as f32;
    if s.is_nan() || s.is_infinite() || !is_directed(rnd) {
        return c;
    }
    if c.is_infinite() {
        // overflow: to infinity only when rounding away from zero in that direction
        let to_inf = if s > 0.0 { rnd == Rnd::Rp } else { rnd == Rnd::Rm };
        return if to_inf { c } else { f32::MAX.copysign(c) };
    }
    // sign of (exact - c): s - c is exact (c is within half an f32 ulp of s), and e is
    // smaller than one f64 ulp of s
    let d = (s - c as f64) + e;
    if d == 0.0 {
        return c;
    }
    let up = d > 0.0;
    match rnd {
        Rnd::Rp if up => f32_step(c, true),
        Rnd::Rm if !up => f32_step(c, false),
        // toward zero: step only when c is farther from zero than the exact value
        Rnd::Rz if up && c < 0.0 || !up && c > 0.0 => f32_step(c, up),
        _ => c,
    }
}

/// `x + y` (f32 values held in f64) rounded to f32 in `rnd`: TwoSum gives the exact
/// error; an exact zero sum is -0 under `.rm` unless both operands are +0 (IEEE 754
/// §6.3).
pub fn add_f32_dir(x: f64, y: f64, rnd: Rnd) -> f32 {
    let s = x + y;
    if !s.is_finite() {
        return s as f32;
    }
    let bb = s - x;
    let e = (x - (s - bb)) + (y - bb);
    if s == 0.0 && e == 0.0 {
        let both_pos = x == 0.0 && y == 0.0 && x.is_sign_positive() && y.is_sign_positive();
        let both_neg = x == 0.0 && y == 0.0 && x.is_sign_negative() && y.is_sign_negative();
        let neg = both_neg || rnd == Rnd::Rm && !both_pos;
        return if neg { -0.0 } else { 0.0 };
    }
    round_f32_dir(s, e, rnd)
}

/// Integer `v` to f64 in a directed mode (`as f64` rounds to nearest; step one ulp
/// when that went the wrong way).
fn int_to_f64_dir(v: i128, rnd: Rnd) -> f64 {
    let r = v as f64;
    let back = r as i128;
    if back == v {
        return r;
    }
    let up = v > back;
    let step = |r: f64, up: bool| {
        let b = r.to_bits();
        f64::from_bits(if (r > 0.0) == up { b + 1 } else { b - 1 })
    };
    match rnd {
        Rnd::Rp if up => step(r, true),
        Rnd::Rm if !up => step(r, false),
        Rnd::Rz if up && r < 0.0 || !up && r > 0.0 => step(r, up),
        _ => r,
    }
}

/// `cvt` semantics.
pub fn convert(x: u64, from: Ty, to: Ty, rnd: Rnd, ftz: bool, sat: bool) -> u64 {
    if from == Ty::F16 || to == Ty::F16 {
        return convert_f16(x, from, to, rnd, ftz, sat);
    }
    let tm = to.mask();
    match (from.is_float(), to.is_float()) {
        (false, false) => {
            let v = int_val(x, from);
            if sat {
                let (lo, hi) = if to.is_signed() { (-(1i128 << (to.bits() - 1)), (1i128 << (to.bits() - 1)) - 1) } else { (0, (1i128 << to.bits()) - 1) };
                (v.clamp(lo, hi) as u64) & tm
            } else if to.is_signed() {
                // sign-extend from the smaller of the two widths
                (v as u64) & tm
            } else {
                (v as u64) & tm
            }
        }
        (false, true) => {
            let v = int_val(x, from);
            if to == Ty::F32 {
                let r = if is_directed(rnd) {
                    // v - (v as f64) is below 2^11 in magnitude: exact in f64
                    let s = v as f64;
                    round_f32_dir(s, (v - s as i128) as f64, rnd)
                } else {
                    v as f32
                };
                let r = if sat { sat01_32(r) } else { r };
                f32b(r)
            } else {
                let r = if is_directed(rnd) { int_to_f64_dir(v, rnd) } else { v as f64 };
                (if sat { sat01_64(r) } else { r }).to_bits()
            }
        }
        (true, false) => {
            let f = if from == Ty::F32 { ftz32(f32v(x), ftz) as f64 } else { f64v(x) };
            let f = match rnd {
                Rnd::Rni => f.round_ties_even(),
                Rnd::Rzi => f.trunc(),
                Rnd::Rmi => f.floor(),
                Rnd::Rpi => f.ceil(),
                _ => f.trunc(),
            };
            if f.is_nan() {
                return 0;
            }
            let (lo, hi) = if to.is_signed() { (-(1i128 << (to.bits() - 1)), (1i128 << (to.bits() - 1)) - 1) } else { (0, (1i128 << to.bits()) - 1) };
            let v = if f >= hi as f64 {
                hi
            } else if f <= lo as f64 {
                lo
            } else {
                f as i128
            };
            (v.clamp(lo, hi) as u64) & tm
        }
        (true, true) => {
            let fi = |f: f64| match rnd {
                Rnd::Rni => f.round_ties_even(),
                Rnd::Rzi => f.trunc(),
                Rnd::Rmi => f.floor(),
                Rnd::Rpi => f.ceil(),
                _ => f,
            };
            if to == Ty::F32 {
                let r = if from == Ty::F32 {
                    fi(ftz32(f32v(x), ftz) as f64) as f32
                } else {
                    let e = fi(f64v(x));
                    if is_directed(rnd) {
                        round_f32_dir(e, 0.0, rnd)
                    } else {
                        e as f32
                    }
                };
                let r = ftz32(r, ftz);
                f32b(if sat { sat01_32(r) } else { r })
            } else {
                let e = if from == Ty::F32 { fi(ftz32(f32v(x), ftz) as f64) } else { fi(f64v(x)) };
                (if sat { sat01_64(e) } else { e }).to_bits()
            }
        }
    }
}

/// New memory value of an atomic.
#[doc(hidden)]
pub fn atomic_apply(op: AtomOp, ty: Ty, old: u64, b: u64, c: u64) -> u64 {
    let m = ty.mask();
    match op {
        AtomOp::Add => match ty {
            Ty::F32 => f32b(f32v(old) + f32v(b)),
            Ty::F64 => (f64v(old) + f64v(b)).to_bits(),
            _ => old.wrapping_add(b) & m,
        },
        AtomOp::Min => {
            if int_val(b, ty) < int_val(old, ty) {
                b & m
            } else {
                old
            }
        }
        AtomOp::Max => {
            if int_val(b, ty) > int_val(old, ty) {
                b & m
            } else {
                old
            }
        }
        AtomOp::Inc => {
            if (old & m) >= (b & m) {
                0
            } else {
                (old + 1) & m
            }
        }
        AtomOp::Dec => {
            if (old & m) == 0 || (old & m) > (b & m) {
                b & m
            } else {
                (old - 1) & m
            }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Exch => b & m,
        AtomOp::Cas => {
            if old & m == b & m {
                c & m
            } else {
                old
            }
        }
    }
}
