//! PTX tokenizer: turns kernel text into tokens that carry their line and column.
//!
//! Follows the PTX ISA's lexical rules (§4.1–4.5 of the PTX ISA manual): identifiers
//! `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]+`, directives and modifiers as
//! `.name`, integer literals in decimal, hex (`0x`), octal (`0…`) and binary (`0b`),
//! floating-point literals as `0fXXXXXXXX` (f32 bits), `0dXXXXXXXXXXXXXXXX` (f64 bits)
//! or decimal, `//` and `/* */` comments.

use super::PtxError;

/// One lexical token.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// Identifier, register (`%r1`), label (`$L__BB0_2`) or symbol.
    Ident(String),
    /// `.name`: a directive, a state space, a type or an instruction modifier.
    Dot(String),
    /// Integer literal (sign handled by the parser).
    Int(u64),
    /// `0f` literal: the bits of an f32.
    F32Bits(u32),
    /// `0d` literal: the bits of an f64.
    F64Bits(u64),
    /// Decimal floating-point literal.
    Float(f64),
    /// String literal (only used by `.pragma`, `.file`).
    Str(String),
    /// Single punctuation character: `, ; : [ ] { } ( ) + - @ ! | < > =`.
    Punct(char),
    Eof,
}

/// A token and where it starts (1-based line and column).
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Tokenize `text`; `file` is used only in error messages.
pub fn tokenize(file: &std::path::Path, text: &str) -> Result<Vec<Token>, PtxError> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 3);
    let mut i = 0usize;
    let mut line = 1u32;
    let mut line_start = 0usize;
    let err = |line: u32, col: u32, msg: String| PtxError::new(file, line, col, msg);
    while i < b.len() {
        let c = b[i];
        let col = (i - line_start) as u32 + 1;
        if c == b'\n' {
            line += 1;
            i += 1;
            line_start = i;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(err(line, col, "unterminated /* comment".into()));
                }
                if b[i] == b'\n' {
                    line += 1;
                    line_start = i + 1;
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            continue;
        }
        let start = i;
        // `.name`; also `.1d`/`.2d`/`.3d` (texture geometries)
        let tok = if c == b'.' && b.get(i + 1).is_some_and(|&n| (is_ident_start(n) || n.is_ascii_digit()) && n != b'%') {
            i += 1;
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            Tok::Dot(text[start + 1..i].to_string())
        } else if is_ident_start(c) {
            i += 1;
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            if i - start == 1 && (c == b'%' || c == b'$') {
                return Err(err(line, col, format!("stray `{}`", c as char)));
            }
            Tok::Ident(text[start..i].to_string())
        } else if c.is_ascii_digit() {
            lex_number(text, &mut i).map_err(|m| err(line, col, m))?
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if i >= b.len() || b[i] != b'"' {
                return Err(err(line, col, "unterminated string".into()));
            }
            i += 1;
            Tok::Str(text[start + 1..i - 1].to_string())
        } else if b",;:[]{}()+-@!|<>=".contains(&c) {
            i += 1;
            Tok::Punct(c as char)
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(err(line, col, format!("unexpected character `{ch}`")));
        };
        out.push(Token { tok, line, col });
    }
    let col = (b.len() - line_start) as u32 + 1;
    out.push(Token { tok: Tok::Eof, line, col });
    Ok(out)
}

fn lex_number(text: &str, i: &mut usize) -> Result<Tok, String> {
    let b = text.as_bytes();
    let start = *i;
    let hex_run = |from: usize| {
        let mut j = from;
        while j < b.len() && b[j].is_ascii_hexdigit() {
            j += 1;
        }
        j
    };
    if b[start] == b'0' && start + 1 < b.len() {
        match b[start + 1] {
            b'f' | b'F' => {
                let end = hex_run(start + 2);
                if end - (start + 2) != 8 {
                    return Err(format!("f32 literal `{}` needs exactly 8 hex digits", &text[start..end]));
                }
                *i = end;
                return Ok(Tok::F32Bits(u32::from_str_radix(&text[start + 2..end], 16).map_err(|e| e.to_string())?));
            }
            b'd' | b'D' => {
                let end = hex_run(start + 2);
                if end - (start + 2) != 16 {
                    return Err(format!("f64 literal `{}` needs exactly 16 hex digits", &text[start..end]));
                }
                *i = end;
                return Ok(Tok::F64Bits(u64::from_str_radix(&text[start + 2..end], 16).map_err(|e| e.to_string())?));
            }
            b'x' | b'X' => {
                let end = hex_run(start + 2);
                let v = u64::from_str_radix(&text[start + 2..end], 16).map_err(|_| format!("bad hex literal `{}`", &text[start..end]))?;
                *i = end;
                skip_u_suffix(b, i);
                return Ok(Tok::Int(v));
            }
            b'b' | b'B' => {
                let mut end = start + 2;
                while end < b.len() && (b[end] == b'0' || b[end] == b'1') {
                    end += 1;
                }
                let v = u64::from_str_radix(&text[start + 2..end], 2).map_err(|_| format!("bad binary literal `{}`", &text[start..end]))?;
                *i = end;
                skip_u_suffix(b, i);
                return Ok(Tok::Int(v));
            }
            _ => {}
        }
    }
    let mut end = start;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    let is_float = end < b.len() && (b[end] == b'.' && b.get(end + 1).is_some_and(|c| c.is_ascii_digit()) || b[end] == b'e' || b[end] == b'E');
    if is_float {
        if b[end] == b'.' {
            end += 1;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
        }
        if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
            end += 1;
            if end < b.len() && (b[end] == b'+' || b[end] == b'-') {
                end += 1;
            }
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
        }
        let v: f64 = text[start..end].parse().map_err(|_| format!("bad float literal `{}`", &text[start..end]))?;
        *i = end;
        return Ok(Tok::Float(v));
    }
    let digits = &text[start..end];
    let v = if digits.len() > 1 && digits.starts_with('0') {
        u64::from_str_radix(&digits[1..], 8).map_err(|_| format!("bad octal literal `{digits}`"))?
    } else {
        digits.parse::<u64>().map_err(|_| format!("integer literal `{digits}` does not fit 64 bits"))?
    };
    *i = end;
    skip_u_suffix(b, i);
    Ok(Tok::Int(v))
}

fn skip_u_suffix(b: &[u8], i: &mut usize) {
    if *i < b.len() && (b[*i] == b'U' || b[*i] == b'u') && !b.get(*i + 1).is_some_and(|&c| is_ident_char(c)) {
        *i += 1;
    }
}
