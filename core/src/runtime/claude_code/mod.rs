//! Claude Code plugin: the manifest ([`facts::MANIFEST_PATH`]) plus the
//! default layout, and an entry in the marketplace ([`facts::MARKETPLACE_PATH`]);
//! or, as the `project` kind, loose project configuration (`project`).

pub(crate) mod facts;
pub(crate) mod lint;
pub(crate) mod read;
mod judge;
mod marketplace;
mod project;

use serde_json::{Map, Value, json};

use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer};
use crate::codes::DiagnosticCode;
use crate::error::Result;
use crate::merge::Part;
use crate::model::{FileComponent, MarkdownComponent, Plugin};
use crate::report::Level;
use crate::templates;
use crate::vars::CLAUDE_VARS;
use crate::report::Component;

/// The only plugin `settings.json` keys Claude Code applies.
const APPLIED_SETTINGS: [&str; 2] = ["agent", "subagentStatusLine"];
/// Agent frontmatter keys Claude Code ignores for plugin agents.
const IGNORED_AGENT_KEYS: [&str; 3] = ["permissionMode", "hooks", "mcpServers"];

/// Claude Code's CLI, the judge of its plugins and project configuration.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "claude",
    name: "Claude Code",
    commands: &["claude"],
    quiet: &[
        ("DISABLE_TELEMETRY", "1"),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
        ("DISABLE_AUTOUPDATER", "1"),
        ("DISABLE_ERROR_REPORTING", "1"),
    ],
    package: "@anthropic-ai/claude-code",
    version: "2.1.332",
    binary: "node_modules/@anthropic-ai/claude-code/bin/claude.exe",
    extra_packages: &[],
    load: &[
        "claude plugin validate --strict DIR",
        "claude plugin marketplace add ./ROOT",
        "claude plugin install NAME@MARKETPLACE",
    ],
    list: &["claude plugin details NAME@MARKETPLACE"],
    driver: "core/src/runtime/claude_code/drivers/claude_inventory.py",
    typical_seconds: 5,
    launch: super::Launch::AfterScript("node_modules/@anthropic-ai/claude-code/install.cjs"),
};

/// Claude Code judging a plugin listed by the marketplace at the output root.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Plugin],
    driver: "core/src/runtime/claude_code/drivers/claude_inventory.py",
    args: &["--claude", "BIN", "--plugin-dir", "DIR", "--marketplace-root", "ROOT", "--plugin", "NAME"],
    read: judge::read_plugin,
};

/// Claude Code loading a project's (or, for the user scope, a home's)
/// `.claude/` components, settings hooks and MCP servers.
const PROJECT_CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[PROJECT],
    driver: "core/src/runtime/claude_code/drivers/claude_project_inventory.py",
    args: &["--claude", "BIN", "--out", "ROOT", "--scope", "SCOPE"],
    read: judge::read_project,
};

/// Claude Code, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Claude Code",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: true, check_component_frontmatter: Some(lint::check_component_frontmatter) },
    skills: super::Skills { follows_agent_skills_spec: false, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: true, check: Some(lint::check_agent) },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: Some(super::CommandDescription { key_alone_suffices: true, why_needed: "users and the model cannot tell when to use it" }), own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: Some(&read::MANIFESTLESS_LAYOUT), claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: Some(facts::MARKETPLACE_PATH), manifest_folder: Some(facts::MANIFEST_DIR), runtime_only_fields: &read::CLAUDE_ONLY, read_field: None }),
    judge: super::Judge::Clients(&[CHECK, PROJECT_CHECK]),
    rules: &[],
    subject: "Claude Code",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true), (facts::PLUGIN_DATA_VAR, false)],
    marketplace: Some(marketplace::MARKETPLACE),
    hooks: Some(super::Hooks {
        events: super::HookEvents::Listed(&facts::HOOK_EVENTS),
        unknown_event: |event| {
            format!("`{event}` is not a Claude Code hook event: Claude Code ignores the entry (`--strict` refuses it)")
        },
        shape: super::HookShape::Grouped { handler_types: &facts::HOOK_HANDLER_TYPES },
        requires_hooks_key: true,
        top_level_keys: None,
        expands: &[facts::PLUGIN_ROOT_VAR, facts::PLUGIN_DATA_VAR],
        quoted_vars: FOLDER_VARIABLES,
        run_from_plugin_folder: false,
    }),
    mcp: super::Mcp {
        files: Some(&[".mcp.json"]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[facts::PLUGIN_ROOT_VAR, facts::PLUGIN_DATA_VAR]),
        unexpanded: "Claude Code leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] = &[
    Kind {
        name: ArtifactKind::Plugin,
        layout: Layout::Folder,
        scopes: BOTH_SCOPES,
        marketplace: Some(facts::MARKETPLACE_PATH),
        shared: &[],
    },
    Kind {
        name: PROJECT,
        layout: Layout::InPlace { state_dir: ".claude" },
        scopes: BOTH_SCOPES,
        marketplace: None,
        shared: project::SHARED,
    },
];

