//! OpenCode: no plugin bundle exists, so the project kind writes what
//! OpenCode reads straight into a project (or, for user scope, into the
//! global config below the home folder): `.opencode/skills/<name>/SKILL.md`,
//! `.opencode/commands/<name>.md`, `.opencode/agents/<name>.md`, MCP servers
//! as entries of `opencode.json` `mcp`, and the context as a section of
//! `AGENTS.md`. Files other components point at (`bin/`, scripts) go to the
//! plugin's own folder `.opencode/plugforge/<namespace>/`, which the
//! plugin-root variables name. Facts: formats.md section 9, real-clients.md.

pub(crate) mod facts;
pub(crate) mod lint;
mod judge;
mod mcp_rules;

use serde_json::{Map, Value, json};

use super::skill_fold::{SkillPolicy, Strictness, has_key, write_skill};
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer};
use crate::bundle::{GeneratedFile, Scope};
use crate::error::Result;
use crate::format::yaml;
use crate::merge::Part;
use crate::model::{FileComponent, MarkdownComponent};
use crate::path::BundlePath;
use crate::report::Level;
use crate::source::parse_document;
use crate::report::Component;

/// Manifests live beside the plugin folders: `.opencode/plugforge/<ns>...`.
const STATE_DIR: &str = ".opencode/plugforge";
const PROJECT_BASE: &str = facts::PROJECT_DIR;
const USER_BASE: &str = facts::USER_DIR;
/// The plugin-root variables as sub-folders of the plugin's own folder.
const PLUGIN_VARS: [(&str, &str); 2] = [("${PLUGIN_ROOT}", ""), ("${PLUGIN_DATA}", "/data")];
/// What OpenCode command frontmatter holds (formats.md 9).
const COMMAND_KEYS: [&str; 4] = ["description", "agent", "model", "subtask"];
/// Agent keys kept as they are; `mode: subagent` is always added.
const AGENT_KEYS: [&str; 5] = ["description", "model", "temperature", "top_p", "steps"];
/// Claude tools whose absence from an allowlist becomes an OpenCode denial.
/// Read-side tools keep OpenCode's defaults: denying them would break agents
/// whose prompts still search.
const GUARDED_TOOLS: [(&str, &[&str]); 2] =
    [("bash", &["Bash"]), ("edit", &["Edit", "Write", "NotebookEdit", "MultiEdit"])];

/// OpenCode's CLI, the judge of its project and global configuration.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "opencode",
    name: "OpenCode",
    commands: &["opencode"],
    quiet: &[],
    package: "opencode-ai",
    version: "1.18.33",
    binary: "node_modules/opencode-ai/bin/opencode.exe",
    extra_packages: &[],
    load: &["cd DIR"],
    list: &["opencode debug config", "opencode debug skill", "opencode agent list"],
    driver: "core/src/runtime/opencode/drivers/opencode_inventory.py",
    typical_seconds: 25,
    launch: super::Launch::AsInstalled,
};

/// OpenCode reading the project the output root is.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Project],
    driver: "core/src/runtime/opencode/drivers/opencode_inventory.py",
    args: &["--opencode", "BIN", "--cwd", "ROOT"],
    read: judge::read_project,
};

/// OpenCode, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "OpenCode",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::CONFIG_FILE), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::CONFIG_FILE), manifest_required: false, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: true, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: true },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: true, check: Some(lint::check_agent) },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: false, description: None, own_format: None },
    hook_trust: None,
    read: None,
    foreign: None,
    judge: super::Judge::Clients(&[CHECK]),
    rules: &[],
    subject: "OpenCode",
    folder_vars: &[],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: Some(&[]),
        misplaced: Some((
            facts::CONFIG_FILE,
            "`mcpServers` in opencode.json: OpenCode refuses the config; servers go under `mcp`",
        )),
        read_file: None,
        server: Some((mcp_rules::server, true)),
        expands: Some(&[]),
        unexpanded: "OpenCode substitutes only {env:VAR} and {file:path}",
    },
};

