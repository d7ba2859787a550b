//! Tests of `golden::llc_compute::offload` (`golden/src/llc_compute/offload.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use golden::gpu::hooks::{CoreNetHook, KernelShape, OffloadEvent};
use golden::gpu::mapping::AddressMap;
use golden::llc_compute::offload::*;
use golden::llc_compute::wire::{Msg, Wire};
use golden::network::{Class, Packet};

fn oq() -> Oq {
    let cfg = golden::gpu::GpuConfig::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/gpu/tiny.toml")).unwrap();
    let map = Rc::new(AddressMap::new(&cfg.mapping, &cfg.dram, cfg.mem_nodes));
    let mut q = Oq::new(0, 0, 4, 8, Rc::new(RefCell::new(Wire::new(1, 4, 4))), map, Rc::new(vec![2, 3]), Target::Llc, Divergence::Split);
    q.entries[1] = Entry { valid: true, warp: 5, loads: 2, fb: 0 };
    q.live = 1;
    q.pending[5] = Pending { left: 1, fallback: false };
    q
}

fn pkt(msg: Msg, flits: u32) -> Packet {
    Packet { id: 1, src: 2, dst: 0, class: Class::Reply, flits, tag: msg.encode(), injected_at: 0 }
}

const ACK: Msg = Msg::Answer { kind: golden::llc_compute::chain::RespKind::Ack, tag: 1 };

/// Spec §1.2: warp 6 forms a chain, so it goes first in its scheduler's GTO order
/// (greedy warp 4, then 0, 2, 6 oldest first: by hand 6, 4, 0, 2) and in fetch; the
/// others keep their order. No forming chain, or `chain_priority = false`: the order
/// is the baseline's and fetch has no priority warp.
fn priority_order(plant: bool) {
    let mut q = oq().with_priority(true);
    q.plant_priority_last = plant;
    let mut order = [4, 0, 2, 6];
    q.order(&mut order);
    assert_eq!((order, q.priority_warp()), ([4, 0, 2, 6], None), "no chain forming");
    q.forming = Some(Forming { warp: 6, entry: 0, chain: 0, mask: u32::MAX });
    q.order(&mut order);
    assert_eq!((order, q.priority_warp()), ([6, 4, 0, 2], Some(6)), "warp 6 forms a chain");
    assert_eq!(q.n.prio_ahead, 1);
    let mut off = oq().with_priority(false);
    off.forming = q.forming;
    let mut order = [4, 0, 2, 6];
    off.order(&mut order);
    assert_eq!((order, off.priority_warp()), ([4, 0, 2, 6], None), "chain_priority = false");
}

#[test]
fn the_forming_chains_warp_goes_first() {
    priority_order(false);
}

/// A planted bug (the priority warp sent last) is caught.
#[test]
#[should_panic(expected = "warp 6 forms a chain")]
fn a_priority_warp_sent_last_is_caught() {
    priority_order(true);
}

#[test]
fn answers_resume_or_fall_back_after_every_operand() {
    let mut q = oq();
    q.answer(&pkt(ACK, 1));
    assert_eq!(q.events.pop_front(), Some(OffloadEvent::Resume(5)));
    assert_eq!(q.live, 0);
    let mut q = oq();
    q.answer(&pkt(Msg::FbData { which: 0, tag: 1 }, 5));
    assert!(q.events.is_empty(), "one of two fallback loads");
    q.answer(&pkt(Msg::FbData { which: 1, tag: 1 }, 5));
    assert_eq!(q.events.pop_front(), Some(OffloadEvent::Fallback(5)));
}

/// A planted protocol bug (an ACK the size of a data packet) is caught.
#[test]
#[should_panic(expected = "of 5 flits")]
fn a_wrong_sized_answer_is_caught() {
    oq().answer(&pkt(ACK, 5));
}

/// An answer for an entry not in flight is caught.
#[test]
#[should_panic(expected = "not in flight")]
fn an_answer_for_a_free_entry_is_caught() {
    let mut q = oq();
    q.answer(&pkt(Msg::Answer { kind: golden::llc_compute::chain::RespKind::Ack, tag: 2 }, 1));
}

