//! Golden-model NoC runs under synthetic traffic: `gpuforge sim <noc config>`.
//!
//! Metrics (spec §5, stated in every report): packet latency = tail ejection -
//! the cycle the traffic generator created the packet (includes all source
//! queueing: the generator's unbounded queue, the network's 64-packet source queue,
//! the NI, and MC queueing for replies); source queueing = hand-over to the network -
//! creation; flit latency = ejection - the flit's entry into the network; MC
//! queueing = a reply's head entering the reply network - its hand-over; offered and
//! accepted throughput = 64-bit flits generated and delivered per node per cycle
//! within the measured window. Packets delivered before `warmup` are not counted.
//!
//! **Saturation.** A point is saturated when the network delivers less than
//! [`SATURATION_ACCEPTED`] of the flits offered in the window (accepted < 0.95 x
//! offered): the source queues then grow for as long as the run lasts, and so does
//! latency. This is saturation as Dally and Towles define it (the offered load beyond
//! which accepted throughput stops following it); the 5 % absorbs the flits in flight
//! at the window's edges. A sweep's saturation point is its lowest saturated load.

use std::fmt;
use std::path::PathBuf;

use super::config::NocConfig;
use super::mesh::{BaselineNetwork, MacroNetwork, NocStats};
use super::traffic::{Delivery, Traffic};
use crate::network::{Class, Network};

/// What `gpuforge sim` asks for.
#[derive(Debug, Clone, Default)]
pub struct SimRequest {
    pub seed: u64,
    /// Injection rates (flits/node/cycle) to sweep; empty = the config's own rate.
    pub sweep: Vec<f64>,
    /// Directory for sweep tables (CSV, JSON) and the SVG plot.
    pub out_dir: Option<PathBuf>,
}

/// A point is saturated when accepted throughput is below this fraction of the
/// offered throughput (module doc).
pub const SATURATION_ACCEPTED: f64 = 0.95;

/// One run at one offered load.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Point {
    pub rate: f64,
    /// Generated 64-bit flits per node per cycle in the window (requests and, for
    /// `gpu`, the replies they cause).
    pub offered: f64,
    pub cycles: u64,
    pub packets: u64,
    pub latency_avg: f64,
    pub latency_p50: u64,
    pub latency_p95: u64,
    pub latency_p99: u64,
    pub latency_max: u64,
    pub request_avg: f64,
    pub reply_avg: f64,
    pub flit_latency_avg: f64,
    pub mc_queueing_avg: f64,
    /// Average hand-over - creation of the delivered packets.
    pub source_queueing_avg: f64,
    /// Delivered 64-bit flits per node per cycle.
    pub accepted: f64,
    /// Delivered reply flits per cycle (whole network).
    pub reply_flits_per_cycle: f64,
    /// Packets generated but not delivered at the end (a growing number = saturation).
    pub undelivered: u64,
    /// accepted < SATURATION_ACCEPTED x offered.
    pub saturated: bool,
}

/// Statistics of a run (or a sweep).
#[derive(Debug, Clone, serde::Serialize)]
pub struct SimReport {
    pub network: String,
    pub pattern: String,
    pub seed: u64,
    pub points: Vec<Point>,
    pub files: Vec<String>,
}

