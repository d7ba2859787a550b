//! Coalescing (GPGPU-Sim `memory_coalescing_arch`): a warp's global or local access is
//! split into one access per distinct L1 line touched (the line size is the segment
//! size, 128 B in every preset), in order of the lowest lane touching each line.

use super::exec::{MemRecord, WARP};
use super::memspace::LOCAL_WINDOW;

/// One line-sized piece of a warp access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// Line-aligned address.
    pub line: u64,
    /// Bytes of the line touched (bit i = byte i); lines are at most 128 B.
    pub bytes: u128,
    /// Active lanes in this segment.
    pub lanes: u32,
}

/// Timing address of thread-private local memory (our choice): a region above the
/// generic windows, one block per (SM, warp slot), with 4-byte words interleaved across
/// the 32 lanes as CUDA lays out local memory, so same-offset accesses coalesce.
pub fn local_timing_addr(sm: usize, warp_slot: usize, slots: usize, local_bytes: u64, lane: usize, off: u64) -> u64 {
    let block = (sm * slots + warp_slot) as u64 * local_bytes.max(4) * WARP as u64;
    LOCAL_WINDOW + (1 << 40) + block + (off & !3) * WARP as u64 + lane as u64 * 4 + (off & 3)
}

/// Split `rec` (addresses already in timing space) into line segments.
pub fn coalesce(rec: &MemRecord, addrs: &[u64; WARP], line_bytes: u64, out: &mut Vec<Segment>) {
    out.clear();
    if !unit_stride(rec, addrs, line_bytes, out) {
        coalesce_lanes(rec, addrs, line_bytes, out);
    }
}

/// [`coalesce`] lane by lane (any access; appends to `out`).
pub fn coalesce_lanes(rec: &MemRecord, addrs: &[u64; WARP], line_bytes: u64, out: &mut Vec<Segment>) {
    let mut m = rec.mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let a = addrs[l];
        let line = a & !(line_bytes - 1);
        let off = (a - line) as u32;
        let n = rec.bytes.min(line_bytes as u32 - off);
        let bits: u128 = if n >= 128 { u128::MAX } else { ((1u128 << n) - 1) << off };
        match out.iter_mut().find(|s| s.line == line) {
            Some(s) => {
                s.bytes |= bits;
                s.lanes |= 1 << l;
            }
            None => out.push(Segment { line, bytes: bits, lanes: 1 << l }),
        }
    }
}

/// [`coalesce`] of a whole warp accessing consecutive aligned elements (lane `l` at
/// `addrs[0] + l * bytes`, a power of two no larger than a line, so no lane straddles
/// two lines): the segments follow from the span's ends. False (nothing pushed) for any
/// other access.
fn unit_stride(rec: &MemRecord, addrs: &[u64; WARP], line_bytes: u64, out: &mut Vec<Segment>) -> bool {
    let b = rec.bytes as u64;
    let a0 = addrs[0];
    if rec.mask != u32::MAX || !b.is_power_of_two() || b > line_bytes || a0 & (b - 1) != 0 || line_bytes > 128 {
        return false;
    }
    let mut off = 0u64;
    let mut stride = true;
    for &a in addrs {
        stride &= a == a0.wrapping_add(off);
        off += b;
    }
    let end = a0.wrapping_add(b * WARP as u64);
    if !stride || end < a0 {
        return false;
    }
    let mut line = a0 & !(line_bytes - 1);
    while line < end {
        let (lo, hi) = (line.max(a0), (line + line_bytes).min(end));
        let n = hi - lo;
        let bytes = if n >= 128 { u128::MAX } else { ((1u128 << n) - 1) << (lo - line) };
        let (l0, l1) = ((lo - a0) / b, (hi - a0) / b);
        let lanes = if l1 - l0 >= 32 { u32::MAX } else { ((1u32 << (l1 - l0)) - 1) << l0 };
        out.push(Segment { line, bytes, lanes });
        line += line_bytes;
    }
    true
}
