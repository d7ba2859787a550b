//! Content keys of the tool caches: a Verilator build, its shared runtime objects and a
//! yosys report are each kept under a hex digest of everything that shapes them.

use sha2::{Digest, Sha256};

/// Hex of the first `bytes` bytes of the SHA-256 of `parts`, each length-prefixed so
/// that moving text from one part to the next changes the key.
pub fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>, bytes: usize) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().iter().take(bytes).map(|b| format!("{b:02x}")).collect()
}
