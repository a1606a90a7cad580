//! Kimi Code plugin: [`facts::MANIFEST_PATH`] naming its skill, command and
//! agent folders, the context file as `systemPromptPath`, MCP servers and
//! hooks inline, beside `skills/`, `commands/` and `agents/`. Every fact is
//! in `facts.rs` with the line of Kimi Code's source it was read from.
//!
//! Kimi substitutes no variable in a plugin: hook commands run from the
//! plugin folder with `KIMI_PLUGIN_ROOT` set, and stdio MCP servers run
//! bundled scripts as `./` paths from `cwd: "./"`; Markdown keeps Claude
//! Code's spelling, which Kimi does not expand (its rows say so). Its npm
//! client has no command that installs or lists a plugin outside its
//! interactive terminal, so bundles are judged by [`schema`], a check of
//! every file against the types and rules of its source.

pub(crate) mod facts;
mod read;
pub(crate) mod schema;

use serde_json::{Map, Value, json};

use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer, left_out};
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::model::MarkdownComponent;
use crate::report::{Component, Level};
use crate::vars::CLAUDE_VARS;

/// Kimi Code, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Kimi Code",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: true, manifest_fallbacks: &[facts::MANIFEST_DIR_PATH], check_manifest: None, check_plugin: None, layout: super::claude_code::lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: true, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: false, description: None, own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: None, manifest_folder: Some(facts::MANIFEST_DIR), runtime_only_fields: &facts::KIMI_ONLY_KEYS, read_field: None }),
    judge: super::Judge::Schemas { why: "Kimi Code's npm client installs and lists a plugin only inside its interactive terminal, whose plugin listing leaves out commands, agents and hooks", test: "cli/tests/schema_judges.rs", check: Some(schema::check) },
    rules: &[],
    subject: "Kimi Code",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true)],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: Some(&[]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[]),
        unexpanded: "Kimi Code substitutes no variable",
    },
};

/// A plugin folder, installed with `/plugins install` (no marketplace file
/// of a fixed name: Kimi reads a marketplace from any path or URL).
pub const KINDS: &[Kind] =
    &[Kind { name: ArtifactKind::Plugin, layout: Layout::Folder, scopes: BOTH_SCOPES, marketplace: None, shared: &[] }];

const PLUGIN_ROOT: &str = crate::canonical::PLUGIN_ROOT;
const PLUGIN_DATA: &str = crate::canonical::PLUGIN_DATA;
const UNEXPANDED: &str = "Kimi Code expands no plugin-folder variable in Markdown; it stays as ${CLAUDE_PLUGIN_ROOT}";

/// Writes every component of `w.plugin` the way Kimi Code reads it, with one
/// honesty row per component instance (supported, degraded or left out).
pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let mut manifest = manifest(w)?;
    for skill in &plugin.skills {
        w.copy(&skill.main, None, Some(CLAUDE_VARS))?;
        for file in &skill.files {
            w.copy(file, None, None)?;
        }
        let text = skill.main.file.text().unwrap_or_default();
        let (level, detail) = markdown_level(format!("skills/{}/SKILL.md, /skill:{}", skill.name, skill.name), text);
        w.honest(Component::Skill, &skill.name, level, detail);
    }
    if !plugin.skills.is_empty() {
        manifest.insert("skills".into(), json!(facts::SKILLS_FIELD));
    }
    for command in &plugin.commands {
        command_file(w, command)?;
    }
    if !plugin.commands.is_empty() {
        manifest.insert("commands".into(), json!(facts::COMMANDS_FIELD));
    }
    let mut agents = false;
    for agent in &plugin.agents {
        agents |= agent_file(w, agent)?;
    }
    if agents {
        manifest.insert("agents".into(), json!(facts::AGENTS_FIELD));
    }
    context(w, &mut manifest)?;
    mcp(w, &mut manifest);
    hooks(w, &mut manifest);
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(overrides);
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), crate::templates::origin("kimi-code/kimi.plugin.json"))?;
    let withheld = [(
        facts::MANIFEST_DIR_PATH,
        format!("{} is not copied: Kimi Code reads {} instead", facts::MANIFEST_DIR_PATH, facts::MANIFEST_PATH),
    )];
    w.plain_files("Kimi Code", &withheld)?;
    readme(w)
}

