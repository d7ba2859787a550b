//! Independent scoreboards of the spec §4.3 invariants, one per kind of generated
//! design, each watching only the ports the co-simulation compares (numbers refer to
//! spec §4.3):
//!
//! * [`ReplyChecker`]: the reply mesh; re-derives the schedule in closed form, the
//!   GOM's windows with its own integer arithmetic and the deliveries with its own
//!   shadow queues.
//! * [`VcChecker`]: a VC mesh with its terminals: credit bounds, no loss, in-order
//!   delivery, packet contiguity.
//! * [`HingeChecker`]: one hinge router (the router-level design): schedule and grant
//!   legality, the legal sources of every bypass output (spec §1.3), ejection at the
//!   destination one cycle after capture, drops only from captured latches.
//! * [`VcRouterChecker`]: one VC router: credit bounds on both sides, exactly-once
//!   forwarding in per-VC order, dimension-order routing, packet contiguity.
//!
//! Each implements [`crate::model::Scoreboard`] for its golden model; the shared
//! pieces are the closed-form schedule ([`Schedule`]) and the list of findings
//! ([`Findings`]).

mod reply;
mod routers;
mod vc;

pub use reply::ReplyChecker;
pub use routers::{HingeChecker, VcRouterChecker};
pub use vc::VcChecker;

use super::config::NocConfig;
use super::gom::{GOMCFG_CYCLE, SWAP_CYCLE};
use super::link::gomcfg_flits;
use super::overlay_ctrl::window_at;
pub use crate::invariant::Violation;

/// What a scoreboard found: the first `max` broken invariants, and how many of them
/// it has reported to a bench.
#[derive(Debug, Clone)]
pub struct Findings {
    list: Vec<Violation>,
    pub max: usize,
    reported: usize,
}

impl Default for Findings {
    fn default() -> Findings {
        Findings { list: Vec::new(), max: 16, reported: 0 }
    }
}

impl Findings {
    /// Record a broken invariant (beyond `max`, findings are dropped).
    pub fn flag(&mut self, cycle: u64, invariant: &'static str, detail: String) {
        if self.list.len() < self.max {
            self.list.push(Violation { cycle, invariant, detail });
        }
    }

    pub fn all(&self) -> &[Violation] {
        &self.list
    }

    /// The oldest finding not reported yet, as a bench wants it.
    pub fn next_unreported(&mut self) -> Result<(), Violation> {
        match self.list.get(self.reported) {
            Some(v) => {
                self.reported += 1;
                Err(v.clone())
            }
            None => Ok(()),
        }
    }
}

/// The live configuration the schedule names: `None` before the first GOM row,
/// [`GOM_ROW`] for the GOM broadcast row, else a window group.
type LiveGroup = Option<u32>;
const GOM_ROW: u32 = u32::MAX;

/// The overlay schedule of spec §1.5 in closed form, as a checker re-derives it from
/// the epoch cycle alone (never from a controller's counters): the epoch cycle since
/// the last reset, the active window set and the one the GOM's broadcast installs at
/// the swap.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// Epoch-relative cycle, counted from the last reset (None before it).
    pub t: Option<u32>,
    pub tact: Vec<u32>,
    pub tnext: Vec<u32>,
    prev_live: LiveGroup,
}

/// What the schedule says about one cycle.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    pub t: u32,
    /// `(window j, its start S_j)`, None in the prologue.
    pub win: Option<(usize, u32)>,
    pub live: LiveGroup,
    /// The live configuration differs from last cycle's.
    pub changed: bool,
    /// The `dbg_sched` word `{prologue, reconf, ovl_b, ovl_a}`.
    pub sched: u32,
}

impl Schedule {
    pub fn new(c: &NocConfig) -> Schedule {
        Schedule { t: None, tact: c.default_windows.clone(), tnext: c.default_windows.clone(), prev_live: None }
    }

    /// This cycle's slot (None before the first reset).
    pub fn slot(&mut self, c: &NocConfig) -> Option<Slot> {
        let t = self.t?;
        let p = c.reply.prologue;
        let win = window_at(p, c.reply.period, &self.tact, t);
        let (reconf, live) = match win {
            None => (t < 2, if t < 2 { self.prev_live } else { Some(GOM_ROW) }),
            Some((j, s)) => {
                let off = t - s;
                let live = if off >= 2 {
                    Some(j as u32)
                } else if j == 0 && t - p < 2 {
                    Some(GOM_ROW)
                } else {
                    Some(((j + c.g() - 1) % c.g()) as u32)
                };
                (off < 2, live)
            }
        };
        let sw1 = c.sw() + 1;
        let none = (1u32 << sw1) - 1;
        let (a, b) = match live {
            None => (none, none),
            Some(GOM_ROW) => (c.m() as u32, none),
            Some(g) => {
                let mem = &c.groups[g as usize];
                (mem[0] as u32, mem.get(1).map_or(none, |&i| i as u32))
            }
        };
        let sched = a | (b << sw1) | ((reconf as u32) << (2 * sw1)) | (((t < p) as u32) << (2 * sw1 + 1));
        let changed = live != self.prev_live;
        self.prev_live = live;
        Some(Slot { t, win, live, changed, sched })
    }

    /// MC `i`'s injection slot (its group's window, after the reconfiguration, every
    /// INTERVAL cycles from its phase, no later than T-2).
    pub fn mc_grant(&self, c: &NocConfig, s: &Slot, i: usize) -> bool {
        let (g, ph) = c.group_of[i];
        match s.win {
            Some((j, start)) if j == g => {
                let off = s.t - start;
                let ph = ph as u32;
                off >= 2 + ph && off + 2 <= self.tact[j] && (off - 2 - ph).is_multiple_of(c.reply.interval)
            }
            _ => false,
        }
    }

    /// MC `i`'s STATUS slot: its final slot of the window, in the epoch's last period.
    pub fn mc_status(&self, c: &NocConfig, s: &Slot, i: usize) -> bool {
        let r = &c.reply;
        match s.win {
            Some((j, start)) if self.mc_grant(c, s, i) => s.t - start + r.interval > self.tact[j] - 2 && s.t >= r.prologue + r.epoch - r.period,
            _ => false,
        }
    }

    /// The GOM's injection slots: the GOMCFG cycles of the prologue.
    pub fn gom_grant(c: &NocConfig, s: &Slot) -> bool {
        s.t < c.reply.prologue && GOMCFG_CYCLE.iter().take(gomcfg_flits(c.g()) as usize).any(|&x| x == s.t)
    }

    /// The end of a cycle: the window swap at [`SWAP_CYCLE`] (the set the broadcast
    /// carried becomes active, and must sum to K within T_MIN..=1000), reset, or the
    /// next epoch cycle. Returns a finding about the installed window set.
    pub fn advance(&mut self, c: &NocConfig, rst: bool) -> Option<String> {
        let mut bad = None;
        if rst {
            self.t = Some(0);
            self.tact.clone_from(&c.default_windows);
            self.tnext.clone_from(&c.default_windows);
            self.prev_live = None;
            return None;
        }
        if let Some(t) = self.t {
            if t == SWAP_CYCLE {
                self.tact.clone_from(&self.tnext);
                let s: u32 = self.tact.iter().sum();
                if s != c.reply.period || self.tact.iter().any(|&x| x < c.reply.t_min || x > 1000) {
                    bad = Some(format!("window set {:?} breaks sum = K / T_MIN", self.tact));
                }
            }
            self.t = Some(if t + 1 == c.epoch_len() { 0 } else { t + 1 });
        }
        bad
    }
}
