//! The LLC partition's SIMD ALU (`llc_simd_alu_<preset>`, spec §1.1 item 7, block
//! `simd_alu` of §6.3): the ports of `golden::llc_compute::simd_alu::SimdAlu`, `LANES`
//! copies of one lane (`llc_lane_alu`, the §2.3 opcodes of `golden::llc_compute::lane_op`
//! in IEEE binary32 with round to nearest even and subnormals), a `LAT`-stage result
//! pipeline and, with `HAS_FDIV`, the unpipelined divider.

use askama::Template;
use golden::bits::clog2;
use golden::llc_compute::LlcComputeConfig;

use crate::catalog::ModuleDoc;
use crate::design::GenError;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

pub fn top_name(preset: &str) -> String {
    format!("llc_simd_alu_{preset}")
}

/// The lane module (one for every preset: it has no parameter).
pub const LANE: &str = "llc_lane_alu";

pub fn doc(c: &LlcComputeConfig) -> ModuleDoc {
    let s = &c.sq;
    ModuleDoc::new(
        "LLC-Compute SIMD ALU (spec 1.1, 2.3, 6.3): LANES lanes of the 32-bit int/fp ALU, pipelined, one warp-op per cycle",
        "in_valid_i / in_ready_o: an op (op_i, cmp_i: a compare, dtype_i: fp compare, a_i, b_i, mask_i) is taken when both\n\
         are 1. in_ready_o = 1 except while the unpipelined divider (HAS_FDIV, op 11) counts FDIV_LAT cycles.\n\
         out_valid_o pulses LAT cycles after the op was taken (FDIV_LAT for a divide) with res_o (ALU ops) or bitmap_o\n\
         (compares); lanes outside mask_i give 0. No output back-pressure. Single clock clk_i; synchronous active-high rst_i.",
    )
    .param("LANES", c.oq.lanes)
    .param("LAT", s.alu_latency)
    .param("HAS_FDIV", u32::from(s.fdiv))
    .param("FDIV_LAT", s.fdiv_latency)
}

pub fn lane_doc() -> ModuleDoc {
    ModuleDoc::new(
        "LLC-Compute ALU lane (spec 2.3): one 32-bit int / IEEE binary32 op or compare, combinational",
        "No handshake, no state: res_o = op_i(a_i, b_i), bit_o = compare op_i(a_i, b_i) (dtype_i: as fp).",
    )
}

pub fn ports(c: &LlcComputeConfig) -> Vec<Port> {
    let l = c.oq.lanes;
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("in_valid_i", 1, "an op is offered"),
        Port::output("in_ready_o", 1, "the op is taken (low while the divider runs)"),
        Port::input("cmp_i", 1, "the op is a compare (bitmap out)"),
        Port::input("op_i", 4, "ALU opcode (spec 2.3) or compare code"),
        Port::input("dtype_i", 1, "compare as fp32 (else signed int32)"),
        Port::input("a_i", 32 * l, "operand a, lane k in bits [32k+31:32k]").fields(l),
        Port::input("b_i", 32 * l, "operand b").fields(l),
        Port::input("mask_i", l, "active lanes").fields(l),
        Port::output("out_valid_o", 1, "a result leaves the pipeline"),
        Port::output("res_o", 32 * l, "the result vector (0 on inactive lanes and for compares)").fields(l),
        Port::output("bitmap_o", l, "the compare bitmap (0 for ALU ops)").fields(l),
    ]
}

pub fn lane_ports() -> Vec<Port> {
    vec![
        Port::input("op_i", 4, "ALU opcode or compare code"),
        Port::input("dtype_i", 1, "compare as fp32"),
        Port::input("a_i", 32, "operand a"),
        Port::input("b_i", 32, "operand b (unary ops: sub-op in b[3:0])"),
        Port::output("res_o", 32, "ALU result"),
        Port::output("bit_o", 1, "compare result"),
    ]
}

#[derive(Template)]
#[template(path = "llc_compute/lane_alu.v", escape = "none")]
struct LaneView {
    top: &'static str,
    ports: Vec<PortView>,
}

#[derive(Template)]
#[template(path = "llc_compute/simd_alu.v", escape = "none")]
struct AluView {
    top: String,
    ports: Vec<PortView>,
    lane_mod: &'static str,
    lanes: u32,
    lat: u32,
    fdiv: bool,
    fdiv_lat: u32,
    div_w: u32,
}

pub fn render_lane() -> Result<String, GenError> {
    Ok(LaneView { top: LANE, ports: port_views(&lane_ports()) }.render()?)
}

pub fn render(c: &LlcComputeConfig, preset: &str) -> Result<String, GenError> {
    let s = &c.sq;
    Ok(AluView {
        top: top_name(preset),
        ports: port_views(&ports(c)),
        lane_mod: LANE,
        lanes: c.oq.lanes,
        lat: s.alu_latency,
        fdiv: s.fdiv,
        fdiv_lat: s.fdiv_latency,
        div_w: clog2(u64::from(s.fdiv_latency) + 1),
    }
    .render()?)
}
