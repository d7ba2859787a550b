//! Application graphs (spec §2), their data, and direct reference implementations.
//!
//! * **conv3x3 / conv5x5** (spec §2.1, §2.2): each image row offset `dy` is a
//!   transposed-form FIR along the pixel stream (FMUL then 2R FMADs, one initial
//!   0.0 token in each FMAD's accumulator FIFO), the rows are summed by a chain of
//!   FADDs, IADD_in/IADD_out generate the input/output addresses with SELF loops and
//!   one initial token each, LD `r` reads with `imm = 4·W·(r−R)` bytes, and the ST
//!   writes `OUT + 4·(r0·W + n − R)` for stream index `n` (the centre lags the stream
//!   by R). Wrong values land only in border columns; validation masks an R-pixel
//!   border. Output rows `R..H−R` are split into contiguous bands, one per copy:
//!   SM s holds bands `s·copies .. (s+1)·copies` (*our choice*: adjacent bands on one
//!   SM), sizes differing by at most one row; a copy with no rows is not configured.
//! * **saxpy / vecadd / reduce** (spec §2.3): 1-D vectors of `image` elements split
//!   into contiguous chunks the same way. *Our choices:* saxpy is in place
//!   (`y ← α·x + y`, α = 1.5) as in the spec table; reduce writes one partial sum per
//!   copy (`out[copy]`), its FADD accumulating `x + acc` with `last_only`, and the
//!   output address comes from an IADD with one initial token and fire count 1.
//!
//! Data: inputs are pseudo-random multiples of 2⁻²⁴ in [0, 1) from the run seed
//! (so never denormal); outputs start as the sentinel `0xFFFF_FFFF` (a NaN the FPU
//! never produces), so an unwritten output fails the check.
//!
//! References: an f32 loop with exactly the mapping's operation order (host
//! `f32::mul_add` and `+`, independent of [`super::fp`]) must match bit for bit; an
//! f64 loop in natural order must be within `taps` ulps (spec §4.3 item 9).

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::config::{AppKind, GpuccConfig, UnitKind};
use super::cr::op;
use super::mapper::{self, AppGraph, MapError, Node, Operand};
use super::mem::Backing;
use crate::config::FieldError;

/// A square convolution kernel, `k[(dy+R)*(2R+1) + (dx+R)]` = K(dy, dx) with dy the
/// image-row offset and dx the column offset (Eq. 1, correlation form).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvKernel {
    pub r: usize,
    pub k: Vec<f32>,
}

impl ConvKernel {
    pub fn side(&self) -> usize {
        2 * self.r + 1
    }
    pub fn at(&self, dy: isize, dx: isize) -> f32 {
        let s = self.side() as isize;
        let r = self.r as isize;
        self.k[((dy + r) * s + dx + r) as usize]
    }
    pub fn taps(&self) -> u32 {
        (self.side() * self.side()) as u32
    }
}

/// Gaussian [1 2 1; 2 4 2; 1 2 1]/16 (exact in fp32).
pub fn gaussian3() -> ConvKernel {
    let b = [1.0f32, 2.0, 1.0];
    ConvKernel { r: 1, k: b.iter().flat_map(|y| b.iter().map(move |x| y * x / 16.0)).collect() }
}

/// Binomial [1 4 6 4 1]ᵀ[1 4 6 4 1]/256 (exact in fp32).
pub fn gaussian5() -> ConvKernel {
    let b = [1.0f32, 4.0, 6.0, 4.0, 1.0];
    ConvKernel { r: 2, k: b.iter().flat_map(|y| b.iter().map(move |x| y * x / 256.0)).collect() }
}

/// Contiguous output rows of one copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Band {
    pub r0: u32,
    pub rows: u32,
}

/// Split `n` items starting at `first` into `parts` contiguous pieces whose sizes
/// differ by at most one (earlier pieces get the extra).
pub fn split(first: u32, n: u32, parts: u32) -> Vec<Band> {
    let (base, extra) = (n / parts, n % parts);
    let mut r0 = first;
    (0..parts)
        .map(|b| {
            let rows = base + (b < extra) as u32;
            let band = Band { r0, rows };
            r0 += rows;
            band
        })
        .collect()
}

