//! The OQ top (`llc_oq_<preset>`, spec §1.3, §6.1): ports, header entry and template
//! view. The ports are `golden::llc_compute::oq::Oq`'s (`OqIn`/`OqOut` field names with
//! `_i`/`_o`), with its cycle semantics, so the lockstep bench compares every output
//! every cycle.
//!
//! The OQSR keeps, per entry, the absorbed instruction kinds as a *chain-prefix code*:
//! the prefixes of Table 1's nine patterns are numbered (16 of them, plus "none" and
//! "not a prefix"), and Table 1 becomes small functions of that code (next prefix,
//! loads, `ld i`, key order, pattern id, response kind, replay point) generated here
//! from `golden::llc_compute::chain::PATTERNS`.

use askama::Template;
use golden::bits::{clog2, count_width};
use golden::llc_compute::chain::{InstrKind, PATTERNS};
use golden::llc_compute::config::{CpguBusyPolicy, LlcComputeConfig, Mode};
use golden::llc_compute::oq::{EV_FB_REPLAY, EV_FB_WB, EV_RESUME, EV_WB_RESUME, RSP_ACK, RSP_BITMAP, RSP_DATA, RSP_FB_A, RSP_FB_B, TAG_FIRST, TAG_LAST};
use golden::llc_compute::packet::{ADDR_W, CLASS_CP, CP_FIELDS, FLIT_W, SINK_SQ};
use serde_json::json;

use super::leaf::oq_entry_fsm as fsm;
use super::Params;
use crate::catalog::ModuleDoc;
use crate::design::GenError;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

/// Name of the OQ top of a preset.
pub fn top_name(preset: &str) -> String {
    format!("llc_oq_{preset}")
}

const PROTOCOL: &str = "\
Chain instructions: ci_valid_i / ci_ready_o. A `01` (ci_tag_i = 1) allocates an OQSR entry
  (or raises evc_valid_o: DISCARD, the warp runs the chain normally); `10`/`11` append to
  the CPGU's forming chain. ci_ready_o = 0 while a flush drains or a CP waits, while the
  forming chain's load awaits its L1 result (except in the cycle its miss arrives), and
  (wait policy) for a `01` while a chain forms.
L1 results: l1r_valid_i / l1r_hit_i, one per chain load, in order (no handshake). A first-load
  hit raises evl_valid_o (DISCARD); a later-load hit flushes.
CP out: cp_valid_o / cp_ready_i; cp_flit_o is the spec 2.3 ComputePacket, from a register.
Flush: fm_valid_o / fm_ready_i, one held miss per transfer, from registers; when the last is
  taken evf_valid_o (FLUSH_REPLAY) pulses with the replay point and the `ld i` to write.
Responses: rsp_valid_i / rsp_ready_o (= !wb_busy_i), matched by rsp_tag_i (the OQ tag);
  evr_valid_o pulses RESUME, WB_RESUME, FB_WB or FB_REPLAY. evc/evl/evr/evf are one-cycle
  pulses the core always takes. err_o: a protocol error this cycle.
Status outputs come from registers. Single clock clk_i; synchronous active-high rst_i.";

/// The header entry.
pub fn doc(c: &LlcComputeConfig, self_node: u32) -> ModuleDoc {
    let o = &c.oq;
    ModuleDoc::new("LLC-Compute Offload Queue: OQMU, OQSR (entry FSM of spec 1.3.4), CPGU, EMN LUT ROM (spec 1.3, 1.4, 6.1)", PROTOCOL)
        .param("N_ENT", o.entries)
        .param("N_WARPS", o.warps)
        .param("LANES", o.lanes)
        .param("ADDR_W", ADDR_W)
        .param("NODE_W", c.node_w())
        .param("MC_W", c.mc_w())
        .param("FLIT_W", FLIT_W)
        .param("SELF_NODE", self_node)
        .param("MESH", format!("{}x{}, MCs {:?}", c.placement.width, c.placement.height, c.placement.mcs.iter().map(|m| (m.x, m.y)).collect::<Vec<_>>()))
        .param("CPGU_BUSY_POLICY", format!("{:?}", o.cpgu_busy_policy).to_lowercase())
        .param("DIV_POLICY", "discard")
}