/// Whether Kimi Code accepts `name` as a plugin name (see [`facts::NAME_MAX`]).
pub fn is_plugin_name(name: &str) -> bool {
    let ok = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !name.is_empty()
        && name.len() <= facts::NAME_MAX
        && name.bytes().next().is_some_and(ok)
        && name.bytes().all(|b| ok(b) || b == b'_' || b == b'-')
}

/// The manifest's metadata, in Kimi's fields.
fn manifest(w: &mut Writer<'_>) -> Result<Map<String, Value>> {
    let plugin = w.plugin;
    let file = plugin.metadata_file.to_string();
    if !is_plugin_name(&plugin.namespace) {
        let message = format!(
            "plugin name {:?} does not match Kimi Code's ^[a-z0-9][a-z0-9_-]{{0,63}}$: choose another --namespace",
            plugin.namespace
        );
        return Err(Error::at(ErrorCode::InvalidSource, Location::file(file.as_str()), message));
    }
    let config = &plugin.config;
    let mut manifest = w.metadata(false);
    manifest.remove("repository");
    if let Some(Value::Object(author)) = manifest.get_mut("author") {
        if author.remove("url").is_some() {
            let message = "author.url dropped: Kimi Code's author holds a name and an email";
            w.warn(DiagnosticCode::DroppedField, Some(&file), message);
        }
        author.retain(|key, _| facts::AUTHOR_KEYS.contains(&key.as_str()));
    }
    if config.repository.is_some() {
        let message = "repository dropped: Kimi Code's manifest has no such field";
        w.warn(DiagnosticCode::DroppedField, Some(&file), message);
    }
    if let Some(display) = &config.display_name {
        manifest.insert("interface".into(), json!({"displayName": display}));
    }
    Ok(manifest)
}

/// Why a Markdown component's text reads differently in Kimi.
fn markdown_level(location: String, text: &str) -> (Level, String) {
    if text.contains(PLUGIN_ROOT) || text.contains(PLUGIN_DATA) {
        (Level::Degraded, format!("{location}; {UNEXPANDED}"))
    } else {
        (Level::Supported, location)
    }
}

/// Commands, sub-folders included: `/<plugin>:<path>`.
fn command_file(w: &mut Writer<'_>, command: &MarkdownComponent) -> Result<()> {
    w.copy(&command.file, None, Some(CLAUDE_VARS))?;
    let text = command.file.file.text().unwrap_or_default();
    let name = command.file.path.as_str().trim_start_matches("commands/").trim_end_matches(".md");
    let (mut level, mut detail) = markdown_level(format!("{}, /{}:{name}", command.file.path, w.plugin.namespace), text);
    if (1..=9).any(|n| text.contains(&format!("${n}"))) {
        level = Level::Degraded;
        detail.push_str("; Kimi Code replaces $ARGUMENTS only, not $1..$9");
    }
    w.honest(Component::Command, &command.name, level, detail);
    Ok(())
}

/// Agents need a kebab-case `name` and a `description`; Kimi skips others.
fn agent_file(w: &mut Writer<'_>, agent: &MarkdownComponent) -> Result<bool> {
    let document = &agent.document;
    // The file as written, not the model's reading (which may derive a description).
    let written = agent.file.file.text().and_then(|text| crate::source::parse_document(agent.file.path.as_str(), text).ok());
    if written.as_ref().and_then(|d| d.str_field("description")).is_none() {
        let detail = "Kimi Code skips an agent without a description; not written";
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(false);
    }
    let name = written.as_ref().and_then(|d| d.str_field("name")).unwrap_or(&agent.name);
    if !crate::source::is_kebab(name) {
        let detail = format!("name {name:?} is not kebab-case, so Kimi Code skips the agent; not written");
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(false);
    }
    w.copy(&agent.file, None, Some(CLAUDE_VARS))?;
    let (level, detail) = markdown_level(agent.file.path.to_string(), &document.body);
    w.honest(Component::Agent, &agent.name, level, detail);
    Ok(true)
}

