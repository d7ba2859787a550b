//! The study file (`studies/<name>.toml`): what to run, what to measure, what to draw
//! and what the paper says, read and checked before anything runs.
//!
//! ```toml
//! name = "gpucc_table1"
//! title = "GPU-CC Table 1: 3x3 and 5x5 convolution of a 512x512 image"
//! paper = "van den Braak and Corporaal, GPU-CC, SCOPES'13"
//! seed_file = "004"                  # ../shared/seeds/004_*.txt
//! spec = "specs/gpucc.md"
//! reproduces = "Table 1 and section 4.3"
//!
//! [[runs]]                           # a group: configs x launches x knobs x seeds
//! name = "paper"                     # the `group` coordinate (default runs<i>)
//! configs = ["../configs/gpucc/gpucc_paper_sm.toml"]   # relative to this file
//! launches = []                      # GPU model: launch files (relative to this file)
//! seeds = [1, 2]
//! knobs = { "gpucc.app.kind" = ["conv3x3", "conv5x5"] }   # config keys, one value each
//! quick = { seeds = [1] }            # --quick: replaces what it names (skip = true: left out)
//!
//! [[runs]]                           # a synthesis group: yosys instead of the model
//! name = "macro"
//! configs = ["../configs/noc/noc_macro_4x4.toml"]
//! synth = { "routers/hinge" = 1, "routers/request" = 1 }   # design: how many per node
//!
//! [[measure]]
//! name = "gpixel_3x3"
//! label = "GPU-CC 3x3 throughput"
//! unit = "Gpixel/s"
//! stat = "giga_items_per_s"          # dotted path into the run's JSON (arrays by index)
//! where = { group = "paper", "gpucc.app.kind" = "conv3x3" }
//! over = { ... }                     # optional: ratio to the run that differs only in these
//! divide_by = "stat.path"            # optional: the denominator's statistic (same run, or with
//!                                    # `over` the denominator run; default: `stat` over it)
//! reduce = "mean"                    # mean | geomean | min | max, over runs (or ratios)
//! paper = 14.8                       # or [lo, hi]
//! tolerance = 0.05                   # relative, widens the paper's value into the band
//! source = "seed 004 section 4.3 and Table 1"
//! reason = "why we are outside the band, if we are"
//!
//! [[figure]]
//! name = "table1"                    # table1.svg
//! kind = "bars"                      # bars: paper beside measured, per measure
//! measures = ["gpixel_3x3"]          # curve: x, y, series, where
//! ```
//!
//! A run's coordinates, which `where`, `over` and figures name: `group`, `config` (the
//! file's stem), `launch` (stem), `seed` and every knob key. Every problem is a
//! [`ConfigError`] naming the study file, the field (`measure[2].reduce`) and what is
//! allowed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use golden::config::{check_name, read_text, toml_error, ConfigError};
use serde::Deserialize;

/// How a measure combines the values (or ratios) of the runs it selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reduce {
    Mean,
    Geomean,
    Min,
    Max,
}

