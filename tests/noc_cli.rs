//! Bad NoC configs fail with a message naming file, field and allowed range, exit 2,
//! and write nothing (acceptance 7).

use std::process::Command;

fn run_gen(body: &str) -> (i32, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, format!("name = \"noc_bad\"\n[noc]\nkind = \"macro\"\n{body}")).unwrap();
    let out_dir = dir.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_gpuforge")).arg("gen").arg(&cfg).arg("--out").arg(&out_dir).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    (o.status.code().unwrap_or(-1), err, out_dir.exists())
}

#[test]
fn bad_noc_configs_exit_2_and_write_nothing() {
    let cases = [
        ("mesh = 4\nmcs = [[4, 1]]\n", "noc.mcs[0]", "x and y in 0..=3"),
        ("mesh = 4\nmcs = [[1, 1], [2, 2], [1, 1]]\ngom = [0, 0]\n", "noc.mcs[2]", "distinct"),
        ("mesh = 4\nmcs = [[1, 1], [2, 3]]\ngom = [2, 3]\n", "noc.gom", "not in noc.mcs"),
        ("mesh = 4\nmcs = [[1, 1]]\n[noc.reply]\nepoch = 10000\nperiod = 300\n", "noc.reply.epoch", "multiple of noc.reply.period"),
        ("mesh = 4\nmcs = [[0, 1], [1, 1], [2, 1], [3, 1]]\n[noc.reply]\nepoch = 30\nperiod = 30\nt_min = 8\n", "noc.reply.period", "K >= 32"),
        ("mesh = 9\nmcs = [[1, 1]]\n", "noc.mesh", "2..=8"),
        ("mesh = 1\nmcs = [[0, 0]]\n", "noc.mesh", "2..=8"),
    ];
    for (body, field, allowed) in cases {
        let (code, err, wrote) = run_gen(body);
        assert_eq!(code, 2, "{body}: {err}");
        assert!(err.contains("bad.toml") && err.contains(field) && err.contains(allowed), "{body}: {err}");
        assert!(!wrote, "{body}: output written");
    }
}