fn wid_w(c: &LlcComputeConfig) -> u32 {
    clog2(u64::from(c.oq.warps))
}

fn tag_w(c: &LlcComputeConfig) -> u32 {
    clog2(u64::from(c.oq.entries))
}

/// The ports, in declaration order (also the manifest's port list).
pub fn ports(c: &LlcComputeConfig) -> Vec<Port> {
    let (ww, l, mw) = (wid_w(c), c.oq.lanes, c.mc_w());
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("cfg_mode_i", 2, "0 off, 1 LLC-Compute, 2 Omni-Compute"),
        Port::input("cfg_capable_i", c.placement.nodes(), "per node id: compute-capable").fields(c.placement.nodes()),
        Port::input("cfg_llc_rule_i", 1, "LLC mode offloads when the EMN is an LLC node (else: one MC)"),
        Port::input("ci_valid_i", 1, "a chain instruction from the LD/ST issue path"),
        Port::output("ci_ready_o", 1, "absorbed (or discarded: evc_valid_o)"),
        Port::input("ci_wid_i", ww, "its warp"),
        Port::input("ci_tag_i", 2, "chain tag: 1 first, 2 middle, 3 last"),
        Port::input("ci_kind_i", 3, "0 ld, 1 ld i (movi), 2 alu, 3 cmp, 4 st"),
        Port::input("ci_op_i", 4, "ALU/CMP opcode"),
        Port::input("ci_dtype_i", 1, "ALU data type"),
        Port::input("ci_addr_i", ADDR_W, "ld/st byte address (lane 0)"),
        Port::input("ci_mc_i", mw, "ld/st memory controller"),
        Port::input("ci_imm_i", 32, "ld i immediate"),
        Port::input("ci_dst_i", 8, "destination register"),
        Port::input("ci_mask_i", l, "active mask"),
        Port::input("ci_unit_stride_i", 1, "the access is one line (not memory-divergent)"),
        Port::input("l1r_valid_i", 1, "the L1 tag result of the forming chain's pending load"),
        Port::input("l1r_hit_i", 1, "it hit"),
        Port::output("cp_valid_o", 1, "a ComputePacket for the NI injection port"),
        Port::input("cp_ready_i", 1, "injected"),
        Port::output("cp_flit_o", FLIT_W, "the ComputePacket (spec 2.3)"),
        Port::output("fm_valid_o", 1, "a held miss of a flushed chain for the normal miss path"),
        Port::input("fm_ready_i", 1, "taken"),
        Port::output("fm_wid_o", ww, "its warp"),
        Port::output("fm_addr_o", ADDR_W, "its address"),
        Port::output("fm_dst_o", 8, "its destination register"),
        Port::output("fm_mask_o", l, "its active mask"),
        Port::input("rsp_valid_i", 1, "a response from the NI demux (sink OQ)"),
        Port::output("rsp_ready_o", 1, "taken (= !wb_busy_i)"),
        Port::input("rsp_kind_i", 3, "0 ACK, 1 DATA, 2 BITMAP, 3 FB_A, 4 FB_B"),
        Port::input("rsp_tag_i", tag_w(c), "OQ tag"),
        Port::input("rsp_data_i", l * 32, "one 32-bit word per lane").fields(l),
        Port::input("wb_busy_i", 1, "the register-file write port is busy"),
        Port::output("evc_valid_o", 1, "DISCARD of a `01` at the chain port"),
        Port::output("evc_wid_o", ww, "its warp"),
        Port::output("evl_valid_o", 1, "DISCARD: the first load hit in L1"),
        Port::output("evl_wid_o", ww, "its warp"),
        Port::output("evr_valid_o", 1, "a response event"),
        Port::output("evr_kind_o", 2, "0 RESUME, 1 WB_RESUME, 2 FB_WB, 3 FB_REPLAY"),
        Port::output("evr_wid_o", ww, "its warp"),
        Port::output("evr_reg_o", 8, "register written (WB_RESUME, FB_WB, FB_REPLAY)"),
        Port::output("evr_data_o", l * 32, "data written, one word per lane").fields(l),
        Port::output("evr_replay_idx_o", 3, "FB_REPLAY: chain index where normal execution resumes"),
        Port::output("evr_movi_valid_o", 1, "FB_REPLAY: write the `ld i` too"),
        Port::output("evr_movi_reg_o", 8, "its register"),
        Port::output("evr_movi_imm_o", 32, "its immediate"),
        Port::output("evf_valid_o", 1, "FLUSH_REPLAY (the last held miss was taken)"),
        Port::output("evf_wid_o", ww, "its warp"),
        Port::output("evf_replay_idx_o", 3, "chain index where normal execution resumes"),
        Port::output("evf_movi_valid_o", 1, "write the `ld i` too"),
        Port::output("evf_movi_reg_o", 8, "its register"),
        Port::output("evf_movi_imm_o", 32, "its immediate"),
        Port::output("err_o", 1, "protocol error this cycle"),
        Port::output("st_count_o", count_width(u64::from(c.oq.entries)), "live OQSR entries"),
        Port::output("st_full_o", 1, "every entry live"),
        Port::output("st_forming_o", 1, "a chain is forming in the CPGU"),
        Port::output("st_forming_wid_o", ww, "its warp"),
        Port::output("st_warp_wait_o", c.oq.warps, "per warp: a chain in SENT, FALLBACK or FLUSH").fields(c.oq.warps),
    ]
}

