//! Qwen Code (`@qwen-code/qwen-code` 0.24.4): an extension folder,
//! `qwen-extension.json` (name, version, display name, description, the
//! context file, MCP servers inline in the Gemini dialect, settings) beside
//! the fixed folders its loader reads: `skills/`, `commands/` (Markdown),
//! `agents/` and `hooks/hooks.json` in Claude Code's shape. Every fact is in
//! `facts.rs` with the line of the client's bundle it was read from.
//!
//! Variables: the manifest hydrates `${extensionPath}` (MCP servers use it);
//! a hook command gets `${CLAUDE_PLUGIN_ROOT}` replaced; Markdown of a
//! native extension gets nothing replaced, so a plugin-root reference there
//! is written as the folder `qwen extensions install` copies it to.
//!
//! Qwen Code has no marketplace file of its own (it reads Claude Code's), so
//! its bundle stands beside the others in `--target all` and is installed
//! from its folder. Of the universal folder it reads the Agent Plugins root
//! manifest first, and so loads its skills and `mcp.json` only
//! ([`loaded_as`]).

mod agent;
pub(crate) mod facts;
mod hooks;
mod judge;
pub(crate) mod lint;
mod mcp;
mod prompt;
pub(crate) mod read;

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Runtime, Writer};
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::format::yaml;
use crate::model::MarkdownComponent;
use crate::report::{Component, Diagnostic, Level};
use crate::vars::canonical_text;

/// Qwen Code's CLI, the judge of its extensions: installed with `--consent`
/// in a throwaway HOME, then listed through its own `ExtensionManager`. Its
/// package needs Node 22 or later (`engines.node` of 0.24.4 is `>=22.0.0`;
/// npm view): a wrapper runs it under Node 24 (run).
pub(crate) const CLIENT: super::Client = super::Client {
    id: "qwen",
    name: "Qwen Code",
    commands: &["qwen"],
    quiet: &[
        ("QWEN_TELEMETRY_ENABLED", "false"),
        ("QWEN_USAGE_STATISTICS_ENABLED", "false"),
        ("QWEN_CODE_SKIP_UPDATE_CHECK_ONCE", "1"),
    ],
    package: "@qwen-code/qwen-code",
    version: "0.24.4",
    binary: "qwen",
    extra_packages: &[],
    load: &["qwen extensions install ./DIR --consent"],
    list: &["qwen extensions list"],
    driver: "core/src/runtime/qwen_code/drivers/qwen_inventory.py",
    typical_seconds: 4,
    launch: super::Launch::Node { version: "24.22.3", entry: "node_modules/@qwen-code/qwen-code/cli-entry.js" },
};

/// Qwen Code installing an extension and listing what its loaders loaded.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Extension],
    driver: "core/src/runtime/qwen_code/drivers/qwen_inventory.py",
    args: &["--qwen", "BIN", "--dir", "DIR"],
    read: judge::read_extension,
};

/// The formats Qwen Code converts when a folder has no `qwen-extension.json`,
/// in the order it tries them ([`facts::AGENT_PLUGINS_LOADS`]).
const LOADS_FORMATS: &[Runtime] = &[Runtime::AgentPlugins, Runtime::Gemini, Runtime::ClaudeCode];

