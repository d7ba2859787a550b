//! Tests of `gpuforge::study::plan` (`src/study/plan.rs`).

use gpuforge::study::def::Value;
use gpuforge::study::plan::*;

#[test]
fn knobs_set_dotted_keys_and_leave_text_alone_without_knobs() {
    let text = "name = \"a\"\n[noc]\nkind = \"macro\"\n[noc.traffic]\nrate = 0.01\n";
    assert_eq!(apply_knobs(text, &[]).unwrap(), text);
    let t = apply_knobs(text, &[("noc.traffic.rate".into(), Value::Float(0.5)), ("noc.reply.mux".into(), Value::Boolean(false))]).unwrap();
    let top: toml::Table = t.parse().unwrap();
    assert_eq!(top["noc"]["traffic"]["rate"].as_float(), Some(0.5));
    assert_eq!(top["noc"]["reply"]["mux"].as_bool(), Some(false));
    let e = apply_knobs(text, &[("noc.kind.x".into(), Value::Integer(1))]).unwrap_err();
    assert!(e.1.contains("`noc.kind` is a value"), "{e:?}");
    let e = apply_knobs(text, &[("noc.traffic".into(), Value::Integer(1))]).unwrap_err();
    assert!(e.1.contains("is a table"), "{e:?}");
}

#[test]
fn combinations_vary_the_last_knob_fastest() {
    let k = vec![("a".to_string(), vec![Value::Integer(1), Value::Integer(2)]), ("b".to_string(), vec![Value::Boolean(false), Value::Boolean(true)])];
    let c = combinations(&k);
    let shown: Vec<String> = c.iter().map(|v| v.iter().map(|(k, v)| format!("{k}{v}")).collect::<String>()).collect();
    assert_eq!(shown, ["a1bfalse", "a1btrue", "a2bfalse", "a2btrue"]);
    assert_eq!(combinations(&[]), vec![Vec::new()]);
}
