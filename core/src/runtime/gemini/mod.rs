//! Gemini CLI (0.61.0): an extension folder (`gemini-extension.json` with
//! inline MCP servers, `GEMINI.md`, TOML commands, skills, agents,
//! `hooks/hooks.json`), or a project's own `.gemini/` (project scope) or the
//! user's `~/.gemini/` (user scope), where the MCP servers and hooks are
//! parts of the shared `.gemini/settings.json` and the context a section of
//! `GEMINI.md`.
//!
//! Every location and format here was read from the gemini-cli 0.61.0 bundle
//! (`loadExtension`, `loadExtensionConfig`, `FileCommandLoader`,
//! `loadSkillsFromDir`, `loadAgentsFromDirectory`, `Storage`, `HookRegistry`).

pub(crate) mod facts;
pub(crate) mod lint;
pub(crate) mod read;
pub(crate) mod hooks;
mod judge;
mod mcp;
mod prompt;
pub(crate) mod tools;

use serde_json::{Map, Value, json};

use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer};
use crate::bundle::Scope;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::format::{toml, yaml};
use crate::merge::Part;
use crate::model::MarkdownComponent;
use crate::report::{Diagnostic, Level};
use crate::templates;
use crate::vars::canonical_text;
use crate::codes::DiagnosticCode;
use crate::report::Component;

const SETTINGS_FILE: &str = ".gemini/settings.json";
const CONTEXT_FILE: &str = "GEMINI.md";
/// The user-scope context file (below the home folder).
const USER_CONTEXT_FILE: &str = ".gemini/GEMINI.md";

/// Gemini CLI, the judge of its extensions and projects.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "gemini",
    name: "Gemini CLI",
    commands: &["gemini"],
    quiet: &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
    package: "@google/gemini-cli",
    version: "0.61.0",
    binary: "node_modules/.bin/gemini",
    extra_packages: &["@iarna/toml@2.2.5"],
    load: &["gemini extensions validate DIR", "gemini extensions install DIR --consent --skip-settings"],
    list: &["gemini extensions list"],
    driver: "core/src/runtime/gemini/drivers/gemini_inventory.py",
    typical_seconds: 25,
    launch: super::Launch::AsInstalled,
};

/// Gemini CLI judging an extension: validate, install, list, its own loaders.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Extension],
    driver: "core/src/runtime/gemini/drivers/gemini_inventory.py",
    args: &["--gemini", "BIN", "--no-relaunch", "--extension", "DIR"],
    read: judge::read_extension,
};

/// Gemini CLI reading a project's (or, for the user scope, a home's) `.gemini/`.
const PROJECT_CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Project],
    driver: "core/src/runtime/gemini/drivers/gemini_inventory.py",
    args: &["--gemini", "BIN", "--no-relaunch", "--project", "ROOT", "--scope", "SCOPE"],
    read: judge::read_project,
};

/// Gemini CLI, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Gemini CLI",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: true, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: true },
    agents: super::Agents { recursive: false, skipped_prefix: Some('_'), frontmatter_required: false, check: Some(lint::check_agent) },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: Some(lint::check_commands) },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: None, manifest_folder: None, runtime_only_fields: &["settings", "excludeTools", "plan"], read_field: None }),
    judge: super::Judge::Clients(&[CHECK, PROJECT_CHECK]),
    rules: &[],
    subject: "Gemini CLI",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true)],
    marketplace: None,
    hooks: Some(super::Hooks {
        events: super::HookEvents::Listed(&facts::HOOK_EVENTS),
        unknown_event: |event| {
            let list = facts::HOOK_EVENTS.join(", ");
            format!("`{event}` is not a gemini hook event, so it never fires (events: {list})")
        },
        shape: super::HookShape::Grouped { handler_types: &facts::HOOK_HANDLER_TYPES },
        requires_hooks_key: false,
        top_level_keys: None,
        expands: &[facts::PLUGIN_ROOT_VAR],
        quoted_vars: &[],
        run_from_plugin_folder: false,
    }),
    mcp: super::Mcp {
        files: Some(&[]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[facts::PLUGIN_ROOT_VAR]),
        unexpanded: "Gemini CLI leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] = &[
    Kind { name: ArtifactKind::Extension, layout: Layout::Folder, scopes: BOTH_SCOPES, marketplace: None, shared: &[] },
    Kind {
        name: ArtifactKind::Project,
        layout: Layout::InPlace { state_dir: ".gemini" },
        scopes: BOTH_SCOPES,
        marketplace: None,
        shared: &[SETTINGS_FILE, CONTEXT_FILE, USER_CONTEXT_FILE],
    },
];

/// The canonical plugin-root variables.
const PLUGIN_ROOT: &str = "${PLUGIN_ROOT}";
const PLUGIN_DATA: &str = "${PLUGIN_DATA}";
/// Where `gemini extensions install` copies an extension.
const INSTALLED_EXTENSIONS: &str = "~/.gemini/extensions";
/// Gemini has no per-plugin data folder; this one survives extension updates.
const DATA_HOME: &str = ".gemini/plugin-data";