/// Qwen Code, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Qwen Code",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: LOADS_FORMATS, loaded_as: Some(loaded_as), loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: true, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: false, strict_spec_keys: false },
    agents: super::Agents { recursive: false, skipped_prefix: None, frontmatter_required: true, check: Some(lint::check_agent) },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: false, description: None, own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: None, manifest_folder: None, runtime_only_fields: &facts::QWEN_ONLY_KEYS, read_field: None }),
    judge: super::Judge::Clients(&[CHECK]),
    rules: &[],
    subject: "Qwen Code",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true)],
    marketplace: None,
    hooks: Some(super::Hooks {
        events: super::HookEvents::Listed(&facts::HOOK_EVENTS),
        unknown_event: |event| {
            format!("`{event}` is not a Qwen Code hook event: its hook registry skips it at session start")
        },
        shape: super::HookShape::Grouped { handler_types: &facts::HOOK_HANDLER_TYPES },
        requires_hooks_key: false,
        top_level_keys: None,
        expands: &[facts::CLAUDE_ROOT_VAR],
        quoted_vars: &[],
        run_from_plugin_folder: false,
    }),
    mcp: super::Mcp {
        files: Some(&[]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[facts::PLUGIN_ROOT_VAR, facts::CLAUDE_ROOT_VAR]),
        unexpanded: "Qwen Code leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] =
    &[Kind { name: ArtifactKind::Extension, layout: Layout::Folder, scopes: BOTH_SCOPES, marketplace: None, shared: &[] }];

/// The canonical plugin-root variables.
const PLUGIN_ROOT: &str = crate::canonical::PLUGIN_ROOT;
const PLUGIN_DATA: &str = crate::canonical::PLUGIN_DATA;
/// How a source refers to one of its user options.
const USER_OPTION: &str = "${user_config.";

/// What reads a text, which decides how the plugin-root variables are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    /// `qwen-extension.json`: `${extensionPath}` hydrated, then `$VAR` from the environment.
    Manifest,
    /// A hook command: `${CLAUDE_PLUGIN_ROOT}` replaced, the rest read by the shell.
    HookCommand,
    /// Markdown and other hook fields: read as written.
    Prose,
}

/// The plugin's spellings in this bundle.
struct Spelling {
    namespace: String,
}

impl Spelling {
    fn root(&self, reader: Reader) -> String {
        match reader {
            Reader::Manifest => facts::PLUGIN_ROOT.to_string(),
            Reader::HookCommand => format!("${{{}}}", facts::CLAUDE_ROOT_VAR),
            Reader::Prose => format!("{}/{}", facts::INSTALLED_EXTENSIONS, self.namespace),
        }
    }

    fn data(&self, reader: Reader) -> String {
        let home = if reader == Reader::Prose { "~" } else { facts::HOME_VAR };
        format!("{home}/{}/{}", facts::DATA_HOME, self.namespace)
    }

    fn text(&self, text: &str, reader: Reader) -> String {
        let text = canonical_text(text).unwrap_or_else(|| text.to_string());
        let text = text.replace(PLUGIN_ROOT, &self.root(reader)).replace(PLUGIN_DATA, &self.data(reader));
        if reader == Reader::Manifest { user_options_from_environment(&text) } else { text }
    }

    fn json(&self, value: &Value, reader: Reader) -> Value {
        match value {
            Value::String(s) => Value::String(self.text(s, reader)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.json(v, reader)).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), self.json(v, reader))).collect()),
            other => other.clone(),
        }
    }

    /// What the spelling of the variables in `text` costs.
    fn notes(&self, text: &str, reader: Reader) -> Vec<String> {
        let text = canonical_text(text).unwrap_or_else(|| text.to_string());
        let mut notes = Vec::new();
        if reader == Reader::Prose && text.contains(PLUGIN_ROOT) {
            notes.push(format!(
                "Qwen Code substitutes no variable here: {PLUGIN_ROOT} is written as {}, where \
                 `qwen extensions install` puts the extension (not where `link` leaves it)",
                self.root(reader)
            ));
        }
        if text.contains(PLUGIN_DATA) {
            notes.push(format!(
                "Qwen Code gives an extension no data folder: {PLUGIN_DATA} is written as {}, which nothing creates",
                self.data(reader)
            ));
        }
        if text.contains(USER_OPTION) {
            notes.push(
                "${user_config.KEY} is read from the environment as $CLAUDE_PLUGIN_OPTION_KEY (else the option's \
                 default), which Qwen Code does not set (its settings are asked for at install but not passed on)"
                    .into(),
            );
        }
        notes
    }
}

