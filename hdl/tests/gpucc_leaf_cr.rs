//! Tests of `hdl_gen::gpucc::leaf::cr` (`hdl/src/gpucc/leaf/cr.rs`).

use crate::leaf_check::{bv, lint_and_synth, val, LeafSim, Rng};
use golden::gpucc::cr::{op, Cr, CR_WORDS, SRC_IMM, SRC_SELF};
use hdl_gen::gpucc::leaf::cr::*;

#[test]
fn config_reg_is_lint_clean_and_synthesizable() {
    lint_and_synth(ConfigReg::default(), "gpucc_cr");
}

fn words(s: &LeafSim<ConfigReg>) -> [u32; CR_WORDS] {
    [val(&s.w0_o), val(&s.w1_o), val(&s.w2_o), val(&s.w3_o)].map(|w| w as u32)
}

fn write(s: &mut LeafSim<ConfigReg>, we: bool, word: u32, data: u32) {
    s.we_i.next = we;
    s.word_i.next = bv(word as u128);
    s.wdata_i.next = bv(data as u128);
    s.tick();
}

/// Random writes (strobed and not) against a four-word reference; then the
/// spec §2.1 example CR, written word by word, decodes with golden's field table.
#[test]
fn config_reg_stores_written_words() {
    let mut s = LeafSim::clocked(ConfigReg::default(), |b| &mut b.clk_i);
    s.reset(|b| &mut b.rst_i);
    assert_eq!(words(&s), [0; CR_WORDS], "reset clears the CR");
    let mut r = Rng::new(11);
    let mut want = [0u32; CR_WORDS];
    for _ in 0..64 {
        let (we, word, data) = (r.pct(60), r.below(4) as u32, r.next() as u32);
        write(&mut s, we, word, data);
        if we {
            want[word as usize] = data;
        }
        assert_eq!(words(&s), want);
    }
    let cr = Cr { en: true, opcode: op::IADD, out_lane: 1, in_src: [SRC_SELF, SRC_IMM, 0], init_cnt: [1, 0, 0], imm: 4, ..Cr::default() };
    for (k, w) in cr.to_words().into_iter().enumerate() {
        write(&mut s, true, k as u32, w);
    }
    assert_eq!(Cr::from_words(words(&s)), cr);
    s.reset(|b| &mut b.rst_i);
    assert_eq!(words(&s), [0; CR_WORDS]);
}
