//! The reply plane's scoreboard: the ports and links of the reply mesh (the values
//! the co-simulation compares), checked against the closed-form schedule, the GOM's
//! integer window rule (written again here, independently of `gom::window_lengths`)
//! and shadow queues of every MC.

use std::collections::{BTreeMap, VecDeque};

use super::{Findings, Schedule};
use crate::invariant::Violation;
use crate::model::Scoreboard;
use crate::noc::config::NocConfig;
use crate::noc::gom::SNAPSHOT_CYCLE;
use crate::noc::link::{gomcfg_apply, gomcfg_index, status_fields, LinkFmt, GOMCFG_WINDOWS, T_DATA, T_GOMCFG, T_STATUS};
use crate::noc::reply_mesh::{ReplyInputs, ReplyMesh, ReplyOutputs};

/// Largest-remainder window split written independently of `gom::window_lengths`:
/// sort by remainder (descending, stable on index) and hand out the leftover.
fn expected_windows(w: &[u64], k: u32, t_min: u32) -> Vec<u32> {
    let g = w.len();
    let w: Vec<u128> = if w.iter().all(|&x| x == 0) { vec![1; g] } else { w.iter().map(|&x| x as u128).collect() };
    let sum: u128 = w.iter().sum();
    let budget = (k - g as u32 * t_min) as u128;
    let mut t: Vec<u32> = w.iter().map(|&x| t_min + ((budget * x) / sum) as u32).collect();
    let mut order: Vec<usize> = (0..g).collect();
    order.sort_by(|&a, &b| ((budget * w[b]) % sum).cmp(&((budget * w[a]) % sum)).then(a.cmp(&b)));
    let left = k - t.iter().sum::<u32>();
    for &i in order.iter().take(left as usize) {
        t[i] += 1;
    }
    t
}

/// Scoreboard of the reply plane.
#[derive(Debug, Clone)]
pub struct ReplyChecker {
    c: NocConfig,
    fmt: LinkFmt,
    cycle: u64,
    sched: Schedule,
    /// Expected ejections: cycle -> (node, flit).
    expect: BTreeMap<u64, Vec<(usize, u128)>>,
    prev_captures: Vec<u8>,
    status_seen: Vec<u32>,
    arr: Vec<u32>,
    occ: Vec<u32>,
    shadow_q: Vec<VecDeque<u128>>,
    /// Per (src MC, dst node): inside a packet.
    in_packet: BTreeMap<(u32, usize), bool>,
    snaps: u32,
    pub findings: Findings,
    pub delivered: u64,
}

impl ReplyChecker {
    pub fn new(c: &NocConfig) -> ReplyChecker {
        ReplyChecker {
            c: c.clone(),
            fmt: LinkFmt::new(c),
            cycle: 0,
            sched: Schedule::new(c),
            expect: BTreeMap::new(),
            prev_captures: vec![0; c.nodes()],
            status_seen: vec![0; c.m()],
            arr: vec![0; c.m()],
            occ: vec![0; c.m()],
            shadow_q: vec![VecDeque::new(); c.m()],
            in_packet: BTreeMap::new(),
            snaps: 0,
            findings: Findings::default(),
            delivered: 0,
        }
    }

    pub fn violations(&self) -> &[Violation] {
        self.findings.all()
    }

    fn flag(&mut self, inv: &'static str, detail: String) {
        self.findings.flag(self.cycle, inv, detail);
    }

    /// Flits expected but not yet ejected.
    pub fn outstanding(&self) -> usize {
        self.expect.values().map(Vec::len).sum()
    }

