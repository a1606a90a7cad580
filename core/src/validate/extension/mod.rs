//! Rules of the `extension` area: the `requires` / `conflicts` layer of
//! `plugforge.json` (carried into each bundle's generation manifest). It
//! fails closed on four fault classes: something on disk the declaration
//! does not cover, something declared that is not there, names colliding
//! across the plugins of one marketplace, and requirements nothing can
//! resolve. A plugin that declares neither key is not judged here.

mod contract;
mod declared;
mod facts;
mod market;
mod own;

use super::Context;
use super::detect::SubjectKind;
use crate::codes::{RuleCode, SharedRule};
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use facts::Facts;

pub const UNDECLARED_BINDING: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionUndeclaredBinding),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Every ${NAME} an MCP server or hook reads is a binding declared in \"requires\".",
    fix: "Add {\"name\": \"NAME\", \"description\": ...} to requires.bindings, or stop reading the variable.",
};

pub const UNUSED_BINDING: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionUnusedBinding),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Every declared binding is read by an MCP server, a hook or an executable of the plugin.",
    fix: "Reference the binding as ${NAME} where it is used, or remove it from requires.bindings.",
};

pub const UNKNOWN_CONFLICT: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionUnknownConflict),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "A declared conflict names a command, skill or agent the plugin defines.",
    fix: "Correct the name in \"conflicts\", or remove the entry if the component is gone.",
};

pub const COLLISION: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionCollision),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Plugins of one marketplace that define the same command, skill or agent name declare the conflict.",
    fix: "Rename one of the components, or add {\"command\"|\"skill\"|\"agent\": NAME, \"plugin\": OTHER, \"reason\": ...} to \"conflicts\".",
};

pub const MISSING_PLUGIN: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionMissingPlugin),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Every plugin in requires.plugins is listed in the same marketplace.",
    fix: "Add the required plugin to the marketplace, or remove it from requires.plugins.",
};

pub const SERVICE_CONTRACT: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionServiceContract),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Every required service has an http(s) health URL and a version range.",
    fix: "Give the service \"health\": \"https://.../health\" and \"version\": \">=1.2\" (a semver range).",
};

pub const BINDING_VALUE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionBindingValue),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "A binding is a name the broker resolves, never a value written into the plugin.",
    fix: "Remove the value (and rotate it if it was a secret); keep only \"name\" and \"description\".",
};

pub const INVALID_ENTRY: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ExtensionInvalidEntry),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Each requires/conflicts entry is well named and unique: env-style binding names, kebab-case plugin names, one component and the other plugin per conflict.",
    fix: "Follow the message: rename, deduplicate or complete the entry.",
};

pub const RULES: &[&Rule] = &[
    &UNDECLARED_BINDING,
    &UNUSED_BINDING,
    &UNKNOWN_CONFLICT,
    &COLLISION,
    &MISSING_PLUGIN,
    &SERVICE_CONTRACT,
    &BINDING_VALUE,
    &INVALID_ENTRY,
];

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    match cx.subject.kind {
        SubjectKind::Source => own::check(&Facts::of_source(&cx.folder, &cx.subject.marker), sink),
        SubjectKind::Plugin => own::check(&Facts::of_bundle(&cx.folder), sink),
        SubjectKind::Marketplace => market::check(cx, sink),
        // A folder of skills carries no generation manifest.
        SubjectKind::Skills => {}
    }
}
