//! Port declaration lines of the structural (askama) tops, with their doc comments
//! aligned.
//!
//! A one-bit port is a plain wire, except a per-unit vector (declared with
//! [`Port::fields`]): that keeps its range, `[0:0]` included, so it stays indexable
//! (`x_i[0]`) when a config has one unit of one bit and templates never special-case
//! width 1.

use crate::manifest::{Dir, Port};

/// One declaration line (`input  wire [7:0] name,`) and the padding before its
/// `// doc` comment.
pub struct PortView {
    pub decl: String,
    pub pad: String,
    pub doc: String,
}

pub fn port_views(ports: &[Port]) -> Vec<PortView> {
    let decls: Vec<String> = ports
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let dir = match p.dir {
                Dir::Input => "input ",
                Dir::Output => "output",
            };
            let range = if p.width > 1 || p.vector { format!("[{}:0] ", p.width - 1) } else { String::new() };
            format!("{dir} wire {range}{}{}", p.name, if i + 1 < ports.len() { "," } else { "" })
        })
        .collect();
    let width = decls.iter().map(|d| d.len()).max().unwrap_or(0) + 2;
    decls.into_iter().zip(ports).map(|(decl, p)| PortView { pad: " ".repeat(width - decl.len()), decl, doc: p.doc.clone() }).collect()
}
