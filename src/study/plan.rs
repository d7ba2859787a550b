//! A study's runs: groups expanded into configs x launches x knob values x seeds, each
//! config's text with its knobs applied and loaded through the block registry (so a bad
//! knob is refused before anything runs), and each run's content hash, which names its
//! cached result.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use golden::block::SimFlag;
use golden::config::ConfigError;
use sha2::{Digest, Sha256};

use super::def::{self, Study, Value};
use crate::blocks::load_text;

/// One run: a config (after its knobs), an optional launch file, a seed.
#[derive(Debug, Clone)]
pub struct Run {
    /// Position in the plan (stable for a given study file and `--quick`).
    pub index: usize,
    pub group: String,
    /// As written in the study file.
    pub config: String,
    pub config_path: PathBuf,
    pub launch: Option<String>,
    pub launch_path: Option<PathBuf>,
    /// Knob keys (sorted) and this run's value of each.
    pub knobs: Vec<(String, Value)>,
    pub seed: u64,
    pub max_cycles: Option<u64>,
    pub check: bool,
    /// A synthesis run: the designs yosys synthesizes and how many of each `total`
    /// counts (`None`: the model simulates the config).
    pub synth: Option<def::Synth>,
    /// The config text the model runs (the file's own text when there are no knobs).
    pub text: String,
    /// Hex SHA-256 of everything that determines the result (see [`run_hash`]).
    pub hash: String,
}

impl Run {
    /// `noc_macro_4x4 noc.traffic.rate=0.005 seed=1`; a synthesis run says `synth`
    /// instead of its seed.
    pub fn label(&self) -> String {
        let mut s = stem(&self.config);
        if self.synth.is_some() {
            for (k, v) in &self.knobs {
                s += &format!(" {k}={}", def::show(v));
            }
            return s + " synth";
        }
        if let Some(l) = &self.launch {
            s += &format!(" {}", stem(l));
        }
        for (k, v) in &self.knobs {
            s += &format!(" {k}={}", def::show(v));
        }
        s + &format!(" seed={}", self.seed)
    }

    /// The run's coordinates, by name (`group`, `config`, `launch`, `seed`, knobs).
    pub fn coords(&self) -> BTreeMap<String, Value> {
        let mut c = BTreeMap::new();
        c.insert("group".to_string(), Value::String(self.group.clone()));
        c.insert("config".to_string(), Value::String(stem(&self.config)));
        if let Some(l) = &self.launch {
            c.insert("launch".to_string(), Value::String(stem(l)));
        }
        c.insert("seed".to_string(), Value::Integer(self.seed as i64));
        for (k, v) in &self.knobs {
            c.insert(k.clone(), v.clone());
        }
        c
    }

    /// Does the run match every key of `select`?
    pub fn selected(&self, select: &def::Select) -> bool {
        let c = self.coords();
        select.iter().all(|(k, want)| c.get(k).is_some_and(|have| def::matches(want, have)))
    }
}

/// A file name without directory and extension.
pub fn stem(p: &str) -> String {
    Path::new(p).file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| p.to_string())
}

/// What `study run` would do.
#[derive(Debug, Clone)]
pub struct Plan {
    pub study: Study,
    pub quick: bool,
    pub runs: Vec<Run>,
}

/// Bumped when the meaning of a cached result changes (its record format or what the
/// hash covers); the models' own version is [`golden::MODEL_VERSION`].
const CACHE_FORMAT: u32 = 1;

