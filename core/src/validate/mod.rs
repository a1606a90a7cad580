//! `validate`: judges any plugin folder (a plugforge source, a native bundle
//! of any runtime, a marketplace root) against a catalog of rules with stable
//! codes, and reports every finding with its file, line and fix.

mod catalog;
mod detect;
mod findings;
mod folder;

mod components;
mod extension;
mod hooks;
mod manifest;
mod marketplace;
mod mcp;
mod secrets;
mod skills;
mod source;

use serde::Deserialize;

pub use catalog::{Rule, RuleSeverity, rule, rules};
pub use detect::{Subject, SubjectKind};
pub use findings::{ValidationFinding, ValidationReport};

pub(crate) use findings::Sink;
pub(crate) use folder::Folder;

use crate::error::Result;
use crate::runtime::Runtime;
use crate::source::SourceTree;

/// What `validate` checks against.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateOptions {
    /// A runtime id; `None` detects the runtimes from the folder's markers.
    #[serde(default)]
    pub target: Option<String>,
    /// Warnings count as errors (as `claude plugin validate --strict` does).
    #[serde(default)]
    pub strict: bool,
}

/// What every rule sees: the whole tree, the subject being judged, and the
/// runtime it is judged for.
pub(crate) struct Context<'a> {
    pub tree: &'a SourceTree,
    pub subject: &'a Subject,
    pub folder: Folder<'a>,
    pub runtime: Option<Runtime>,
}

/// Judges `tree`. Fails only on bad options (an unknown `target`); every
/// problem of the folder itself is a finding in the report.
pub fn validate(tree: &SourceTree, options: &ValidateOptions) -> Result<ValidationReport> {
    let target = options.target.as_deref().map(Runtime::parse).transpose()?;
    let mut sink = Sink::default();
    let subjects = detect::subjects(tree, target, &mut sink);
    for subject in &subjects {
        let cx =
            Context { tree, subject, folder: Folder::new(tree, &subject.root), runtime: subject.runtime };
        check(&cx, &mut sink);
    }
    Ok(sink.finish(subjects, options.strict))
}

/// Every area's rules over one subject.
fn check(cx: &Context<'_>, sink: &mut Sink) {
    match cx.subject.kind {
        SubjectKind::Source => source::check(cx, sink),
        SubjectKind::Marketplace => marketplace::check(cx, sink),
        SubjectKind::Plugin => check_plugin(cx, sink),
    }
    extension::check(cx, sink);
}

/// The native rules of a runtime's plugin: also what each bundle built from
/// a source must pass.
pub(crate) fn check_plugin(cx: &Context<'_>, sink: &mut Sink) {
    manifest::check(cx, sink);
    skills::check(cx, sink);
    components::check(cx, sink);
    hooks::check(cx, sink);
    mcp::check(cx, sink);
    secrets::check(cx, sink);
}
