//! The LLC-Compute paper's GPGPU workloads that the other suites lack (spec §4.2:
//! FDTD, MVT, SCP, RED-Hybrid2; `workloads/{fdtd, mvt, scp, red}`): each reference
//! (`golden/src/gpu/llc_apps.rs`) agrees bit for bit with the simulated kernels (the
//! every-preset runs are in `gpu_workloads.rs`), catches one wrong element in every
//! output buffer and launches cut short, and agrees with a sum in f64 computed here.

use crate::gpu_common;

use golden::gpu::host::HostBuffers;
use golden::gpu::sim::{run_capture, Gpu};
use golden::gpu::{run, RunOptions};
use gpu_common::{config, launch, launch_text, one_wrong_element_is_caught, passes_after, root};

const APPS: &[&str] = &["fdtd/fdtd2d.toml", "mvt/mvt.toml", "scp/scalarprod.toml", "red/reduce_hybrid2.toml"];

/// The launch's initial buffers, its final buffers on `tiny` and the reference's outputs.
fn simulate(path: &str) -> (HostBuffers, HostBuffers, HostBuffers) {
    let l = launch(path);
    let gpu = Gpu::new(&config("tiny")).unwrap();
    let (r, finals) = run_capture(gpu, &l, RunOptions::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!r.checks.is_empty() && r.checks_passed(), "{path}: {r}");
    let c = l.check.as_ref().expect("a [check]");
    let init = l.materialize(1);
    let want = golden::gpu::workloads::reference(c.reference.as_deref().expect("a reference"), &init, &c.params).expect("reference");
    (init, finals, want)
}

#[test]
fn every_output_is_exact_and_one_wrong_element_in_it_is_caught() {
    for w in APPS {
        let l = launch(w);
        let c = l.check.as_ref().unwrap();
        assert_eq!((c.rtol, c.atol), (0.0, 0.0), "{w}: exact checks");
        let (_, finals, want) = simulate(w);
        for &o in &c.outputs {
            let name = &l.buffers[o].name;
            // the middle element one ulp off: exactly that element is reported
            one_wrong_element_is_caught(&format!("{w}: `{name}`"), &finals[name], &want[name], 0.0, 0.0, |v| f32::from_bits(v.to_bits() + 1));
        }
    }
}

#[test]
fn launches_cut_short_are_caught() {
    // one row of threadblocks short (the last ey/ex/hz rows stay unchanged)
    assert!(!passes_after("fdtd/fdtd2d.toml", &[("grid = [5, 16, 1]", "grid = [5, 15, 1]")]));
    // the last hz update (step 3 of time step 3) not run
    let text = std::fs::read_to_string(root().join("workloads/fdtd/fdtd2d.toml")).unwrap();
    let (cut, check) = (text.rfind("[[kernel]]").unwrap(), text.find("[check]").unwrap());
    let l = launch_text("fdtd/fdtd2d.toml", &format!("{}{}", &text[..cut], &text[check..]));
    assert!(!run(&config("tiny"), &l, RunOptions::default()).unwrap().checks_passed());
    // the last row (column) of A not walked
    assert!(!passes_after("mvt/mvt.toml", &[("args = [\"a\", \"x1\", \"y1\", 450]", "args = [\"a\", \"x1\", \"y1\", 449]")]));
    assert!(!passes_after("mvt/mvt.toml", &[("args = [\"a\", \"x2\", \"y2\", 450]", "args = [\"a\", \"x2\", \"y2\", 449]")]));
    // one vector fewer, one element per vector fewer
    assert!(!passes_after("scp/scalarprod.toml", &[("\"b\", 50, 3040]", "\"b\", 49, 3040]")]));
    assert!(!passes_after("scp/scalarprod.toml", &[("\"b\", 50, 3040]", "\"b\", 50, 3039]")]));
    // the lone last input element dropped; the second pass over 63 partial sums
    assert!(!passes_after("red/reduce_hybrid2.toml", &[("\"partial\", 500001]", "\"partial\", 500000]")]));
    assert!(!passes_after("red/reduce_hybrid2.toml", &[("\"total\", 64]", "\"total\", 63]")]));
    // and the unedited file passes through the same path
    assert!(passes_after("red/reduce_hybrid2.toml", &[]));
}

#[test]
fn sums_agree_with_f64_sums_computed_here() {
    // RED: the total is the sum of the 500,001 inputs (values in -1..1: the f32 tree's
    // error is far below 1e-3)
    let (init, finals, _) = simulate("red/reduce_hybrid2.toml");
    let exact: f64 = init["input"].f32s().iter().map(|&v| v as f64).sum();
    let got = finals["total"].f32s()[0] as f64;
    assert!((got - exact).abs() < 1e-3, "{got} vs {exact}");
    let parts: f64 = finals["partial"].f32s().iter().map(|&v| v as f64).sum();
    assert!((parts - exact).abs() < 1e-3, "the 64 partial sums add up: {parts} vs {exact}");
    // SCP: c[v] is the dot product of vector v
    let (init, finals, _) = simulate("scp/scalarprod.toml");
    let (a, b, c) = (init["a"].f32s(), init["b"].f32s(), finals["c"].f32s());
    for v in [0, 1, 23, 24, 48, 49] {
        let dot: f64 = (v * 3040..(v + 1) * 3040).map(|e| a[e] as f64 * b[e] as f64).sum();
        assert!((c[v] as f64 - dot).abs() < 1e-3, "vector {v}: {} vs {dot}", c[v]);
    }
    // MVT: x1 = x1_0 + A y1, x2 = x2_0 + A^T y2
    let (init, finals, _) = simulate("mvt/mvt.toml");
    let (a, n) = (init["a"].f32s(), 450);
    for (x, y, transposed) in [("x1", "y1", false), ("x2", "y2", true)] {
        let (x0, yv, got) = (init[x].f32s(), init[y].f32s(), finals[x].f32s());
        for i in [0, 1, 127, 128, 384, 449] {
            let s: f64 = (0..n).map(|j| a[if transposed { j * n + i } else { i * n + j }] as f64 * yv[j] as f64).sum();
            let want = x0[i] as f64 + s;
            assert!((got[i] as f64 - want).abs() < 1e-3, "{x}[{i}]: {} vs {want}", got[i]);
        }
    }
}
