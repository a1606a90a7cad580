//! Agent Plugins 1.0: the closed root `plugin.json`, `skills/<name>/SKILL.md`
//! one level deep in strict Agent Skills form, and `mcp.json` in the spec's
//! dialect. The format has exactly two component types (skills and MCP
//! servers), so every other component is reported unsupported.
//! Facts: formats.md section 5; `spec/1.0.0.md` and `schemas/1.0.0/` of
//! agentplugins/agent-plugins-spec.

pub(crate) mod facts;
pub(crate) mod lint;
pub(crate) mod read;
mod judge;
mod mcp_rules;

use serde_json::{Map, Value, json};

use super::skill_fold::{SkillPolicy, Strictness, write_skill};
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer, left_out};
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::model::{FileComponent, MarkdownComponent};
use crate::report::Level;
use crate::templates;
use crate::report::Component;
use facts::{
    AUTHOR_KEYS, MANIFEST_KEYS, MANIFEST_PATH, MCP_PATH, MCP_SCHEMA, NAME_LIMIT, PLACEHOLDERS, PLUGIN_SCHEMA,
    RESERVED_ENV,
};

/// The spec makes both `$schema` constants required; they are the only URLs
/// this writer adds on its own.
pub const REQUIRED_URLS: &[&str] = &[PLUGIN_SCHEMA, MCP_SCHEMA];

const STRING_KEYS: [&str; 5] = ["version", "description", "homepage", "repository", "license"];
const NOT_A_COMPONENT: &str = "Agent Plugins 1.0 has two component types, skills and MCP servers";

/// The Agent Skills reference validator, the judge of every skill an
/// Agent Plugins client loads (Codex judges the plugin itself).
pub(crate) const SKILLS_REF: super::Client = super::Client {
    id: "skills-ref",
    name: "skills-ref",
    commands: &["skills-ref"],
    quiet: &[],
    package: "skills-ref",
    version: "0.1.5",
    binary: "node_modules/.bin/skills-ref",
    extra_packages: &[],
    load: &[],
    list: &["skills-ref validate DIR/skills/NAME"],
    driver: "core/src/runtime/agent_plugins/drivers/skills_ref_validate.py",
    typical_seconds: 2,
    launch: super::Launch::AsInstalled,
};

/// The reference validator on every skill of a package.
const SKILLS_REF_CHECK: super::Check = super::Check {
    client: &SKILLS_REF,
    kinds: &[ArtifactKind::Plugin],
    driver: "core/src/runtime/agent_plugins/drivers/skills_ref_validate.py",
    args: &["--skills-ref", "BIN", "--missing-ok", "DIR/skills"],
    read: judge::read_skills,
};

/// Agent Plugins, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Agent Plugins",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: REQUIRED_URLS,
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: true, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: true },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: None },
    hook_trust: None,
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: None, manifest_folder: None, runtime_only_fields: &[], read_field: None }),
    judge: super::Judge::Clients(&[SKILLS_REF_CHECK, super::codex::PACKAGE_CHECK]),
    rules: &[],
    subject: "an Agent Plugins client",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true), (facts::PLUGIN_DATA_VAR, false)],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: Some(&["mcp.json"]),
        misplaced: Some((
            facts::MANIFEST_PATH,
            "`mcpServers` inline in plugin.json: Agent Plugins reads servers only from mcp.json",
        )),
        read_file: Some(mcp_rules::read_file),
        server: Some((mcp_rules::server, false)),
        expands: Some(&facts::RESERVED_ENV),
        unexpanded: "an Agent Plugins client leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] =
    &[Kind { name: ArtifactKind::Plugin, layout: Layout::Folder, scopes: BOTH_SCOPES, marketplace: None, shared: &[] }];

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    manifest(w)?;
    let policy = SkillPolicy {
        strictness: Strictness::AgentSkills,
        translate: &|_| None,
        caveat: &unexpanded_in_skill,
    };
    for skill in &plugin.skills {
        write_skill(w, skill, &format!("skills/{}", skill.name), &policy)?;
    }
    mcp(w)?;
    not_carried(w);
    for file in &plugin.bin {
        w.copy(file, None, None)?;
        let detail = format!(
            "shipped at {0}, but clients put nothing on PATH: name it ./{0} as an mcp.json command",
            file.path
        );
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
    }
    for file in plugin.support.iter().filter(|f| !generated_here(f)) {
        w.copy(file, None, None)?;
    }
    readme(w)
}

