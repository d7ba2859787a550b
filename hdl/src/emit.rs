//! From rust-hdl's Verilog to readable, uniquely named modules.
//!
//! rust-hdl's `generate_verilog` writes one module per *instance*, named by its path
//! (`top`, `top$fifo$count_r`, ...), and uses `$` in local names. Here:
//!
//! * the root module takes the caller's config-derived name;
//! * a primitive whose body starts with `// gf-module: NAME` takes that name (and its
//!   catalog entry from the marker lines that follow, which are stripped), so the
//!   hundreds of identical registers of a design become one `gf_reg_w5` module;
//! * any other sub-module is an error: every module has a catalog entry;
//! * identical modules are emitted once; two different bodies under one name are a
//!   generator bug and an error;
//! * `$` in local names becomes `__`.

use std::collections::BTreeMap;

use rust_hdl::prelude::{generate_verilog, Block};

use crate::catalog::{self, ModuleDoc};
use crate::error::{GenError, NameClash};

/// One Verilog module: its name, its text (no file header) and its catalog entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    pub name: String,
    pub text: String,
    pub doc: ModuleDoc,
}

/// Emit a connected rust-hdl block as modules, the root named `root` and documented
/// by `doc`, every primitive by its own catalog markers.
pub fn emit_block<B: Block>(block: &B, root: &str, doc: ModuleDoc) -> Result<Vec<Module>, GenError> {
    split_and_rename(&generate_verilog(block), root, doc)
}

/// The pure text transformation behind [`emit_block`].
pub fn split_and_rename(verilog: &str, root: &str, root_doc: ModuleDoc) -> Result<Vec<Module>, GenError> {
    // 1. split into (original name, text)
    let mut raw: Vec<(String, String)> = Vec::new();
    let mut cur: Option<(String, Vec<&str>)> = None;
    for line in verilog.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            let name = rest.split('(').next().unwrap_or("").trim().to_string();
            cur = Some((name, vec![line]));
        } else if let Some((_, lines)) = cur.as_mut() {
            lines.push(line);
            if line.starts_with("endmodule") {
                let (n, l) = cur.take().expect("inside a module");
                raw.push((n, l.join("\n")));
            }
        }
    }
    // 2. decide new names and catalog entries: the root's from the caller, a
    //    primitive's from its markers; any other sub-module has no entry
    let mut rename: BTreeMap<String, String> = BTreeMap::new();
    let mut docs: BTreeMap<String, ModuleDoc> = BTreeMap::new();
    for (orig, text) in &raw {
        let (new, doc) = if let Some((name, doc)) = catalog::prim_entry(text) {
            (name, doc?)
        } else if orig == "top" {
            (root.to_string(), root_doc.clone())
        } else {
            return Err(GenError::Bug(format!("sub-module `{orig}` of `{root}` is neither a primitive nor a catalogued leaf")));
        };
        rename.insert(orig.clone(), new.clone());
        docs.insert(orig.clone(), doc);
    }
    // 3. rewrite module headers, instantiations, end comments and `$` names
    let mut out: Vec<Module> = Vec::new();
    for (orig, text) in &raw {
        let mut lines: Vec<String> = Vec::new();
        for line in text.lines().filter(|l| !catalog::is_marker(l)) {
            let t = line.trim_start();
            let indent = &line[..line.len() - t.len()];
            let first = t.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
            let line = if let Some(rest) = t.strip_prefix("module ") {
                let n = rest.split('(').next().unwrap_or("");
                format!("module {}{}", rename[orig], &rest[n.len()..])
            } else if t.starts_with("endmodule") {
                format!("endmodule // {}", rename[orig])
            } else if let Some(new) = rename.get(first) {
                format!("{indent}{new}{}", &t[first.len()..])
            } else {
                line.to_string()
            };
            lines.push(line.replace('$', "__").trim_end().to_string());
        }
        out.push(Module { name: rename[orig].clone(), text: tidy(&lines.join("\n")), doc: docs[orig].clone() });
    }
    // 4. dedupe (and check that equal names have equal bodies)
    let mut unique: BTreeMap<String, Module> = BTreeMap::new();
    for m in out {
        match unique.get(&m.name) {
            Some(old) if old.text != m.text => return Err(NameClash(m.name).into()),
            Some(_) => {}
            None => {
                unique.insert(m.name.clone(), m);
            }
        }
    }
    Ok(unique.into_values().collect())
}

/// Drop rust-hdl's empty lines-with-spaces and runs of blank lines.
fn tidy(text: &str) -> String {
    let mut s = String::new();
    let mut blank = 0;
    for l in text.lines() {
        if l.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        s.push_str(l);
        s.push('\n');
    }
    s
}
