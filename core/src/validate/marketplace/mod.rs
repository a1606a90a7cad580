//! Rules of the `marketplace` area: Claude Code's
//! `.claude-plugin/marketplace.json`, Codex's `.agents/plugins/marketplace.json`
//! and Cursor's `.cursor-plugin/marketplace.json`, their entries, and the
//! local plugins the entries point at.

mod collisions;
mod rules;
mod sources;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

pub use rules::RULES;
use rules::*;
use sources::{Source, holds_plugin, join, marketplace_file, plugin_manifest, source_of};

use super::Context;
use super::detect::Subject;
use super::findings::Sink;
use super::folder::Folder;
use super::manifest::doc::{Doc, Shape, describe, look_alike, string_pair_lines};
use super::manifest::is_cursor_name;
use crate::runtime::Runtime;
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
/// Entry keys beyond every plugin.json field.
const CLAUDE_ENTRY_KEYS: &[&str] = &[
    "name",
    "source",
    "category",
    "tags",
    "strict",
    "relevance",
    "$schema",
    "displayName",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "defaultEnabled",
    "dependencies",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "lspServers",
    "outputStyles",
    "themes",
    "monitors",
    "workflows",
    "experimental",
    "channels",
    "userConfig",
    "settings",
    "binaries",
];
const CURSOR_KEYS: &[&str] = &["name", "owner", "metadata", "plugins"];
const CURSOR_ENTRY_KEYS: &[&str] = &["name", "source", "description", "minClientVersions"];
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
const CODEX_INSTALLATION: &[&str] = &["NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"];
const CODEX_AUTHENTICATION: &[&str] = &["ON_INSTALL", "ON_USE"];

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let Some(rel) = marketplace_file(runtime) else { return };
    let Some(value) = cx.folder.json(rel, sink) else { return };
    let Some(map) = value.as_object() else {
        let message = format!("marketplace.json is {}, not an object", describe(&value));
        sink.report(&NOT_AN_OBJECT, Some(runtime.id()), Some(cx.folder.at(rel)), message);
        return;
    };
    let doc = Doc { folder: cx.folder, rel, runtime, map, invalid_field: &INVALID_FIELD };
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
    let mut names = Names { lines: entry_name_lines(cx.folder, rel), seen: BTreeMap::new() };
    let mut roots: Vec<(String, String)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(local) = check_entry(cx.tree, doc, sink, i, entry, &mut names) {
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

/// The lines of the `"name"` pairs from the `plugins` key on (so the
/// marketplace's own name is not taken for an entry's).
fn entry_name_lines(folder: Folder<'_>, rel: &str) -> BTreeMap<String, Vec<usize>> {
    let text = folder.get(rel).and_then(|f| std::str::from_utf8(&f.bytes).ok()).unwrap_or("");
    let start = text.find("\"plugins\"").unwrap_or(0);
    let offset = text[..start].matches('\n').count();
    let mut lines = string_pair_lines(&text[start..], "name");
    lines.values_mut().flatten().for_each(|line| *line += offset);
    lines
}

/// Entry names: where each `"name"` pair is, and how often each name was
/// seen so far.
struct Names {
    lines: BTreeMap<String, Vec<usize>>,
    seen: BTreeMap<String, usize>,
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
    let runtime = doc.runtime;
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
    let problem = match doc.runtime {
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
    } else if doc.runtime == Runtime::ClaudeCode && is_claude_reserved(name) {
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
            format!("owner: missing; {} needs the marketplace owner ({{\"name\": ...}})", doc.runtime.id());
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
    if doc.runtime == Runtime::Cursor {
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
        sink.report(rule, Some(doc.runtime.id()), Some(doc.at(at)), message);
    }
}

/// Checks one entry; returns its name and folder (in the validated tree)
/// when its source is a local plugin.
fn check_entry(
    tree: &SourceTree,
    doc: Doc<'_>,
    sink: &mut Sink,
    i: usize,
    entry: &Value,
    names: &mut Names,
) -> Option<(String, String)> {
    let field = format!("plugins[{i}]");
    let object = entry.as_object().filter(|_| doc.expect(sink, &field, entry, Shape::Object))?;
    let runtime = doc.runtime;
    let cx = EntryCx { doc, field: &field, at: entry_location(doc, object, names) };
    let name = match object.get("name") {
        None => {
            cx.report(sink, &REQUIRED_FIELD_MISSING, "name: missing".into());
            None
        }
        Some(Value::String(name)) => Some(name.as_str()),
        Some(other) => {
            cx.report(sink, &INVALID_FIELD, format!("name: expected a string, found {}", describe(other)));
            None
        }
    };
    if let Some(name) = name {
        entry_name(sink, &cx, name);
        let count = names.seen.entry(name.to_string()).or_default();
        *count += 1;
        if *count == 2 {
            cx.report(
                sink,
                &DUPLICATE_PLUGIN,
                format!("name: plugin name {name:?} is listed more than once"),
            );
        }
    }
    entry_fields(sink, &cx, object);
    let local = match source_of(runtime, entry) {
        Source::Missing => {
            cx.report(sink, &REQUIRED_FIELD_MISSING, "source: missing".into());
            return None;
        }
        Source::Invalid(why) => {
            cx.report(sink, &SOURCE_INVALID, format!("source: {why}"));
            return None;
        }
        Source::Remote => return None,
        Source::Local(path) => path,
    };
    let root = join(doc.folder.root(), &local);
    let folder = Folder::new(tree, &root);
    if !holds_plugin(runtime, folder) {
        let what = match runtime {
            Runtime::Cursor => "no .cursor-plugin/plugin.json",
            _ if !path_exists(folder) => "nothing (the folder does not exist)",
            _ => "no plugin (no manifest and no skills, commands, agents, hooks or MCP servers)",
        };
        cx.report(
            sink,
            &SOURCE_NOT_FOUND,
            format!("source: \"./{local}\" holds {what}; installing the entry fails"),
        );
        return None;
    }
    if let (Some(name), Some((manifest, value))) = (name, plugin_manifest(runtime, folder)) {
        against_manifest(sink, &cx, name, object, &join(&local, manifest), &value);
    }
    name.map(|name| (name.to_string(), root))
}

fn path_exists(folder: Folder<'_>) -> bool {
    folder.root().is_empty() || folder.has_dir("")
}

/// Where an entry's findings point: the line of its `"name"` pair (the
/// n-th one for a repeated name), else the `plugins` key.
fn entry_location(doc: Doc<'_>, entry: &Map<String, Value>, names: &Names) -> crate::error::Location {
    let name = entry.get("name").and_then(Value::as_str);
    let nth = name.map_or(0, |n| names.seen.get(n).copied().unwrap_or(0));
    match name.and_then(|n| names.lines.get(n)?.get(nth)) {
        Some(line) => doc.folder.at_line(doc.rel, *line, 1),
        None => doc.at("plugins"),
    }
}

/// One entry being judged: findings say `plugins[i].<field>` and point at it.
struct EntryCx<'a> {
    doc: Doc<'a>,
    field: &'a str,
    at: crate::error::Location,
}

impl EntryCx<'_> {
    fn report(&self, sink: &mut Sink, rule: &'static crate::validate::Rule, message: String) {
        sink.report(
            rule,
            Some(self.doc.runtime.id()),
            Some(self.at.clone()),
            format!("{}.{message}", self.field),
        );
    }
}

