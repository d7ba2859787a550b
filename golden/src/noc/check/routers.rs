//! Scoreboards of the router-level designs: one hinge router and one VC router,
//! each watched at its ports under random legal inputs.
#![allow(clippy::needless_range_loop, reason = "a port number indexes several per-port bit fields and tables at once")]

use std::collections::VecDeque;

use super::{Findings, Schedule};
use crate::invariant::Violation;
use crate::model::Scoreboard;
use crate::noc::config::{NocConfig, Routing, VcParams};
use crate::noc::hinge_router::{HingeInputs, HingeOutputs, HingeTop, CAPTURED, LATCH_STATE_BITS};
use crate::noc::link::{LinkFmt, T_GOMCFG};
use crate::noc::route_rom::{DIRS, E, L, N, S, W};
use crate::noc::vc_router::{VcFlit, VcRouter, VcRouterInputs, VcRouterOutputs};

/// What a hinge router's ports must show (spec §1.3-1.6), for a stimulus that sends no
/// GOMCFG flits (the window set stays at the config's defaults):
///
/// * **1, 2** the schedule view, the epoch cycle, the grant and the STATUS slot are
///   the closed-form schedule's for this router's role (MC, GOM or neither);
/// * **§1.3 legal sources** E/W carry 0, the straight bypass input or the local
///   injection; N/S carry 0, the straight input or a flit that arrived on E, W or the
///   local injection exactly two cycles before (captured, then turned: turns only come
///   from latches);
/// * **3, 4** an ejected flit arrived on some input one cycle before, is addressed to
///   this router and is not a GOMCFG flit (those are consumed);
/// * **5** a latch drops only while it holds a CAPTURED flit.
#[derive(Debug, Clone)]
pub struct HingeChecker {
    c: NocConfig,
    fmt: LinkFmt,
    x: u32,
    y: u32,
    /// The router's MC index, if it is an MC router.
    mc: Option<usize>,
    gom: bool,
    sched: Schedule,
    /// The wires entering E, W, N, S and the local injection, one and two cycles ago.
    wires_1: [u128; 5],
    wires_2: [u128; 5],
    cycle: u64,
    pub findings: Findings,
    /// Flits seen ejected.
    pub ejected: u64,
}

impl HingeChecker {
    pub fn new(c: &NocConfig, x: u32, y: u32) -> HingeChecker {
        let id = c.node(x, y);
        HingeChecker {
            c: c.clone(),
            fmt: LinkFmt::new(c),
            x,
            y,
            mc: c.mc_at(id),
            gom: c.gom_node() == id,
            sched: Schedule::new(c),
            wires_1: [0; 5],
            wires_2: [0; 5],
            cycle: 0,
            findings: Findings::default(),
            ejected: 0,
        }
    }

    fn flag(&mut self, inv: &'static str, detail: String) {
        self.findings.flag(self.cycle, inv, detail);
    }

