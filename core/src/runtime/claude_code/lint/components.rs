//! Claude Code's component path fields (`skills`, `agents`, `commands`,
//! `hooks`, `mcpServers`, `lspServers`, ...): `./` paths inside the plugin
//! that exist where the validator checks it.

use serde_json::{Map, Value};

use super::options::strict_keys;
use crate::lint::Sink;
use crate::lint::doc::{Doc, PathProblem, Shape, path_exists, relative_path};
use crate::lint::manifest_rules::*;

const EXPERIMENTAL_KEYS: &[&str] = &["themes", "monitors", "outputStyles", "evals"];
const LSP_KEYS: &[&str] = &[
    "command",
    "args",
    "extensionToLanguage",
    "transport",
    "env",
    "initializationOptions",
    "settings",
    "workspaceFolder",
    "startupTimeout",
    "shutdownTimeout",
    "restartOnCrash",
    "maxRestarts",
    "diagnostics",
];
const COMMAND_KEYS: &[&str] = &["source", "content", "description", "argumentHint", "model", "allowedTools"];
const DEFAULT_HOOKS: &str = "hooks/hooks.json";
/// What a component path must be besides a clean `./` path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    Nothing,
    Exists,
    Folder,
}

pub(super) fn check(doc: Doc<'_>, sink: &mut Sink) {
    paths(doc, sink, "skills", Need::Folder, |_| None);
    paths(doc, sink, "agents", Need::Exists, |p| {
        (!p.ends_with(".md")).then_some("agents entries are .md files")
    });
    paths(doc, sink, "outputStyles", Need::Nothing, |_| None);
    paths(doc, sink, "workflows", Need::Exists, |_| None);
    for key in ["themes", "monitors"] {
        if doc.get(key).is_some() {
            let message = format!(
                "{key}: an experimental component declared at the top level; declare it under experimental.{key} (top-level support will be removed)"
            );
            doc.report(sink, &EXPERIMENTAL_TOP_LEVEL, key, message);
        }
    }
    if let Some(Value::Object(experimental)) = doc.get("experimental") {
        for key in experimental.keys().filter(|k| !EXPERIMENTAL_KEYS.contains(&k.as_str())) {
            let message = format!("experimental.{key}: unknown field; Claude Code ignores it at load time");
            doc.report(sink, &UNKNOWN_KEY, "experimental", message);
        }
    }
    commands(doc, sink);
    mixed(doc, sink, "hooks", Need::Exists);
    duplicate_hooks_file(doc, sink);
    mixed(doc, sink, "mcpServers", Need::Nothing);
    mixed(doc, sink, "lspServers", Need::Nothing);
    if let Some(Value::Object(servers)) = doc.get("lspServers") {
        lsp_servers(doc, sink, servers);
    }
    if let Some(Value::Array(items)) = doc.get("lspServers") {
        for item in items.iter().filter_map(Value::as_object) {
            lsp_servers(doc, sink, item);
        }
    }
}

/// A string-or-array-of-strings path field; `refuse` names why the schema
/// does not take an entry (an agent that is not `.md`).
fn paths(doc: Doc<'_>, sink: &mut Sink, key: &str, need: Need, refuse: fn(&str) -> Option<&'static str>) {
    let Some(value) = doc.get(key) else { return };
    if !doc.expect(sink, key, value, Shape::StrOrStrList) {
        return;
    }
    let entries: Vec<&str> = match value {
        Value::String(s) => vec![s.as_str()],
        other => other.as_array().into_iter().flatten().filter_map(Value::as_str).collect(),
    };
    for (i, path) in entries.into_iter().enumerate() {
        let field = if value.is_array() { format!("{key}[{i}]") } else { key.to_string() };
        if let Some(why) = refuse(path) {
            doc.report(sink, &INVALID_FIELD, key, format!("{field}: {path:?}: {why}"));
            continue;
        }
        component_path(doc, sink, &field, path, need);
    }
}

/// A field that is a path, an inline object, or an array mixing both.
fn mixed(doc: Doc<'_>, sink: &mut Sink, key: &str, need: Need) {
    let Some(value) = doc.get(key) else { return };
    let items: Vec<(String, &Value)> = match value {
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (format!("{key}[{i}]"), v)).collect(),
        other => vec![(key.to_string(), other)],
    };
    for (field, item) in items {
        match item {
            Value::String(path) if key == "mcpServers" && is_bundle_reference(path) => {}
            Value::String(path) => component_path(doc, sink, &field, path, need),
            Value::Object(_) => {}
            other => {
                doc.expect(sink, &field, other, Shape::StrOrObject);
            }
        }
    }
}