/// The output ports driven from the combinational block (the rest are `assign`ed).
const COMB_OUTS: [&str; 28] = [
    "rsp_ready",
    "ci_ready",
    "err",
    "evc_valid",
    "evc_wid",
    "evl_valid",
    "evl_wid",
    "evr_valid",
    "evr_kind",
    "evr_wid",
    "evr_reg",
    "evr_data",
    "evr_replay_idx",
    "evr_movi_valid",
    "evr_movi_reg",
    "evr_movi_imm",
    "evf_valid",
    "evf_wid",
    "evf_replay_idx",
    "evf_movi_valid",
    "evf_movi_reg",
    "evf_movi_imm",
    "fm_valid",
    "fm_wid",
    "fm_addr",
    "fm_dst",
    "fm_mask",
    "st_forming_wid",
];

/// The chain prefixes of Table 1, in first-seen order (code = index + 1).
pub fn prefixes() -> Vec<Vec<InstrKind>> {
    let mut v: Vec<Vec<InstrKind>> = Vec::new();
    for p in &PATTERNS {
        for n in 1..=p.seq.len() {
            if !v.iter().any(|q| q[..] == p.seq[..n]) {
                v.push(p.seq[..n].to_vec());
            }
        }
    }
    v
}

fn kind_letter(k: InstrKind) -> &'static str {
    match k {
        InstrKind::Ld => "L",
        InstrKind::Movi => "M",
        InstrKind::Alu => "A",
        InstrKind::Cmp => "C",
        InstrKind::St => "S",
    }
}

/// `code -> name` (L ld, M ld i, A alu, C cmp, S st), for the manifest.
pub fn prefix_names() -> std::collections::BTreeMap<u32, String> {
    prefixes().iter().enumerate().map(|(i, p)| (i as u32 + 1, p.iter().map(|k| kind_letter(*k)).collect())).collect()
}

