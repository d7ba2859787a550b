//! Golden-model NoC runs under synthetic traffic: `gpuforge sim <noc config>`.
//!
//! Metrics (spec §5, stated in every report): packet latency = tail ejection -
//! the cycle the packet was handed to the network (includes source and MC
//! queueing); flit latency = ejection - the flit's entry into the network; MC
//! queueing = a reply's head entering the reply network - its hand-over; accepted
//! throughput = delivered 64-bit flits per node per cycle. Packets delivered before
//! `warmup` are not counted.

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

/// One run at one offered load.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Point {
    pub rate: f64,
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
    /// Delivered 64-bit flits per node per cycle.
    pub accepted: f64,
    /// Delivered reply flits per cycle (whole network).
    pub reply_flits_per_cycle: f64,
    /// Packets generated but not delivered at the end (a growing number = saturation).
    pub undelivered: u64,
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
        writeln!(f, "latency: packet = tail ejection - hand-over (incl. queueing); flit = ejection - network entry; cycles")?;
        writeln!(
            f,
            "{:>7} {:>9} {:>8} {:>6} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>8}",
            "rate", "packets", "avg", "p50", "p95", "p99", "request", "reply", "flit", "mc_q", "accepted", "reply/cy", "undeliv"
        )?;
        for p in &self.points {
            writeln!(
                f,
                "{:>7.3} {:>9} {:>8.2} {:>6} {:>6} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9.4} {:>9.4} {:>8}",
                p.rate,
                p.packets,
                p.latency_avg,
                p.latency_p50,
                p.latency_p95,
                p.latency_p99,
                p.request_avg,
                p.reply_avg,
                p.flit_latency_avg,
                p.mc_queueing_avg,
                p.accepted,
                p.reply_flits_per_cycle,
                p.undelivered
            )?;
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
    for cyc in 0..warmup + cycles {
        if cyc == warmup {
            let s = net.noc();
            flits0 = (s.flit_latency_sum, s.flits, s.mc_queueing_sum, s.mc_queueing_n);
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
    let point = Point {
        rate,
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
        accepted: flits as f64 / nodes / cycles as f64,
        reply_flits_per_cycle: rflits as f64 / cycles as f64,
        undelivered: tr.generated - net.dyn_mut().stats().packets_delivered,
    };
    (point, desc)
}

fn svg(points: &[Point], title: &str) -> String {
    let (w, h, m) = (640.0, 420.0, 60.0);
    let xmax = points.iter().map(|p| p.accepted).fold(0.0f64, f64::max).max(1e-3) * 1.1;
    let ymax = points.iter().map(|p| p.latency_avg).fold(0.0f64, f64::max).max(1.0) * 1.1;
    let sx = |x: f64| m + x / xmax * (w - 2.0 * m);
    let sy = |y: f64| h - m - y / ymax * (h - 2.0 * m);
    let mut s = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n");
    s += &format!("<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">{title}</text>\n", w / 2.0);
    s += &format!("<line x1=\"{m}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"black\"/>\n<line x1=\"{m}\" y1=\"{m}\" x2=\"{m}\" y2=\"{y}\" stroke=\"black\"/>\n", y = h - m, x2 = w - m);
    for i in 0..=5 {
        let (xv, yv) = (xmax * i as f64 / 5.0, ymax * i as f64 / 5.0);
        s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{xv:.3}</text>\n", sx(xv), h - m + 16.0);
        s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{yv:.0}</text>\n", m - 6.0, sy(yv) + 4.0);
    }
    s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">accepted throughput (64-bit flits/node/cycle)</text>\n", w / 2.0, h - 16.0);
    s += &format!("<text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">average packet latency (cycles)</text>\n", h / 2.0, h / 2.0);
    let pts: Vec<String> = points.iter().map(|p| format!("{:.1},{:.1}", sx(p.accepted), sy(p.latency_avg))).collect();
    s += &format!("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"{}\"/>\n", pts.join(" "));
    for p in points {
        s += &format!("<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#1f77b4\"><title>offered {}: {:.1} cycles</title></circle>\n", sx(p.accepted), sy(p.latency_avg), p.rate, p.latency_avg);
    }
    s + "</svg>\n"
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
        let mut csv = String::from("rate,packets,latency_avg,latency_p50,latency_p95,latency_p99,latency_max,request_avg,reply_avg,flit_latency_avg,mc_queueing_avg,accepted,reply_flits_per_cycle,undelivered\n");
        for p in &points {
            csv += &format!(
                "{},{},{:.3},{},{},{},{},{:.3},{:.3},{:.3},{:.3},{:.5},{:.5},{}\n",
                p.rate, p.packets, p.latency_avg, p.latency_p50, p.latency_p95, p.latency_p99, p.latency_max, p.request_avg, p.reply_avg, p.flit_latency_avg, p.mc_queueing_avg, p.accepted, p.reply_flits_per_cycle, p.undelivered
            );
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
