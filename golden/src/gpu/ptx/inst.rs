//! The compact, pre-resolved instruction form the SIMT core executes.
//!
//! Decode ([`super::decode`]) resolves register names to indices, symbols to offsets,
//! labels to instruction indices, immediates to bit patterns of the instruction type,
//! and branch reconvergence points to immediate post-dominators, so execution does no
//! lookups and no allocation.

/// PTX fundamental types. `.f16` is arithmetic (add, sub, mul, fma, min, max, abs, neg,
/// setp), a `cvt` operand and a move; `.f16x2` (two halves in 32 bits, low half first)
/// only the packed arithmetic (add, sub, mul, fma, min, max, abs, neg).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Ty {
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    F32,
    F64,
    Pred,
}

/// Kind of a type, for the compatibility rules of PTX ISA §5.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TyKind {
    Bits,
    Unsigned,
    Signed,
    Float,
    Pred,
}

impl Ty {
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "f16" => Ty::F16,
            "f16x2" => Ty::F16x2,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Ty::B8 => "b8",
            Ty::B16 => "b16",
            Ty::B32 => "b32",
            Ty::B64 => "b64",
            Ty::U8 => "u8",
            Ty::U16 => "u16",
            Ty::U32 => "u32",
            Ty::U64 => "u64",
            Ty::S8 => "s8",
            Ty::S16 => "s16",
            Ty::S32 => "s32",
            Ty::S64 => "s64",
            Ty::F16 => "f16",
            Ty::F16x2 => "f16x2",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Pred => "pred",
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 | Ty::F16x2 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
            Ty::Pred => 1,
        }
    }

    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn kind(self) -> TyKind {
        match self {
            Ty::B8 | Ty::B16 | Ty::B32 | Ty::B64 => TyKind::Bits,
            Ty::U8 | Ty::U16 | Ty::U32 | Ty::U64 => TyKind::Unsigned,
            Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64 => TyKind::Signed,
            Ty::F16 | Ty::F16x2 | Ty::F32 | Ty::F64 => TyKind::Float,
            Ty::Pred => TyKind::Pred,
        }
    }

    pub fn is_float(self) -> bool {
        self.kind() == TyKind::Float
    }

    pub fn is_signed(self) -> bool {
        self.kind() == TyKind::Signed
    }

    /// Mask of the low `bits()` bits.
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }

    /// The type twice as wide (for `.wide`), same kind.
    pub fn widened(self) -> Option<Ty> {
        Some(match self {
            Ty::U16 => Ty::U32,
            Ty::U32 => Ty::U64,
            Ty::S16 => Ty::S32,
            Ty::S32 => Ty::S64,
            _ => return None,
        })
    }
}

/// Memory state spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Space {
    Global,
    Shared,
    Local,
    Param,
    /// No space given: resolved per lane from the generic address.
    Generic,
}

/// Comparison of `setp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    // unsigned forms
    Lo,
    Ls,
    Hi,
    Hs,
    // unordered float forms
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// Boolean combination of `setp`/logic on predicates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolOp {
    None,
    And,
    Or,
    Xor,
}

/// Rounding modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rnd {
    /// None given (the default for the instruction).
    Default,
    Rn,
    Rz,
    Rm,
    Rp,
    /// Integer rounding: `.rni`, `.rzi`, `.rmi`, `.rpi`.
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

/// Atomic / reduction operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Exch,
    Cas,
}

/// Fence scope (`membar.cta/gl/sys`, `fence.*.cta/gpu/sys`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Cta,
    Gpu,
    Sys,
}

/// Cache behaviour of a global load/store (PTX cache operators, plus `.volatile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOp {
    /// `.ca` (default): cache in L1 and LLC.
    CacheAll,
    /// `.cg`, `.cv`, `.volatile`, acquire/relaxed-scoped loads: bypass L1.
    BypassL1,
}

/// Direction of `cvta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CvtaDir {
    ToGeneric,
    FromGeneric,
}

