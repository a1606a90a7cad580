//! Cursor plugin: the manifest ([`facts::MANIFEST_PATH`], a closed schema)
//! plus the default layout (`skills/`, `commands/`, `agents/`, `rules/`,
//! `hooks/hooks.json`, `mcp.json`), and an entry in the marketplace at
//! [`facts::MARKETPLACE_PATH`]. No Cursor client is available here:
//! the facts come from formats.md section 4 (repos cursor/plugins
//! `schemas/plugin.schema.json`, cursor/plugin-template
//! `scripts/validate-template.mjs`), and what they leave unverified is
//! reported degraded rather than guessed.

pub(crate) mod facts;
pub(crate) mod lint;
pub(crate) mod read;
mod marketplace;

use serde_json::{Map, Value, json};

use super::skill_fold::{SkillPolicy, Strictness, write_skill};
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer, left_out, marketplace_owner};
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::format::yaml;
use crate::merge::Part;
use crate::model::{MarkdownComponent, Plugin};
use crate::report::Level;
use crate::source::parse_document;
use crate::templates;
use crate::vars::VarTable;
use crate::report::Component;

const MCP_FILE: &str = "mcp.json";
const HOOKS_FILE: &str = "hooks/hooks.json";
/// Claude transport names Cursor's `mcp.json` connects over.
const MCP_TRANSPORTS: [&str; 4] = ["stdio", "sse", "http", "streamable-http"];

/// [`facts::PLUGIN_ROOT`] is the spelling Cursor plugins use in practice;
/// Cursor's docs do not document it, so every use is reported degraded.
/// Cursor has no data folder: `${PLUGIN_DATA}` has no spelling at all.
const CURSOR_VARS: VarTable = VarTable(&[("${PLUGIN_ROOT}", facts::PLUGIN_ROOT)]);
/// Hook commands run from the plugin folder, as in Cursor's own plugins
/// (cursor/plugins `advisor/hooks/hooks.json`: `"command": "./hooks/x.sh"`).
const HOOK_VARS: VarTable = VarTable(&[("${PLUGIN_ROOT}", ".")]);
const ROOT_CAVEAT: &str = "${PLUGIN_ROOT} written as ${CURSOR_PLUGIN_ROOT}, the spelling Cursor plugins use; \
                           Cursor's docs do not document it";
const DATA_CAVEAT: &str = "${PLUGIN_DATA} stays literal: Cursor has no plugin data folder";

/// Every key [`facts::MANIFEST_PATH`] may hold (`additionalProperties: false`).
const MANIFEST_KEYS: [&str; 21] = [
    "name",
    "displayName",
    "description",
    "version",
    "minClientVersions",
    "author",
    "publisher",
    "homepage",
    "repository",
    "license",
    "logo",
    "keywords",
    "category",
    "tags",
    "commands",
    "agents",
    "skills",
    "rules",
    "hooks",
    "variables",
    "mcpServers",
];

const HOOK_CAVEAT: &str = "Cursor passes its own payload (matchers see Cursor tool names, e.g. Shell rather than \
                           Bash) and reads its own output fields; not verified against a Cursor client";

/// Cursor, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Cursor",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: true, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: true, check: Some(lint::check_agent) },
    commands: super::Commands { extensions: &[".md", ".mdc", ".markdown", ".txt"], frontmatter_required: true, description: Some(super::CommandDescription { key_alone_suffices: false, why_needed: "users and the model cannot tell when to use it" }), own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: Some(facts::MARKETPLACE_PATH), manifest_folder: Some(facts::MANIFEST_DIR), runtime_only_fields: &[], read_field: None }),
    judge: super::Judge::Schemas { why: "Cursor has no command-line client that loads a plugin offline", test: "cli/tests/real_cursor.rs", check: None },
    rules: &[],
    subject: "Cursor",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true)],
    marketplace: Some(marketplace::MARKETPLACE),
    hooks: Some(super::Hooks {
        events: super::HookEvents::CamelCase,
        unknown_event: |event| {
            format!(
                "`{event}` is not a Cursor hook event: Cursor events are camelCase, e.g. {}",
                facts::HOOK_EVENTS[0].name
            )
        },
        shape: super::HookShape::Flat,
        requires_hooks_key: false,
        top_level_keys: None,
        expands: &[facts::PLUGIN_ROOT_VAR],
        quoted_vars: &[],
        run_from_plugin_folder: true,
    }),
    mcp: super::Mcp {
        files: Some(&["mcp.json"]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[facts::PLUGIN_ROOT_VAR]),
        unexpanded: "Cursor leaves it unexpanded",
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
    write_plugin(w)?;
    readme(w)?;
    if w.options.marketplace {
        marketplace(w)?;
    }
    Ok(())
}

