//! Factory Droid plugins as a canonical source: `.factory-plugin/plugin.json`
//! (metadata), `skills/`, `commands/` (a `#` heading on the first line is
//! the description Droid lists), `droids/` (its sub-agents, read back as
//! agents with Claude Code's tool names), `output-styles/`,
//! `hooks/hooks.json` (or a root `hooks.json`) kept to the events Droid runs,
//! and `mcp.json`; `${DROID_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_ROOT}` read
//! back as `${PLUGIN_ROOT}`.

use serde_json::{Map, Value, json};

use super::facts;
use crate::codes::DiagnosticCode;
use crate::draft::Draft;
use crate::draft::common::{self, SkillFile, Spelling, skip_regenerated};
use crate::draft::manifest::Manifest;
use crate::draft::markdown::Markdown;
use crate::error::{Location, Result};
use crate::path::BundlePath;
use crate::source::{SourceFile, SourceTree};

const MANIFEST: &str = facts::MANIFEST_PATH;

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    let file = tree.get(MANIFEST).ok_or_else(|| crate::draft::missing_marker(MANIFEST))?;
    let mut manifest = Manifest::read(MANIFEST, &file.bytes)?;
    manifest.metadata(draft, None);
    manifest.take("$schema");
    manifest.rest(draft, super::SPEC.name);
    let spelling = spelling();
    let hooks_file = if tree.get(facts::HOOKS_FILE).is_some() || tree.get(facts::ROOT_HOOKS_FILE).is_none() {
        facts::HOOKS_FILE
    } else {
        facts::ROOT_HOOKS_FILE
    };
    let mut droids: Vec<String> = Vec::new();
    for (path, file) in tree.iter() {
        let p = path.as_str();
        if p == MANIFEST || skip_regenerated(draft, p) {
            continue;
        }
        if p == hooks_file {
            import_hooks(draft, p, common::json(p, file)?, &spelling)?;
            continue;
        }
        if p == facts::MCP_FILE {
            import_servers(draft, p, common::json(p, file)?, &spelling)?;
            continue;
        }
        place(tree, draft, path, file, &spelling, &mut droids)?;
    }
    Ok(())
}

/// Droid's and Claude Code's spellings of the plugin folder, read back as
/// the canonical variable.
fn spelling() -> Spelling {
    crate::runtime::claude_code::read::spelling().with(facts::DROID_PLUGIN_ROOT, crate::canonical::PLUGIN_ROOT)
}

fn place(
    tree: &SourceTree,
    draft: &mut Draft,
    path: &BundlePath,
    file: &SourceFile,
    spelling: &Spelling,
    droids: &mut Vec<String>,
) -> Result<()> {
    let p = path.as_str();
    match common::skill_file(tree, draft, p, &[facts::SKILLS_DIR], super::SPEC.name) {
        SkillFile::Outside => {}
        SkillFile::Skipped => return Ok(()),
        SkillFile::Inside(rel) if rel.ends_with("/SKILL.md") && rel.matches('/').count() == 1 => {
            return import_skill(draft, p, file, spelling);
        }
        SkillFile::Inside(_) => return common::copy(draft, path, file),
    }
    if let Some(rel) = p.strip_prefix(&format!("{}/", facts::COMMANDS_DIR)) {
        if !rel.ends_with(".md") {
            let message = "not imported: Factory Droid runs a command file that is not Markdown as a script, which the canonical source has no command for";
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            return Ok(());
        }
        return import_command(draft, p, file, spelling);
    }
    if let Some(rel) = p.strip_prefix(&format!("{}/", facts::DROIDS_DIR)) {
        if rel.contains('/') || !rel.ends_with(".md") {
            let message = "not imported: Factory Droid loads only the .md files directly in droids/";
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            return Ok(());
        }
        return import_droid(draft, p, rel, file, spelling, droids);
    }
    if p.starts_with("agents/") {
        let message = "not imported: a plugin with .factory-plugin/ is installed as it is, so Factory Droid loads no agents/ (its sub-agents live in droids/)";
        draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
        return Ok(());
    }
    if p == ".mcp.json" {
        let message = "not imported: a plugin with .factory-plugin/ is installed as it is, so Factory Droid reads mcp.json, not .mcp.json";
        draft.note(DiagnosticCode::ForeignMcpFile, Location::file(p), message);
        return Ok(());
    }
    if p.starts_with(&format!("{}/", facts::OUTPUT_STYLES_DIR)) && p.ends_with(".md") {
        return common::copy_spelled(draft, p, p, file, spelling);
    }
    common::copy(draft, path, file)
}

