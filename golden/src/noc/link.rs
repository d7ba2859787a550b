//! Reply-plane link format (spec §1.2), packed into a `u128`:
//! `{valid, type[1:0], head, tail, src[SW], dst_y[CW], dst_x[CW], payload[63:0]}`,
//! payload in the low bits, `valid` the most significant bit (bit LINK_W-1).

use super::config::{NocConfig, REPLY_FLIT_W};

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

impl LinkFmt {
    pub fn new(c: &NocConfig) -> LinkFmt {
        LinkFmt { cw: c.cw(), sw: c.sw(), width: c.link_w() }
    }

    fn base(&self) -> u32 {
        REPLY_FLIT_W
    }

    pub fn valid_bit(&self) -> u128 {
        1u128 << (self.width - 1)
    }

    pub fn mask(&self) -> u128 {
        (1u128 << self.width) - 1
    }

    pub fn pack(&self, f: &Flit) -> u128 {
        let mut v = f.payload as u128;
        let mut at = self.base();
        let cmask = (1u128 << self.cw) - 1;
        v |= (f.dst_x as u128 & cmask) << at;
        at += self.cw;
        v |= (f.dst_y as u128 & cmask) << at;
        at += self.cw;
        v |= (f.src as u128 & ((1u128 << self.sw) - 1)) << at;
        at += self.sw;
        v |= (f.tail as u128) << at;
        v |= (f.head as u128) << (at + 1);
        v |= ((f.ty & 3) as u128) << (at + 2);
        v |= (f.valid as u128) << (at + 4);
        v
    }

    pub fn unpack(&self, v: u128) -> Flit {
        let mut at = self.base();
        let cmask = (1u128 << self.cw) - 1;
        let dst_x = ((v >> at) & cmask) as u32;
        at += self.cw;
        let dst_y = ((v >> at) & cmask) as u32;
        at += self.cw;
        let src = ((v >> at) & ((1u128 << self.sw) - 1)) as u32;
        at += self.sw;
        Flit {
            valid: (v >> (at + 4)) & 1 == 1,
            ty: ((v >> (at + 2)) & 3) as u32,
            head: (v >> (at + 1)) & 1 == 1,
            tail: (v >> at) & 1 == 1,
            src,
            dst_x,
            dst_y,
            payload: v as u64,
        }
    }

    #[inline]
    pub fn valid(&self, v: u128) -> bool {
        v & self.valid_bit() != 0
    }

    #[inline]
    pub fn ty(&self, v: u128) -> u32 {
        ((v >> (self.width - 3)) & 3) as u32
    }

    #[inline]
    pub fn dst(&self, v: u128) -> (u32, u32) {
        let cmask = (1u128 << self.cw) - 1;
        (((v >> 64) & cmask) as u32, ((v >> (64 + self.cw)) & cmask) as u32)
    }

    /// Replace the src field.
    pub fn with_src(&self, v: u128, src: u32) -> u128 {
        let at = 64 + 2 * self.cw;
        let m = ((1u128 << self.sw) - 1) << at;
        (v & !m) | (((src as u128) << at) & m)
    }
}

/// STATUS payload (spec §1.9): `{4'h1, mc_id[3:0], arr[15:0], occ[23:0], 16'h0}`.
pub fn status_payload(mc: u32, arr: u32, occ: u32) -> u64 {
    (1u64 << 60) | ((mc as u64 & 0xf) << 56) | ((arr as u64 & 0xffff) << 40) | ((occ as u64 & 0xff_ffff) << 16)
}

/// `(mc, arr, occ)` of a STATUS payload.
pub fn status_fields(p: u64) -> (u32, u32, u32) {
    (((p >> 56) & 0xf) as u32, ((p >> 40) & 0xffff) as u32, ((p >> 16) & 0xff_ffff) as u32)
}

/// GOMCFG payload: `{idx[3:0], T(6idx) .. T(6idx+5)}`, 10 bits each, missing ones 0.
pub fn gomcfg_payload(idx: u32, t: &[u32]) -> u64 {
    let mut p = (idx as u64 & 0xf) << 60;
    for k in 0..6 {
        let j = 6 * idx as usize + k;
        let v = t.get(j).copied().unwrap_or(0) as u64 & 0x3ff;
        p |= v << (50 - 10 * k);
    }
    p
}

/// Apply a GOMCFG payload to a window vector of length G.
pub fn gomcfg_apply(p: u64, t: &mut [u32]) {
    let idx = ((p >> 60) & 0xf) as usize;
    for k in 0..6 {
        let j = 6 * idx + k;
        if j < t.len() {
            t[j] = ((p >> (50 - 10 * k)) & 0x3ff) as u32;
        }
    }
}

/// Number of GOMCFG flits for G windows.
pub fn gomcfg_flits(g: usize) -> u32 {
    g.div_ceil(6) as u32
}