/// Operation, with the modifiers that change its meaning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    Add,
    Sub,
    /// Integer `mul.lo`, float `mul`.
    Mul,
    MulHi,
    MulWide,
    /// Integer `mad.lo`, float `mad`.
    Mad,
    MadHi,
    MadWide,
    Fma,
    Div,
    Rem,
    Min,
    Max,
    Abs,
    Neg,
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
    Popc,
    Clz,
    Brev,
    /// `bfe`: extract `c` bits from bit `b` of `a` (sign-extended for .s types).
    Bfe,
    /// `bfi`: insert the low `d` bits of `a` into `b` at bit `c`.
    Bfi,
    /// `prmt.b32`: the default mode selects the bytes of `{b, a}` by the nibbles of `c`;
    /// the other modes by `c[1:0]` and the mode's table (PTX ISA, `prmt`).
    Prmt(PrmtMode),
    /// `shf.l`/`shf.r` funnel shift of `{b, a}` by `c`, `.clamp` (else `.wrap`).
    Shf {
        left: bool,
        clamp: bool,
    },
    Setp(Cmp, BoolOp),
    Selp,
    Mov,
    /// `shfl.sync`: `d[0]` gets `a` of the source lane, `d[1]` (a predicate or
    /// `NO_PRED`) whether the source lane was in range.
    Shfl(ShflMode),
    /// `vote.sync` over the executing lanes.
    Vote(VoteMode),
    /// `redux.sync`: every executing lane gets the reduction (add, min, max, and, or,
    /// xor) of `a[0]` over the executing lanes (`a[1]` is the member mask).
    Redux(AtomOp),
    /// `activemask.b32`: the executing lanes.
    ActiveMask,
    /// A `vprintf` call: format string address `a[0]`, argument buffer `a[1]` (generic
    /// addresses); `d[0]` (if any) gets the number of arguments read.
    Printf,
    /// `tex.1d.v4.TYPE.s32 {d0..d3}, [tex, {x}]`: element `x` of the buffer bound to
    /// texture `target` (index into the kernel's `textures`).
    Tex,
    /// `mov.b64 %rd, {%r0, %r1}`: the sources packed low element first.
    MovPack,
    /// `mov.b64 {%r0, %r1}, %rd`: the source split into `nd` destinations.
    MovUnpack,
    Cvt {
        from: Ty,
        rnd: Rnd,
    },
    Cvta {
        dir: CvtaDir,
        space: Space,
    },
    Sqrt,
    Rsqrt,
    Rcp,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Ld {
        space: Space,
        vec: u8,
        cache: CacheOp,
    },
    St {
        space: Space,
        vec: u8,
        cache: CacheOp,
    },
    Atom {
        space: Space,
        op: AtomOp,
    },
    Red {
        space: Space,
        op: AtomOp,
    },
    /// `bar.sync`/`barrier.sync`: `a[0]` the thread count (or none), `a[1]` the barrier id.
    Bar,
    /// `bar.arrive`/`barrier.arrive`: counts at the barrier without waiting.
    BarArrive,
    /// `bar.warp.sync mask` (`__syncwarp`): the lanes of a warp already execute
    /// together, so nothing to wait for.
    WarpSync,
    Membar(Scope),
    Bra,
    Ret,
    Exit,
}

/// Mode of `prmt.b32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrmtMode {
    /// Four 4-bit selectors in `c[15:0]`, the top bit of each replicating the byte's sign.
    Default,
    /// Forward 4 extract: bytes `s+3 .. s` of `{b, a}` (`s = c[1:0]`).
    F4e,
    /// Backward 4 extract.
    B4e,
    /// Replicate byte `s`.
    Rc8,
    /// Edge clamp left.
    Ecl,
    /// Edge clamp right.
    Ecr,
    /// Replicate the 16-bit half `s & 1`.
    Rc16,
}

/// Source-lane rule of `shfl.sync`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// Reduction of `vote.sync`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// Functional-unit class an instruction issues to (per-class latency and initiation
/// interval come from the config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum OpClass {
    /// Integer ALU, moves, compares, logic, conversions.
    Int,
    /// Single-precision float add/mul/fma/min/max.
    Fp32,
    /// Double-precision arithmetic.
    Fp64,
    /// Special functions and divides.
    Sfu,
    /// Loads, stores and atomics (the LD/ST unit).
    Mem,
    /// Branches, barriers, fences, exit: no functional unit.
    Ctrl,
}

impl OpClass {
    pub const ALL: [OpClass; 6] = [OpClass::Int, OpClass::Fp32, OpClass::Fp64, OpClass::Sfu, OpClass::Mem, OpClass::Ctrl];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            OpClass::Int => "int",
            OpClass::Fp32 => "fp32",
            OpClass::Fp64 => "fp64",
            OpClass::Sfu => "sfu",
            OpClass::Mem => "mem",
            OpClass::Ctrl => "ctrl",
        }
    }
}

