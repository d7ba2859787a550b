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

use super::chain::RespKind;
use super::packet::Flit;

/// One message between the LLC-/Omni-Compute hooks (spec §1.8's message table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Msg {
    /// A ComputePacket of SM `sm`'s OQ entry `tag` (its flit is in the [`Wire`]); sink: an SQ.
    Cp { sm: u8, tag: u8 },
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
            Msg::Cp { sm, tag } => (0, 0, tag, sm, 0),
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
            0 => Msg::Cp { sm: b, tag: a },
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
            Msg::Cp { .. } | Msg::LoadReq { .. } | Msg::FbLoad { .. } | Msg::StoreAck { .. } => 1,
        }
    }
}

/// Payloads that travel beside their packets: ComputePacket flits by (source SM, OQ
/// tag), core SQs' result stores by (SM, SQSR entry).
#[derive(Debug, Default)]
pub struct Wire {
    cps: Vec<Vec<Option<Flit>>>,
    stores: Vec<Vec<Option<(u64, u128)>>>,
}

impl Wire {
    pub fn new(sms: usize, oq_entries: usize, sq_entries: usize) -> Self {
        Self { cps: vec![vec![None; oq_entries]; sms], stores: vec![vec![None; sq_entries]; sms] }
    }

    pub fn put_cp(&mut self, sm: usize, tag: usize, flit: Flit) {
        let slot = &mut self.cps[sm][tag];
        assert!(slot.is_none(), "SM {sm}: a second ComputePacket with OQ tag {tag} in flight");
        *slot = Some(flit);
    }

    pub fn take_cp(&mut self, sm: u8, tag: u8) -> Flit {
        self.cps[sm as usize][tag as usize].take().unwrap_or_else(|| panic!("a ComputePacket from SM {sm} with OQ tag {tag} carries no flit"))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_round_trips_through_a_tag_clear_of_the_hook_bit() {
        let all = [
            Msg::Cp { sm: 55, tag: 47 },
            Msg::Answer { kind: RespKind::Bitmap, tag: 3 },
            Msg::FbData { which: 1, tag: 9 },
            Msg::LoadReq { entry: 255, which: 1, addr: (1 << 42) - 128 },
            Msg::StoreReq { entry: 95, sm: 63 },
            Msg::FbLoad { which: 0, tag: 63, src: 62, addr: 0x1234_5680 },
            Msg::LoadData { entry: 7, which: 1 },
            Msg::StoreAck { entry: 200 },
        ];
        for m in all {
            let t = m.encode();
            assert_eq!(t >> 63, 0, "{m:?}");
            assert_eq!(Msg::decode(t), m);
        }
    }

    #[test]
    fn sizes_are_the_papers() {
        // spec §1.8: requests and acks 1 flit, data (and a store with its data) 5
        assert_eq!(Msg::Cp { sm: 0, tag: 0 }.flits(), 1);
        assert_eq!(Msg::LoadReq { entry: 0, which: 0, addr: 0 }.flits(), 1);
        assert_eq!(Msg::StoreReq { entry: 0, sm: 0 }.flits(), 5);
        assert_eq!(Msg::LoadData { entry: 0, which: 0 }.flits(), 5);
        assert_eq!(Msg::StoreAck { entry: 0 }.flits(), 1);
        assert_eq!(Msg::Answer { kind: RespKind::Ack, tag: 0 }.flits(), 1);
        assert_eq!(Msg::Answer { kind: RespKind::Data, tag: 0 }.flits(), 5);
        assert_eq!(Msg::FbData { which: 0, tag: 0 }.flits(), 5);
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn an_address_beyond_the_tag_is_refused() {
        Msg::LoadReq { entry: 0, which: 0, addr: 1 << 42 }.encode();
    }
}
