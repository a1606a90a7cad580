//! Rules of the `marketplace` area: the marketplace files of Claude Code,
//! Codex and Cursor (each runtime's `Spec::marketplace`), their entries, and the
//! local plugins the entries point at.

mod collisions;
mod entries;
mod rules;
mod sources;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

pub use rules::RULES;
use rules::*;
use sources::join;

use super::Context;
use super::detect::Subject;
use crate::lint::Folder;
use crate::lint::Sink;
use crate::lint::doc::{Doc, Shape, describe, look_alike};
use crate::lint::marketplace::Source;
use crate::registry::Runtime;
use crate::runtime::{Keys, Marketplace, Spec};
use crate::source::SourceTree;

/// A marketplace being judged: its document and the runtime that reads it.
#[derive(Clone, Copy)]
pub(super) struct Market<'a> {
    pub doc: Doc<'a>,
    pub runtime: Runtime,
    pub spec: &'static Spec,
    pub rules: &'static Marketplace,
}

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let spec = runtime.spec();
    let Some(rules) = &spec.marketplace else { return };
    let rel = rules.file;
    let Some(value) = cx.folder.json(rel, sink) else { return };
    let Some(map) = value.as_object() else {
        let message = format!("marketplace.json is {}, not an object", describe(&value));
        sink.report(&NOT_AN_OBJECT, Some(runtime), Some(cx.folder.at(rel)), message);
        return;
    };
    let doc = Doc { folder: cx.folder, rel, runtime, map, invalid_field: &INVALID_FIELD };
    let market = Market { doc, runtime, spec, rules };
    top_level(market, sink);
    let Some(plugins) = doc.get("plugins") else {
        doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "",
            format!("plugins: missing; {runtime} needs the list of plugins"),
        );
        return;
    };
    let Some(entries) = plugins.as_array().filter(|_| doc.expect(sink, "plugins", plugins, Shape::Array))
    else {
        return;
    };
    if entries.is_empty() && rules.wants_description_and_plugins {
        doc.report(sink, &NO_PLUGINS, "plugins", "plugins: the marketplace lists no plugins");
    }
    let mut names =
        entries::Names { lines: entries::entry_name_lines(cx.folder, rel), seen: BTreeMap::new() };
    let mut roots: Vec<(String, String)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(local) = entries::check_entry(cx.tree, market, sink, i, entry, &mut names) {
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
    collisions::check(market, sink, &locals, &names.lines);
}

/// Folders of the plugins `marketplace` lists with a local source, so each
/// is judged as a plugin too.
pub(crate) fn local_plugin_roots(tree: &SourceTree, marketplace: &Subject) -> Vec<String> {
    let Some(runtime) = marketplace.runtime else { return Vec::new() };
    let Some(rules) = &runtime.spec().marketplace else { return Vec::new() };
    let rel = rules.file;
    let folder = Folder::new(tree, &marketplace.root);
    let Some(value) = folder.get(rel).and_then(|f| serde_json::from_slice::<Value>(&f.bytes).ok()) else {
        return Vec::new();
    };
    let mut roots: Vec<String> = Vec::new();
    for entry in value.get("plugins").and_then(Value::as_array).into_iter().flatten() {
        if let Source::Local(path) = source_of(rules, entry) {
            let root = join(&marketplace.root, &path);
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
    roots
}

fn top_level(market: Market<'_>, sink: &mut Sink) {
    let Market { doc, rules, .. } = market;
    match doc.get("name") {
        None => {
            doc.report(sink, &REQUIRED_FIELD_MISSING, "", "name: missing; every marketplace needs a name")
        }
        Some(Value::String(name)) => marketplace_name(market, sink, name),
        Some(other) => {
            doc.expect(sink, "name", other, Shape::Str);
        }
    }
    if rules.owner_required {
        owner(market, sink);
    }
    doc.expect_fields(sink, rules.shapes);
    if rules.wants_description_and_plugins {
        let described = doc.get("description").or_else(|| doc.get("metadata")?.get("description"));
        if described.is_none() {
            doc.report(
                sink,
                &DESCRIPTION_MISSING,
                "",
                "description: not set; a description tells users what the marketplace offers",
            );
        }
    }
    unknown_keys(market, sink, "", doc.map, rules.keys);
}

fn marketplace_name(market: Market<'_>, sink: &mut Sink, name: &str) {
    let Market { doc, rules, .. } = market;
    if let Some(problem) = (rules.name_problem)(name) {
        doc.report(sink, &NAME_INVALID, "name", format!("name: {name:?} {problem}"));
    } else if let Some(problem) = (rules.name_reserved)(name) {
        doc.report(sink, &NAME_RESERVED, "name", format!("name: {name:?} {problem}"));
    }
}

fn owner(market: Market<'_>, sink: &mut Sink) {
    let doc = market.doc;
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
    unknown_keys(market, sink, "owner", owner, market.rules.owner_keys);
}

/// The keys `keys` do not allow among `present`, each with its rule and
/// the finding's message after `key: `.
pub(super) fn disallowed<'k>(
    spec: &Spec,
    present: impl Iterator<Item = &'k String>,
    keys: Keys,
) -> Vec<(&'k String, &'static crate::validate::Rule, String)> {
    let (known, rule): (Vec<&str>, _) = match keys {
        Keys::Open => return Vec::new(),
        Keys::Known(lists) => (lists.iter().flat_map(|l| l.iter().copied()).collect(), &UNKNOWN_KEY),
        Keys::Closed(list) => (list.to_vec(), &KEY_NOT_ALLOWED),
    };
    present
        .filter(|k| !known.contains(&k.as_str()))
        .map(|key| {
            let hint = look_alike(key, &known).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
            let message = if rule.code == UNKNOWN_KEY.code {
                format!("unknown field{hint}; {} ignores it at load time", spec.name)
            } else {
                format!(
                    "not allowed{hint}; {}'s marketplace schema has additionalProperties: false",
                    spec.name
                )
            };
            (key, rule, message)
        })
        .collect()
}

/// Reports keys of `object` (at `field`) that `keys` do not allow.
fn unknown_keys(market: Market<'_>, sink: &mut Sink, field: &str, object: &Map<String, Value>, keys: Keys) {
    let doc = market.doc;
    for (key, rule, message) in disallowed(market.spec, object.keys(), keys) {
        let path = if field.is_empty() { key.clone() } else { format!("{field}.{key}") };
        let at = if field.is_empty() { key.as_str() } else { field };
        sink.report(rule, Some(doc.runtime), Some(doc.at(at)), format!("{path}: {message}"));
    }
}

/// What an entry's `source` points at, as the runtime reads it.
pub(super) fn source_of(rules: &Marketplace, entry: &Value) -> Source {
    match entry.get("source") {
        None => Source::Missing,
        Some(source) => (rules.source)(source),
    }
}

#[cfg(test)]
mod tests;
