//! TFB BDIB configuration (spec `tfb_bdib.md` §5.1) and everything derived from it:
//! port widths, the instruction-class and scope codes, the layout of one buffered
//! entry and the storage it costs (§2.13, Table 5.4).

use serde::Deserialize;

use crate::bits::{clog2, count_width, Field};
use crate::config::{check_range, FieldError};

/// Which TFB variant the buffer implements (spec §1.4, §5.1 `MODE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Variant {
    /// P-TFB: private/read-only/control work runs during a barrier; shared-class
    /// instructions block upstream; the BDIB is a pure pass-through (MODE = 0).
    P,
    /// G-TFB: global ops, fences and barriers are buffered; scratch blocks (MODE = 1).
    G,
    /// F-TFB: global and scratch ops, fences and barriers are buffered (MODE = 2).
    F,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::P, Variant::G, Variant::F];

    /// The `MODE` parameter value of §5.1.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The name in config files (`mode = "f"`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::P => "p",
            Variant::G => "g",
            Variant::F => "f",
        }
    }

    /// Whether this variant buffers anything (G and F).
    pub fn buffers(self) -> bool {
        self != Variant::P
    }
}

/// Instruction class on the issue and dispatch ports (§5.1 `bdib_cls_e`; GENERIC is
/// decoded as SCRATCH upstream, §1.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Cls {
    Global = 0,
    Scratch = 1,
    Priv = 2,
    Ro = 3,
    Fence = 4,
    Barrier = 5,
}

/// Width of the class code.
pub const CLS_W: u32 = 3;
/// Width of the fence/barrier scope code (0 CTA, 1 GL, 2 SYS).
pub const SCOPE_W: u32 = 2;

impl Cls {
    pub const ALL: [Cls; 6] = [Cls::Global, Cls::Scratch, Cls::Priv, Cls::Ro, Cls::Fence, Cls::Barrier];

    pub fn code(self) -> u8 {
        self as u8
    }

    /// The class of a 3-bit code; codes 6 and 7 are not classes.
    pub fn from_code(c: u8) -> Option<Cls> {
        Cls::ALL.get(c as usize).copied()
    }

    /// Shared-class instructions and ordering points: what the BDIB may buffer
    /// (§5.3 `route = ENQ` classes). PRIV and RO always pass.
    pub fn bufferable(self) -> bool {
        matches!(self, Cls::Global | Cls::Scratch | Cls::Fence | Cls::Barrier)
    }
}

/// Raw `[tfb_bdib]` table as written in TOML.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTfb {
    num_warps: u32,
    depth: u32,
    instr_w: u32,
    reg_w: u32,
    nsrc: u32,
    mode: String,
    nwarq: u32,
    #[serde(default = "default_schedulers")]
    schedulers: u32,
    #[serde(default = "default_watchdog")]
    watchdog: u32,
}

fn default_schedulers() -> u32 {
    2
}

fn default_watchdog() -> u32 {
    1_000_000
}

/// Largest number of warps sharing one BDIB (64 warps per SMM, spec §3.1).
pub const MAX_WARPS: u32 = 64;
/// Deepest per-warp FIFO: the thesis sweeps D in {1, 2, 3, 5} (Fig. 5.15).
pub const MAX_DEPTH: u32 = 5;
/// Widest opaque payload a port frame field holds.
pub const MAX_INSTR_W: u32 = 128;

/// A validated BDIB configuration plus the widths derived from it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TfbConfig {
    /// NUM_WARPS: warps sharing this BDIB (32 per Maxwell sub-core).
    pub num_warps: u32,
    /// DEPTH: entries per warp FIFO.
    pub depth: u32,
    /// INSTR_W: opaque payload bits (opcode/control, dst, immediate, active mask).
    pub instr_w: u32,
    /// REG_W: register-specifier bits.
    pub reg_w: u32,
    /// NSRC: source specifiers per entry (address, data, data2, guard predicate).
    pub nsrc: u32,
    /// MODE: P, G or F.
    pub mode: Variant,
    /// NWARQ: WAR query ports, one per warp scheduler at most.
    pub nwarq: u32,
    /// Warp schedulers sharing the sub-core (bounds NWARQ).
    pub schedulers: u32,
    /// Liveness watchdog of the scoreboard: cycles a warp may stay in a barrier.
    pub watchdog: u32,
}

