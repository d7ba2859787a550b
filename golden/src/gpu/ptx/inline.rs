//! Calls to `.func`s, inlined at the call site before decode.
//!
//! nvcc passes arguments through `.param` slots: the caller declares `.param .b64
//! param0;` in a call-sequence scope, `st.param`s the argument, `call.uni (retval0),
//! f, (param0);` and `ld.param`s the result; the callee `ld.param`s its parameters and
//! `st.param`s its return value. Our choice: every scalar `.param` slot of a call
//! sequence or a callee becomes a register, so `st.param`/`ld.param` on it become
//! `mov`s (as ptxas keeps them in registers); the call copies each argument into the
//! callee's parameter register, the callee's body follows with its registers, labels
//! and local variables renamed per inlined instance (`name~k`, a character identifiers
//! cannot contain), its `ret` branches to the end of the instance, and the return
//! registers are copied to the caller's return slots. Recursion and calls of
//! functions without a body are errors naming the call.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::ast::*;
use super::PtxError;

/// Inline every call in `body` (recursively).
pub fn inline_calls(file: &Path, m: &ModuleAst, body: &[Stmt]) -> Result<Vec<Stmt>, PtxError> {
    if !body.iter().any(|s| matches!(s, Stmt::Inst(i) if i.opcode == "call") || matches!(s, Stmt::Param(_))) {
        return Ok(body.to_vec());
    }
    let mut x = Inliner { file, m, next: 0, stack: Vec::new(), emitted: 0 };
    let mut out = Vec::with_capacity(body.len());
    x.expand(body, &BTreeMap::new(), &mut out)?;
    Ok(out)
}

struct Inliner<'a> {
    file: &'a Path,
    m: &'a ModuleAst,
    next: u32,
    stack: Vec<String>,
    /// Statements of callee bodies emitted so far (bounded by [`MAX_INLINED_STATEMENTS`]).
    emitted: usize,
}

/// The largest `%name<N>` register range a callee may declare (as the decoder's limit).
pub const MAX_REG_RANGE: u32 = u16::MAX as u32 - 2;
/// The most callee statements one kernel may inline in total: nested calls multiply
/// (a function calling another twice, 30 deep, is a billion), so a mutated module is an
/// error rather than an exhausted machine.
pub const MAX_INLINED_STATEMENTS: usize = 1 << 20;

/// The register a `.param` slot becomes.
fn slot_reg(name: &str) -> String {
    format!("%{name}")
}

fn bits_of(ty: &str) -> Option<u32> {
    super::inst::Ty::parse(ty).filter(|t| *t != super::inst::Ty::Pred).map(|t| t.bits())
}

