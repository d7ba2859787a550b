//! Tests of `golden::network` (`golden/src/network.rs`).

use golden::network::*;

fn pkt(id: u64, src: usize, dst: usize, flits: u32) -> Packet {
    Packet { id, src, dst, class: Class::Request, flits, tag: id, injected_at: 0 }
}

#[test]
fn ideal_latency_is_fixed_plus_serialization() {
    let mut n = IdealNetwork::new(4, 10);
    n.inject(pkt(1, 0, 3, 1));
    n.inject(pkt(2, 1, 3, 4));
    let mut got = Vec::new();
    for _ in 0..20 {
        n.step();
        while let Some(p) = n.eject(3) {
            got.push((p.id, n.cycle()));
        }
    }
    assert_eq!(got, vec![(1, 10), (2, 13)]);
    assert_eq!(n.stats().packets_delivered, 2);
    assert_eq!(n.stats().packet_latency_sum, 10 + 13);
    assert_eq!(n.in_flight(), 0);
}

#[test]
fn unejected_packets_stay_in_flight() {
    let mut n = IdealNetwork::new(2, 1);
    n.inject(pkt(1, 0, 1, 1));
    n.step();
    n.step();
    assert_eq!(n.in_flight(), 1);
    assert_eq!(n.eject(1).map(|p| p.id), Some(1));
    assert_eq!(n.in_flight(), 0);
}
