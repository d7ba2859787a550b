//! Issue 9, item 6: every exit-2 message names the field and what is allowed. Mutants of
//! every shipped config and launch file — one `key = value` line's value replaced by a
//! negative, fractional, too large, string or boolean value — must fail with the key's
//! dotted path (its table as written in the file, `[[array]]` tables numbered in order
//! of appearance), the mutated line, and an allowed type or range; or load (a value the
//! field takes). The expected path comes from the file's own headers, here.

use std::path::{Path, PathBuf};

use golden::config::ConfigError;
use golden::gpu::{Launch, LaunchError};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            v.extend(files(&p));
        } else if p.extension().is_some_and(|x| x == "toml") {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// The `key = scalar` lines of a TOML text: (0-based line, key, dotted path of the key).
fn scalar_keys(text: &str) -> Vec<(usize, String, String)> {
    let mut table = String::new();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix("[[") {
            let name = h.trim_end_matches("]]").trim().to_string();
            let n = counts.entry(name.clone()).and_modify(|c| *c += 1).or_insert(0);
            table = format!("{name}[{n}]");
        } else if let Some(h) = t.strip_prefix('[') {
            table = h.trim_end_matches(']').trim().to_string();
        } else if let Some((k, v)) = t.split_once('=') {
            let (k, v) = (k.trim(), v.trim());
            let scalar = !v.starts_with('[') && !v.starts_with('{') && !k.contains('.') && !k.contains('"') && !t.starts_with('#');
            if scalar && !k.is_empty() {
                let path = if table.is_empty() { k.to_string() } else { format!("{table}.{k}") };
                out.push((i, k.to_string(), path));
            }
        }
    }
    out
}

const VALUES: &[&str] = &["-1", "0", "3.5", "5000000000", "9223372036854775807", "-9223372036854775808", "nan", "inf", "-0.0", "\"x\"", "\"\"", "true"];

/// Check one error of a mutant of line `line` (0-based) of key path `path`.
fn check(e: &ConfigError, what: &str, line: usize, key: &str, path: &str, bad: &mut Vec<String>) {
    let msg = e.to_string();
    if e.field.contains("(line") {
        // a serde-level error: the exact key path, the line, a type or range
        let want = format!("{path} (line {})", line + 1);
        let listed = e.message.contains("expected one of") || e.message.contains("unknown variant");
        if e.field != want || !(e.allowed.is_some() || listed) {
            bad.push(format!("{what}: want field `{want}` with an allowed type/range: {msg}"));
        }
    } else if e.field == "<file>"
        || e.field.is_empty()
        || !(e.field.ends_with(key) || e.field.contains(&format!("{key}.")) || e.field.contains(&format!("{key}["))) && e.allowed.is_none()
    {
        // a validator's error: a field path, and the allowed range when it is not the key's own
        bad.push(format!("{what}: no field or allowed range: {msg}"));
    }
}

#[test]
fn mutated_values_name_their_key_line_and_range() {
    let tmp = std::env::temp_dir().join(format!("gpuforge-errfields-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut bad = Vec::new();
    let mut tried = 0;
    let mut rejected = 0;
    for f in files(&root().join("configs")) {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, key, path) in scalar_keys(&text) {
            for v in VALUES {
                let mut m = lines.clone();
                let edited = format!("{key} = {v}");
                m[i] = &edited;
                let p = tmp.join(f.file_name().unwrap());
                std::fs::write(&p, m.join("\n") + "\n").unwrap();
                tried += 1;
                if let Err(e) = gpuforge::blocks::load(&p) {
                    rejected += 1;
                    check(&e, &format!("{}:{} {edited}", f.display(), i + 1), i, &key, &path, &mut bad);
                }
            }
        }
    }
    for f in files(&root().join("workloads")) {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, key, path) in scalar_keys(&text) {
            for v in VALUES {
                let mut m = lines.clone();
                let edited = format!("{key} = {v}");
                m[i] = &edited;
                tried += 1;
                match Launch::parse(&f, &(m.join("\n") + "\n")) {
                    Ok(_) => {}
                    Err(LaunchError::Field(e)) => {
                        rejected += 1;
                        check(&e, &format!("{}:{} {edited}", f.display(), i + 1), i, &key, &path, &mut bad);
                    }
                    Err(LaunchError::Ptx(p)) => bad.push(format!("{}:{} {edited}: a PTX error from a launch edit: {p}", f.display(), i + 1)),
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(tried > 1000 && rejected > tried / 2, "{tried} mutants, {rejected} rejected");
    assert!(bad.is_empty(), "{} of {rejected} messages lack the key path, line or range:\n{}", bad.len(), bad.join("\n"));
}

/// The checker catches a message without the key (planted: a ConfigError as the old
/// toml_error made it, table and column only).
#[test]
fn the_check_catches_a_message_without_key_or_range() {
    let mut bad = Vec::new();
    let old = ConfigError { file: "x.toml".into(), field: "gpucc (line 9, column 9)".into(), message: "invalid type: floating point `3.0`, expected u32".into(), allowed: None };
    check(&old, "old", 8, "lanes", "gpucc.lanes", &mut bad);
    let no_range = ConfigError { file: "x.toml".into(), field: "gpucc.lanes (line 9)".into(), message: "invalid value".into(), allowed: None };
    check(&no_range, "no range", 8, "lanes", "gpucc.lanes", &mut bad);
    let wrong_line = ConfigError { file: "x.toml".into(), field: "gpucc.lanes (line 10)".into(), message: "invalid value".into(), allowed: Some("u32".into()) };
    check(&wrong_line, "wrong line", 8, "lanes", "gpucc.lanes", &mut bad);
    let good = ConfigError { file: "x.toml".into(), field: "gpucc.lanes (line 9)".into(), message: "invalid value".into(), allowed: Some("u32".into()) };
    check(&good, "good", 8, "lanes", "gpucc.lanes", &mut bad);
    assert_eq!(bad.len(), 3, "{bad:?}");
}