impl TfbConfig {
    pub fn validate(r: RawTfb) -> Result<Self, FieldError> {
        check_range("tfb_bdib.num_warps", r.num_warps, 1, MAX_WARPS)?;
        check_range("tfb_bdib.depth", r.depth, 1, MAX_DEPTH)?;
        check_range("tfb_bdib.reg_w", r.reg_w, 2, 8)?;
        check_range("tfb_bdib.nsrc", r.nsrc, 1, 4)?;
        // the random traffic keeps a destination, a has-destination bit and a
        // sequence tag of at least 5 bits in the payload
        check_range("tfb_bdib.instr_w", r.instr_w, r.reg_w + 6, MAX_INSTR_W)?;
        let mode = Variant::ALL
            .into_iter()
            .find(|v| v.name() == r.mode)
            .ok_or_else(|| FieldError::new("tfb_bdib.mode", format!("`{}` is not a TFB variant", r.mode), Some("one of \"p\", \"g\", \"f\"".into())))?;
        check_range("tfb_bdib.schedulers", r.schedulers, 1, 4)?;
        check_range("tfb_bdib.nwarq", r.nwarq, 1, r.schedulers)?;
        check_range("tfb_bdib.watchdog", r.watchdog, 64, 1 << 30)?;
        Ok(TfbConfig {
            num_warps: r.num_warps,
            depth: r.depth,
            instr_w: r.instr_w,
            reg_w: r.reg_w,
            nsrc: r.nsrc,
            mode,
            nwarq: r.nwarq,
            schedulers: r.schedulers,
            watchdog: r.watchdog,
        })
    }

    pub fn n(&self) -> usize {
        self.num_warps as usize
    }

    pub fn d(&self) -> usize {
        self.depth as usize
    }

    /// WID_W: warp-index width (1 for a single warp).
    pub fn wid_w(&self) -> u32 {
        clog2(self.num_warps as u64)
    }

    /// CNT_W: per-warp occupancy width, holds 0..=DEPTH.
    pub fn cnt_w(&self) -> u32 {
        count_width(self.depth as u64)
    }

    /// Mask of the payload bits.
    pub fn payload_mask(&self) -> u128 {
        if self.instr_w == 128 {
            u128::MAX
        } else {
            (1u128 << self.instr_w) - 1
        }
    }

    /// Mask of a register specifier.
    pub fn reg_mask(&self) -> u8 {
        ((1u16 << self.reg_w) - 1) as u8
    }

    /// The layout of one buffered entry, LSB first: class, scope, sources, source
    /// valid bits, payload (spec §2.6, our port split).
    pub fn entry_fields(&self) -> Vec<Field> {
        let mut v = vec![Field::new("cls", 0, CLS_W), Field::new("scope", CLS_W, SCOPE_W)];
        let mut at = CLS_W + SCOPE_W;
        v.push(Field::new("src", at, self.nsrc * self.reg_w));
        at += self.nsrc * self.reg_w;
        v.push(Field::new("src_v", at, self.nsrc));
        at += self.nsrc;
        v.push(Field::new("payload", at, self.instr_w));
        v
    }

    /// Bits of one buffered entry.
    pub fn entry_bits(&self) -> u32 {
        CLS_W + SCOPE_W + self.nsrc * (self.reg_w + 1) + self.instr_w
    }

    /// Per-warp state bits besides the entries: occupancy count, `in_bar`,
    /// `fence_wait` (a shift-register FIFO needs no head/tail pointers).
    pub fn warp_state_bits(&self) -> u32 {
        self.cnt_w() + 2
    }

    /// Storage of the whole BDIB in flip-flops (spec §2.13): entries, per-warp state
    /// and the round-robin pointer.
    pub fn storage(&self) -> Storage {
        Storage {
            entry_bits: self.entry_bits() as u64,
            entries: self.num_warps as u64 * self.depth as u64,
            warp_state_bits: self.warp_state_bits() as u64 * self.num_warps as u64,
            rr_bits: self.wid_w() as u64,
        }
    }
}

/// BDIB storage (spec §2.13, Table 5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Storage {
    pub entry_bits: u64,
    pub entries: u64,
    pub warp_state_bits: u64,
    pub rr_bits: u64,
}

impl Storage {
    /// Entry storage in bits (the thesis's "fuzzy-instruction buffering").
    pub fn entry_storage_bits(&self) -> u64 {
        self.entry_bits * self.entries
    }

    /// Every flip-flop bit of the design.
    pub fn total_bits(&self) -> u64 {
        self.entry_storage_bits() + self.warp_state_bits + self.rr_bits
    }
}
