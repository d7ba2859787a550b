//! The nine offload-chain patterns of Table 1 (spec §2.2): what each loads, computes,
//! stores and answers.

use serde::Serialize;

/// What the EMN returns to the source core (spec §2.2, §2.3 `resp_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RespKind {
    /// 1 flit.
    Ack,
    /// 5 flits: header + the 128-B result vector.
    Data,
    /// 1 flit carrying the 32-bit lane map.
    Bitmap,
}

impl RespKind {
    pub fn code(self) -> u32 {
        match self {
            RespKind::Ack => 0,
            RespKind::Data => 1,
            RespKind::Bitmap => 2,
        }
    }

    /// The kind of `resp_kind` code `c` (0 ACK, 1 DATA, 2 BITMAP).
    pub fn from_code(c: u32) -> Option<Self> {
        [RespKind::Ack, RespKind::Data, RespKind::Bitmap].get(c as usize).copied()
    }

    pub fn flits(self) -> u32 {
        match self {
            RespKind::Data => DATA_FLITS,
            _ => 1,
        }
    }
}

/// Flits of a 128-B data packet (header + 4 × 32 B), spec §1.8.
pub const DATA_FLITS: u32 = 5;

/// Kind of a chain instruction (`ci_kind`, spec §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum InstrKind {
    Ld,
    Movi,
    Alu,
    Cmp,
    St,
}

impl InstrKind {
    pub fn code(self) -> u32 {
        match self {
            InstrKind::Ld => 0,
            InstrKind::Movi => 1,
            InstrKind::Alu => 2,
            InstrKind::Cmp => 3,
            InstrKind::St => 4,
        }
    }

    pub fn from_code(c: u32) -> Option<Self> {
        [InstrKind::Ld, InstrKind::Movi, InstrKind::Alu, InstrKind::Cmp, InstrKind::St].get(c as usize).copied()
    }
}

/// One pattern of Table 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Pattern {
    /// 1..=9.
    pub id: u32,
    /// The instruction kinds in chain order (tags 01, 10..., 11).
    pub seq: &'static [InstrKind],
    pub resp: RespKind,
}

use InstrKind::*;

/// Table 1, in order (pattern `p` is `PATTERNS[p - 1]`).
pub const PATTERNS: [Pattern; 9] = [
    Pattern { id: 1, seq: &[Ld, Ld, Alu, St], resp: RespKind::Ack },
    Pattern { id: 2, seq: &[Ld, Ld, Alu], resp: RespKind::Data },
    Pattern { id: 3, seq: &[Ld, St], resp: RespKind::Ack },
    Pattern { id: 4, seq: &[Ld, Alu, St], resp: RespKind::Ack },
    Pattern { id: 5, seq: &[Ld, Ld, Cmp], resp: RespKind::Bitmap },
    Pattern { id: 6, seq: &[Ld, Movi, Cmp], resp: RespKind::Bitmap },
    Pattern { id: 7, seq: &[Ld, Movi, Alu, St], resp: RespKind::Ack },
    Pattern { id: 8, seq: &[Ld, Movi, Ld, Alu, Alu], resp: RespKind::Data },
    Pattern { id: 9, seq: &[Ld, Movi, Ld, Alu, Alu, St], resp: RespKind::Ack },
];

impl Pattern {
    pub fn get(id: u32) -> Option<&'static Pattern> {
        PATTERNS.get((id as usize).wrapping_sub(1))
    }

    /// Memory loads of the chain (1 or 2).
    pub fn loads(&self) -> usize {
        self.seq.iter().filter(|k| **k == Ld).count()
    }

    pub fn has_store(&self) -> bool {
        self.seq.contains(&St)
    }

    /// ALU operations the EMN performs (0 for the copy, 2 for patterns 8/9).
    pub fn alu_ops(&self) -> usize {
        self.seq.iter().filter(|k| matches!(k, Alu | Cmp)).count()
    }

    /// The pattern a sequence of instruction kinds forms, if any.
    pub fn of_seq(seq: &[InstrKind]) -> Option<&'static Pattern> {
        PATTERNS.iter().find(|p| p.seq == seq)
    }

    /// After how many absorbed instructions the EMN key is known (spec §1.3.4 (d)):
    /// two-load patterns after the second load, pattern 6 after the first load,
    /// patterns with a store (3, 4, 7) when the store is absorbed.
    pub fn key_known_after(&self) -> usize {
        match (self.loads(), self.has_store()) {
            (2, _) => self.seq.iter().rposition(|k| *k == Ld).unwrap() + 1,
            (1, false) => 1,
            _ => self.seq.len(),
        }
    }
}
