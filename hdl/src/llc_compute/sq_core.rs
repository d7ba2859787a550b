//! The Service Queue in a core (Omni-Compute, spec §1.7, §6.2 with `AT_LLC = 0`) in RTL:
//! `llc_core_sq_<preset>`, golden `sq_core::SqCore` with its ports (`SqCoreIn` /
//! `SqCoreOut` field names with `_i`/`_o`) and cycle semantics. It wraps the same shared
//! core as the LLC variant (`llc_sqsr_<preset>`, [`super::sq`]) and adds the core's
//! connections: the NoC port (STORE_REQ > response > LOAD_REQ > FB_LOAD, the operands'
//! LLC node from the address interleave), the NoC reply port, the shared-memory port
//! (load data written at line `2 × entry + which`, buffer fills read back) with the
//! write queue and the queue of reads in flight, and the core's ALU (the chain ALU,
//! used only when `alu_gnt_i`).

use askama::Template;
use golden::bits::{clog2, count_width};
use golden::llc_compute::packet::{ADDR_W, OQ_TAG, SRC_NODE};
use golden::llc_compute::sq_core::{NI_STORE_ACK, NO_FB_LOAD, NO_LOAD_REQ, NO_STORE_REQ, SMW_DEPTH};
use golden::llc_compute::LlcComputeConfig;
use serde_json::json;

use super::sq::{self as llc_sq, Fifo, SqsrConn};
use crate::catalog::ModuleDoc;
use crate::design::GenError;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

pub fn top_name(preset: &str) -> String {
    format!("llc_core_sq_{preset}")
}

fn tag_w(c: &LlcComputeConfig) -> u32 {
    clog2(u64::from(c.sq.entries))
}

/// The LLC node of every MC, in MC order (golden `SqCore::mc_nodes`).
pub fn mc_nodes(c: &LlcComputeConfig) -> Vec<u32> {
    let p = &c.placement;
    p.mcs.iter().map(|m| p.id(*m)).collect()
}

/// The two queues the core variant adds: load data waiting for the shared-memory write
/// port `{entry, which, line}`, and the shared-memory reads in flight `{entry, which}`
/// (at most two per buffer slot: a slot is freed only after both its reads returned).
pub fn fifos(c: &LlcComputeConfig) -> [Fifo; 2] {
    let tw = tag_w(c);
    [Fifo { w: tw + 1 + 32 * c.oq.lanes, d: SMW_DEPTH as u32, p: 1 }, Fifo { w: tw + 1, d: 2 * c.sq.buffer, p: 1 }]
}

const PROTOCOL: &str = "\
CP in: cp_valid_i / cp_ready_o (= no fallback load waits), as the LLC variant: a CP taken while every SQSR entry is
  live becomes one FB_LOAD per memory operand, otherwise it takes the lowest free entry.
NoC out: no_valid_o / no_ready_i, one packet a cycle, STORE_REQ > response > LOAD_REQ > FB_LOAD. LOAD_REQ and
  STORE_REQ go to the LLC node of their address ((addr >> 7) mod N_MC) with reply node SELF_NODE and no_tag_o the
  entry; an FB_LOAD's reply node is the source core. A STORE_REQ's byte enables cover the CP's active lanes; its
  entry's response is offered only after the store ack arrived.
NoC in: ni_valid_i / ni_ready_o (low while the write queue holds its lines, from the registers): LOAD_DATA queues
  the line for shared memory, STORE_ACK moves the entry to the response queue.
Shared memory: sm_valid_o / sm_ready_i, one access a cycle, a write of queued load data (the operand is present
  when it is taken) before a buffer-fill read; line address 2 x entry + which. sm_rvalid_i / sm_rdata_i return
  the reads in order (always taken).
ALU: the oldest complete buffer entry wants the core's ALU (alu_req_o) and enters it only when alu_gnt_i (the core
  leaves it free); st_contend_o = alu_req_o && !alu_gnt_i. The copy pattern passes without it.
Outputs are 0 during rst_i except the status, which comes from the registers. Single clock clk_i; synchronous
  active-high rst_i.";

pub fn doc(c: &LlcComputeConfig, self_node: u32) -> ModuleDoc {
    llc_sq::variant_doc("Omni-Compute Service Queue in a core: SQMU, SQSR, temporary buffer, NoC, shared-memory and core-ALU ports (spec 1.7, 6.2)", PROTOCOL, c, 0)
        .param("SELF_NODE", self_node)
        .param("SMEM_AW", c.sq.smem_aw)
        .param("SMW_DEPTH", SMW_DEPTH)
        .param("NOC_PRIO", "STORE_REQ > response > LOAD_REQ > FB_LOAD")
}

