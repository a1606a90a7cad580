//! Kimi Code plugins as a source: the manifest's metadata, the folders it
//! names for skills, commands and agents, its `systemPromptPath` file as the
//! context file, and its inline MCP servers and hooks in the canonical
//! (Claude Code) dialect. `interface`, `sessionStart`, `skillInstructions`
//! and an inline `systemPrompt` are kept for the Kimi Code bundle.

use serde_json::{Map, Value, json};

use super::facts;
use crate::codes::DiagnosticCode;
use crate::draft::Draft;
use crate::draft::common::{self, skip_regenerated};
use crate::draft::manifest::{Manifest, entries, relative};
use crate::error::{Location, Result};
use crate::path::BundlePath;
use crate::source::SourceTree;

const PLUGIN_ROOT: &str = crate::canonical::PLUGIN_ROOT;
/// The canonical hooks file, which Kimi Code never reads.
const HOOKS_FILE: &str = "hooks/hooks.json";

/// The folders a manifest field names (`./` paths), else `default`.
fn folders(manifest: &mut Manifest, draft: &mut Draft, key: &str, default: Option<&str>) -> Vec<String> {
    let Some(value) = manifest.take(key) else { return default.into_iter().map(str::to_string).collect() };
    let mut out = Vec::new();
    for entry in entries(&value) {
        match entry.as_str().filter(|t| t.starts_with("./")).and_then(relative) {
            Some(path) => out.push(path.trim_end_matches('/').to_string()),
            None => manifest.note(
                draft,
                DiagnosticCode::InvalidField,
                key,
                format!("\"{key}\" entry {entry} is not a ./ path inside the plugin; left out"),
            ),
        }
    }
    out
}

fn below<'a>(path: &'a str, folder: &str) -> Option<&'a str> {
    if folder.is_empty() || folder == "." {
        return Some(path);
    }
    path.strip_prefix(folder).and_then(|rest| rest.strip_prefix('/'))
}

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    let path = [facts::MANIFEST_PATH, facts::MANIFEST_DIR_PATH]
        .into_iter()
        .find(|p| tree.get(p).is_some())
        .ok_or_else(|| crate::draft::missing_marker(facts::MANIFEST_PATH))?;
    let mut manifest = Manifest::read(path, &tree.get(path).expect("found").bytes)?;
    manifest.metadata(draft, None);
    manifest.take("$schema");
    if let Some(interface) = manifest.fields.get("interface").cloned() {
        if let Some(display) = interface.get("displayName").and_then(Value::as_str) {
            draft.set("displayName", json!(display));
        }
    }
    let skills = folders(&mut manifest, draft, "skills", None);
    let commands = folders(&mut manifest, draft, "commands", None);
    let agents = folders(&mut manifest, draft, "agents", Some("agents"));
    let context = match manifest.take("systemPromptPath") {
        Some(Value::String(text)) => relative(text.trim()).filter(|p| tree.get(p).is_some()),
        _ => None,
    };
    if let Some(servers) = manifest.take("mcpServers") {
        let servers: Map<String, Value> = servers
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, server)| (name.clone(), canonical_server(server)))
            .collect();
        draft.add_servers(json!({"mcpServers": servers}), path)?;
    }
    if let Some(hooks) = manifest.take("hooks").filter(|h| h.as_array().is_none_or(|h| !h.is_empty())) {
        draft.add_hooks(canonical_hooks(&hooks), path)?;
    }
    manifest.keep_for(draft, "kimi-code", "Kimi Code", &facts::KIMI_ONLY_KEYS);
    manifest.rest(draft, "Kimi Code");
    let spelling = crate::runtime::claude_code::read::spelling();
    for (file_path, file) in tree.iter() {
        let p = file_path.as_str();
        if p == facts::MANIFEST_PATH || p == facts::MANIFEST_DIR_PATH || skip_regenerated(draft, p) {
            continue;
        }
        if Some(p) == context.as_deref() {
            common::copy_spelled(draft, p, "AGENTS.md", file, &spelling)?;
            continue;
        }
        // A skills folder holding its own SKILL.md is one skill, named after it.
        let own_skill = skills.iter().find_map(|root| {
            let rest = below(p, root)?;
            let name = root.rsplit('/').next().filter(|n| !n.is_empty() && *n != ".")?;
            tree.get(&format!("{root}/SKILL.md")).map(|_| format!("skills/{name}/{rest}"))
        });
        if let Some(to) = own_skill {
            common::copy_spelled(draft, p, &to, file, &spelling)?;
            continue;
        }
        let roots: Vec<&str> = skills.iter().map(String::as_str).collect();
        match common::skill_file(tree, draft, p, &roots, "Kimi Code") {
            common::SkillFile::Outside => {}
            common::SkillFile::Skipped => continue,
            common::SkillFile::Inside(rel) => {
                common::copy_spelled(draft, p, &format!("skills/{rel}"), file, &spelling)?;
                continue;
            }
        }
        let placed = [("commands", &commands), ("agents", &agents)]
            .into_iter()
            .find_map(|(to, roots)| roots.iter().find_map(|root| below(p, root)).map(|rest| format!("{to}/{rest}")));
        if let Some(to) = placed {
            if to.ends_with(".md") {
                common::copy_spelled(draft, p, &to, file, &spelling)?;
            } else {
                draft.add(&to, file.bytes.clone(), file.executable, p)?;
            }
            continue;
        }
        let unnamed = ["skills", "commands", "agents"].into_iter().find(|f| below(p, f).is_some());
        if let Some(folder) = unnamed {
            let message = format!("not imported: {path} names no {folder} folder here, so Kimi Code does not load {folder}/");
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            continue;
        }
        if p == HOOKS_FILE {
            let message = format!("not imported: Kimi Code reads a plugin's hooks from {path} only");
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            continue;
        }
        if p == "SKILL.md" || p == "AGENTS.md" {
            let message = format!("not imported: {p} at the plugin root is not a component Kimi Code loads from this manifest");
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            continue;
        }
        common::copy(draft, &BundlePath::new(p)?, file)?;
    }
    Ok(())
}

