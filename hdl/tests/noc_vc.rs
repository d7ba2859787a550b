//! Tests of `hdl_gen::noc::vc` (`hdl/src/noc/vc.rs`).

use golden::noc::config::{coord_widths, VC_BUF_DEPTHS, VC_MAX};
use golden::noc::flit::vc_flit_widths;
use hdl_gen::catalog::Catalog;
use hdl_gen::design::GenError;
use hdl_gen::library::Library;
use hdl_gen::noc::catalog::NocModule;
use hdl_gen::noc::vc::*;

/// The literal lists `dispatch!` needs are the sets golden derives and validates.
#[test]
fn monomorphized_sets_are_the_golden_sets() {
    assert_eq!(MONO_FLIT_WIDTHS.to_vec(), vc_flit_widths());
    assert_eq!(MONO_VC_COUNTS.to_vec(), (1..=VC_MAX).collect::<Vec<u32>>());
    assert_eq!(MONO_BUF_DEPTHS.to_vec(), VC_BUF_DEPTHS.to_vec());
    assert_eq!(MONO_COORD_WIDTHS.to_vec(), coord_widths());
}

/// Every supported flit width emits a buffer and a crossbar; a width between
/// two supported ones is refused with the field named.
#[test]
fn supported_flit_widths_emit_and_others_are_refused() {
    let mut lib = Library::default();
    for fw in vc_flit_widths() {
        let b = emit_buffer(&mut lib, fw, 2).unwrap();
        let x = emit_xbar(&mut lib, fw, 1).unwrap();
        assert!(lib.contains(&b) && lib.contains(&x), "{fw}");
        assert_eq!(b, NocModule::VcBuffer { fw, depth: 2 }.name());
    }
    match emit_buffer(&mut lib, 39, 2) {
        Err(GenError::Unsupported { field, allowed, .. }) => {
            assert_eq!(field, "flit_width");
            assert_eq!(allowed, "32, 64, 128, 256-bit data on a 2..=8 mesh");
        }
        other => panic!("39-bit flits: {other:?}"),
    }
}

/// The LLC-Compute platform's router (8 VCs x 8 flits, 256-bit data on an 8x8
/// mesh: 270-bit flits) emits every leaf; a ninth VC is refused with the range.
#[test]
fn eight_vcs_and_256_bit_flits_emit_and_nine_vcs_are_refused() {
    let mut lib = Library::default();
    emit_control(&mut lib, 8, 8).unwrap();
    let x = emit_xbar(&mut lib, 270, 8).unwrap();
    assert_eq!(x, NocModule::Crossbar { fw: 270, v: 8 }.name());
    assert!(lib.contains(&NocModule::RrArb { n: 40 }.name()) && lib.contains(&NocModule::VcAlloc { v: 8, depth: 8 }.name()));
    match emit_control(&mut lib, 9, 8) {
        Err(GenError::Unsupported { field, allowed, .. }) => assert_eq!((field.as_str(), allowed.as_str()), ("vcs", "1..=8")),
        other => panic!("9 VCs: {other:?}"),
    }
}
