//! PTX parser: tokens to [`ModuleAst`]. Accepts the module layout `nvcc -ptx` writes
//! (header, `.visible .entry`, `.param` lists, performance directives, `.reg`
//! declarations, labels, nested `{}` scopes, `.loc`/`.file`/`.pragma` lines) and reports
//! anything else with file, line and column.

use std::path::Path;

use super::ast::*;
use super::lexer::{tokenize, Tok, Token};
use super::PtxError;

/// Special registers with `.x/.y/.z` components.
const VECTOR_SPECIALS: [&str; 4] = ["%tid", "%ntid", "%ctaid", "%nctaid"];

struct Parser<'a> {
    file: &'a Path,
    toks: Vec<Token>,
    i: usize,
    /// Nested `{ }` scopes inside the current body (the body itself is not one):
    /// their register declarations shadow outer ones.
    scopes: Vec<Scope>,
    next_scope: u32,
}

/// Registers declared in one nested scope. Their names are made unique by appending
/// `#id` (a character identifiers cannot contain) to the declaration and to every
/// reference inside the scope.
#[derive(Debug, Default)]
struct Scope {
    id: u32,
    names: Vec<String>,
    /// `%r<n>` declarations: (prefix, n).
    ranges: Vec<(String, u32)>,
}

/// Which header [`Parser::directives`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Header {
    Entry,
    Func,
}

impl Header {
    fn word(self) -> &'static str {
        match self {
            Header::Entry => "entry",
            Header::Func => "function",
        }
    }
}

impl Scope {
    fn declares(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
            || self.ranges.iter().any(|(p, n)| {
                name.strip_prefix(p.as_str()).is_some_and(|rest| {
                    !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()) && (rest == "0" || !rest.starts_with('0')) && rest.parse::<u32>().is_ok_and(|k| k < *n)
                })
            })
    }
}