/// Kimi's `./` paths run from `cwd: "./"` as the plugin folder.
fn rooted(text: &str) -> String {
    if text == "." {
        return PLUGIN_ROOT.to_string();
    }
    match text.strip_prefix("./") {
        Some(rest) => format!("{PLUGIN_ROOT}/{rest}"),
        None => text.to_string(),
    }
}

/// A Kimi MCP server in Claude Code's dialect.
fn canonical_server(server: &Value) -> Value {
    let Some(fields) = server.as_object() else { return server.clone() };
    let mut out = Map::new();
    let from_root = fields.get("cwd").and_then(Value::as_str).is_some_and(|c| matches!(c, "./" | "." | "./."));
    for (key, value) in fields {
        match (key.as_str(), value) {
            ("transport", Value::String(t)) if t == "stdio" => {}
            ("transport", Value::String(t)) => {
                out.insert("type".into(), json!(t));
            }
            ("cwd", _) if from_root => {}
            ("command", Value::String(c)) if from_root || c.starts_with("./") => {
                out.insert(key.clone(), json!(rooted(c)));
            }
            ("args", Value::Array(args)) if from_root => {
                let args: Vec<Value> =
                    args.iter().map(|a| a.as_str().map_or_else(|| a.clone(), |t| json!(rooted(t)))).collect();
                out.insert(key.clone(), Value::Array(args));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}

/// Kimi's `[{event, matcher?, command, timeout?}]` as Claude Code's groups.
fn canonical_hooks(hooks: &Value) -> Value {
    let mut events: Map<String, Value> = Map::new();
    for hook in hooks.as_array().into_iter().flatten() {
        let (Some(event), Some(command)) =
            (hook.get("event").and_then(Value::as_str), hook.get("command").and_then(Value::as_str))
        else {
            continue;
        };
        let command = command.replace(facts::PLUGIN_ROOT, PLUGIN_ROOT).replace(&format!("${}", facts::PLUGIN_ROOT_VAR), PLUGIN_ROOT);
        let mut handler = Map::new();
        handler.insert("type".into(), json!("command"));
        handler.insert("command".into(), json!(command));
        if let Some(timeout) = hook.get("timeout") {
            handler.insert("timeout".into(), timeout.clone());
        }
        let mut group = Map::new();
        if let Some(matcher) = hook.get("matcher") {
            group.insert("matcher".into(), matcher.clone());
        }
        group.insert("hooks".into(), json!([handler]));
        if let Some(Value::Array(groups)) = events.get_mut(event) {
            groups.push(Value::Object(group));
        } else {
            events.insert(event.to_string(), json!([group]));
        }
    }
    json!({"hooks": events})
}
