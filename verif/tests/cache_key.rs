//! `verif::cache_key`: a key follows every part and where the parts split.

use verif::cache_key::digest;

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
