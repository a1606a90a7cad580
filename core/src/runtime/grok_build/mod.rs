//! Grok Build plugin: the manifest ([`facts::MANIFEST_PATH`]) plus Claude
//! Code's layout, which Grok reads as its own (`skills/`, `commands/`,
//! `agents/`, `hooks/hooks.json`, `.mcp.json`, `.lsp.json`), and an entry in
//! the marketplace at [`facts::MARKETPLACE_PATH`]. Every fact is in
//! `facts.rs` with the line of Grok Build's source
//! ([`facts::SOURCE_COMMIT`]) it was read from.
//!
//! A folder laid out for Claude Code loads too, through the manifest
//! fallback: [`claude_layout`] says what Grok takes of one (the `universal`
//! folder names Grok Build from it).
//!
//! Grok expands Claude Code's plugin-folder variables as its own, so the
//! bundle keeps `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}`. No Grok
//! client is published on a registry: bundles are judged by [`schema`], a
//! check of every file against the types and rules of that source.

mod claude_layout;
pub(crate) mod facts;
mod read;
pub(crate) mod schema;

use serde_json::{Map, Value, json};

use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Runtime, Writer, left_out, marketplace_owner};
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::merge::Part;
use crate::model::MarkdownComponent;
use crate::report::{Component, Level};
use crate::vars::CLAUDE_VARS;

/// Grok Build, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Grok Build",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[Runtime::ClaudeCode], loaded_as: Some(claude_layout::loaded_as), loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: &[facts::CLAUDE_MANIFEST_FALLBACK], check_manifest: None, check_plugin: None, layout: super::claude_code::lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: false, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: false, description: None, own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: Some(facts::MARKETPLACE_PATH), manifest_folder: Some(facts::MANIFEST_DIR), runtime_only_fields: &read::GROK_ONLY, read_field: None }),
    judge: super::Judge::Schemas { why: "Grok Build is published as source only (no npm, PyPI or crates.io package), and no crate of it builds alone", test: "cli/tests/schema_judges.rs", check: Some(schema::check) },
    rules: &[],
    subject: "Grok Build",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true), (facts::PLUGIN_DATA_VAR, false)],
    marketplace: None,
    hooks: Some(super::Hooks {
        events: super::HookEvents::Listed(&facts::HOOK_EVENTS),
        unknown_event: |event| {
            format!("`{event}` is not a Grok Build hook event: Grok skips it with a warning when it loads the plugin")
        },
        shape: super::HookShape::Grouped { handler_types: &facts::HOOK_HANDLER_TYPES },
        requires_hooks_key: true,
        top_level_keys: None,
        expands: &[facts::CLAUDE_ROOT_VAR, facts::CLAUDE_DATA_VAR, facts::PLUGIN_ROOT_VAR, facts::PLUGIN_DATA_VAR],
        quoted_vars: &[],
        run_from_plugin_folder: false,
    }),
    mcp: super::Mcp {
        files: Some(&[facts::MCP_FILE]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[facts::CLAUDE_ROOT_VAR, facts::CLAUDE_DATA_VAR, facts::PLUGIN_ROOT_VAR, facts::PLUGIN_DATA_VAR]),
        unexpanded: "Grok Build leaves it unexpanded",
    },
};

/// A plugin folder, listed in the marketplace file at the output root.
pub const KINDS: &[Kind] = &[Kind {
    name: ArtifactKind::Plugin,
    layout: Layout::Folder,
    scopes: BOTH_SCOPES,
    marketplace: Some(facts::MARKETPLACE_PATH),
    shared: &[],
}];

/// Claude Code manifest fields Grok Build reads too (`lspServers`,
/// `manifest.rs:168`); the other Claude-only fields it does not.
const CARRIED_CLAUDE_FIELDS: [&str; 1] = ["lspServers"];

