//! What Factory Droid loads of a plugin laid out for Claude Code. Without
//! its own manifest folder, `droid plugin install` copies the plugin with
//! Claude Code's folders renamed (D:`EPn`, D:`Act`, D:`Lct`): a
//! `.factory-plugin/plugin.json` from Claude Code's manifest,
//! `agents/` as `droids/` and `.mcp.json` as `mcp.json`, which replaces an
//! `mcp.json` already there (run: the `universal` folder of
//! `tests/vectors/canonical-full`, evidence.md). The files are Claude
//! Code's, so nothing here is rewritten the way this runtime's own bundle
//! rewrites them: commands keep their frontmatter, droids Claude Code's
//! fields and tool names, and `mcp.json` the plugin-folder variables Droid
//! does not expand there.

use super::{Place, base_name, detail, droid_server, facts, heading, level_of, positional, variable_notes};
use crate::model::MarkdownComponent;
use crate::report::{Component, Level};
use crate::runtime::{Runtime, Writer};
use crate::vars::CLAUDE_VARS;

/// Factory Droid's rows for the writer's plugin read as `format`; only a
/// Claude Code layout is described.
pub(super) fn loaded_as(w: &mut Writer<'_>, format: Runtime) -> bool {
    if format != Runtime::ClaudeCode {
        return false;
    }
    let plugin = w.plugin;
    for skill in &plugin.skills {
        let path = format!("{}/{}/SKILL.md", facts::SKILLS_DIR, skill.name);
        let mut notes = variable_notes(&skill.document.body, Place::Replaced);
        if skill.document.str_field("description").is_none_or(|d| d.trim().is_empty()) {
            notes.push("no description in its frontmatter: Factory Droid loads such a skill disabled".to_string());
        }
        w.honest(Component::Skill, &skill.name, level_of(&notes), detail(path, &notes));
    }
    let mut taken: Vec<&str> = Vec::new();
    for command in &plugin.commands {
        let name = base_name(&command.name);
        if taken.contains(&name) {
            let why = format!("Factory Droid names a command by its file's base name, and another command is already /{name}");
            w.honest(Component::Command, &command.name, Level::Unsupported, why);
            continue;
        }
        taken.push(name);
        command_row(w, command, name);
    }
    for agent in &plugin.agents {
        agent_row(w, agent);
    }
    hooks(w);
    if let Some(mcp) = &plugin.mcp {
        for (name, server) in &mcp.servers {
            let server = CLAUDE_VARS.json(server.clone());
            let (level, why) = match droid_server(&server) {
                Err(why) => (Level::Unsupported, why.trim_end_matches("; not written").to_string()),
                Ok(_) if !variable_notes(&server.to_string(), Place::AsWritten).is_empty() => (
                    Level::Unsupported,
                    format!(
                        "listed, but it cannot start: Factory Droid replaces no variable in {}, so {} stays as written",
                        facts::MCP_FILE,
                        facts::PLUGIN_ROOT
                    ),
                ),
                Ok(_) => (Level::Supported, String::new()),
            };
            let place = format!("{} (Claude Code's .mcp.json, renamed at install)", facts::MCP_FILE);
            let notes: Vec<String> = (!why.is_empty()).then_some(why).into_iter().collect();
            w.honest(Component::Mcp, name, level, detail(place, &notes));
        }
    }
    if plugin.settings.is_some() {
        let why = "Factory Droid reads no settings file from a plugin";
        w.honest(Component::Settings, "settings.json", Level::Unsupported, why);
    }
    if let Some(context) = &plugin.context {
        let why = "Factory Droid plugins load no context file; move its guidance into a skill";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, why);
    }
    true
}

