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
        Err(FieldError::new(field, format!("`{name}` is not a usable preset name"), Some("1..=48 chars of [a-z0-9_], starting with a letter".into())))
    }
}

/// Turn a toml/serde error into a one-line [`ConfigError`]: the field is the dotted
/// path of the key the error is about (`gpucc.lanes`, `kernel[1].ptx`,
/// `buffer[0].init.lo`, `kernel[0].args[2]`) plus its line; a type or range error says
/// which type and range the key takes. Shared by every TOML input (block configs, GPU
/// configs, launch files, studies).
pub fn toml_error(path: &Path, text: &str, err: &toml::de::Error) -> ConfigError {
    let full = err.message().replace('\n', " ").trim().to_string();
    let allowed = expected_range(&full);
    // "..., expected u32" says its type once, in `allowed`, with the range
    let message = match (full.rfind(", expected "), &allowed) {
        (Some(i), Some(_)) => full[..i].to_string(),
        _ => full.clone(),
    };
    let field = match err.span() {
        Some(span) => {
            let start = span.start.min(text.len());
            let (line, col) = line_col(text, start);
            match key_path_at(text, start, &full) {
                Some(p) => format!("{p} (line {line})"),
                None => format!("line {line}, column {col}"),
            }
        }
        None => "<file>".to_string(),
    };
    ConfigError { file: path.to_path_buf(), field, message, allowed }
}

/// The allowed range or type of a serde "expected <type>" message.
fn expected_range(message: &str) -> Option<String> {
    // an enum of names given a number or a boolean
    if message.contains("wanted string or table") {
        return Some("one of the key's names, in quotes".into());
    }
    // untagged enums: the forms a key may take
    if let Some(name) = message.split("untagged enum ").nth(1) {
        return Some(match name.trim() {
            "RawPlacement" => "a placement name in quotes or a list of [x, y] mesh nodes".into(),
            "Dim" => "a positive integer or [x, y, z]".into(),
            other => format!("one of the forms of {other} (see the documentation of the key)"),
        });
    }
    let exp = message.rsplit("expected ").next().filter(|_| message.contains("expected "))?.trim().trim_end_matches('.');
    let range = match exp {
        "u8" => "an integer in 0..=255",
        "u16" => "an integer in 0..=65535",
        "u32" => "an integer in 0..=4294967295",
        "u64" | "usize" => "an integer in 0..=18446744073709551615",
        "i8" => "an integer in -128..=127",
        "i16" => "an integer in -32768..=32767",
        "i32" => "an integer in -2147483648..=2147483647",
        "i64" | "isize" => "an integer in -9223372036854775808..=9223372036854775807",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "a string" => "a string in quotes",
        // "one of `a`, `b`" lists (unknown fields and variants) stay in the message
        other if other.starts_with("one of") => return None,
        other => return Some(other.to_string()),
    };
    Some(format!("{exp}: {range}"))
}

/// One lexical piece of a TOML line, as far as key paths need.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Key(String),
    Eq,
    Open(char),
    Close,
    Comma,
    Newline,
    Value,
}

