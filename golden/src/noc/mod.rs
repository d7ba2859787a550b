//! MACRO-NoC (seed 003, spec `macro_noc.md`): hinge-router reply plane, overlay
//! controller, GOM, request-plane and baseline VC routers, golden meshes.

pub mod config;
pub mod sim;
