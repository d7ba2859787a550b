//! The mapper (spec §4.2): an application graph → placement on the chain → lanes →
//! CR words.
//!
//! * **Graph.** Nodes are unit instructions ([`Node`]: kind, opcode, immediate,
//!   operand sources, initial tokens, fire count, `last_only`); an edge is "operand
//!   `k` of the consumer reads the producer's output" ([`Operand::Node`]). SELF loops
//!   and IMM operands are local and need no lane.
//! * **Placement.** Every node gets a chain position of its kind, every lane driver
//!   strictly before its consumers (spec §1.3). *Our choice of search:* nodes are
//!   placed one after another in increasing position order, each at the first
//!   position of its kind after the previous node ("monotone list placement"; the
//!   spec's §2.1 table is exactly this for its node order). An exact dynamic program
//!   over (set of placed nodes, next position) finds, for the smallest lane count L
//!   for which any order works, the order with the smallest span. The number of
//!   values alive across a segment is the number of lanes that segment needs, so L
//!   is exact for the placement found, and lanes-first then span is the objective.
//!   Ties break towards lower node indices, so the result is deterministic. A state
//!   budget bounds the search; past it the graph's own node order is used.
//! * **Lanes.** Left-edge interval colouring: a value occupies its lane on the
//!   segments after its producer up to its last consumer, `(pos(u), last(u)]`. Values
//!   are coloured in position order; a lane is free again at its last consumer, so
//!   that unit may drive it (spec §1.3 "consume a lane and reuse it"). *Our
//!   tie-break:* first a lane this unit consumes whose value ends here (lowest operand
//!   slot first), else the lowest free lane. Any such greedy is optimal on interval
//!   graphs, so lanes used = the largest number of values alive at once. Lanes may be
//!   pinned by an explicit placement; unpinned values avoid pinned intervals.
//! * **Copies.** Copies are the same placement shifted by whole slices (stride =
//!   span rounded up to the slice length), packed from position 0; the mapping
//!   report states how many fit. *Our choice:* copies never interleave.
//! * **Checks.** Lanes ≤ the config's lanes; positions available; initial tokens ≤
//!   FIFO depth and ≤ 15 (the CR field); a SELF FIFO with initial tokens needs one
//!   more entry than it has tokens (*found, not in the spec*: a full FIFO refuses a
//!   push even in the cycle it is popped, so a SELF loop filled to its depth never
//!   fires again — a counter's depth-1 SELF FIFO deadlocks); drivers before consumers; every consumer's
//!   incoming segment is driven by its intended producer (re-derived from the encoded
//!   CR words, the "machine check"); LSU slot 2 unused; at most 64 nodes per copy.
//!   Fan-out is free (multicast), so there is no fan-out limit to check beyond that.

use std::collections::HashMap;

use super::config::{GpuccConfig, UnitKind, MAX_LANES, N_IN};
use super::cr::{Cr, Src, CR_WORDS, SRC_IMM, SRC_SELF, SRC_UNUSED};
use crate::config::FieldError;

/// Largest lane count the search tries (the CR can encode 5; the search goes on a
/// little further so an error can say what a mapping would need).
const SEARCH_LANES: u32 = 8;
/// DP states per lane count before falling back to the listed order.
const STATE_BUDGET: usize = 400_000;
/// The CR's `init_cnt` field is 4 bits.
pub const MAX_INIT_TOKENS: u32 = 15;

/// Where an operand comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Operand {
    Unused,
    /// The CR immediate (no FIFO).
    Imm,
    /// The unit's own result (local feedback FIFO).
    SelfLoop,
    /// The output of another node, over a lane.
    Node(usize),
}

/// One unit instruction of an application graph.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Node {
    pub name: String,
    pub kind: UnitKind,
    pub opcode: u32,
    pub imm: u32,
    pub inputs: [Operand; N_IN],
    pub init_cnt: [u32; N_IN],
    pub init_val: u32,
    pub fire_count: u32,
    pub last_only: bool,
}