    /// Observe one cycle (inputs and the outputs computed before its edge).
    pub fn observe(&mut self, inp: &ReplyInputs, out: &ReplyOutputs) {
        let c = &self.c.clone();
        let n = c.n as usize;
        if let Some(slot) = self.sched.slot(c) {
            let t = slot.t;
            // ---- 1 schedule equality ----
            if let Some(id) = (0..c.nodes()).find(|&id| out.sched[id] != slot.sched) {
                self.flag("1 schedule equality", format!("router {id} reports {:#x}, schedule says {:#x} (t = {t})", out.sched[id], slot.sched));
            }
            if out.ecyc != t {
                self.flag("1 schedule equality", format!("epoch cycle {} expected {t}", out.ecyc));
            }
            // ---- 7 drain: latches idle when a configuration goes live ----
            if slot.changed && out.latch_state.iter().any(|&s| s != 0) {
                self.flag("7 drain", format!("a latch is busy when overlay {:?} goes live", slot.live));
            }
            // ---- 2 grant legality ----
            for (i, &(x, y)) in c.mcs.iter().enumerate() {
                let id = c.node(x, y);
                let want = self.sched.mc_grant(c, &slot, i);
                if out.grant[id] != want {
                    self.flag("2 grant legality", format!("MC {i} grant {} expected {want} (t = {t})", out.grant[id]));
                }
            }
            let gid = c.gom_node();
            let gwant = Schedule::gom_grant(c, &slot);
            if out.grant[gid] != gwant {
                self.flag("2 grant legality", format!("GOM grant {} expected {gwant} (t = {t})", out.grant[gid]));
            }
            // ---- 9 GOM exactness ----
            if t == SNAPSHOT_CYCLE {
                let epoch0 = self.snaps == 0;
                self.snaps += 1;
                for i in 0..c.m() {
                    if self.status_seen[i] != 1 && !epoch0 {
                        self.flag("9 GOM exactness", format!("MC {i} STATUS received {} times this epoch", self.status_seen[i]));
                    }
                }
                let w: Vec<u64> = c
                    .groups
                    .iter()
                    .map(|mem| mem.iter().map(|&i| c.reply.alpha as u64 * self.arr[i] as u64 + c.reply.gamma as u64 * self.occ[i] as u64).max().unwrap_or(0))
                    .collect();
                self.sched.tnext = expected_windows(&w, c.reply.period, c.reply.t_min);
                self.status_seen.iter_mut().for_each(|s| *s = 0);
                self.arr.iter_mut().for_each(|s| *s = 0);
                self.occ.iter_mut().for_each(|s| *s = 0);
            }
            let gi = out.gom_inject;
            if self.fmt.is_valid(gi) {
                let f = self.fmt.unpack(gi);
                // what the flit would set
                let mut tv = self.sched.tact.clone();
                gomcfg_apply(f.payload, &mut tv);
                let idx = gomcfg_index(f.payload);
                for j in (GOMCFG_WINDOWS * idx..GOMCFG_WINDOWS * (idx + 1)).filter(|&j| j < c.g()) {
                    if tv[j] != self.sched.tnext[j] {
                        self.flag("9 GOM exactness", format!("GOMCFG T[{j}] = {} but the integer rule gives {}", tv[j], self.sched.tnext[j]));
                    }
                }
                if f.ty != T_GOMCFG {
                    self.flag("9 GOM exactness", "GOM injected a non-GOMCFG flit".into());
                }
            }
        }
        // ---- MC queues (10 and FIFO order) ----
        for (i, &(x, y)) in c.mcs.iter().enumerate() {
            let id = c.node(x, y);
            let inj = out.inj[id];
            if self.fmt.is_valid(inj) && self.fmt.type_of(inj) != T_STATUS {
                match self.shadow_q[i].pop_front() {
                    Some(h) if h == (inj & !self.fmt.valid_bit()) => {}
                    other => self.flag("4 exactly once", format!("MC {i} injected {inj:#x}, queue head {other:?}")),
                }
            }
            if inp.mc_v[i] && out.mc_ready[i] {
                self.shadow_q[i].push_back(self.fmt.with_src(inp.mc_link[i] & !self.fmt.valid_bit(), i as u32));
            }
        }
        // ---- 3, 4, 8: latency, exactly once, order ----
        for id in 0..c.nodes() {
            let inj = out.inj[id];
            if self.fmt.is_valid(inj) && self.fmt.type_of(inj) != T_GOMCFG {
                let (dx, dy) = self.fmt.dst(inj);
                let src_y = (id / n) as u32;
                let lat = if dy == src_y { 1 } else { 3 };
                self.expect.entry(self.cycle + lat).or_default().push((c.node(dx, dy), inj));
            }
        }
        let mut due = self.expect.remove(&self.cycle).unwrap_or_default();
        for id in 0..c.nodes() {
            let lo = out.loc_out[id];
            if !self.fmt.is_valid(lo) {
                continue;
            }
            if let Some(k) = due.iter().position(|&(nd, f)| nd == id && f == lo) {
                due.swap_remove(k);
                self.delivered += 1;
            } else {
                self.flag("4 exactly once", format!("node {id} ejected {lo:#x}, which is not due here now"));
            }
            let f = self.fmt.unpack(lo);
            if f.ty == T_STATUS {
                if id == c.gom_node() {
                    let (mc, arr, occ) = status_fields(f.payload);
                    if (mc as usize) < c.m() {
                        self.status_seen[mc as usize] += 1;
                        self.arr[mc as usize] = arr;
                        self.occ[mc as usize] = occ;
                    }
                }
            } else if f.ty == T_DATA {
                let key = (f.src, id);
                let inside = *self.in_packet.get(&key).unwrap_or(&false);
                if f.head == inside {
                    self.flag("8 order", format!("node {id} from MC {}: head={} inside a packet={inside}", f.src, f.head));
                }
                self.in_packet.insert(key, !f.tail);
            }
            // ejection only at the GOM-steered port for STATUS
            if f.ty == T_STATUS && self.fmt.is_valid(out.eject[id]) {
                self.flag("10 no reply backpressure", format!("STATUS ejected to the core at node {id}"));
            }
        }
        for (nd, f) in due {
            self.flag("3 bounded latency", format!("flit {f:#x} for node {nd} was not ejected on time"));
        }
        // ---- 5 drop rule, 6 no overrun ----
        for id in 0..c.nodes() {
            let r = &out.rout[id];
            let resolved = r.ejects + r.turns + r.drop.count_ones() as u8;
            if resolved != self.prev_captures[id] {
                self.flag("5 drop rule", format!("router {id}: {} captures last cycle, {resolved} resolved", self.prev_captures[id]));
            }
            self.prev_captures[id] = r.captures;
            if out.overrun[id] || out.collision[id] {
                self.flag("6 no overrun", format!("router {id}: overrun {} collision {}", out.overrun[id], out.collision[id]));
            }
        }
        // ---- advance ----
        if let Some(bad) = self.sched.advance(c, inp.rst) {
            self.flag("1 schedule equality", bad);
        }
        if inp.rst {
            self.expect.clear();
            self.prev_captures.iter_mut().for_each(|x| *x = 0);
            self.shadow_q.iter_mut().for_each(VecDeque::clear);
            self.in_packet.clear();
            self.status_seen.iter_mut().for_each(|s| *s = 0);
            self.arr.iter_mut().for_each(|s| *s = 0);
            self.occ.iter_mut().for_each(|s| *s = 0);
            self.snaps = 0;
        }
        self.cycle += 1;
    }
}

impl Scoreboard<ReplyMesh> for ReplyChecker {
    fn observe(&mut self, _cycle: u64, inputs: &ReplyInputs, outputs: &ReplyOutputs) -> Result<(), Violation> {
        ReplyChecker::observe(self, inputs, outputs);
        self.findings.next_unreported()
    }
}
