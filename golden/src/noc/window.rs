//! The GOM's window arithmetic (spec §1.9): splitting the period K into one window
//! per overlay group, in integers, as the RTL divider does. A pure function of plain
//! numbers, so config validation (the default window set) and the GOM share it.

/// `T_g = T_MIN + floor(budget * W_g / ΣW)`, the remainder `K - ΣT` distributed +1 to
/// the groups with the largest remainders (ties: lower index). All-zero weights count
/// as all ones (equal split).
pub fn window_lengths(weights: &[u64], k: u32, t_min: u32) -> Vec<u32> {
    let g = weights.len();
    let w: Vec<u64> = if weights.iter().all(|&x| x == 0) { vec![1; g] } else { weights.to_vec() };
    let sum: u64 = w.iter().sum();
    let budget = (k - g as u32 * t_min) as u64;
    let mut t: Vec<u32> = w.iter().map(|&x| t_min + (budget * x / sum) as u32).collect();
    let rem: Vec<u64> = w.iter().map(|&x| budget * x % sum).collect();
    let r = k - t.iter().sum::<u32>();
    for gi in 0..g {
        let rank = (0..g).filter(|&h| rem[h] > rem[gi] || (rem[h] == rem[gi] && h < gi)).count();
        if (rank as u32) < r {
            t[gi] += 1;
        }
    }
    debug_assert_eq!(t.iter().sum::<u32>(), k);
    t
}