/// Gemini's extension-name rule (`validateName`).
fn valid_extension_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Gemini's agent-name rule (`nameSchema`).
fn valid_agent_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// What reads a text, which decides how plugin-root variables are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    /// JSON Gemini expands (`${extensionPath}`, `$HOME`): manifest, hooks, settings.
    Config,
    /// Extension skills and agents: `${extensionPath}` hydrated, `$HOME` not.
    Markdown,
    /// Command prompts and context files: read as they are.
    Prose,
}

/// The kind and scope being written, and the paths that follow from them.
struct Target {
    project: bool,
    user: bool,
    namespace: String,
}

impl Target {
    fn new(w: &Writer<'_>) -> Self {
        Target {
            project: w.kind.name == ArtifactKind::Project,
            user: w.options.scope == Scope::User,
            namespace: w.plugin.namespace.clone(),
        }
    }

    /// Prefix of Gemini's own folders: the extension root or `.gemini/`.
    fn gemini_dir(&self) -> &'static str {
        if self.project { ".gemini/" } else { "" }
    }

    /// Where support files and `bin/` go.
    fn support_dir(&self) -> String {
        if self.project { format!(".gemini/{}/", self.namespace) } else { String::new() }
    }

    /// The project's (or the user's) `.gemini` folder, as `reader` reads it.
    fn gemini_home(&self, reader: Reader) -> &'static str {
        match (self.user, reader) {
            (false, _) => ".gemini",
            (true, Reader::Config) => "$HOME/.gemini",
            (true, _) => "~/.gemini",
        }
    }

    fn root(&self, reader: Reader) -> String {
        let ns = &self.namespace;
        match (self.project, reader) {
            (false, Reader::Prose) => format!("{INSTALLED_EXTENSIONS}/{ns}"),
            (false, _) => facts::PLUGIN_ROOT.to_string(),
            (true, _) => format!("{}/{ns}", self.gemini_home(reader)),
        }
    }

    fn data(&self, reader: Reader) -> String {
        let home = if reader == Reader::Config { "$HOME" } else { "~" };
        format!("{home}/{DATA_HOME}/{}", self.namespace)
    }

    fn spell(&self, text: &str, reader: Reader) -> String {
        let mut text = canonical_text(text).unwrap_or_else(|| text.to_string());
        if self.project {
            // Skills leave the plugin folder for Gemini's own skills folder.
            let skills = format!("{}/skills/", self.gemini_home(reader));
            text = text.replace(&format!("{PLUGIN_ROOT}/skills/"), &skills);
        }
        text.replace(PLUGIN_ROOT, &self.root(reader)).replace(PLUGIN_DATA, &self.data(reader))
    }

    fn spell_json(&self, value: &Value, reader: Reader) -> Value {
        match value {
            Value::String(s) => Value::String(self.spell(s, reader)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.spell_json(v, reader)).collect()),
            Value::Object(map) => {
                Value::Object(map.iter().map(|(k, v)| (k.clone(), self.spell_json(v, reader))).collect())
            }
            other => other.clone(),
        }
    }

    /// Caveats of the spelling of variables found in `text`.
    fn variable_notes(&self, text: &str, reader: Reader) -> Vec<String> {
        let text = canonical_text(text).unwrap_or_else(|| text.to_string());
        let mut notes = Vec::new();
        if !self.project && reader == Reader::Prose && text.contains(PLUGIN_ROOT) {
            notes.push(format!(
                "Gemini substitutes no variable here: {PLUGIN_ROOT} is written as {}, where \
                 `gemini extensions install` puts the extension (not where `link` leaves it)",
                self.root(reader)
            ));
        }
        if text.contains(PLUGIN_DATA) {
            notes.push(format!(
                "Gemini has no plugin data folder: {PLUGIN_DATA} is written as {}, which nothing creates",
                self.data(reader)
            ));
        }
        notes
    }
}

fn level_of(notes: &[String]) -> Level {
    if notes.is_empty() { Level::Supported } else { Level::Degraded }
}

fn detail(location: String, notes: &[String]) -> String {
    if notes.is_empty() { location } else { format!("{location}: {}", notes.join("; ")) }
}

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let target = Target::new(w);
    if !target.project {
        manifest(w, &target)?;
    }
    skills(w, &target)?;
    commands(w, &target)?;
    agents(w, &target)?;
    hooks_file(w, &target)?;
    if target.project {
        project_mcp(w, &target)?;
    }
    unsupported(w);
    bin(w, &target)?;
    for file in &w.plugin.support {
        let to = format!("{}{}", target.support_dir(), file.path);
        w.copy(file, Some(&to), None)?;
    }
    context(w, &target)?;
    if !target.project {
        readme(w, &target)?;
    }
    if w.options.marketplace {
        let message = "Gemini CLI has no marketplace file; install the extension folder itself \
                       (`gemini extensions install <folder>`)";
        w.bundle.diagnostics.push(Diagnostic::info(DiagnosticCode::NoMarketplace, None, message));
    }
    Ok(())
}