/// `${user_config.KEY}` -> `${CLAUDE_PLUGIN_OPTION_KEY}`, read from the
/// environment by the manifest's resolver.
fn user_options_from_environment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(USER_OPTION) {
        let after = &rest[at + USER_OPTION.len()..];
        let Some(close) = after.find('}') else { break };
        out.push_str(&rest[..at]);
        out.push_str(&format!("${{{}}}", crate::shell::claude_option_variable(&after[..close])));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

fn level_of(notes: &[String]) -> Level {
    if notes.is_empty() { Level::Supported } else { Level::Degraded }
}

fn detail(location: impl Into<String>, notes: &[String]) -> String {
    let location = location.into();
    if notes.is_empty() { location } else { format!("{location}: {}", notes.join("; ")) }
}

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let spelling = Spelling { namespace: w.plugin.namespace.clone() };
    manifest(w, &spelling)?;
    skills(w, &spelling)?;
    commands(w, &spelling)?;
    agents(w, &spelling)?;
    hooks_file(w, &spelling)?;
    files(w)?;
    context(w, &spelling)?;
    readme(w)?;
    if w.options.marketplace {
        let message = "Qwen Code has no marketplace file of its own; install the extension folder itself \
                       (`qwen extensions install <folder> --consent`)";
        w.bundle.diagnostics.push(Diagnostic::info(DiagnosticCode::NoMarketplace, None, message));
    }
    Ok(())
}

/// `qwen-extension.json`: name, version, display name, description, the
/// context file, the MCP servers and the settings.
fn manifest(w: &mut Writer<'_>, spelling: &Spelling) -> Result<()> {
    let plugin = w.plugin;
    let config = &plugin.config;
    if !facts::valid_extension_name(&plugin.namespace) {
        return Err(Error::at(
            ErrorCode::InvalidSource,
            Location::file(plugin.metadata_file.as_str()),
            format!(
                "Qwen Code extension name {:?} may hold only letters, digits, _, . and -; set a \"namespace\" that does",
                plugin.namespace
            ),
        ));
    }
    let mut manifest = Map::new();
    manifest.insert("name".into(), json!(plugin.namespace));
    for (key, value) in [
        ("version", &config.version),
        ("displayName", &config.display_name),
        ("description", &config.description),
    ] {
        if let Some(value) = value {
            manifest.insert(key.into(), json!(value));
        }
    }
    if plugin.context.is_some() {
        manifest.insert("contextFileName".into(), json!(facts::CONTEXT_FILE));
    }
    let servers = mcp_servers(w, spelling);
    if !servers.is_empty() {
        manifest.insert("mcpServers".into(), Value::Object(servers));
    }
    let settings = settings(w);
    if !settings.is_empty() {
        manifest.insert("settings".into(), Value::Array(settings));
    }
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(overrides);
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), crate::templates::origin("qwen-code/qwen-extension.json"))
}

/// Every MCP server in Qwen's dialect, with one honesty row each.
fn mcp_servers(w: &mut Writer<'_>, spelling: &Spelling) -> Map<String, Value> {
    let Some(mcp) = &w.plugin.mcp else { return Map::new() };
    let location = format!("{} mcpServers", facts::MANIFEST_PATH);
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        let translated = mcp::to_qwen(server);
        let Some(value) = translated.value else {
            w.honest(Component::Mcp, name, Level::Unsupported, translated.notes.join("; "));
            continue;
        };
        let mut notes = translated.notes;
        notes.extend(spelling.notes(&server.to_string(), Reader::Manifest));
        w.honest(Component::Mcp, name, level_of(&notes), detail(location.as_str(), &notes));
        servers.insert(name.clone(), spelling.json(&value, Reader::Manifest));
    }
    servers
}