const F32_ZERO: u32 = 0;

/// The conv graph of one copy (spec §2.1/§2.2 node names). `w` = image width.
pub fn conv_graph(k: &ConvKernel, w: u32, band: Band, in_base: u32, out_base: u32) -> AppGraph {
    let r = k.r as isize;
    let name = format!("conv{0}x{0}", k.side());
    let mut g = AppGraph::new(name);
    let nn = band.rows * w;
    let iadd_in = g.add(
        Node::new("IADD_in", UnitKind::Core, op::IADD)
            .imm(4)
            .input(0, Operand::SelfLoop)
            .input(1, Operand::Imm)
            .init(0, 1, in_base.wrapping_add(4 * band.r0 * w).wrapping_sub(4))
            .fire_count(nn),
    );
    let mut acc: Option<usize> = None;
    let fadd_names = ["FADD_a", "FADD_b", "FADD_c", "FADD_d", "FADD_e", "FADD_f"];
    for (row, dy) in (-r..=r).enumerate() {
        let ld = g.add(Node::new(format!("LD{row}"), UnitKind::Lsu, op::LD).imm((4 * w as i64 * dy as i64) as u32).input(0, Operand::Node(iadd_in)).fire_count(nn));
        let mut prev =
            g.add(Node::new(format!("FMUL{row}"), UnitKind::Core, op::FMUL).imm(k.at(dy, -r).to_bits()).input(0, Operand::Node(ld)).input(1, Operand::Imm).fire_count(nn));
        for (j, dx) in (-r + 1..=r).enumerate() {
            prev = g.add(
                Node::new(format!("FMAD{row}{}", j + 1), UnitKind::Core, op::FMAD)
                    .imm(k.at(dy, dx).to_bits())
                    .input(0, Operand::Node(ld))
                    .input(1, Operand::Imm)
                    .input(2, Operand::Node(prev))
                    .init(2, 1, F32_ZERO)
                    .fire_count(nn),
            );
        }
        acc = Some(match acc {
            None => prev,
            Some(a) => g.add(Node::new(fadd_names[row - 1], UnitKind::Core, op::FADD).input(0, Operand::Node(a)).input(1, Operand::Node(prev)).fire_count(nn)),
        });
    }
    let lag = k.r as u32;
    let iadd_out = g.add(
        Node::new("IADD_out", UnitKind::Core, op::IADD)
            .imm(4)
            .input(0, Operand::SelfLoop)
            .input(1, Operand::Imm)
            .init(0, 1, out_base.wrapping_add(4 * band.r0 * w).wrapping_sub(4 * (lag + 1)))
            .fire_count(nn),
    );
    g.add(Node::new("ST", UnitKind::Lsu, op::ST).input(0, Operand::Node(iadd_out)).input(1, Operand::Node(acc.expect("at least one row"))).fire_count(nn));
    g
}

/// Address generator of a 1-D stream: first address `base + 4·start`.
fn iadd_stream(name: &str, base: u32, start: u32, len: u32) -> Node {
    Node::new(name, UnitKind::Core, op::IADD).imm(4).input(0, Operand::SelfLoop).input(1, Operand::Imm).init(0, 1, base.wrapping_add(4 * start).wrapping_sub(4)).fire_count(len)
}

/// SAXPY value of α (exact in fp32).
pub const SAXPY_ALPHA: f32 = 1.5;

