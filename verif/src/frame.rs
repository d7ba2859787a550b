//! Packed port values: one `Frame` of u64 words per direction per cycle.
//!
//! Every data port starts on a word boundary and takes `ceil(width / 64)` words,
//! bit `i` of the port at bit `i % 64` of word `offset + i / 64`. The shim copies
//! whole frames across the FFI in one call per cycle; ports wider than 64 bits are
//! word slices (Verilator's 32-bit `VlWide` words have the same little-endian layout).

use hdl_gen::manifest::{Dir, Manifest, Port, Role};
use num_bigint::BigUint;

pub use golden::bits::{get_bits, set_bits};

/// Where a port lives in its frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub name: String,
    pub width: u32,
    pub fields: u32,
    /// First word in the frame.
    pub word: usize,
    /// Words taken.
    pub words: usize,
    /// `width / fields`, kept so packing a field costs no division.
    field_bits: u32,
}

impl Slot {
    /// The slot of port `p` from frame word `word` on.
    pub fn new(p: &Port, word: usize) -> Slot {
        let field_bits = p.width.checked_div(p.fields).unwrap_or(p.width);
        Slot { name: p.name.clone(), width: p.width, fields: p.fields, word, words: p.width.div_ceil(64) as usize, field_bits }
    }

    #[inline]
    pub fn field_width(&self) -> u32 {
        self.field_bits
    }

    /// Mask of the last word (bits beyond the width are zero).
    pub fn last_mask(&self) -> u64 {
        let r = self.width % 64;
        if r == 0 {
            u64::MAX
        } else {
            (1u64 << r) - 1
        }
    }
}

/// Frame layout of a design, from its manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub top: String,
    pub clock: String,
    pub inputs: Vec<Slot>,
    pub outputs: Vec<Slot>,
    pub in_words: usize,
    pub out_words: usize,
}

impl Layout {
    pub fn from_manifest(m: &Manifest) -> Result<Layout, String> {
        let mut clock = None;
        let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
        let (mut iw, mut ow) = (0, 0);
        for p in &m.ports {
            match (p.dir, p.role) {
                (Dir::Input, Role::Clock) => {
                    if clock.replace(p.name.clone()).is_some() {
                        return Err(format!("{}: more than one clock port", m.top));
                    }
                }
                (Dir::Output, Role::Clock) => return Err(format!("{}: clock port {} is an output", m.top, p.name)),
                (Dir::Input, _) => {
                    let s = Slot::new(p, iw);
                    iw += s.words;
                    inputs.push(s);
                }
                (Dir::Output, _) => {
                    let s = Slot::new(p, ow);
                    ow += s.words;
                    outputs.push(s);
                }
            }
        }
        let clock = clock.ok_or_else(|| format!("{}: no clock port in the manifest", m.top))?;
        Ok(Layout { top: m.top.clone(), clock, inputs, outputs, in_words: iw, out_words: ow })
    }

    fn find(list: &[Slot], name: &str, what: &str, top: &str) -> Slot {
        list.iter().find(|s| s.name == name).cloned().unwrap_or_else(|| panic!("{top} has no {what} port `{name}`"))
    }

    /// The input slot `name` (panics if the design has none: a bench bug).
    pub fn input(&self, name: &str) -> Slot {
        Self::find(&self.inputs, name, "input", &self.top)
    }

    pub fn output(&self, name: &str) -> Slot {
        Self::find(&self.outputs, name, "output", &self.top)
    }

    pub fn has_input(&self, name: &str) -> bool {
        self.inputs.iter().any(|s| s.name == name)
    }

    pub fn has_output(&self, name: &str) -> bool {
        self.outputs.iter().any(|s| s.name == name)
    }
}

/// Packed values of all ports of one direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub words: Vec<u64>,
}

