//! Qoder CLI plugin: the manifest ([`facts::MANIFEST_PATH`]) with Claude
//! Code's fields plus Qoder's own (`displayName`, `dependencies`,
//! `userConfig`, `settings`), Claude Code's default layout (`skills/`,
//! `commands/`, `agents/`, `hooks/hooks.json`, `.mcp.json`,
//! `output-styles/`, `bin/` on PATH), and an entry in the marketplace at
//! [`facts::MARKETPLACE_PATH`]. Every fact was checked against
//! `@qoder-ai/qodercli` 1.1.52 (facts.rs cites each source).
//!
//! Files keep Claude Code's spelling of the plugin folder
//! (`${CLAUDE_PLUGIN_ROOT}`), which Qoder replaces wherever it replaces its
//! own, so a skill or hook script written for Claude Code behaves the same;
//! hooks keep Claude Code's dialect, minus the events and handler types
//! Qoder does not run.

pub(crate) mod facts;
mod judge;
pub(crate) mod lint;
mod marketplace;
mod read;

use serde_json::{Map, Value, json};

use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Runtime, Writer, left_out};
use crate::error::Result;
use crate::model::MarkdownComponent;
use crate::codes::DiagnosticCode;
use crate::report::{Component, Level};
use crate::templates;
use crate::vars::CLAUDE_VARS;

const NAME: &str = "Qoder CLI";

/// The bundle README, kept here with the writer.
const README: &str = include_str!("README.md.j2");
const README_NAME: &str = "qoder/README.md.j2";

/// Claude Code's manifest fields Qoder reads the same way [facts::MANIFEST_KEYS].
const CARRIED_CLAUDE_FIELDS: [&str; 2] = ["userConfig", "dependencies"];

/// The variables a hook command sees replaced, quoted in shell-form
/// commands so a folder with a space stays one word.
const FOLDER_VARIABLES: &[&str] = &["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// Qoder CLI, the judge of its plugins: `plugins validate --json --strict`
/// lists every skill, command, agent, hook and MCP server it loaded. Its npm
/// install scripts edit the user's shell profiles and global git ignore, so
/// it installs without them.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "qoder",
    name: NAME,
    commands: &["qodercli", "qoder"],
    quiet: &[],
    package: "@qoder-ai/qodercli",
    version: "1.1.52",
    binary: "node_modules/.bin/qodercli",
    extra_packages: &[],
    load: &[
        "qodercli plugins validate DIR --json --strict",
        "qodercli plugins marketplace add ./ROOT",
        "qodercli plugins install NAME@MARKETPLACE",
    ],
    list: &["qodercli plugins validate DIR --json --strict", "qodercli plugins list --json"],
    driver: "core/src/runtime/qoder/drivers/qoder_inventory.py",
    typical_seconds: 15,
    launch: super::Launch::WithoutScripts,
};

/// Qoder CLI validating a plugin folder, strictly, with its full inventory.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Plugin],
    driver: "core/src/runtime/qoder/drivers/qoder_inventory.py",
    args: &["--qoder", "BIN", "validate", "--dir", "DIR"],
    read: judge::read_plugin,
};