pub const KINDS: &[Kind] = &[Kind {
    name: ArtifactKind::Project,
    layout: Layout::InPlace { state_dir: STATE_DIR },
    scopes: BOTH_SCOPES,
    marketplace: None,
    shared: &facts::SHARED_FILES,
}];

/// Where one scope's files go below the output root.
struct Place {
    /// `.opencode` (project) or `.config/opencode` (user, below home).
    base: &'static str,
    /// The plugin's own folder, for `bin/` and support files.
    folder: String,
    /// What the plugin-root variables become in Markdown (read by the agent's shell).
    markdown: Roots,
    /// What they become in `opencode.json` (read by OpenCode itself).
    config: Roots,
}

/// The two folders `${PLUGIN_ROOT}` paths can lead to, spelled for one reader.
struct Roots {
    /// The plugin's own folder.
    plugin: String,
    /// The folder holding the skills' folders (skills live in OpenCode's own place).
    skills: String,
}

impl Roots {
    fn new(prefix: &str, base: &str, namespace: &str) -> Roots {
        Roots {
            plugin: format!("{prefix}{base}/plugforge/{namespace}"),
            skills: format!("{prefix}{base}/skills"),
        }
    }
}

impl Place {
    fn new(scope: Scope, namespace: &str) -> Place {
        let (base, markdown, config) = match scope {
            Scope::Project => (PROJECT_BASE, "", ""),
            // OpenCode substitutes {env:VAR} in its config files; it expands no `~`.
            Scope::User => (USER_BASE, "~/", "{env:HOME}/"),
        };
        Place {
            base,
            folder: format!("{base}/plugforge/{namespace}"),
            markdown: Roots::new(markdown, base, namespace),
            config: Roots::new(config, base, namespace),
        }
    }

    fn config_file(&self) -> String {
        match self.base {
            PROJECT_BASE => facts::CONFIG_FILE.into(),
            base => format!("{base}/{}", facts::CONFIG_FILE),
        }
    }

    fn context_file(&self) -> String {
        match self.base {
            PROJECT_BASE => facts::CONTEXT_FILE.into(),
            base => format!("{base}/{}", facts::CONTEXT_FILE),
        }
    }
}

/// Rewrites the plugin-root variables to paths below `roots`; a path into
/// `skills/` leads to where the skills went.
fn with_root(text: &str, roots: &Roots) -> Option<String> {
    if !PLUGIN_VARS.iter().any(|(var, _)| text.contains(var)) {
        return None;
    }
    let mut out = text.replace("${PLUGIN_ROOT}/skills/", &format!("{}/", roots.skills));
    for (var, suffix) in PLUGIN_VARS {
        out = out.replace(var, &format!("{}{suffix}", roots.plugin));
    }
    Some(out)
}

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let place = Place::new(w.options.scope, &plugin.namespace);
    let translate = |text: &str| with_root(text, &place.markdown);
    let policy =
        SkillPolicy { strictness: Strictness::AgentSkills, translate: &translate, caveat: &unapplied_keys };
    for skill in &plugin.skills {
        write_skill(w, skill, &format!("{}/skills/{}", place.base, skill.name), &policy)?;
    }
    for command in &plugin.commands {
        self::command(w, &place, command)?;
    }
    for agent in &plugin.agents {
        self::agent(w, &place, agent)?;
    }
    mcp(w, &place)?;
    context(w, &place)?;
    files(w, &place)?;
    not_carried(w);
    Ok(())
}

/// Agent Skills keys OpenCode reads but does not act on.
fn unapplied_keys(text: &str) -> Option<String> {
    has_key(text, "allowed-tools")
        .then(|| "allowed-tools kept for Agent Skills, but OpenCode does not apply it".into())
}

