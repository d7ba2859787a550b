//! Decode: syntax tree to [`Kernel`]s of compact [`Inst`]s.
//!
//! Resolves registers (`%r<6>` declares `%r0`..`%r5`), checks operand types with the
//! PTX compatibility rules (ISA §5.2.3: `.bN` is compatible with every type of N bits,
//! `.uN`/`.sN` with each other, registers may be wider than the memory type of
//! `ld`/`st`/`cvt` integer operands), lays out `.param`, `.shared` and `.local`
//! storage, resolves labels and computes reconvergence points.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::ast::*;
use super::cfg::assign_reconvergence;
use super::inst::*;
use super::pressure::estimate_regs;
use super::PtxError;
use crate::gpu::memspace::{MODULE_BASE, MODULE_BYTES};

/// A kernel parameter's place in the parameter buffer.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Param {
    pub name: String,
    /// Element type (`b8` for byte arrays).
    pub ty: Ty,
    pub offset: u32,
    pub size: u32,
}

/// A decoded kernel, ready to launch.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub file: PathBuf,
    pub params: Vec<Param>,
    pub param_bytes: u32,
    /// General registers (each stored as 64 bits per lane) and predicate registers.
    pub nregs: u16,
    pub npreds: u16,
    pub reg_names: Vec<String>,
    pub reg_types: Vec<Ty>,
    /// Bytes of statically declared `.shared` storage; dynamic (`.extern .shared x[]`)
    /// storage starts at `dynamic_shared_offset`.
    pub shared_static_bytes: u32,
    pub dynamic_shared_offset: u32,
    pub uses_dynamic_shared: bool,
    /// Bytes of `.local` storage per thread.
    pub local_bytes: u32,
    /// The module's texture references (`.global .texref`), by index; a launch binds
    /// buffers to them by name ([`crate::gpu::memspace::DeviceMemory::bind_texture`]).
    pub textures: Vec<String>,
    /// Initial contents of the module's `.global` and `.const` variables, placed in
    /// device memory at [`MODULE_BASE`] when the kernel runs (see
    /// [`crate::gpu::memspace::DeviceMemory::install_module`]).
    pub module_image: std::sync::Arc<[u8]>,
    /// 32-bit registers per thread for occupancy, estimated like `ptxas` from liveness
    /// ([`super::pressure`]), capped by `.maxnreg` and the architecture's 255; a launch
    /// file may override it.
    pub regs_per_thread: u32,
    /// Sum over declared general registers of their width in 32-bit words (the count
    /// before the liveness estimate; kept for comparison in reports and tests).
    pub declared_reg_words: u32,
    /// Per general register: whether a thread may read it before writing it
    /// ([`super::cfg::read_before_written`]); only these start each warp at zero.
    pub read_before_written: Vec<bool>,
    pub insts: Vec<Inst>,
}

/// A decoded module: all its entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub file: PathBuf,
    pub kernels: Vec<Kernel>,
}

impl Module {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

#[derive(Debug, Clone, Copy)]
enum RegInfo {
    Gen(u16, Ty),
    Pred(u16),
}

#[derive(Debug, Clone, Copy)]
enum Sym {
    Param(u32),
    Shared(u32),
    Local(u32),
    /// A module `.global`/`.const` variable: its device address.
    Global(u64),
}

/// Lay out the module's `.global`/`.const` variables from [`MODULE_BASE`]: the image
/// and each variable's address.
fn module_data(file: &Path, m: &ModuleAst) -> Result<ModuleData, PtxError> {
    let err = |p: Pos, msg: String| PtxError::new(file, p.line, p.col, msg);
    let mut image: Vec<u8> = Vec::new();
    let mut addrs = Vec::new();
    for v in m.vars.iter().filter(|v| v.space == "global" || v.space == "const") {
        let ty = Ty::parse(&v.ty).filter(|t| *t != Ty::Pred && *t != Ty::F16).ok_or_else(|| err(v.pos, format!("unsupported variable type `.{}`", v.ty)))?;
        let esz = ty.bytes() as usize;
        let n = match (v.array, &v.init) {
            (None, _) => 1usize,
            (Some(Some(n)), _) => n as usize,
            (Some(None), Some(init)) => init.len(),
            (Some(None), None) => return Err(err(v.pos, format!("`{}[]` needs a size or an initializer", v.name))),
        };
        let bytes = n
            .checked_mul(esz)
            .filter(|&b| (b as u64) < MODULE_BYTES)
            .ok_or_else(|| err(v.pos, format!("`{}` is {n} elements of {esz} bytes: module variables are limited to {MODULE_BYTES} bytes in all", v.name)))?;
        let align = v.align.unwrap_or(ty.bytes()).max(1) as usize;
        let off = image.len().div_ceil(align) * align;
        if (off + bytes) as u64 > MODULE_BYTES {
            return Err(err(v.pos, format!("module variables exceed {MODULE_BYTES} bytes at `{}`", v.name)));
        }
        image.resize(off + bytes, 0);
        if let Some(init) = &v.init {
            if init.len() > n {
                return Err(err(v.pos, format!("`{}` has {} initializers for {n} elements", v.name, init.len())));
            }
            for (k, iv) in init.iter().enumerate() {
                let bits = init_bits(iv, ty).ok_or_else(|| err(v.pos, format!("initializer {k} of `{}` does not fit .{}", v.name, ty.name())))?;
                let at = off + k * esz;
                image[at..at + esz].copy_from_slice(&bits.to_le_bytes()[..esz]);
            }
        }
        addrs.push((v.name.clone(), MODULE_BASE + off as u64));
    }
    Ok((image.into(), addrs))
}

/// The bit pattern of an initializer element stored as `ty` (PTX ISA §5.4.4:
/// integers initialize float variables by value, float literals need a float type).
fn init_bits(v: &InitVal, ty: Ty) -> Option<u64> {
    Some(match (v, ty) {
        (InitVal::Int(i), Ty::F32) => (*i as f32).to_bits() as u64,
        (InitVal::Int(i), Ty::F64) => (*i as f64).to_bits(),
        (InitVal::Int(i), t) => {
            let bits = t.bits();
            if *i < -(1i128 << (bits - 1)) || *i > (1i128 << bits) - 1 {
                return None;
            }
            (*i as i64 as u64) & t.mask()
        }
        (InitVal::Float(f), Ty::F32) => (*f as f32).to_bits() as u64,
        (InitVal::Float(f), Ty::F64) => f.to_bits(),
        (InitVal::F32Bits(b), Ty::F32 | Ty::B32 | Ty::U32 | Ty::S32) => *b as u64,
        (InitVal::F32Bits(b), Ty::F64) => (f32::from_bits(*b) as f64).to_bits(),
        (InitVal::F64Bits(b), Ty::F64 | Ty::B64 | Ty::U64 | Ty::S64) => *b,
        (InitVal::F64Bits(b), Ty::F32) => (f64::from_bits(*b) as f32).to_bits() as u64,
        _ => return None,
    })
}

/// Decode every entry of a module.
pub fn decode_module(file: &Path, ast: &ModuleAst) -> Result<Module, PtxError> {
    let data = module_data(file, ast)?;
    let mut kernels = Vec::new();
    for e in &ast.entries {
        kernels.push(decode_entry(file, ast, e, &data)?);
    }
    Ok(Module { file: file.to_path_buf(), kernels })
}

struct Ctx<'a> {
    file: &'a Path,
    textures: Vec<String>,
    regs: BTreeMap<String, RegInfo>,
    nregs: u16,
    syms: BTreeMap<String, Sym>,
    labels: BTreeMap<String, u32>,
}

fn align_up(v: u32, a: u32) -> u32 {
    v.div_ceil(a.max(1)) * a.max(1)
}

/// The most `.shared` (per CTA) or `.local` (per thread) bytes a kernel may declare: far
/// above any SM (the config bounds the real limit), low enough that offsets stay in u32.
pub const MAX_STORAGE_BYTES: u64 = 1 << 31;

/// A variable of `bytes` aligned to `align` after `off`: its offset and the end, or
/// `None` when that passes [`MAX_STORAGE_BYTES`] (sizes computed in u64, so a 4 GiB
/// array does not wrap into one that "fits").
fn place(off: u32, align: u32, bytes: u64) -> Option<(u32, u32)> {
    let a = align.max(1) as u64;
    let at = (off as u64).div_ceil(a) * a;
    let end = at + bytes;
    (end <= MAX_STORAGE_BYTES).then_some((at as u32, end as u32))
}

/// The module image and the addresses of its variables.
/// (The image is shared by the module's kernels, not copied into each.)
type ModuleData = (std::sync::Arc<[u8]>, Vec<(String, u64)>);

