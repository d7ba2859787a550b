//! Rust references of the Rodinia-class suite (`workloads/{hotspot, pathfinder, srad, nn,
//! gaussian, lavamd, streamcluster, bptree, nw}`): our own kernels written for the golden
//! model, in the same signature style as [`super::workloads::reference`]. Each computes,
//! from a launch's initial buffers and `[check.params]`, the expected contents of the
//! output buffers with the same floating-point operation order as the PTX (`fma.rn` is
//! `mul_add`, `ex2.approx` is `exp2`, `div.rn` and `sqrt.rn` are IEEE), so every check is
//! exact unless its launch file states a tolerance.

use super::host::{HostBuffer, HostBuffers};
use super::reference_inputs::{f32s, fparam, i32s, need, param, u32s, uparam_in as uparam, Params};

/// Names of the suite's references (appended to [`super::workloads::REFERENCES`]).
pub const NAMES: &[&str] = &["hotspot", "pathfinder", "srad", "nn", "gaussian", "lavamd", "streamcluster", "bptree", "nw"];

const MAX_ELEMS: usize = 1 << 26;

/// Run suite reference `name`; returns the expected output buffers.
pub fn reference(name: &str, b: &HostBuffers, p: &Params) -> Result<HostBuffers, String> {
    let outs = match name {
        "hotspot" => hotspot(b, p)?,
        "pathfinder" => pathfinder(b, p)?,
        "srad" => srad(b, p)?,
        "nn" => nn(b, p)?,
        "gaussian" => gaussian(b, p)?,
        "lavamd" => lavamd(b, p)?,
        "streamcluster" => streamcluster(b, p)?,
        "bptree" => bptree(b, p)?,
        "nw" => nw(b, p)?,
        other => return Err(format!("no reference implementation `{other}`")),
    };
    Ok(outs.into_iter().map(|h| (h.name.clone(), h)).collect())
}

/// `steps` thermal steps ping-ponging `temp` -> `temp_next` -> `temp` ...; neighbours
/// clamp to the edge.
fn hotspot(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let rows = uparam(p, "rows", 1, 1 << 13)?;
    let cols = uparam(p, "cols", 1, 1 << 13)?;
    let steps = uparam(p, "steps", 0, 10_000)?;
    let (cap, rx, ry, rz, amb) = (fparam(p, "cap")?, fparam(p, "rx")?, fparam(p, "ry")?, fparam(p, "rz")?, fparam(p, "amb")?);
    let mut bufs = [f32s(b, "temp")?, f32s(b, "temp_next")?];
    let power = f32s(b, "power")?;
    need(bufs[0].len().min(bufs[1].len()).min(power.len()), rows * cols, "temp/temp_next/power")?;
    for step in 0..steps {
        let (s, d) = if step % 2 == 1 { (1, 0) } else { (0, 1) };
        let src = bufs[s].clone();
        let dst = &mut bufs[d];
        for r in 0..rows {
            let (n, so) = (r.saturating_sub(1), (r + 1).min(rows - 1));
            for c in 0..cols {
                let (w, e) = (c.saturating_sub(1), (c + 1).min(cols - 1));
                let t = src[r * cols + c];
                let t2 = t + t;
                let mut acc = ((src[n * cols + c] + src[so * cols + c]) - t2).mul_add(ry, power[r * cols + c]);
                acc = ((src[r * cols + e] + src[r * cols + w]) - t2).mul_add(rx, acc);
                acc = (amb - t).mul_add(rz, acc);
                dst[r * cols + c] = acc.mul_add(cap, t);
            }
        }
    }
    Ok(vec![HostBuffer::from_f32("temp", &bufs[0]), HostBuffer::from_f32("temp_next", &bufs[1])])
}

