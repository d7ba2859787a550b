//! rust-hdl leaf blocks. Widths and depths that come from a config are
//! monomorphized over a supported set (see `crate::gpucc`); everything
//! config-shaped above them is built by askama templates.

#[cfg(test)]
pub(crate) mod check;
pub mod cr;
pub mod fifo;
pub mod mode;
pub mod prim;
