//! Gemini CLI's extension manifest ([`MANIFEST`]), as `gemini extensions validate`
//! (0.61) and the extension loader judge it.

use crate::lint::layout::{HookSource, Layout, LayoutInput, McpSource};
use serde_json::Value;

use crate::lint::doc::{Doc, PathProblem, Shape, look_alike, path_exists, read_object, relative_path};
use crate::lint::manifest_rules::*;
use crate::lint::Cx;
use crate::format::toml_doc;
use crate::lint::Sink;
use crate::lint::component_rules::command::{IGNORED_FILE, INVALID_FIELD as INVALID_COMMAND_FIELD, INVALID_TOML, MISSING_PROMPT};
use crate::lint::component_rules::agent::{INVALID_FIELD as INVALID_AGENT_FIELD, UNKNOWN_FIELD as UNKNOWN_AGENT_FIELD};
use crate::lint::markdown::{Markdown, at_field, files, kind, required_agent_fields};

pub(super) const MANIFEST: &str = super::facts::MANIFEST_PATH;

const KNOWN_KEYS: &[&str] = &[
    "name",
    "version",
    "description",
    "mcpServers",
    "contextFileName",
    "excludeTools",
    "settings",
    "themes",
    "plan",
    "migratedTo",
];

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(object) = read_object(cx.folder, MANIFEST, crate::registry::Runtime::Gemini, sink) else { return };
    let map = &object;
    let doc = Doc::new(cx.folder, MANIFEST, crate::registry::Runtime::Gemini, map);
    for key in ["name", "version"] {
        if doc.get(key).is_none() {
            let message = format!("{key}: missing; Gemini CLI refuses an extension without a {key}");
            doc.report(sink, &REQUIRED_FIELD_MISSING, "", message);
        }
    }
    if let Some(name) = doc.str_field(sink, "name") {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            let message = format!(
                "name: {name:?} may hold only letters (a-z, A-Z), digits (0-9) and dashes (-), and not be empty"
            );
            doc.report(sink, &NAME_INVALID, "name", message);
        }
    }
    if let Some(version) = doc.str_field(sink, "version") {
        if !is_semver(version) {
            let message = format!("version: {version:?} is not a semantic version such as 1.0.0");
            doc.report(sink, &VERSION_NOT_SEMVER, "version", message);
        }
    }
    doc.expect_fields(
        sink,
        &[
            ("description", Shape::Str),
            ("mcpServers", Shape::Object),
            ("contextFileName", Shape::StrOrStrList),
            ("excludeTools", Shape::StrList),
            ("settings", Shape::Array),
            ("themes", Shape::Array),
            ("plan", Shape::Object),
            ("migratedTo", Shape::Str),
        ],
    );
    context_files(doc, sink);
    if let Some(Value::String(dir)) = doc.get("plan").and_then(|plan| plan.get("directory")) {
        inside(doc, sink, "plan.directory", dir);
    }
    for key in map.keys().filter(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        let hint = look_alike(key, KNOWN_KEYS).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        doc.report(sink, &UNKNOWN_KEY, key, format!("{key}: unknown field{hint}; Gemini CLI ignores it"));
    }
}

fn context_files(doc: Doc<'_>, sink: &mut Sink) {
    let names: Vec<&str> = match doc.get("contextFileName") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    for name in names {
        if let Some(rel) = inside(doc, sink, "contextFileName", name) {
            if !path_exists(doc.folder, &rel) {
                let message = format!("contextFileName: {name:?} not found in the extension");
                doc.report(sink, &PATH_NOT_FOUND, "contextFileName", message);
            }
        }
    }
}

/// `path` relative to the extension, or `None` (reported) when it is
/// absolute or leaves the extension.
fn inside(doc: Doc<'_>, sink: &mut Sink, field: &str, path: &str) -> Option<String> {
    match relative_path(path) {
        Ok(rel) => Some(rel),
        Err(PathProblem::Absolute) => {
            let message =
                format!("{field}: {path:?} is absolute; Gemini CLI wants a path relative to the extension");
            doc.report(sink, &PATH_NOT_RELATIVE, field, message);
            None
        }
        Err(PathProblem::Escapes) => {
            let message = format!("{field}: {path:?} contains \"..\"; it must stay inside the extension");
            doc.report(sink, &PATH_ESCAPES, field, message);
            None
        }
    }
}

