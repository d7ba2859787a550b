//! What a person reads after a study: `results.csv` and `results.json` (a row per run,
//! every statistic flattened), one SVG per `[[figure]]`, and `report.md` (the
//! paper-vs-measured table with its tolerance bands and, outside them, the study's
//! stated reason). Everything here is a function of the plan and the results, so the
//! same study gives the same bytes; timings go to the terminal, not into these files.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use super::def::{self, FigureSpec, Measure};
use super::exec::RunResult;
use super::figure::{self, BarGroup, Series};
use super::measure::{self, Outcome, Verdict};
use super::plan::{Plan, Run};

/// A run's row: coordinates, status, every statistic.
struct Row<'a> {
    run: &'a Run,
    status: &'static str,
    error: String,
    stats: Vec<(String, serde_json::Value)>,
}

fn rows<'a>(plan: &'a Plan, results: &[Option<RunResult>]) -> Vec<Row<'a>> {
    plan.runs
        .iter()
        .map(|r| match &results[r.index] {
            None => Row { run: r, status: "missing", error: String::new(), stats: Vec::new() },
            Some(res) => {
                Row { run: r, status: if res.failure.is_some() { "failed" } else { "ok" }, error: res.failure.clone().unwrap_or_default(), stats: measure::flatten(&res.json) }
            }
        })
        .collect()
}