fn entry_name(sink: &mut Sink, cx: &EntryCx<'_>, name: &str) {
    let problem = match cx.doc.runtime {
        Runtime::ClaudeCode if name.is_empty() => Some("is empty"),
        Runtime::ClaudeCode if name.contains(' ') => Some("contains a space, which Claude Code refuses"),
        Runtime::Codex
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)) =>
        {
            Some(
                "has characters outside [A-Za-z0-9._-]; Codex skips it in listings and codex plugin add refuses it",
            )
        }
        Runtime::Cursor if !is_cursor_name(name) => {
            Some("does not match ^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$ (lowercase letters, digits, '-' and '.')")
        }
        _ => None,
    };
    if let Some(problem) = problem {
        cx.report(sink, &NAME_INVALID, format!("name: {name:?} {problem}"));
    }
}

fn entry_fields(sink: &mut Sink, cx: &EntryCx<'_>, entry: &Map<String, Value>) {
    let shapes: &[(&str, Shape)] = match cx.doc.runtime {
        Runtime::ClaudeCode => &[
            ("version", Shape::Str),
            ("description", Shape::Str),
            ("strict", Shape::Bool),
            ("category", Shape::Str),
            ("tags", Shape::StrList),
        ],
        Runtime::Codex => &[("category", Shape::Str), ("policy", Shape::Object)],
        _ => &[("description", Shape::Str), ("minClientVersions", Shape::Object)],
    };
    for (key, shape) in shapes {
        if let Some(value) = entry.get(*key).filter(|v| !shape.accepts(v)) {
            cx.report(
                sink,
                &INVALID_FIELD,
                format!("{key}: expected {}, found {}", shape.describe(), describe(value)),
            );
        }
    }
    if let Some(Value::Object(policy)) = entry.get("policy").filter(|_| cx.doc.runtime == Runtime::Codex) {
        for (key, allowed) in [("installation", CODEX_INSTALLATION), ("authentication", CODEX_AUTHENTICATION)]
        {
            if let Some(value) = policy.get(key).filter(|v| !v.as_str().is_some_and(|v| allowed.contains(&v)))
            {
                let message = format!(
                    "policy.{key}: {value} is not one of {}; Codex skips the entry",
                    allowed.join(", ")
                );
                cx.report(sink, &INVALID_FIELD, message);
            }
        }
    }
    let (known, rule, why) = match cx.doc.runtime {
        Runtime::ClaudeCode => (CLAUDE_ENTRY_KEYS, &UNKNOWN_KEY, "Claude Code ignores it at load time"),
        Runtime::Cursor => (
            CURSOR_ENTRY_KEYS,
            &KEY_NOT_ALLOWED,
            "Cursor's marketplace schema has additionalProperties: false",
        ),
        _ => return,
    };
    for key in entry.keys().filter(|k| !known.contains(&k.as_str())) {
        let hint = look_alike(key, known).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        let what = if rule.code == UNKNOWN_KEY.code { "unknown field" } else { "not allowed" };
        cx.report(sink, rule, format!("{key}: {what}{hint}; {why}"));
    }
}

