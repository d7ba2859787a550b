//! The Service Queue in RTL (spec §1.6, §6.2): the core both variants share
//! (`llc_sqsr_<preset>`, golden `sqsr::Sqsr`: SQMU decode with allocation or fallback,
//! SQSR entries with the [`super::leaf::sq_entry_fsm`] leaf, the ready-order FIFO,
//! the temporary buffer and its fill order, the ALU delay lines, the store, response and
//! fallback queues), the chain ALU (`llc_sq_chain_alu_l<lanes>`: golden
//! `lane_op::chain_result` with two `llc_lane_alu`s per lane), the queues
//! (`llc_sq_fifo_w<W>_d<D>_p<P>`: compacting FIFOs taking up to P pushes a cycle) and the
//! SQ at an LLC partition (`llc_sq_<preset>`, golden `sq::Sq`, with its ports: `SqIn` /
//! `SqOut` field names with `_i`/`_o`, the same cycle semantics).

use askama::Template;
use golden::bits::{clog2, count_width, Field};
use golden::llc_compute::chain::PATTERNS;
use golden::llc_compute::packet::{ADDR_A, ADDR_B, ADDR_C, ADDR_W, DTYPE, FLIT_W, IMM, MASK, OP0, OP1, OQ_TAG, PATTERN, RESP_KIND, SRC_NODE};
use golden::llc_compute::sq::{LR_FB_LOAD, LR_READ, LR_TOUCH, LR_WRITE};
use golden::llc_compute::sqsr::{RESP_ACK, RESP_BITMAP, RESP_DATA};
use golden::llc_compute::LlcComputeConfig;
use serde_json::json;

use super::leaf::sq_entry_fsm as fsm;
use crate::catalog::ModuleDoc;
use crate::design::GenError;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

pub fn top_name(preset: &str) -> String {
    format!("llc_sq_{preset}")
}

pub fn core_name(preset: &str) -> String {
    format!("llc_sqsr_{preset}")
}

pub fn chain_alu_name(lanes: u32) -> String {
    format!("llc_sq_chain_alu_l{lanes}")
}

/// A queue of `d` words of `w` bits taking up to `p` pushes a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fifo {
    pub w: u32,
    pub d: u32,
    pub p: u32,
}

impl Fifo {
    pub fn name(&self) -> String {
        format!("llc_sq_fifo_w{}_d{}_p{}", self.w, self.d, self.p)
    }

    pub fn doc(&self) -> ModuleDoc {
        ModuleDoc::new(
            "LLC-Compute SQ queue: a compacting FIFO of D words of W bits taking up to P pushes a cycle",
            "No handshake. pop_i drops the head (when not empty), then the words of push_i's set lanes are appended in\n\
             lane order (beyond D words they are dropped). head_o, valid_o and count_o come from the registers.\n\
             Single clock clk_i; synchronous active-high rst_i empties it.",
        )
        .param("W", self.w)
        .param("D", self.d)
        .param("P", self.p)
    }

    pub fn render(&self) -> Result<String, GenError> {
        Ok(FifoView { top: self.name(), w: self.w, d: self.d, p: self.p, cw: count_width(u64::from(self.d)) }.render()?)
    }
}

#[derive(Template)]
#[template(path = "llc_compute/sq_fifo.v", escape = "none")]
struct FifoView {
    top: String,
    w: u32,
    d: u32,
    p: u32,
    cw: u32,
}

fn tag_w(c: &LlcComputeConfig) -> u32 {
    clog2(u64::from(c.sq.entries))
}

fn slot_w(c: &LlcComputeConfig) -> u32 {
    clog2(u64::from(c.sq.buffer))
}

/// A fallback load in its queue: `{addr, which, src_node, oq_tag}`.
fn fb_w() -> u32 {
    ADDR_W + 1 + SRC_NODE.width + OQ_TAG.width
}

/// The five queues of the core: ready order, store, response, fallback, buffer order.
pub fn fifos(c: &LlcComputeConfig) -> [Fifo; 5] {
    let (n, tw) = (c.sq.entries, tag_w(c));
    [Fifo { w: tw, d: n, p: 1 }, Fifo { w: tw, d: n, p: 3 }, Fifo { w: tw, d: n, p: 4 }, Fifo { w: fb_w(), d: 2, p: 2 }, Fifo { w: slot_w(c), d: c.sq.buffer, p: 1 }]
}

