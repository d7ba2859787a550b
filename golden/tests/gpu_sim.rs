//! Acceptance 4 (as far as it goes without the mesh models) and 5, plus the host side:
//! determinism, network independence of results, config and launch validation, the
//! reference checker shown to fail, occupancy errors, limits and the report.

use crate::gpu_common;

use golden::gpu::launch::{Elem, HostBuffer};
use golden::gpu::net::NetError;
use golden::gpu::sim::{compare, run_capture, Gpu};
use golden::gpu::{run, GpuConfig, RunAhead, RunOptions, SimError};
use golden::network::IdealNetwork;
use gpu_common::*;

#[test]
fn same_config_and_seed_give_byte_identical_json() {
    for (cfg, w) in [("tiny", "bfs/bfs.toml"), ("tiny", "prodcons/prodcons.toml"), ("macro_16", "reduce/reduce.toml"), ("llc_compute_56", "kmeans/kmeans.toml")] {
        let (c, l) = (config(cfg), launch(w));
        let a = run(&c, &l, RunOptions { seed: 7, ..Default::default() }).unwrap().to_json();
        let b = run(&c, &l, RunOptions { seed: 7, ..Default::default() }).unwrap().to_json();
        assert_eq!(a, b, "{w} on {cfg}");
        assert!(a.contains("\"cycles\"") && a.contains("\"stalls\"") && a.contains("\"dram_row_hit_rate\""));
    }
}

/// SMs that touch nothing shared run ahead of the GPU (the default): the report (every
/// statistic, printf output), the output buffers and the cycle count are the plain
/// cycle-by-cycle loop's, on kernels with global loads and stores, atomics, shared
/// memory, barriers, several kernels, dual issue and a VC mesh.
#[test]
fn running_ahead_changes_nothing() {
    let lrr2 = config_with("macro_16", &[("core", "issue_width", "2"), ("core", "scheduler", "\"lrr\"")]);
    let mesh = config_with("macro_16", &[("network", "kind", "\"mesh\"")]);
    let cases: [(&str, GpuConfig, &str); 10] = [
        ("tiny", config("tiny"), "micro/compute.toml"),
        ("macro_16", config("macro_16"), "micro/compute.toml"),
        ("macro_16", config("macro_16"), "reduce/reduce.toml"),
        ("macro_16", config("macro_16"), "stencil/stencil.toml"),
        ("tiny", config("tiny"), "tpacf/tpacf.toml"),
        ("tiny", config("tiny"), "bfs/bfs.toml"),
        ("macro_16", config("macro_16"), "backprop/backprop.toml"),
        ("macro_16", config("macro_16"), "isa/isa.toml"),
        ("lrr dual issue", lrr2, "hotspot/hotspot.toml"),
        ("VC mesh", mesh, "nw/nw.toml"),
    ];
    for (name, c, w) in &cases {
        let l = launch(w);
        let go = |run_ahead| run_capture(Gpu::new(c).unwrap(), &l, RunOptions { run_ahead, ..Default::default() }).unwrap();
        let ((on, on_bufs), (off, off_bufs)) = (go(RunAhead::On), go(RunAhead::Off));
        assert!(on.checks_passed(), "{w} on {name}");
        assert_eq!(on.to_json(), off.to_json(), "{w} on {name}: report");
        assert_eq!(on_bufs, off_bufs, "{w} on {name}: buffers");
    }
    // planted: an SM runs ahead while it has room for a threadblock the dispatcher still
    // holds (64 threadblocks for 2 SMs), so the threadblock starts at another cycle
    let l = launch_text(
        "micro/compute.toml",
        &std::fs::read_to_string(root().join("workloads/micro/compute.toml")).unwrap().replace("grid = 16", "grid = 64").replace("len = 4096", "len = 16384"),
    );
    let go = |run_ahead| run(&config("tiny"), &l, RunOptions { run_ahead, ..Default::default() }).unwrap();
    let (on, off, bad) = (go(RunAhead::On), go(RunAhead::Off), go(RunAhead::PlantedIgnoreDispatch));
    assert_eq!(on.to_json(), off.to_json());
    assert_ne!(bad.to_json(), off.to_json(), "the planted bug went unseen");
    assert_ne!(bad.cycles, off.cycles);
}