/// Loose `.claude/` configuration instead of a plugin (see `project`).
const PROJECT: ArtifactKind = ArtifactKind::Project;

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    if w.kind.name == PROJECT {
        return project::write(w);
    }
    write_plugin(w)?;
    readme(w)?;
    if w.options.marketplace {
        marketplace(w)?;
    }
    Ok(())
}

/// This bundle's entry in the marketplace file (the universal folder lists itself too).
pub(crate) fn marketplace(w: &mut Writer<'_>) -> Result<()> {
    let (document, entry) = marketplace_entry(w.plugin, &w.bundle.root, &w.marketplace_name());
    w.merge(facts::MARKETPLACE_PATH, Part::MarketplaceEntry { document, entry })
}

/// The plugin's files and honesty rows, without README or marketplace entry
/// (OpenClaw's compatible bundle reuses it).
pub(crate) fn write_plugin(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    manifest(w)?;
    for skill in &plugin.skills {
        w.copy_skill_main(skill, None, Some(CLAUDE_VARS))?;
        for file in &skill.files {
            w.copy(file, None, None)?;
        }
        w.honest(Component::Skill, &skill.name, Level::Supported, format!("skills/{}/SKILL.md", skill.name));
    }
    markdown(w, Component::Command, &plugin.commands)?;
    markdown(w, Component::Agent, &plugin.agents)?;
    copies(w, Component::OutputStyle, &plugin.output_styles)?;
    copies(w, Component::Bin, &plugin.bin)?;
    for file in &plugin.support {
        // Claude Code reads no CLAUDE.md from a plugin, and its strict
        // validation flags one at the root: it stays out of this bundle.
        if file.path.as_str() == "CLAUDE.md" {
            let detail = "Claude Code does not load a plugin's root CLAUDE.md; it is left out of this bundle \
                          (the other runtimes carry it as a support file)";
            w.honest(Component::Support, "CLAUDE.md", Level::Unsupported, detail);
            continue;
        }
        w.copy(file, None, None)?;
    }
    hooks(w)?;
    mcp(w)?;
    settings(w)?;
    if let Some(context) = &plugin.context {
        let detail = "Claude Code plugins load no context file (a root CLAUDE.md is ignored); \
                      move its guidance into a skill";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
    Ok(())
}

fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let mut manifest = w.metadata(true);
    if let Some(icon) = w.icon_file().or_else(|| w.plugin.config.icon.clone()) {
        manifest.insert("icon".into(), json!(icon));
    }
    let extra: Vec<(String, Value)> =
        w.plugin.claude_extra.iter().chain(w.overrides()).map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(extra);
    // `claude plugin validate --strict` fails on these; say so before a user finds out.
    let file = w.plugin.metadata_file.to_string();
    for key in ["version", "description", "author"].into_iter().filter(|k| !manifest.contains_key(*k)) {
        let message = format!("no {key}: `claude plugin validate --strict` rejects a plugin without one");
        w.warn(DiagnosticCode::MissingMetadata, Some(&file), message);
    }
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), templates::origin("claude-code/plugin.json"))
}

fn markdown(w: &mut Writer<'_>, component: Component, items: &[MarkdownComponent]) -> Result<()> {
    for item in items {
        w.copy(&item.file, None, Some(CLAUDE_VARS))?;
        let ignored: Vec<&str> =
            IGNORED_AGENT_KEYS.iter().copied().filter(|k| item.document.field(k).is_some()).collect();
        if component == Component::Command && item.name.contains(':') {
            let detail = "Claude Code does not load commands below a sub-folder of commands/";
            w.honest(component, &item.name, Level::Unsupported, detail);
        } else if component == Component::Agent && !ignored.is_empty() {
            let detail = format!("Claude Code ignores {} for plugin agents", ignored.join(", "));
            w.honest(component, &item.name, Level::Degraded, detail);
        } else {
            w.honest(component, &item.name, Level::Supported, item.file.path.to_string());
        }
    }
    Ok(())
}

