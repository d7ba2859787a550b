//! rust-hdl leaf blocks of MACRO-NoC and the VC routers.
//!
//! Reply plane: [`ctrl`] (overlay controller), [`hinge`] (the hinge router's leaves),
//! [`rom`] (route lookup ROM), [`mc_ni`] (MC network interface), [`gom`] (Global
//! Overlay Manager).

pub mod ctrl;
pub mod gom;
pub mod hinge;
pub mod mc_ni;
pub mod rom;
pub mod vc;
