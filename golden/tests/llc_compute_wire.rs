//! Tests of `golden::llc_compute::wire` (`golden/src/llc_compute/wire.rs`).

use golden::llc_compute::chain::RespKind;
use golden::llc_compute::packet::CpExtension;
use golden::llc_compute::sqsr::byte_enables;
use golden::llc_compute::wire::*;

#[test]
fn every_message_round_trips_through_a_tag_clear_of_the_hook_bit() {
    let all = [
        Msg::Cp { sm: 55, tag: 47, ext: false },
        Msg::Cp { sm: 3, tag: 2, ext: true },
        Msg::Answer { kind: RespKind::Bitmap, tag: 3 },
        Msg::FbData { which: 1, tag: 9 },
        Msg::LoadReq { entry: 255, which: 1, addr: (1 << 42) - 128 },
        Msg::StoreReq { entry: 95, sm: 63 },
        Msg::FbLoad { which: 0, tag: 63, src: 62, addr: 0x1234_5680 },
        Msg::LoadData { entry: 7, which: 1 },
        Msg::StoreAck { entry: 200 },
    ];
    for m in all {
        let t = m.encode();
        assert_eq!(t >> 63, 0, "{m:?}");
        assert_eq!(Msg::decode(t), m);
    }
}

#[test]
fn sizes_are_the_papers() {
    // spec §1.8: requests and acks 1 flit, data (and a store with its data) 5
    assert_eq!(Msg::Cp { sm: 0, tag: 0, ext: false }.flits(), 1);
    assert_eq!(Msg::Cp { sm: 0, tag: 0, ext: true }.flits(), 2, "spec §1.8: 2 with the divergence extension");
    assert_eq!(Msg::LoadReq { entry: 0, which: 0, addr: 0 }.flits(), 1);
    assert_eq!(Msg::StoreReq { entry: 0, sm: 0 }.flits(), 5);
    assert_eq!(Msg::LoadData { entry: 0, which: 0 }.flits(), 5);
    assert_eq!(Msg::StoreAck { entry: 0 }.flits(), 1);
    assert_eq!(Msg::Answer { kind: RespKind::Ack, tag: 0 }.flits(), 1);
    assert_eq!(Msg::Answer { kind: RespKind::Data, tag: 0 }.flits(), 5);
    assert_eq!(Msg::FbData { which: 0, tag: 0 }.flits(), 5);
}

/// A split group's store lanes 16..31 starting at word 16 write words 0..15 (lane k
/// at word (16 + k) mod 32): bytes 0..63 of the line.
#[test]
fn a_split_groups_store_writes_its_own_words() {
    let mut w = Wire::new(1, 2, 1);
    let mut head = golden::llc_compute::packet::ComputePacket { src_node: 9, oq_tag: 1, ..Default::default() }.encode();
    CpExtension::mark(&mut head);
    let x = CpExtension { masks: [0xffff_0000; 3], start: [16; 3] };
    w.put_cp(0, 1, head, Some(x.encode()));
    let sq = byte_enables(0xffff_0000, 32, false);
    assert_eq!(w.store_enables(9, 1, sq), (1u128 << 64) - 1);
    assert_eq!(w.store_enables(9, 0, sq), sq, "another entry: the SQ's own enables");
    w.take_cp(0, 1, true);
    w.put_cp(0, 1, golden::llc_compute::packet::ComputePacket { src_node: 9, oq_tag: 1, ..Default::default() }.encode(), None);
    assert_eq!(w.store_enables(9, 1, sq), sq, "the entry's next CP is not split");
}

/// A CP sent as one flit whose wire says it has an extension (a dropped flit) is caught.
#[test]
#[should_panic(expected = "disagree")]
fn a_dropped_extension_flit_is_caught() {
    let mut w = Wire::new(1, 1, 1);
    let mut head = golden::llc_compute::packet::ComputePacket::default().encode();
    CpExtension::mark(&mut head);
    w.put_cp(0, 0, head, Some(CpExtension::default().encode()));
    w.take_cp(0, 0, false);
}

#[test]
#[should_panic(expected = "does not fit")]
fn an_address_beyond_the_tag_is_refused() {
    Msg::LoadReq { entry: 0, which: 0, addr: 1 << 42 }.encode();
}
