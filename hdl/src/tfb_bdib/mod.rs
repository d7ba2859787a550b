//! Verilog generator for the TFB BDIB (`tfb_bdib_<preset>`, spec §5): one design,
//! `bdib/`.
//!
//! The per-warp control is a rust-hdl leaf ([`leaf::warp_ctl`]); the entry registers
//! are the framework's `gf_reg_w*` primitives in 32-bit slices; the config-shaped top
//! (warps x entries x WAR ports, drain arbiter, dispatch mux) is the askama template
//! `templates/tfb_bdib/top.v`. Every width, code and bit position comes from
//! `golden::tfb_bdib::config`.

pub mod leaf;

use std::collections::BTreeMap;

use askama::Template;
use golden::bits::count_width;
use golden::block::ConfigFile;
use golden::tfb_bdib::config::{Cls, CLS_W, SCOPE_W};
use golden::tfb_bdib::{TfbBdib, TfbConfig};
use serde_json::json;

use crate::catalog::{Catalog, ModuleDoc};
use crate::design::{DesignSpec, GenError, Generated};
use crate::library::Library;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};
use crate::prim::Reg;
use crate::Generate;
use leaf::warp_ctl::WarpCtl;

/// The designs the BDIB generator writes (the manifest's `design`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TfbDesign {
    /// `tfb_bdib_<preset>`: the buffer with its per-warp barrier state.
    Bdib,
}

/// Every module the BDIB generator writes: its name and catalog entry, from one value.
#[derive(Debug, Clone)]
pub enum TfbModule<'a> {
    Top {
        preset: &'a str,
        cfg: &'a TfbConfig,
    },
    /// Per-warp control of a `depth`-entry FIFO.
    Ctl {
        depth: u32,
    },
    /// A framework register slice (its catalog entry is in its body).
    Reg {
        w: u32,
    },
}

const TOP_PROTOCOL: &str = "\
Issue: iss_valid_i / iss_ready_o valid-ready, at most one memory-path instruction per cycle.
  A shared-class op (GLOBAL, SCRATCH, FENCE, BARRIER) of a warp with in_bar or entries
  buffered is pushed (MODE G/F; ready = not full); anything else passes to the memory
  port in the same cycle (ready = mem_ready_i & ~mem_issue_stall_o). The scoreboard
  never presents an instruction the variant must block (spec 1.7).
Dispatch: mem_valid_o / mem_ready_i valid-ready. While any warp has drain_req (barrier
  complete, no fence outstanding, entries left) mem_issue_stall_o is high and the port
  carries the oldest entry of the round-robin-granted warp (mem_from_bdib_o), popped when
  mem_ready_i; otherwise it carries the pass-through instruction (combinational).
  mem_bar_arrive_o: the dispatch is a barrier arrival (pass-through bar or BAR_MARKER).
Progress: eaf_done_i[w] (barrier complete for w) clears in_bar; fence_done_i[w] ends the
  wait after a FENCE entry was dispatched; one-cycle pulses, effective at the edge.
WAR: warq_hit_o[k] (combinational) = a valid source of a buffered entry of warq_warp_i[k]
  equals warq_dst_i[k], when warq_v_i[k].
flush_valid_i clears warp flush_warp_i's entries, in_bar and fence_wait at the edge.
Status outputs come from registers. Single clock clk_i; synchronous active-high rst_i.";

impl Catalog for TfbModule<'_> {
    fn name(&self) -> String {
        match self {
            TfbModule::Top { preset, .. } => top_name(preset),
            TfbModule::Ctl { depth } => format!("tfb_warp_ctl_d{depth}"),
            TfbModule::Reg { w } => format!("gf_reg_w{w}"),
        }
    }

    fn doc(&self) -> ModuleDoc {
        match self {
            TfbModule::Top { cfg, .. } => ModuleDoc::new("TFB barrier-displaced instruction buffer with per-warp barrier state (spec 2.5-2.10, 5)", TOP_PROTOCOL)
                .param("NUM_WARPS", cfg.num_warps)
                .param("DEPTH", cfg.depth)
                .param("INSTR_W", cfg.instr_w)
                .param("REG_W", cfg.reg_w)
                .param("NSRC", cfg.nsrc)
                .param("MODE", format!("{} ({}-TFB)", cfg.mode.code(), cfg.mode.name().to_uppercase()))
                .param("NWARQ", cfg.nwarq),
            TfbModule::Ctl { depth } => ModuleDoc::new(
                "TFB BDIB per-warp control: occupancy, in_bar and fence_wait (spec 2.7, 5.3)",
                "No handshake. At the edge count += push_i - pop_i; in_bar <= set_bar_i | in_bar & ~eaf_done_i;\n\
                 fence_wait <= set_fence_i | fence_wait & ~fence_done_i; flush_i or rst_i clear all three.\n\
                 full_o (count == DEPTH), nonempty_o and drain_req_o (~in_bar & ~fence_wait & nonempty) come from the registers.",
            )
            .param("DEPTH", depth),
            TfbModule::Reg { w } => ModuleDoc::new("register, synchronous active-high reset to 0", "q_o takes d_i at every rising edge; rst_i clears it.").param("W", w),
        }
    }
}