/// The plugin's files and honesty rows, without README or marketplace entry
/// (OpenClaw's compatible bundle reuses it).
pub(crate) fn write_plugin(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    manifest(w)?;
    let policy = SkillPolicy {
        strictness: Strictness::Fold,
        translate: &|t| CURSOR_VARS.text(t),
        caveat: &markdown_caveat,
    };
    for skill in &plugin.skills {
        write_skill(w, skill, &format!("skills/{}", skill.name), &policy)?;
    }
    for command in &plugin.commands {
        markdown(w, Component::Command, command)?;
    }
    for agent in &plugin.agents {
        markdown(w, Component::Agent, agent)?;
    }
    rule(w)?;
    hooks(w)?;
    mcp(w)?;
    files(w)?;
    Ok(())
}

/// Why Markdown in Cursor may not read as written.
fn markdown_caveat(text: &str) -> Option<String> {
    let caveats: Vec<&str> = [(facts::PLUGIN_ROOT, ROOT_CAVEAT), ("${PLUGIN_DATA}", DATA_CAVEAT)]
        .into_iter()
        .filter(|(marker, _)| text.contains(marker))
        .map(|(_, caveat)| caveat)
        .collect();
    (!caveats.is_empty()).then(|| caveats.join("; "))
}

/// `^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`, the plugin name pattern of the schema.
pub fn is_plugin_name(name: &str) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    name.chars().all(|c| alnum(c) || c == '-' || c == '.') && name.starts_with(alnum) && name.ends_with(alnum)
}

/// `^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`, the marketplace name pattern of the
/// template's validator (no dots).
pub fn is_marketplace_name(name: &str) -> bool {
    is_plugin_name(name) && !name.contains('.')
}

fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let file = plugin.metadata_file.to_string();
    if !is_plugin_name(&plugin.namespace) {
        let message = format!(
            "plugin name {:?} does not match Cursor's pattern ^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$ \
             (lowercase letters, digits, '-' and '.'): choose another --namespace",
            plugin.namespace
        );
        return Err(Error::at(ErrorCode::InvalidSource, Location::file(file.as_str()), message));
    }
    let mut manifest = metadata(w, &file);
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (key, value) in overrides {
        if !MANIFEST_KEYS.contains(&key.as_str()) || key == "name" {
            let message = format!(
                "targets.cursor.manifest.{key}: not a field Cursor's closed plugin.json schema allows \
                 (name comes from the namespace; allowed: {})",
                MANIFEST_KEYS[1..].join(", ")
            );
            return Err(Error::at(ErrorCode::InvalidSource, Location::file(file.as_str()), message));
        }
        manifest.insert(key, value);
    }
    if !plugin.claude_extra.is_empty() {
        let keys: Vec<&str> = plugin.claude_extra.keys().map(String::as_str).collect();
        let message = format!(
            "Claude Code manifest fields {} have no Cursor counterpart; not carried",
            keys.join(", ")
        );
        w.warn(DiagnosticCode::DroppedField, Some(&file), message);
    }
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), templates::origin("cursor/plugin.json"))
}

