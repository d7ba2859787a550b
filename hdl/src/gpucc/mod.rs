//! Verilog generator for GPU-CC (`gpucc_net_<preset>`, spec §4.1–4.2): one design, `net/`.
//!
//! Leaf blocks come from rust-hdl ([`leaf`]); the config-shaped top (positions x lanes x
//! operand slots) is the askama template `templates/gpucc/net.v`. Every size, bit
//! position and table comes from `golden::gpucc`; every module is named and documented by
//! [`GpuccModule`].

pub mod leaf;

use std::collections::BTreeMap;

use askama::Template;
use golden::block::ConfigFile;
use golden::gpucc::config::{fifo_count_bits, GpuccConfig, UnitKind, DATA_WIDTHS, N_IN};
use golden::gpucc::cr::{self, CR_BITS, CR_WORDS};
use golden::gpucc::net::Mode;
use golden::gpucc::Gpucc;
use serde_json::json;

use crate::catalog::{Catalog, ModuleDoc};
use crate::design::{DesignSpec, GenError, Generated};
use crate::library::Library;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};
use crate::Generate;
use leaf::cr::ConfigReg;
use leaf::fifo::{AddrFifo, OperandFifo};
use leaf::mode::ModeFsm;

/// The designs GPU-CC generates (the manifest's `design`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GpuccDesign {
    /// `gpucc_net_<preset>`: lane network, FIFOs, CRs and mode control.
    Net,
}

/// Every module GPU-CC generates: its name and its catalog entry, from one value.
#[derive(Debug, Clone)]
pub enum GpuccModule<'a> {
    /// The structural top of a preset.
    Net { preset: &'a str, cfg: &'a GpuccConfig },
    /// An operand FIFO (`peek`: an LSU address FIFO with its look-ahead port).
    Fifo { width: u32, depth: u32, peek: bool },
    /// The 128-bit configuration register.
    Cr,
    /// The mode FSM with its watchdog.
    Mode { watchdog: u32 },
}

const NET_PROTOCOL: &str = "\
Results, per position p: u_out_v_i / u_out_ready_o valid-ready; u_fire_o = v & ready.
  A producer's valid must not depend on ready. Ready depends only on registered state
  and u_out_lane_en_i. On a fire every FIFO selecting the driven segment (and the
  unit's SELF FIFOs) pushes the data at the clock edge (atomic multicast).
Operands, per slot s = p*3 + k: u_in_v_o / u_in_yumi_i valid-then-yumi. FIFO slots
  are valid in RUN/DRAIN when non-empty; IMM slots always valid with the immediate;
  unused slots always valid with 0. A yumi on an invalid FIFO slot is ignored and
  raises dbg_pop_empty_err_o.
Configuration: cfg_we_i writes word cfg_word_i of unit cfg_unit_i, accepted only in
  GPU mode for an existing unit; otherwise cfg_err_o pulses in the next cycle.
Mode: GPU -(cc_start_i)-> ARM (1 cycle: clear FIFOs, preload initial tokens) -> RUN
  -(every counted unit done)-> DRAIN -(mem_idle_i)-> GPU with cc_done_o pulsed. In RUN,
  `watchdog` cycles without a fire abort to GPU with wdog_o pulsed.
Single clock clk_i; synchronous active-high reset rst_i clears mode, CRs and FIFOs.";

impl Catalog for GpuccModule<'_> {
    fn name(&self) -> String {
        match self {
            GpuccModule::Net { preset, .. } => top_name(preset),
            GpuccModule::Fifo { width, depth, peek: true } => format!("gpucc_addr_fifo_w{width}_d{depth}"),
            GpuccModule::Fifo { width, depth, peek: false } => format!("gpucc_fifo_w{width}_d{depth}"),
            GpuccModule::Cr => "gpucc_cr".into(),
            GpuccModule::Mode { watchdog } => format!("gpucc_mode_wdog{watchdog}"),
        }
    }

    fn doc(&self) -> ModuleDoc {
        match self {
            GpuccModule::Net { cfg, .. } => ModuleDoc::new("GPU-CC lane network, operand FIFOs, configuration registers and mode control (spec 1.3-1.9)", NET_PROTOCOL)
                .param("N_POS", cfg.n_pos())
                .param("N_LSU", cfg.n_lsu())
                .param("N_LANES", cfg.lanes)
                .param("DATA_W", cfg.data_width)
                .param("WATCHDOG", cfg.watchdog),
            GpuccModule::Fifo { width, depth, peek } => ModuleDoc::new(
                if *peek {
                    "GPU-CC LSU address FIFO with initial-token prefix and look-ahead read port (spec 1.4, 1.8)"
                } else {
                    "GPU-CC operand FIFO with initial-token prefix (spec 1.4)"
                },
                format!(
                    "v_i pushes data_i (the producer checks status__full_o first: never pushed when full); v_o / yumi_i valid-then-yumi pops.\n\
                     init_i (one cycle, ARM) clears the FIFO and preloads init_cnt_i virtual copies of init_val_i ahead of the pushed data.{}\n\
                     count_o and status__full_o are registered; rst_i (synchronous) empties it.",
                    if *peek { "\npeek_data_o = the entry peek_idx_i places after the head (0 past the count), combinational." } else { "" }
                ),
            )
            .param("DATA_W", width)
            .param("DEPTH", depth),
            GpuccModule::Cr => ModuleDoc::new(
                "GPU-CC 128-bit configuration register, word-addressed write port (spec 1.5)",
                "we_i writes wdata_i into word word_i at the rising edge; w0_o..w3_o are registered; rst_i clears all words.",
            )
            .param("CR_BITS", CR_BITS),
            GpuccModule::Mode { watchdog } => ModuleDoc::new(
                "GPU-CC mode FSM GPU/ARM/RUN/DRAIN with watchdog (spec 1.9)",
                format!(
                    "mode_o = {} (registered). cc_start_i in GPU mode arms; all_done_i ends RUN; mem_idle_i ends DRAIN with cc_done_o pulsed;\n\
                     cfg_we_i is accepted (cfg_accept_o) only in GPU mode with unit_ok_i, else cfg_err_o pulses the next cycle; {watchdog} RUN cycles without any_fire_i pulse wdog_o.",
                    mode_codes()
                ),
            )
            .param("WATCHDOG", watchdog),
        }
    }
}

