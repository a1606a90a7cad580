//! The toolkit every rule uses, below both the runtimes (whose own rules
//! judge their native manifests) and `validate` (which detects what a folder
//! is and runs every rule over it): rules, findings, a folder view, manifest
//! documents with positions.

pub(crate) mod component_rules;
pub(crate) mod doc;
mod findings;
pub(crate) mod folder;
pub(crate) mod jsonc;
pub(crate) mod layout;
pub(crate) mod manifest_rules;
pub(crate) mod markdown;
pub(crate) mod marketplace;
mod rule;

pub use rule::{Rule, RuleSeverity};

pub(crate) use findings::Sink;
pub(crate) use folder::Folder;

/// What a rule sees of the plugin being judged: its folder, and how the
/// runtime judging it reads files.
#[derive(Clone, Copy)]
pub(crate) struct Cx<'a> {
    pub folder: Folder<'a>,
    /// The id of the runtime judging it (`None` for a source judged for every target).
    pub runtime: Option<crate::registry::Runtime>,
    /// The runtime's frontmatter reader is lenient: it reads an unclosed
    /// block as body text and values only valid once quoted (Claude Code).
    pub lenient_frontmatter: bool,
}
