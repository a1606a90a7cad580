//! What Grok Build loads of a plugin laid out for Claude Code: its loader
//! tries a root `plugin.json`, then [`facts::MANIFEST_PATH`], then Claude
//! Code's manifest (`MANIFEST_PATHS`, `manifest.rs:293-297`), and with any of
//! them reads Claude Code's default folders (`manifest.rs:187-246`). These
//! rows judge the files as Claude Code's writer leaves them: an agent keeps
//! the frontmatter it has, and the hooks file keeps every handler, where
//! Grok's own bundle adds a `name` and keeps only handlers Grok runs.

use serde_json::Value;

use super::{facts, nested};
use crate::model::MarkdownComponent;
use crate::report::{Component, Level};
use crate::runtime::{Runtime, Writer};
use crate::vars::CLAUDE_VARS;

/// Grok Build's rows for the writer's plugin read as `format`; only a
/// Claude Code layout is described.
pub(super) fn loaded_as(w: &mut Writer<'_>, format: Runtime) -> bool {
    if format != Runtime::ClaudeCode {
        return false;
    }
    let plugin = w.plugin;
    for skill in &plugin.skills {
        let detail = format!("skills/{}/SKILL.md, invoked as /{}:{}", skill.name, plugin.namespace, skill.name);
        w.honest(Component::Skill, &skill.name, Level::Supported, detail);
        for file in skill.files.iter().filter(|f| f.path.as_str().ends_with("/SKILL.md")) {
            let path = file.path.as_str();
            let name = path.trim_start_matches("skills/").trim_end_matches("/SKILL.md");
            let detail = format!("{path}, a file of skill {}, which Grok Build also loads as a skill of its own", skill.name);
            w.honest(Component::Skill, name, Level::Degraded, detail);
        }
    }
    for command in &plugin.commands {
        if nested(command, facts::COMMANDS_DIR) {
            let detail = "below a sub-folder of commands/, which Grok Build's flat scan never reads";
            w.honest(Component::Command, &command.name, Level::Unsupported, detail);
            continue;
        }
        let detail = format!(
            "{}, loaded as the skill /{}:{} ($ARGUMENTS and $N substituted)",
            command.file.path, plugin.namespace, command.name
        );
        w.honest(Component::Command, &command.name, Level::Supported, detail);
    }
    for agent in &plugin.agents {
        agent_row(w, agent);
    }
    hooks(w);
    if let Some(mcp) = &plugin.mcp {
        for name in mcp.servers.keys() {
            let detail = format!("{}; Grok Build starts it once the plugin is trusted", facts::MCP_FILE);
            w.honest(Component::Mcp, name, Level::Supported, detail);
        }
    }
    if let Some(context) = &plugin.context {
        let detail = "Grok Build plugins load no context file; move its guidance into a skill";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
    true
}

/// An agent file as Claude Code writes it: Grok parses its frontmatter as
/// `AgentDefinition` (`config.rs:732-760`) and skips it without a string
/// `name` and `description` or with a `permissionMode` it does not know.
fn agent_row(w: &mut Writer<'_>, agent: &MarkdownComponent) {
    let document = &agent.document;
    let skipped = if nested(agent, facts::AGENTS_DIR) {
        Some("below a sub-folder of agents/, which Grok Build never reads".to_string())
    } else if let Some(key) = facts::AGENT_REQUIRED_KEYS.iter().find(|key| document.str_field(key).is_none()) {
        Some(format!(
            "no `{key}` in its frontmatter (Claude Code names an agent after its file): Grok Build skips the agent"
        ))
    } else {
        document
            .str_field("permissionMode")
            .filter(|mode| !facts::AGENT_PERMISSION_MODES.contains(mode))
            .map(|mode| format!("permissionMode {mode:?} is not one Grok Build reads, so it skips the agent"))
    };
    if let Some(why) = skipped {
        w.honest(Component::Agent, &agent.name, Level::Unsupported, why);
        return;
    }
    let mut notes = Vec::new();
    let mode = document.str_field("permissionMode");
    let refused: Vec<&str> = facts::AGENT_KEYS_REFUSED_FOR_PLUGINS
        .iter()
        .copied()
        .filter(|key| document.field(key).is_some())
        .chain((mode == Some("bypassPermissions")).then_some("permissionMode: bypassPermissions"))
        .collect();
    if !refused.is_empty() {
        notes.push(format!("Grok Build ignores {} in a plugin's agent", refused.join(", ")));
    }
    if let Some(model) = document.str_field("model").filter(|m| !m.is_empty() && !m.eq_ignore_ascii_case("inherit")) {
        notes.push(format!("model {model:?} is passed to Grok Build as a model id"));
    }
    let level = if notes.is_empty() { Level::Supported } else { Level::Degraded };
    let detail: Vec<String> = std::iter::once(format!("{}, run as {}:{}", agent.file.path, w.plugin.namespace, agent.name))
        .chain(notes)
        .collect();
    w.honest(Component::Agent, &agent.name, level, detail.join("; "));
}

/// The hooks file as Claude Code writes it. One handler Grok cannot parse
/// (no `type`, a type it does not run, a required field missing) fails the
/// whole file (`HooksMap::from_value`, `GroupErrorPolicy::Fail`,
/// `config.rs:68-77`); an event it does not know is skipped with a warning.
fn hooks(w: &mut Writer<'_>) {
    let Some(hooks) = &w.plugin.hooks else { return };
    let value = CLAUDE_VARS.json(hooks.value.clone());
    let events: Vec<(String, Value)> = value
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(event, groups)| (event.clone(), groups.clone()))
        .collect();
    let known = |event: &str| facts::HOOK_EVENTS.contains(&event);
    let fails = events.iter().filter(|(event, _)| known(event)).find_map(|(event, groups)| unparsed(event, groups));
    for (event, groups) in &events {
        if let Some(why) = &fails {
            let detail = format!(
                "{} as Claude Code writes it: {why}, which fails the whole file, so Grok Build runs none of its hooks",
                facts::HOOKS_FILE
            );
            w.honest(Component::Hook, event, Level::Unsupported, detail);
        } else if !known(event) {
            let detail = "Grok Build has no such event and skips it with a warning";
            w.honest(Component::Hook, event, Level::Unsupported, detail);
        } else {
            let notes = notes(event, groups);
            let level = if notes.is_empty() { Level::Supported } else { Level::Degraded };
            let detail = std::iter::once(format!("{} in Claude Code's shape", facts::HOOKS_FILE)).chain(notes);
            w.honest(Component::Hook, event, level, detail.collect::<Vec<_>>().join("; "));
        }
    }
}