#[test]
fn a_different_seed_changes_unseeded_data_only() {
    // vecadd's generators have their own seeds: the run seed does not matter
    let (c, l) = (config("tiny"), launch("vecadd/vecadd.toml"));
    let a = run(&c, &l, RunOptions { seed: 1, ..Default::default() }).unwrap();
    let b = run(&c, &l, RunOptions { seed: 2, ..Default::default() }).unwrap();
    assert_eq!(a.cycles, b.cycles);
    assert_ne!(a.to_json(), b.to_json(), "the seed is recorded in the report");
}

#[test]
fn network_latency_changes_timing_not_results() {
    // Acceptance 4 with the ideal network at two latencies (the mesh and MACRO-NoC models
    // plug in through golden::gpu::net::build the same way).
    for w in ["vecadd/vecadd.toml", "prodcons/prodcons.toml", "bfs/bfs.toml", "transpose/transpose.toml"] {
        let l = launch(w);
        let fast = config_with("macro_16", &[("network", "latency", "5")]);
        let slow = config_with("macro_16", &[("network", "latency", "60")]);
        let rf = run(&fast, &l, RunOptions::default()).unwrap();
        let rs = run(&slow, &l, RunOptions::default()).unwrap();
        assert!(rf.checks_passed() && rs.checks_passed(), "{w}");
        assert!(rs.cycles > rf.cycles, "{w}: {} vs {}", rs.cycles, rf.cycles);
        assert!(rs.noc.mean_latency > rf.noc.mean_latency + 50.0, "{w}");
        // a network handed in from outside is used as is
        let gpu = Gpu::with_network(&fast, Box::new(IdealNetwork::new(fast.network.nodes, 60))).unwrap();
        let rc = golden::gpu::sim::run_on(gpu, &l, RunOptions::default()).unwrap();
        assert_eq!(rc.cycles, rs.cycles, "{w}: custom network == config network of the same latency");
    }
}

/// Acceptance 4: the same kernels on the ideal network, the baseline VC mesh and
/// MACRO-NoC give identical results and different timing.
#[test]
fn ideal_mesh_and_macro_networks_give_identical_results_and_different_timing() {
    for w in ["vecadd/vecadd.toml", "reduce/reduce.toml", "prodcons/prodcons.toml"] {
        let l = launch(w);
        let mut runs = Vec::new();
        for kind in ["ideal", "mesh", "macro"] {
            let c = config_with("macro_16", &[("network", "kind", &format!("\"{kind}\""))]);
            let (r, bufs) = golden::gpu::sim::run_capture(Gpu::new(&c).unwrap(), &l, RunOptions::default()).unwrap();
            assert!(r.checks_passed(), "{w} on {kind}: {r}");
            assert!(r.noc.stats.packets_delivered > 0, "{w} on {kind}: no traffic");
            runs.push((kind, r.cycles, r.noc.mean_latency, bufs));
        }
        let (_, _, _, ref first) = runs[0];
        for (kind, _, _, bufs) in &runs[1..] {
            assert_eq!(bufs, first, "{w}: results on {kind} differ from the ideal network");
        }
        let cycles: Vec<u64> = runs.iter().map(|r| r.1).collect();
        assert!(cycles[0] != cycles[1] && cycles[1] != cycles[2], "{w}: timing should differ: {cycles:?}");
    }
}

