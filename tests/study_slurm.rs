//! Tests of `gpuforge::study::slurm` (`src/study/slurm.rs`).

use gpuforge::study::slurm::*;

#[test]
fn array_specs_compress_runs_of_indices() {
    assert_eq!(array_spec(&[0, 1, 2, 3, 7, 9, 10]), "0-3,7,9-10");
    assert_eq!(array_spec(&[5]), "5");
    assert_eq!(array_spec(&[]), "");
}