/// The core variant's ports, in declaration order (golden `SqCoreIn` / `SqCoreOut`).
pub fn ports(c: &LlcComputeConfig) -> Vec<Port> {
    let (l, tw, nw, qw) = (c.oq.lanes, tag_w(c), SRC_NODE.width, OQ_TAG.width);
    let mut v = Vec::from(llc_sq::cp_ports());
    v.extend([
        Port::output("no_valid_o", 1, "a packet for the NoC"),
        Port::input("no_ready_i", 1, "injected"),
        Port::output("no_dst_o", nw, "destination node"),
        Port::output("no_kind_o", 3, "0 ACK, 1 DATA, 2 BITMAP, 3 LOAD_REQ, 4 STORE_REQ, 5 FB_LOAD"),
        Port::output("no_tag_o", tw, "SQSR entry (0 for FB_LOAD)"),
        Port::output("no_which_o", 1, "operand of a LOAD_REQ / FB_LOAD (0 a, 1 b)"),
        Port::output("no_oq_tag_o", qw, "the chain's OQ tag"),
        Port::output("no_reply_node_o", nw, "where the reply goes: the source core for FB_LOAD, this node otherwise"),
        Port::output("no_addr_o", ADDR_W, "byte address of a LOAD_REQ, STORE_REQ or FB_LOAD"),
        Port::output("no_data_o", l * 32, "STORE_REQ: the result; DATA: the result; BITMAP: the bitmap in word 0").fields(l),
        Port::output("no_wbe_o", l * 4, "STORE_REQ byte enables, 4 per lane").fields(l),
        Port::input("ni_valid_i", 1, "a NoC reply for the SQ"),
        Port::output("ni_ready_o", 1, "taken (the write queue has room)"),
        Port::input("ni_kind_i", 1, "0 LOAD_DATA, 1 STORE_ACK"),
        Port::input("ni_tag_i", tw, "its SQSR entry"),
        Port::input("ni_which_i", 1, "LOAD_DATA: its operand"),
        Port::input("ni_data_i", l * 32, "LOAD_DATA: the line, one word per lane").fields(l),
        Port::output("sm_valid_o", 1, "a shared-memory access"),
        Port::input("sm_ready_i", 1, "taken (the core has priority)"),
        Port::output("sm_we_o", 1, "a write (else a read)"),
        Port::output("sm_addr_o", c.sq.smem_aw, "line address in the SQ's region: 2 x entry + which"),
        Port::output("sm_wdata_o", l * 32, "write data").fields(l),
        Port::input("sm_rvalid_i", 1, "read data returns (reads return in order)"),
        Port::input("sm_rdata_i", l * 32, "the line read").fields(l),
        Port::output("alu_req_o", 1, "the oldest complete buffer entry needs the core's ALU"),
        Port::input("alu_gnt_i", 1, "the core leaves its ALU free this cycle"),
        Port::output("alu_fire_o", 1, "an op enters the core's ALU"),
    ]);
    v.extend(llc_sq::status_ports(c));
    v.push(Port::output("st_contend_o", 1, "alu_req_o && !alu_gnt_i (the Fig. 14 contention)"));
    v
}

/// The core variant's connections: present when the shared-memory write is taken, data
/// from shared-memory reads, the response after the store ack, the ALU when the core
/// leaves it free.
const CORE_CONN: SqsrConn = SqsrConn {
    lp_valid: "smw_take",
    lp_tag: "smw_tag",
    lp_which: "smw_which",
    ld_valid: "rd_ret",
    ld_tag: "rd_ew[TW:1]",
    ld_which: "rd_ew[0]",
    ld_data: "sm_rdata_i",
    rq_push: "ack",
    rq_push_tag: "ni_tag_i",
    rsp_take: "rsp_take",
    alu_gnt: "run && alu_gnt_i",
};

#[derive(Template)]
#[template(path = "llc_compute/sq_core.v", escape = "none")]
struct CoreSqView {
    top: String,
    ports: Vec<PortView>,
    core_mod: String,
    alu_mod: String,
    conn: SqsrConn,
    smw_fifo: String,
    rdq_fifo: String,
    lanes: u32,
    tag_w: u32,
    addr_w: u32,
    node_w: u32,
    smem_aw: u32,
    /// Zero bits above `{entry, which}` in a shared-memory line address (`"3'd0, "` or none).
    sm_pad: String,
    self_node: u32,
    smw_depth: u32,
    smw_cnt_w: u32,
    rdq_cnt_w: u32,
    /// `(mc, node)`: the LLC node of each MC.
    mcs: Vec<(u32, u32)>,
    n_mc: u32,
    line_w: u32,
    no_load_req: u32,
    no_store_req: u32,
    no_fb_load: u32,
    ni_store_ack: u32,
}

/// Render the core variant's top.
pub fn render(c: &LlcComputeConfig, preset: &str, self_node: u32) -> Result<String, GenError> {
    let f = fifos(c);
    let mcs = mc_nodes(c);
    Ok(CoreSqView {
        top: top_name(preset),
        ports: port_views(&ports(c)),
        core_mod: llc_sq::core_name(preset),
        alu_mod: llc_sq::chain_alu_name(c.oq.lanes),
        conn: CORE_CONN,
        smw_fifo: f[0].name(),
        rdq_fifo: f[1].name(),
        lanes: c.oq.lanes,
        tag_w: tag_w(c),
        addr_w: ADDR_W,
        node_w: SRC_NODE.width,
        smem_aw: c.sq.smem_aw,
        sm_pad: match c.sq.smem_aw - tag_w(c) - 1 {
            0 => String::new(),
            p => format!("{p}'d0, "),
        },
        self_node,
        smw_depth: SMW_DEPTH as u32,
        smw_cnt_w: count_width(SMW_DEPTH as u64),
        rdq_cnt_w: count_width(u64::from(2 * c.sq.buffer)),
        n_mc: mcs.len() as u32,
        mcs: mcs.into_iter().enumerate().map(|(k, n)| (k as u32, n)).collect(),
        line_w: ADDR_W - 7,
        no_load_req: NO_LOAD_REQ,
        no_store_req: NO_STORE_REQ,
        no_fb_load: NO_FB_LOAD,
        ni_store_ack: NI_STORE_ACK,
    }
    .render()?)
}

/// Storage bits of the core variant beyond the shared core's ([`super::sq::storage`]):
/// the shared-memory write queue and the queue of reads in flight.
pub fn storage(c: &LlcComputeConfig) -> serde_json::Value {
    let [smw, rdq] = fifos(c);
    let q = |f: Fifo| u64::from(f.w) * u64::from(f.d) + u64::from(count_width(u64::from(f.d)));
    json!({ "smem_write_queue_bits": q(smw), "smem_read_queue_bits": q(rdq) })
}
