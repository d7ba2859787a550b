//! Independent scoreboards of the spec §4.3 invariants.
//!
//! [`ReplyChecker`] watches only the ports and links of the reply mesh (the values
//! the co-simulation compares) and re-derives what they must be from the spec's
//! closed-form schedule, its own window arithmetic and its own shadow queues.
//! [`VcChecker`] does the same for a VC mesh from its links, credits and terminals.
//! Numbers refer to spec §4.3.

use std::collections::{BTreeMap, VecDeque};

use super::config::NocConfig;
use super::gom::{GOMCFG_CYCLE, SNAPSHOT_CYCLE, SWAP_CYCLE};
use super::link::{status_fields, LinkFmt, T_DATA, T_GOMCFG, T_STATUS};
use super::overlay_ctrl::window_at;
use super::reply_mesh::{ReplyInputs, ReplyOutputs};
use super::vc_mesh::{VcMeshInputs, VcMeshOutputs};

pub use crate::invariant::Violation;

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
    /// Epoch-relative cycle, counted from the last reset.
    t: Option<u32>,
    tact: Vec<u32>,
    tnext: Vec<u32>,
    /// Expected ejections: cycle -> (node, flit).
    expect: BTreeMap<u64, Vec<(usize, u128)>>,
    prev_captures: Vec<u8>,
    status_seen: Vec<u32>,
    arr: Vec<u32>,
    occ: Vec<u32>,
    shadow_q: Vec<VecDeque<u128>>,
    /// Per (src MC, dst node): inside a packet.
    in_packet: BTreeMap<(u32, usize), bool>,
    prev_live: Option<u32>,
    snaps: u32,
    violations: Vec<Violation>,
    pub max_violations: usize,
    pub delivered: u64,
}

impl ReplyChecker {
    pub fn new(c: &NocConfig) -> ReplyChecker {
        ReplyChecker {
            c: c.clone(),
            fmt: LinkFmt::new(c),
            cycle: 0,
            t: None,
            tact: c.default_windows.clone(),
            tnext: c.default_windows.clone(),
            expect: BTreeMap::new(),
            prev_captures: vec![0; c.nodes()],
            status_seen: vec![0; c.m()],
            arr: vec![0; c.m()],
            occ: vec![0; c.m()],
            shadow_q: vec![VecDeque::new(); c.m()],
            in_packet: BTreeMap::new(),
            prev_live: None,
            snaps: 0,
            violations: Vec::new(),
            max_violations: 16,
            delivered: 0,
        }
    }

    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    fn flag(&mut self, inv: &'static str, detail: String) {
        if self.violations.len() < self.max_violations {
            self.violations.push(Violation { cycle: self.cycle, invariant: inv, detail });
        }
    }

    /// Flits expected but not yet ejected.
    pub fn outstanding(&self) -> usize {
        self.expect.values().map(Vec::len).sum()
    }

