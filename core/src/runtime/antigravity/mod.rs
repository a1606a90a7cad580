//! Google Antigravity CLI (`agy`) plugin: a root `plugin.json` plus
//! `skills/`, `agents/`, `rules/`, `mcp_config.json` and `hooks.json`, the
//! layout `agy plugin install` copies to `~/.gemini/config/plugins/<name>/`.
//! No Antigravity client can run here (none is published on npm, and `agy`
//! needs a Google sign-in for a session), so this bundle is schema-checked
//! only: every fact comes from Google's documentation and from loaders
//! measured against `agy` 1.1.25 (docs/runtimes/antigravity.md, fact
//! numbers in brackets), and what they leave open is reported degraded.

pub(crate) mod facts;
pub(crate) mod lint;

use serde_json::{Map, Value, json};

use super::skill_fold::{SkillPolicy, Strictness, is_skill_name, write_skill};
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer, left_out};
use crate::error::{Error, ErrorCode, Location, Result};
use crate::format::yaml;
use crate::model::MarkdownComponent;
use crate::report::{Diagnostic, Level};
use crate::templates;
use crate::vars::VarTable;
use crate::codes::DiagnosticCode;
use crate::report::Component;
use facts::{HOOKS_PATH, HookShape, MANIFEST_PATH, MCP_PATH};

const NAME: &str = "Antigravity CLI";

/// The manifest fields the loader reads besides `name`; it discards every
/// other key [3].
const MANIFEST_FIELDS: [&str; 3] = ["description", "disabled", "logo"];

/// Claude tool names and the Antigravity tools that do the same work, for
/// hook matchers and agent tool lists [14, 15].
const TOOL_NAMES: [(&str, &str); 10] = [
    ("Bash", "run_command"),
    ("Read", "view_file"),
    ("Write", "write_to_file"),
    ("Edit", "replace_file_content|multi_replace_file_content"),
    ("MultiEdit", "multi_replace_file_content"),
    ("Glob", "find_by_name"),
    ("Grep", "grep_search"),
    ("LS", "list_dir"),
    ("WebFetch", "read_url_content"),
    ("WebSearch", "search_web"),
];

/// Hook commands get [`facts::PLUGIN_ROOT`] [13].
const HOOK_VARS: VarTable = VarTable(&[("${PLUGIN_ROOT}", facts::PLUGIN_ROOT)]);
const HOOK_CAVEAT: &str = "Antigravity passes its own camelCase payload (toolCall.name, toolCall.args) and reads \
                           its own answer ({\"allowTool\": false, \"denyReason\": ...}), not Claude's; \
                           schema-checked only";
const ROOT_CAVEAT: &str = "${PLUGIN_ROOT} written as ${CLAUDE_PLUGIN_ROOT}, which one third-party plugin reports \
                           Antigravity sets for hook commands; Google's docs name no plugin-root variable";
const DATA_CAVEAT: &str = "Antigravity plugins have no data folder";

/// Claude MCP keys with the same meaning in `mcp_config.json` [8, 9].
const MCP_KEYS: [&str; 5] = ["command", "args", "env", "cwd", "headers"];
const REMOTE_TRANSPORTS: [&str; 3] = ["http", "sse", "streamable-http"];

/// Rules longer than this are cut by Antigravity [17].
const RULE_LIMIT: usize = 12_000;