impl Inliner<'_> {
    fn err(&self, p: Pos, msg: String) -> PtxError {
        PtxError::new(self.file, p.line, p.col, msg)
    }

    /// Expand `body` into `out`. `slots`: the `.param` slots (name -> bits) visible
    /// from outside `body` (a callee's parameters and return values).
    fn expand(&mut self, body: &[Stmt], outer: &BTreeMap<String, u32>, out: &mut Vec<Stmt>) -> Result<(), PtxError> {
        let mut slots = outer.clone();
        for s in body {
            if let Stmt::Param(d) = s {
                if d.array.is_some() {
                    return Err(self.err(d.pos, format!("byte-array call parameter `{}` (a struct argument) is not in the supported PTX subset", d.name)));
                }
                let bits = bits_of(&d.ty).ok_or_else(|| self.err(d.pos, format!("unsupported parameter type `.{}`", d.ty)))?;
                slots.insert(d.name.clone(), bits);
            }
        }
        for s in body {
            match s {
                Stmt::Param(d) => out.push(Stmt::Reg(RegDecl { ty: d.ty.clone(), names: vec![(slot_reg(&d.name), None, d.pos)], pos: d.pos })),
                Stmt::Inst(i) if i.opcode == "call" => self.call(i, &slots, out)?,
                Stmt::Inst(i) if (i.opcode == "ld" || i.opcode == "st") && i.mods.iter().any(|m| m == "param" || m.starts_with("param::")) => {
                    out.push(Stmt::Inst(self.slot_access(i, &slots)?));
                }
                s => out.push(s.clone()),
            }
        }
        Ok(())
    }

    /// `ld.param`/`st.param` on a slot as a `mov`; on an entry parameter unchanged.
    fn slot_access(&self, i: &InstAst, slots: &BTreeMap<String, u32>) -> Result<InstAst, PtxError> {
        let is_ld = i.opcode == "ld";
        let (data, addr) = match (i.operands.as_slice(), is_ld) {
            ([d, a], true) => (d, a),
            ([a, d], false) => (d, a),
            _ => return Ok(i.clone()),
        };
        let OperandAst::Addr { base: Some(b), offset, pos } = addr else { return Ok(i.clone()) };
        let Some(&bits) = slots.get(b) else { return Ok(i.clone()) };
        if *offset != 0 {
            return Err(self.err(*pos, format!("`{}`: offset {offset} into the scalar call parameter `{b}`", i.full_name())));
        }
        let ty = i
            .mods
            .iter()
            .find_map(|m| super::inst::Ty::parse(m))
            .filter(|t| t.bits() == bits)
            .ok_or_else(|| self.err(i.pos, format!("`{}` does not match the {bits}-bit call parameter `{b}`", i.full_name())))?;
        let slot = OperandAst::Name(slot_reg(b), *pos);
        let operands = if is_ld { vec![data.clone(), slot] } else { vec![slot, data.clone()] };
        Ok(InstAst { guard: i.guard.clone(), opcode: "mov".into(), mods: vec![ty.name().into()], operands, pos: i.pos })
    }

    /// A copy between a slot register or operand and a register.
    fn copy(&self, dst: OperandAst, src: OperandAst, bits: u32, pos: Pos) -> Stmt {
        Stmt::Inst(InstAst { guard: None, opcode: "mov".into(), mods: vec![format!("b{bits}")], operands: vec![dst, src], pos })
    }

    /// A caller operand naming a slot becomes the slot's register.
    fn caller_operand(o: &OperandAst, slots: &BTreeMap<String, u32>) -> OperandAst {
        match o {
            OperandAst::Name(n, p) if slots.contains_key(n) => OperandAst::Name(slot_reg(n), *p),
            o => o.clone(),
        }
    }

    fn call(&mut self, i: &InstAst, slots: &BTreeMap<String, u32>, out: &mut Vec<Stmt>) -> Result<(), PtxError> {
        // the return slot of `vprintf` is written by the built-in instruction
        let ops = &i.operands;
        let (rets, fname, args): (&[OperandAst], &OperandAst, &[OperandAst]) = match ops.as_slice() {
            [OperandAst::List(r, _), f, OperandAst::List(a, _)] => (r, f, a),
            [OperandAst::List(r, _), f] => (r, f, &[]),
            [f, OperandAst::List(a, _)] => (&[], f, a),
            [f] => (&[], f, &[]),
            _ => return Err(self.err(i.pos, format!("`{}`: indirect calls and prototypes are not in the supported PTX subset", i.full_name()))),
        };
        let OperandAst::Name(fname, fpos) = fname else {
            return Err(self.err(fname.pos(), format!("`{}` needs a function name", i.full_name())));
        };
        if i.guard.is_some() {
            return Err(self.err(i.pos, format!("a guarded `{}` is not in the supported PTX subset", i.full_name())));
        }
        let f = self.m.funcs.iter().rev().find(|f| &f.name == fname && f.body.is_some()).or_else(|| self.m.funcs.iter().find(|f| &f.name == fname));
        let Some(f) = f else {
            return Err(self.err(*fpos, format!("call of undefined function `{fname}`")));
        };
        if f.body.is_none() && fname == "vprintf" {
            // the device runtime's printf: built in
            if rets.len() > 1 || args.len() != 2 {
                return Err(self.err(i.pos, "`vprintf` takes at most one return value and two arguments (format, argument buffer)".into()));
            }
            let mut operands = vec![rets.first().map_or(OperandAst::Sink(i.pos), |r| Self::caller_operand(r, slots))];
            operands.extend(args.iter().map(|a| Self::caller_operand(a, slots)));
            out.push(Stmt::Inst(InstAst { guard: None, opcode: "vprintf".into(), mods: Vec::new(), operands, pos: i.pos }));
            return Ok(());
        }
        let Some(fbody) = &f.body else {
            return Err(self.err(*fpos, format!("`{fname}` is declared without a body (an external function): calling it is not in the supported PTX subset")));
        };
        if self.stack.contains(fname) {
            return Err(self.err(i.pos, format!("recursive call of `{fname}`: recursion is not supported (calls are inlined)")));
        }
        if rets.len() != f.rets.len() || args.len() != f.params.len() {
            return Err(
                self.err(i.pos, format!("`{fname}` takes {} return value(s) and {} argument(s), the call passes {} and {}", f.rets.len(), f.params.len(), rets.len(), args.len()))
            );
        }
        let k = self.next;
        self.next += 1;
        let sfx = format!("~{k}");
        for s in fbody {
            if let Stmt::Reg(r) = s {
                for (n, c, _) in &r.names {
                    if c.is_some_and(|c| c > MAX_REG_RANGE) {
                        return Err(self.err(r.pos, format!("`{n}<{}>` in `{fname}` declares more registers than the {MAX_REG_RANGE} supported", c.unwrap_or(0))));
                    }
                }
            }
        }
        if self.emitted.saturating_add(fbody.len()) > MAX_INLINED_STATEMENTS {
            return Err(self.err(i.pos, format!("inlining `{fname}` here passes {MAX_INLINED_STATEMENTS} statements in the kernel (calls are inlined; nested calls multiply)")));
        }
        self.emitted += fbody.len();
        // names the callee declares: renamed per instance
        let mut own: BTreeSet<String> = BTreeSet::new();
        for p in f.params.iter().chain(&f.rets) {
            own.insert(p.name.clone());
        }
        for s in fbody {
            match s {
                Stmt::Reg(r) => {
                    for (n, c, _) in &r.names {
                        match c {
                            Some(c) => own.extend((0..*c).map(|j| format!("{n}{j}"))),
                            None => {
                                own.insert(n.clone());
                            }
                        }
                    }
                }
                Stmt::Param(d) => {
                    own.insert(d.name.clone());
                }
                Stmt::Var(v) => {
                    own.insert(v.name.clone());
                }
                Stmt::Label(l, _) => {
                    own.insert(l.clone());
                }
                Stmt::Inst(_) => {}
            }
        }
        let end_label = format!("$ret{sfx}");
        let rn = |n: &str| if own.contains(n) { format!("{n}{sfx}") } else { n.to_string() };
        let mut renamed = Vec::with_capacity(fbody.len() + 1);
        for s in fbody {
            renamed.push(match s {
                Stmt::Reg(r) => {
                    let mut names = Vec::new();
                    for (n, c, p) in &r.names {
                        match c {
                            Some(c) => names.extend((0..*c).map(|j| (format!("{n}{j}{sfx}"), None, *p))),
                            None => names.push((format!("{n}{sfx}"), None, *p)),
                        }
                    }
                    Stmt::Reg(RegDecl { ty: r.ty.clone(), names, pos: r.pos })
                }
                Stmt::Param(d) => Stmt::Param(ParamDecl { name: rn(&d.name), ..d.clone() }),
                Stmt::Var(v) => Stmt::Var(VarDecl { name: rn(&v.name), ..v.clone() }),
                Stmt::Label(l, p) => Stmt::Label(rn(l), *p),
                Stmt::Inst(ia) => {
                    let mut ia = ia.clone();
                    if let Some((g, _, _)) = ia.guard.as_mut() {
                        *g = rn(g);
                    }
                    for o in &mut ia.operands {
                        rename_operand(o, &rn);
                    }
                    if ia.opcode == "ret" {
                        ia.opcode = "bra".into();
                        ia.mods = vec!["uni".into()];
                        ia.operands = vec![OperandAst::Name(end_label.clone(), ia.pos)];
                    }
                    Stmt::Inst(ia)
                }
            });
        }
        renamed.push(Stmt::Label(end_label, i.pos));
        // parameter and return slots of the callee, as registers
        let mut callee_slots = BTreeMap::new();
        for p in f.params.iter().chain(&f.rets) {
            if p.array.is_some() {
                return Err(self.err(p.pos, format!("byte-array parameter `{}` (a struct argument) is not in the supported PTX subset", p.name)));
            }
            let bits = bits_of(&p.ty).ok_or_else(|| self.err(p.pos, format!("unsupported parameter type `.{}`", p.ty)))?;
            let name = rn(&p.name);
            out.push(Stmt::Reg(RegDecl { ty: p.ty.clone(), names: vec![(slot_reg(&name), None, p.pos)], pos: p.pos }));
            callee_slots.insert(name, bits);
        }
        for (p, a) in f.params.iter().zip(args) {
            let bits = callee_slots[&rn(&p.name)];
            out.push(self.copy(OperandAst::Name(slot_reg(&rn(&p.name)), i.pos), Self::caller_operand(a, slots), bits, i.pos));
        }
        self.stack.push(fname.clone());
        let r = self.expand(&renamed, &callee_slots, out);
        self.stack.pop();
        r?;
        for (p, r) in f.rets.iter().zip(rets) {
            let bits = callee_slots[&rn(&p.name)];
            out.push(self.copy(Self::caller_operand(r, slots), OperandAst::Name(slot_reg(&rn(&p.name)), i.pos), bits, i.pos));
        }
        Ok(())
    }
}

fn rename_operand(o: &mut OperandAst, rn: &dyn Fn(&str) -> String) {
    match o {
        OperandAst::Name(n, _) => *n = rn(n),
        OperandAst::Addr { base: Some(b), .. } => *b = rn(b),
        OperandAst::Vector(v, _) | OperandAst::List(v, _) => v.iter_mut().for_each(|e| rename_operand(e, rn)),
        OperandAst::Not(inner, _) => rename_operand(inner, rn),
        OperandAst::TexAddr { coords, .. } => rename_operand(coords, rn),
        OperandAst::PredPair(p, q, _) => {
            *p = rn(p);
            *q = rn(q);
        }
        _ => {}
    }
}
