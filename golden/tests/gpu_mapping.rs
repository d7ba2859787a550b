//! Tests of `golden::gpu::mapping` (`golden/src/gpu/mapping.rs`).

use golden::gpu::config::{DramConfig, InterleaveHash, MappingConfig};
use golden::gpu::mapping::*;

fn map(nodes: u32, hash: InterleaveHash) -> AddressMap {
    let m = MappingConfig { interleave_bytes: 256, hash, bank_interleave_bytes: 1024 };
    let d = DramConfig { clock_mhz: 1000, banks: 4, row_bytes: 1024, bus_bytes: 32, queue: 8, t_rcd: 1, t_rp: 1, t_cl: 1, t_ras: 1, t_ccd: 1, t_rrd: 1, t_wr: 1, ctrl_latency: 0 };
    AddressMap::new(&m, &d, nodes)
}

#[test]
fn mapping_is_a_bijection() {
    for hash in [InterleaveHash::None, InterleaveHash::Xor] {
        let m = map(4, hash);
        let mut seen = std::collections::BTreeSet::new();
        for line in 0..4096u64 {
            let a = line * 128;
            assert!(seen.insert((m.node(a), m.local(a))), "{hash:?} collides at {a:#x}");
        }
    }
}

#[test]
fn rows_then_banks_when_the_bank_chunk_is_a_row() {
    let m = map(1, InterleaveHash::None);
    assert_eq!(m.dram_loc(0), DramLoc { bank: 0, row: 0 });
    assert_eq!(m.dram_loc(1023), DramLoc { bank: 0, row: 0 });
    assert_eq!(m.dram_loc(1024), DramLoc { bank: 1, row: 0 });
    assert_eq!(m.dram_loc(4096), DramLoc { bank: 0, row: 1 });
}
