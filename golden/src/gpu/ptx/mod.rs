//! The PTX subset: lexer, parser, decoder and reconvergence analysis.
//!
//! Kernels are text in the subset documented in `docs/ptx_subset.md`, in the form
//! `nvcc -ptx` writes. They are parsed once and decoded into arrays of compact
//! [`Inst`]s; the SIMT core never looks at text again. Anything outside the subset
//! fails with the file, line, column and the instruction named.

pub mod ast;
pub mod cfg;
pub mod decode;
pub mod inline;
pub mod inst;
pub mod lexer;
pub mod parser;
pub mod pressure;

use std::fmt;
use std::path::{Path, PathBuf};

pub use decode::{Kernel, Module, Param};
pub use inst::*;

/// A PTX error: `file:line:col: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxError {
    pub file: PathBuf,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl PtxError {
    pub fn new(file: &Path, line: u32, col: u32, message: String) -> Self {
        PtxError { file: file.to_path_buf(), line, col, message }
    }
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file.display(), self.line, self.col, self.message)
    }
}

impl std::error::Error for PtxError {}

/// Parse and decode PTX text; `file` names the source in errors.
pub fn parse_module(file: &Path, text: &str) -> Result<Module, PtxError> {
    let ast = parser::parse(file, text)?;
    decode::decode_module(file, &ast)
}

/// Read, parse and decode a PTX file.
pub fn load_module(file: &Path) -> Result<Module, PtxError> {
    let text = std::fs::read_to_string(file).map_err(|e| PtxError::new(file, 0, 0, format!("cannot read: {e}")))?;
    parse_module(file, &text)
}