/// Row-by-row DP `dst[c] = wall[r][c] + min(src[c-1], src[c], src[c+1])` (neighbours
/// clamped at the edges) from `ra` (row 0's costs), `pyramid` rows per launch, launches
/// ping-ponging `ra` -> `rb` -> `ra` ... until row `rows - 1`.
fn pathfinder(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let rows = uparam(p, "rows", 1, 1 << 16)?;
    let cols = uparam(p, "cols", 1, 1 << 20)?;
    let pyramid = uparam(p, "pyramid", 1, 1 << 10)?;
    let wall = i32s(b, "wall")?;
    let mut bufs = [i32s(b, "ra")?, i32s(b, "rb")?];
    need(wall.len(), rows * cols, "wall")?;
    need(bufs[0].len().min(bufs[1].len()), cols, "ra/rb")?;
    let launches = (rows - 1).div_ceil(pyramid);
    for launch in 0..launches {
        let (s, d) = if launch % 2 == 1 { (1, 0) } else { (0, 1) };
        let mut row: Vec<i32> = bufs[s][..cols].to_vec();
        let first = launch * pyramid + 1;
        for r in first..(first + pyramid).min(rows) {
            row = (0..cols)
                .map(|c| {
                    let (w, e) = (c.saturating_sub(1), (c + 1).min(cols - 1));
                    row[w].min(row[c]).min(row[e]).wrapping_add(wall[r * cols + c])
                })
                .collect();
        }
        bufs[d][..cols].copy_from_slice(&row);
    }
    Ok(vec![HostBuffer::from_i32("ra", &bufs[0]), HostBuffer::from_i32("rb", &bufs[1])])
}

/// `iterations` x (srad1: derivatives and the clamped diffusion coefficient; srad2: the
/// divergence update of `image` in place), neighbours clamped to the edge.
fn srad(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let rows = uparam(p, "rows", 1, 1 << 13)?;
    let cols = uparam(p, "cols", 1, 1 << 13)?;
    let iterations = uparam(p, "iterations", 0, 10_000)?;
    let (q0sqr, lambda) = (fparam(p, "q0sqr")?, fparam(p, "lambda")?);
    let mut j = f32s(b, "image")?;
    let mut c = f32s(b, "coef")?;
    let (mut dn, mut ds, mut dw, mut de) = (f32s(b, "dn")?, f32s(b, "ds")?, f32s(b, "dw")?, f32s(b, "de")?);
    let n = rows * cols;
    need([j.len(), c.len(), dn.len(), ds.len(), dw.len(), de.len()].into_iter().min().unwrap_or(0), n, "image/coef/dn/ds/dw/de")?;
    let north = |y: usize| y.saturating_sub(1);
    let south = |y: usize| (y + 1).min(rows - 1);
    let west = |x: usize| x.saturating_sub(1);
    let east = |x: usize| (x + 1).min(cols - 1);
    for _ in 0..iterations {
        for y in 0..rows {
            for x in 0..cols {
                let k = y * cols + x;
                let jc = j[k];
                let n_ = j[north(y) * cols + x] - jc;
                let s_ = j[south(y) * cols + x] - jc;
                let w_ = j[y * cols + west(x)] - jc;
                let e_ = j[y * cols + east(x)] - jc;
                let g2 = e_.mul_add(e_, w_.mul_add(w_, s_.mul_add(s_, n_ * n_))) / (jc * jc);
                let l = (((n_ + s_) + w_) + e_) / jc;
                let num = g2 * 0.5 - (l * l) * 0.0625;
                let den = l.mul_add(0.25, 1.0);
                let q = num / (den * den);
                let d = (q - q0sqr) / (q0sqr * (q0sqr + 1.0));
                // the PTX's two clamp branches (NaN passes through both)
                c[k] = (1.0 / (d + 1.0)).clamp(0.0, 1.0);
                (dn[k], ds[k], dw[k], de[k]) = (n_, s_, w_, e_);
            }
        }
        for y in 0..rows {
            for x in 0..cols {
                let k = y * cols + x;
                let mut d = c[k] * dn[k];
                d = c[south(y) * cols + x].mul_add(ds[k], d);
                d = c[k].mul_add(dw[k], d);
                d = c[y * cols + east(x)].mul_add(de[k], d);
                j[k] = (lambda * 0.25).mul_add(d, j[k]);
            }
        }
    }
    Ok(vec![
        HostBuffer::from_f32("image", &j),
        HostBuffer::from_f32("coef", &c),
        HostBuffer::from_f32("dn", &dn),
        HostBuffer::from_f32("ds", &ds),
        HostBuffer::from_f32("dw", &dw),
        HostBuffer::from_f32("de", &de),
    ])
}

