//! The network-interface demux at an ejection port (spec §1.5, block `ni_demux` of
//! §6.3): the head flit's `sink` field (a ComputePacket carries `sink = SQ`) picks the
//! output; the route is held until the tail flit passes, so packets never interleave.
//! One flit per cycle; a stalled sink stalls the input (`in_ready = out_ready[route]`).
//! Outputs: 0 = memory side (LLC, or L1 fill / store ack at a core), 1 = OQ, 2 = SQ; an
//! LLC node has no OQ (`N_OUT = 2`: sink codes map MEM → 0, SQ → 1).

use super::packet::{Flit, SINK};
use crate::model::Model;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NiDemuxIn {
    pub rst: bool,
    pub in_valid: bool,
    pub in_flit: Flit,
    pub in_head: bool,
    pub in_tail: bool,
    pub out_ready: Vec<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NiDemuxOut {
    pub in_ready: bool,
    pub out_valid: Vec<bool>,
    pub out_flit: Flit,
}

pub struct NiDemux {
    pub n_out: usize,
    /// The output a packet in progress is locked to.
    pub locked: Option<usize>,
    next: Option<Option<usize>>,
}

impl NiDemux {
    pub fn new(n_out: usize) -> Self {
        Self { n_out, locked: None, next: None }
    }

    /// The output of a head flit.
    pub fn route(&self, flit: &Flit) -> usize {
        let sink = SINK.read(flit) as usize;
        if self.n_out == 2 {
            usize::from(sink == super::packet::SINK_SQ as usize)
        } else {
            sink.min(self.n_out - 1)
        }
    }
}

impl Model for NiDemux {
    type In = NiDemuxIn;
    type Out = NiDemuxOut;

    fn idle_inputs(&self) -> NiDemuxIn {
        NiDemuxIn { rst: false, in_valid: false, in_flit: [0; 4], in_head: false, in_tail: false, out_ready: vec![false; self.n_out] }
    }

    fn new_outputs(&self) -> NiDemuxOut {
        NiDemuxOut { out_valid: vec![false; self.n_out], ..Default::default() }
    }

    fn assert_reset(i: &mut NiDemuxIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &NiDemuxIn, o: &mut NiDemuxOut) {
        *o = self.new_outputs();
        let r = self.locked.unwrap_or_else(|| self.route(&i.in_flit));
        o.out_flit = i.in_flit;
        o.out_valid[r] = i.in_valid;
        o.in_ready = i.out_ready[r];
        let mut next = self.locked;
        if i.in_valid && o.in_ready {
            next = if i.in_tail { None } else { Some(r) };
        }
        self.next = Some(if i.rst { None } else { next });
    }

    fn commit(&mut self, _i: &NiDemuxIn) {
        if let Some(n) = self.next.take() {
            self.locked = n;
        }
    }
}
