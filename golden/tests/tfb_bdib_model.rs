//! The TFB BDIB golden model: config validation, storage against Table 5.4, random
//! legal traffic in every variant under the scoreboard, planted bugs caught.

use golden::block::{self, Block};
use golden::presets;
use golden::tfb_bdib::bdib::BdibMutation;
use golden::tfb_bdib::{sim, TfbBdib, TfbConfig, Variant};
use std::path::Path;

fn cfg_from(text: &str) -> Result<TfbConfig, golden::config::ConfigError> {
    block::parse::<TfbBdib>(Path::new("t.toml"), text).map(|f| f.config)
}

fn small_with(key: &str, value: &str) -> String {
    let t = presets::text("tfb_small");
    let line = t.lines().find(|l| l.starts_with(&format!("{key} ="))).unwrap_or_else(|| panic!("no {key} in tfb_small")).to_string();
    t.replace(&line, &format!("{key} = {value}"))
}

#[test]
fn presets_are_the_thesis_subcore_and_a_small_one() {
    let m = presets::load::<TfbBdib>("tfb_maxwell_subcore").unwrap().config;
    assert_eq!((m.num_warps, m.depth, m.mode, m.nwarq, m.reg_w, m.nsrc), (32, 2, Variant::F, 2, 8, 4));
    assert_eq!((m.wid_w(), m.cnt_w()), (5, 2));
    let s = presets::load::<TfbBdib>("tfb_small").unwrap().config;
    assert_eq!((s.num_warps, s.depth, s.mode), (4, 2, Variant::F));
    assert_eq!(presets::of::<TfbBdib>().len(), 2);
}

#[test]
fn every_field_is_checked_with_its_allowed_range() {
    let cases = [
        ("depth", "0", "tfb_bdib.depth", "1..=5"),
        ("depth", "6", "tfb_bdib.depth", "1..=5"),
        ("num_warps", "0", "tfb_bdib.num_warps", "1..=64"),
        ("num_warps", "65", "tfb_bdib.num_warps", "1..=64"),
        ("mode", "\"q\"", "tfb_bdib.mode", "one of \"p\", \"g\", \"f\""),
        ("nwarq", "3", "tfb_bdib.nwarq", "1..=2"),
        ("nwarq", "0", "tfb_bdib.nwarq", "1..=2"),
        ("nsrc", "5", "tfb_bdib.nsrc", "1..=4"),
        ("reg_w", "9", "tfb_bdib.reg_w", "2..=8"),
        ("instr_w", "129", "tfb_bdib.instr_w", "10..=128"),
        ("instr_w", "9", "tfb_bdib.instr_w", "10..=128"),
        ("schedulers", "5", "tfb_bdib.schedulers", "1..=4"),
    ];
    for (k, val, field, allowed) in cases {
        let e = cfg_from(&small_with(k, val)).expect_err(&format!("{k} = {val} must be refused"));
        assert_eq!(e.field, field, "{e}");
        assert_eq!(e.allowed.as_deref(), Some(allowed), "{e}");
        assert!(e.to_string().starts_with("t.toml: "), "{e}");
    }
}

#[test]
fn storage_matches_table_5_4() {
    // spec §2.6: 112 b = 14 B per entry, the top of the thesis's 10-14 B range
    let m = presets::load::<TfbBdib>("tfb_maxwell_subcore").unwrap().config;
    let s = m.storage();
    assert_eq!(s.entry_bits, 3 + 2 + 4 * (8 + 1) + 71);
    assert_eq!(s.entry_bits, 112);
    assert!((80..=112).contains(&s.entry_bits), "10-14 B per entry");
    // 32 warps x 2 entries x 14 B = 896 B; per-warp state 2+1+1 bits; 5-bit pointer
    assert_eq!(s.entry_storage_bits() / 8, 896);
    assert_eq!(s.total_bits(), 32 * 2 * 112 + 32 * 4 + 5);
    // §2.13: 64 warps x 1 entry = 64 x 14 B = 896 B < 900 B
    let t = presets::text("tfb_maxwell_subcore").replace("num_warps = 32", "num_warps = 64").replace("depth = 2", "depth = 1");
    let c64 = cfg_from(&t).unwrap();
    let s = c64.storage();
    assert_eq!(s.entry_storage_bits(), 64 * 112);
    assert!(s.entry_storage_bits() / 8 < 900);
    // the scoreboard's "BDIB full" bits: 1 per warp, <= 8 B for 64 warps
    assert_eq!(c64.num_warps.div_ceil(8), 8);
}

