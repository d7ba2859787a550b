//! Rust reference implementations of the shipped workloads (`workloads/*`), used by a
//! launch file's `[check]` to validate the simulated kernels. Each computes, from the
//! launch's initial buffers and `[check.params]`, the expected contents of the output
//! buffers, with the same floating-point operation order as the PTX (so most checks are
//! exact: `fma.rn` is `mul_add`, `ex2.approx` is `exp2`, `rcp.rn` is `1.0 / x`).

use std::collections::BTreeMap;

use super::host::{HostBuffer, HostBuffers};
use super::reference_inputs::{f32s, i32s, need, param, product, u32s, uparam, uparam_in, Params};

/// Names a `[check] reference = "..."` may use.
pub const REFERENCES: &[&str] =
    &concat_names::<{ BASE_REFERENCES.len() + super::suite::NAMES.len() + super::llc_apps::NAMES.len() }>(&[BASE_REFERENCES, super::suite::NAMES, super::llc_apps::NAMES]);

/// The references implemented in this module; the Rodinia-class suite's and the
/// LLC-Compute workloads' ([`super::llc_apps`]) follow.
const BASE_REFERENCES: &[&str] = &[
    "vecadd",
    "saxpy",
    "triad",
    "copy",
    "reduce",
    "transpose",
    "conv2d",
    "matvec",
    "bfs",
    "kmeans",
    "backprop",
    "bpnn_layerforward",
    "stencil",
    "prodcons",
    "tpacf",
    "heartwall",
    "dwt53",
    "floyd_warshall",
    "compare",
    "density",
    "norm",
];

/// The lists one after the other (`N` is their total length).
const fn concat_names<const N: usize>(lists: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut k, mut i) = (0, 0);
    while k < lists.len() {
        let mut j = 0;
        while j < lists[k].len() {
            out[i] = lists[k][j];
            i += 1;
            j += 1;
        }
        k += 1;
    }
    assert!(i == N, "N is the total length of the lists");
    out
}

