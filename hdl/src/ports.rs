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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bit_vectors_keep_a_range_and_scalars_do_not() {
        let ports = [Port::clock("clk_i"), Port::reset("rst_i"), Port::input("peek_i", 1, "per LSU").fields(1), Port::output("q_o", 8, "data")];
        let v = port_views(&ports);
        assert_eq!(v[0].decl, "input  wire clk_i,");
        assert_eq!(v[1].decl, "input  wire rst_i,");
        assert_eq!(v[2].decl, "input  wire [0:0] peek_i,");
        assert_eq!(v[3].decl, "output wire [7:0] q_o");
        let col: Vec<usize> = v.iter().map(|p| p.decl.len() + p.pad.len()).collect();
        assert!(col.iter().all(|&c| c == col[0]), "doc comments aligned: {col:?}");
    }
}