fn decode_entry(file: &Path, m: &ModuleAst, e: &EntryAst, data: &ModuleData) -> Result<Kernel, PtxError> {
    let err = |p: Pos, msg: String| PtxError::new(file, p.line, p.col, msg);
    // parameters
    let mut params = Vec::new();
    let mut off = 0u32;
    let mut syms = BTreeMap::new();
    for p in &e.params {
        let ty = Ty::parse(&p.ty).filter(|t| *t != Ty::Pred && *t != Ty::F16).ok_or_else(|| err(p.pos, format!("unsupported parameter type `.{}`", p.ty)))?;
        let size = ty.bytes() * p.array.unwrap_or(1);
        let align = p.align.unwrap_or(ty.bytes());
        off = align_up(off, align);
        if syms.insert(p.name.clone(), Sym::Param(off)).is_some() {
            return Err(err(p.pos, format!("parameter `{}` declared twice", p.name)));
        }
        params.push(Param { name: p.name.clone(), ty, offset: off, size });
        off += size;
    }
    let param_bytes = off;
    let body = super::inline::inline_calls(file, m, &e.body)?;
    let (module_image, module_addrs) = data.clone();
    for (name, a) in module_addrs {
        syms.insert(name, Sym::Global(a));
    }
    // registers, variables, labels (first pass)
    let mut regs = BTreeMap::new();
    let mut reg_names = Vec::new();
    let mut reg_types = Vec::new();
    let mut npreds: u16 = 0;
    let mut pred_names = Vec::new();
    let mut shared_off = 0u32;
    let mut local_off = 0u32;
    let mut dyn_shared: Vec<(String, u32)> = Vec::new();
    let mut labels = BTreeMap::new();
    let mut pc = 0u32;
    let mut vars: Vec<&VarDecl> = m.vars.iter().filter(|v| v.space != "global" && v.space != "const").collect();
    for s in &body {
        if let Stmt::Var(v) = s {
            vars.push(v);
        }
    }
    let mut max_dyn_align = 16u32;
    for v in vars {
        let ty = Ty::parse(&v.ty).filter(|t| *t != Ty::Pred).ok_or_else(|| err(v.pos, format!("unsupported variable type `.{}`", v.ty)))?;
        let align = v.align.unwrap_or(ty.bytes());
        match (v.space.as_str(), v.array) {
            ("shared", Some(None)) => {
                if !v.is_extern {
                    return Err(err(v.pos, format!("`{}[]` without a size must be `.extern`", v.name)));
                }
                max_dyn_align = max_dyn_align.max(align);
                dyn_shared.push((v.name.clone(), align));
            }
            ("shared", n) => {
                let (at, end) = place(shared_off, align, ty.bytes() as u64 * n.flatten().unwrap_or(1))
                    .ok_or_else(|| err(v.pos, format!("`.shared` storage up to `{}` exceeds {MAX_STORAGE_BYTES} bytes", v.name)))?;
                syms.insert(v.name.clone(), Sym::Shared(at));
                shared_off = end;
            }
            ("local", Some(None)) => return Err(err(v.pos, "unsized `.local` arrays are not supported".into())),
            ("local", n) => {
                let (at, end) = place(local_off, align, ty.bytes() as u64 * n.flatten().unwrap_or(1))
                    .ok_or_else(|| err(v.pos, format!("`.local` storage up to `{}` exceeds {MAX_STORAGE_BYTES} bytes per thread", v.name)))?;
                syms.insert(v.name.clone(), Sym::Local(at));
                local_off = end;
            }
            (sp, _) => return Err(err(v.pos, format!("`.{sp}` variables are not supported here"))),
        }
    }
    let dynamic_shared_offset =
        place(shared_off, max_dyn_align, 0).ok_or_else(|| err(e.pos, format!("dynamic `.shared` storage aligned to {max_dyn_align} passes {MAX_STORAGE_BYTES} bytes")))?.0;
    for (name, _) in &dyn_shared {
        syms.insert(name.clone(), Sym::Shared(dynamic_shared_offset));
    }
    for s in &body {
        match s {
            Stmt::Reg(r) => {
                let ty = Ty::parse(&r.ty).ok_or_else(|| err(r.pos, format!("unsupported register type `.{}`", r.ty)))?;
                for (name, count, npos) in &r.names {
                    let names: Vec<String> = match count {
                        Some(n) if *n >= (u16::MAX - 1) as u32 => return Err(err(*npos, format!("`{name}<{n}>` declares more registers than the {} supported", u16::MAX - 2))),
                        Some(n) => (0..*n).map(|i| format!("{name}{i}")).collect(),
                        None => vec![name.clone()],
                    };
                    for nm in names {
                        if regs.contains_key(&nm) {
                            return Err(err(*npos, format!("register `{nm}` declared twice")));
                        }
                        if ty == Ty::Pred {
                            regs.insert(nm.clone(), RegInfo::Pred(npreds));
                            pred_names.push(nm);
                            npreds = npreds.checked_add(1).ok_or_else(|| err(*npos, "too many predicate registers".into()))?;
                        } else {
                            let idx = reg_names.len();
                            if idx >= (u16::MAX - 1) as usize {
                                return Err(err(*npos, "too many registers".into()));
                            }
                            regs.insert(nm.clone(), RegInfo::Gen(idx as u16, ty));
                            reg_names.push(nm);
                            reg_types.push(ty);
                        }
                    }
                }
            }
            Stmt::Label(name, p) => {
                if labels.insert(name.clone(), pc).is_some() {
                    return Err(err(*p, format!("label `{name}` defined twice")));
                }
            }
            Stmt::Inst(_) => pc += 1,
            Stmt::Var(_) | Stmt::Param(_) => {}
        }
    }
    let nregs = reg_names.len() as u16;
    let ctx = Ctx { file, textures: m.texrefs.iter().map(|(n, _)| n.clone()).collect(), regs, nregs, syms, labels };
    let mut insts = Vec::with_capacity(pc as usize);
    for s in &body {
        if let Stmt::Inst(i) = s {
            insts.push(ctx.decode_inst(i)?);
        }
    }
    // a kernel that falls off its end exits
    if insts.last().is_none_or(|l| !(matches!(l.op, Op::Ret | Op::Exit | Op::Bra) && l.guard == NO_PRED)) {
        insts.push(Inst { line: e.pos.line, ..blank(Op::Exit, Ty::B32, OpClass::Ctrl) });
    }
    for i in &insts {
        if i.op == Op::Bra && i.target as usize >= insts.len() {
            return Err(PtxError::new(file, i.line, 1, "branch target past the end of the kernel".into()));
        }
    }
    assign_reconvergence(&mut insts);
    let declared_reg_words = reg_types.iter().map(|t| t.bits().div_ceil(32)).sum::<u32>();
    let regs_per_thread = estimate_regs(&insts, &reg_types, e.maxnreg);
    Ok(Kernel {
        name: e.name.clone(),
        file: file.to_path_buf(),
        params,
        param_bytes,
        nregs,
        npreds,
        reg_names,
        reg_types,
        shared_static_bytes: shared_off,
        dynamic_shared_offset,
        uses_dynamic_shared: !dyn_shared.is_empty(),
        local_bytes: align_up(local_off, 8),
        textures: m.texrefs.iter().map(|(n, _)| n.clone()).collect(),
        module_image,
        regs_per_thread,
        declared_reg_words,
        read_before_written: super::cfg::read_before_written(&insts, nregs as usize),
        insts,
    })
}

fn blank(op: Op, ty: Ty, class: OpClass) -> Inst {
    Inst {
        op,
        ty,
        class,
        guard: NO_PRED,
        guard_neg: false,
        d: [NO_PRED; 4],
        nd: 0,
        dmask: ty.mask(),
        a: [Src::None; 4],
        na: 0,
        addr: Addr { base: AddrBase::None, offset: 0 },
        target: 0,
        rpc: RPC_EXIT,
        rnd: Rnd::Default,
        ftz: false,
        sat: false,
        sb_use: [0; 8],
        n_use: 0,
        sb_def: [0; 4],
        n_def: 0,
        line: 0,
    }
}

/// Modifiers of one instruction, classified.
#[derive(Debug, Default)]
struct Mods {
    types: Vec<Ty>,
    space: Option<Space>,
    vec: u8,
    rnd: Option<Rnd>,
    ftz: bool,
    sat: bool,
    bypass_l1: bool,
    cmp: Option<Cmp>,
    bop: Option<BoolOp>,
    atom: Option<AtomOp>,
    scope: Option<Scope>,
    lo: bool,
    hi: bool,
    wide: bool,
    to: bool,
    sync: bool,
    is_const: bool,
}

fn type_ok(reg: Ty, want: Ty, wider_ok: bool) -> bool {
    if reg == Ty::Pred || want == Ty::Pred {
        return reg == want;
    }
    let size_ok = if wider_ok && !want.is_float() { reg.bits() >= want.bits() } else { reg.bits() == want.bits() };
    if !size_ok {
        return false;
    }
    matches!(
        (reg.kind(), want.kind()),
        (TyKind::Bits, _) | (_, TyKind::Bits) | (TyKind::Unsigned | TyKind::Signed, TyKind::Unsigned | TyKind::Signed) | (TyKind::Float, TyKind::Float)
    )
}

fn want_desc(t: Ty) -> String {
    match t.kind() {
        TyKind::Float => format!("a {}-bit float or .b{} register", t.bits(), t.bits()),
        TyKind::Signed | TyKind::Unsigned => format!("a {}-bit integer or .b{} register", t.bits(), t.bits()),
        TyKind::Bits => format!("a {}-bit register", t.bits()),
        TyKind::Pred => "a .pred register".into(),
    }
}

impl<'a> Ctx<'a> {
    fn err(&self, p: Pos, msg: impl Into<String>) -> PtxError {
        PtxError::new(self.file, p.line, p.col, msg.into())
    }