/// Name of the top module of a preset.
pub fn top_name(preset: &str) -> String {
    format!("tfb_bdib_{preset}")
}

/// Slices of an entry register.
const SLICE: u32 = 32;

fn emit_reg(lib: &mut Library, w: u32) -> Result<String, GenError> {
    let entry = TfbModule::Reg { w };
    macro_rules! regs {
        ($($w:literal),*) => {
            match w {
                $( $w => lib.emit(&entry, Reg::<$w>::default), )*
                _ => Err(GenError::Bug(format!("no {w}-bit register slice"))),
            }
        };
    }
    regs!(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32)
}

fn emit_ctl(lib: &mut Library, depth: u32) -> Result<String, GenError> {
    let entry = TfbModule::Ctl { depth };
    match count_width(depth as u64) {
        1 => lib.emit(&entry, || WarpCtl::<1>::new(depth as usize)),
        2 => lib.emit(&entry, || WarpCtl::<2>::new(depth as usize)),
        3 => lib.emit(&entry, || WarpCtl::<3>::new(depth as usize)),
        c => Err(GenError::Unsupported { field: "tfb_bdib.depth".into(), message: format!("{depth} entries need {c} count bits"), allowed: "1..=5".into() }),
    }
}

/// The ports of `tfb_bdib`, in declaration order (also the manifest's port list).
pub fn ports(c: &TfbConfig) -> Vec<Port> {
    let (n, wid, k, rw, ns) = (c.num_warps, c.wid_w(), c.nwarq, c.reg_w, c.nsrc);
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("iss_valid_i", 1, "a memory-path instruction is issued (after scheduler arbitration)"),
        Port::output("iss_ready_o", 1, "accepted: pushed, or passed to the memory port this cycle"),
        Port::input("iss_warp_i", wid, "its warp"),
        Port::input("iss_cls_i", CLS_W, "class: 0 GLOBAL, 1 SCRATCH, 2 PRIV, 3 RO, 4 FENCE, 5 BARRIER"),
        Port::input("iss_scope_i", SCOPE_W, "fence/barrier scope: 0 CTA, 1 GL, 2 SYS"),
        Port::input("iss_src_i", ns * rw, "source register specifiers, source j at [j*REG_W +: REG_W]").fields(ns),
        Port::input("iss_src_v_i", ns, "source valid bits").fields(ns),
        Port::input("iss_payload_i", c.instr_w, "opaque payload: opcode/control, destination, immediate, active mask"),
        Port::input("eaf_done_i", n, "per warp: exit-acquire fence done, the barrier is complete (pulse)").fields(n),
        Port::input("fence_done_i", n, "per warp: the fence dispatched from the BDIB completed (pulse)").fields(n),
        Port::output("mem_valid_o", 1, "an instruction for the memory operand collector"),
        Port::input("mem_ready_i", 1, "the memory pipeline takes it"),
        Port::output("mem_warp_o", wid, "its warp"),
        Port::output("mem_cls_o", CLS_W, "its class"),
        Port::output("mem_scope_o", SCOPE_W, "its scope"),
        Port::output("mem_src_o", ns * rw, "its source specifiers (operands are read now)").fields(ns),
        Port::output("mem_src_v_o", ns, "its source valid bits").fields(ns),
        Port::output("mem_payload_o", c.instr_w, "its payload"),
        Port::output("mem_from_bdib_o", 1, "the dispatch is a drained entry"),
        Port::output("mem_bar_arrive_o", 1, "the dispatch is a barrier arrival (ERF)"),
        Port::output("warp_full_o", n, "per warp: the scoreboard's BDIB-full bit").fields(n),
        Port::output("warp_nonempty_o", n, "per warp: entries buffered").fields(n),
        Port::output("warp_in_bar_o", n, "per warp: entered-barrier bit").fields(n),
        Port::output("mem_issue_stall_o", 1, "the BDIB owns the memory dispatch port: no pass-through"),
        Port::input("warq_v_i", k, "per WAR port: a query").fields(k),
        Port::input("warq_warp_i", k * wid, "per WAR port: the warp").fields(k),
        Port::input("warq_dst_i", k * rw, "per WAR port: the destination register").fields(k),
        Port::output("warq_hit_o", k, "per WAR port: a buffered entry of the warp reads it").fields(k),
        Port::input("flush_valid_i", 1, "flush one warp's buffered state"),
        Port::input("flush_warp_i", wid, "the warp to flush"),
        Port::output("dbg_count_o", n * c.cnt_w(), "per warp: FIFO occupancy").fields(n),
        Port::output("dbg_fence_wait_o", n, "per warp: waiting for fence_done").fields(n),
    ]
}

