//! Verilog generator for the GPU-CC network (`gpucc_net_<preset>`, spec §4.1–4.2).
//!
//! Leaf blocks come from rust-hdl ([`crate::leaf`]); the config-shaped top (positions
//! x lanes x operand slots) is the askama template `templates/gpucc_net.v`. Every
//! size, bit position and table comes from `golden::gpucc`.

use std::collections::BTreeMap;

use askama::Template;
use golden::config::ConfigFile;
use golden::gpucc::config::{fifo_count_bits, GpuccConfig, UnitKind, N_IN};
use golden::gpucc::cr::{self, CR_BITS};
use rust_hdl::prelude::*;
use serde_json::json;

use crate::design::{Design, GenError};
use crate::emit::{emit_block, Module, ModuleSet};
use crate::leaf::cr::ConfigReg;
use crate::leaf::fifo::{AddrFifo, OperandFifo};
use crate::leaf::mode::ModeFsm;
use crate::manifest::{Manifest, Port};
use crate::ports::{port_views, PortView};

/// Name of the top module for a preset.
pub fn top_name(preset: &str) -> String {
    format!("gpucc_net_{preset}")
}

fn fifo_name(w: u32, depth: u32, peek: bool) -> String {
    if peek {
        format!("gpucc_addr_fifo_w{w}_d{depth}")
    } else {
        format!("gpucc_fifo_w{w}_d{depth}")
    }
}

fn mode_name(watchdog: u32) -> String {
    format!("gpucc_mode_wdog{watchdog}")
}

const CR_MODULE: &str = "gpucc_cr";