    fn parse_mods(&self, ia: &InstAst) -> Result<Mods, PtxError> {
        let mut m = Mods::default();
        let op = ia.opcode.as_str();
        for s in &ia.mods {
            let s = s.as_str();
            if let Some(t) = Ty::parse(s) {
                m.types.push(t);
                continue;
            }
            if op == "setp" {
                let c = match s {
                    "eq" => Some(Cmp::Eq),
                    "ne" => Some(Cmp::Ne),
                    "lt" => Some(Cmp::Lt),
                    "le" => Some(Cmp::Le),
                    "gt" => Some(Cmp::Gt),
                    "ge" => Some(Cmp::Ge),
                    "lo" => Some(Cmp::Lo),
                    "ls" => Some(Cmp::Ls),
                    "hi" => Some(Cmp::Hi),
                    "hs" => Some(Cmp::Hs),
                    "equ" => Some(Cmp::Equ),
                    "neu" => Some(Cmp::Neu),
                    "ltu" => Some(Cmp::Ltu),
                    "leu" => Some(Cmp::Leu),
                    "gtu" => Some(Cmp::Gtu),
                    "geu" => Some(Cmp::Geu),
                    "num" => Some(Cmp::Num),
                    "nan" => Some(Cmp::Nan),
                    _ => None,
                };
                if let Some(c) = c {
                    if m.cmp.is_some() {
                        m.bop = None;
                    }
                    m.cmp = Some(c);
                    continue;
                }
                let b = match s {
                    "and" => Some(BoolOp::And),
                    "or" => Some(BoolOp::Or),
                    "xor" => Some(BoolOp::Xor),
                    _ => None,
                };
                if let Some(b) = b {
                    m.bop = Some(b);
                    continue;
                }
            }
            if op == "atom" || op == "red" || op == "redux" {
                let a = match s {
                    "add" => Some(AtomOp::Add),
                    "min" => Some(AtomOp::Min),
                    "max" => Some(AtomOp::Max),
                    "inc" => Some(AtomOp::Inc),
                    "dec" => Some(AtomOp::Dec),
                    "and" => Some(AtomOp::And),
                    "or" => Some(AtomOp::Or),
                    "xor" => Some(AtomOp::Xor),
                    "exch" => Some(AtomOp::Exch),
                    "cas" => Some(AtomOp::Cas),
                    _ => None,
                };
                if let Some(a) = a {
                    m.atom = Some(a);
                    continue;
                }
            }
            match s {
                "global" => m.space = Some(Space::Global),
                // constant memory lives in device memory (module image); no constant
                // cache is modelled: `ld.const` times as a global load
                "const" => {
                    m.space = Some(Space::Global);
                    m.is_const = true;
                }
                "shared" | "shared::cta" => m.space = Some(Space::Shared),
                "local" => m.space = Some(Space::Local),
                "param" | "param::entry" => m.space = Some(Space::Param),
                "v2" => m.vec = 2,
                "v4" => m.vec = 4,
                "rn" => m.rnd = Some(Rnd::Rn),
                "rz" => m.rnd = Some(Rnd::Rz),
                "rm" => m.rnd = Some(Rnd::Rm),
                "rp" => m.rnd = Some(Rnd::Rp),
                "rni" => m.rnd = Some(Rnd::Rni),
                "rzi" => m.rnd = Some(Rnd::Rzi),
                "rmi" => m.rnd = Some(Rnd::Rmi),
                "rpi" => m.rnd = Some(Rnd::Rpi),
                "ftz" => m.ftz = true,
                "sat" => m.sat = true,
                "approx" | "full" => {}
                "lo" => m.lo = true,
                "hi" => m.hi = true,
                "wide" => m.wide = true,
                "to" => m.to = true,
                "sync" => m.sync = true,
                "l" | "r" | "clamp" | "wrap" if op == "shf" => {}
                "up" | "down" | "bfly" | "idx" if op == "shfl" => {}
                "all" | "any" | "uni" | "ballot" if op == "vote" => {}
                "f4e" | "b4e" | "rc8" | "ecl" | "ecr" | "rc16" if op == "prmt" => {}
                "arrive" | "warp" if op == "bar" || op == "barrier" => {}
                "1d" | "2d" | "3d" | "a1d" | "a2d" | "cube" | "acube" | "2dms" | "a2dms" | "base" | "level" | "grad" if op == "tex" => {}
                "uni" | "aligned" | "ca" | "nc" | "lu" | "cs" | "wb" | "weak" => {}
                "cg" | "cv" | "volatile" | "relaxed" | "acquire" | "release" | "mmio" => m.bypass_l1 = true,
                "acq_rel" | "sc" => {}
                "cta" => m.scope = Some(Scope::Cta),
                "gl" | "gpu" => m.scope = Some(Scope::Gpu),
                "sys" => m.scope = Some(Scope::Sys),
                s if s.starts_with("L1::") || s.starts_with("L2::") => {}
                other => return Err(self.err(ia.pos, format!("unsupported modifier `.{other}` in `{}` (not in the supported PTX subset)", ia.full_name()))),
            }
        }
        Ok(m)
    }

    fn one_type(&self, ia: &InstAst, m: &Mods) -> Result<Ty, PtxError> {
        match m.types.as_slice() {
            [t] => Ok(*t),
            [] => Err(self.err(ia.pos, format!("`{}` needs a type modifier", ia.full_name()))),
            _ => Err(self.err(ia.pos, format!("`{}` has more than one type modifier", ia.full_name()))),
        }
    }

    fn operands(&self, ia: &InstAst, n: std::ops::RangeInclusive<usize>) -> Result<(), PtxError> {
        if n.contains(&ia.operands.len()) {
            Ok(())
        } else {
            let want = if n.start() == n.end() { format!("{}", n.start()) } else { format!("{} to {}", n.start(), n.end()) };
            Err(self.err(ia.pos, format!("`{}` takes {want} operands, found {}", ia.full_name(), ia.operands.len())))
        }
    }

    fn lookup(&self, name: &str, p: Pos) -> Result<RegInfo, PtxError> {
        self.regs.get(name).copied().ok_or_else(|| {
            if name.starts_with('%') {
                self.err(p, format!("undefined register `{name}`"))
            } else {
                self.err(p, format!("undefined symbol `{name}`"))
            }
        })
    }

    /// A general-register operand of type `want`.
    fn reg(&self, ia: &InstAst, o: &OperandAst, want: Ty, wider_ok: bool) -> Result<(u16, Ty), PtxError> {
        match o {
            OperandAst::Name(n, p) => {
                if Special::parse(n).is_some() {
                    return Err(self.err(*p, format!("special register `{n}` cannot be a destination")));
                }
                match self.lookup(n, *p)? {
                    RegInfo::Gen(i, t) => {
                        if !type_ok(t, want, wider_ok) {
                            return Err(self.err(*p, format!("type mismatch: `{n}` is declared .{} but `{}` needs {}", t.name(), ia.full_name(), want_desc(want))));
                        }
                        Ok((i, t))
                    }
                    RegInfo::Pred(_) => Err(self.err(*p, format!("type mismatch: `{n}` is a predicate but `{}` needs {}", ia.full_name(), want_desc(want)))),
                }
            }
            other => Err(self.err(other.pos(), format!("`{}` needs a register here", ia.full_name()))),
        }
    }

    fn pred(&self, ia: &InstAst, o: &OperandAst) -> Result<(u16, bool), PtxError> {
        match o {
            OperandAst::Not(inner, _) => {
                let (i, n) = self.pred(ia, inner)?;
                Ok((i, !n))
            }
            OperandAst::Name(n, p) => match self.lookup(n, *p)? {
                RegInfo::Pred(i) => Ok((i, false)),
                RegInfo::Gen(_, t) => Err(self.err(*p, format!("type mismatch: `{n}` is declared .{} but `{}` needs a .pred register", t.name(), ia.full_name()))),
            },
            other => Err(self.err(other.pos(), format!("`{}` needs a predicate here", ia.full_name()))),
        }
    }

    /// Immediate converted to the bit pattern of `ty`.
    fn imm(&self, ia: &InstAst, o: &OperandAst, ty: Ty) -> Result<u64, PtxError> {
        let p = o.pos();
        let mismatch = |what: &str| self.err(p, format!("type mismatch: {what} literal used where `{}` needs .{}", ia.full_name(), ty.name()));
        Ok(match (o, ty) {
            (OperandAst::Int(v, _), Ty::F32) => (*v as f64 as f32).to_bits() as u64,
            (OperandAst::Int(v, _), Ty::F64) => (*v as f64).to_bits(),
            (OperandAst::Int(v, _), Ty::Pred) => (*v != 0) as u64,
            (OperandAst::Int(v, _), t) => {
                let bits = t.bits();
                let lo = -(1i128 << (bits - 1));
                let hi = (1i128 << bits) - 1;
                if *v < lo || *v > hi {
                    return Err(self.err(p, format!("literal {v} does not fit .{}", t.name())));
                }
                (*v as i64 as u64) & t.mask()
            }
            (OperandAst::Float(f, _), Ty::F32) => (*f as f32).to_bits() as u64,
            (OperandAst::Float(f, _), Ty::F64) => f.to_bits(),
            (OperandAst::Float(..), _) => return Err(mismatch("floating-point")),
            (OperandAst::F32Bits(b, _), Ty::F32 | Ty::B32) => *b as u64,
            (OperandAst::F32Bits(b, _), Ty::F64) => (f32::from_bits(*b) as f64).to_bits(),
            (OperandAst::F32Bits(..), _) => return Err(mismatch("f32")),
            (OperandAst::F64Bits(b, _), Ty::F64 | Ty::B64) => *b,
            (OperandAst::F64Bits(b, _), Ty::F32) => (f64::from_bits(*b) as f32).to_bits() as u64,
            (OperandAst::F64Bits(..), _) => return Err(mismatch("f64")),
            _ => return Err(self.err(p, "expected a literal".to_string())),
        })
    }

