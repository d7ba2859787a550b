//! The small blocks of spec §6.3: the EMN lookup table (reset contents = Fig. 3 for
//! core 15, write port, reset) and the 32-lane ALU (latency, one op per cycle, hand values).

use golden::llc_compute::emn_lut::{EmnLut, EmnLutIn};
use golden::llc_compute::simd_alu::SimdAlu;
use golden::llc_compute::LlcCompute;
use golden::model::Model;

fn paper() -> golden::llc_compute::LlcComputeConfig {
    golden::presets::load::<LlcCompute>("llc_compute_paper").unwrap().config
}

#[test]
fn emn_lut_reads_fig3_writes_at_the_edge_and_resets() {
    let c = paper();
    let mut m = EmnLut::new(&c, c.placement.core(15));
    assert_eq!(m.init.len(), 64, "64 entries per core (paper §5)");
    let mut o = m.new_outputs();
    let mut read = |m: &mut EmnLut, a: u32, b: u32, w: Option<(u32, u64)>| {
        let i = EmnLutIn { rd_a: a, rd_b: b, cfg_we: w.is_some(), cfg_idx: w.map_or(0, |x| x.0), cfg_data: w.map_or(0, |x| x.1), ..Default::default() };
        m.eval(&i, &mut o);
        m.commit(&i);
        (o.rd_vld, o.rd_node)
    };
    // Fig. 3: EMN(c15; L5, L6) = core 36 = node (1,5) = 41; (L0, L6) none; (L1, L0) = c8 = node 9
    assert_eq!(read(&mut m, 5, 6, None), (true, 41));
    assert_eq!(read(&mut m, 0, 6, None), (false, 0));
    assert_eq!(read(&mut m, 1, 0, None), (true, 9));
    // a write to entry (0, 6) = index 6 is seen from the next cycle on
    assert_eq!(read(&mut m, 0, 6, Some((6, (1 << 6) | 50))), (false, 0));
    assert_eq!(read(&mut m, 0, 6, None), (true, 50));
    let mut i = EmnLutIn::default();
    EmnLut::assert_reset(&mut i);
    let mut o2 = m.new_outputs();
    m.eval(&i, &mut o2);
    m.commit(&i);
    assert_eq!(read(&mut m, 0, 6, None), (false, 0));
}

#[test]
fn simd_alu_has_its_latency_and_takes_one_op_per_cycle() {
    let c = paper();
    let mut m = SimdAlu::new(&c);
    assert_eq!(m.lat, 4);
    let mut o = m.new_outputs();
    let mut outs = Vec::new();
    for t in 0..10u32 {
        let mut i = m.idle_inputs();
        if t < 3 {
            i.in_valid = true;
            i.op = 0; // IADD
            i.a = (0..32).collect();
            i.b = vec![t * 100; 32];
            i.mask = 0x0000_ffff;
        }
        m.eval(&i, &mut o);
        assert!(o.in_ready);
        m.commit(&i);
        outs.push(o.clone());
    }
    // ops accepted at cycles 0, 1, 2 come out at 4, 5, 6
    let valid: Vec<usize> = outs.iter().enumerate().filter(|(_, o)| o.out_valid).map(|(t, _)| t).collect();
    assert_eq!(valid, [4, 5, 6]);
    assert_eq!(outs[5].res[3], 103);
    assert_eq!(outs[5].res[16], 0, "inactive lane");
    // a compare: LT on signed ints, bitmap of active lanes only
    let mut i = m.idle_inputs();
    i.in_valid = true;
    i.cmp = true;
    i.op = 2;
    i.a = (0..32).map(|k| k as u32).collect();
    i.b = vec![2; 32];
    i.mask = 0b1011;
    m.eval(&i, &mut o);
    m.commit(&i);
    let idle = m.idle_inputs();
    for _ in 0..3 {
        m.eval(&idle, &mut o);
        m.commit(&idle);
    }
    m.eval(&idle, &mut o);
    assert!(o.out_valid);
    assert_eq!(o.bitmap, 0b0011, "lanes 0 and 1 are < 2, lane 2 inactive, lane 3 is not");
}