/// Qoder CLI, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: NAME,
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[Runtime::ClaudeCode], loaded_as: Some(loaded_as), loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: true, check: Some(lint::check_agent) },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: Some(facts::MARKETPLACE_PATH), manifest_folder: Some(facts::MANIFEST_DIR), runtime_only_fields: &read::QODER_ONLY, read_field: None }),
    judge: super::Judge::Clients(&[CHECK]),
    rules: &[],
    subject: NAME,
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true), (facts::PLUGIN_DATA_VAR, false)],
    marketplace: Some(marketplace::MARKETPLACE),
    hooks: Some(super::Hooks {
        events: super::HookEvents::Listed(&facts::HOOK_EVENTS),
        unknown_event: |event| {
            format!("`{event}` is not a Qoder CLI hook event: Qoder CLI loads the entry and never runs it (`plugins validate` does not say so)")
        },
        shape: super::HookShape::Grouped { handler_types: &facts::HOOK_HANDLER_TYPES },
        requires_hooks_key: true,
        top_level_keys: None,
        expands: &[
            super::claude_code::facts::PLUGIN_ROOT_VAR,
            super::claude_code::facts::PLUGIN_DATA_VAR,
            facts::PLUGIN_ROOT_VAR,
            facts::PLUGIN_DATA_VAR,
        ],
        quoted_vars: &[],
        run_from_plugin_folder: false,
    }),
    mcp: super::Mcp {
        files: Some(&facts::MCP_FILES),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[
            super::claude_code::facts::PLUGIN_ROOT_VAR,
            super::claude_code::facts::PLUGIN_DATA_VAR,
            facts::PLUGIN_ROOT_VAR,
            facts::PLUGIN_DATA_VAR,
        ]),
        unexpanded: "Qoder CLI leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] = &[Kind {
    name: ArtifactKind::Plugin,
    layout: Layout::Folder,
    scopes: BOTH_SCOPES,
    marketplace: Some(facts::MARKETPLACE_PATH),
    shared: &[],
}];

/// Whose files Qoder reads: this runtime's own bundle, or a folder laid
/// out for Claude Code, which Qoder reads through its manifest fallback.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Files {
    Own,
    ClaudeLayout,
}

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    manifest(w)?;
    components(w, Files::Own)?;
    files(w)?;
    readme(w)?;
    if w.options.marketplace {
        marketplace(w)?;
    }
    Ok(())
}

/// What Qoder loads of a plugin laid out in `format`: a Claude Code plugin
/// it reads through its manifest fallback [facts::MANIFEST_DIRS].
fn loaded_as(w: &mut Writer<'_>, format: Runtime) -> bool {
    if format != Runtime::ClaudeCode {
        return false;
    }
    components(w, Files::ClaudeLayout).is_ok()
}

/// Name, display name, version, description, author, homepage, repository,
/// license, keywords; the Claude Code fields Qoder reads alike; the
/// settings key it keeps; then `targets.qoder.manifest`. No icon: Qoder has
/// no such field and warns of it.
fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let mut manifest = w.metadata(true);
    let mut dropped = Vec::new();
    for (key, value) in &plugin.claude_extra {
        if CARRIED_CLAUDE_FIELDS.contains(&key.as_str()) {
            manifest.insert(key.clone(), value.clone());
        } else {
            dropped.push(key.as_str());
        }
    }
    if !dropped.is_empty() {
        let message = format!(
            "Claude Code manifest fields {} are not carried: {NAME} has no such field, or ignores it with a warning",
            dropped.join(", ")
        );
        w.warn(DiagnosticCode::DroppedField, Some(plugin.metadata_file.as_str()), message);
    }
    if let Some(settings) = kept_settings(w) {
        manifest.insert("settings".into(), settings);
    }
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(overrides);
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), templates::origin("qoder/plugin.json"))
}

/// The plugin settings Qoder applies: the keys it keeps [facts::SETTINGS_KEYS].
fn kept_settings(w: &Writer<'_>) -> Option<Value> {
    let settings = w.plugin.settings.as_ref()?.value.as_object()?;
    let kept: Map<String, Value> = settings
        .iter()
        .filter(|(k, _)| facts::SETTINGS_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), CLAUDE_VARS.json(v.clone())))
        .collect();
    (!kept.is_empty()).then_some(Value::Object(kept))
}

