//! What a generator can fail with.

/// Errors of the generators.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("template: {0}")]
    Template(#[from] askama::Error),
    /// A legal config the generator cannot build (exit status 2 at the CLI).
    #[error("{field}: {message} (allowed: {allowed})")]
    Unsupported { field: String, message: String, allowed: String },
    #[error("generator bug: {0}")]
    Bug(String),
}

impl From<crate::catalog::MissingDoc> for GenError {
    fn from(e: crate::catalog::MissingDoc) -> GenError {
        GenError::Bug(e.to_string())
    }
}

/// A generator bug: the same module name with two different bodies.
#[derive(Debug, thiserror::Error)]
#[error("generated module `{0}` has two different bodies")]
pub struct NameClash(pub String);

impl From<NameClash> for GenError {
    fn from(e: NameClash) -> GenError {
        GenError::Bug(e.to_string())
    }
}
