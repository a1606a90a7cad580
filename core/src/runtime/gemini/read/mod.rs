//! Gemini CLI extensions: `gemini-extension.json` (metadata, inline MCP
//! servers, context file), TOML commands -> Markdown commands, agents with
//! Gemini tool names -> Claude tool names, Gemini hook events -> Claude's,
//! and `${extensionPath}` -> `${PLUGIN_ROOT}`.

mod command;

use serde_json::{Map, Value, json};

use crate::draft::common::{self, SkillFile, Spelling, skip_regenerated};
use crate::draft::Draft;
use crate::draft::manifest::{Manifest, entries, relative, short};
use crate::draft::markdown::Markdown;
use crate::error::{Location, Result};
use crate::path::BundlePath;
use crate::runtime::gemini::{hooks::claude_event, tools::claude_tool};
use crate::source::{SourceFile, SourceTree};
use crate::codes::DiagnosticCode;

pub const MANIFEST: &str = crate::runtime::gemini::facts::MANIFEST_PATH;
const DEFAULT_CONTEXT: &str = "GEMINI.md";
/// Fields only Gemini CLI reads; kept for its bundle alone.
const GEMINI_ONLY: [&str; 5] = ["excludeTools", "settings", "themes", "plan", "migratedTo"];
/// Gemini events whose matcher is a regex over tool names.
const TOOL_EVENTS: [&str; 2] = ["BeforeTool", "AfterTool"];

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    let file = tree.get(MANIFEST).ok_or_else(|| crate::draft::missing_marker(MANIFEST))?;
    let mut manifest = Manifest::read(MANIFEST, &file.bytes)?;
    let native_name = manifest.fields.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    manifest.metadata(draft, None);
    let servers = manifest.take("mcpServers");
    let context = context_files(tree, &mut manifest, draft);
    manifest.keep_for(draft, "gemini", "Gemini CLI", &GEMINI_ONLY);
    let spelling = spelling(&native_name);
    if let Some(servers) = servers {
        import_servers(draft, &manifest, servers, &spelling)?;
    }
    manifest.rest(draft, "Gemini CLI");
    for (path, file) in tree.iter() {
        let p = path.as_str();
        if p == MANIFEST || skip_regenerated(draft, p) {
            continue;
        }
        if let Some(index) = context.iter().position(|c| c == p) {
            let to = if index == 0 { "AGENTS.md" } else { p };
            common::copy_spelled(draft, p, to, file, &spelling)?;
            if index > 0 {
                let message = "a further context file: the canonical source has one (AGENTS.md), so it is copied as a support file no runtime loads";
                draft.note(DiagnosticCode::ExtraContextFile, Location::file(p), message);
            }
            continue;
        }
        place(tree, draft, &native_name, path, file, &spelling, !context.is_empty())?;
    }
    Ok(())
}

/// Gemini's spellings of the plugin root and data folders, as `build` writes them.
fn spelling(name: &str) -> Spelling {
    crate::runtime::claude_code::read::spelling()
        .with(crate::runtime::gemini::facts::PLUGIN_ROOT, "${PLUGIN_ROOT}")
        // Gemini hydrates the path separator too, in the manifest, hooks, skills and
        // agents (`VARIABLE_SCHEMA` and the hooks loader of 0.61.0): a canonical path
        // spells it `/`.
        .with("${/}", "/")
        .with("${pathSeparator}", "/")
        .with(format!("~/.gemini/extensions/{name}"), "${PLUGIN_ROOT}")
        .with(format!("$HOME/.gemini/plugin-data/{name}"), "${PLUGIN_DATA}")
        .with(format!("~/.gemini/plugin-data/{name}"), "${PLUGIN_DATA}")
}

/// `contextFileName` (one or a list), else `GEMINI.md` when present.
fn context_files(tree: &SourceTree, manifest: &mut Manifest, draft: &mut Draft) -> Vec<String> {
    let Some(value) = manifest.take("contextFileName") else {
        return tree.get(DEFAULT_CONTEXT).map(|_| vec![DEFAULT_CONTEXT.to_string()]).unwrap_or_default();
    };
    let mut found = Vec::new();
    for entry in entries(&value) {
        match entry.as_str().and_then(relative) {
            Some(path) if tree.get(&path).is_some() => found.push(path),
            _ => manifest.note(
                draft,
                DiagnosticCode::MissingFile,
                "contextFileName",
                format!("context file {} is not in the extension; left out", short(&entry)),
            ),
        }
    }
    found
}

