//! Hinge router of the reply plane (spec §1.3, §1.6, §4.1), cycle-accurate.
//!
//! * Bypass outputs are combinational: E/W from the straight bypass input or the
//!   local injection; N/S from the straight input or a TURNING latch; nothing else
//!   (the ROM's legal-source table). Turns only ever come from registers, so a mesh
//!   has no combinational loop.
//! * One latch register per input direction with IDLE -> CAPTURED -> (TURNING ->)
//!   IDLE. A latch captures when its wire is valid and some output of the live
//!   configuration(s) is sourced from it. In CAPTURED the input-selection unit
//!   (Algorithm 2 plus types and multiplexing) ejects, turns or drops it; GOMCFG
//!   flits are consumed into T-pending and turned onto every configured Y output.
//! * The router runs its own [`OverlayCtrl`]; its injection grant depends only on
//!   the controller's counters.

use super::config::NocConfig;
use super::link::{gomcfg_apply, LinkFmt, T_GOMCFG};
use super::overlay_ctrl::{CtrlOut, Live, OverlayCtrl};
use super::route_rom::{RomRow, Source, E, L, N, S, W};
use crate::model::Model;

/// Latch states (the [`LATCH_STATE_BITS`]-bit codes of `dbg_latch_state` and of the
/// RTL latch registers; `hdl_gen::noc::leaf::hinge` takes them from here).
pub const IDLE: u8 = 0;
pub const CAPTURED: u8 = 1;
pub const TURNING: u8 = 2;
/// Width of a latch-state code.
pub const LATCH_STATE_BITS: u32 = 2;

/// Planted router bugs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouterMutation {
    /// A column router that is not the destination ejects its pass-through copy
    /// instead of dropping it (ignores dst_y).
    EjectIgnoresY,
}

/// The live configuration, merged for one cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct LiveCfg {
    /// Source of E, W, N, S (the non-φ one of the live rows).
    pub src: [Option<Source>; 4],
    /// Latches some output uses (bit d).
    pub uses: u8,
    /// Latches that feed N / S / L.
    pub to_n: u8,
    pub to_s: u8,
    pub to_l: u8,
}