/// `semver.valid`: MAJOR.MINOR.PATCH without leading zeros, optional
/// `-prerelease` and `+build`, an optional leading `v` or `=`.
pub(crate) fn is_semver(version: &str) -> bool {
    let version = version.trim().trim_start_matches(['v', '=']);
    let (core, build) = version.split_once('+').map_or((version, None), |(c, b)| (c, Some(b)));
    let (core, pre) = core.split_once('-').map_or((core, None), |(c, p)| (c, Some(p)));
    let ident_ok = |part: &str| {
        part.split('.').all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    };
    let numbers: Vec<&str> = core.split('.').collect();
    numbers.len() == 3
        && numbers.iter().all(|n| {
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (n.len() == 1 || !n.starts_with('0'))
        })
        && pre.is_none_or(ident_ok)
        && build.is_none_or(ident_ok)
}

/// Keys of Gemini CLI 0.61's agent frontmatter schema (local and remote agents).
const GEMINI_KEYS: [&str; 13] = [
    "auth",
    "kind",
    "name",
    "description",
    "display_name",
    "tools",
    "mcp_servers",
    "model",
    "temperature",
    "max_turns",
    "timeout_mins",
    "agent_card_url",
    "agent_card_json",
];

/// Gemini CLI's strict agent schema: required fields, known keys, types and
/// tool names (an unknown key or a Claude-style `tools: Read, Grep` fails
/// the agent's load).
pub(crate) fn check_agent(cx: &Cx<'_>, doc: &Markdown, sink: &mut Sink) {
    // Remote agents (an agent card) may leave out the description.
    let remote = doc.field("agent_card_url").is_some() || doc.field("agent_card_json").is_some();
    let keys: &[&str] = if remote { &["name"] } else { &["name", "description"] };
    required_agent_fields(cx, super::SPEC.name, doc, keys, sink);
    let id = Some(crate::registry::Runtime::Gemini);
    let Some(frontmatter) = &doc.frontmatter else { return };
    for key in frontmatter.keys().filter(|k| !GEMINI_KEYS.contains(&k.as_str())) {
        sink.report(
            &UNKNOWN_AGENT_FIELD,
            id,
            Some(at_field(cx, doc, key)),
            format!("`{key}` is not a Gemini agent field: Gemini CLI fails to load the agent"),
        );
    }
    let mut invalid = |key: &str, message: String| {
        sink.report(&INVALID_AGENT_FIELD, id, Some(at_field(cx, doc, key)), message);
    };
    if let Some(name) = doc.field("name") {
        let valid = name.as_str().is_some_and(|n| {
            !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        });
        if !valid {
            invalid("name", format!("`name` {name} must match ^[a-z0-9-_]+$ for Gemini CLI"));
        }
    }
    for key in ["description", "display_name", "model"] {
        if let Some(value) = doc.field(key).filter(|v| !v.is_string()) {
            invalid(key, format!("`{key}` must be a string, not {}", kind(value)));
        }
    }
    if let Some(tools) = doc.field("tools") {
        match tools.as_array().filter(|items| items.iter().all(Value::is_string)) {
            None => {
                invalid("tools", format!("`tools` must be a YAML list of tool names, not {}", kind(tools)))
            }
            Some(items) => {
                for tool in items.iter().filter_map(Value::as_str).filter(|t| !gemini_tool(t)) {
                    invalid(
                        "tools",
                        format!(
                            "`{tool}` is not a Gemini CLI tool name (e.g. read_file, grep_search, run_shell_command)"
                        ),
                    );
                }
            }
        }
    }
    if let Some(agent_kind) = doc.field("kind") {
        if !matches!(agent_kind.as_str(), Some("local" | "remote")) {
            invalid("kind", format!("`kind` must be local or remote, not {agent_kind}"));
        }
    }
}

/// Gemini CLI 0.61 still accepts this legacy name beside its built-in tools.
const GEMINI_LEGACY_TOOL: &str = "search_file_content";