/// Adds a translated file, keeping the source bytes shared when nothing changed.
fn place_file(w: &mut Writer<'_>, from: &FileComponent, to: &str, roots: &Roots) -> Result<()> {
    let file = &from.file;
    let bytes = match file.text().and_then(|t| with_root(t, roots)) {
        Some(text) => text.into_bytes().into(),
        None => file.bytes.clone(),
    };
    w.bundle.add(BundlePath::new(to)?, GeneratedFile::new(bytes, file.executable, file.origin.to_string()))
}

/// A model OpenCode can resolve: `provider/model`. Claude aliases
/// (`sonnet`, `inherit`) have no OpenCode spelling.
fn opencode_model(value: &Value) -> Option<&str> {
    value.as_str().filter(|m| m.contains('/'))
}

/// Frontmatter in OpenCode's terms, with what changed and what was lost.
#[derive(Default)]
struct Translated {
    frontmatter: Map<String, Value>,
    notes: Vec<String>,
    lost: Vec<String>,
}

impl Translated {
    fn keep(&mut self, key: &str, value: Value) {
        self.frontmatter.insert(key.to_string(), value);
    }

    /// Keeps a `provider/model` model; a Claude alias is lost with `why`.
    fn model(&mut self, value: &Value, why: &str) {
        match opencode_model(value) {
            Some(model) => self.keep("model", json!(model)),
            None => self.lost.push(format!("model {value} dropped ({why})")),
        }
    }

    /// Writes the Markdown at `path` and reports one honesty row.
    fn write(
        self,
        w: &mut Writer<'_>,
        component: Component,
        item: &MarkdownComponent,
        path: String,
        body: &str,
    ) -> Result<()> {
        let text = if self.frontmatter.is_empty() {
            body.to_string()
        } else {
            yaml::frontmatter(&self.frontmatter, body)
        };
        w.add(&path, text.into_bytes(), item.file.file.origin.to_string())?;
        let level = if self.lost.is_empty() { Level::Supported } else { Level::Degraded };
        let detail: Vec<String> = std::iter::once(path).chain(self.notes).chain(self.lost).collect();
        w.honest(component, &item.name, level, detail.join("; "));
        Ok(())
    }
}

/// The document in OpenCode's variable spelling.
fn document(place: &Place, item: &MarkdownComponent) -> Result<crate::source::Document> {
    let text = item.file.file.text().unwrap_or_default();
    let translated = with_root(text, &place.markdown);
    parse_document(item.file.path.as_str(), translated.as_deref().unwrap_or(text))
}

fn command(w: &mut Writer<'_>, place: &Place, item: &MarkdownComponent) -> Result<()> {
    let document = document(place, item)?;
    if document.body.trim().is_empty() {
        let detail = "an OpenCode command is its body, and this one is empty; not written";
        w.honest(Component::Command, &item.name, Level::Unsupported, detail);
        return Ok(());
    }
    let mut translated = command_frontmatter(&document.frontmatter.clone().unwrap_or_default());
    if item.name.contains(':') {
        translated.notes.insert(0, format!("invoked as /{}", item.name.replace(':', "/")));
    }
    let rel = item.file.path.strip_prefix("commands").expect("commands live in commands/");
    translated.write(w, Component::Command, item, format!("{}/commands/{rel}", place.base), &document.body)
}

fn command_frontmatter(source: &Map<String, Value>) -> Translated {
    let mut out = Translated::default();
    let mut dropped = Vec::new();
    for (key, value) in source {
        match key.as_str() {
            "model" => out.model(value, "OpenCode wants provider/model"),
            "context" if value == "fork" => {
                out.keep("subtask", json!(true));
                out.notes.push("context: fork written as subtask: true".into());
            }
            _ if COMMAND_KEYS.contains(&key.as_str()) => out.keep(key, value.clone()),
            _ => dropped.push(key.as_str()),
        }
    }
    if !dropped.is_empty() {
        let why = format!("OpenCode commands take {}", COMMAND_KEYS.join(", "));
        out.lost.push(format!("dropped {} ({why})", dropped.join(", ")));
    }
    out
}