    /// A source of type `ty`: register, immediate or special register.
    fn src(&self, ia: &InstAst, o: &OperandAst, ty: Ty, wider_ok: bool) -> Result<Src, PtxError> {
        match o {
            OperandAst::Name(n, p) => {
                if let Some(s) = Special::parse(n) {
                    if ty.is_float() || ty == Ty::Pred || ty.bits() < s.bits() {
                        return Err(self.err(*p, format!("type mismatch: special register `{n}` is {}-bit integer, `{}` needs .{}", s.bits(), ia.full_name(), ty.name())));
                    }
                    return Ok(Src::Special(s));
                }
                if ty == Ty::Pred {
                    let (i, neg) = self.pred(ia, o)?;
                    return Ok(Src::Pred(i, neg));
                }
                if !n.starts_with('%') {
                    if let Some(sym) = self.syms.get(n) {
                        if ia.opcode == "mov" && !ty.is_float() && ty.bits() >= 32 {
                            let v = match sym {
                                Sym::Param(o) | Sym::Shared(o) | Sym::Local(o) => *o as u64,
                                Sym::Global(a) => *a,
                            };
                            return Ok(Src::Imm(v));
                        }
                        return Err(self.err(*p, format!("symbol `{n}` can only be used with mov or as an address")));
                    }
                }
                let (i, _) = self.reg(ia, o, ty, wider_ok)?;
                Ok(Src::Reg(i))
            }
            OperandAst::Not(..) if ty == Ty::Pred => {
                let (i, neg) = self.pred(ia, o)?;
                Ok(Src::Pred(i, neg))
            }
            OperandAst::Int(..) | OperandAst::Float(..) | OperandAst::F32Bits(..) | OperandAst::F64Bits(..) => Ok(Src::Imm(self.imm(ia, o, ty)?)),
            other => Err(self.err(other.pos(), format!("unexpected operand in `{}`", ia.full_name()))),
        }
    }

    fn addr(&self, ia: &InstAst, o: &OperandAst, space: Space) -> Result<Addr, PtxError> {
        match o {
            OperandAst::Addr { base: None, offset, .. } => Ok(Addr { base: AddrBase::Abs, offset: *offset }),
            OperandAst::Addr { base: Some(b), offset, pos } => {
                if b.starts_with('%') {
                    match self.lookup(b, *pos)? {
                        RegInfo::Gen(i, t) => {
                            if t.is_float() || (t.bits() != 64 && t.bits() != 32) {
                                return Err(self.err(*pos, format!("type mismatch: address register `{b}` is .{}; addresses need a 32- or 64-bit integer register", t.name())));
                            }
                            if t.bits() == 32 && matches!(space, Space::Global | Space::Generic) {
                                return Err(self.err(*pos, format!("type mismatch: `{b}` is 32-bit but global/generic addresses are 64-bit")));
                            }
                            Ok(Addr { base: AddrBase::Reg(i), offset: *offset })
                        }
                        RegInfo::Pred(_) => Err(self.err(*pos, format!("type mismatch: `{b}` is a predicate, not an address"))),
                    }
                } else {
                    let sym = self.syms.get(b).ok_or_else(|| self.err(*pos, format!("undefined symbol `{b}`")))?;
                    let (ok, base) = match (sym, space) {
                        (Sym::Param(o), Space::Param) => (true, *o as u64),
                        (Sym::Shared(o), Space::Shared) => (true, *o as u64),
                        (Sym::Local(o), Space::Local) => (true, *o as u64),
                        // module variables have device addresses: global or generic
                        (Sym::Global(a), Space::Global | Space::Generic) => (true, *a),
                        (Sym::Param(o), _) | (Sym::Shared(o), _) | (Sym::Local(o), _) => (false, *o as u64),
                        (Sym::Global(a), _) => (false, *a),
                    };
                    if !ok {
                        return Err(self.err(*pos, format!("symbol `{b}` is not in the space of `{}`", ia.full_name())));
                    }
                    Ok(Addr { base: AddrBase::Abs, offset: base as i64 + *offset })
                }
            }
            other => Err(self.err(other.pos(), format!("`{}` needs an address `[...]` here", ia.full_name()))),
        }
    }

    fn label(&self, o: &OperandAst) -> Result<u32, PtxError> {
        match o {
            OperandAst::Name(n, p) => self.labels.get(n).copied().ok_or_else(|| self.err(*p, format!("undefined label `{n}`"))),
            other => Err(self.err(other.pos(), "expected a label")),
        }
    }

    fn class_of(ty: Ty, sfu: bool) -> OpClass {
        if sfu {
            OpClass::Sfu
        } else if ty == Ty::F64 {
            OpClass::Fp64
        } else if matches!(ty, Ty::F32 | Ty::F16 | Ty::F16x2) {
            OpClass::Fp32
        } else {
            OpClass::Int
        }
    }

    fn decode_inst(&self, ia: &InstAst) -> Result<Inst, PtxError> {
        let mut inst = self.decode_body(ia)?;
        inst.line = ia.pos.line;
        if let Some((g, neg, p)) = &ia.guard {
            match self.lookup(g, *p)? {
                RegInfo::Pred(i) => {
                    inst.guard = i;
                    inst.guard_neg = *neg;
                }
                RegInfo::Gen(_, t) => return Err(self.err(*p, format!("type mismatch: guard `{g}` is declared .{}, not .pred", t.name()))),
            }
        }
        // scoreboard sets
        let nregs = self.nregs;
        let mut uses: Vec<u16> = Vec::new();
        let mut defs: Vec<u16> = Vec::new();
        if inst.guard != NO_PRED {
            uses.push(nregs + inst.guard);
        }
        for s in &inst.a[..inst.na as usize] {
            match s {
                Src::Reg(r) => uses.push(*r),
                Src::Pred(p, _) => uses.push(nregs + p),
                _ => {}
            }
        }
        if let AddrBase::Reg(r) = inst.addr.base {
            uses.push(r);
        }
        let pred_dst = matches!(inst.op, Op::Setp(..)) || inst.ty == Ty::Pred && !inst.is_mem();
        for (k, &d) in inst.d[..inst.nd as usize].iter().enumerate() {
            if d != NO_PRED {
                // shfl.sync: d[1] is the in-range predicate
                let pred = pred_dst || matches!(inst.op, Op::Shfl(_)) && k == 1;
                defs.push(if pred { nregs + d } else { d });
            }
        }
        uses.sort_unstable();
        uses.dedup();
        if uses.len() > 8 || defs.len() > 4 {
            return Err(self.err(ia.pos, format!("`{}` has too many register operands", ia.full_name())));
        }
        inst.n_use = uses.len() as u8;
        inst.sb_use[..uses.len()].copy_from_slice(&uses);
        inst.n_def = defs.len() as u8;
        inst.sb_def[..defs.len()].copy_from_slice(&defs);
        Ok(inst)
    }

    fn set_dst(&self, inst: &mut Inst, ia: &InstAst, o: &OperandAst, ty: Ty, wider_ok: bool) -> Result<(), PtxError> {
        let (r, rt) = self.reg(ia, o, ty, wider_ok)?;
        inst.d[0] = r;
        inst.nd = 1;
        inst.dmask = rt.mask();
        Ok(())
    }

    /// Destination 0 of an instruction that may also work on predicates (logic
    /// ops, `mov`): a predicate register when `pred`, else a register of `ty`.
    fn set_dst_or_pred(&self, inst: &mut Inst, ia: &InstAst, o: &OperandAst, pred: bool, ty: Ty) -> Result<(), PtxError> {
        if pred {
            let (d, _) = self.pred(ia, o)?;
            inst.d[0] = d;
            inst.nd = 1;
            Ok(())
        } else {
            self.set_dst(inst, ia, o, ty, false)
        }
    }

    /// `mov.bN d, {a, b, ...}`: the parts are N/len bits each.
    fn mov_pack(&self, ia: &InstAst, ty: Ty, dst: &OperandAst, parts: &[OperandAst], p: Pos) -> Result<Inst, PtxError> {
        let part = Self::pack_part_ty(ty, parts.len())
            .ok_or_else(|| self.err(p, format!("`{}` packs 2 or 4 parts of a .b32/.b64 (or 2 of a .b16), found {}", ia.full_name(), parts.len())))?;
        let mut inst = blank(Op::MovPack, ty, OpClass::Int);
        self.set_dst(&mut inst, ia, dst, ty, false)?;
        for (k, o) in parts.iter().enumerate() {
            inst.a[k] = self.src(ia, o, part, false)?;
        }
        inst.na = parts.len() as u8;
        Ok(inst)
    }

