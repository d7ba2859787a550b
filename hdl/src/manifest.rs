//! The JSON manifest written beside every generated design.
//!
//! It is what the co-simulation reads (never a second copy of the knowledge): the
//! design kind, the top module, the files, every port with direction and width, the
//! design's parameters and derived tables, and a content hash of the Verilog. The
//! validated config is written once per preset (`config.json`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Port direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Input,
    Output,
}

/// What a port is to a testbench.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The single clock; the co-simulation toggles it.
    Clock,
    /// Synchronous active-high reset, driven like data.
    Reset,
    Data,
}

/// One port of the top module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub width: u32,
    pub role: Role,
    /// One line for humans: what the port carries and how it is indexed.
    pub doc: String,
    /// The port is this many equal fields (per position, per slot, ...); 1 for a
    /// scalar. Mismatch reports name the field index.
    pub fields: u32,
    /// Declared as a per-unit vector (by [`Port::fields`]): keeps a range in the
    /// Verilog even at one field of one bit, so `x_i[0]` stays legal.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub vector: bool,
}

impl Port {
    pub fn input(name: &str, width: u32, doc: &str) -> Port {
        Port { name: name.into(), dir: Dir::Input, width, role: Role::Data, doc: doc.into(), fields: 1, vector: false }
    }

    pub fn output(name: &str, width: u32, doc: &str) -> Port {
        Port { name: name.into(), dir: Dir::Output, width, role: Role::Data, doc: doc.into(), fields: 1, vector: false }
    }

    /// The same port declared as `n` equal fields.
    pub fn fields(mut self, n: u32) -> Port {
        assert!(n >= 1 && self.width.is_multiple_of(n), "{}: {} bits are not {n} equal fields", self.name, self.width);
        self.fields = n;
        self.vector = true;
        self
    }

    /// Width of one field.
    pub fn field_width(&self) -> u32 {
        self.width / self.fields
    }

    pub fn clock(name: &str) -> Port {
        Port { name: name.into(), dir: Dir::Input, width: 1, role: Role::Clock, doc: "clock, rising edge".into(), fields: 1, vector: false }
    }

    pub fn reset(name: &str) -> Port {
        Port { name: name.into(), dir: Dir::Input, width: 1, role: Role::Reset, doc: "synchronous reset, active high".into(), fields: 1, vector: false }
    }
}

/// The manifest of one generated design: what the co-simulation, lint and synthesis
/// read, never a second copy of the knowledge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// `gpuforge <version>`.
    pub generator: String,
    /// Block (the config table: `gpucc`, `noc`, ...).
    pub block: String,
    /// Preset name from the config file.
    pub preset: String,
    /// Which design of the block this is, with its parameters: the block's typed design
    /// kind (`hdl_gen::Generate::Design`) serialized, e.g.
    /// `{"kind": "hinge_router", "x": 3, "y": 1}`. The co-simulation picks its bench
    /// from it and refuses a kind it does not know.
    pub design: serde_json::Value,
    /// Top module name.
    pub top: String,
    /// The design's Verilog files relative to the design directory, each module
    /// after the modules it instantiates (the same list as the filelist).
    pub files: Vec<String>,
    /// The filelist (`<top>.f`) in the design directory.
    pub filelist: String,
    pub ports: Vec<Port>,
    /// This design's parameters.
    pub parameters: BTreeMap<String, serde_json::Value>,
    /// Derived tables this design uses (CR field layout, route ROMs, ...).
    pub tables: BTreeMap<String, serde_json::Value>,
    /// Part of `make synth` (whole meshes of a million generic cells are not).
    pub synth: bool,
    /// yosys's resource sharing (`share`, part of `synth`) on this design. Off for
    /// designs whose many same-type arithmetic cells (the SIMD ALU's IEEE lanes) keep its
    /// SAT search busy for many minutes; sharing merges combinational cells only, so
    /// flip-flop counts are the same either way. Written to the manifest only when off.
    #[serde(default = "share_default", skip_serializing_if = "is_true")]
    pub synth_share: bool,
    /// SHA-256 over the Verilog files (module name and content, in `files` order).
    pub content_hash: String,
}

fn share_default() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

impl Manifest {
    pub fn port(&self, name: &str) -> Option<&Port> {
        self.ports.iter().find(|p| p.name == name)
    }
}

/// SHA-256 of a set of named texts, in the given order, as lowercase hex.
pub fn content_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut h = Sha256::new();
    for (name, text) in files {
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update((text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