/// `y ← α·x + y` on elements `start..start+len` (spec §2.3).
pub fn saxpy_graph(start: u32, len: u32, x: u32, y: u32) -> AppGraph {
    let mut g = AppGraph::new("saxpy");
    let a = g.add(iadd_stream("IADD", x, start, len));
    let lx = g.add(Node::new("LDx", UnitKind::Lsu, op::LD).input(0, Operand::Node(a)).fire_count(len));
    let ly = g.add(Node::new("LDy", UnitKind::Lsu, op::LD).imm(y.wrapping_sub(x)).input(0, Operand::Node(a)).fire_count(len));
    let f = g
        .add(Node::new("FMAD", UnitKind::Core, op::FMAD).imm(SAXPY_ALPHA.to_bits()).input(0, Operand::Node(lx)).input(1, Operand::Imm).input(2, Operand::Node(ly)).fire_count(len));
    g.add(Node::new("ST", UnitKind::Lsu, op::ST).imm(y.wrapping_sub(x)).input(0, Operand::Node(a)).input(1, Operand::Node(f)).fire_count(len));
    g
}

/// `c ← a + b` on elements `start..start+len` (spec §2.3).
pub fn vecadd_graph(start: u32, len: u32, a: u32, b: u32, c: u32) -> AppGraph {
    let mut g = AppGraph::new("vecadd");
    let i = g.add(iadd_stream("IADD", a, start, len));
    let la = g.add(Node::new("LDa", UnitKind::Lsu, op::LD).input(0, Operand::Node(i)).fire_count(len));
    let lb = g.add(Node::new("LDb", UnitKind::Lsu, op::LD).imm(b.wrapping_sub(a)).input(0, Operand::Node(i)).fire_count(len));
    let f = g.add(Node::new("FADD", UnitKind::Core, op::FADD).input(0, Operand::Node(la)).input(1, Operand::Node(lb)).fire_count(len));
    g.add(Node::new("ST", UnitKind::Lsu, op::ST).imm(c.wrapping_sub(a)).input(0, Operand::Node(i)).input(1, Operand::Node(f)).fire_count(len));
    g
}

/// Partial sum of elements `start..start+len` into `out[copy]` (spec §2.3).
pub fn reduce_graph(start: u32, len: u32, x: u32, out: u32, copy: u32) -> AppGraph {
    let mut g = AppGraph::new("reduce");
    let i = g.add(iadd_stream("IADD_in", x, start, len));
    let l = g.add(Node::new("LD", UnitKind::Lsu, op::LD).input(0, Operand::Node(i)).fire_count(len));
    let f = g.add(Node::new("FADD", UnitKind::Core, op::FADD).input(0, Operand::Node(l)).input(1, Operand::SelfLoop).init(1, 1, F32_ZERO).fire_count(len).last_only());
    let o = g.add(iadd_stream("IADD_out", out, copy, 1));
    g.add(Node::new("ST", UnitKind::Lsu, op::ST).input(0, Operand::Node(o)).input(1, Operand::Node(f)).fire_count(1));
    g
}

/// The structure of an app's graph (for placement; parameters are placeholders).
pub fn template(kind: AppKind, image: u32) -> AppGraph {
    match kind {
        AppKind::Conv3x3 => conv_graph(&gaussian3(), image, Band { r0: 1, rows: 1 }, 0, 0),
        AppKind::Conv5x5 => conv_graph(&gaussian5(), image, Band { r0: 2, rows: 1 }, 0, 0),
        AppKind::Saxpy => saxpy_graph(0, 1, 0, 0),
        AppKind::Vecadd => vecadd_graph(0, 1, 0, 0, 0),
        AppKind::Reduce => reduce_graph(0, 1, 0, 0, 0),
    }
}

/// The `GpuccConfig::validate` hook: if the config names an app, it must map
/// (lanes, positions, initial tokens, copies, 32-bit lanes).
pub fn check_fits(cfg: &GpuccConfig) -> Result<(), FieldError> {
    let Some(app) = cfg.app else { return Ok(()) };
    plan(cfg, app.kind, app.image, app.copies).map(|_| ()).map_err(|e| e.field_error())
}