fn run_mode(mode: &str, cycles: u64, seed: u64) -> sim::SimReport {
    let c = cfg_from(&small_with("mode", &format!("\"{mode}\""))).unwrap();
    sim::run(&c, cycles, seed)
}

#[test]
fn random_legal_traffic_passes_the_scoreboard_in_every_variant() {
    for (mode, seed) in [("p", 1), ("g", 2), ("f", 3)] {
        let r = run_mode(mode, 30_000, seed);
        assert!(r.violation.is_none(), "{r}");
        let s = &r.stats;
        assert!(s.issued > 10_000 && s.barriers > 500, "{r}");
        // INV-3: everything pushed was popped (no flushes in random traffic)
        assert_eq!(s.pushed, s.popped, "{r}");
        if mode == "p" {
            assert_eq!((s.pushed, s.stall_cycles), (0, 0), "P-TFB never buffers: {r}");
        } else {
            assert!(s.pushed > 1000 && s.marker_pops > 5 && s.fence_pops > 10 && s.full_cycles > 100, "{r}");
            assert_eq!(s.max_count, 2);
        }
    }
}

#[test]
fn the_maxwell_subcore_runs_clean() {
    let c = presets::load::<TfbBdib>("tfb_maxwell_subcore").unwrap().config;
    let r = sim::run(&c, 20_000, 9);
    assert!(r.violation.is_none() && r.stats.pushed > 1000 && r.stats.war_hits > 0, "{r}");
}

#[test]
fn planted_bugs_are_caught_in_every_variant() {
    let cases = [
        ("p", BdibMutation::PassBarrierNoInBar, "9 in_bar discipline"),
        ("g", BdibMutation::DrainDuringBarrier, "6 stall exactness"),
        ("f", BdibMutation::RrStuck, "12 liveness (round-robin grant)"),
        ("f", BdibMutation::WarMissesTail, "13 WAR safety"),
    ];
    for (mode, bug, inv) in cases {
        let c = cfg_from(&small_with("mode", &format!("\"{mode}\""))).unwrap();
        let r = sim::run_mutated(&c, 30_000, 5, Some(bug));
        let v = r.violation.clone().unwrap_or_else(|| panic!("{bug:?} in {mode} not caught: {r}"));
        assert_eq!(v.invariant, inv, "{bug:?}: {v}");
    }
}

#[test]
fn the_block_is_named_tfb_bdib() {
    assert_eq!(TfbBdib::TABLE, "tfb_bdib");
}

// ---------------------------------------------------------------------------
// The worked example of spec §1.6 (thesis Fig. 5.11)
// ---------------------------------------------------------------------------

use golden::model::Model;
use golden::tfb_bdib::bdib::{decide, Bdib, Decision, Entry};
use golden::tfb_bdib::Cls;

/// One instruction of Fig. 5.11: its memory class (None: ALU/control), the
/// registers it reads and the one it writes.
struct Fig {
    name: char,
    cls: Option<Cls>,
    reads: &'static [u8],
    writes: Option<u8>,
}

const R0: u8 = 0;
const R2: u8 = 2;
const R3: u8 = 3;
const R4: u8 = 4;
const P0: u8 = 8;