fn agent(w: &mut Writer<'_>, place: &Place, item: &MarkdownComponent) -> Result<()> {
    let document = document(place, item)?;
    let translated = agent_frontmatter(&document.frontmatter.clone().unwrap_or_default());
    translated.write(w, Component::Agent, item, format!("{}/agents/{}.md", place.base, item.name), &document.body)
}

/// Claude agent keys -> OpenCode's agent schema, as a subagent. OpenCode
/// refuses the whole config on Claude's `tools` string or a named color.
fn agent_frontmatter(source: &Map<String, Value>) -> Translated {
    let mut out = Translated::default();
    match source.get("description") {
        Some(description) => out.keep("description", description.clone()),
        None => out.lost.push("no description: OpenCode lists the agent without one".into()),
    }
    out.keep("mode", json!("subagent"));
    for (key, value) in source {
        match key.as_str() {
            "name" | "description" => {}
            "model" => out.model(value, "the agent uses the session's model"),
            "maxTurns" => {
                out.keep("steps", value.clone());
                out.notes.push("maxTurns written as steps".into());
            }
            "color" if value.as_str().is_some_and(is_hex_color) => out.keep(key, value.clone()),
            "color" => out.lost.push(format!("color {value} dropped (OpenCode takes #RRGGBB)")),
            "tools" => match permission(value) {
                Some((denied, note)) => {
                    if !denied.is_empty() {
                        out.keep("permission", Value::Object(denied));
                    }
                    out.lost.push(note);
                }
                None => out.notes.push("tools allows every tool, as OpenCode does by default".into()),
            },
            _ if AGENT_KEYS.contains(&key.as_str()) => out.keep(key, value.clone()),
            _ => out.lost.push(format!("dropped {key} (no OpenCode agent field)")),
        }
    }
    out
}