/// The context file as `systemPromptPath`, up to Kimi's 32 KB.
fn context(w: &mut Writer<'_>, manifest: &mut Map<String, Value>) -> Result<()> {
    let Some(context) = &w.plugin.context else { return Ok(()) };
    let size = context.file.bytes.len();
    if size > facts::SYSTEM_PROMPT_MAX_BYTES {
        let detail = format!(
            "{size} bytes: Kimi Code ignores a systemPromptPath file over {} bytes; not written",
            facts::SYSTEM_PROMPT_MAX_BYTES
        );
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
        return Ok(());
    }
    w.copy(context, None, Some(CLAUDE_VARS))?;
    manifest.insert("systemPromptPath".into(), json!(format!("./{}", context.path)));
    let location = format!(
        "{} as systemPromptPath, added to the system prompt (all plugins share 64 KB)",
        context.path
    );
    let (level, detail) = markdown_level(location, context.file.text().unwrap_or_default());
    w.honest(Component::Context, context.path.as_str(), level, detail);
    Ok(())
}

/// A path below the plugin folder as Kimi runs it from `cwd: "./"`.
fn local(text: &str) -> String {
    match text.strip_prefix(PLUGIN_ROOT) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!(".{rest}"),
        _ => text.to_string(),
    }
}

/// MCP servers inline, in Kimi's `transport` dialect.
fn mcp(w: &mut Writer<'_>, manifest: &mut Map<String, Value>) {
    let Some(mcp) = &w.plugin.mcp else { return };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        match server_for_kimi(server) {
            Ok((server, notes)) => {
                let level = if notes.is_empty() { Level::Supported } else { Level::Degraded };
                let detail: Vec<String> = std::iter::once(format!("{} mcpServers", facts::MANIFEST_PATH)).chain(notes).collect();
                w.honest(Component::Mcp, name, level, detail.join("; "));
                servers.insert(name.clone(), server);
            }
            Err(why) => w.honest(Component::Mcp, name, Level::Unsupported, format!("{why}; not written")),
        }
    }
    if !servers.is_empty() {
        manifest.insert("mcpServers".into(), Value::Object(servers));
    }
}

/// One canonical server as Kimi reads it, with what differs, or why it cannot be.
fn server_for_kimi(server: &Value) -> std::result::Result<(Value, Vec<String>), String> {
    let kind = server.get("type").and_then(Value::as_str);
    let mut out = Map::new();
    let mut notes = Vec::new();
    if let Some(command) = server.get("command").and_then(Value::as_str) {
        if kind.is_some_and(|k| k != "stdio") {
            return Err(format!("transport {kind:?} with a command: Kimi Code reads stdio, http and sse"));
        }
        let command = local(command);
        if command.starts_with('/') || (command.contains('/') && !command.starts_with("./")) {
            return Err(format!("command {command:?}: Kimi Code runs a PATH command or a ./ path only"));
        }
        out.insert("transport".into(), json!("stdio"));
        out.insert("command".into(), json!(command));
        let mut cwd = command.starts_with("./");
        if let Some(args) = server.get("args").and_then(Value::as_array) {
            let args: Vec<Value> = args
                .iter()
                .map(|a| match a.as_str() {
                    Some(text) if local(text) != text => {
                        cwd = true;
                        json!(local(text))
                    }
                    _ => a.clone(),
                })
                .collect();
            out.insert("args".into(), Value::Array(args));
        }
        if let Some(env) = server.get("env") {
            out.insert("env".into(), env.clone());
        }
        if cwd {
            out.insert("cwd".into(), json!(facts::MCP_CWD));
        }
    } else if let Some(url) = server.get("url").and_then(Value::as_str) {
        if !is_url(url) {
            return Err(format!("url {url:?} is not one Kimi Code accepts (it must parse as a URL)"));
        }
        let transport = match kind {
            None | Some("http" | "streamable-http") => "http",
            Some("sse") => "sse",
            Some(other) => return Err(format!("transport {other:?}: Kimi Code reads stdio, http and sse")),
        };
        out.insert("transport".into(), json!(transport));
        out.insert("url".into(), json!(url));
        if let Some(headers) = server.get("headers") {
            if headers.to_string().contains("${") {
                notes.push("Kimi Code substitutes no ${VAR} in headers: they are sent as written".to_string());
            }
            out.insert("headers".into(), headers.clone());
        }
    } else {
        return Err("neither a command nor a url".to_string());
    }
    let value = Value::Object(out);
    let text = value.to_string();
    if text.contains(PLUGIN_ROOT) || text.contains(PLUGIN_DATA) {
        return Err("a plugin-folder variable Kimi Code cannot place (it substitutes none)".to_string());
    }
    Ok((value, notes))
}