/// Placement and copy count of an app on a config.
pub fn plan(cfg: &GpuccConfig, kind: AppKind, image: u32, copies: Option<u32>) -> Result<(AppGraph, mapper::Placement, u32), MapError> {
    let t = template(kind, image);
    if cfg.data_width < 32 {
        return Err(MapError::DataWidth { app: t.name.clone(), have: cfg.data_width });
    }
    let pl = mapper::place(&t, cfg)?;
    let n = copies.unwrap_or(pl.max_copies);
    if n > pl.max_copies {
        return Err(MapError::Copies { app: t.name.clone(), want: n, max: pl.max_copies });
    }
    Ok((t, pl, n))
}

/// Round up to a multiple of 4 KiB.
fn align4k(x: u64) -> u64 {
    x.div_ceil(4096) * 4096
}

/// Sentinel every output word starts as.
pub const SENTINEL: u32 = 0xFFFF_FFFF;

/// Pseudo-random input values: multiples of 2^-24 in [0, 1).
pub fn random_values(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n).map(|_| (rng.random::<u32>() >> 8) as f32 / (1u32 << 24) as f32).collect()
}

/// What a run computes and how to check it.
#[derive(Debug, Clone)]
pub struct Workload {
    pub kind: AppKind,
    pub image: u32,
    /// Initial backing store.
    pub memory: Backing,
    /// Graph of every copy in global copy order (`sm * copies + c`); None = no work.
    pub copies: Vec<Option<AppGraph>>,
    /// Work items the throughput is counted in (pixels of the whole image, or
    /// vector elements), as the paper counts 512×512 pixels.
    pub items: u64,
    /// The paper's minimum DRAM traffic: every input read once, every output written
    /// once (bytes).
    pub min_dram_bytes: u64,
    expected: Expected,
}

/// Reference outputs: (byte address, f32 reference bits, f64 reference, taps).
#[derive(Debug, Clone)]
struct Expected {
    words: Vec<(u32, u32, f64)>,
    taps: u32,
}

/// Result of comparing the final memory against the references.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CheckReport {
    /// Outputs compared (interior pixels for convolutions).
    pub compared: u64,
    /// Outputs differing from the same-order f32 loop.
    pub mismatches_f32: u64,
    pub bit_identical_f32: bool,
    pub first_mismatch: Option<String>,
    /// Largest |golden − f64| in f32 ulps of the f64 value.
    pub max_ulps_vs_f64: f64,
    pub max_abs_vs_f64: f64,
    /// Allowed ulps vs f64 (= taps).
    pub tolerance_ulps: u32,
    pub within_tolerance: bool,
    pub pass: bool,
}

/// Size of one f32 ulp at `x`.
pub fn ulp_f32(x: f64) -> f64 {
    let f = (x as f32).abs();
    if f == 0.0 || !f.is_normal() {
        return f32::MIN_POSITIVE as f64;
    }
    (f32::from_bits(f.to_bits() + 1) - f) as f64
}

/// f32 direct convolution with the mapping's operation order: per kernel row an FMUL
/// and FMADs left to right, then the rows summed top to bottom. Interior pixels
/// only (border = NaN).
pub fn conv_ref_f32(img: &[f32], w: usize, h: usize, k: &ConvKernel) -> Vec<f32> {
    let r = k.r as isize;
    let mut out = vec![f32::NAN; w * h];
    for y in r..h as isize - r {
        for x in r..w as isize - r {
            let px = |dy: isize, dx: isize| img[((y + dy) * w as isize + x + dx) as usize];
            let mut sum: Option<f32> = None;
            for dy in -r..=r {
                let mut s = px(dy, -r) * k.at(dy, -r);
                for dx in -r + 1..=r {
                    s = px(dy, dx).mul_add(k.at(dy, dx), s);
                }
                sum = Some(match sum {
                    None => s,
                    Some(a) => a + s,
                });
            }
            out[(y * w as isize + x) as usize] = sum.unwrap_or(0.0);
        }
    }
    out
}

