//! The 128-bit configuration register (CR) of every unit: layout of spec §1.5.
//!
//! This module is the one source of truth for the bit layout: the golden models
//! decode CRs with [`Cr::from_words`], and the HDL generator takes every field's
//! position from [`FIELDS`] when it emits the Verilog decoder.

/// Number of 32-bit words in a CR (`cfg_word_i` selects one).
pub const CR_WORDS: usize = 4;
/// CR width in bits.
pub const CR_BITS: u32 = 128;

/// The bit fields of word 0 (`golden::bits::Field`, the one field type of every encoding).
pub use crate::bits::Field;

pub const EN: Field = Field { name: "en", lsb: 0, width: 1 };
pub const OPCODE: Field = Field { name: "opcode", lsb: 1, width: 6 };
pub const OUT_LANE: Field = Field { name: "out_lane", lsb: 7, width: 3 };
pub const IN_SRC: [Field; 3] = [Field { name: "in0_src", lsb: 10, width: 3 }, Field { name: "in1_src", lsb: 13, width: 3 }, Field { name: "in2_src", lsb: 16, width: 3 }];
pub const INIT_CNT: [Field; 3] = [Field { name: "init_cnt0", lsb: 19, width: 4 }, Field { name: "init_cnt1", lsb: 23, width: 4 }, Field { name: "init_cnt2", lsb: 27, width: 4 }];
pub const LAST_ONLY: Field = Field { name: "last_only", lsb: 31, width: 1 };

/// All fields of word 0, in bit order (for manifests and the HDL decoder).
pub const FIELDS: [Field; 10] = [EN, OPCODE, OUT_LANE, IN_SRC[0], IN_SRC[1], IN_SRC[2], INIT_CNT[0], INIT_CNT[1], INIT_CNT[2], LAST_ONLY];

/// Word indices of the 32-bit CR words after word 0.
pub const WORD_IMM: usize = 1;
pub const WORD_FIRE_COUNT: usize = 2;
pub const WORD_INIT_VAL: usize = 3;

/// Source-select codes of `inK_src` (spec §1.5): 0 unused, 1..=5 lane A..E, 6 SELF, 7 IMM.
pub const SRC_UNUSED: u32 = 0;
pub const SRC_SELF: u32 = 6;
pub const SRC_IMM: u32 = 7;

/// What an operand slot reads, as decoded for a network with `lanes` lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Src {
    #[default]
    Unused,
    /// Incoming segment of lane `0..lanes` at this position.
    Lane(u8),
    /// The unit's own result (local feedback).
    SelfLoop,
    /// The CR immediate.
    Imm,
}

impl Src {
    /// Decode a 3-bit source code. Lane codes beyond the network's lane count select
    /// nothing and behave as `Unused` (both models, both directions).
    pub fn decode(code: u32, lanes: u32) -> Src {
        match code {
            SRC_SELF => Src::SelfLoop,
            SRC_IMM => Src::Imm,
            c @ 1..=5 if c <= lanes => Src::Lane((c - 1) as u8),
            _ => Src::Unused,
        }
    }

    pub fn encode(self) -> u32 {
        match self {
            Src::Unused => SRC_UNUSED,
            Src::Lane(l) => l as u32 + 1,
            Src::SelfLoop => SRC_SELF,
            Src::Imm => SRC_IMM,
        }
    }
}

/// Decode an `out_lane` code: 0 none, 1..=lanes drive lane code-1; anything else none.
pub fn decode_out_lane(code: u32, lanes: u32) -> Option<u8> {
    (code >= 1 && code <= lanes).then(|| (code - 1) as u8)
}

/// Fixed-instruction opcodes (spec §1.6).
pub mod op {
    pub const NOP: u32 = 0x00;
    pub const IADD: u32 = 0x01;
    pub const ISUB: u32 = 0x02;
    pub const IMUL: u32 = 0x03;
    pub const IMAD: u32 = 0x04;
    pub const IMIN: u32 = 0x05;
    pub const IMAX: u32 = 0x06;
    pub const AND: u32 = 0x07;
    pub const OR: u32 = 0x08;
    pub const XOR: u32 = 0x09;
    pub const SHL: u32 = 0x0A;
    pub const SHR: u32 = 0x0B;
    pub const SAR: u32 = 0x0C;
    pub const MOV: u32 = 0x0D;
    pub const FADD: u32 = 0x10;
    pub const FSUB: u32 = 0x11;
    pub const FMUL: u32 = 0x12;
    pub const FMAD: u32 = 0x13;
    pub const FMIN: u32 = 0x14;
    pub const FMAX: u32 = 0x15;
    pub const LD: u32 = 0x20;
    pub const ST: u32 = 0x21;
}

/// A configuration register, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cr {
    pub en: bool,
    pub opcode: u32,
    /// Raw `out_lane` code (0 none, 1..=5 lane A..E).
    pub out_lane: u32,
    /// Raw `inK_src` codes.
    pub in_src: [u32; 3],
    pub init_cnt: [u32; 3],
    pub last_only: bool,
    pub imm: u32,
    pub fire_count: u32,
    pub init_val: u32,
}

impl Cr {
    pub fn from_words(w: [u32; CR_WORDS]) -> Cr {
        Cr {
            en: EN.get(w[0]) != 0,
            opcode: OPCODE.get(w[0]),
            out_lane: OUT_LANE.get(w[0]),
            in_src: [IN_SRC[0].get(w[0]), IN_SRC[1].get(w[0]), IN_SRC[2].get(w[0])],
            init_cnt: [INIT_CNT[0].get(w[0]), INIT_CNT[1].get(w[0]), INIT_CNT[2].get(w[0])],
            last_only: LAST_ONLY.get(w[0]) != 0,
            imm: w[WORD_IMM],
            fire_count: w[WORD_FIRE_COUNT],
            init_val: w[WORD_INIT_VAL],
        }
    }

    pub fn to_words(&self) -> [u32; CR_WORDS] {
        let mut w0 = 0;
        w0 = EN.put(w0, self.en as u32);
        w0 = OPCODE.put(w0, self.opcode);
        w0 = OUT_LANE.put(w0, self.out_lane);
        for k in 0..3 {
            w0 = IN_SRC[k].put(w0, self.in_src[k]);
            w0 = INIT_CNT[k].put(w0, self.init_cnt[k]);
        }
        w0 = LAST_ONLY.put(w0, self.last_only as u32);
        [w0, self.imm, self.fire_count, self.init_val]
    }

    pub fn src(&self, k: usize, lanes: u32) -> Src {
        Src::decode(self.in_src[k], lanes)
    }

    pub fn drive_lane(&self, lanes: u32) -> Option<u8> {
        decode_out_lane(self.out_lane, lanes)
    }
}