/// `scheme://rest`, what `z.string().url()` accepts of a plugin's URLs.
pub(crate) fn is_url(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, rest)| {
        !rest.is_empty()
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// Hooks flattened to `{event, matcher?, command, timeout?}`.
fn hooks(w: &mut Writer<'_>, manifest: &mut Map<String, Value>) {
    let plugin = w.plugin;
    let Some(hooks) = &plugin.hooks else { return };
    let mut out = Vec::new();
    let shell_lines = w.user_options_in_hooks(crate::shell::exec_form_as_shell_line(hooks.value.clone()));
    let events = shell_lines.get("hooks").and_then(Value::as_object).cloned().unwrap_or_default();
    for (event, groups) in &events {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let detail = "Kimi Code has no such event and drops the hook with a warning; not written";
            w.honest(Component::Hook, event, Level::Unsupported, detail);
            continue;
        }
        if groups.as_array().is_none_or(|g| g.is_empty()) {
            // No handler: nothing to write or leave out.
            continue;
        }
        let mut notes = Vec::new();
        let mut written = 0;
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group.get("matcher").and_then(Value::as_str).filter(|m| !m.is_empty() && *m != "*");
            for handler in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
                match hook_entry(event, matcher, handler) {
                    Ok((entry, note)) => {
                        out.push(entry);
                        written += 1;
                        notes.extend(note);
                    }
                    Err(why) => notes.push(why),
                }
            }
        }
        notes.dedup();
        let level = match (written, notes.is_empty()) {
            (0, _) => Level::Unsupported,
            (_, true) => Level::Supported,
            _ => Level::Degraded,
        };
        let detail: Vec<String> = std::iter::once(format!("{} hooks, run from the plugin folder", facts::MANIFEST_PATH)).chain(notes).collect();
        w.honest(Component::Hook, event, level, detail.join("; "));
    }
    if !out.is_empty() {
        manifest.insert("hooks".into(), Value::Array(out));
    }
}

fn hook_entry(event: &str, matcher: Option<&str>, handler: &Value) -> std::result::Result<(Value, Option<String>), String> {
    let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
    if kind != "command" || handler.get("args").is_some() {
        return Err(format!("a {kind} handler left out: Kimi Code runs command strings only"));
    }
    let command = handler.get("command").and_then(Value::as_str).ok_or("a handler without a command left out")?;
    if command.contains(PLUGIN_DATA) {
        return Err("a handler using ${PLUGIN_DATA} left out: Kimi Code gives plugins no data folder".to_string());
    }
    let command = command.replace(PLUGIN_ROOT, facts::PLUGIN_ROOT);
    let command = crate::shell::quote_variables(&command, &[facts::PLUGIN_ROOT_VAR]).unwrap_or(command);
    let mut entry = Map::new();
    entry.insert("event".into(), json!(event));
    if let Some(matcher) = matcher {
        entry.insert("matcher".into(), json!(matcher));
    }
    entry.insert("command".into(), json!(command));
    let mut note = None;
    match handler.get("timeout") {
        None => {}
        Some(t) if t.as_u64().is_some_and(|t| (1..=facts::HOOK_TIMEOUT_MAX).contains(&t)) => {
            entry.insert("timeout".into(), t.clone());
        }
        Some(t) => {
            entry.insert("timeout".into(), json!(facts::HOOK_TIMEOUT_MAX));
            note = Some(format!("timeout {t} became {} s, Kimi Code's most", facts::HOOK_TIMEOUT_MAX));
        }
    }
    Ok((Value::Object(entry), note))
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
        "generator": w.options.generator,
        "manifest": w.bundle.manifest.file_name(),
        "skills": w.written(Component::Skill),
        "commands": w.written(Component::Command),
        "agents": w.written(Component::Agent),
        "hooks": w.written(Component::Hook),
        "mcp_servers": w.written(Component::Mcp),
        "left_out": left_out(&w.bundle.honesty),
    });
    let text = crate::templates::render_source("kimi-code/README.md.j2", TEMPLATE, &ctx);
    w.add("README.md", text.into_bytes(), crate::templates::origin("kimi-code/README.md.j2"))
}

#[cfg(test)]
mod tests;