    /// `mov.bN {a, b, ...}, s`: `_` skips a part.
    fn mov_unpack(&self, ia: &InstAst, ty: Ty, parts: &[OperandAst], p: Pos, src: &OperandAst) -> Result<Inst, PtxError> {
        let part = Self::pack_part_ty(ty, parts.len())
            .ok_or_else(|| self.err(p, format!("`{}` unpacks into 2 or 4 parts of a .b32/.b64 (or 2 of a .b16), found {}", ia.full_name(), parts.len())))?;
        let mut inst = blank(Op::MovUnpack, ty, OpClass::Int);
        for (k, o) in parts.iter().enumerate() {
            inst.d[k] = match o {
                OperandAst::Sink(_) => NO_PRED,
                o => self.reg(ia, o, part, false)?.0,
            };
        }
        inst.nd = parts.len() as u8;
        inst.dmask = part.mask();
        inst.a[0] = self.src(ia, src, ty, false)?;
        inst.na = 1;
        Ok(inst)
    }

    fn pack_part_ty(ty: Ty, n: usize) -> Option<Ty> {
        Some(match (ty.bits(), n) {
            (64, 2) => Ty::B32,
            (64, 4) | (32, 2) => Ty::B16,
            (32, 4) | (16, 2) => Ty::B8,
            _ => return None,
        })
    }

    /// `tex.1d.v4.{f32,s32,u32}.s32 {d0, d1, d2, d3}, [tex, {x}]` (integer coordinate,
    /// no filtering: `tex1Dfetch`); other geometries and float coordinates are reported.
    fn texture(&self, ia: &InstAst, m: &Mods) -> Result<Inst, PtxError> {
        let name = ia.full_name();
        let unsupported = || self.err(ia.pos, format!("`{name}` is not in the supported PTX subset (only `tex.1d.v4.{{f32,s32,u32}}.s32`)"));
        if !ia.mods.iter().any(|s| s == "1d") || m.vec != 4 {
            return Err(unsupported());
        }
        let (dt, ct) = match m.types.as_slice() {
            [d, c] => (*d, *c),
            _ => return Err(unsupported()),
        };
        if !matches!(dt, Ty::F32 | Ty::S32 | Ty::U32) || ct != Ty::S32 {
            return Err(unsupported());
        }
        self.operands(ia, 2..=2)?;
        let mut inst = blank(Op::Tex, dt, OpClass::Mem);
        let OperandAst::Vector(ds, p) = &ia.operands[0] else {
            return Err(self.err(ia.operands[0].pos(), format!("`{name}` needs a vector of 4 registers")));
        };
        if ds.len() != 4 {
            return Err(self.err(*p, format!("`{name}` needs a vector of 4 registers, found {}", ds.len())));
        }
        for (k, d) in ds.iter().enumerate() {
            inst.d[k] = match d {
                OperandAst::Sink(_) => NO_PRED,
                d => self.reg(ia, d, dt, false)?.0,
            };
        }
        inst.nd = 4;
        let OperandAst::TexAddr { tex, coords, pos } = &ia.operands[1] else {
            return Err(self.err(ia.operands[1].pos(), format!("`{name}` needs `[texture, {{x}}]`")));
        };
        inst.target = self.textures.iter().position(|t| t == tex).ok_or_else(|| self.err(*pos, format!("undefined texture `{tex}`")))? as u32;
        let x = match coords.as_ref() {
            OperandAst::Vector(v, _) if v.len() == 1 => &v[0],
            o => return Err(self.err(o.pos(), format!("`{name}` needs one coordinate `{{x}}`"))),
        };
        inst.a[0] = self.src(ia, x, Ty::S32, false)?;
        inst.na = 1;
        Ok(inst)
    }

    /// `shfl.sync`, `vote.sync`, `activemask` (PTX ISA §9.7.8.6-§9.7.8.8 and
    /// §9.7.13).
    fn warp_level(&self, ia: &InstAst, m: &Mods) -> Result<Inst, PtxError> {
        let ops = &ia.operands;
        let name = ia.full_name();
        let has = |s: &str| ia.mods.iter().any(|x| x == s);
        match ia.opcode.as_str() {
            "activemask" => {
                self.operands(ia, 1..=1)?;
                if self.one_type(ia, m)? != Ty::B32 {
                    return Err(self.err(ia.pos, format!("`{name}` needs .b32")));
                }
                let mut inst = blank(Op::ActiveMask, Ty::B32, OpClass::Int);
                self.set_dst(&mut inst, ia, &ops[0], Ty::B32, false)?;
                Ok(inst)
            }
            "redux" => {
                // redux.sync.OP.TYPE d, a, membermask (PTX ISA 7.0, sm_80): every executing
                // lane gets the reduction of `a` over the executing lanes
                if !m.sync {
                    return Err(self.err(ia.pos, format!("`{name}`: only `redux.sync` is in the supported PTX subset")));
                }
                self.operands(ia, 3..=3)?;
                let ty = self.one_type(ia, m)?;
                let op = match m.atom {
                    Some(op @ (AtomOp::Add | AtomOp::Min | AtomOp::Max)) if matches!(ty, Ty::U32 | Ty::S32) => op,
                    Some(op @ (AtomOp::And | AtomOp::Or | AtomOp::Xor)) if ty == Ty::B32 => op,
                    Some(_) => return Err(self.err(ia.pos, format!("`{name}` needs .add, .min or .max with .u32 or .s32, or .and, .or or .xor with .b32"))),
                    None => return Err(self.err(ia.pos, format!("`{name}` needs an operation (.add, .min, .max, .and, .or, .xor)"))),
                };
                let mut inst = blank(Op::Redux(op), ty, OpClass::Int);
                self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.a[1] = self.src(ia, &ops[2], Ty::B32, false)?;
                inst.na = 2;
                Ok(inst)
            }
            "shfl" => {
                if !m.sync {
                    return Err(self.err(ia.pos, format!("`{name}`: only `shfl.sync` is in the supported PTX subset")));
                }
                self.operands(ia, 5..=5)?;
                let ty = self.one_type(ia, m)?;
                if ty != Ty::B32 {
                    return Err(self.err(ia.pos, format!("`{name}` needs .b32")));
                }
                let mode = [("up", ShflMode::Up), ("down", ShflMode::Down), ("bfly", ShflMode::Bfly), ("idx", ShflMode::Idx)]
                    .into_iter()
                    .find(|(s, _)| has(s))
                    .map(|(_, md)| md)
                    .ok_or_else(|| self.err(ia.pos, format!("`{name}` needs a mode (.up, .down, .bfly, .idx)")))?;
                let mut inst = blank(Op::Shfl(mode), Ty::B32, OpClass::Int);
                let (d, p) = match &ops[0] {
                    OperandAst::PredPair(d, p, pos) => (OperandAst::Name(d.clone(), *pos), Some(OperandAst::Name(p.clone(), *pos))),
                    o => (o.clone(), None),
                };
                self.set_dst(&mut inst, ia, &d, Ty::B32, false)?;
                inst.d[1] = match p {
                    Some(p) => self.pred(ia, &p)?.0,
                    None => NO_PRED,
                };
                inst.nd = 2;
                for k in 0..4 {
                    inst.a[k] = self.src(ia, &ops[k + 1], Ty::B32, false)?;
                }
                inst.na = 4;
                Ok(inst)
            }
            _ => {
                let mode = [("all", VoteMode::All), ("any", VoteMode::Any), ("uni", VoteMode::Uni), ("ballot", VoteMode::Ballot)]
                    .into_iter()
                    .find(|(s, _)| has(s))
                    .map(|(_, md)| md)
                    .ok_or_else(|| self.err(ia.pos, format!("`{name}` needs a mode (.all, .any, .uni, .ballot)")))?;
                self.operands(ia, if m.sync { 3..=3 } else { 2..=2 })?;
                let ty = self.one_type(ia, m)?;
                let want = if mode == VoteMode::Ballot { Ty::B32 } else { Ty::Pred };
                if ty != want {
                    return Err(self.err(ia.pos, format!("`{name}` needs .{}", want.name())));
                }
                let mut inst = blank(Op::Vote(mode), ty, OpClass::Int);
                self.set_dst_or_pred(&mut inst, ia, &ops[0], ty == Ty::Pred, ty)?;
                let (c, neg) = self.pred(ia, &ops[1])?;
                inst.a[0] = Src::Pred(c, neg);
                inst.na = 1;
                if m.sync {
                    inst.a[1] = self.src(ia, &ops[2], Ty::B32, false)?;
                    inst.na = 2;
                }
                Ok(inst)
            }
        }
    }

