//! The chain-aware priority arbiter (`llc_chain_prio_arb_<preset>`, spec §1.2, block
//! `chain_prio_arb` of §6.3) for the OQ's warps: the ports of
//! `golden::llc_compute::chain_prio_arb::ChainPrioArb`.

use askama::Template;
use golden::bits::clog2;
use golden::llc_compute::LlcComputeConfig;

use crate::catalog::ModuleDoc;
use crate::design::GenError;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

pub fn top_name(preset: &str) -> String {
    format!("llc_chain_prio_arb_{preset}")
}

pub fn wid_w(c: &LlcComputeConfig) -> u32 {
    clog2(u64::from(c.oq.warps))
}

pub fn doc(c: &LlcComputeConfig) -> ModuleDoc {
    ModuleDoc::new(
        "LLC-Compute chain-aware fetch/issue priority (spec 1.2, 6.3): the chain's warp first until its 11",
        "No handshake. grant_valid_o / grant_o (combinational): the priority warp if it is issuable, else the first\n\
         issuable warp of gto_order_i (warp ids, highest priority first); issuable = ready_i & ~(tag_first_i & cpgu_busy_i).\n\
         At the edge: abort_i drops the priority warp; then a granted `01` (tag_first_i) takes it if none is held,\n\
         the priority warp's granted `11` (tag_last_i) releases it. prio_valid_o / prio_wid_o come from the register.\n\
         Single clock clk_i; synchronous active-high rst_i.",
    )
    .param("N_WARPS", c.oq.warps)
}

pub fn ports(c: &LlcComputeConfig) -> Vec<Port> {
    let (n, ww) = (c.oq.warps, wid_w(c));
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("ready_i", n, "per warp: its next instruction can issue").fields(n),
        Port::input("tag_first_i", n, "per warp: it is a `01`").fields(n),
        Port::input("tag_last_i", n, "per warp: it is a `11`").fields(n),
        Port::input("cpgu_busy_i", 1, "the CPGU is forming a chain (wait policy)"),
        Port::input("gto_order_i", n * ww, "warp ids, highest GTO priority first").fields(n),
        Port::input("abort_i", 1, "the priority warp's chain was discarded or flushed"),
        Port::output("grant_valid_o", 1, "a warp is granted"),
        Port::output("grant_o", ww, "the granted warp"),
        Port::output("prio_valid_o", 1, "a priority warp is held"),
        Port::output("prio_wid_o", ww, "the priority warp"),
    ]
}

#[derive(Template)]
#[template(path = "llc_compute/chain_prio_arb.v", escape = "none")]
struct ArbView {
    top: String,
    ports: Vec<PortView>,
    n: u32,
    wid_w: u32,
}

pub fn render(c: &LlcComputeConfig, preset: &str) -> Result<String, GenError> {
    Ok(ArbView { top: top_name(preset), ports: port_views(&ports(c)), n: c.oq.warps, wid_w: wid_w(c) }.render()?)
}
