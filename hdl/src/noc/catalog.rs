//! Every module the NoC generators write: its name and its catalog entry (what it is,
//! the parameters it was generated for, its protocol), from one value.

use golden::noc::config::NocConfig;

use crate::catalog::{Catalog, ModuleDoc};

const CLOCK: &str = "Single clock clk_i, synchronous active-high reset rst_i.";

/// A NoC module. Config-shaped modules carry the preset in their name; leaves are named
/// after the widths they were monomorphized for.
#[derive(Debug, Clone)]
pub enum NocModule<'a> {
    // ---- reply plane (spec §1.3-1.10) ----
    ReplyMesh {
        preset: &'a str,
        cfg: &'a NocConfig,
    },
    HingeRouter {
        preset: &'a str,
    },
    /// The router-level design: router (x, y) with its ROM, constants tied.
    HingeTop {
        preset: &'a str,
        x: u32,
        y: u32,
    },
    HingeSelect {
        lw: u32,
        cw: u32,
    },
    HingeInject {
        lw: u32,
    },
    HingeLatch {
        lw: u32,
    },
    HingeEndLatch {
        lw: u32,
    },
    BypassEw {
        lw: u32,
    },
    BypassNs {
        lw: u32,
    },
    OverlayCtrl {
        preset: &'a str,
        cfg: &'a NocConfig,
    },
    /// The route ROM of every router of a preset (rows set per instance).
    RouteRom {
        rows: usize,
    },
    McNi {
        preset: &'a str,
        reply_queue: u32,
    },
    Gom {
        preset: &'a str,
        cfg: &'a NocConfig,
    },
    // ---- tops of both planes ----
    MacroTop {
        preset: &'a str,
    },
    BaselineTop {
        preset: &'a str,
        planes: u32,
    },
    // ---- wormhole VC planes (spec §1.11-1.12) ----
    VcMesh {
        preset: &'a str,
        plane: &'a str,
        n: u32,
        vcs: u32,
        depth: u32,
        flit_width: u32,
    },
    VcRouter {
        preset: &'a str,
        plane: &'a str,
        vcs: u32,
        depth: u32,
        flit_width: u32,
    },
    VcRouterTop {
        preset: &'a str,
        plane: &'a str,
        x: u32,
        y: u32,
    },
    VcBuffer {
        fw: u32,
        depth: u32,
    },
    VcRoute {
        cw: u32,
    },
    RrArb {
        n: u32,
    },
    VcAlloc {
        v: u32,
        depth: u32,
    },
    SwAlloc {
        v: u32,
        depth: u32,
    },
    SaResult {
        v: u32,
    },
    CreditCounter {
        depth: u32,
    },
    VcState {
        v: u32,
    },
    Crossbar {
        fw: u32,
        v: u32,
    },
}

const MESH: &str = "mc_reply_v_i / mc_reply_ready_o: valid-ready; a flit enters MC i's reply queue when both are high.
Injection happens only in the MC's overlay slots; a flit reaches its node in 1 cycle (same row)
  or 3 cycles (turn) on the established overlay. eject_* has no back-pressure.
dbg_* expose every bypass link and the latch/schedule state for lockstep comparison (spec 4.3 L1).";
const ROUTER: &str = "byp_in_* -> byp_out_*: combinational straight-through (bypass) paths; byp_out_e/w_o may instead carry
  the local injection (combinational from loc_in_v_i, loc_in_link_i and the grant), byp_out_n/s_o a TURNING
  latch (a register): turns only ever come from latch registers, so a mesh has no combinational loop.
loc_in_v_i & loc_in_grant_o = a transfer; loc_in_grant_o and loc_in_status_o depend on the controller's counters
  only, never on loc_in_v_i.
loc_out_o: ejection from a CAPTURED latch (a function of registers), valid in the MSB, no back-pressure.
dbg_*: schedule view, epoch cycle and latch states are registers; dbg_inj_o, dbg_drop_o, dbg_overrun_o and
  dbg_collision_o are this cycle's injection, drops and flags.";
const ROUTER_ROM: &str = "rom_addr_a/b_o (functions of the controller's registers) -> rom_row_a/b_i: this router's route ROM, read
  combinationally. x_i, y_i, mc_i, mc_idx_i, ph_i, gom_i: constants of the router's position and role.";
const VC_LINK: &str = "Links: valid, VC and flit, registered at the sender (link register); credit-based flow control,
  one credit per flit per VC, returned from a register one cycle after the flit leaves the input buffer.