/// `gemini-extension.json`: name and version (both required), description,
/// the context file and the MCP servers inline.
fn manifest(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    let plugin = w.plugin;
    let file = plugin.metadata_file.to_string();
    let refuse =
        |message: String| Error::at(ErrorCode::InvalidSource, Location::file(file.as_str()), message);
    if !valid_extension_name(&plugin.namespace) {
        return Err(refuse(format!(
            "Gemini CLI extension name {:?} may hold only letters, digits and dashes; \
             set a \"namespace\" that does",
            plugin.namespace
        )));
    }
    let Some(version) = &plugin.config.version else {
        return Err(refuse("Gemini CLI refuses an extension without a version; set \"version\"".into()));
    };
    let mut manifest = Map::new();
    manifest.insert("name".into(), json!(plugin.namespace));
    manifest.insert("version".into(), json!(version));
    if let Some(description) = &plugin.config.description {
        manifest.insert("description".into(), json!(description));
    }
    if plugin.context.is_some() {
        manifest.insert("contextFileName".into(), json!(CONTEXT_FILE));
    }
    let servers = mcp_servers(w, target, &format!("{} mcpServers", facts::MANIFEST_PATH))?;
    if !servers.is_empty() {
        manifest.insert("mcpServers".into(), Value::Object(servers));
    }
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(overrides);
    w.add_json(
        facts::MANIFEST_PATH,
        &Value::Object(manifest),
        templates::origin("gemini/gemini-extension.json"),
    )
}

/// Every MCP server in Gemini's shape, with one honesty row each.
fn mcp_servers(w: &mut Writer<'_>, target: &Target, location: &str) -> Result<Map<String, Value>> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(Map::new()) };
    let origin = mcp.origin.to_string();
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        let translated = mcp::translate(name, server, &origin, !target.project)?;
        let text = serde_json::to_string(server).expect("JSON");
        let mut notes = translated.notes;
        notes.extend(target.variable_notes(&text, Reader::Config));
        w.honest(Component::Mcp, name, level_of(&notes), detail(location.to_string(), &notes));
        servers.insert(name.clone(), target.spell_json(&translated.value, Reader::Config));
    }
    Ok(servers)
}

fn project_mcp(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    let servers = mcp_servers(w, target, ".gemini/settings.json mcpServers")?;
    for (name, value) in servers {
        let part = Part::JsonEntry { pointer: vec!["mcpServers".into()], key: name, value };
        w.merge(SETTINGS_FILE, part)?;
    }
    Ok(())
}

/// `skills/<name>/SKILL.md` with the only frontmatter Gemini reads (`name`,
/// `description`); a skill without a description is skipped by Gemini.
fn skills(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    let reader = if target.project { Reader::Prose } else { Reader::Markdown };
    for skill in &w.plugin.skills {
        let dir = format!("{}skills/{}", target.gemini_dir(), skill.name);
        // Gemini chooses a skill by its description alone: `when_to_use` joins it.
        let said: Vec<(&str, &str)> = ["description", "when_to_use"]
            .into_iter()
            .filter_map(|key| Some((key, skill.document.str_field(key)?.trim())))
            .filter(|(_, text)| !text.is_empty())
            .collect();
        if said.is_empty() {
            let why = "no description in its frontmatter: Gemini CLI skips such a skill";
            w.honest(Component::Skill, &skill.name, Level::Unsupported, why);
            continue;
        }
        let mut notes = Vec::new();
        if said.iter().any(|(key, _)| *key == "when_to_use") {
            notes.push("when_to_use is folded into description".to_string());
        }
        let description: Vec<&str> = said.iter().map(|(_, text)| *text).collect();
        let mut frontmatter = Map::new();
        frontmatter.insert("name".into(), json!(skill.name));
        frontmatter.insert("description".into(), json!(description.join(" ")));
        let dropped: Vec<&str> = skill
            .document
            .frontmatter
            .iter()
            .flat_map(|m| m.keys())
            .map(String::as_str)
            .filter(|k| !["name", "description", "when_to_use"].contains(k))
            .collect();
        if !dropped.is_empty() {
            notes.push(format!("Gemini reads only name and description; dropped: {}", dropped.join(", ")));
        }
        notes.extend(target.variable_notes(&skill.document.body, reader));
        let text = yaml::frontmatter(&frontmatter, &target.spell(&skill.document.body, reader));
        w.add(&format!("{dir}/SKILL.md"), text.into_bytes(), skill.main.file.origin.to_string())?;
        for file in &skill.files {
            w.copy(file, Some(&format!("{}{}", target.gemini_dir(), file.path)), None)?;
        }
        w.honest(Component::Skill, &skill.name, level_of(&notes), detail(format!("{dir}/SKILL.md"), &notes));
    }
    Ok(())
}