#[test]
fn unsupported_router_knobs_are_config_errors() {
    // checked when the config is loaded, with the GPU config's own field names, through
    // the NoC's one validation
    let path = config_path("macro_16");
    let p = path.display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let mesh = set(&text, "network", "kind", "\"mesh\"");
    let e = |t: String| GpuConfig::parse(&path, &t).unwrap_err().to_string();
    assert_eq!(e(set(&mesh, "network.router", "vcs", "9")), format!("{p}: network.router.vcs: 9 is out of range (allowed: 1..=8)"));
    assert_eq!(e(set(&mesh, "network.router", "buf_depth", "3")), format!("{p}: network.router.buf_depth: 3 is not supported (allowed: one of 2, 4, 8)"));
    assert_eq!(e(set(&mesh, "network", "flit_width", "512")), format!("{p}: network.flit_width: 512 is not supported (allowed: one of 32, 64, 128, 256)"));
    assert_eq!(e(mesh.replace("buf_depth = 4 ", "pipeline_stages = 5\nbuf_depth = 4 ")), format!("{p}: network.router.pipeline_stages: 5 is not supported (allowed: one of 3)"));
    assert_eq!(e(set(&mesh, "network", "mesh", "[4, 5]")), format!("{p}: network.mesh: 4x5 is not square (allowed: [N, N], N in 2..=8)"));
    assert_eq!(e(set(&set(&mesh, "network", "mesh", "[10, 10]"), "network", "kind", "\"macro\"")), format!("{p}: network.mesh: 10 is out of range (allowed: 2..=8)"));
    // llc_omni_compute.md §1.8's reply VCs: 1..vcs-1 on one plane with yx or xy routing
    let reply = |t: &str, r: &str| t.replace("buf_depth = 4 ", &format!("reply_vcs = {r}\nbuf_depth = 4 "));
    let one_plane = set(&mesh, "network.router", "planes", "1");
    assert!(GpuConfig::parse(&path, &reply(&one_plane, "2")).is_ok());
    assert_eq!(e(reply(&one_plane, "3")), format!("{p}: network.router.reply_vcs: 3 is out of range (allowed: 1..=2)"));
    assert_eq!(e(reply(&one_plane, "0")), format!("{p}: network.router.reply_vcs: 0 is out of range (allowed: 1..=2)"));
    let two = "the request and reply classes are already apart (allowed: only with planes = 1 and routing = \"yx\" or \"xy\")";
    assert_eq!(e(reply(&mesh, "1")), format!("{p}: network.router.reply_vcs: {two}"));
    assert_eq!(e(reply(&set(&set(&one_plane, "network.router", "routing", "\"xy_yx\""), "network.router", "vcs", "4"), "1")), format!("{p}: network.router.reply_vcs: {two}"));
    assert_eq!(e(reply(&text, "1")), format!("{p}: network.router.reply_vcs: reply VCs split the VC mesh's classes (allowed: only with kind = \"mesh\")"));
    // the same values are fine where they are only recorded (ideal network)
    assert!(GpuConfig::parse(&path, &set(&text, "network.router", "vcs", "9")).is_ok());
    // unknown keys are refused for every network kind
    let unknown = text.replace("vcs = 3 ", "virtual_channels = 3 ");
    assert!(e(unknown).starts_with(&format!(
        "{p}: network.router.virtual_channels (line 92): unknown field `virtual_channels`, expected one of `routing`, `vcs`, `buf_depth`, `planes`, `pipeline_stages`"
    )));
    // the old vocabulary is gone
    assert!(e(text.replace("flit_width = 128", "flit_bytes = 16")).starts_with(&format!("{p}: network.flit_bytes (line 85): unknown field `flit_bytes`")));
    assert!(e(text.replace("buf_depth = 4 ", "vc_buffers = 4 ")).starts_with(&format!("{p}: network.router.vc_buffers (line 93): unknown field `vc_buffers`")));
    assert_eq!(e(set(&text, "network", "flit_width", "100")), format!("{p}: network.flit_width: 100 bits is not a whole number of bytes (allowed: multiples of 8 in 32..=8192)"));
    // a network handed in from outside must have room for the placement
    let c = config("macro_16");
    let e = Gpu::with_network(&c, Box::new(IdealNetwork::new(4, 10))).err().unwrap();
    assert_eq!(e, SimError::Network(NetError::TooFewNodes { have: 4, need: 16 }));
}

#[test]
fn placements_come_from_the_config() {
    // llc_omni_compute.md §2.4.3: cores row-major skipping MC nodes; core 15 = (1,2) = node 17,
    // L5 = (6,5) = node 46, core 36 = (1,5) = node 41.
    let c = config("llc_compute_56");
    assert_eq!(c.network.nodes, 64);
    assert_eq!(c.network.mem_nodes, vec![2, 13, 19, 31, 33, 46, 48, 60]);
    assert_eq!((c.network.sm_nodes[15], c.network.sm_nodes[36]), (17, 41));
    let m = config("macro_16");
    assert_eq!(m.network.mem_nodes, vec![14, 8, 7, 1]);
    assert_eq!(m.network.sm_nodes, vec![0, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 15]);
    // the ideal network without a mesh numbers SMs first, then memory nodes
    let t = config("tiny");
    assert_eq!((t.network.sm_nodes.clone(), t.network.mem_nodes.clone(), t.network.nodes), (vec![0, 1], vec![2, 3], 4));
}

