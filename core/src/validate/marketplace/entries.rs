//! One marketplace entry: its name, fields and source, and the plugin the
//! source points at.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::rules::*;
use super::sources::{holds_plugin, join, plugin_manifest};
use super::{Market, disallowed, source_of};
use crate::lint::Folder;
use crate::lint::Sink;
use crate::lint::doc::{Doc, Shape, describe};
use crate::lint::marketplace::Source;
use crate::source::SourceTree;
use crate::validate::Rule;

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
    market: Market<'_>,
    sink: &mut Sink,
    i: usize,
    entry: &Value,
    names: &mut Names,
) -> Option<(String, String)> {
    let Market { doc, spec, rules, .. } = market;
    let field = format!("plugins[{i}]");
    let object = entry.as_object().filter(|_| doc.expect(sink, &field, entry, Shape::Object))?;
    let cx = EntryCx { market, field: &field, at: entry_location(doc, object, names) };
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
    let local = match source_of(rules, entry) {
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
    if !holds_plugin(spec, folder) {
        let what = match spec.reads.manifest.filter(|_| spec.reads.manifest_required) {
            Some(manifest) => format!("no {manifest}"),
            None if !path_exists(folder) => "nothing (the folder does not exist)".to_string(),
            None => {
                "no plugin (no manifest and no skills, commands, agents, hooks or MCP servers)".to_string()
            }
        };
        cx.report(
            sink,
            &SOURCE_NOT_FOUND,
            format!("source: \"./{local}\" holds {what}; installing the entry fails"),
        );
        return None;
    }
    if let (Some(name), Some((manifest, value))) = (name, plugin_manifest(spec, folder)) {
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
    market: Market<'a>,
    field: &'a str,
    at: crate::error::Location,
}

impl EntryCx<'_> {
    fn report(&self, sink: &mut Sink, rule: &'static Rule, message: String) {
        sink.report(
            rule,
            Some(self.market.doc.runtime),
            Some(self.at.clone()),
            format!("{}.{message}", self.field),
        );
    }
}

fn entry_name(sink: &mut Sink, cx: &EntryCx<'_>, name: &str) {
    if let Some(problem) = (cx.market.rules.entry_name_problem)(name) {
        cx.report(sink, &NAME_INVALID, format!("name: {name:?} {problem}"));
    }
}

fn entry_fields(sink: &mut Sink, cx: &EntryCx<'_>, entry: &Map<String, Value>) {
    let Market { spec, rules, .. } = cx.market;
    for (key, shape) in rules.entry_shapes {
        if let Some(value) = entry.get(*key).filter(|v| !shape.accepts(v)) {
            cx.report(
                sink,
                &INVALID_FIELD,
                format!("{key}: expected {}, found {}", shape.describe(), describe(value)),
            );
        }
    }
    if let Some(Value::Object(policy)) = entry.get("policy") {
        for (key, allowed) in rules.entry_policy {
            if let Some(value) =
                policy.get(*key).filter(|v| !v.as_str().is_some_and(|v| allowed.contains(&v)))
            {
                let message = format!(
                    "policy.{key}: {value} is not one of {}; {} skips the entry",
                    allowed.join(", "),
                    spec.name
                );
                cx.report(sink, &INVALID_FIELD, message);
            }
        }
    }
    for (key, rule, message) in disallowed(spec, entry.keys(), rules.entry_keys) {
        cx.report(sink, rule, format!("{key}: {message}"));
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
    let Market { runtime, rules, .. } = cx.market;
    if rules.entry_name_matches_plugin {
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
    if rules.entry_version_matches_plugin {
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