/// Run reference `name`; returns the expected output buffers.
pub fn reference(name: &str, b: &HostBuffers, p: &Params) -> Result<HostBuffers, String> {
    let mut out = BTreeMap::new();
    let mut put = |h: HostBuffer| {
        out.insert(h.name.clone(), h);
    };
    match name {
        // c[i] = a[i] + b[i]
        "vecadd" => {
            let n = uparam(p, "n")?;
            let (a, bb, mut c) = (f32s(b, "a")?, f32s(b, "b")?, f32s(b, "c")?);
            need(a.len().min(bb.len()).min(c.len()), n, "a/b/c")?;
            for i in 0..n {
                c[i] = a[i] + bb[i];
            }
            put(HostBuffer::from_f32("c", &c));
        }
        // y[i] = alpha * x[i] + y[i] (fused)
        "saxpy" => {
            let n = uparam(p, "n")?;
            let alpha = param(p, "alpha")? as f32;
            let (x, mut y) = (f32s(b, "x")?, f32s(b, "y")?);
            need(x.len().min(y.len()), n, "x/y")?;
            for i in 0..n {
                y[i] = alpha.mul_add(x[i], y[i]);
            }
            put(HostBuffer::from_f32("y", &y));
        }
        // STREAM triad: a[i] = b[i] + s * c[i] (fused)
        "triad" => {
            let n = uparam(p, "n")?;
            let s = param(p, "s")? as f32;
            let (mut a, bb, c) = (f32s(b, "a")?, f32s(b, "b")?, f32s(b, "c")?);
            need(a.len().min(bb.len()).min(c.len()), n, "a/b/c")?;
            for i in 0..n {
                a[i] = s.mul_add(c[i], bb[i]);
            }
            put(HostBuffer::from_f32("a", &a));
        }
        // out[i] = in[i * stride]
        "copy" => {
            let n = uparam(p, "n")?;
            let stride = uparam(p, "stride")?;
            let (src, mut dst) = (u32s(b, "src")?, u32s(b, "dst")?);
            need(dst.len(), n, "dst")?;
            need(src.len(), product(&[n.max(1) - 1, stride], "n x stride")?.saturating_add(1), "src")?;
            for i in 0..n {
                dst[i] = src[i * stride];
            }
            put(HostBuffer::from_u32("dst", &dst));
        }
        // LLC-Compute COMPARE: mismatches[0] += |{i < n : a[i] != b[i]}|
        "compare" => {
            let n = uparam(p, "n")?;
            let (a, bb, mut m) = (u32s(b, "a")?, u32s(b, "b")?, u32s(b, "mismatches")?);
            need(a.len().min(bb.len()), n, "a/b")?;
            need(m.len(), 1, "mismatches")?;
            m[0] = m[0].wrapping_add((0..n).filter(|&i| a[i] != bb[i]).count() as u32);
            put(HostBuffer::from_u32("mismatches", &m));
        }
        // LLC-Compute DENSITY: zeros[0] += |{i < n : a[i] == 0}|
        "density" => {
            let n = uparam(p, "n")?;
            let (a, mut z) = (u32s(b, "a")?, u32s(b, "zeros")?);
            need(a.len(), n, "a")?;
            need(z.len(), 1, "zeros")?;
            z[0] = z[0].wrapping_add(a[..n].iter().filter(|&&v| v == 0).count() as u32);
            put(HostBuffer::from_u32("zeros", &z));
        }
        // LLC-Compute NORM: a[i] = a[i] / s (IEEE division, as div.rn.f32)
        "norm" => {
            let n = uparam(p, "n")?;
            let s = param(p, "s")? as f32;
            let mut a = f32s(b, "a")?;
            need(a.len(), n, "a")?;
            for v in &mut a[..n] {
                *v /= s;
            }
            put(HostBuffer::from_f32("a", &a));
        }
        // per-CTA tree reduction in shared memory: partial[cta] (same order as the PTX)
        "reduce" => {
            let n = uparam(p, "n")?;
            let block = uparam(p, "block")?;
            if !(1..=1024).contains(&block) {
                return Err(format!("`check.params.block` = {block} is not a CTA size in 1..=1024"));
            }
            let input = f32s(b, "input")?;
            need(input.len(), n, "input")?;
            let ctas = n.div_ceil(block);
            let mut partial = f32s(b, "partial")?;
            need(partial.len(), ctas, "partial")?;
            for c in 0..ctas {
                let mut s: Vec<f32> = (0..block).map(|t| if c * block + t < n { input[c * block + t] } else { 0.0 }).collect();
                let mut half = block / 2;
                while half > 0 {
                    for t in 0..half {
                        s[t] += s[t + half];
                    }
                    half /= 2;
                }
                partial[c] = s[0];
            }
            put(HostBuffer::from_f32("partial", &partial));
        }
        // out[x * height + y] = in[y * width + x]
        "transpose" => {
            let (w, h) = (uparam(p, "width")?, uparam(p, "height")?);
            if w == 0 || h == 0 {
                return Err(format!("`check.params.width` x `height` = {w} x {h}: both must be >= 1"));
            }
            let (src, mut dst) = (u32s(b, "src")?, u32s(b, "dst")?);
            need(src.len().min(dst.len()), product(&[w, h], "width x height")?, "src/dst")?;
            for y in 0..h {
                for x in 0..w {
                    dst[x * h + y] = src[y * w + x];
                }
            }
            put(HostBuffer::from_u32("dst", &dst));
        }
        // zero-padded (2r+1)^2 convolution, taps in row-major order, fused accumulate
        "conv2d" => {
            let (w, h, r) = (uparam(p, "width")?, uparam(p, "height")?, uparam(p, "radius")?);
            let (img, wts, mut dst) = (f32s(b, "image")?, f32s(b, "weights")?, f32s(b, "out")?);
            if r > 1024 {
                return Err(format!("`check.params.radius` = {r} is out of range 0..=1024"));
            }
            let k = 2 * r + 1;
            need(img.len().min(dst.len()), product(&[w, h], "width x height")?, "image/out")?;
            need(wts.len(), k * k, "weights")?;
            for y in 0..h as i64 {
                for x in 0..w as i64 {
                    let mut acc = 0.0f32;
                    for dy in -(r as i64)..=r as i64 {
                        for dx in -(r as i64)..=r as i64 {
                            let (yy, xx) = (y + dy, x + dx);
                            if yy >= 0 && yy < h as i64 && xx >= 0 && xx < w as i64 {
                                let wv = wts[((dy + r as i64) * k as i64 + dx + r as i64) as usize];
                                acc = img[(yy * w as i64 + xx) as usize].mul_add(wv, acc);
                            }
                        }
                    }
                    dst[(y * w as i64 + x) as usize] = acc;
                }
            }
            put(HostBuffer::from_f32("out", &dst));
        }
        // y[r] = sum_j A[r * cols + j] * x[j], fused, j ascending
        "matvec" => {
            let (rows, cols) = (uparam(p, "rows")?, uparam(p, "cols")?);
            let (a, x, mut y) = (f32s(b, "a")?, f32s(b, "x")?, f32s(b, "y")?);
            need(a.len(), product(&[rows, cols], "rows x cols")?, "a")?;
            need(x.len(), cols, "x")?;
            need(y.len(), rows, "y")?;
            for r in 0..rows {
                let mut acc = 0.0f32;
                for j in 0..cols {
                    acc = a[r * cols + j].mul_add(x[j], acc);
                }
                y[r] = acc;
            }
            put(HostBuffer::from_f32("y", &y));
        }
        // BFS levels from node 0 (0xffffffff = unreached)
        "bfs" => {
            let n = uparam(p, "nodes")?;
            let (off, cols) = (u32s(b, "row_offsets")?, u32s(b, "columns")?);
            need(off.len(), n + 1, "row_offsets")?;
            // a file-filled graph may hold anything: offsets must be a CSR of n nodes
            if n == 0 {
                return Err("`check.params.nodes` = 0: BFS starts at node 0".into());
            }
            if off[..=n].windows(2).any(|w| w[0] > w[1]) || off[n] as usize > cols.len() {
                return Err(format!("`row_offsets` is not a CSR offset array over {} columns", cols.len()));
            }
            if let Some(c) = cols[..off[n] as usize].iter().find(|&&c| c as usize >= n) {
                return Err(format!("`columns` holds node {c}, not below nodes = {n}"));
            }
            let mut level = vec![u32::MAX; n];
            let mut frontier = vec![0usize];
            level[0] = 0;
            let mut d = 0;
            while !frontier.is_empty() {
                let mut next = Vec::new();
                for &v in &frontier {
                    for &c in &cols[off[v] as usize..off[v + 1] as usize] {
                        let u = c as usize;
                        if level[u] == u32::MAX {
                            level[u] = d + 1;
                            next.push(u);
                        }
                    }
                }
                frontier = next;
                d += 1;
            }
            put(HostBuffer::from_u32("levels", &level));
        }
        // membership[p] = argmin_c sum_f (features[f * points + p] - centroids[c * nf + f])^2
        "kmeans" => {
            let (np, nf, k) = (uparam(p, "points")?, uparam(p, "features")?, uparam(p, "clusters")?);
            if nf == 0 || k == 0 {
                return Err(format!("`check.params.features` = {nf}, `clusters` = {k}: both must be >= 1"));
            }
            let (feat, cent, mut mem) = (f32s(b, "features")?, f32s(b, "centroids")?, u32s(b, "membership")?);
            need(feat.len(), product(&[np, nf], "points x features")?, "features")?;
            need(cent.len(), product(&[k, nf], "clusters x features")?, "centroids")?;
            need(mem.len(), np, "membership")?;
            for pt in 0..np {
                let mut best = f32::MAX;
                let mut idx = 0u32;
                for c in 0..k {
                    let mut dist = 0.0f32;
                    for f in 0..nf {
                        let d = feat[f * np + pt] - cent[c * nf + f];
                        dist = d.mul_add(d, dist);
                    }
                    if dist < best {
                        best = dist;
                        idx = c as u32;
                    }
                }
                mem[pt] = idx;
            }
            put(HostBuffer::from_u32("membership", &mem));
        }
        // out[j] = sigmoid(bias[j] + sum_i in[i] * w[i * nout + j]); sigmoid via ex2 and rcp
        "backprop" => {
            let (nin, nout) = (uparam(p, "inputs")?, uparam(p, "outputs")?);
            let (inp, w, bias, mut out) = (f32s(b, "input")?, f32s(b, "weights")?, f32s(b, "bias")?, f32s(b, "output")?);
            need(inp.len(), nin, "input")?;
            need(w.len(), product(&[nin, nout], "inputs x outputs")?, "weights")?;
            need(bias.len().min(out.len()), nout, "bias/output")?;
            let neg_log2e = f32::from_bits(0xBFB8_AA3B);
            for j in 0..nout {
                let mut acc = bias[j];
                for i in 0..nin {
                    acc = inp[i].mul_add(w[i * nout + j], acc);
                }
                let e = (acc * neg_log2e).exp2();
                out[j] = 1.0 / (e + 1.0);
            }
            put(HostBuffer::from_f32("output", &out));
        }
        // Rodinia bpnn_layerforward: per 16 x 16 block `by`, w[ty][tx] = weights[idx] *
        // input[16 by + ty + 1] with idx = (hid + 1)(16 by + ty + 1) + tx + 1, then a
        // tree sum over ty (level i: rows that are multiples of 2^i add the row 2^(i-1)
        // below); every w[ty][tx] is written back to weights[idx], and column sums
        // w[0][ty] to partial[by * hid + ty] (workloads/backprop/layerforward.ptx)
        "bpnn_layerforward" => {
            let (nin, hid) = (uparam(p, "inputs")?, uparam(p, "hidden")?);
            if nin % 16 != 0 || hid != 16 {
                return Err(format!("bpnn_layerforward: inputs ({nin}) must be a multiple of 16 and hidden 16 (HEIGHT = WIDTH = 16)"));
            }
            let (inp, mut w, mut partial) = (f32s(b, "input")?, f32s(b, "weights")?, f32s(b, "partial")?);
            need(inp.len(), nin + 1, "input")?;
            need(w.len(), product(&[nin + 1, hid + 1], "(inputs + 1) x (hidden + 1)")?, "weights")?;
            need(partial.len(), product(&[nin / 16, hid], "blocks x hidden")?, "partial")?;
            for by in 0..nin / 16 {
                let idx = |ty: usize, tx: usize| (hid + 1) * (16 * by + ty + 1) + tx + 1;
                let mut m = [[0f32; 16]; 16];
                for ty in 0..16 {
                    for tx in 0..16 {
                        m[ty][tx] = w[idx(ty, tx)] * inp[16 * by + ty + 1];
                    }
                }
                for level in 1..=4 {
                    let p2 = 1 << level;
                    for ty in (0..16).step_by(p2) {
                        let (upper, lower) = m.split_at_mut(ty + p2 / 2);
                        for (a, b) in upper[ty].iter_mut().zip(&lower[0]) {
                            *a += *b;
                        }
                    }
                }
                for ty in 0..16 {
                    for tx in 0..16 {
                        w[idx(ty, tx)] = m[ty][tx];
                    }
                    partial[by * hid + ty] = m[0][ty];
                }
            }
            put(HostBuffer::from_f32("weights", &w));
            put(HostBuffer::from_f32("partial", &partial));
        }
        // Parboil stencil: one 7-point Jacobi step on the interior of an nx x ny x nz
        // grid, anext = (((((top + bottom) + left) + right) + up) + down) * c1 - a * c0
        // (workloads/stencil/stencil.ptx; the boundary keeps anext's initial value)
        "stencil" => {
            let (nx, ny, nz) = (uparam(p, "nx")?, uparam(p, "ny")?, uparam(p, "nz")?);
            let (c0, c1) = (param(p, "c0")? as f32, param(p, "c1")? as f32);
            let (a, mut an) = (f32s(b, "a0")?, f32s(b, "anext")?);
            let n = product(&[nx, ny, nz], "nx x ny x nz")?;
            need(a.len().min(an.len()), n, "a0/anext")?;
            let at = |i: usize, j: usize, k: usize| (k * ny + j) * nx + i;
            for k in 1..nz.saturating_sub(1) {
                for j in 1..ny.saturating_sub(1) {
                    for i in 1..nx.saturating_sub(1) {
                        let s = a[at(i, j, k + 1)] + a[at(i, j, k - 1)] + a[at(i - 1, j, k)] + a[at(i + 1, j, k)] + a[at(i, j - 1, k)] + a[at(i, j + 1, k)];
                        an[at(i, j, k)] = s * c1 - a[at(i, j, k)] * c0;
                    }
                }
            }
            put(HostBuffer::from_f32("anext", &an));
        }
        // producers: data[i] = 3 * in[i] + 1; consumers: out[i] = data[i] ^ (data[i] >> 3),
        // count = n, every flag set
        "prodcons" => {
            let n = uparam(p, "n")?;
            let (inp, mut data, mut outv) = (u32s(b, "input")?, u32s(b, "data")?, u32s(b, "out")?);
            need(inp.len().min(data.len()).min(outv.len()), n, "input/data/out")?;
            let mut flags = u32s(b, "flags")?;
            for i in 0..n {
                data[i] = inp[i].wrapping_mul(3).wrapping_add(1);
                outv[i] = data[i] ^ (data[i] >> 3);
            }
            for f in flags.iter_mut() {
                *f = 1;
            }
            put(HostBuffer::from_u32("data", &data));
            put(HostBuffer::from_u32("out", &outv));
            put(HostBuffer::from_u32("flags", &flags));
            put(HostBuffer::from_u32("count", &[n as u32]));
        }
        // Parboil tpacf, by direct loops over the point pairs: threadblock bx's histogram
        // over NUM_BINS = 20 bins (binb decreasing: bin k counts binb[k] > d >= binb[k + 1])
        // of the dot products d; bx <= num_sets: every unordered pair of set bx once,
        // bx > num_sets: set 0 against set bx - num_sets (workloads/tpacf/tpacf.ptx)
        "tpacf" => {
            const BINS: usize = 20;
            let sets = uparam_in(p, "num_sets", 0, 1 << 12)?;
            let n = uparam_in(p, "num_elements", 0, 1 << 16)?;
            let (x, y, z, binb, mut hist) = (f32s(b, "x")?, f32s(b, "y")?, f32s(b, "z")?, f32s(b, "binb")?, u32s(b, "histograms")?);
            need(x.len().min(y.len()).min(z.len()), product(&[sets + 1, n], "(num_sets + 1) x num_elements")?, "x/y/z")?;
            need(binb.len(), BINS + 1, "binb")?;
            need(hist.len(), (2 * sets + 1) * BINS, "histograms")?;
            // data point a against random point r, as the kernel: x first, then fused y, z
            let dot = |a: usize, r: usize| z[a].mul_add(z[r], y[a].mul_add(y[r], x[a] * x[r]));
            for bx in 0..2 * sets + 1 {
                let h = &mut hist[bx * BINS..(bx + 1) * BINS];
                h.fill(0);
                let (data, random) = if bx <= sets { (bx * n, bx * n) } else { (0, (bx - sets) * n) };
                for r in 0..n {
                    let partners = if bx <= sets { 0..r } else { 0..n };
                    for a in partners {
                        let d = dot(data + a, random + r);
                        if let Some(k) = (0..BINS).find(|&k| binb[k] > d && d >= binb[k + 1]) {
                            h[k] += 1;
                        }
                    }
                }
            }
            put(HostBuffer::from_u32("histograms", &hist));
        }
        // Rodinia heartwall, point by point and frame by frame: frame 0's 7 x 7 window at
        // the point is the template; the new location is the best normalised
        // cross-correlation of the template with the windows offset by -6..=6 in each
        // direction (first maximum in row-major offset order), clamped to 9..=size - 10
        // (workloads/heartwall/heartwall.ptx)
        "heartwall" => {
            const T: usize = 7;
            const OFFSETS: usize = 13;
            let points = uparam_in(p, "points", 0, 1 << 16)?;
            let frames = uparam_in(p, "frames", 0, 1 << 12)?;
            let (w, h) = (uparam_in(p, "width", 19, 1 << 14)?, uparam_in(p, "height", 19, 1 << 14)?);
            let (fr, mut tmpl, mut row, mut col) = (f32s(b, "frames")?, f32s(b, "templates")?, u32s(b, "row")?, u32s(b, "col")?);
            need(fr.len(), product(&[frames, h, w], "frames x height x width")?, "frames")?;
            need(tmpl.len(), product(&[points, T * T], "points x 49")?, "templates")?;
            need(row.len().min(col.len()), points, "row/col")?;
            for pt in 0..points {
                for f in 0..frames {
                    let (r0, c0) = (row[pt] as usize, col[pt] as usize);
                    if !(9..=h - 10).contains(&r0) || !(9..=w - 10).contains(&c0) {
                        return Err(format!("heartwall: point {pt} at ({r0}, {c0}) is not in 9..=height - 10 x 9..=width - 10"));
                    }
                    let px = |y: usize, x: usize| fr[(f * h + y) * w + x];
                    let t = &mut tmpl[pt * T * T..(pt + 1) * T * T];
                    if f == 0 {
                        for (i, v) in t.iter_mut().enumerate() {
                            *v = px(r0 - 3 + i / T, c0 - 3 + i % T);
                        }
                    }
                    // template statistics: column sums, then the sum over the columns
                    let (mut sum, mut sqr) = (0f32, 0f32);
                    for c in 0..T {
                        let (mut cs, mut cq) = (0f32, 0f32);
                        for i in 0..T {
                            cs += t[T * i + c];
                            cq = t[T * i + c].mul_add(t[T * i + c], cq);
                        }
                        sum += cs;
                        sqr += cq;
                    }
                    let mean = sum / 49.0;
                    let denom_t = 48f32.sqrt() * (sqr / 49.0 - mean * mean).sqrt();
                    let (mut best, mut best_o) = (f32::MIN, 0);
                    for o in 0..OFFSETS * OFFSETS {
                        let (y0, x0) = (r0 - 9 + o / OFFSETS, c0 - 9 + o % OFFSETS);
                        let (mut s, mut s2, mut conv) = (0f32, 0f32, 0f32);
                        for u in 0..T {
                            for v in 0..T {
                                let a = px(y0 + u, x0 + v);
                                s += a;
                                s2 = a.mul_add(a, s2);
                                conv = a.mul_add(t[T * u + v], conv);
                            }
                        }
                        let corr = (conv - s * mean) / ((s2 - s * s / 49.0).sqrt() * denom_t);
                        if corr > best {
                            (best, best_o) = (corr, o);
                        }
                    }
                    row[pt] = (r0 + best_o / OFFSETS - 6).clamp(9, h - 10) as u32;
                    col[pt] = (c0 + best_o % OFFSETS - 6).clamp(9, w - 10) as u32;
                }
            }
            put(HostBuffer::from_f32("templates", &tmpl));
            put(HostBuffer::from_u32("row", &row));
            put(HostBuffer::from_u32("col", &col));
        }
        // Rodinia dwt2d: one level of the forward 5/3 integer lifting (predict odd
        // x -= (left + right) >> 1, then update even x += (left + right + 2) >> 2) over
        // every row, then every column, with whole-sample symmetric extension (x[-1] =
        // x[1], x[n] = x[n - 2]); then the even (low-pass) half first and the odd half
        // after it, in both directions (workloads/dwt/dwt53.ptx)
        "dwt53" => {
            let (w, h) = (uparam_in(p, "width", 16, 1 << 14)?, uparam_in(p, "height", 16, 1 << 14)?);
            if w % 16 != 0 || h % 16 != 0 {
                return Err(format!("dwt53: width ({w}) and height ({h}) must be multiples of 16 (the tile)"));
            }
            let (inp, mut out) = (i32s(b, "in")?, i32s(b, "out")?);
            need(inp.len().min(out.len()), product(&[w, h], "width x height")?, "in/out")?;
            let lift = |x: &mut [i32]| {
                let n = x.len();
                for i in (1..n).step_by(2) {
                    let right = if i + 1 < n { x[i + 1] } else { x[i - 1] };
                    x[i] = x[i].wrapping_sub(x[i - 1].wrapping_add(right) >> 1);
                }
                for i in (0..n).step_by(2) {
                    let left = if i > 0 { x[i - 1] } else { x[i + 1] };
                    x[i] = x[i].wrapping_add(left.wrapping_add(x[i + 1]).wrapping_add(2) >> 2);
                }
            };
            let mut t = inp[..w * h].to_vec();
            for row in t.chunks_exact_mut(w) {
                lift(row);
            }
            for x in 0..w {
                let mut column: Vec<i32> = (0..h).map(|y| t[y * w + x]).collect();
                lift(&mut column);
                for (y, v) in column.into_iter().enumerate() {
                    t[y * w + x] = v;
                }
            }
            let band = |g: usize, n: usize| if g.is_multiple_of(2) { g / 2 } else { n / 2 + g / 2 };
            for y in 0..h {
                for x in 0..w {
                    out[band(y, h) * w + band(x, w)] = t[y * w + x];
                }
            }
            put(HostBuffer::from_i32("out", &out));
        }
        // all-pairs shortest paths by the plain (unblocked) Floyd-Warshall triple loop on
        // the n x n weight matrix d, in place (workloads/fw_block/fw_block.ptx computes
        // it blocked; with weights >= 0 both give the same distances)
        "floyd_warshall" => {
            let n = uparam_in(p, "n", 0, 1 << 9)?;
            let mut d = u32s(b, "d")?;
            need(d.len(), product(&[n, n], "n x n")?, "d")?;
            for k in 0..n {
                for i in 0..n {
                    for j in 0..n {
                        d[i * n + j] = d[i * n + j].min(d[i * n + k].wrapping_add(d[k * n + j]));
                    }
                }
            }
            put(HostBuffer::from_u32("d", &d));
        }
        other if super::llc_apps::NAMES.contains(&other) => return super::llc_apps::reference(other, b, p),
        other => return super::suite::reference(other, b, p),
    }
    Ok(out)
}