/// f64 direct convolution, natural order (Eq. 1).
pub fn conv_ref_f64(img: &[f32], w: usize, h: usize, k: &ConvKernel) -> Vec<f64> {
    let r = k.r as isize;
    let mut out = vec![f64::NAN; w * h];
    for y in r..h as isize - r {
        for x in r..w as isize - r {
            let mut s = 0.0f64;
            for dy in -r..=r {
                for dx in -r..=r {
                    s += img[((y + dy) * w as isize + x + dx) as usize] as f64 * k.at(dy, dx) as f64;
                }
            }
            out[(y * w as isize + x) as usize] = s;
        }
    }
    out
}

fn put_f32s(bytes: &mut [u8], base: u64, vals: impl Iterator<Item = u32>) {
    for (i, v) in vals.enumerate() {
        let a = base as usize + 4 * i;
        bytes[a..a + 4].copy_from_slice(&v.to_le_bytes());
    }
}

impl Workload {
    /// Build the data and per-copy graphs of `kind` for `total_copies` copies.
    /// `kernel` overrides the Gaussian of a convolution (same radius rules).
    pub fn new(kind: AppKind, image: u32, total_copies: u32, seed: u64, kernel: Option<&ConvKernel>) -> Workload {
        match kind {
            AppKind::Conv3x3 | AppKind::Conv5x5 => {
                let k = kernel.cloned().unwrap_or_else(|| if kind == AppKind::Conv3x3 { gaussian3() } else { gaussian5() });
                Self::conv(kind, image, total_copies, seed, &k)
            }
            AppKind::Saxpy | AppKind::Vecadd | AppKind::Reduce => Self::vector(kind, image, total_copies, seed),
        }
    }

    fn conv(kind: AppKind, image: u32, total: u32, seed: u64, k: &ConvKernel) -> Workload {
        let (w, h) = (image as usize, image as usize);
        let r = k.r as u32;
        let img = random_values(w * h, seed);
        let in_base = 4096u64;
        let out_base = align4k(in_base + 4 * (w * h) as u64 + 4096);
        let size = out_base + 4 * (w * h) as u64 + 4096;
        let mut bytes = vec![0u8; size as usize];
        put_f32s(&mut bytes, in_base, img.iter().map(|v| v.to_bits()));
        put_f32s(&mut bytes, out_base, std::iter::repeat_n(SENTINEL, w * h));
        let interior = image.saturating_sub(2 * r);
        let copies = split(r, interior, total).into_iter().map(|b| (b.rows > 0).then(|| conv_graph(k, image, b, in_base as u32, out_base as u32))).collect();
        let r32 = conv_ref_f32(&img, w, h, k);
        let r64 = conv_ref_f64(&img, w, h, k);
        let ri = k.r;
        let mut words = Vec::new();
        for y in ri..h.saturating_sub(ri) {
            for x in ri..w.saturating_sub(ri) {
                let i = y * w + x;
                words.push(((out_base + 4 * i as u64) as u32, r32[i].to_bits(), r64[i]));
            }
        }
        Workload { kind, image, memory: Backing::new(bytes), copies, items: (w * h) as u64, min_dram_bytes: 8 * (w * h) as u64, expected: Expected { words, taps: k.taps() } }
    }