/// The source's user options (Claude Code's `userConfig`) as Qwen
/// `settings`, which Qwen asks for at install; one row each.
fn settings(w: &mut Writer<'_>) -> Vec<Value> {
    let plugin = w.plugin;
    let mut out = Vec::new();
    let options = super::claude_code::user_options(plugin);
    for (key, option) in options.into_iter().flatten() {
        let text = |field: &str| option.get(field).and_then(Value::as_str).filter(|t| !t.is_empty());
        let variable = crate::shell::claude_option_variable(key);
        let name = text("title").unwrap_or(key);
        let description = text("description").or(text("title")).unwrap_or(key);
        let sensitive = option.get("sensitive").and_then(Value::as_bool).unwrap_or(false);
        out.push(json!({"name": name, "description": description, "envVar": variable, "sensitive": sensitive}));
        let detail = format!(
            "{} settings, envVar {variable}: Qwen Code asks for the value at install and stores it, but passes it \
             to no MCP server or hook; they read ${{{variable}}} from the environment Qwen Code runs in",
            facts::MANIFEST_PATH
        );
        w.honest(Component::Metadata, &format!("userConfig.{key}"), Level::Degraded, detail);
    }
    let others: Vec<&str> =
        plugin.claude_extra.keys().map(String::as_str).filter(|k| *k != "userConfig").collect();
    if !others.is_empty() {
        let message = format!(
            "Claude Code manifest fields {} have no Qwen Code counterpart; not carried",
            others.join(", ")
        );
        w.warn(DiagnosticCode::DroppedField, Some(facts::MANIFEST_PATH), message);
    }
    out
}

/// `skills/<name>/SKILL.md`: Qwen needs `name` and `description`, reads
/// `allowedTools` as a list and `model` as its own model name.
fn skills(w: &mut Writer<'_>, spelling: &Spelling) -> Result<()> {
    for skill in &w.plugin.skills {
        let path = format!("{}/{}/SKILL.md", facts::SKILLS_DIR, skill.name);
        if !facts::valid_skill_name(&skill.name) {
            let why = format!("its name {:?} is outside Qwen Code's skill names (letters, digits, _, :, . and -); not written", skill.name);
            w.honest(Component::Skill, &skill.name, Level::Unsupported, why);
            continue;
        }
        // Borrowed until a key changes: a frontmatter of thousands of keys
        // is not copied for every skill that keeps it as it is.
        let none = Map::new();
        let mut frontmatter = Cow::Borrowed(skill.document.frontmatter.as_ref().unwrap_or(&none));
        let mut notes = Vec::new();
        let mut changed = false;
        let said = |key: &str| frontmatter.get(key).and_then(Value::as_str).is_some_and(|t| !t.trim().is_empty());
        if !said("description") {
            let Some(when) = frontmatter.get("when_to_use").and_then(Value::as_str).map(str::to_string) else {
                let why = "no description in its frontmatter: Qwen Code skips such a skill";
                w.honest(Component::Skill, &skill.name, Level::Unsupported, why);
                continue;
            };
            frontmatter.to_mut().insert("description".into(), json!(when));
            notes.push("when_to_use is its description too (Qwen Code needs a description)".to_string());
            changed = true;
        }
        if frontmatter.get("name").and_then(Value::as_str) != Some(skill.name.as_str()) {
            frontmatter.to_mut().insert("name".into(), json!(skill.name));
            changed = true;
        }
        if let Some(model) = frontmatter.get("model").cloned() {
            let claude = model.as_str().is_none_or(|m| ["sonnet", "opus", "haiku"].contains(&m) || m.starts_with("claude-"));
            if claude {
                frontmatter.to_mut().shift_remove("model");
                notes.push(format!("model {model} is not a Qwen Code model; the skill uses the session's"));
                changed = true;
            }
        }
        if let Some(tools) = frontmatter.contains_key("allowed-tools").then(|| frontmatter.to_mut().shift_remove("allowed-tools")).flatten() {
            let list = agent::names(&tools);
            notes.push(format!("allowed-tools is written as {}, the list Qwen Code reads", facts::SKILL_ALLOWED_TOOLS));
            frontmatter.to_mut().insert(facts::SKILL_ALLOWED_TOOLS.into(), json!(list));
            changed = true;
        }
        if frontmatter.get(facts::SKILL_ALLOWED_TOOLS).is_some_and(|v| !v.is_array()) {
            frontmatter.to_mut().shift_remove(facts::SKILL_ALLOWED_TOOLS);
            notes.push(format!("{} is not a list, which makes Qwen Code skip the skill; dropped", facts::SKILL_ALLOWED_TOOLS));
            changed = true;
        }
        notes.extend(spelling.notes(&skill.document.body, Reader::Prose));
        let body = spelling.text(&skill.document.body, Reader::Prose);
        if changed || body != skill.document.body || skill.document.frontmatter.is_none() {
            let text = yaml::frontmatter(&frontmatter, &body);
            w.add(&path, text.into_bytes(), skill.main.file.origin.to_string())?;
        } else {
            w.copy(&skill.main, Some(&path), None)?;
        }
        for file in &skill.files {
            w.copy(file, None, None)?;
        }
        w.honest(Component::Skill, &skill.name, level_of(&notes), detail(path, &notes));
    }
    Ok(())
}

