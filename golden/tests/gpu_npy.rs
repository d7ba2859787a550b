//! Tests of `golden::gpu::npy` (`golden/src/gpu/npy.rs`).

use golden::gpu::host::HostBuffer;
use golden::gpu::npy::*;

#[test]
fn header_is_padded_to_64_bytes_and_parses_back() {
    let b = HostBuffer::from_f32("x", &[1.0, 2.0, 3.0]);
    let bytes = encode(&b);
    let hl = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + hl) % 64, 0);
    assert_eq!(bytes[10 + hl - 1], b'\n');
    let h = parse_header(&bytes).unwrap();
    assert_eq!((h.descr.as_str(), h.fortran_order, h.shape.clone()), ("<f4", false, vec![3]));
    assert_eq!(&bytes[h.data_offset..], &b.data[..]);
}

#[test]
fn a_header_numpy_wrote_parses() {
    // the header numpy.save writes for np.arange(5, dtype='<i4'): a 58-character
    // dict, padded so magic + version + length + header = 128 bytes
    let dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }";
    let mut f = b"\x93NUMPY\x01\x00".to_vec();
    let header = format!("{dict}{}\n", " ".repeat(128 - 10 - dict.len() - 1));
    f.extend_from_slice(&(header.len() as u16).to_le_bytes());
    f.extend_from_slice(header.as_bytes());
    let h = parse_header(&f).unwrap();
    assert_eq!((h.descr.as_str(), h.shape.clone(), h.data_offset), ("<i4", vec![5], 128));
}