/// `dist[i] = sqrt((lat[i] - lat0)^2 + (lng[i] - lng0)^2)` (fused as the PTX) and per
/// block of `block` records the nearest one (smallest distance, then smallest index).
fn nn(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let n = uparam(p, "n", 1, MAX_ELEMS)?;
    let block = uparam(p, "block", 1, 1024)?;
    let (lat0, lng0) = (fparam(p, "lat")?, fparam(p, "lng")?);
    let (lat, lng, mut dist) = (f32s(b, "lat")?, f32s(b, "lng")?, f32s(b, "dist")?);
    need(lat.len().min(lng.len()).min(dist.len()), n, "lat/lng/dist")?;
    let ctas = n.div_ceil(block);
    let (mut bd, mut bi) = (f32s(b, "best_dist")?, u32s(b, "best_idx")?);
    need(bd.len().min(bi.len()), ctas, "best_dist/best_idx")?;
    for ((d, la), lo) in dist.iter_mut().zip(&lat).zip(&lng).take(n) {
        let (dx, dy) = (la - lat0, lo - lng0);
        *d = dx.mul_add(dx, dy * dy).sqrt();
    }
    for c in 0..ctas {
        let mut best = (f32::INFINITY, u32::MAX);
        let lo = c * block;
        for (k, &d) in dist[lo..((c + 1) * block).min(n)].iter().enumerate() {
            let i = (lo + k) as u32;
            if d < best.0 || (d == best.0 && i < best.1) {
                best = (d, i);
            }
        }
        (bd[c], bi[c]) = best;
    }
    Ok(vec![HostBuffer::from_f32("dist", &dist), HostBuffer::from_f32("best_dist", &bd), HostBuffer::from_u32("best_idx", &bi)])
}

/// `a[i][i] += boost`, then for t = 0..n-1: Fan1 `m[i][t] = a[i][t] / a[t][t]` (i > t),
/// Fan2 `a[i][j] = fma(-m[i][t], a[t][j], a[i][j])` (i > t, j >= t) and
/// `b[i] = fma(-m[i][t], b[t], b[i])`.
fn gaussian(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let n = uparam(p, "n", 1, 4096)?;
    let boost = fparam(p, "boost")?;
    let (mut a, mut bv, mut m) = (f32s(b, "a")?, f32s(b, "b")?, f32s(b, "m")?);
    need(a.len().min(m.len()), n * n, "a/m")?;
    need(bv.len(), n, "b")?;
    for i in 0..n {
        a[i * n + i] += boost;
    }
    for t in 0..n - 1 {
        for i in t + 1..n {
            m[i * n + t] = a[i * n + t] / a[t * n + t];
        }
        for i in t + 1..n {
            let mul = -m[i * n + t];
            for j in t..n {
                a[i * n + j] = mul.mul_add(a[t * n + j], a[i * n + j]);
            }
            bv[i] = mul.mul_add(bv[t], bv[i]);
        }
    }
    Ok(vec![HostBuffer::from_f32("a", &a), HostBuffer::from_f32("b", &bv), HostBuffer::from_f32("m", &m)])
}

