//! Rules of the `marketplace` area: the marketplace files of Claude Code,
//! Codex and Cursor (`sources::marketplace_file`), their entries, and the
//! local plugins the entries point at.

mod collisions;
mod entries;
mod rules;
mod sources;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

pub use rules::RULES;
use rules::*;
pub(crate) use sources::marketplace_file;
use sources::{Source, join, source_of};

use super::Context;
use super::detect::Subject;
use crate::lint::Folder;
use crate::lint::Sink;
use crate::lint::doc::{Doc, Shape, describe, look_alike};
use crate::runtime::Runtime;
use crate::runtime::cursor::lint::is_cursor_name;
use crate::source::SourceTree;
const CLAUDE_KEYS: &[&str] = &[
    "$schema",
    "name",
    "owner",
    "plugins",
    "version",
    "description",
    "metadata",
    "forceRemoveDeletedPlugins",
    "allowCrossMarketplaceDependenciesOn",
    "renames",
];
const CURSOR_KEYS: &[&str] = &["name", "owner", "metadata", "plugins"];
const OWNER_KEYS: &[&str] = &["name", "email"];
/// Names Claude Code keeps for official marketplaces (`marketplace add`
/// refuses them).
const CLAUDE_RESERVED: &[&str] = &[
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "life-sciences",
    "knowledge-work-plugins",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "claude-community",
    "claude-plugins-community",
];
pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let Some(rel) = marketplace_file(runtime) else { return };
    let Some(value) = cx.folder.json(rel, sink) else { return };
    let Some(map) = value.as_object() else {
        let message = format!("marketplace.json is {}, not an object", describe(&value));
        sink.report(&NOT_AN_OBJECT, Some(runtime.id()), Some(cx.folder.at(rel)), message);
        return;
    };
    let doc = Doc { folder: cx.folder, rel, runtime: runtime.id(), map, invalid_field: &INVALID_FIELD };
    top_level(doc, sink);
    let Some(plugins) = doc.get("plugins") else {
        doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "",
            format!("plugins: missing; {} needs the list of plugins", runtime.id()),
        );
        return;
    };
    let Some(entries) = plugins.as_array().filter(|_| doc.expect(sink, "plugins", plugins, Shape::Array))
    else {
        return;
    };
    if entries.is_empty() && runtime == Runtime::ClaudeCode {
        doc.report(sink, &NO_PLUGINS, "plugins", "plugins: the marketplace lists no plugins");
    }
    let mut names =
        entries::Names { lines: entries::entry_name_lines(cx.folder, rel), seen: BTreeMap::new() };
    let mut roots: Vec<(String, String)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(local) = entries::check_entry(cx.tree, doc, sink, i, entry, &mut names) {
            roots.push(local);
        }
    }
    let locals: Vec<collisions::LocalPlugin<'_>> = roots
        .iter()
        .map(|(name, root)| collisions::LocalPlugin {
            name: name.clone(),
            folder: Folder::new(cx.tree, root),
        })
        .collect();
    collisions::check(doc, sink, &locals, &names.lines);
}

