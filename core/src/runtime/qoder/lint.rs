//! How Qoder CLI reads a plugin folder, judged as `qodercli plugins
//! validate` (1.1.52) does: what it refuses is an error, what it warns about
//! a warning; and what it leaves unchecked that breaks a plugin anyway
//! (an agent it refuses at load, a server it drops).

use serde_json::{Map, Value};

use super::facts;
use crate::registry::Runtime;
use crate::lint::doc::{Doc, Shape, is_url, look_alike, path_exists, read_object};
use crate::lint::layout::{
    HookSource, Layout, LayoutInput, McpSource, SkillDepth, command_paths, hook_sources, manifest_path,
    mcp_sources, paths as declared_paths,
};
use crate::lint::manifest_rules::*;
use crate::lint::markdown::{Markdown, at_field};
use crate::lint::{Cx, Sink};

/// Manifest fields holding `./` paths, with the file ending each must have
/// (empty: a file or a folder) [facts::PATH_PREFIX].
const PATH_FIELDS: [(&str, &str); 8] = [
    ("commands", ""),
    ("agents", ".md"),
    ("skills", ""),
    ("outputStyles", ""),
    ("workflowsPath", ""),
    ("workflowsPaths", ""),
    ("hooks", ".json"),
    ("mcpServers", ".json"),
];

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(map) = read_object(cx.folder, facts::MANIFEST_PATH, Runtime::Qoder, sink) else { return };
    let doc = Doc::new(cx.folder, facts::MANIFEST_PATH, Runtime::Qoder, &map);
    name(doc, sink);
    for (key, why) in [("version", "No version specified"), ("description", "No description provided")] {
        if doc.get(key).is_none() {
            let message = format!("{key}: not set; {why} (plugins validate warns)");
            doc.report(sink, &RECOMMENDED_FIELD_MISSING, "", message);
        }
    }
    doc.expect_fields(
        sink,
        &[
            ("version", Shape::Str),
            ("displayName", Shape::Str),
            ("description", Shape::Str),
            ("repository", Shape::Str),
            ("license", Shape::Str),
            ("keywords", Shape::StrList),
            ("settings", Shape::Object),
            ("userConfig", Shape::Object),
            ("dependencies", Shape::Array),
            ("workflowsPaths", Shape::StrList),
        ],
    );
    author(doc, sink);
    if let Some(homepage) = doc.str_field(sink, "homepage").filter(|h| !is_url(h)) {
        doc.report(sink, &URL_INVALID, "homepage", format!("homepage: {homepage:?} is not a URL"));
    }
    component_paths(cx, doc, sink);
    unread_keys(doc, sink);
}