/// Emit one FIFO leaf, monomorphized over the supported data widths and count widths.
fn fifo_modules(w: u32, depth: u32, peek: bool) -> Result<Vec<Module>, GenError> {
    let name = fifo_name(w, depth, peek);
    let c = fifo_count_bits(depth);
    macro_rules! emit {
        ($w:literal, $c:literal) => {{
            if peek {
                let mut f = AddrFifo::<$w, $c>::new(depth as usize);
                f.connect_all();
                Ok(emit_block(&f, &name)?)
            } else {
                let mut f = OperandFifo::<$w, $c>::new(depth as usize);
                f.connect_all();
                Ok(emit_block(&f, &name)?)
            }
        }};
    }
    macro_rules! dispatch {
        ($($w:literal),*; $($c:literal),*) => {
            dispatch!(@w [$($w),*] [$($c),*])
        };
        (@w [$($w:literal),*] $cs:tt) => {
            match w {
                $( $w => dispatch!(@c $w $cs), )*
                _ => Err(GenError::Unsupported {
                    field: "gpucc.data_width".into(),
                    message: format!("{w} is not a supported width"),
                    allowed: "8, 16, 32, 64".into(),
                }),
            }
        };
        (@c $w:literal [$($c:literal),*]) => {
            match c {
                $( $c => emit!($w, $c), )*
                _ => Err(GenError::Unsupported {
                    field: "FIFO depth".into(),
                    message: format!("{depth} entries need {c} count bits"),
                    allowed: "2..=1024 entries".into(),
                }),
            }
        };
    }
    dispatch!(8, 16, 32, 64; 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
}

// ---------------------------------------------------------------------------
// template views
// ---------------------------------------------------------------------------

struct LaneView {
    l: usize,
    code: usize,
    hi: u32,
    lo: u32,
    seg_bit: usize,
}

struct PeekView {
    idx_hi: u32,
    idx_lo: u32,
    data_hi: u32,
    data_lo: u32,
    cnt_hi: u32,
    cnt_lo: u32,
}

struct FifoView {
    module: String,
    what: &'static str,
    depth: u32,
    c: u32,
    peek: Option<PeekView>,
}

struct SlotView {
    k: usize,
    s: usize,
    fifo: Option<FifoView>,
    src_hi: u32,
    src_lo: u32,
    cnt_hi: u32,
    cnt_lo: u32,
    data_hi: u32,
    data_lo: u32,
    cnt_out_hi: u32,
    cnt_out_lo: u32,
    cnt_out_expr: String,
}

struct PosView {
    p: usize,
    kind: &'static str,
    slice: usize,
    unit: usize,
    base: u32,
    en_bit: u32,
    out_hi: u32,
    out_lo: u32,
    imm_expr: String,
    init_val_expr: String,
    data_hi: u32,
    data_lo: u32,
    lanes: Vec<LaneView>,
    slots: Vec<SlotView>,
    cons_full_expr: String,
    self_ok_expr: String,
    last: bool,
}

#[derive(Template)]
#[template(path = "gpucc_net.v", escape = "none")]
struct NetTop {
    top: String,
    ports: Vec<PortView>,
    n: u32,
    n_lsu: u32,
    l: u32,
    w: u32,
    pw: u32,
    cw: u32,
    ones_l: String,
    unit_ok: String,
    mode_mod: String,
    cr_mod: String,
    positions: Vec<PosView>,
    unused_yumi: Vec<usize>,
}

/// The ports of `gpucc_net`, in declaration order (also the manifest's port list).
pub fn ports(c: &GpuccConfig) -> Vec<Port> {
    let n = c.n_pos() as u32;
    let nl = c.n_lsu() as u32;
    let w = c.data_width;
    let l = c.lanes;
    let mut v = vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("cc_start_i", 1, "CCRUN: in GPU mode, arm CC mode"),
        Port::input("unit_done_i", n, "per position: unit reached its fire_count").fields(n),
        Port::input("mem_idle_i", 1, "no load or store ack outstanding (ends DRAIN)"),
        Port::input("cfg_we_i", 1, "configuration write strobe"),
        Port::input("cfg_unit_i", c.pos_width(), "configuration unit (position)"),
        Port::input("cfg_word_i", 2, "configuration word 0..3 of the 128-bit CR"),
        Port::input("cfg_wdata_i", 32, "configuration write data"),
        Port::input("u_out_v_i", n, "per position: result valid").fields(n),
        Port::input("u_out_lane_en_i", n, "per position: also put the result on the lane (else SELF only)").fields(n),
        Port::input("u_out_data_i", n * w, "per position: result data, position p at [p*W +: W]").fields(n),
        Port::input("u_in_yumi_i", n * N_IN as u32, "per operand slot s = p*3+k: pop (only when valid)").fields(n * N_IN as u32),
    ];
    if nl > 0 {
        v.push(Port::input("lsu_peek_idx_i", nl * c.peek_idx_width(), "per LSU j: look-ahead index into its address FIFO").fields(nl));
    }
    v.extend([
        Port::output("mode_o", 2, "0 GPU, 1 ARM, 2 RUN, 3 DRAIN"),
        Port::output("cc_done_o", 1, "pulse: DRAIN finished, back in GPU mode"),
        Port::output("wdog_o", 1, "pulse: watchdog aborted RUN (deadlock)"),
        Port::output("cfg_rdata_o", 32, "read-back of word cfg_word_i of unit cfg_unit_i"),
        Port::output("cfg_err_o", 1, "pulse: the previous cycle's write was rejected"),
        Port::output("unit_cfg_o", n * CR_BITS, "per position: the 128-bit CR, word w of p at [(4p+w)*32 +: 32]").fields(n * 4),
        Port::output("u_out_ready_o", n, "per position: result accepted if valid").fields(n),
        Port::output("u_fire_o", n, "per position: result transferred this cycle").fields(n),
        Port::output("u_in_v_o", n * N_IN as u32, "per operand slot: operand valid").fields(n * N_IN as u32),
        Port::output("u_in_data_o", n * N_IN as u32 * w, "per operand slot: operand data (0 when not valid)").fields(n * N_IN as u32),
    ]);
    if nl > 0 {
        v.push(Port::output("lsu_peek_data_o", nl * w, "per LSU: address FIFO entry at the look-ahead index (0 past the count)").fields(nl));
        v.push(Port::output("lsu_addr_count_o", nl * c.addr_count_width(), "per LSU: address FIFO occupancy (0 outside RUN/DRAIN)").fields(nl));
    }
    v.extend([
        Port::output("dbg_fifo_count_o", n * N_IN as u32 * c.fifo_count_width(), "per operand slot: FIFO occupancy").fields(n * N_IN as u32),
        Port::output("dbg_seg_fire_o", l * n, "lane l, segment leaving position p: bit l*N+p fires").fields(l * n),
        Port::output("dbg_pop_empty_err_o", 1, "some yumi hit an operand slot that was not valid"),
        Port::output("dbg_push_full_err_o", 1, "some push hit a full FIFO (never, by construction)"),
    ]);
    v
}

