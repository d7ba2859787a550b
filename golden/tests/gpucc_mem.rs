//! Tests of `golden::gpucc::mem` (`golden/src/gpucc/mem.rs`).

use golden::gpucc::config::MemoryParams;
use golden::gpucc::mem::*;

fn params() -> MemoryParams {
    MemoryParams {
        line_bytes: 128,
        l1_bytes: 1024, // 2 sets x 4 ways
        l1_ways: 4,
        l1_latency: 20,
        dram_latency: 400,
        dram_bytes_per_cycle: 64.0,
        sms: 2,
        clock_mhz: 1000.0,
    }
}

fn mem() -> MemSystem {
    MemSystem::new(&params(), 2, 2, Backing::new((0..8192u32).map(|i| i as u8).collect()))
}

fn wait(m: &mut MemSystem, sm: usize, port: usize, from: u64) -> (u64, u32) {
    for t in from..from + 10_000 {
        m.tick(t);
        if let Some(d) = m.response(sm, port, t) {
            m.commit_port(sm, port, t, true, None);
            return (t, d);
        }
    }
    panic!("no response");
}

#[test]
fn miss_then_hit_latencies() {
    let mut m = mem();
    m.tick(0);
    m.commit_port(0, 0, 0, false, Some(MemReq::load(256)));
    // 128 B at 64 B/cycle = 2 cycles, + 400
    let (t, d) = wait(&mut m, 0, 0, 1);
    assert_eq!(t, 402);
    assert_eq!(d, u32::from_le_bytes([0, 1, 2, 3]));
    m.commit_port(0, 0, t, false, Some(MemReq::load(260)));
    assert_eq!(wait(&mut m, 0, 0, t + 1).0, t + 20);
    let s = m.stats(0);
    assert_eq!((s.loads, s.hits, s.misses, s.dram_read_bytes), (2, 1, 1, 128));
}

#[test]
fn pending_lines_merge_and_bandwidth_is_shared() {
    let mut m = mem();
    m.tick(0);
    m.commit_port(0, 0, 0, false, Some(MemReq::load(0)));
    m.commit_port(1, 0, 0, false, Some(MemReq::load(0))); // other SM: own L1, second transfer
    m.commit_port(0, 1, 0, false, Some(MemReq::load(4))); // same SM, same line: merges
    assert_eq!(wait(&mut m, 0, 0, 1).0, 402);
    assert_eq!(wait(&mut m, 1, 0, 1).0, 404, "second line waits for the channel");
    assert_eq!(m.stats(0).merged, 1);
    assert_eq!(m.chip_stats().dram_read_bytes, 256);
}

#[test]
fn responses_stay_in_order_per_port() {
    let mut m = mem();
    m.tick(0);
    m.commit_port(0, 0, 0, false, Some(MemReq::load(1024))); // miss
    m.tick(1);
    m.commit_port(0, 0, 1, false, Some(MemReq::store(2048, 7))); // ack would be early
    let (t0, _) = wait(&mut m, 0, 0, 2);
    let (t1, d1) = wait(&mut m, 0, 0, t0 + 1);
    assert!(t1 > t0);
    assert_eq!(d1, 0);
    assert_eq!(m.backing().read32(2048), Some(7));
}

#[test]
fn prefetch_fills_and_is_dropped_when_redundant() {
    let mut m = mem();
    let before = m.backing().clone();
    m.tick(0);
    m.commit_port(0, 0, 0, false, Some(MemReq::prefetch(512)));
    m.commit_port(0, 1, 0, false, Some(MemReq::prefetch(520)));
    assert!(!m.idle(0));
    for t in 1..=402 {
        m.tick(t);
    }
    assert!(m.idle(0));
    m.commit_port(0, 0, 402, false, Some(MemReq::load(540)));
    assert_eq!(wait(&mut m, 0, 0, 403).0, 422);
    let s = m.stats(0);
    assert_eq!((s.prefetch_requests, s.prefetch_fills, s.prefetch_redundant, s.hits), (2, 1, 1, 1));
    assert_eq!(m.backing(), &before, "prefetches never change memory");
}

#[test]
fn lru_evicts_the_oldest_way() {
    let mut l1 = L1::new(&params());
    // set 0 holds even lines; fill 4 ways, touch line 0, install a fifth
    for line in [0, 2, 4, 6] {
        assert!(!l1.install(line));
    }
    assert!(l1.lookup(0, true));
    assert!(l1.install(8));
    assert!(l1.lookup(0, false), "recently used line survives");
    assert!(!l1.lookup(2, false), "LRU line was evicted");
}

#[test]
fn out_of_range_accesses_are_counted() {
    let mut m = mem();
    m.tick(0);
    m.commit_port(0, 0, 0, false, Some(MemReq::load(1 << 20)));
    m.commit_port(0, 1, 0, false, Some(MemReq::store(1 << 20, 1)));
    assert_eq!(m.stats(0).oob, 2);
}