/// `name` is required, not empty and without spaces (errors); not
/// kebab-case is a warning [Q `bja`, `plugin.manifest.name_not_kebab_case`].
fn name(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("name") else {
        let message = "name: missing; Qoder CLI refuses a plugin manifest without a name";
        doc.report(sink, &REQUIRED_FIELD_MISSING, "", message);
        return;
    };
    let Some(name) = doc.str_field(sink, "name") else { return };
    if name.is_empty() {
        doc.report(sink, &NAME_INVALID, "name", "name: the plugin name is empty");
    } else if name.contains(' ') {
        doc.report(sink, &NAME_INVALID, "name", format!("name: {value} contains a space, which Qoder CLI refuses"));
    } else if !is_kebab(name) {
        let message = format!("name: {value} is not kebab-case; Qoder CLI accepts it with a warning");
        doc.report(sink, &NAME_NOT_KEBAB, "name", message);
    }
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`.
fn is_kebab(name: &str) -> bool {
    name.split('-')
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// `{name (not empty), email?, url?}` [Q `hqt`].
fn author(doc: Doc<'_>, sink: &mut Sink) {
    let Some(author) = doc.get("author") else { return };
    if !doc.expect(sink, "author", author, Shape::Object) {
        return;
    }
    match author.get("name") {
        Some(Value::String(name)) if !name.is_empty() => {}
        Some(name) if !name.is_string() => {
            doc.expect(sink, "author.name", name, Shape::Str);
        }
        _ => doc.report(sink, &REQUIRED_FIELD_MISSING, "author", "author.name: missing or empty; an author needs a name"),
    }
    for key in ["email", "url"] {
        if let Some(value) = author.get(key) {
            doc.expect(sink, &format!("author.{key}"), value, Shape::Str);
        }
    }
}

/// Every string path of the component fields starts with `./`, ends as its
/// field requires and exists [Q `F7`, `GUA`, `Wqr`, `plugin.component.path_not_found`].
fn component_paths(cx: &Cx<'_>, doc: Doc<'_>, sink: &mut Sink) {
    for (key, ending) in PATH_FIELDS {
        let Some(value) = doc.get(key) else { continue };
        let entries: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            Value::Object(named) if key == "commands" => named.values().filter_map(|c| c.get("source")).collect(),
            other => vec![other],
        };
        for raw in entries.into_iter().filter_map(Value::as_str) {
            if !raw.starts_with(facts::PATH_PREFIX) {
                let message = format!("{key}: {raw:?} must start with ./ (Qoder CLI refuses the manifest)");
                doc.report(sink, &PATH_NOT_RELATIVE, key, message);
                continue;
            }
            if !ending.is_empty() && !raw.ends_with(ending) {
                let message = format!("{key}: {raw:?} must end with {ending} (Qoder CLI refuses the manifest)");
                doc.report(sink, &INVALID_FIELD, key, message);
                continue;
            }
            match manifest_path(raw) {
                None => {
                    let message = format!("{key}: {raw:?} leaves the plugin folder");
                    doc.report(sink, &PATH_ESCAPES, key, message);
                }
                Some(rel) if !path_exists(cx.folder, &rel) => {
                    let message = format!("{key}: {raw:?} does not exist (plugin.component.path_not_found)");
                    doc.report(sink, &PATH_NOT_FOUND, key, message);
                }
                Some(_) => {}
            }
        }
    }
}

/// Fields Qoder accepts and ignores, each a warning `--strict` refuses:
/// marketplace fields, fields it does not implement yet, unknown ones
/// [facts::MARKETPLACE_ONLY_KEYS, facts::UNIMPLEMENTED_KEYS, facts::MANIFEST_KEYS].
fn unread_keys(doc: Doc<'_>, sink: &mut Sink) {
    for key in doc.map.keys() {
        let message = if facts::MARKETPLACE_ONLY_KEYS.contains(&key.as_str()) {
            format!("{key}: belongs in marketplace.json; Qoder CLI ignores it in plugin.json")
        } else if facts::UNIMPLEMENTED_KEYS.contains(&key.as_str()) {
            format!("{key}: recognized by Qoder CLI but not implemented; ignored at runtime")
        } else if facts::MANIFEST_KEYS.contains(&key.as_str()) {
            continue;
        } else if let Some(meant) = look_alike(key, &facts::MANIFEST_KEYS) {
            format!("{key}: unknown field; did you mean {meant}? Qoder CLI ignores it")
        } else {
            format!("{key}: unknown field; Qoder CLI ignores it")
        };
        doc.report(sink, &UNKNOWN_KEY, key, message);
    }
}

/// Claude Code's default folders, changed by the manifest: a component
/// field replaces its folder, `hooks` and `mcpServers` add to the file
/// read by location; skills are found at any depth [facts::COMMANDS_DIR,
/// facts::HOOKS_FILE, facts::MCP_FILES].
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.skill_dirs = input.field("skills").map_or_else(|| vec![facts::SKILLS_DIR.into()], declared_paths);
    layout.skill_depth = SkillDepth::Recursive;
    layout.commands = input.field("commands").map_or_else(|| vec![facts::COMMANDS_DIR.into()], command_paths);
    layout.agents = input.field("agents").map_or_else(|| vec![facts::AGENTS_DIR.into()], declared_paths);
    layout.hooks.push(HookSource::File(facts::HOOKS_FILE.into()));
    layout
        .hooks
        .extend(input.field("hooks").map(|v| hook_sources(v, input.manifest_rel)).unwrap_or_default());
    if let Some(file) = facts::MCP_FILES.iter().find(|f| input.folder.exists(f)) {
        layout.mcp.push(McpSource::File((*file).into()));
    }
    layout
        .mcp
        .extend(input.field("mcpServers").map(|v| mcp_sources(v, input.manifest_rel)).unwrap_or_default());
}

/// An agent Qoder refuses at load, which `plugins validate` reports but
/// its inventory then leaves out, and keys it silently drops.
pub(crate) fn check_agent(cx: &Cx<'_>, doc: &Markdown, sink: &mut Sink) {
    let Some(frontmatter) = &doc.frontmatter else { return };
    let problem = match frontmatter.get("name") {
        None | Some(Value::Null) => Some(("name", "no `name`".to_string())),
        Some(_) => agent_field_problem(frontmatter),
    };
    if let Some((key, problem)) = problem {
        let rule = match key {
            "description" => &crate::lint::component_rules::agent::MISSING_DESCRIPTION,
            "name" if problem.starts_with("no ") => &crate::lint::component_rules::agent::MISSING_FIELD,
            _ => &crate::lint::component_rules::agent::INVALID_FIELD,
        };
        let message = format!("{problem}: Qoder CLI refuses the agent (plugin.agent.invalid)");
        sink.report(rule, Some(Runtime::Qoder), Some(at_field(cx, doc, key)), message);
    }
}

/// Why Qoder refuses an agent with this frontmatter, if it does, besides a
/// missing `name`, which the writer gives it [facts::AGENT_KEYS].
pub(crate) fn agent_problem(frontmatter: Option<&Map<String, Value>>) -> Option<String> {
    match frontmatter {
        None => Some("no frontmatter".into()),
        Some(frontmatter) => agent_field_problem(frontmatter).map(|(_, problem)| problem),
    }
}

fn agent_field_problem(fm: &Map<String, Value>) -> Option<(&'static str, String)> {
    let text = |key: &str| fm.get(key).filter(|v| !v.is_null());
    match text("description") {
        Some(Value::String(s)) if !s.is_empty() => {}
        Some(other) if !other.is_string() => {
            return Some(("description", format!("`description` must be text, not {other}")));
        }
        _ => return Some(("description", "no `description`".into())),
    }
    if let Some(name) = text("name").filter(|n| n.as_str().is_none_or(str::is_empty)) {
        return Some(("name", format!("`name` must be non-empty text, not {name}")));
    }
    let strings = |v: &Value| v.is_string() || v.as_array().is_some_and(|a| a.iter().all(Value::is_string));
    for key in ["tools", "disallowedTools", "skills"] {
        if let Some(value) = text(key).filter(|v| !strings(v)) {
            return Some((key, format!("`{key}` must be text or a list of text, not {value}")));
        }
    }
    for key in ["model", "initialPrompt", "permissionMode"] {
        if let Some(value) = text(key).filter(|v| !v.is_string()) {
            return Some((key, format!("`{key}` must be text, not {value}")));
        }
    }
    let positive = |v: &Value| v.as_u64().is_some_and(|n| n > 0);
    for key in ["maxTurns", "timeoutMins"] {
        if let Some(value) = text(key).filter(|v| !positive(v)) {
            return Some((key, format!("`{key}` must be a positive whole number, not {value}")));
        }
    }
    if let Some(value) = text("temperature").filter(|v| !v.is_number()) {
        return Some(("temperature", format!("`temperature` must be a number, not {value}")));
    }
    let one_of = |key: &'static str, allowed: &[&str]| {
        text(key).filter(|v| !v.as_str().is_some_and(|s| allowed.contains(&s))).map(|value| {
            (key, format!("`{key}` must be one of {}, not {value}", allowed.join(", ")))
        })
    };
    if let Some(found) = one_of("color", &facts::AGENT_COLORS)
        .or_else(|| one_of("memory", &facts::AGENT_MEMORY))
        .or_else(|| one_of("isolation", &["worktree"]))
    {
        return Some(found);
    }
    if let Some(value) = text("effort").filter(|v| !(positive(v) || v.as_str().is_some_and(|s| facts::AGENT_EFFORTS.contains(&s)))) {
        return Some(("effort", format!("`effort` must be one of {} or a positive whole number, not {value}", facts::AGENT_EFFORTS.join(", "))));
    }
    if let Some(value) = text("background").filter(|v| !v.is_boolean()) {
        return Some(("background", format!("`background` must be true or false, not {value}")));
    }
    None
}

/// Why Qoder drops this MCP server, if it does [facts::MCP_STRING_FIELDS].
pub(crate) fn server_problem(server: &Value) -> Option<String> {
    let Some(server) = server.as_object() else { return Some(format!("the server is {server}, not an object")) };
    for key in facts::MCP_STRING_FIELDS {
        if let Some(value) = server.get(key).filter(|v| !v.is_string()) {
            return Some(format!("`{key}` must be text, not {value}"));
        }
    }
    if let Some(args) = server.get("args").filter(|a| !a.as_array().is_some_and(|a| a.iter().all(Value::is_string))) {
        return Some(format!("`args` must be a list of text, not {args}"));
    }
    if let Some(env) = server.get("env").filter(|e| !e.as_object().is_some_and(|m| m.values().all(Value::is_string))) {
        return Some(format!("`env` must map names to text, not {env}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fm(value: Value) -> Map<String, Value> {
        value.as_object().cloned().expect("an object")
    }

    #[test]
    fn agents_follow_qoders_agent_schema() {
        assert_eq!(agent_problem(Some(&fm(json!({"name": "a", "description": "D", "tools": ["Read"]})))), None);
        assert_eq!(agent_problem(None).as_deref(), Some("no frontmatter"));
        let no_description = agent_problem(Some(&fm(json!({"name": "a"}))));
        assert_eq!(no_description.as_deref(), Some("no `description`"));
        let color = agent_problem(Some(&fm(json!({"description": "D", "color": "teal"})))).unwrap();
        assert!(color.starts_with("`color` must be one of red"), "{color}");
        let turns = agent_problem(Some(&fm(json!({"description": "D", "maxTurns": 0})))).unwrap();
        assert!(turns.contains("positive whole number"), "{turns}");
        assert_eq!(agent_problem(Some(&fm(json!({"description": "D", "effort": "xhigh"})))), None);
    }

    #[test]
    fn servers_follow_qoders_server_schema() {
        assert_eq!(server_problem(&json!({"command": "x", "args": ["a"], "env": {"K": "v"}})), None);
        assert_eq!(server_problem(&json!({"command": "x", "args": 5})).unwrap(), "`args` must be a list of text, not 5");
        assert!(server_problem(&json!({"url": "https://x", "env": {"K": 1}})).is_some());
    }
}
