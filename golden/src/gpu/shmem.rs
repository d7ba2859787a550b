//! Shared-memory bank conflicts (GPGPU-Sim `shared_memory` model): an access occupies
//! the shared-memory pipeline for as many cycles as the largest number of distinct
//! words any bank must deliver. Lanes reading the same word are served by one broadcast.
//! Our choice: lanes of an atomic to the same word serialize as well.

use super::exec::{MemRecord, WARP};

/// Conflict degree (>= 1) of one warp's shared access.
pub fn conflict_degree(rec: &MemRecord, banks: u32, bank_bytes: u32) -> u32 {
    let mut keys = [0u64; 4 * WARP];
    let mut n = 0usize;
    let bb = bank_bytes as u64;
    let mut m = rec.mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let first = rec.addr[l] / bb;
        let last = (rec.addr[l] + rec.bytes.max(1) as u64 - 1) / bb;
        for w in first..=last.min(first + 3) {
            keys[n] = ((w % banks as u64) << 48) | (w & ((1 << 48) - 1));
            n += 1;
        }
    }
    if n == 0 {
        return 1;
    }
    let keys = &mut keys[..n];
    keys.sort_unstable();
    let mut best = 1u32;
    let mut run_same = 1u32;
    let mut bank_count = 1u32;
    for i in 1..n {
        let (prev, cur) = (keys[i - 1], keys[i]);
        if cur == prev {
            run_same += 1;
            if rec.atomic {
                best = best.max(run_same);
            }
            continue;
        }
        run_same = 1;
        if cur >> 48 == prev >> 48 {
            bank_count += 1;
        } else {
            bank_count = 1;
        }
        best = best.max(bank_count);
    }
    best
}