struct WarpView {
    w: u32,
    ge_expr: String,
    lt_mask: String,
    cnt_hi: u32,
    cnt_lo: u32,
}

struct EntryIdx {
    i: u32,
    last: bool,
}

struct ChunkView {
    k: u32,
    hi: u32,
    lo: u32,
    module: String,
}

struct WarEntryView {
    i: u32,
    mux: String,
}

struct WarqView {
    k: u32,
    warp_hi: u32,
    warp_lo: u32,
    dst_hi: u32,
    dst_lo: u32,
    entries: Vec<WarEntryView>,
    hit_expr: String,
}

#[derive(Template)]
#[template(path = "tfb_bdib/top.v", escape = "none")]
struct TopView {
    top: String,
    ports: Vec<PortView>,
    n: u32,
    d: u32,
    ew: u32,
    wid: u32,
    cw: u32,
    reg_w: u32,
    nsrc: u32,
    nwarq: u32,
    mode_name: String,
    buffers: &'static str,
    src_hi: u32,
    src_lo: u32,
    srcv_hi: u32,
    srcv_lo: u32,
    pay_lo: u32,
    c_global: u8,
    c_scratch: u8,
    c_fence: u8,
    c_barrier: u8,
    warps: Vec<WarpView>,
    entry_idx: Vec<EntryIdx>,
    chunks: Vec<ChunkView>,
    grant_expr: String,
    rr_next: String,
    rr_mod: String,
    ctl_mod: String,
    head_expr: String,
    warq: Vec<WarqView>,
}

fn field(c: &TfbConfig, name: &str) -> golden::bits::Field {
    c.entry_fields().into_iter().find(|f| f.name == name).expect("entry field")
}