impl Reduce {
    pub fn name(self) -> &'static str {
        match self {
            Reduce::Mean => "mean",
            Reduce::Geomean => "geomean",
            Reduce::Min => "min",
            Reduce::Max => "max",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FigureKind {
    /// Lines of `y` against `x`, one per value of `series` (a latency-throughput curve).
    Curve,
    /// Grouped bars: the paper's value beside ours, one group per measure.
    Bars,
}

/// A coordinate's value in a selector or a run: a TOML scalar.
pub type Value = toml::Value;

/// A selector: every key must match (a list value matches any of its elements).
pub type Select = BTreeMap<String, Value>;

/// Knob keys (sorted) with the values each takes.
pub type Knobs = Vec<(String, Vec<Value>)>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStudy {
    name: String,
    title: String,
    paper: String,
    seed_file: String,
    spec: Option<String>,
    reproduces: String,
    #[serde(default)]
    notes: Vec<String>,
    runs: Vec<RawGroup>,
    #[serde(default)]
    measure: Vec<RawMeasure>,
    #[serde(default)]
    figure: Vec<RawFigure>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGroup {
    name: Option<String>,
    configs: Vec<String>,
    #[serde(default)]
    launches: Vec<String>,
    seeds: Option<Vec<u64>>,
    #[serde(default)]
    knobs: toml::Table,
    max_cycles: Option<u64>,
    #[serde(default)]
    check: bool,
    /// Synthesize these designs of each config (design directory -> how many the
    /// network or chip has per node) instead of simulating it.
    synth: Option<toml::Table>,
    quick: Option<RawQuick>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuick {
    configs: Option<Vec<String>>,
    launches: Option<Vec<String>>,
    seeds: Option<Vec<u64>>,
    /// Replaces (or adds) these knobs, key by key.
    #[serde(default)]
    knobs: toml::Table,
    max_cycles: Option<u64>,
    #[serde(default)]
    skip: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeasure {
    name: String,
    label: String,
    #[serde(default)]
    unit: String,
    stat: Option<String>,
    #[serde(default, rename = "where")]
    select: Select,
    over: Option<Select>,
    divide_by: Option<String>,
    #[serde(default = "default_reduce")]
    reduce: Reduce,
    paper: Option<Value>,
    #[serde(default)]
    tolerance: f64,
    source: Option<String>,
    reason: Option<String>,
}

fn default_reduce() -> Reduce {
    Reduce::Mean
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFigure {
    name: String,
    title: String,
    kind: FigureKind,
    x: Option<String>,
    y: Option<String>,
    series: Option<String>,
    #[serde(default, rename = "where")]
    select: Select,
    x_label: Option<String>,
    y_label: Option<String>,
    #[serde(default)]
    log_x: bool,
    #[serde(default)]
    measures: Vec<String>,
}

/// A validated study.
#[derive(Debug, Clone)]
pub struct Study {
    /// The study file (config and launch paths are relative to its directory).
    pub file: PathBuf,
    pub name: String,
    pub title: String,
    pub paper: String,
    pub seed_file: String,
    pub spec: Option<String>,
    pub reproduces: String,
    pub notes: Vec<String>,
    pub groups: Vec<Group>,
    pub measures: Vec<Measure>,
    pub figures: Vec<Figure>,
}

/// The runs of one group, full or `--quick`.
#[derive(Debug, Clone)]
pub struct GroupRuns {
    pub configs: Vec<String>,
    pub launches: Vec<String>,
    pub seeds: Vec<u64>,
    pub knobs: Knobs,
    pub max_cycles: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub name: String,
    pub full: GroupRuns,
    /// `None`: left out of `--quick`.
    pub quick: Option<GroupRuns>,
    pub check: bool,
    /// A synthesis group: the designs of each config that yosys synthesizes, with how
    /// many of each the result's `total` counts (e.g. one router per plane). `None`: the
    /// configs are simulated.
    pub synth: Option<Synth>,
}

/// Designs (directory under the generated preset, as `gpuforge gen` writes it) and the
/// count of each, in the order the study file gives them.
pub type Synth = Vec<(String, u64)>;

/// The most copies of one design a synthesis group may count.
pub const MAX_SYNTH_COUNT: u64 = 1 << 20;

impl Group {
    pub fn runs(&self, quick: bool) -> Option<&GroupRuns> {
        if quick {
            self.quick.as_ref()
        } else {
            Some(&self.full)
        }
    }
}

/// The paper's number: a value or a range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperValue {
    pub lo: f64,
    pub hi: f64,
}

#[derive(Debug, Clone)]
pub struct Measure {
    pub name: String,
    pub label: String,
    pub unit: String,
    /// `None`: not yet measured (the paper's number is listed all the same).
    pub stat: Option<String>,
    pub select: Select,
    pub over: Option<Select>,
    /// The statistic to divide by: of the same run, or with `over`, of the denominator
    /// run (`None`: no division, or with `over` the same `stat`).
    pub divide_by: Option<String>,
    pub reduce: Reduce,
    pub paper: Option<PaperValue>,
    pub tolerance: f64,
    pub source: Option<String>,
    pub reason: Option<String>,
}

impl Measure {
    /// The tolerance band around the paper's value (or range).
    pub fn band(&self) -> Option<(f64, f64)> {
        self.paper.map(|p| (p.lo - self.tolerance * p.lo.abs(), p.hi + self.tolerance * p.hi.abs()))
    }
}

#[derive(Debug, Clone)]
pub enum FigureSpec {
    Curve { x: String, y: String, series: String, select: Select, x_label: String, y_label: String, log_x: bool },
    Bars { measures: Vec<String> },
}

#[derive(Debug, Clone)]
pub struct Figure {
    pub name: String,
    pub title: String,
    pub spec: FigureSpec,
}

/// Coordinates every run has besides its knobs.
pub const FIXED_COORDS: [&str; 4] = ["group", "config", "launch", "seed"];

/// Read and check a study file: the format and every cross-reference (configs and
/// launches exist, selectors name coordinates, figures name measures). Whether each
/// run's config is valid after its knobs is [`crate::study::plan`]'s check.
pub fn load(path: &Path) -> Result<Study, ConfigError> {
    let text = read_text(path)?;
    let raw: RawStudy = toml::from_str(&text).map_err(|e| toml_error(path, &text, &e))?;
    let err = |field: String, message: String, allowed: Option<String>| ConfigError { file: path.to_path_buf(), field, message, allowed };
    check_name("name", &raw.name).map_err(|e| e.in_file(path))?;
    if raw.runs.is_empty() {
        return Err(err("runs".into(), "no run group".into(), Some("at least one [[runs]] table".into())));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut groups = Vec::new();
    for (g, r) in raw.runs.into_iter().enumerate() {
        let at = |f: &str| format!("runs[{g}].{f}");
        let name = r.name.unwrap_or_else(|| format!("runs{g}"));
        check_name(&at("name"), &name).map_err(|e| e.in_file(path))?;
        if groups.iter().any(|x: &Group| x.name == name) {
            return Err(err(at("name"), format!("`{name}` names two groups"), Some("a name per group".into())));
        }
        let knobs = knob_list(&r.knobs, &|k| format!("{}.\"{k}\"", at("knobs"))).map_err(|(f, m)| err(f, m, Some(KNOB_VALUES.into())))?;
        let synth = match &r.synth {
            None => None,
            Some(t) => {
                let given = [(!r.launches.is_empty(), "launches"), (r.max_cycles.is_some(), "max_cycles"), (r.check, "check"), (r.seeds.is_some(), "seeds")];
                if let Some((_, f)) = given.iter().find(|(on, _)| *on) {
                    return Err(err(
                        at(f),
                        "a synthesis group does not simulate, so it takes no launches, max_cycles, check or seeds".into(),
                        Some("configs, knobs, synth, quick".into()),
                    ));
                }
                Some(synth_designs(t, &at("synth")).map_err(|(f, m, a)| err(f, m, Some(a)))?)
            }
        };
        let full = GroupRuns { configs: r.configs, launches: r.launches, seeds: r.seeds.unwrap_or_else(|| vec![1]), knobs, max_cycles: r.max_cycles };
        check_runs(dir, &full, &at("")).map_err(|(f, m, a)| err(f, m, a))?;
        let quick = match r.quick {
            None => Some(full.clone()),
            Some(q) if q.skip => None,
            Some(q) => {
                if synth.is_some() && (q.launches.is_some() || q.seeds.is_some() || q.max_cycles.is_some()) {
                    return Err(err(at("quick"), "a synthesis group does not simulate, so it takes no launches, max_cycles or seeds".into(), Some("configs, knobs, skip".into())));
                }
                let qk = knob_list(&q.knobs, &|k| format!("{}.\"{k}\"", at("quick.knobs"))).map_err(|(f, m)| err(f, m, Some(KNOB_VALUES.into())))?;
                let mut knobs = full.knobs.clone();
                for (k, v) in qk {
                    match knobs.iter_mut().find(|(x, _)| *x == k) {
                        Some(slot) => slot.1 = v,
                        None => knobs.push((k, v)),
                    }
                }
                knobs.sort_by(|a, b| a.0.cmp(&b.0));
                let quick = GroupRuns {
                    configs: q.configs.unwrap_or_else(|| full.configs.clone()),
                    launches: q.launches.unwrap_or_else(|| full.launches.clone()),
                    seeds: q.seeds.unwrap_or_else(|| full.seeds.clone()),
                    knobs,
                    max_cycles: q.max_cycles.or(full.max_cycles),
                };
                check_runs(dir, &quick, &at("quick.")).map_err(|(f, m, a)| err(f, m, a))?;
                Some(quick)
            }
        };
        groups.push(Group { name, full, quick, check: r.check, synth });
    }

    let coords = coordinate_keys(&groups);
    let allowed_coords = coords.join(", ");
    let check_select = |field: String, s: &Select| -> Result<(), ConfigError> {
        for (k, v) in s {
            if !coords.contains(k) {
                return Err(err(format!("{field}.\"{k}\""), format!("`{k}` is not a coordinate of any run"), Some(allowed_coords.clone())));
            }
            let scalars = match v {
                Value::Array(a) => a.iter().all(is_scalar) && !a.is_empty(),
                v => is_scalar(v),
            };
            if !scalars {
                return Err(err(format!("{field}.\"{k}\""), "not a value or a list of values".into(), Some("a string, number or boolean, or a list of them".into())));
            }
        }
        Ok(())
    };

    let mut measures = Vec::new();
    for (i, m) in raw.measure.into_iter().enumerate() {
        let at = |f: &str| format!("measure[{i}].{f}");
        check_name(&at("name"), &m.name).map_err(|e| e.in_file(path))?;
        if measures.iter().any(|x: &Measure| x.name == m.name) {
            return Err(err(at("name"), format!("`{}` names two measures", m.name), Some("a name per measure".into())));
        }
        check_select(at("where"), &m.select)?;
        if let Some(o) = &m.over {
            check_select(at("over"), o)?;
            if o.is_empty() {
                return Err(err(at("over"), "empty".into(), Some("the coordinates in which the denominator runs differ".into())));
            }
            if m.stat.is_none() {
                return Err(err(at("over"), "a ratio needs a statistic".into(), Some("set stat, or drop over".into())));
            }
        }
        if let Some(d) = &m.divide_by {
            if m.stat.is_none() {
                return Err(err(at("divide_by"), "a ratio needs a statistic".into(), Some("set stat, or drop divide_by".into())));
            }
            if d.trim().is_empty() {
                return Err(err(at("divide_by"), "empty path".into(), Some("a dotted path into the run's JSON, e.g. sync.barrier_lost_cycles".into())));
            }
        }
        if m.stat.as_deref().is_some_and(|s| s.trim().is_empty()) {
            return Err(err(at("stat"), "empty path".into(), Some("a dotted path into the run's JSON, e.g. points.0.latency_avg".into())));
        }
        let paper = match &m.paper {
            None => None,
            Some(v) => Some(paper_value(v).ok_or_else(|| err(at("paper"), format!("{v} is not a number or a range"), Some("a number, or [lo, hi] with lo <= hi".into())))?),
        };
        if paper.is_some() && m.source.as_deref().is_none_or(|s| s.trim().is_empty()) {
            return Err(err(at("source"), "a paper number without its source".into(), Some("the seed and section (or table) it comes from".into())));
        }
        if !(m.tolerance >= 0.0 && m.tolerance <= 10.0) {
            return Err(err(at("tolerance"), format!("{} is out of range", m.tolerance), Some("0..=10 (relative)".into())));
        }
        if m.stat.is_none() && m.reason.is_none() {
            return Err(err(at("reason"), "a measure without a statistic must say why it is not measured".into(), Some("reason = \"...\"".into())));
        }
        measures.push(Measure {
            name: m.name,
            label: m.label,
            unit: m.unit,
            stat: m.stat,
            select: m.select,
            over: m.over,
            divide_by: m.divide_by,
            reduce: m.reduce,
            paper,
            tolerance: m.tolerance,
            source: m.source,
            reason: m.reason,
        });
    }

    let mut figures = Vec::new();
    for (i, f) in raw.figure.into_iter().enumerate() {
        let at = |x: &str| format!("figure[{i}].{x}");
        check_name(&at("name"), &f.name).map_err(|e| e.in_file(path))?;
        if figures.iter().any(|x: &Figure| x.name == f.name) || matches!(f.name.as_str(), "results" | "report") {
            return Err(err(at("name"), format!("`{}` is taken", f.name), Some("a name per figure, not results or report".into())));
        }
        let spec = match f.kind {
            FigureKind::Bars => {
                if f.measures.is_empty() {
                    return Err(err(at("measures"), "no measure to draw".into(), Some("names of [[measure]]s".into())));
                }
                if let Some(bad) = f.measures.iter().find(|n| !measures.iter().any(|m| &m.name == *n)) {
                    let names = measures.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ");
                    return Err(err(at("measures"), format!("`{bad}` is not a measure"), Some(names)));
                }
                FigureSpec::Bars { measures: f.measures }
            }
            FigureKind::Curve => {
                let need = |v: Option<String>, k: &str, what: &str| v.filter(|s| !s.is_empty()).ok_or_else(|| err(at(k), "missing".into(), Some(what.into())));
                let x = need(f.x, "x", "a coordinate (e.g. a knob) or a statistic path")?;
                let y = need(f.y, "y", "a statistic path")?;
                let series = f.series.unwrap_or_else(|| "config".into());
                if !coords.contains(&series) {
                    return Err(err(at("series"), format!("`{series}` is not a coordinate of any run"), Some(allowed_coords.clone())));
                }
                check_select(at("where"), &f.select)?;
                FigureSpec::Curve {
                    x_label: f.x_label.unwrap_or_else(|| x.clone()),
                    y_label: f.y_label.unwrap_or_else(|| y.clone()),
                    x,
                    y,
                    series,
                    select: f.select,
                    log_x: f.log_x,
                }
            }
        };
        figures.push(Figure { name: f.name, title: f.title, spec });
    }

    Ok(Study {
        file: path.to_path_buf(),
        name: raw.name,
        title: raw.title,
        paper: raw.paper,
        seed_file: raw.seed_file,
        spec: raw.spec,
        reproduces: raw.reproduces,
        notes: raw.notes,
        groups,
        measures,
        figures,
    })
}

const KNOB_VALUES: &str = "a config key (dotted) = a value or a non-empty list of strings, numbers or booleans";

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::Boolean(_))
}

/// Knobs as (key, values), sorted by key; a single value is a list of one.
fn knob_list(t: &toml::Table, field: &dyn Fn(&str) -> String) -> Result<Knobs, (String, String)> {
    let mut v = Vec::new();
    for (k, val) in t {
        if k.is_empty() || k.split('.').any(str::is_empty) || FIXED_COORDS.contains(&k.as_str()) {
            return Err((field(k), format!("`{k}` is not a usable knob key")));
        }
        let vals = match val {
            Value::Array(a) => a.clone(),
            s => vec![s.clone()],
        };
        if vals.is_empty() || !vals.iter().all(is_scalar) {
            return Err((field(k), "not a value or a non-empty list of values".into()));
        }
        v.push((k.clone(), vals));
    }
    Ok(v)
}

/// A synthesis group's designs: non-empty directory names, each with a count in
/// 1..=MAX_SYNTH_COUNT.
fn synth_designs(t: &toml::Table, at: &str) -> Result<Synth, (String, String, String)> {
    let allowed = || format!("design directory = how many per node (1..={MAX_SYNTH_COUNT}), e.g. {{ \"routers/hinge\" = 1 }}");
    if t.is_empty() {
        return Err((at.to_string(), "no design".into(), allowed()));
    }
    t.iter()
        .map(|(d, n)| match n {
            Value::Integer(c) if *c >= 1 && (*c as u64) <= MAX_SYNTH_COUNT && !d.trim().is_empty() => Ok((d.clone(), *c as u64)),
            _ => Err((format!("{at}.\"{d}\""), format!("{n} is not a count"), allowed())),
        })
        .collect()
}

/// Configs and launches exist; seeds are there.
fn check_runs(dir: &Path, r: &GroupRuns, at: &str) -> Result<(), (String, String, Option<String>)> {
    if r.configs.is_empty() {
        return Err((format!("{at}configs"), "no config".into(), Some("at least one config file, relative to the study file".into())));
    }
    if r.seeds.is_empty() {
        return Err((format!("{at}seeds"), "no seed".into(), Some("at least one seed".into())));
    }
    for (what, list) in [("configs", &r.configs), ("launches", &r.launches)] {
        for (i, f) in list.iter().enumerate() {
            if !dir.join(f).is_file() {
                return Err((format!("{at}{what}[{i}]"), format!("{f}: no such file (relative to the study file's directory {})", dir.display()), None));
            }
        }
    }
    if let Some(m) = r.max_cycles {
        if m == 0 {
            return Err((format!("{at}max_cycles"), "0 is out of range".into(), Some("1 or more".into())));
        }
    }
    Ok(())
}

/// Every coordinate a run of this study can have.
fn coordinate_keys(groups: &[Group]) -> Vec<String> {
    let mut keys: Vec<String> = FIXED_COORDS.iter().map(|s| s.to_string()).collect();
    for g in groups {
        for r in [Some(&g.full), g.quick.as_ref()].into_iter().flatten() {
            for (k, _) in &r.knobs {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
    }
    keys
}

fn paper_value(v: &Value) -> Option<PaperValue> {
    let num = |v: &Value| match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) if f.is_finite() => Some(*f),
        _ => None,
    };
    match v {
        Value::Array(a) if a.len() == 2 => {
            let (lo, hi) = (num(&a[0])?, num(&a[1])?);
            (lo <= hi).then_some(PaperValue { lo, hi })
        }
        v => num(v).map(|x| PaperValue { lo: x, hi: x }),
    }
}

/// Does a run coordinate `have` match a selector value `want` (numbers by value, a list:
/// any of its elements)?
pub fn matches(want: &Value, have: &Value) -> bool {
    match want {
        Value::Array(a) => a.iter().any(|w| matches(w, have)),
        Value::Integer(i) => match have {
            Value::Integer(j) => i == j,
            Value::Float(f) => *i as f64 == *f,
            _ => false,
        },
        Value::Float(f) => match have {
            Value::Float(g) => f == g,
            Value::Integer(j) => *f == *j as f64,
            _ => false,
        },
        w => w == have,
    }
}

/// Show a coordinate value as the study file would write it (strings bare).
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}