/// Why a handler of `event` fails Grok's parse (`RawHandler`, `HandlerType`,
/// `xai-grok-hooks/src/config.rs:95-170`), if one does.
fn unparsed(event: &str, groups: &Value) -> Option<String> {
    let handlers = groups.as_array()?.iter().filter_map(|g| g.get("hooks")?.as_array()).flatten();
    for handler in handlers {
        let Some(kind) = handler.get("type").and_then(Value::as_str) else {
            return Some(format!("a {event} handler has no `type`, which Grok Build requires"));
        };
        let Some((_, required)) = facts::HOOK_HANDLER_TYPES.iter().find(|(name, _)| *name == kind) else {
            return Some(format!("a {event} handler is of type {kind:?}, which Grok Build does not run"));
        };
        if let Some(field) = required.iter().find(|field| !handler.get(**field).is_some_and(Value::is_string)) {
            return Some(format!("a {event} {kind} handler has no string `{field}`"));
        }
    }
    None
}

/// What differs from Claude Code for one event Grok runs.
fn notes(event: &str, groups: &Value) -> Vec<String> {
    let mut notes: Vec<String> = Vec::new();
    for group in groups.as_array().into_iter().flatten() {
        if facts::HOOK_EVENTS_WITHOUT_MATCHER.contains(&event) && group.get("matcher").is_some() {
            notes.push(format!("Grok Build ignores a matcher on {event} (it warns); it runs for every {event}"));
        }
        for handler in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
            if handler.get("args").is_some() {
                notes.push("Grok Build reads no `args`: an exec-form handler runs its command alone".to_string());
            }
            if handler.get("timeout").is_none() && !facts::HOOK_STOP_GATES.contains(&event) {
                notes.push(format!(
                    "a handler without a timeout is stopped after {} s, Grok Build's default",
                    facts::HOOK_DEFAULT_TIMEOUT_SECONDS
                ));
            }
        }
    }
    let mut unique = Vec::new();
    for note in notes {
        if !unique.contains(&note) {
            unique.push(note);
        }
    }
    unique
}