/// `commands/<namespace>/<name>.toml`: the namespace folder makes Gemini
/// name them `/<namespace>:<name>`, as Claude Code does for plugins.
fn commands(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    for command in &w.plugin.commands {
        let rel = command_rel(command);
        let path = format!("{}commands/{}/{rel}.toml", target.gemini_dir(), target.namespace);
        let translated = prompt::translate(&command.document.body);
        let mut notes = translated.notes;
        let dropped: Vec<&str> = command
            .document
            .frontmatter
            .iter()
            .flat_map(|m| m.keys())
            .map(String::as_str)
            .filter(|k| *k != "description")
            .collect();
        if !dropped.is_empty() {
            notes.push(format!("Gemini's TOML commands have no field for {}; dropped", dropped.join(", ")));
        }
        let name = format!("{}:{}", target.namespace, command.name);
        if let Some(sanitized) = gemini_command_name(&name) {
            notes.push(format!("Gemini names it /{sanitized}"));
        }
        notes.extend(target.variable_notes(&translated.text, Reader::Prose));
        let mut table = Map::new();
        match command.document.field("description") {
            Some(Value::String(description)) => {
                table.insert("description".into(), json!(description));
            }
            Some(other) => notes.push(format!("description {other} is not text; dropped")),
            None => {}
        }
        table.insert("prompt".into(), json!(target.spell(&translated.text, Reader::Prose)));
        w.add(&path, toml::document(&table).into_bytes(), command.file.file.origin.to_string())?;
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

/// The name Gemini gives a command, when it differs from ours: each segment
/// has characters outside `[A-Za-z0-9_.-]` replaced and is cut to 50.
fn gemini_command_name(name: &str) -> Option<String> {
    let sanitized: Vec<String> = name
        .split(':')
        .map(|segment| {
            let clean: String = segment
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' })
                .collect();
            if clean.chars().count() > 50 {
                format!("{}...", clean.chars().take(47).collect::<String>())
            } else {
                clean
            }
        })
        .collect();
    let sanitized = sanitized.join(":");
    (sanitized != name).then_some(sanitized)
}

/// Agent frontmatter keys Gemini's strict schema takes as they are.
const GEMINI_AGENT_KEYS: [&str; 6] =
    ["kind", "display_name", "temperature", "max_turns", "timeout_mins", "mcp_servers"];

/// `agents/<name>.md` in Gemini's strict schema: unknown keys fail the load.
fn agents(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    let reader = if target.project { Reader::Prose } else { Reader::Markdown };
    for agent in &w.plugin.agents {
        let description = agent.document.str_field("description").filter(|d| !d.trim().is_empty());
        let refusal = if !valid_agent_name(&agent.name) {
            Some("its name is not lowercase letters, digits, - and _: Gemini CLI refuses to load it")
        } else if description.is_none() {
            Some("no description: Gemini CLI refuses to load it")
        } else {
            None
        };
        if let Some(why) = refusal {
            w.honest(Component::Agent, &agent.name, Level::Unsupported, why);
            continue;
        }
        let (frontmatter, mut notes) = agent_frontmatter(agent, description.unwrap_or_default());
        notes.extend(target.variable_notes(&agent.document.body, reader));
        let path = format!("{}agents/{}.md", target.gemini_dir(), agent.name);
        let text = yaml::frontmatter(&frontmatter, &target.spell(&agent.document.body, reader));
        w.add(&path, text.into_bytes(), agent.file.file.origin.to_string())?;
        w.honest(Component::Agent, &agent.name, level_of(&notes), detail(path, &notes));
    }
    Ok(())
}

fn agent_frontmatter(agent: &MarkdownComponent, description: &str) -> (Map<String, Value>, Vec<String>) {
    let mut notes = Vec::new();
    let mut out = Map::new();
    out.insert("name".into(), json!(agent.name));
    out.insert("description".into(), json!(description));
    let source = agent.document.frontmatter.clone().unwrap_or_default();
    let mut dropped = Vec::new();
    for (key, value) in &source {
        match key.as_str() {
            "name" | "description" => {}
            "tools" => {
                let mapped = tools::map_all(&tools::names(value));
                if !mapped.dropped.is_empty() {
                    notes.push(format!("Gemini has no tool for {}; dropped", mapped.dropped.join(", ")));
                }
                if !mapped.widened.is_empty() {
                    notes.push(format!("{} lose their pattern", mapped.widened.join(", ")));
                }
                out.insert("tools".into(), json!(mapped.tools));
            }
            "model" => match value.as_str() {
                Some(model) if model == "inherit" || model.starts_with("gemini-") => {
                    out.insert("model".into(), json!(model));
                }
                _ => notes
                    .push(format!("model {value} is not a Gemini model; the agent inherits the session's")),
            },
            k if GEMINI_AGENT_KEYS.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            _ => dropped.push(key.as_str()),
        }
    }
    if !dropped.is_empty() {
        notes.push(format!("Gemini's agent schema refuses {}; dropped", dropped.join(", ")));
    }
    (out, notes)
}

/// Hooks in Gemini's event names: the extension's `hooks/hooks.json`, or
/// groups under `hooks.<Event>` of `.gemini/settings.json`.
fn hooks_file(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    let plugin = w.plugin;
    let Some(source) = &plugin.hooks else { return Ok(()) };
    let hooks = source
        .value
        .get("hooks")
        .cloned()
        .map(|hooks| w.user_options_in_hooks(crate::shell::hooks_as_shell_lines(hooks)));
    let events = hooks.and_then(|h| h.as_object().cloned()).unwrap_or_default();
    let spell = |text: &str| target.spell(text, Reader::Config);
    let (translated, rows) = hooks::translate(&events, &spell);
    let place = if target.project { SETTINGS_FILE } else { "hooks/hooks.json" };
    for row in rows {
        let mut notes = Vec::new();
        if let Some(groups) = events.get(&row.event) {
            notes = target.variable_notes(&serde_json::to_string(groups).expect("JSON"), Reader::Config);
        }
        let level =
            if row.level == Level::Supported && !notes.is_empty() { Level::Degraded } else { row.level };
        let mut text = format!("{place}, {}", row.detail);
        if !notes.is_empty() {
            text = format!("{text}; {}", notes.join("; "));
        }
        w.honest(Component::Hook, &row.event, level, text);
    }
    if target.project {
        for (event, groups) in translated {
            let items = groups.as_array().cloned().unwrap_or_default();
            if !items.is_empty() {
                w.merge(SETTINGS_FILE, Part::JsonItems { pointer: vec!["hooks".into(), event], items })?;
            }
        }
        return Ok(());
    }
    let mut out = Map::new();
    if let Some(description) = source.value.get("description") {
        out.insert("description".into(), description.clone());
    }
    out.insert("hooks".into(), Value::Object(translated));
    w.add_json("hooks/hooks.json", &Value::Object(out), source.origin.to_string())
}

/// Components Gemini has no place for.
fn unsupported(w: &mut Writer<'_>) {
    if w.plugin.settings.is_some() {
        let why = "Gemini CLI extensions and projects have no plugin settings.json (agent, status line); \
                   not written";
        w.honest(Component::Settings, "settings.json", Level::Unsupported, why);
    }
    for style in &w.plugin.output_styles {
        let why = "Gemini CLI has no output styles; not written";
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, why);
    }
}

/// `bin/` travels, but Gemini puts nothing on PATH.
fn bin(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    for file in &w.plugin.bin {
        let to = format!("{}{}", target.support_dir(), file.path);
        w.copy(file, Some(&to), None)?;
        let how = format!(
            "Gemini CLI puts nothing on PATH; call it as {}/{}",
            target.root(Reader::Prose),
            file.path
        );
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, format!("{to}: {how}"));
    }
    Ok(())
}

