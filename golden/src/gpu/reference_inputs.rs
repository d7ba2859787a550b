//! How a Rust reference ([`super::workloads`], [`super::suite`]) reads its inputs: the
//! launch's initial buffers by name and its `[check.params]`, each with the range the
//! reference can take, so a launch file the reference cannot serve is an error naming
//! `check.params.<name>` or the buffer, never a panic or an absurd allocation.

use std::collections::BTreeMap;

use super::host::{HostBuffer, HostBuffers};

/// A launch's `[check.params]`.
pub type Params = BTreeMap<String, f64>;

/// Largest integer check parameter of the shipped references: no buffer holds more
/// elements.
pub const MAX_UPARAM: usize = 1 << 32;

pub fn buf<'a>(b: &'a HostBuffers, name: &str) -> Result<&'a HostBuffer, String> {
    b.get(name).ok_or_else(|| format!("the reference needs a buffer named `{name}`"))
}

pub fn f32s(b: &HostBuffers, name: &str) -> Result<Vec<f32>, String> {
    Ok(buf(b, name)?.f32s())
}

pub fn u32s(b: &HostBuffers, name: &str) -> Result<Vec<u32>, String> {
    Ok(buf(b, name)?.u32s())
}

pub fn i32s(b: &HostBuffers, name: &str) -> Result<Vec<i32>, String> {
    Ok(buf(b, name)?.u32s().into_iter().map(|v| v as i32).collect())
}

/// A check parameter.
pub fn param(p: &Params, name: &str) -> Result<f64, String> {
    p.get(name).copied().ok_or_else(|| format!("the reference needs `check.params.{name}`"))
}

pub fn fparam(p: &Params, name: &str) -> Result<f32, String> {
    Ok(param(p, name)? as f32)
}

/// An integer parameter in `min..=max` (the bound keeps a mutated launch from asking the
/// reference for an absurd amount of work or memory).
pub fn uparam_in(p: &Params, name: &str, min: usize, max: usize) -> Result<usize, String> {
    let v = param(p, name)?;
    if !(v.fract() == 0.0 && v >= min as f64 && v <= max as f64) {
        return Err(format!("`check.params.{name}` = {v} is out of range (allowed: an integer in {min}..={max})"));
    }
    Ok(v as usize)
}

/// An integer parameter in `0..=`[`MAX_UPARAM`].
pub fn uparam(p: &Params, name: &str) -> Result<usize, String> {
    uparam_in(p, name, 0, MAX_UPARAM)
}

/// A product of sizes, or an error naming them when it overflows.
pub fn product(factors: &[usize], what: &str) -> Result<usize, String> {
    factors.iter().try_fold(1usize, |a, &f| a.checked_mul(f)).ok_or_else(|| format!("{what}: {factors:?} overflows"))
}

/// Buffer `name` has at least `want` elements.
pub fn need(len: usize, want: usize, name: &str) -> Result<(), String> {
    if len < want {
        Err(format!("buffer `{name}` has {len} elements, the reference needs {want}"))
    } else {
        Ok(())
    }
}