fn views(c: &TfbConfig, preset: &str, rr_mod: String, ctl_mod: String, chunks: Vec<ChunkView>) -> TopView {
    let (n, wid, cw, ew) = (c.num_warps, c.wid_w(), c.cnt_w(), c.entry_bits());
    let (src, srcv, pay) = (field(c, "src"), field(c, "src_v"), field(c, "payload"));
    let max_idx = (1u64 << wid) - 1;
    let warps = (0..n)
        .map(|w| WarpView {
            w,
            ge_expr: if w == 0 {
                format!("rr_q == {wid}'d0")
            } else if w as u64 == max_idx {
                "1'b1".into()
            } else {
                format!("rr_q <= {wid}'d{w}")
            },
            lt_mask: format!("{n}'h{:x}", if w == 0 { 0u64 } else { (1u64 << w) - 1 }),
            cnt_hi: (w + 1) * cw - 1,
            cnt_lo: w * cw,
        })
        .collect();
    let grant_expr = (1..n).map(|w| format!("({{{wid}{{grant_oh[{w}]}}}} & {wid}'d{w})")).collect::<Vec<_>>().join(" | ");
    let rr_next = if n as u64 == 1u64 << wid { format!("grant + {wid}'d1") } else { format!("((grant == {wid}'d{}) ? {wid}'d0 : grant + {wid}'d1)", n - 1) };
    let head_expr = (0..n).map(|w| format!("({{{ew}{{grant_oh[{w}]}}}} & e_w{w}_0)")).collect::<Vec<_>>().join("\n    | ");
    let sw = srcv.end() - src.lsb;
    let warq = (0..c.nwarq)
        .map(|k| {
            let entries = (0..c.depth)
                .map(|i| WarEntryView {
                    i,
                    mux: (0..n).map(|w| format!("({{{sw}{{wq_oh_{k}[{w}]}}}} & e_w{w}_{i}[{}:{}])", srcv.msb(), src.lsb)).collect::<Vec<_>>().join("\n    | "),
                })
                .collect();
            let hit_expr = (0..c.depth)
                .flat_map(|i| {
                    (0..c.nsrc).map(move |j| {
                        let v_bit = c.nsrc * c.reg_w + j;
                        format!("(wq_v_{k}_{i} & wq_s_{k}_{i}[{v_bit}] & (wq_s_{k}_{i}[{}:{}] == wq_dst_{k}))", (j + 1) * c.reg_w - 1, j * c.reg_w)
                    })
                })
                .collect::<Vec<_>>()
                .join("\n    | ");
            WarqView { k, warp_hi: (k + 1) * wid - 1, warp_lo: k * wid, dst_hi: (k + 1) * c.reg_w - 1, dst_lo: k * c.reg_w, entries, hit_expr }
        })
        .collect();
    TopView {
        top: top_name(preset),
        ports: port_views(&ports(c)),
        n,
        d: c.depth,
        ew,
        wid,
        cw,
        reg_w: c.reg_w,
        nsrc: c.nsrc,
        nwarq: c.nwarq,
        mode_name: c.mode.name().to_uppercase(),
        buffers: if c.mode.buffers() { "1'b1" } else { "1'b0" },
        src_hi: src.msb(),
        src_lo: src.lsb,
        srcv_hi: srcv.msb(),
        srcv_lo: srcv.lsb,
        pay_lo: pay.lsb,
        c_global: Cls::Global.code(),
        c_scratch: Cls::Scratch.code(),
        c_fence: Cls::Fence.code(),
        c_barrier: Cls::Barrier.code(),
        warps,
        entry_idx: (0..c.depth).map(|i| EntryIdx { i, last: i + 1 == c.depth }).collect(),
        chunks,
        grant_expr,
        rr_next,
        rr_mod,
        ctl_mod,
        head_expr,
        warq,
    }
}

impl Generate for TfbBdib {
    type Design = TfbDesign;

    fn generate(cfg: &ConfigFile<TfbConfig>) -> Result<Generated, GenError> {
        let c = &cfg.config;
        let mut lib = Library::default();
        let ctl_mod = emit_ctl(&mut lib, c.depth)?;
        let rr_mod = if c.num_warps > 1 { emit_reg(&mut lib, c.wid_w())? } else { String::new() };
        let ew = c.entry_bits();
        let mut chunks = Vec::new();
        let mut lo = 0;
        while lo < ew {
            let w = SLICE.min(ew - lo);
            chunks.push(ChunkView { k: chunks.len() as u32, hi: lo + w - 1, lo, module: emit_reg(&mut lib, w)? });
            lo += w;
        }
        let text = views(c, &cfg.name, rr_mod, ctl_mod, chunks).render()?;
        let top = lib.add_text(&TfbModule::Top { preset: &cfg.name, cfg: c }, text)?;
        let d = DesignSpec::new("bdib", &TfbDesign::Bdib, &top, ports(c));
        let d = parameters(c).into_iter().fold(d, |d, (k, v)| d.param(&k, v));
        let d = d
            .table("entry_fields", c.entry_fields())
            .table("cls_codes", Cls::ALL.iter().map(|k| (format!("{k:?}").to_uppercase(), k.code())).collect::<BTreeMap<_, _>>())
            .table("storage", c.storage());
        Generated::new(cfg, <TfbBdib as golden::block::Block>::TABLE, lib, vec![d])
    }
}

fn parameters(c: &TfbConfig) -> BTreeMap<String, serde_json::Value> {
    let mut m = BTreeMap::new();
    m.insert("NUM_WARPS".into(), json!(c.num_warps));
    m.insert("DEPTH".into(), json!(c.depth));
    m.insert("INSTR_W".into(), json!(c.instr_w));
    m.insert("REG_W".into(), json!(c.reg_w));
    m.insert("NSRC".into(), json!(c.nsrc));
    m.insert("MODE".into(), json!(c.mode.code()));
    m.insert("NWARQ".into(), json!(c.nwarq));
    m.insert("WID_W".into(), json!(c.wid_w()));
    m.insert("CNT_W".into(), json!(c.cnt_w()));
    m.insert("ENTRY_W".into(), json!(c.entry_bits()));
    m
}