/// A support file at a path the bundle generates is left out, with a warning.
fn generated_here(file: &FileComponent) -> bool {
    [MANIFEST_PATH, MCP_PATH].contains(&file.path.as_str())
}

fn unexpanded_in_skill(text: &str) -> Option<String> {
    let used: Vec<&str> = PLACEHOLDERS.iter().copied().filter(|p| text.contains(p)).collect();
    (!used.is_empty())
        .then(|| format!("mentions {}, which clients expand only in mcp.json", used.join(" and ")))
}

fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let file = plugin.metadata_file.to_string();
    check_name(&plugin.namespace, &file)?;
    let mut manifest = Map::new();
    manifest.insert("$schema".into(), json!(PLUGIN_SCHEMA));
    manifest.extend(w.metadata(false));
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (key, value) in overrides {
        check_field(&key, &value).map_err(|why| {
            let message = format!("targets.agent-plugins.manifest.{key}: {why}");
            Error::at(ErrorCode::InvalidSource, Location::file(file.as_str()), message)
        })?;
        manifest.insert(key, value);
    }
    warn_claude_fields(w, &file);
    for path in w.plugin.support.iter().filter(|f| generated_here(f)).map(|f| f.path.to_string()) {
        let message = format!("{path} is not copied: the Agent Plugins bundle generates its own");
        w.warn(DiagnosticCode::IgnoredFile, Some(&path), message);
    }
    w.add_json(MANIFEST_PATH, &Value::Object(manifest), templates::origin("agent-plugins/plugin.json"))
}

fn warn_claude_fields(w: &mut Writer<'_>, file: &str) {
    if w.plugin.claude_extra.is_empty() {
        return;
    }
    let keys: Vec<&str> = w.plugin.claude_extra.keys().map(String::as_str).collect();
    let message = format!(
        "Claude Code manifest fields {} have no Agent Plugins counterpart; not carried",
        keys.join(", ")
    );
    w.warn(DiagnosticCode::DroppedField, Some(file), message);
}

/// The spec's name rule (5.5): a bad name makes clients reject the plugin.
fn check_name(name: &str, file: &str) -> Result<()> {
    if is_plugin_name(name) {
        return Ok(());
    }
    Err(Error::at(
        ErrorCode::InvalidSource,
        Location::file(file),
        format!(
            "plugin name {name:?} is not an Agent Plugins name (1-{NAME_LIMIT} characters of a-z, 0-9, '-' \
             and '.', alphanumeric at both ends, no '--' or '..'); clients would reject the whole plugin: \
             choose another --namespace"
        ),
    ))
}

/// `^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`, at most 64 characters.
pub fn is_plugin_name(name: &str) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    (1..=NAME_LIMIT).contains(&name.len())
        && name.chars().all(|c| alnum(c) || c == '-' || c == '.')
        && name.starts_with(alnum)
        && name.ends_with(alnum)
        && !name.contains("--")
        && !name.contains("..")
}

/// Checks a manifest override against the closed schema; `Err` says why.
fn check_field(key: &str, value: &Value) -> std::result::Result<(), String> {
    let strings = |v: &Value| v.as_array().is_some_and(|items| items.iter().all(Value::is_string));
    match key {
        "$schema" if value == PLUGIN_SCHEMA => Ok(()),
        "$schema" => Err(format!("must be {PLUGIN_SCHEMA}")),
        "name" => Err("set the name with namespace (or --namespace) instead".into()),
        _ if STRING_KEYS.contains(&key) && value.is_string() => Ok(()),
        _ if STRING_KEYS.contains(&key) => Err("must be a string".into()),
        "keywords" if strings(value) => Ok(()),
        "keywords" => Err("must be a list of strings".into()),
        "author" => match value.as_object() {
            Some(author)
                if author.iter().all(|(k, v)| AUTHOR_KEYS.contains(&k.as_str()) && v.is_string()) =>
            {
                Ok(())
            }
            _ => Err("must be an object of name, email and url strings only".into()),
        },
        "extensions" if value.as_object().is_some_and(|m| m.values().all(Value::is_object)) => Ok(()),
        "extensions" => Err("must map namespaces to objects".into()),
        _ => {
            Err(format!("not an Agent Plugins field; plugin.json is closed to {}", MANIFEST_KEYS.join(", ")))
        }
    }
}