/// `AGENTS.md` -> `GEMINI.md` (the extension's context file), or a section
/// of the project's (or the user's) `GEMINI.md`.
fn context(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    let Some(context) = &w.plugin.context else { return Ok(()) };
    let text = context.file.text().map(str::to_string).unwrap_or_default();
    let notes = target.variable_notes(&text, Reader::Prose);
    let spelled = target.spell(&text, Reader::Prose);
    let file = if !target.project {
        w.add(CONTEXT_FILE, spelled.into_bytes(), context.file.origin.to_string())?;
        format!("{CONTEXT_FILE} (contextFileName)")
    } else {
        let file = if target.user { USER_CONTEXT_FILE } else { CONTEXT_FILE };
        let id = format!("plugforge:{}", target.namespace);
        w.merge(file, Part::Section { id, text: spelled })?;
        format!("a section of {file}")
    };
    w.honest(Component::Context, context.path.as_str(), level_of(&notes), detail(file, &notes));
    Ok(())
}

fn readme(w: &mut Writer<'_>, target: &Target) -> Result<()> {
    let plugin = w.plugin;
    if let Some(readme) = &plugin.readme {
        let text = readme.file.text().map(|t| target.spell(t, Reader::Prose));
        return match text {
            Some(text) => w.add("README.md", text.into_bytes(), readme.file.origin.to_string()),
            None => w.copy(readme, None, None),
        };
    }
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
    let hooks: Vec<&str> = plugin
        .hooks
        .as_ref()
        .and_then(|h| h.value.get("hooks")?.as_object())
        .map(|m| m.keys().filter_map(|k| hooks::gemini_event(k)).collect())
        .unwrap_or_default();
    let mcp: Vec<&String> = plugin.mcp.as_ref().map(|m| m.servers.keys().collect()).unwrap_or_default();
    let changes: Vec<Value> = w
        .bundle
        .honesty
        .iter()
        .filter(|row| row.level != Level::Supported)
        .map(|r| json!({"component": r.component, "name": r.name, "level": r.level, "detail": r.detail}))
        .collect();
    let fields = json!({
        "namespace": target.namespace,
        "skills": skills,
        "commands": described(&plugin.commands),
        "agents": described(&plugin.agents),
        "hooks": hooks,
        "mcp_servers": mcp,
        "context": plugin.context.is_some(),
        "changes": changes,
    });
    w.render_readme("gemini", fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::Bundle;
    use crate::options::{BuildOptions, TargetRequest};
    use crate::source::SourceTree;

    const CONFIG: &str = r#"{"name": "kit", "version": "1.0.0", "description": "A kit"}"#;

    fn source(files: &[(&str, &str)]) -> SourceTree {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        tree
    }

    fn build(files: &[(&str, &str)], kind: &str, scope: Scope) -> Result<Bundle> {
        let options = BuildOptions {
            targets: vec![TargetRequest { runtime: "gemini".into(), kind: Some(kind.into()) }],
            scope,
            ..Default::default()
        };
        Ok(crate::build(&source(files), &options)?.bundles.remove(0))
    }

    fn text(bundle: &Bundle, path: &str) -> String {
        let file = bundle
            .files
            .get(&crate::path::BundlePath::new(path).unwrap())
            .unwrap_or_else(|| panic!("{path} not in {:?}", bundle.files.keys().collect::<Vec<_>>()));
        String::from_utf8(file.bytes.to_vec()).unwrap()
    }

    fn row<'a>(bundle: &'a Bundle, component: &str, name: &str) -> &'a crate::report::Honesty {
        bundle.honesty.iter().find(|r| r.component == component && r.name == name).expect("a row")
    }

    #[test]
    fn writes_the_manifest_with_inline_mcp_servers_and_context() {
        let bundle = build(
            &[
                ("plugforge.json", CONFIG),
                (
                    ".mcp.json",
                    r#"{"srv": {"command": "${CLAUDE_PLUGIN_ROOT}/s", "args": ["${PLUGIN_DATA}"]}}"#,
                ),
                ("AGENTS.md", "Use ${PLUGIN_ROOT}/x\n"),
            ],
            "extension",
            Scope::Project,
        )
        .unwrap();
        assert_eq!(
            text(&bundle, "gemini-extension.json"),
            "{\n  \"name\": \"kit\",\n  \"version\": \"1.0.0\",\n  \"description\": \"A kit\",\n  \
             \"contextFileName\": \"GEMINI.md\",\n  \"mcpServers\": {\n    \"srv\": {\n      \
             \"command\": \"${extensionPath}/s\",\n      \"args\": [\n        \
             \"$HOME/.gemini/plugin-data/kit\"\n      ]\n    }\n  }\n}\n"
        );
        assert_eq!(text(&bundle, "GEMINI.md"), "Use ~/.gemini/extensions/kit/x\n");
        assert_eq!(row(&bundle, "context", "AGENTS.md").level, Level::Degraded);
        assert_eq!(row(&bundle, "mcp", "srv").level, Level::Degraded, "{:?}", row(&bundle, "mcp", "srv"));
        assert!(bundle.diagnostics.iter().any(|d| d.code == "no_marketplace"));
    }

    #[test]
    fn commands_become_namespaced_toml() {
        let command = "---\ndescription: Say hi\nargument-hint: [name]\nallowed-tools: Bash(echo:*)\n---\nHi $ARGUMENTS\n";
        let bundle = build(
            &[("plugforge.json", CONFIG), ("commands/team/hi.md", command)],
            "extension",
            Scope::Project,
        )
        .unwrap();
        assert_eq!(
            text(&bundle, "commands/kit/team/hi.toml"),
            "description = \"Say hi\"\nprompt = '''\nHi {{args}}\n'''\n"
        );
        let hi = row(&bundle, "command", "team:hi");
        assert_eq!(hi.level, Level::Degraded);
        assert_eq!(
            hi.detail,
            "/kit:team:hi (commands/kit/team/hi.toml): Gemini's TOML commands have no field for \
             argument-hint, allowed-tools; dropped"
        );
    }

    #[test]
    fn agents_get_gemini_tools_and_lose_claude_only_keys() {
        let agent = "---\nname: scout\ndescription: Looks around\ntools: Read, Grep, NotebookEdit\n\
                     model: sonnet\ncolor: red\n---\nLook in ${PLUGIN_ROOT}/docs\n";
        let bundle =
            build(&[("plugforge.json", CONFIG), ("agents/scout.md", agent)], "extension", Scope::Project)
                .unwrap();
        assert_eq!(
            text(&bundle, "agents/scout.md"),
            "---\nname: scout\ndescription: Looks around\ntools:\n  - read_file\n  - grep_search\n---\n\
             Look in ${extensionPath}/docs\n"
        );
        let scout = row(&bundle, "agent", "scout");
        assert_eq!(scout.level, Level::Degraded);
        assert_eq!(
            scout.detail,
            "agents/scout.md: Gemini has no tool for NotebookEdit; dropped; model \"sonnet\" is not a Gemini \
             model; the agent inherits the session's; Gemini's agent schema refuses color; dropped"
        );
    }

    #[test]
    fn agents_and_skills_gemini_would_refuse_are_not_written() {
        // Alone they would leave Gemini nothing to load (no extension is
        // written then); a command it loads keeps the extension.
        let only_refused = build(
            &[
                ("plugforge.json", CONFIG),
                ("agents/Big.md", "---\nname: Big Agent\ndescription: x\n---\nx\n"),
                ("skills/quiet/SKILL.md", "---\nname: quiet\n---\nx\n"),
            ],
            "extension",
            Scope::Project,
        )
        .unwrap_err();
        assert_eq!(only_refused.code, crate::error::ErrorCode::NothingToLoad);
        assert_eq!(
            only_refused.problems.last().unwrap().message,
            "gemini: nothing this runtime can load (skills: unsupported, agents: unsupported)"
        );
        let bundle = build(
            &[
                ("plugforge.json", CONFIG),
                ("agents/Big.md", "---\nname: Big Agent\ndescription: x\n---\nx\n"),
                ("skills/quiet/SKILL.md", "---\nname: quiet\n---\nx\n"),
                ("commands/go.md", "---\ndescription: Goes.\n---\nGo.\n"),
            ],
            "extension",
            Scope::Project,
        )
        .unwrap();
        assert_eq!(row(&bundle, "agent", "Big Agent").level, Level::Unsupported);
        assert_eq!(row(&bundle, "skill", "quiet").level, Level::Unsupported);
        assert!(
            bundle
                .files
                .keys()
                .all(|p| !p.as_str().starts_with("agents/") && !p.as_str().starts_with("skills/"))
        );
    }

    #[test]
    fn skills_keep_only_what_gemini_reads() {
        let skill = "---\nname: go\ndescription: Goes.\nwhen_to_use: When asked.\nlicense: MIT\n---\nRun ${PLUGIN_ROOT}/go.sh\n";
        let bundle =
            build(&[("plugforge.json", CONFIG), ("skills/go/SKILL.md", skill)], "extension", Scope::Project)
                .unwrap();
        assert_eq!(
            text(&bundle, "skills/go/SKILL.md"),
            "---\nname: go\ndescription: Goes. When asked.\n---\nRun ${extensionPath}/go.sh\n"
        );
        assert_eq!(
            row(&bundle, "skill", "go").detail,
            "skills/go/SKILL.md: when_to_use is folded into description; Gemini reads only name and \
             description; dropped: license"
        );
    }

    #[test]
    fn a_when_to_use_alone_describes_the_skill() {
        let skill = "---\nname: go\nwhen_to_use: When asked.\n---\nGo.\n";
        let bundle =
            build(&[("plugforge.json", CONFIG), ("skills/go/SKILL.md", skill)], "extension", Scope::Project)
                .unwrap();
        assert_eq!(
            text(&bundle, "skills/go/SKILL.md"),
            "---\nname: go\ndescription: When asked.\n---\nGo.\n"
        );
    }

    #[test]
    fn claude_spellings_in_a_command_are_reported_too() {
        let command = "---\ndescription: Run\n---\nRun ${CLAUDE_PLUGIN_ROOT}/run.sh\n";
        let bundle =
            build(&[("plugforge.json", CONFIG), ("commands/run.md", command)], "extension", Scope::Project)
                .unwrap();
        assert_eq!(
            text(&bundle, "commands/kit/run.toml"),
            "description = \"Run\"\nprompt = '''\nRun ~/.gemini/extensions/kit/run.sh\n'''\n"
        );
        let run = row(&bundle, "command", "run");
        assert_eq!(run.level, Level::Degraded);
        assert!(run.detail.contains("Gemini substitutes no variable here"), "{}", run.detail);
    }

    #[test]
    fn hooks_use_gemini_event_names_and_milliseconds() {
        let hooks = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "${PLUGIN_ROOT}/g.sh", "timeout": 3}]}],
            "SubagentStop": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#;
        let bundle =
            build(&[("plugforge.json", CONFIG), ("hooks/hooks.json", hooks)], "extension", Scope::Project)
                .unwrap();
        let value: Value = serde_json::from_str(&text(&bundle, "hooks/hooks.json")).unwrap();
        assert_eq!(
            value,
            json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"type": "command", "command": "\"${extensionPath}/g.sh\"", "timeout": 3000}]}]}})
        );
        assert_eq!(row(&bundle, "hook", "SubagentStop").level, Level::Unsupported);
    }

    #[test]
    fn components_gemini_has_no_place_for_are_reported() {
        let bundle = build(
            &[
                ("plugforge.json", CONFIG),
                ("settings.json", r#"{"agent": "x"}"#),
                ("output-styles/terse.md", "---\nname: terse\n---\nBe terse.\n"),
                ("bin/tool", "#!/bin/sh\n"),
            ],
            "extension",
            Scope::Project,
        )
        .unwrap();
        assert_eq!(row(&bundle, "settings", "settings.json").level, Level::Unsupported);
        assert_eq!(row(&bundle, "output-style", "output-styles/terse.md").level, Level::Unsupported);
        let bin = row(&bundle, "bin", "bin/tool");
        assert_eq!(bin.level, Level::Degraded);
        assert_eq!(
            bin.detail,
            "bin/tool: Gemini CLI puts nothing on PATH; call it as ~/.gemini/extensions/kit/bin/tool"
        );
        assert!(text(&bundle, "bin/tool").starts_with("#!/bin/sh"));
    }

    #[test]
    fn the_project_kind_merges_settings_and_context() {
        let files = [
            ("plugforge.json", CONFIG),
            (".mcp.json", r#"{"srv": {"command": "${PLUGIN_ROOT}/bin/s"}}"#),
            (
                "hooks/hooks.json",
                r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/h.sh"}]}]}}"#,
            ),
            ("AGENTS.md", "Context\n"),
            (
                "skills/go/SKILL.md",
                "---\nname: go\ndescription: Goes.\n---\nSee ${PLUGIN_ROOT}/skills/go/x.md\n",
            ),
            ("h.sh", "#!/bin/sh\n"),
        ];
        let bundle = build(&files, "project", Scope::Project).unwrap();
        assert_eq!(bundle.root, "");
        assert_eq!(bundle.manifest.as_str(), ".gemini/kit.plugforge-manifest.json");
        let parts: Vec<(String, Part)> =
            bundle.merges.iter().map(|m| (m.path.to_string(), m.part.clone())).collect();
        assert_eq!(
            parts,
            [
                (
                    SETTINGS_FILE.to_string(),
                    Part::JsonItems {
                        pointer: vec!["hooks".into(), "AfterAgent".into()],
                        items: vec![json!({"hooks": [{"type": "command", "command": "\".gemini/kit/h.sh\""}]})],
                    }
                ),
                (
                    SETTINGS_FILE.to_string(),
                    Part::JsonEntry {
                        pointer: vec!["mcpServers".into()],
                        key: "srv".into(),
                        value: json!({"command": ".gemini/kit/bin/s"}),
                    }
                ),
                (
                    "GEMINI.md".to_string(),
                    Part::Section { id: "plugforge:kit".into(), text: "Context\n".into() }
                ),
            ]
        );
        assert_eq!(
            text(&bundle, ".gemini/skills/go/SKILL.md"),
            "---\nname: go\ndescription: Goes.\n---\nSee .gemini/skills/go/x.md\n"
        );
        assert!(text(&bundle, ".gemini/kit/h.sh").starts_with("#!"));

        let user = build(&files, "project", Scope::User).unwrap();
        let paths: Vec<&str> = user.merges.iter().map(|m| m.path.as_str()).collect();
        assert_eq!(paths, [SETTINGS_FILE, SETTINGS_FILE, USER_CONTEXT_FILE]);
        assert_eq!(
            user.merges[1].part,
            Part::JsonEntry {
                pointer: vec!["mcpServers".into()],
                key: "srv".into(),
                value: json!({"command": "$HOME/.gemini/kit/bin/s"}),
            }
        );
    }

    #[test]
    fn refuses_names_and_versions_gemini_refuses() {
        let unnamed = build(
            &[("plugforge.json", r#"{"name": "kit", "namespace": "my_kit", "version": "1"}"#)],
            "extension",
            Scope::Project,
        )
        .unwrap_err();
        assert_eq!(unnamed.code, ErrorCode::InvalidSource);
        assert_eq!(unnamed.location().unwrap().file, "plugforge.json");
        assert!(unnamed.message().contains("only letters, digits and dashes"), "{unnamed}");
        let unversioned =
            build(&[("plugforge.json", r#"{"name": "kit"}"#)], "extension", Scope::Project).unwrap_err();
        assert_eq!(unversioned.location().unwrap().file, "plugforge.json");
        assert!(unversioned.message().contains("without a version"), "{unversioned}");
        assert!(build(&[("plugforge.json", r#"{"name": "kit"}"#)], "project", Scope::Project).is_ok());
    }

    #[test]
    fn command_names_follow_gemini_sanitizing() {
        assert_eq!(gemini_command_name("kit:hi"), None);
        assert_eq!(gemini_command_name("kit:say hi"), Some("kit:say_hi".into()));
    }
}