/// Every component and its honesty row. With [`Files::Own`] the files are
/// written; with [`Files::ClaudeLayout`] only the rows are said, for the
/// files Claude Code's writer put in a folder Qoder reads as its plugin.
fn components(w: &mut Writer<'_>, files: Files) -> Result<()> {
    let plugin = w.plugin;
    let own = files == Files::Own;
    for skill in &plugin.skills {
        if own {
            w.copy_skill_main(skill, None, Some(CLAUDE_VARS))?;
            for file in &skill.files {
                w.copy(file, None, None)?;
            }
        }
        w.honest(Component::Skill, &skill.name, Level::Supported, format!("skills/{}/SKILL.md", skill.name));
    }
    for command in &plugin.commands {
        if own {
            w.copy(&command.file, None, Some(CLAUDE_VARS))?;
        }
        let detail = format!("{}, run as /{}:{}", command.file.path, plugin.namespace, command.name);
        w.honest(Component::Command, &command.name, Level::Supported, detail);
    }
    for agent in &plugin.agents {
        agent_file(w, agent, own)?;
    }
    for style in &plugin.output_styles {
        if own {
            w.copy(style, None, None)?;
        }
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Supported, style.path.to_string());
    }
    for file in &plugin.bin {
        if own {
            w.copy(file, None, None)?;
        }
        let detail = format!("{}, on PATH while the plugin is enabled", file.path);
        w.honest(Component::Bin, file.path.as_str(), Level::Supported, detail);
    }
    hooks(w, files)?;
    mcp(w, own)?;
    settings_row(w, files);
    if let Some(context) = &plugin.context {
        let detail = format!("{NAME} plugins load no context file; move its guidance into a skill");
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
    Ok(())
}