/// A special register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    Clock,
    Clock64,
    /// `%lanemask_eq/lt/le/gt/ge`.
    LaneMask(Cmp),
}

impl Special {
    pub fn parse(s: &str) -> Option<Special> {
        let comp = |c: &str| match c {
            "x" => Some(0u8),
            "y" => Some(1),
            "z" => Some(2),
            _ => None,
        };
        if let Some((base, c)) = s.split_once('.') {
            let c = comp(c)?;
            return Some(match base {
                "%tid" => Special::Tid(c),
                "%ntid" => Special::Ntid(c),
                "%ctaid" => Special::Ctaid(c),
                "%nctaid" => Special::Nctaid(c),
                _ => return None,
            });
        }
        Some(match s {
            "%laneid" => Special::LaneId,
            "%warpid" => Special::WarpId,
            "%nwarpid" => Special::NWarpId,
            "%smid" => Special::SmId,
            "%nsmid" => Special::NSmId,
            "%clock" => Special::Clock,
            "%clock64" => Special::Clock64,
            "%lanemask_eq" => Special::LaneMask(Cmp::Eq),
            "%lanemask_lt" => Special::LaneMask(Cmp::Lt),
            "%lanemask_le" => Special::LaneMask(Cmp::Le),
            "%lanemask_gt" => Special::LaneMask(Cmp::Gt),
            "%lanemask_ge" => Special::LaneMask(Cmp::Ge),
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        if self == Special::Clock64 {
            64
        } else {
            32
        }
    }
}

/// A source operand, resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Src {
    None,
    /// General register index.
    Reg(u16),
    /// Immediate, as the bit pattern of the operand's type.
    Imm(u64),
    Special(Special),
    /// Predicate register, negated?
    Pred(u16, bool),
}

/// Base of a memory address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddrBase {
    None,
    /// Register holding an address in the instruction's space (or a generic address).
    Reg(u16),
    /// Absolute offset (symbols resolve to this: a `.param` offset, a `.shared` offset...).
    Abs,
}

/// `[base+offset]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Addr {
    pub base: AddrBase,
    pub offset: i64,
}

/// Sentinel "no predicate guard".
pub const NO_PRED: u16 = u16::MAX;
/// Reconvergence point meaning "the end of the kernel" (threads exit first).
pub const RPC_EXIT: u32 = u32::MAX;

/// A decoded instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    pub op: Op,
    /// Primary type (destination type for `cvt`, memory type for ld/st/atom).
    pub ty: Ty,
    pub class: OpClass,
    /// Guard predicate (`NO_PRED` if none) and whether it is negated (`@!%p`).
    pub guard: u16,
    pub guard_neg: bool,
    /// Destinations: general registers, or predicate indices for `setp` (`d[1]` = `%q`
    /// of `%p|%q`, `NO_PRED` if absent). Vector loads use `nd` entries.
    pub d: [u16; 4],
    pub nd: u8,
    /// Mask of the destination register's width (values are stored normalized).
    pub dmask: u64,
    /// Sources (st: the values to store; atom: b and c).
    pub a: [Src; 4],
    pub na: u8,
    pub addr: Addr,
    /// Branch target (instruction index).
    pub target: u32,
    /// Reconvergence point of a branch (immediate post-dominator), or [`RPC_EXIT`].
    pub rpc: u32,
    /// Rounding of f32 `add`/`sub`/`mul`/`fma` (`.rz`/`.rm`/`.rp` directed;
    /// `Default`/`Rn` to nearest).
    pub rnd: Rnd,
    /// `.ftz` / `.sat` on float ops, `.sat` on `cvt` and `add.s32`.
    pub ftz: bool,
    pub sat: bool,
    /// Scoreboard entries read and written (general registers first, predicates at
    /// `nregs + p`), for the in-order issue check.
    pub sb_use: [u16; 8],
    pub n_use: u8,
    pub sb_def: [u16; 4],
    pub n_def: u8,
    /// Source line, for fault messages.
    pub line: u32,
}

impl Inst {
    pub fn is_mem(&self) -> bool {
        matches!(self.op, Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Red { .. } | Op::Tex)
    }
}
