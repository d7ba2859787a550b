//! From run results to the study's numbers: a statistic by its dotted path in a run's
//! JSON (or the ratio of two), a measure's selection of runs (or pairs of runs for a
//! ratio), its reduction
//! (mean, geomean, min, max) and where it falls against the paper's tolerance band.

use super::def::{self, Measure, Reduce};
use super::exec::RunResult;
use super::plan::{Plan, Run};

/// Every scalar of a JSON value as (dotted path, value), in document order; arrays by
/// index (`points.0.latency_avg`), maps by key (`events.fires.FADD`).
pub fn flatten(v: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    fn walk(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, serde_json::Value)>) {
        let join = |k: &str| if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") };
        match v {
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| walk(&join(k), x, out)),
            serde_json::Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| walk(&join(&i.to_string()), x, out)),
            serde_json::Value::Null => {}
            s => out.push((prefix.to_string(), s.clone())),
        }
    }
    let mut out = Vec::new();
    walk("", v, &mut out);
    out
}

/// The number at a dotted path of a run's JSON. An object's key may itself hold dots
/// (the hook counters: `hooks.qcache.cpu.dram_reads` is key `qcache.cpu.dram_reads` of
/// `hooks`): where a part is not a key, it is joined with the next parts until one is.
pub fn stat(json: &serde_json::Value, path: &str) -> Result<f64, String> {
    let mut v = json;
    let parts: Vec<&str> = path.split('.').collect();
    let mut i = 0;
    while i < parts.len() {
        let part = parts[i];
        i += 1;
        v = match v {
            serde_json::Value::Object(m) => m.get(part).or_else(|| (i..parts.len()).find_map(|j| m.get(&parts[i - 1..=j].join(".")).inspect(|_| i = j + 1))),
            serde_json::Value::Array(a) => part.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        }
        .ok_or_else(|| {
            let have: Vec<String> = flatten(json).into_iter().filter(|(_, x)| x.is_number()).map(|(k, _)| k).take(12).collect();
            format!("no statistic `{path}` in the run's JSON (numbers there: {}, ...)", have.join(", "))
        })?;
    }
    match v {
        serde_json::Value::Number(n) => n.as_f64().ok_or_else(|| format!("`{path}` is not a finite number")),
        serde_json::Value::Bool(b) => Ok(*b as u8 as f64),
        other => Err(format!("`{path}` is {other}, not a number")),
    }
}

/// A run's value of a coordinate (a knob, `seed`, ...) or, failing that, a statistic.
pub fn coordinate_or_stat(run: &Run, res: &RunResult, key: &str) -> Result<f64, String> {
    match run.coords().get(key) {
        Some(def::Value::Integer(i)) => Ok(*i as f64),
        Some(def::Value::Float(f)) => Ok(*f),
        Some(other) => Err(format!("coordinate `{key}` is {other}, not a number")),
        None => stat(&res.json, key),
    }
}

/// Where a measured value falls.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Within,
    Outside,
    /// No paper number to compare with.
    NoPaper,
}

/// A measure's outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The value and how many runs (or run pairs) it reduces.
    Measured { value: f64, n: usize, verdict: Verdict },
    /// Not measured, and why (no statistic in the study yet, no run selected, a run failed).
    NotMeasured(String),
}

/// Evaluate a measure over the plan's results.
pub fn evaluate(m: &Measure, plan: &Plan, results: &[Option<RunResult>]) -> Outcome {
    let Some(path) = &m.stat else {
        return Outcome::NotMeasured("not yet measured".into());
    };
    let chosen: Vec<&Run> = plan.runs.iter().filter(|r| r.selected(&m.select)).collect();
    if chosen.is_empty() {
        let mode = if plan.quick { "--quick" } else { "the full study" };
        return Outcome::NotMeasured(format!("no run of {mode} matches {}", show_select(&m.select)));
    }
    let value_of = |r: &Run, path: &str| -> Result<f64, String> {
        match &results[r.index] {
            None => Err(format!("run {} ({}) has not run yet", r.index, r.label())),
            Some(res) => match &res.failure {
                Some(f) => Err(format!("run {} ({}) failed: {f}", r.index, r.label())),
                None => stat(&res.json, path),
            },
        }
    };
    let divisor = |r: &Run, path: &str| -> Result<f64, String> {
        let b = value_of(r, path)?;
        if b == 0.0 && m.divide_by.is_some() {
            return Err(format!("`{path}` is 0 in run {} ({}): nothing to divide by", r.index, r.label()));
        }
        Ok(b)
    };
    let mut values = Vec::new();
    for r in &chosen {
        let v = match (&m.over, &m.divide_by) {
            (None, None) => value_of(r, path),
            (None, Some(by)) => value_of(r, path).and_then(|a| divisor(r, by).map(|b| a / b)),
            (Some(over), by) => match denominator(plan, r, over) {
                Err(e) => Err(e),
                Ok(d) => value_of(r, path).and_then(|a| divisor(d, by.as_deref().unwrap_or(path)).map(|b| a / b)),
            },
        };
        match v {
            Ok(x) => values.push(x),
            Err(e) => return Outcome::NotMeasured(e),
        }
    }
    let value = match reduce(m.reduce, &values) {
        Ok(v) => v,
        Err(e) => return Outcome::NotMeasured(e),
    };
    let verdict = match m.band() {
        None => Verdict::NoPaper,
        Some((lo, hi)) if value >= lo && value <= hi => Verdict::Within,
        Some(_) => Verdict::Outside,
    };
    Outcome::Measured { value, n: values.len(), verdict }
}

/// The run a ratio divides by: it agrees with `r` on every coordinate both have, except
/// the ones in `over`, which it matches instead.
fn denominator<'p>(plan: &'p Plan, r: &Run, over: &def::Select) -> Result<&'p Run, String> {
    let mine = r.coords();
    let found: Vec<&Run> = plan
        .runs
        .iter()
        .filter(|d| {
            let theirs = d.coords();
            over.iter().all(|(k, want)| theirs.get(k).is_some_and(|have| def::matches(want, have)))
                && theirs.iter().all(|(k, v)| over.contains_key(k) || mine.get(k).is_none_or(|m| m == v))
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(format!("no run to divide run {} ({}) by: none differs only in {}{}", r.index, r.label(), show_select(over), if plan.quick { " in --quick" } else { "" })),
        many => Err(format!(
            "run {} ({}) has {} runs to divide by ({}...); narrow `over` or `where`",
            r.index,
            r.label(),
            many.len(),
            many.iter().take(3).map(|d| d.label()).collect::<Vec<_>>().join("; ")
        )),
    }
}

pub fn reduce(how: Reduce, v: &[f64]) -> Result<f64, String> {
    if v.is_empty() {
        return Err("no value to reduce".into());
    }
    Ok(match how {
        Reduce::Mean => v.iter().sum::<f64>() / v.len() as f64,
        Reduce::Geomean => {
            if let Some(bad) = v.iter().find(|x| **x <= 0.0 || !x.is_finite()) {
                return Err(format!("geomean of a value {bad} that is not positive"));
            }
            (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
        }
        Reduce::Min => v.iter().copied().fold(f64::INFINITY, f64::min),
        Reduce::Max => v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    })
}

pub fn show_select(s: &def::Select) -> String {
    if s.is_empty() {
        return "every run".into();
    }
    s.iter().map(|(k, v)| format!("{k} = {}", def::show(v))).collect::<Vec<_>>().join(", ")
}
