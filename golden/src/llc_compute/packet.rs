//! The ComputePacket flit (spec §2.3, bit 255 = MSB) and the header fields every
//! offload message shares. One field table, used by the golden models, the generator
//! and the benches.

use crate::bits::Field;

/// Flit width (32 B, spec §3).
pub const FLIT_W: u32 = 256;
/// Words of a flit.
pub const FLIT_WORDS: usize = 4;
/// Byte-address width carried per operand.
pub const ADDR_W: u32 = 48;

// header [255:232]: is_cp | sink(2) | msg_class(2) | src_node(6) | dst_node(6) | len_flits(3) | non_offloadable | rsvd(3)
pub const IS_CP: Field = Field::new("is_cp", 255, 1);
pub const SINK: Field = Field::new("sink", 253, 2);
pub const MSG_CLASS: Field = Field::new("msg_class", 251, 2);
pub const SRC_NODE: Field = Field::new("src_node", 245, 6);
pub const DST_NODE: Field = Field::new("dst_node", 239, 6);
pub const LEN_FLITS: Field = Field::new("len_flits", 236, 3);
pub const NON_OFFLOADABLE: Field = Field::new("non_offloadable", 235, 1);
pub const HDR_RSVD: Field = Field::new("hdr_rsvd", 232, 3);
// [231:224] opcodes
pub const OP1: Field = Field::new("op1", 228, 4);
pub const OP0: Field = Field::new("op0", 224, 4);
// [223:216] status / id
pub const PATTERN: Field = Field::new("pattern", 220, 4);
pub const RESP_KIND: Field = Field::new("resp_kind", 218, 2);
pub const DTYPE: Field = Field::new("dtype", 217, 1);
pub const HAS_EXT: Field = Field::new("has_ext", 216, 1);
pub const ADDR_A: Field = Field::new("addr_a", 168, ADDR_W);
pub const ADDR_B: Field = Field::new("addr_b", 120, ADDR_W);
pub const ADDR_C: Field = Field::new("addr_c", 72, ADDR_W);
pub const IMM: Field = Field::new("imm", 40, 32);
// [39:0] extra: active_mask[31:0] | oq_tag[5:0] | rsvd(2)
pub const MASK: Field = Field::new("active_mask", 8, 32);
pub const OQ_TAG: Field = Field::new("oq_tag", 2, 6);
pub const EXTRA_RSVD: Field = Field::new("extra_rsvd", 0, 2);

/// Every field of the CP flit, MSB first.
pub const CP_FIELDS: [Field; 21] = [
    IS_CP,
    SINK,
    MSG_CLASS,
    SRC_NODE,
    DST_NODE,
    LEN_FLITS,
    NON_OFFLOADABLE,
    HDR_RSVD,
    OP1,
    OP0,
    PATTERN,
    RESP_KIND,
    DTYPE,
    HAS_EXT,
    ADDR_A,
    ADDR_B,
    ADDR_C,
    IMM,
    MASK,
    OQ_TAG,
    EXTRA_RSVD,
];

/// The divergence extension flit of a split chain's group (spec §2.6, our layout, bit
/// 255 = MSB): per operand a, b, c the group's lanes that access that operand's line,
/// then per operand the 5-bit start-word offset (lane k of the group reads word
/// `(start + k) mod 32` of the line: unit stride inside the line); the rest reserved.
pub const EXT_MASK_A: Field = Field::new("ext_mask_a", 224, 32);
pub const EXT_MASK_B: Field = Field::new("ext_mask_b", 192, 32);
pub const EXT_MASK_C: Field = Field::new("ext_mask_c", 160, 32);
pub const EXT_START_A: Field = Field::new("ext_start_a", 155, 5);
pub const EXT_START_B: Field = Field::new("ext_start_b", 150, 5);
pub const EXT_START_C: Field = Field::new("ext_start_c", 145, 5);
pub const EXT_RSVD: Field = Field::new("ext_rsvd", 0, 145);

/// Every field of the extension flit, MSB first.
pub const EXT_FIELDS: [Field; 7] = [EXT_MASK_A, EXT_MASK_B, EXT_MASK_C, EXT_START_A, EXT_START_B, EXT_START_C, EXT_RSVD];