Injection (L port) is a link like the others; ejection has credits returned by the sink.";

/// The route-computation port codes, from golden (`E=0, W=1, ...`).
fn port_codes() -> String {
    use golden::noc::route_rom::{DIRS, E, L, N, S, W};
    [E, W, N, S, L].iter().map(|&d| format!("{}={d}", DIRS[d])).collect::<Vec<_>>().join(", ")
}

impl Catalog for NocModule<'_> {
    fn name(&self) -> String {
        use NocModule::*;
        match self {
            ReplyMesh { preset, .. } => format!("macro_reply_mesh_{preset}"),
            HingeRouter { preset } => format!("macro_hinge_router_{preset}"),
            HingeTop { preset, x, y } => format!("macro_hinge_top_{preset}_x{x}y{y}"),
            HingeSelect { lw, cw } => format!("macro_hinge_sel_l{lw}_c{cw}"),
            HingeInject { lw } => format!("macro_hinge_inj_l{lw}"),
            HingeLatch { lw } => format!("macro_hinge_latch_l{lw}"),
            HingeEndLatch { lw } => format!("macro_hinge_end_latch_l{lw}"),
            BypassEw { lw } => format!("macro_bypass_ew_l{lw}"),
            BypassNs { lw } => format!("macro_bypass_ns_l{lw}"),
            OverlayCtrl { preset, .. } => format!("macro_ovl_ctrl_{preset}"),
            RouteRom { rows } => format!("macro_route_rom_r{rows}"),
            McNi { preset, .. } => format!("macro_mc_ni_{preset}"),
            Gom { preset, .. } => format!("macro_gom_{preset}"),
            MacroTop { preset } => format!("macro_noc_top_{preset}"),
            BaselineTop { preset, .. } => format!("baseline_noc_top_{preset}"),
            VcMesh { preset, plane, .. } => format!("vc_mesh_{preset}_{plane}"),
            VcRouter { preset, plane, .. } => format!("vc_router_{preset}_{plane}"),
            VcRouterTop { preset, plane, .. } => format!("vc_router_top_{preset}_{plane}"),
            VcBuffer { fw, depth } => format!("vc_buffer_f{fw}_d{depth}"),
            VcRoute { cw } => format!("vc_route_c{cw}"),
            RrArb { n } => format!("vc_rr_arb_n{n}"),
            VcAlloc { v, depth } => format!("vc_alloc_v{v}_d{depth}"),
            SwAlloc { v, depth } => format!("vc_sw_alloc_v{v}_d{depth}"),
            SaResult { v } => format!("vc_sa_result_v{v}"),
            CreditCounter { depth } => format!("vc_credit_d{depth}"),
            VcState { v } => format!("vc_state_v{v}"),
            Crossbar { fw, v } => format!("vc_xbar_f{fw}_v{v}"),
        }
    }

    fn doc(&self) -> ModuleDoc {
        use NocModule::*;
        let clocked = |p: &str| format!("{p}\n{CLOCK}");
        match self {
            ReplyMesh { cfg, .. } => ModuleDoc::new("MACRO-NoC reply plane: hinge-router mesh, MC interfaces, GOM (spec 4.2)", clocked(MESH))
                .param("MESH_N", cfg.n)
                .param("NUM_OVL", cfg.m())
                .param("NUM_GROUPS", cfg.g())
                .param("LINK_W", cfg.link_w())
                .param("PROLOGUE", cfg.reply.prologue)
                .param("EPOCH", cfg.reply.epoch)
                .param("KPER", cfg.reply.period),
            HingeRouter { .. } => ModuleDoc::new(
                "hinge router: bypass paths, latches (IDLE/CAPTURED/TURNING), input selection, overlay controller (spec 1.3-1.6)",
                clocked(&format!("{ROUTER}\n{ROUTER_ROM}")),
            ),
            HingeTop { x, y, .. } => {
                ModuleDoc::new("one hinge router with its route lookup ROM, position and role tied (router-level design)", clocked(ROUTER)).param("X", x).param("Y", y)
            }
            HingeSelect { lw, cw } => ModuleDoc::new(
                "hinge router input selection (Algorithm 2), live-configuration decode, grant and ejection (spec 1.6)",
                "Purely combinational; reads registers only (latches, controller) and the ROM rows the controller addresses.",
            )
            .param("LINK_W", lw)
            .param("CW", cw),
            HingeInject { lw } => {
                ModuleDoc::new("hinge router local injection: the offered link with valid set on a transfer (valid & grant)", "Purely combinational.").param("LINK_W", lw)
            }
            HingeLatch { lw } => ModuleDoc::new(
                "hinge router latch that may turn (E, W, L): IDLE -> CAPTURED -> (TURNING ->) IDLE, N/S drive (spec 1.3)",
                clocked(
                    "No handshake: captures wire_i at the edge when its valid bit and cap_en_i are high (a capture wins over a turn);
turn_n_i / turn_s_i move a CAPTURED flit to TURNING. lat/st/dn/ds are register outputs; overrun_o is combinational
(a capture while CAPTURED).",
                ),
            )
            .param("LINK_W", lw),
            HingeEndLatch { lw } => ModuleDoc::new(
                "hinge router N/S latch: IDLE -> CAPTURED -> IDLE (eject or drop) (spec 1.3)",
                clocked(
                    "No handshake: captures wire_i at the edge when its valid bit and cap_en_i are high; lat/st are register
outputs; overrun_o is combinational (a capture while CAPTURED).",
                ),
            )
            .param("LINK_W", lw),
            BypassEw { lw } => {
                ModuleDoc::new("E/W bypass output: straight bypass input or the local injection (spec 1.3 legal sources)", "Purely combinational.").param("LINK_W", lw)
            }
            BypassNs { lw } => {
                ModuleDoc::new("N/S bypass output: straight bypass input or the turning latch (spec 1.3 legal sources)", "Purely combinational.").param("LINK_W", lw)
            }
            OverlayCtrl { cfg, .. } => ModuleDoc::new(
                "overlay controller: Algorithm 1 with exact-sum windows, T_MIN, the GOM prologue and T-pending (spec 1.5)",
                clocked("All outputs are functions of registers; GOMCFG flits are taken from the router's CAPTURED latches."),
            )
            .param("EPOCH", cfg.reply.epoch)
            .param("KPER", cfg.reply.period)
            .param("PROLOGUE", cfg.reply.prologue)
            .param("T_MIN", cfg.reply.t_min)
            .param("INTERVAL", cfg.reply.interval)
            .param("NUM_GROUPS", cfg.g()),
            RouteRom { rows } => ModuleDoc::new(
                "route lookup ROM of a hinge router: rows 0..m-1 the overlays, row m the GOM broadcast (spec 1.4), set per instance",
                format!(
                    "Purely combinational, two read ports: row_a/b_o = the row at addr_a/b_i; an address past the last row
(OVL_NONE = {} = none) reads 0 (every output phi). The rows are the instance parameter ROWS (row i in
ROWS[{b}i +: {b}]), which the mesh and hinge-top templates set to each router's rows.",
                    golden::noc::route_rom::OVL_NONE,
                    b = golden::noc::route_rom::ROW_BITS
                ),
            )
            .param("ROWS", rows)
            .param("ROW_BITS", golden::noc::route_rom::ROW_BITS),
            McNi { reply_queue, .. } => ModuleDoc::new(
                "MC network interface: reply queue, arrival/occupancy counters, STATUS flits (spec 1.9-1.10)",
                clocked(
                    "push_v_i / ready_o valid-ready from L2/DRAM (ready_o = the queue has room, from the count register).
loc_in_v_o / grant_i to the router: valid-then-grant, a transfer when both are high; loc_in_v_o never depends on
grant_i. In the status slot (status_i) the STATUS flit goes ahead of queued data.",
                ),
            )
            .param("REPLY_Q", reply_queue),
            Gom { cfg, .. } => ModuleDoc::new(
                "Global Overlay Manager: status collection, integer window computation, GOMCFG broadcast (spec 1.9)",
                clocked(&{
                    use golden::noc::gom::{GOMCFG_CYCLE, SNAPSHOT_CYCLE};
                    let s = SNAPSHOT_CYCLE;
                    format!(
                        "status_i: the router's ejection at the GOM node, taken when valid and a STATUS flit (no back-pressure).
inj_v_o / inj_link_o: the GOMCFG broadcast, offered in its prologue cycles, where the router grants it.
Snapshot at prologue cycle {s}, shift-add multiply {}..{}, division {}..{}, broadcast at {} (and {} when G > 6).",
                        s + 1,
                        s + 10,
                        s + 11,
                        s + 20,
                        GOMCFG_CYCLE[0],
                        GOMCFG_CYCLE[1]
                    )
                }),
            )
            .param("NUM_OVL", cfg.m())
            .param("ALPHA", cfg.reply.alpha)
            .param("GAMMA", cfg.reply.gamma),
            MacroTop { .. } => ModuleDoc::new(
                "MACRO-NoC, both planes: the hinge-router reply plane and the wormhole request plane (spec 4.2)",
                clocked(&format!("Reply plane ports as macro_reply_mesh; request plane ports (req_*) as vc_mesh.\n{VC_LINK}")),
            ),
            BaselineTop { planes, .. } => {
                ModuleDoc::new("baseline NoC: independent wormhole VC planes (p<k>_* ports), one mesh each (spec 1.11)", clocked(VC_LINK)).param("PLANES", planes)
            }
            VcMesh { n, vcs, depth, flit_width, .. } => {
                ModuleDoc::new("wormhole VC mesh: one router per node, XY/YX routing, terminal injection and ejection ports (spec 1.11-1.12)", clocked(VC_LINK))
                    .param("MESH_N", n)
                    .param("FLIT_W", flit_width)
                    .param("VCS", vcs)
                    .param("BUF_DEPTH", depth)
            }
            VcRouter { vcs, depth, flit_width, .. } => {
                ModuleDoc::new("3-stage input-buffered wormhole VC router (BW; RC + VA + SA; ST + LT), position on constant ports x_i, y_i (spec 1.11-1.12)", clocked(VC_LINK))
                    .param("FLIT_W", flit_width)
                    .param("VCS", vcs)
                    .param("BUF_DEPTH", depth)
            }
            VcRouterTop { x, y, .. } => ModuleDoc::new("one VC router with its position tied (router-level design)", clocked(VC_LINK)).param("X", x).param("Y", y),
            VcBuffer { fw, depth } => ModuleDoc::new(
                "VC input buffer: FIFO of flits with a read pointer memory and a count register",
                clocked(
                    "No handshake: push_v_i writes push_flit_i at the tail, pop_i advances the head (both in one cycle is fine);
head__data_o (read at the memory's registered read pointer) and count__q_o are functions of registers only.
The credit protocol guarantees no push when full, the switch allocator no pop when empty.",
                ),
            )
            .param("FLIT_W", fw)
            .param("DEPTH", depth),
            VcRoute { cw } => {
                ModuleDoc::new(format!("route computation of a head flit: XY (or YX with yx_i) dimension order; port_o {}", port_codes()), "Purely combinational.").param("CW", cw)
            }
            RrArb { n } => ModuleDoc::new(
                "round-robin arbiter: one-hot grant of the first request at or after the pointer",
                "Purely combinational; the pointer (mask nm_i of the positions below it) is a register of the owner, updated with g | (g - 1).",
            )
            .param("N", n),
            VcAlloc { v, depth } => ModuleDoc::new(
                "VC allocation requests (separable, input first): a head flit asks for the lowest-numbered free VC of its output port",
                "Purely combinational over the router's registered state.",
            )
            .param("VCS", v)
            .param("BUF_DEPTH", depth),
            SwAlloc { v, depth } => ModuleDoc::new(
                "switch allocation, input stage: VCs ready to send (flit, VC allocated, a credit downstream), one winner per input port",
                "Purely combinational over the router's registered state and this cycle's VA grants.",
            )
            .param("VCS", v)
            .param("BUF_DEPTH", depth),
            SaResult { v } => ModuleDoc::new("switch-allocation results: pops, credits taken per output VC, released and won allocations", "Purely combinational.").param("VCS", v),
            CreditCounter { depth } => ModuleDoc::new(
                "credit counter of one output VC, kept as credits used (DEPTH - credits, 0 at reset)",
                clocked(
                    "dec_i (a flit is sent on the VC: one credit fewer) adds one to used, inc_i (a credit returns) takes one off,
both at once leave it; used__q_o is the register.",
                ),
            )
            .param("BUF_DEPTH", depth),
            VcState { v } => ModuleDoc::new(
                "VC router allocation state: per input VC its output VC, busy output VCs, round-robin pointers, credit-return register",
                clocked("All outputs are registers."),
            )
            .param("VCS", v),
            Crossbar { fw, v } => ModuleDoc::new(
                "crossbar with the switch register (ST) and the link register (LT)",
                clocked("Each input port's winning VC head goes to the output its switch grant names, into st_*, then link_*, which drives the output link (registered)."),
            )
            .param("FLIT_W", fw)
            .param("VCS", v),
        }
    }
}