fn place(
    tree: &SourceTree,
    draft: &mut Draft,
    name: &str,
    path: &BundlePath,
    file: &SourceFile,
    spelling: &Spelling,
    has_context: bool,
) -> Result<()> {
    let p = path.as_str();
    if let Some(rel) = p.strip_prefix("commands/").and_then(|r| r.strip_suffix(".toml")) {
        return command::command(draft, name, p, rel, file, spelling);
    }
    // Gemini CLI loads only TOML commands: a Markdown twin (a file other
    // hosts load) would take the imported command's path.
    let twin = p.strip_prefix("commands/").and_then(|r| r.strip_suffix(".md")).map(|r| format!("commands/{r}.toml"));
    if twin.is_some_and(|toml| tree.get(&toml).is_some()) {
        let message = "not imported: Gemini CLI loads the TOML command of the same name, which is imported";
        draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
        return Ok(());
    }
    if p == "skills/SKILL.md" {
        return common::copy_spelled(draft, p, &format!("skills/{name}/SKILL.md"), file, spelling);
    }
    match common::skill_file(tree, draft, p, &["skills"], "Gemini CLI") {
        SkillFile::Outside => {}
        SkillFile::Skipped => return Ok(()),
        SkillFile::Inside(rel) if rel.ends_with("/SKILL.md") => {
            return common::copy_spelled(draft, p, p, file, spelling);
        }
        SkillFile::Inside(_) => return common::copy(draft, path, file),
    }
    if let Some(rel) = p.strip_prefix("agents/").filter(|r| r.ends_with(".md") && !r.contains('/')) {
        if rel.starts_with('_') {
            let message = "not imported: Gemini CLI skips agent files whose name starts with _";
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            return Ok(());
        }
        return agent(draft, p, file, spelling);
    }
    if p == "hooks/hooks.json" {
        return hooks(draft, p, file, spelling);
    }
    if p == ".env" {
        let message = "holds the extension's setting values (possibly secrets) and is never imported";
        draft.note(DiagnosticCode::SkippedFile, Location::file(p), message);
        return Ok(());
    }
    if p == "AGENTS.md" && has_context {
        let message = "AGENTS.md is not imported: Gemini CLI does not load it, and the extension's context file becomes AGENTS.md";
        draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
        return Ok(());
    }
    if p.starts_with("policies/") {
        let message = "a Gemini CLI policy: copied as a support file, which other runtimes ignore";
        draft.note(DiagnosticCode::RuntimeOnlyFile, Location::file(p), message);
    }
    common::copy(draft, path, file)
}

/// An agent: Gemini tool names become Claude's where one stands for them.
fn agent(draft: &mut Draft, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let mut markdown = Markdown::parse(from, common::text(from, file)?)?;
    if let Some(frontmatter) = markdown.frontmatter.as_mut() {
        if let Some(tools) = frontmatter.get("tools") {
            let names: Vec<String> =
                crate::runtime::gemini::tools::names(tools).iter().map(|t| claude_name(t)).collect();
            frontmatter.insert("tools".into(), json!(names.join(", ")));
        }
        if frontmatter.get("kind").and_then(Value::as_str) == Some("local") {
            frontmatter.shift_remove("kind");
        }
    }
    markdown.body = spelling.text(&markdown.body);
    draft.add_markdown(from, markdown, from)
}

fn claude_name(gemini: &str) -> String {
    if let Some(claude) = claude_tool(gemini) {
        return claude.to_string();
    }
    match gemini.strip_prefix("mcp_").and_then(|rest| rest.split_once('_')) {
        Some((server, "*")) => format!("mcp__{server}"),
        Some((server, tool)) => format!("mcp__{server}__{tool}"),
        None => gemini.to_string(),
    }
}

fn hooks(draft: &mut Draft, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let value = common::json(from, file)?;
    let Value::Object(mut object) = value else {
        return Err(crate::draft::json_parts::invalid(from, "a hooks config must be a JSON object"));
    };
    let events = match object.shift_remove("hooks") {
        Some(Value::Object(events)) => events,
        _ => return Err(crate::draft::json_parts::invalid(from, "a hooks config needs a \"hooks\" object")),
    };
    let mut out = Map::new();
    if let Some(description) = object.shift_remove("description") {
        out.insert("description".into(), description);
    }
    for key in object.keys() {
        draft.note(
            DiagnosticCode::UnknownField,
            Location::file(from),
            format!("hooks config key \"{key}\" has no canonical counterpart; left out"),
        );
    }
    let mut translated = Map::new();
    for (event, groups) in events {
        let Some(claude) = claude_event(&event) else {
            let message = format!(
                "Gemini hook event {event} has no canonical (Claude Code) counterpart; its handlers are left out"
            );
            draft.note(DiagnosticCode::UnsupportedHookEvent, Location::file(from), message);
            continue;
        };
        let groups: Vec<Value> = groups
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|g| group(draft, from, &event, g, spelling))
            .collect();
        match translated.get_mut(claude) {
            Some(Value::Array(existing)) => existing.extend(groups),
            _ => {
                translated.insert(claude.to_string(), Value::Array(groups));
            }
        }
    }
    out.insert("hooks".into(), Value::Object(translated));
    draft.add_hooks(Value::Object(out), from)
}

