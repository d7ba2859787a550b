//! The synthesis check itself: a planted latch is refused.

use verif::synth::synth;

#[test]
fn synth_rejects_a_planted_latch() {
    use hdl_gen::design::Design;
    use hdl_gen::manifest::{Manifest, Port};
    let text = "module latchy (input wire clk_i, input wire en_i, input wire d_i, output reg q_o);\n  always @(*) if (en_i) q_o = d_i;\nendmodule\n";
    let files = vec![("latchy.v".to_string(), text.to_string())];
    let manifest = Manifest {
        generator: "test".into(),
        block: "test".into(),
        preset: "latchy".into(),
        design: serde_json::json!({"kind": "latchy"}),
        top: "latchy".into(),
        files: vec!["latchy.v".into()],
        filelist: "latchy.f".into(),
        ports: vec![Port::clock("clk_i"), Port::input("en_i", 1, ""), Port::input("d_i", 1, ""), Port::output("q_o", 1, "")],
        parameters: Default::default(),
        tables: Default::default(),
        synth: true,
        content_hash: String::new(),
    };
    let d = Design { dir: "latchy".into(), files, manifest };
    let work = std::env::temp_dir().join(format!("gpuforge-synth-latch-{}", std::process::id()));
    let r = synth(&d, &work);
    let _ = std::fs::remove_dir_all(&work);
    assert!(r.is_err(), "a latch was accepted: {r:?}");
}