/// `commands/<namespace>/<name>.md`: the namespace folder makes Qwen name
/// them `/<namespace>:<name>`, as Claude Code names a plugin's commands.
fn commands(w: &mut Writer<'_>, spelling: &Spelling) -> Result<()> {
    let namespace = w.plugin.namespace.clone();
    for command in &w.plugin.commands {
        let rel = command_rel(command);
        let path = format!("{}/{namespace}/{rel}.md", facts::COMMANDS_DIR);
        let translated = prompt::to_qwen(&command.document.body);
        let mut notes = translated.notes;
        let mut frontmatter = Map::new();
        let mut dropped = Vec::new();
        for (key, value) in command.document.frontmatter.iter().flatten() {
            match facts::COMMAND_KEYS.iter().find(|(k, _)| k == key) {
                Some((_, true)) if value.is_string() => {
                    frontmatter.insert(key.clone(), value.clone());
                }
                Some((_, false)) if value.is_boolean() => {
                    frontmatter.insert(key.clone(), value.clone());
                }
                Some((_, text)) => notes.push(format!(
                    "{key} {value} is not {}, which makes Qwen Code skip the command; dropped",
                    if *text { "text" } else { "true or false" }
                )),
                None => dropped.push(key.as_str()),
            }
        }
        if !dropped.is_empty() {
            notes.push(format!("Qwen Code's commands have no field for {}; dropped", dropped.join(", ")));
        }
        notes.extend(spelling.notes(&translated.text, Reader::Prose));
        let body = spelling.text(&translated.text, Reader::Prose);
        let text = if frontmatter.is_empty() { body } else { yaml::frontmatter(&frontmatter, &body) };
        w.add(&path, text.into_bytes(), command.file.file.origin.to_string())?;
        let name = format!("{namespace}:{}", command.name);
        w.honest(Component::Command, &command.name, level_of(&notes), detail(format!("/{name} ({path})"), &notes));
    }
    Ok(())
}

/// The command's path below `commands/`, without `.md`.
fn command_rel(command: &MarkdownComponent) -> String {
    let path = command.file.path.as_str();
    let rel = path.strip_prefix("commands/").unwrap_or(path);
    rel.strip_suffix(".md").unwrap_or(rel).to_string()
}

/// `agents/<name>.md`, top level (Qwen reads no sub-folder), with the
/// frontmatter Qwen reads.
fn agents(w: &mut Writer<'_>, spelling: &Spelling) -> Result<()> {
    for item in &w.plugin.agents {
        let description = item.document.str_field("description").filter(|d| !d.trim().is_empty());
        let refusal = match (agent::name_problem(&item.name), description) {
            (Some(problem), _) => Some(format!("{problem}: Qwen Code refuses to load it")),
            (None, None) => Some("no description: Qwen Code refuses to load it".to_string()),
            _ if item.document.body.trim().chars().count() < facts::AGENT_PROMPT_MIN => Some(format!(
                "its prompt is shorter than {} characters: Qwen Code refuses to load it",
                facts::AGENT_PROMPT_MIN
            )),
            _ => None,
        };
        if let Some(why) = refusal {
            w.honest(Component::Agent, &item.name, Level::Unsupported, why);
            continue;
        }
        let source = item.document.frontmatter.clone().unwrap_or_default();
        let (frontmatter, mut notes) = agent::frontmatter(&source, &item.name, description.unwrap_or_default());
        notes.extend(spelling.notes(&item.document.body, Reader::Prose));
        let path = format!("{}/{}.md", facts::AGENTS_DIR, item.name);
        let text = yaml::frontmatter(&frontmatter, &spelling.text(&item.document.body, Reader::Prose));
        w.add(&path, text.into_bytes(), item.file.file.origin.to_string())?;
        w.honest(Component::Agent, &item.name, level_of(&notes), detail(path, &notes));
    }
    Ok(())
}

