//! A preset's module library: every distinct generated module once, with its catalog
//! entry (BaseJump STL's one-module-per-file, named-after-its-parameters habit).
//!
//! A generator adds rust-hdl leaves ([`Library::emit`]) and structural tops
//! ([`Library::add_text`]) through catalog entries; each design of the preset is then a
//! top module plus its [`Library::closure`] (everything it instantiates, leaves first),
//! written as a filelist. Adding the same module twice is a no-op; the same name with
//! two different bodies is a generator bug.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use rust_hdl::prelude::Block;

use crate::catalog::Catalog;
use crate::emit::emit_block;
pub use crate::emit::Module;
use crate::error::{GenError, NameClash};

/// Every module of a preset, keyed by name.
#[derive(Debug, Default, Clone)]
pub struct Library {
    modules: BTreeMap<String, Module>,
}

impl Library {
    /// Add a module; the same module again is a no-op, another body under its name an error.
    pub fn add(&mut self, m: Module) -> Result<(), GenError> {
        m.doc.check(&m.name)?;
        match self.modules.get(&m.name) {
            Some(old) if old.text != m.text => Err(NameClash(m.name).into()),
            Some(_) => Ok(()),
            None => {
                self.modules.insert(m.name.clone(), m);
                Ok(())
            }
        }
    }

    /// Emit the rust-hdl leaf `make` builds under its catalog entry (with the primitives
    /// it uses); nothing is built if a module of that name is already in the library.
    ///
    /// The leaf lives in this function's own stack frame (`inline(never)`, one frame per
    /// leaf type): the generators dispatch over dozens of monomorphized leaves in one
    /// function (`noc::vc`'s flit widths x VC counts), and rust-hdl leaves are large
    /// structs, so built in the caller they all took stack space in its frame at once.
    /// That overflowed a 2 MB thread stack with the crate at opt-level 0, the level that
    /// compiles it in under a minute instead of six.
    #[inline(never)]
    pub fn emit<B: Block>(&mut self, entry: &impl Catalog, make: impl FnOnce() -> B) -> Result<String, GenError> {
        let name = entry.name();
        if !self.modules.contains_key(&name) {
            let mut block = make();
            block.connect_all();
            for m in emit_block(&block, &name, entry.doc())? {
                self.add(m)?;
            }
        }
        Ok(name)
    }

    /// Add a structural module (an askama template's text) under its catalog entry.
    pub fn add_text(&mut self, entry: &impl Catalog, text: String) -> Result<String, GenError> {
        let name = entry.name();
        self.add(Module { name: name.clone(), text: text.trim_end().to_string() + "\n", doc: entry.doc() })?;
        Ok(name)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.modules.contains_key(name)
    }

    pub fn get(&self, name: &str) -> Option<&Module> {
        self.modules.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Module> {
        self.modules.values()
    }

    pub fn len(&self) -> usize {
        self.modules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }

    /// Names of the library modules that `m` instantiates.
    fn children<'a>(&'a self, m: &'a Module) -> impl Iterator<Item = &'a str> + 'a {
        m.text.lines().filter_map(move |l| {
            let first = l.trim_start().split(|c: char| c.is_whitespace() || c == '(' || c == '#').next()?;
            (first != m.name && self.modules.contains_key(first)).then_some(first)
        })
    }

    /// `top` and every module it instantiates, directly or not, leaves first (each
    /// module after everything it instantiates; ties by name).
    pub fn closure(&self, top: &str) -> Result<Vec<&Module>, GenError> {
        let root = self.modules.get(top).ok_or_else(|| GenError::Bug(format!("design top `{top}` is not in the library")))?;
        let mut order = Vec::new();
        let mut done: HashSet<&str> = HashSet::new();
        let mut on_path: HashSet<&str> = HashSet::new();
        self.visit(root, &mut done, &mut on_path, &mut order)?;
        Ok(order)
    }

    fn visit<'a>(&'a self, m: &'a Module, done: &mut HashSet<&'a str>, on_path: &mut HashSet<&'a str>, order: &mut Vec<&'a Module>) -> Result<(), GenError> {
        if done.contains(m.name.as_str()) {
            return Ok(());
        }
        if !on_path.insert(&m.name) {
            return Err(GenError::Bug(format!("module `{}` instantiates itself", m.name)));
        }
        let kids: BTreeSet<&str> = self.children(m).collect();
        for k in kids {
            self.visit(&self.modules[k], done, on_path, order)?;
        }
        on_path.remove(m.name.as_str());
        done.insert(&m.name);
        order.push(m);
        Ok(())
    }

    /// Modules no design uses (a generator that emits more than it needs).
    pub fn unused<'a>(&'a self, tops: &[&str]) -> Result<Vec<&'a str>, GenError> {
        let mut used = HashSet::new();
        for t in tops {
            used.extend(self.closure(t)?.into_iter().map(|m| m.name.as_str()));
        }
        Ok(self.modules.keys().map(String::as_str).filter(|n| !used.contains(n)).collect())
    }
}

/// Where a preset came from, for file headers.
#[derive(Debug, Clone)]
pub struct Provenance {
    /// The config file's name (`gpucc_small.toml`).
    pub file: String,
    pub preset: String,
    /// The config file's text (written into the headers of design tops).
    pub source: String,
}

/// The comment block at the top of a module's file: name and what it is, where it
/// came from, the parameters it was generated for, its protocol and, for the top of a
/// design, the config text it was generated from.
pub fn file_header(m: &Module, from: &Provenance, is_top: bool) -> String {
    let rule = "// ============================================================================\n";
    let comment = |l: &str| if l.trim().is_empty() { "//\n".to_string() } else { format!("// {}\n", l.trim_end()) };
    let mut h = String::new();
    h += rule;
    h += &format!("// {}: {}\n", m.name, m.doc.what);
    h += &format!("// Generated by gpuforge {} from {} (preset {}). Do not edit; regenerate with `gpuforge gen`.\n", env!("CARGO_PKG_VERSION"), from.file, from.preset);
    if !m.doc.params.is_empty() {
        h += "//\n// Parameters: ";
        h += &m.doc.params.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ");
        h += "\n";
    }
    h += "//\n// Protocol:\n";
    m.doc.protocol.lines().for_each(|l| h += &comment(&format!("  {l}")));
    if is_top {
        h += &format!("//\n// Config ({}):\n", from.file);
        from.source.lines().for_each(|l| h += &comment(&format!("  {l}")));
    }
    h += rule;
    h
}
