//! The module catalog: every generated Verilog module is named and documented in one
//! place, and its file header (what it is, the parameters it was generated for, its
//! handshake) is written from that entry (BaseJump STL's per-module header habit).
//!
//! * A leaf or structural top is added to a [`crate::library::Library`] through a value
//!   implementing [`Catalog`] (a block's catalog enum: `GpuccModule::Fifo { .. }`), which
//!   gives both its name and its [`ModuleDoc`], so the two cannot drift apart.
//! * A primitive (`crate::prim`) carries its entry in its own Verilog body as
//!   `// gf-module:`, `// gf-doc:`, `// gf-param:` and `// gf-protocol:` lines, written by
//!   [`crate::prim::body`]; [`crate::emit`] reads and strips them.
//!
//! A module without an entry is a generator error, never a generic header.

use std::fmt;

/// What a generated module is, for its file header and the manifest.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ModuleDoc {
    /// What the module is, in one line (with the spec section it implements).
    pub what: String,
    /// The parameters this instance was generated for, `(NAME, value)`.
    pub params: Vec<(String, String)>,
    /// Its handshake and timing: which ports are valid/ready, valid-then-yumi or
    /// credit based, what is registered and what is combinational. Plain lines.
    pub protocol: String,
}

impl ModuleDoc {
    pub fn new(what: impl Into<String>, protocol: impl Into<String>) -> ModuleDoc {
        ModuleDoc { what: what.into(), params: Vec::new(), protocol: protocol.into() }
    }

    /// Add a parameter line.
    pub fn param(mut self, name: &str, value: impl fmt::Display) -> ModuleDoc {
        self.params.push((name.to_string(), value.to_string()));
        self
    }

    /// An entry is complete when it says what the module is and how its ports behave.
    pub fn check(&self, module: &str) -> Result<(), MissingDoc> {
        if self.what.trim().is_empty() || self.protocol.trim().is_empty() {
            return Err(MissingDoc(module.to_string()));
        }
        Ok(())
    }
}

/// A catalog entry: the module's name and its documentation, from one value.
pub trait Catalog {
    /// The Verilog module name (unique in a preset's library: derived from the
    /// parameters, or from the preset for config-shaped modules).
    fn name(&self) -> String;
    fn doc(&self) -> ModuleDoc;
}

/// A generator bug: a module with no (or an incomplete) catalog entry.
#[derive(Debug, Clone, thiserror::Error)]
#[error("generated module `{0}` has no complete catalog entry (what it is and its protocol); add one to its block's catalog")]
pub struct MissingDoc(pub String);

/// The marker lines of a primitive's body.
pub const PRIM_MODULE: &str = "// gf-module: ";
pub const PRIM_DOC: &str = "// gf-doc: ";
pub const PRIM_PARAM: &str = "// gf-param: ";
pub const PRIM_PROTOCOL: &str = "// gf-protocol: ";

/// Read a primitive's entry from its body's marker lines (None: not a primitive).
pub fn prim_entry(text: &str) -> Option<(String, Result<ModuleDoc, MissingDoc>)> {
    let name = text.lines().find_map(|l| l.trim().strip_prefix(PRIM_MODULE))?.trim().to_string();
    let what: Vec<&str> = text.lines().filter_map(|l| l.trim().strip_prefix(PRIM_DOC)).collect();
    let protocol: Vec<&str> = text.lines().filter_map(|l| l.trim().strip_prefix(PRIM_PROTOCOL)).collect();
    let params =
        text.lines().filter_map(|l| l.trim().strip_prefix(PRIM_PARAM)).filter_map(|p| p.split_once('=').map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))).collect();
    let doc = ModuleDoc { what: what.join(" "), params, protocol: protocol.join("\n") };
    let checked = doc.check(&name).map(|_| doc);
    Some((name, checked))
}

/// True for the marker lines (stripped from the emitted body: the header says it).
pub fn is_marker(line: &str) -> bool {
    let t = line.trim();
    [PRIM_MODULE, PRIM_DOC, PRIM_PARAM, PRIM_PROTOCOL].iter().any(|m| t.starts_with(m))
}