#[test]
fn config_errors_name_file_field_and_allowed_range() {
    let path = config_path("tiny");
    let text = std::fs::read_to_string(&path).unwrap();
    let e = |t: String| GpuConfig::parse(&path, &t).unwrap_err().to_string();
    let p = path.display().to_string();
    assert_eq!(e(set(&text, "core", "schedulers", "0")), format!("{p}: core.schedulers: 0 is out of range (allowed: 1..=16)"));
    assert_eq!(e(set(&text, "l1", "line_bytes", "96")), format!("{p}: l1.line_bytes: 96 is not a power of two (allowed: a power of two in 32..=128)"));
    assert_eq!(e(set(&text, "dram", "bus_bytes", "48")), format!("{p}: dram.bus_bytes: 48 does not divide the 128-byte line (allowed: a divisor of 128)"));
    assert_eq!(e(set(&text, "core", "scheduler", "\"fifo\"")).split(": unknown variant").next().unwrap(), format!("{p}: core.scheduler (line 17)"));
    assert_eq!(
        e(text.replace("[l1]", "[l1]\nsize = 3")),
        format!("{p}: l1.size (line 39): unknown field `size`, expected one of `size_bytes`, `ways`, `line_bytes`, `hit_latency`, `mshrs`, `mshr_merge`, `miss_queue`")
    );
    let mesh = std::fs::read_to_string(config_path("macro_16")).unwrap();
    let mp = config_path("macro_16").display().to_string();
    let em = |t: String| GpuConfig::parse(&config_path("macro_16"), &t).unwrap_err().to_string();
    assert_eq!(em(mesh.replace("[[2, 3], [0, 2]", "[[2, 4], [0, 2]")), format!("{mp}: network.mem_nodes[0]: (2,4) is outside the 4x4 mesh (allowed: x in 0..4, y in 0..4)"));
    assert_eq!(em(mesh.replace("[[2, 3], [0, 2]", "[[0, 2], [0, 2]")), format!("{mp}: network.mem_nodes[1]: (0,2) is used twice (allowed: distinct mesh nodes)"));
    assert_eq!(
        em(set(&mesh, "gpu", "sms", "13")),
        format!("{mp}: network.mesh: a 4x4 mesh has room for 12 SMs besides the memory nodes, the GPU has 13 (allowed: at least 17 nodes)")
    );
}

#[test]
fn reference_checks_fail_on_a_corrupted_reference() {
    // the launch's [check] says alpha = 2.4 while the kernel ran with 2.5
    let base = std::fs::read_to_string(root().join("workloads/saxpy/saxpy.toml")).unwrap();
    let l = launch_text("saxpy/saxpy.toml", &base.replace("alpha = 2.5", "alpha = 2.4"));
    let r = run(&config("tiny"), &l, RunOptions::default()).unwrap();
    assert!(!r.checks_passed());
    let c = &r.checks[0];
    assert_eq!(c.elements, 7777);
    assert!(c.mismatches > 7000, "almost every element differs: {c:?}");
    assert!(c.first_mismatch.as_deref().unwrap().starts_with("[0] = "), "{c:?}");
    assert!(r.to_string().contains("check y            FAILED"), "{r}");
    // and element-wise: one flipped bit in the expected data is caught, a tolerance admits it
    let got = HostBuffer::from_f32("y", &[1.0, 2.0, 3.0]);
    let mut bad = got.clone();
    bad.data[4] ^= 1;
    assert!(compare(&got, &got, 0.0, 0.0).passed);
    let rep = compare(&got, &bad, 0.0, 0.0);
    assert!(!rep.passed && rep.mismatches == 1 && rep.first_mismatch.as_deref().unwrap().starts_with("[1] = 2"));
    assert!(compare(&got, &bad, 1e-6, 0.0).passed);
    let ints = HostBuffer { name: "i".into(), elem: Elem::U32, data: vec![1, 0, 0, 0] };
    let mut ints_bad = ints.clone();
    ints_bad.data[0] = 2;
    assert!(!compare(&ints, &ints_bad, 1.0, 1.0).passed, "integers compare exactly");
}

#[test]
fn a_cta_that_does_not_fit_is_an_error() {
    let base = std::fs::read_to_string(root().join("workloads/vecadd/vecadd.toml")).unwrap();
    let l = launch_text("vecadd/vecadd.toml", &base.replace("block = 256", "block = 1024\nregs_per_thread = 64").replace("grid = 40", "grid = 10"));
    let e = run(&config("tiny"), &l, RunOptions::default()).unwrap_err().to_string();
    assert_eq!(e, "kernel `_Z6vecaddPKfS0_Pfi` cannot run on this GPU: 65536 registers per CTA (64 per thread) exceed the SM's 32768 registers");
}