impl Node {
    pub fn new(name: impl Into<String>, kind: UnitKind, opcode: u32) -> Self {
        Node { name: name.into(), kind, opcode, imm: 0, inputs: [Operand::Unused; N_IN], init_cnt: [0; N_IN], init_val: 0, fire_count: 0, last_only: false }
    }
    pub fn imm(mut self, imm: u32) -> Self {
        self.imm = imm;
        self
    }
    pub fn input(mut self, k: usize, o: Operand) -> Self {
        self.inputs[k] = o;
        self
    }
    /// `cnt` initial tokens of value `val` in FIFO `k` (one `init_val` per unit).
    pub fn init(mut self, k: usize, cnt: u32, val: u32) -> Self {
        self.init_cnt[k] = cnt;
        self.init_val = val;
        self
    }
    pub fn fire_count(mut self, n: u32) -> Self {
        self.fire_count = n;
        self
    }
    pub fn last_only(mut self) -> Self {
        self.last_only = true;
        self
    }
    /// Producers this node reads over lanes.
    pub fn drivers(&self) -> impl Iterator<Item = usize> + '_ {
        self.inputs.iter().filter_map(|o| match o {
            Operand::Node(u) => Some(*u),
            _ => None,
        })
    }
}

/// An application graph: one copy's unit instructions.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AppGraph {
    pub name: String,
    pub nodes: Vec<Node>,
}

impl AppGraph {
    pub fn new(name: impl Into<String>) -> Self {
        AppGraph { name: name.into(), nodes: Vec::new() }
    }

    /// Add a node; returns its index.
    pub fn add(&mut self, n: Node) -> usize {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.name == name)
    }

    pub fn cores(&self) -> u32 {
        self.nodes.iter().filter(|n| n.kind == UnitKind::Core).count() as u32
    }

    pub fn lsus(&self) -> u32 {
        self.nodes.iter().filter(|n| n.kind == UnitKind::Lsu).count() as u32
    }

    /// Same units and wiring (parameters such as immediates may differ).
    pub fn same_structure(&self, o: &AppGraph) -> bool {
        self.nodes.len() == o.nodes.len()
            && self.nodes.iter().zip(&o.nodes).all(|(a, b)| a.kind == b.kind && a.opcode == b.opcode && a.inputs == b.inputs && a.last_only == b.last_only)
    }

    /// Lane consumers of every node.
    fn consumers(&self) -> Vec<Vec<usize>> {
        let mut c = vec![Vec::new(); self.nodes.len()];
        for (v, n) in self.nodes.iter().enumerate() {
            for u in n.drivers() {
                if !c[u].contains(&v) {
                    c[u].push(v);
                }
            }
        }
        c
    }

    /// Structural checks independent of any config.
    pub fn validate(&self) -> Result<(), MapError> {
        let err = |msg: String| Err(MapError::Graph { app: self.name.clone(), msg });
        if self.nodes.is_empty() {
            return err("the graph has no nodes".into());
        }
        if self.nodes.len() > 64 {
            return err(format!("{} nodes per copy, at most 64", self.nodes.len()));
        }
        for (v, n) in self.nodes.iter().enumerate() {
            for (k, o) in n.inputs.iter().enumerate() {
                if let Operand::Node(u) = o {
                    if *u >= self.nodes.len() {
                        return err(format!("{} operand {k} reads node {u}, which does not exist", n.name));
                    }
                    if *u == v {
                        return err(format!("{} reads itself over a lane; use SELF", n.name));
                    }
                }
                if n.init_cnt[k] > 0 && !matches!(o, Operand::Node(_) | Operand::SelfLoop) {
                    return err(format!("{} has initial tokens in FIFO {k}, which is not a FIFO source", n.name));
                }
                if n.init_cnt[k] > MAX_INIT_TOKENS {
                    return err(format!("{} preloads {} initial tokens into FIFO {k}; the CR field holds at most {MAX_INIT_TOKENS}", n.name, n.init_cnt[k]));
                }
            }
            if n.kind == UnitKind::Lsu && n.inputs[2] != Operand::Unused {
                return err(format!("{} is an LSU; its operand 2 must be unused", n.name));
            }
        }
        // lane edges must form a DAG (SELF loops are local)
        let cons = self.consumers();
        let mut indeg: Vec<usize> = self
            .nodes
            .iter()
            .map(|n| {
                let mut d: Vec<usize> = n.drivers().collect();
                d.sort_unstable();
                d.dedup();
                d.len()
            })
            .collect();
        let mut ready: Vec<usize> = (0..self.nodes.len()).filter(|&v| indeg[v] == 0).collect();
        let mut seen = 0;
        while let Some(u) = ready.pop() {
            seen += 1;
            for &v in &cons[u] {
                indeg[v] -= 1;
                if indeg[v] == 0 {
                    ready.push(v);
                }
            }
        }
        if seen != self.nodes.len() {
            return err("lane edges form a cycle; feedback must use SELF".into());
        }
        Ok(())
    }
}

