//! Factory Droid (`droid` 0.215.0): a plugin folder with
//! `.factory-plugin/plugin.json` beside the fixed folders its loader reads:
//! `skills/`, `commands/`, `droids/` (its sub-agents), `output-styles/`,
//! `hooks/hooks.json` in Claude Code's shape kept to its nine events, and
//! `mcp.json`. Every fact is in `facts.rs` with the part of the client it
//! was read from.
//!
//! Variables: Droid replaces `${CLAUDE_PLUGIN_ROOT}` in a hook's command and
//! in skill and droid bodies, and nowhere else: not in `mcp.json` and not in
//! command files, so a plugin-root reference there is kept as written and
//! said degraded. The bundle is written natively (its own manifest folder),
//! which switches off the renaming Droid applies to a Claude Code plugin.
//!
//! A Claude Code plugin installs too, renamed at install: [`claude_layout`]
//! says what Droid loads of one (the `universal` folder names Droid from it).
//!
//! Droid installs only from a marketplace; the bundle is listed in
//! `.factory-plugin/marketplace.json` at the output root, which Droid reads
//! before Claude Code's marketplace file, so it stands beside the other
//! runtimes in `--target all`.

mod claude_layout;
mod judge;
pub(crate) mod facts;
pub(crate) mod lint;
pub(crate) mod read;

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer};
use crate::codes::DiagnosticCode;
use crate::error::Result;
use crate::format::yaml;
use crate::model::MarkdownComponent;
use crate::report::{Component, Level};
use crate::vars::{CLAUDE_VARS, canonical_text};

/// The Droid CLI, the judge of its plugins: a local marketplace added and
/// the plugin installed in a throwaway HOME, then its JSON-RPC session lists
/// what loaded (no login, no model call).
pub(crate) const CLIENT: super::Client = super::Client {
    id: "droid",
    name: "Factory Droid",
    commands: &["droid"],
    quiet: &[
        ("FACTORY_DROID_AUTO_UPDATE_ENABLED", "false"),
        ("FACTORY_DISABLE_DYNAMIC_CONFIG", "1"),
        ("FACTORY_DISABLE_KEYRING", "1"),
        ("DO_NOT_TRACK", "1"),
    ],
    package: "droid",
    version: "0.215.0",
    binary: "node_modules/@factory/cli-linux-x64/bin/droid",
    extra_packages: &[],
    load: &["droid plugin marketplace add ./ROOT", "droid plugin install NAME@MARKETPLACE"],
    list: &["droid plugin list", "droid exec --input-format stream-jsonrpc --output-format stream-jsonrpc"],
    driver: "core/src/runtime/factory_droid/drivers/droid_inventory.py",
    typical_seconds: 15,
    launch: super::Launch::AsInstalled,
};

/// Droid installing a plugin from the marketplace at the output root and
/// listing its skills, commands, droids and MCP servers.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Plugin],
    driver: "core/src/runtime/factory_droid/drivers/droid_inventory.py",
    args: &["--droid", "BIN", "--root", "ROOT", "--plugin", "NAME"],
    read: judge::read_plugin,
};

/// Factory Droid, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Factory Droid",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads {
        marker: Some(facts::MANIFEST_PATH),
        claims_shared_marker: None,
        loads_formats: &[super::Runtime::ClaudeCode],
        loaded_as: Some(claude_layout::loaded_as),
        loads_manifestless: None,
        manifest: Some(facts::MANIFEST_PATH),
        manifest_required: false,
        manifest_fallbacks: &[],
        check_manifest: Some(lint::check_manifest),
        check_plugin: None,
        layout: lint::layout,
        lenient_manifest_syntax: false,
        lenient_frontmatter: false,
        check_component_frontmatter: None,
    },
    skills: super::Skills { follows_agent_skills_spec: false, strict_spec_keys: false },
    agents: super::Agents { recursive: false, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: false, description: None, own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign {
        manifest: facts::MANIFEST_PATH,
        marketplace: Some(facts::MARKETPLACE_PATH),
        manifest_folder: Some(facts::MANIFEST_DIR),
        runtime_only_fields: &[],
        read_field: None,
    }),
    judge: super::Judge::Clients(&[CHECK]),
    rules: &[],
    subject: "Factory Droid",
    folder_vars: &[(facts::DROID_ROOT_VAR, true)],
    marketplace: None,
    hooks: Some(super::Hooks {
        events: super::HookEvents::Listed(&facts::HOOK_EVENTS),
        unknown_event: |event| {
            format!("`{event}` is not one of Factory Droid's nine hook events: its plugin loader drops it without a word")
        },
        shape: super::HookShape::Grouped { handler_types: &facts::HOOK_HANDLER_TYPES },
        requires_hooks_key: false,
        top_level_keys: None,
        expands: &[facts::CLAUDE_ROOT_VAR, facts::DROID_ROOT_VAR],
        quoted_vars: &[],
        run_from_plugin_folder: false,
    }),
    mcp: super::Mcp {
        files: Some(&[facts::MCP_FILE]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[]),
        unexpanded: "Factory Droid expands no variable in mcp.json",
    },
};

