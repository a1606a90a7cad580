//! The Agent Plugins 1.0.0 root `plugin.json` (closed schema, spec
//! failure rules: unknown top-level fields are reported and ignored, every
//! other violation rejects the plugin).

use crate::lint::layout::{Layout, LayoutInput, McpSource};
use serde_json::Value;

use crate::lint::doc::{Doc, Shape, describe, look_alike, read_object};
use crate::lint::manifest_rules::*;
use crate::lint::Cx;
use crate::lint::Sink;

pub(super) const MANIFEST: &str = super::facts::MANIFEST_PATH;
pub(crate) const SCHEMA_URL: &str = super::facts::PLUGIN_SCHEMA;

/// The spec's closed key sets, shared with the Agent Plugins writer.
const KNOWN_KEYS: &[&str] = &super::facts::MANIFEST_KEYS;
const AUTHOR_KEYS: &[&str] = &super::facts::AUTHOR_KEYS;
const MAX_NAME_CHARS: usize = super::facts::NAME_LIMIT;

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(object) = read_object(cx.folder, MANIFEST, crate::registry::Runtime::AgentPlugins, sink) else { return };
    let map = &object;
    let doc = Doc::new(cx.folder, MANIFEST, crate::registry::Runtime::AgentPlugins, map);
    schema(doc, sink);
    name(doc, sink);
    doc.expect_fields(
        sink,
        &[
            ("version", Shape::Str),
            ("description", Shape::Str),
            ("author", Shape::Object),
            ("homepage", Shape::Str),
            ("repository", Shape::Str),
            ("license", Shape::Str),
            ("keywords", Shape::StrList),
        ],
    );
    if let Some(Value::Object(author)) = doc.get("author") {
        for (key, value) in author {
            if AUTHOR_KEYS.contains(&key.as_str()) {
                doc.expect(sink, &format!("author.{key}"), value, Shape::Str);
            } else {
                let message =
                    format!("author.{key}: not allowed; the author object takes only name, email and url");
                doc.report(sink, &KEY_NOT_ALLOWED, "author", message);
            }
        }
    }
    extensions(doc, sink);
    for key in map.keys().filter(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        if key == "mcpServers" {
            let message = "mcpServers: inline MCP servers are not part of Agent Plugins; clients read servers only from mcp.json";
            doc.report(sink, &INLINE_MCP_SERVERS, key, message);
            continue;
        }
        let hint = look_alike(key, KNOWN_KEYS).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        let message = format!("{key}: unknown field{hint}; Agent Plugins clients report and ignore it");
        doc.report(sink, &UNKNOWN_KEY, key, message);
    }
}

fn schema(doc: Doc<'_>, sink: &mut Sink) {
    match doc.get("$schema") {
        None => {
            let message = format!(
                "$schema: missing; Agent Plugins clients reject a plugin.json without \"{SCHEMA_URL}\""
            );
            doc.report(sink, &REQUIRED_FIELD_MISSING, "", message);
        }
        Some(Value::String(url)) if url == SCHEMA_URL => {}
        Some(other) => {
            let message = format!(
                "$schema: {other} is not {SCHEMA_URL:?}; clients reject an unsupported schema version"
            );
            doc.report(sink, &SCHEMA_UNSUPPORTED, "$schema", message);
        }
    }
}

fn name(doc: Doc<'_>, sink: &mut Sink) {
    match doc.get("name") {
        None => doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "",
            "name: missing; Agent Plugins require a plugin name",
        ),
        Some(Value::String(name)) if !is_agent_plugins_name(name) => {
            let message = format!(
                "name: {name:?} must be 1-{MAX_NAME_CHARS} characters of a-z, 0-9, '-' and '.', start and end with a letter or digit, and hold no '--' or '..'"
            );
            doc.report(sink, &NAME_INVALID, "name", message);
        }
        Some(value) => {
            doc.expect(sink, "name", value, Shape::Str);
        }
    }
}

/// `^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`, 1-64 characters.
pub(crate) fn is_agent_plugins_name(name: &str) -> bool {
    crate::runtime::cursor::lint::is_cursor_name(name)
        && name.len() <= MAX_NAME_CHARS
        && !name.contains("--")
        && !name.contains("..")
}

fn extensions(doc: Doc<'_>, sink: &mut Sink) {
    let Some(extensions) = doc.get("extensions") else { return };
    let Some(namespaces) = extensions.as_object() else {
        let message =
            format!("extensions: {}; clients ignore extensions that are not an object", describe(extensions));
        doc.report(sink, &VALUE_IGNORED, "extensions", message);
        return;
    };
    for (namespace, value) in namespaces.iter().filter(|(_, v)| !v.is_object()) {
        let message =
            format!("extensions.{namespace}: {}; a namespace's extension data is an object", describe(value));
        doc.report(sink, &VALUE_IGNORED, "extensions", message);
    }
}

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
pub(crate) fn layout(layout: &mut Layout, _input: &LayoutInput<'_>) {
    layout.mcp.push(McpSource::File("mcp.json".into()));
}