    pub fn observe(&mut self, i: &HingeInputs, o: &HingeOutputs) {
        let c = &self.c.clone();
        let wires = [i.byp_in[E], i.byp_in[W], i.byp_in[N], i.byp_in[S], o.inj];
        if let Some(slot) = self.sched.slot(c) {
            let t = slot.t;
            if o.sched != slot.sched || o.ecyc != t {
                self.flag("1 schedule equality", format!("schedule view {:#x} at epoch cycle {}, the schedule says {:#x} at {t}", o.sched, o.ecyc, slot.sched));
            }
            let (grant, status) = match self.mc {
                Some(m) => (self.sched.mc_grant(c, &slot, m), self.sched.mc_status(c, &slot, m)),
                None => (self.gom && Schedule::gom_grant(c, &slot), false),
            };
            if (o.loc_in_grant, o.loc_in_status) != (grant, status) {
                self.flag("2 grant legality", format!("grant {} status {}, expected {grant} {status} (t = {t})", o.loc_in_grant, o.loc_in_status));
            }
            // §1.3: every bypass output from one of its legal sources
            let inj = if o.loc_in_grant && i.loc_in_v { i.loc_in_link | self.fmt.valid_bit() } else { 0 };
            if o.inj != inj {
                self.flag("2 grant legality", format!("injection {:#x} with offer {} and grant {}", o.inj, i.loc_in_v, o.loc_in_grant));
            }
            let turned = [self.wires_2[E], self.wires_2[W], self.wires_2[L]];
            for (out, straight, others) in [(E, i.byp_in[W], vec![inj]), (W, i.byp_in[E], vec![inj]), (N, i.byp_in[S], turned.to_vec()), (S, i.byp_in[N], turned.to_vec())] {
                let v = o.byp_out[out];
                if v != 0 && v != straight && !others.contains(&v) {
                    self.flag("1.3 legal sources", format!("bypass output {} carries {v:#x}: neither its straight input, nor a legal other source", DIRS[out]));
                }
            }
            // 3, 4: ejection one cycle after capture, at the destination only
            if self.fmt.is_valid(o.loc_out) {
                self.ejected += 1;
                let f = self.fmt.unpack(o.loc_out);
                if !self.wires_1.contains(&o.loc_out) {
                    self.flag("3 bounded latency", format!("ejected {:#x}, which no input carried last cycle", o.loc_out));
                }
                if (f.dst_x, f.dst_y) != (self.x, self.y) || f.ty == T_GOMCFG {
                    self.flag("4 exactly once", format!("router ({}, {}) ejected a type-{} flit for ({}, {})", self.x, self.y, f.ty, f.dst_x, f.dst_y));
                }
            }
            // 5: drops only from CAPTURED latches
            for d in 0..5 {
                let st = o.latch_state >> (LATCH_STATE_BITS as usize * d) & ((1 << LATCH_STATE_BITS) - 1);
                if o.drop >> d & 1 == 1 && st != CAPTURED as u32 {
                    self.flag("5 drop rule", format!("latch {} drops in state {st}", DIRS[d]));
                }
            }
        }
        if let Some(bad) = self.sched.advance(c, i.rst) {
            self.flag("1 schedule equality", bad);
        }
        (self.wires_2, self.wires_1) = if i.rst { ([0; 5], [0; 5]) } else { (self.wires_1, wires) };
        self.cycle += 1;
    }
}

impl Scoreboard<HingeTop> for HingeChecker {
    fn observe(&mut self, _cycle: u64, inputs: &HingeInputs, outputs: &HingeOutputs) -> Result<(), Violation> {
        HingeChecker::observe(self, inputs, outputs);
        self.findings.next_unreported()
    }
}

/// What one VC router's ports must show (spec §1.11-1.12, invariant 11), whatever
/// its allocators choose:
///
/// * **credit bounds** an input VC never holds more than BUF_DEPTH flits (sent minus
///   credits returned) and never returns a credit it does not owe; an output VC is
///   never sent more flits than the downstream buffer holds (sent minus credits back);
/// * **exactly once, in order** every flit leaving is the oldest flit of some input
///   VC not yet forwarded;
/// * **routing** it leaves on the dimension-order (XY or YX) port of its destination;
/// * **contiguity** an output VC carries one packet from head to tail, all its flits
///   from the one input VC that won it;
/// * **VC class** with request and reply classes on VCs of their own (`xy_yx`, or a
///   GPU network's `reply_vcs`), a flit stays in its input VC's class.
#[derive(Debug, Clone)]
pub struct VcRouterChecker {
    n: u32,
    x: u32,
    y: u32,
    v: usize,
    depth: u32,
    routing: Routing,
    /// The first reply-class VC (`v` when both classes share every VC): the classes of
    /// `xy_yx` or of `reply_vcs`.
    reply_from: usize,
    /// Per input VC: flits received and not yet forwarded, and its buffer occupancy
    /// (received minus credits returned).
    waiting: Vec<VecDeque<VcFlit>>,
    held: Vec<u32>,
    /// Per output VC: flits downstream (sent minus credits back), and the input VC
    /// whose packet holds it.
    downstream: Vec<u32>,
    owner: Vec<Option<usize>>,
    started: bool,
    cycle: u64,
    pub findings: Findings,
    /// Flits seen forwarded.
    pub forwarded: u64,
}

impl VcRouterChecker {
    pub fn new(p: &VcParams, n: u32, x: u32, y: u32) -> VcRouterChecker {
        let nv = 5 * p.vcs as usize;
        VcRouterChecker {
            n,
            x,
            y,
            v: p.vcs as usize,
            depth: p.buf_depth,
            routing: p.routing,
            reply_from: if p.class_vcs(1).start > 0 { p.class_vcs(1).start } else { p.vcs as usize },
            waiting: vec![VecDeque::new(); nv],
            held: vec![0; nv],
            downstream: vec![0; nv],
            owner: vec![None; nv],
            started: false,
            cycle: 0,
            findings: Findings::default(),
            forwarded: 0,
        }
    }

