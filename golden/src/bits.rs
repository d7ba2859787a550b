//! Bit-level vocabulary shared by every block: the one `clog2` and the bit-field
//! type of every encoding table (BaseJump's `BSG_SAFE_CLOG2` and `bsg_noc_links.svh`
//! in Rust).
//!
//! An encoding lives in `golden` as a table of [`Field`]s (the GPU-CC CR in
//! `gpucc::cr`, the VC flit in `noc::flit`, the route-ROM row in `noc::route_rom`);
//! the golden model decodes with it, the generator takes every bit position from it,
//! the benches pack ports with it and the manifest carries it.

/// ceil(log2(n)), at least 1: the index width of an `n`-entry structure (a one-entry
/// structure still gets a one-bit index, as `BSG_SAFE_CLOG2` does).
pub const fn clog2(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// Width of a counter that holds `0..=n` (occupancy of an `n`-entry buffer).
pub const fn count_width(n: u64) -> u32 {
    clog2(n + 1)
}

/// A bit field: name, least significant bit and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
}

impl Field {
    pub const fn new(name: &'static str, lsb: u32, width: u32) -> Field {
        Field { name, lsb, width }
    }

    /// The bit after the field's most significant bit.
    pub const fn end(self) -> u32 {
        self.lsb + self.width
    }

    /// Most significant bit (for Verilog `[msb:lsb]` slices).
    pub const fn msb(self) -> u32 {
        self.lsb + self.width - 1
    }

    const fn mask128(self) -> u128 {
        if self.width >= 128 {
            u128::MAX
        } else {
            (1u128 << self.width) - 1
        }
    }

    /// The field of a 32-bit word.
    pub const fn get(self, w: u32) -> u32 {
        (w >> self.lsb) & ((1u32 << self.width) - 1)
    }

    /// `w` with the field set to `v` (masked to the field).
    pub const fn put(self, w: u32, v: u32) -> u32 {
        let m = ((1u32 << self.width) - 1) << self.lsb;
        (w & !m) | ((v << self.lsb) & m)
    }

    /// The field of a value of up to 128 bits.
    pub const fn get128(self, w: u128) -> u128 {
        (w >> self.lsb) & self.mask128()
    }

    /// `w` with the field set to `v` (masked to the field).
    pub const fn put128(self, w: u128, v: u128) -> u128 {
        let m = self.mask128() << self.lsb;
        (w & !m) | ((v << self.lsb) & m)
    }

    /// The field of a little-endian word vector (any width; at most 64 bits returned).
    pub fn get_words(self, words: &[u64]) -> u64 {
        debug_assert!(self.width <= 64);
        get_bits(words, self.lsb as usize, self.width as usize)
    }

    /// Set the field of a little-endian word vector to `v` (masked).
    pub fn put_words(self, words: &mut [u64], v: u64) {
        debug_assert!(self.width <= 64);
        set_bits(words, self.lsb as usize, self.width as usize, v)
    }
}

/// Write `width <= 64` bits of `v` at bit `bit` of little-endian `words`.
#[inline]
pub fn set_bits(words: &mut [u64], bit: usize, width: usize, v: u64) {
    if width == 0 {
        return;
    }
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let v = v & mask;
    let (w, o) = (bit / 64, bit % 64);
    words[w] = (words[w] & !(mask << o)) | (v << o);
    if o + width > 64 {
        let hi = o + width - 64;
        let hmask = (1u64 << hi) - 1;
        words[w + 1] = (words[w + 1] & !hmask) | (v >> (64 - o));
    }
}

/// Read `width <= 64` bits at bit `bit` of little-endian `words`.
#[inline]
pub fn get_bits(words: &[u64], bit: usize, width: usize) -> u64 {
    if width == 0 {
        return 0;
    }
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let (w, o) = (bit / 64, bit % 64);
    let mut v = words[w] >> o;
    if o + width > 64 {
        v |= words[w + 1] << (64 - o);
    }
    v & mask
}

/// Fields laid out from bit 0 up, in the order given (`{.., b, a}` in Verilog
/// concatenation order when listed `a, b, ..`). Returns the fields and the total width.
pub fn pack_lsb_first(parts: &[(&'static str, u32)]) -> (Vec<Field>, u32) {
    let mut at = 0;
    let fields = parts
        .iter()
        .map(|&(name, width)| {
            let f = Field::new(name, at, width);
            at += width;
            f
        })
        .collect();
    (fields, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clog2_values() {
        // hand-derived: the index width of n entries, never 0
        for (n, w) in [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (257, 9)] {
            assert_eq!(clog2(n), w, "clog2({n})");
        }
        assert_eq!(count_width(4), 3);
        assert_eq!(count_width(8), 4);
        assert_eq!(count_width(2), 2);
    }

    #[test]
    fn fields_round_trip_in_every_representation() {
        let f = Field::new("x", 61, 7);
        let w = f.put128(0, 0x55);
        assert_eq!(w, 0x55u128 << 61);
        assert_eq!(f.get128(w | (1 << 60) | (1 << 68)), 0x55);
        let mut words = [0u64; 2];
        f.put_words(&mut words, 0x55);
        assert_eq!((words[0] as u128) | ((words[1] as u128) << 64), w);
        assert_eq!(f.get_words(&words), 0x55);
        let g = Field::new("y", 3, 4);
        assert_eq!(g.put(0xffff_ffff, 0), 0xffff_ff87);
        assert_eq!(g.get(0x50), 0xa);
        assert_eq!((g.msb(), g.end()), (6, 7));
    }

    #[test]
    fn pack_lsb_first_stacks_fields() {
        let (f, w) = pack_lsb_first(&[("a", 3), ("b", 1), ("c", 5)]);
        assert_eq!(w, 9);
        assert_eq!((f[1].lsb, f[2].lsb, f[2].msb()), (3, 4, 8));
    }
}
