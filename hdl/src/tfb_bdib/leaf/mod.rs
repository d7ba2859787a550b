//! The BDIB's rust-hdl leaf: the per-warp control ([`warp_ctl`]): occupancy count and
//! the `in_bar` / `fence_wait` bits of the §2.7 state machine. The entry storage is
//! the framework's registers (`gf_reg_w*`) and everything config-shaped above them
//! (warps x entries x WAR ports) is the askama template `templates/tfb_bdib/top.v`.

pub mod warp_ctl;