/// Why a graph does not map onto a config. [`MapError::field_error`] names the
/// config field that is too small.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("mapping {app} needs {need} lanes, config has {have}")]
    Lanes { app: String, need: u32, have: u32 },
    #[error("mapping {app} needs more than {max} lanes")]
    TooManyLanes { app: String, max: u32 },
    #[error("mapping {app} needs {need} positions ({need_slices} slices), config has {have}")]
    Positions { app: String, need: usize, need_slices: u32, have: usize },
    #[error("mapping {app} needs {kind:?} positions and the slice pattern has none")]
    NoKind { app: String, kind: UnitKind },
    #[error("mapping {app}: {node} preloads {need} initial tokens into FIFO {slot}, depth is {depth}")]
    InitTokens { app: String, node: String, slot: usize, need: u32, depth: u32, field: &'static str },
    #[error("mapping {app}: {node} keeps {init} initial tokens in its SELF FIFO {slot}, which needs depth {need} (a full FIFO refuses the push of the result that pops it), depth is {depth}")]
    SelfLoopDepth { app: String, node: String, slot: usize, init: u32, need: u32, depth: u32, field: &'static str },
    #[error("mapping {app}: {want} copies requested, {max} fit")]
    Copies { app: String, want: u32, max: u32 },
    #[error("mapping {app} computes on 32-bit words, config has {have}-bit lanes")]
    DataWidth { app: String, have: u32 },
    #[error("graph {app}: {msg}")]
    Graph { app: String, msg: String },
    #[error("placement of {app}: {msg}")]
    Placement { app: String, msg: String },
    #[error("wiring check of {app}: {msg}")]
    Wiring { app: String, msg: String },
}

impl MapError {
    /// The config field that would have to change, the message, and the range of
    /// that field that would work.
    pub fn field_error(&self) -> FieldError {
        match self {
            MapError::Lanes { need, .. } => FieldError::new("gpucc.lanes", self.to_string(), Some(format!("{need}..={MAX_LANES}"))),
            MapError::TooManyLanes { .. } => FieldError::new("gpucc.lanes", self.to_string(), None),
            MapError::Positions { need_slices, .. } => FieldError::new("gpucc.slices", self.to_string(), Some(format!("{need_slices}..=64"))),
            MapError::NoKind { .. } => FieldError::new("gpucc.slice", self.to_string(), Some("a slice with both core and lsu units".into())),
            MapError::InitTokens { need, field, .. } | MapError::SelfLoopDepth { need, field, .. } => FieldError::new(*field, self.to_string(), Some(format!("{need}..=256"))),
            MapError::Copies { max, .. } => FieldError::new("gpucc.app.copies", self.to_string(), Some(format!("1..={max}"))),
            MapError::DataWidth { .. } => FieldError::new("gpucc.data_width", self.to_string(), Some("32, 64".into())),
            MapError::Graph { .. } | MapError::Placement { .. } | MapError::Wiring { .. } => FieldError::new("gpucc.app", self.to_string(), None),
        }
    }
}

/// Where one copy's nodes sit, and which lane each drives.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Placement {
    /// Position of each node in copy 0.
    pub pos: Vec<usize>,
    /// Lane each node drives (None: no lane consumer).
    pub out_lane: Vec<Option<u8>>,
    /// Lanes used (highest lane index + 1).
    pub lanes_used: u32,
    /// Positions one copy spans (last position + 1).
    pub span: usize,
    /// Distance between copies (span rounded up to whole slices).
    pub stride: usize,
    /// Copies that fit on the config's chain.
    pub max_copies: u32,
}