/// `hooks/hooks.json` in Claude Code's shape, kept to Qwen's events.
fn hooks_file(w: &mut Writer<'_>, spelling: &Spelling) -> Result<()> {
    let Some(source) = &w.plugin.hooks else { return Ok(()) };
    // Qwen puts the install path in place of the variable, then a shell reads
    // the command: a quoted path stays one word (a space in HOME).
    let hooks = source
        .value
        .get("hooks")
        .cloned()
        .map(crate::shell::hooks_as_shell_lines);
    let events = hooks.and_then(|h| h.as_object().cloned()).unwrap_or_default();
    let spell = |handler: &mut Map<String, Value>| -> Vec<String> {
        let mut notes = Vec::new();
        for (key, value) in handler.iter_mut() {
            let Value::String(text) = value else { continue };
            if key == "command" {
                notes.extend(spelling.notes(text, Reader::HookCommand));
                let spelled = spelling.text(text, Reader::HookCommand);
                let default = |key: &str| super::writer::user_option_default(w.plugin, key);
                *text = crate::shell::user_options_with_defaults(&spelled, &default).unwrap_or(spelled);
            } else if canonical_text(text).unwrap_or_else(|| text.clone()).contains(PLUGIN_ROOT) {
                notes.push(format!("Qwen Code replaces the plugin folder only in a hook's command, not in its {key}"));
                *text = spelling.text(text, Reader::HookCommand);
            }
        }
        notes
    };
    let (kept, rows) = hooks::translate(&events, &spell);
    for row in rows {
        w.honest(Component::Hook, &row.event, row.level, row.detail);
    }
    let mut out = Map::new();
    if let Some(description) = source.value.get("description") {
        out.insert("description".into(), description.clone());
    }
    out.insert("hooks".into(), Value::Object(kept));
    w.add_json(facts::HOOKS_FILE, &Value::Object(out), source.origin.to_string())
}

/// `bin/` and support files travel; settings and output styles have no
/// place in an extension.
fn files(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    for file in &plugin.bin {
        w.copy(file, None, None)?;
        let how = format!(
            "Qwen Code puts nothing on PATH; call it as {}/{}/{}",
            facts::INSTALLED_EXTENSIONS,
            plugin.namespace,
            file.path
        );
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, format!("{}: {how}", file.path));
    }
    for file in &plugin.support {
        let path = file.path.as_str();
        if path == facts::CONTEXT_FILE && plugin.context.is_some() {
            let why = format!("{path} is not copied: the context file is written there");
            w.warn(DiagnosticCode::IgnoredFile, Some(path), why);
            continue;
        }
        if path == facts::INSTALL_RECORD || path == facts::SETTINGS_VALUES {
            let why = format!("{path} is where Qwen Code keeps its own install state; not copied");
            w.warn(DiagnosticCode::IgnoredFile, Some(path), why);
            continue;
        }
        if path == super::agent_plugins::facts::MANIFEST_PATH && agent_plugins_manifest(file.file.text()) {
            let why = format!(
                "{path} is not copied: Qwen Code would load the folder as an Agent Plugins plugin (skills and MCP only) instead of {}",
                facts::MANIFEST_PATH
            );
            w.warn(DiagnosticCode::IgnoredFile, Some(path), why);
            continue;
        }
        w.copy(file, None, None)?;
    }
    if plugin.settings.is_some() {
        let why = "Qwen Code extensions have no settings.json (agent, status line); not written";
        w.honest(Component::Settings, "settings.json", Level::Unsupported, why);
    }
    for style in &plugin.output_styles {
        let why = "Qwen Code has no output styles (its Claude converter says so too); not written";
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, why);
    }
    Ok(())
}