/// A split group's extension flit (spec §2.6): the head flit then says `len_flits = 2`,
/// `has_ext = 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CpExtension {
    /// Lanes of the group per operand (a, b, c).
    pub masks: [u32; 3],
    /// Start-word offset per operand (0..32).
    pub start: [u32; 3],
}

impl CpExtension {
    pub fn encode(&self) -> Flit {
        let mut w = [0u64; FLIT_WORDS];
        for (f, v) in [EXT_MASK_A, EXT_MASK_B, EXT_MASK_C].into_iter().zip(self.masks) {
            f.write(&mut w, u128::from(v));
        }
        for (f, v) in [EXT_START_A, EXT_START_B, EXT_START_C].into_iter().zip(self.start) {
            assert!(v < 32, "start-word offset {v} of a 32-word line");
            f.write(&mut w, u128::from(v));
        }
        w
    }

    pub fn decode(w: &Flit) -> Self {
        let g = |f: Field| f.read(w) as u32;
        Self { masks: [g(EXT_MASK_A), g(EXT_MASK_B), g(EXT_MASK_C)], start: [g(EXT_START_A), g(EXT_START_B), g(EXT_START_C)] }
    }

    /// Mark head flit `head` as followed by an extension flit.
    pub fn mark(head: &mut Flit) {
        LEN_FLITS.write(head, 2);
        HAS_EXT.write(head, 1);
    }
}

/// `sink` codes (spec §1.5): the memory side of a node (LLC at an LLC node, L1 fill
/// and store acks at a core), the OQ, the SQ.
pub const SINK_MEM: u32 = 0;
pub const SINK_OQ: u32 = 1;
pub const SINK_SQ: u32 = 2;
/// `msg_class` codes (spec §1.8).
pub const CLASS_CP: u32 = 0;
pub const CLASS_REQ: u32 = 1;
pub const CLASS_REP: u32 = 2;

/// A flit as little-endian words.
pub type Flit = [u64; FLIT_WORDS];

/// The decoded ComputePacket (what the SQMU reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ComputePacket {
    pub src_node: u32,
    pub dst_node: u32,
    pub op0: u32,
    pub op1: u32,
    pub pattern: u32,
    pub resp_kind: u32,
    pub dtype: bool,
    pub addr_a: u64,
    pub addr_b: u64,
    pub addr_c: u64,
    pub imm: u32,
    pub mask: u32,
    pub oq_tag: u32,
}

impl ComputePacket {
    pub fn encode(&self) -> Flit {
        let mut w = [0u64; FLIT_WORDS];
        let mut put = |f: Field, v: u64| f.write(&mut w, u128::from(v));
        put(IS_CP, 1);
        put(SINK, u64::from(SINK_SQ));
        put(MSG_CLASS, u64::from(CLASS_CP));
        put(SRC_NODE, u64::from(self.src_node));
        put(DST_NODE, u64::from(self.dst_node));
        put(LEN_FLITS, 1);
        put(OP1, u64::from(self.op1));
        put(OP0, u64::from(self.op0));
        put(PATTERN, u64::from(self.pattern));
        put(RESP_KIND, u64::from(self.resp_kind));
        put(DTYPE, u64::from(self.dtype));
        put(ADDR_A, self.addr_a);
        put(ADDR_B, self.addr_b);
        put(ADDR_C, self.addr_c);
        put(IMM, u64::from(self.imm));
        put(MASK, u64::from(self.mask));
        put(OQ_TAG, u64::from(self.oq_tag));
        w
    }

    pub fn decode(w: &Flit) -> Self {
        let g = |f: Field| f.read(w) as u64;
        Self {
            src_node: g(SRC_NODE) as u32,
            dst_node: g(DST_NODE) as u32,
            op0: g(OP0) as u32,
            op1: g(OP1) as u32,
            pattern: g(PATTERN) as u32,
            resp_kind: g(RESP_KIND) as u32,
            dtype: g(DTYPE) == 1,
            addr_a: g(ADDR_A),
            addr_b: g(ADDR_B),
            addr_c: g(ADDR_C),
            imm: g(IMM) as u32,
            mask: g(MASK) as u32,
            oq_tag: g(OQ_TAG) as u32,
        }
    }
}