/// Every component the format has no place for: one row each.
fn not_carried(w: &mut Writer<'_>) {
    let plugin = w.plugin;
    let each = |w: &mut Writer<'_>, component: Component, items: &[MarkdownComponent]| {
        for item in items {
            w.honest(component, &item.name, Level::Unsupported, format!("{NOT_A_COMPONENT}; not carried"));
        }
    };
    each(w, Component::Command, &plugin.commands);
    each(w, Component::Agent, &plugin.agents);
    let events: Vec<String> = plugin
        .hooks
        .as_ref()
        .and_then(|h| h.value.get("hooks")?.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default();
    for event in events {
        w.honest(Component::Hook, &event, Level::Unsupported, format!("{NOT_A_COMPONENT}; hooks are not carried"));
    }
    if plugin.settings.is_some() {
        w.honest(Component::Settings, "settings.json", Level::Unsupported, format!("{NOT_A_COMPONENT}; not carried"));
    }
    for style in &plugin.output_styles {
        w.honest(
            Component::OutputStyle,
            style.path.as_str(),
            Level::Unsupported,
            format!("{NOT_A_COMPONENT}; not carried"),
        );
    }
    if let Some(context) = &plugin.context {
        let detail =
            format!("{NOT_A_COMPONENT}; a context file is not carried (move its guidance into a skill)");
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
}

fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, server) in &mcp.servers {
        match translate_server(server) {
            Ok(translated) => {
                let level = if translated.lost.is_empty() { Level::Supported } else { Level::Degraded };
                let detail: Vec<String> = std::iter::once(MCP_PATH.to_string())
                    .chain(translated.changes)
                    .chain(translated.lost)
                    .collect();
                w.honest(Component::Mcp, name, level, detail.join("; "));
                servers.insert(name.clone(), translated.value);
            }
            Err(why) => w.honest(Component::Mcp, name, Level::Unsupported, format!("{why}; not written")),
        }
    }
    let document = json!({"$schema": MCP_SCHEMA, "mcpServers": servers});
    w.add_json(MCP_PATH, &document, mcp.origin.to_string())
}

/// A server in the spec's closed dialect, with what changed or was lost.
#[derive(Debug, PartialEq)]
struct Server {
    value: Value,
    changes: Vec<String>,
    lost: Vec<String>,
}

/// Claude's `.mcp.json` server -> a spec server, or why it has no spec form.
fn translate_server(server: &Value) -> std::result::Result<Server, String> {
    let Some(object) = server.as_object() else { return Err("the server is not a JSON object".into()) };
    let transport = object.get("type").and_then(Value::as_str);
    match transport {
        None | Some("stdio") if object.contains_key("command") => stdio(object),
        None | Some("http" | "streamable-http") if object.contains_key("url") => {
            remote(object, "streamable-http")
        }
        Some("sse") => remote(object, "sse"),
        Some(other) => {
            Err(format!("transport {other:?} has no Agent Plugins form (stdio, streamable-http, sse)"))
        }
        None => Err("neither a command nor a url".into()),
    }
}