/// A command file as Claude Code writes it: Droid reads no frontmatter, lists
/// it by a first-line `#` heading (else "Custom command: <name>") and
/// replaces only `$ARGUMENTS` (D:`Mrn`, D:`pkL`).
fn command_row(w: &mut Writer<'_>, command: &MarkdownComponent, name: &str) {
    let document = &command.document;
    // The file as Claude Code's writer copies it, which is what Droid reads.
    let written = command.file.file.text().unwrap_or_default();
    let has_frontmatter = written.trim_start_matches('\u{feff}').starts_with("---");
    let mut notes = Vec::new();
    let keys: Vec<&str> =
        document.frontmatter.iter().flatten().map(|(key, _)| key.as_str()).filter(|_| has_frontmatter).collect();
    if !keys.is_empty() {
        let verb = if keys.len() == 1 { "has" } else { "have" };
        notes.push(format!("Factory Droid reads no frontmatter in a command file, so {} {verb} no effect", keys.join(", ")));
    }
    if let Some(position) = positional(&document.body) {
        notes.push(format!("Factory Droid replaces only {} in a command; {position} stays as written", facts::COMMAND_ARGUMENTS));
    }
    notes.extend(variable_notes(&document.body, Place::AsWritten));
    let listed = match heading(written) {
        Some(_) => format!("/{name} ({})", command.file.path),
        None => format!("/{name} ({}, listed as \"{}{name}\")", command.file.path, facts::COMMAND_FALLBACK_DESCRIPTION),
    };
    w.honest(Component::Command, &command.name, level_of(&notes), detail(listed, &notes));
}

/// An agent file, moved to `droids/` at install: Droid reads it flat, with
/// the fields it knows ([`facts::DROID_KEYS`]).
fn agent_row(w: &mut Writer<'_>, agent: &MarkdownComponent) {
    let name = base_name(&agent.name);
    let path = agent.file.path.as_str();
    let below = path.strip_prefix(facts::CLAUDE_AGENTS_DIR).and_then(|rest| rest.strip_prefix('/')).unwrap_or(path);
    if below.contains('/') {
        let why = format!("{} moves to droids/ at install, and Factory Droid reads no sub-folder of droids/", agent.file.path);
        w.honest(Component::Agent, &agent.name, Level::Unsupported, why);
        return;
    }
    let mut notes = Vec::new();
    let frontmatter = agent.document.frontmatter.clone().unwrap_or_default();
    let ignored: Vec<&str> =
        frontmatter.keys().map(String::as_str).filter(|key| !facts::DROID_KEYS.contains(key)).collect();
    if !ignored.is_empty() {
        notes.push(format!("Factory Droid's droids have no field for {}", ignored.join(", ")));
    }
    if let Some(model) = agent.document.str_field("model").filter(|m| facts::CLAUDE_MODEL_ALIASES.contains(m)) {
        notes.push(format!("model {model} is a Claude Code alias, not a Factory Droid model id"));
    }
    let tools = agent.document.str_field("tools").map(|t| t.split(',').map(str::trim).collect::<Vec<_>>());
    let renamed: Vec<String> = tools
        .into_iter()
        .flatten()
        .filter_map(|tool| facts::TOOL_NAMES.iter().find(|(claude, _)| *claude == tool))
        .map(|(claude, droid)| format!("{claude} (Factory Droid's {droid})"))
        .collect();
    if !renamed.is_empty() {
        notes.push(format!("its tools keep Claude Code's names: {}", renamed.join(", ")));
    }
    notes.extend(variable_notes(&agent.document.body, Place::Replaced));
    let path = format!("{}/{name}.md (from {})", facts::DROIDS_DIR, agent.file.path);
    w.honest(Component::Agent, &agent.name, level_of(&notes), detail(path, &notes));
}

/// Claude Code's hooks file, which Droid keeps to its nine events and runs
/// the command handlers of (D:`Brn`, D:`urn`).
fn hooks(w: &mut Writer<'_>) {
    let Some(hooks) = &w.plugin.hooks else { return };
    for (event, groups) in hooks.value.get("hooks").and_then(|h| h.as_object()).into_iter().flatten() {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let why = "Factory Droid's plugin loader keeps nine hook events and drops this one without a word";
            w.honest(Component::Hook, event, Level::Unsupported, why);
            continue;
        }
        let handlers: Vec<&serde_json::Value> = groups
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|group| group.get("hooks")?.as_array())
            .flatten()
            .collect();
        let mut notes = Vec::new();
        let mut runs = false;
        for handler in &handlers {
            let kind = handler.get("type").and_then(|t| t.as_str()).unwrap_or("command");
            if facts::HOOK_HANDLER_TYPES.iter().any(|(t, _)| *t == kind) {
                runs = true;
                let command = handler.get("command").and_then(|c| c.as_str()).unwrap_or_default();
                notes.extend(variable_notes(command, Place::Replaced));
            } else {
                notes.push(format!("a {kind:?} handler: Factory Droid runs command hooks only"));
            }
        }
        notes.dedup();
        let level = if runs || handlers.is_empty() { level_of(&notes) } else { Level::Unsupported };
        w.honest(Component::Hook, event, level, detail(facts::HOOKS_FILE, &notes));
    }
}
