//! Bad input nobody here wrote, the structural half: every leaf of every shipped config
//! (array elements too) deleted or replaced by an array or a table, and hostile scalars
//! where `tests/error_fields.rs` does not reach (array elements, and GPU presets switched
//! to the golden mesh, where `[network.router]` is read). Loading must never panic: it
//! either accepts the config or refuses it with a [`ConfigError`] that names the file
//! and a field. Configs that load are generated (blocks with RTL, small presets), which
//! must not panic either. `error_fields.rs` checks that a hostile scalar on a top-level
//! `key = value` line is refused naming the key, line and range; `fuzz.rs` mutates the
//! text and runs the binary.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use golden::config::ConfigError;
use gpuforge::blocks::load_text;
use gpuforge::registry::Loaded;
use toml::Value;

type Load = dyn Fn(&Path, &str) -> Result<Box<dyn Loaded>, ConfigError>;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped_configs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in std::fs::read_dir(repo().join("configs")).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
            if f.path().extension().is_some_and(|e| e == "toml") {
                v.push(f.path());
            }
        }
    }
    v.sort();
    assert!(v.len() >= 14, "{v:?}");
    v
}

/// Every leaf of a TOML value as a path of keys / array indices.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn leaves(v: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match v {
        Value::Table(t) => {
            for (k, x) in t {
                at.push(Step::Key(k.clone()));
                leaves(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) if !a.is_empty() => {
            out.push(at.clone()); // the whole array too
                                  // the first two elements stand for the rest (a long table would add nothing)
            for (i, x) in a.iter().enumerate().take(2) {
                at.push(Step::Index(i));
                leaves(x, at, out);
                at.pop();
            }
        }
        _ => out.push(at.clone()),
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match (s, v) {
        (Step::Key(k), Value::Table(t)) => t.get_mut(k).unwrap(),
        (Step::Index(i), Value::Array(a)) => &mut a[*i],
        _ => unreachable!(),
    })
}

fn remove(v: &mut Value, path: &[Step]) {
    let (last, parent) = path.split_last().unwrap();
    match (last, get_mut(v, parent)) {
        (Step::Key(k), Value::Table(t)) => {
            t.remove(k);
        }
        (Step::Index(i), Value::Array(a)) => {
            a.remove(*i);
        }
        _ => unreachable!(),
    }
}

fn show(path: &[Step]) -> String {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => k.clone(),
            Step::Index(i) => i.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn evil() -> Vec<Value> {
    vec![
        Value::Integer(0),
        Value::Integer(-1),
        Value::Integer(1),
        Value::Integer(3),
        Value::Integer(1 << 31),
        Value::Integer(i64::MAX),
        Value::Integer(i64::MIN),
        Value::Float(0.5),
        Value::Float(-0.0),
        Value::Float(f64::NAN),
        Value::Float(f64::INFINITY),
        Value::Float(1e300),
        Value::String(String::new()),
        Value::String("x".into()),
        Value::Boolean(true),
        Value::Array(vec![]),
        Value::Array(vec![Value::Integer(0)]),
        Value::Table(Default::default()),
    ]
}

/// Load (and, with `generate`, generate) one mutant; a panic, or a refusal that names no
/// file and field, goes to `failures`. `true`: the mutant loaded.
fn try_one(load: &Load, path: &Path, text: &str, what: &str, generate: bool, failures: &mut Vec<String>) -> bool {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let loaded = load(path, text);
        match loaded {
            Err(e) => {
                if e.file != path || e.field.is_empty() {
                    return Err(format!("refused without naming the file and a field: {e}"));
                }
                Ok(false)
            }
            Ok(l) => {
                if generate {
                    if let Some(Err(e)) = l.generate() {
                        let m = e.to_string();
                        if m.is_empty() {
                            return Err("generation failed without a message".into());
                        }
                    }
                }
                Ok(true)
            }
        }
    }));
    match r {
        Ok(Ok(loaded)) => loaded,
        Ok(Err(m)) => {
            failures.push(format!("{} {what}: {m}", path.display()));
            false
        }
        Err(p) => {
            let m = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
            failures.push(format!("{} {what}: PANIC {m}", path.display()));
            false
        }
    }
}

