//! One generic lockstep bench for every golden [`Model`]: a block supplies only a
//! [`PortMap`] (its golden input/output structs to port frames), a [`Stimulus`] and,
//! optionally, a [`Scoreboard`]; [`ModelBench`] does the cycle (PyMTL3's one harness for
//! every component).
//!
//! Each cycle: the stimulus drives the inputs (reset asserted in cycle 0), the model
//! evaluates, the scoreboard checks the ports, the model commits, and inputs and
//! expected outputs are packed for the lockstep runner. Benches of designs that hold
//! several models side by side (a top with two planes) are tuples or vectors of
//! benches: each packs its own ports of the same frames.

use golden::invariant::Violation;
use golden::model::{Model, Scoreboard, Stimulus};

use crate::frame::{Frame, Layout};
use crate::lockstep::Bench;

/// A block's golden port structs to and from a design's port frames.
pub trait PortMap<M: Model> {
    /// Write this cycle's inputs (reset included) to the input frame.
    fn pack_inputs(&self, inputs: &M::In, frame: &mut Frame);
    /// Write the golden outputs to the expected-output frame.
    fn pack_outputs(&self, outputs: &M::Out, frame: &mut Frame);
}

/// A golden model in lockstep with its RTL: stimulus, optional scoreboard, port map.
pub struct ModelBench<M: Model, P, S, C> {
    pub model: M,
    pub stim: S,
    /// None when co-simulating without the scoreboard (`--no-check`).
    pub checker: Option<C>,
    pub ports: P,
    /// Name used in scoreboard findings (a plane of a multi-plane top).
    pub name: String,
    pub inputs: M::In,
    pub outputs: M::Out,
    pub prev: M::Out,
}

impl<M, P, S, C> ModelBench<M, P, S, C>
where
    M: Model,
    P: PortMap<M>,
    S: Stimulus<M>,
    C: Scoreboard<M>,
{
    pub fn new(model: M, stim: S, checker: Option<C>, ports: P) -> Self {
        let (inputs, outputs, prev) = (model.idle_inputs(), model.new_outputs(), model.new_outputs());
        ModelBench { model, stim, checker, ports, name: String::new(), inputs, outputs, prev }
    }

    /// Prefix scoreboard findings with `name`.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Run without the scoreboard.
    pub fn without_checker(mut self) -> Self {
        self.checker = None;
        self
    }
}

impl<M, P, S, C> Bench for ModelBench<M, P, S, C>
where
    M: Model,
    P: PortMap<M>,
    S: Stimulus<M>,
    C: Scoreboard<M>,
{
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        self.stim.drive(&self.model, &self.prev, &mut self.inputs);
        if cycle == 0 {
            M::assert_reset(&mut self.inputs);
        }
        self.model.eval(&self.inputs, &mut self.outputs);
        if let Some(c) = self.checker.as_mut() {
            c.observe(cycle, &self.inputs, &self.outputs).map_err(|mut v| {
                if !self.name.is_empty() {
                    v.detail = format!("{}: {}", self.name, v.detail);
                }
                v
            })?;
        }
        self.model.commit(&self.inputs);
        self.ports.pack_inputs(&self.inputs, inputs);
        self.ports.pack_outputs(&self.outputs, expected);
        std::mem::swap(&mut self.prev, &mut self.outputs);
        Ok(())
    }

    fn checked(&self) -> bool {
        self.checker.is_some()
    }
}

/// No scoreboard (for designs whose bench has none).
pub struct NoScoreboard;

impl<M: Model> Scoreboard<M> for NoScoreboard {
    fn observe(&mut self, _: u64, _: &M::In, _: &M::Out) -> Result<(), Violation> {
        Ok(())
    }
}

/// Two benches on disjoint ports of one design.
impl<A: Bench, B: Bench> Bench for (A, B) {
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        self.0.cycle(cycle, inputs, expected)?;
        self.1.cycle(cycle, inputs, expected)
    }

    fn checked(&self) -> bool {
        self.0.checked() && self.1.checked()
    }
}

/// Several benches on disjoint ports of one design (the planes of a top).
impl<B: Bench> Bench for Vec<B> {
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        self.iter_mut().try_for_each(|b| b.cycle(cycle, inputs, expected))
    }

    fn checked(&self) -> bool {
        self.iter().all(|b| b.checked())
    }
}

impl Bench for Box<dyn Bench> {
    fn cycle(&mut self, cycle: u64, inputs: &mut Frame, expected: &mut Frame) -> Result<(), Violation> {
        (**self).cycle(cycle, inputs, expected)
    }

    fn checked(&self) -> bool {
        (**self).checked()
    }
}

fn find<'l>(layout: &'l Layout, port: &str) -> Result<&'l crate::frame::Slot, String> {
    layout.inputs.iter().chain(&layout.outputs).find(|s| s.name == port).ok_or_else(|| format!("{} has no port `{port}`", layout.top))
}

/// Check that a design's layout has the port a port map needs, with the width the
/// config implies: a design generated from another config is a loud error, not a
/// silently mis-packed frame.
pub fn expect_fields(layout: &Layout, port: &str, fields: usize) -> Result<(), String> {
    let slot = find(layout, port)?;
    if slot.fields as usize != fields {
        return Err(format!("{}: port `{port}` has {} fields, the config implies {fields} (design and config disagree)", layout.top, slot.fields));
    }
    Ok(())
}

/// Check that port `port` is `width` bits wide (the width the block's field table
/// gives for the config): the same loud error as [`expect_fields`].
pub fn expect_width(layout: &Layout, port: &str, width: u32) -> Result<(), String> {
    let slot = find(layout, port)?;
    if slot.width != width {
        return Err(format!("{}: port `{port}` is {} bits wide, the config implies {width} (design and config disagree)", layout.top, slot.width));
    }
    Ok(())
}