/// What a mapping uses (spec §3.3 / §5 G9).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MapReport {
    pub app: String,
    pub lanes_used: u32,
    pub cores_per_copy: u32,
    pub lsus_per_copy: u32,
    pub positions_per_copy: usize,
    pub copy_stride: usize,
    pub max_copies: u32,
    pub copies: u32,
    /// Positions holding an enabled unit (= CRs written per SM).
    pub units_used: u32,
}

impl Placement {
    pub fn report(&self, g: &AppGraph, copies: u32) -> MapReport {
        MapReport {
            app: g.name.clone(),
            lanes_used: self.lanes_used,
            cores_per_copy: g.cores(),
            lsus_per_copy: g.lsus(),
            positions_per_copy: self.span,
            copy_stride: self.stride,
            max_copies: self.max_copies,
            copies,
            units_used: copies * g.nodes.len() as u32,
        }
    }
}

fn kind_at(pattern: &[UnitKind], p: usize) -> UnitKind {
    pattern[p % pattern.len()]
}

fn check_tokens(g: &AppGraph, cfg: &GpuccConfig) -> Result<(), MapError> {
    for n in &g.nodes {
        for k in 0..N_IN {
            let need = n.init_cnt[k];
            if need == 0 {
                continue;
            }
            let (depth, field) = match (n.kind, k) {
                (UnitKind::Core, _) => (cfg.core_fifo_depth, "gpucc.core_fifo_depth"),
                (UnitKind::Lsu, 0) => (cfg.lsu_addr_depth, "gpucc.lsu_addr_depth"),
                (UnitKind::Lsu, _) => (cfg.lsu_data_depth, "gpucc.lsu_data_depth"),
            };
            if need > depth {
                return Err(MapError::InitTokens { app: g.name.clone(), node: n.name.clone(), slot: k, need, depth, field });
            }
            // A full FIFO refuses a push even in the cycle it is popped (spec §1.4), so
            // a SELF loop holding as many tokens as its depth can never fire again.
            if n.inputs[k] == Operand::SelfLoop && need + 1 > depth {
                return Err(MapError::SelfLoopDepth { app: g.name.clone(), node: n.name.clone(), slot: k, init: need, need: need + 1, depth, field });
            }
        }
    }
    Ok(())
}

fn check_kinds(g: &AppGraph, cfg: &GpuccConfig) -> Result<(), MapError> {
    for kind in [UnitKind::Core, UnitKind::Lsu] {
        if g.nodes.iter().any(|n| n.kind == kind) && !cfg.slice.contains(&kind) {
            return Err(MapError::NoKind { app: g.name.clone(), kind });
        }
    }
    Ok(())
}

/// The exact search of the module doc.
struct Search<'a> {
    kinds: Vec<UnitKind>,
    drivers: Vec<u64>,
    consumers: Vec<u64>,
    pattern: &'a [UnitKind],
    full: u64,
    lanes: u32,
    memo: HashMap<(u64, u32), u32>,
    budget_hit: bool,
}

const INF: u32 = u32::MAX;

