//! What LLC-Compute / Omni-Compute packets carry in the GPU model, and the NI demux of
//! spec §1.5: every hook packet's tag names its message and so its sink (the OQ, a
//! core's SQ, or an LLC partition's SQ / LLC port).
//!
//! The GPU network moves packet sizes, not payloads. A packet's tag carries the
//! message's small fields; what does not fit (a ComputePacket's 256-bit flit, a result
//! store's byte enables) waits in the [`Wire`] under the key the tag names, and the
//! sink takes it when the packet ejects.
//!
//! Tag layout (bit 63 is the GPU's `HOOK_TAG`): type `[59, 63)`, `which` `[58]`,
//! field a `[50, 58)`, field b `[42, 50)`, a byte address `[0, 42)`.

use std::collections::HashMap;

use super::chain::RespKind;
use super::packet::{CpExtension, Flit, HAS_EXT, SRC_NODE};
use super::sqsr::byte_enables;

/// One message between the LLC-/Omni-Compute hooks (spec §1.8's message table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Msg {
    /// A ComputePacket of SM `sm`'s OQ entry `tag` (its flit is in the [`Wire`]), with
    /// the divergence extension flit of a split chain's group (`ext`, spec §2.6); sink:
    /// an SQ.
    Cp { sm: u8, tag: u8, ext: bool },
    /// An SQ's answer (ACK, DATA or BITMAP) to OQ entry `tag`; sink: the OQ.
    Answer { kind: RespKind, tag: u8 },
    /// Fallback data of load `which` for OQ entry `tag` (the SQSR was full, §1.6.4);
    /// sink: the OQ.
    FbData { which: u8, tag: u8 },
    /// A core SQ's operand load `which` of its entry `entry`; sink: the LLC of `addr`.
    LoadReq { entry: u8, which: u8, addr: u64 },
    /// A core SQ's result store of entry `entry` at SM `sm` (address and byte enables in
    /// the [`Wire`]); sink: the LLC of the address.
    StoreReq { entry: u8, sm: u8 },
    /// A full core SQ's fallback load `which` for OQ entry `tag` of the core at node
    /// `src`; sink: the LLC of `addr`, which answers the source with [`Msg::FbData`].
    FbLoad { which: u8, tag: u8, src: u8, addr: u64 },
    /// Data of a core SQ's operand load; sink: the core SQ.
    LoadData { entry: u8, which: u8 },
    /// A core SQ's result store is written; sink: the core SQ.
    StoreAck { entry: u8 },
}

/// Where a message goes at a core's ejection port (spec §1.5 `sink`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoreSink {
    Oq,
    Sq,
}

const ADDR_BITS: u32 = 42;

impl Msg {
    pub fn encode(self) -> u64 {
        let (ty, which, a, b, addr) = match self {
            Msg::Cp { sm, tag, ext } => (0, u8::from(ext), tag, sm, 0),
            Msg::Answer { kind, tag } => (1, 0, tag, kind.code() as u8, 0),
            Msg::FbData { which, tag } => (2, which, tag, 0, 0),
            Msg::LoadReq { entry, which, addr } => (3, which, entry, 0, addr),
            Msg::StoreReq { entry, sm } => (4, 0, entry, sm, 0),
            Msg::FbLoad { which, tag, src, addr } => (5, which, tag, src, addr),
            Msg::LoadData { entry, which } => (6, which, entry, 0, 0),
            Msg::StoreAck { entry } => (7, 0, entry, 0, 0),
        };
        assert!(addr < 1 << ADDR_BITS, "byte address {addr:#x} does not fit the packet tag's {ADDR_BITS} bits");
        assert!(which < 2, "operand {which} of a two-load chain");
        (ty as u64) << 59 | (which as u64) << 58 | (a as u64) << 50 | (b as u64) << 42 | addr
    }

    pub fn decode(tag: u64) -> Msg {
        let (which, a, b, addr) = ((tag >> 58 & 1) as u8, (tag >> 50) as u8, (tag >> 42) as u8, tag & ((1 << ADDR_BITS) - 1));
        match tag >> 59 & 0xf {
            0 => Msg::Cp { sm: b, tag: a, ext: which == 1 },
            1 => Msg::Answer { kind: RespKind::from_code(u32::from(b)).expect("a resp_kind code"), tag: a },
            2 => Msg::FbData { which, tag: a },
            3 => Msg::LoadReq { entry: a, which, addr },
            4 => Msg::StoreReq { entry: a, sm: b },
            5 => Msg::FbLoad { which, tag: a, src: b, addr },
            6 => Msg::LoadData { entry: a, which },
            7 => Msg::StoreAck { entry: a },
            t => panic!("hook packet tag {tag:#x}: message type {t} is not LLC-/Omni-Compute's"),
        }
    }

