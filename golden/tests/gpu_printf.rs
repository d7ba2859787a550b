//! Tests of `golden::gpu::printf` (`golden/src/gpu/printf.rs`).

use golden::gpu::printf::*;

/// Arguments laid out at address 0x100, strings at 0x1000.
struct Buf(Vec<u8>, Vec<u8>);
impl ArgSource for Buf {
    fn bytes(&mut self, addr: u64, len: usize) -> Option<Vec<u8>> {
        let (base, data) = if addr >= 0x1000 { (0x1000, &self.1) } else { (0x100, &self.0) };
        let o = (addr - base) as usize;
        data.get(o..o + len).map(|s| s.to_vec())
    }
}

#[test]
fn huge_widths_and_precisions_are_clamped() {
    let mut b = Buf(7i32.to_le_bytes().to_vec(), Vec::new());
    // 30 digits would overflow usize; the field is clamped, not allocated
    let s = format("%999999999999999999999999999999d", 0x100, &mut b).unwrap();
    assert_eq!(s.len(), MAX_FIELD);
    assert!(s.ends_with('7') && s.starts_with(' '));
    let mut b = Buf(7i32.to_le_bytes().to_vec(), Vec::new());
    let s = format("%.99999999999999999999d", 0x100, &mut b).unwrap();
    assert_eq!(s.len(), MAX_FIELD);
}

#[test]
fn c_format_strings() {
    // int -5, pad, double 3.25, u64 2^40, char 'A' (int), string pointer
    let mut a = Vec::new();
    a.extend_from_slice(&(-5i32).to_le_bytes());
    a.extend_from_slice(&[0; 4]);
    a.extend_from_slice(&3.25f64.to_le_bytes());
    a.extend_from_slice(&(1u64 << 40).to_le_bytes());
    a.extend_from_slice(&65u32.to_le_bytes());
    a.extend_from_slice(&[0; 4]);
    a.extend_from_slice(&0x1000u64.to_le_bytes());
    let mut b = Buf(a, b"hey\0".to_vec());
    let s = format("%d|%5.2f|%llu|%c|%s|%%|%x", 0x100, &mut b);
    // %x reads past the end of the buffer
    assert!(s.is_err());
    let s = format("%d|%5.2f|%llu|%c|%-5s|%%", 0x100, &mut b).unwrap();
    assert_eq!(s, "-5| 3.25|1099511627776|A|hey  |%");
    let s = format("%04d %+d %x %#X %o %e %g %g %.3g", 0x100, &mut b);
    assert!(s.is_err(), "only 6 arguments");
}

#[test]
fn c_float_forms() {
    assert_eq!(c_exp(1234.5, 2), "1.23e+03");
    assert_eq!(c_exp(0.00012, 1), "1.2e-04");
    assert_eq!(c_general(100000.0, 6, false), "100000");
    assert_eq!(c_general(1000000.0, 6, false), "1e+06");
    assert_eq!(c_general(0.0001, 6, false), "0.0001");
    assert_eq!(c_general(0.00001, 6, false), "1e-05");
    assert_eq!(c_general(3.25, 6, false), "3.25");
    assert_eq!(with_prec("7".into(), Some(3)), "007");
}
