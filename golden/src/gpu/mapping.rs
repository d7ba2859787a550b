//! Address mapping: which memory node owns an address, and where it sits in that node's
//! DRAM (bank, row). Interleaving across nodes in `interleave_bytes` chunks
//! (llc_omni_compute.md §3: 128 B chunks, node = (addr >> 7) mod 8; macro_noc.md §2.1:
//! 256 B), optionally XOR-hashed (tom.md §1.4: permutation-based interleaving).
//! Inside a node (our choice, in the spirit of GPGPU-Sim's GDDR mappings that put bank
//! bits low): node-local addresses rotate over the banks every `bank_interleave_bytes`,
//! and a row of a bank collects `row_bytes / bank_interleave_bytes` such chunks, so a
//! stream keeps every bank busy (activations overlap other banks' transfers) while still
//! hitting open rows. `bank_interleave_bytes = row_bytes` gives the row-major layout.

use super::config::{DramConfig, InterleaveHash, MappingConfig};

#[derive(Debug, Clone)]
pub struct AddressMap {
    interleave: u64,
    nodes: u64,
    node_bits: u32,
    hash: InterleaveHash,
    bank_chunk: u64,
    row_span: u64,
    banks: u64,
}

/// Location of a line inside a node's DRAM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DramLoc {
    pub bank: u32,
    pub row: u64,
}

impl AddressMap {
    pub fn new(m: &MappingConfig, d: &DramConfig, nodes: u32) -> Self {
        AddressMap {
            interleave: m.interleave_bytes as u64,
            nodes: nodes as u64,
            node_bits: nodes.trailing_zeros(),
            hash: m.hash,
            bank_chunk: m.bank_interleave_bytes as u64,
            row_span: d.row_bytes as u64 * d.banks as u64,
            banks: d.banks as u64,
        }
    }

    /// Memory node owning `addr`.
    #[inline]
    pub fn node(&self, addr: u64) -> usize {
        let chunk = addr / self.interleave;
        let base = chunk % self.nodes;
        match self.hash {
            InterleaveHash::None => base as usize,
            InterleaveHash::Xor => {
                if self.node_bits == 0 {
                    return 0;
                }
                let mut upper = chunk / self.nodes;
                let mut f = 0u64;
                while upper != 0 {
                    f ^= upper & (self.nodes - 1);
                    upper >>= self.node_bits;
                }
                (base ^ f) as usize
            }
        }
    }

    /// Byte address inside the owning node's memory (the node-select digits removed).
    #[inline]
    pub fn local(&self, addr: u64) -> u64 {
        let chunk = addr / self.interleave;
        (chunk / self.nodes) * self.interleave + addr % self.interleave
    }

    /// Bank and row of a node-local address.
    #[inline]
    pub fn dram_loc(&self, local: u64) -> DramLoc {
        DramLoc { bank: ((local / self.bank_chunk) % self.banks) as u32, row: local / self.row_span }
    }
}