/// `a`, `b` and the fall-through path `c d e f g h`, or the taken path `c d e i j k l`.
fn fig_5_11(taken: bool) -> Vec<Fig> {
    let f = |name, cls, reads, writes| Fig { name, cls, reads, writes };
    let mut v = vec![
        f('a', Some(Cls::Scratch), &[R0][..], None),
        f('b', Some(Cls::Barrier), &[][..], None),
        f('c', None, &[R2][..], Some(R2)),
        f('d', None, &[R2][..], Some(P0)),
        f('e', None, &[P0][..], None),
    ];
    if taken {
        v.extend([
            f('i', None, &[R4][..], Some(R4)),
            f('j', None, &[R4][..], Some(P0)),
            f('k', None, &[P0][..], None),
            f('l', Some(Cls::Global), &[R0][..], None),
            f('m', None, &[R4][..], Some(R4)),
        ]);
    } else {
        v.extend([f('f', Some(Cls::Scratch), &[R2][..], Some(R3)), f('g', None, &[R3, R0][..], Some(R0)), f('h', Some(Cls::Scratch), &[R0][..], None)]);
    }
    v
}

/// Walk warp 0 through the path in variant `mode` and return each instruction's
/// fate until the first block: 'X' executed, 'I' issued into the BDIB, 'B' blocked.
/// The warp's other TB members never arrive, so the barrier stays pending.
fn walk(mode: &str, taken: bool) -> String {
    let c = cfg_from(&small_with("mode", &format!("\"{mode}\""))).unwrap();
    let mut m = Bdib::new(&c);
    m.reset();
    let mut reserved: Vec<u8> = Vec::new(); // destinations of buffered loads (RAW/WAW, §2.10)
    let mut out = String::new();
    for ins in fig_5_11(taken) {
        let raw = ins.reads.iter().chain(ins.writes.iter()).any(|r| reserved.contains(r));
        let war = ins.writes.is_some_and(|r| m.war_hit(0, r));
        let d = if raw { Decision::Block } else { decide(&m, 0, ins.cls, war) };
        if ins.name >= 'c' {
            out.push(match d {
                Decision::Exec => 'X',
                Decision::IssueToBdib => 'I',
                Decision::Block => 'B',
            });
        }
        if d == Decision::Block {
            break;
        }
        if let Some(cls) = ins.cls {
            // through the BDIB's issue port (mem_ready high, nothing draining)
            let mut i = m.idle_inputs();
            i.iss_valid = true;
            i.mem_ready = true;
            let mut e = Entry { cls: cls.code(), ..Default::default() };
            for (j, r) in ins.reads.iter().enumerate() {
                e.src[j] = *r;
                e.src_v |= 1 << j;
            }
            i.iss = e;
            let mut o = m.new_outputs();
            m.eval(&i, &mut o);
            assert!(o.iss_ready, "{}: accepted", ins.name);
            assert_eq!(o.mem_valid, d == Decision::Exec, "{}: passes iff executed", ins.name);
            m.commit(&i);
            if d == Decision::IssueToBdib {
                reserved.extend(ins.writes);
            }
        }
    }
    out
}

/// Spec §1.6's table, read column by column (c, d, e, f, g on the fall-through path;
/// i, j, k, l and beyond on the taken path).
#[test]
fn the_worked_example_of_fig_5_11() {
    // fall-through: c d e execute in every TFB; f (ld.shared) blocks in P and G and
    // is buffered in F, where g then blocks on r3 (RAW through the buffered f)
    assert_eq!(walk("p", false), "XXXB");
    assert_eq!(walk("g", false), "XXXB");
    assert_eq!(walk("f", false), "XXXIB");
    // taken: c d e i j k execute; l (st.global) blocks in P and is buffered in G and
    // F, which "may even execute beyond l"
    assert_eq!(walk("p", true), "XXXXXXB");
    assert_eq!(walk("g", true), "XXXXXXIX");
    assert_eq!(walk("f", true), "XXXXXXIX");
}
