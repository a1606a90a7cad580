//! The judge of Grok Build bundles: a check of a plugin folder and a
//! marketplace file against the types and rules Grok Build's loaders apply,
//! as its source at [`facts::SOURCE_COMMIT`] has them (each rule cites the
//! line; `facts.rs` holds the names). No Grok client is published, and no
//! crate of its source builds from crates.io alone, so this re-implements
//! what its serde types and validators accept; its own unit tests are
//! ported by name in `tests.rs`.
//!
//! A problem is anything that makes Grok skip the plugin or one of its
//! parts, or load less than the folder holds: an unparseable manifest
//! (plugin skipped), a bad hooks file (all its hooks dropped), an event it
//! skips, a Markdown file its flat scans never see.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::facts;
use crate::report::Component;
use crate::runtime::SchemaReport;

/// The judge: the bundle at `root` below the output root, and the output
/// root's marketplace file when there is one, as Grok Build reads them.
pub(crate) fn check(output: &BTreeMap<String, Vec<u8>>, root: &str) -> SchemaReport {
    let mut report = SchemaReport::default();
    let prefix = if root.is_empty() { String::new() } else { format!("{root}/") };
    let files: Files =
        output.iter().filter_map(|(path, bytes)| Some((path.strip_prefix(&prefix)?.to_string(), bytes.clone()))).collect();
    let name = match check_plugin(&files, &mut report.patterns) {
        Ok(inventory) => {
            let rows = [
                (Component::Skill, &inventory.skills),
                (Component::Command, &inventory.commands),
                (Component::Agent, &inventory.agents),
                (Component::Hook, &inventory.hook_events),
                (Component::Mcp, &inventory.mcp_servers),
            ];
            for (component, names) in rows {
                report.loaded.extend(names.iter().map(|name| (component, name.clone())));
            }
            Some(inventory.name)
        }
        Err(problems) => {
            report.problems.extend(problems.into_iter().map(|p| format!("{prefix}{p}")));
            None
        }
    };
    // Grok reads the first marketplace file its root holds (`load_index`).
    let marketplace = facts::MARKETPLACE_PATHS.iter().find_map(|at| Some((*at, output.get(*at)?)));
    if let Some((at, bytes)) = marketplace {
        match check_marketplace(at, bytes) {
            Ok(entries) => {
                let listed = entries.iter().find(|(_, path)| path.as_deref() == Some(root));
                match (listed, &name) {
                    (None, _) => report.problems.push(format!("{at}: no entry's source is ./{root}")),
                    (Some((entry, _)), Some(name)) if entry != name => report.problems.push(format!(
                        "{at}: the entry for ./{root} is named {entry:?}, its plugin {name:?}"
                    )),
                    _ => {}
                }
            }
            Err(problems) => report.problems.extend(problems),
        }
    }
    report
}

/// What Grok Build loads from a plugin folder.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Inventory {
    pub name: String,
    /// Skill identities: each `SKILL.md`'s folder name.
    pub skills: Vec<String>,
    /// Command file stems (loaded as skills).
    pub commands: Vec<String>,
    /// Agent file stems.
    pub agents: Vec<String>,
    pub hook_events: Vec<String>,
    pub mcp_servers: Vec<String>,
}

/// The files of a plugin folder (paths relative to it).
pub(crate) type Files = BTreeMap<String, Vec<u8>>;