/// Writes every component of `w.plugin` the way Grok Build reads it, with one
/// honesty row per component instance (supported, degraded or left out).
pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    manifest(w)?;
    for skill in &plugin.skills {
        w.copy(&skill.main, None, Some(CLAUDE_VARS))?;
        for file in &skill.files {
            w.copy(file, None, None)?;
        }
        let detail = format!("skills/{}/SKILL.md, invoked as /{}:{}", skill.name, plugin.namespace, skill.name);
        w.honest(Component::Skill, &skill.name, Level::Supported, detail);
        // Grok finds every SKILL.md below its skills folder, a skill's own
        // files included (`find_skill_md_paths`).
        for file in skill.files.iter().filter(|f| f.path.as_str().ends_with("/SKILL.md")) {
            let path = file.path.as_str();
            let name = path.trim_start_matches("skills/").trim_end_matches("/SKILL.md");
            let detail = format!(
                "{path}, a file of skill {}, which Grok Build also loads as a skill of its own",
                skill.name
            );
            w.honest(Component::Skill, name, Level::Degraded, detail);
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

/// Whether Grok Build accepts `name` as a plugin name (see [`facts::NAME_MAX`]).
pub fn is_plugin_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= facts::NAME_MAX
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let file = plugin.metadata_file.to_string();
    if !is_plugin_name(&plugin.namespace) {
        let message = format!(
            "plugin name {:?} is not one Grok Build loads (1-64 of a-z, 0-9 and '-', no '-' at either end): choose another --namespace",
            plugin.namespace
        );
        return Err(Error::at(ErrorCode::InvalidSource, Location::file(file.as_str()), message));
    }
    let mut manifest = w.metadata(false);
    if let Some(Value::Object(author)) = manifest.get_mut("author") {
        author.retain(|key, _| facts::AUTHOR_KEYS.contains(&key.as_str()));
    }
    let mut dropped = Vec::new();
    for (key, value) in &plugin.claude_extra {
        if CARRIED_CLAUDE_FIELDS.contains(&key.as_str()) {
            manifest.insert(key.clone(), CLAUDE_VARS.json(value.clone()));
        } else {
            dropped.push(key.as_str());
        }
    }
    // A Claude Code plugin read as a source keeps its Claude-only fields for
    // that runtime's bundle; Grok reads these ones from the same manifest.
    for key in CARRIED_CLAUDE_FIELDS {
        if let Some(value) = super::claude_code::kept_manifest_field(plugin, key).filter(|_| !manifest.contains_key(key)) {
            manifest.insert(key.to_string(), CLAUDE_VARS.json(value.clone()));
        }
    }
    if !dropped.is_empty() {
        let message =
            format!("Claude Code manifest fields {} are not read by Grok Build; not carried", dropped.join(", "));
        w.warn(DiagnosticCode::DroppedField, Some(&file), message);
    }
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (key, _) in overrides.iter().filter(|(key, _)| !facts::MANIFEST_KEYS.contains(&key.as_str())) {
        let message = format!("targets.grok-build.manifest.{key}: Grok Build ignores this field (it reads {})", facts::MANIFEST_KEYS.join(", "));
        w.warn(DiagnosticCode::UnknownField, Some(&file), message);
    }
    manifest.extend(overrides);
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), crate::templates::origin("grok-build/plugin.json"))
}

/// Grok reads `commands/*.md` flat and loads each as a skill.
fn command_file(w: &mut Writer<'_>, command: &MarkdownComponent) -> Result<()> {
    if nested(command, facts::COMMANDS_DIR) {
        let detail = "Grok Build reads only top-level commands/*.md (its scan does not recurse); not written";
        w.honest(Component::Command, &command.name, Level::Unsupported, detail);
        return Ok(());
    }
    w.copy(&command.file, None, Some(CLAUDE_VARS))?;
    let detail = format!(
        "{}, loaded as the skill /{}:{} ($ARGUMENTS and $N substituted)",
        command.file.path, w.plugin.namespace, command.name
    );
    w.honest(Component::Command, &command.name, Level::Supported, detail);
    Ok(())
}

