//! The NI demux at an ejection port (`llc_ni_demux_n<N_OUT>`, spec §1.5, block
//! `ni_demux` of §6.3): the ports of `golden::llc_compute::ni_demux::NiDemux`, for a core
//! (3 outputs: memory side, OQ, SQ) and an LLC node (2: memory side, SQ).

use askama::Template;
use golden::bits::clog2;
use golden::llc_compute::packet::{FLIT_W, SINK, SINK_SQ};

use crate::catalog::ModuleDoc;
use crate::design::GenError;
use crate::manifest::Port;
use crate::ports::{port_views, PortView};

pub fn top_name(n_out: u32) -> String {
    format!("llc_ni_demux_n{n_out}")
}

pub fn doc(n_out: u32) -> ModuleDoc {
    ModuleDoc::new(
        "LLC-Compute NI demux at an ejection port (spec 1.5, 6.3): the head flit's sink picks the output, held to the tail",
        "in_valid_i / in_ready_o valid-ready in, one flit per cycle; out_valid_o[k] / out_ready_i[k] per output, out_flit_o = in_flit_i.\n\
         The route (sink MEM 0, OQ 1, SQ 2; with 2 outputs MEM 0, SQ 1) is taken from a flit with no packet in progress and held\n\
         until the tail (in_tail_i) is accepted; in_ready_o = out_ready_i[route]. Single clock clk_i; synchronous active-high rst_i.",
    )
    .param("N_OUT", n_out)
}

pub fn ports(n_out: u32) -> Vec<Port> {
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("in_valid_i", 1, "a flit from the ejection port"),
        Port::output("in_ready_o", 1, "taken (its output is ready)"),
        Port::input("in_flit_i", FLIT_W, "the flit"),
        Port::input("in_head_i", 1, "first flit of its packet"),
        Port::input("in_tail_i", 1, "last flit of its packet"),
        Port::output("out_valid_o", n_out, "per output: the flit is for it").fields(n_out),
        Port::input("out_ready_i", n_out, "per output: it takes a flit").fields(n_out),
        Port::output("out_flit_o", FLIT_W, "the flit"),
    ]
}

#[derive(Template)]
#[template(path = "llc_compute/ni_demux.v", escape = "none")]
struct DemuxView {
    top: String,
    ports: Vec<PortView>,
    n_out: u32,
    outs: &'static str,
    ow: u32,
    ks: Vec<u32>,
    sink_msb: u32,
    sink_lsb: u32,
    route_expr: String,
    ready_expr: String,
}

pub fn render(n_out: u32) -> Result<String, GenError> {
    let ow = clog2(u64::from(n_out));
    let (outs, route_expr) = match n_out {
        2 => ("0 memory side, 1 SQ", format!("{{{}'d0, sink == 2'd{SINK_SQ}}}", ow - 1).replace("{0'd0, ", "{")),
        3 => ("0 memory side, 1 OQ, 2 SQ", "sink == 2'd3 ? 2'd2 : sink".to_string()),
        n => return Err(GenError::Bug(format!("NI demux with {n} outputs"))),
    };
    let route_expr = if ow == 1 { format!("sink == 2'd{SINK_SQ}") } else { route_expr };
    let ready_expr = (0..n_out).map(|k| format!("(route == {ow}'d{k} & out_ready_i[{k}])")).collect::<Vec<_>>().join(" | ");
    Ok(DemuxView {
        top: top_name(n_out),
        ports: port_views(&ports(n_out)),
        n_out,
        outs,
        ow,
        ks: (0..n_out).collect(),
        sink_msb: SINK.msb(),
        sink_lsb: SINK.lsb,
        route_expr,
        ready_expr,
    }
    .render()?)
}