pub const KINDS: &[Kind] = &[Kind {
    name: ArtifactKind::Plugin,
    layout: Layout::Folder,
    scopes: BOTH_SCOPES,
    marketplace: Some(facts::MARKETPLACE_PATH),
    shared: &[],
}];

const PLUGIN_ROOT: &str = crate::canonical::PLUGIN_ROOT;
const PLUGIN_DATA: &str = crate::canonical::PLUGIN_DATA;

/// Where Droid reads a text, which decides what its plugin-root variable becomes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A hook command, a skill or droid body: `${CLAUDE_PLUGIN_ROOT}` replaced.
    Replaced,
    /// A command file, `mcp.json`: read as written.
    AsWritten,
}

/// The text with the canonical variables in Claude Code's spelling, which
/// Droid replaces where it replaces any.
fn spell(text: &str) -> String {
    let text = canonical_text(text).unwrap_or_else(|| text.to_string());
    CLAUDE_VARS.text(&text).unwrap_or(text)
}

/// What the variables of `text` cost where Droid reads it.
fn variable_notes(text: &str, place: Place) -> Vec<String> {
    let text = canonical_text(text).unwrap_or_else(|| text.to_string());
    let mut notes = Vec::new();
    if place == Place::AsWritten && text.contains(PLUGIN_ROOT) {
        notes.push(format!(
            "Factory Droid replaces no variable here, so {} stays as written (it installs the plugin below {}, a \
             path no file can name in advance)",
            facts::PLUGIN_ROOT,
            facts::INSTALLED_PLUGINS
        ));
    }
    if text.contains(PLUGIN_DATA) {
        notes.push(format!(
            "Factory Droid gives a plugin no data folder: {PLUGIN_DATA} is written as ${{{}}}, which it does not set",
            crate::canonical::CLAUDE_PLUGIN_DATA_VAR
        ));
    }
    notes
}

fn level_of(notes: &[String]) -> Level {
    if notes.is_empty() { Level::Supported } else { Level::Degraded }
}

fn detail(location: impl Into<String>, notes: &[String]) -> String {
    let location = location.into();
    if notes.is_empty() { location } else { format!("{location}: {}", notes.join("; ")) }
}

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    manifest(w)?;
    skills(w)?;
    commands(w)?;
    droids(w)?;
    hooks(w)?;
    mcp(w)?;
    files(w)?;
    readme(w)?;
    if w.options.marketplace {
        marketplace(w)?;
    }
    Ok(())
}

/// `.factory-plugin/plugin.json`: the documented fields; components come
/// from the fixed folders only.
fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let mut manifest = w.metadata(false);
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(overrides);
    let others: Vec<&str> = w.plugin.claude_extra.keys().map(String::as_str).collect();
    if !others.is_empty() {
        let message = format!(
            "Claude Code manifest fields {} have no Factory Droid counterpart; not carried",
            others.join(", ")
        );
        w.warn(DiagnosticCode::DroppedField, Some(facts::MANIFEST_PATH), message);
    }
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), crate::templates::origin("factory-droid/plugin.json"))
}

