//! Syntax tree of a PTX module, as written (before register resolution and decode).

/// Where a construct starts in the source (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// A parsed module: header directives, module-scope variables and entries.
#[derive(Debug, Clone, Default)]
pub struct ModuleAst {
    pub version: Option<String>,
    pub target: Vec<String>,
    pub address_size: Option<u32>,
    /// Module-scope `.shared` (including `.extern .shared` dynamic shared memory).
    pub vars: Vec<VarDecl>,
    pub entries: Vec<EntryAst>,
    /// `.func` definitions and declarations (calls are inlined at decode).
    pub funcs: Vec<FuncAst>,
    /// `.global .texref name;` texture references, in declaration order.
    pub texrefs: Vec<(String, Pos)>,
}

/// `.func (.param .b32 ret) name(.param .b32 a, ...) { body }`, or a declaration
/// without a body (`.extern .func vprintf(...);`).
#[derive(Debug, Clone)]
pub struct FuncAst {
    pub name: String,
    pub pos: Pos,
    pub rets: Vec<ParamDecl>,
    pub params: Vec<ParamDecl>,
    pub body: Option<Vec<Stmt>>,
}

/// `.entry name(params) { body }`.
#[derive(Debug, Clone)]
pub struct EntryAst {
    pub name: String,
    pub pos: Pos,
    pub params: Vec<ParamDecl>,
    /// `.maxnreg N`, if given: used as registers per thread for occupancy.
    pub maxnreg: Option<u32>,
    pub body: Vec<Stmt>,
}

/// `.param .u64 name` or `.param .align 8 .b8 name[16]`.
#[derive(Debug, Clone)]
pub struct ParamDecl {
    pub name: String,
    pub ty: String,
    pub align: Option<u32>,
    pub array: Option<u32>,
    pub pos: Pos,
}

/// `.reg .b32 %r<6>;` or `.reg .f32 %f1, %f2;`
#[derive(Debug, Clone)]
pub struct RegDecl {
    pub ty: String,
    /// (name, count): count = Some(n) for the `%r<n>` form (names `%r0`..`%r{n-1}`).
    pub names: Vec<(String, Option<u32>, Pos)>,
    pub pos: Pos,
}

/// A variable in `.shared`, `.local` or `.global` space.
#[derive(Debug, Clone)]
pub struct VarDecl {
    pub space: String,
    pub is_extern: bool,
    pub align: Option<u32>,
    pub ty: String,
    pub name: String,
    /// `Some(None)` for `name[]` (extern, dynamically sized), `Some(Some(n))` for `name[n]`.
    pub array: Option<Option<u64>>,
    /// `= value` or `= { v, v, ... }` (nested braces flattened), module-scope
    /// `.global`/`.const` only.
    pub init: Option<Vec<InitVal>>,
    pub pos: Pos,
}

/// One element of a variable initializer.
#[derive(Debug, Clone, PartialEq)]
pub enum InitVal {
    Int(i128),
    Float(f64),
    F32Bits(u32),
    F64Bits(u64),
}

/// A statement in an entry body (nested `{}` scopes are flattened).
#[derive(Debug, Clone)]
pub enum Stmt {
    Reg(RegDecl),
    /// `.param` declared in a body (the argument and return slots of a call sequence).
    Param(ParamDecl),
    Var(VarDecl),
    Label(String, Pos),
    Inst(InstAst),
}

/// An instruction as written: guard, opcode, modifiers, operands.
#[derive(Debug, Clone)]
pub struct InstAst {
    /// `@%p` / `@!%p`: (register name, negated, position).
    pub guard: Option<(String, bool, Pos)>,
    pub opcode: String,
    /// Modifiers without the leading dot, in order (`["global", "v4", "f32"]`).
    pub mods: Vec<String>,
    pub operands: Vec<OperandAst>,
    pub pos: Pos,
}

impl InstAst {
    /// The full instruction name as written (`ld.global.v4.f32`).
    pub fn full_name(&self) -> String {
        let mut s = self.opcode.clone();
        for m in &self.mods {
            s.push('.');
            s.push_str(m);
        }
        s
    }
}

/// An operand as written.
#[derive(Debug, Clone, PartialEq)]
pub enum OperandAst {
    /// Register, special register (`%tid.x`), label or symbol name.
    Name(String, Pos),
    /// Integer literal with sign applied (two's complement in 64 bits).
    Int(i128, Pos),
    F32Bits(u32, Pos),
    F64Bits(u64, Pos),
    Float(f64, Pos),
    /// `[base+offset]`, `[base]`, `[offset]`.
    Addr {
        base: Option<String>,
        offset: i64,
        pos: Pos,
    },
    /// `{a, b, c, d}` vector operand.
    Vector(Vec<OperandAst>, Pos),
    /// `!%p` (negated predicate source).
    Not(Box<OperandAst>, Pos),
    /// `%p|%q` (setp's two predicate destinations).
    PredPair(String, String, Pos),
    /// `_` sink in a vector.
    Sink(Pos),
    /// `(a, b)`: the return and argument lists of `call`.
    List(Vec<OperandAst>, Pos),
    /// `[tex, {x, y}]`: a texture or surface and its coordinates.
    TexAddr {
        tex: String,
        coords: Box<OperandAst>,
        pos: Pos,
    },
}

impl OperandAst {
    pub fn pos(&self) -> Pos {
        match self {
            OperandAst::Name(_, p)
            | OperandAst::Int(_, p)
            | OperandAst::F32Bits(_, p)
            | OperandAst::F64Bits(_, p)
            | OperandAst::Float(_, p)
            | OperandAst::Addr { pos: p, .. }
            | OperandAst::Vector(_, p)
            | OperandAst::Not(_, p)
            | OperandAst::PredPair(_, _, p)
            | OperandAst::Sink(p)
            | OperandAst::List(_, p)
            | OperandAst::TexAddr { pos: p, .. } => *p,
        }
    }
}