/// Checks a plugin folder as Grok Build loads it: its inventory, or every
/// problem found.
pub(crate) fn check_plugin(files: &Files, patterns: &mut Vec<(String, String)>) -> Result<Inventory, Vec<String>> {
    let mut problems = Vec::new();
    let mut inventory = Inventory::default();
    // The first manifest found wins (`MANIFEST_PATHS`, manifest.rs:293-297):
    // a root one beside Grok's own hides it.
    if files.contains_key(facts::ROOT_MANIFEST) && files.contains_key(facts::MANIFEST_PATH) {
        problems.push(format!(
            "a root {} shadows {}: Grok reads it first",
            facts::ROOT_MANIFEST,
            facts::MANIFEST_PATH
        ));
    }
    let Some((at, bytes)) = facts::MANIFEST_PATHS.iter().find_map(|path| Some((*path, files.get(*path)?))) else {
        return Err(vec![format!("no {}", facts::MANIFEST_PATHS.join(", "))]);
    };
    let manifest = match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(manifest)) => manifest,
        Ok(_) => return Err(vec![format!("{at} is not a JSON object")]),
        Err(e) => return Err(vec![format!("{at} is not JSON: {e}")]),
    };
    check_manifest(at, &manifest, &mut problems);
    inventory.name = manifest.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    let dirs = |key: &str, default: &str| -> Vec<String> {
        match manifest.get(key) {
            Some(Value::String(path)) => vec![clean(path)],
            Some(Value::Array(paths)) => paths.iter().filter_map(Value::as_str).map(clean).collect(),
            _ => vec![default.to_string()],
        }
    };
    for dir in dirs("skills", facts::SKILLS_DIR) {
        // `find_skill_md_paths`: the folder's own SKILL.md, then every one below.
        for path in files.keys() {
            let Some(rest) = below(path, &dir) else { continue };
            if rest == "SKILL.md" || rest.ends_with("/SKILL.md") {
                // Named here by its folder below the skills folder (Grok
                // names it by that folder's last name).
                let name = match rest.strip_suffix("/SKILL.md") {
                    Some(folder) => folder.to_string(),
                    None => dir.rsplit('/').next().unwrap_or(&dir).to_string(),
                };
                check_frontmatter(path, &files[path], &mut problems);
                inventory.skills.push(name);
            }
        }
    }
    for (key, default, found) in [
        ("commands", facts::COMMANDS_DIR, &mut inventory.commands),
        ("agents", facts::AGENTS_DIR, &mut inventory.agents),
    ] {
        for dir in dirs(key, default) {
            for path in files.keys() {
                let Some(rest) = below(path, &dir) else { continue };
                if !rest.ends_with(".md") {
                    continue;
                }
                if rest.contains('/') {
                    // `scan_md_files` and the agent scan are flat (discovery.rs:85-102).
                    problems.push(format!("{path}: below a sub-folder of {dir}/, which Grok does not scan"));
                    continue;
                }
                check_frontmatter(path, &files[path], &mut problems);
                let stem = rest.trim_end_matches(".md").to_string();
                if key == "agents" {
                    match agent_name(path, &files[path]) {
                        Ok(name) => found.push(name),
                        Err(why) => problems.push(why),
                    }
                } else {
                    found.push(stem);
                }
            }
        }
    }
    if let Some(bytes) = files.get(facts::HOOKS_FILE) {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(value) => inventory.hook_events = check_hooks(&value, &mut problems, patterns),
            Err(e) => problems.push(format!("{} is not JSON: {e}", facts::HOOKS_FILE)),
        }
    }
    if let Some(bytes) = files.get(facts::LSP_FILE) {
        if !serde_json::from_slice::<Value>(bytes).is_ok_and(|v| v.is_object()) {
            problems.push(format!("{} is not a JSON object", facts::LSP_FILE));
        }
    }
    if let Some(bytes) = files.get(facts::MCP_FILE) {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(value) => inventory.mcp_servers = check_mcp(&value, &mut problems),
            Err(e) => problems.push(format!("{} is not JSON: {e}", facts::MCP_FILE)),
        }
    }
    if problems.is_empty() { Ok(inventory) } else { Err(problems) }
}