impl Search<'_> {
    fn live(&self, mask: u64) -> u32 {
        let mut n = 0;
        let mut m = mask;
        while m != 0 {
            let u = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.consumers[u] & !mask != 0 {
                n += 1;
            }
        }
        n
    }

    fn next_pos(&self, next: u32, kind: UnitKind) -> u32 {
        let mut p = next;
        while kind_at(self.pattern, p as usize) != kind {
            p += 1;
        }
        p
    }

    fn step(&self, mask: u64, next: u32, v: usize) -> Option<(u64, u32)> {
        if mask & (1 << v) != 0 || self.drivers[v] & !mask != 0 {
            return None;
        }
        let m2 = mask | 1 << v;
        if self.live(m2) > self.lanes {
            return None;
        }
        Some((m2, self.next_pos(next, self.kinds[v]) + 1))
    }

    /// Smallest span completing the placement from this state (INF if none).
    fn solve(&mut self, mask: u64, next: u32) -> u32 {
        if mask == self.full {
            return next;
        }
        if let Some(&r) = self.memo.get(&(mask, next)) {
            return r;
        }
        if self.memo.len() >= STATE_BUDGET {
            self.budget_hit = true;
            return INF;
        }
        let mut best = INF;
        for v in 0..self.kinds.len() {
            if let Some((m2, n2)) = self.step(mask, next, v) {
                best = best.min(self.solve(m2, n2));
            }
        }
        self.memo.insert((mask, next), best);
        best
    }

    /// Positions of the best order, by replaying the memo.
    #[allow(clippy::needless_range_loop)]
    fn positions(&mut self) -> Vec<usize> {
        let mut pos = vec![0; self.kinds.len()];
        let (mut mask, mut next) = (0u64, 0u32);
        let target = self.solve(0, 0);
        while mask != self.full {
            let mut moved = false;
            for v in 0..self.kinds.len() {
                if let Some((m2, n2)) = self.step(mask, next, v) {
                    if self.solve(m2, n2) == target {
                        pos[v] = (n2 - 1) as usize;
                        mask = m2;
                        next = n2;
                        moved = true;
                        break;
                    }
                }
            }
            assert!(moved, "memo replay diverged");
        }
        pos
    }
}

/// Monotone list placement in the graph's own node order (the search's fallback).
fn listed_positions(g: &AppGraph, pattern: &[UnitKind]) -> Option<Vec<usize>> {
    let mut next = 0;
    let mut pos = Vec::with_capacity(g.nodes.len());
    for n in &g.nodes {
        while kind_at(pattern, next) != n.kind {
            next += 1;
        }
        pos.push(next);
        next += 1;
    }
    // the order must put drivers first
    g.nodes.iter().enumerate().all(|(v, n)| n.drivers().all(|u| pos[u] < pos[v])).then_some(pos)
}

/// Place a graph automatically on `cfg` (module doc).
pub fn place(g: &AppGraph, cfg: &GpuccConfig) -> Result<Placement, MapError> {
    g.validate()?;
    check_kinds(g, cfg)?;
    check_tokens(g, cfg)?;
    let n = g.nodes.len();
    let cons = g.consumers();
    let mut search = Search {
        kinds: g.nodes.iter().map(|x| x.kind).collect(),
        drivers: g.nodes.iter().map(|x| x.drivers().fold(0u64, |m, u| m | 1 << u)).collect(),
        consumers: cons.iter().map(|c| c.iter().fold(0u64, |m, &v| m | 1 << v)).collect(),
        pattern: &cfg.slice,
        full: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
        lanes: 0,
        memo: HashMap::new(),
        budget_hit: false,
    };
    let mut pos = None;
    for lanes in 1..=SEARCH_LANES {
        search.lanes = lanes;
        search.memo.clear();
        if search.solve(0, 0) != INF {
            pos = Some(search.positions());
            break;
        }
        if search.budget_hit {
            break;
        }
    }
    let pos = match pos {
        Some(p) => p,
        None if search.budget_hit => listed_positions(g, &cfg.slice)
            .ok_or_else(|| MapError::Placement { app: g.name.clone(), msg: "search budget exhausted and the listed order is not topological".into() })?,
        None => return Err(MapError::TooManyLanes { app: g.name.clone(), max: SEARCH_LANES }),
    };
    finish(g, cfg, pos, &vec![None; n])
}

/// Place a graph at given positions (copy 0), optionally with pinned lanes; lanes
/// not pinned are assigned by the left-edge rule.
pub fn place_explicit(g: &AppGraph, cfg: &GpuccConfig, pos: &[usize], pins: &[Option<u8>]) -> Result<Placement, MapError> {
    g.validate()?;
    check_kinds(g, cfg)?;
    check_tokens(g, cfg)?;
    let perr = |msg: String| MapError::Placement { app: g.name.clone(), msg };
    if pos.len() != g.nodes.len() || pins.len() != g.nodes.len() {
        return Err(perr(format!("{} positions / {} lanes for {} nodes", pos.len(), pins.len(), g.nodes.len())));
    }
    for (v, n) in g.nodes.iter().enumerate() {
        if kind_at(&cfg.slice, pos[v]) != n.kind {
            return Err(perr(format!("{} is a {:?} but position {} is not", n.name, n.kind, pos[v])));
        }
        if let Some(w) = (0..v).find(|&w| pos[w] == pos[v]) {
            return Err(perr(format!("{} and {} share position {}", g.nodes[w].name, n.name, pos[v])));
        }
        for u in n.drivers() {
            if pos[u] >= pos[v] {
                return Err(perr(format!("{} (position {}) reads {} at position {}: drivers must come first", n.name, pos[v], g.nodes[u].name, pos[u])));
            }
        }
    }
    finish(g, cfg, pos.to_vec(), pins)
}