use golden::llc_compute::chain_prio_arb::ChainPrioArb;
use golden::llc_compute::ni_demux::NiDemux;
use golden::llc_compute::packet::{ComputePacket, SINK, SINK_MEM, SINK_OQ};

/// Spec §1.2: the warp that issues a `01` is granted first until its `11`; a second
/// warp's `01` while the CPGU is busy is not issuable; an abort ends the priority.
#[test]
fn chain_prio_arb_holds_the_chain_warp_until_its_last_instruction() {
    let mut m = ChainPrioArb::new(4);
    let mut o = m.new_outputs();
    let mut step = |m: &mut ChainPrioArb, ready: [bool; 4], first: [bool; 4], last: [bool; 4], busy: bool, abort: bool| {
        let mut i = m.idle_inputs();
        i.ready = ready.to_vec();
        i.tag_first = first.to_vec();
        i.tag_last = last.to_vec();
        i.cpgu_busy = busy;
        i.abort = abort;
        i.gto_order = vec![0, 1, 2, 3];
        m.eval(&i, &mut o);
        m.commit(&i);
        (o.grant, o.prio_valid, o.prio_wid)
    };
    let all = [true; 4];
    let none = [false; 4];
    // warp 2 issues its 01 (warps 0, 1 not ready): it becomes the priority warp
    assert_eq!(step(&mut m, [false, false, true, true], [false, false, true, false], none, false, false), (Some(2), false, 0));
    // GTO would pick warp 0, the chain warp wins
    assert_eq!(step(&mut m, all, none, none, true, false), (Some(2), true, 2));
    // warp 2 not ready: GTO order; warp 0's 01 is not issuable while the CPGU is busy
    assert_eq!(step(&mut m, [true, true, false, false], [true, false, false, false], none, true, false), (Some(1), true, 2));
    // warp 2's 11 issues: priority ends after this cycle
    assert_eq!(step(&mut m, all, none, [false, false, true, false], true, false), (Some(2), true, 2));
    assert_eq!(step(&mut m, all, none, none, false, false), (Some(0), false, 0));
    // a new chain, then an abort
    step(&mut m, [false, false, false, true], [false, false, false, true], none, false, false);
    assert_eq!(step(&mut m, all, none, none, true, true), (Some(3), true, 3));
    assert_eq!(step(&mut m, all, none, none, false, false), (Some(0), false, 0));
}

/// Spec §1.5: the head's sink picks the output, the route holds to the tail, a stalled
/// sink stalls the input; at an LLC node (2 outputs) a CP goes to the SQ.
#[test]
fn ni_demux_routes_whole_packets_by_sink() {
    let mut m = NiDemux::new(3);
    let mut o = m.new_outputs();
    let flit = |sink: u32| {
        let mut f = [0u64; 4];
        SINK.write(&mut f, u128::from(sink));
        f
    };
    let mut step = |m: &mut NiDemux, f: [u64; 4], head: bool, tail: bool, ready: [bool; 3]| {
        let mut i = m.idle_inputs();
        (i.in_valid, i.in_flit, i.in_head, i.in_tail, i.out_ready) = (true, f, head, tail, ready.to_vec());
        m.eval(&i, &mut o);
        m.commit(&i);
        (o.out_valid.clone(), o.in_ready)
    };
    // a 3-flit FB_DATA reply to the OQ; body flits carry data whose bits look like sink = MEM
    assert_eq!(step(&mut m, flit(SINK_OQ), true, false, [true, true, true]), (vec![false, true, false], true));
    assert_eq!(step(&mut m, flit(SINK_MEM), false, false, [true, false, true]), (vec![false, true, false], false), "OQ stalls: input stalls");
    assert_eq!(step(&mut m, flit(SINK_MEM), false, false, [true, true, true]), (vec![false, true, false], true));
    assert_eq!(step(&mut m, flit(SINK_MEM), false, true, [true, true, true]), (vec![false, true, false], true));
    // the next head routes afresh
    assert_eq!(step(&mut m, flit(SINK_MEM), true, true, [true, true, true]), (vec![true, false, false], true));
    let llc = NiDemux::new(2);
    let cp = ComputePacket::default().encode();
    assert_eq!(llc.route(&cp), 1, "a CP goes to the LLC's SQ");
    assert_eq!(llc.route(&flit(SINK_MEM)), 0);
}