/// `PluginManifest` (manifest.rs:136-170) and `validate` (manifest.rs:172-185).
fn check_manifest(at: &str, manifest: &Map<String, Value>, problems: &mut Vec<String>) {
    match manifest.get("name").and_then(Value::as_str) {
        None => problems.push(format!("{at}: \"name\" is required and a string")),
        Some(name) if !super::is_plugin_name(name) => problems.push(format!(
            "{at}: invalid plugin name {name:?}: must be 1-64 chars, lowercase alphanumeric + hyphens, no leading/trailing hyphens"
        )),
        Some(_) => {}
    }
    for key in facts::MANIFEST_STRINGS {
        if manifest.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
            problems.push(format!("{at}: \"{key}\" must be a string"));
        }
    }
    match manifest.get("author") {
        None | Some(Value::Null) => {}
        Some(Value::Object(author)) => {
            for (key, value) in author {
                if facts::AUTHOR_KEYS.contains(&key.as_str()) && !value.is_string() && !value.is_null() {
                    problems.push(format!("{at}: \"author.{key}\" must be a string"));
                }
            }
        }
        Some(_) => problems.push(format!("{at}: \"author\" must be an object")),
    }
    if manifest.get("keywords").is_some_and(|v| !is_strings(v)) {
        problems.push(format!("{at}: \"keywords\" must be a list of strings"));
    }
    for key in facts::PATH_FIELDS {
        match manifest.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::String(path)) => contained(at, key, path, problems),
            Some(value @ Value::Array(paths)) if is_strings(value) => {
                for path in paths.iter().filter_map(Value::as_str) {
                    contained(at, key, path, problems);
                }
            }
            Some(_) => problems.push(format!("{at}: \"{key}\" must be a path or a list of paths")),
        }
    }
    for key in facts::PATH_OR_INLINE_FIELDS {
        if let Some(Value::String(path)) = manifest.get(key) {
            contained(at, key, path, problems);
        }
    }
}

/// A component path outside the plugin root is skipped (manifest.rs:57-90).
fn contained(at: &str, key: &str, path: &str, problems: &mut Vec<String>) {
    if path.starts_with('/') || path.split('/').any(|segment| segment == "..") {
        problems.push(format!("{at}: \"{key}\" path {path:?} leaves the plugin root; Grok skips it"));
    }
}

fn is_strings(value: &Value) -> bool {
    value.as_array().is_some_and(|items| items.iter().all(Value::is_string))
}

/// A Markdown file's frontmatter, when it has one, must close (Grok parses
/// it as YAML, `parse_skill_files`).
fn check_frontmatter(path: &str, bytes: &[u8], problems: &mut Vec<String>) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        problems.push(format!("{path}: not UTF-8"));
        return;
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text).replace("\r\n", "\n");
    if let Some(rest) = text.strip_prefix("---\n") {
        if !rest.starts_with("---\n") && !rest.contains("\n---") {
            problems.push(format!("{path}: its frontmatter never closes"));
        }
    }
}

/// A plugin agent's name, or why Grok skips it (`AgentDefinition::parse`,
/// config.rs:1345-1370: frontmatter with string `name` and `description`, a
/// `permissionMode` of its values).
fn agent_name(path: &str, bytes: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8"))?;
    let document = crate::source::parse_document(path, text).map_err(|e| format!("{path}: {e}"))?;
    for key in facts::AGENT_REQUIRED_KEYS {
        if document.str_field(key).is_none() {
            return Err(format!("{path}: no string \"{key}\" in its frontmatter; Grok skips the agent"));
        }
    }
    if let Some(mode) = document.str_field("permissionMode").filter(|m| !facts::AGENT_PERMISSION_MODES.contains(m)) {
        return Err(format!("{path}: permissionMode {mode:?} fails Grok's parse; it skips the agent"));
    }
    Ok(document.str_field("name").unwrap_or_default().to_string())
}

/// The hooks file (`HooksMap::from_value`, config.rs:68-77; `MatcherGroup`,
/// `RawHandler`, config.rs:95-112; `HandlerType`, config.rs:141-170): its
/// events, in order.
fn check_hooks(value: &Value, problems: &mut Vec<String>, patterns: &mut Vec<(String, String)>) -> Vec<String> {
    let at = facts::HOOKS_FILE;
    let Some(events) = value.get("hooks").and_then(Value::as_object) else {
        problems.push(format!("{at}: no \"hooks\" object"));
        return Vec::new();
    };
    let mut found = Vec::new();
    for (event, groups) in events {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            problems.push(format!("{at}: plugin skipped unsupported event '{event}'"));
            continue;
        }
        found.push(event.clone());
        let Some(groups) = groups.as_array() else {
            problems.push(format!("{at}: {event} is not a list of matcher groups"));
            continue;
        };
        for group in groups {
            match group.get("matcher") {
                None | Some(Value::Null) => {}
                Some(Value::String(matcher)) => {
                    if is_regex_form(matcher) {
                        patterns.push((format!("{at}: {event} matcher"), matcher.clone()));
                    }
                }
                Some(_) => problems.push(format!("{at}: {event} matcher must be a string")),
            }
            let Some(handlers) = group.get("hooks").and_then(Value::as_array) else {
                problems.push(format!("{at}: {event} group has no \"hooks\" list"));
                continue;
            };
            for handler in handlers {
                check_handler(event, handler, problems);
            }
        }
    }
    found
}