fn stdio(object: &Map<String, Value>) -> std::result::Result<Server, String> {
    let mut changes = Vec::new();
    let mut lost = Vec::new();
    let mut value = Map::new();
    value.insert("type".into(), json!("stdio"));
    let command = object.get("command").and_then(Value::as_str).ok_or("command is not a string")?;
    let token = executable(command)?;
    if token != command {
        changes.push(format!("command {command} written as {token}"));
    }
    value.insert("command".into(), json!(token));
    if let Some(args) = object.get("args") {
        if !args.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            return Err("args is not a list of strings".into());
        }
        value.insert("args".into(), args.clone());
    }
    if let Some(env) = object.get("env") {
        let env = env.as_object().ok_or("env is not an object")?;
        let (kept, dropped): (Map<String, Value>, Map<String, Value>) =
            env.clone().into_iter().partition(|(k, v)| !RESERVED_ENV.contains(&k.as_str()) && v.is_string());
        if !dropped.is_empty() {
            let names: Vec<&str> = dropped.keys().map(String::as_str).collect();
            let why = "clients set PLUGIN_ROOT and PLUGIN_DATA themselves; values must be strings";
            lost.push(format!("env {} dropped ({why})", names.join(", ")));
        }
        if !kept.is_empty() {
            value.insert("env".into(), Value::Object(kept));
        }
    }
    if let Some(cwd) = object.get("cwd") {
        let cwd = cwd.as_str().ok_or("cwd is not a string")?;
        let contained = contained_cwd(cwd)?;
        if contained != cwd {
            changes.push(format!("cwd {cwd} written as {contained}"));
        }
        value.insert("cwd".into(), json!(contained));
    }
    let expanded = value.iter().filter(|(k, _)| *k != "command").map(|(_, v)| v);
    lost.extend(literal_placeholders(
        expanded,
        &PLACEHOLDERS,
        "clients expand only ${PLUGIN_ROOT} and ${PLUGIN_DATA} in args, env and cwd",
    ));
    lost.extend(dropped_keys(object, &["type", "command", "args", "env", "cwd"]));
    Ok(Server { value: Value::Object(value), changes, lost })
}

/// A single executable token: a bare name, or a `./` path in the plugin.
fn executable(command: &str) -> std::result::Result<String, String> {
    if command.chars().any(char::is_whitespace) {
        return Err(format!("command {command:?} is not one executable token"));
    }
    if let Some(rest) = command.strip_prefix("${PLUGIN_ROOT}/") {
        if !rest.is_empty() && !rest.contains("${") && !rest.split('/').any(|s| s == "..") {
            return Ok(format!("./{rest}"));
        }
    }
    let bare = !command.contains('/') && !command.contains("${");
    let relative =
        command.starts_with("./") && !command.contains("${") && !command.split('/').any(|s| s == "..");
    if bare || relative {
        Ok(command.to_string())
    } else {
        Err(format!(
            "command {command:?} is neither a bare name nor a ./ path inside the plugin (clients expand no \
             placeholder in command)"
        ))
    }
}

/// `cwd` as the spec wants it: `./...`, `${PLUGIN_ROOT}[/...]` or `${PLUGIN_DATA}[/...]`.
fn contained_cwd(cwd: &str) -> std::result::Result<String, String> {
    let rooted = |p: &str| cwd == p || cwd.starts_with(&format!("{p}/"));
    if cwd.split('/').any(|s| s == "..") {
        return Err(format!("cwd {cwd:?} leaves the plugin"));
    }
    if cwd.starts_with("./") || PLACEHOLDERS.iter().any(|p| rooted(p)) {
        return Ok(cwd.to_string());
    }
    if cwd.starts_with('/') || cwd.contains("${") || cwd.is_empty() {
        return Err(format!("cwd {cwd:?} is not inside the plugin or its data folder"));
    }
    Ok(format!("./{cwd}"))
}

fn remote(object: &Map<String, Value>, transport: &str) -> std::result::Result<Server, String> {
    let url = object.get("url").and_then(Value::as_str).ok_or("url is not a string")?;
    check_url(url)?;
    let mut server =
        Server { value: json!({"type": transport, "url": url}), changes: Vec::new(), lost: Vec::new() };
    if object.get("type").and_then(Value::as_str) == Some("http") {
        server.changes.push("type http written as streamable-http".into());
    }
    if let Some(headers) = object.get("headers") {
        if !headers.as_object().is_some_and(|h| h.values().all(Value::is_string)) {
            return Err("headers is not an object of strings".into());
        }
        server.value.as_object_mut().expect("an object").insert("headers".into(), headers.clone());
    }
    let literal = literal_placeholders(
        server.value.as_object().expect("an object").values(),
        &[],
        "clients expand nothing in url or headers",
    );
    server.lost.extend(literal);
    server.lost.extend(dropped_keys(object, &["type", "url", "headers"]));
    Ok(server)
}

