//! What every golden-side scoreboard reports: one broken spec §4.3 invariant.

use std::fmt;

/// One broken invariant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub cycle: u64,
    /// The spec's invariant, e.g. "4 firing rule".
    pub invariant: &'static str,
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cycle {}: invariant {} violated: {}", self.cycle, self.invariant, self.detail)
    }
}
