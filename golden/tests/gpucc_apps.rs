//! Tests of `golden::gpucc::apps` (`golden/src/gpucc/apps.rs`).

use golden::gpucc::apps::*;
use golden::gpucc::config::AppKind;

#[test]
fn gaussians_are_exact_and_normalised() {
    for k in [gaussian3(), gaussian5()] {
        let s: f64 = k.k.iter().map(|&v| v as f64).sum();
        assert_eq!(s, 1.0);
    }
    assert_eq!(gaussian3().at(0, 0), 0.25);
    assert_eq!(gaussian3().at(-1, 1), 0.0625);
    assert_eq!(gaussian5().at(0, 0), 36.0 / 256.0);
}

#[test]
fn bands_cover_rows_evenly() {
    let b = split(1, 510, 28);
    assert_eq!(b.len(), 28);
    assert_eq!(b.iter().map(|x| x.rows).sum::<u32>(), 510);
    assert!(b.iter().all(|x| x.rows == 18 || x.rows == 19));
    assert_eq!(b[0].r0, 1);
    for i in 1..28 {
        assert_eq!(b[i].r0, b[i - 1].r0 + b[i - 1].rows);
    }
    // more parts than items: trailing parts are empty
    assert_eq!(split(0, 2, 4).iter().map(|x| x.rows).collect::<Vec<_>>(), vec![1, 1, 0, 0]);
}

#[test]
fn conv_graphs_have_the_spec_unit_counts() {
    let g3 = template(AppKind::Conv3x3, 512);
    assert_eq!((g3.cores(), g3.lsus()), (13, 4));
    let g5 = template(AppKind::Conv5x5, 512);
    assert_eq!((g5.cores(), g5.lsus()), (31, 6));
    let ld0 = &g3.nodes[g3.find("LD0").unwrap()];
    assert_eq!(ld0.imm as i32, -2048);
    let ld4 = &g5.nodes[g5.find("LD4").unwrap()];
    assert_eq!(ld4.imm as i32, 4096);
    for g in [&g3, &g5] {
        g.validate().unwrap();
    }
}

#[test]
fn f32_reference_is_close_to_f64() {
    let img = random_values(20 * 17, 3);
    for k in [gaussian3(), gaussian5()] {
        let a = conv_ref_f32(&img, 20, 17, &k);
        let b = conv_ref_f64(&img, 20, 17, &k);
        for (x, y) in a.iter().zip(&b) {
            if !x.is_nan() {
                assert!((*x as f64 - y).abs() <= k.taps() as f64 * ulp_f32(*y));
            }
        }
    }
}