/// The pieces of `s` (strings and comments skipped over, bare and quoted keys kept).
fn pieces(s: &str) -> Vec<Piece> {
    let b: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            '#' => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '\n' => out.push(Piece::Newline),
            '=' => out.push(Piece::Eq),
            '{' | '[' => out.push(Piece::Open(c)),
            '}' | ']' => out.push(Piece::Close),
            ',' => out.push(Piece::Comma),
            '"' | '\'' => {
                let triple = b.len() >= i + 3 && b[i + 1] == c && b[i + 2] == c;
                let mut j = i + if triple { 3 } else { 1 };
                let mut text = String::new();
                while j < b.len() {
                    if c == '"' && b[j] == '\\' {
                        j += 2;
                        continue;
                    }
                    if b[j] == c && (!triple || (j + 2 < b.len() && b[j + 1] == c && b[j + 2] == c)) {
                        break;
                    }
                    text.push(b[j]);
                    j += 1;
                }
                i = j + if triple { 3 } else { 1 };
                // a quoted key is followed by `=` or `.`
                let next = b[i.min(b.len())..].iter().find(|c| !c.is_whitespace());
                out.push(if matches!(next, Some('=') | Some('.')) { Piece::Key(text) } else { Piece::Value });
                continue;
            }
            c if c.is_whitespace() || c == '.' => {}
            _ => {
                let mut j = i;
                let mut word = String::new();
                while j < b.len() && !matches!(b[j], '=' | ',' | '{' | '}' | '[' | ']' | '#' | '\n') && !b[j].is_whitespace() && b[j] != '.' {
                    word.push(b[j]);
                    j += 1;
                }
                if j == i {
                    j += 1;
                }
                let next = b[j.min(b.len())..].iter().find(|c| !(c.is_whitespace() && **c != '\n'));
                let is_key = matches!(next, Some('=') | Some('.')) && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                // a number such as 1.5 is split at '.': treat its parts as one value
                if is_key && !(next == Some(&'.') && word.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '+')) {
                    out.push(Piece::Key(word));
                } else if !matches!(out.last(), Some(Piece::Value)) || !word.chars().all(|c| c.is_ascii_digit()) {
                    out.push(Piece::Value);
                }
                i = j;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The dotted key path at byte `offset`: the table (`[a.b]`, `[[kernel]]` numbered by
/// how many came before), then the key whose value (or which key itself) is there,
/// through inline tables and arrays; for a "missing field `k`" message, the table
/// the span covers plus `k`.
fn key_path_at(text: &str, offset: usize, message: &str) -> Option<String> {
    let before = &text[..offset];
    let at_header = text[offset..].starts_with('[') && before.rsplit('\n').next().is_some_and(|l| l.trim().is_empty());
    // the table header in force: the last one before `offset`, or the one at it
    let header_end = if at_header { text[offset..].find('\n').map_or(text.len(), |e| offset + e) } else { offset };
    let mut table: Vec<String> = Vec::new();
    let mut body_start = 0;
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let mut pos = 0;
    for line in text[..header_end].split_inclusive('\n') {
        let t = line.trim();
        let line_end = pos + line.len();
        if let Some(inner) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = inner.trim().to_string();
            let n = counts.entry(name.clone()).and_modify(|c| *c += 1).or_insert(0);
            table = vec![format!("{name}[{n}]")];
            // nested arrays (`[[check.expect]]`) keep their parent's path
            if let Some((parent, leaf)) = name.rsplit_once('.') {
                table = vec![format!("{parent}.{leaf}[{n}]")];
            }
            body_start = line_end;
        } else if let Some(inner) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            table = vec![inner.trim().to_string()];
            body_start = line_end;
        }
        pos = line_end;
    }
    let missing = message.strip_prefix("missing field `").and_then(|r| r.split('`').next());
    let mut path = table.clone();
    if at_header {
        if let Some(m) = missing {
            path.push(m.to_string());
        }
        return (!path.is_empty()).then(|| path.join("."));
    }
    // walk the body up to `offset`: a stack of (key, array index) per open bracket
    let body = &text[body_start.min(offset)..offset];
    let mut stack: Vec<(Vec<String>, Option<usize>)> = vec![(Vec::new(), None)];
    let mut pending: Vec<String> = Vec::new();
    let mut after_eq = false;
    for p in pieces(body) {
        match p {
            Piece::Key(k) if !after_eq => pending.push(k),
            Piece::Eq => after_eq = true,
            Piece::Open(c) => {
                let mut keys = pending.clone();
                if let Some((_, Some(idx))) = stack.last() {
                    keys.insert(0, format!("[{idx}]"));
                }
                stack.push((keys, if c == '[' { Some(0) } else { None }));
                pending.clear();
                after_eq = false;
            }
            Piece::Close => {
                if stack.len() > 1 {
                    stack.pop();
                }
                pending.clear();
            }
            Piece::Comma => {
                if let Some((_, Some(idx))) = stack.last_mut() {
                    *idx += 1;
                }
                pending.clear();
                after_eq = false;
            }
            Piece::Newline if stack.len() == 1 => {
                pending.clear();
                after_eq = false;
            }
            _ => {}
        }
    }
    for (keys, _) in stack.iter() {
        for k in keys {
            push_key(&mut path, k);
        }
    }
    if let Some((_, Some(idx))) = stack.last() {
        if pending.is_empty() {
            push_key(&mut path, &format!("[{idx}]"));
        }
    }
    for k in &pending {
        push_key(&mut path, k);
    }
    // the key under the span itself (an unknown field is reported at its key)
    if !after_eq {
        let rest = &text[offset..];
        let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-' || *c == '"').collect();
        let word = word.trim_matches('"');
        if !word.is_empty() && rest[word.len()..].trim_start_matches('"').trim_start().starts_with('=') {
            push_key(&mut path, word);
        }
    }
    if let Some(m) = missing {
        push_key(&mut path, m);
    }
    (!path.is_empty()).then(|| path.join("."))
}

/// Append a key (or an `[i]` index, which joins the previous key) to a dotted path.
fn push_key(path: &mut Vec<String>, k: &str) {
    match (k.starts_with('['), path.last_mut()) {
        (true, Some(last)) => last.push_str(k),
        _ => path.push(k.to_string()),
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A config file's text, or an error naming the file.
pub fn read_text(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|e| ConfigError { file: path.to_path_buf(), field: "<file>".into(), message: format!("cannot read: {e}"), allowed: None })
}