/// Expand the study's groups (full or `--quick`) into runs, apply and check every knob,
/// hash every run.
pub fn plan(study: &Study, quick: bool) -> Result<Plan, ConfigError> {
    let dir = study.file.parent().unwrap_or(Path::new("."));
    let mut runs = Vec::new();
    for (g, group) in study.groups.iter().enumerate() {
        let Some(r) = group.runs(quick) else { continue };
        let at = if quick && group.quick.is_some() { format!("runs[{g}].quick") } else { format!("runs[{g}]") };
        let launches: Vec<Option<&String>> = if r.launches.is_empty() { vec![None] } else { r.launches.iter().map(Some).collect() };
        let launch_files = launches
            .iter()
            .map(|l| l.map(|l| launch_inputs(&dir.join(l)).map_err(|m| field_error(study, format!("{at}.launches"), format!("{l}: {m}")))).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        for config in &r.configs {
            let config_path = dir.join(config);
            let original = std::fs::read_to_string(&config_path).map_err(|e| field_error(study, format!("{at}.configs"), format!("{config}: cannot read: {e}")))?;
            for combo in combinations(&r.knobs) {
                let text = apply_knobs(&original, &combo).map_err(|(k, m)| field_error(study, format!("{at}.knobs.\"{k}\""), format!("{config}: {m}")))?;
                let loaded = match load_text(&config_path, &text) {
                    Ok(l) => l,
                    Err(e) => {
                        let field = if combo.is_empty() { format!("{at}.configs") } else { format!("{at}.knobs") };
                        let with = combo.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ");
                        let what = if combo.is_empty() { String::new() } else { format!(" with {with}") };
                        return Err(ConfigError { file: study.file.clone(), field, message: format!("{config}{what}: {}: {}", e.field, e.message), allowed: e.allowed });
                    }
                };
                let designs = match &group.synth {
                    None => None,
                    Some(synth) => Some(synth_inputs(study, &at, config, loaded.as_ref(), synth)?),
                };
                let flags = loaded.sim_flags();
                let given =
                    [(!r.launches.is_empty(), SimFlag::Launch, "launches"), (r.max_cycles.is_some(), SimFlag::MaxCycles, "max_cycles"), (group.check, SimFlag::Check, "check")];
                if let Some((_, _, field)) = given.iter().find(|(on, f, _)| *on && !flags.contains(f) && group.synth.is_none()) {
                    let allowed = ["launches", "max_cycles", "check"]
                        .iter()
                        .zip([SimFlag::Launch, SimFlag::MaxCycles, SimFlag::Check])
                        .filter(|(_, f)| flags.contains(f))
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>();
                    return Err(ConfigError {
                        file: study.file.clone(),
                        field: format!("{at}.{field}"),
                        message: format!("{config} is a {} config, which does not take it", loaded.title()),
                        allowed: Some(if allowed.is_empty() { "none of launches, max_cycles, check".into() } else { allowed.join(", ") }),
                    });
                }
                for (launch, inputs) in launches.iter().zip(&launch_files) {
                    for &seed in &r.seeds {
                        let mut run = Run {
                            index: runs.len(),
                            group: group.name.clone(),
                            config: config.clone(),
                            config_path: config_path.clone(),
                            launch: launch.cloned(),
                            launch_path: launch.map(|l| dir.join(l)),
                            knobs: combo.clone(),
                            seed,
                            max_cycles: r.max_cycles,
                            check: group.check,
                            synth: group.synth.clone(),
                            text: text.clone(),
                            hash: String::new(),
                        };
                        let inputs = inputs.as_deref().unwrap_or(&[]);
                        run.hash = run_hash(&run, designs.as_deref().unwrap_or(inputs));
                        runs.push(run);
                    }
                }
            }
        }
    }
    if runs.is_empty() {
        return Err(field_error(study, "runs".into(), "--quick leaves no run (every group has quick.skip = true)".into()));
    }
    Ok(Plan { study: study.clone(), quick, runs })
}

/// What determines a synthesis run's result besides the config: each design's name,
/// count and generated Verilog (its content hash), the synthesis script's version and
/// yosys's version. Generating here costs the plan a `gen` per config (well under a
/// second) and means a change to the RTL generators is never served from the cache.
fn synth_inputs(study: &Study, at: &str, config: &str, loaded: &dyn crate::registry::Loaded, synth: &def::Synth) -> Result<Vec<(String, Vec<u8>)>, ConfigError> {
    let generated = match loaded.generate() {
        None => return Err(field_error(study, format!("{at}.synth"), format!("{config} is a {} config, whose block generates no RTL", loaded.title()))),
        Some(Err(e)) => return Err(field_error(study, format!("{at}.synth"), format!("{config}: {e}"))),
        Some(Ok(g)) => g,
    };
    let mut inputs = vec![
        ("synth-script".to_string(), verif::synth::SCRIPT_VERSION.to_string().into_bytes()),
        ("yosys".to_string(), verif::synth::yosys_version().unwrap_or_default().into_bytes()),
    ];
    for (dir, count) in synth {
        let Some(d) = generated.design(dir) else {
            let have = generated.designs.iter().map(|d| d.dir.as_str()).collect::<Vec<_>>().join(", ");
            return Err(ConfigError {
                file: study.file.clone(),
                field: format!("{at}.synth.\"{dir}\""),
                message: format!("{config} generates no design `{dir}`"),
                allowed: Some(have),
            });
        };
        inputs.push((format!("design {dir} x{count}"), d.manifest.content_hash.clone().into_bytes()));
    }
    Ok(inputs)
}

fn field_error(study: &Study, field: String, message: String) -> ConfigError {
    ConfigError { file: study.file.clone(), field, message, allowed: None }
}

/// Every combination of knob values, keys in order, the last knob varying fastest.
pub fn combinations(knobs: &[(String, Vec<Value>)]) -> Vec<Vec<(String, Value)>> {
    let mut out: Vec<Vec<(String, Value)>> = vec![Vec::new()];
    for (k, vals) in knobs {
        out = out.into_iter().flat_map(|prefix| vals.iter().map(move |v| [prefix.clone(), vec![(k.clone(), v.clone())]].concat())).collect();
    }
    out
}

/// The config text with each knob's dotted key set to its value (tables created where
/// missing; the block's validation refuses keys it does not know). Without knobs the
/// text is returned unchanged, byte for byte.
pub fn apply_knobs(text: &str, knobs: &[(String, Value)]) -> Result<String, (String, String)> {
    if knobs.is_empty() {
        return Ok(text.to_string());
    }
    let mut top: toml::Table = text.parse().map_err(|e: toml::de::Error| (String::new(), format!("not TOML: {}", e.message())))?;
    for (key, v) in knobs {
        let parts: Vec<&str> = key.split('.').collect();
        let (last, tables) = parts.split_last().expect("knob keys are checked non-empty");
        let mut t = &mut top;
        for (i, p) in tables.iter().enumerate() {
            let entry = t.entry(p.to_string()).or_insert_with(|| Value::Table(toml::Table::new()));
            t = entry.as_table_mut().ok_or_else(|| (key.clone(), format!("`{}` is a value, not a table", parts[..=i].join("."))))?;
        }
        if t.get(*last).is_some_and(Value::is_table) {
            return Err((key.clone(), format!("`{key}` is a table, not a value")));
        }
        t.insert(last.to_string(), v.clone());
    }
    Ok(toml::to_string(&top).expect("a TOML table serializes"))
}

/// A launch file's text and every file it names (any string value that is a path,
/// relative to the launch file, of an existing file: its PTX, data files), as
/// (name as written, bytes), sorted by name.
fn launch_inputs(path: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let top: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("not TOML: {}", e.message()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut strings = Vec::new();
    collect_strings(&Value::Table(top), &mut strings);
    let mut files = vec![(String::from("<launch>"), text.into_bytes())];
    strings.sort();
    strings.dedup();
    for s in strings {
        let p = dir.join(&s);
        if p.is_file() {
            let bytes = std::fs::read(&p).map_err(|e| format!("{s}: cannot read: {e}"))?;
            files.push((s, bytes));
        }
    }
    Ok(files)
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if !s.is_empty() => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Table(t) => t.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// SHA-256 over what determines a run's result: the gpuforge and model versions, a
/// digest of the model sources (golden models, generators, templates, co-simulation), the
/// config text after knobs, the launch file and the files it names (a synthesis run:
/// [`synth_inputs`]), the knobs, the seed, `max_cycles` and `check`. Paths are not hashed, so moving a study keeps its cache.
fn run_hash(r: &Run, inputs: &[(String, Vec<u8>)]) -> String {
    let mut h = Sha256::new();
    let mut field = |name: &str, bytes: &[u8]| {
        h.update(format!("{name} {}\n", bytes.len()).as_bytes());
        h.update(bytes);
        h.update(b"\n");
    };
    field("cache-format", CACHE_FORMAT.to_string().as_bytes());
    field("gpuforge", env!("CARGO_PKG_VERSION").as_bytes());
    field("model", golden::MODEL_VERSION.to_string().as_bytes());
    // the model sources themselves (build.rs): a changed model reruns, version or not
    field("model-source", env!("GPUFORGE_MODEL_SOURCE").as_bytes());
    field("config", r.text.as_bytes());
    // Launch files (a simulation) or designs and tools (a synthesis): the prefix stays
    // the one launch files always had, so caches from before synthesis runs stay valid.
    for (name, bytes) in inputs {
        field(&format!("launch-file {name}"), bytes);
    }
    for (k, v) in &r.knobs {
        field(&format!("knob {k}"), v.to_string().as_bytes());
    }
    field("seed", r.seed.to_string().as_bytes());
    field("max_cycles", format!("{:?}", r.max_cycles).as_bytes());
    field("check", r.check.to_string().as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