/// The plugin's metadata in the schema's terms; what does not fit is
/// dropped with a warning.
fn metadata(w: &mut Writer<'_>, file: &str) -> Map<String, Value> {
    let config = &w.plugin.config;
    let mut manifest = Map::new();
    manifest.insert("name".into(), json!(w.plugin.namespace));
    let strings = [
        ("displayName", &config.display_name),
        ("description", &config.description),
        ("version", &config.version),
    ];
    for (key, value) in strings {
        if let Some(value) = value {
            manifest.insert(key.into(), json!(value));
        }
    }
    if let Some(icon) = w.icon_file() {
        manifest.insert("logo".into(), json!(icon));
    }
    if let Some(author) = author(w, file) {
        manifest.insert("author".into(), author);
    }
    for (key, value) in [("homepage", &config.homepage), ("repository", &config.repository)] {
        match value {
            Some(uri) if is_uri(uri) => {
                manifest.insert(key.into(), json!(uri));
            }
            Some(other) => {
                let message = format!("{key} {other:?} dropped: Cursor's schema wants a URI (scheme://...)");
                w.warn(DiagnosticCode::DroppedField, Some(file), message);
            }
            None => {}
        }
    }
    if let Some(license) = &config.license {
        manifest.insert("license".into(), json!(license));
    }
    if !config.keywords.is_empty() {
        manifest.insert("keywords".into(), json!(config.keywords));
    }
    manifest
}

/// `{name, email?}`: the schema's author object has no `url`.
fn author(w: &mut Writer<'_>, file: &str) -> Option<Value> {
    let author = w.plugin.config.author.as_ref()?;
    let mut value = Map::new();
    value.insert("name".into(), json!(author.name));
    match &author.email {
        Some(email) if email.contains('@') => {
            value.insert("email".into(), json!(email));
        }
        Some(email) => {
            w.warn(DiagnosticCode::DroppedField, Some(file), format!("author.email {email:?} dropped: not an email"))
        }
        None => {}
    }
    if author.url.is_some() {
        w.warn(
            DiagnosticCode::DroppedField,
            Some(file),
            "author.url dropped: Cursor's author object holds only name and email",
        );
    }
    Some(Value::Object(value))
}