/// Parse PTX text into a module syntax tree.
pub fn parse(file: &Path, text: &str) -> Result<ModuleAst, PtxError> {
    let toks = tokenize(file, text)?;
    let mut p = Parser { file, toks, i: 0, scopes: Vec::new(), next_scope: 0 };
    p.module()
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }

    fn pos(&self) -> Pos {
        let t = &self.toks[self.i];
        Pos { line: t.line, col: t.col }
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.i].clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }

    fn err_at(&self, pos: Pos, msg: impl Into<String>) -> PtxError {
        PtxError::new(self.file, pos.line, pos.col, msg.into())
    }

    fn err(&self, msg: impl Into<String>) -> PtxError {
        self.err_at(self.pos(), msg)
    }

    fn describe(t: &Tok) -> String {
        match t {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Dot(s) => format!("`.{s}`"),
            Tok::Int(v) => format!("`{v}`"),
            Tok::F32Bits(v) => format!("`0f{v:08X}`"),
            Tok::F64Bits(v) => format!("`0d{v:016X}`"),
            Tok::Float(v) => format!("`{v}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Eof => "end of file".into(),
        }
    }

    fn expect_punct(&mut self, c: char) -> Result<(), PtxError> {
        if *self.peek() == Tok::Punct(c) {
            self.bump();
            Ok(())
        } else {
            Err(self.err(format!("expected `{c}`, found {}", Self::describe(self.peek()))))
        }
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if *self.peek() == Tok::Punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_ident(&mut self, what: &str) -> Result<(String, Pos), PtxError> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok((s, pos))
            }
            t => Err(self.err(format!("expected {what}, found {}", Self::describe(&t)))),
        }
    }

    fn expect_uint(&mut self, what: &str) -> Result<u64, PtxError> {
        match self.peek().clone() {
            Tok::Int(v) => {
                self.bump();
                Ok(v)
            }
            t => Err(self.err(format!("expected {what}, found {}", Self::describe(&t)))),
        }
    }

    /// Skip the rest of the current source line (for `.loc`, `.file`).
    fn skip_line(&mut self, line: u32) {
        while self.toks[self.i].line == line && *self.peek() != Tok::Eof {
            self.bump();
        }
    }

    fn module(&mut self) -> Result<ModuleAst, PtxError> {
        let mut m = ModuleAst::default();
        loop {
            let pos = self.pos();
            match self.peek().clone() {
                Tok::Eof => break,
                Tok::Dot(d) => match d.as_str() {
                    "version" => {
                        self.bump();
                        let v = match self.bump().tok {
                            Tok::Float(f) => format!("{f:?}"),
                            Tok::Int(i) => format!("{i}"),
                            t => return Err(self.err_at(pos, format!("bad .version {}", Self::describe(&t)))),
                        };
                        m.version = Some(v);
                    }
                    "target" => {
                        self.bump();
                        loop {
                            let (t, _) = self.expect_ident("target name")?;
                            m.target.push(t);
                            if !self.eat_punct(',') {
                                break;
                            }
                        }
                    }
                    "address_size" => {
                        self.bump();
                        let v = self.expect_uint("address size")?;
                        if v != 64 {
                            return Err(self.err_at(pos, format!(".address_size {v} is not supported (only 64)")));
                        }
                        m.address_size = Some(v as u32);
                    }
                    "file" | "loc" => {
                        self.bump();
                        self.skip_line(pos.line);
                    }
                    "section" => self.skip_section()?,
                    "pragma" => {
                        self.bump();
                        while !self.eat_punct(';') {
                            if *self.peek() == Tok::Eof {
                                return Err(self.err("unterminated .pragma"));
                            }
                            self.bump();
                        }
                    }
                    "visible" | "weak" | "extern" | "entry" | "func" | "shared" | "global" | "const" => {
                        self.top_level_decl(&mut m)?;
                    }
                    other => {
                        return Err(self.err_at(pos, format!("unsupported directive `.{other}` at module scope")));
                    }
                },
                t => return Err(self.err_at(pos, format!("expected a directive, found {}", Self::describe(&t)))),
            }
        }
        Ok(m)
    }

    fn top_level_decl(&mut self, m: &mut ModuleAst) -> Result<(), PtxError> {
        let start = self.pos();
        let mut is_extern = false;
        loop {
            match self.peek().clone() {
                Tok::Dot(d) if d == "visible" || d == "weak" => {
                    self.bump();
                }
                Tok::Dot(d) if d == "extern" => {
                    is_extern = true;
                    self.bump();
                }
                _ => break,
            }
        }
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Dot(d) if d == "entry" => {
                self.bump();
                let e = self.entry()?;
                m.entries.push(e);
                Ok(())
            }
            Tok::Dot(d) if d == "func" => {
                self.bump();
                let f = self.func(pos)?;
                m.funcs.push(f);
                Ok(())
            }
            Tok::Dot(d) if d == "shared" => {
                let v = self.var_decl(is_extern)?;
                m.vars.push(v);
                Ok(())
            }
            Tok::Dot(d) if d == "global" || d == "const" => {
                if *self.peek_at(1) == Tok::Dot("texref".into()) {
                    self.bump();
                    self.bump();
                    let (name, _) = self.expect_ident("texture name")?;
                    self.expect_punct(';')?;
                    m.texrefs.push((name, pos));
                    return Ok(());
                }
                if let Tok::Dot(t) = self.peek_at(1) {
                    if matches!(t.as_str(), "surfref" | "samplerref") {
                        return Err(self.err_at(pos, format!("`.{t}` declarations (textures, surfaces, samplers) are not in the supported PTX subset")));
                    }
                }
                let v = self.var_decl(is_extern)?;
                m.vars.push(v);
                Ok(())
            }
            t => Err(self.err_at(start, format!("expected `.entry` or a variable after linkage, found {}", Self::describe(&t)))),
        }
    }

    /// `.shared/.local [.align N] .type name[N];` (the space token is current).
    fn var_decl(&mut self, is_extern: bool) -> Result<VarDecl, PtxError> {
        let pos = self.pos();
        let space = match self.bump().tok {
            Tok::Dot(d) => d,
            _ => unreachable!("var_decl called on a space token"),
        };
        let mut align = None;
        let mut ty = None;
        while let Tok::Dot(d) = self.peek().clone() {
            self.bump();
            if d == "align" {
                align = Some(self.expect_uint("alignment")? as u32);
            } else if d == "v2" || d == "v4" {
                return Err(self.err_at(pos, "vector-typed variables are not in the supported PTX subset"));
            } else {
                ty = Some(d);
            }
        }
        let ty = ty.ok_or_else(|| self.err("expected a type for the variable"))?;
        let (name, _) = self.expect_ident("variable name")?;
        let mut array = None;
        if self.eat_punct('[') {
            if self.eat_punct(']') {
                array = Some(None);
            } else {
                let n = self.expect_uint("array length")?;
                self.expect_punct(']')?;
                array = Some(Some(n));
            }
        }
        let mut init = None;
        if *self.peek() == Tok::Punct('=') {
            if space != "global" && space != "const" {
                return Err(self.err(format!("initialized `.{space}` variables are not in the supported PTX subset (only .global and .const)")));
            }
            self.bump();
            let mut vals = Vec::new();
            self.initializer(&mut vals)?;
            init = Some(vals);
        }
        self.expect_punct(';')?;
        Ok(VarDecl { space, is_extern, align, ty, name, array, init, pos })
    }

    /// A scalar or a `{ ... }` list (nested lists flattened) into `out`.
    fn initializer(&mut self, out: &mut Vec<InitVal>) -> Result<(), PtxError> {
        if self.eat_punct('{') {
            if self.eat_punct('}') {
                return Ok(());
            }
            loop {
                self.initializer(out)?;
                if self.eat_punct('}') {
                    return Ok(());
                }
                self.expect_punct(',')?;
            }
        }
        let neg = self.eat_punct('-');
        let pos = self.pos();
        let v = match self.bump().tok {
            Tok::Int(v) => InitVal::Int(if neg { -(v as i128) } else { v as i128 }),
            Tok::Float(f) => InitVal::Float(if neg { -f } else { f }),
            Tok::F32Bits(b) => InitVal::F32Bits(if neg { b ^ 0x8000_0000 } else { b }),
            Tok::F64Bits(b) => InitVal::F64Bits(if neg { b ^ (1 << 63) } else { b }),
            t => return Err(self.err_at(pos, format!("initializer {} is not in the supported PTX subset (only numeric literals)", Self::describe(&t)))),
        };
        out.push(v);
        Ok(())
    }

    /// `.section name { ... }` (DWARF debug information): skipped whole.
    fn skip_section(&mut self) -> Result<(), PtxError> {
        let pos = self.pos();
        self.bump();
        while *self.peek() != Tok::Punct('{') {
            if *self.peek() == Tok::Eof {
                return Err(self.err_at(pos, "unterminated .section"));
            }
            self.bump();
        }
        let mut depth = 0u32;
        loop {
            match self.bump().tok {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Tok::Eof => return Err(self.err_at(pos, "unterminated .section (missing `}`)")),
                _ => {}
            }
        }
    }

    fn entry(&mut self) -> Result<EntryAst, PtxError> {
        let (name, pos) = self.expect_ident("entry name")?;
        let params = self.param_list()?;
        let maxnreg = self.directives(Header::Entry)?;
        if *self.peek() != Tok::Punct('{') {
            return Err(self.err(format!("expected `{{` to open the body of `{name}`")));
        }
        let mut body = Vec::new();
        self.block(&mut body)?;
        Ok(EntryAst { name, pos, params, maxnreg, body })
    }

    /// `.func [(rets)] name [(params)] [directives] { body }` or `;` (the `.func` token
    /// is consumed).
    fn func(&mut self, pos: Pos) -> Result<FuncAst, PtxError> {
        let rets = self.param_list()?;
        let (name, _) = self.expect_ident("function name")?;
        let params = self.param_list()?;
        self.directives(Header::Func)?;
        if self.eat_punct(';') {
            return Ok(FuncAst { name, pos, rets, params, body: None });
        }
        if *self.peek() != Tok::Punct('{') {
            return Err(self.err(format!("expected `{{` or `;` after function `{name}`")));
        }
        let mut body = Vec::new();
        self.block(&mut body)?;
        Ok(FuncAst { name, pos, rets, params, body: Some(body) })
    }

    /// `( decl, decl, ... )`, or nothing: an entry's or function's parameter list, or a
    /// function's return list.
    fn param_list(&mut self) -> Result<Vec<ParamDecl>, PtxError> {
        let mut v = Vec::new();
        if self.eat_punct('(') && !self.eat_punct(')') {
            loop {
                v.push(self.param()?);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        Ok(v)
    }

    /// The performance-tuning directives between a header's parameters and its body;
    /// returns `.maxnreg` (kept for entries). An entry takes the CTA-level directives
    /// too; a function only `.maxntid`, `.reqntid`, `.maxnreg`, `.noreturn`, `.pragma`.
    fn directives(&mut self, header: Header) -> Result<Option<u32>, PtxError> {
        let mut maxnreg = None;
        while let Tok::Dot(d) = self.peek().clone() {
            let dpos = self.pos();
            let entry_only = matches!(d.as_str(), "minnctapersm" | "maxnctapersm" | "maxclusterrank" | "reqnctapercluster");
            match d.as_str() {
                "maxntid" | "reqntid" => self.number_list()?,
                _ if entry_only && header == Header::Entry => self.number_list()?,
                "maxnreg" => {
                    self.bump();
                    maxnreg = Some(self.expect_uint("register count")? as u32);
                }
                "noreturn" => {
                    self.bump();
                }
                "pragma" => {
                    self.bump();
                    while !self.eat_punct(';') {
                        if *self.peek() == Tok::Eof {
                            return Err(self.err_at(dpos, "unterminated .pragma (no `;`)"));
                        }
                        self.bump();
                    }
                }
                other => return Err(self.err_at(dpos, format!("unsupported {} directive `.{other}`", header.word()))),
            }
        }
        Ok(maxnreg)
    }

    /// A directive followed by `n[, n]*` (the directive token is next).
    fn number_list(&mut self) -> Result<(), PtxError> {
        self.bump();
        loop {
            self.expect_uint("a number")?;
            if !self.eat_punct(',') {
                return Ok(());
            }
        }
    }

    fn param(&mut self) -> Result<ParamDecl, PtxError> {
        let pos = self.pos();
        match self.bump().tok {
            Tok::Dot(d) if d == "param" => {}
            t => return Err(self.err_at(pos, format!("expected `.param`, found {}", Self::describe(&t)))),
        }
        let mut align = None;
        let mut ty = None;
        while let Tok::Dot(d) = self.peek().clone() {
            self.bump();
            match d.as_str() {
                "align" => align = Some(self.expect_uint("alignment")? as u32),
                "ptr" | "global" | "const" | "local" | "shared" => {}
                _ => ty = Some(d),
            }
        }
        let ty = ty.ok_or_else(|| self.err_at(pos, "parameter without a type"))?;
        let (name, _) = self.expect_ident("parameter name")?;
        let mut array = None;
        if self.eat_punct('[') {
            array = Some(self.expect_uint("array length")? as u32);
            self.expect_punct(']')?;
        }
        Ok(ParamDecl { name, ty, align, array, pos })
    }

    /// `{ stmt* }`; nested scopes are flattened into `out`.
    fn block(&mut self, out: &mut Vec<Stmt>) -> Result<(), PtxError> {
        self.expect_punct('{')?;
        loop {
            let pos = self.pos();
            match self.peek().clone() {
                Tok::Punct('}') => {
                    self.bump();
                    return Ok(());
                }
                Tok::Punct('{') => {
                    self.next_scope += 1;
                    self.scopes.push(Scope { id: self.next_scope, ..Scope::default() });
                    let r = self.block(out);
                    self.scopes.pop();
                    r?
                }
                Tok::Eof => return Err(self.err("unexpected end of file inside an entry body (missing `}`)")),
                Tok::Dot(d) => match d.as_str() {
                    "reg" => {
                        let r = self.reg_decl()?;
                        out.push(Stmt::Reg(self.scoped_decl(r)));
                    }
                    "shared" | "local" => out.push(Stmt::Var(self.var_decl(false)?)),
                    "loc" | "file" => {
                        self.bump();
                        self.skip_line(pos.line);
                    }
                    "pragma" => {
                        self.bump();
                        while !self.eat_punct(';') {
                            if *self.peek() == Tok::Eof {
                                return Err(self.err("unterminated .pragma"));
                            }
                            self.bump();
                        }
                    }
                    "param" => {
                        let mut d = self.param()?;
                        self.expect_punct(';')?;
                        if let Some(scope) = self.scopes.last_mut() {
                            scope.names.push(d.name.clone());
                            d.name = format!("{}#{}", d.name, scope.id);
                        }
                        out.push(Stmt::Param(d));
                    }
                    other => return Err(self.err_at(pos, format!("unsupported directive `.{other}` in an entry body"))),
                },
                Tok::Ident(name) if *self.peek_at(1) == Tok::Punct(':') && !name.starts_with('%') => {
                    self.bump();
                    self.bump();
                    out.push(Stmt::Label(name, pos));
                }
                Tok::Ident(_) | Tok::Punct('@') => out.push(Stmt::Inst(self.instruction()?)),
                t => return Err(self.err_at(pos, format!("expected an instruction, found {}", Self::describe(&t)))),
            }
        }
    }

    /// A declaration inside a nested scope gets unique names (see [`Scope`]).
    fn scoped_decl(&mut self, mut r: RegDecl) -> RegDecl {
        let Some(scope) = self.scopes.last_mut() else { return r };
        let mut names = Vec::new();
        for (name, count, pos) in r.names {
            match count {
                Some(n) => {
                    scope.ranges.push((name.clone(), n));
                    names.extend((0..n).map(|k| (format!("{name}{k}#{}", scope.id), None, pos)));
                }
                None => {
                    scope.names.push(name.clone());
                    names.push((format!("{name}#{}", scope.id), None, pos));
                }
            }
        }
        r.names = names;
        r
    }

    /// The unique name `name` refers to from the current scope.
    fn resolve(&self, name: &mut String) {
        if let Some(s) = self.scopes.iter().rev().find(|s| s.declares(name)) {
            name.push_str(&format!("#{}", s.id));
        }
    }

    fn resolve_operand(&self, o: &mut OperandAst) {
        match o {
            OperandAst::Name(n, _) => self.resolve(n),
            OperandAst::Addr { base: Some(b), .. } => self.resolve(b),
            OperandAst::Vector(v, _) | OperandAst::List(v, _) => v.iter_mut().for_each(|e| self.resolve_operand(e)),
            OperandAst::TexAddr { coords, .. } => self.resolve_operand(coords),
            OperandAst::Not(inner, _) => self.resolve_operand(inner),
            OperandAst::PredPair(p, q, _) => {
                self.resolve(p);
                self.resolve(q);
            }
            _ => {}
        }
    }

    fn reg_decl(&mut self) -> Result<RegDecl, PtxError> {
        let pos = self.pos();
        self.bump(); // .reg
        let ty = match self.peek().clone() {
            Tok::Dot(d) if d == "v2" || d == "v4" => return Err(self.err("vector registers (`.reg .v4 ...`) are not in the supported PTX subset")),
            Tok::Dot(d) => {
                self.bump();
                d
            }
            t => return Err(self.err(format!("expected a register type, found {}", Self::describe(&t)))),
        };
        let mut names = Vec::new();
        loop {
            let (name, npos) = self.expect_ident("register name")?;
            let mut count = None;
            if self.eat_punct('<') {
                count = Some(self.expect_uint("register count")? as u32);
                self.expect_punct('>')?;
            }
            names.push((name, count, npos));
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';')?;
        Ok(RegDecl { ty, names, pos })
    }

    fn instruction(&mut self) -> Result<InstAst, PtxError> {
        let pos = self.pos();
        let mut guard = None;
        if self.eat_punct('@') {
            let neg = self.eat_punct('!');
            let (p, ppos) = self.expect_ident("guard predicate")?;
            guard = Some((p, neg, ppos));
        }
        let ipos = self.pos();
        let (opcode, _) = self.expect_ident("an instruction")?;
        let mut mods = Vec::new();
        while let Tok::Dot(d) = self.peek().clone() {
            self.bump();
            // `.shared::cta`, `.param::entry`
            if let (Tok::Punct(':'), Tok::Punct(':'), Tok::Ident(sub)) = (self.peek().clone(), self.peek_at(1).clone(), self.peek_at(2).clone()) {
                self.bump();
                self.bump();
                self.bump();
                mods.push(format!("{d}::{sub}"));
                continue;
            }
            mods.push(d);
        }
        let mut operands = Vec::new();
        if !self.eat_punct(';') {
            loop {
                operands.push(self.operand()?);
                if self.eat_punct(';') {
                    break;
                }
                if !self.eat_punct(',') {
                    return Err(self.err(format!("expected `,` or `;` after an operand, found {}", Self::describe(self.peek()))));
                }
            }
        }
        let _ = pos;
        if !self.scopes.is_empty() {
            if let Some((g, _, _)) = guard.as_mut() {
                self.resolve(g);
            }
            for o in &mut operands {
                self.resolve_operand(o);
            }
        }
        Ok(InstAst { guard, opcode, mods, operands, pos: ipos })
    }

    fn number(&mut self, neg: bool) -> Result<OperandAst, PtxError> {
        let pos = self.pos();
        let t = self.bump().tok;
        Ok(match t {
            Tok::Int(v) => OperandAst::Int(if neg { -(v as i128) } else { v as i128 }, pos),
            Tok::Float(f) => OperandAst::Float(if neg { -f } else { f }, pos),
            Tok::F32Bits(b) => OperandAst::F32Bits(if neg { b ^ 0x8000_0000 } else { b }, pos),
            Tok::F64Bits(b) => OperandAst::F64Bits(if neg { b ^ (1 << 63) } else { b }, pos),
            t => return Err(self.err_at(pos, format!("expected a number, found {}", Self::describe(&t)))),
        })
    }

    fn operand(&mut self) -> Result<OperandAst, PtxError> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Punct('[') => {
                self.bump();
                let mut base = None;
                let mut offset: i64 = 0;
                match self.peek().clone() {
                    Tok::Ident(s) if *self.peek_at(1) == Tok::Punct(',') => {
                        self.bump();
                        self.bump();
                        let coords = self.operand()?;
                        self.expect_punct(']')?;
                        return Ok(OperandAst::TexAddr { tex: s, coords: Box::new(coords), pos });
                    }
                    Tok::Ident(s) => {
                        self.bump();
                        base = Some(s);
                        loop {
                            if self.eat_punct('+') {
                                let neg = self.eat_punct('-');
                                let v = self.expect_uint("address offset")? as i64;
                                offset += if neg { -v } else { v };
                            } else if self.eat_punct('-') {
                                offset -= self.expect_uint("address offset")? as i64;
                            } else {
                                break;
                            }
                        }
                    }
                    Tok::Int(v) => {
                        self.bump();
                        offset = v as i64;
                    }
                    t => return Err(self.err(format!("expected an address, found {}", Self::describe(&t)))),
                }
                self.expect_punct(']')?;
                Ok(OperandAst::Addr { base, offset, pos })
            }
            Tok::Punct('{') => {
                self.bump();
                let mut v = Vec::new();
                loop {
                    v.push(self.operand()?);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
                Ok(OperandAst::Vector(v, pos))
            }
            Tok::Punct('(') => {
                self.bump();
                let mut v = Vec::new();
                if !self.eat_punct(')') {
                    loop {
                        v.push(self.operand()?);
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                Ok(OperandAst::List(v, pos))
            }
            Tok::Punct('!') => {
                self.bump();
                let inner = self.operand()?;
                Ok(OperandAst::Not(Box::new(inner), pos))
            }
            Tok::Punct('-') => {
                self.bump();
                self.number(true)
            }
            Tok::Int(_) | Tok::Float(_) | Tok::F32Bits(_) | Tok::F64Bits(_) => self.number(false),
            Tok::Ident(s) => {
                self.bump();
                if s == "_" {
                    return Ok(OperandAst::Sink(pos));
                }
                if VECTOR_SPECIALS.contains(&s.as_str()) {
                    if let Tok::Dot(c) = self.peek().clone() {
                        if c == "x" || c == "y" || c == "z" {
                            self.bump();
                            return Ok(OperandAst::Name(format!("{s}.{c}"), pos));
                        }
                    }
                    return Err(self.err_at(pos, format!("special register `{s}` needs a component (.x, .y or .z)")));
                }
                if *self.peek() == Tok::Punct('|') {
                    self.bump();
                    let (q, _) = self.expect_ident("second predicate")?;
                    return Ok(OperandAst::PredPair(s, q, pos));
                }
                Ok(OperandAst::Name(s, pos))
            }
            t => Err(self.err(format!("expected an operand, found {}", Self::describe(&t)))),
        }
    }
}