#[test]
fn no_mutation_of_a_shipped_config_panics() {
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let (mut tried, mut accepted) = (0, 0);
    for cfg in shipped_configs() {
        let text = std::fs::read_to_string(&cfg).unwrap();
        let original: Value = Value::Table(text.parse().unwrap());
        // GPU presets on the ideal network: mutate them on the golden mesh as well, where
        // [network.router] is read
        let mut bases = vec![original.clone()];
        if original.get("network").and_then(|n| n.get("kind")).and_then(Value::as_str) == Some("ideal") {
            let mut m = original.clone();
            m["network"].as_table_mut().unwrap().insert("kind".into(), Value::String("mesh".into()));
            bases.push(m);
        }
        let name = cfg.file_stem().unwrap().to_string_lossy().to_string();
        // generation is cheap for these; a NoC preset takes half a second per mutant
        let small = name.ends_with("small");
        let t0 = std::time::Instant::now();
        let (before, acc_before) = (tried, accepted);
        for top in &bases {
            let base = top.get("network").and_then(|n| n.get("kind")).and_then(Value::as_str).map(|k| format!(" (network.kind = {k})")).unwrap_or_default();
            let mut paths = Vec::new();
            leaves(top, &mut Vec::new(), &mut paths);
            for p in &paths {
                // scalars on a `key = value` line of a [table] are error_fields.rs's; here
                // they go into array elements, inline tables (three keys deep, as
                // `core.units.int.count`) and the mesh variant
                let scalars = top != &original || matches!(p.last(), Some(Step::Index(_))) || p.len() >= 3;
                let mut mutants: Vec<(String, Value)> = evil()
                    .into_iter()
                    .filter(|e| scalars || matches!(e, Value::Array(_) | Value::Table(_)))
                    .map(|e| {
                        let mut t = (*top).clone();
                        *get_mut(&mut t, p) = e.clone();
                        (format!("{} = {e}", show(p)), t)
                    })
                    .collect();
                let mut t = (*top).clone();
                remove(&mut t, p);
                mutants.push((format!("{} removed", show(p)), t));
                for (what, m) in mutants {
                    let Value::Table(t) = m else { unreachable!() };
                    let Ok(s) = toml::to_string(&t) else { continue };
                    tried += 1;
                    let what = format!("{what}{base}");
                    if try_one(&load_text, &cfg, &s, &what, small, &mut failures) {
                        accepted += 1;
                        if std::env::var("SHOW_ACCEPTED").is_ok() {
                            eprintln!("  accepted {name}: {what}");
                        }
                    }
                }
            }
        }
        eprintln!("{name}: {} mutants ({} accepted) in {:.1}s", tried - before, accepted - acc_before, t0.elapsed().as_secs_f64());
    }
    let _ = std::panic::take_hook();
    eprintln!("{tried} mutants, {accepted} accepted");
    assert!(failures.is_empty(), "{} of {tried} mutants:\n{}", failures.len(), failures.join("\n"));
}

/// The checker itself: a loader that panics, and one that refuses without naming the
/// file, are both reported; a good refusal and an acceptance are not.
#[test]
fn the_mutation_checker_catches_a_panic_and_an_unnamed_refusal() {
    let cfg = repo().join("configs/noc/noc_macro_4x4.toml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let panics: &Load = &|_, _| panic!("planted");
    assert!(!try_one(panics, &cfg, &text, "planted panic", false, &mut failures));
    let unnamed: &Load = &|_, _| Err(ConfigError { file: PathBuf::from("elsewhere.toml"), field: "noc.mesh".into(), message: "m".into(), allowed: None });
    assert!(!try_one(unnamed, &cfg, &text, "planted refusal", false, &mut failures));
    let _ = std::panic::take_hook();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("PANIC planted") && failures[1].contains("without naming"), "{failures:?}");
    let mut none = Vec::new();
    assert!(try_one(&load_text, &cfg, &text, "the shipped config", true, &mut none));
    assert!(!try_one(&load_text, &cfg, &text.replace("mesh = 4", "mesh = 99"), "mesh 99", false, &mut none));
    assert!(none.is_empty(), "{none:?}");
}