/// For each particle i of each box, over the neighbour boxes in (z, y, x) offset order
/// and their particles j: `vij = exp2(-(a2 r2))`, `v += q_j vij`, `f += 2 vij d`.
/// `pos` and `out` hold (x, y, z, q) and (v, fx, fy, fz) per particle.
fn lavamd(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let (nx, ny, nz) = (uparam(p, "nx", 1, 1024)?, uparam(p, "ny", 1, 1024)?, uparam(p, "nz", 1, 1024)?);
    let per_box = uparam(p, "per_box", 1, 1024)?;
    let a2 = fparam(p, "a2")?;
    let (pos, mut out) = (f32s(b, "pos")?, f32s(b, "out")?);
    let boxes = nx * ny * nz;
    if boxes * per_box > MAX_ELEMS {
        return Err(format!("{boxes} boxes x {per_box} particles is out of range (allowed: at most {MAX_ELEMS})"));
    }
    need(pos.len().min(out.len()), boxes * per_box * 4, "pos/out")?;
    for bx in 0..boxes {
        let (x0, y0, z0) = ((bx % nx) as i64, (bx / nx % ny) as i64, (bx / nx / ny) as i64);
        for i in 0..per_box {
            let me = &pos[(bx * per_box + i) * 4..][..4];
            let mut acc = [0f32; 4];
            for nb in 0..27i64 {
                let (x, y, z) = (x0 + nb % 3 - 1, y0 + nb / 3 % 3 - 1, z0 + nb / 9 - 1);
                if x < 0 || x >= nx as i64 || y < 0 || y >= ny as i64 || z < 0 || z >= nz as i64 {
                    continue;
                }
                let nbox = ((z as usize * ny) + y as usize) * nx + x as usize;
                for j in 0..per_box {
                    let o = &pos[(nbox * per_box + j) * 4..][..4];
                    let (dx, dy, dz) = (me[0] - o[0], me[1] - o[1], me[2] - o[2]);
                    let r2 = dx.mul_add(dx, dy.mul_add(dy, dz * dz));
                    let vij = (-(a2 * r2)).exp2();
                    let fs = vij + vij;
                    acc[0] = o[3].mul_add(vij, acc[0]);
                    acc[1] = fs.mul_add(dx, acc[1]);
                    acc[2] = fs.mul_add(dy, acc[2]);
                    acc[3] = fs.mul_add(dz, acc[3]);
                }
            }
            out[(bx * per_box + i) * 4..][..4].copy_from_slice(&acc);
        }
    }
    Ok(vec![HostBuffer::from_f32("out", &out)])
}

/// For step s, candidate c = candidates[s]: point i switches to c when
/// `dist2(i, c) * weight[i] < cost[i]` (distance fused over dimensions in order); savings
/// summed per block of `block` points by the shared-memory tree order into
/// `partial[s * ctas + cta]`; `count` counts every switch.
fn streamcluster(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let n = uparam(p, "n", 1, MAX_ELEMS)?;
    let dim = uparam(p, "dim", 0, 1024)?;
    let block = uparam(p, "block", 1, 1024)?;
    let steps = uparam(p, "steps", 0, 10_000)?;
    if !block.is_power_of_two() {
        return Err(format!("`check.params.block` = {block} is out of range (allowed: a power of two in 1..=1024)"));
    }
    let (coord, weight, mut cost) = (f32s(b, "coord")?, f32s(b, "weight")?, f32s(b, "cost")?);
    let (mut assign, cand, mut partial, mut count) = (u32s(b, "assign")?, u32s(b, "candidates")?, f32s(b, "partial")?, u32s(b, "count")?);
    let ctas = n.div_ceil(block);
    need(coord.len(), n * dim, "coord")?;
    need(weight.len().min(cost.len()).min(assign.len()), n, "weight/cost/assign")?;
    need(cand.len(), steps, "candidates")?;
    need(partial.len(), steps * ctas, "partial")?;
    need(count.len(), 1, "count")?;
    for (s, &c) in cand.iter().enumerate().take(steps) {
        let c = c as usize;
        if c >= n {
            return Err(format!("candidates[{s}] = {c} is out of range (allowed: 0..{n})"));
        }
        let mut save = vec![0f32; ctas * block];
        for i in 0..n {
            let mut d = 0f32;
            for f in 0..dim {
                let x = coord[f * n + i] - coord[f * n + c];
                d = x.mul_add(x, d);
            }
            let xc = d * weight[i];
            if xc < cost[i] {
                save[i] = cost[i] - xc;
                cost[i] = xc;
                assign[i] = c as u32;
                count[0] = count[0].wrapping_add(1);
            }
        }
        for (cta, chunk) in save.chunks_mut(block).enumerate() {
            let mut half = block / 2;
            while half > 0 {
                for t in 0..half {
                    chunk[t] += chunk[t + half];
                }
                half /= 2;
            }
            partial[s * ctas + cta] = chunk[0];
        }
    }
    Ok(vec![HostBuffer::from_f32("cost", &cost), HostBuffer::from_u32("assign", &assign), HostBuffer::from_f32("partial", &partial), HostBuffer::from_u32("count", &count)])
}