/// Antigravity CLI, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Antigravity CLI",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: Some(lint::claims_shared_manifest), loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: &[], check_manifest: None, check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: None },
    hook_trust: None,
    read: None,
    foreign: None,
    judge: super::Judge::Schemas { why: "agy is not published on a registry and a session needs a Google sign-in", test: "cli/tests/real_antigravity.rs", check: None },
    rules: &[],
    subject: "Antigravity CLI",
    folder_vars: &[],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: None,
        misplaced: None,
        read_file: None,
        server: None,
        expands: None,
        unexpanded: "antigravity leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] =
    &[Kind { name: ArtifactKind::Plugin, layout: Layout::Folder, scopes: BOTH_SCOPES, marketplace: None, shared: &[] }];

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    manifest(w)?;
    // Agent Skills folders, `name` set to the folder name when it differs [1, 7].
    let policy = SkillPolicy { strictness: Strictness::Fold, translate: &|_| None, caveat: &literal_vars };
    for skill in &plugin.skills {
        write_skill(w, skill, &format!("skills/{}", skill.name), &policy)?;
    }
    for command in &plugin.commands {
        command_skill(w, command)?;
    }
    for agent in &plugin.agents {
        agent_file(w, agent)?;
    }
    rule(w)?;
    hooks(w)?;
    mcp(w)?;
    let withheld = [MANIFEST_PATH, MCP_PATH, HOOKS_PATH].map(|path| {
        (path, format!("{path} is not copied: {NAME} would read it as this plugin's own {path}"))
    });
    w.plain_files(NAME, &withheld)?;
    readme(w)?;
    if w.options.marketplace {
        let message = "Antigravity CLI has no marketplace file; install the plugin folder itself \
                       (`agy plugin install <folder>`)";
        w.bundle.diagnostics.push(Diagnostic::info(DiagnosticCode::NoMarketplace, None, message));
    }
    Ok(())
}

/// `[A-Za-z0-9_-]+`, the names `agy plugin install` accepts [4].
fn is_plugin_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `{name, description?}` plus the loader's other fields from
/// `targets.antigravity.manifest`; version, author and the rest have no
/// field the loader reads [3].
fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let file = plugin.metadata_file.to_string();
    let refuse =
        |message: String| Error::at(ErrorCode::InvalidSource, Location::file(file.as_str()), message);
    if !is_plugin_name(&plugin.namespace) {
        return Err(refuse(format!(
            "plugin name {:?} is not one `agy plugin install` accepts (letters, digits, '-' and '_'): \
             choose another --namespace",
            plugin.namespace
        )));
    }
    let mut manifest = Map::new();
    manifest.insert("name".into(), json!(plugin.namespace));
    if let Some(description) = &plugin.config.description {
        manifest.insert("description".into(), json!(description));
    }
    if let Some(icon) = w.icon_file() {
        manifest.insert("logo".into(), json!(icon));
    }
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (key, value) in overrides {
        if !MANIFEST_FIELDS.contains(&key.as_str()) {
            return Err(refuse(format!(
                "targets.antigravity.manifest.{key}: not a field Antigravity's plugin.json loader reads \
                 (name comes from the namespace; read: {})",
                MANIFEST_FIELDS.join(", ")
            )));
        }
        // A wrong type makes the folder no plugin at all [3].
        let typed = if key == "disabled" { value.is_boolean() } else { value.is_string() };
        if !typed {
            let wanted = if key == "disabled" { "a boolean" } else { "a string" };
            return Err(refuse(format!(
                "targets.antigravity.manifest.{key} must be {wanted}: Antigravity loads no plugin whose \
                 plugin.json has another type there"
            )));
        }
        manifest.insert(key, value);
    }
    w.add_json(MANIFEST_PATH, &Value::Object(manifest), templates::origin("antigravity/plugin.json"))
}

/// A command becomes a skill of the same name: Antigravity has no command
/// folder in a plugin and offers every skill as a slash command [6, 7].
fn command_skill(w: &mut Writer<'_>, command: &MarkdownComponent) -> Result<()> {
    let name = skill_name(&command.name);
    if !is_skill_name(&name) {
        let detail =
            format!("{name:?} cannot be an Agent Skills name (at most 64 of a-z, 0-9, '-'); not written");
        w.honest(Component::Command, &command.name, Level::Unsupported, detail);
        return Ok(());
    }
    let taken = w.plugin.skills.iter().any(|s| s.name == name)
        || w.plugin.commands.iter().any(|c| c.name != command.name && skill_name(&c.name) == name);
    if taken {
        let detail = format!(
            "another skill or command is named {name} too, and Antigravity has one /{name}; not written"
        );
        w.honest(Component::Command, &command.name, Level::Unsupported, detail);
        return Ok(());
    }
    let description = command
        .document
        .str_field("description")
        .map_or_else(|| format!("The {} command of {}", command.name, w.plugin.config.name), str::to_string);
    let mut frontmatter = Map::new();
    frontmatter.insert("name".into(), json!(name));
    frontmatter.insert("description".into(), json!(description));
    let path = format!("skills/{name}/SKILL.md");
    let body = &command.document.body;
    w.add(&path, yaml::frontmatter(&frontmatter, body).into_bytes(), command.file.file.origin.to_string())?;
    let mut detail = vec![format!("becomes the skill {path}, which Antigravity offers as /{name}")];
    if body.contains("$ARGUMENTS") || (1..=9).any(|n| body.contains(&format!("${n}"))) {
        detail.push("$ARGUMENTS and $1.. stay literal: skills take no arguments".into());
    }
    detail.extend(literal_vars(body));
    w.honest(Component::Command, &command.name, Level::Degraded, detail.join("; "));
    Ok(())
}