fn finish(g: &AppGraph, cfg: &GpuccConfig, pos: Vec<usize>, pins: &[Option<u8>]) -> Result<Placement, MapError> {
    let (out_lane, lanes_used) = assign_lanes(g, &pos, pins).map_err(|msg| MapError::Placement { app: g.name.clone(), msg })?;
    if lanes_used > MAX_LANES {
        return Err(MapError::TooManyLanes { app: g.name.clone(), max: MAX_LANES });
    }
    if lanes_used > cfg.lanes {
        return Err(MapError::Lanes { app: g.name.clone(), need: lanes_used, have: cfg.lanes });
    }
    let span = pos.iter().max().map_or(0, |m| m + 1);
    let sl = cfg.slice.len();
    let stride = span.div_ceil(sl) * sl;
    if span > cfg.n_pos() {
        return Err(MapError::Positions { app: g.name.clone(), need: span, need_slices: span.div_ceil(sl) as u32, have: cfg.n_pos() });
    }
    let max_copies = ((cfg.n_pos() - span) / stride + 1) as u32;
    Ok(Placement { pos, out_lane, lanes_used, span, stride, max_copies })
}

/// Left-edge lane colouring with the tie-break of the module doc. Returns each
/// node's driven lane and the lane count (highest index + 1).
pub fn assign_lanes(g: &AppGraph, pos: &[usize], pins: &[Option<u8>]) -> Result<(Vec<Option<u8>>, u32), String> {
    let n = g.nodes.len();
    let cons = g.consumers();
    let end: Vec<Option<usize>> = (0..n).map(|u| cons[u].iter().map(|&v| pos[v]).max()).collect();
    let lanes = SEARCH_LANES as usize;
    // pinned intervals, per lane
    let mut reserved: Vec<Vec<(usize, usize)>> = vec![Vec::new(); lanes];
    for u in 0..n {
        if let (Some(l), Some(e)) = (pins[u], end[u]) {
            if l as usize >= lanes {
                return Err(format!("{} is pinned to lane {l}", g.nodes[u].name));
            }
            reserved[l as usize].push((pos[u], e));
        }
    }
    let overlaps = |a: (usize, usize), b: (usize, usize)| a.0 < b.1 && b.0 < a.1;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| pos[v]);
    let mut busy_until: Vec<usize> = vec![0; lanes];
    let mut out = vec![None; n];
    for &v in &order {
        let Some(e) = end[v] else { continue };
        let p = pos[v];
        let iv = (p, e);
        let free = |l: usize, busy: &[usize]| busy[l] <= p;
        let lane = if let Some(l) = pins[v] {
            let l = l as usize;
            if !free(l, &busy_until) {
                return Err(format!("{} is pinned to lane {} which is still busy at position {p}", g.nodes[v].name, (b'A' + l as u8) as char));
            }
            l
        } else {
            let usable = |l: usize| free(l, &busy_until) && reserved[l].iter().all(|&r| r == iv || !overlaps(r, iv));
            let reuse = g.nodes[v].inputs.iter().find_map(|o| match o {
                Operand::Node(u) => out[*u].filter(|&l: &u8| end[*u] == Some(p) && usable(l as usize)).map(|l| l as usize),
                _ => None,
            });
            match reuse.or_else(|| (0..lanes).find(|&l| usable(l))) {
                Some(l) => l,
                None => return Err(format!("no lane for {} within {lanes} lanes", g.nodes[v].name)),
            }
        };
        busy_until[lane] = e;
        out[v] = Some(lane as u8);
    }
    let used = out.iter().flatten().map(|&l| l as u32 + 1).max().unwrap_or(0);
    Ok((out, used))
}