const PROTOCOL: &str = "\
CP in: cp_valid_i / cp_ready_o (= no fallback load waits). A CP taken while every SQSR entry is live becomes one
  FB_LOAD per memory operand (no SQSR state); otherwise it takes the lowest free entry.
LLC requests: lr_valid_o / lr_ready_i, one a cycle, WRITE > READ (buffer fill) > TOUCH > FB_LOAD; lr_tag_o names the
  entry (0 for FB_LOAD). A WRITE's byte enables cover the CP's active lanes.
lp_valid_i (present notification) and ld_valid_i (read data for the entry's buffer slot) are always taken.
Responses: no_valid_o / no_ready_i, from the response queue; an entry is freed when its response is taken, and a store
  chain's response is offered only after its WRITE was taken. Outputs are 0 during rst_i except the status, which
  comes from the registers. Single clock clk_i; synchronous active-high rst_i.";

pub fn doc(c: &LlcComputeConfig) -> ModuleDoc {
    variant_doc("LLC-Compute Service Queue at an LLC partition: SQMU, SQSR, temporary buffer, the partition's chain ALU (spec 1.6, 6.2)", PROTOCOL, c, 1)
        .param("REQ_PRIO", "WRITE > READ > TOUCH > FB_LOAD")
}

/// The header of either SQ variant's top (`at_llc`: spec §6.2's `AT_LLC`), with the
/// parameters both have.
pub fn variant_doc(what: &str, protocol: &str, c: &LlcComputeConfig, at_llc: u32) -> ModuleDoc {
    let s = &c.sq;
    ModuleDoc::new(what, protocol)
        .param("N_ENT", s.entries)
        .param("N_BUF", s.buffer)
        .param("AT_LLC", at_llc)
        .param("LANES", c.oq.lanes)
        .param("ALU_LAT", s.alu_latency)
        .param("ADDR_W", ADDR_W)
        .param("FLIT_W", FLIT_W)
}

pub fn core_doc(c: &LlcComputeConfig) -> ModuleDoc {
    let s = &c.sq;
    ModuleDoc::new(
        "LLC-Compute SQ core both variants share (spec 1.6, 1.7): SQMU decode, SQSR entries, ready-order FIFO, temporary buffer, ALU delay lines, store/response/fallback queues",
        "Offers (from the registers): the store head (st_*), the response head (rsp_*), the buffer-fill read (fill_*: the\n\
         second operand of the entry being filled, else the first of the ready FIFO's head when a slot is free), the\n\
         operand load of the lowest live entry with one not issued (load_*), the fallback-load head (fb_*). The wrapper\n\
         takes them with *_take_i. cp_take_i: a CP taken (fallback loads when full). lp_valid_i: an operand present;\n\
         ld_valid_i: operand data for the entry's buffer slot. rq_push_i: an entry joins the response queue (its store is\n\
         done) before this cycle's ALU results. The oldest complete buffer entry is dispatched when alu_gnt_i (a copy\n\
         always): alu_*_o are the chain's operands and ops, alu_res_i / alu_bm_i its result, stored with the entry.\n\
         Single clock clk_i; synchronous active-high rst_i.",
    )
    .param("N_ENT", s.entries)
    .param("N_BUF", s.buffer)
    .param("LANES", c.oq.lanes)
    .param("ALU_LAT", s.alu_latency)
}

pub fn chain_alu_doc(lanes: u32) -> ModuleDoc {
    ModuleDoc::new(
        "LLC-Compute SQ chain ALU (spec 2.2): a chain's one or two dependent ops on every lane, combinational",
        "No handshake, no state: res_o / bitmap_o = the pattern's result of a_i, b_i, imm_i on the lanes of mask_i (0 elsewhere).",
    )
    .param("LANES", lanes)
}

/// The ports both SQ variants begin with: clock, reset, the CP input.
pub fn cp_ports() -> [Port; 5] {
    [
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("cp_valid_i", 1, "a ComputePacket from the NI demux"),
        Port::output("cp_ready_o", 1, "taken (low while fallback loads wait)"),
        Port::input("cp_flit_i", FLIT_W, "the ComputePacket (spec 2.3)"),
    ]
}

/// The status ports both SQ variants have.
pub fn status_ports(c: &LlcComputeConfig) -> [Port; 3] {
    [
        Port::output("st_count_o", count_width(u64::from(c.sq.entries)), "live SQSR entries"),
        Port::output("st_full_o", 1, "every entry live"),
        Port::output("st_buf_count_o", count_width(u64::from(c.sq.buffer)), "occupied buffer slots"),
    ]
}

/// The LLC variant's ports, in declaration order (golden `SqIn` / `SqOut`).
pub fn ports(c: &LlcComputeConfig) -> Vec<Port> {
    let (l, tw) = (c.oq.lanes, tag_w(c));
    let mut v = Vec::from(cp_ports());
    v.extend([
        Port::output("lr_valid_o", 1, "an LLC request"),
        Port::input("lr_ready_i", 1, "taken by the LLC"),
        Port::output("lr_kind_o", 2, "0 TOUCH, 1 READ, 2 WRITE, 3 FB_LOAD"),
        Port::output("lr_addr_o", ADDR_W, "byte address"),
        Port::output("lr_tag_o", tw, "SQSR entry"),
        Port::output("lr_which_o", 1, "operand (0 a, 1 b)"),
        Port::output("lr_wdata_o", l * 32, "WRITE data, one word per lane").fields(l),
        Port::output("lr_wbe_o", l * 4, "WRITE byte enables, 4 per lane").fields(l),
        Port::output("lr_reply_node_o", SRC_NODE.width, "the chain's source core (an FB_LOAD's reply goes there)"),
        Port::output("lr_oq_tag_o", OQ_TAG.width, "the chain's OQ tag"),
        Port::input("lp_valid_i", 1, "present notification: the operand's line is in the LLC"),
        Port::input("lp_tag_i", tw, "its SQSR entry"),
        Port::input("lp_which_i", 1, "its operand"),
        Port::input("ld_valid_i", 1, "READ data returns"),
        Port::input("ld_tag_i", tw, "its SQSR entry"),
        Port::input("ld_which_i", 1, "its operand"),
        Port::input("ld_data_i", l * 32, "the line, one word per lane").fields(l),
        Port::output("no_valid_o", 1, "a response for the source core"),
        Port::input("no_ready_i", 1, "injected"),
        Port::output("no_dst_o", SRC_NODE.width, "the source core"),
        Port::output("no_kind_o", 2, "0 ACK, 1 DATA, 2 BITMAP"),
        Port::output("no_oq_tag_o", OQ_TAG.width, "the chain's OQ tag"),
        Port::output("no_data_o", l * 32, "DATA: the result; BITMAP: the bitmap in word 0").fields(l),
    ]);
    v.extend(status_ports(c));
    v
}

/// The shared core's ports.
pub fn core_ports(c: &LlcComputeConfig) -> Vec<Port> {
    let (l, tw, nw, qw) = (c.oq.lanes, tag_w(c), SRC_NODE.width, OQ_TAG.width);
    let w = l * 32;
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("cp_take_i", 1, "a CP is taken"),
        Port::input("cp_flit_i", FLIT_W, "the CP"),
        Port::input("lp_valid_i", 1, "an operand is present"),
        Port::input("lp_tag_i", tw, "its entry"),
        Port::input("lp_which_i", 1, "its operand"),
        Port::input("ld_valid_i", 1, "operand data for the entry's buffer slot"),
        Port::input("ld_tag_i", tw, "its entry"),
        Port::input("ld_which_i", 1, "its operand"),
        Port::input("ld_data_i", w, "the data"),
        Port::input("st_take_i", 1, "the store head's store is taken"),
        Port::input("rq_push_i", 1, "an entry joins the response queue (its store is done)"),
        Port::input("rq_push_tag_i", tw, "that entry"),
        Port::input("rsp_take_i", 1, "the response head is taken: its entry is freed"),
        Port::input("fill_take_i", 1, "the buffer-fill read is taken"),
        Port::input("load_take_i", 1, "the operand load is taken"),
        Port::input("fb_take_i", 1, "the fallback load is taken"),
        Port::input("alu_gnt_i", 1, "the ALU may be used this cycle"),
        Port::input("alu_res_i", w, "the chain ALU's result of alu_*_o"),
        Port::input("alu_bm_i", l, "its compare bitmap"),
        Port::output("fb_empty_o", 1, "no fallback load waits"),
        Port::output("st_valid_o", 1, "a store to issue"),
        Port::output("st_tag_o", tw, "its entry"),
        Port::output("st_addr_o", ADDR_W, "the CP's store address"),
        Port::output("st_data_o", w, "the result"),
        Port::output("st_mask_o", l, "the CP's active lanes"),
        Port::output("st_src_o", nw, "the source core"),
        Port::output("st_oq_tag_o", qw, "the OQ tag"),
        Port::output("rsp_valid_o", 1, "a response to offer"),
        Port::output("rsp_tag_o", tw, "its entry"),
        Port::output("rsp_dst_o", nw, "the source core"),
        Port::output("rsp_kind_o", 2, "the CP's resp_kind"),
        Port::output("rsp_oq_tag_o", qw, "the OQ tag"),
        Port::output("rsp_data_o", w, "DATA: the result; BITMAP: the bitmap in word 0; else 0"),
        Port::output("fill_valid_o", 1, "a buffer-fill read to issue"),
        Port::output("fill_tag_o", tw, "its entry"),
        Port::output("fill_which_o", 1, "its operand"),
        Port::output("fill_addr_o", ADDR_W, "its address"),
        Port::output("fill_src_o", nw, "the source core"),
        Port::output("fill_oq_tag_o", qw, "the OQ tag"),
        Port::output("load_valid_o", 1, "an operand load to issue"),
        Port::output("load_tag_o", tw, "its entry"),
        Port::output("load_which_o", 1, "its operand"),
        Port::output("load_addr_o", ADDR_W, "its address"),
        Port::output("load_src_o", nw, "the source core"),
        Port::output("load_oq_tag_o", qw, "the OQ tag"),
        Port::output("fb_valid_o", 1, "a fallback load to issue"),
        Port::output("fb_addr_o", ADDR_W, "its address"),
        Port::output("fb_which_o", 1, "its operand"),
        Port::output("fb_src_o", nw, "the source core (where the data goes)"),
        Port::output("fb_oq_tag_o", qw, "the OQ tag"),
        Port::output("alu_req_o", 1, "the oldest buffer entry is complete and needs the ALU"),
        Port::output("alu_fire_o", 1, "it enters the ALU"),
        Port::output("alu_pattern_o", 4, "its pattern"),
        Port::output("alu_op0_o", 4, "op0"),
        Port::output("alu_op1_o", 4, "op1"),
        Port::output("alu_dtype_o", 1, "dtype"),
        Port::output("alu_imm_o", 32, "the `ld i` immediate"),
        Port::output("alu_mask_o", l, "active lanes"),
        Port::output("alu_a_o", w, "operand a"),
        Port::output("alu_b_o", w, "operand b (0 for one-load patterns)"),
    ]
    .into_iter()
    .chain(status_ports(c))
    .collect()
}

