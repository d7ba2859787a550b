//! `verif::frame`: bit fields packed into a frame's words, and a port's fields packed
//! at once against one field at a time.
#![allow(clippy::needless_range_loop, reason = "the field index also places the field")]

use hdl_gen::manifest::Port;
use proptest::prelude::*;
use verif::frame::{get_bits, set_bits, Frame, Slot};

proptest! {
    #[test]
    fn set_then_get_round_trips(fw in 1usize..=64, n in 1usize..40, vals in proptest::collection::vec(any::<u64>(), 40)) {
        let words = (fw * n).div_ceil(64);
        let mut f = vec![0u64; words];
        for i in 0..n { set_bits(&mut f, i * fw, fw, vals[i]); }
        let mask = if fw == 64 { u64::MAX } else { (1u64 << fw) - 1 };
        for i in 0..n { prop_assert_eq!(get_bits(&f, i * fw, fw), vals[i] & mask); }
        // bits past the last field stay zero
        let used = fw * n;
        if used % 64 != 0 { prop_assert_eq!(f[words - 1] >> (used % 64), 0); }
    }

    #[test]
    fn set_fields_packs_like_one_set_field_per_field(fw in 1u32..=64, n in 1u32..40, vals in proptest::collection::vec(any::<u64>(), 40), junk in any::<u64>()) {
        let mask = if fw == 64 { u64::MAX } else { (1u64 << fw) - 1 };
        let port = Port::input("p_i", fw * n, "").fields(n);
        let slot = Slot::new(&port, 1);
        let words = 2 + slot.words;
        // every word starts as junk in the slot, so stale bits would show
        let (mut by_field, mut packed) = (Frame::zeroed(words), Frame::zeroed(words));
        for f in [&mut by_field, &mut packed] {
            f.words[slot.word..slot.word + slot.words].fill(junk);
            f.words[slot.word + slot.words - 1] &= slot.last_mask();
        }
        for i in 0..n as usize { by_field.set_field(&slot, i, vals[i] & mask); }
        packed.set_fields(&slot, vals[..n as usize].iter().map(|v| v & mask));
        prop_assert_eq!(&packed.words, &by_field.words);
        for i in 0..n as usize { prop_assert_eq!(packed.field(&slot, i), vals[i] & mask); }
    }
}