fn check_handler(event: &str, handler: &Value, problems: &mut Vec<String>) {
    let at = facts::HOOKS_FILE;
    let Some(handler) = handler.as_object() else {
        problems.push(format!("{at}: {event} handler is not an object"));
        return;
    };
    let Some(kind) = handler.get("type").and_then(Value::as_str) else {
        problems.push(format!("{at}: {event} handler has no \"type\", which Grok requires"));
        return;
    };
    match facts::HOOK_HANDLER_TYPES.iter().find(|(name, _)| *name == kind) {
        None => problems.push(format!("{at}: {event} handler type {kind:?} fails the whole file")),
        Some((_, required)) => {
            for field in *required {
                if !handler.get(*field).is_some_and(Value::is_string) {
                    problems.push(format!("{at}: {event} {kind} handler needs a string \"{field}\""));
                }
            }
        }
    }
    for key in ["command", "url"] {
        if handler.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
            problems.push(format!("{at}: {event} handler \"{key}\" must be a string"));
        }
    }
    if handler.get("timeout").is_some_and(|v| !v.is_u64() && !v.is_null()) {
        problems.push(format!("{at}: {event} handler \"timeout\" must be whole seconds (u64)"));
    }
    match handler.get("env") {
        None | Some(Value::Null) => {}
        Some(Value::Object(env)) if env.values().all(Value::is_string) => {}
        Some(_) => problems.push(format!("{at}: {event} handler \"env\" must map names to strings")),
    }
}

/// `HookMatcher::new` (xai-grok-hooks/src/matcher.rs:30-42): empty or `*`
/// is every tool, a name or `|` list of `[A-Za-z0-9_|]` an exact match, and
/// anything else a Rust regular expression (one that does not compile
/// matches nothing).
pub(crate) fn is_regex_form(pattern: &str) -> bool {
    !(pattern.is_empty() || pattern == "*" || is_simple_form(pattern))
}

/// `is_simple_form` (matcher.rs): only `[A-Za-z0-9_|]`.
pub(crate) fn is_simple_form(pattern: &str) -> bool {
    pattern.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
}

/// `.mcp.json`: `{mcpServers}` or a bare map (manifest.rs:370-376), each
/// server an object with a `command` or a `url`.
fn check_mcp(value: &Value, problems: &mut Vec<String>) -> Vec<String> {
    let at = facts::MCP_FILE;
    let servers = value.get("mcpServers").unwrap_or(value);
    let Some(servers) = servers.as_object() else {
        problems.push(format!("{at}: not an object of servers"));
        return Vec::new();
    };
    for (name, server) in servers {
        let has = |key: &str| server.get(key).is_some_and(Value::is_string);
        if !has("command") && !has("url") {
            problems.push(format!("{at}: server {name} has neither a command nor a url"));
        }
        if server.get("args").is_some_and(|v| !is_strings(v)) {
            problems.push(format!("{at}: server {name} args must be strings"));
        }
    }
    servers.keys().cloned().collect()
}

