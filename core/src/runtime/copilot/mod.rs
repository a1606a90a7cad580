//! GitHub Copilot CLI plugin: the manifest ([`facts::MANIFEST_PATH`]) plus the
//! default layout (`skills/`, `commands/`, `agents/`, `hooks/hooks.json`,
//! `.mcp.json`), and an entry in the marketplace at [`facts::MARKETPLACE_PATH`]. Every
//! fact was checked against Copilot CLI 1.0.102 (docs/runtimes/copilot.md,
//! fact numbers in brackets).
//!
//! Hooks stay in Claude Code's dialect: Copilot loads PascalCase events in
//! nested groups and then passes Claude's payload and tool names, so a hook
//! script written for the canonical (Claude) events behaves the same [19,
//! 23a, 23b]. Its own camelCase events would hand the same script another
//! payload.
//!
//! Its plugins are a source too ([`read`]): in each layout Copilot CLI loads,
//! `.github/plugin/plugin.json` and the Agent Plugins one among them.

mod judge;
pub(crate) mod facts;
pub(crate) mod read;

use serde_json::{Map, Value, json};

use super::skill_fold::fit_description;
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer, left_out};
use crate::error::Result;
use crate::model::MarkdownComponent;
use crate::report::Level;
use crate::templates;
use crate::vars::VarTable;
use crate::report::Component;

const HOOKS_FILE: &str = "hooks/hooks.json";
const MCP_FILE: &str = ".mcp.json";

/// MCP transports Copilot starts; any other drops the whole `.mcp.json` [24].
const MCP_TRANSPORTS: [&str; 5] = ["stdio", "local", "http", "sse", "streamable-http"];

/// Copilot resolves `${PLUGIN_ROOT}` in hook commands and sets it for MCP
/// servers, but sets no `PLUGIN_DATA`: hooks get `COPILOT_PLUGIN_DATA` [23, 25].
const HOOK_VARS: VarTable = VarTable(&[("${PLUGIN_DATA}", facts::PLUGIN_DATA)]);

/// GitHub Copilot CLI and its headless server, the judge of its plugins.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "copilot",
    name: "Copilot CLI",
    commands: &["copilot"],
    quiet: &[],
    package: "@github/copilot",
    version: "1.0.102",
    binary: "node_modules/.bin/copilot",
    extra_packages: &[],
    load: &["copilot plugin marketplace add ./ROOT", "copilot plugin install NAME@MARKETPLACE"],
    list: &["copilot plugin list --json", "copilot skill list --json", "copilot mcp list --json"],
    driver: "core/src/runtime/copilot/drivers/copilot_inventory.py",
    typical_seconds: 25,
    launch: super::Launch::AsInstalled,
};

/// Copilot CLI judging a plugin listed by a marketplace at the output root.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Plugin],
    driver: "core/src/runtime/copilot/drivers/copilot_inventory.py",
    args: &["--copilot", "BIN", "plugin", "--marketplace-root", "ROOT", "--plugin", "NAME"],
    read: judge::read_plugin,
};

/// Copilot CLI, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Copilot CLI",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: &[], check_manifest: None, check_plugin: None, layout: super::claude_code::lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: Some(read::claims) }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: Some(facts::MARKETPLACE_PATH), manifest_folder: Some(facts::MANIFEST_DIR), runtime_only_fields: &[], read_field: None }),
    judge: super::Judge::Clients(&[CHECK]),
    rules: &[],
    subject: "Copilot CLI",
    folder_vars: &[],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: None,
        misplaced: None,
        read_file: None,
        server: None,
        expands: None,
        unexpanded: "copilot leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] = &[Kind {
    name: ArtifactKind::Plugin,
    layout: Layout::Folder,
    scopes: BOTH_SCOPES,
    marketplace: Some(facts::MARKETPLACE_PATH),
    shared: &[],
}];

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let mut manifest = w.metadata(false);
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(overrides);
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), templates::origin("copilot/plugin.json"))?;
    for skill in &plugin.skills {
        // Copilot refuses a skill whose description is over 1024 characters
        // ("Skill description must be at most 1024 characters", 1.0.102).
        let fitted = fit_description(skill, skill.main.file.text().unwrap_or_default())?;
        let main = format!("skills/{}/SKILL.md", skill.name);
        match fitted.text {
            Some(text) => w.add(&main, text.into_bytes(), skill.main.file.origin.to_string())?,
            None => w.copy(&skill.main, None, None)?,
        }
        for file in &skill.files {
            w.copy(file, None, None)?;
        }
        match fitted.lost.is_empty() {
            true => w.honest(Component::Skill, &skill.name, Level::Supported, main),
            false => w.honest(Component::Skill, &skill.name, Level::Degraded, format!("{main}; {}", fitted.lost.join("; "))),
        }
    }
    for command in &plugin.commands {
        command_file(w, command)?;
    }
    for agent in &plugin.agents {
        agent_file(w, agent)?;
    }
    hooks(w)?;
    mcp(w)?;
    files(w)?;
    readme(w)?;
    if w.options.marketplace {
        marketplace(w)?;
    }
    Ok(())
}