fn word_slice(base: u32, w: u32) -> String {
    if w <= 32 {
        format!("unit_cfg_o[{}:{}]", base + w - 1, base)
    } else {
        format!("{{{}'d0, unit_cfg_o[{}:{}]}}", w - 32, base + 31, base)
    }
}

fn views(c: &GpuccConfig, preset: &str) -> NetTop {
    let n = c.n_pos();
    let l = c.n_lanes();
    let w = c.data_width;
    let cw = c.fifo_count_width();
    let slice_len = c.slice.len();
    let pw_peek = c.peek_idx_width();
    let acw = c.addr_count_width();
    let mut unused_yumi = Vec::new();
    let positions = (0..n)
        .map(|p| {
            let base = p as u32 * CR_BITS;
            let lanes: Vec<LaneView> = (0..l)
                .map(|li| LaneView {
                    l: li,
                    code: li + 1,
                    hi: (li as u32 + 1) * w - 1,
                    lo: li as u32 * w,
                    seg_bit: li * n + p,
                })
                .collect();
            let mut slots = Vec::new();
            let mut cons = Vec::new();
            let mut self_ok = Vec::new();
            for k in 0..N_IN {
                let s = p * N_IN + k;
                let fifo = c.fifo_depth(p, k).map(|depth| {
                    let peek = (c.kinds[p] == UnitKind::Lsu && k == 0).then(|| {
                        let j = c.lsu_index[p].expect("LSU index") as u32;
                        // the FIFO's count drives lsu_addr_count_o directly
                        assert_eq!(fifo_count_bits(depth), acw, "address FIFO count width");
                        PeekView {
                            idx_hi: (j + 1) * pw_peek - 1,
                            idx_lo: j * pw_peek,
                            data_hi: (j + 1) * w - 1,
                            data_lo: j * w,
                            cnt_hi: (j + 1) * acw - 1,
                            cnt_lo: j * acw,
                        }
                    });
                    let what = match (c.kinds[p], k) {
                        (UnitKind::Lsu, 0) => "LSU address FIFO with look-ahead",
                        (UnitKind::Lsu, _) => "LSU store-data FIFO",
                        _ => "core operand FIFO",
                    };
                    FifoView { module: fifo_name(w, depth, peek.is_some()), what, depth, c: fifo_count_bits(depth), peek }
                });
                let (cnt_out_expr, has) = match &fifo {
                    Some(f) if f.c < cw => (format!("{{{}'d0, f_cnt_p{p}_{k}}}", cw - f.c), true),
                    Some(_) => (format!("f_cnt_p{p}_{k}"), true),
                    None => (String::new(), false),
                };
                if has {
                    cons.push(format!("(sel_p{p}_{k} & {{{l}{{f_full_p{p}_{k}}}}})"));
                    self_ok.push(format!("~(self_p{p}_{k} & f_full_p{p}_{k})"));
                } else {
                    unused_yumi.push(s);
                }
                let src = cr::IN_SRC[k];
                let cnt = cr::INIT_CNT[k];
                slots.push(SlotView {
                    k,
                    s,
                    fifo,
                    src_hi: base + src.lsb + src.width - 1,
                    src_lo: base + src.lsb,
                    cnt_hi: base + cnt.lsb + cnt.width - 1,
                    cnt_lo: base + cnt.lsb,
                    data_hi: (s as u32 + 1) * w - 1,
                    data_lo: s as u32 * w,
                    cnt_out_hi: (s as u32 + 1) * cw - 1,
                    cnt_out_lo: s as u32 * cw,
                    cnt_out_expr,
                });
            }
            PosView {
                p,
                kind: match c.kinds[p] {
                    UnitKind::Core => "core",
                    UnitKind::Lsu => "LSU",
                },
                slice: p / slice_len,
                unit: p % slice_len,
                base,
                en_bit: base + cr::EN.lsb,
                out_hi: base + cr::OUT_LANE.lsb + cr::OUT_LANE.width - 1,
                out_lo: base + cr::OUT_LANE.lsb,
                imm_expr: word_slice(base + 32 * cr::WORD_IMM as u32, w),
                init_val_expr: word_slice(base + 32 * cr::WORD_INIT_VAL as u32, w),
                data_hi: (p as u32 + 1) * w - 1,
                data_lo: p as u32 * w,
                lanes,
                slots,
                cons_full_expr: cons.join(" | "),
                self_ok_expr: self_ok.join(" & "),
                last: p + 1 == n,
            }
        })
        .collect();
    let pw = c.pos_width();
    NetTop {
        top: top_name(preset),
        ports: port_views(&ports(c)),
        n: n as u32,
        n_lsu: c.n_lsu() as u32,
        l: l as u32,
        w,
        pw,
        cw,
        ones_l: format!("{{{l}{{1'b1}}}}"),
        unit_ok: if n == 1 << pw { "1'b1".into() } else { format!("cfg_unit_i < {pw}'d{n}") },
        mode_mod: mode_name(c.watchdog),
        cr_mod: CR_MODULE.into(),
        positions,
        unused_yumi,
    }
}