/// The default hooks file named again in the manifest: Claude Code loads it
/// twice and fails with "Duplicate hooks file".
fn duplicate_hooks_file(doc: Doc<'_>, sink: &mut Sink) {
    let paths: Vec<&str> = match doc.get("hooks") {
        Some(Value::String(path)) => vec![path.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    for path in paths
        .into_iter()
        .filter(|p| p.starts_with("./") && relative_path(p).is_ok_and(|r| r == DEFAULT_HOOKS))
    {
        let message = format!(
            "hooks: {path:?} is {DEFAULT_HOOKS}, which Claude Code loads anyway; naming it again is a load error (\"Duplicate hooks file\")"
        );
        doc.report(sink, &DUPLICATE_HOOKS_FILE, "hooks", message);
    }
}

/// An MCPB bundle path or URL, which `mcpServers` also takes.
fn is_bundle_reference(path: &str) -> bool {
    path.ends_with(".mcpb") || path.ends_with(".dxt") || path.contains("://")
}

/// Checks one component path: `./`-relative, inside the plugin, and (when
/// `need` says so) present.
fn component_path(doc: Doc<'_>, sink: &mut Sink, field: &str, path: &str, need: Need) {
    if !path.starts_with("./") {
        let message = format!(
            "{field}: {path:?} does not start with ./; component paths are relative to the plugin root"
        );
        doc.report(sink, &PATH_NOT_RELATIVE, field, message);
        return;
    }
    let rel = match relative_path(path) {
        Ok(rel) => rel,
        Err(PathProblem::Escapes | PathProblem::Absolute) => {
            let message = format!("{field}: {path:?} contains \"..\", which could leave the plugin folder");
            doc.report(sink, &PATH_ESCAPES, field, message);
            return;
        }
    };
    let not_found =
        || format!("{field}: {path:?} not found in the plugin; Claude Code reports a load failure");
    match need {
        Need::Nothing => {}
        Need::Exists if !path_exists(doc.folder, &rel) => {
            doc.report(sink, &PATH_NOT_FOUND, field, not_found())
        }
        Need::Folder if doc.folder.exists(&rel) => {
            let parent = rel.rsplit_once('/').map_or("", |(dir, _)| dir);
            let message = format!(
                "{field}: {path:?} is a file; skills entries are folders holding SKILL.md (point at \"./{parent}\" instead)"
            );
            doc.report(sink, &SKILLS_PATH_NOT_FOLDER, field, message);
        }
        Need::Folder if !path_exists(doc.folder, &rel) => {
            doc.report(sink, &PATH_NOT_FOUND, field, not_found())
        }
        Need::Exists | Need::Folder => {}
    }
}

fn commands(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("commands") else { return };
    let Value::Object(commands) = value else {
        paths(doc, sink, "commands", Need::Exists, |_| None);
        return;
    };
    for (name, command) in commands {
        let field = format!("commands.{name}");
        let Some(command) = command.as_object().filter(|_| doc.expect(sink, &field, command, Shape::Object))
        else {
            continue;
        };
        strict_keys(doc, sink, &field, command, COMMAND_KEYS);
        match (command.get("source"), command.get("content")) {
            (Some(Value::String(source)), None) => {
                component_path(doc, sink, &format!("{field}.source"), source, Need::Exists)
            }
            (None, Some(Value::String(_))) => {}
            (Some(_), Some(_)) | (None, None) => {
                let message = format!(
                    "{field}: give exactly one of \"source\" (a ./ path) and \"content\" (inline Markdown)"
                );
                doc.report(sink, &INVALID_FIELD, "commands", message);
            }
            (Some(other), None) | (None, Some(other)) => {
                doc.expect(sink, &field, other, Shape::Str);
            }
        }
        if let Some(tools) = command.get("allowedTools") {
            doc.expect(sink, &format!("{field}.allowedTools"), tools, Shape::StrList);
        }
    }
}

fn lsp_servers(doc: Doc<'_>, sink: &mut Sink, servers: &Map<String, Value>) {
    for (name, server) in servers {
        let field = format!("lspServers.{name}");
        let Some(server) = server.as_object().filter(|_| doc.expect(sink, &field, server, Shape::Object))
        else {
            continue;
        };
        strict_keys(doc, sink, &field, server, LSP_KEYS);
        for key in ["command", "extensionToLanguage"] {
            if !server.contains_key(key) {
                doc.report(sink, &REQUIRED_FIELD_MISSING, "lspServers", format!("{field}.{key}: missing"));
            }
        }
    }
}
