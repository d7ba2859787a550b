//! From rust-hdl's Verilog to readable, uniquely named modules.
//!
//! rust-hdl's `generate_verilog` writes one module per *instance*, named by its path
//! (`top`, `top$fifo$count_r`, ...), and uses `$` in local names. Here:
//!
//! * the root module takes the caller's config-derived name;
//! * a primitive whose body starts with `// gf-module: NAME` takes that name, so the
//!   hundreds of identical registers of a design become one `gf_reg_w5` module;
//! * any other sub-module becomes `<root>__<path>`;
//! * identical modules are emitted once; two different bodies under one name are a
//!   generator bug and an error;
//! * `$` in local names becomes `__`.

use std::collections::BTreeMap;

use rust_hdl::prelude::{generate_verilog, Block};

/// One Verilog module, ready to be written to `<name>.v`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    pub name: String,
    /// The module text (no file header).
    pub text: String,
}

/// A generator bug: the same module name with two different bodies.
#[derive(Debug, thiserror::Error)]
#[error("generated module `{0}` has two different bodies")]
pub struct NameClash(pub String);

/// A set of modules keyed by name; adding the same module twice is a no-op.
#[derive(Debug, Default, Clone)]
pub struct ModuleSet {
    modules: BTreeMap<String, String>,
}

impl ModuleSet {
    pub fn add(&mut self, m: Module) -> Result<(), NameClash> {
        match self.modules.get(&m.name) {
            Some(t) if *t != m.text => Err(NameClash(m.name)),
            Some(_) => Ok(()),
            None => {
                self.modules.insert(m.name, m.text);
                Ok(())
            }
        }
    }

    pub fn extend(&mut self, ms: impl IntoIterator<Item = Module>) -> Result<(), NameClash> {
        for m in ms {
            self.add(m)?;
        }
        Ok(())
    }

    pub fn contains(&self, name: &str) -> bool {
        self.modules.contains_key(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = Module> + '_ {
        self.modules.iter().map(|(n, t)| Module { name: n.clone(), text: t.clone() })
    }

    pub fn len(&self) -> usize {
        self.modules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }
}

/// Emit a connected rust-hdl block as modules, the root named `root`.
pub fn emit_block<B: Block>(block: &B, root: &str) -> Result<Vec<Module>, NameClash> {
    split_and_rename(&generate_verilog(block), root)
}

/// The pure text transformation behind [`emit_block`].
pub fn split_and_rename(verilog: &str, root: &str) -> Result<Vec<Module>, NameClash> {
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
    // 2. decide new names
    let mut rename: BTreeMap<String, String> = BTreeMap::new();
    for (orig, text) in &raw {
        let new = if let Some(m) = text.lines().find_map(|l| l.trim().strip_prefix("// gf-module: ")) {
            m.trim().to_string()
        } else if orig == "top" {
            root.to_string()
        } else {
            format!("{root}__{}", orig.trim_start_matches("top$").replace('$', "__"))
        };
        rename.insert(orig.clone(), new);
    }
    // 3. rewrite module headers, instantiations, end comments and `$` names
    let mut out: Vec<Module> = Vec::new();
    for (orig, text) in &raw {
        let mut lines: Vec<String> = Vec::new();
        for line in text.lines() {
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
        out.push(Module { name: rename[orig].clone(), text: tidy(&lines.join("\n")) });
    }
    // 4. dedupe
    let mut set = ModuleSet::default();
    set.extend(out)?;
    Ok(set.iter().collect())
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

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\n\nmodule top(a,b);\n    input wire a;\n    output reg b;\n    reg x$d;\n    wire x$q;\n    top$x x(\n        .d(x$d),\n        .q(x$q)\n    );\n    top$y y(\n        .d(x$q)\n    );\nendmodule // top\n\n\nmodule top$x(d,q);\n// gf-module: gf_reg_w1\nendmodule // top$x\n\nmodule top$y(d,q);\n// gf-module: gf_reg_w1\nendmodule // top$y\n";

    #[test]
    fn renames_roots_primitives_and_locals() {
        let ms = split_and_rename(SAMPLE, "leaf_a").unwrap();
        let names: Vec<_> = ms.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["gf_reg_w1", "leaf_a"]);
        let top = &ms[1].text;
        assert!(top.starts_with("module leaf_a(a,b);"), "{top}");
        assert!(top.contains("    gf_reg_w1 x("), "{top}");
        assert!(top.contains("    gf_reg_w1 y("), "{top}");
        assert!(top.contains("reg x__d;"), "{top}");
        assert!(!top.contains('$'));
        assert!(top.trim_end().ends_with("endmodule // leaf_a"));
    }

    #[test]
    fn clashing_bodies_are_an_error() {
        let bad = SAMPLE.replace("module top$y(d,q);\n// gf-module: gf_reg_w1", "module top$y(d,q);\n// gf-module: gf_reg_w1\n    wire extra;");
        assert!(split_and_rename(&bad, "leaf_a").is_err());
    }
}
