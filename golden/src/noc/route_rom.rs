//! Route lookup ROM of the hinge router (spec §1.4) and overlay compatibility (§1.8).
//!
//! A row maps each output port (E, W, N, S, L) to one of ten sources: the bypass or
//! direct input of a direction, or the latch of a direction (`Lat(d)`), or nothing
//! (φ). Encoding per 6-bit field [OC]: bit5 valid, bit4 is_latch, bits3:1 direction,
//! bit0 reserved; a row is `{f_L, f_S, f_N, f_W, f_E}` (E in bits 5:0) = 30 bits.
//!
//! This module is the one source of truth for that encoding: [`ROW_FIELDS`] and
//! [`SRC_FIELDS`] give every bit position, [`Source::encode`] every code, and the
//! HDL leaves (`hdl_gen::noc::leaf::{rom, hinge}`) take theirs from here.
#![allow(clippy::needless_range_loop, reason = "the output port number is matched against the legal-source table")]

use std::fmt;

pub use crate::bits::Field;

/// Port / direction indices, everywhere: E=0, W=1, N=2, S=3, L=4.
pub const E: usize = 0;
pub const W: usize = 1;
pub const N: usize = 2;
pub const S: usize = 3;
pub const L: usize = 4;
pub const DIRS: [&str; 5] = ["E", "W", "N", "S", "L"];

/// Width of an overlay code: the ROM address of a row (MC index i = overlay i, m = the
/// GOM broadcast row), also the MC index the routers and NIs carry on constant ports.
pub const OVL_BITS: u32 = 4;
/// The overlay code "none": no live overlay (a ROM read of it gives all φ), no MC.
pub const OVL_NONE: u32 = (1 << OVL_BITS) - 1;
/// Rows of the largest ROM: `MC_MAX` overlays and the GOM row.
pub const MAX_ROWS: usize = crate::noc::config::MC_MAX as usize + 1;
const _: () = assert!(MAX_ROWS as u32 <= OVL_NONE, "every row needs an overlay code below OVL_NONE");

/// Where an output port takes its flit from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Source {
    /// φ: not driven.
    None,
    /// The bypass (straight) input of a mesh direction, or the direct local input (L).
    Direct(u8),
    /// The latch of a direction.
    Latch(u8),
}

/// Width of one source field of a row.
pub const FIELD_BITS: u32 = 6;
/// Width of a ROM row: one source field per output E, W, N, S, L.
pub const ROW_BITS: u32 = 5 * FIELD_BITS;

/// The source field of each output in a row, indexed by output port (E in bits 5:0).
pub const ROW_FIELDS: [Field; 5] = [
    Field::new("f_E", 0, FIELD_BITS),
    Field::new("f_W", FIELD_BITS, FIELD_BITS),
    Field::new("f_N", 2 * FIELD_BITS, FIELD_BITS),
    Field::new("f_S", 3 * FIELD_BITS, FIELD_BITS),
    Field::new("f_L", 4 * FIELD_BITS, FIELD_BITS),
];

/// Sub-fields of a source field: valid, is_latch, direction, reserved.
pub const SRC_VALID: Field = Field::new("valid", 5, 1);
pub const SRC_IS_LATCH: Field = Field::new("is_latch", 4, 1);
pub const SRC_DIR: Field = Field::new("dir", 1, 3);
pub const SRC_RESERVED: Field = Field::new("reserved", 0, 1);
/// All sub-fields of a source field, most significant first.
pub const SRC_FIELDS: [Field; 4] = [SRC_VALID, SRC_IS_LATCH, SRC_DIR, SRC_RESERVED];

impl Source {
    /// The 6-bit ROM field.
    pub const fn encode(self) -> u32 {
        match self {
            Source::None => 0,
            Source::Direct(d) => SRC_DIR.put(SRC_VALID.put(0, 1), d as u32),
            Source::Latch(d) => SRC_DIR.put(SRC_IS_LATCH.put(SRC_VALID.put(0, 1), 1), d as u32),
        }
    }

    pub const fn decode(f: u32) -> Source {
        if SRC_VALID.get(f) == 0 {
            Source::None
        } else if SRC_IS_LATCH.get(f) != 0 {
            Source::Latch(SRC_DIR.get(f) as u8)
        } else {
            Source::Direct(SRC_DIR.get(f) as u8)
        }
    }

    pub fn is_latch(self, d: usize) -> bool {
        self == Source::Latch(d as u8)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::None => write!(f, "φ"),
            Source::Direct(d) => write!(f, "{}", DIRS[*d as usize]),
            Source::Latch(d) => write!(f, "Lat({})", DIRS[*d as usize]),
        }
    }
}

