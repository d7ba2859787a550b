//! rust-hdl leaf blocks. Widths and depths that come from a config are
//! monomorphized over a supported set (see `crate::gpucc`); everything
//! config-shaped above them is built by askama templates.
//!
//! Every leaf, here and in `crate::noc::leaf`, has its tests beside it: lint and
//! synthesis of its emitted Verilog and a behaviour test against golden or a
//! hand-derived reference, through the test support in `check` (test builds only).

#[cfg(test)]
pub(crate) mod check;
pub mod cr;
pub mod fifo;
pub mod mode;
pub mod prim;
