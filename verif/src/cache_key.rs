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

#[cfg(test)]
mod tests {
    use super::digest;

    #[test]
    fn keys_follow_every_part_and_its_boundaries() {
        let k = digest([&b"ab"[..], b"c"], 12);
        assert_eq!(k.len(), 24);
        assert_eq!(k, digest([&b"ab"[..], b"c"], 12), "a key is a function of its parts");
        assert_ne!(k, digest([&b"a"[..], b"bc"], 12), "the same bytes split differently");
        assert_ne!(k, digest([&b"ab"[..], b"d"], 12));
        // SHA-256 of the empty input (FIPS 180-4 test vector), no parts at all
        assert_eq!(digest([], 4), "e3b0c442");
    }
}
