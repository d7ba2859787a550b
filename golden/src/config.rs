//! Configuration errors and field checks, shared by every config loader.
//!
//! Every error names the file, the field (as a dotted TOML path) and, where there is
//! one, the allowed range; the CLI maps [`ConfigError`] to exit status 2. Which block
//! a file describes, and how it is loaded, is [`crate::block`]'s business: this module
//! knows no block.

use std::fmt;
use std::path::{Path, PathBuf};


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

/// Turn a toml/serde error into a one-line [`ConfigError`]: the field is the dotted
/// path of the key the error points at (when it points at a key) plus its line.
/// Shared by every TOML input (block configs, GPU configs, launch files).
pub fn toml_error(path: &Path, text: &str, err: &toml::de::Error) -> ConfigError {
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

/// A config file's text, or an error naming the file.
pub fn read_text(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|e| ConfigError {
        file: path.to_path_buf(),
        field: "<file>".into(),
        message: format!("cannot read: {e}"),
        allowed: None,
    })
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
        let text = "name = \"a\"\n[gpucc\n";
        let e = toml::from_str::<toml::Table>(text).unwrap_err();
        let e = toml_error(Path::new("x.toml"), text, &e);
        assert_eq!(e.file, PathBuf::from("x.toml"));
        assert!(e.field.contains("line 2"), "{e}");
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("name", "gpucc_small").is_ok());
        assert!(check_name("name", "Bad-Name").is_err());
        assert!(check_name("name", "").is_err());
    }
}
