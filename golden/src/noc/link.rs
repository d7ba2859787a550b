//! Reply-plane link format (spec §1.2), packed into a `u128`:
//! `{valid, type[1:0], head, tail, src[SW], dst_y[CW], dst_x[CW], payload[63:0]}`,
//! payload in the low bits, `valid` the most significant bit (bit LINK_W-1).
//!
//! This module is the one definition of the reply link and its payloads: the field
//! table of [`LinkFmt`] (every bit position of a link), [`STATUS_FIELDS`] and
//! [`gomcfg_window`] (the STATUS and GOMCFG payloads). The HDL leaves
//! (`hdl_gen::noc::leaf::{hinge, mc_ni, gom, ctrl}`), the mesh template and the
//! co-simulation port maps take their positions from here.

use super::config::{NocConfig, REPLY_FLIT_W, TW};
use crate::bits::{clog2, Field};

/// Flit types on the reply plane.
pub const T_DATA: u32 = 0;
pub const T_STATUS: u32 = 1;
pub const T_GOMCFG: u32 = 2;

/// Field positions of the reply link for one config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkFmt {
    pub cw: u32,
    pub sw: u32,
    pub width: u32,
}

/// A decoded reply flit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flit {
    pub valid: bool,
    pub ty: u32,
    pub head: bool,
    pub tail: bool,
    pub src: u32,
    pub dst_x: u32,
    pub dst_y: u32,
    pub payload: u64,
}

/// Field `f` of a link held in a `u128`.
#[inline]
const fn get(f: Field, v: u128) -> u128 {
    (v >> f.lsb) & f.mask()
}

/// `v` with field `f` set to `x` (excess bits of `x` dropped).
#[inline]
const fn put(f: Field, v: u128, x: u128) -> u128 {
    (v & !(f.mask() << f.lsb)) | ((x & f.mask()) << f.lsb)
}

impl LinkFmt {
    pub fn new(c: &NocConfig) -> LinkFmt {
        LinkFmt::for_widths(c.cw(), c.sw())
    }

    /// The link of `cw`-bit coordinates and `sw`-bit MC indices.
    pub const fn for_widths(cw: u32, sw: u32) -> LinkFmt {
        LinkFmt { cw, sw, width: REPLY_FLIT_W + 2 * cw + sw + 5 }
    }

    /// The `width`-bit link with `cw`-bit coordinates (the MC-index width is the rest).
    pub const fn for_link(width: u32, cw: u32) -> LinkFmt {
        let fixed = LinkFmt::for_widths(cw, 0).width;
        assert!(width > fixed, "a reply link is wider than its fixed fields");
        LinkFmt { cw, sw: width - fixed, width }
    }

    /// The valid bit of any `width`-bit reply link: the field table puts it last,
    /// whatever CW and SW are.
    pub const fn valid_lsb(width: u32) -> u32 {
        width - 1
    }

    /// The link of an `n` x `n` mesh with `m` MCs (`CW = clog2(n)`, `SW = clog2(m)`).
    pub const fn for_mesh(n: u32, m: u32) -> LinkFmt {
        LinkFmt::for_widths(clog2(n as u64), clog2(m as u64))
    }

    pub const fn payload(&self) -> Field {
        Field::new("payload", 0, REPLY_FLIT_W)
    }
    pub const fn dst_x(&self) -> Field {
        Field::new("dst_x", REPLY_FLIT_W, self.cw)
    }
    pub const fn dst_y(&self) -> Field {
        Field::new("dst_y", REPLY_FLIT_W + self.cw, self.cw)
    }
    pub const fn src(&self) -> Field {
        Field::new("src", REPLY_FLIT_W + 2 * self.cw, self.sw)
    }
    pub const fn tail(&self) -> Field {
        Field::new("tail", REPLY_FLIT_W + 2 * self.cw + self.sw, 1)
    }
    pub const fn head(&self) -> Field {
        Field::new("head", self.tail().end(), 1)
    }
    pub const fn ty(&self) -> Field {
        Field::new("type", self.head().end(), 2)
    }
    pub const fn valid(&self) -> Field {
        Field::new("valid", self.ty().end(), 1)
    }

    /// Every field of a link, most significant first.
    pub const fn fields(&self) -> [Field; 8] {
        [self.valid(), self.ty(), self.head(), self.tail(), self.src(), self.dst_y(), self.dst_x(), self.payload()]
    }

    /// Everything above the payload (the mesh ports' `*_hdr` value).
    pub const fn header(&self) -> Field {
        Field::new("header", REPLY_FLIT_W, self.width - REPLY_FLIT_W)
    }

    pub const fn valid_bit(&self) -> u128 {
        1u128 << self.valid().lsb
    }

    pub const fn mask(&self) -> u128 {
        (1u128 << self.width) - 1
    }

    pub fn pack(&self, f: &Flit) -> u128 {
        let mut v = put(self.payload(), 0, f.payload as u128);
        v = put(self.dst_x(), v, f.dst_x as u128);
        v = put(self.dst_y(), v, f.dst_y as u128);
        v = put(self.src(), v, f.src as u128);
        v = put(self.tail(), v, f.tail as u128);
        v = put(self.head(), v, f.head as u128);
        v = put(self.ty(), v, f.ty as u128);
        put(self.valid(), v, f.valid as u128)
    }