fn group(draft: &mut Draft, from: &str, event: &str, group: Value, spelling: &Spelling) -> Value {
    let Value::Object(mut group) = group else { return group };
    if let Some(Value::String(matcher)) = group.get_mut("matcher") {
        if TOOL_EVENTS.contains(&event) {
            let names: Vec<String> = matcher.split('|').map(|t| claude_name(t.trim())).collect();
            *matcher = names.join("|");
        }
    }
    if let Some(Value::Array(handlers)) = group.get_mut("hooks") {
        for handler in handlers.iter_mut().filter_map(Value::as_object_mut) {
            let extra: Vec<String> = handler
                .keys()
                .filter(|k| !["type", "command", "timeout"].contains(&k.as_str()))
                .cloned()
                .collect();
            for key in extra {
                handler.shift_remove(&key);
                let message =
                    format!("hook handler key \"{key}\" ({event}) has no canonical counterpart; left out");
                draft.note(DiagnosticCode::UnknownField, Location::file(from), message);
            }
            if let Some(Value::String(command)) = handler.get_mut("command") {
                *command = spelling.text(command);
            }
            if let Some(ms) = handler.get("timeout").and_then(Value::as_f64) {
                // Gemini counts milliseconds, the canonical (Claude) dialect seconds.
                let seconds = ms / 1000.0;
                let value = if seconds.fract() == 0.0 { json!(seconds as u64) } else { json!(seconds) };
                handler.insert("timeout".into(), value);
            }
        }
    }
    Value::Object(group)
}

/// Inline `mcpServers` -> `.mcp.json`: `httpUrl` is streamable HTTP, `url` SSE.
fn import_servers(draft: &mut Draft, manifest: &Manifest, servers: Value, spelling: &Spelling) -> Result<()> {
    let Value::Object(servers) = servers else {
        manifest.note(
            draft,
            DiagnosticCode::InvalidField,
            "mcpServers",
            "\"mcpServers\" is not an object; left out".into(),
        );
        return Ok(());
    };
    let mut out = Map::new();
    for (name, server) in servers {
        let Value::Object(mut server) = server else {
            manifest.note(
                draft,
                DiagnosticCode::InvalidField,
                &name,
                format!("MCP server {name:?} is not an object; left out"),
            );
            continue;
        };
        let remote = match (server.shift_remove("httpUrl"), server.shift_remove("url")) {
            (Some(url), _) => Some(("http", url)),
            (None, Some(url)) => Some(("sse", url)),
            (None, None) => None,
        };
        if let Some((transport, url)) = remote {
            let mut first = Map::new();
            first.insert("type".into(), json!(transport));
            first.insert("url".into(), url);
            first.extend(server);
            server = first;
        }
        if !server.contains_key("command") && !server.contains_key("url") {
            let message = format!(
                "MCP server {name:?} has neither a command nor a url (a tcp server?), which the canonical source needs; left out"
            );
            manifest.note(draft, DiagnosticCode::UnsupportedServer, &name, message);
            continue;
        }
        out.insert(name, spelling.json(Value::Object(server)));
    }
    draft.add_servers(json!({ "mcpServers": out }), MANIFEST)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_markdown_twin_of_a_toml_command_is_left_out() {
        let mut tree = SourceTree::new();
        tree.insert(MANIFEST, br#"{"name": "kit", "version": "1.0.0"}"#.to_vec(), false).unwrap();
        tree.insert("commands/go.toml", b"prompt = \"Go {{args}}\"\n".to_vec(), false).unwrap();
        tree.insert("commands/go.md", b"Go $ARGUMENTS\n".to_vec(), false).unwrap();
        let options = crate::ImportOptions { from: Some("gemini".into()), ..Default::default() };
        let imported = crate::import(&tree, &options).unwrap();
        let go = imported.source.get("commands/go.md").unwrap();
        assert_eq!(std::str::from_utf8(&go.bytes).unwrap(), "Go $ARGUMENTS");
        assert!(imported.notes.iter().any(|n| n.code == DiagnosticCode::UnusedFile && n.file() == Some("commands/go.md")));
    }

    #[test]
    fn the_path_separator_variables_read_as_a_slash() {
        let spelled = spelling("kit").text("node \"${extensionPath}${/}hooks${pathSeparator}check.js\"");
        assert_eq!(spelled, "node \"${PLUGIN_ROOT}/hooks/check.js\"");
    }

    #[test]
    fn gemini_tool_names_become_claude_names() {
        assert_eq!(claude_name("read_file"), "Read");
        assert_eq!(claude_name("replace"), "Edit");
        assert_eq!(claude_name("mcp_storage_list"), "mcp__storage__list");
        assert_eq!(claude_name("mcp_storage_*"), "mcp__storage");
        assert_eq!(claude_name("tracker_create_task"), "tracker_create_task");
    }
}