/// Folders of the plugins `marketplace` lists with a local source, so each
/// is judged as a plugin too.
pub(crate) fn local_plugin_roots(tree: &SourceTree, marketplace: &Subject) -> Vec<String> {
    let Some(runtime) = marketplace.runtime else { return Vec::new() };
    let Some(rel) = marketplace_file(runtime) else { return Vec::new() };
    let folder = Folder::new(tree, &marketplace.root);
    let Some(value) = folder.get(rel).and_then(|f| serde_json::from_slice::<Value>(&f.bytes).ok()) else {
        return Vec::new();
    };
    let mut roots: Vec<String> = Vec::new();
    for entry in value.get("plugins").and_then(Value::as_array).into_iter().flatten() {
        if let Source::Local(path) = source_of(runtime, entry) {
            let root = join(&marketplace.root, &path);
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
    roots
}

fn top_level(doc: Doc<'_>, sink: &mut Sink) {
    let runtime = runtime_of(&doc);
    match doc.get("name") {
        None => {
            doc.report(sink, &REQUIRED_FIELD_MISSING, "", "name: missing; every marketplace needs a name")
        }
        Some(Value::String(name)) => marketplace_name(doc, sink, name),
        Some(other) => {
            doc.expect(sink, "name", other, Shape::Str);
        }
    }
    if runtime != Runtime::Codex {
        owner(doc, sink);
    }
    match runtime {
        Runtime::ClaudeCode => {
            doc.expect_fields(
                sink,
                &[
                    ("$schema", Shape::Str),
                    ("version", Shape::Str),
                    ("description", Shape::Str),
                    ("metadata", Shape::Object),
                    ("forceRemoveDeletedPlugins", Shape::Bool),
                    ("allowCrossMarketplaceDependenciesOn", Shape::StrList),
                    ("renames", Shape::Object),
                ],
            );
            let described = doc.get("description").or_else(|| doc.get("metadata")?.get("description"));
            if described.is_none() {
                doc.report(
                    sink,
                    &DESCRIPTION_MISSING,
                    "",
                    "description: not set; a description tells users what the marketplace offers",
                );
            }
            unknown_keys(doc, sink, "", doc.map, CLAUDE_KEYS, &UNKNOWN_KEY);
        }
        Runtime::Cursor => {
            doc.expect_fields(sink, &[("metadata", Shape::Object)]);
            unknown_keys(doc, sink, "", doc.map, CURSOR_KEYS, &KEY_NOT_ALLOWED);
        }
        _ => doc.expect_fields(sink, &[("interface", Shape::Object)]),
    }
}

fn marketplace_name(doc: Doc<'_>, sink: &mut Sink, name: &str) {
    let problem = match runtime_of(&doc) {
        Runtime::ClaudeCode => claude_marketplace_name_problem(name),
        Runtime::Codex
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b)) =>
        {
            Some(
                "may hold only letters, digits, '_' and '-' (codex plugin marketplace add refuses it)"
                    .to_string(),
            )
        }
        Runtime::Cursor if !is_cursor_marketplace_name(name) => Some(
            "does not match ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$ (lowercase letters, digits and hyphens)"
                .to_string(),
        ),
        _ => None,
    };
    if let Some(problem) = problem {
        doc.report(sink, &NAME_INVALID, "name", format!("name: {name:?} {problem}"));
    } else if runtime_of(&doc) == Runtime::ClaudeCode && is_claude_reserved(name) {
        let message = format!(
            "name: {name:?} is reserved for or looks like an official Anthropic marketplace; claude plugin marketplace add refuses it"
        );
        doc.report(sink, &NAME_RESERVED, "name", message);
    }
}

fn claude_marketplace_name_problem(name: &str) -> Option<String> {
    let problem = if name.is_empty() {
        "is empty"
    } else if name.contains(' ') {
        "contains a space"
    } else if name.contains(['/', '\\']) || name.contains("..") || name == "." {
        "contains a path separator, \"..\" or is \".\""
    } else if ["inline", "builtin", "skills-dir"].contains(&name) {
        "is a name Claude Code uses for its own plugin sources"
    } else {
        return None;
    };
    Some(problem.to_string())
}

fn is_claude_reserved(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    CLAUDE_RESERVED.contains(&lower.as_str())
        || !name.is_ascii()
        || (lower.contains("official") && (lower.contains("claude") || lower.contains("anthropic")))
}

/// `^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`
fn is_cursor_marketplace_name(name: &str) -> bool {
    is_cursor_name(name) && !name.contains('.')
}

fn owner(doc: Doc<'_>, sink: &mut Sink) {
    let Some(owner) = doc.get("owner") else {
        let message =
            format!("owner: missing; {} needs the marketplace owner ({{\"name\": ...}})", doc.runtime);
        doc.report(sink, &REQUIRED_FIELD_MISSING, "", message);
        return;
    };
    let Some(owner) = owner.as_object().filter(|_| doc.expect(sink, "owner", owner, Shape::Object)) else {
        return;
    };
    match owner.get("name") {
        None => doc.report(sink, &REQUIRED_FIELD_MISSING, "owner", "owner.name: missing"),
        Some(name) => {
            doc.expect(sink, "owner.name", name, Shape::Str);
        }
    }
    if runtime_of(&doc) == Runtime::Cursor {
        unknown_keys(doc, sink, "owner", owner, OWNER_KEYS, &KEY_NOT_ALLOWED);
    }
}

/// Reports keys of `object` (at `field`) outside `known`.
fn unknown_keys(
    doc: Doc<'_>,
    sink: &mut Sink,
    field: &str,
    object: &Map<String, Value>,
    known: &[&str],
    rule: &'static crate::validate::Rule,
) {
    for key in object.keys().filter(|k| !known.contains(&k.as_str())) {
        let path = if field.is_empty() { key.clone() } else { format!("{field}.{key}") };
        let hint = look_alike(key, known).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        let message = if rule.code == UNKNOWN_KEY.code {
            format!("{path}: unknown field{hint}; Claude Code ignores it at load time")
        } else {
            format!("{path}: not allowed{hint}; Cursor's marketplace schema has additionalProperties: false")
        };
        let at = if field.is_empty() { key.as_str() } else { field };
        sink.report(rule, Some(doc.runtime), Some(doc.at(at)), message);
    }
}

/// The runtime whose marketplace `doc` is (its id was taken from that runtime).
pub(super) fn runtime_of(doc: &Doc<'_>) -> Runtime {
    Runtime::ALL.iter().copied().find(|r| r.id() == doc.runtime).unwrap_or(Runtime::DEFAULT)
}

#[cfg(test)]
mod tests;