/// A tool list in Droid's names as Claude Code's, each once.
fn claude_tools(tools: &Value) -> Vec<String> {
    let names: Vec<String> = match tools {
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        Value::String(text) => text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let claude = facts::TOOL_NAMES.iter().find(|(_, droid)| *droid == name).map_or(name.as_str(), |(c, _)| c);
        if !out.iter().any(|n| n == claude) {
            out.push(claude.to_string());
        }
    }
    out
}

/// A skill: `allowed-tools` in Droid's names becomes Claude Code's.
fn import_skill(draft: &mut Draft, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let mut markdown = Markdown::parse(from, common::text(from, file)?)?;
    // Rewritten only when it names a tool Droid's way (Claude Code's names read as they are).
    let droid_names = |value: &Value| {
        let names = match value {
            Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            Value::String(text) => text.split(',').map(|t| t.trim().to_string()).collect(),
            _ => Vec::new(),
        };
        names.iter().any(|n: &String| facts::TOOL_NAMES.iter().any(|(_, droid)| droid == n))
    };
    let tools = markdown.frontmatter.as_ref().and_then(|f| f.get("allowed-tools")).filter(|v| droid_names(v)).cloned();
    let Some(tools) = tools else { return common::copy_spelled(draft, from, from, file, spelling) };
    if let Some(frontmatter) = markdown.frontmatter.as_mut() {
        frontmatter.insert("allowed-tools".into(), json!(claude_tools(&tools).join(", ")));
    }
    markdown.body = spelling.text(&markdown.body);
    draft.add_markdown(from, markdown, from)
}

/// A command: the `#` heading Droid lists becomes its description when its
/// frontmatter has none, and the body is what follows it (a blank line
/// after the heading, which the build writes there, taken off too).
fn import_command(draft: &mut Draft, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let mut markdown = Markdown::parse(from, common::text(from, file)?)?;
    let described = markdown.frontmatter.as_ref().and_then(|f| f.get("description")).is_some();
    let heading = super::heading(&markdown.body).map(str::trim).filter(|h| !h.is_empty()).map(str::to_string);
    match heading {
        Some(heading) if !described => {
            markdown.frontmatter.get_or_insert_with(Map::new).insert("description".into(), json!(heading));
            let rest = markdown.body.split_once('\n').map_or("", |(_, rest)| rest);
            let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n')).unwrap_or(rest);
            markdown.body = spelling.text(rest);
            draft.add_markdown(from, markdown, from)
        }
        _ => common::copy_spelled(draft, from, from, file, spelling),
    }
}

/// A droid as an agent: its tools in Claude Code's names.
fn import_droid(
    draft: &mut Draft,
    from: &str,
    rel: &str,
    file: &SourceFile,
    spelling: &Spelling,
    droids: &mut Vec<String>,
) -> Result<()> {
    let mut markdown = Markdown::parse(from, common::text(from, file)?)?;
    let stem = rel.strip_suffix(".md").unwrap_or(rel);
    let name = markdown
        .frontmatter
        .as_ref()
        .and_then(|f| f.get("name"))
        .and_then(Value::as_str)
        .unwrap_or(stem)
        .to_string();
    if droids.contains(&name) {
        let message = format!("not imported: another droid is already named {name:?}, and Factory Droid keeps the first");
        draft.note(DiagnosticCode::UnusedFile, Location::file(from), message);
        return Ok(());
    }
    droids.push(name);
    if let Some(frontmatter) = markdown.frontmatter.as_mut() {
        if let Some(tools) = frontmatter.get("tools").cloned() {
            frontmatter.insert("tools".into(), json!(claude_tools(&tools).join(", ")));
        }
    }
    markdown.body = spelling.text(&markdown.body);
    let to = format!("agents/{rel}");
    draft.add_markdown(&to, markdown, from)
}