/// Keys in first-seen order over the rows.
fn union<'a>(lists: impl Iterator<Item = Vec<&'a str>>) -> Vec<String> {
    let mut seen = Vec::<String>::new();
    for l in lists {
        for k in l {
            if !seen.iter().any(|s| s == k) {
                seen.push(k.to_string());
            }
        }
    }
    seen
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn json_scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

pub fn csv(plan: &Plan, results: &[Option<RunResult>]) -> String {
    let rows = rows(plan, results);
    let knobs = union(plan.runs.iter().map(|r| r.knobs.iter().map(|(k, _)| k.as_str()).collect()));
    let stats = union(rows.iter().map(|r| r.stats.iter().map(|(k, _)| k.as_str()).collect()));
    let mut head: Vec<String> = ["index", "group", "config", "launch", "seed"].iter().map(|s| s.to_string()).collect();
    head.extend(knobs.iter().cloned());
    head.extend(["status".to_string(), "error".to_string()]);
    // a statistic named like a coordinate column (the NoC's `seed`, the GPU's `config`)
    // is told apart by a prefix
    let stat_heads: Vec<String> = stats.iter().map(|k| if head.contains(k) { format!("json.{k}") } else { k.clone() }).collect();
    head.extend(stat_heads);
    let mut out = head.iter().map(|h| csv_field(h)).collect::<Vec<_>>().join(",") + "\n";
    for row in &rows {
        let r = row.run;
        let mut f = vec![r.index.to_string(), r.group.clone(), r.config.clone(), r.launch.clone().unwrap_or_default(), r.seed.to_string()];
        f.extend(knobs.iter().map(|k| r.knobs.iter().find(|(x, _)| x == k).map(|(_, v)| def::show(v)).unwrap_or_default()));
        f.extend([row.status.to_string(), row.error.clone()]);
        let by: BTreeMap<&str, &serde_json::Value> = row.stats.iter().map(|(k, v)| (k.as_str(), v)).collect();
        f.extend(stats.iter().map(|k| by.get(k.as_str()).map(|v| json_scalar(v)).unwrap_or_default()));
        out += &(f.iter().map(|x| csv_field(x)).collect::<Vec<_>>().join(",") + "\n");
    }
    out
}

fn toml_to_json(v: &def::Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

pub fn json(plan: &Plan, results: &[Option<RunResult>]) -> String {
    let rows: Vec<serde_json::Value> = rows(plan, results)
        .into_iter()
        .map(|row| {
            let r = row.run;
            let knobs: serde_json::Map<String, serde_json::Value> = r.knobs.iter().map(|(k, v)| (k.clone(), toml_to_json(v))).collect();
            let stats: serde_json::Map<String, serde_json::Value> = row.stats.into_iter().collect();
            serde_json::json!({
                "index": r.index, "group": r.group, "config": r.config, "launch": r.launch, "seed": r.seed,
                "knobs": knobs, "hash": r.hash, "status": row.status,
                "error": if row.error.is_empty() { serde_json::Value::Null } else { row.error.into() },
                "stats": stats,
            })
        })
        .collect();
    let measures: Vec<serde_json::Value> = plan
        .study
        .measures
        .iter()
        .map(|m| {
            let (value, n, verdict, note) = match measure::evaluate(m, plan, results) {
                Outcome::Measured { value, n, verdict } => (serde_json::json!(value), n, verdict_word(&verdict), None),
                Outcome::NotMeasured(why) => (serde_json::Value::Null, 0, "not measured", Some(why)),
            };
            serde_json::json!({
                "name": m.name, "label": m.label, "unit": m.unit, "stat": m.stat, "divide_by": m.divide_by, "reduce": m.reduce.name(),
                "paper": m.paper.map(|p| [p.lo, p.hi]), "band": m.band().map(|b| [b.0, b.1]), "source": m.source,
                "measured": value, "runs": n, "verdict": verdict, "note": note, "reason": m.reason,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "study": plan.study.name, "quick": plan.quick, "gpuforge": env!("CARGO_PKG_VERSION"), "model_version": golden::MODEL_VERSION,
        "measures": measures, "runs": rows,
    });
    serde_json::to_string_pretty(&doc).expect("json") + "\n"
}

fn verdict_word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Within => "within",
        Verdict::Outside => "outside",
        Verdict::NoPaper => "no paper number",
    }
}

/// Four significant digits, trailing zeros dropped (`14.8`, `0.4456`, `476`, `1.2e-4`).
pub fn show_value(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || !v.is_finite() {
        return v.to_string();
    }
    if a >= 1000.0 {
        return format!("{v:.0}");
    }
    if a < 1e-3 {
        return format!("{v:.3e}");
    }
    let decimals = (3 - a.log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn show_paper(m: &Measure) -> String {
    match m.paper {
        None => "—".into(),
        Some(p) if p.lo == p.hi => show_value(p.lo),
        Some(p) => format!("{}–{}", show_value(p.lo), show_value(p.hi)),
    }
}

fn show_band(m: &Measure) -> String {
    m.band().map(|(lo, hi)| format!("[{}, {}]", show_value(lo), show_value(hi))).unwrap_or_else(|| "—".into())
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// One line per measure for the terminal: label, paper, band, measured, verdict.
pub fn summary_lines(plan: &Plan, results: &[Option<RunResult>]) -> Vec<String> {
    plan.study
        .measures
        .iter()
        .map(|m| {
            let got = match measure::evaluate(m, plan, results) {
                Outcome::Measured { value, verdict, .. } => format!("{} ({})", show_value(value), verdict_word(&verdict)),
                Outcome::NotMeasured(why) => match (&m.stat, &m.reason) {
                    (None, Some(r)) => format!("not yet measured: {r}"),
                    _ => format!("not measured: {why}"),
                },
            };
            format!("  {:<58} paper {:<12} band {:<20} measured {got}", m.label, show_paper(m), show_band(m))
        })
        .collect()
}

pub fn markdown(plan: &Plan, results: &[Option<RunResult>], figures: &[String]) -> String {
    let st = &plan.study;
    let mut s = String::new();
    let _ = writeln!(s, "# {}{}\n", st.title, if plan.quick { " (--quick)" } else { "" });
    let _ = writeln!(s, "Paper: {} (seed {}{}). Reproduces: {}.\n", st.paper, st.seed_file, st.spec.as_ref().map(|x| format!(", spec {x}")).unwrap_or_default(), st.reproduces);
    let (ok, failed, missing) = results.iter().fold((0, 0, 0), |(o, f, m), r| match r {
        None => (o, f, m + 1),
        Some(r) if r.failure.is_some() => (o, f + 1, m),
        Some(_) => (o + 1, f, m),
    });
    let _ = writeln!(
        s,
        "Runs: {} ({ok} passed, {failed} failed, {missing} not run), gpuforge {}, model version {}. Every run's statistics: `results.csv`, `results.json`.\n",
        plan.runs.len(),
        env!("CARGO_PKG_VERSION"),
        golden::MODEL_VERSION
    );
    for n in &st.notes {
        let _ = writeln!(s, "{n}\n");
    }
    let _ = writeln!(s, "## Paper vs measured\n");
    let _ = writeln!(s, "| measure | paper | band | measured | runs | verdict | source |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    let mut reasons = Vec::new();
    let mut unmeasured = Vec::new();
    for m in &st.measures {
        let unit = if m.unit.is_empty() { String::new() } else { format!(" ({})", m.unit) };
        let stat = m.stat.as_deref().unwrap_or("");
        let how = match (&m.over, &m.divide_by, m.stat.is_some()) {
            (Some(o), None, _) => format!("; {} of `{stat}` over the run with {}", m.reduce.name(), measure::show_select(o)),
            (Some(o), Some(by), _) => format!("; {} of `{stat}` over `{by}` of the run with {}", m.reduce.name(), measure::show_select(o)),
            (None, Some(by), _) => format!("; {} of `{stat}` / `{by}`", m.reduce.name()),
            (None, None, true) => format!("; {} of `{stat}`", m.reduce.name()),
            (None, None, false) => String::new(),
        };
        let label = if m.stat.is_some() { format!("{}{unit}<br><sub>{}{how}</sub>", m.label, measure::show_select(&m.select)) } else { format!("{}{unit}", m.label) };
        let (measured, n, verdict) = match measure::evaluate(m, plan, results) {
            Outcome::Measured { value, n, verdict } => {
                if verdict == Verdict::Outside {
                    reasons.push((m, value));
                }
                (show_value(value), n.to_string(), verdict_word(&verdict).to_string())
            }
            Outcome::NotMeasured(why) => {
                unmeasured.push((m, why.clone()));
                ("—".to_string(), "0".to_string(), "not measured".to_string())
            }
        };
        let verdict = match verdict.as_str() {
            "within" => "✓ within".to_string(),
            "outside" => "✗ outside".to_string(),
            v => v.to_string(),
        };
        let _ = writeln!(s, "| {} | {} | {} | {measured} | {n} | {verdict} | {} |", md_cell(&label), show_paper(m), show_band(m), md_cell(m.source.as_deref().unwrap_or("—")));
    }
    if !reasons.is_empty() {
        let _ = writeln!(s, "\n## Outside the band, and why\n");
        for (m, v) in reasons {
            let why = m.reason.as_deref().unwrap_or("no reason stated in the study file");
            let _ = writeln!(s, "* **{}**: measured {}, paper {} (band {}). {}", m.label, show_value(v), show_paper(m), show_band(m), md_cell(why));
        }
    }
    if !unmeasured.is_empty() {
        let _ = writeln!(s, "\n## Not measured\n");
        for (m, why) in unmeasured {
            let reason = m.reason.as_deref().map(|r| format!(": {}", r.trim_end_matches('.'))).unwrap_or_default();
            let _ = writeln!(s, "* **{}** (paper {}): {why}{}.", m.label, show_paper(m), md_cell(&reason));
        }
    }
    let failures: Vec<(&Run, &str)> = plan.runs.iter().filter_map(|r| results[r.index].as_ref().and_then(|x| x.failure.as_deref()).map(|f| (r, f))).collect();
    if !failures.is_empty() {
        let _ = writeln!(s, "\n## Failed runs\n");
        for (r, f) in failures {
            let _ = writeln!(s, "* run {} ({}): {}", r.index, r.label(), md_cell(f));
        }
    }
    if !figures.is_empty() {
        let _ = writeln!(s, "\n## Figures\n");
        for f in figures {
            let _ = writeln!(s, "![{f}]({f})\n");
        }
    }
    s
}

/// Each figure's SVG, by file name.
pub fn figures(plan: &Plan, results: &[Option<RunResult>]) -> Vec<(String, String)> {
    plan.study
        .figures
        .iter()
        .map(|f| {
            let svg = match &f.spec {
                FigureSpec::Bars { measures } => {
                    let groups: Vec<BarGroup> = measures
                        .iter()
                        .filter_map(|n| plan.study.measures.iter().find(|m| &m.name == n))
                        .map(|m| BarGroup {
                            label: m.label.clone(),
                            paper: m.paper.map(|p| (p.lo, p.hi)),
                            band: m.band(),
                            measured: match measure::evaluate(m, plan, results) {
                                Outcome::Measured { value, .. } => Some(value),
                                Outcome::NotMeasured(_) => None,
                            },
                        })
                        .collect();
                    let unit = measures.iter().filter_map(|n| plan.study.measures.iter().find(|m| &m.name == n)).map(|m| m.unit.as_str()).next().unwrap_or("");
                    figure::bars(&f.title, unit, &groups)
                }
                FigureSpec::Curve { x, y, series, select, x_label, y_label, log_x } => {
                    figure::curve(&f.title, x_label, y_label, &curve_series(plan, results, x, y, series, select), *log_x)
                }
            };
            (format!("{}.svg", f.name), svg)
        })
        .collect()
}

/// Points (mean of `y` over the runs that share a series value and an `x`), sorted by x.
fn curve_series(plan: &Plan, results: &[Option<RunResult>], x: &str, y: &str, series: &str, select: &def::Select) -> Vec<Series> {
    // per series: x (by its bits) -> (x, sum of y, runs)
    type Points = BTreeMap<u64, (f64, f64, usize)>;
    let mut by: Vec<(String, Points)> = Vec::new();
    for r in plan.runs.iter().filter(|r| r.selected(select)) {
        let Some(res) = results[r.index].as_ref().filter(|x| x.failure.is_none()) else { continue };
        let (Ok(xv), Ok(yv)) = (measure::coordinate_or_stat(r, res, x), measure::stat(&res.json, y)) else { continue };
        let name = r.coords().get(series).map(def::show).unwrap_or_default();
        let i = match by.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                by.push((name, BTreeMap::new()));
                by.len() - 1
            }
        };
        // f64 x values as ordered keys: their bits order like the values for x >= 0
        let e = by[i].1.entry(xv.to_bits()).or_insert((xv, 0.0, 0));
        e.1 += yv;
        e.2 += 1;
    }
    by.into_iter()
        .map(|(name, pts)| {
            let mut points: Vec<(f64, f64)> = pts.into_values().map(|(x, sum, n)| (x, sum / n as f64)).collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            Series { name, points }
        })
        .collect()
}

/// Write every output (temp file, then rename, each), returning the paths written.
pub fn write_all(out: &Path, plan: &Plan, results: &[Option<RunResult>]) -> std::io::Result<Vec<PathBuf>> {
    let figs = figures(plan, results);
    let names: Vec<String> = figs.iter().map(|(n, _)| n.clone()).collect();
    let mut files =
        vec![("results.csv".to_string(), csv(plan, results)), ("results.json".to_string(), json(plan, results)), ("report.md".to_string(), markdown(plan, results, &names))];
    files.extend(figs);
    std::fs::create_dir_all(out)?;
    let mut written = Vec::new();
    for (name, text) in files {
        let p = out.join(&name);
        let tmp = out.join(format!(".{name}.tmp{}", std::process::id()));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &p)?;
        written.push(p);
    }
    Ok(written)
}
