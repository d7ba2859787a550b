//! Bit layout of the wormhole VC planes' links and flits (spec §1.11–1.12): the one
//! definition the HDL generator (`hdl_gen::noc::vc`), its templates' port widths and
//! the co-simulation bench take their positions from.
//!
//! A link, most significant bit first:
//!
//! ```text
//! {valid, vc[VW], head, tail, src_y[CW], src_x[CW], dst_y[CW], dst_x[CW], data[W]}
//! ```
//!
//! * the **flit** is the low `W + 4 CW + 2` bits (`{head .. data}`): what a VC buffer
//!   stores and the crossbar moves;
//! * the **header** is everything above the data (`{valid .. dst_x}`), `1 + VW + 2 +
//!   4 CW` bits: what the mesh ports carry beside the data;
//! * `W` is the payload width (32, 64, 128 or 256), `CW = clog2(N)` the coordinate
//!   width, `VW = max(1, clog2(V))` the VC-index width (1 to 3 bits for 1 to 8 VCs).
//!
//! [`VcLayout::pack`] / [`VcLayout::unpack`] convert a golden [`VcLink`] to and from
//! little-endian `u64` words (any width: the baseline's 128-bit data on an 8x8 mesh
//! with 3 VCs is a 145-bit link, the LLC-Compute platform's 256-bit data with 8 VCs a
//! 274-bit one). Node ids are `y * N + x`, so they take the mesh side `n`.

use super::config::{coord_widths, NocConfig, VcParams, MESH_MAX, VC_FLIT_WIDTHS, VC_MAX};
use super::vc_router::{VcData, VcFlit, VcLink};
use crate::bits::clog2;
use crate::bits::Field;

/// The VC-index width of a plane with `vcs` VCs per port (at least 1).
pub const fn vc_width(vcs: u32) -> u32 {
    let w = clog2(vcs as u64);
    if w < 1 {
        1
    } else {
        w
    }
}

/// Field positions of one VC plane's links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct VcLayout {
    /// Payload width W.
    pub data_w: u32,
    /// Coordinate width CW.
    pub cw: u32,
    /// VC-index width VW.
    pub vw: u32,
}

impl VcLayout {
    /// The layout for `data_w`-bit payloads, `cw`-bit coordinates and `vcs` VCs.
    pub const fn new(data_w: u32, cw: u32, vcs: u32) -> VcLayout {
        assert!(data_w >= 1 && data_w <= 256 && cw >= 1 && vcs >= 1);
        VcLayout { data_w, cw, vw: vc_width(vcs) }
    }

    /// The layout of plane `p` of NoC `c`.
    pub const fn for_plane(c: &NocConfig, p: &VcParams) -> VcLayout {
        VcLayout::new(p.flit_width, clog2(c.n as u64), p.vcs)
    }

    pub const fn data(&self) -> Field {
        Field::new("data", 0, self.data_w)
    }
    pub const fn dst_x(&self) -> Field {
        Field::new("dst_x", self.data_w, self.cw)
    }
    pub const fn dst_y(&self) -> Field {
        Field::new("dst_y", self.data_w + self.cw, self.cw)
    }
    pub const fn src_x(&self) -> Field {
        Field::new("src_x", self.data_w + 2 * self.cw, self.cw)
    }
    pub const fn src_y(&self) -> Field {
        Field::new("src_y", self.data_w + 3 * self.cw, self.cw)
    }
    pub const fn tail(&self) -> Field {
        Field::new("tail", self.data_w + 4 * self.cw, 1)
    }
    pub const fn head(&self) -> Field {
        Field::new("head", self.data_w + 4 * self.cw + 1, 1)
    }
    pub const fn vc(&self) -> Field {
        Field::new("vc", self.data_w + 4 * self.cw + 2, self.vw)
    }
    pub const fn valid(&self) -> Field {
        Field::new("valid", self.data_w + 4 * self.cw + 2 + self.vw, 1)
    }

    /// Every field of a link, most significant first.
    pub const fn fields(&self) -> [Field; 9] {
        [self.valid(), self.vc(), self.head(), self.tail(), self.src_y(), self.src_x(), self.dst_y(), self.dst_x(), self.data()]
    }