    pub fn unpack(&self, v: u128) -> Flit {
        Flit {
            valid: get(self.valid(), v) == 1,
            ty: get(self.ty(), v) as u32,
            head: get(self.head(), v) == 1,
            tail: get(self.tail(), v) == 1,
            src: get(self.src(), v) as u32,
            dst_x: get(self.dst_x(), v) as u32,
            dst_y: get(self.dst_y(), v) as u32,
            payload: get(self.payload(), v) as u64,
        }
    }

    #[inline]
    pub fn is_valid(&self, v: u128) -> bool {
        v & self.valid_bit() != 0
    }

    #[inline]
    pub fn type_of(&self, v: u128) -> u32 {
        get(self.ty(), v) as u32
    }

    #[inline]
    pub fn dst(&self, v: u128) -> (u32, u32) {
        (get(self.dst_x(), v) as u32, get(self.dst_y(), v) as u32)
    }

    /// Replace the src field.
    pub fn with_src(&self, v: u128, src: u32) -> u128 {
        put(self.src(), v, src as u128)
    }
}

/// STATUS payload (spec §1.9): `{4'h1, mc_id[3:0], arr[15:0], occ[23:0], 16'h0}`.
pub const STATUS_TAG: Field = Field::new("tag", 60, 4);
pub const STATUS_MC: Field = Field::new("mc", 56, 4);
pub const STATUS_ARR: Field = Field::new("arr", 40, 16);
pub const STATUS_OCC: Field = Field::new("occ", 16, 24);
pub const STATUS_ZERO: Field = Field::new("zero", 0, 16);
/// The STATUS payload's fields, most significant first.
pub const STATUS_FIELDS: [Field; 5] = [STATUS_TAG, STATUS_MC, STATUS_ARR, STATUS_OCC, STATUS_ZERO];
/// The value of [`STATUS_TAG`].
pub const STATUS_TAG_VALUE: u64 = 1;

/// GOMCFG payload: `{idx[3:0], T(6idx) .. T(6idx+5)}`, [`TW`] bits each, missing ones 0.
pub const GOMCFG_IDX: Field = Field::new("idx", 60, 4);
/// Windows carried by one GOMCFG flit.
pub const GOMCFG_WINDOWS: usize = 6;

/// The field of the `k`-th window of a GOMCFG payload (`k < GOMCFG_WINDOWS`; window
/// `6 idx + k` of the set): `T[50-10k +: 10]`.
pub const fn gomcfg_window(k: usize) -> Field {
    Field::new("t", GOMCFG_IDX.lsb - TW * (k as u32 + 1), TW)
}

#[inline]
fn get64(f: Field, p: u64) -> u64 {
    get(f, p as u128) as u64
}

#[inline]
fn put64(f: Field, p: u64, x: u64) -> u64 {
    put(f, p as u128, x as u128) as u64
}

/// STATUS payload of MC `mc` with arrival count `arr` and occupancy `occ`.
pub fn status_payload(mc: u32, arr: u32, occ: u32) -> u64 {
    let p = put64(STATUS_TAG, 0, STATUS_TAG_VALUE);
    let p = put64(STATUS_MC, p, mc as u64);
    let p = put64(STATUS_ARR, p, arr as u64);
    put64(STATUS_OCC, p, occ as u64)
}

/// `(mc, arr, occ)` of a STATUS payload.
pub fn status_fields(p: u64) -> (u32, u32, u32) {
    (get64(STATUS_MC, p) as u32, get64(STATUS_ARR, p) as u32, get64(STATUS_OCC, p) as u32)
}

/// GOMCFG payload `idx` of window set `t`.
pub fn gomcfg_payload(idx: u32, t: &[u32]) -> u64 {
    let mut p = put64(GOMCFG_IDX, 0, idx as u64);
    for k in 0..GOMCFG_WINDOWS {
        let j = GOMCFG_WINDOWS * idx as usize + k;
        p = put64(gomcfg_window(k), p, t.get(j).copied().unwrap_or(0) as u64);
    }
    p
}

/// Apply a GOMCFG payload to a window vector of length G.
pub fn gomcfg_apply(p: u64, t: &mut [u32]) {
    let idx = get64(GOMCFG_IDX, p) as usize;
    for k in 0..GOMCFG_WINDOWS {
        let j = GOMCFG_WINDOWS * idx + k;
        if j < t.len() {
            t[j] = get64(gomcfg_window(k), p) as u32;
        }
    }
}

/// The window-set index a GOMCFG payload carries.
pub fn gomcfg_index(p: u64) -> usize {
    get64(GOMCFG_IDX, p) as usize
}

/// Number of GOMCFG flits for G windows.
pub fn gomcfg_flits(g: usize) -> u32 {
    g.div_ceil(GOMCFG_WINDOWS) as u32
}
