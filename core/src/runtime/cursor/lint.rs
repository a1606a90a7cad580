//! Cursor's plugin manifest ([`MANIFEST`]): the closed draft-07 schema of
//! `cursor/plugins` (`schemas/plugin.schema.json`) and the path checks of
//! its `scripts/validate-plugins.mjs`.

use crate::lint::layout::{HookSource, Layout, LayoutInput, McpSource, SkillDepth, hook_sources, mcp_sources, paths as declared_paths};
use serde_json::{Map, Value};

use crate::lint::doc::{
    Doc, PathProblem, Shape, describe, is_url, look_alike, path_exists, read_object, relative_path,
};
use crate::lint::manifest_rules::*;
use crate::lint::Cx;
use crate::lint::markdown::{Markdown, required_agent_fields};
use crate::lint::Sink;

pub(super) const MANIFEST: &str = super::facts::MANIFEST_PATH;

const FIELDS: &[(&str, Shape)] = &[
    ("name", Shape::Str),
    ("displayName", Shape::Str),
    ("description", Shape::Str),
    ("version", Shape::Str),
    ("minClientVersions", Shape::Object),
    ("author", Shape::Object),
    ("publisher", Shape::Str),
    ("homepage", Shape::Str),
    ("repository", Shape::Str),
    ("license", Shape::Str),
    ("logo", Shape::Str),
    ("keywords", Shape::StrList),
    ("category", Shape::Str),
    ("tags", Shape::StrList),
    ("commands", Shape::StrOrStrList),
    ("agents", Shape::StrOrStrList),
    ("skills", Shape::StrOrStrList),
    ("rules", Shape::StrOrStrList),
    ("hooks", Shape::StrOrObject),
    ("variables", Shape::Object),
];
/// `mcpServers` also takes an array, so it is checked on its own.
const MCP_SERVERS: &str = "mcpServers";
const AUTHOR_KEYS: &[&str] = &["name", "email"];

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(object) = read_object(cx.folder, MANIFEST, crate::registry::Runtime::Cursor, sink) else { return };
    let map = &object;
    let doc = Doc::new(cx.folder, MANIFEST, crate::registry::Runtime::Cursor, map);
    doc.expect_fields(sink, FIELDS);
    name(doc, sink);
    if let Some(Value::Object(author)) = doc.get("author") {
        author_fields(doc, sink, author);
    }
    for key in ["homepage", "repository"] {
        if let Some(Value::String(url)) = doc.get(key) {
            if !is_url(url) {
                doc.report(sink, &URL_INVALID, key, format!("{key}: {url:?} is not a URI with a scheme"));
            }
        }
    }
    if let Some(servers) = doc.get(MCP_SERVERS) {
        if !(servers.is_string() || servers.is_object() || servers.is_array()) {
            let message =
                format!("mcpServers: expected a path, an object or an array, found {}", describe(servers));
            doc.report(sink, &INVALID_FIELD, MCP_SERVERS, message);
        }
    }
    paths(doc, sink);
    let known: Vec<&str> = FIELDS.iter().map(|(k, _)| *k).chain([MCP_SERVERS]).collect();
    for key in map.keys().filter(|k| !known.contains(&k.as_str())) {
        let hint = look_alike(key, &known).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        let message =
            format!("{key}: not allowed{hint}; Cursor's plugin.json schema has additionalProperties: false");
        doc.report(sink, &KEY_NOT_ALLOWED, key, message);
    }
}

fn name(doc: Doc<'_>, sink: &mut Sink) {
    match doc.get("name") {
        None => doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "",
            "name: missing; Cursor's plugin.json requires a name",
        ),
        Some(Value::String(name)) if !is_cursor_name(name) => {
            let message = format!(
                "name: {name:?} does not match ^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$ (lowercase letters, digits, '-' and '.')"
            );
            doc.report(sink, &NAME_INVALID, "name", message);
        }
        Some(_) => {}
    }
}

