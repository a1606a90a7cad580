//! The toolkit every rule uses, below both the runtimes (whose own rules
//! judge their native manifests) and `validate` (which detects what a folder
//! is and runs every rule over it): rules, findings, a folder view, manifest
//! documents with positions.

pub(crate) mod doc;
mod findings;
pub(crate) mod folder;
pub(crate) mod jsonc;
pub(crate) mod manifest_rules;
pub(crate) mod marketplace;
mod rule;

pub use findings::ValidationFinding;
pub use rule::{Rule, RuleSeverity};

pub(crate) use findings::Sink;
pub(crate) use folder::Folder;

/// What a runtime's own rules see: the folder of the plugin being judged.
pub(crate) struct Cx<'a> {
    pub folder: Folder<'a>,
}
