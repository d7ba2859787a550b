//! Tests of `gpuforge::study::figure` (`src/study/figure.rs`).

use gpuforge::study::figure::*;

#[test]
fn ticks_are_round_and_cover_the_range() {
    assert_eq!(ticks(0.0, 14.8), [0.0, 5.0, 10.0, 15.0]);
    let t: Vec<String> = ticks(0.0, 0.66).into_iter().map(num).collect();
    assert_eq!(t, ["0", "0.2", "0.4", "0.6", "0.8"]);
    assert_eq!(num(0.5), "0.5");
    assert_eq!(num(1234.0), "1234");
}

#[test]
fn figures_are_svg_and_deterministic() {
    let s = vec![Series { name: "a<b".into(), points: vec![(0.001, 10.0), (0.002, 20.0)] }];
    let c = curve("t", "x", "y", &s, false);
    assert!(c.starts_with("<svg") && c.ends_with("</svg>\n") && c.contains("a&lt;b"));
    assert_eq!(c, curve("t", "x", "y", &s, false));
    let b = bars("t", "y", &[BarGroup { label: "g".into(), paper: Some((14.8, 14.8)), band: Some((14.0, 15.5)), measured: None }]);
    assert!(b.contains(">n/a<"), "{b}");
    assert_eq!(wrap("8x8 8(c) reply-plane ceiling, no multiplexing", 18), ["8x8 8(c)", "reply-plane", "ceiling, no", "multiplexing"]);
    assert_eq!((sig3(15.1582), sig3(0.98604), sig3(476.0)), ("15.2".into(), "0.986".into(), "476".into()));
}
