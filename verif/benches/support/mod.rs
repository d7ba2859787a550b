//! Code shared by the bench targets (a directory, so cargo does not take it for a
//! bench target of its own).

#![allow(dead_code)]

pub mod bench_ratio;
pub mod cosim_speed;
