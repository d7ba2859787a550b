//! Test support for the rust-hdl leaves (rust-hdl's `component_*_is_synthesizable`
//! habit): every leaf's test module uses these, so each test is a few lines.
//!
//! * [`lint_and_synth`]: emit a leaf (the one call of [`hdl_gen::emit::emit_block`] in
//!   the leaf tests), write its modules to a scratch directory, and require
//!   `verilator --lint-only -Wall` clean and a yosys `synth; check -assert` with no
//!   latch cells.
//! * [`LeafSim`]: single-threaded rust-hdl simulation of a leaf's `update()` (settle,
//!   clock edges, reset), for behaviour tests.
//! * [`rtl_run`]: the leaf's *emitted Verilog* under Icarus Verilog, driven by
//!   per-cycle input vectors, for leaves whose Verilog is hand-written (primitives:
//!   their `update()` is only a model of it) or whose `update()` is not simulatable
//!   (`ReadPtrMem`, hence `VcBuffer`). Icarus compiles a leaf in well under a
//!   second, where a Verilator build takes 10-30 s.
//!
//! A missing tool fails the test with a message saying which tool and that the leaf
//! tests never skip.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use rust_hdl::prelude::*;

use hdl_gen::catalog::ModuleDoc;
use hdl_gen::emit::emit_block;
use hdl_gen::library::Module;

/// Run a tool; a missing tool is a loud failure, never a skip.
fn run(tool: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(tool).args(args).current_dir(dir).output().unwrap_or_else(|e| {
        panic!(
            "leaf check: cannot run `{tool}` ({e}). The leaf tests need verilator, yosys and iverilog on PATH \
             (`make setup`); they fail rather than skip."
        )
    })
}

fn output_text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr)
}