/// Fanout of the B+tree kernels and words per node (`[count, level, key[8], child[8]]`).
const BPTREE_FANOUT: usize = 8;
const BPTREE_NODE_WORDS: usize = 2 + 2 * BPTREE_FANOUT;

/// The B+tree layout `bptree_build` writes over sorted `keys`: levels bottom-up, leaves
/// first, root last.
pub fn bptree_layout(keys: &[u32]) -> Vec<u32> {
    let f = BPTREE_FANOUT;
    let mut tree = Vec::new();
    let (mut below, mut span, mut prev, mut level) = (keys.len(), 1usize, 0usize, 0u32);
    let mut off = 0usize;
    loop {
        let size = below.div_ceil(f);
        for m in 0..size {
            let cnt = f.min(below - m * f);
            let mut node = vec![u32::MAX; BPTREE_NODE_WORDS];
            node[0] = cnt as u32;
            node[1] = level;
            for c in 0..cnt {
                node[2 + c] = keys[(m * f + c) * span];
                node[2 + f + c] = if level == 0 { m * f + c } else { prev + m * f + c } as u32;
            }
            tree.extend(node);
        }
        if size <= 1 {
            return tree;
        }
        (prev, off, below, span, level) = (off, off + size, size, span * f, level + 1);
    }
}

/// The tree `bptree_build` writes, and for every query the index of the equal key in the
/// sorted `keys` (a binary search, independent of the tree) or 0xffffffff.
fn bptree(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let n = uparam(p, "n", 1, MAX_ELEMS)?;
    let nq = uparam(p, "queries", 0, MAX_ELEMS)?;
    let (keys, queries, mut result, mut tree) = (u32s(b, "keys")?, u32s(b, "queries")?, u32s(b, "result")?, u32s(b, "tree")?);
    need(keys.len(), n, "keys")?;
    need(queries.len().min(result.len()), nq, "queries/result")?;
    let keys = &keys[..n];
    if keys.windows(2).any(|w| w[0] >= w[1]) {
        return Err("buffer `keys` must be strictly increasing".into());
    }
    let layout = bptree_layout(keys);
    need(tree.len(), layout.len(), "tree")?;
    tree[..layout.len()].copy_from_slice(&layout);
    for i in 0..nq {
        result[i] = keys.binary_search(&queries[i]).map_or(u32::MAX, |k| k as u32);
    }
    Ok(vec![HostBuffer::from_u32("tree", &tree), HostBuffer::from_u32("result", &result)])
}

/// The full Needleman-Wunsch matrix, row by row: borders `-i * penalty`, cells
/// `max(diag + (a == b ? match : -mismatch_cost), left - penalty, up - penalty)`.
fn nw(b: &HostBuffers, p: &Params) -> Result<Vec<HostBuffer>, String> {
    let n = uparam(p, "n", 1, 1 << 12)?;
    let int = |name: &str| -> Result<i32, String> {
        let v = param(p, name)?;
        if v.fract() != 0.0 || v.abs() > 1e6 {
            return Err(format!("`check.params.{name}` = {v} is out of range (allowed: an integer in -1000000..=1000000)"));
        }
        Ok(v as i32)
    };
    let (pen, mat, mis) = (int("penalty")?, int("match")?, -int("mismatch_cost")?);
    let (sa, sb, mut score) = (i32s(b, "seqa")?, i32s(b, "seqb")?, i32s(b, "score")?);
    need(sa.len().min(sb.len()), n, "seqa/seqb")?;
    let w = n + 1;
    need(score.len(), w * w, "score")?;
    // 32-bit wrapping arithmetic, as the PTX's `mul.lo`, `add` and `sub`
    for i in 0..w {
        score[i] = (i as i32).wrapping_mul(pen).wrapping_neg();
        score[i * w] = score[i];
    }
    for r in 1..w {
        for c in 1..w {
            let s = if sa[r - 1] == sb[c - 1] { mat } else { mis };
            let diag = score[(r - 1) * w + c - 1].wrapping_add(s);
            let left = score[r * w + c - 1].wrapping_sub(pen);
            let up = score[(r - 1) * w + c].wrapping_sub(pen);
            score[r * w + c] = diag.max(left.max(up));
        }
    }
    Ok(vec![HostBuffer::from_i32("score", &score)])
}
