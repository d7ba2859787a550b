//! Tests of `golden::gpu::ptx::lexer` (`golden/src/gpu/ptx/lexer.rs`).

use std::path::Path;

use golden::gpu::ptx::lexer::*;

fn toks(s: &str) -> Vec<Tok> {
    tokenize(Path::new("t.ptx"), s).unwrap().into_iter().map(|t| t.tok).collect()
}

#[test]
fn lexes_nvcc_forms() {
    assert_eq!(
        toks("ld.global.f32 %f1, [%rd8+4]; // x"),
        vec![
            Tok::Ident("ld".into()),
            Tok::Dot("global".into()),
            Tok::Dot("f32".into()),
            Tok::Ident("%f1".into()),
            Tok::Punct(','),
            Tok::Punct('['),
            Tok::Ident("%rd8".into()),
            Tok::Punct('+'),
            Tok::Int(4),
            Tok::Punct(']'),
            Tok::Punct(';'),
            Tok::Eof
        ]
    );
    assert_eq!(toks("0f3F800000")[0], Tok::F32Bits(0x3F80_0000));
    assert_eq!(toks("0d3FF0000000000000")[0], Tok::F64Bits(0x3FF0_0000_0000_0000));
    assert_eq!(toks("0x1F")[0], Tok::Int(31));
    assert_eq!(toks("017")[0], Tok::Int(15));
    assert_eq!(toks("1.5")[0], Tok::Float(1.5));
    assert_eq!(toks("$L__BB0_2:")[0], Tok::Ident("$L__BB0_2".into()));
}

#[test]
fn positions_are_one_based() {
    let t = tokenize(Path::new("t.ptx"), "/* a\n b */\n  add").unwrap();
    assert_eq!((t[0].line, t[0].col), (3, 3));
}
