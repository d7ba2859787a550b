//! Loading and validating block configuration files.
//!
//! A config file is TOML with a top-level `name` (the preset name, used for output
//! directories and module names) and exactly one block table (`[gpucc]`, ...).
//! Every error names the file, the field (as a dotted TOML path) and, where there is
//! one, the allowed range; the CLI maps [`ConfigError`] to exit status 2.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::gpucc::GpuccConfig;
use crate::noc::config::NocConfig;

/// A bad configuration: which file, which field, what is wrong, what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub file: PathBuf,
    /// Dotted TOML path of the offending field (`gpucc.lanes`), or `<file>` for
    /// whole-file problems such as a TOML syntax error.
    pub field: String,
    pub message: String,
    /// Human-readable allowed range or set, when there is one.
    pub allowed: Option<String>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file.display(), self.field, self.message)?;
        if let Some(a) = &self.allowed {
            write!(f, " (allowed: {a})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// A field-level problem found during validation, before the file is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
    pub allowed: Option<String>,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>, allowed: Option<String>) -> Self {
        Self { field: field.into(), message: message.into(), allowed }
    }

    pub fn in_file(self, file: &Path) -> ConfigError {
        ConfigError { file: file.to_path_buf(), field: self.field, message: self.message, allowed: self.allowed }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)?;
        if let Some(a) = &self.allowed {
            write!(f, " (allowed: {a})")?;
        }
        Ok(())
    }
}

/// Check `lo <= value <= hi` for an integer field.
pub fn check_range<T>(field: &str, value: T, lo: T, hi: T) -> Result<T, FieldError>
where
    T: PartialOrd + fmt::Display + Copy,
{
    if value < lo || value > hi {
        Err(FieldError::new(field, format!("{value} is out of range"), Some(format!("{lo}..={hi}"))))
    } else {
        Ok(value)
    }
}

/// Check that `value` is one of `set`.
pub fn check_one_of<T>(field: &str, value: T, set: &[T]) -> Result<T, FieldError>
where
    T: PartialEq + fmt::Display + Copy,
{
    if set.contains(&value) {
        Ok(value)
    } else {
        let allowed = set.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
        Err(FieldError::new(field, format!("{value} is not supported"), Some(format!("one of {allowed}"))))
    }
}

/// Preset names become directory and Verilog module names.
pub fn check_name(field: &str, name: &str) -> Result<(), FieldError> {
    let ok = !name.is_empty()
        && name.len() <= 48
        && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(FieldError::new(
            field,
            format!("`{name}` is not a usable preset name"),
            Some("1..=48 chars of [a-z0-9_], starting with a letter".into()),
        ))
    }
}

/// The block a config file describes.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockConfig {
    Gpucc(GpuccConfig),
    Noc(NocConfig),
}

impl BlockConfig {
    /// The GPU-CC config, if this is one.
    pub fn gpucc(&self) -> Option<&GpuccConfig> {
        match self {
            BlockConfig::Gpucc(c) => Some(c),
            _ => None,
        }
    }

    /// The NoC config, if this is one.
    pub fn noc(&self) -> Option<&NocConfig> {
        match self {
            BlockConfig::Noc(c) => Some(c),
            _ => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            BlockConfig::Gpucc(_) => "gpucc",
            BlockConfig::Noc(_) => "noc",
        }
    }
}

/// A loaded, validated config file.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigFile {
    pub path: PathBuf,
    /// Preset name (`name = "..."` at the top of the file).
    pub name: String,
    pub block: BlockConfig,
    /// The file's text, byte for byte, for provenance headers and content hashes.
    pub source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: String,
    gpucc: Option<crate::gpucc::config::RawGpucc>,
    noc: Option<crate::noc::config::RawNoc>,
}

/// Turn a toml/serde error into a one-line [`ConfigError`]: the field is the dotted
/// path of the key the error points at (when it points at a key) plus its line.
/// Shared by every TOML input (block configs, GPU configs, launch files).
pub(crate) fn toml_error(path: &Path, text: &str, err: &toml::de::Error) -> ConfigError {
    let field = match err.span() {
        Some(span) => {
            let (line, col) = line_col(text, span.start);
            let raw = text.get(span.clone()).unwrap_or("").trim();
            let key = raw.trim_matches('"');
            // a quoted span is a string value, not a key
            let is_key = !raw.starts_with('"') && !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let table = enclosing_table(text, span.start);
            match (is_key, table) {
                (true, Some(t)) => format!("{t}.{key} (line {line})"),
                (true, None) => format!("{key} (line {line})"),
                (false, Some(t)) => format!("{t} (line {line}, column {col})"),
                (false, None) => format!("line {line}, column {col}"),
            }
        }
        None => "<file>".to_string(),
    };
    let message = err.message().replace('\n', " ").trim().to_string();
    ConfigError { file: path.to_path_buf(), field, message, allowed: None }
}

/// The `[table]` header in force at byte `offset`, if any.
fn enclosing_table(text: &str, offset: usize) -> Option<String> {
    let before = &text[..offset.min(text.len())];
    before.lines().rev().find_map(|l| {
        let t = l.trim();
        (t.starts_with('[') && t.ends_with(']')).then(|| t.trim_matches(|c| c == '[' || c == ']').trim().to_string())
    })
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Parse and validate config text; `path` is used only for messages.
pub fn parse(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    check_name("name", &raw.name).map_err(|e| e.in_file(path))?;
    let block = match (raw.gpucc, raw.noc) {
        (Some(r), None) => BlockConfig::Gpucc(GpuccConfig::validate(r).map_err(|e| e.in_file(path))?),
        (None, Some(r)) => BlockConfig::Noc(NocConfig::validate(r).map_err(|e| e.in_file(path))?),
        (g, n) => {
            return Err(ConfigError {
                file: path.to_path_buf(),
                field: "<file>".into(),
                message: if g.is_some() && n.is_some() { "more than one block table".into() } else { "no block table found".into() },
                allowed: Some("exactly one of [gpucc], [noc]".into()),
            })
        }
    };
    Ok(ConfigFile { path: path.to_path_buf(), name: raw.name, block, source: text.to_string() })
}

/// A config file's text, or an error naming the file.
pub(crate) fn read_text(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|e| ConfigError {
        file: path.to_path_buf(),
        field: "<file>".into(),
        message: format!("cannot read: {e}"),
        allowed: None,
    })
}

/// Read, parse and validate a config file.
pub fn load(path: &Path) -> Result<ConfigFile, ConfigError> {
    parse(path, &read_text(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_errors_name_field_and_range() {
        let e = check_range("gpucc.lanes", 9u32, 1, 5).unwrap_err();
        assert_eq!(e.to_string(), "gpucc.lanes: 9 is out of range (allowed: 1..=5)");
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let e = parse(Path::new("x.toml"), "name = \"a\"\n[gpucc\n").unwrap_err();
        assert_eq!(e.file, PathBuf::from("x.toml"));
        assert!(e.field.contains("line 2"), "{e}");
    }

    #[test]
    fn unknown_keys_are_named_with_their_table() {
        let e = parse(Path::new("x.toml"), "name = \"a\"\n[gpucc]\nslicez = 3\n").unwrap_err();
        assert_eq!(e.field, "gpucc.slicez (line 3)", "{e}");
        assert!(e.message.contains("unknown field"), "{e}");
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("name", "gpucc_small").is_ok());
        assert!(check_name("name", "Bad-Name").is_err());
        assert!(check_name("name", "").is_err());
    }
}
