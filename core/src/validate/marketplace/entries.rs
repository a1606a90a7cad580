//! One marketplace entry: its name, fields and source, and the plugin the
//! source points at.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::rules::*;
use super::runtime_of;
use super::sources::{Source, holds_plugin, join, plugin_manifest, source_of};
use crate::lint::Folder;
use crate::lint::Sink;
use crate::lint::doc::{Doc, Shape, describe, look_alike};
use crate::runtime::Runtime;
use crate::runtime::cursor::lint::is_cursor_name;
use crate::source::SourceTree;
use crate::validate::Rule;

/// Entry keys beyond every plugin.json field.
const CLAUDE_ENTRY_ONLY_KEYS: &[&str] = &["source", "category", "tags", "strict", "relevance"];
const CURSOR_ENTRY_KEYS: &[&str] = &["name", "source", "description", "minClientVersions"];
const CODEX_INSTALLATION: &[&str] = &["NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"];
const CODEX_AUTHENTICATION: &[&str] = &["ON_INSTALL", "ON_USE"];

/// The lines of the entries' `"name"` pairs (those below `plugins`, so the
/// marketplace's own name is not taken for an entry's).
pub(super) fn entry_name_lines(folder: Folder<'_>, rel: &str) -> BTreeMap<String, Vec<usize>> {
    folder.json_positions(rel).map(|p| p.string_pair_lines("name", Some("plugins"))).unwrap_or_default()
}

/// Entry names: where each `"name"` pair is, and how often each name was
/// seen so far.
pub(super) struct Names {
    pub lines: BTreeMap<String, Vec<usize>>,
    pub seen: BTreeMap<String, usize>,
}

/// Checks one entry; returns its name and folder (in the validated tree)
/// when its source is a local plugin.
pub(super) fn check_entry(
    tree: &SourceTree,
    doc: Doc<'_>,
    sink: &mut Sink,
    i: usize,
    entry: &Value,
    names: &mut Names,
) -> Option<(String, String)> {
    let field = format!("plugins[{i}]");
    let object = entry.as_object().filter(|_| doc.expect(sink, &field, entry, Shape::Object))?;
    let runtime = runtime_of(&doc);
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
            Runtime::Cursor => concat!("no ", crate::runtime::cursor::facts::manifest_path!()),
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
    fn report(&self, sink: &mut Sink, rule: &'static Rule, message: String) {
        sink.report(rule, Some(self.doc.runtime), Some(self.at.clone()), format!("{}.{message}", self.field));
    }
}

fn entry_name(sink: &mut Sink, cx: &EntryCx<'_>, name: &str) {
    let problem = match runtime_of(&cx.doc) {
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
    let shapes: &[(&str, Shape)] = match runtime_of(&cx.doc) {
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
    if let Some(Value::Object(policy)) = entry.get("policy").filter(|_| runtime_of(&cx.doc) == Runtime::Codex)
    {
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
    let claude_keys: Vec<&str> =
        crate::runtime::claude_code::lint::KNOWN_KEYS.iter().chain(CLAUDE_ENTRY_ONLY_KEYS).copied().collect();
    let (known, rule, why) = match runtime_of(&cx.doc) {
        Runtime::ClaudeCode => (claude_keys.as_slice(), &UNKNOWN_KEY, "Claude Code ignores it at load time"),
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
    let runtime = runtime_of(&cx.doc);
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