    /// Observe one cycle (inputs and the outputs computed before its edge).
    pub fn observe(&mut self, inp: &ReplyInputs, out: &ReplyOutputs) {
        let c = &self.c.clone();
        let n = c.n as usize;
        let sw1 = c.sw() + 1;
        let none = (1u32 << sw1) - 1;
        if let Some(t) = self.t {
            let p = c.reply.prologue;
            // ---- 1 schedule equality ----
            let win = window_at(p, c.reply.period, &self.tact, t);
            let (reconf, live_grp) = match win {
                None => (t < 2, if t < 2 { self.prev_live } else { Some(u32::MAX) }),
                Some((j, s)) => {
                    let off = t - s;
                    let live = if off < 2 {
                        if j == 0 && t - p < 2 {
                            Some(u32::MAX)
                        } else {
                            Some(((j + c.g() - 1) % c.g()) as u32)
                        }
                    } else {
                        Some(j as u32)
                    };
                    (off < 2, live)
                }
            };
            let (ea, eb) = match live_grp {
                None => (none, none),
                Some(u32::MAX) => (c.m() as u32, none),
                Some(g) => {
                    let mem = &c.groups[g as usize];
                    (mem[0] as u32, mem.get(1).map_or(none, |&i| i as u32))
                }
            };
            let want = ea | (eb << sw1) | ((reconf as u32) << (2 * sw1)) | (((t < p) as u32) << (2 * sw1 + 1));
            for id in 0..c.nodes() {
                if out.sched[id] != want {
                    self.flag("1 schedule equality", format!("router {id} reports {:#x}, schedule says {want:#x} (t = {t})", out.sched[id]));
                    break;
                }
            }
            if out.ecyc != t {
                self.flag("1 schedule equality", format!("epoch cycle {} expected {t}", out.ecyc));
            }
            // ---- 7 drain: latches idle when a configuration goes live ----
            if live_grp != self.prev_live && out.latch_state.iter().any(|&s| s != 0) {
                self.flag("7 drain", format!("a latch is busy when overlay {live_grp:?} goes live"));
            }
            self.prev_live = live_grp;
            // ---- 2 grant legality ----
            for (i, &(x, y)) in c.mcs.iter().enumerate() {
                let id = c.node(x, y);
                let (g, ph) = c.group_of[i];
                let want = match win {
                    Some((j, s)) if j == g => {
                        let off = t - s;
                        let ph = ph as u32;
                        off >= 2 + ph && off + 2 <= self.tact[j] && (off - 2 - ph) % c.reply.interval == 0
                    }
                    _ => false,
                };
                if out.grant[id] != want {
                    self.flag("2 grant legality", format!("MC {i} grant {} expected {want} (t = {t})", out.grant[id]));
                }
            }
            let gid = c.gom_node();
            let gflits = super::link::gomcfg_flits(c.g()) as usize;
            let gwant = t < p && GOMCFG_CYCLE.iter().take(gflits).any(|&x| x == t);
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
                self.tnext = expected_windows(&w, c.reply.period, c.reply.t_min);
                self.status_seen.iter_mut().for_each(|s| *s = 0);
                self.arr.iter_mut().for_each(|s| *s = 0);
                self.occ.iter_mut().for_each(|s| *s = 0);
            }
            let gi = out.gom_inject;
            if self.fmt.valid(gi) {
                let f = self.fmt.unpack(gi);
                let mut tv = self.tact.clone();
                // what the flit would set
                super::link::gomcfg_apply(f.payload, &mut tv);
                let idx = (f.payload >> 60) as usize;
                for k in 0..6 {
                    let j = 6 * idx + k;
                    if j < c.g() && tv[j] != self.tnext[j] {
                        self.flag("9 GOM exactness", format!("GOMCFG T[{j}] = {} but the integer rule gives {}", tv[j], self.tnext[j]));
                    }
                }
                if f.ty != T_GOMCFG {
                    self.flag("9 GOM exactness", "GOM injected a non-GOMCFG flit".into());
                }
            }
            if t == SWAP_CYCLE {
                self.tact.clone_from(&self.tnext);
                let s: u32 = self.tact.iter().sum();
                if s != c.reply.period || self.tact.iter().any(|&x| x < c.reply.t_min || x > 1000) {
                    self.flag("1 schedule equality", format!("window set {:?} breaks sum = K / T_MIN", self.tact));
                }
            }
        }
        // ---- MC queues (10 and FIFO order) ----
        for (i, &(x, y)) in c.mcs.iter().enumerate() {
            let id = c.node(x, y);
            let inj = out.inj[id];
            if self.fmt.valid(inj) && self.fmt.ty(inj) != T_STATUS {
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
            if self.fmt.valid(inj) && self.fmt.ty(inj) != T_GOMCFG {
                let (dx, dy) = self.fmt.dst(inj);
                let src_y = (id / n) as u32;
                let lat = if dy == src_y { 1 } else { 3 };
                self.expect.entry(self.cycle + lat).or_default().push((c.node(dx, dy), inj));
            }
        }
        let mut due = self.expect.remove(&self.cycle).unwrap_or_default();
        for id in 0..c.nodes() {
            let lo = out.loc_out[id];
            if !self.fmt.valid(lo) {
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
            if f.ty == T_STATUS && self.fmt.valid(out.eject[id]) {
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
        if inp.rst {
            self.t = Some(0);
            self.tact.clone_from(&c.default_windows);
            self.tnext.clone_from(&c.default_windows);
            self.expect.clear();
            self.prev_captures.iter_mut().for_each(|x| *x = 0);
            self.shadow_q.iter_mut().for_each(VecDeque::clear);
            self.in_packet.clear();
            self.status_seen.iter_mut().for_each(|s| *s = 0);
            self.arr.iter_mut().for_each(|s| *s = 0);
            self.occ.iter_mut().for_each(|s| *s = 0);
            self.prev_live = None;
            self.snaps = 0;
        } else if let Some(t) = self.t {
            self.t = Some(if t + 1 == c.epoch_len() { 0 } else { t + 1 });
        }
        self.cycle += 1;
    }
}

/// Scoreboard of a VC mesh with its terminals.
#[derive(Debug, Clone)]
pub struct VcChecker {
    n: usize,
    v: usize,
    depth: u32,
    cycle: u64,
    /// Flits in the buffer of (node, input dir 0..5, vc): sent minus credits returned.
    inflight: Vec<u32>,
    /// Outstanding flits per (src, dst): (packet id, flit index) in injection order.
    pending: BTreeMap<(u16, u16), VecDeque<u128>>,
    /// Per (node, out dir, vc): the packet (src, id) currently on that link VC.
    on_link: Vec<Option<(u16, u128)>>,
    order_across_packets: bool,
    violations: Vec<Violation>,
    pub max_violations: usize,
    pub delivered: u64,
    started: bool,
}

impl VcChecker {
    pub fn new(n: u32, p: &super::config::VcParams) -> VcChecker {
        let nn = (n * n) as usize;
        let v = p.vcs as usize;
        VcChecker {
            n: n as usize,
            v,
            depth: p.buf_depth,
            cycle: 0,
            inflight: vec![0; nn * 5 * v],
            pending: BTreeMap::new(),
            on_link: vec![None; nn * 5 * v],
            order_across_packets: v == 1,
            violations: Vec::new(),
            max_violations: 16,
            delivered: 0,
            started: false,
        }
    }

    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    fn flag(&mut self, inv: &'static str, detail: String) {
        if self.violations.len() < self.max_violations {
            self.violations.push(Violation { cycle: self.cycle, invariant: inv, detail });
        }
    }

    pub fn outstanding(&self) -> usize {
        self.pending.values().map(VecDeque::len).sum()
    }

    fn link_flit(&mut self, slot: usize, f: &super::vc_router::VcFlit, where_: String) {
        let pid = f.data >> 8;
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
            *self = VcChecker { max_violations: self.max_violations, violations: std::mem::take(&mut self.violations), cycle: self.cycle + 1, started: true, delivered: self.delivered, ..VcChecker::new(n as u32, &super::config::VcParams { flit_width: 64, vcs: v as u32, buf_depth: self.depth, routing: super::config::Routing::Xy, planes: 1 }) };
            self.order_across_packets = v == 1;
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
                            let pid = f.data >> 8;
                            let earlier = q.iter().take(k).any(|&d| d >> 8 == pid);
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
                    self.flag("11 in-order delivery", format!("node {id} ejected {:#x} from {} out of order or twice", f.data, f.src));
                }
            }
        }
        self.cycle += 1;
    }
}
