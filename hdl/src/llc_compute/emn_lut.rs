//! The EMN lookup table (`llc_emn_lut_<preset>`, spec §1.4, block `emn_lut` of §6.3):
//! the ports of `golden::llc_compute::emn_lut::EmnLut`, reset contents from Algorithm 1
//! for the preset's sample core.

use askama::Template;
use golden::bits::clog2;
use golden::llc_compute::emn::lut_word;
use golden::llc_compute::LlcComputeConfig;

use crate::catalog::ModuleDoc;
use crate::design::GenError;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

pub fn top_name(preset: &str) -> String {
    format!("llc_emn_lut_{preset}")
}

/// `{valid, node}` word width.
pub fn data_w(c: &LlcComputeConfig) -> u32 {
    c.node_w() + 1
}

/// Entries (MC pairs).
pub fn entries(c: &LlcComputeConfig) -> u32 {
    let n = c.placement.mcs.len() as u32;
    n * n
}

pub fn idx_w(c: &LlcComputeConfig) -> u32 {
    clog2(u64::from(entries(c)))
}

pub fn doc(c: &LlcComputeConfig, self_node: u32) -> ModuleDoc {
    ModuleDoc::new(
        "LLC-Compute EMN lookup table (spec 1.4, 6.3): {valid, node} per (MC(a), MC(b)), reset from Algorithm 1",
        "No handshake. rd_node_o / rd_vld_o: entry rd_a_i * N_MC + rd_b_i, combinational (0 past the table).\n\
         cfg_we_i writes cfg_data_i into entry cfg_idx_i (ignored past the table) at the edge.\n\
         rst_i (synchronous, active high) reloads the Algorithm 1 table. Single clock clk_i.",
    )
    .param("N_MC", c.placement.mcs.len())
    .param("NODE_W", c.node_w())
    .param("SELF_NODE", self_node)
}

pub fn ports(c: &LlcComputeConfig) -> Vec<Port> {
    let mw = c.mc_w();
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("rd_a_i", mw, "MC of operand a"),
        Port::input("rd_b_i", mw, "MC of operand b"),
        Port::input("cfg_we_i", 1, "write an entry"),
        Port::input("cfg_idx_i", idx_w(c), "its index (a * N_MC + b)"),
        Port::input("cfg_data_i", data_w(c), "{valid, node}"),
        Port::output("rd_node_o", c.node_w(), "the EMN's node id"),
        Port::output("rd_vld_o", 1, "the pair has an EMN"),
    ]
}

#[derive(Template)]
#[template(path = "llc_compute/emn_lut.v", escape = "none")]
struct LutView {
    top: String,
    ports: Vec<PortView>,
    ne: u32,
    dw: u32,
    n_mc: usize,
    node_w: u32,
    mc_w: u32,
    riw: u32,
    self_node: u32,
    init: String,
    idx_ok: String,
}

/// The reset contents, entry 0 in the low bits.
pub fn init_words(c: &LlcComputeConfig, self_node: u32) -> Vec<u64> {
    let p = &c.placement;
    c.luts[self_node as usize].iter().flatten().map(|e| lut_word(p, *e, c.node_w())).collect()
}

pub fn render(c: &LlcComputeConfig, preset: &str, self_node: u32) -> Result<String, GenError> {
    let (ne, dw) = (entries(c), data_w(c));
    // the table as one hex constant, entry 0 in the low bits
    let mut bits = vec![false; (ne * dw) as usize];
    for (i, w) in init_words(c, self_node).iter().enumerate() {
        for b in 0..dw as usize {
            bits[i * dw as usize + b] = (w >> b) & 1 == 1;
        }
    }
    let hex: String = bits.chunks(4).rev().map(|n| std::char::from_digit(n.iter().rev().fold(0, |a, b| a * 2 + u32::from(*b)), 16).unwrap()).collect();
    let iw = idx_w(c);
    let v = LutView {
        top: top_name(preset),
        ports: port_views(&ports(c)),
        ne,
        dw,
        n_mc: c.placement.mcs.len(),
        node_w: c.node_w(),
        mc_w: c.mc_w(),
        riw: 2 * c.mc_w() + 1,
        self_node,
        init: format!("{}'h{hex}", ne * dw),
        idx_ok: if u64::from(ne) == 1u64 << iw { "1'b1".into() } else { format!("cfg_idx_i < {iw}'d{ne}") },
    };
    Ok(v.render()?)
}