pub fn chain_alu_ports(lanes: u32) -> Vec<Port> {
    vec![
        Port::input("pattern_i", 4, "Table 1 pattern"),
        Port::input("op0_i", 4, "first op (ALU or compare code)"),
        Port::input("op1_i", 4, "second op (patterns 8, 9)"),
        Port::input("dtype_i", 1, "compare as fp32"),
        Port::input("imm_i", 32, "the `ld i` immediate"),
        Port::input("mask_i", lanes, "active lanes"),
        Port::input("a_i", lanes * 32, "operand a (x)"),
        Port::input("b_i", lanes * 32, "operand b (y)"),
        Port::output("res_o", lanes * 32, "the result vector"),
        Port::output("bitmap_o", lanes, "the compare bitmap"),
    ]
}

#[derive(Template)]
#[template(path = "llc_compute/sq_chain_alu.v", escape = "none")]
struct ChainAluView {
    top: String,
    ports: Vec<PortView>,
    lane_mod: &'static str,
    lanes: u32,
}

pub fn render_chain_alu(lanes: u32) -> Result<String, GenError> {
    Ok(ChainAluView { top: chain_alu_name(lanes), ports: port_views(&chain_alu_ports(lanes)), lane_mod: super::simd_alu::LANE, lanes }.render()?)
}

