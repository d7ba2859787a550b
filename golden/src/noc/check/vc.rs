//! A VC mesh's scoreboard: credit bounds of every buffer, no loss, in-order delivery
//! and packet contiguity, from the mesh's links, credits and terminals.
#![allow(clippy::needless_range_loop, reason = "a port number indexes several per-port bit fields and tables at once")]

use std::collections::{BTreeMap, VecDeque};

use super::Findings;
use crate::invariant::Violation;
use crate::model::Scoreboard;
use crate::noc::config::VcParams;
use crate::noc::vc_mesh::{VcMesh, VcMeshInputs, VcMeshOutputs};
use crate::noc::vc_router::{lo128, VcData, VcFlit};

/// Scoreboard of a VC mesh with its terminals.
#[derive(Debug, Clone)]
pub struct VcChecker {
    params: VcParams,
    n: usize,
    v: usize,
    depth: u32,
    cycle: u64,
    /// Flits in the buffer of (node, input dir 0..5, vc): sent minus credits returned.
    inflight: Vec<u32>,
    /// Outstanding flits per (src, dst): their payloads (packet id, flit index in the
    /// low bits; the whole payload must arrive intact) in injection order.
    pending: BTreeMap<(u16, u16), VecDeque<VcData>>,
    /// Per (node, out dir, vc): the packet (src, id) currently on that link VC.
    on_link: Vec<Option<(u16, u128)>>,
    order_across_packets: bool,
    pub findings: Findings,
    pub delivered: u64,
    started: bool,
}

impl VcChecker {
    pub fn new(n: u32, p: &VcParams) -> VcChecker {
        let nn = (n * n) as usize;
        let v = p.vcs as usize;
        VcChecker {
            params: *p,
            n: n as usize,
            v,
            depth: p.buf_depth,
            cycle: 0,
            inflight: vec![0; nn * 5 * v],
            pending: BTreeMap::new(),
            on_link: vec![None; nn * 5 * v],
            order_across_packets: v == 1,
            findings: Findings::default(),
            delivered: 0,
            started: false,
        }
    }

    pub fn violations(&self) -> &[Violation] {
        self.findings.all()
    }

    fn flag(&mut self, inv: &'static str, detail: String) {
        self.findings.flag(self.cycle, inv, detail);
    }

    pub fn outstanding(&self) -> usize {
        self.pending.values().map(VecDeque::len).sum()
    }

    fn link_flit(&mut self, slot: usize, f: &VcFlit, where_: String) {
        let pid = f.data_lo() >> 8;
        match (self.on_link[slot], f.head) {
            (None, true) => {}
            (Some(_), true) => self.flag("11 contiguity", format!("{where_}: head while a packet holds the VC")),
            (None, false) => self.flag("11 contiguity", format!("{where_}: body flit without a head")),
            (Some((s, p)), false) if s != f.src || p != pid => self.flag("11 contiguity", format!("{where_}: flits of two packets interleave on one VC")),
            _ => {}
        }
        self.on_link[slot] = if f.tail { None } else { Some((f.src, pid)) };
    }

    /// Observe one cycle of ports and links.
    pub fn observe(&mut self, inp: &VcMeshInputs, out: &VcMeshOutputs) {
        let (n, v) = (self.n, self.v);
        let nn = n * n;
        if inp.rst {
            let fresh = VcChecker::new(n as u32, &self.params);
            *self = VcChecker { findings: std::mem::take(&mut self.findings), cycle: self.cycle + 1, started: true, delivered: self.delivered, ..fresh };
            return;
        }
        if !self.started {
            self.cycle += 1;
            return;
        }
        let opp = [1usize, 0, 3, 2];
        for id in 0..nn {
            let (x, y) = (id % n, id / n);
            // links into neighbours: buffer accounting (credit bounds, 11)
            for d in 0..4 {
                if let Some((u, f)) = out.links[id][d] {
                    let nb = match d {
                        0 if x + 1 < n => id + 1,
                        1 if x > 0 => id - 1,
                        2 if y + 1 < n => id + n,
                        3 if y > 0 => id - n,
                        _ => {
                            self.flag("11 no loss", format!("router {id} sends off the mesh on port {d}"));
                            continue;
                        }
                    };
                    let slot = (nb * 5 + opp[d]) * v + u as usize;
                    self.inflight[slot] += 1;
                    if self.inflight[slot] > self.depth {
                        self.flag("11 credit bounds", format!("buffer ({nb}, in {}, vc {u}) would hold {} flits", opp[d], self.inflight[slot]));
                    }
                    let ls = (id * 5 + d) * v + u as usize;
                    self.link_flit(ls, &f, format!("link {id}->{d}"));
                }
                for u in 0..v {
                    if out.credits[id][d] >> u & 1 == 1 {
                        let slot = (id * 5 + d) * v + u;
                        if self.inflight[slot] == 0 {
                            self.flag("11 credit bounds", format!("router {id} returns a credit for an empty buffer (in {d}, vc {u})"));
                        } else {
                            self.inflight[slot] -= 1;
                        }
                    }
                }
            }
            // injection
            if let Some((u, f)) = inp.inj[id] {
                let slot = (id * 5 + 4) * v + u as usize;
                self.inflight[slot] += 1;
                if self.inflight[slot] > self.depth {
                    self.flag("11 credit bounds", format!("terminal {id} overruns its router's local buffer (vc {u})"));
                }
                self.pending.entry((f.src, f.dst)).or_default().push_back(f.data);
            }
            for u in 0..v {
                if out.inj_credit[id] >> u & 1 == 1 {
                    let slot = (id * 5 + 4) * v + u;
                    if self.inflight[slot] == 0 {
                        self.flag("11 credit bounds", format!("router {id} returns a local credit for an empty buffer"));
                    } else {
                        self.inflight[slot] -= 1;
                    }
                }
            }
            // ejection
            if let Some((u, f)) = out.ej[id] {
                if f.dst as usize != id {
                    self.flag("11 no loss", format!("flit for {} ejected at {id}", f.dst));
                }
                let ls = (id * 5 + 4) * v + u as usize;
                self.link_flit(ls, &f, format!("ejection {id}"));
                let key = (f.src, f.dst);
                let ok = match self.pending.get_mut(&key) {
                    Some(q) => {
                        if self.order_across_packets {
                            q.front() == Some(&f.data) && q.pop_front().is_some()
                        } else if let Some(k) = q.iter().position(|&d| d == f.data) {
                            // in-packet order: no earlier flit of this packet may remain
                            let pid = f.data_lo() >> 8;
                            let earlier = q.iter().take(k).any(|d| lo128(d) >> 8 == pid);
                            q.remove(k);
                            !earlier
                        } else {
                            false
                        }
                    }
                    None => false,
                };
                if ok {
                    self.delivered += 1;
                } else {
                    self.flag("11 in-order delivery", format!("node {id} ejected {:x?} from {} out of order or twice", f.data, f.src));
                }
            }
        }
        self.cycle += 1;
    }
}

impl Scoreboard<VcMesh> for VcChecker {
    fn observe(&mut self, _cycle: u64, inputs: &VcMeshInputs, outputs: &VcMeshOutputs) -> Result<(), Violation> {
        VcChecker::observe(self, inputs, outputs);
        self.findings.next_unreported()
    }
}