fn is_hex_color(text: &str) -> bool {
    text.len() == 7 && text.starts_with('#') && text[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// Claude's `tools` allowlist -> OpenCode `permission` denials for the
/// guarded tools it leaves out (OpenCode rejects Claude's `tools: Read, Grep`
/// string outright), and the note saying what carries over. `None`: no limit.
fn permission(tools: &Value) -> Option<(Map<String, Value>, String)> {
    let allowed: Vec<String> = match tools {
        Value::String(list) => list.split(',').map(|t| t.trim().to_string()).collect(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => Vec::new(),
    };
    if allowed.iter().any(|t| t == "*") {
        return None;
    }
    let allows = |names: &[&str]| {
        allowed.iter().any(|t| names.iter().any(|n| t == n || t.starts_with(&format!("{n}("))))
    };
    let mut denied = Map::new();
    for (permission, names) in GUARDED_TOOLS {
        if !allows(names) {
            denied.insert(permission.into(), json!("deny"));
        }
    }
    let kept = if denied.is_empty() {
        "no denial".to_string()
    } else {
        let pairs: Vec<String> = denied.keys().map(|k| format!("{k}: deny")).collect();
        format!("permission {}", pairs.join(", "))
    };
    Some((
        denied,
        format!("tools {} becomes {kept}; other tools keep OpenCode's defaults", allowed.join(", ")),
    ))
}

fn mcp(w: &mut Writer<'_>, place: &Place) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let file = place.config_file();
    for (name, server) in &mcp.servers {
        match server_entry(server, &place.config) {
            Ok(mut entry) => {
                if server.to_string().contains("${PLUGIN_") && w.options.scope == Scope::Project {
                    let folder = &place.folder;
                    entry.lost.push(format!(
                        "plugin paths are relative ({folder}): start OpenCode in the project folder"
                    ));
                }
                let level = if entry.lost.is_empty() { Level::Supported } else { Level::Degraded };
                let detail: Vec<String> = std::iter::once(format!("{file} mcp.{name}"))
                    .chain(entry.changes)
                    .chain(entry.lost)
                    .collect();
                w.honest(Component::Mcp, name, level, detail.join("; "));
                let part =
                    Part::JsonEntry { pointer: vec!["mcp".into()], key: name.clone(), value: entry.value };
                w.merge(&file, part)?;
            }
            Err(why) => w.honest(Component::Mcp, name, Level::Unsupported, format!("{why}; not written")),
        }
    }
    Ok(())
}

/// An `opencode.json` `mcp` entry, with what changed and what was lost.
#[derive(Debug)]
struct Entry {
    value: Value,
    changes: Vec<String>,
    lost: Vec<String>,
}

/// Claude's server -> OpenCode's `{type: local, command: [...], environment,
/// enabled}` or `{type: remote, url, headers, enabled}`.
fn server_entry(server: &Value, roots: &Roots) -> std::result::Result<Entry, String> {
    let server = with_root_json(server.clone(), roots);
    let object = server.as_object().ok_or("the server is not a JSON object")?;
    let transport = object.get("type").and_then(Value::as_str);
    let mut entry = Map::new();
    let kept: &[&str] = match transport {
        None | Some("stdio") if object.contains_key("command") => {
            let command = object.get("command").and_then(Value::as_str).ok_or("command is not a string")?;
            let mut argv = vec![json!(command)];
            argv.extend(object.get("args").and_then(Value::as_array).cloned().unwrap_or_default());
            entry.insert("type".into(), json!("local"));
            entry.insert("command".into(), Value::Array(argv));
            if let Some(env) = object.get("env") {
                entry.insert("environment".into(), env.clone());
            }
            &["type", "command", "args", "env"]
        }
        None | Some("http" | "streamable-http" | "sse") if object.contains_key("url") => {
            entry.insert("type".into(), json!("remote"));
            entry.insert("url".into(), object["url"].clone());
            if let Some(headers) = object.get("headers") {
                entry.insert("headers".into(), headers.clone());
            }
            &["type", "url", "headers"]
        }
        Some(other) => return Err(format!("transport {other:?} has no OpenCode form (local or remote)")),
        None => return Err("neither a command nor a url".into()),
    };
    entry.insert("enabled".into(), json!(true));
    let mut changes = Vec::new();
    let mut lost = Vec::new();
    let dropped: Vec<&str> = object.keys().map(String::as_str).filter(|k| !kept.contains(k)).collect();
    if !dropped.is_empty() {
        lost.push(format!("dropped {} (no OpenCode field)", dropped.join(", ")));
    }
    let entry = Value::Object(entry);
    let value = env_syntax(entry.clone());
    if value != entry {
        changes.push("${VAR} written as OpenCode's {env:VAR}".to_string());
    }
    Ok(Entry { value, changes, lost })
}

fn with_root_json(value: Value, roots: &Roots) -> Value {
    match value {
        Value::String(s) => Value::String(with_root(&s, roots).unwrap_or(s)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| with_root_json(v, roots)).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, with_root_json(v, roots))).collect())
        }
        other => other,
    }
}

/// Shell-style `${NAME}` -> OpenCode's `{env:NAME}`: OpenCode substitutes
/// only its own syntax in config files.
fn env_syntax(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(env_text(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(env_syntax).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, env_syntax(v))).collect()),
        other => other,
    }
}