/// An entry against its plugin's own manifest: Codex and Cursor want the
/// same name; Claude Code warns when the versions differ (plugin.json wins).
fn against_manifest(
    sink: &mut Sink,
    cx: &EntryCx<'_>,
    name: &str,
    entry: &Map<String, Value>,
    manifest: &str,
    plugin: &Value,
) {
    let runtime = cx.doc.runtime;
    if matches!(runtime, Runtime::Codex | Runtime::Cursor) {
        if let Some(plugin_name) =
            plugin.get("name").and_then(Value::as_str).filter(|n| !n.is_empty() && *n != name)
        {
            let message = format!(
                "name: {name:?} but {manifest} says {plugin_name:?}; {} requires the entry and the plugin to share the name",
                runtime.id()
            );
            cx.report(sink, &PLUGIN_NAME_MISMATCH, message);
        }
    }
    if runtime == Runtime::ClaudeCode {
        let entry_version = entry.get("version").and_then(Value::as_str);
        let plugin_version = plugin.get("version").and_then(Value::as_str);
        if let (Some(entry_version), Some(plugin_version)) = (entry_version, plugin_version) {
            if entry_version != plugin_version {
                let message = format!(
                    "version: the entry says {entry_version:?} but {manifest} says {plugin_version:?}; at install plugin.json wins and the entry version is ignored"
                );
                cx.report(sink, &VERSION_MISMATCH, message);
            }
        }
    }
}

#[cfg(test)]
mod tests;