/// Grok reads `agents/*.md` flat, named `<plugin>:<name>`.
fn agent_file(w: &mut Writer<'_>, agent: &MarkdownComponent) -> Result<()> {
    if nested(agent, facts::AGENTS_DIR) {
        let detail = "Grok Build reads only top-level agents/*.md; not written";
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    let document = &agent.document;
    if document.str_field("description").is_none() {
        let detail = "Grok Build skips a plugin agent whose frontmatter has no description; not written";
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    let mode = document.str_field("permissionMode");
    if let Some(mode) = mode.filter(|m| !facts::AGENT_PERMISSION_MODES.contains(m)) {
        let detail = format!("permissionMode {mode:?} is not one Grok Build reads, so it skips the agent; not written");
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    let mut notes = Vec::new();
    if document.str_field("name").is_some() {
        w.copy(&agent.file, None, Some(CLAUDE_VARS))?;
    } else {
        // Grok requires the name Claude Code takes from the file name.
        let mut frontmatter = document.frontmatter.clone().unwrap_or_default();
        frontmatter.insert("name".into(), json!(agent.name));
        let body = CLAUDE_VARS.text(&document.body).unwrap_or_else(|| document.body.clone());
        let bytes = crate::format::yaml::frontmatter(&frontmatter, &body).into_bytes();
        w.add(agent.file.path.as_str(), bytes, agent.file.file.origin.to_string())?;
        notes.push(format!("name: {} added to its frontmatter, which Grok Build requires", agent.name));
    }
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
    let detail: Vec<String> =
        std::iter::once(format!("{}, run as {}:{}", agent.file.path, w.plugin.namespace, agent.name)).chain(notes).collect();
    w.honest(Component::Agent, &agent.name, level, detail.join("; "));
    Ok(())
}

/// Whether a command or agent file sits below a sub-folder of `folder`,
/// which Grok's flat scans never see.
fn nested(item: &MarkdownComponent, folder: &str) -> bool {
    let path = item.file.path.as_str();
    path.strip_prefix(folder).and_then(|rest| rest.strip_prefix('/')).is_none_or(|rest| rest.contains('/'))
}

/// Claude Code's hooks file, kept to the events and handler types Grok runs;
/// the plugin-folder variables quoted where a shell reads them.
fn hooks(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(hooks) = &plugin.hooks else { return Ok(()) };
    let value = CLAUDE_VARS.json(w.user_options_in_hooks(crate::shell::exec_form_as_shell_line(hooks.value.clone())));
    let mut kept = Map::new();
    for (event, groups) in value.get("hooks").and_then(Value::as_object).into_iter().flatten() {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let detail = "Grok Build has no such event and skips it with a warning; not written";
            w.honest(Component::Hook, event, Level::Unsupported, detail);
            continue;
        }
        let had_groups = groups.as_array().is_some_and(|groups| !groups.is_empty());
        let (groups, notes) = runnable_groups(event, groups);
        if groups.is_empty() && had_groups {
            let detail = format!("{}; nothing left to write", notes.join("; "));
            w.honest(Component::Hook, event, Level::Unsupported, detail);
            continue;
        }
        let mut detail = vec![format!("{} in Claude Code's shape", facts::HOOKS_FILE)];
        let level = if notes.is_empty() { Level::Supported } else { Level::Degraded };
        detail.extend(notes);
        w.honest(Component::Hook, event, level, detail.join("; "));
        kept.insert(event.clone(), Value::Array(groups));
    }
    if kept.is_empty() {
        return Ok(());
    }
    w.add_json(facts::HOOKS_FILE, &json!({"hooks": kept}), hooks.origin.to_string())
}

/// One event's groups with only the handlers Grok runs (a handler of another
/// type would fail the whole file), and what differs from Claude Code.
fn runnable_groups(event: &str, groups: &Value) -> (Vec<Value>, Vec<String>) {
    let mut kept = Vec::new();
    let mut notes = Vec::new();
    let mut note = |text: String| {
        if !notes.contains(&text) {
            notes.push(text);
        }
    };
    for group in groups.as_array().into_iter().flatten() {
        let mut group = group.clone();
        if facts::HOOK_EVENTS_WITHOUT_MATCHER.contains(&event) && group.get("matcher").is_some() {
            note(format!("Grok Build ignores a matcher on {event} (it warns); it runs for every {event}"));
        }
        let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else { continue };
        handlers.retain(|handler| {
            let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
            let runs = facts::HOOK_HANDLER_TYPES.iter().any(|(t, _)| *t == kind)
                && handler.get("args").is_none();
            if !runs {
                let why = if kind == "command" { "an exec-form (args) command".to_string() } else { format!("a {kind:?} handler") };
                note(format!(
                    "{why} left out: Grok Build runs command strings and http hooks, and another handler fails its whole hooks file"
                ));
            }
            runs
        });
        for handler in handlers.iter_mut().filter_map(Value::as_object_mut) {
            // Grok requires the type Claude Code lets a command handler omit.
            handler.entry("type").or_insert_with(|| json!("command"));
            if !handler.contains_key("timeout") && !facts::HOOK_STOP_GATES.contains(&event) {
                note(format!(
                    "a handler without a timeout is stopped after {} s, Grok Build's default",
                    facts::HOOK_DEFAULT_TIMEOUT_SECONDS
                ));
            }
            let Some(Value::String(command)) = handler.get_mut("command") else { continue };
            let folders = [facts::CLAUDE_ROOT_VAR, facts::CLAUDE_DATA_VAR];
            if let Some(safe) = crate::shell::quote_variables(command, &folders) {
                *command = safe;
            }
        }
        if handlers.is_empty() {
            continue;
        }
        kept.push(group);
    }
    (kept, notes)
}

/// `.mcp.json` as Claude Code writes it: Grok reads `{mcpServers}` and
/// expands the plugin-folder variables in every string.
fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        let (server, typed) = super::claude_code::remote_type(CLAUDE_VARS.json(server.clone()));
        let detail = format!("{}{typed}; Grok Build starts it once the plugin is trusted", facts::MCP_FILE);
        w.honest(Component::Mcp, name, Level::Supported, detail);
        servers.insert(name.clone(), server);
    }
    if servers.is_empty() {
        return Ok(());
    }
    w.add_json(facts::MCP_FILE, &json!({"mcpServers": servers}), mcp.origin.to_string())
}