/// Gemini's `isValidToolName` with wildcards allowed: a built-in, a
/// `discovered_tool_` name, `*`, or `mcp_<server>_<tool>`.
fn gemini_tool(name: &str) -> bool {
    let slug =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(&b));
    if super::tools::GEMINI_TOOLS.contains(&name)
        || name == GEMINI_LEGACY_TOOL
        || name.starts_with("discovered_tool_")
        || name == "*"
        || name == "mcp_*"
    {
        return true;
    }
    let Some(rest) = name.strip_prefix("mcp_").filter(|r| !r.starts_with('_')) else { return false };
    match rest.split_once('_') {
        Some((server, tool)) => {
            slug(server) && (tool == "*" || (!tool.trim_start_matches('_').is_empty() && slug(tool)))
        }
        None => false,
    }
}

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.commands = vec!["commands".into()];
    layout.agents = vec!["agents".into()];
    layout.hooks.push(HookSource::File("hooks/hooks.json".into()));
    if let Some(servers) = input.field("mcpServers") {
        layout.mcp.push(McpSource::Inline {
            manifest: input.manifest_rel.to_string(),
            key: "mcpServers",
            servers: servers.clone(),
        });
    }

}

/// Markers of runtimes whose plugins read Markdown commands from `commands/`.
const MARKDOWN_COMMAND_MARKERS: [&str; 3] = [
    crate::runtime::claude_code::facts::MANIFEST_PATH,
    crate::runtime::codex::facts::MANIFEST_PATH,
    crate::runtime::cursor::facts::MANIFEST_PATH,
];

/// Gemini CLI's own command format: `commands/**/*.toml` with a string
/// `prompt` (and an optional string `description`); its `FileCommandLoader`
/// skips any other file.
pub(crate) fn check_commands(cx: &Cx<'_>, dirs: &[String], sink: &mut Sink) {
    for dir in dirs {
        for rel in files(cx, dir, &[".toml"], true) {
            check_toml(cx, &rel, sink);
        }
        if !MARKDOWN_COMMAND_MARKERS.iter().any(|m| cx.folder.exists(m)) {
            for rel in files(cx, dir, &[".md"], true) {
                sink.report(
                    &IGNORED_FILE,
                    Some(crate::registry::Runtime::Gemini),
                    Some(cx.folder.at(&rel)),
                    format!("{rel} is Markdown: Gemini CLI skips it and loads only .toml commands"),
                );
            }
        }
    }
}

fn check_toml(cx: &Cx<'_>, rel: &str, sink: &mut Sink) {
    let Some(text) = cx.folder.text(rel, sink) else { return };
    let gemini = Some(crate::registry::Runtime::Gemini);
    let doc = match toml_doc::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let at = cx.folder.at_line(rel, e.line, e.column);
            sink.report(
                &INVALID_TOML,
                gemini,
                Some(at),
                format!("invalid TOML: {}; Gemini CLI skips this command", e.message),
            );
            return;
        }
    };
    let at_key = |key: &str| match doc.line_of(key) {
        Some(line) => cx.folder.at_line(rel, line, 1),
        None => cx.folder.at(rel),
    };
    match doc.table.get("prompt") {
        None => sink.report(
            &MISSING_PROMPT,
            gemini,
            Some(cx.folder.at(rel)),
            "no `prompt`: Gemini CLI skips this command",
        ),
        Some(Value::String(_)) => {}
        Some(other) => sink.report(
            &INVALID_COMMAND_FIELD,
            gemini,
            Some(at_key("prompt")),
            format!("`prompt` must be a string, not {}", kind(other)),
        ),
    }
    if let Some(description) = doc.table.get("description").filter(|d| !d.is_string()) {
        sink.report(
            &INVALID_COMMAND_FIELD,
            gemini,
            Some(at_key("description")),
            format!("`description` must be a string, not {}", kind(description)),
        );
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_matches_node_semver_valid() {
        for ok in ["1.0.0", "v1.2.3", "0.7.3-beta.1+build.5", "10.20.30"] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in ["1", "1.0", "01.0.0", "1.0.0-", "a.b.c", ""] {
            assert!(!is_semver(bad), "{bad}");
        }
    }

    #[test]
    fn gemini_tool_names_follow_its_checker() {
        for ok in [
            "read_file",
            "search_file_content",
            "*",
            "mcp_*",
            "mcp_db_query",
            "mcp_db_*",
            "discovered_tool_x",
        ] {
            assert!(gemini_tool(ok), "{ok}");
        }
        for bad in ["Read", "grep", "mcp__x", "mcp_db", "mcp_db___", "mcp_d b_q"] {
            assert!(!gemini_tool(bad), "{bad}");
        }
    }
}
