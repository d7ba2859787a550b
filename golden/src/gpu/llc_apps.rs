//! Rust references of the LLC-Compute paper's GPGPU workloads that the other suites do
//! not cover (`workloads/{fdtd, mvt, scp, red}`, spec §4.2 Table 3): PolyBench's fdtd-2d
//! and mvt, the CUDA SDK's scalarProd and SHOC's reduction as RED-Hybrid2. Each is a
//! plain loop nest, independent of the PTX, with the PTX's floating-point operation order
//! (`fma.rn` is `mul_add`; `mul.rn` then `add` round twice, as Rust's `*` then `+`), so
//! every check is exact.

use super::host::{HostBuffer, HostBuffers};
use super::reference_inputs::{f32s, need, uparam_in, Params};

/// Names of these references (appended to [`super::workloads::REFERENCES`]).
pub const NAMES: &[&str] = &["fdtd2d", "mvt", "scalar_prod", "reduce_hybrid2"];

/// Run reference `name`; returns the expected output buffers.
pub fn reference(name: &str, b: &HostBuffers, p: &Params) -> Result<HostBuffers, String> {
    let outs = match name {
        "fdtd2d" => fdtd2d(b, p)?,
        "mvt" => mvt(b, p)?,
        "scalar_prod" => scalar_prod(b, p)?,
        "reduce_hybrid2" => reduce_hybrid2(b, p)?,
        other => return Err(format!("no reference implementation `{other}`")),
    };
    Ok(outs.into_iter().map(|h| (h.name.clone(), h)).collect())
}

/// PolyBench fdtd-2d, `steps` time steps over ex (nx x (ny + 1)), ey ((nx + 1) x ny) and
/// hz (nx x ny): ey's row 0 takes fict[t], its other rows `ey - 0.5 (hz - hz above)`;
/// ex's columns 1.. `ex - 0.5 (hz - hz left)`; hz `hz - 0.7 (((ex right - ex) + ey below)
/// - ey)`; each product-difference fused.
fn fdtd2d(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let nx = uparam_in(p, "nx", 1, 1 << 12)?;
    let ny = uparam_in(p, "ny", 1, 1 << 12)?;
    let steps = uparam_in(p, "steps", 0, 1 << 12)?;
    let (fict, mut ex, mut ey, mut hz) = (f32s(b, "fict")?, f32s(b, "ex")?, f32s(b, "ey")?, f32s(b, "hz")?);
    need(fict.len(), steps, "fict")?;
    need(ex.len(), nx * (ny + 1), "ex")?;
    need(ey.len(), (nx + 1) * ny, "ey")?;
    need(hz.len(), nx * ny, "hz")?;
    for &f in &fict[..steps] {
        ey[..ny].fill(f);
        for i in 1..nx {
            for j in 0..ny {
                let d = hz[i * ny + j] - hz[(i - 1) * ny + j];
                ey[i * ny + j] = d.mul_add(-0.5, ey[i * ny + j]);
            }
        }
        for i in 0..nx {
            for j in 1..ny {
                let d = hz[i * ny + j] - hz[i * ny + j - 1];
                ex[i * (ny + 1) + j] = d.mul_add(-0.5, ex[i * (ny + 1) + j]);
            }
        }
        for i in 0..nx {
            for j in 0..ny {
                let d = ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j];
                hz[i * ny + j] = d.mul_add(-0.7, hz[i * ny + j]);
            }
        }
    }
    Ok(vec![HostBuffer::from_f32("ex", &ex), HostBuffer::from_f32("ey", &ey), HostBuffer::from_f32("hz", &hz)])
}

/// PolyBench mvt: x1[i] += A[i][j] y1[j] and x2[i] += A[j][i] y2[j], j ascending, each
/// product rounded before the add (the paper's mul + add rewrite).
fn mvt(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let n = uparam_in(p, "n", 0, 1 << 13)?;
    let (a, mut x1, mut x2, y1, y2) = (f32s(b, "a")?, f32s(b, "x1")?, f32s(b, "x2")?, f32s(b, "y1")?, f32s(b, "y2")?);
    need(a.len(), n * n, "a")?;
    need(x1.len().min(x2.len()).min(y1.len()).min(y2.len()), n, "x1/x2/y1/y2")?;
    for i in 0..n {
        for j in 0..n {
            x1[i] += a[i * n + j] * y1[j];
        }
    }
    for i in 0..n {
        for j in 0..n {
            x2[i] += a[j * n + i] * y2[j];
        }
    }
    Ok(vec![HostBuffer::from_f32("x1", &x1), HostBuffer::from_f32("x2", &x2)])
}

