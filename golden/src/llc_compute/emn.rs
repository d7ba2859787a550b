//! Earliest Meet Node (spec §2.4): Algorithm 1, reconstructed, for any mesh and any MC
//! placement, and the per-core 64-entry lookup table (spec §1.4) it fills.
//!
//! The routing paths are the NoC's deterministic dimension-order routes from the source
//! core to each operand's LLC (YX in the baseline, spec §3). A node on both paths other
//! than the source is a meet node; the EMN is the one closest to both LLCs (summed
//! Manhattan distance, ties to the node farther from the source). With the knob
//! `emn_paths = request_or_reply_route` a node on the reverse of a reply's YX route
//! (the XY path from the source) also counts (spec §2.4.2).

use serde::{Deserialize, Serialize};

/// A mesh node as (x, y); its id is `y * width + x` (spec §2.4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Node {
    pub x: u32,
    pub y: u32,
}

impl Node {
    pub const fn new(x: u32, y: u32) -> Self {
        Self { x, y }
    }

    /// Links crossed by a minimal route between the two nodes.
    pub fn manhattan(self, o: Node) -> u32 {
        self.x.abs_diff(o.x) + self.y.abs_diff(o.y)
    }
}

/// Which routes a meet node may lie on (knob `emn_paths`, spec §2.4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmnPaths {
    /// The two load requests' YX routes (default).
    RequestRoute,
    /// Also the reverse of each reply's YX route (an XY path from the source).
    RequestOrReplyRoute,
}

/// The YX route from `s` to `d`, both ends included: first along y, then along x.
pub fn route_yx(s: Node, d: Node) -> Vec<Node> {
    let mut p = vec![s];
    let (x, mut y) = (s.x, s.y);
    while y != d.y {
        y = if d.y > y { y + 1 } else { y - 1 };
        p.push(Node::new(x, y));
    }
    let mut x = x;
    while x != d.x {
        x = if d.x > x { x + 1 } else { x - 1 };
        p.push(Node::new(x, y));
    }
    p
}

/// The XY route from `s` to `d` (the reverse of the reply's YX route from `d` to `s`).
pub fn route_xy(s: Node, d: Node) -> Vec<Node> {
    let mut p = route_yx(d, s);
    p.reverse();
    p
}

/// The nodes a meet node may come from on the way from `src` to `llc`.
fn candidates(src: Node, llc: Node, paths: EmnPaths) -> Vec<Node> {
    let mut v = route_yx(src, llc);
    if paths == EmnPaths::RequestOrReplyRoute {
        v.extend(route_xy(src, llc));
    }
    v
}

/// Algorithm 1: the EMN of two loads from `src` to LLCs at `la` and `lb`, or `None`.
pub fn emn(src: Node, la: Node, lb: Node, paths: EmnPaths) -> Option<Node> {
    if la == lb {
        return Some(la);
    }
    let pa = candidates(src, la, paths);
    let pb = candidates(src, lb, paths);
    pa.iter().copied().filter(|n| *n != src && pb.contains(n)).min_by_key(|n| (n.manhattan(la) + n.manhattan(lb), std::cmp::Reverse(src.manhattan(*n))))
}

/// A mesh and its MC (LLC partition) nodes: the geometry the EMN tables come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placement {
    pub width: u32,
    pub height: u32,
    /// LLC / MC `i` sits at `mcs[i]`.
    pub mcs: Vec<Node>,
}

/// What sits at a node: a core (numbered row-major over the non-MC nodes) or an LLC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Site {
    Core(u32),
    Llc(u32),
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Site::Core(c) => write!(f, "c{c}"),
            Site::Llc(l) => write!(f, "L{l}"),
        }
    }
}

/// One core's EMN lookup table: `entry[a][b]` for the MC ids of the two operands.
pub type EmnLut = Vec<Vec<Option<Node>>>;

impl Placement {
    /// The default 8×8 placement of spec §2.4.3 (reproduces Fig. 3).
    pub fn fig3() -> Self {
        let mcs = [(2, 0), (5, 1), (3, 2), (7, 3), (1, 4), (6, 5), (0, 6), (4, 7)].iter().map(|&(x, y)| Node::new(x, y)).collect();
        Self { width: 8, height: 8, mcs }
    }

    pub fn nodes(&self) -> u32 {
        self.width * self.height
    }

