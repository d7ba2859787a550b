//! Latency counted from packet creation (issue 10): past saturation the average
//! latency grows with the offered load and with the length of the run (the source
//! queues grow without bound), below it nothing changes; the saturation point is
//! marked in the report, the CSV and the SVG.

use golden::block;
use golden::network::Network;
use golden::noc::config::NocConfig;
use golden::noc::mesh::BaselineNetwork;
use golden::noc::sim::{self, SimRequest};
use golden::noc::traffic::{Delivery, Traffic};
use golden::noc::Noc;

/// The 8x8 baseline under uniform random traffic (saturates between 0.5 and 0.6
/// flits/node/cycle).
fn uniform_8x8(cycles: u64, warmup: u64) -> NocConfig {
    let text = format!(
        "name = \"u8\"\n[noc]\nkind = \"baseline\"\nmesh = 8\nmcs = [[0, 7], [7, 0]]\n[noc.traffic]\npattern = \"uniform\"\nrate = 0.1\ncycles = {cycles}\nwarmup = {warmup}\n"
    );
    block::parse::<Noc>(std::path::Path::new("u8.toml"), &text).unwrap_or_else(|e| panic!("{e}")).config
}

#[test]
fn latency_grows_past_saturation_and_the_sweep_marks_it() {
    let c = uniform_8x8(8_000, 2_000);
    let dir = std::env::temp_dir().join(format!("gpuforge_noc_sweep_{}", std::process::id()));
    let req = SimRequest { seed: 3, sweep: vec![0.2, 0.4, 0.7, 0.8, 0.9], out_dir: Some(dir.clone()) };
    let r = sim::run(&c, &req).unwrap();
    let p = &r.points;
    let sat: Vec<bool> = p.iter().map(|p| p.saturated).collect();
    assert_eq!(sat, [false, false, true, true, true], "{r}");
    assert_eq!(sim::saturation(p), Some(0.7));
    // below saturation: accepted follows offered, nothing waits at the source
    for q in &p[..2] {
        assert!((q.accepted - q.offered).abs() < 0.02 * q.offered && q.source_queueing_avg < 1.0 && q.latency_avg < 40.0, "{r}");
    }
    // past it: accepted levels off, latency and source queueing grow with the load
    for w in p[2..].windows(2) {
        assert!(w[1].latency_avg > w[0].latency_avg * 1.2 && w[1].source_queueing_avg > w[0].source_queueing_avg, "{r}");
        assert!((w[1].accepted - w[0].accepted).abs() < 0.05, "{r}");
    }
    assert!(p[2].latency_avg > 10.0 * p[1].latency_avg, "{r}");
    assert!(r.to_string().contains("saturation: offered 0.7 is the lowest saturated load"), "{r}");
    // the CSV's saturated column and the SVG's marker
    let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = head.iter().position(|h| *h == "saturated").expect("saturated column");
    let marks: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').nth(col).unwrap()).collect();
    assert_eq!(marks, ["false", "false", "true", "true", "true"]);
    let svg = std::fs::read_to_string(dir.join("sweep.svg")).unwrap();
    assert_eq!(svg.matches("class=\"saturation\"").count(), 1, "{svg}");
    assert!(svg.contains("saturation 0.7") && svg.contains("#d62728"), "{svg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Past saturation latency depends on how long the run is: the queues grow all the
/// time, so a run 1.75 times as long (warm-up included) measures about 1.6 times the
/// latency. (Counted from hand-over, latency levelled off at what the network's
/// 64-packet source queue holds instead.)
#[test]
fn past_saturation_latency_grows_with_the_run() {
    let c = uniform_8x8(8_000, 2_000);
    let (short, _) = sim::run_point(&c, 0.8, 5, 6_000, 2_000);
    let (long, _) = sim::run_point(&c, 0.8, 5, 12_000, 2_000);
    assert!(short.saturated && long.saturated);
    assert!(long.latency_avg > 1.4 * short.latency_avg, "{} then {}", short.latency_avg, long.latency_avg);
}

/// Below saturation a packet is handed to the network in the cycle it is created,
/// so latency from creation is the network's latency from hand-over, packet for
/// packet.
#[test]
fn below_saturation_latency_from_creation_is_latency_from_hand_over() {
    let c = uniform_8x8(8_000, 2_000);
    let mut net = BaselineNetwork::new(&c, 64);
    let mut tr = Traffic::new(&c, 0.3, 9);
    let mut dl: Vec<Delivery> = Vec::new();
    (0..5_000).for_each(|_| tr.tick(&mut net, &mut dl));
    assert!(dl.len() > 20_000);
    assert!(dl.iter().all(|d| d.queued == 0));
    let from_creation: Vec<u64> = dl.iter().map(|d| d.latency).collect();
    let from_hand_over: Vec<u64> = net.noc_stats().packet_latency.iter().map(|&(l, _)| l as u64).collect();
    assert_eq!(from_creation, from_hand_over);
    assert_eq!(net.stats().packets_delivered, dl.len() as u64);
}