#[derive(Template)]
#[template(path = "llc_compute/sqsr.v", escape = "none")]
struct CoreView {
    top: String,
    ports: Vec<PortView>,
    fsm_mod: String,
    ents: Vec<u32>,
    n: u32,
    nb: u32,
    tag_w: u32,
    slot_w: u32,
    cnt_w: u32,
    bcnt_w: u32,
    lanes: u32,
    addr_w: u32,
    node_w: u32,
    oq_tag_w: u32,
    lat: u32,
    s_wait: u64,
    two_loads: String,
    alu_ops: String,
    rdy_fifo: String,
    stq_fifo: String,
    rsq_fifo: String,
    fbq_fifo: String,
    ord_fifo: String,
    resp_ack: u32,
    resp_data: u32,
    resp_bitmap: u32,
    flit_w: u32,
    f_src: String,
    f_oq_tag: String,
    f_pattern: String,
    f_resp_kind: String,
    f_op0: String,
    f_op1: String,
    f_dtype: String,
    f_addr_a: String,
    f_addr_b: String,
    f_addr_c: String,
    f_imm: String,
    f_mask: String,
}

fn range(f: Field) -> String {
    if f.width == 1 {
        format!("{}", f.lsb)
    } else {
        format!("{}:{}", f.lsb + f.width - 1, f.lsb)
    }
}

