//! Bit-level vocabulary shared by every block: the one `clog2` and the bit-field
//! type of every encoding table (BaseJump's `BSG_SAFE_CLOG2` and `bsg_noc_links.svh`
//! in Rust).
//!
//! An encoding lives in `golden` as a table of [`Field`]s (the GPU-CC CR in
//! `gpucc::cr`, the VC flit in `noc::flit`, the route-ROM row in `noc::route_rom`).
//! Values are read from and written to little-endian `u64` word slices of any length
//! (bit `i` is bit `i % 64` of word `i / 64`), so links wider than 128 bits work. A
//! field up to 128 bits wide reads and writes as a `u128` ([`Field::read`],
//! [`Field::write`]); a wider one (up to [`FIELD_MAX_W`] bits: the 256-bit payload of a
//! VC flit) as `u64` words ([`Field::read_words`], [`Field::write_words`]).
//!
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

/// The widest field: 1024 bits (wider than any link of the generated designs).
pub const FIELD_MAX_W: u32 = 1024;

/// A bit field: `width` bits from bit `lsb` up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Field {
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
}

/// `n` low bits set, `n <= 64`.
const fn ones64(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl Field {
    pub const fn new(name: &'static str, lsb: u32, width: u32) -> Field {
        assert!(width >= 1 && width <= FIELD_MAX_W, "a field is 1..=1024 bits wide");
        Field { name, lsb, width }
    }

    /// The most significant bit (`lsb + width - 1`).
    pub const fn msb(self) -> u32 {
        self.lsb + self.width - 1
    }

    /// The bit just above the field (`lsb + width`).
    pub const fn end(self) -> u32 {
        self.lsb + self.width
    }

    /// The field's value mask, not shifted (`width` low bits set; all 128 for a
    /// wider field).
    pub const fn mask(self) -> u128 {
        if self.width >= 128 {
            u128::MAX
        } else {
            (1u128 << self.width) - 1
        }
    }

    /// The field of a word of at most 32 bits (ROM rows).
    pub const fn get(self, w: u32) -> u32 {
        ((w as u64 >> self.lsb) & ones64(self.width)) as u32
    }

    /// `w` with the field set to `v` (excess bits of `v` dropped).
    pub const fn put(self, w: u32, v: u32) -> u32 {
        let m = (ones64(self.width) << self.lsb) as u32;
        (w & !m) | (((v as u64) << self.lsb) as u32 & m)
    }

    /// The field's value in a little-endian word slice (missing words read as 0). At
    /// most 128 bits wide: a wider field reads with [`Field::read_words`].
    pub fn read(self, words: &[u64]) -> u128 {
        assert!(self.width <= 128, "field {} is {} bits wide: read_words", self.name, self.width);
        let mut v = 0u128;
        let mut got = 0;
        while got < self.width {
            let bit = self.lsb + got;
            let (wi, off) = ((bit / 64) as usize, bit % 64);
            let take = (64 - off).min(self.width - got);
            let w = words.get(wi).copied().unwrap_or(0);
            v |= (((w >> off) & ones64(take)) as u128) << got;
            got += take;
        }
        v
    }

    /// Set the field to `v` in a little-endian word slice; bits of `v` above the
    /// field's width are dropped. Panics if the slice is too short for the field, or
    /// the field is wider than 128 bits ([`Field::write_words`]).
    pub fn write(self, words: &mut [u64], v: u128) {
        assert!(self.width <= 128, "field {} is {} bits wide: write_words", self.name, self.width);
        assert!(words.len() * 64 >= self.end() as usize, "field {} (bits {}..={}) does not fit {} words", self.name, self.lsb, self.msb(), words.len());
        let mut put = 0;
        while put < self.width {
            let bit = self.lsb + put;
            let (wi, off) = ((bit / 64) as usize, bit % 64);
            let take = (64 - off).min(self.width - put);
            let m = ones64(take) << off;
            let chunk = ((v >> put) as u64) & ones64(take);
            words[wi] = (words[wi] & !m) | (chunk << off);
            put += take;
        }
    }
}

impl Field {
    /// The field's value in a little-endian word slice, any width, into `out` as
    /// little-endian words (`out[k]` = bits `64k..64k+63` of the value; words past
    /// the field's width are set to 0; missing source words read as 0).
    pub fn read_words(self, words: &[u64], out: &mut [u64]) {
        for (k, o) in out.iter_mut().enumerate() {
            let got = 64 * k as u32;
            *o = if got >= self.width {
                0
            } else {
                let take = (self.width - got).min(64) as usize;
                let bit = (self.lsb + got) as usize;
                if bit + take > words.len() * 64 {
                    // (only the top of a field can be missing)
                    Field::new("part", bit as u32, take as u32).read(words) as u64
                } else {
                    get_bits(words, bit, take)
                }
            };
        }
    }

    /// Set the field, any width, to the little-endian words `v` (missing words of
    /// `v` are 0, bits above the field's width dropped). Panics if the slice is too
    /// short for the field.
    pub fn write_words(self, words: &mut [u64], v: &[u64]) {
        assert!(words.len() * 64 >= self.end() as usize, "field {} (bits {}..={}) does not fit {} words", self.name, self.lsb, self.msb(), words.len());
        let mut put = 0;
        while put < self.width {
            let take = (self.width - put).min(64);
            set_bits(words, (self.lsb + put) as usize, take as usize, v.get((put / 64) as usize).copied().unwrap_or(0));
            put += take;
        }
    }
}

/// Fields that tile `0..width` exactly, without overlap, in any order.
pub fn tiles(fields: &[Field], width: u32) -> bool {
    let mut covered = vec![false; width as usize];
    for f in fields {
        for b in f.lsb..f.end() {
            match covered.get_mut(b as usize) {
                Some(c) if !*c => *c = true,
                _ => return false,
            }
        }
    }
    covered.iter().all(|&c| c)
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