/// A fresh scratch directory for one check (kept on failure, removed on success).
fn scratch(what: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!("gpuforge-leaf-{}-{what}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

fn write_modules(dir: &Path, modules: &[Module]) -> Vec<String> {
    modules
        .iter()
        .map(|m| {
            let f = format!("{}.v", m.name);
            std::fs::write(dir.join(&f), &m.text).expect("write module");
            f
        })
        .collect()
}

/// The modules of leaf `block` emitted as `name` (connected first, as the generator does).
pub fn emit<B: Block>(mut block: B, name: &str) -> Vec<Module> {
    block.connect_all();
    let ms = emit_block(&block, name, ModuleDoc::new("leaf under test", "see its block's catalog")).expect("leaf emits");
    assert!(ms.iter().any(|m| m.name == name), "no module named {name}");
    ms
}

/// Yosys cell types of a latch (after `synth`, and before techmap should any survive).
const LATCH_CELLS: &str = "t:$_DLATCH_* t:$_DLATCHSR_* t:$_SR_* t:$dlatch t:$adlatch t:$dlatchsr t:$sr";

/// Emit `block` as `name`, then require `verilator --lint-only -Wall` without a
/// warning and yosys `synth -top name; check -assert` without a latch.
pub fn lint_and_synth<B: Block>(block: B, name: &str) {
    let ms = emit(block, name);
    let dir = scratch(name);
    let files = write_modules(&dir, &ms);
    let result = lint(&dir, name).and_then(|_| synth(&dir, &files, name));
    if let Err(e) = result {
        panic!(
            "{e}
(files kept in {})",
            dir.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `verilator --lint-only -Wall` on module `name` (`name.v` in `dir`, submodules
/// found there).
fn lint(dir: &Path, name: &str) -> Result<(), String> {
    let top = format!("{name}.v");
    let o = run("verilator", &["--lint-only", "-Wall", "--top-module", name, "-y", ".", &top], dir);
    let t = output_text(&o);
    if o.status.success() && !t.contains("%Warning") && !t.contains("%Error") {
        Ok(())
    } else {
        Err(format!("verilator --lint-only -Wall on {name}:\n{t}"))
    }
}

/// yosys `synth; check -assert` of module `name` from `files` in `dir`, no latch.
fn synth(dir: &Path, files: &[String], name: &str) -> Result<(), String> {
    let script = format!("read_verilog {}\nhierarchy -check -top {name}\nsynth -top {name}\ncheck -assert\nselect -assert-none {LATCH_CELLS}\n", files.join(" "));
    std::fs::write(dir.join("synth.ys"), script).expect("write script");
    let o = run("yosys", &["-q", "-l", "yosys.log", "-s", "synth.ys"], dir);
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    if o.status.success() && !log.contains("Latch inferred") {
        Ok(())
    } else {
        let tail: Vec<&str> = log.lines().rev().take(15).collect();
        Err(format!("yosys synth of {name}:\n{}\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"), output_text(&o)))
    }
}

// ---------------------------------------------------------------------------
// rust-hdl simulation
// ---------------------------------------------------------------------------

/// A leaf under single-threaded rust-hdl simulation: inputs are set through
/// `.next` (the `Deref` to the block), [`LeafSim::settle`] propagates them, [`LeafSim::tick`]
/// applies one rising clock edge.
pub struct LeafSim<B: Block> {
    b: Box<B>,
    clk: Option<ClockOf<B>>,
}

/// Where a leaf's clock input is.
pub type ClockOf<B> = fn(&mut B) -> &mut Signal<In, Clock>;

impl<B: Block> LeafSim<B> {
    /// A combinational leaf.
    pub fn comb(b: B) -> LeafSim<B> {
        let mut s = LeafSim { b: Box::new(b), clk: None };
        s.b.connect_all();
        s.settle();
        s
    }

    /// A clocked leaf; `clk` names its clock input.
    pub fn clocked(b: B, clk: ClockOf<B>) -> LeafSim<B> {
        let mut s = LeafSim { b: Box::new(b), clk: Some(clk) };
        s.b.connect_all();
        s.settle();
        s
    }

    /// Propagate until nothing changes.
    pub fn settle(&mut self) {
        assert!(simulate(self.b.as_mut(), 10_000), "the leaf did not settle (combinational loop?)");
    }

    /// Settle the inputs, then one rising and one falling clock edge.
    pub fn tick(&mut self) {
        let clk = self.clk.expect("tick on a combinational leaf");
        self.settle();
        clk(&mut self.b).next = Clock::from(true);
        self.settle();
        clk(&mut self.b).next = Clock::from(false);
        self.settle();
    }

    /// Hold `rst` high for one edge, then low.
    pub fn reset(&mut self, rst: fn(&mut B) -> &mut Signal<In, Bit>) {
        rst(&mut self.b).next = true;
        self.tick();
        rst(&mut self.b).next = false;
        self.settle();
    }
}

impl<B: Block> std::ops::Deref for LeafSim<B> {
    type Target = B;
    fn deref(&self) -> &B {
        &self.b
    }
}

impl<B: Block> std::ops::DerefMut for LeafSim<B> {
    fn deref_mut(&mut self) -> &mut B {
        &mut self.b
    }
}

/// `v` as an `N`-bit value (for inputs: `x.next = bv(v)`).
pub fn bv<const N: usize>(v: u128) -> Bits<N> {
    v.to_bits()
}

/// An output's value as a `u128` (`N <= 128`).
pub fn val<const N: usize>(s: &Signal<Out, Bits<N>>) -> u128 {
    s.val().to_u128()
}

// ---------------------------------------------------------------------------
// the emitted Verilog under Icarus Verilog
// ---------------------------------------------------------------------------

/// One cycle's outputs, by port name (`None`: the value has x or z bits).
pub type Outs = BTreeMap<String, Option<u128>>;

/// Ports of a module: `(name, width, is_input)`, from rust-hdl's declarations.
fn ports(text: &str) -> Vec<(String, u32, bool)> {
    let mut v = Vec::new();
    for l in text.lines() {
        let t = l.trim();
        let (rest, is_in) = match (t.strip_prefix("input "), t.strip_prefix("output ")) {
            (Some(r), _) => (r, true),
            (_, Some(r)) => (r, false),
            _ => continue,
        };
        let rest = rest.trim_start_matches("wire").trim_start_matches("reg").trim().trim_end_matches(';');
        let (w, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (range, name) = r.split_once(']').expect("range");
                let hi: u32 = range.split(':').next().and_then(|h| h.trim().parse().ok()).expect("msb");
                (hi + 1, name.trim())
            }
            None => (1, rest),
        };
        v.push((name.to_string(), w, is_in));
    }
    v
}

/// Run module `top` of `modules` under Icarus Verilog for `cycles.len()` cycles. In
/// each cycle the inputs named in that cycle's vector are set (the others keep their
/// value; all start at 0), the outputs are sampled after the combinational logic
/// settles, and, if the module has a `clk_i`, one rising edge follows.
pub fn rtl_run(modules: &[Module], top: &str, cycles: &[Vec<(&str, u128)>]) -> Vec<Outs> {
    let text = &modules.iter().find(|m| m.name == top).expect("top module").text;
    let ps = ports(text);
    assert!(ps.iter().all(|(_, w, _)| *w <= 128), "rtl_run handles ports up to 128 bits");
    let clocked = ps.iter().any(|(n, _, i)| *i && n == "clk_i");
    let mut tb = String::from("`timescale 1ns/1ps\nmodule gf_leaf_tb;\n");
    for (n, w, is_in) in &ps {
        tb += &format!("  {} [{}:0] {n};\n", if *is_in { "reg" } else { "wire" }, w - 1);
    }
    let conns: Vec<String> = ps.iter().map(|(n, _, _)| format!(".{n}({n})")).collect();
    tb += &format!("  {top} dut({});\n  initial begin\n", conns.join(", "));
    for (n, w, is_in) in &ps {
        if *is_in {
            tb += &format!("    {n} = {w}'d0;\n");
        }
    }
    let outs: Vec<&(String, u32, bool)> = ps.iter().filter(|p| !p.2).collect();
    let fmt: Vec<&str> = outs.iter().map(|_| "%h").collect();
    let args: Vec<&str> = outs.iter().map(|(n, _, _)| n.as_str()).collect();
    for (c, vec) in cycles.iter().enumerate() {
        for (n, v) in vec {
            let (_, w, is_in) = ps.iter().find(|p| p.0 == *n).unwrap_or_else(|| panic!("{top} has no port {n}"));
            assert!(*is_in, "{n} is an output");
            tb += &format!("    {n} = {w}'h{v:x};\n");
        }
        tb += &format!("    #1 $display(\"C {c} {}\", {});\n", fmt.join(" "), args.join(", "));
        if clocked {
            tb += "    clk_i = 1'b1; #1 clk_i = 1'b0;\n";
        }
    }
    tb += "    $finish;\n  end\nendmodule\n";
    let dir = scratch(top);
    let mut files = write_modules(&dir, modules);
    std::fs::write(dir.join("tb.v"), &tb).expect("write testbench");
    files.push("tb.v".into());
    let mut args: Vec<&str> = vec!["-g2012", "-o", "sim.vvp", "-s", "gf_leaf_tb"];
    args.extend(files.iter().map(String::as_str));
    let comp = run("iverilog", &args, &dir);
    assert!(comp.status.success(), "iverilog on {top} (files in {}):\n{}", dir.display(), output_text(&comp));
    let sim = run("vvp", &["-n", "sim.vvp"], &dir);
    let out = output_text(&sim);
    assert!(sim.status.success(), "vvp of {top} (files in {}):\n{out}", dir.display());
    let rows: Vec<Outs> = out
        .lines()
        .filter_map(|l| l.strip_prefix("C "))
        .map(|l| {
            let mut it = l.split_whitespace().skip(1);
            outs.iter()
                .map(|(n, _, _)| {
                    let h = it.next().expect("one value per output");
                    (n.clone(), u128::from_str_radix(h, 16).ok())
                })
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), cycles.len(), "vvp of {top} printed {} of {} cycles:\n{out}", rows.len(), cycles.len());
    let _ = std::fs::remove_dir_all(&dir);
    rows
}

/// Run `cycles` on the rust-hdl model with the protocol of [`rtl_run`]: per cycle,
/// `drive` the named inputs, settle, `sample` the outputs, then a clock edge (if the
/// leaf is clocked).
pub fn sim_run<B: Block>(sim: &mut LeafSim<B>, cycles: &[Vec<(&str, u128)>], drive: impl Fn(&mut B, &str, u128), sample: impl Fn(&B) -> Outs) -> Vec<Outs> {
    let mut rows = Vec::new();
    for vec in cycles {
        for (n, v) in vec {
            drive(sim, n, *v);
        }
        sim.settle();
        rows.push(sample(sim));
        if sim.clk.is_some() {
            sim.tick();
        }
    }
    rows
}

/// `got` has `want`'s value on every port `want` names, in every cycle from `from`
/// on (before the first reset, Verilog registers are x). The error names the first
/// differing cycle and port.
pub fn check_outs(got: &[Outs], want: &[Outs], from: usize) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} cycles, expected {}", got.len(), want.len()));
    }
    for (c, (g, w)) in got.iter().zip(want).enumerate().skip(from) {
        for (port, wv) in w {
            let gv = g.get(port).unwrap_or_else(|| panic!("no output {port}"));
            if gv != wv {
                return Err(format!("cycle {c}, {port}: got {gv:x?}, expected {wv:x?}"));
            }
        }
    }
    Ok(())
}

/// One cycle's outputs from `(port, value)` pairs.
pub fn outs(pairs: &[(&str, u128)]) -> Outs {
    pairs.iter().map(|(n, v)| (n.to_string(), Some(*v))).collect()
}

/// A shipped NoC preset's config (through `golden::presets`).
pub fn noc_preset(name: &str) -> golden::noc::NocConfig {
    golden::presets::load::<golden::noc::Noc>(name).unwrap_or_else(|e| panic!("{e}")).config
}

/// The paper's 4x4 MC placement with a short epoch (32 + 120 cycles, K = 60) and a
/// 4-flit reply queue, so that epochs turn over and queues fill within a few
/// hundred cycles. Three window groups (one pair).
pub const NOC_SHORT_4X4: &str = "name = \"leaf_short_4x4\"\n[noc]\nkind = \"macro\"\nmesh = 4\n\
mcs = [[2, 3], [0, 2], [3, 1], [1, 0]]\ngom = [2, 2]\n[noc.reply]\nepoch = 120\nperiod = 60\nprologue = 32\n\
t_min = 6\ninterval = 2\nmux = true\nreply_queue = 4\n";

/// Eight MCs on a 4x4 mesh without multiplexing: eight window groups, so the GOM
/// sends two GOMCFG flits; 3-bit MC indices, interval 3, other GOM weights.
pub const NOC_EIGHT_GROUPS: &str = "name = \"leaf_eight_groups\"\n[noc]\nkind = \"macro\"\nmesh = 4\n\
mcs = [[0, 0], [1, 0], [2, 0], [3, 0], [0, 3], [1, 3], [2, 3], [3, 3]]\ngom = [1, 1]\n[noc.reply]\n\
epoch = 120\nperiod = 120\nprologue = 32\nt_min = 6\ninterval = 3\nmux = false\nreply_queue = 8\nalpha = 5\ngamma = 7\n";

/// A NoC config from TOML text.
pub fn noc_config(name: &str, text: &str) -> golden::noc::NocConfig {
    golden::block::parse::<golden::noc::Noc>(Path::new(name), text).unwrap_or_else(|e| panic!("{name}: {e}")).config
}

/// A tiny deterministic generator for test vectors (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A value below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// True with probability `p` percent.
    pub fn pct(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
    /// `w` random bits (`w <= 128`).
    pub fn bits(&mut self, w: u32) -> u128 {
        let v = (self.next() as u128) << 64 | self.next() as u128;
        if w >= 128 {
            v
        } else {
            v & ((1u128 << w) - 1)
        }
    }
}

// ---------------------------------------------------------------------------
// the checks themselves
// ---------------------------------------------------------------------------

/// The checks are shown to fail: an unused input is a lint warning, an
/// incomplete combinational assignment a latch, a missing tool a panic.
#[test]
fn the_checks_catch_what_they_are_for() {
    let dir = scratch("negative");
    let unused = "module gf_t_unused(input wire a, input wire b, output wire y);\n  assign y = a;\nendmodule\n";
    std::fs::write(dir.join("gf_t_unused.v"), unused).unwrap();
    let e = lint(&dir, "gf_t_unused").expect_err("unused input");
    assert!(e.contains("UNUSED"), "{e}");
    let latch = "module gf_t_latch(input wire en, input wire d, output reg q);\n  always @(*) if (en) q = d;\nendmodule\n";
    std::fs::write(dir.join("gf_t_latch.v"), latch).unwrap();
    let e = synth(&dir, &["gf_t_latch.v".into()], "gf_t_latch").expect_err("latch");
    assert!(e.to_lowercase().contains("latch"), "{e}");
    let missing = std::panic::catch_unwind(|| run("gf-no-such-tool", &[], Path::new(".")));
    let msg = missing.expect_err("a missing tool panics");
    let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("gf-no-such-tool") && msg.contains("rather than skip"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ports_are_read_from_rust_hdl_declarations() {
    let t = "module m(a,b,c);\n    input wire  clk_i;\n    input wire  [137:0] push_flit_i;\n    output reg  [2:0] count__q_o;\n    output wire  v_o;\n";
    assert_eq!(ports(t), [("clk_i".into(), 1, true), ("push_flit_i".into(), 138, true), ("count__q_o".into(), 3, false), ("v_o".into(), 1, false)]);
}