fn copies(w: &mut Writer<'_>, component: Component, items: &[FileComponent]) -> Result<()> {
    for item in items {
        w.copy(item, None, None)?;
        w.honest(component, item.path.as_str(), Level::Supported, item.path.to_string());
    }
    Ok(())
}

fn hooks(w: &mut Writer<'_>) -> Result<()> {
    let Some(hooks) = &w.plugin.hooks else { return Ok(()) };
    let mut value = CLAUDE_VARS.json(hooks.value.clone());
    let mut events = Vec::new();
    if let Some(map) = value.get_mut("hooks").and_then(Value::as_object_mut) {
        for (event, groups) in map {
            events.push((event.clone(), quote_plugin_folders(groups)));
        }
    }
    for (event, quoted) in &events {
        let detail = if *quoted {
            "hooks/hooks.json, ${CLAUDE_PLUGIN_ROOT} (quoted where the source left it bare; \
             ${user_config.KEY} read as \"$CLAUDE_PLUGIN_OPTION_KEY\", which shell-form hooks need)"
        } else {
            "hooks/hooks.json, ${CLAUDE_PLUGIN_ROOT}"
        };
        w.honest(Component::Hook, event, Level::Supported, detail);
    }
    w.add_json("hooks/hooks.json", &value, hooks.origin.to_string())
}

/// The plugin's user options (`userConfig`): carried with a Claude Code
/// plugin read as a source, or kept for this runtime's bundle in
/// `targets.claude-code.manifest`.
pub(crate) fn user_options(plugin: &Plugin) -> Option<&Map<String, Value>> {
    plugin.claude_extra.get("userConfig").or(kept_manifest_field(plugin, "userConfig")).and_then(Value::as_object)
}

/// A Claude Code manifest field kept for this runtime's bundle
/// (`targets.claude-code.manifest`), as import and a direct build keep the
/// fields only Claude Code reads.
pub(crate) fn kept_manifest_field<'p>(plugin: &'p Plugin, key: &str) -> Option<&'p Value> {
    plugin.config.targets.get(super::Runtime::ClaudeCode.id()).and_then(|t| t.manifest.get(key))
}

/// Claude Code's plugin-folder variables, quoted in shell-form commands.
pub(crate) const FOLDER_VARIABLES: &[&str] = &["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// Double-quotes the plugin-folder variables a shell-form command handler of
/// `groups` (one event's `[{matcher, hooks: [handler]}]`) leaves bare: Claude
/// Code warns about them and `--strict` refuses the plugin, and a folder with
/// a space in its path would split the command. Exec form (`args`) runs no
/// shell and is left as it is. Whether anything was quoted.
fn quote_plugin_folders(groups: &mut Value) -> bool {
    let mut quoted = false;
    let handlers = groups
        .as_array_mut()
        .into_iter()
        .flatten()
        .filter_map(|group| group.get_mut("hooks").and_then(Value::as_array_mut))
        .flatten()
        .filter_map(Value::as_object_mut)
        .filter(|handler| !handler.contains_key("args"));
    for handler in handlers {
        let Some(Value::String(command)) = handler.get_mut("command") else { continue };
        if let Some(read) = crate::shell::user_options_from_environment(command) {
            *command = read;
            quoted = true;
        }
        if let Some(safe) = crate::shell::quote_variables(command, FOLDER_VARIABLES) {
            *command = safe;
            quoted = true;
        }
    }
    quoted
}

fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        let (server, typed) = remote_type(CLAUDE_VARS.json(server.clone()));
        w.honest(Component::Mcp, name, Level::Supported, format!(".mcp.json{typed}"));
        servers.insert(name.clone(), server);
    }
    w.add_json(".mcp.json", &json!({ "mcpServers": servers }), mcp.origin.to_string())
}