impl LiveCfg {
    fn from_rows(rows: &[RomRow]) -> LiveCfg {
        let mut c = LiveCfg::default();
        for r in rows {
            for o in 0..5 {
                match r.0[o] {
                    Source::None => {}
                    s => {
                        if o < 4 {
                            c.src[o] = Some(s);
                        }
                        if let Source::Latch(d) = s {
                            c.uses |= 1 << d;
                            match o {
                                N => c.to_n |= 1 << d,
                                S => c.to_s |= 1 << d,
                                L => c.to_l |= 1 << d,
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        c
    }
}

/// One latch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Latch {
    pub state: u8,
    /// TURNING drives N / S.
    pub drive_n: bool,
    pub drive_s: bool,
    pub flit: u128,
}

/// Per-cycle results of [`HingeRouter::eval`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RouterOut {
    pub loc_out: u128,
    pub drop: u8,
    pub overrun: bool,
    pub collision: bool,
    /// Captures and resolutions this cycle (for the drop-rule invariant).
    pub captures: u8,
    pub ejects: u8,
    pub turns: u8,
}

#[derive(Debug, Clone)]
pub struct HingeRouter {
    pub x: u32,
    pub y: u32,
    pub fmt: LinkFmt,
    /// Merged live configurations: index 0 = none, 1 = GOM row, 2+g = group g.
    cfgs: Vec<LiveCfg>,
    /// `(group, phase)` if this is an MC router.
    pub mc: Option<(usize, usize)>,
    pub is_gom: bool,
    pub ctrl: OverlayCtrl,
    pub lat: [Latch; 5],
    pub tpend: Vec<u32>,
    next_lat: [Latch; 5],
    next_tpend: Option<u64>,
    pub mutation: Option<RouterMutation>,
    defaults: Vec<u32>,
}

impl HingeRouter {
    /// A router's schedule view `{prologue, reconf, ovl_b, ovl_a}` (`dbg_sched`): the live
    /// overlay codes are the group's members (MC indices), m for the GOM row, all ones
    /// for none; SW+1 bits each.
    pub fn sched_word(&self, c: &NocConfig) -> u32 {
        let o = self.ctrl.out();
        let s = c.sw() + 1;
        let none = (1 << s) - 1;
        let (a, b) = match o.live {
            Live::None => (none, none),
            Live::Gom => (c.m() as u32, none),
            Live::Group(g) => {
                let mem = &c.groups[g];
                (mem[0] as u32, mem.get(1).map_or(none, |&i| i as u32))
            }
        };
        a | (b << s) | ((o.reconf as u32) << (2 * s)) | ((o.prologue as u32) << (2 * s + 1))
    }

    pub fn new(c: &NocConfig, x: u32, y: u32) -> HingeRouter {
        let id = c.node(x, y);
        let rom = &c.roms[id];
        let m = c.m();
        let mut cfgs = vec![LiveCfg::default(), LiveCfg::from_rows(&rom[m..m + 1])];
        for g in &c.groups {
            let rows: Vec<RomRow> = g.iter().map(|&i| rom[i]).collect();
            cfgs.push(LiveCfg::from_rows(&rows));
        }
        HingeRouter {
            x,
            y,
            fmt: LinkFmt::new(c),
            cfgs,
            mc: c.mc_at(id).map(|i| c.group_of[i]),
            is_gom: c.gom_node() == id,
            ctrl: OverlayCtrl::new(c),
            lat: [Latch::default(); 5],
            tpend: c.default_windows.clone(),
            next_lat: [Latch::default(); 5],
            next_tpend: None,
            mutation: None,
            defaults: c.default_windows.clone(),
        }
    }

    pub fn reset(&mut self) {
        self.ctrl.reset();
        self.lat = [Latch::default(); 5];
        self.tpend.clone_from(&self.defaults);
    }

    #[inline]
    pub fn live_cfg(&self) -> &LiveCfg {
        &self.cfgs[match self.ctrl.live {
            Live::None => 0,
            Live::Gom => 1,
            Live::Group(g) => 2 + g,
        }]
    }

    /// `loc_in_grant` and whether the granted slot is this MC's STATUS slot.
    pub fn grant(&self, o: &CtrlOut) -> (bool, bool) {
        match self.mc {
            Some((g, ph)) => {
                let mine = o.live == Live::Group(g) && o.slot[ph];
                (mine, mine && o.final_slot[ph] && o.last_period)
            }
            None => (self.is_gom && o.gom_slot, false),
        }
    }

    /// Combinational bypass output `o` given the straight input of that axis and the
    /// local injection (`inj`: link with valid set, or 0).
    #[inline]
    pub fn bypass_out(&self, o: usize, straight_in: u128, inj: u128) -> u128 {
        match self.live_cfg().src[o] {
            Some(Source::Direct(d)) => {
                if d as usize == L {
                    inj
                } else {
                    straight_in
                }
            }
            Some(Source::Latch(d)) => {
                let l = &self.lat[d as usize];
                let drv = if o == N { l.drive_n } else { l.drive_s };
                if l.state == TURNING && drv {
                    l.flit
                } else {
                    0
                }
            }
            _ => 0,
        }
    }

    /// Evaluate the latches: `wires[d]` is the incoming wire of direction d (E, W, N,
    /// S) and `wires[L]` the local injection (valid only on a transfer).
    pub fn eval(&mut self, wires: &[u128; 5]) -> RouterOut {
        let cfg = *self.live_cfg();
        let mut out = RouterOut::default();
        self.next_tpend = None;
        let mut ejected = 0;
        for d in (0..5).rev() {
            let l = self.lat[d];
            let mut nl = Latch { state: IDLE, drive_n: false, drive_s: false, flit: l.flit };
            if l.state == CAPTURED {
                let f = l.flit;
                let bit = 1u8 << d;
                if self.fmt.type_of(f) == T_GOMCFG {
                    self.next_tpend = Some(f as u64);
                    nl.drive_n = cfg.to_n & bit != 0;
                    nl.drive_s = cfg.to_s & bit != 0;
                    if nl.drive_n || nl.drive_s {
                        nl.state = TURNING;
                        out.turns += 1;
                    } else {
                        out.ejects += 1; // consumed
                    }
                } else {
                    let (dx, dy) = self.fmt.dst(f);
                    let y_ok = dy == self.y || self.mutation == Some(RouterMutation::EjectIgnoresY);
                    if dx == self.x && y_ok && cfg.to_l & bit != 0 {
                        out.loc_out = f;
                        ejected += 1;
                        out.ejects += 1;
                    } else if dx == self.x && dy > self.y && cfg.to_n & bit != 0 {
                        nl.state = TURNING;
                        nl.drive_n = true;
                        out.turns += 1;
                    } else if dx == self.x && dy < self.y && cfg.to_s & bit != 0 {
                        nl.state = TURNING;
                        nl.drive_s = true;
                        out.turns += 1;
                    } else {
                        out.drop |= bit;
                    }
                }
            }
            if self.fmt.is_valid(wires[d]) && cfg.uses & (1 << d) != 0 {
                if l.state == CAPTURED {
                    out.overrun = true;
                }
                nl = Latch { state: CAPTURED, drive_n: false, drive_s: false, flit: wires[d] };
                out.captures += 1;
            }
            self.next_lat[d] = nl;
        }
        out.collision = ejected > 1;
        out
    }

    pub fn commit(&mut self) {
        self.lat = self.next_lat;
        // the controller's T swap reads T-pending as registered before this edge
        self.ctrl.clock(&self.tpend);
        if let Some(p) = self.next_tpend.take() {
            gomcfg_apply(p, &mut self.tpend);
        }
    }

    /// `dbg_latch_state`: 2 bits per latch, E in bits 1:0.
    pub fn latch_states(&self) -> u32 {
        (0..5).fold(0, |a, d| a | ((self.lat[d].state as u32) << (LATCH_STATE_BITS as usize * d)))
    }
}

/// Directions of a mesh neighbour: the wire entering `d` of (x,y) is `opposite(d)`'s
/// output of the neighbour on side d.
pub const OPPOSITE: [usize; 4] = [W, E, S, N];

/// Inputs of one hinge router as the router-level design `routers/hinge` sees them
/// (ROM, position and role tied).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HingeInputs {
    pub rst: bool,
    /// Bypass input wires entering from E, W, N, S.
    pub byp_in: [u128; 4],
    /// Local injection offer and its link (the valid bit is ignored).
    pub loc_in_v: bool,
    pub loc_in_link: u128,
}

/// Outputs of the router-level design, one field per port.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HingeOutputs {
    /// Bypass outputs E, W, N, S.
    pub byp_out: [u128; 4],
    pub loc_in_grant: bool,
    pub loc_in_status: bool,
    /// Ejection (valid in the MSB).
    pub loc_out: u128,
    /// `{prologue, reconf, ovl_b, ovl_a}` (see [`HingeRouter::sched_word`]).
    pub sched: u32,
    pub ecyc: u32,
    /// The local injection on a transfer (else 0).
    pub inj: u128,
    pub latch_state: u32,
    pub drop: u8,
    pub overrun: bool,
    pub collision: bool,
}

/// One hinge router with its ROM, position and role tied: the golden model of the
/// router-level design `macro_hinge_top_*`. Bypass outputs and the grant are
/// combinational (from the inputs and the router's registers); latches, the
/// controller and T-pending change at the edge.
#[derive(Debug, Clone)]
pub struct HingeTop {
    cfg: NocConfig,
    pub router: HingeRouter,
}

impl HingeTop {
    pub fn new(c: &NocConfig, x: u32, y: u32) -> HingeTop {
        HingeTop { cfg: c.clone(), router: HingeRouter::new(c, x, y) }
    }
}

impl Model for HingeTop {
    type In = HingeInputs;
    type Out = HingeOutputs;

    fn idle_inputs(&self) -> HingeInputs {
        HingeInputs::default()
    }

    fn new_outputs(&self) -> HingeOutputs {
        HingeOutputs::default()
    }

    fn eval(&mut self, i: &HingeInputs, o: &mut HingeOutputs) {
        let r = &mut self.router;
        let (grant, status) = r.grant(&r.ctrl.out());
        let inj = if grant && i.loc_in_v { i.loc_in_link | r.fmt.valid_bit() } else { 0 };
        o.byp_out = [r.bypass_out(E, i.byp_in[W], inj), r.bypass_out(W, i.byp_in[E], inj), r.bypass_out(N, i.byp_in[S], 0), r.bypass_out(S, i.byp_in[N], 0)];
        o.loc_in_grant = grant;
        o.loc_in_status = status;
        o.sched = r.sched_word(&self.cfg);
        o.ecyc = r.ctrl.ecyc;
        o.inj = inj;
        o.latch_state = r.latch_states();
        let ro = r.eval(&[i.byp_in[E], i.byp_in[W], i.byp_in[N], i.byp_in[S], inj]);
        o.loc_out = ro.loc_out;
        o.drop = ro.drop;
        o.overrun = ro.overrun;
        o.collision = ro.collision;
    }

    fn commit(&mut self, i: &HingeInputs) {
        if i.rst {
            self.router.reset();
        } else {
            self.router.commit();
        }
    }

    fn assert_reset(i: &mut HingeInputs) {
        i.rst = true;
    }
}
