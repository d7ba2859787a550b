//! MACRO-NoC and baseline mesh benches (port maps + traffic). Placeholder: being written.

use golden::noc::config::NocConfig;
use hdl_gen::design::Design;

use crate::lockstep::{CosimError, Options, Report};
use crate::rtl::Rtl;

/// Co-simulate one generated NoC design (plane, router or combined top).
pub fn cosim(_c: &NocConfig, design: &Design, _rtl: &mut Rtl, opts: &Options) -> Result<Report, CosimError> {
    Err(CosimError::Invariant {
        top: design.manifest.top.clone(),
        cycle: 0,
        seed: opts.seed,
        message: "NoC co-simulation is not implemented yet".into(),
    })
}
