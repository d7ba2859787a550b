//! The LLC partition's 32-lane SP-float + integer ALU (spec §1.1 item 7, block
//! `simd_alu` of §6.3): pipelined, one warp-op per cycle, result `LAT` cycles after the
//! op is accepted; `cmp` ops give the lane bitmap (inactive lanes 0). FP divide, when
//! enabled, is unpipelined (`fdiv_latency`, `in_ready` low while it runs).

use super::config::LlcComputeConfig;
use super::lane_op::{alu, cmp};
use crate::model::Model;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimdAluIn {
    pub rst: bool,
    pub in_valid: bool,
    pub cmp: bool,
    pub op: u32,
    pub dtype: bool,
    pub a: Vec<u32>,
    pub b: Vec<u32>,
    pub mask: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimdAluOut {
    pub in_ready: bool,
    pub out_valid: bool,
    pub res: Vec<u32>,
    pub bitmap: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Slot {
    left: u32,
    res: Vec<u32>,
    bitmap: u32,
}

pub struct SimdAlu {
    pub lanes: usize,
    pub lat: u32,
    pub fdiv: bool,
    pub fdiv_lat: u32,
    pipe: Vec<Slot>,
    /// Cycles the divider stays busy.
    div_busy: u32,
    next: Option<(Vec<Slot>, u32)>,
}

impl SimdAlu {
    pub fn new(c: &LlcComputeConfig) -> Self {
        Self { lanes: c.oq.lanes as usize, lat: c.sq.alu_latency, fdiv: c.sq.fdiv, fdiv_lat: c.sq.fdiv_latency, pipe: Vec::new(), div_busy: 0, next: None }
    }
}

impl Model for SimdAlu {
    type In = SimdAluIn;
    type Out = SimdAluOut;

    fn idle_inputs(&self) -> SimdAluIn {
        SimdAluIn { rst: false, in_valid: false, cmp: false, op: 0, dtype: false, a: vec![0; self.lanes], b: vec![0; self.lanes], mask: 0 }
    }

    fn new_outputs(&self) -> SimdAluOut {
        SimdAluOut { res: vec![0; self.lanes], ..Default::default() }
    }

    fn assert_reset(i: &mut SimdAluIn) {
        i.rst = true;
    }

    fn eval(&mut self, i: &SimdAluIn, o: &mut SimdAluOut) {
        *o = self.new_outputs();
        o.in_ready = self.div_busy == 0;
        if let Some(s) = self.pipe.iter().find(|s| s.left == 0) {
            o.out_valid = true;
            o.res.clone_from(&s.res);
            o.bitmap = s.bitmap;
        }
        if i.rst {
            self.next = Some((Vec::new(), 0));
            return;
        }
        let mut pipe: Vec<Slot> = self.pipe.iter().filter(|s| s.left > 0).map(|s| Slot { left: s.left - 1, ..s.clone() }).collect();
        let mut div = self.div_busy.saturating_sub(1);
        if i.in_valid && o.in_ready {
            let is_div = self.fdiv && !i.cmp && i.op == 11;
            let mut res = vec![0; self.lanes];
            let mut bitmap = 0;
            for k in (0..self.lanes).filter(|k| (i.mask >> k) & 1 == 1) {
                if i.cmp {
                    bitmap |= u32::from(cmp(i.op, i.dtype, i.a[k], i.b[k])) << k;
                } else {
                    res[k] = alu(i.op, i.dtype, i.a[k], i.b[k]);
                }
            }
            let lat = if is_div { self.fdiv_lat } else { self.lat };
            if is_div {
                div = self.fdiv_lat;
            }
            pipe.push(Slot { left: lat - 1, res, bitmap });
        }
        self.next = Some((pipe, div));
    }

    fn commit(&mut self, _i: &SimdAluIn) {
        if let Some((p, d)) = self.next.take() {
            self.pipe = p;
            self.div_busy = d;
        }
    }
}