    /// `bfe`, `bfi`, `prmt`, `shf` (PTX ISA §9.7.7 bit-field and §9.7.8.6 funnel shift).
    fn bit_field(&self, ia: &InstAst, m: &Mods) -> Result<Inst, PtxError> {
        let ops = &ia.operands;
        let name = ia.full_name();
        let ty = self.one_type(ia, m)?;
        match ia.opcode.as_str() {
            "bfe" => {
                self.operands(ia, 4..=4)?;
                if !matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64) {
                    return Err(self.err(ia.pos, format!("`{name}` needs .u32, .s32, .u64 or .s64")));
                }
                let mut inst = blank(Op::Bfe, ty, OpClass::Int);
                self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.a[1] = self.src(ia, &ops[2], Ty::U32, false)?;
                inst.a[2] = self.src(ia, &ops[3], Ty::U32, false)?;
                inst.na = 3;
                Ok(inst)
            }
            "bfi" => {
                self.operands(ia, 5..=5)?;
                if !matches!(ty, Ty::B32 | Ty::B64) {
                    return Err(self.err(ia.pos, format!("`{name}` needs .b32 or .b64")));
                }
                let mut inst = blank(Op::Bfi, ty, OpClass::Int);
                self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.a[1] = self.src(ia, &ops[2], ty, false)?;
                inst.a[2] = self.src(ia, &ops[3], Ty::U32, false)?;
                inst.a[3] = self.src(ia, &ops[4], Ty::U32, false)?;
                inst.na = 4;
                Ok(inst)
            }
            "prmt" => {
                self.operands(ia, 4..=4)?;
                if ty != Ty::B32 {
                    return Err(self.err(ia.pos, format!("`{name}` needs .b32")));
                }
                let modes: Vec<PrmtMode> = ia
                    .mods
                    .iter()
                    .filter_map(|s| match s.as_str() {
                        "f4e" => Some(PrmtMode::F4e),
                        "b4e" => Some(PrmtMode::B4e),
                        "rc8" => Some(PrmtMode::Rc8),
                        "ecl" => Some(PrmtMode::Ecl),
                        "ecr" => Some(PrmtMode::Ecr),
                        "rc16" => Some(PrmtMode::Rc16),
                        _ => None,
                    })
                    .collect();
                let mode = match modes.as_slice() {
                    [] => PrmtMode::Default,
                    [m] => *m,
                    _ => return Err(self.err(ia.pos, format!("`{name}` has more than one mode"))),
                };
                let mut inst = blank(Op::Prmt(mode), ty, OpClass::Int);
                self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                for k in 0..3 {
                    inst.a[k] = self.src(ia, &ops[k + 1], Ty::B32, false)?;
                }
                inst.na = 3;
                Ok(inst)
            }
            _ => {
                self.operands(ia, 4..=4)?;
                let left = ia.mods.iter().any(|s| s == "l");
                let right = ia.mods.iter().any(|s| s == "r");
                let clamp = ia.mods.iter().any(|s| s == "clamp");
                let wrap = ia.mods.iter().any(|s| s == "wrap");
                if left == right || clamp == wrap {
                    return Err(self.err(ia.pos, format!("`{name}` needs one of .l/.r and one of .clamp/.wrap")));
                }
                if !matches!(ty, Ty::B32 | Ty::U32) {
                    return Err(self.err(ia.pos, format!("`{name}` needs .b32")));
                }
                let mut inst = blank(Op::Shf { left, clamp }, Ty::B32, OpClass::Int);
                self.set_dst(&mut inst, ia, &ops[0], Ty::B32, false)?;
                for k in 0..3 {
                    inst.a[k] = self.src(ia, &ops[k + 1], Ty::B32, false)?;
                }
                inst.na = 3;
                Ok(inst)
            }
        }
    }

    fn decode_body(&self, ia: &InstAst) -> Result<Inst, PtxError> {
        const KNOWN: &[&str] = &[
            "add",
            "sub",
            "min",
            "max",
            "div",
            "rem",
            "and",
            "or",
            "xor",
            "shl",
            "shr",
            "mul",
            "mad",
            "fma",
            "abs",
            "neg",
            "not",
            "cnot",
            "popc",
            "clz",
            "brev",
            "sqrt",
            "rsqrt",
            "rcp",
            "ex2",
            "lg2",
            "sin",
            "cos",
            "setp",
            "selp",
            "mov",
            "cvt",
            "cvta",
            "ld",
            "ldu",
            "st",
            "atom",
            "red",
            "bar",
            "barrier",
            "membar",
            "bfe",
            "bfi",
            "prmt",
            "shf",
            "shfl",
            "vote",
            "redux",
            "activemask",
            "vprintf",
            "tex",
            "fence",
            "bra",
            "ret",
            "exit",
        ];
        if !KNOWN.contains(&ia.opcode.as_str()) {
            return Err(self.err(ia.pos, format!("unsupported instruction `{}` (not in the supported PTX subset, see docs/ptx_subset.md)", ia.full_name())));
        }
        let m = self.parse_mods(ia)?;
        let packed = m.types.contains(&Ty::F16x2);
        if packed || m.types.contains(&Ty::F16) {
            let arith = matches!(ia.opcode.as_str(), "add" | "sub" | "mul" | "fma" | "min" | "max" | "abs" | "neg");
            let scalar_only = matches!(ia.opcode.as_str(), "setp" | "cvt" | "ld" | "ldu" | "st" | "mov");
            if !(arith || scalar_only && !packed) {
                return Err(self.err(
                    ia.pos,
                    format!(
                        "half-precision `{}` is not in the supported PTX subset (add, sub, mul, fma, min, max, abs and neg on .f16 and .f16x2; setp, cvt and moves on .f16)",
                        ia.full_name()
                    ),
                ));
            }
        }
        let ops = &ia.operands;
        let name = ia.full_name();
        let unsupported = |what: &str| self.err(ia.pos, format!("{what} in `{name}` is not in the supported PTX subset"));
        let only_rn = |m: &Mods| -> Result<(), PtxError> {
            match m.rnd {
                None | Some(Rnd::Rn) => Ok(()),
                Some(_) => Err(unsupported("a rounding mode other than .rn")),
            }
        };
        match ia.opcode.as_str() {
            "add" | "sub" | "min" | "max" | "div" | "rem" | "and" | "or" | "xor" | "shl" | "shr" => {
                self.operands(ia, 3..=3)?;
                let ty = self.one_type(ia, &m)?;
                let op = match ia.opcode.as_str() {
                    "add" => Op::Add,
                    "sub" => Op::Sub,
                    "min" => Op::Min,
                    "max" => Op::Max,
                    "div" => Op::Div,
                    "rem" => Op::Rem,
                    "and" => Op::And,
                    "or" => Op::Or,
                    "xor" => Op::Xor,
                    "shl" => Op::Shl,
                    _ => Op::Shr,
                };
                let logic = matches!(op, Op::And | Op::Or | Op::Xor);
                let shift = matches!(op, Op::Shl | Op::Shr);
                if logic && !matches!(ty.kind(), TyKind::Bits | TyKind::Pred) {
                    return Err(self.err(ia.pos, format!("`{name}` needs a .bN or .pred type")));
                }
                if !logic && ty == Ty::Pred {
                    return Err(self.err(ia.pos, format!("`{name}` does not take .pred")));
                }
                if shift && ty.is_float() {
                    return Err(self.err(ia.pos, format!("`{name}` needs an integer type")));
                }
                if op == Op::Rem && ty.is_float() {
                    return Err(unsupported("a float type"));
                }
                let directed = matches!(m.rnd, Some(Rnd::Rz | Rnd::Rm | Rnd::Rp));
                if ty.is_float() {
                    if op == Op::Div {
                        if directed {
                            return Err(unsupported("a rounding mode other than .rn"));
                        }
                    } else if !(directed && ty == Ty::F32 && matches!(op, Op::Add | Op::Sub)) {
                        only_rn(&m)?;
                    }
                }
                let half = matches!(ty, Ty::F16 | Ty::F16x2);
                if m.sat && !(ty == Ty::S32 && matches!(op, Op::Add | Op::Sub) || ty == Ty::F32 || half && matches!(op, Op::Add | Op::Sub)) {
                    return Err(unsupported(".sat"));
                }
                let sfu = matches!(op, Op::Div | Op::Rem);
                let mut inst = blank(op, ty, Self::class_of(ty, sfu));
                if ty.is_float() {
                    // `div.rn` keeps Rn; `div.approx` / `div.full` keep Default (the model
                    // divides exactly either way; the LLC-Compute tagger tells them apart)
                    inst.rnd = m.rnd.unwrap_or(Rnd::Default);
                }
                inst.ftz = m.ftz;
                inst.sat = m.sat;
                self.set_dst_or_pred(&mut inst, ia, &ops[0], ty == Ty::Pred, ty)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.a[1] = self.src(ia, &ops[2], if shift { Ty::U32 } else { ty }, false)?;
                inst.na = 2;
                Ok(inst)
            }
            "mul" | "mad" => {
                let is_mad = ia.opcode == "mad";
                self.operands(ia, if is_mad { 4..=4 } else { 3..=3 })?;
                let ty = self.one_type(ia, &m)?;
                let mut dty = ty;
                let op = if ty.is_float() {
                    if !(ty == Ty::F32 && matches!(m.rnd, Some(Rnd::Rz | Rnd::Rm | Rnd::Rp))) {
                        only_rn(&m)?;
                    }
                    if m.lo || m.hi || m.wide {
                        return Err(self.err(ia.pos, format!("`{name}`: .lo/.hi/.wide need an integer type")));
                    }
                    if is_mad {
                        Op::Fma
                    } else {
                        Op::Mul
                    }
                } else {
                    if ty.kind() == TyKind::Bits || ty == Ty::Pred {
                        return Err(self.err(ia.pos, format!("`{name}` needs a .u or .s type")));
                    }
                    match (m.lo, m.hi, m.wide) {
                        (true, false, false) => {
                            if is_mad {
                                Op::Mad
                            } else {
                                Op::Mul
                            }
                        }
                        (false, true, false) => {
                            if is_mad {
                                Op::MadHi
                            } else {
                                Op::MulHi
                            }
                        }
                        (false, false, true) => {
                            dty = ty.widened().ok_or_else(|| self.err(ia.pos, format!("`{name}`: .wide needs a 16- or 32-bit type")))?;
                            if is_mad {
                                Op::MadWide
                            } else {
                                Op::MulWide
                            }
                        }
                        _ => return Err(self.err(ia.pos, format!("`{name}` needs exactly one of .lo, .hi, .wide"))),
                    }
                };
                let half = matches!(ty, Ty::F16 | Ty::F16x2);
                if m.sat && ty != Ty::F32 && !half && !(ty == Ty::S32 && op == Op::MadHi) {
                    return Err(unsupported(".sat"));
                }
                let mut inst = blank(op, ty, Self::class_of(ty, false));
                if ty.is_float() {
                    inst.rnd = m.rnd.unwrap_or(Rnd::Default);
                }
                inst.ftz = m.ftz;
                inst.sat = m.sat;
                self.set_dst(&mut inst, ia, &ops[0], dty, false)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.a[1] = self.src(ia, &ops[2], ty, false)?;
                inst.na = 2;
                if is_mad {
                    inst.a[2] = self.src(ia, &ops[3], dty, false)?;
                    inst.na = 3;
                }
                Ok(inst)
            }
            "fma" => {
                self.operands(ia, 4..=4)?;
                let ty = self.one_type(ia, &m)?;
                if !ty.is_float() {
                    return Err(self.err(ia.pos, format!("`{name}` needs .f32 or .f64")));
                }
                match m.rnd {
                    None => return Err(self.err(ia.pos, format!("`{name}` needs a rounding modifier (.rn, .rz, .rm, .rp)"))),
                    Some(Rnd::Rn) => {}
                    Some(Rnd::Rz | Rnd::Rm | Rnd::Rp) if ty == Ty::F32 => {}
                    Some(_) => return Err(unsupported("this rounding mode (directed rounding is supported for .f32)")),
                }
                let mut inst = blank(Op::Fma, ty, Self::class_of(ty, false));
                inst.rnd = m.rnd.unwrap_or(Rnd::Default);
                inst.ftz = m.ftz;
                inst.sat = m.sat;
                self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                for k in 0..3 {
                    inst.a[k] = self.src(ia, &ops[k + 1], ty, false)?;
                }
                inst.na = 3;
                Ok(inst)
            }
            "abs" | "neg" | "not" | "cnot" | "popc" | "clz" | "brev" | "sqrt" | "rsqrt" | "rcp" | "ex2" | "lg2" | "sin" | "cos" => {
                self.operands(ia, 2..=2)?;
                let ty = self.one_type(ia, &m)?;
                let op = match ia.opcode.as_str() {
                    "abs" => Op::Abs,
                    "neg" => Op::Neg,
                    "not" => Op::Not,
                    "cnot" => Op::Cnot,
                    "popc" => Op::Popc,
                    "clz" => Op::Clz,
                    "brev" => Op::Brev,
                    "sqrt" => Op::Sqrt,
                    "rsqrt" => Op::Rsqrt,
                    "rcp" => Op::Rcp,
                    "ex2" => Op::Ex2,
                    "lg2" => Op::Lg2,
                    "sin" => Op::Sin,
                    _ => Op::Cos,
                };
                let sfu = matches!(op, Op::Sqrt | Op::Rsqrt | Op::Rcp | Op::Ex2 | Op::Lg2 | Op::Sin | Op::Cos);
                if sfu && !ty.is_float() {
                    return Err(self.err(ia.pos, format!("`{name}` needs a float type")));
                }
                if sfu && matches!(m.rnd, Some(Rnd::Rz | Rnd::Rm | Rnd::Rp)) {
                    return Err(unsupported("a rounding mode other than .rn"));
                }
                if matches!(op, Op::Not | Op::Cnot | Op::Popc | Op::Clz | Op::Brev) && !matches!(ty.kind(), TyKind::Bits | TyKind::Pred) {
                    return Err(self.err(ia.pos, format!("`{name}` needs a .bN type")));
                }
                if matches!(op, Op::Abs | Op::Neg) && (ty.kind() == TyKind::Unsigned || ty.kind() == TyKind::Bits) {
                    return Err(self.err(ia.pos, format!("`{name}` needs a .s or .f type")));
                }
                if ty == Ty::Pred && op != Op::Not {
                    return Err(self.err(ia.pos, format!("`{name}` does not take .pred")));
                }
                let mut inst = blank(op, ty, Self::class_of(ty, sfu));
                inst.ftz = m.ftz;
                inst.sat = m.sat;
                let dty = if matches!(op, Op::Popc | Op::Clz) { Ty::U32 } else { ty };
                self.set_dst_or_pred(&mut inst, ia, &ops[0], ty == Ty::Pred, dty)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.na = 1;
                Ok(inst)
            }
            "setp" => {
                self.operands(ia, 3..=4)?;
                let ty = self.one_type(ia, &m)?;
                let cmp = m.cmp.ok_or_else(|| self.err(ia.pos, format!("`{name}` needs a comparison (.eq, .lt, ...)")))?;
                let unsigned_cmp = matches!(cmp, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs);
                let float_cmp = matches!(cmp, Cmp::Equ | Cmp::Neu | Cmp::Ltu | Cmp::Leu | Cmp::Gtu | Cmp::Geu | Cmp::Num | Cmp::Nan);
                if unsigned_cmp && ty.is_float() || float_cmp && !ty.is_float() || ty == Ty::Pred {
                    return Err(self.err(ia.pos, format!("`{name}`: comparison does not apply to .{}", ty.name())));
                }
                let bop = m.bop.unwrap_or(BoolOp::None);
                let mut inst = blank(Op::Setp(cmp, bop), ty, Self::class_of(ty, false));
                inst.ftz = m.ftz;
                match &ops[0] {
                    OperandAst::PredPair(p, q, pos) => {
                        let (pi, _) = self.pred(ia, &OperandAst::Name(p.clone(), *pos))?;
                        let (qi, _) = self.pred(ia, &OperandAst::Name(q.clone(), *pos))?;
                        inst.d[0] = pi;
                        inst.d[1] = qi;
                        inst.nd = 2;
                    }
                    o => {
                        let (pi, _) = self.pred(ia, o)?;
                        inst.d[0] = pi;
                        inst.nd = 1;
                    }
                }
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.a[1] = self.src(ia, &ops[2], ty, false)?;
                inst.na = 2;
                match (bop, ops.len()) {
                    (BoolOp::None, 3) => {}
                    (BoolOp::None, _) => return Err(self.err(ia.pos, format!("`{name}`: a fourth operand needs .and/.or/.xor"))),
                    (_, 4) => {
                        let (c, neg) = self.pred(ia, &ops[3])?;
                        inst.a[2] = Src::Pred(c, neg);
                        inst.na = 3;
                    }
                    _ => return Err(self.err(ia.pos, format!("`{name}` needs a predicate operand for its boolean op"))),
                }
                Ok(inst)
            }
            "selp" => {
                self.operands(ia, 4..=4)?;
                let ty = self.one_type(ia, &m)?;
                let mut inst = blank(Op::Selp, ty, Self::class_of(ty, false));
                if ty == Ty::F64 {
                    inst.class = OpClass::Int;
                }
                self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.a[1] = self.src(ia, &ops[2], ty, false)?;
                let (c, neg) = self.pred(ia, &ops[3])?;
                inst.a[2] = Src::Pred(c, neg);
                inst.na = 3;
                inst.class = OpClass::Int;
                Ok(inst)
            }
            "mov" => {
                self.operands(ia, 2..=2)?;
                let ty = self.one_type(ia, &m)?;
                if let OperandAst::Vector(parts, p) = &ops[1] {
                    return self.mov_pack(ia, ty, &ops[0], parts, *p);
                }
                if let OperandAst::Vector(parts, p) = &ops[0] {
                    return self.mov_unpack(ia, ty, parts, *p, &ops[1]);
                }
                let mut inst = blank(Op::Mov, ty, OpClass::Int);
                self.set_dst_or_pred(&mut inst, ia, &ops[0], ty == Ty::Pred, ty)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.na = 1;
                Ok(inst)
            }
            "cvt" => {
                self.operands(ia, 2..=2)?;
                let (dt, st) = match m.types.as_slice() {
                    [d, s] => (*d, *s),
                    _ => return Err(self.err(ia.pos, format!("`{name}` needs a destination and a source type"))),
                };
                if dt == Ty::Pred || st == Ty::Pred {
                    return Err(self.err(ia.pos, format!("`{name}` does not convert predicates")));
                }
                let rnd = m.rnd.unwrap_or(Rnd::Default);
                let int_rnd = matches!(rnd, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi);
                let flt_rnd = matches!(rnd, Rnd::Rn | Rnd::Rz | Rnd::Rm | Rnd::Rp);
                // PTX: float->int needs an integer rounding; int->float / narrowing float a float rounding
                if st.is_float() && !dt.is_float() && !int_rnd {
                    return Err(self.err(ia.pos, format!("`{name}` needs an integer rounding modifier (.rni/.rzi/.rmi/.rpi)")));
                }
                if !st.is_float() && dt.is_float() && int_rnd || st.is_float() && !dt.is_float() && flt_rnd {
                    return Err(self.err(ia.pos, format!("`{name}`: wrong kind of rounding modifier")));
                }
                if matches!(rnd, Rnd::Rm | Rnd::Rp | Rnd::Rz) && dt == Ty::F64 && st.is_float() && st != Ty::F32 {
                    return Err(unsupported("a directed rounding mode on an f64 result"));
                }
                if (dt == Ty::F16 || st == Ty::F16) && matches!(rnd, Rnd::Rz | Rnd::Rm | Rnd::Rp) {
                    return Err(unsupported("a directed rounding mode with .f16"));
                }
                let class = if dt == Ty::F64 || st == Ty::F64 { OpClass::Fp64 } else { OpClass::Int };
                let mut inst = blank(Op::Cvt { from: st, rnd }, dt, class);
                inst.ftz = m.ftz;
                inst.sat = m.sat;
                self.set_dst(&mut inst, ia, &ops[0], dt, true)?;
                inst.a[0] = self.src(ia, &ops[1], st, true)?;
                inst.na = 1;
                Ok(inst)
            }
            "cvta" => {
                self.operands(ia, 2..=2)?;
                let ty = self.one_type(ia, &m)?;
                if ty != Ty::U64 && ty != Ty::U32 {
                    return Err(self.err(ia.pos, format!("`{name}` needs .u32 or .u64")));
                }
                let space = match m.space {
                    Some(s @ (Space::Global | Space::Shared | Space::Local)) => s,
                    _ => return Err(self.err(ia.pos, format!("`{name}` needs .global, .shared or .local"))),
                };
                let dir = if m.to { CvtaDir::FromGeneric } else { CvtaDir::ToGeneric };
                let mut inst = blank(Op::Cvta { dir, space }, ty, OpClass::Int);
                self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                inst.a[0] = self.src(ia, &ops[1], ty, false)?;
                inst.na = 1;
                Ok(inst)
            }
            // `ldu` (load uniform) is a global load
            "ld" | "ldu" | "st" => {
                let is_ld = ia.opcode != "st";
                self.operands(ia, 2..=2)?;
                let ty = self.one_type(ia, &m)?;
                if ty == Ty::Pred {
                    return Err(self.err(ia.pos, format!("`{name}` cannot move predicates")));
                }
                let space = m.space.unwrap_or(Space::Generic);
                if !is_ld && m.is_const {
                    return Err(self.err(ia.pos, format!("`{name}`: constant memory is read-only")));
                }
                if ia.opcode == "ldu" && space != Space::Global && space != Space::Generic {
                    return Err(self.err(ia.pos, format!("`{name}` needs .global")));
                }
                if !is_ld && space == Space::Param {
                    return Err(unsupported("st.param"));
                }
                let vec = m.vec.max(1);
                let cache = if m.bypass_l1 { CacheOp::BypassL1 } else { CacheOp::CacheAll };
                let op = if is_ld { Op::Ld { space, vec, cache } } else { Op::St { space, vec, cache } };
                let mut inst = blank(op, ty, OpClass::Mem);
                let (data, addr) = if is_ld { (&ops[0], &ops[1]) } else { (&ops[1], &ops[0]) };
                inst.addr = self.addr(ia, addr, space)?;
                let elems: Vec<&OperandAst> = match data {
                    OperandAst::Vector(v, p) => {
                        if v.len() != vec as usize {
                            return Err(self.err(*p, format!("`{name}` needs a vector of {vec} registers, found {}", v.len())));
                        }
                        v.iter().collect()
                    }
                    o => {
                        if vec != 1 {
                            return Err(self.err(o.pos(), format!("`{name}` needs a vector operand `{{...}}`")));
                        }
                        vec![o]
                    }
                };
                if is_ld {
                    let mut mask = 0u64;
                    for (k, e) in elems.iter().enumerate() {
                        if let OperandAst::Sink(_) = e {
                            inst.d[k] = NO_PRED;
                        } else {
                            let (r, rt) = self.reg(ia, e, ty, true)?;
                            inst.d[k] = r;
                            mask = rt.mask();
                        }
                    }
                    inst.nd = vec;
                    inst.dmask = if mask == 0 { ty.mask() } else { mask };
                } else {
                    for (k, e) in elems.iter().enumerate() {
                        inst.a[k] = self.src(ia, e, ty, true)?;
                    }
                    inst.na = vec;
                }
                Ok(inst)
            }
            "atom" | "red" => {
                let is_atom = ia.opcode == "atom";
                let aop = m.atom.ok_or_else(|| self.err(ia.pos, format!("`{name}` needs an operation (.add, .cas, ...)")))?;
                let space = m.space.unwrap_or(Space::Generic);
                if matches!(space, Space::Local | Space::Param) {
                    return Err(self.err(ia.pos, format!("`{name}`: atomics need .global or .shared")));
                }
                let ty = self.one_type(ia, &m)?;
                let ok = match aop {
                    AtomOp::Add => matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::F32 | Ty::F64),
                    AtomOp::Min | AtomOp::Max => matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64),
                    AtomOp::Inc | AtomOp::Dec => ty == Ty::U32,
                    AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Exch | AtomOp::Cas => matches!(ty, Ty::B32 | Ty::B64),
                };
                if !ok {
                    return Err(self.err(ia.pos, format!("`{name}`: operation does not apply to .{}", ty.name())));
                }
                if is_atom && aop == AtomOp::Cas {
                    self.operands(ia, 4..=4)?;
                } else if is_atom {
                    self.operands(ia, 3..=3)?;
                } else {
                    if aop == AtomOp::Cas || aop == AtomOp::Exch {
                        return Err(self.err(ia.pos, format!("`{name}`: red has no .cas/.exch")));
                    }
                    self.operands(ia, 2..=2)?;
                }
                let op = if is_atom { Op::Atom { space, op: aop } } else { Op::Red { space, op: aop } };
                let mut inst = blank(op, ty, OpClass::Mem);
                let mut k = 0;
                if is_atom {
                    self.set_dst(&mut inst, ia, &ops[0], ty, false)?;
                    k = 1;
                }
                inst.addr = self.addr(ia, &ops[k], space)?;
                inst.a[0] = self.src(ia, &ops[k + 1], ty, false)?;
                inst.na = 1;
                if aop == AtomOp::Cas {
                    inst.a[1] = self.src(ia, &ops[k + 2], ty, false)?;
                    inst.na = 2;
                }
                Ok(inst)
            }
            "bar" | "barrier" => {
                // `bar.sync id[, n]`, `bar.arrive id, n`, `barrier.sync[.aligned] id[, n]`,
                // `bar.red` is not supported
                let arrive = ia.mods.iter().any(|s| s == "arrive");
                if ia.mods.iter().any(|s| s == "warp") {
                    self.operands(ia, 1..=1)?;
                    let mut inst = blank(Op::WarpSync, Ty::B32, OpClass::Int);
                    inst.a[0] = self.src(ia, &ops[0], Ty::B32, false)?;
                    inst.na = 1;
                    return Ok(inst);
                }
                if !m.sync && !arrive {
                    return Err(unsupported("a barrier other than .sync and .arrive"));
                }
                self.operands(ia, if arrive { 2..=2 } else { 1..=2 })?;
                let id = match &ops[0] {
                    OperandAst::Int(id, _) if (0..16).contains(id) => *id as u64,
                    o => return Err(self.err(o.pos(), format!("`{name}`: the barrier id must be an immediate in 0..=15"))),
                };
                let mut inst = blank(if arrive { Op::BarArrive } else { Op::Bar }, Ty::B32, OpClass::Ctrl);
                inst.a[1] = Src::Imm(id);
                if ops.len() == 2 {
                    match &ops[1] {
                        OperandAst::Int(n, _) if *n > 0 && n % 32 == 0 => inst.a[0] = Src::Imm(*n as u64),
                        o => return Err(self.err(o.pos(), format!("`{name}`: the thread count must be an immediate, a positive multiple of 32"))),
                    }
                }
                inst.na = 0;
                Ok(inst)
            }
            "membar" | "fence" => {
                if ia.mods.iter().any(|s| s.starts_with("proxy")) {
                    return Err(unsupported("fence.proxy"));
                }
                self.operands(ia, 0..=0)?;
                let scope = m.scope.ok_or_else(|| self.err(ia.pos, format!("`{name}` needs a scope (.cta, .gl/.gpu, .sys)")))?;
                Ok(blank(Op::Membar(scope), Ty::B32, OpClass::Ctrl))
            }
            "bfe" | "bfi" | "prmt" | "shf" => self.bit_field(ia, &m),
            "shfl" | "vote" | "redux" | "activemask" => self.warp_level(ia, &m),
            "tex" => self.texture(ia, &m),
            "vprintf" => {
                // built from `call vprintf` by the inliner: [ret or _, format, args]
                self.operands(ia, 3..=3)?;
                let mut inst = blank(Op::Printf, Ty::B64, OpClass::Int);
                if !matches!(ops[0], OperandAst::Sink(_)) {
                    self.set_dst(&mut inst, ia, &ops[0], Ty::B32, false)?;
                }
                inst.a[0] = self.src(ia, &ops[1], Ty::B64, false)?;
                inst.a[1] = self.src(ia, &ops[2], Ty::B64, false)?;
                inst.na = 2;
                Ok(inst)
            }
            "bra" => {
                self.operands(ia, 1..=1)?;
                let mut inst = blank(Op::Bra, Ty::B32, OpClass::Ctrl);
                inst.target = self.label(&ops[0])?;
                Ok(inst)
            }
            "ret" | "exit" => {
                self.operands(ia, 0..=0)?;
                Ok(blank(if ia.opcode == "ret" { Op::Ret } else { Op::Exit }, Ty::B32, OpClass::Ctrl))
            }
            _ => Err(self.err(ia.pos, format!("unsupported instruction `{name}` (not in the supported PTX subset, see docs/ptx_subset.md)"))),
        }
    }
}