/// A marketplace file (`MarketplaceIndex`, `IndexEntry`, `IndexSource`,
/// index.rs:16-190; the official catalog's `sha` rule for url sources):
/// its entries' names and local paths, or the problems found.
pub(crate) fn check_marketplace(at: &str, bytes: &[u8]) -> Result<Vec<(String, Option<String>)>, Vec<String>> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| vec![format!("{at} is not JSON: {e}")])?;
    let Some(top) = value.as_object() else { return Err(vec![format!("{at} is not an object")]) };
    let mut problems = Vec::new();
    if !top.get("name").is_some_and(Value::is_string) {
        problems.push(format!("{at}: \"name\" is required and a string"));
    }
    if top.get("description").is_some_and(|v| !v.is_string() && !v.is_null()) {
        problems.push(format!("{at}: \"description\" must be a string"));
    }
    if let Some(owner) = top.get("owner").filter(|v| !v.is_null()) {
        if !owner.get("name").is_some_and(Value::is_string) {
            problems.push(format!("{at}: \"owner\" needs a string \"name\""));
        }
    }
    let mut entries = Vec::new();
    match top.get("plugins") {
        None => {}
        Some(Value::Array(plugins)) => {
            for (index, entry) in plugins.iter().enumerate() {
                match check_entry(entry) {
                    Ok(found) => entries.push(found),
                    Err(why) => problems.extend(why.into_iter().map(|w| format!("{at}: plugins[{index}]: {w}"))),
                }
            }
        }
        Some(_) => problems.push(format!("{at}: \"plugins\" must be a list")),
    }
    if problems.is_empty() { Ok(entries) } else { Err(problems) }
}

fn check_entry(entry: &Value) -> Result<(String, Option<String>), Vec<String>> {
    let mut problems = Vec::new();
    let name = entry.get("name").and_then(Value::as_str).map(str::to_string);
    if name.is_none() {
        problems.push("\"name\" is required and a string".to_string());
    }
    for key in facts::MARKETPLACE_ENTRY_STRINGS {
        if entry.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
            problems.push(format!("\"{key}\" must be a string"));
        }
    }
    for key in facts::MARKETPLACE_ENTRY_LISTS {
        if entry.get(key).is_some_and(|v| !is_strings(v)) {
            problems.push(format!("\"{key}\" must be a list of strings"));
        }
    }
    if let Some(author) = entry.get("author").filter(|v| !v.is_null()) {
        if !author.get("name").is_some_and(Value::is_string) {
            problems.push("\"author\" needs a string \"name\"".to_string());
        }
    }
    let path = match entry.get("source") {
        None | Some(Value::Null) => {
            problems.push("missing source".to_string());
            None
        }
        Some(Value::String(path)) => Some(path.clone()),
        Some(Value::Object(source)) => {
            let kind = source.get("type").or_else(|| source.get("source")).and_then(Value::as_str);
            let string = |key: &str| source.get(key).and_then(Value::as_str);
            match (kind, string("url")) {
                (_, Some(_)) => {
                    let sha = string("sha").unwrap_or_default();
                    let pinned = sha.len() == facts::URL_SOURCE_SHA_LEN && sha.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
                    if !pinned {
                        problems.push("a url source needs a 40-hex lowercase \"sha\"".to_string());
                    }
                    None
                }
                (Some("url"), None) => {
                    problems.push("a url source needs a \"url\"".to_string());
                    None
                }
                _ => match string("path") {
                    Some(path) => Some(path.to_string()),
                    None => {
                        problems.push("missing source path".to_string());
                        None
                    }
                },
            }
        }
        Some(_) => {
            problems.push("\"source\" must be a path or an object".to_string());
            None
        }
    };
    if let Some(path) = &path {
        if path.starts_with('/') || path.split('/').any(|segment| segment == "..") {
            problems.push(format!("source path {path:?} leaves the marketplace"));
        }
    }
    if problems.is_empty() { Ok((name.unwrap_or_default(), path.map(|p| clean(&p)))) } else { Err(problems) }
}

/// `./a/b/` -> `a/b`.
fn clean(path: &str) -> String {
    path.trim_start_matches("./").trim_end_matches('/').to_string()
}

/// The path below folder `dir`, if `path` is inside it.
fn below<'a>(path: &'a str, dir: &str) -> Option<&'a str> {
    if dir.is_empty() || dir == "." {
        return Some(path);
    }
    path.strip_prefix(dir).and_then(|rest| rest.strip_prefix('/'))
}