    pub fn id(&self, n: Node) -> u32 {
        n.y * self.width + n.x
    }

    pub fn node(&self, id: u32) -> Node {
        Node::new(id % self.width, id / self.width)
    }

    /// The site at a node.
    pub fn site(&self, n: Node) -> Site {
        if let Some(i) = self.mcs.iter().position(|m| *m == n) {
            return Site::Llc(i as u32);
        }
        let id = self.id(n);
        let before = self.mcs.iter().filter(|m| self.id(**m) < id).count() as u32;
        Site::Core(id - before)
    }

    /// The node of core `c` (row-major over the non-MC nodes).
    pub fn core(&self, c: u32) -> Node {
        (0..self.nodes()).map(|i| self.node(i)).filter(|n| !self.mcs.contains(n)).nth(c as usize).expect("core id within the mesh")
    }

    pub fn cores(&self) -> u32 {
        self.nodes() - self.mcs.len() as u32
    }

    /// The EMN lookup table of the core (or any node) at `src` (spec §2.4.2 `build_lut`).
    pub fn lut(&self, src: Node, paths: EmnPaths) -> EmnLut {
        self.mcs.iter().map(|&a| self.mcs.iter().map(|&b| emn(src, a, b, paths)).collect()).collect()
    }

    /// Every node's table, indexed by node id (LLC nodes too: the RTL needs no special case).
    pub fn luts(&self, paths: EmnPaths) -> Vec<EmnLut> {
        (0..self.nodes()).map(|i| self.lut(self.node(i), paths)).collect()
    }

    /// Spec §2.4.3 statistics / study 21: over every core and every ordered pair of
    /// different MCs, how many have an EMN, and how many of those EMNs are LLC nodes.
    pub fn availability(&self, paths: EmnPaths) -> EmnAvailability {
        let mut a = EmnAvailability::default();
        for c in 0..self.cores() {
            let lut = self.lut(self.core(c), paths);
            for (i, row) in lut.iter().enumerate() {
                for (j, e) in row.iter().enumerate() {
                    a.pairs += 1;
                    if e.is_some() {
                        a.with_emn += 1;
                    }
                    if i != j {
                        a.distinct_pairs += 1;
                        if let Some(n) = e {
                            a.distinct_with_emn += 1;
                            if matches!(self.site(*n), Site::Llc(_)) {
                                a.distinct_llc_emn += 1;
                            }
                        }
                    }
                }
            }
        }
        a
    }
}

/// Counts over (core, ordered MC pair) combinations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EmnAvailability {
    pub pairs: u32,
    pub with_emn: u32,
    pub distinct_pairs: u32,
    pub distinct_with_emn: u32,
    /// Different-MC pairs whose EMN is itself an LLC node.
    pub distinct_llc_emn: u32,
}

/// Study 21 on the GPU model: one core's EMN table as the offload hook holds it
/// (`lut[a][b]`, network node ids; `mem_nodes[i]` is MC `i`'s node), counted over the
/// ordered pairs of different MCs. Summed over the cores it is [`EmnAvailability`]'s
/// `distinct_*` fields for the GPU's placement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EmnTableCounts {
    /// Ordered pairs of different MCs (n (n - 1) for n MCs).
    pub pairs: u64,
    /// Of those, the pairs with an EMN.
    pub with_emn: u64,
    /// Of those, the pairs whose EMN is an LLC (MC) node.
    pub llc_emn: u64,
}

impl EmnTableCounts {
    pub fn of(lut: &[Vec<Option<usize>>], mem_nodes: &[usize]) -> Self {
        let mut c = Self::default();
        for (a, row) in lut.iter().enumerate() {
            for (b, e) in row.iter().enumerate() {
                if a == b {
                    continue;
                }
                c.pairs += 1;
                if let Some(n) = e {
                    c.with_emn += 1;
                    c.llc_emn += u64::from(mem_nodes.contains(n));
                }
            }
        }
        c
    }
}

/// One LUT entry as the RTL stores it: `{valid, node_id}` (spec §1.4: 7 b for 64 nodes).
pub fn lut_word(p: &Placement, e: Option<Node>, node_w: u32) -> u64 {
    match e {
        Some(n) => (1 << node_w) | u64::from(p.id(n)),
        None => 0,
    }
}