impl Frame {
    pub fn zeroed(words: usize) -> Frame {
        Frame { words: vec![0; words] }
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// Set field `i` (of `slot.field_width()` bits) to `v` (masked).
    /// The value must fit the field: a wider value would reach the golden model
    /// whole and the RTL truncated, so it is a stimulus bug (checked in debug builds).
    #[inline]
    pub fn set_field(&mut self, slot: &Slot, i: usize, v: u64) {
        let fw = slot.field_width() as usize;
        debug_assert!(fw >= 64 || v >> fw == 0, "{}[{i}] = {v:#x} does not fit {fw} bits", slot.name);
        let bit = i * fw;
        set_bits(&mut self.words[slot.word..slot.word + slot.words], bit, fw, v);
    }

    /// Set a vector of 1-bit fields (per-bank, per-warp, per-lane flags) from a mask:
    /// bit `k` of `mask` is field `k` (at most 64 fields; bits beyond them must be 0).
    #[inline]
    pub fn set_flags(&mut self, slot: &Slot, mask: u64) {
        debug_assert!(slot.field_width() == 1 && slot.width <= 64, "{}: set_flags takes a vector of at most 64 1-bit fields", slot.name);
        self.set(slot, mask)
    }

    /// Set every field of `slot`, in order, from `values` (exactly `slot.fields` of
    /// them, each fitting its field), a whole word at a time: the fast way to pack a
    /// vector port, for per-lane or per-bank values.
    #[inline]
    pub fn set_fields(&mut self, slot: &Slot, values: impl IntoIterator<Item = u64>) {
        let fw = slot.field_width() as usize;
        debug_assert!(fw <= 64, "{}: set_fields packs fields of at most 64 bits", slot.name);
        let words = &mut self.words[slot.word..slot.word + slot.words];
        let (mut w, mut acc, mut filled, mut n) = (0, 0u64, 0usize, 0usize);
        for v in values {
            debug_assert!(fw >= 64 || v >> fw == 0, "{}[{n}] = {v:#x} does not fit {fw} bits", slot.name);
            acc |= v << filled;
            let end = filled + fw;
            if end >= 64 {
                words[w] = acc;
                w += 1;
                filled = end - 64;
                // the high `filled` bits of v did not fit the word just stored
                acc = if filled == 0 { 0 } else { v >> (fw - filled) };
            } else {
                filled = end;
            }
            n += 1;
        }
        debug_assert_eq!(n, slot.fields as usize, "{}: {n} values for {} fields", slot.name, slot.fields);
        if filled > 0 {
            words[w] = acc;
        }
    }

    #[inline]
    pub fn field(&self, slot: &Slot, i: usize) -> u64 {
        let fw = slot.field_width() as usize;
        get_bits(&self.words[slot.word..slot.word + slot.words], i * fw, fw)
    }

    #[inline]
    pub fn set_bool(&mut self, slot: &Slot, i: usize, v: bool) {
        self.set_field(slot, i, v as u64)
    }

    #[inline]
    pub fn bool(&self, slot: &Slot, i: usize) -> bool {
        self.field(slot, i) != 0
    }

    /// Set a whole scalar port (at most 64 bits).
    #[inline]
    pub fn set(&mut self, slot: &Slot, v: u64) {
        debug_assert!(slot.width <= 64);
        debug_assert!(v & !slot.last_mask() == 0, "{} = {v:#x} does not fit {} bits", slot.name, slot.width);
        self.words[slot.word] = v & slot.last_mask();
    }

    #[inline]
    pub fn get(&self, slot: &Slot) -> u64 {
        self.words[slot.word]
    }

    /// The port's words.
    pub fn slice(&self, slot: &Slot) -> &[u64] {
        &self.words[slot.word..slot.word + slot.words]
    }

    /// The port's words, for writing with a field table (`golden::bits::Field::write`,
    /// a block's layout's `pack`): a port of any width takes the same word-slice path.
    /// Bits above the port's width must stay 0.
    pub fn slice_mut(&mut self, slot: &Slot) -> &mut [u64] {
        &mut self.words[slot.word..slot.word + slot.words]
    }

    /// The port as one big number (for reports of wide ports).
    pub fn big(&self, slot: &Slot) -> BigUint {
        let digits: Vec<u32> = self.slice(slot).iter().flat_map(|w| [*w as u32, (*w >> 32) as u32]).collect();
        BigUint::from_slice(&digits)
    }
}