/// Render the shared core (`fsm_mod`: the entry FSM leaf's module name).
pub fn render_core(c: &LlcComputeConfig, preset: &str, fsm_mod: String) -> Result<String, GenError> {
    let two: Vec<String> = PATTERNS.iter().filter(|p| p.loads() == 2).map(|p| format!("p == 4'd{}", p.id)).collect();
    // alu_ops: 0 and 2 listed, every other code (other patterns and codes outside 1..9) 1
    let ops_case = |k: usize| PATTERNS.iter().filter(|p| p.alu_ops() == k).map(|p| format!("p == 4'd{}", p.id)).collect::<Vec<_>>().join(" || ");
    let alu_ops = format!("({}) ? 2'd0 : ({}) ? 2'd2 : 2'd1", ops_case(0), ops_case(2));
    let f = fifos(c);
    let lanes = c.oq.lanes;
    let mask = Field::new("mask", MASK.lsb, lanes);
    let v = CoreView {
        top: core_name(preset),
        ports: port_views(&core_ports(c)),
        fsm_mod,
        ents: (0..c.sq.entries).collect(),
        n: c.sq.entries,
        nb: c.sq.buffer,
        tag_w: tag_w(c),
        slot_w: slot_w(c),
        cnt_w: count_width(u64::from(c.sq.entries)),
        bcnt_w: count_width(u64::from(c.sq.buffer)),
        lanes,
        addr_w: ADDR_W,
        node_w: SRC_NODE.width,
        oq_tag_w: OQ_TAG.width,
        lat: c.sq.alu_latency,
        s_wait: fsm::S_WAIT,
        two_loads: two.join(" || "),
        alu_ops,
        rdy_fifo: f[0].name(),
        stq_fifo: f[1].name(),
        rsq_fifo: f[2].name(),
        fbq_fifo: f[3].name(),
        ord_fifo: f[4].name(),
        resp_ack: RESP_ACK,
        resp_data: RESP_DATA,
        resp_bitmap: RESP_BITMAP,
        flit_w: FLIT_W,
        f_src: range(SRC_NODE),
        f_oq_tag: range(OQ_TAG),
        f_pattern: range(PATTERN),
        f_resp_kind: range(RESP_KIND),
        f_op0: range(OP0),
        f_op1: range(OP1),
        f_dtype: range(DTYPE),
        f_addr_a: range(ADDR_A),
        f_addr_b: range(ADDR_B),
        f_addr_c: range(ADDR_C),
        f_imm: range(IMM),
        f_mask: range(mask),
    };
    Ok(v.render()?)
}