    /// The fields of a flit (`{head .. data}`), most significant first.
    pub const fn flit_fields(&self) -> [Field; 7] {
        [self.head(), self.tail(), self.src_y(), self.src_x(), self.dst_y(), self.dst_x(), self.data()]
    }

    /// Flit width: `W + 4 CW + 2`.
    pub const fn flit_width(&self) -> u32 {
        self.vc().lsb
    }

    /// Link width: flit, VC index and valid.
    pub const fn link_width(&self) -> u32 {
        self.valid().end()
    }

    /// Header width (everything above the data): `1 + VW + 2 + 4 CW`.
    pub const fn header_width(&self) -> u32 {
        self.link_width() - self.data_w
    }

    /// The header as one field of the link (the mesh ports' `*_hdr` value).
    pub const fn header(&self) -> Field {
        Field::new("header", self.data_w, self.header_width())
    }

    /// VC-index width.
    pub const fn vc_width(&self) -> u32 {
        self.vw
    }

    /// `u64` words a link takes.
    pub const fn words(&self) -> usize {
        self.link_width().div_ceil(64) as usize
    }

    /// Write `link` (0 when `None`) into `words` (bits above the link untouched).
    /// `n` is the mesh side: node id = `y * n + x`.
    pub fn pack(&self, n: u32, link: &VcLink, words: &mut [u64]) {
        let (valid, vc) = link.map_or((0, 0), |(vc, _)| (1, vc as u128));
        self.valid().write(words, valid);
        self.vc().write(words, vc);
        self.pack_flit(n, link.as_ref().map(|(_, f)| f), words);
    }

    /// Write the flit fields `{head .. data}` of `flit` (0 when `None`) into `words`,
    /// leaving every other bit alone: a router's flit ports, whose valid and VC are
    /// ports of their own.
    pub fn pack_flit(&self, n: u32, flit: Option<&VcFlit>, words: &mut [u64]) {
        let Some(f) = flit else {
            for fl in self.flit_fields() {
                fl.write_words(words, &[]);
            }
            return;
        };
        let (n, cmask) = (n as u128, (1u128 << self.cw) - 1);
        let (src, dst) = (f.src as u128, f.dst as u128);
        debug_assert!(src % n <= cmask && src / n <= cmask && dst % n <= cmask && dst / n <= cmask);
        self.head().write(words, f.head as u128);
        self.tail().write(words, f.tail as u128);
        self.src_y().write(words, src / n);
        self.src_x().write(words, src % n);
        self.dst_y().write(words, dst / n);
        self.dst_x().write(words, dst % n);
        self.data().write_words(words, &f.data);
    }

    /// The link in `words` (`None` when its valid bit is clear).
    pub fn unpack(&self, n: u32, words: &[u64]) -> VcLink {
        if self.valid().read(words) == 0 {
            return None;
        }
        let id = |y: Field, x: Field| (y.read(words) as u32 * n + x.read(words) as u32) as u16;
        let mut data: VcData = [0; 4];
        self.data().read_words(words, &mut data);
        let flit =
            VcFlit { head: self.head().read(words) != 0, tail: self.tail().read(words) != 0, src: id(self.src_y(), self.src_x()), dst: id(self.dst_y(), self.dst_x()), data };
        Some((self.vc().read(words) as u8, flit))
    }
}

/// `u64` words of the widest link a valid config can take (256-bit data on an 8x8
/// mesh with 8 VCs: 274 bits, 5 words): a fixed scratch size for packing any link.
pub const MAX_LINK_WORDS: usize = VcLayout::new(VC_FLIT_WIDTHS[VC_FLIT_WIDTHS.len() - 1], clog2(MESH_MAX as u64), VC_MAX).words();

/// Every flit width a valid config can take (`VC_FLIT_WIDTHS` x the supported
/// meshes' coordinate widths), ascending: the set the HDL monomorphizes over.
pub fn vc_flit_widths() -> Vec<u32> {
    let mut v: Vec<u32> = VC_FLIT_WIDTHS.iter().flat_map(|&w| coord_widths().into_iter().map(move |cw| VcLayout::new(w, cw, 1).flit_width())).collect();
    v.sort_unstable();
    v.dedup();
    v
}