fn env_text(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let end = rest[start..].find('}').map(|e| start + e);
        let name = end.map(|e| &rest[start + 2..e]);
        match (end, name) {
            (Some(end), Some(name)) if is_env_name(name) => {
                out.push_str(&rest[..start]);
                out.push_str(&format!("{{env:{name}}}"));
                rest = &rest[end + 1..];
            }
            _ => {
                out.push_str(&rest[..start + 2]);
                rest = &rest[start + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_env_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn context(w: &mut Writer<'_>, place: &Place) -> Result<()> {
    let plugin = w.plugin;
    let Some(context) = &plugin.context else { return Ok(()) };
    let text = context.file.text().unwrap_or_default();
    let text = with_root(text, &place.markdown).unwrap_or_else(|| text.to_string());
    let file = place.context_file();
    let id = format!("plugforge:{}", plugin.namespace);
    w.honest(Component::Context, context.path.as_str(), Level::Supported, format!("{file}, section {id}"));
    w.merge(&file, Part::Section { id, text })
}

/// `bin/` and support files go to the plugin's own folder; OpenCode puts
/// nothing on PATH.
fn files(w: &mut Writer<'_>, place: &Place) -> Result<()> {
    let plugin = w.plugin;
    for file in &plugin.bin {
        let to = format!("{}/{}", place.folder, file.path);
        place_file(w, file, &to, &place.markdown)?;
        let detail = format!("shipped at {to}; OpenCode puts no plugin bin/ on PATH");
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
    }
    for file in &plugin.support {
        let to = format!("{}/{}", place.folder, file.path);
        place_file(w, file, &to, &place.markdown)?;
        if facts::is_plugin_module(file.path.as_str()) {
            // Activating it would register the skills and commands written
            // above a second time, from paths of the source's own layout.
            let detail = format!(
                "the source's own OpenCode plugin module, carried at {to}, where OpenCode does not load it; \
                 plugforge writes this plugin's skills, commands and agents for OpenCode itself"
            );
            w.honest(Component::PluginModule, file.path.as_str(), Level::Unsupported, detail);
        }
    }
    Ok(())
}

fn not_carried(w: &mut Writer<'_>) {
    let plugin = w.plugin;
    let events: Vec<String> = plugin
        .hooks
        .as_ref()
        .and_then(|h| h.value.get("hooks")?.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default();
    for event in events {
        let detail = "OpenCode hooks are JavaScript plugin modules; a hooks.json is not read; not written";
        w.honest(Component::Hook, &event, Level::Unsupported, detail);
    }
    if plugin.settings.is_some() {
        w.honest(
            Component::Settings,
            "settings.json",
            Level::Unsupported,
            "OpenCode has no plugin settings; not written",
        );
    }
    for style in &plugin.output_styles {
        w.honest(
            Component::OutputStyle,
            style.path.as_str(),
            Level::Unsupported,
            "OpenCode has no output styles; not written",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_variables_name_the_plugin_folder_per_scope() {
        let project = Place::new(Scope::Project, "dk");
        assert_eq!(
            with_root(
                "${PLUGIN_ROOT}/bin/x ${PLUGIN_DATA}/n ${PLUGIN_ROOT}/skills/s/a.sh",
                &project.markdown
            )
            .unwrap(),
            ".opencode/plugforge/dk/bin/x .opencode/plugforge/dk/data/n .opencode/skills/s/a.sh"
        );
        assert_eq!(
            (project.config_file(), project.context_file()),
            ("opencode.json".into(), "AGENTS.md".into())
        );
        let user = Place::new(Scope::User, "dk");
        assert_eq!(user.folder, ".config/opencode/plugforge/dk");
        assert_eq!(
            with_root("${PLUGIN_ROOT}/x", &user.markdown).unwrap(),
            "~/.config/opencode/plugforge/dk/x"
        );
        assert_eq!(
            with_root("${PLUGIN_ROOT}/x", &user.config).unwrap(),
            "{env:HOME}/.config/opencode/plugforge/dk/x"
        );
        assert_eq!(
            (user.config_file(), user.context_file()),
            (".config/opencode/opencode.json".into(), ".config/opencode/AGENTS.md".into())
        );
        assert!(with_root("plain", &project.markdown).is_none());
    }

    #[test]
    fn stdio_servers_become_local_argv_entries() {
        let server = json!({"command": "${PLUGIN_ROOT}/bin/deployer", "args": ["--root", "${PLUGIN_ROOT}"],
            "env": {"TOKEN": "${API_TOKEN}"}, "timeout": 5});
        let entry = server_entry(&server, &Place::new(Scope::Project, "dk").config).unwrap();
        assert_eq!(
            serde_json::to_string(&entry.value).unwrap(),
            r#"{"type":"local","command":[".opencode/plugforge/dk/bin/deployer","--root",".opencode/plugforge/dk"],"environment":{"TOKEN":"{env:API_TOKEN}"},"enabled":true}"#
        );
        assert_eq!(entry.changes, ["${VAR} written as OpenCode's {env:VAR}"]);
        assert_eq!(entry.lost, ["dropped timeout (no OpenCode field)"]);
    }

    fn roots() -> Roots {
        Place::new(Scope::Project, "dk").config
    }

    #[test]
    fn http_servers_become_remote_entries() {
        let entry = server_entry(
            &json!({"type": "http", "url": "https://h/mcp", "headers": {"A": "${K}"}}),
            &roots(),
        )
        .unwrap();
        assert_eq!(
            entry.value,
            json!({"type": "remote", "url": "https://h/mcp", "headers": {"A": "{env:K}"}, "enabled": true})
        );
        assert!(entry.lost.is_empty());
        assert!(server_entry(&json!({"type": "ws", "url": "wss://h"}), &roots()).is_err());
    }

    #[test]
    fn only_plain_env_names_change_syntax() {
        assert_eq!(env_text("a ${X_1} ${1} ${A:-b} ${"), "a {env:X_1} ${1} ${A:-b} ${");
    }

    #[test]
    fn claude_tool_allowlists_become_permission_denials() {
        let (denied, note) = permission(&json!("Bash, Read")).unwrap();
        assert_eq!(Value::Object(denied), json!({"edit": "deny"}));
        assert_eq!(
            note,
            "tools Bash, Read becomes permission edit: deny; other tools keep OpenCode's defaults"
        );
        let (denied, _) = permission(&json!(["Read", "Grep"])).unwrap();
        assert_eq!(Value::Object(denied), json!({"bash": "deny", "edit": "deny"}));
        let (denied, _) = permission(&json!("Bash(git:*), Write")).unwrap();
        assert!(denied.is_empty());
        assert!(permission(&json!("*")).is_none());
    }

    #[test]
    fn models_need_a_provider() {
        assert_eq!(opencode_model(&json!("anthropic/claude-sonnet-4")), Some("anthropic/claude-sonnet-4"));
        assert_eq!(opencode_model(&json!("sonnet")), None);
        assert_eq!(opencode_model(&json!("inherit")), None);
        assert!(is_hex_color("#a0B1c2"));
        assert!(!is_hex_color("blue"));
    }

    #[test]
    fn every_honesty_cell_has_its_level() {
        use super::super::skill_fold::fixture::{level, rows};
        use Level::*;
        let rows = rows("opencode");
        let cells = [
            ("skill", "plain", Supported),
            ("skill", "folded", Degraded),
            ("skill", "bare", Unsupported),
            ("command", "hello", Supported),
            ("command", "ship", Degraded),
            ("command", "empty", Unsupported),
            ("agent", "plain-agent", Supported),
            ("agent", "tooled", Degraded),
            ("context", "AGENTS.md", Supported),
            ("hook", "PreToolUse", Unsupported),
            ("hook", "UserPromptSubmit", Unsupported),
            ("hook", "PostToolUse", Unsupported),
            ("mcp", "npx", Supported),
            ("mcp", "local", Degraded),
            ("mcp", "data", Degraded),
            ("mcp", "socket", Unsupported),
            ("bin", "bin/tool", Degraded),
            ("settings", "settings.json", Unsupported),
            ("output-style", "output-styles/terse.md", Unsupported),
            ("plugin-module", ".opencode/plugins/cells.js", Unsupported),
        ];
        for (component, name, want) in cells {
            assert_eq!(level(&rows, component, name), want, "{component} {name}");
        }
        assert_eq!(rows.len(), cells.len(), "{rows:?}");
    }
}