/// `0 GPU, 1 ARM, 2 RUN, 3 DRAIN`, from golden's `Mode`.
fn mode_codes() -> String {
    [Mode::Gpu, Mode::Arm, Mode::Run, Mode::Drain].iter().map(|m| format!("{} {m:?}", *m as u8).to_uppercase()).collect::<Vec<_>>().join(", ")
}

/// Name of the top module for a preset.
pub fn top_name(preset: &str) -> String {
    format!("gpucc_net_{preset}")
}

/// Emit one FIFO leaf, monomorphized over the supported data widths and count widths.
fn emit_fifo(lib: &mut Library, w: u32, depth: u32, peek: bool) -> Result<(), GenError> {
    let entry = GpuccModule::Fifo { width: w, depth, peek };
    if lib.contains(&entry.name()) {
        return Ok(());
    }
    let c = fifo_count_bits(depth);
    macro_rules! emit {
        ($w:literal, $c:literal) => {{
            if peek {
                lib.emit(&entry, || AddrFifo::<$w, $c>::new(depth as usize)).map(|_| ())
            } else {
                lib.emit(&entry, || OperandFifo::<$w, $c>::new(depth as usize)).map(|_| ())
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
                    allowed: DATA_WIDTHS.iter().map(|w| w.to_string()).collect::<Vec<_>>().join(", "),
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

struct WordView {
    i: usize,
    hi: u32,
    lo: u32,
    last: bool,
}

struct PosView {
    p: usize,
    kind: &'static str,
    slice: usize,
    unit: usize,
    words: Vec<WordView>,
    fire_hi: u32,
    fire_lo: u32,
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
#[template(path = "gpucc/net.v", escape = "none")]
struct NetTop {
    top: String,
    ports: Vec<PortView>,
    n_in: u32,
    cr_bits: u32,
    cr_words: usize,
    cr_shift: u32,
    src_w: u32,
    src_self: u32,
    src_imm: u32,
    out_w: u32,
    cnt_w: u32,
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
            let lanes: Vec<LaneView> = (0..l).map(|li| LaneView { l: li, code: li + 1, hi: (li as u32 + 1) * w - 1, lo: li as u32 * w, seg_bit: li * n + p }).collect();
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
                        PeekView { idx_hi: (j + 1) * pw_peek - 1, idx_lo: j * pw_peek, data_hi: (j + 1) * w - 1, data_lo: j * w, cnt_hi: (j + 1) * acw - 1, cnt_lo: j * acw }
                    });
                    let what = match (c.kinds[p], k) {
                        (UnitKind::Lsu, 0) => "LSU address FIFO with look-ahead",
                        (UnitKind::Lsu, _) => "LSU store-data FIFO",
                        _ => "core operand FIFO",
                    };
                    FifoView { module: GpuccModule::Fifo { width: w, depth, peek: peek.is_some() }.name(), what, depth, c: fifo_count_bits(depth), peek }
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
                words: (0..CR_WORDS).map(|i| WordView { i, hi: base + 32 * i as u32 + 31, lo: base + 32 * i as u32, last: i + 1 == CR_WORDS }).collect(),
                fire_hi: base + 32 * cr::WORD_FIRE_COUNT as u32 + 31,
                fire_lo: base + 32 * cr::WORD_FIRE_COUNT as u32,
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
        n_in: N_IN as u32,
        cr_bits: CR_BITS,
        cr_words: CR_WORDS,
        cr_shift: CR_BITS.trailing_zeros(),
        src_w: cr::IN_SRC[0].width,
        src_self: cr::SRC_SELF,
        src_imm: cr::SRC_IMM,
        out_w: cr::OUT_LANE.width,
        cnt_w: cr::INIT_CNT[0].width,
        n: n as u32,
        n_lsu: c.n_lsu() as u32,
        l: l as u32,
        w,
        pw,
        cw,
        ones_l: format!("{{{l}{{1'b1}}}}"),
        unit_ok: if n == 1 << pw { "1'b1".into() } else { format!("cfg_unit_i < {pw}'d{n}") },
        mode_mod: GpuccModule::Mode { watchdog: c.watchdog }.name(),
        cr_mod: GpuccModule::Cr.name(),
        positions,
        unused_yumi,
    }
}

impl Generate for Gpucc {
    type Design = GpuccDesign;

    fn generate(cfg: &ConfigFile<GpuccConfig>) -> Result<Generated, GenError> {
        let c = &cfg.config;
        if c.n_pos() < 2 {
            return Err(GenError::Unsupported { field: "gpucc.slices".into(), message: format!("{} position(s)", c.n_pos()), allowed: "at least 2 positions".into() });
        }
        let mut lib = Library::default();
        for p in 0..c.n_pos() {
            for k in 0..N_IN {
                if let Some(depth) = c.fifo_depth(p, k) {
                    emit_fifo(&mut lib, c.data_width, depth, c.kinds[p] == UnitKind::Lsu && k == 0)?;
                }
            }
        }
        lib.emit(&GpuccModule::Cr, ConfigReg::default)?;
        lib.emit(&GpuccModule::Mode { watchdog: c.watchdog }, || ModeFsm::new(c.watchdog))?;
        let top = lib.add_text(&GpuccModule::Net { preset: &cfg.name, cfg: c }, views(c, &cfg.name).render()?)?;
        let net = DesignSpec::new("net", &GpuccDesign::Net, &top, ports(c));
        let net = parameters(c).into_iter().fold(net, |d, (k, v)| d.param(&k, v));
        let net = tables(c).into_iter().fold(net, |d, (k, v)| d.table(&k, v));
        Generated::new(cfg, <Gpucc as golden::block::Block>::TABLE, lib, vec![net])
    }
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
    t.insert("cr_words".into(), json!({"imm": cr::WORD_IMM, "fire_count": cr::WORD_FIRE_COUNT, "init_val": cr::WORD_INIT_VAL}));
    t.insert("src_codes".into(), json!({"unused": cr::SRC_UNUSED, "lane_a_first": 1, "self": cr::SRC_SELF, "imm": cr::SRC_IMM}));
    let modes = [Mode::Gpu, Mode::Arm, Mode::Run, Mode::Drain];
    t.insert("mode_codes".into(), json!(modes.iter().map(|m| (format!("{m:?}").to_lowercase(), *m as u8)).collect::<BTreeMap<_, _>>()));
    t
}