/// One ROM row: the source of each output E, W, N, S, L.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct RomRow(pub [Source; 5]);

impl RomRow {
    pub const EMPTY: RomRow = RomRow([Source::None; 5]);

    /// The [`ROW_BITS`]-bit encoding.
    pub fn bits(&self) -> u32 {
        self.0.iter().zip(ROW_FIELDS).fold(0, |acc, (s, f)| f.put(acc, s.encode()))
    }

    pub fn from_bits(b: u32) -> RomRow {
        let mut r = RomRow::EMPTY;
        for (o, f) in ROW_FIELDS.iter().enumerate() {
            r.0[o] = Source::decode(f.get(b));
        }
        r
    }

    /// Whether any output takes its flit from the latch of `d`.
    pub fn uses_latch(&self, d: usize) -> bool {
        self.0.iter().any(|s| s.is_latch(d))
    }

    /// The symbolic form, e.g. `S<N L<Lat(N)`.
    pub fn symbolic(&self) -> String {
        let parts: Vec<String> = (0..5).filter(|&o| self.0[o] != Source::None).map(|o| format!("{}<{}", DIRS[o], self.0[o])).collect();
        parts.join(" ")
    }
}

/// The ROM row of router `(x, y)` of an `n` x `n` mesh for an overlay whose source
/// (an MC, or the GOM for the broadcast row) sits at `(a, b)` (spec §1.4).
pub fn row(n: u32, (x, y): (u32, u32), (a, b): (u32, u32)) -> RomRow {
    use Source::{Direct as D, Latch as Lt};
    let mut r = [Source::None; 5];
    let (e, w, nn, s, l) = (E as u8, W as u8, N as u8, S as u8, L as u8);
    if y == b {
        let from = if x == a {
            if x < n - 1 {
                r[E] = D(l);
            }
            if x > 0 {
                r[W] = D(l);
            }
            l
        } else if x > a {
            if x < n - 1 {
                r[E] = D(w);
            }
            w
        } else {
            if x > 0 {
                r[W] = D(e);
            }
            e
        };
        if y < n - 1 {
            r[N] = Lt(from);
        }
        if y > 0 {
            r[S] = Lt(from);
        }
        r[L] = Lt(from);
    } else if y > b {
        if y < n - 1 {
            r[N] = D(s);
        }
        r[L] = Lt(s);
    } else {
        if y > 0 {
            r[S] = D(nn);
        }
        r[L] = Lt(nn);
    }
    RomRow(r)
}

/// The legal-source table of spec §1.3; anything else is a generator error.
pub fn check_legal(r: &RomRow) -> Result<(), String> {
    use Source::*;
    for o in 0..5 {
        let s = r.0[o];
        let ok = match (o, s) {
            (_, None) => true,
            (E, Direct(d)) => d as usize == W || d as usize == L,
            (W, Direct(d)) => d as usize == E || d as usize == L,
            (N, Direct(d)) => d as usize == S,
            (S, Direct(d)) => d as usize == N,
            (N | S, Latch(d)) => matches!(d as usize, E | W | L),
            (L, Latch(_)) => true,
            _ => false,
        };
        if !ok {
            return Err(format!("output {} may not take {s}", DIRS[o]));
        }
    }
    Ok(())
}

/// Overlays `i` and `j` are compatible iff at every router at most one of them
/// drives each of E, W, N, S, and their L sources differ (spec §1.8).
pub fn compatible(roms: &[Vec<RomRow>], i: usize, j: usize) -> bool {
    roms.iter().all(|rows| {
        let (a, b) = (&rows[i], &rows[j]);
        (0..4).all(|o| a.0[o] == Source::None || b.0[o] == Source::None) && (a.0[L] != b.0[L] || a.0[L] == Source::None)
    })
}

/// Greedy pairing (spec §1.8): walk the MCs in overlay order; each unpaired MC takes
/// the first later unpaired MC it is compatible with. Groups are listed in order of
/// their first member; the first member injects on phase 0.
pub fn greedy_pairs(mcs: &[(u32, u32)], compat: &[Vec<bool>], _n: u32) -> Vec<Vec<usize>> {
    let m = mcs.len();
    let mut taken = vec![false; m];
    let mut groups = Vec::new();
    for i in 0..m {
        if taken[i] {
            continue;
        }
        taken[i] = true;
        let mut g = vec![i];
        if let Some(j) = (i + 1..m).find(|&j| !taken[j] && compat[i][j]) {
            taken[j] = true;
            g.push(j);
        }
        groups.push(g);
    }
    groups
}