/// How a variant drives the shared core's inputs that differ between the variants (the
/// Verilog expressions of `templates/llc_compute/sqsr_inst.v`, which both tops include).
pub struct SqsrConn {
    /// An operand is present (the LLC's notification; a core's shared-memory write taken).
    pub lp_valid: &'static str,
    pub lp_tag: &'static str,
    pub lp_which: &'static str,
    /// Operand data for the entry's buffer slot (LLC read data; shared-memory read data).
    pub ld_valid: &'static str,
    pub ld_tag: &'static str,
    pub ld_which: &'static str,
    pub ld_data: &'static str,
    /// An entry's store is done (its WRITE taken; its STORE_REQ's ack arrived).
    pub rq_push: &'static str,
    pub rq_push_tag: &'static str,
    pub rsp_take: &'static str,
    pub alu_gnt: &'static str,
}

/// The LLC variant's connections.
const LLC_CONN: SqsrConn = SqsrConn {
    lp_valid: "run && lp_valid_i",
    lp_tag: "lp_tag_i",
    lp_which: "lp_which_i",
    ld_valid: "run && ld_valid_i",
    ld_tag: "ld_tag_i",
    ld_which: "ld_which_i",
    ld_data: "ld_data_i",
    rq_push: "st_take",
    rq_push_tag: "st_tag",
    rsp_take: "run && rsp_v && no_ready_i",
    alu_gnt: "1'b1",
};

#[derive(Template)]
#[template(path = "llc_compute/sq.v", escape = "none")]
struct SqView {
    top: String,
    ports: Vec<PortView>,
    core_mod: String,
    alu_mod: String,
    conn: SqsrConn,
    lanes: u32,
    tag_w: u32,
    addr_w: u32,
    lr_touch: u32,
    lr_read: u32,
    lr_write: u32,
    lr_fb_load: u32,
}

/// Render the LLC variant's top.
pub fn render(c: &LlcComputeConfig, preset: &str) -> Result<String, GenError> {
    Ok(SqView {
        top: top_name(preset),
        ports: port_views(&ports(c)),
        core_mod: core_name(preset),
        alu_mod: chain_alu_name(c.oq.lanes),
        conn: LLC_CONN,
        lanes: c.oq.lanes,
        tag_w: tag_w(c),
        addr_w: ADDR_W,
        lr_touch: LR_TOUCH,
        lr_read: LR_READ,
        lr_write: LR_WRITE,
        lr_fb_load: LR_FB_LOAD,
    }
    .render()?)
}

/// Storage bits of the shared core as generated (the manifest's `storage` table).
pub fn storage(c: &LlcComputeConfig) -> serde_json::Value {
    let (n, nb, l, tw) = (u64::from(c.sq.entries), u64::from(c.sq.buffer), u64::from(c.oq.lanes), u64::from(tag_w(c)));
    let cp = u64::from(SRC_NODE.width + OQ_TAG.width + 4 + 2 + 4 + 4 + 1 + 3 * ADDR_W + 32) + l;
    let entry = 3 + cp + 2 + 2;
    let result = 32 * l + l;
    let cw = u64::from(count_width(n));
    let queues = 3 * (n * tw + cw) + 2 * u64::from(fb_w()) + 2 + nb * u64::from(slot_w(c)) + u64::from(count_width(nb));
    let buffer = nb * (1 + tw + 2 + 2 * 32 * l);
    let lat = u64::from(c.sq.alu_latency);
    json!({
        "entry_bits": entry,
        "sqsr_bits": n * entry,
        "result_bits": n * result,
        "queue_bits": queues,
        "buffer_bits": buffer,
        "fill_bits": 1 + tw,
        "alu_pipe_bits": (1 + lat + 2 * lat) * (1 + tw),
    })
}