    /// The sink of a message that ejects at a core.
    pub fn core_sink(self) -> CoreSink {
        match self {
            Msg::Answer { .. } | Msg::FbData { .. } => CoreSink::Oq,
            Msg::Cp { .. } | Msg::LoadData { .. } | Msg::StoreAck { .. } => CoreSink::Sq,
            m => panic!("{m:?} ejected at a core: it is for an LLC partition"),
        }
    }

    /// Flits of the message (spec §1.8).
    pub fn flits(self) -> u32 {
        match self {
            Msg::Answer { kind, .. } => kind.flits(),
            Msg::FbData { .. } | Msg::StoreReq { .. } | Msg::LoadData { .. } => RespKind::Data.flits(),
            Msg::Cp { ext, .. } => 1 + u32::from(ext),
            Msg::LoadReq { .. } | Msg::FbLoad { .. } | Msg::StoreAck { .. } => 1,
        }
    }
}

/// A ComputePacket's head flit and a split group's extension flit.
type CpFlits = (Flit, Option<Flit>);

/// Payloads that travel beside their packets: ComputePacket flits (the head flit and a
/// split group's extension flit) by (source SM, OQ tag), core SQs' result stores by
/// (SM, SQSR entry).
#[derive(Debug, Default)]
pub struct Wire {
    cps: Vec<Vec<Option<CpFlits>>>,
    stores: Vec<Vec<Option<(u64, u128)>>>,
    /// A split group's store lanes and start word by (source node, OQ tag), from its CP
    /// until the next CP of that entry: what the SQ's result store writes.
    store_words: HashMap<(u32, u32), (u32, u32)>,
}

impl Wire {
    pub fn new(sms: usize, oq_entries: usize, sq_entries: usize) -> Self {
        Self { cps: vec![vec![None; oq_entries]; sms], stores: vec![vec![None; sq_entries]; sms], store_words: HashMap::new() }
    }

    /// SM `sm`'s ComputePacket for OQ entry `tag`: its head flit and, for a split group,
    /// the extension flit (the head then says `has_ext`).
    pub fn put_cp(&mut self, sm: usize, tag: usize, flit: Flit, ext: Option<Flit>) {
        let slot = &mut self.cps[sm][tag];
        assert!(slot.is_none(), "SM {sm}: a second ComputePacket with OQ tag {tag} in flight");
        let key = (SRC_NODE.read(&flit) as u32, tag as u32);
        match ext.map(|x| CpExtension::decode(&x)) {
            Some(x) => self.store_words.insert(key, (x.masks[2], x.start[2])),
            None => self.store_words.remove(&key),
        };
        *slot = Some((flit, ext));
    }

    /// The CP's flits; `ext` is what its packet says (a mismatch is a protocol bug).
    pub fn take_cp(&mut self, sm: u8, tag: u8, ext: bool) -> Flit {
        let (flit, x) = self.cps[sm as usize][tag as usize].take().unwrap_or_else(|| panic!("a ComputePacket from SM {sm} with OQ tag {tag} carries no flit"));
        assert_eq!(x.is_some(), ext, "SM {sm}, OQ tag {tag}: the packet's extension flit and the CP's disagree");
        assert_eq!(HAS_EXT.read(&flit) == 1, ext, "SM {sm}, OQ tag {tag}: has_ext");
        flit
    }

    /// The byte enables of the result store of the CP from node `src` with OQ tag
    /// `tag`, whose SQ computed `sq_wbe` (4 bytes per lane k at word k): a split group
    /// writes its store lanes at words `(start + k) mod 32` (spec §2.6).
    pub fn store_enables(&self, src: u32, tag: u32, sq_wbe: u128) -> u128 {
        match self.store_words.get(&(src, tag)) {
            Some(&(lanes, start)) => byte_enables(lanes, 32, false).rotate_left(4 * start),
            None => sq_wbe,
        }
    }

    pub fn put_store(&mut self, sm: usize, entry: usize, addr: u64, wbe: u128) {
        let slot = &mut self.stores[sm][entry];
        assert!(slot.is_none(), "SM {sm}: a second result store of SQSR entry {entry} in flight");
        *slot = Some((addr, wbe));
    }

    pub fn take_store(&mut self, sm: u8, entry: u8) -> (u64, u128) {
        self.stores[sm as usize][entry as usize].take().unwrap_or_else(|| panic!("a result store from SM {sm}'s SQSR entry {entry} carries no data"))
    }
}