/// The CR image of one SM: `copies[c]` placed at `c * stride`. Every copy must
/// have the placement's structure. Returns `N_POS` CRs (4 words each), verified by
/// [`verify_wiring`].
pub fn encode(cfg: &GpuccConfig, pl: &Placement, copies: &[AppGraph]) -> Result<Vec<[u32; CR_WORDS]>, MapError> {
    let mut words = vec![[0u32; CR_WORDS]; cfg.n_pos()];
    let Some(first) = copies.first() else { return Ok(words) };
    if copies.len() as u32 > pl.max_copies {
        return Err(MapError::Copies { app: first.name.clone(), want: copies.len() as u32, max: pl.max_copies });
    }
    for (c, g) in copies.iter().enumerate() {
        if !g.same_structure(first) || g.nodes.len() != pl.pos.len() {
            return Err(MapError::Graph { app: g.name.clone(), msg: format!("copy {c} differs in structure from copy 0") });
        }
        check_tokens(g, cfg)?;
        let base = c * pl.stride;
        for (v, n) in g.nodes.iter().enumerate() {
            let mut in_src = [SRC_UNUSED; N_IN];
            for (k, o) in n.inputs.iter().enumerate() {
                in_src[k] = match o {
                    Operand::Unused => SRC_UNUSED,
                    Operand::Imm => SRC_IMM,
                    Operand::SelfLoop => SRC_SELF,
                    Operand::Node(u) => match pl.out_lane[*u] {
                        Some(l) => Src::Lane(l).encode(),
                        None => return Err(MapError::Wiring { app: g.name.clone(), msg: format!("{} drives no lane", g.nodes[*u].name) }),
                    },
                };
            }
            let cr = Cr {
                en: true,
                opcode: n.opcode,
                out_lane: pl.out_lane[v].map_or(0, |l| l as u32 + 1),
                in_src,
                init_cnt: n.init_cnt,
                last_only: n.last_only,
                imm: n.imm,
                fire_count: n.fire_count,
                init_val: n.init_val,
            };
            words[base + pl.pos[v]] = cr.to_words();
        }
    }
    verify_wiring(cfg, &words, pl, copies)?;
    Ok(words)
}

/// Re-derive every lane operand's driver from the CR words alone (nearest driver of
/// that lane strictly before the consumer) and check it is the intended producer.
pub fn verify_wiring(cfg: &GpuccConfig, words: &[[u32; CR_WORDS]], pl: &Placement, copies: &[AppGraph]) -> Result<(), MapError> {
    let crs: Vec<Cr> = words.iter().map(|w| Cr::from_words(*w)).collect();
    for (c, g) in copies.iter().enumerate() {
        let base = c * pl.stride;
        for (v, n) in g.nodes.iter().enumerate() {
            let p = base + pl.pos[v];
            if cfg.kinds[p] != n.kind {
                return Err(MapError::Wiring { app: g.name.clone(), msg: format!("{} landed on a {:?} position", n.name, cfg.kinds[p]) });
            }
            for (k, o) in n.inputs.iter().enumerate() {
                if let Operand::Node(u) = o {
                    let Src::Lane(l) = crs[p].src(k, cfg.lanes) else {
                        return Err(MapError::Wiring { app: g.name.clone(), msg: format!("{} operand {k} is not a lane", n.name) });
                    };
                    let drv = (0..p).rev().find(|&q| crs[q].en && crs[q].drive_lane(cfg.lanes) == Some(l));
                    if drv != Some(base + pl.pos[*u]) {
                        return Err(MapError::Wiring {
                            app: g.name.clone(),
                            msg: format!(
                                "copy {c}: {} operand {k} reads lane {} driven by position {drv:?}, expected {} at {}",
                                n.name,
                                (b'A' + l) as char,
                                g.nodes[*u].name,
                                base + pl.pos[*u]
                            ),
                        });
                    }
                }
            }
        }
    }
    Ok(())
}
