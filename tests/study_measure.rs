//! Tests of `gpuforge::study::measure` (`src/study/measure.rs`).

use gpuforge::study::def::Reduce;
use gpuforge::study::measure::*;
use serde_json::json;

#[test]
fn flatten_and_stat_follow_dotted_paths() {
    let j = json!({"a": 1, "points": [{"lat": 2.5}], "m": {"X": 3}, "s": "txt", "n": null});
    let f: Vec<String> = flatten(&j).into_iter().map(|(k, _)| k).collect();
    assert_eq!(f, ["a", "m.X", "points.0.lat", "s"]);
    assert_eq!(stat(&j, "points.0.lat").unwrap(), 2.5);
    assert_eq!(stat(&j, "m.X").unwrap(), 3.0);
    let e = stat(&j, "points.1.lat").unwrap_err();
    assert!(e.contains("no statistic `points.1.lat`") && e.contains("points.0.lat"), "{e}");
    assert!(stat(&j, "s").unwrap_err().contains("not a number"));
    // keys holding dots (hook counters)
    let h = json!({"hooks": {"qcache.produced": 7, "qcache.cpu.dram_reads": 9}});
    assert_eq!(stat(&h, "hooks.qcache.produced").unwrap(), 7.0);
    assert_eq!(stat(&h, "hooks.qcache.cpu.dram_reads").unwrap(), 9.0);
    assert!(stat(&h, "hooks.qcache.cpu.nothing").is_err());
}

#[test]
fn reductions() {
    assert_eq!(reduce(Reduce::Mean, &[1.0, 3.0]).unwrap(), 2.0);
    assert!((reduce(Reduce::Geomean, &[1.0, 4.0]).unwrap() - 2.0).abs() < 1e-12);
    assert_eq!(reduce(Reduce::Min, &[1.0, 3.0]).unwrap(), 1.0);
    assert_eq!(reduce(Reduce::Max, &[1.0, 3.0]).unwrap(), 3.0);
    assert!(reduce(Reduce::Geomean, &[0.0]).is_err());
    assert!(reduce(Reduce::Mean, &[]).is_err());
}