/// Droid's hooks (Claude Code's shape, or the legacy flat lists it wraps)
/// as the canonical hooks file: events Droid does not run are left out.
fn import_hooks(draft: &mut Draft, from: &str, value: Value, spelling: &Spelling) -> Result<()> {
    let Value::Object(mut object) = value else {
        return Err(crate::draft::json_parts::invalid(from, "a hooks config must be a JSON object"));
    };
    let mut events = match object.shift_remove("hooks") {
        Some(Value::Object(events)) => events,
        Some(_) => return Err(crate::draft::json_parts::invalid(from, "\"hooks\" must be an object of events")),
        // A bare event map, which Droid reads too.
        None => std::mem::take(&mut object),
    };
    let mut out = Map::new();
    if let Some(description) = object.shift_remove("description") {
        out.insert("description".into(), description);
    }
    for key in object.keys() {
        let message = format!("hooks config key \"{key}\" has no canonical counterpart; left out");
        draft.note(DiagnosticCode::UnknownField, Location::file(from), message);
    }
    for field in facts::HOOK_CONFIG_FIELDS {
        if events.shift_remove(field).is_some() {
            let message = format!("hooks setting \"{field}\" has no canonical counterpart; left out");
            draft.note(DiagnosticCode::UnknownField, Location::file(from), message);
        }
    }
    let names: Vec<String> = events.keys().cloned().collect();
    for event in names {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            events.shift_remove(&event);
            let message = format!(
                "hook event {event} is not one Factory Droid runs (its plugin loader drops it); its handlers are left out"
            );
            draft.note(DiagnosticCode::UnsupportedHookEvent, Location::file(from), message);
            continue;
        }
        let Some(Value::Array(groups)) = events.get_mut(&event) else { continue };
        let claude: Vec<(&str, &str)> = facts::TOOL_NAMES.iter().map(|(claude, droid)| (*droid, *claude)).collect();
        for group in groups.iter_mut() {
            if let Some(Value::String(matcher)) = group.get_mut("matcher") {
                *matcher = super::matcher_tools(matcher, &claude);
            }
        }
        // A legacy flat list of handlers, which Droid wraps in one group.
        let flat = groups.first().is_some_and(|g| g.get("command").is_some() && g.get("hooks").is_none());
        if flat {
            let handlers: Vec<Value> = groups
                .iter()
                .map(|h| {
                    let mut handler = Map::new();
                    handler.insert("type".into(), json!("command"));
                    for key in ["command", "timeout"] {
                        if let Some(v) = h.get(key) {
                            handler.insert(key.into(), v.clone());
                        }
                    }
                    Value::Object(handler)
                })
                .collect();
            *groups = vec![json!({ "hooks": handlers })];
        }
    }
    out.insert("hooks".into(), spelling.json(Value::Object(events)));
    draft.add_hooks(Value::Object(out), from)
}

/// `mcp.json`'s servers as the canonical `.mcp.json`.
fn import_servers(draft: &mut Draft, from: &str, value: Value, spelling: &Spelling) -> Result<()> {
    let Value::Object(mut object) = value else {
        return Err(crate::draft::json_parts::invalid(from, "an MCP file must be a JSON object"));
    };
    let servers = match object.shift_remove("mcpServers") {
        Some(Value::Object(servers)) => servers,
        Some(_) => return Err(crate::draft::json_parts::invalid(from, "\"mcpServers\" must be an object of servers")),
        None => {
            let message = "no \"mcpServers\" object: Factory Droid's schema refuses the file, so it loads no server from it";
            draft.note(DiagnosticCode::UnsupportedServer, Location::file(from), message);
            return Ok(());
        }
    };
    for key in object.keys() {
        let message = format!("MCP file key \"{key}\" has no canonical counterpart; left out");
        draft.note(DiagnosticCode::UnknownField, Location::file(from), message);
    }
    draft.add_servers(json!({ "mcpServers": spelling.json(Value::Object(servers)) }), from)
}