/// `skills/<name>/SKILL.md`: Droid needs `name` and `description` in the
/// frontmatter (without them the skill loads disabled) and replaces the
/// plugin folder in the body.
fn skills(w: &mut Writer<'_>) -> Result<()> {
    for skill in &w.plugin.skills {
        let path = format!("{}/{}/SKILL.md", facts::SKILLS_DIR, skill.name);
        // Borrowed until a key changes: a frontmatter of thousands of keys
        // is not copied for every skill that keeps it as it is.
        let none = Map::new();
        let mut frontmatter = Cow::Borrowed(skill.document.frontmatter.as_ref().unwrap_or(&none));
        let mut notes = Vec::new();
        let mut changed = skill.document.frontmatter.is_none();
        let said = |map: &Map<String, Value>, key: &str| map.get(key).and_then(Value::as_str).is_some_and(|t| !t.trim().is_empty());
        let [_, description] = facts::SKILL_REQUIRED_KEYS;
        if !said(&frontmatter, description) {
            match frontmatter.get("when_to_use").and_then(Value::as_str).map(str::to_string) {
                Some(when) => {
                    frontmatter.to_mut().insert(description.into(), json!(when));
                    notes.push("when_to_use is its description too (Factory Droid needs a description)".to_string());
                }
                None => notes.push(
                    "no description in its frontmatter: Factory Droid loads such a skill disabled".to_string(),
                ),
            }
            changed = true;
        }
        if frontmatter.get("name").and_then(Value::as_str) != Some(skill.name.as_str()) {
            frontmatter.to_mut().insert("name".into(), json!(skill.name));
            changed = true;
        }
        if frontmatter.get("metadata").is_some_and(|m| !m.is_object()) {
            frontmatter.to_mut().shift_remove("metadata");
            notes.push("metadata is not a mapping, which makes Factory Droid load the skill disabled; dropped".into());
            changed = true;
        }
        notes.extend(variable_notes(&skill.document.body, Place::Replaced));
        let body = spell(&skill.document.body);
        if changed || body != skill.document.body {
            w.add(&path, yaml::frontmatter(&frontmatter, &body).into_bytes(), skill.main.file.origin.to_string())?;
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

/// The name Droid gives a command or droid file: its base name.
fn base_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// `commands/<path>.md`: Droid lists a command under its file's base name,
/// described by the file's first line when that is a `#` heading, and runs
/// the body with `$ARGUMENTS` replaced; it reads no frontmatter.
fn commands(w: &mut Writer<'_>) -> Result<()> {
    let mut taken: Vec<String> = Vec::new();
    for command in &w.plugin.commands {
        let name = base_name(&command.name).to_string();
        if taken.contains(&name) {
            let why = format!(
                "Factory Droid names a command by its file's base name, and another command is already /{name}; not written"
            );
            w.honest(Component::Command, &command.name, Level::Unsupported, why);
            continue;
        }
        taken.push(name.clone());
        let path = command.file.path.to_string();
        let (text, notes) = command_text(command);
        let listed = if heading(&text).is_some() {
            format!("/{name} ({path})")
        } else {
            format!("/{name} ({path}, listed as \"{}{name}\")", facts::COMMAND_FALLBACK_DESCRIPTION)
        };
        w.add(&path, text.into_bytes(), command.file.file.origin.to_string())?;
        w.honest(Component::Command, &command.name, level_of(&notes), detail(listed, &notes));
    }
    Ok(())
}

/// A command file as Droid reads it, and what that costs.
fn command_text(command: &MarkdownComponent) -> (String, Vec<String>) {
    let mut notes = Vec::new();
    let body = &command.document.body;
    let description = command.document.str_field("description").map(str::trim).filter(|d| !d.is_empty());
    let dropped: Vec<&str> = command
        .document
        .frontmatter
        .iter()
        .flatten()
        .map(|(key, _)| key.as_str())
        .filter(|key| *key != "description")
        .collect();
    if !dropped.is_empty() {
        notes.push(format!("Factory Droid reads no frontmatter in a command file; {} dropped", dropped.join(", ")));
    }
    if let Some(position) = positional(body) {
        notes.push(format!(
            "Factory Droid replaces only {} in a command; {position} stays as written",
            facts::COMMAND_ARGUMENTS
        ));
    }
    notes.extend(variable_notes(body, Place::AsWritten));
    let body = spell(body);
    // A line of its own above the body (which the reader takes off again),
    // unless the body already opens with that heading.
    let text = match description {
        Some(description) => {
            let line = description.lines().map(str::trim).collect::<Vec<_>>().join(" ");
            if line != description {
                notes.push("its description is written on one line, the heading Droid lists".to_string());
            }
            if heading(&body) == Some(line.as_str()) {
                body
            } else {
                format!("{} {line}\n\n{body}", facts::COMMAND_HEADING)
            }
        }
        None => body,
    };
    (text, notes)
}

/// The text of the `#` heading on the first line, as Droid's listing reads it.
fn heading(text: &str) -> Option<&str> {
    let first = text.lines().next()?;
    let rest = first.strip_prefix(facts::COMMAND_HEADING)?;
    Some(rest.trim_start().trim_end_matches('\r'))
}

/// The first positional placeholder (`$1`..`$9`) of a command body.
fn positional(body: &str) -> Option<String> {
    let bytes = body.as_bytes();
    bytes.windows(2).find(|pair| pair[0] == b'$' && pair[1].is_ascii_digit() && pair[1] != b'0').map(|pair| {
        String::from_utf8_lossy(pair).into_owned()
    })
}

/// `droids/<name>.md`: the agents, top level (Droid reads no sub-folder),
/// with the frontmatter Droid reads and its tool names.
fn droids(w: &mut Writer<'_>) -> Result<()> {
    let mut taken: Vec<String> = Vec::new();
    for agent in &w.plugin.agents {
        let name = base_name(&agent.name).to_string();
        if taken.contains(&name) {
            let why = format!("Factory Droid reads droids/ without sub-folders, and droids/{name}.md is taken; not written");
            w.honest(Component::Agent, &agent.name, Level::Unsupported, why);
            continue;
        }
        taken.push(name.clone());
        let source = agent.document.frontmatter.clone().unwrap_or_default();
        let (frontmatter, mut notes) = droid_frontmatter(&source, &name);
        notes.extend(variable_notes(&agent.document.body, Place::Replaced));
        let path = format!("{}/{name}.md", facts::DROIDS_DIR);
        let text = yaml::frontmatter(&frontmatter, &spell(&agent.document.body));
        w.add(&path, text.into_bytes(), agent.file.file.origin.to_string())?;
        w.honest(Component::Agent, &agent.name, level_of(&notes), detail(path, &notes));
    }
    Ok(())
}

/// A Claude Code agent's frontmatter as a droid's, and what it costs.
fn droid_frontmatter(source: &Map<String, Value>, name: &str) -> (Map<String, Value>, Vec<String>) {
    let mut out = Map::new();
    let mut notes = Vec::new();
    let mut dropped = Vec::new();
    out.insert("name".into(), json!(name));
    for (key, value) in source {
        match key.as_str() {
            "name" => {}
            "description" | "reasoningEffort" if value.is_string() => {
                out.insert(key.clone(), value.clone());
            }
            "model" => match value.as_str() {
                Some(model) if facts::CLAUDE_MODEL_ALIASES.contains(&model) => notes.push(format!(
                    "model {model} is a Claude Code alias, not a Factory Droid model id; left out, so the droid runs on \
                     the session's model ({})",
                    facts::INHERIT_MODEL
                )),
                Some(model) => {
                    out.insert(key.clone(), json!(model));
                }
                None => dropped.push(key.as_str()),
            },
            "tools" => {
                let tools = droid_tools(value);
                if tools.is_empty() {
                    dropped.push(key.as_str());
                } else {
                    out.insert("tools".into(), json!(tools));
                }
            }
            "mcpServers" if value.is_array() || value.is_string() => {
                out.insert(key.clone(), value.clone());
            }
            _ => dropped.push(key.as_str()),
        }
    }
    debug_assert!(out.keys().all(|k| facts::DROID_KEYS.contains(&k.as_str())), "only the keys Droid reads");
    if !dropped.is_empty() {
        notes.push(format!("Factory Droid's droids have no field for {}; dropped", dropped.join(", ")));
    }
    (out, notes)
}

/// A tool list (a comma-separated string or a list) in Droid's names.
fn droid_tools(value: &Value) -> Vec<String> {
    let names: Vec<String> = match value {
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        Value::String(text) => text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let droid = facts::TOOL_NAMES.iter().find(|(claude, _)| *claude == name).map_or(name.as_str(), |(_, d)| d);
        if !out.iter().any(|n| n == droid) {
            out.push(droid.to_string());
        }
    }
    out
}

/// A hook matcher with each alternative (`A|B`) that is a tool name of
/// `table`'s first column spelled as its second.
pub(crate) fn matcher_tools(matcher: &str, table: &[(&str, &str)]) -> String {
    matcher
        .split('|')
        .map(|part| table.iter().find(|(from, _)| *from == part).map_or(part, |(_, to)| to))
        .collect::<Vec<_>>()
        .join("|")
}

/// `hooks/hooks.json` in Claude Code's shape, kept to Droid's nine events
/// and to command handlers; matchers name Droid's tools.
fn hooks(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(source) = &plugin.hooks else { return Ok(()) };
    // Droid puts the install path in place of the variable, then a shell
    // reads the command: a quoted path stays one word (a space in HOME).
    // Its handler schema has no `args`: an exec-form handler becomes one line.
    let value = w.user_options_in_hooks(crate::shell::hooks_as_shell_lines(source.value.clone()));
    let mut kept = Map::new();
    for (event, groups) in value.get("hooks").and_then(Value::as_object).into_iter().flatten() {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let why = "Factory Droid's plugin loader keeps nine hook events and drops this one without a word; not written";
            w.honest(Component::Hook, event, Level::Unsupported, why);
            continue;
        }
        let mut out = Vec::new();
        let mut dropped = Vec::new();
        let mut notes = Vec::new();
        for group in groups.as_array().into_iter().flatten() {
            let mut group = group.clone();
            if let Some(Value::String(matcher)) = group.get_mut("matcher") {
                *matcher = matcher_tools(matcher, &facts::TOOL_NAMES);
            }
            if let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) {
                handlers.retain(|handler| {
                    let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
                    let runs = facts::HOOK_HANDLER_TYPES.iter().any(|(t, _)| *t == kind);
                    if !runs {
                        dropped.push(kind.to_string());
                    }
                    runs
                });
                for handler in handlers.iter_mut() {
                    for (key, field) in handler.as_object_mut().into_iter().flatten() {
                        let Value::String(text) = field else { continue };
                        let place = if key == "command" { Place::Replaced } else { Place::AsWritten };
                        notes.extend(variable_notes(text, place));
                        *text = spell(text);
                    }
                }
                if handlers.is_empty() {
                    continue;
                }
            }
            out.push(group);
        }
        for kind in &dropped {
            notes.push(format!("a {kind:?} handler: Factory Droid runs command hooks only; not written"));
        }
        notes.dedup();
        if out.is_empty() {
            w.honest(Component::Hook, event, Level::Unsupported, notes.join("; "));
            continue;
        }
        w.honest(Component::Hook, event, level_of(&notes), detail(facts::HOOKS_FILE, &notes));
        kept.insert(event.clone(), Value::Array(out));
    }
    if kept.is_empty() {
        return Ok(());
    }
    let mut document = Map::new();
    if let Some(description) = source.value.get("description") {
        document.insert("description".into(), description.clone());
    }
    document.insert("hooks".into(), Value::Object(kept));
    w.add_json(facts::HOOKS_FILE, &Value::Object(document), source.origin.to_string())
}

/// `mcp.json`: every server in the shape Droid's schema takes (one that
/// fails it would drop the whole file).
fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        match droid_server(server) {
            Err(why) => w.honest(Component::Mcp, name, Level::Unsupported, why),
            Ok((value, notes)) => {
                let variables = variable_notes(&server.to_string(), Place::AsWritten);
                if !variables.is_empty() {
                    let why = format!(
                        "{}; the server would get that text and not start from the installed plugin, so it is not \
                         written (a server started by a command on PATH, or `npx -y <package>`, needs no variable)",
                        variables.join("; ")
                    );
                    w.honest(Component::Mcp, name, Level::Unsupported, why);
                    continue;
                }
                w.honest(Component::Mcp, name, level_of(&notes), detail(facts::MCP_FILE, &notes));
                servers.insert(name.clone(), CLAUDE_VARS.json(crate::vars::canonical_json(value)));
            }
        }
    }
    if servers.is_empty() {
        return Ok(());
    }
    w.add_json(facts::MCP_FILE, &json!({"mcpServers": servers}), mcp.origin.to_string())
}