/// Golden's replay rule (`oq::Entry::replay_idx`) for a prefix and held flags, and
/// whether the `ld i` lies before it.
fn replay(seq: &[InstrKind], held: [bool; 2]) -> (u32, bool) {
    let mut k = 0;
    let mut idx = seq.len() as u32;
    for (i, kind) in seq.iter().enumerate() {
        match kind {
            InstrKind::Ld => {
                if !held[k] {
                    idx = i as u32;
                    break;
                }
                k += 1;
            }
            InstrKind::Movi => {}
            _ => {
                idx = i as u32;
                break;
            }
        }
    }
    let movi = seq.iter().position(|k| *k == InstrKind::Movi).is_some_and(|m| (m as u32) < idx);
    (idx, movi)
}

struct PrefixView {
    code: u32,
    name: String,
    loads: u32,
    movi: u32,
    swap: u32,
    pattern: u32,
    resp: u32,
}

pub struct CombOut {
    decl: String,
    assign: String,
}

#[derive(Template)]
#[template(path = "llc_compute/oq.v", escape = "none")]
struct OqView {
    top: String,
    fsm_mod: String,
    ents: Vec<u32>,
    s_free: u64,
    s_forming: u64,
    s_sent: u64,
    s_fallback: u64,
    s_flush: u64,
    ports: Vec<PortView>,
    comb_outs: Vec<CombOut>,
    n: u32,
    n_mc: usize,
    self_node: u32,
    tag_w: u32,
    wid_w: u32,
    warps: u32,
    cnt_w: u32,
    mc_w: u32,
    pfx_w: u32,
    lanes: u32,
    addr_w: u32,
    node_w: u32,
    flit_w: u32,
    k_ld: u32,
    k_movi: u32,
    k_alu: u32,
    k_cmp: u32,
    k_st: u32,
    pfx_first: u32,
    pfx_bad: u32,
    prefixes: Vec<PrefixView>,
    next_rows: Vec<String>,
    replay_rows: Vec<String>,
    lut_rows: Vec<String>,
    llc_expr: String,
    tag_ok: String,
    rsp_ack: u32,
    rsp_data: u32,
    rsp_bitmap: u32,
    rsp_fb_a: u32,
    rsp_fb_b: u32,
    ev_resume: u32,
    ev_wb_resume: u32,
    ev_fb_wb: u32,
    ev_fb_replay: u32,
    tag_first: u32,
    tag_last: u32,
    wait_policy: &'static str,
    mode_omni: u32,
    mode_llc: u32,
    cp_expr: String,
}

const KINDS: [InstrKind; 5] = [InstrKind::Ld, InstrKind::Movi, InstrKind::Alu, InstrKind::Cmp, InstrKind::St];

/// The CP flit as one concatenation, MSB first, from the spec 2.3 field table.
fn cp_expr(c: &LlcComputeConfig, self_node: u32) -> Result<String, GenError> {
    let lanes = c.oq.lanes;
    let nw = c.node_w();
    let tw = tag_w(c);
    let mut parts = Vec::new();
    for f in CP_FIELDS {
        let w = f.width;
        let pad = |have: u32, e: &str| if have == w { e.to_string() } else { format!("{{{}'d0, {e}}}", w - have) };
        let e = match f.name {
            "is_cp" => "1'b1".to_string(),
            "sink" => format!("{w}'d{SINK_SQ}"),
            "msg_class" => format!("{w}'d{CLASS_CP}"),
            "src_node" => format!("{w}'d{self_node}"),
            "dst_node" => pad(nw, "o_node"),
            "len_flits" => format!("{w}'d1"),
            "op1" => "cg_op1_r".into(),
            "op0" => "cg_op0_r".into(),
            "pattern" => "o_info[5:2]".into(),
            "resp_kind" => "o_info[1:0]".into(),
            "dtype" => "cg_dtype_r".into(),
            "addr_a" => "o_a".into(),
            "addr_b" => "o_b".into(),
            "addr_c" => "(cg_cv_r ? cg_ac_r : {AW{1'b0}})".into(),
            "imm" => "(o_info[7] ? o_mimm : 32'd0)".into(),
            "active_mask" => pad(lanes, "cg_mask_r"),
            "oq_tag" => pad(tw, "cg_ent_r"),
            "non_offloadable" | "hdr_rsvd" | "has_ext" | "extra_rsvd" => format!("{w}'d0"),
            other => return Err(GenError::Bug(format!("CP field {other} has no source in the OQ"))),
        };
        parts.push(e);
    }
    Ok(format!("{{{}}}", parts.join(",\n            ")))
}

