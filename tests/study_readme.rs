//! Tests of `gpuforge::study::readme` (`src/study/readme.rs`).

use gpuforge::study::readme::*;

const REPORT: &str = "# T (--quick)\n\nPaper: p.\n\nRuns: 2 (2 passed, 0 failed, 0 not run), gpuforge 0.1.0, model version 7. Every run's statistics: `results.csv`.\n\nA note.\n\n## Paper vs measured\n\n| measure | paper |\n|---|---|\n| a | 1 |\n\n## Outside the band, and why\n\n* **a**: measured 2.\n\n## Figures\n\n![f.svg](f.svg)\n";

#[test]
fn the_excerpt_keeps_runs_table_and_reasons_and_drops_title_notes_and_figures() {
    let e = excerpt(REPORT).unwrap();
    assert_eq!(
        e,
        "Runs: 2 (2 passed, 0 failed, 0 not run), gpuforge 0.1.0, model version 7. Every run's statistics: `results.csv`.\n\n**Paper vs measured**\n\n| measure | paper |\n|---|---|\n| a | 1 |\n\n**Outside the band, and why**\n\n* **a**: measured 2.\n"
    );
    assert!(excerpt("# not a report\n").is_err());
}

#[test]
fn blocks_are_found_and_bad_markers_named_by_line() {
    let doc = "x\n<!-- study: a -->\nold\n<!-- /study -->\n<!-- study: b --quick -->\n<!-- /study -->\n";
    let b = blocks(doc).unwrap();
    assert_eq!(b, vec![Block { study: "a".into(), quick: false, open: 1, close: 3 }, Block { study: "b".into(), quick: true, open: 4, close: 5 }]);
    assert_eq!(b[1].dir_name(), "b_quick");
    assert!(blocks("<!-- study: a -->\n").unwrap_err().starts_with("line 1:"));
    assert!(blocks("\n<!-- /study -->\n").unwrap_err().starts_with("line 2:"));
    assert!(blocks("<!-- study: a --fast -->\n<!-- /study -->").unwrap_err().contains("expected"));
    assert!(blocks("<!-- study: a -->\n<!-- study: b -->\n").unwrap_err().starts_with("line 2:"));
}

#[test]
fn splicing_replaces_only_block_bodies_and_reports_what_changed() {
    let doc = "head\n<!-- study: a -->\nstale\n<!-- /study -->\nmiddle\n<!-- study: b --quick -->\n<!-- /study -->\ntail\n";
    let (new, changed) = splice(doc, |b| Ok(Some(format!("table of {}\n", b.dir_name())))).unwrap();
    assert!(new.starts_with("head\n<!-- study: a -->\n<!-- generated"), "{new}");
    assert!(new.contains("\n\ntable of a\n\n<!-- /study -->\nmiddle\n<!-- study: b --quick -->\n"), "{new}");
    assert!(new.contains("table of b_quick\n\n<!-- /study -->\ntail\n"), "{new}");
    assert_eq!(changed.len(), 2);
    // spliced again with the same excerpts: nothing changes, byte for byte
    let (again, changed) = splice(&new, |b| Ok(Some(format!("table of {}\n", b.dir_name())))).unwrap();
    assert_eq!(again, new);
    assert!(changed.is_empty());
    // a planted stale number is found
    let stale = new.replace("table of a", "table of A");
    let (_, changed) = splice(&stale, |b| Ok(Some(format!("table of {}\n", b.dir_name())))).unwrap();
    assert_eq!(changed.iter().map(|b| b.study.as_str()).collect::<Vec<_>>(), ["a"]);
    // a block left alone keeps its body
    let (kept, changed) = splice(&stale, |b| Ok((b.study == "b").then(|| format!("table of {}\n", b.dir_name())))).unwrap();
    assert_eq!(kept, stale);
    assert!(changed.is_empty());
}
