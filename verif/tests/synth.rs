//! The synthesis check itself: a planted latch is refused, and the report cache reuses
//! only the identical design. The storage census finds what the full synthesis finds.

use hdl_gen::design::Design;
use hdl_gen::manifest::{content_hash, Manifest, Port};
use verif::synth::{census, synth, synth_cached};

/// A one-file design `top` (ports clk_i, en_i, d_i[w], q_o[w]) with its content hash.
fn one_module(top: &str, text: String, width: u32) -> Design {
    let files = vec![(format!("{top}.v"), text)];
    let manifest = Manifest {
        generator: "test".into(),
        block: "test".into(),
        preset: top.into(),
        design: serde_json::json!({"kind": top}),
        top: top.into(),
        files: vec![format!("{top}.v")],
        filelist: format!("{top}.f"),
        ports: vec![Port::clock("clk_i"), Port::input("en_i", 1, ""), Port::input("d_i", width, ""), Port::output("q_o", width, "")],
        parameters: Default::default(),
        tables: Default::default(),
        synth: true,
        synth_share: true,
        content_hash: content_hash(files.iter().map(|(n, t)| (n.as_str(), t.as_str()))),
    };
    Design { dir: top.into(), files, manifest }
}

fn latchy() -> Design {
    one_module("latchy", "module latchy (input wire clk_i, input wire en_i, input wire d_i, output reg q_o);\n  always @(*) if (en_i) q_o = d_i;\nendmodule\n".into(), 1)
}

/// An enabled register of `w` bits; `tag` (a comment) makes its content unique.
fn flop(w: u32, tag: &str) -> Design {
    let text = format!(
        "// {tag}\nmodule flop (input wire clk_i, input wire en_i, input wire [{m}:0] d_i, output reg [{m}:0] q_o);\n  always @(posedge clk_i) if (en_i) q_o <= d_i;\nendmodule\n",
        m = w - 1
    );
    one_module("flop", text, w)
}

#[test]
fn synth_rejects_a_planted_latch() {
    let work = std::env::temp_dir().join(format!("gpuforge-synth-latch-{}", std::process::id()));
    let r = synth(&latchy(), &work);
    let _ = std::fs::remove_dir_all(&work);
    assert!(r.is_err(), "a latch was accepted: {r:?}");
    // the cached path refuses it too, and keeps refusing (a failure is never cached)
    for _ in 0..2 {
        let r = synth_cached(&latchy());
        assert!(r.is_err(), "a latch was accepted through the cache: {r:?}");
    }
}

#[test]
fn synth_cache_reuses_only_the_identical_design() {
    // unique to this run, so the first synthesis cannot come from an earlier test run
    let tag = format!("cache test {} {:?}", std::process::id(), std::time::SystemTime::now());
    let (first, cached) = synth_cached(&flop(8, &tag)).unwrap();
    assert!(!cached, "a design never synthesized came from the cache");
    assert_eq!(first.flops, 8, "{first:?}");
    let (again, cached) = synth_cached(&flop(8, &tag)).unwrap();
    assert!(cached, "the identical design was synthesized again");
    assert_eq!(again, first);
    // one bit wider: a different design, synthesized anew
    let (wider, cached) = synth_cached(&flop(9, &tag)).unwrap();
    assert!(!cached);
    assert_eq!(wider.flops, 9, "{wider:?}");
}

/// A memory of `depth` words of `w` bits, written on `we_i`, read combinationally, and a
/// registered copy of the read word: memory bits that only `memory_map` turns into
/// flip-flops, and a plain register.
fn memory(depth: u32, w: u32) -> Design {
    let a = depth.next_power_of_two().trailing_zeros().max(1);
    let text = format!(
        "module mem (input wire clk_i, input wire en_i, input wire [{m}:0] d_i, output reg [{m}:0] q_o);\n  \
         reg [{m}:0] mem_r [0:{dm}];\n  reg [{am}:0] wa_r;\n  \
         always @(posedge clk_i) begin\n    if (en_i) begin mem_r[wa_r] <= d_i; wa_r <= wa_r + 1'b1; end\n    q_o <= mem_r[wa_r];\n  end\nendmodule\n",
        m = w - 1,
        dm = depth - 1,
        am = a - 1
    );
    one_module("mem", text, w)
}

#[test]
fn census_counts_the_flip_flops_synth_counts_and_refuses_a_latch() {
    let work = std::env::temp_dir().join(format!("gpuforge-census-{}", std::process::id()));
    for (d, bits) in [(flop(8, "census"), 8), (memory(4, 6), 4 * 6 + 2 + 6)] {
        let c = census(&d, &work).unwrap_or_else(|e| panic!("{e}"));
        let s = synth(&d, &work).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.flops, bits, "{c:?}");
        assert_eq!(c.flops, s.flops);
        let s_types: std::collections::BTreeMap<String, u64> = s.cells_by_type.into_iter().filter(|(k, _)| k.contains("DFF")).collect();
        assert_eq!(c.flops_by_type, s_types, "the same one-bit flip-flop types");
        assert_eq!(c.latches, 0);
    }
    assert!(census(&latchy(), &work).is_err(), "a latch was accepted by the census");
    let _ = std::fs::remove_dir_all(&work);
}