fn is_uri(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, rest)| {
        !rest.is_empty()
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// A command or agent with the frontmatter Cursor reads: `name` and
/// `description`. Every other key is dropped, and the row says which.
fn markdown(w: &mut Writer<'_>, component: Component, item: &MarkdownComponent) -> Result<()> {
    let text = item.file.file.text().unwrap_or_default();
    let translated = CURSOR_VARS.text(text);
    let document = parse_document(item.file.path.as_str(), translated.as_deref().unwrap_or(text))?;
    let name = item.name.rsplit(':').next().unwrap_or(&item.name).to_string();
    let mut frontmatter = Map::new();
    frontmatter.insert("name".into(), json!(name));
    let description = document.str_field("description").map(str::to_string);
    if let Some(description) = &description {
        frontmatter.insert("description".into(), json!(description));
    }
    let dropped: Vec<&str> = document
        .frontmatter
        .iter()
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .filter(|k| !["name", "description"].contains(k))
        .collect();
    let mut notes = Vec::new();
    if description.is_none() {
        notes.push("no description: Cursor's plugin validator requires one".to_string());
    }
    if !dropped.is_empty() {
        notes.push(format!("dropped {} (Cursor reads name and description only)", dropped.join(", ")));
    }
    if component == Component::Command && has_arguments(&document.body) {
        notes.push(
            "Cursor appends what follows the command as a message; $ARGUMENTS and $1.. are not substituted"
                .into(),
        );
    }
    if component == Component::Command && item.name.contains(':') {
        notes.push(
            "below a sub-folder of commands/: Cursor's loading of nested commands is unverified".into(),
        );
    }
    notes.extend(markdown_caveat(&document.body));
    let path = item.file.path.to_string();
    let bytes = yaml::frontmatter(&frontmatter, &document.body).into_bytes();
    w.add(&path, bytes, item.file.file.origin.to_string())?;
    let level = if notes.is_empty() { Level::Supported } else { Level::Degraded };
    let detail: Vec<String> = std::iter::once(path).chain(notes).collect();
    w.honest(component, &item.name, level, detail.join("; "));
    Ok(())
}

fn has_arguments(body: &str) -> bool {
    body.contains("$ARGUMENTS") || (1..=9).any(|n| body.contains(&format!("${n}")))
}

/// The context file becomes an always-applied rule: Cursor plugins have no
/// context-file component, but rules with `alwaysApply: true` join every
/// agent request while the plugin is enabled.
fn rule(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(context) = &plugin.context else { return Ok(()) };
    let text = context.file.text().unwrap_or_default();
    let body = CURSOR_VARS.text(text).unwrap_or_else(|| text.to_string());
    let title = plugin.config.display_name.as_deref().unwrap_or(&plugin.config.name);
    let mut frontmatter = Map::new();
    frontmatter.insert(
        "description".into(),
        json!(format!("{title} context (its AGENTS.md), applied to every request")),
    );
    frontmatter.insert("alwaysApply".into(), json!(true));
    let path = rule_path(plugin);
    w.add(&path, yaml::frontmatter(&frontmatter, &body).into_bytes(), context.file.origin.to_string())?;
    let mut detail = format!(
        "{path}: not a context file (Cursor plugins have none) but a rule with alwaysApply: true, which Cursor \
         adds to every agent request while the plugin is enabled"
    );
    if let Some(caveat) = markdown_caveat(&body) {
        detail = format!("{detail}; {caveat}");
    }
    w.honest(Component::Context, context.path.as_str(), Level::Degraded, detail);
    Ok(())
}

fn rule_path(plugin: &Plugin) -> String {
    format!("rules/{}.mdc", plugin.namespace)
}

fn hooks(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(hooks) = &plugin.hooks else { return Ok(()) };
    let shell_lines = w.user_options_in_hooks(crate::shell::exec_form_as_shell_line(hooks.value.clone()));
    let events = shell_lines.get("hooks").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut out = Map::new();
    for (event, groups) in &events {
        let Some(name) = facts::cursor_event(event) else {
            let why = if event == "UserPromptSubmit" {
                "not mapped: Cursor's nearest event, beforeSubmitPrompt, has its own contract".to_string()
            } else {
                format!("Cursor has no documented counterpart of {event}; not written")
            };
            w.honest(Component::Hook, event, Level::Unsupported, why);
            continue;
        };
        if groups.to_string().contains("${PLUGIN_DATA}") {
            w.honest(
                Component::Hook,
                event,
                Level::Unsupported,
                format!("uses ${{PLUGIN_DATA}}: {DATA_CAVEAT}; not written"),
            );
            continue;
        }
        let (entries, dropped) = hook_entries(groups);
        let mut detail = vec![format!("{HOOKS_FILE} {name}"), HOOK_CAVEAT.to_string()];
        if groups.to_string().contains("${PLUGIN_ROOT}") {
            detail.push("${PLUGIN_ROOT} became . (commands run from the plugin folder)".into());
        }
        detail.extend(dropped);
        w.honest(Component::Hook, event, Level::Degraded, detail.join("; "));
        out.insert(name.to_string(), Value::Array(entries));
    }
    if out.is_empty() && !events.is_empty() {
        return Ok(());
    }
    w.add_json(HOOKS_FILE, &json!({"version": 1, "hooks": out}), hooks.origin.to_string())
}

/// Claude's `[{matcher, hooks: [handler]}]` -> Cursor's flat
/// `[{command | type: prompt, prompt, matcher?}]`, plus what was dropped.
fn hook_entries(groups: &Value) -> (Vec<Value>, Vec<String>) {
    let mut entries = Vec::new();
    let mut dropped = Vec::new();
    for group in groups.as_array().into_iter().flatten() {
        let matcher = group.get("matcher").and_then(Value::as_str).filter(|m| !m.is_empty() && *m != "*");
        for handler in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
            match hook_entry(handler, matcher) {
                Ok((entry, keys)) => {
                    entries.push(entry);
                    if !keys.is_empty() {
                        dropped.push(format!("dropped handler keys {}", keys.join(", ")));
                    }
                }
                Err(why) => dropped.push(why),
            }
        }
    }
    dropped.dedup();
    (entries, dropped)
}

