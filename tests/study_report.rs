//! Tests of `gpuforge::study::report` (`src/study/report.rs`).

#[test]
fn values_show_four_significant_digits() {
    let shown: Vec<String> = [14.8, 0.4456123, 476.0, 25.0834, 0.98604, 1234.6, 0.00012341, 0.0].into_iter().map(gpuforge::study::report::show_value).collect();
    assert_eq!(shown, ["14.8", "0.4456", "476", "25.08", "0.986", "1235", "1.234e-4", "0"]);
}