    fn vector(kind: AppKind, n: u32, total: u32, seed: u64) -> Workload {
        let nn = n as usize;
        let a = 4096u64;
        let b = align4k(a + 4 * nn as u64 + 4096);
        let c = align4k(b + 4 * nn as u64 + 4096);
        let size = c + 4 * nn.max(total as usize) as u64 + 4096;
        let mut bytes = vec![0u8; size as usize];
        let xa = random_values(nn, seed);
        let xb = random_values(nn, seed ^ 0x9E37_79B9_7F4A_7C15);
        put_f32s(&mut bytes, a, xa.iter().map(|v| v.to_bits()));
        let chunks = split(0, n, total);
        let mut words = Vec::new();
        let (copies, items, min_bytes, taps): (Vec<Option<AppGraph>>, u64, u64, u32) = match kind {
            AppKind::Saxpy => {
                put_f32s(&mut bytes, b, xb.iter().map(|v| v.to_bits()));
                for i in 0..nn {
                    words.push(((b + 4 * i as u64) as u32, xa[i].mul_add(SAXPY_ALPHA, xb[i]).to_bits(), xa[i] as f64 * SAXPY_ALPHA as f64 + xb[i] as f64));
                }
                let g = chunks.iter().map(|ch| (ch.rows > 0).then(|| saxpy_graph(ch.r0, ch.rows, a as u32, b as u32))).collect();
                (g, n as u64, 12 * n as u64, 1)
            }
            AppKind::Vecadd => {
                put_f32s(&mut bytes, b, xb.iter().map(|v| v.to_bits()));
                put_f32s(&mut bytes, c, std::iter::repeat_n(SENTINEL, nn));
                for i in 0..nn {
                    words.push(((c + 4 * i as u64) as u32, (xa[i] + xb[i]).to_bits(), xa[i] as f64 + xb[i] as f64));
                }
                let g = chunks.iter().map(|ch| (ch.rows > 0).then(|| vecadd_graph(ch.r0, ch.rows, a as u32, b as u32, c as u32))).collect();
                (g, n as u64, 12 * n as u64, 1)
            }
            _ => {
                put_f32s(&mut bytes, c, std::iter::repeat_n(SENTINEL, total as usize));
                let mut g = Vec::new();
                let mut taps = 1;
                for (ci, ch) in chunks.iter().enumerate() {
                    if ch.rows == 0 {
                        g.push(None);
                        continue;
                    }
                    let (mut acc, mut acc64) = (0.0f32, 0.0f64);
                    for v in &xa[ch.r0 as usize..(ch.r0 + ch.rows) as usize] {
                        acc += *v; // FADD(x, acc): IEEE addition commutes bit-exactly
                        acc64 += *v as f64;
                    }
                    taps = taps.max(ch.rows);
                    words.push(((c + 4 * ci as u64) as u32, acc.to_bits(), acc64));
                    g.push(Some(reduce_graph(ch.r0, ch.rows, a as u32, c as u32, ci as u32)));
                }
                let used = g.iter().flatten().count() as u64;
                (g, n as u64, 4 * n as u64 + 4 * used, taps)
            }
        };
        Workload { kind, image: n, memory: Backing::new(bytes), copies, items, min_dram_bytes: min_bytes, expected: Expected { words, taps } }
    }

    /// Compare a final memory image against the references.
    pub fn check(&self, mem: &Backing) -> CheckReport {
        let mut rep = CheckReport {
            compared: 0,
            mismatches_f32: 0,
            bit_identical_f32: true,
            first_mismatch: None,
            max_ulps_vs_f64: 0.0,
            max_abs_vs_f64: 0.0,
            tolerance_ulps: self.expected.taps,
            within_tolerance: true,
            pass: false,
        };
        for &(addr, want, r64) in &self.expected.words {
            rep.compared += 1;
            let got = mem.read32(addr).unwrap_or(SENTINEL);
            if got != want {
                rep.mismatches_f32 += 1;
                if rep.first_mismatch.is_none() {
                    rep.first_mismatch = Some(format!("word at {addr:#x}: golden {got:#010x} ({}), f32 reference {want:#010x} ({})", f32::from_bits(got), f32::from_bits(want)));
                }
            }
            let g = f32::from_bits(got) as f64;
            let err = (g - r64).abs();
            let ulps = if err.is_nan() { f64::INFINITY } else { err / ulp_f32(r64) };
            rep.max_abs_vs_f64 = rep.max_abs_vs_f64.max(if err.is_nan() { f64::INFINITY } else { err });
            rep.max_ulps_vs_f64 = rep.max_ulps_vs_f64.max(ulps);
        }
        rep.bit_identical_f32 = rep.mismatches_f32 == 0;
        rep.within_tolerance = rep.max_ulps_vs_f64 <= self.expected.taps as f64;
        rep.pass = rep.compared > 0 && rep.bit_identical_f32 && rep.within_tolerance;
        rep
    }
}
