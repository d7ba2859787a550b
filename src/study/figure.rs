//! The study's SVG figures, written by hand so that the same results give the same
//! bytes: line plots (a latency-throughput curve per network) and grouped bars (the
//! paper's value, with its tolerance band, beside ours).

use std::fmt::Write;

const W: f64 = 720.0;
const H: f64 = 440.0;
const LEFT: f64 = 72.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 64.0;
/// Width of a bar group, and how many characters of its label fit on one line.
const GROUP_W: f64 = 120.0;
const LABEL_CHARS: usize = 18;
const COLORS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

/// One line of a curve plot.
pub struct Series {
    pub name: String,
    /// (x, y), drawn in order.
    pub points: Vec<(f64, f64)>,
}

/// One group of a bar chart.
pub struct BarGroup {
    pub label: String,
    /// The paper's value or range.
    pub paper: Option<(f64, f64)>,
    /// The tolerance band drawn around the paper's bar.
    pub band: Option<(f64, f64)>,
    pub measured: Option<f64>,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Round numbers covering [lo, hi]: about five steps of 1, 2 or 5 times a power of ten.
pub fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// Three significant digits (bar labels).
pub fn sig3(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return num(v);
    }
    let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.digits$}")
}

/// An axis label: at most four decimals, trailing zeros trimmed; an exponent outside
/// 0.001..100,000.
pub fn num(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        format!("{v:.1e}")
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The picture's size, the plot area inside it and its axes, mapping data to pixels.
struct Frame {
    w: f64,
    h: f64,
    bottom: f64,
    x: (f64, f64),
    y: (f64, f64),
    log_x: bool,
}

impl Frame {
    fn new(x: (f64, f64), y: (f64, f64), log_x: bool) -> Frame {
        Frame { w: W, h: H, bottom: BOTTOM, x, y, log_x }
    }
    fn px(&self, x: f64) -> f64 {
        let (a, b, v) = if self.log_x { (self.x.0.log10(), self.x.1.log10(), x.log10()) } else { (self.x.0, self.x.1, x) };
        LEFT + (v - a) / (b - a).max(f64::MIN_POSITIVE) * (self.w - LEFT - RIGHT)
    }
    fn py(&self, y: f64) -> f64 {
        self.h - self.bottom - (y - self.y.0) / (self.y.1 - self.y.0).max(f64::MIN_POSITIVE) * (self.h - TOP - self.bottom)
    }
}

fn header(s: &mut String, f: &Frame, title: &str) {
    let (w, h) = (f.w, f.h);
    let _ = writeln!(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">");
    let _ = writeln!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>");
    let _ = writeln!(s, "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>", (LEFT + w - RIGHT) / 2.0, esc(title));
}

/// Words of `s` in lines of at most `n` characters (a longer word gets its own line).
pub fn wrap(s: &str, n: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= n => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Axes with grid lines; `x_ticks` as (position, label; a label may wrap).
fn axes(s: &mut String, f: &Frame, x_ticks: &[(f64, String)], y_ticks: &[f64], x_label: &str, y_label: &str) {
    let (x0, x1, y0, y1) = (LEFT, f.w - RIGHT, TOP, f.h - f.bottom);
    for &t in y_ticks {
        let y = f.py(t);
        let _ = writeln!(s, "<line x1=\"{x0}\" y1=\"{y:.1}\" x2=\"{x1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>");
        let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>", x0 - 6.0, y + 4.0, num(t));
    }
    for (x, label) in x_ticks {
        for (i, line) in label.lines().enumerate() {
            let _ = writeln!(s, "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>", y1 + 16.0 + 14.0 * i as f64, esc(line));
        }
    }
    let _ = writeln!(s, "<path d=\"M{x0} {y0} V{y1} H{x1}\" fill=\"none\" stroke=\"black\"/>");
    let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>", (x0 + x1) / 2.0, f.h - 18.0, esc(x_label));
    let cy = (y0 + y1) / 2.0;
    let _ = writeln!(s, "<text x=\"18\" y=\"{cy:.1}\" transform=\"rotate(-90 18 {cy:.1})\" text-anchor=\"middle\">{}</text>", esc(y_label));
}

fn legend(s: &mut String, f: &Frame, entries: &[(String, &str)]) {
    for (i, (name, color)) in entries.iter().enumerate() {
        let y = TOP + 10.0 + 20.0 * i as f64;
        let x = f.w - RIGHT + 16.0;
        let _ = writeln!(s, "<rect x=\"{x}\" y=\"{:.1}\" width=\"14\" height=\"10\" fill=\"{color}\"/>", y - 9.0);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{y:.1}\">{}</text>", x + 20.0, esc(name));
    }
}

/// Lines of y against x, one per series, with a legend.
pub fn curve(title: &str, x_label: &str, y_label: &str, series: &[Series], log_x: bool) -> String {
    let pts = || series.iter().flat_map(|s| s.points.iter().copied()).filter(|(x, y)| x.is_finite() && y.is_finite() && (!log_x || *x > 0.0));
    let (xmin, xmax) = pts().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (x, _)| (a.min(x), b.max(x)));
    let ymax = pts().fold(0.0f64, |a, (_, y)| a.max(y));
    let mut s = String::new();
    if !xmin.is_finite() {
        header(&mut s, &Frame::new((0.0, 1.0), (0.0, 1.0), false), title);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no data</text>\n</svg>", W / 2.0, H / 2.0);
        return s;
    }
    let yt = ticks(0.0, if ymax > 0.0 { ymax } else { 1.0 });
    let (xlo, xhi) = if log_x {
        (10f64.powf(xmin.log10().floor()), 10f64.powf(xmax.log10().ceil().max(xmin.log10().floor() + 1.0)))
    } else {
        let t = ticks(xmin.min(0.0), if xmax > xmin.min(0.0) { xmax } else { xmin.min(0.0) + 1.0 });
        (t[0], *t.last().expect("ticks"))
    };
    let f = Frame::new((xlo, xhi), (yt[0], *yt.last().expect("ticks")), log_x);
    header(&mut s, &f, title);
    let xt: Vec<(f64, String)> = if log_x {
        let (a, b) = (xlo.log10().round() as i32, xhi.log10().round() as i32);
        (a..=b).map(|e| (f.px(10f64.powi(e)), num(10f64.powi(e)))).collect()
    } else {
        ticks(xlo, xhi).into_iter().map(|t| (f.px(t), num(t))).collect()
    };
    axes(&mut s, &f, &xt, &yt, x_label, y_label);
    let mut entries = Vec::new();
    for (i, se) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let p: Vec<String> =
            se.points.iter().filter(|(x, y)| x.is_finite() && y.is_finite() && (!log_x || *x > 0.0)).map(|(x, y)| format!("{:.1},{:.1}", f.px(*x), f.py(*y))).collect();
        let _ = writeln!(s, "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>", p.join(" "));
        for (x, y) in &se.points {
            if x.is_finite() && y.is_finite() && (!log_x || *x > 0.0) {
                let _ = writeln!(
                    s,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{color}\"><title>{}: ({}, {})</title></circle>",
                    f.px(*x),
                    f.py(*y),
                    esc(&se.name),
                    num(*x),
                    num(*y)
                );
            }
        }
        entries.push((se.name.clone(), color));
    }
    legend(&mut s, &f, &entries);
    s + "</svg>\n"
}