/// Agents Qoder loads: frontmatter that passes its agent schema; it drops
/// keys it does not read [facts::AGENT_KEYS].
fn agent_file(w: &mut Writer<'_>, agent: &MarkdownComponent, own: bool) -> Result<()> {
    if let Some(problem) = lint::agent_problem(agent.document.frontmatter.as_ref()) {
        let detail = format!("{problem}: {NAME} refuses the agent (plugin.agent.invalid); not written");
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    let named = agent.document.str_field("name").is_some();
    if !own && !named {
        let detail = format!("no `name`: {NAME} refuses the agent (plugin.agent.invalid) in Claude Code's layout");
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    if own && named {
        w.copy(&agent.file, None, Some(CLAUDE_VARS))?;
    } else if own {
        named_agent(w, agent)?;
    }
    let listed = format!("{}:{}", w.plugin.namespace, agent.name);
    let ignored: Vec<String> = agent
        .document
        .frontmatter
        .iter()
        .flat_map(|fm| fm.keys())
        .filter(|k| !facts::AGENT_KEYS.contains(&k.as_str()))
        .cloned()
        .collect();
    let file = if named {
        agent.file.path.to_string()
    } else {
        format!("{} (with the `name` Qoder requires: its file name, as Claude Code names it)", agent.file.path)
    };
    if ignored.is_empty() {
        w.honest(Component::Agent, &agent.name, Level::Supported, format!("{file}, as {listed}"));
    } else {
        let detail = format!("{file}, as {listed}; {NAME} drops {}", ignored.join(", "));
        w.honest(Component::Agent, &agent.name, Level::Degraded, detail);
    }
    Ok(())
}

/// The agent file with a `name` line first in its frontmatter: Qoder
/// refuses an agent without one [facts::AGENT_KEYS], where Claude Code names
/// it after its file.
fn named_agent(w: &mut Writer<'_>, agent: &MarkdownComponent) -> Result<()> {
    let text = agent.file.file.text().map(|t| CLAUDE_VARS.text(t).unwrap_or_else(|| t.to_string()));
    let Some(text) = text else { return w.copy(&agent.file, None, Some(CLAUDE_VARS)) };
    let stem = agent.file.path.file_name().trim_end_matches(".md").to_string();
    let rest = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let after_open = rest.find('\n').map_or(rest.len(), |i| i + 1);
    let line = format!("name: {}\n", crate::format::yaml::scalar_text(&stem));
    let named = format!("{}{line}{}", &rest[..after_open], &rest[after_open..]);
    w.add(agent.file.path.as_str(), named.into_bytes(), agent.file.file.origin.to_string())
}

/// `hooks/hooks.json` in Claude Code's dialect: the events and handler
/// types Qoder runs [facts::HOOK_EVENTS, facts::HOOK_HANDLER_TYPES].
fn hooks(w: &mut Writer<'_>, files: Files) -> Result<()> {
    let Some(hooks) = &w.plugin.hooks else { return Ok(()) };
    let value = CLAUDE_VARS.json(hooks.value.clone());
    let mut kept = Map::new();
    for (event, groups) in value.get("hooks").and_then(Value::as_object).into_iter().flatten() {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let detail = match files {
                Files::Own => format!("{NAME} has no such event; not written"),
                Files::ClaudeLayout => format!("{NAME} has no such event: it loads the entry and never runs it"),
            };
            w.honest(Component::Hook, event, Level::Unsupported, detail);
            continue;
        }
        let declared = groups.as_array().is_some_and(|g| !g.is_empty());
        let (groups, dropped, user_config) = runnable_groups(groups);
        for kind in &dropped {
            let detail = match files {
                Files::Own => format!("a {kind:?} handler: {NAME} has no such handler type; that handler is not written"),
                Files::ClaudeLayout => format!("a {kind:?} handler: {NAME} has no such handler type and never runs it"),
            };
            w.honest(Component::Hook, event, Level::Degraded, detail);
        }
        // An event whose every handler was left out is not written; one
        // declared empty stays so, as the source has it.
        if groups.is_empty() && declared {
            continue;
        }
        if user_config {
            let detail = format!(
                "hooks/hooks.json: a command or its args name ${{user_config.KEY}}, which {NAME} replaces in MCP servers only"
            );
            w.honest(Component::Hook, event, Level::Degraded, detail);
        } else if dropped.is_empty() {
            let detail = "hooks/hooks.json in Claude Code's dialect, ${CLAUDE_PLUGIN_ROOT} replaced by Qoder CLI";
            w.honest(Component::Hook, event, Level::Supported, detail);
        }
        kept.insert(event.clone(), Value::Array(groups));
    }
    if kept.is_empty() || files == Files::ClaudeLayout {
        return Ok(());
    }
    let mut document = Map::new();
    if let Some(description) = value.get("description") {
        document.insert("description".into(), description.clone());
    }
    document.insert("hooks".into(), Value::Object(kept));
    w.add_json(facts::HOOKS_FILE, &Value::Object(document), hooks.origin.to_string())
}

/// The groups of one event with only the handlers Qoder runs (shell-form
/// plugin-folder variables quoted), the types left out, and whether a
/// command names a user option.
fn runnable_groups(groups: &Value) -> (Vec<Value>, Vec<String>, bool) {
    let known: Vec<&str> = facts::HOOK_HANDLER_TYPES.iter().map(|(kind, _)| *kind).collect();
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    let mut user_config = false;
    for group in groups.as_array().into_iter().flatten() {
        let mut group = group.clone();
        if let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) {
            handlers.retain(|handler| {
                let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
                let runs = known.contains(&kind);
                if !runs {
                    dropped.push(kind.to_string());
                }
                runs
            });
            for handler in handlers.iter_mut().filter_map(Value::as_object_mut) {
                let names_option = |key: &str| handler.get(key).is_some_and(|v| v.to_string().contains("${user_config."));
                user_config |= names_option("command") || names_option("args");
                if handler.contains_key("args") {
                    continue;
                }
                let Some(Value::String(command)) = handler.get_mut("command") else { continue };
                if let Some(quoted) = crate::shell::quote_variables(command, FOLDER_VARIABLES) {
                    *command = quoted;
                }
            }
            if handlers.is_empty() {
                continue;
            }
        }
        kept.push(group);
    }
    (kept, dropped, user_config)
}