impl fmt::Display for SimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} — {} traffic, seed {}", self.network, self.pattern, self.seed)?;
        writeln!(f, "latency: packet = tail ejection - creation (incl. all source queueing); src_q = hand-over - creation; flit = ejection - network entry; cycles")?;
        writeln!(
            f,
            "{:>7} {:>8} {:>9} {:>8} {:>6} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>8}",
            "rate", "offered", "packets", "avg", "p50", "p95", "p99", "request", "reply", "flit", "mc_q", "src_q", "accepted", "reply/cy", "undeliv"
        )?;
        for p in &self.points {
            writeln!(
                f,
                "{:>7.3} {:>8.4} {:>9} {:>8.2} {:>6} {:>6} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9.4} {:>9.4} {:>8}{}",
                p.rate,
                p.offered,
                p.packets,
                p.latency_avg,
                p.latency_p50,
                p.latency_p95,
                p.latency_p99,
                p.request_avg,
                p.reply_avg,
                p.flit_latency_avg,
                p.mc_queueing_avg,
                p.source_queueing_avg,
                p.accepted,
                p.reply_flits_per_cycle,
                p.undelivered,
                if p.saturated { "  saturated" } else { "" }
            )?;
        }
        if self.points.len() > 1 {
            match saturation(&self.points) {
                Some(r) => writeln!(f, "saturation: offered {r} is the lowest saturated load (accepted < {SATURATION_ACCEPTED} x offered)")?,
                None => writeln!(f, "saturation: not reached (accepted >= {SATURATION_ACCEPTED} x offered at every load)")?,
            }
        }
        for file in &self.files {
            writeln!(f, "wrote {file}")?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SimError(pub String);

#[allow(clippy::large_enum_variant, reason = "one network per simulation, never moved in the cycle loop")]
enum Net {
    Base(BaselineNetwork),
    Macro(MacroNetwork),
}

impl Net {
    fn new(c: &NocConfig) -> Net {
        match c.kind {
            super::config::NocKind::Baseline => Net::Base(BaselineNetwork::new(c, 64)),
            super::config::NocKind::Macro => Net::Macro(MacroNetwork::new(c, 64)),
        }
    }

    fn dyn_mut(&mut self) -> &mut dyn Network {
        match self {
            Net::Base(b) => b,
            Net::Macro(m) => m,
        }
    }

    fn noc(&self) -> &NocStats {
        match self {
            Net::Base(b) => b.noc_stats(),
            Net::Macro(m) => m.noc_stats(),
        }
    }
}

/// Run one offered load for `cycles` cycles (after `warmup`).
pub fn run_point(c: &NocConfig, rate: f64, seed: u64, cycles: u64, warmup: u64) -> (Point, String) {
    let mut net = Net::new(c);
    let desc = net.dyn_mut().describe();
    let mut tr = Traffic::new(c, rate, seed);
    let mut dl: Vec<Delivery> = Vec::new();
    let mut flits0 = (0, 0, 0, 0);
    let mut generated0 = 0;
    for cyc in 0..warmup + cycles {
        if cyc == warmup {
            let s = net.noc();
            flits0 = (s.flit_latency_sum, s.flits, s.mc_queueing_sum, s.mc_queueing_n);
            generated0 = tr.generated_flits;
            dl.clear();
        }
        tr.tick(net.dyn_mut(), &mut dl);
    }
    let s = net.noc();
    let mut lats: Vec<u64> = dl.iter().map(|d| d.latency).collect();
    lats.sort_unstable();
    let pct = |q: f64| if lats.is_empty() { 0 } else { lats[((lats.len() - 1) as f64 * q).round() as usize] };
    let avg = |cl: Option<Class>| {
        let v: Vec<u64> = dl.iter().filter(|d| cl.is_none_or(|c| d.class == c)).map(|d| d.latency).collect();
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<u64>() as f64 / v.len() as f64
        }
    };
    let nodes = c.nodes() as f64;
    let flits: u64 = dl.iter().map(|d| d.flits as u64).sum();
    let rflits: u64 = dl.iter().filter(|d| d.class == Class::Reply).map(|d| d.flits as u64).sum();
    let fl = (s.flit_latency_sum - flits0.0, s.flits - flits0.1, s.mc_queueing_sum - flits0.2, s.mc_queueing_n - flits0.3);
    let offered = (tr.generated_flits - generated0) as f64 / nodes / cycles as f64;
    let accepted = flits as f64 / nodes / cycles as f64;
    let point = Point {
        rate,
        offered,
        cycles,
        packets: dl.len() as u64,
        latency_avg: avg(None),
        latency_p50: pct(0.5),
        latency_p95: pct(0.95),
        latency_p99: pct(0.99),
        latency_max: lats.last().copied().unwrap_or(0),
        request_avg: avg(Some(Class::Request)),
        reply_avg: avg(Some(Class::Reply)),
        flit_latency_avg: if fl.1 == 0 { 0.0 } else { fl.0 as f64 / fl.1 as f64 },
        mc_queueing_avg: if fl.3 == 0 { 0.0 } else { fl.2 as f64 / fl.3 as f64 },
        source_queueing_avg: if dl.is_empty() { 0.0 } else { dl.iter().map(|d| d.queued).sum::<u64>() as f64 / dl.len() as f64 },
        accepted,
        reply_flits_per_cycle: rflits as f64 / cycles as f64,
        undelivered: tr.generated - net.dyn_mut().stats().packets_delivered,
        saturated: accepted < SATURATION_ACCEPTED * offered,
    };
    (point, desc)
}