    fn flag(&mut self, inv: &'static str, detail: String) {
        self.findings.flag(self.cycle, inv, detail);
    }

    /// The dimension-order output port of `dst` at this router for a flit on input
    /// VC `u` (its class decides the order under `xy_yx`).
    fn port(&self, dst: u16, u: usize) -> usize {
        let (dx, dy) = (dst as u32 % self.n, dst as u32 / self.n);
        let x_move = if dx > self.x {
            Some(E)
        } else if dx < self.x {
            Some(W)
        } else {
            None
        };
        let y_move = if dy > self.y {
            Some(N)
        } else if dy < self.y {
            Some(S)
        } else {
            None
        };
        let class = u8::from(self.routing == Routing::XyYx && u >= self.v / 2);
        match self.routing.of_class(class) {
            Routing::Yx => y_move.or(x_move),
            _ => x_move.or(y_move),
        }
        .unwrap_or(L)
    }

    pub fn observe(&mut self, i: &VcRouterInputs, o: &VcRouterOutputs) {
        let v = self.v;
        if i.rst {
            self.started = true;
            self.waiting.iter_mut().for_each(VecDeque::clear);
            self.held.iter_mut().for_each(|h| *h = 0);
            self.downstream.iter_mut().for_each(|d| *d = 0);
            self.owner.iter_mut().for_each(|w| *w = None);
        } else if self.started {
            for (out, link) in o.links.iter().enumerate() {
                let Some((u, f)) = link else { continue };
                let ov = out * v + *u as usize;
                self.forwarded += 1;
                match (0..5 * v).find(|&iv| self.waiting[iv].front() == Some(f)) {
                    None => self.flag("11 no loss", format!("port {} VC {u} carries a flit no input VC holds next", DIRS[out])),
                    Some(iv) => {
                        self.waiting[iv].pop_front();
                        match (self.owner[ov], f.head) {
                            (None, true) => {}
                            (Some(w), false) if w == iv => {}
                            (owner, head) => self.flag("11 contiguity", format!("port {} VC {u}: head {head} from input VC {iv}, owned by {owner:?}", DIRS[out])),
                        }
                        self.owner[ov] = if f.tail { None } else { Some(iv) };
                        let reply = |u: usize| u >= self.reply_from;
                        if reply(iv % v) != reply(*u as usize) {
                            self.flag("12 VC class", format!("port {} VC {u} carries a flit of input VC {} of the other class", DIRS[out], iv % v));
                        }
                    }
                }
                let want = self.port(f.dst, *u as usize);
                if want != out {
                    self.flag("11 routing", format!("a flit for node {} leaves on {}, dimension order says {}", f.dst, DIRS[out], DIRS[want]));
                }
                self.downstream[ov] += 1;
                if self.downstream[ov] > self.depth {
                    self.flag("11 credit bounds", format!("port {} VC {u}: {} flits downstream, the buffer holds {}", DIRS[out], self.downstream[ov], self.depth));
                }
            }
            for p in 0..5 {
                for u in 0..v {
                    let iv = p * v + u;
                    if o.credits[p] >> u & 1 == 1 {
                        if self.held[iv] == 0 {
                            self.flag("11 credit bounds", format!("input {} VC {u} returns a credit for an empty buffer", DIRS[p]));
                        } else {
                            self.held[iv] -= 1;
                        }
                    }
                    // (credits in are per output port: p names the output here)
                    if i.credits[p] >> u & 1 == 1 {
                        self.downstream[iv] = self.downstream[iv].saturating_sub(1);
                    }
                }
                if let Some((u, f)) = i.links[p] {
                    let iv = p * v + u as usize;
                    self.waiting[iv].push_back(f);
                    self.held[iv] += 1;
                    if self.held[iv] > self.depth {
                        self.flag("11 credit bounds", format!("input {} VC {u} receives flit {} of a {}-flit buffer", DIRS[p], self.held[iv], self.depth));
                    }
                }
            }
        }
        self.cycle += 1;
    }
}

impl Scoreboard<VcRouter> for VcRouterChecker {
    fn observe(&mut self, _cycle: u64, inputs: &VcRouterInputs, outputs: &VcRouterOutputs) -> Result<(), Violation> {
        VcRouterChecker::observe(self, inputs, outputs);
        self.findings.next_unreported()
    }
}
