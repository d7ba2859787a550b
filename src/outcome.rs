//! How a command ends: the exit-status contract every `gpuforge` subcommand shares
//! (0 success, 1 a failed check or a broken tool, 2 bad input), so the subcommands that
//! live in the library (`gpuforge study ...`, [`crate::study::cli`]) and those in
//! `src/main.rs` report alike.

use std::path::Path;

use golden::config::ConfigError;

/// A command's failure.
pub enum Fail {
    /// Bad input: exit status 2.
    Input(String),
    /// A check failed or a tool broke: exit status 1.
    Check(String),
}

impl From<ConfigError> for Fail {
    fn from(e: ConfigError) -> Self {
        Fail::Input(e.to_string())
    }
}

/// A command's result.
pub type Res = Result<(), Fail>;

/// An I/O error on `p`: exit status 1 (the input was fine, the machine was not).
pub fn io_fail(p: &Path, e: std::io::Error) -> Fail {
    Fail::Check(format!("{}: {e}", p.display()))
}