/// `bin/` and support files travel as they are, but never a root
/// `plugin.json`, which Grok would read instead of its own manifest.
fn files(w: &mut Writer<'_>) -> Result<()> {
    let why = format!(
        "{} is not copied: Grok Build reads a root {} before {}",
        facts::ROOT_MANIFEST,
        facts::ROOT_MANIFEST,
        facts::MANIFEST_PATH
    );
    w.plain_files("Grok Build", &[(facts::ROOT_MANIFEST, why)])?;
    if let Some(context) = &w.plugin.context {
        let detail = "Grok Build plugins load no context file; move its guidance into a skill";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
    Ok(())
}

/// `{name, owner, description, plugins[{name, source, description?, version?}]}`
/// (`MarketplaceIndex`, `IndexEntry`), the entry's source a `./` path.
fn marketplace(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let config = &plugin.config;
    let description = config
        .marketplace
        .description
        .clone()
        .unwrap_or_else(|| format!("Local marketplace for the {} plugin", plugin.namespace));
    let document = json!({
        "name": w.marketplace_name(),
        "owner": marketplace_owner(plugin),
        "description": description,
        "plugins": [],
    });
    let mut entry = Map::new();
    entry.insert("name".into(), json!(plugin.namespace));
    entry.insert("source".into(), json!(format!("./{}", w.bundle.root)));
    if let Some(description) = &config.description {
        entry.insert("description".into(), json!(description));
    }
    if let Some(version) = &config.version {
        entry.insert("version".into(), json!(version));
    }
    if let Some(category) = &config.marketplace.category {
        entry.insert("category".into(), json!(category));
    }
    if !config.keywords.is_empty() {
        entry.insert("keywords".into(), json!(config.keywords));
    }
    w.merge(facts::MARKETPLACE_PATH, Part::MarketplaceEntry { document, entry: Value::Object(entry) })
}

/// The bundle README: the author's, else one from `README.md.j2` (in this
/// folder) listing what the bundle carries and how to install it.
fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(Some(CLAUDE_VARS))? {
        return Ok(());
    }
    const TEMPLATE: &str = include_str!("README.md.j2");
    let config = &w.plugin.config;
    let ctx = json!({
        "plugin": {"name": config.name, "display_name": config.display_name, "version": config.version, "description": config.description},
        "namespace": w.plugin.namespace,
        "root": w.bundle.root,
        "up": w.output_root(),
        "marketplace": w.options.marketplace.then(|| w.marketplace_name()),
        "generator": w.options.generator,
        "manifest": w.bundle.manifest.file_name(),
        "skills": w.written(Component::Skill),
        "commands": w.written(Component::Command),
        "agents": w.written(Component::Agent),
        "hooks": w.written(Component::Hook),
        "mcp_servers": w.written(Component::Mcp),
        "left_out": left_out(&w.bundle.honesty),
    });
    let text = crate::templates::render_source("grok-build/README.md.j2", TEMPLATE, &ctx);
    w.add("README.md", text.into_bytes(), crate::templates::origin("grok-build/README.md.j2"))
}

#[cfg(test)]
mod tests;
