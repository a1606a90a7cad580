//! The judge of Kimi Code bundles: a check of a plugin folder against what
//! Kimi Code's plugin loader accepts at MoonshotAI/kimi-code
//! d723cc47ee43e5ca3c3c4ec2473f205d44acede2 (`parseManifest`,
//! `app/plugin/manifest.ts`; `HookDefSchema`; `McpServerConfigSchema`), each
//! rule citing where it is; `facts.rs` holds the names. A problem is any
//! error or warning diagnostic Kimi would give, or a part it would not load.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::facts;
use crate::report::Component;
use crate::runtime::SchemaReport;

/// The judge: the bundle at `root` below the output root.
pub(crate) fn check(output: &BTreeMap<String, Vec<u8>>, root: &str) -> SchemaReport {
    let prefix = if root.is_empty() { String::new() } else { format!("{root}/") };
    let files: BTreeMap<String, &Vec<u8>> =
        output.iter().filter_map(|(path, bytes)| Some((path.strip_prefix(&prefix)?.to_string(), bytes))).collect();
    let mut report = SchemaReport::default();
    let problems = &mut report.problems;
    let Some(bytes) = files.get(facts::MANIFEST_PATH) else {
        problems.push(format!("{prefix}: No manifest at {} or {}", facts::MANIFEST_PATH, facts::MANIFEST_DIR_PATH));
        return report;
    };
    if files.contains_key(facts::MANIFEST_DIR_PATH) {
        problems.push(format!("{prefix}{} is shadowed by {}", facts::MANIFEST_DIR_PATH, facts::MANIFEST_PATH));
    }
    let at = format!("{prefix}{}", facts::MANIFEST_PATH);
    let manifest = match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(manifest)) => manifest,
        _ => {
            problems.push(format!("{at}: manifest must be a JSON object"));
            return report;
        }
    };
    match manifest.get("name").and_then(Value::as_str).map(str::trim) {
        None | Some("") => problems.push(format!("{at}: \"name\" is required")),
        Some(name) if !super::is_plugin_name(name) => {
            problems.push(format!("{at}: \"name\" must match /^[a-z0-9][a-z0-9_-]{{0,63}}$/ (got \"{name}\")"))
        }
        Some(_) => {}
    }
    for key in facts::UNSUPPORTED_KEYS.iter().filter(|k| manifest.contains_key(**k)) {
        problems.push(format!("{at}: \"{key}\" is present but not supported by Kimi plugins"));
    }
    for key in facts::MANIFEST_STRINGS {
        if manifest.get(key).is_some_and(|v| !v.is_string()) {
            problems.push(format!("{at}: \"{key}\" must be a string"));
        }
    }
    // Skills: each `<name>/SKILL.md` below a named folder.
    for dir in dirs(&manifest, "skills", &files, problems, &at) {
        for path in files.keys() {
            if let Some(rest) = below(path, &dir) {
                if let Some(name) = rest.strip_suffix("/SKILL.md").filter(|n| !n.contains('/')) {
                    report.loaded.push((Component::Skill, name.to_string()));
                }
            }
        }
    }
    // Commands: every `.md` below, named by its path (`commandNameFromFile`).
    for dir in dirs(&manifest, "commands", &files, problems, &at) {
        for path in files.keys() {
            if let Some(rest) = below(path, &dir).and_then(|r| r.strip_suffix(".md")) {
                report.loaded.push((Component::Command, rest.replace('/', ":")));
            }
        }
    }
    // Agents: every `.md` below, named by its frontmatter (kebab-case, with a description).
    let agent_dirs = if manifest.contains_key("agents") {
        dirs(&manifest, "agents", &files, problems, &at)
    } else if files.keys().any(|p| p.starts_with("agents/")) {
        vec!["agents".to_string()]
    } else {
        Vec::new()
    };
    for dir in agent_dirs {
        for (path, bytes) in &files {
            if below(path, &dir).is_some_and(|r| r.ends_with(".md")) {
                match agent_name(path, bytes) {
                    Ok(name) => report.loaded.push((Component::Agent, name)),
                    Err(why) => problems.push(format!("{prefix}{why}")),
                }
            }
        }
    }
    if let Some(value) = manifest.get("systemPromptPath") {
        match value.as_str().and_then(|p| p.strip_prefix("./")) {
            None => problems.push(format!("{at}: \"systemPromptPath\" path must start with \"./\"")),
            Some(path) => match files.get(path) {
                None => problems.push(format!("{at}: \"systemPromptPath\" is not a file ({path})")),
                Some(bytes) if bytes.len() > facts::SYSTEM_PROMPT_MAX_BYTES => {
                    problems.push(format!("{at}: \"systemPromptPath\" is {} bytes, exceeding the 32 KB limit", bytes.len()))
                }
                Some(_) => {}
            },
        }
    }
    if let Some(servers) = manifest.get("mcpServers") {
        match servers.as_object() {
            None => problems.push(format!("{at}: \"mcpServers\" must be an object")),
            Some(servers) => {
                for (name, server) in servers {
                    match check_server(server) {
                        Ok(()) => report.loaded.push((Component::Mcp, name.clone())),
                        Err(why) => problems.push(format!("{at}: Invalid MCP server \"{name}\": {why}")),
                    }
                }
            }
        }
    }
    if let Some(hooks) = manifest.get("hooks") {
        match hooks.as_array() {
            None => problems.push(format!("{at}: \"hooks\" must be an array")),
            Some(hooks) => {
                for (index, hook) in hooks.iter().enumerate() {
                    match check_hook(hook) {
                        Ok(event) => {
                            if !report.loaded.contains(&(Component::Hook, event.clone())) {
                                report.loaded.push((Component::Hook, event));
                            }
                            if let Some(matcher) = hook.get("matcher").and_then(Value::as_str) {
                                report.patterns.push((format!("{at}: hooks[{index}].matcher"), matcher.to_string()));
                            }
                        }
                        Err(why) => problems.push(format!("{at}: Invalid hook at index {index}: {why}")),
                    }
                }
            }
        }
    }
    report
}