/// A command's name as a skill name: lowercase, every other run of
/// characters (the `:` of a sub-folder included) one `-`.
fn skill_name(command: &str) -> String {
    let lower = command.to_ascii_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    words.join("-")
}

/// `agents/<name>.md` with the frontmatter Antigravity documents: `name`
/// and `description` required, `tools` a list of its own tool names [10].
fn agent_file(w: &mut Writer<'_>, agent: &MarkdownComponent) -> Result<()> {
    let Some(description) = agent.document.str_field("description") else {
        let detail = "Antigravity requires an agent description; not written";
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    };
    let name = agent.name.replace(':', "-");
    let mut frontmatter = Map::new();
    frontmatter.insert("name".into(), json!(name));
    frontmatter.insert("description".into(), json!(description));
    let mut notes = Vec::new();
    if let Some(tools) = agent.document.field("tools") {
        let (mapped, unknown) = agent_tools(tools);
        if !mapped.is_empty() {
            frontmatter.insert("tools".into(), json!(mapped));
        }
        if !unknown.is_empty() {
            notes.push(format!("tools {} have no Antigravity counterpart, left out", unknown.join(", ")));
        }
    }
    let dropped: Vec<&str> = agent
        .document
        .frontmatter
        .iter()
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .filter(|k| !["name", "description", "tools"].contains(k))
        .collect();
    if !dropped.is_empty() {
        notes.push(format!("dropped {} (no documented Antigravity meaning)", dropped.join(", ")));
    }
    notes.extend(literal_vars(&agent.document.body));
    let path = format!("agents/{name}.md");
    let bytes = yaml::frontmatter(&frontmatter, &agent.document.body).into_bytes();
    w.add(&path, bytes, agent.file.file.origin.to_string())?;
    let level = if notes.is_empty() { Level::Supported } else { Level::Degraded };
    let detail: Vec<String> = std::iter::once(path).chain(notes).collect();
    w.honest(Component::Agent, &agent.name, level, detail.join("; "));
    Ok(())
}

