//! Claude Code's `.claude-plugin/plugin.json`, judged as `claude plugin
//! validate` (2.1.197) does: what it rejects is an error, what it warns
//! about is a warning.

use serde_json::{Map, Value};

use super::doc::{Doc, PathProblem, Shape, describe, is_url, look_alike, path_exists, relative_path};
use super::rules::*;
use crate::runtime::Runtime;
use crate::validate::Context;
use crate::validate::findings::Sink;

pub(super) const MANIFEST: &str = ".claude-plugin/plugin.json";

const KNOWN_KEYS: &[&str] = &[
    "$schema",
    "name",
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

/// Keys of other manifests people copy in, and where they come from.
const FOREIGN_KEYS: &[(&str, &str)] = &[
    ("main", "an npm package.json"),
    ("scripts", "an npm package.json"),
    ("devDependencies", "an npm package.json"),
    ("peerDependencies", "an npm package.json"),
    ("bin", "an npm package.json"),
    ("files", "an npm package.json"),
    ("private", "an npm package.json"),
    ("engines", "a VS Code/Cursor extension manifest"),
    ("contributes", "a VS Code/Cursor extension manifest"),
    ("activationEvents", "a VS Code/Cursor extension manifest"),
    ("publisher", "a VS Code/Cursor extension manifest"),
    ("categories", "a VS Code/Cursor extension manifest"),
    ("manifest_version", "an MCPB manifest"),
    ("dxt_version", "an MCPB manifest"),
    ("server", "an MCPB manifest"),
];

const EXPERIMENTAL_KEYS: &[&str] = &["themes", "monitors", "outputStyles", "evals"];
const USER_CONFIG_KEYS: &[&str] =
    &["type", "title", "description", "required", "default", "multiple", "sensitive", "min", "max"];
const USER_CONFIG_TYPES: &[&str] = &["string", "number", "boolean", "directory", "file"];
const CHANNEL_KEYS: &[&str] = &["server", "displayName", "userConfig"];
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
/// Claude Code fetches only the first 16 binaries at install.
const MAX_BINARIES: usize = 16;

pub(super) fn check(cx: &Context<'_>, sink: &mut Sink) {
    if cx.folder.exists("CLAUDE.md") {
        sink.report(
            &ROOT_CLAUDE_MD,
            Some(Runtime::ClaudeCode.id()),
            Some(cx.folder.at("CLAUDE.md")),
            "CLAUDE.md at the plugin root is not loaded as context by Claude Code",
        );
    }
    let Some(value) = cx.folder.json(MANIFEST, sink) else { return };
    let Some(map) = value.as_object() else {
        let message = format!("the manifest is {}, not an object", describe(&value));
        sink.report(&NOT_AN_OBJECT, Some(Runtime::ClaudeCode.id()), Some(cx.folder.at(MANIFEST)), message);
        return;
    };
    let doc = Doc::new(cx.folder, MANIFEST, Runtime::ClaudeCode, map);
    name(doc, sink);
    metadata(doc, sink);
    components(doc, sink);
    user_config(doc, sink);
    channels(doc, sink);
    binaries(doc, sink);
    unknown_keys(doc, sink);
}

fn name(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("name") else {
        doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "",
            "name: missing; Claude Code refuses a plugin manifest without a name",
        );
        return;
    };
    let Some(name) = doc.str_field(sink, "name") else { return };
    if name.is_empty() {
        doc.report(sink, &NAME_INVALID, "name", "name: the plugin name is empty");
    } else if name.contains(' ') {
        doc.report(
            sink,
            &NAME_INVALID,
            "name",
            format!("name: {value} contains a space, which Claude Code refuses"),
        );
    } else if !is_claude_kebab(name) {
        let message = format!(
            "name: {value} is not kebab-case; Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case"
        );
        doc.report(sink, &NAME_NOT_KEBAB, "name", message);
    }
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`, with no length limit.
pub(crate) fn is_claude_kebab(name: &str) -> bool {
    name.split('-')
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

fn metadata(doc: Doc<'_>, sink: &mut Sink) {
    for (key, why) in [
        ("version", "add a version such as 1.0.0"),
        ("description", "a description tells users what the plugin does"),
        ("author", "add the author for attribution"),
    ] {
        if doc.get(key).is_none() {
            doc.report(sink, &RECOMMENDED_FIELD_MISSING, "", format!("{key}: not set; {why}"));
        }
    }
    doc.expect_fields(
        sink,
        &[
            ("$schema", Shape::Str),
            ("displayName", Shape::Str),
            ("version", Shape::Str),
            ("description", Shape::Str),
            ("repository", Shape::Str),
            ("license", Shape::Str),
            ("keywords", Shape::StrList),
            ("defaultEnabled", Shape::Bool),
            ("settings", Shape::Object),
            ("experimental", Shape::Object),
        ],
    );
    author(doc, sink);
    if let Some(homepage) = doc.str_field(sink, "homepage") {
        if !is_url(homepage) {
            doc.report(sink, &URL_INVALID, "homepage", format!("homepage: {homepage:?} is not a URL"));
        }
    }
    dependencies(doc, sink);
}

fn author(doc: Doc<'_>, sink: &mut Sink) {
    let Some(author) = doc.get("author") else { return };
    if !doc.expect(sink, "author", author, Shape::Object) {
        return;
    }
    match author.get("name") {
        None => doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "author",
            "author.name: missing; an author object needs a name",
        ),
        Some(Value::String(s)) if s.is_empty() => doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "author",
            "author.name: empty; an author object needs a name",
        ),
        Some(name) => {
            doc.expect(sink, "author.name", name, Shape::Str);
        }
    }
    for key in ["email", "url"] {
        if let Some(value) = author.get(key) {
            doc.expect(sink, &format!("author.{key}"), value, Shape::Str);
        }
    }
}

fn dependencies(doc: Doc<'_>, sink: &mut Sink) {
    let Some(deps) = doc.get("dependencies") else { return };
    let Some(items) = deps.as_array().filter(|_| doc.expect(sink, "dependencies", deps, Shape::Array)) else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let field = format!("dependencies[{i}]");
        let ok = match item {
            Value::String(spec) => is_dependency_spec(spec),
            Value::Object(dep) => dep.get("name").is_some_and(Value::is_string),
            _ => false,
        };
        if !ok {
            let message = format!(
                "{field}: {item} is neither \"name\", \"name@marketplace\", \"name@^range\" nor {{\"name\": ...}}"
            );
            doc.report(sink, &INVALID_FIELD, &field, message);
        }
    }
}

/// `^[A-Za-z0-9][-A-Za-z0-9._]*(@[A-Za-z0-9][-A-Za-z0-9._]*)?(@\^[^@]*)?$`
fn is_dependency_spec(spec: &str) -> bool {
    let ident = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
            && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
    };
    let (rest, range) = match spec.find("@^") {
        Some(at) => (&spec[..at], Some(&spec[at + 2..])),
        None => (spec, None),
    };
    if range.is_some_and(|r| r.contains('@')) {
        return false;
    }
    match rest.split_once('@') {
        Some((name, marketplace)) => ident(name) && ident(marketplace),
        None => ident(rest),
    }
}

/// What a component path must be besides a clean `./` path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    Nothing,
    Exists,
    Folder,
}

fn components(doc: Doc<'_>, sink: &mut Sink) {
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

/// Reports keys of a strict (zod `.strict()`) object that it does not allow.
fn strict_keys(doc: Doc<'_>, sink: &mut Sink, field: &str, object: &Map<String, Value>, allowed: &[&str]) {
    for key in object.keys().filter(|k| !allowed.contains(&k.as_str())) {
        let hint = look_alike(key, allowed).map_or(String::new(), |k| format!(" (did you mean {k:?}?)"));
        let message = format!(
            "{field}.{key}: not allowed here{hint}; Claude Code refuses unrecognized keys in this object"
        );
        doc.report(sink, &KEY_NOT_ALLOWED, field, message);
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

fn user_config(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("userConfig") else { return };
    let Some(options) = value.as_object().filter(|_| doc.expect(sink, "userConfig", value, Shape::Object))
    else {
        return;
    };
    for (key, option) in options {
        let field = format!("userConfig.{key}");
        if !is_identifier(key) {
            let message =
                format!("{field}: the key must match ^[A-Za-z_]\\w*$ (it becomes ${{user_config.{key}}})");
            doc.report(sink, &INVALID_FIELD, "userConfig", message);
        }
        let Some(option) = option.as_object().filter(|_| doc.expect(sink, &field, option, Shape::Object))
        else {
            continue;
        };
        strict_keys(doc, sink, &field, option, USER_CONFIG_KEYS);
        for required in ["type", "title", "description"] {
            if !option.contains_key(required) {
                doc.report(
                    sink,
                    &REQUIRED_FIELD_MISSING,
                    "userConfig",
                    format!("{field}.{required}: missing"),
                );
            }
        }
        if let Some(kind) = option.get("type") {
            if !kind.as_str().is_some_and(|k| USER_CONFIG_TYPES.contains(&k)) {
                let message = format!("{field}.type: {kind} is not one of {}", USER_CONFIG_TYPES.join(", "));
                doc.report(sink, &INVALID_FIELD, "userConfig", message);
            }
        }
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn channels(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("channels") else { return };
    let Some(items) = value.as_array().filter(|_| doc.expect(sink, "channels", value, Shape::Array)) else {
        return;
    };
    for (i, channel) in items.iter().enumerate() {
        let field = format!("channels[{i}]");
        let Some(channel) = channel.as_object().filter(|_| doc.expect(sink, &field, channel, Shape::Object))
        else {
            continue;
        };
        strict_keys(doc, sink, &field, channel, CHANNEL_KEYS);
        match channel.get("server") {
            Some(server) => {
                doc.expect(sink, &format!("{field}.server"), server, Shape::Str);
            }
            None => doc.report(sink, &REQUIRED_FIELD_MISSING, "channels", format!("{field}.server: missing")),
        }
    }
}

fn binaries(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("binaries") else { return };
    let Some(entries) = value.as_object() else {
        let message =
            format!("binaries: expected an object of basename -> {{sha256}}, found {}", describe(value));
        doc.report(sink, &BINARIES_INVALID, "binaries", message);
        return;
    };
    for (name, entry) in entries {
        let sha_ok = entry.get("sha256").and_then(Value::as_str).is_some_and(|h| {
            h.len() == 64 && h.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        });
        if !is_binary_name(name) || !sha_ok {
            let message = format!(
                "binaries.{name}: ignored at install; the basename must be lowercase ([a-z0-9._-], no leading or trailing dot) and the value {{\"sha256\": <64 lowercase hex>}}"
            );
            doc.report(sink, &BINARIES_INVALID, "binaries", message);
        }
    }
    if entries.len() > MAX_BINARIES {
        let message = format!(
            "binaries: {} entries; only the first {MAX_BINARIES} are fetched at install",
            entries.len()
        );
        doc.report(sink, &BINARIES_INVALID, "binaries", message);
    }
}

/// `^[a-z0-9](?:[a-z0-9._-]*[a-z0-9_-])?$`
fn is_binary_name(name: &str) -> bool {
    let allowed = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b);
    let bytes = name.as_bytes();
    match bytes {
        [] => false,
        [first, ..] if !(first.is_ascii_lowercase() || first.is_ascii_digit()) => false,
        [.., last] if *last == b'.' => false,
        _ => bytes.iter().all(|b| allowed(*b)),
    }
}

fn unknown_keys(doc: Doc<'_>, sink: &mut Sink) {
    for key in doc.map.keys().filter(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        let message = if key == "user_config" {
            "user_config: the cross-tool spelling of userConfig; rename it to userConfig for Claude Code to read it (the option shapes differ slightly)".to_string()
        } else if let Some((_, origin)) = FOREIGN_KEYS.iter().find(|(k, _)| k == key) {
            format!("{key}: unknown field (commonly seen in {origin}); Claude Code ignores it at load time")
        } else if let Some(meant) = look_alike(key, KNOWN_KEYS) {
            format!("{key}: unknown field; did you mean {meant}? Claude Code ignores it at load time")
        } else {
            format!("{key}: unknown field; Claude Code ignores it at load time")
        };
        doc.report(sink, &UNKNOWN_KEY, key, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_specs_follow_claude_codes_pattern() {
        for ok in ["tools", "tools@market", "tools@^1.2", "tools@market@^1.x", "a.b_c-d"] {
            assert!(is_dependency_spec(ok), "{ok}");
        }
        for bad in ["bad name!", "-x", "a@", "@m", "a@m@n", "a@^1@2"] {
            assert!(!is_dependency_spec(bad), "{bad}");
        }
    }

    #[test]
    fn binary_names_are_lowercase_basenames() {
        assert!(is_binary_name("my-tool") && is_binary_name("tool_2.x_"));
        assert!(!is_binary_name("Bad Name") && !is_binary_name(".hidden") && !is_binary_name("tool."));
    }

    #[test]
    fn kebab_has_no_length_limit() {
        assert!(is_claude_kebab(&"a".repeat(100)) && is_claude_kebab("a-1"));
        assert!(!is_claude_kebab("MyPlugin") && !is_claude_kebab("a--b") && !is_claude_kebab("-a"));
    }
}