/// The folders a field names (`resolveDirListField`, manifest.ts:161-212).
fn dirs(
    manifest: &Map<String, Value>,
    key: &str,
    files: &BTreeMap<String, &Vec<u8>>,
    problems: &mut Vec<String>,
    at: &str,
) -> Vec<String> {
    let entries: Vec<&str> = match manifest.get(key) {
        None => return Vec::new(),
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(list)) if list.iter().all(Value::is_string) => list.iter().filter_map(Value::as_str).collect(),
        Some(_) => {
            problems.push(format!("{at}: \"{key}\" must be a string or string[]"));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for entry in entries {
        let Some(rest) = entry.strip_prefix("./") else {
            problems.push(format!("{at}: \"{key}\" path must start with \"./\" (got \"{entry}\")"));
            continue;
        };
        let dir = rest.trim_end_matches('/').to_string();
        if dir.split('/').any(|s| s == "..") {
            problems.push(format!("{at}: \"{key}\" path resolves outside the plugin ({entry})"));
            continue;
        }
        if !files.keys().any(|p| below(p, &dir).is_some()) {
            problems.push(format!("{at}: \"{key}\" path is not a directory ({entry})"));
            continue;
        }
        out.push(dir);
    }
    out
}

fn below<'a>(path: &'a str, dir: &str) -> Option<&'a str> {
    if dir.is_empty() || dir == "." {
        return Some(path);
    }
    path.strip_prefix(dir).and_then(|rest| rest.strip_prefix('/'))
}

/// An agent's name, or why Kimi skips it (doc agents.md:76-110: a kebab-case
/// `name`, defaulting to the file name, and a `description`).
fn agent_name(path: &str, bytes: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8"))?;
    let document = crate::source::parse_document(path, text).map_err(|e| format!("{path}: {e}"))?;
    if document.str_field("description").is_none() {
        return Err(format!("{path}: an agent needs a description"));
    }
    let stem = path.rsplit('/').next().unwrap_or(path).trim_end_matches(".md");
    let name = document.str_field("name").unwrap_or(stem);
    if !crate::source::is_kebab(name) {
        return Err(format!("{path}: agent name {name:?} is not kebab-case"));
    }
    Ok(name.to_string())
}

/// `McpServerConfigSchema` (config-schema.ts:8-68) and the plugin rules on
/// `command` and `cwd` (manifest.ts:469-509).
fn check_server(server: &Value) -> Result<(), String> {
    let fields = server.as_object().ok_or("not an object")?;
    let transport = match fields.get("transport").and_then(Value::as_str) {
        Some(t) => t,
        None if fields.get("command").is_some_and(Value::is_string) => "stdio",
        None if fields.get("url").is_some_and(Value::is_string) => "http",
        None => return Err("no transport, command or url".into()),
    };
    if !facts::MCP_TRANSPORTS.contains(&transport) {
        return Err(format!("transport {transport:?}"));
    }
    let strings = |key: &str| fields.get(key).is_none_or(|v| v.as_object().is_some_and(|m| m.values().all(Value::is_string)));
    if transport == "stdio" {
        let command = fields.get("command").and_then(Value::as_str).filter(|c| !c.is_empty()).ok_or("command")?;
        if command.starts_with('/') || (command.contains('/') && !command.starts_with("./")) {
            return Err(format!("\"command\" must be a PATH command or start with \"./\" (got {command:?})"));
        }
        if fields.get("args").is_some_and(|a| !a.as_array().is_some_and(|a| a.iter().all(Value::is_string))) {
            return Err("\"args\" must be strings".into());
        }
        if !strings("env") {
            return Err("\"env\" must map names to strings".into());
        }
        if let Some(cwd) = fields.get("cwd") {
            if !cwd.as_str().is_some_and(|c| c.starts_with("./")) {
                return Err("\"cwd\" must start with \"./\"".into());
            }
        }
    } else {
        let url = fields.get("url").and_then(Value::as_str).ok_or("url")?;
        if !super::is_url(url) {
            return Err(format!("\"url\" {url:?} is not a URL"));
        }
        if !strings("headers") {
            return Err("\"headers\" must map names to strings".into());
        }
    }
    Ok(())
}

/// `HookDefSchema` (configSection.ts:10-17): exactly its four keys, an event
/// of the list, a non-empty command, a whole timeout of 1 to 600 seconds.
fn check_hook(hook: &Value) -> Result<String, String> {
    let fields = hook.as_object().ok_or("not an object")?;
    if let Some(key) = fields.keys().find(|k| !facts::HOOK_KEYS.contains(&k.as_str())) {
        return Err(format!("unrecognized key {key:?}"));
    }
    let event = fields.get("event").and_then(Value::as_str).ok_or("no event")?;
    if !facts::HOOK_EVENTS.contains(&event) {
        return Err(format!("invalid event {event:?}"));
    }
    if fields.get("command").and_then(Value::as_str).is_none_or(str::is_empty) {
        return Err("command must be a non-empty string".into());
    }
    if fields.get("matcher").is_some_and(|m| !m.is_string()) {
        return Err("matcher must be a string".into());
    }
    if let Some(timeout) = fields.get("timeout") {
        if !timeout.as_u64().is_some_and(|t| (1..=facts::HOOK_TIMEOUT_MAX).contains(&t)) {
            return Err(format!("timeout {timeout} is not a whole number of seconds from 1 to 600"));
        }
    }
    Ok(event.to_string())
}
