//! Tests of `golden::gpu::dram` (`golden/src/gpu/dram.rs`).

use golden::gpu::config::DramConfig;
use golden::gpu::dram::*;

fn cfg() -> DramConfig {
    DramConfig { clock_mhz: 1000, banks: 4, row_bytes: 2048, bus_bytes: 32, queue: 16, t_rcd: 5, t_rp: 6, t_cl: 7, t_ras: 10, t_ccd: 2, t_rrd: 1, t_wr: 3, ctrl_latency: 0 }
}

fn run_until_return(ch: &mut DramChannel, start: u64) -> u64 {
    let mut now = start;
    loop {
        ch.cycle(now);
        if ch.pop_return(now).is_some() {
            return now;
        }
        now += 1;
    }
}

#[test]
fn closed_bank_then_row_hit_then_conflict() {
    // same clock as the core: command cycle k runs in core cycle k
    let mut ch = DramChannel::new(&cfg(), 128, 1000);
    ch.push(0, 0, 0, false);
    // ACT at 0, RD at tRCD = 5, data on the bus in cycles 12..=15 (tCL 7, burst 4):
    // back to the LLC in core cycle 15
    let t = run_until_return(&mut ch, 0);
    assert_eq!(t, 15);
    ch.push(128, 0, 0, false);
    let t2 = run_until_return(&mut ch, t + 1);
    // row hit: RD at 16, data in 23..=26
    assert_eq!(t2, 26);
    ch.push(256, 0, 9, false);
    let t3 = run_until_return(&mut ch, t2 + 1);
    // conflict: PRE at 27, ACT at 33 (tRP 6), RD at 38 (tRCD 5), data in 45..=48
    assert_eq!(t3, 48);
    assert_eq!(ch.stats.activates, 2);
    assert_eq!(ch.stats.precharges, 1);
}