/// One line per module for file headers.
fn describe(name: &str, c: &GpuccConfig) -> String {
    if name.starts_with("gpucc_net_") {
        format!("GPU-CC lane network, operand FIFOs, configuration registers and mode control ({} positions, {} lanes, {}-bit data)", c.n_pos(), c.lanes, c.data_width)
    } else if name.starts_with("gpucc_addr_fifo_") {
        "GPU-CC LSU address FIFO with initial-token prefix and look-ahead read port (spec 1.4, 1.8)".into()
    } else if name.starts_with("gpucc_fifo_") {
        "GPU-CC operand FIFO with initial-token prefix (spec 1.4)".into()
    } else if name == CR_MODULE {
        "GPU-CC 128-bit configuration register, word-addressed write port (spec 1.5)".into()
    } else if name.starts_with("gpucc_mode_") {
        "GPU-CC mode FSM GPU/ARM/RUN/DRAIN with watchdog (spec 1.9)".into()
    } else {
        "part of a gpuforge leaf block".into()
    }
}

const PROTOCOL: &str = "\
Protocol
  * Results, per position p: u_out_v_i / u_out_ready_o valid-ready; u_fire_o = v & ready.
    A producer's valid must not depend on ready. Ready depends only on registered state
    and u_out_lane_en_i. On a fire every FIFO selecting the driven segment (and the
    unit's SELF FIFOs) pushes the data at the clock edge (atomic multicast).
  * Operands, per slot s = p*3 + k: u_in_v_o / u_in_yumi_i valid-then-yumi. FIFO slots
    are valid in RUN/DRAIN when non-empty; IMM slots always valid with the immediate;
    unused slots always valid with 0. A yumi on an invalid FIFO slot is ignored and
    raises dbg_pop_empty_err_o.
  * Configuration: cfg_we_i writes word cfg_word_i of unit cfg_unit_i, accepted only in
    GPU mode for an existing unit; otherwise cfg_err_o pulses in the next cycle.
  * Mode: GPU -(cc_start_i)-> ARM (1 cycle: clear FIFOs, preload initial tokens) -> RUN
    -(every counted unit done)-> DRAIN -(mem_idle_i)-> GPU with cc_done_o pulsed. In RUN,
    `watchdog` cycles without a fire abort to GPU with wdog_o pulsed.
  * Synchronous active-high reset rst_i clears mode, CRs and FIFOs.
";

fn header(name: &str, c: &GpuccConfig, cfg: &ConfigFile) -> String {
    let what = crate::leaf::prim::describe(name).map(String::from).unwrap_or_else(|| describe(name, c));
    let top = name == top_name(&cfg.name);
    crate::design::file_header(name, &what, cfg, if top { PROTOCOL } else { "" }, top)
}

/// Generate the GPU-CC design for a validated config file.
pub fn generate(cfg: &ConfigFile, c: &GpuccConfig) -> Result<Design, GenError> {
    if c.n_pos() < 2 {
        return Err(GenError::Unsupported {
            field: "gpucc.slices".into(),
            message: format!("{} position(s)", c.n_pos()),
            allowed: "at least 2 positions".into(),
        });
    }
    let mut set = ModuleSet::default();
    // FIFO leaves
    for p in 0..c.n_pos() {
        for k in 0..N_IN {
            if let Some(depth) = c.fifo_depth(p, k) {
                let peek = c.kinds[p] == UnitKind::Lsu && k == 0;
                if !set.contains(&fifo_name(c.data_width, depth, peek)) {
                    set.extend(fifo_modules(c.data_width, depth, peek)?)?;
                }
            }
        }
    }
    let mut crm = ConfigReg::default();
    crm.connect_all();
    set.extend(emit_block(&crm, CR_MODULE)?)?;
    let mut fsm = ModeFsm::new(c.watchdog);
    fsm.connect_all();
    set.extend(emit_block(&fsm, &mode_name(c.watchdog))?)?;
    // structural top
    let top = views(c, &cfg.name);
    let text = top.render()?;
    set.add(Module { name: top_name(&cfg.name), text: text.trim_end().to_string() + "\n" })?;

    let manifest = Manifest {
        generator: format!("gpuforge {}", env!("CARGO_PKG_VERSION")),
        block: "gpucc".into(),
        preset: cfg.name.clone(),
        top: top_name(&cfg.name),
        files: Vec::new(),
        ports: ports(c),
        parameters: parameters(c),
        tables: tables(c),
        config: serde_json::to_value(c).expect("config serializes"),
        config_source: cfg.source.clone(),
        content_hash: String::new(),
    };
    Ok(Design::from_modules(&set, |name| header(name, c, cfg), manifest))
}

fn parameters(c: &GpuccConfig) -> BTreeMap<String, serde_json::Value> {
    let mut m = BTreeMap::new();
    m.insert("N_POS".into(), json!(c.n_pos()));
    m.insert("N_LSU".into(), json!(c.n_lsu()));
    m.insert("N_LANES".into(), json!(c.lanes));
    m.insert("N_IN".into(), json!(N_IN));
    m.insert("DATA_W".into(), json!(c.data_width));
    m.insert("CFG_W".into(), json!(CR_BITS));
    m.insert("PW".into(), json!(c.pos_width()));
    m.insert("PEEK_W".into(), json!(c.peek_idx_width()));
    m.insert("ADDR_COUNT_W".into(), json!(c.addr_count_width()));
    m.insert("FIFO_COUNT_W".into(), json!(c.fifo_count_width()));
    m.insert("CORE_FIFO_DEPTH".into(), json!(c.core_fifo_depth));
    m.insert("LSU_ADDR_DEPTH".into(), json!(c.lsu_addr_depth));
    m.insert("LSU_DATA_DEPTH".into(), json!(c.lsu_data_depth));
    m.insert("WATCHDOG".into(), json!(c.watchdog));
    m
}

fn tables(c: &GpuccConfig) -> BTreeMap<String, serde_json::Value> {
    let mut t = BTreeMap::new();
    t.insert("kinds".into(), json!(c.kinds));
    t.insert("lsu_pos".into(), json!(c.lsu_pos));
    let depths: Vec<Vec<Option<u32>>> = (0..c.n_pos()).map(|p| (0..N_IN).map(|k| c.fifo_depth(p, k)).collect()).collect();
    t.insert("fifo_depth".into(), json!(depths));
    t.insert("cr_fields".into(), json!(cr::FIELDS));
    t.insert(
        "cr_words".into(),
        json!({"imm": cr::WORD_IMM, "fire_count": cr::WORD_FIRE_COUNT, "init_val": cr::WORD_INIT_VAL}),
    );
    t.insert(
        "src_codes".into(),
        json!({"unused": cr::SRC_UNUSED, "lane_a_first": 1, "self": cr::SRC_SELF, "imm": cr::SRC_IMM}),
    );
    t.insert("mode_codes".into(), json!({"gpu": 0, "arm": 1, "run": 2, "drain": 3}));
    t
}
