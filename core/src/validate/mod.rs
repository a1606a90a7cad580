//! `validate`: judges any plugin folder (a plugforge source, a native bundle
//! of any runtime, a marketplace root) against a catalog of rules with stable
//! codes, and reports every finding with its file, line and fix.

mod catalog;
mod detect;
mod findings;

mod components;
mod extension;
mod hooks;
mod manifest;
mod marketplace;
mod mcp;
pub(crate) mod secrets;
mod skills;
mod source;
mod urls;

use serde::Deserialize;

pub use catalog::{Rule, rule, rules};
pub use detect::{Subject, SubjectKind};
pub use findings::ValidationReport;

pub(crate) use crate::lint::{Folder, Sink};

use crate::error::Result;
use crate::runtime::Runtime;
use crate::source::SourceTree;

/// What `validate` checks against.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateOptions {
    /// A runtime id; `None` detects the runtimes from the folder's markers.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Runtime>", optional = nullable))]
    pub target: Option<String>,
    /// Warnings count as errors (as `claude plugin validate --strict` does).
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
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

impl<'a> Context<'a> {
    /// What a rule below the runtimes sees of the subject.
    pub(crate) fn lint(&self) -> crate::lint::Cx<'a> {
        crate::lint::Cx {
            folder: self.folder,
            runtime: self.runtime,
            lenient_frontmatter: self.runtime.is_some_and(|r| r.spec().reads.lenient_frontmatter),
        }
    }
}

/// Judges `tree`. Fails only on bad options (an unknown `target`) and on a
/// folder over a limit; every other problem of the folder itself is a
/// finding in the report.
pub fn validate(tree: &SourceTree, options: &ValidateOptions) -> Result<ValidationReport> {
    tree.check_limits()?;
    let target = options.target.as_deref().map(Runtime::parse).transpose()?;
    let mut sink = Sink::default();
    let subjects = detect::subjects(tree, target, &mut sink);
    for subject in &subjects {
        let cx =
            Context { tree, subject, folder: Folder::new(tree, &subject.root), runtime: subject.runtime };
        match detect::loaded_format(subject) {
            Some(format) => check_loaded(&cx, format, &mut sink),
            None => check(&cx, &mut sink),
        }
    }
    Ok(findings::finish(sink, subjects, options.strict))
}

/// Every area's rules over one subject.
fn check(cx: &Context<'_>, sink: &mut Sink) {
    match cx.subject.kind {
        SubjectKind::Source => source::check(cx, sink),
        SubjectKind::Marketplace => marketplace::check(cx, sink),
        SubjectKind::Plugin => check_plugin(cx, sink),
        SubjectKind::Skills => skills::check(cx, sink),
    }
    extension::check(cx, sink);
}

/// A bundle in `format` loaded by another runtime (OpenClaw loading a Claude
/// Code plugin): the loader reads the format's manifest, hooks and servers
/// as that format defines them, so the format's rules judge them, each
/// finding naming the loading runtime. Only their errors count: a warning
/// is the format's runtime's own advice about a bundle it still loads
/// (metadata for its marketplace, files it ignores). Skills are the
/// loader's own: it finds them in the format's folders and judges them as
/// its skills.
fn check_loaded(cx: &Context<'_>, format: Runtime, sink: &mut Sink) {
    let Some(loader) = cx.runtime else { return };
    let as_format = Context { runtime: Some(format), ..*cx };
    let mut native = Sink::default();
    manifest::check(&as_format, &mut native);
    components::check(&as_format, &mut native);
    hooks::check(&as_format, &mut native);
    mcp::check(&as_format, &mut native);
    secrets::check(&as_format, &mut native);
    native.retain_errors();
    // The name Claude Code keeps for Anthropic is its own policy, not part
    // of the format another runtime loads.
    native.drop_rules(&[&manifest::rules::NAME_RESERVED]);
    let note = format!("{} loads the folder as a {} bundle", loader.name(), format.name());
    native.forward(sink, loader, Some(&note));
    skills::check_loaded(cx, format, sink);
    extension::check(cx, sink);
}

/// The native rules of a runtime's plugin: also what each bundle built from
/// a source must pass.
pub(crate) fn check_plugin(cx: &Context<'_>, sink: &mut Sink) {
    manifest::check(cx, sink);
    skills::check(cx, sink);
    if let Some(check) = cx.runtime.and_then(|r| r.spec().reads.check_plugin) {
        if cx.subject.kind == SubjectKind::Plugin {
            check(&cx.lint(), sink);
        }
    }
    components::check(cx, sink);
    hooks::check(cx, sink);
    mcp::check(cx, sink);
    secrets::check(cx, sink);
    urls::check(cx, sink);
}