#[test]
fn progress_and_cycle_limit() {
    let (c, l) = (config("tiny"), launch("reduce/reduce.toml"));
    let mut calls = Vec::new();
    let mut cb = |cy: u64, insts: u64| calls.push((cy, insts));
    let r = run(&c, &l, RunOptions { progress: Some(&mut cb), progress_every: 1000, ..Default::default() }).unwrap();
    assert_eq!(calls.len() as u64, r.cycles / 1000);
    assert!(calls.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
    let e = run(&c, &l, RunOptions { max_cycles: Some(500), ..Default::default() }).unwrap_err();
    assert_eq!(e, SimError::CycleLimit(500));
}

#[test]
fn report_summarizes_the_run() {
    let r = run(&config("tiny"), &launch("reduce/reduce.toml"), RunOptions::default()).unwrap();
    let s = r.to_string();
    for key in ["cycles", "IPC", "L1D hit rate", "LLC hit rate", "DRAM", "row-buffer hit rate", "NoC", "mean hops", "stalls:", "check partial      ok"] {
        assert!(s.contains(key), "missing `{key}` in\n{s}");
    }
    assert_eq!(r.kernels.len(), 1);
    assert_eq!(r.kernels[0].ctas, 196);
    assert_eq!(r.sync.barriers_completed, 196 * 9);
    assert!(r.shmem.accesses > 0);
    assert_eq!(r.per_sm.len(), 2);
    assert_eq!(r.per_sm.iter().map(|s| s.warp_insts).sum::<u64>(), r.warp_insts);
    // every issue slot is either used or attributed to a stall
    let st = &r.issue.stalls;
    let unused = st.mem_data + st.alu_data + st.fu_busy + st.lsu_busy + st.barrier + st.fence + st.fetch + st.other;
    assert_eq!(r.issue.issue_slots, r.warp_insts + unused);
    // the BFS launch relaunches its step kernel until nothing changes
    let b = run(&config("tiny"), &launch("bfs/bfs.toml"), RunOptions::default()).unwrap();
    assert!(b.kernels.len() > 3 && b.kernels[0].name == "bfs_init" && b.kernels.iter().skip(1).all(|k| k.name == "bfs_step"));
}

#[test]
fn buffers_can_come_from_files_and_generators() {
    // a raw little-endian file feeds `src`; the copy kernel moves it to `dst`
    let scratch = tempfile::tempdir().unwrap();
    let tmp = scratch.path();
    let words: Vec<u32> = (0..1000u32).map(|i| i.wrapping_mul(2654435761)).collect();
    std::fs::write(tmp.join("src.bin"), words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let ptx = root().join("workloads/copy/copy.ptx");
    let text = format!(
        "name = \"file_copy\"\n[[buffer]]\nname = \"src\"\ntype = \"u32\"\ninit = {{ kind = \"file\", path = \"src.bin\" }}\n\
         [[buffer]]\nname = \"dst\"\ntype = \"u32\"\nlen = 1000\ninit = {{ kind = \"constant\", value = 7 }}\n\
         [[kernel]]\nptx = {:?}\ngrid = 4\nblock = 256\nargs = [\"src\", \"dst\", 1000, 1]\n\
         [check]\nreference = \"copy\"\noutputs = [\"dst\"]\nparams = {{ n = 1000, stride = 1 }}\n",
        ptx.display().to_string()
    );
    let l = golden::gpu::Launch::parse(&tmp.join("file_copy.toml"), &text).unwrap();
    assert_eq!(l.buffers[0].len, 1000);
    let (r, b) = golden::gpu::sim::run_capture(Gpu::new(&config("tiny")).unwrap(), &l, RunOptions::default()).unwrap();
    assert!(r.checks_passed(), "{r}");
    assert_eq!(b["dst"].u32s(), words);
    // a missing file is a launch error naming the field
    let e = golden::gpu::Launch::parse(&tmp.join("file_copy.toml"), &text.replace("src.bin", "nope.bin")).unwrap_err().to_string();
    assert!(e.contains("buffer[0].init.path: cannot read"), "{e}");
    // generators are deterministic and seeded
    let g = golden::gpu::launch::random_graph(100, 3, 5);
    assert_eq!(g, golden::gpu::launch::random_graph(100, 3, 5));
    assert_eq!(g.0.len(), 101);
    assert!(g.1.iter().all(|&c| c < 100));
}

/// The `descending` graph shape (the Q-cache `color` producer's input): node v has
/// floor(d(1 - v/n)^2 + u) edges, u in [0, 1), so node 0 has exactly d, the last
/// nodes none, about d/3 on average, and no self loops; the launch generators give the
/// same CSR.
#[test]
fn descending_graphs_have_falling_degrees() {
    use golden::gpu::launch::{descending_graph, graph, GraphShape};
    let (n, d) = (20_000u32, 9u32);
    let (o, c) = descending_graph(n, d, 7);
    let deg = |v: usize| o[v + 1] - o[v];
    assert_eq!(deg(0), d);
    assert_eq!(deg(n as usize - 1), 0);
    // by hand: the mean of floor(d x^2 + u) over x uniform in (0, 1] is d/3 (3 here)
    let mean = c.len() as f64 / n as f64;
    assert!((mean - 3.0).abs() < 0.05, "{mean}");
    // falling: the first tenth has more than 0.8d on average (d x^2 over x in 0.9..1 is
    // 0.903d), the last tenth less than 0.02d (0.0033d)
    let tenth = |k: usize| (o[(k + 1) * n as usize / 10] - o[k * n as usize / 10]) as f64 / (n / 10) as f64;
    assert!(tenth(0) > 0.8 * d as f64 && tenth(9) < 0.02 * d as f64, "{} {}", tenth(0), tenth(9));
    assert!((0..n as usize).all(|v| (o[v]..o[v + 1]).all(|e| c[e as usize] != v as u32 && c[e as usize] < n)));
    assert_eq!(graph(n, d, 7, GraphShape::Descending), (o, c));
    assert_eq!(graph(100, 3, 5, GraphShape::Uniform), golden::gpu::launch::random_graph(100, 3, 5));
    // planted: a shape the generators do not know is a launch error naming the field
    let tmp = std::env::temp_dir();
    let text = "name = \"g\"\n[[buffer]]\nname = \"r\"\ntype = \"u32\"\ninit = { kind = \"graph_row_offsets\", nodes = 10, degree = 2, seed = 1, shape = \"powerlaw\" }\n";
    let e = golden::gpu::Launch::parse(&tmp.join("g.toml"), text).unwrap_err().to_string();
    assert!(e.contains("buffer") && e.contains("powerlaw") && e.contains("descending"), "{e}");
}

#[test]
fn macro_reply_plane_knobs_are_checked_and_basic_injection_is_slower() {
    let path = config_path("macro_16");
    let p = path.display().to_string();
    let text = set(&std::fs::read_to_string(&path).unwrap(), "network", "kind", "\"macro\"");
    let with = |t: &str, reply: &str| format!("{t}\n[network.reply]\n{reply}\n");
    let e = |t: String| GpuConfig::parse(&path, &t).unwrap_err().to_string();
    assert_eq!(e(with(&text, "interval = 4")), format!("{p}: network.reply.interval: 4 is not supported (allowed: one of 2, 3)"));
    let both = e(with(&text, "interval = 3\nmux = true"));
    assert!(both.contains("network.reply") && both.contains("mux = false, or interval = 2"), "{both}");
    let mesh = set(&text, "network", "kind", "\"mesh\"");
    assert_eq!(e(with(&mesh, "mux = false")), format!("{p}: network.reply: MACRO-NoC's reply-plane keys on a VC mesh (allowed: [network.reply] only with kind = \"macro\")"));
    assert!(e(with(&text, "pipelined = true")).contains("unknown field `pipelined`"));
    // spec 1.7: the basic overlay injects a flit every 3 cycles, the pipelined one every
    // 2 (83 against 124 slots in a 250-cycle window): a memory-bound kernel takes longer,
    // with the same results
    let l = launch("vecadd/vecadd.toml");
    let mut runs = Vec::new();
    for reply in ["", "mux = false\ninterval = 2", "mux = false\ninterval = 3"] {
        let c = GpuConfig::parse(&path, &with(&text, reply)).unwrap();
        let (r, bufs) = golden::gpu::sim::run_capture(Gpu::new(&c).unwrap(), &l, RunOptions::default()).unwrap();
        assert!(r.checks_passed(), "{reply}: {r}");
        runs.push((r.cycles, bufs));
    }
    assert_eq!(runs[1].1, runs[0].1);
    assert_eq!(runs[2].1, runs[0].1);
    assert!(runs[2].0 > runs[1].0, "basic injection {} cycles, pipelined {}", runs[2].0, runs[1].0);
}
