//! What a marketplace entry's `source` points at, and the readings of it
//! that several runtimes share.

use super::doc::{PathProblem, relative_path};

/// What an entry's `source` points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A folder relative to the marketplace root ("" = the root itself).
    Local(String),
    /// A git repository, URL or package: not judged offline.
    Remote,
    /// A value the runtime refuses or skips, and why.
    Invalid(String),
    Missing,
}

/// An object source's kind (`{"source": "github", ...}`) among `known`.
pub(crate) fn remote_kind(kind: Option<&str>, known: &[&str]) -> Source {
    match kind {
        Some(kind) if known.contains(&kind) => Source::Remote,
        Some(kind) => Source::Invalid(format!("unknown source kind {kind:?} (known: {})", known.join(", "))),
        None => Source::Invalid("an object source needs a \"source\" kind".into()),
    }
}

/// `./path` inside the marketplace root (Claude Code and Codex). A runtime
/// that skips the root itself is named by `root_skipped_by`.
pub(crate) fn dot_path(path: &str, root_skipped_by: Option<&str>) -> Source {
    let rel = relative_path(path);
    if rel.is_ok() && !path.starts_with("./") {
        return Source::Invalid(format!("{path:?} does not start with ./"));
    }
    match (rel, root_skipped_by) {
        (Ok(rel), Some(runtime)) if rel.is_empty() => {
            Source::Invalid(format!("{path:?} names the marketplace root itself, which {runtime} skips"))
        }
        (Ok(rel), _) => Source::Local(rel),
        (Err(PathProblem::Escapes), _) => Source::Invalid(format!(
            "{path:?} contains \"..\"; sources resolve from the marketplace root (the folder holding the marketplace's dot-folder), not from marketplace.json"
        )),
        (Err(PathProblem::Absolute), _) => {
            Source::Invalid(format!("{path:?} is absolute; write it as ./<folder>"))
        }
    }
}