/// Claude's tool list (`Bash, Read` or a YAML list) in Antigravity's
/// names, and the names it has none for.
fn agent_tools(tools: &Value) -> (Vec<String>, Vec<String>) {
    let names: Vec<String> = match tools {
        Value::String(list) => {
            list.split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect()
        }
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let mut mapped = Vec::new();
    let mut unknown = Vec::new();
    for name in names {
        match tool_name(&name) {
            Some(native) => mapped.extend(native.split('|').map(str::to_string)),
            None => unknown.push(name),
        }
    }
    (unique(mapped), unknown)
}

/// Why Markdown naming the plugin's folders may not read as written:
/// Antigravity substitutes no plugin variable in Markdown.
fn literal_vars(text: &str) -> Option<String> {
    let named: Vec<&str> =
        ["${PLUGIN_ROOT}", "${PLUGIN_DATA}"].into_iter().filter(|v| text.contains(v)).collect();
    (!named.is_empty()).then(|| {
        format!(
            "{} stays literal: Antigravity substitutes no plugin variable in Markdown",
            named.join(" and ")
        )
    })
}

/// `items` without repeats, first occurrence kept.
fn unique(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

fn tool_name(claude: &str) -> Option<&'static str> {
    TOOL_NAMES.iter().find(|(name, _)| *name == claude).map(|(_, native)| *native)
}

/// The context file becomes an always-on rule: Antigravity plugins load
/// `rules/*.md`, and `trigger: always_on` joins every request [16, 17].
fn rule(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(context) = &plugin.context else { return Ok(()) };
    let text = context.file.text().unwrap_or_default();
    let mut frontmatter = Map::new();
    frontmatter.insert("trigger".into(), json!("always_on"));
    let path = format!("rules/{}.md", plugin.namespace);
    w.add(&path, yaml::frontmatter(&frontmatter, text).into_bytes(), context.file.origin.to_string())?;
    let mut detail = vec![format!(
        "{path}: not a context file (Antigravity plugins load none) but a rule with trigger: always_on, \
         which Antigravity adds to every request"
    )];
    if text.chars().count() > RULE_LIMIT {
        detail.push(format!("longer than the {RULE_LIMIT} characters Antigravity reads of a rule"));
    }
    detail.extend(literal_vars(text));
    w.honest(Component::Context, context.path.as_str(), Level::Degraded, detail.join("; "));
    Ok(())
}

/// `hooks.json`: one named hook (the namespace) holding the events
/// Antigravity runs, Claude tool matchers renamed [11, 12].
fn hooks(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(hooks) = &plugin.hooks else { return Ok(()) };
    let shell_lines = w.user_options_in_hooks(crate::shell::exec_form_as_shell_line(hooks.value.clone()));
    let events = shell_lines.get("hooks").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut named = Map::new();
    for (event, groups) in &events {
        let Some(shape) = facts::canonical_event_shape(event) else {
            let detail = format!(
                "Antigravity runs PreToolUse, PostToolUse, Stop, PreInvocation and PostInvocation; {event} has \
                 no counterpart, not written"
            );
            w.honest(Component::Hook, event, Level::Unsupported, detail);
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
        let mut notes = vec![format!("{HOOKS_PATH} {}.{event}", plugin.namespace), HOOK_CAVEAT.to_string()];
        if groups.to_string().contains("${PLUGIN_ROOT}") {
            notes.push(ROOT_CAVEAT.into());
        }
        let groups = HOOK_VARS.json(groups.clone());
        let entries = if shape == HookShape::Grouped {
            tool_groups(&groups, &mut notes)
        } else {
            flat_handlers(&groups, &mut notes)
        };
        if entries.is_empty() {
            continue;
        }
        w.honest(Component::Hook, event, Level::Degraded, notes.join("; "));
        named.insert(event.clone(), Value::Array(entries));
    }
    if named.is_empty() {
        return Ok(());
    }
    let document = json!({ plugin.namespace.as_str(): named });
    w.add_json(HOOKS_PATH, &document, hooks.origin.to_string())
}

/// Claude's `[{matcher, hooks}]` groups with Antigravity matchers and handlers.
fn tool_groups(groups: &Value, notes: &mut Vec<String>) -> Vec<Value> {
    let mut out = Vec::new();
    for group in groups.as_array().into_iter().flatten() {
        let handlers = handlers(group, notes);
        if handlers.is_empty() {
            continue;
        }
        let mut entry = Map::new();
        if let Some(matcher) = group.get("matcher").and_then(Value::as_str).filter(|m| !m.is_empty()) {
            entry.insert("matcher".into(), json!(matcher_for(matcher, notes)));
        }
        entry.insert("hooks".into(), Value::Array(handlers));
        out.push(Value::Object(entry));
    }
    out
}

/// The handlers of every group, flat: `Stop` takes no matcher.
fn flat_handlers(groups: &Value, notes: &mut Vec<String>) -> Vec<Value> {
    let mut out = Vec::new();
    for group in groups.as_array().into_iter().flatten() {
        if group.get("matcher").and_then(Value::as_str).is_some_and(|m| !m.is_empty() && m != "*") {
            notes.push("its matcher is dropped: Antigravity's Stop takes none".into());
        }
        out.extend(handlers(group, notes));
    }
    out
}

/// A group's command handlers as `{type, command, timeout?}`; other types
/// and keys are left out and noted. Timeouts are seconds in both [11].
fn handlers(group: &Value, notes: &mut Vec<String>) -> Vec<Value> {
    let mut out = Vec::new();
    for handler in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
        let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
        if kind != "command" {
            notes.push(format!("a {kind:?} handler is left out: Antigravity documents command hooks only"));
            continue;
        }
        let mut entry = Map::new();
        entry.insert("type".into(), json!("command"));
        if let Some(command) = handler.get("command") {
            entry.insert("command".into(), command.clone());
        }
        match handler.get("timeout") {
            Some(timeout) if timeout.as_i64().is_some_and(|t| (1..=i64::from(i32::MAX)).contains(&t)) => {
                entry.insert("timeout".into(), timeout.clone());
            }
            // A fraction or a string makes Antigravity drop the whole file [12].
            Some(timeout) => {
                notes.push(format!("timeout {timeout} left out: Antigravity takes whole seconds"))
            }
            None => {}
        }
        let dropped: Vec<&str> = handler
            .as_object()
            .into_iter()
            .flat_map(|m| m.keys())
            .map(String::as_str)
            .filter(|k| !["type", "command", "timeout"].contains(k))
            .collect();
        if !dropped.is_empty() {
            notes.push(format!("dropped handler keys {} (Antigravity ignores them)", dropped.join(", ")));
        }
        out.push(Value::Object(entry));
    }
    out
}

/// `Bash` -> `run_command`, alternatives one by one; a matcher naming a
/// tool Antigravity has no counterpart for stays as written, and is noted.
fn matcher_for(matcher: &str, notes: &mut Vec<String>) -> String {
    if matcher == "*" {
        return matcher.to_string();
    }
    let mut unknown = Vec::new();
    let mut alternatives = Vec::new();
    for alternative in matcher.split('|') {
        match tool_name(alternative.trim()) {
            Some(native) => alternatives.extend(native.split('|').map(str::to_string)),
            None => {
                unknown.push(alternative.trim().to_string());
                alternatives.push(alternative.to_string());
            }
        }
    }
    if !unknown.is_empty() {
        notes.push(format!(
            "matcher {} kept as written: no Antigravity tool of that name",
            unknown.join(", ")
        ));
    }
    unique(alternatives).join("|")
}

/// `mcp_config.json`: `command` servers as they are, remote ones with
/// `serverUrl`; Antigravity reads no `type` [8, 9].
fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        match mcp_server(server) {
            Ok((value, dropped)) => {
                let (level, detail) = if dropped.is_empty() {
                    (Level::Supported, MCP_PATH.to_string())
                } else {
                    (
                        Level::Degraded,
                        format!(
                            "{MCP_PATH}; {} left out (not a field Antigravity documents in this shape)",
                            dropped.join(", ")
                        ),
                    )
                };
                w.honest(Component::Mcp, name, level, detail);
                servers.insert(name.clone(), value);
            }
            Err(why) => w.honest(Component::Mcp, name, Level::Unsupported, format!("{why}; not written")),
        }
    }
    if servers.is_empty() {
        return Ok(());
    }
    w.add_json(MCP_PATH, &json!({"mcpServers": servers}), mcp.origin.to_string())
}