/// Render the OQ top.
pub fn render(c: &LlcComputeConfig, preset: &str, self_node: u32, fsm_mod: String) -> Result<String, GenError> {
    let pfx = prefixes();
    let pfx_bad = pfx.len() as u32 + 1;
    let pfx_w = clog2(u64::from(pfx_bad) + 1);
    let code = |s: &[InstrKind]| pfx.iter().position(|p| p[..] == *s).map(|i| i as u32 + 1);
    let mut next_rows = Vec::new();
    let mut replay_rows = Vec::new();
    let mut views = Vec::new();
    for (i, p) in pfx.iter().enumerate() {
        let pc = i as u32 + 1;
        for k in KINDS {
            let mut s = p.clone();
            s.push(k);
            if let Some(nc) = code(&s) {
                next_rows.push(format!("{{{pfx_w}'d{pc}, 3'd{}}}: pfx_next = {pfx_w}'d{nc};", k.code()));
            }
        }
        for h in 0..4u32 {
            let (idx, mv) = replay(p, [h & 2 != 0, h & 1 != 0]);
            replay_rows.push(format!("{{{pfx_w}'d{pc}, 2'd{h}}}: replay = {{1'b{}, 3'd{idx}}};", u32::from(mv)));
        }
        let pat = golden::llc_compute::chain::Pattern::of_seq(p);
        views.push(PrefixView {
            code: pc,
            name: p.iter().map(|k| kind_letter(*k)).collect(),
            loads: p.iter().filter(|k| **k == InstrKind::Ld).count() as u32,
            movi: u32::from(p.contains(&InstrKind::Movi)),
            swap: u32::from(p.len() >= 3 && p[..3] == [InstrKind::Ld, InstrKind::Movi, InstrKind::Ld]),
            pattern: pat.map_or(0, |p| p.id),
            resp: pat.map_or(0, |p| p.resp.code()),
        });
    }
    let p = &c.placement;
    let (mw, nw) = (c.mc_w(), c.node_w());
    let lut = &c.luts[self_node as usize];
    let mut lut_rows = Vec::new();
    for (a, row) in lut.iter().enumerate() {
        for (b, e) in row.iter().enumerate() {
            if let Some(n) = e {
                lut_rows.push(format!("{{{mw}'d{a}, {mw}'d{b}}}: emn = {{1'b1, {nw}'d{}}};", p.id(*n)));
            }
        }
    }
    let llc_expr = p.mcs.iter().map(|m| format!("node == {nw}'d{}", p.id(*m))).collect::<Vec<_>>().join(" || ");
    let n = c.oq.entries;
    let tw = tag_w(c);
    let all_ports = ports(c);
    let mut comb_outs = Vec::new();
    for name in COMB_OUTS {
        let port = all_ports.iter().find(|q| q.name == format!("{name}_o")).ok_or_else(|| GenError::Bug(format!("no port {name}_o")))?;
        let range = if port.width > 1 { format!("[{}:0] ", port.width - 1) } else { String::new() };
        comb_outs.push(CombOut { decl: format!("reg {range}{name};"), assign: format!("assign {name}_o = {name};") });
    }
    let v = OqView {
        top: top_name(preset),
        fsm_mod,
        ents: (0..c.oq.entries).collect(),
        s_free: fsm::S_FREE,
        s_forming: fsm::S_FORMING,
        s_sent: fsm::S_SENT,
        s_fallback: fsm::S_FALLBACK,
        s_flush: fsm::S_FLUSH,
        ports: port_views(&all_ports),
        comb_outs,
        n,
        n_mc: p.mcs.len(),
        self_node,
        tag_w: tw,
        wid_w: wid_w(c),
        warps: c.oq.warps,
        cnt_w: count_width(u64::from(n)),
        mc_w: mw,
        pfx_w,
        lanes: c.oq.lanes,
        addr_w: ADDR_W,
        node_w: nw,
        flit_w: FLIT_W,
        k_ld: InstrKind::Ld.code(),
        k_movi: InstrKind::Movi.code(),
        k_alu: InstrKind::Alu.code(),
        k_cmp: InstrKind::Cmp.code(),
        k_st: InstrKind::St.code(),
        pfx_first: code(&[InstrKind::Ld]).expect("every pattern starts with ld"),
        pfx_bad,
        prefixes: views,
        next_rows,
        replay_rows,
        lut_rows,
        llc_expr,
        tag_ok: if u64::from(n) == 1u64 << tw { "1'b1".into() } else { format!("rsp_tag_i < {tw}'d{n}") },
        rsp_ack: RSP_ACK,
        rsp_data: RSP_DATA,
        rsp_bitmap: RSP_BITMAP,
        rsp_fb_a: RSP_FB_A,
        rsp_fb_b: RSP_FB_B,
        ev_resume: EV_RESUME,
        ev_wb_resume: EV_WB_RESUME,
        ev_fb_wb: EV_FB_WB,
        ev_fb_replay: EV_FB_REPLAY,
        tag_first: TAG_FIRST,
        tag_last: TAG_LAST,
        wait_policy: if c.oq.cpgu_busy_policy == CpguBusyPolicy::Wait { "1'b1" } else { "1'b0" },
        mode_omni: Mode::Omni.code(),
        mode_llc: Mode::Llc.code(),
        cp_expr: cp_expr(c, self_node)?,
    };
    Ok(v.render()?)
}