/// `.mcp.json`: servers whose fields pass Qoder's server schema; it drops
/// any other with `plugin.mcp.invalid` [facts::MCP_STRING_FIELDS].
fn mcp(w: &mut Writer<'_>, own: bool) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        if let Some(problem) = lint::server_problem(server) {
            let detail = format!("{problem}: {NAME} drops the server (plugin.mcp.invalid); not written");
            w.honest(Component::Mcp, name, Level::Unsupported, detail);
            continue;
        }
        // Qoder CLI 1.1.52, like Claude Code, lists a server with a `url`
        // and no `type` as stdio (`plugins validate` says `"type":"stdio"`).
        let (server, typed) = super::claude_code::remote_type(CLAUDE_VARS.json(server.clone()));
        let typed = typed.replace("Claude Code", NAME);
        w.honest(
            Component::Mcp,
            name,
            Level::Supported,
            format!(".mcp.json, ${{CLAUDE_PLUGIN_ROOT}} replaced by Qoder CLI{typed}"),
        );
        servers.insert(name.clone(), server);
    }
    if servers.is_empty() || !own {
        return Ok(());
    }
    w.add_json(facts::MCP_FILES[0], &json!({"mcpServers": servers}), mcp.origin.to_string())
}

/// Qoder keeps only `settings.agent`, from the manifest; a Claude Code
/// plugin's `settings.json` it does not read at all.
fn settings_row(w: &mut Writer<'_>, files: Files) {
    let Some(settings) = &w.plugin.settings else { return };
    let keys: Vec<&str> = settings.value.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
    let ignored: Vec<&str> = keys.iter().copied().filter(|k| !facts::SETTINGS_KEYS.contains(k)).collect();
    let (level, detail) = match files {
        Files::ClaudeLayout => (
            Level::Unsupported,
            format!("{NAME} reads no settings.json; it takes settings from its own manifest only"),
        ),
        Files::Own if ignored.is_empty() => {
            (Level::Supported, format!("\"settings\" of {}", facts::MANIFEST_PATH))
        }
        Files::Own if ignored.len() == keys.len() => (
            Level::Unsupported,
            format!("{NAME} keeps only {} from a plugin's settings; not written", facts::SETTINGS_KEYS.join(", ")),
        ),
        Files::Own => (
            Level::Degraded,
            format!(
                "\"settings\" of {}: {NAME} keeps only {}; not written: {}",
                facts::MANIFEST_PATH,
                facts::SETTINGS_KEYS.join(", "),
                ignored.join(", ")
            ),
        ),
    };
    w.honest(Component::Settings, "settings.json", level, detail);
}

/// Support files travel as they are, except an `mcp.json` Qoder would read
/// as this plugin's servers when no `.mcp.json` is written [facts::MCP_FILES].
fn files(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let servers_written = w.bundle.files.keys().any(|p| p.as_str() == facts::MCP_FILES[0]);
    for file in &plugin.support {
        if file.path.as_str() == facts::MCP_FILES[1] && !servers_written {
            let message = format!(
                "{} is not copied: {NAME} would read it as this plugin's MCP servers",
                facts::MCP_FILES[1]
            );
            w.warn(DiagnosticCode::IgnoredFile, Some(file.path.as_str()), message);
            continue;
        }
        w.copy(file, None, None)?;
    }
    Ok(())
}

fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(Some(CLAUDE_VARS))? {
        return Ok(());
    }
    let fields = json!({
        "skills": w.written(Component::Skill),
        "commands": w.written(Component::Command),
        "agents": w.written(Component::Agent),
        "hooks": w.written(Component::Hook),
        "mcp_servers": w.written(Component::Mcp),
        "left_out": left_out(&w.bundle.honesty),
    });
    w.render_readme_from(README_NAME, README, fields)
}

/// `{name, owner{name, email?}, plugins[{name, source, description?, version?}]}`
/// at the output root, which Qoder reads before Claude Code's marketplace
/// beside it [facts::MARKETPLACE_PATH].
fn marketplace(w: &mut Writer<'_>) -> Result<()> {
    w.claude_shaped_marketplace_entry(facts::MARKETPLACE_PATH)
}