/// The CUDA SDK's ACCUM_N: accumulators per vector.
const ACCUM_N: usize = 1024;

/// CUDA SDK scalarProd: for each vector, accumulator k sums the products of elements
/// k, k + 1024, ... in order, then the 1024 accumulators are added pairwise (stride
/// 512, 256, ..., 1) into accumulator 0.
fn scalar_prod(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let vectors = uparam_in(p, "vectors", 0, 1 << 16)?;
    let elements = uparam_in(p, "elements", 0, 1 << 20)?;
    let (a, bb, mut c) = (f32s(b, "a")?, f32s(b, "b")?, f32s(b, "c")?);
    need(a.len().min(bb.len()), vectors * elements, "a/b")?;
    need(c.len(), vectors, "c")?;
    for (v, cv) in c.iter_mut().enumerate().take(vectors) {
        let base = v * elements;
        let mut acc: Vec<f32> = (0..ACCUM_N).map(|k| (k..elements).step_by(ACCUM_N).fold(0.0f32, |s, e| s + a[base + e] * bb[base + e])).collect();
        tree(&mut acc);
        *cv = acc[0];
    }
    Ok(vec![HostBuffer::from_f32("c", &c)])
}

/// `s[t] += s[t + h]` for t < h, h = len / 2, ..., 1 (a power-of-two length).
fn tree(s: &mut [f32]) {
    let mut h = s.len() / 2;
    while h > 0 {
        for t in 0..h {
            s[t] += s[t + h];
        }
        h /= 2;
    }
}

/// SHOC's reduce<float, 256> block size.
const RED_BLOCK: usize = 256;

/// One RED-Hybrid2 launch of `blocks` threadblocks over `input`: thread t of block k sums
/// (g[i] + g[i + 256]) for i = 512 k + t, stepping 512 blocks, while i + 256 < n, then
/// g[i] if i < n; the block's 256 sums are reduced by [`tree`] (the global and the shared
/// levels add the same pairs).
fn hybrid2_pass(input: &[f32], blocks: usize) -> Vec<f32> {
    let n = input.len();
    let grid_size = 2 * RED_BLOCK * blocks;
    (0..blocks)
        .map(|k| {
            let mut s: Vec<f32> = (0..RED_BLOCK)
                .map(|t| {
                    let mut i = 2 * RED_BLOCK * k + t;
                    let mut sum = 0.0f32;
                    while i + RED_BLOCK < n {
                        sum += input[i] + input[i + RED_BLOCK];
                        i += grid_size;
                    }
                    if i < n {
                        sum += input[i];
                    }
                    sum
                })
                .collect();
            tree(&mut s);
            s[0]
        })
        .collect()
}

/// SHOC reduction as RED-Hybrid2, SHOC's two launches: `blocks` partial sums of the `n`
/// inputs, then one threadblock over them.
fn reduce_hybrid2(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let n = uparam_in(p, "n", 0, 1 << 28)?;
    let blocks = uparam_in(p, "blocks", 1, 1 << 16)?;
    let input = f32s(b, "input")?;
    need(input.len(), n, "input")?;
    need(f32s(b, "partial")?.len(), blocks, "partial")?;
    need(f32s(b, "total")?.len(), 1, "total")?;
    let partial = hybrid2_pass(&input[..n], blocks);
    let total = hybrid2_pass(&partial, 1);
    let mut out_partial = f32s(b, "partial")?;
    out_partial[..blocks].copy_from_slice(&partial);
    let mut out_total = f32s(b, "total")?;
    out_total[0] = total[0];
    Ok(vec![HostBuffer::from_f32("partial", &out_partial), HostBuffer::from_f32("total", &out_total)])
}