/// Whether a root `plugin.json` names the Agent Plugins schema, which Qwen
/// reads before its own manifest.
fn agent_plugins_manifest(text: Option<&str>) -> bool {
    let schema = text
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .and_then(|v| v.get("$schema").and_then(Value::as_str).map(str::to_string));
    schema.is_some_and(|s| s.starts_with("https://agent-plugins.org/schemas/"))
}

/// `AGENTS.md` -> `QWEN.md`, named by `contextFileName`.
fn context(w: &mut Writer<'_>, spelling: &Spelling) -> Result<()> {
    let Some(context) = &w.plugin.context else { return Ok(()) };
    let text = context.file.text().map(str::to_string).unwrap_or_default();
    let notes = spelling.notes(&text, Reader::Prose);
    let spelled = spelling.text(&text, Reader::Prose);
    if spelled == text {
        w.copy(context, Some(facts::CONTEXT_FILE), None)?;
    } else {
        w.add(facts::CONTEXT_FILE, spelled.into_bytes(), context.file.origin.to_string())?;
    }
    let location = format!("{} (contextFileName), loaded in every session", facts::CONTEXT_FILE);
    w.honest(Component::Context, context.path.as_str(), level_of(&notes), detail(location, &notes));
    Ok(())
}

/// The bundle README: the author's, else one from `README.md.j2` (in this
/// folder) listing what the bundle carries and how to install it.
fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(None)? {
        return Ok(());
    }
    const TEMPLATE: &str = include_str!("README.md.j2");
    let config = &w.plugin.config;
    let changes: Vec<Value> = w
        .bundle
        .honesty
        .iter()
        .filter(|row| row.level != Level::Supported)
        .map(|r| json!({"component": r.component, "name": r.name, "level": r.level, "detail": r.detail}))
        .collect();
    let ctx = json!({
        "plugin": {"name": config.name, "display_name": config.display_name, "version": config.version, "description": config.description},
        "namespace": w.plugin.namespace,
        "root": w.bundle.root,
        "up": w.output_root(),
        "generator": w.options.generator,
        "manifest": w.bundle.manifest.file_name(),
        "context": w.plugin.context.is_some(),
        "skills": w.written(Component::Skill),
        "commands": w.written(Component::Command),
        "agents": w.written(Component::Agent),
        "hooks": w.written(Component::Hook),
        "mcp_servers": w.written(Component::Mcp),
        "settings": !w.written(Component::Metadata).is_empty(),
        "changes": changes,
    });
    let text = crate::templates::render_source("qwen-code/README.md.j2", TEMPLATE, &ctx);
    w.add("README.md", text.into_bytes(), crate::templates::origin("qwen-code/README.md.j2"))
}

/// What Qwen Code loads of a plugin laid out in `format` (one of
/// [`LOADS_FORMATS`]). Of an Agent Plugins 1.0 plugin: its skills and
/// `mcp.json` (and the `bin/` files it copies with them), as that format's
/// writer reports them, and nothing else.
/// Claude Code and Gemini CLI plugins are converted at install, which is not
/// described here (no rows).
fn loaded_as(w: &mut Writer<'_>, format: Runtime) -> bool {
    if format != Runtime::AgentPlugins {
        return false;
    }
    let mut spec = match Writer::new(format, &format.kinds()[0], w.plugin, w.options) {
        Ok(writer) => writer,
        Err(_) => return false,
    };
    if super::agent_plugins::write(&mut spec).is_err() {
        return false;
    }
    let rows = spec.finish().honesty;
    let how = format!(
        "read as an Agent Plugins 1.0 plugin, of which Qwen Code loads only {}",
        facts::AGENT_PLUGINS_LOADS
    );
    for row in rows {
        let (level, said) = match row.component {
            // Qwen installs the whole folder: files beside the skills travel as they do there.
            Component::Skill | Component::Mcp | Component::Bin => (row.level, format!("{how}: {}", row.detail)),
            _ if row.level == Level::Unsupported => (Level::Unsupported, format!("{how}: {}", row.detail)),
            _ => (Level::Unsupported, format!("{how}; build --target qwen-code for its own extension")),
        };
        w.honest(row.component, &row.name, level, said);
    }
    true
}

#[cfg(test)]
mod tests;