/// Absolute http(s), no user info or fragment, https unless loopback (spec 7.2.1).
fn check_url(url: &str) -> std::result::Result<(), String> {
    let (scheme, rest) = url.split_once("://").ok_or_else(|| format!("url {url:?} is not absolute"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(h, port)| if port.chars().all(|c| c.is_ascii_digit()) { h } else { authority });
    let loopback = host == "localhost" || host.starts_with("127.") || host == "[::1]";
    if authority.contains('@') || url.contains('#') || authority.is_empty() {
        return Err(format!("url {url:?} carries user info or a fragment, or has no host"));
    }
    match scheme {
        "https" => Ok(()),
        "http" if loopback => Ok(()),
        _ => Err(format!("url {url:?} must be https (http only for loopback hosts)")),
    }
}

/// `${VAR}` texts a client leaves as they are: all but `expanded`.
fn literal_placeholders<'v>(
    values: impl Iterator<Item = &'v Value>,
    expanded: &[&str],
    why: &str,
) -> Option<String> {
    let mut found: Vec<String> = Vec::new();
    for value in values {
        collect_placeholders(value, &mut found);
    }
    found.retain(|p| !expanded.contains(&p.as_str()));
    found.sort();
    found.dedup();
    (!found.is_empty()).then(|| format!("{} stays literal ({why})", found.join(", ")))
}

fn collect_placeholders(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::String(text) => {
            let mut rest = text.as_str();
            while let Some(start) = rest.find("${") {
                let Some(end) = rest[start..].find('}') else { break };
                found.push(rest[start..start + end + 1].to_string());
                rest = &rest[start + end + 1..];
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_placeholders(v, found)),
        Value::Object(map) => map.values().for_each(|v| collect_placeholders(v, found)),
        _ => {}
    }
}

fn dropped_keys(object: &Map<String, Value>, kept: &[&str]) -> Option<String> {
    let dropped: Vec<&str> = object.keys().map(String::as_str).filter(|k| !kept.contains(k)).collect();
    (!dropped.is_empty()).then(|| format!("dropped {} (no Agent Plugins field)", dropped.join(", ")))
}

fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(None)? {
        return Ok(());
    }
    let fields = json!({
        "skills": w.written(Component::Skill),
        "mcp_servers": w.written(Component::Mcp),
        "left_out": left_out(&w.bundle.honesty),
    });
    w.render_readme("agent-plugins", fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(value: Value) -> Server {
        translate_server(&value).unwrap()
    }

    #[test]
    fn a_plugin_root_command_becomes_a_relative_token_and_args_keep_the_placeholder() {
        let s = server(
            json!({"command": "${PLUGIN_ROOT}/bin/deployer", "args": ["--root", "${PLUGIN_ROOT}"], "timeout": 5}),
        );
        assert_eq!(
            s.value,
            json!({"type": "stdio", "command": "./bin/deployer", "args": ["--root", "${PLUGIN_ROOT}"]})
        );
        assert_eq!(s.changes, ["command ${PLUGIN_ROOT}/bin/deployer written as ./bin/deployer"]);
        assert_eq!(s.lost, ["dropped timeout (no Agent Plugins field)"]);
        assert_eq!(
            serde_json::to_string(&s.value).unwrap(),
            r#"{"type":"stdio","command":"./bin/deployer","args":["--root","${PLUGIN_ROOT}"]}"#
        );
    }

    #[test]
    fn reserved_env_names_are_dropped_and_cwd_is_contained() {
        let s = server(json!({"type": "stdio", "command": "npx", "cwd": "data",
            "env": {"PLUGIN_ROOT": "/x", "TOKEN": "${API_TOKEN}"}}));
        assert_eq!(
            s.value,
            json!({"type": "stdio", "command": "npx", "env": {"TOKEN": "${API_TOKEN}"}, "cwd": "./data"})
        );
        assert_eq!(
            s.lost,
            [
                "env PLUGIN_ROOT dropped (clients set PLUGIN_ROOT and PLUGIN_DATA themselves; values must be strings)",
                "${API_TOKEN} stays literal (clients expand only ${PLUGIN_ROOT} and ${PLUGIN_DATA} in args, env and cwd)"
            ]
        );
    }

    #[test]
    fn commands_without_a_spec_form_are_refused() {
        for command in
            ["node server.js", "/usr/bin/node", "${PLUGIN_DATA}/bin/x", "bin/x", "${PLUGIN_ROOT}/../x"]
        {
            assert!(translate_server(&json!({"command": command})).is_err(), "{command}");
        }
        assert!(translate_server(&json!({"type": "ws", "url": "wss://x"})).is_err());
    }

    #[test]
    fn http_servers_become_streamable_http_and_need_https() {
        let s = server(
            json!({"type": "http", "url": "https://mcp.example.invalid/mcp", "headers": {"X-Tenant": "t"}, "oauth": {}}),
        );
        assert_eq!(
            s.value,
            json!({"type": "streamable-http", "url": "https://mcp.example.invalid/mcp", "headers": {"X-Tenant": "t"}})
        );
        assert_eq!(s.lost, ["dropped oauth (no Agent Plugins field)"]);
        assert_eq!(server(json!({"type": "sse", "url": "http://localhost:9000/sse"})).value["type"], "sse");
        for url in ["http://mcp.example.invalid/x", "https://user@h/x", "https://h/x#frag", "ftp://h/x"] {
            assert!(translate_server(&json!({"type": "http", "url": url})).is_err(), "{url}");
        }
    }

    #[test]
    fn plugin_names_follow_the_spec() {
        for good in ["my-plugin", "acme.tools", "lint3r", "a"] {
            assert!(is_plugin_name(good), "{good}");
        }
        for bad in ["My-Plugin", "-start", "has--double", "too.many..dots", "", "end-", &"a".repeat(65)] {
            assert!(!is_plugin_name(bad), "{bad}");
        }
    }

    #[test]
    fn manifest_overrides_stay_inside_the_closed_schema() {
        assert!(check_field("homepage", &json!("https://h")).is_ok());
        assert!(check_field("extensions", &json!({"com.example": {"x": 1}})).is_ok());
        assert!(check_field("author", &json!({"name": "a", "url": "u"})).is_ok());
        assert!(check_field("author", &json!({"name": "a", "twitter": "t"})).is_err());
        assert!(check_field("interface", &json!({})).is_err());
        assert!(check_field("$schema", &json!("https://other")).is_err());
    }

    #[test]
    fn every_honesty_cell_has_its_level() {
        use super::super::skill_fold::fixture::{level, rows};
        use Level::*;
        let rows = rows("agent-plugins");
        let cells = [
            ("skill", "plain", Supported),
            ("skill", "folded", Degraded),
            ("skill", "bare", Unsupported),
            ("command", "hello", Unsupported),
            ("command", "ship", Unsupported),
            ("command", "empty", Unsupported),
            ("agent", "plain-agent", Unsupported),
            ("agent", "tooled", Unsupported),
            ("context", "AGENTS.md", Unsupported),
            ("hook", "PreToolUse", Unsupported),
            ("hook", "UserPromptSubmit", Unsupported),
            ("hook", "PostToolUse", Unsupported),
            ("mcp", "npx", Supported),
            ("mcp", "local", Degraded),
            ("mcp", "data", Supported),
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

    #[test]
    fn the_schema_urls_need_no_allowance_but_other_urls_still_do() {
        use crate::options::{BuildOptions, TargetRequest};
        use crate::source::SourceTree;
        let mut source = SourceTree::new();
        let config = br#"{"name": "p", "version": "1.0.0", "urls": "deny"}"#;
        source.insert("plugforge.json", config.to_vec(), false).unwrap();
        source.insert(".mcp.json", br#"{"s": {"command": "npx"}}"#.to_vec(), false).unwrap();
        let options =
            BuildOptions { targets: vec![TargetRequest::new("agent-plugins")], ..BuildOptions::default() };
        let output = crate::build(&source, &options).expect("the required $schema URLs are allowed");
        let bundle = &output.bundles[0];
        for (file, schema) in [("plugin.json", PLUGIN_SCHEMA), ("mcp.json", MCP_SCHEMA)] {
            let bytes = &bundle.files[&crate::path::BundlePath::new(file).unwrap()].bytes;
            let value: Value = serde_json::from_slice(bytes).unwrap();
            assert_eq!(value["$schema"], schema);
        }
        let text = b"---\nname: s\ndescription: See https://agent-plugins.org/docs\n---\n".to_vec();
        source.insert("skills/s/SKILL.md", text, false).unwrap();
        let err = crate::build(&source, &options).unwrap_err();
        assert_eq!(err.code, ErrorCode::UrlNotAllowed);
    }
}