/// `^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`
pub(crate) fn is_cursor_name(name: &str) -> bool {
    let edge = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let bytes = name.as_bytes();
    bytes.first().is_some_and(edge)
        && bytes.last().is_some_and(edge)
        && bytes.iter().all(|b| edge(b) || *b == b'.' || *b == b'-')
}

fn author_fields(doc: Doc<'_>, sink: &mut Sink, author: &Map<String, Value>) {
    match author.get("name") {
        None => doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "author",
            "author.name: missing; Cursor's author object requires a name",
        ),
        Some(name) => {
            doc.expect(sink, "author.name", name, Shape::Str);
        }
    }
    if let Some(email) = author.get("email") {
        doc.expect(sink, "author.email", email, Shape::Str);
    }
    for key in author.keys().filter(|k| !AUTHOR_KEYS.contains(&k.as_str())) {
        let message = format!("author.{key}: not allowed; Cursor's author object takes only name and email");
        doc.report(sink, &KEY_NOT_ALLOWED, "author", message);
    }
}

/// Component paths: local, relative, inside the plugin, and (up to the
/// first glob character) present.
fn paths(doc: Doc<'_>, sink: &mut Sink) {
    for key in ["skills", "agents", "commands", "rules", "hooks", MCP_SERVERS, "logo"] {
        let entries: Vec<&str> = match doc.get(key) {
            Some(Value::String(path)) => vec![path.as_str()],
            Some(Value::Array(items)) if key != "hooks" => items.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        for path in entries {
            path_entry(doc, sink, key, path);
        }
    }
}

fn path_entry(doc: Doc<'_>, sink: &mut Sink, key: &str, path: &str) {
    let lower = path.to_ascii_lowercase();
    if ["http:", "https:", "data:"].iter().any(|scheme| lower.starts_with(scheme)) {
        if key != "logo" {
            let message = format!("{key}: {path:?} is a URL; component paths are local to the plugin");
            doc.report(sink, &INVALID_FIELD, key, message);
        }
        return;
    }
    if path.trim().is_empty() {
        doc.report(sink, &INVALID_FIELD, key, format!("{key}: the path is empty"));
        return;
    }
    let rel = match relative_path(path) {
        Ok(rel) if !rel.is_empty() || path.trim_end_matches('/').is_empty() => rel,
        Ok(_) | Err(PathProblem::Absolute) => {
            let message = format!("{key}: {path:?} must be relative to the plugin folder");
            doc.report(sink, &PATH_NOT_RELATIVE, key, message);
            return;
        }
        Err(PathProblem::Escapes) => {
            let message = format!("{key}: {path:?} contains \"..\" and would leave the plugin folder");
            doc.report(sink, &PATH_ESCAPES, key, message);
            return;
        }
    };
    let static_part =
        rel.find(['*', '?', '[', ']']).map_or(rel.as_str(), |glob| rel[..glob].trim_end_matches('/'));
    if !path_exists(doc.folder, static_part) {
        let message =
            format!("{key}: {path:?} does not exist in the plugin; Cursor silently loads nothing from it");
        doc.report(sink, &PATH_NOT_FOUND, key, message);
    }
}

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.skill_dirs = input.field("skills").map_or_else(|| vec!["skills".into()], declared_paths);
    layout.skill_depth = SkillDepth::Recursive;
    layout.commands = input.field("commands").map_or_else(|| vec!["commands".into()], declared_paths);
    layout.agents = input.field("agents").map_or_else(|| vec!["agents".into()], declared_paths);
    layout.hooks = input.field("hooks").map_or_else(
        || vec![HookSource::File("hooks/hooks.json".into())],
        |v| hook_sources(v, input.manifest_rel),
    );
    layout.mcp = input.field("mcpServers").map_or_else(
        || vec![McpSource::File("mcp.json".into())],
        |v| mcp_sources(v, input.manifest_rel),
    );
}
/// Cursor does not load an agent without a `name` and a `description`.
pub(crate) fn check_agent(cx: &Cx<'_>, doc: &Markdown, sink: &mut Sink) {
    required_agent_fields(cx, super::SPEC.name, doc, &["name", "description"], sink);
}