/// Warp 5's chain split in two groups (OQ tags 1 and 3): nothing happens at the
/// first group's ACK; the second group falls back (both its loads' data), so the warp
/// goes on computing and storing itself (spec §2.6, §1.6.4), and both entries are free.
fn two_group_chain(plant: bool) {
    let mut q = oq();
    q.plant_resume_early = plant;
    q.entries[3] = Entry { valid: true, warp: 5, loads: 2, fb: 0 };
    q.live = 2;
    q.pending[5] = Pending { left: 2, fallback: false };
    q.answer(&pkt(ACK, 1));
    assert!(q.events.is_empty(), "warp 5 resumed before its last group's answer");
    q.answer(&pkt(Msg::FbData { which: 0, tag: 3 }, 5));
    q.answer(&pkt(Msg::FbData { which: 1, tag: 3 }, 5));
    assert_eq!(q.events.pop_front(), Some(OffloadEvent::Fallback(5)));
    assert_eq!((q.live, q.n.answers, q.n.fallbacks, q.n.group_fallbacks), (0, 1, 1, 1));
}

#[test]
fn a_split_chain_goes_on_after_its_last_group() {
    two_group_chain(false);
}

/// A planted bug (the warp resumed at its first group's answer) is caught.
#[test]
#[should_panic(expected = "resumed before its last group")]
fn a_resume_at_the_first_groups_answer_is_caught() {
    two_group_chain(true);
}

fn group(mask: u32) -> Group {
    Group { mask, lanes: [mask; 3], ..Group::default() }
}

/// The extension flit's addressing by hand (spec §2.6): a warp reading 32 words from
/// the middle of a line straddles two lines, lanes 0-15 at words 16-31, lanes 16-31 at
/// words 0-15 of the next; both groups start at word 16 (lane k at (16 + k) mod 32).
/// Lanes 3-7 at words 5-9 start at 2. A broadcast operand (every lane one word) is not
/// unit stride, nor is an 8-byte access (no word noted).
#[test]
fn unit_stride_start_words_by_hand() {
    let mut words = [[NO_WORD; 32]; 3];
    for w in &mut words {
        for (i, x) in w.iter_mut().enumerate() {
            *x = ((i + 16) % 32) as u8;
        }
    }
    assert_eq!(unit_stride(&[group(0xffff), group(0xffff_0000)], &words), Some(vec![[16; 3], [16; 3]]));
    let mut w2 = [[NO_WORD; 32]; 3];
    for (i, w) in w2[0].iter_mut().enumerate().take(8).skip(3) {
        *w = (i + 2) as u8;
    }
    let g = Group { mask: 0xf8, lanes: [0xf8, 0, 0], ..Group::default() };
    assert_eq!(unit_stride(&[g], &w2), Some(vec![[2, 0, 0]]));
    words[1] = [3; 32];
    assert_eq!(unit_stride(&[group(0xffff), group(0xffff_0000)], &words), None, "a broadcast operand b");
    words[1] = [NO_WORD; 32];
    assert_eq!(unit_stride(&[group(0xffff), group(0xffff_0000)], &words), None, "no 4-byte words");
}

#[test]
fn groups_that_partition_the_lanes_pass() {
    let mut q = oq();
    q.groups = vec![group(0xffff), group(0xffff_0000)];
    q.check_groups(u32::MAX);
}

/// A planted bug (a group's mask loses lane 20) is caught before the CPs leave.
#[test]
#[should_panic(expected = "do not partition")]
fn a_dropped_group_lane_is_caught() {
    let mut q = oq();
    q.groups = vec![group(0xffff), Group { mask: 0xffef_0000, lanes: [0xffef_0000; 3], ..Group::default() }];
    q.check_groups(u32::MAX);
}

/// Spec §1.7 [OC]: the core SQs' 24 kB must fit beside the resident threadblocks'
/// shared memory (6 × 4 kB fills 48 kB exactly; one byte more does not fit).
#[test]
fn core_sqs_switch_off_when_threadblocks_need_their_shared_memory() {
    let mut q = oq();
    q.target = Target::Omni { lut: Vec::new(), core_sq_bytes: 96 * 256, shared_bytes: 49152 };
    q.shape(&KernelShape { ctas_per_sm: 6, shared_bytes_per_cta: 4096 });
    assert!(q.core_sqs_on);
    q.shape(&KernelShape { ctas_per_sm: 6, shared_bytes_per_cta: 4097 });
    assert!(!q.core_sqs_on);
    q.target = Target::Llc;
    q.shape(&KernelShape { ctas_per_sm: 6, shared_bytes_per_cta: 4096 });
    assert!(!q.core_sqs_on, "LLC-Compute leaves the flag alone (no core SQ)");
}

/// A message for a core SQ at a core without one (a misrouted packet under
/// LLC-Compute) is caught by the NI demux.
#[test]
#[should_panic(expected = "without an SQ")]
fn the_demux_catches_sq_traffic_at_a_core_without_an_sq() {
    let mut net = OqNet { oq: Rc::new(RefCell::new(oq())), sq: None };
    net.arrive(0, pkt(Msg::LoadData { entry: 0, which: 0 }, 5));
}