/// One server in Droid's schema, with notes, or why it cannot be one.
fn droid_server(server: &Value) -> std::result::Result<(Value, Vec<String>), String> {
    let Some(fields) = server.as_object() else { return Err("not an object; not written".into()) };
    let mut out = fields.clone();
    let mut notes = Vec::new();
    let transport = fields.get("type").and_then(Value::as_str);
    let has_url = fields.get("url").is_some_and(Value::is_string);
    match transport {
        None if has_url => {
            out.insert("type".into(), json!("http"));
            notes.push("a url without a type is written as type http (Factory Droid's schema needs the type)".into());
        }
        None | Some("stdio") => {
            if !fields.get("command").is_some_and(Value::is_string) {
                return Err("a stdio server without a command string: Factory Droid would drop the whole mcp.json; not written".into());
            }
        }
        Some("streamable-http") => {
            out.insert("type".into(), json!("http"));
        }
        Some(t) if facts::MCP_TRANSPORTS.contains(&t) => {
            if !has_url {
                return Err(format!("a {t} server without a url: Factory Droid would drop the whole mcp.json; not written"));
            }
        }
        Some(t) => {
            return Err(format!(
                "transport {t:?}: Factory Droid starts stdio, http and sse servers, and another type drops the whole mcp.json; not written"
            ));
        }
    }
    let all_strings = |key: &str, list: bool| {
        fields.get(key).is_none_or(|value| match value {
            Value::Array(items) if list => items.iter().all(Value::is_string),
            Value::Object(map) if !list => map.values().all(Value::is_string),
            _ => false,
        })
    };
    for (key, list) in [("args", true), ("env", false), ("headers", false)] {
        if !all_strings(key, list) {
            return Err(format!(
                "{key} holds something other than strings, which Factory Droid's schema refuses (dropping the whole mcp.json); not written"
            ));
        }
    }
    Ok((Value::Object(out), notes))
}