/// Copilot loads top-level `commands/*.md` as skills named `plugin:name` [17].
fn command_file(w: &mut Writer<'_>, command: &MarkdownComponent) -> Result<()> {
    if command.name.contains(':') {
        let detail = "Copilot CLI reads only top-level commands/*.md, not a sub-folder; not written";
        w.honest(Component::Command, &command.name, Level::Unsupported, detail);
        return Ok(());
    }
    w.copy(&command.file, None, None)?;
    let shared = w.plugin.skills.iter().any(|s| s.name == command.name);
    if shared {
        let detail = format!(
            "{}; Copilot CLI loads commands as skills, so this command and the skill of the same name share one name",
            command.file.path
        );
        w.honest(Component::Command, &command.name, Level::Degraded, detail);
    } else {
        let detail =
            format!("{}, loaded as the skill {}:{}", command.file.path, w.plugin.namespace, command.name);
        w.honest(Component::Command, &command.name, Level::Supported, detail);
    }
    Ok(())
}

/// Top-level `agents/*.md` with a description; Copilot skips the others [18].
fn agent_file(w: &mut Writer<'_>, agent: &MarkdownComponent) -> Result<()> {
    if agent.name.contains(':') {
        let detail = "Copilot CLI reads only top-level agents/*.md, not a sub-folder; not written";
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    if agent.document.str_field("description").is_none() {
        let detail = "Copilot CLI skips an agent without a description (its log says so); not written";
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    w.copy(&agent.file, None, None)?;
    let detail = format!("{}, run as --agent {}:{}", agent.file.path, w.plugin.namespace, agent.name);
    w.honest(Component::Agent, &agent.name, Level::Supported, detail);
    Ok(())
}

fn hooks(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(hooks) = &plugin.hooks else { return Ok(()) };
    // Copilot runs `command` through a shell and reads no `args` [20]: an
    // exec-form handler becomes one line.
    let value = HOOK_VARS.json(w.user_options_in_hooks(crate::shell::exec_form_as_shell_line(hooks.value.clone())));
    let mut kept = Map::new();
    for (event, groups) in value.get("hooks").and_then(Value::as_object).into_iter().flatten() {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let detail = "Copilot CLI has no such event and drops it without a word; not written";
            w.honest(Component::Hook, event, Level::Unsupported, detail);
            continue;
        }
        let (groups, dropped) = runnable_groups(groups);
        for kind in &dropped {
            let detail = format!(
                "a {kind:?} handler: Copilot CLI runs command and http hooks from a plugin, and any other type drops the whole hooks file; that handler is not written"
            );
            w.honest(Component::Hook, event, Level::Degraded, detail);
        }
        if groups.is_empty() {
            continue;
        }
        if dropped.is_empty() {
            let detail = "hooks/hooks.json in Claude Code's dialect: Copilot CLI passes Claude's payload and tool names";
            w.honest(Component::Hook, event, Level::Supported, detail);
        }
        kept.insert(event.clone(), Value::Array(groups));
    }
    if kept.is_empty() {
        return Ok(());
    }
    w.add_json(HOOKS_FILE, &json!({"hooks": kept}), hooks.origin.to_string())
}

/// The groups of one event with only the handlers Copilot runs, and the types left out.
fn runnable_groups(groups: &Value) -> (Vec<Value>, Vec<String>) {
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for group in groups.as_array().into_iter().flatten() {
        let mut group = group.clone();
        if let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) {
            handlers.retain(|handler| {
                let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
                let runs = facts::HOOK_HANDLER_TYPES.contains(&kind);
                if !runs {
                    dropped.push(kind.to_string());
                }
                runs
            });
            if handlers.is_empty() {
                continue;
            }
        }
        kept.push(group);
    }
    (kept, dropped)
}

fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        let transport = server.get("type").and_then(Value::as_str);
        if let Some(transport) = transport.filter(|t| !MCP_TRANSPORTS.contains(t)) {
            let detail = format!(
                "transport {transport:?}: Copilot CLI starts stdio, http and sse servers, and another type drops the whole .mcp.json; not written"
            );
            w.honest(Component::Mcp, name, Level::Unsupported, detail);
            continue;
        }
        if server.to_string().contains("${PLUGIN_DATA}") {
            let detail =
                "uses ${PLUGIN_DATA}: Copilot CLI gives MCP servers no plugin data folder; not written";
            w.honest(Component::Mcp, name, Level::Unsupported, detail);
            continue;
        }
        let mut server = server.clone();
        if transport == Some("streamable-http") {
            // Copilot's name for the same transport [24].
            server["type"] = json!("http");
        }
        w.honest(Component::Mcp, name, Level::Supported, MCP_FILE);
        servers.insert(name.clone(), server);
    }
    if servers.is_empty() {
        return Ok(());
    }
    w.add_json(MCP_FILE, &json!({"mcpServers": servers}), mcp.origin.to_string())
}

/// `bin/` and support files travel as they are; settings, output styles and
/// context files have no plugin slot in Copilot CLI.
fn files(w: &mut Writer<'_>) -> Result<()> {
    // A root plugin.json would take precedence over the manifest [1].
    let why =
        format!("plugin.json is not copied: Copilot CLI would read it instead of {}", facts::MANIFEST_PATH);
    w.plain_files("Copilot CLI", &[("plugin.json", why)])?;
    if let Some(context) = &w.plugin.context {
        let detail = "Copilot CLI plugins load no context file; move its guidance into a skill";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
    Ok(())
}

/// `{name, owner{name, email?}, plugins[{name, source, description?, version?}]}` [11, 12].
pub(crate) fn marketplace(w: &mut Writer<'_>) -> Result<()> {
    w.claude_shaped_marketplace_entry(facts::MARKETPLACE_PATH)
}

fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(None)? {
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
    w.render_readme("copilot", fields)
}
