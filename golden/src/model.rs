//! What a golden block model is to a testbench: a clocked model ([`Model`]), what drives
//! it ([`Stimulus`]) and what watches it ([`Scoreboard`]).
//!
//! The cycle discipline is BookSim's Evaluate/Update and PyMTL3's update_ff, written
//! down once: every cycle the stimulus sets the inputs (it may look at the model's
//! registered state and last cycle's outputs), [`Model::eval`] computes this cycle's
//! outputs from registered state and these inputs, the scoreboard checks them, and
//! [`Model::commit`] takes the model through the rising clock edge. The synchronous
//! reset travels in the inputs, as the `rst_i` wire does; a testbench asserts it in
//! cycle 0 with [`Model::assert_reset`].
//!
//! `verif::bench::ModelBench` runs any `Model` in lockstep with its generated RTL given
//! only a port map; studies run the same models without a bench.

use crate::invariant::Violation;

/// A cycle-accurate golden model of one block (or one design built from blocks).
pub trait Model {
    /// Everything the block's input ports carry in one cycle, reset included.
    type In: Clone;
    /// Everything its output ports carry in one cycle.
    type Out;
    /// Inputs with every port idle (reset deasserted).
    fn idle_inputs(&self) -> Self::In;
    /// An output buffer of the right shape.
    fn new_outputs(&self) -> Self::Out;
    /// This cycle's outputs for `inputs`, from registered state only. May prepare the
    /// next state; must not make it current.
    fn eval(&mut self, inputs: &Self::In, outputs: &mut Self::Out);
    /// The rising clock edge: the next state (for this cycle's `inputs`) becomes current.
    fn commit(&mut self, inputs: &Self::In);
    /// Mark `inputs` as a cycle with the synchronous reset asserted.
    fn assert_reset(inputs: &mut Self::In);

    /// Take the model through one clock edge with the reset asserted and every other
    /// input idle: the state a reset leaves (for studies that reuse a model).
    fn reset(&mut self) {
        let mut i = self.idle_inputs();
        Self::assert_reset(&mut i);
        let mut o = self.new_outputs();
        self.eval(&i, &mut o);
        self.commit(&i);
    }
}

/// Drives a model's inputs, cycle by cycle (random legal traffic or a directed
/// scenario).
pub trait Stimulus<M: Model> {
    /// Set this cycle's inputs. `model` is the state after the last edge (its
    /// state-only queries and registered outputs are fair game), `prev` the outputs of
    /// the last cycle.
    fn drive(&mut self, model: &M, prev: &M::Out, inputs: &mut M::In);
}

/// An independent check of a model's ports against the spec's invariants.
pub trait Scoreboard<M: Model> {
    /// Look at one cycle; the first broken invariant is an error.
    fn observe(&mut self, cycle: u64, inputs: &M::In, outputs: &M::Out) -> Result<(), Violation>;
}

/// Inputs that stay as the caller left them: directed tests set `inputs` between cycles.
#[derive(Debug, Clone)]
pub struct Manual<I> {
    pub inputs: I,
}

impl<M: Model> Stimulus<M> for Manual<M::In> {
    fn drive(&mut self, _model: &M, _prev: &M::Out, inputs: &mut M::In) {
        inputs.clone_from(&self.inputs);
    }
}