/// The smallest of 1, 2, 5 x 10^k at or above `y` (an axis end).
fn nice(y: f64) -> f64 {
    let k = 10f64.powf(y.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|f| f * k).find(|&v| v >= y).unwrap_or(10.0 * k)
}

/// The sweep's saturation point: its lowest saturated offered load.
pub fn saturation(points: &[Point]) -> Option<f64> {
    points.iter().filter(|p| p.saturated).map(|p| p.rate).reduce(f64::min)
}

/// Latency against offered load, as NoC papers draw it. Saturated points are red; a
/// dashed line marks the saturation point. Past saturation latency grows with the run,
/// so the y axis stops at 4x the highest unsaturated latency and points above it sit
/// on the top edge as triangles, labelled with their latency.
fn svg(points: &[Point], title: &str) -> String {
    let (w, h, m) = (640.0, 420.0, 60.0);
    let mut pts: Vec<&Point> = points.iter().collect();
    pts.sort_by(|a, b| a.rate.total_cmp(&b.rate));
    let xmax = pts.iter().map(|p| p.rate).fold(0.0f64, f64::max).max(1e-3) * 1.1;
    let lat_max = pts.iter().map(|p| p.latency_avg).fold(0.0f64, f64::max).max(1.0);
    let calm = pts.iter().filter(|p| !p.saturated).map(|p| p.latency_avg).fold(0.0f64, f64::max);
    let ymax = nice(if calm > 0.0 { lat_max.min(4.0 * calm) } else { lat_max } * 1.1);
    let sx = |x: f64| m + x / xmax * (w - 2.0 * m);
    let sy = |y: f64| h - m - y.min(ymax) / ymax * (h - 2.0 * m);
    let mut s = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n");
    s += &format!("<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">{title}</text>\n", w / 2.0);
    s += &format!(
        "<line x1=\"{m}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"black\"/>\n<line x1=\"{m}\" y1=\"{m}\" x2=\"{m}\" y2=\"{y}\" stroke=\"black\"/>\n",
        y = h - m,
        x2 = w - m
    );
    for i in 0..=5 {
        let (xv, yv) = (xmax * i as f64 / 5.0, ymax * i as f64 / 5.0);
        s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{xv:.3}</text>\n", sx(xv), h - m + 16.0);
        s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{yv:.0}</text>\n", m - 6.0, sy(yv) + 4.0);
    }
    s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">offered load (flits/node/cycle)</text>\n", w / 2.0, h - 16.0);
    s += &format!("<text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">average packet latency from creation (cycles)</text>\n", h / 2.0, h / 2.0);
    if let Some(r) = saturation(points) {
        let x = sx(r);
        s += &format!("<line class=\"saturation\" x1=\"{x:.1}\" y1=\"{m}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n", h - m);
        s += &format!("<text x=\"{:.1}\" y=\"{}\" fill=\"#d62728\">saturation {r}</text>\n", x + 4.0, h - m - 8.0);
    }
    let line: Vec<String> = pts.iter().map(|p| format!("{:.1},{:.1}", sx(p.rate), sy(p.latency_avg))).collect();
    s += &format!("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"{}\"/>\n", line.join(" "));
    for p in &pts {
        let (x, y, colour) = (sx(p.rate), sy(p.latency_avg), if p.saturated { "#d62728" } else { "#1f77b4" });
        let tip = format!("<title>offered {}: {:.1} cycles, accepted {:.4}{}</title>", p.rate, p.latency_avg, p.accepted, if p.saturated { ", saturated" } else { "" });
        if p.latency_avg > ymax {
            s += &format!("<path d=\"M{:.1},{:.1} l-5,8 h10 z\" fill=\"{colour}\">{tip}</path>\n", x, y);
            s += &format!("<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{colour}\">{:.0}</text>\n", x, y - 4.0, p.latency_avg);
        } else {
            s += &format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"{colour}\">{tip}</circle>\n");
        }
    }
    s + "</svg>\n"
}