/// Output styles load from `output-styles/`; `bin/` and support files
/// travel; settings and a context file have no place in a Droid plugin.
fn files(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    for style in &plugin.output_styles {
        w.copy(style, None, None)?;
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Supported, style.path.to_string());
    }
    for file in &plugin.bin {
        w.copy(file, None, None)?;
        let how = format!("shipped at {}; Factory Droid puts no plugin bin/ on PATH", file.path);
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, how);
    }
    for file in &plugin.support {
        let path = file.path.as_str();
        if path == facts::ROOT_HOOKS_FILE && plugin.hooks.is_none() {
            let why = format!("{path} is not copied: Factory Droid would load it as the plugin's hooks");
            w.warn(DiagnosticCode::IgnoredFile, Some(path), why);
            continue;
        }
        w.copy(file, None, None)?;
    }
    if plugin.settings.is_some() {
        let why = "Factory Droid plugins have no settings file; not written";
        w.honest(Component::Settings, "settings.json", Level::Unsupported, why);
    }
    if let Some(context) = &plugin.context {
        let why = "Factory Droid plugins load no context file; move its guidance into a skill";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, why);
    }
    Ok(())
}

/// `{name, owner{name, email?}, plugins[{name, source, description?, version?}]}`
/// in `.factory-plugin/marketplace.json`, Claude Code's shape.
fn marketplace(w: &mut Writer<'_>) -> Result<()> {
    w.claude_shaped_marketplace_entry(facts::MARKETPLACE_PATH)
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
    let commands: Vec<Value> =
        w.written(Component::Command).iter().filter_map(Value::as_str).map(|n| json!(base_name(n))).collect();
    let ctx = json!({
        "plugin": {"name": config.name, "display_name": config.display_name, "version": config.version, "description": config.description},
        "namespace": w.plugin.namespace,
        "root": w.bundle.root,
        "up": w.output_root(),
        "marketplace": w.options.marketplace.then(|| w.marketplace_name()),
        "generator": w.options.generator,
        "manifest": w.bundle.manifest.file_name(),
        "skills": w.written(Component::Skill),
        "commands": commands,
        "droids": w.written(Component::Agent),
        "hooks": w.written(Component::Hook),
        "mcp_servers": w.written(Component::Mcp),
        "changes": changes,
    });
    let text = crate::templates::render_source("factory-droid/README.md.j2", TEMPLATE, &ctx);
    w.add("README.md", text.into_bytes(), crate::templates::origin("factory-droid/README.md.j2"))
}

#[cfg(test)]
mod tests;