fn hook_entry(handler: &Value, matcher: Option<&str>) -> std::result::Result<(Value, Vec<String>), String> {
    let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
    let mut entry = Map::new();
    let kept: &[&str] = match kind {
        "command" if handler.get("args").is_some() => {
            return Err("dropped an exec-form handler (args): Cursor takes one command string".into());
        }
        "command" => {
            let command =
                handler.get("command").and_then(Value::as_str).ok_or("dropped a handler without command")?;
            entry.insert(
                "command".into(),
                json!(HOOK_VARS.text(command).unwrap_or_else(|| command.to_string())),
            );
            &["type", "command"]
        }
        "prompt" => {
            let prompt = handler
                .get("prompt")
                .and_then(Value::as_str)
                .ok_or("dropped a prompt handler without prompt")?;
            entry.insert("type".into(), json!("prompt"));
            entry.insert("prompt".into(), json!(prompt));
            &["type", "prompt"]
        }
        other => return Err(format!("dropped a {other} handler: Cursor runs command and prompt hooks only")),
    };
    if let Some(matcher) = matcher {
        entry.insert("matcher".into(), json!(matcher));
    }
    let keys = handler.as_object().into_iter().flat_map(|m| m.keys()).filter(|k| !kept.contains(&k.as_str()));
    Ok((Value::Object(entry), keys.cloned().collect()))
}

fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        let text = server.to_string();
        if let Some(transport) =
            server.get("type").and_then(Value::as_str).filter(|t| !MCP_TRANSPORTS.contains(t))
        {
            let why = format!(
                "transport {transport:?}: Cursor connects over stdio, SSE and streamable HTTP; not written"
            );
            w.honest(Component::Mcp, name, Level::Unsupported, why);
            continue;
        }
        if text.contains("${PLUGIN_DATA}") {
            w.honest(
                Component::Mcp,
                name,
                Level::Unsupported,
                format!("uses ${{PLUGIN_DATA}}: {DATA_CAVEAT}; not written"),
            );
            continue;
        }
        if text.contains("${PLUGIN_ROOT}") {
            w.honest(Component::Mcp, name, Level::Degraded, format!("{MCP_FILE}; {ROOT_CAVEAT}"));
        } else {
            w.honest(Component::Mcp, name, Level::Supported, MCP_FILE);
        }
        servers.insert(name.clone(), CURSOR_VARS.json(server.clone()));
    }
    w.add_json(MCP_FILE, &json!({"mcpServers": servers}), mcp.origin.to_string())
}

/// `bin/` and support files travel as they are; settings and output styles
/// have no Cursor counterpart.
fn files(w: &mut Writer<'_>) -> Result<()> {
    // A root plugin.json beside the manifest folder would make the format ambiguous.
    let withheld = ["plugin.json", MCP_FILE]
        .map(|path| (path, format!("{path} is not copied: the Cursor bundle must not hold a root {path}")));
    w.plain_files("Cursor", &withheld)
}

/// `{name, owner{name, email?}, plugins[{name, source, description?}]}`:
/// the schema is closed, so no version, category or owner url.
fn marketplace(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let name = w.marketplace_name();
    if !is_marketplace_name(&name) {
        let message = format!(
            "marketplace name {name:?} does not match Cursor's pattern ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$; \
             set marketplace.name, or build with --no-marketplace"
        );
        return Err(Error::at(
            ErrorCode::InvalidSource,
            Location::file(plugin.metadata_file.as_str()),
            message,
        ));
    }
    let config = &plugin.config;
    let document = json!({"name": name, "owner": marketplace_owner(plugin), "plugins": []});
    let mut entry = Map::new();
    entry.insert("name".into(), json!(plugin.namespace));
    entry.insert("source".into(), json!(format!("./{}", w.bundle.root)));
    if let Some(description) = &config.description {
        entry.insert("description".into(), json!(description));
    }
    w.merge(facts::MARKETPLACE_PATH, Part::MarketplaceEntry { document, entry: Value::Object(entry) })
}

fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(Some(CURSOR_VARS))? {
        return Ok(());
    }
    let written = |component: Component| -> Vec<Value> {
        w.bundle
            .honesty
            .iter()
            .filter(|row| row.component == component && row.level != Level::Unsupported)
            .map(|row| json!(row.name.rsplit(':').next().unwrap_or(&row.name)))
            .collect()
    };
    let hooks: Vec<&str> = facts::HOOK_EVENTS
        .iter()
        .filter(|event| {
            w.bundle.honesty.iter().any(|r| {
                r.component == Component::Hook
                    && Some(r.name.as_str()) == event.claude
                    && r.level != Level::Unsupported
            })
        })
        .map(|event| event.name)
        .collect();
    let fields = json!({
        "skills": written(Component::Skill),
        "commands": written(Component::Command),
        "agents": written(Component::Agent),
        "rule": w.plugin.context.as_ref().map(|_| rule_path(w.plugin)),
        "hooks": hooks,
        "mcp_servers": written(Component::Mcp),
        "left_out": left_out(&w.bundle.honesty),
    });
    w.render_readme("cursor", fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_schema_patterns() {
        for good in ["striatum", "prompts.chat", "a", "dk-2"] {
            assert!(is_plugin_name(good), "{good}");
        }
        for bad in ["Striatum", "-a", "a-", "a_b", "", "a b"] {
            assert!(!is_plugin_name(bad), "{bad}");
        }
        assert!(is_marketplace_name("local-striatum"));
        assert!(!is_marketplace_name("local.striatum"));
    }

    #[test]
    fn claude_events_map_only_to_same_named_cursor_events() {
        assert_eq!(facts::cursor_event("PreToolUse"), Some("preToolUse"));
        assert_eq!(facts::cursor_event("Stop"), Some("stop"));
        assert_eq!(facts::cursor_event("SubagentStop"), Some("subagentStop"));
        assert_eq!(facts::cursor_event("UserPromptSubmit"), None);
        assert_eq!(facts::cursor_event("Notification"), None);
    }

    #[test]
    fn hook_groups_flatten_into_cursor_entries() {
        let groups = json!([
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/hooks/guard.sh", "timeout": 5}]},
            {"hooks": [{"type": "prompt", "prompt": "Is it done?"}, {"type": "http", "url": "u"}]},
            {"matcher": "*", "hooks": [{"type": "command", "command": "echo ready"}]}
        ]);
        let (entries, dropped) = hook_entries(&groups);
        assert_eq!(
            entries,
            [
                json!({"command": "./hooks/guard.sh", "matcher": "Bash"}),
                json!({"type": "prompt", "prompt": "Is it done?"}),
                json!({"command": "echo ready"}),
            ]
        );
        assert_eq!(
            dropped,
            [
                "dropped handler keys timeout",
                "dropped a http handler: Cursor runs command and prompt hooks only"
            ]
        );
    }

    #[test]
    fn markdown_gets_the_cursor_root_spelling() {
        assert_eq!(CURSOR_VARS.text("run ${PLUGIN_ROOT}/x").unwrap(), "run ${CURSOR_PLUGIN_ROOT}/x");
        assert_eq!(HOOK_VARS.text("${PLUGIN_ROOT}/hooks/guard.sh").unwrap(), "./hooks/guard.sh");
        assert_eq!(markdown_caveat("see ${PLUGIN_DATA}/n"), Some(DATA_CAVEAT.to_string()));
        assert_eq!(markdown_caveat("plain"), None);
    }

    #[test]
    fn only_uris_pass_as_homepage() {
        assert!(is_uri("https://example.invalid/x"));
        assert!(!is_uri("owner/repo"));
        assert!(!is_uri("github:owner/repo"));
    }

    #[test]
    fn every_honesty_cell_has_its_level() {
        use super::super::skill_fold::fixture::{level, rows};
        use Level::*;
        let rows = rows("cursor");
        let cells = [
            ("skill", "plain", Supported),
            ("skill", "folded", Degraded),
            ("skill", "bare", Unsupported),
            ("command", "hello", Supported),
            ("command", "ship", Degraded),
            ("command", "empty", Supported),
            ("agent", "plain-agent", Supported),
            ("agent", "tooled", Degraded),
            ("context", "AGENTS.md", Degraded),
            ("hook", "PreToolUse", Degraded),
            ("hook", "UserPromptSubmit", Unsupported),
            ("hook", "PostToolUse", Unsupported),
            ("mcp", "npx", Supported),
            ("mcp", "local", Degraded),
            ("mcp", "data", Unsupported),
            ("mcp", "socket", Unsupported),
            ("bin", "bin/tool", Degraded),
            ("settings", "settings.json", Unsupported),
            ("output-style", "output-styles/terse.md", Unsupported),
        ];
        for (component, name, want) in cells {
            assert_eq!(level(&rows, component, name), want, "{component} {name}");
        }
        assert_eq!(rows.len(), cells.len(), "{rows:?}");
    }
}
