//! Overlay controller (spec §1.5): Algorithm 1 with the spec's fixes, in the
//! cycle-exact schedule form that both the golden model and the RTL implement.
//!
//! Registers: `ecyc` (epoch-relative cycle, 0..P+E-1; Algorithm 1's global counter
//! plus the prologue), `lc` (cycle within the current window, Algorithm 1's local
//! counter minus one), `gi` (window index i), `sc` (injection-slot phase, (lc-2) mod
//! INTERVAL), `live` (the crossbar configuration in force) and the active window set.
//!
//! * Prologue `ecyc < P`: cycles 0-1 keep the previous configuration (drain), from
//!   cycle 2 the GOM broadcast row is live. End of cycle 29: T <- T-pending.
//! * Window j starts with `lc = 0` at its S_j; cycles S_j, S_j+1 are the 2-cycle
//!   reconfiguration (previous configuration still live); its own row(s) go live at
//!   S_j+2 (`live` loads at `lc == 1`). The window lasts exactly T_j cycles.
//! * Slots: member with phase `ph` may inject when `lc >= 2+ph`, `lc <= T-2` and
//!   `sc == ph`. A slot is the member's *final* one when the next would pass T-2.
//! * Windows repeat every K cycles; Σ T = K and K | E make the last window end exactly
//!   at the epoch end, so no `gc == E` special case remains (spec hazard 1).

use super::config::NocConfig;
use super::gom::{GOMCFG_CYCLE, SWAP_CYCLE};

/// Width of the epoch-cycle counter `ecyc` (`dbg_ecyc`): a prologue and epoch fit it.
pub const ECYC_BITS: u32 = 16;

/// The configuration in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Live {
    /// After reset, before the first GOM row.
    None,
    /// The GOM broadcast row (ROM row m).
    Gom,
    /// Window group g's overlay(s).
    Group(usize),
}

/// Planted controller bugs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CtrlMutation {
    /// The last injection slot of a window is at T-1 instead of T-2 (no drain margin).
    LateLastSlot,
}

/// Counter-derived outputs of one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CtrlOut {
    pub prologue: bool,
    pub reconf: bool,
    pub live: Live,
    /// Injection slot for the phase-0 / phase-1 member of the live group.
    pub slot: [bool; 2],
    /// That slot is the member's final one of the window.
    pub final_slot: [bool; 2],
    /// The window is in the last period of the epoch.
    pub last_period: bool,
    /// GOM injection cycle.
    pub gom_slot: bool,
    pub ecyc: u32,
}

#[derive(Debug, Clone)]
pub struct OverlayCtrl {
    p: u32,
    e: u32,
    k: u32,
    interval: u32,
    g: usize,
    gom_flits: u32,
    pub ecyc: u32,
    pub lc: u32,
    pub gi: usize,
    pub sc: u32,
    pub live: Live,
    /// Active window set (one T per group).
    pub t: Vec<u32>,
    pub mutation: Option<CtrlMutation>,
    defaults: Vec<u32>,
}

impl OverlayCtrl {
    pub fn new(c: &NocConfig) -> OverlayCtrl {
        OverlayCtrl {
            p: c.reply.prologue,
            e: c.reply.epoch,
            k: c.reply.period,
            interval: c.reply.interval,
            g: c.g(),
            gom_flits: super::link::gomcfg_flits(c.g()),
            ecyc: 0,
            lc: 0,
            gi: 0,
            sc: 0,
            live: Live::None,
            t: c.default_windows.clone(),
            mutation: None,
            defaults: c.default_windows.clone(),
        }
    }

    pub fn reset(&mut self) {
        self.ecyc = 0;
        self.lc = 0;
        self.gi = 0;
        self.sc = 0;
        self.live = Live::None;
        self.t.clone_from(&self.defaults);
    }

    /// Outputs from registered state.
    pub fn out(&self) -> CtrlOut {
        let prologue = self.ecyc < self.p;
        let reconf = if prologue { self.ecyc < 2 } else { self.lc < 2 };
        let t = self.t[self.gi];
        let last = if self.mutation == Some(CtrlMutation::LateLastSlot) { t - 1 } else { t - 2 };
        let mut slot = [false; 2];
        let mut final_slot = [false; 2];
        if !prologue {
            for ph in 0..2u32 {
                slot[ph as usize] = self.lc >= 2 + ph && self.lc <= last && self.sc == ph && (ph == 0 || self.interval == 2);
                final_slot[ph as usize] = slot[ph as usize] && self.lc + self.interval > last;
            }
        }
        let gom_slot = prologue && GOMCFG_CYCLE.iter().take(self.gom_flits as usize).any(|&c| c == self.ecyc);
        CtrlOut { prologue, reconf, live: self.live, slot, final_slot, last_period: self.ecyc >= self.p + self.e - self.k, gom_slot, ecyc: self.ecyc }
    }

    /// Clock edge; `tpend` is the router's T-pending register (read at the swap).
    pub fn clock(&mut self, tpend: &[u32]) {
        let prologue = self.ecyc < self.p;
        let mut live = self.live;
        if prologue {
            if self.ecyc == 1 {
                live = Live::Gom;
            }
        } else if self.lc == 1 {
            live = Live::Group(self.gi);
        }
        let sc = if (!prologue && self.lc == 1) || self.sc + 1 == self.interval { 0 } else { self.sc + 1 };
        if self.ecyc == self.p - 1 {
            self.lc = 0;
            self.gi = 0;
        } else if !prologue {
            if self.lc + 1 == self.t[self.gi] {
                self.lc = 0;
                self.gi = if self.gi + 1 == self.g { 0 } else { self.gi + 1 };
            } else {
                self.lc += 1;
            }
        }
        if prologue && self.ecyc == SWAP_CYCLE {
            self.t.copy_from_slice(tpend);
        }
        self.live = live;
        self.sc = sc;
        self.ecyc = if self.ecyc + 1 == self.p + self.e { 0 } else { self.ecyc + 1 };
    }
}

/// The schedule of spec §1.5 in closed form, for the checker: for epoch-relative
/// cycle `t` and window set `tv`, `(window j, S_j)` or None in the prologue.
pub fn window_at(p: u32, k: u32, tv: &[u32], t: u32) -> Option<(usize, u32)> {
    if t < p {
        return None;
    }
    let u = t - p;
    let (per, r) = (u / k, u % k);
    let mut acc = 0;
    for (j, &tj) in tv.iter().enumerate() {
        if r < acc + tj {
            return Some((j, p + per * k + acc));
        }
        acc += tj;
    }
    unreachable!("sum of windows {acc} != K {k}")
}
