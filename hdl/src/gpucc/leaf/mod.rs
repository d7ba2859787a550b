//! GPU-CC's rust-hdl leaf blocks: the configuration register ([`cr`]), the operand and
//! address FIFOs ([`fifo`]) and the mode FSM ([`mode`]). Widths and depths that come
//! from a config are monomorphized over a supported set (see [`super::emit_fifo`]);
//! everything config-shaped above them is the askama template `templates/gpucc/net.v`.

pub mod cr;
pub mod fifo;
pub mod mode;