/// One server in Antigravity's shape and the keys it cannot keep, or why
/// it cannot be written at all.
fn mcp_server(server: &Value) -> std::result::Result<(Value, Vec<String>), String> {
    let text = server.to_string();
    if text.contains("${PLUGIN_ROOT}") || text.contains("${PLUGIN_DATA}") {
        return Err(
            "uses ${PLUGIN_ROOT} or ${PLUGIN_DATA}: Antigravity documents no plugin folder variable \
                    for MCP servers"
                .into(),
        );
    }
    let transport = server.get("type").and_then(Value::as_str);
    let remote = server.get("url").is_some();
    if remote && server["url"].as_str().is_none_or(|url| url.trim().is_empty()) {
        return Err("its url is empty: there is no server for Antigravity to connect to".into());
    }
    if let Some(transport) = transport.filter(|t| *t != "stdio" && !REMOTE_TRANSPORTS.contains(t)) {
        return Err(format!("transport {transport:?}: Antigravity connects to stdio and HTTP servers"));
    }
    let mut out = Map::new();
    let mut dropped = Vec::new();
    for (key, value) in server.as_object().into_iter().flatten() {
        match key.as_str() {
            "url" => {
                out.insert("serverUrl".into(), value.clone());
            }
            "type" => {}
            key if MCP_KEYS.contains(&key) && !(remote && key != "headers") => {
                out.insert(key.into(), value.clone());
            }
            other => dropped.push(other.to_string()),
        }
    }
    Ok((Value::Object(out), dropped))
}

fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(None)? {
        return Ok(());
    }
    let fields = json!({
        "skills": w.written(Component::Skill),
        "commands": w.written(Component::Command).iter().filter_map(Value::as_str).map(skill_name).collect::<Vec<_>>(),
        "agents": w.written(Component::Agent),
        "hooks": w.written(Component::Hook),
        "mcp_servers": w.written(Component::Mcp),
        "rules": w.plugin.context.is_some(),
        "left_out": left_out(&w.bundle.honesty),
    });
    w.render_readme("antigravity", fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchers_name_antigravity_tools() {
        let mut notes = Vec::new();
        assert_eq!(matcher_for("Bash", &mut notes), "run_command");
        assert_eq!(
            matcher_for("Write|Edit", &mut notes),
            "write_to_file|replace_file_content|multi_replace_file_content"
        );
        assert_eq!(
            matcher_for("Edit|MultiEdit", &mut notes),
            "replace_file_content|multi_replace_file_content"
        );
        assert_eq!(matcher_for("*", &mut notes), "*");
        assert!(notes.is_empty());
        assert_eq!(matcher_for("mcp__db__query", &mut notes), "mcp__db__query");
        assert_eq!(notes, ["matcher mcp__db__query kept as written: no Antigravity tool of that name"]);
    }

    #[test]
    fn remote_servers_use_server_url_and_drop_the_type() {
        let server = json!({"type": "http", "url": "https://x.example/mcp", "headers": {"A": "b"}});
        let (value, dropped) = mcp_server(&server).unwrap();
        assert_eq!(value, json!({"serverUrl": "https://x.example/mcp", "headers": {"A": "b"}}));
        assert!(dropped.is_empty());
        let (value, _) = mcp_server(&json!({"command": "npx", "args": ["-y", "s"]})).unwrap();
        assert_eq!(value, json!({"command": "npx", "args": ["-y", "s"]}));
        assert!(mcp_server(&json!({"type": "ws", "url": "wss://x"})).unwrap_err().contains("\"ws\""));
        assert!(mcp_server(&json!({"command": "${PLUGIN_ROOT}/s"})).is_err());
        assert!(mcp_server(&json!({"type": "http", "url": ""})).unwrap_err().contains("url is empty"));
    }

    #[test]
    fn agent_tools_map_and_report_the_rest() {
        let (mapped, unknown) = agent_tools(&json!("Bash, Read, Task"));
        assert_eq!(mapped, ["run_command", "view_file"]);
        assert_eq!(unknown, ["Task"]);
        let (mapped, _) = agent_tools(&json!(["Edit", "Write", "MultiEdit"]));
        assert_eq!(mapped, ["replace_file_content", "multi_replace_file_content", "write_to_file"]);
    }

    #[test]
    fn command_names_become_skill_names() {
        assert_eq!(skill_name("clean_gone"), "clean-gone");
        assert_eq!(skill_name("newTrack"), "newtrack");
        assert_eq!(skill_name("git:commit"), "git-commit");
        assert!(is_skill_name(&skill_name("sc-README")));
    }

    #[test]
    fn plugin_names_follow_agy_plugin_install() {
        assert!(is_plugin_name("deploy_kit-2"));
        assert!(!is_plugin_name("has space"));
        assert!(!is_plugin_name(".hidden"));
        assert!(!is_plugin_name(""));
    }
}
