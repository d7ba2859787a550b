//! MACRO-NoC (seed 003, spec `macro_noc.md`): hinge-router reply plane, overlay
//! controller, GOM, request-plane and baseline VC routers, golden meshes.
//!
//! * [`config`]: the validated `[noc]` config and its derived tables (ROMs, groups).
//! * [`route_rom`]: the route-lookup ROM generator, its row encoding, legal sources,
//!   compatibility.
//! * [`field`]: named bit fields of the NoC encodings; [`flit`]: the VC planes' link
//!   and flit layout.
//! * [`link`]: the reply-plane link format, STATUS and GOMCFG payloads.
//! * [`overlay_ctrl`]: Algorithm 1 with the spec's fixes, in cycle-exact form.
//! * [`hinge_router`], [`mc_ni`], [`gom`]: the reply-plane blocks.
//! * [`reply_mesh`]: the reply plane as one block (`macro_reply_mesh`).
//! * [`vc_router`], [`vc_mesh`]: the wormhole VC router, its mesh and terminal NIs.
//! * [`check`]: independent scoreboards of the spec §4.3 invariants.
//! * [`mesh`]: golden meshes behind `golden::network::Network` (baseline, MACRO).
//! * [`traffic`]: synthetic traffic; [`sim`]: `gpuforge sim` runs and sweeps.

pub mod check;
pub mod config;
pub mod field;
pub mod flit;
pub mod gom;
pub mod hinge_router;
pub mod link;
pub mod mc_ni;
pub mod mesh;
pub mod overlay_ctrl;
pub mod reply_mesh;
pub mod route_rom;
pub mod sim;
pub mod traffic;
pub mod vc_mesh;
pub mod vc_router;

pub use config::NocConfig;