/// Storage bits of the OQ as generated: per OQSR entry and in the CPGU.
pub fn storage(c: &LlcComputeConfig) -> serde_json::Value {
    let pfx_w = clog2(prefixes().len() as u64 + 2);
    let entry = 3 + wid_w(c) + pfx_w + 3 + 3 + 8 + 8 + 8 + 8 + 32;
    let mw = c.mc_w();
    let cpgu = 1 + tag_w(c) + 4 + 4 + 2 + 1 + 3 * mw + 3 * ADDR_W + 1 + 1 + 1 + c.oq.lanes;
    json!({
        "oqsr_entry_bits": entry,
        "oqsr_bits": entry * c.oq.entries,
        "cpgu_bits": cpgu,
        "flush_bits": 1 + tag_w(c),
        "cp_valid_bits": 1,
    })
}

pub fn parameters(c: &LlcComputeConfig, self_node: u32) -> Params {
    let mut m = Params::new();
    m.insert("N_ENT".into(), json!(c.oq.entries));
    m.insert("N_WARPS".into(), json!(c.oq.warps));
    m.insert("LANES".into(), json!(c.oq.lanes));
    m.insert("ADDR_W".into(), json!(ADDR_W));
    m.insert("NODE_W".into(), json!(c.node_w()));
    m.insert("MC_W".into(), json!(c.mc_w()));
    m.insert("FLIT_W".into(), json!(FLIT_W));
    m.insert("SELF_NODE".into(), json!(self_node));
    m.insert("CPGU_BUSY_POLICY".into(), json!(u32::from(c.oq.cpgu_busy_policy != CpguBusyPolicy::Wait)));
    m.insert("DIV_POLICY".into(), json!(0));
    m.insert("L1_TAG_LAT".into(), json!(c.oq.l1_tag_latency));
    m
}