/// Grouped bars: per group the paper's value (grey, its band as a whisker) and ours
/// (blue); a missing value is written as such under its slot.
pub fn bars(title: &str, y_label: &str, groups: &[BarGroup]) -> String {
    let top = groups.iter().flat_map(|g| [g.paper.map(|p| p.1), g.band.map(|b| b.1), g.measured]).flatten().filter(|v| v.is_finite()).fold(0.0f64, f64::max);
    let yt = ticks(0.0, if top > 0.0 { top } else { 1.0 });
    let labels: Vec<Vec<String>> = groups.iter().map(|g| wrap(&g.label, LABEL_CHARS)).collect();
    let lines = labels.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let mut f = Frame::new((0.0, groups.len().max(1) as f64), (yt[0], *yt.last().expect("ticks")), false);
    f.w = W.max(LEFT + RIGHT + GROUP_W * groups.len() as f64);
    f.bottom = BOTTOM + 14.0 * (lines - 1) as f64;
    f.h = H + 14.0 * (lines - 1) as f64;
    let mut s = String::new();
    header(&mut s, &f, title);
    let xt: Vec<(f64, String)> = labels.iter().enumerate().map(|(i, l)| (f.px(i as f64 + 0.5), l.join("\n"))).collect();
    axes(&mut s, &f, &xt, &yt, "", y_label);
    let slot = (f.px(1.0) - f.px(0.0)) * 0.35;
    for (i, g) in groups.iter().enumerate() {
        let c = f.px(i as f64 + 0.5);
        let bar = |s: &mut String, x: f64, v: Option<f64>, color: &str, what: &str| match v {
            Some(v) if v.is_finite() => {
                let (y, base) = (f.py(v.max(f.y.0)), f.py(f.y.0));
                let _ = writeln!(s, "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{slot:.1}\" height=\"{:.1}\" fill=\"{color}\"><title>{what}: {}</title></rect>", base - y, num(v));
                let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\">{}</text>", x + slot / 2.0, y - 4.0, sig3(v));
            }
            _ => {
                let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\" fill=\"#888\">n/a</text>", x + slot / 2.0, f.py(f.y.0) - 6.0);
            }
        };
        let paper = g.paper.map(|(lo, hi)| (lo + hi) / 2.0);
        bar(&mut s, c - slot, paper, "#999", "paper");
        bar(&mut s, c, g.measured, COLORS[0], "measured");
        if let Some((lo, hi)) = g.band {
            let x = c - slot / 2.0;
            let _ = writeln!(
                s,
                "<path d=\"M{:.1} {:.1} H{:.1} M{x:.1} {:.1} V{:.1} M{:.1} {:.1} H{:.1}\" stroke=\"black\"/>",
                x - 5.0,
                f.py(hi),
                x + 5.0,
                f.py(hi),
                f.py(lo.max(f.y.0)),
                x - 5.0,
                f.py(lo.max(f.y.0)),
                x + 5.0
            );
        }
    }
    legend(&mut s, &f, &[("paper (band: tolerance)".into(), "#999"), ("measured".into(), COLORS[0])]);
    s + "</svg>\n"
}