/// Claude Code reads a server with a `url` and no `type` as a stdio server,
/// which then fails for lacking a `command` and is dropped at load (its
/// `plugin validate` says so). Cursor, Copilot and the Agent Plugins spec read
/// such a server as streamable HTTP, so that is the `type` it gets. Returns
/// the server and, when a `type` was added, a note for its honesty row.
pub(super) fn remote_type(server: Value) -> (Value, &'static str) {
    match server {
        Value::Object(mut fields)
            if fields.contains_key("url") && !fields.contains_key("type") && !fields.contains_key("command") =>
        {
            fields.insert("type".into(), Value::String("http".into()));
            (Value::Object(fields), "; `type: http` added (Claude Code reads a server without one as stdio)")
        }
        other => (other, ""),
    }
}

fn settings(w: &mut Writer<'_>) -> Result<()> {
    let Some(settings) = &w.plugin.settings else { return Ok(()) };
    let value = CLAUDE_VARS.json(settings.value.clone());
    let ignored: Vec<&str> = value
        .as_object()
        .map(|m| m.keys().map(String::as_str).filter(|k| !APPLIED_SETTINGS.contains(k)).collect())
        .unwrap_or_default();
    if ignored.is_empty() {
        w.honest(Component::Settings, "settings.json", Level::Supported, "settings.json");
    } else {
        let detail = format!(
            "Claude Code applies only {} from a plugin's settings.json; ignored: {}",
            APPLIED_SETTINGS.join(" and "),
            ignored.join(", ")
        );
        w.honest(Component::Settings, "settings.json", Level::Degraded, detail);
    }
    w.add_json("settings.json", &value, settings.origin.to_string())
}

fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(Some(CLAUDE_VARS))? {
        return Ok(());
    }
    let plugin = w.plugin;
    let described = |items: &[MarkdownComponent]| -> Vec<Value> {
        items
            .iter()
            .map(|c| json!({"name": c.name, "description": c.document.str_field("description")}))
            .collect()
    };
    let skills: Vec<Value> = plugin
        .skills
        .iter()
        .map(|s| json!({"name": s.name, "description": s.document.str_field("description")}))
        .collect();
    let hooks: Vec<String> = plugin
        .hooks
        .as_ref()
        .and_then(|h| h.value.get("hooks")?.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default();
    let mcp: Vec<&String> = plugin.mcp.as_ref().map(|m| m.servers.keys().collect()).unwrap_or_default();
    let fields = json!({
        "skills": skills,
        "commands": described(&plugin.commands),
        "agents": described(&plugin.agents),
        "hooks": hooks,
        "mcp_servers": mcp,
    });
    w.render_readme("claude-code", fields)
}

/// (the marketplace file to start from, this plugin's entry).
fn marketplace_entry(plugin: &Plugin, root: &str, marketplace: &str) -> (Value, Value) {
    let config = &plugin.config;
    let mut entry = Map::new();
    entry.insert("name".into(), json!(plugin.namespace));
    entry.insert("source".into(), json!(format!("./{root}")));
    if let Some(description) = &config.description {
        entry.insert("description".into(), json!(description));
    }
    if let Some(version) = &config.version {
        entry.insert("version".into(), json!(version));
    }
    if let Some(author) = &config.author {
        entry.insert("author".into(), json!(author));
    }
    if let Some(category) = &config.marketplace.category {
        entry.insert("category".into(), json!(category));
    }
    let owner = config
        .marketplace
        .owner
        .as_ref()
        .or(config.author.as_ref())
        .map_or_else(|| json!({"name": plugin.namespace}), |owner| json!(owner));
    let description = config
        .marketplace
        .description
        .clone()
        .unwrap_or_else(|| format!("Local marketplace for the {} plugin", plugin.namespace));
    let document = json!({
        "name": marketplace,
        "owner": owner,
        "description": description,
        "plugins": [],
    });
    (document, Value::Object(entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_remote_server_without_a_type_gets_one() {
        let (typed, note) = remote_type(json!({"url": "https://x.example/mcp"}));
        assert_eq!(typed, json!({"url": "https://x.example/mcp", "type": "http"}));
        assert!(note.contains("`type: http` added"));
        for kept in [
            json!({"type": "sse", "url": "https://x.example/sse"}),
            json!({"command": "npx", "args": ["srv"]}),
            json!({"command": "npx", "url": "https://x.example/mcp"}),
        ] {
            assert_eq!(remote_type(kept.clone()), (kept, ""));
        }
    }
}