/// The sweep CSV's columns, name and value (one list, so header and rows agree).
fn csv_fields(p: &Point) -> [(&'static str, String); 17] {
    let f3 = |x: f64| format!("{x:.3}");
    let f5 = |x: f64| format!("{x:.5}");
    [
        ("rate", p.rate.to_string()),
        ("offered", f5(p.offered)),
        ("packets", p.packets.to_string()),
        ("latency_avg", f3(p.latency_avg)),
        ("latency_p50", p.latency_p50.to_string()),
        ("latency_p95", p.latency_p95.to_string()),
        ("latency_p99", p.latency_p99.to_string()),
        ("latency_max", p.latency_max.to_string()),
        ("request_avg", f3(p.request_avg)),
        ("reply_avg", f3(p.reply_avg)),
        ("flit_latency_avg", f3(p.flit_latency_avg)),
        ("mc_queueing_avg", f3(p.mc_queueing_avg)),
        ("source_queueing_avg", f3(p.source_queueing_avg)),
        ("accepted", f5(p.accepted)),
        ("reply_flits_per_cycle", f5(p.reply_flits_per_cycle)),
        ("undelivered", p.undelivered.to_string()),
        ("saturated", p.saturated.to_string()),
    ]
}

fn write_atomic(path: &std::path::Path, text: &str) -> Result<(), SimError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, path)).map_err(|e| SimError(format!("{}: {e}", path.display())))
}

pub fn run(cfg: &NocConfig, req: &SimRequest) -> Result<SimReport, SimError> {
    let rates = if req.sweep.is_empty() { vec![cfg.traffic.rate] } else { req.sweep.clone() };
    if let Some(r) = rates.iter().find(|r| !(**r >= 0.0 && **r <= 1.0)) {
        return Err(SimError(format!("--sweep: rate {r} is out of range (allowed: 0..=1)")));
    }
    let mut points = Vec::new();
    let mut network = String::new();
    for &r in &rates {
        let (p, d) = run_point(cfg, r, req.seed, cfg.traffic.cycles - cfg.traffic.warmup, cfg.traffic.warmup);
        network = d;
        points.push(p);
    }
    let mut files = Vec::new();
    if let Some(dir) = &req.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| SimError(format!("{}: {e}", dir.display())))?;
        let mut csv = csv_fields(&Point::default()).map(|(name, _)| name).join(",") + "\n";
        for p in &points {
            csv += &(csv_fields(p).map(|(_, value)| value).join(",") + "\n");
        }
        let c = dir.join("sweep.csv");
        write_atomic(&c, &csv)?;
        let j = dir.join("sweep.json");
        write_atomic(&j, &(serde_json::to_string_pretty(&points).expect("json") + "\n"))?;
        let s = dir.join("sweep.svg");
        write_atomic(&s, &svg(&points, &network))?;
        files = vec![c.display().to_string(), j.display().to_string(), s.display().to_string()];
    }
    Ok(SimReport { network, pattern: format!("{:?}", cfg.traffic.pattern).to_lowercase(), seed: req.seed, points, files })
}
