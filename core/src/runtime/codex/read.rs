//! Codex plugins: the manifest ([`MANIFEST`]: metadata, `interface`,
//! component paths), skills, the commands Codex migrates, Claude-dialect
//! hooks and `.mcp.json` servers whose plugin paths are relative to a `.`
//! working folder.

use serde_json::{Map, Value, json};

use crate::draft::common::{self, SkillFile, skip_regenerated};
use crate::draft::Draft;
use crate::draft::json_parts::{JsonParts, Merged};
use crate::draft::manifest::{Manifest, entries, relative, short};
use crate::error::{Location, Result};
use crate::runtime::codex::{DEFAULT_CAPABILITIES, DEFAULT_CATEGORY, DEFAULT_PROMPTS_MAX, short_description};
use crate::source::SourceTree;
use crate::codes::DiagnosticCode;

pub const MANIFEST: &str = super::facts::MANIFEST_PATH;
const ROOT: &str = "${PLUGIN_ROOT}";

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    let file = tree.get(MANIFEST).ok_or_else(|| crate::draft::missing_marker(MANIFEST))?;
    let mut manifest = Manifest::read(MANIFEST, &file.bytes)?;
    manifest.metadata(draft, None);
    let interface = manifest.take("interface");
    let mut skill_roots = vec!["skills".to_string()];
    let mut hooks = JsonParts::default();
    let mut mcp = JsonParts::default();
    if let Some(value) = manifest.take("skills") {
        for entry in entries(&value) {
            match entry.as_str().and_then(relative) {
                Some(path) if !skill_roots.contains(&path) => skill_roots.push(path),
                Some(_) => {}
                None => manifest.note(
                    draft,
                    DiagnosticCode::InvalidField,
                    "skills",
                    format!("\"skills\" entry {entry} is not a ./ path; left out"),
                ),
            }
        }
    }
    let custom_hooks = component(&mut manifest, draft, "hooks", &mut hooks);
    let custom_mcp = component(&mut manifest, draft, "mcpServers", &mut mcp);
    // The default apps file is the canonical one, read as the plugin's app
    // connectors; another path stays Codex's own field.
    let default_apps = manifest.fields.get("apps").and_then(Value::as_str).and_then(relative);
    if default_apps.as_deref() == Some(super::facts::APPS_FILE) && tree.get(super::facts::APPS_FILE).is_some() {
        manifest.take("apps");
    }
    manifest.keep_for(draft, "codex", "Codex", &["apps"]);
    manifest.rest(draft, "Codex");

    let spelling = crate::runtime::claude_code::read::spelling();
    let mut skills = Vec::new();
    for (path, file) in tree.iter() {
        let p = path.as_str();
        if p == MANIFEST || skip_regenerated(draft, p) {
            continue;
        }
        let named_hooks = hooks.files.iter().any(|f| f == p);
        let named_mcp = mcp.files.iter().any(|f| f == p);
        if named_hooks || (p == "hooks/hooks.json" && !custom_hooks) {
            hooks.inline.push((p.to_string(), common::json(p, file)?));
            continue;
        }
        if named_mcp || (p == ".mcp.json" && !custom_mcp) {
            mcp.inline.push((p.to_string(), common::json(p, file)?));
            continue;
        }
        if p == "hooks/hooks.json" || p == ".mcp.json" {
            let message = "not imported: the manifest names other files, so Codex does not load it";
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            continue;
        }
        let roots: Vec<&str> = skill_roots.iter().map(String::as_str).collect();
        match common::skill_file(tree, draft, p, &roots, "Codex") {
            SkillFile::Outside => {}
            SkillFile::Skipped => continue,
            SkillFile::Inside(rel) => {
                if let Some(name) = rel.strip_suffix("/SKILL.md").filter(|n| !n.contains('/')) {
                    skills.push(name.to_string());
                }
                common::copy_spelled(draft, p, &format!("skills/{rel}"), file, &spelling)?;
                continue;
            }
        }
        if p.starts_with("commands/") && p.ends_with(".md") {
            common::copy_spelled(draft, p, p, file, &spelling)?;
            continue;
        }
        common::copy(draft, path, file)?;
    }
    if let Some(interface) = interface {
        import_interface(&manifest_text(tree), MANIFEST, draft, interface, &skills);
    }
    hooks.note_missing(draft, MANIFEST);
    mcp.note_missing(draft, MANIFEST);
    if let Merged::Value(value, origin) = hooks.merge_hooks(draft)? {
        let value = codex_hooks(spelling.json(value));
        draft.add_hooks(value, &origin)?;
    }
    if let Merged::Value(value, origin) = mcp.merge_servers(draft)? {
        draft.add_servers(codex_servers(spelling.json(value)), &origin)?;
    }
    Ok(())
}

fn manifest_text(tree: &SourceTree) -> String {
    tree.get(MANIFEST).map(|f| String::from_utf8_lossy(&f.bytes).into_owned()).unwrap_or_default()
}

/// A `hooks` or `mcpServers` field: `./file.json` paths or inline objects.
/// Says whether the field was set, which replaces the default file.
fn component(manifest: &mut Manifest, draft: &mut Draft, key: &str, parts: &mut JsonParts) -> bool {
    let Some(value) = manifest.take(key) else { return false };
    for entry in entries(&value) {
        match &entry {
            Value::Object(_) => parts.inline.push((MANIFEST.to_string(), entry.clone())),
            Value::String(text) if relative(text).is_some() => {
                parts.files.push(relative(text).expect("checked"))
            }
            other => manifest.note(
                draft,
                DiagnosticCode::InvalidField,
                key,
                format!("\"{key}\" entry {} is not a ./ path or an object; left out", short(other)),
            ),
        }
    }
    true
}

/// A Codex manifest's `interface` beside another format's primary manifest.
pub(crate) fn foreign_interface(text: &str, file: &str, draft: &mut Draft, interface: Value) {
    import_interface(text, file, draft, interface, &[]);
}

/// `interface`: what `build` derives again from the metadata is dropped,
/// `displayName` becomes the plugin's display name, the rest is kept for
/// the Codex bundle.
pub(super) fn import_interface(
    text: &str,
    file: &str,
    draft: &mut Draft,
    interface: Value,
    skills: &[String],
) {
    let Value::Object(fields) = interface else {
        let message = format!("\"interface\" is {}, not an object; left out", short(&interface));
        return draft.note_key(DiagnosticCode::InvalidField, file, text, "interface", message);
    };
    let string = |draft: &Draft, key: &str| draft.get(key).and_then(Value::as_str).map(str::to_string);
    let name = string(draft, "name").unwrap_or_default();
    let description = string(draft, "description");
    let author = draft.get("author").and_then(|a| a.get("name")).and_then(Value::as_str).map(str::to_string);
    let prompts: Vec<String> =
        skills.iter().take(DEFAULT_PROMPTS_MAX).map(|s| format!("Use the {s} skill")).collect();
    let mut kept = Map::new();
    for (key, value) in fields {
        let derived = match key.as_str() {
            "displayName" => {
                let display = value.as_str().unwrap_or_default();
                if display != name && draft.get("displayName").is_none() && !display.is_empty() {
                    draft.set("displayName", value.clone());
                }
                string(draft, "displayName").is_some_and(|d| d == display) || display == name
            }
            "shortDescription" => {
                description.as_deref().map(short_description).is_some_and(|d| value == json!(d))
            }
            "longDescription" => description.as_ref().is_some_and(|d| value == json!(d)),
            "developerName" => author.as_ref().is_some_and(|a| value == json!(a)),
            "category" => match value.as_str() {
                Some(category) if category != DEFAULT_CATEGORY => {
                    draft.set_marketplace_field("category", &value)
                }
                _ => true,
            },
            "capabilities" => value == json!(DEFAULT_CAPABILITIES),
            "defaultPrompt" => !prompts.is_empty() && value == json!(prompts),
            _ => false,
        };
        if !derived {
            kept.insert(key, value);
        }
    }
    if !kept.is_empty() {
        let keys: Vec<&str> = kept.keys().map(String::as_str).collect();
        let message = format!(
            "interface fields {} are Codex-only: kept under targets.codex.manifest.interface, so only the Codex bundle carries them",
            keys.join(", ")
        );
        draft.note_key(DiagnosticCode::RuntimeOnlyField, file, text, "interface", message);
        draft.target_field("codex", "interface", Value::Object(kept));
    }
}

/// `apply_patch` matchers stand for Claude's edit tools.
fn codex_hooks(mut value: Value) -> Value {
    let Some(events) = value.get_mut("hooks").and_then(Value::as_object_mut) else { return value };
    for groups in events.values_mut().filter_map(Value::as_array_mut) {
        for group in groups.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(Value::String(matcher)) = group.get_mut("matcher") {
                let tools: Vec<&str> = matcher
                    .split('|')
                    .map(|t| if t == "apply_patch" { "Write|Edit|MultiEdit" } else { t })
                    .collect();
                *matcher = tools.join("|");
            }
        }
    }
    value
}

/// Codex server shapes -> canonical: `./` paths beside a `.` working
/// folder become `${PLUGIN_ROOT}` paths, `http_headers` become `headers`.
fn codex_servers(mut value: Value) -> Value {
    let Some(servers) = value.get_mut("mcpServers").and_then(Value::as_object_mut) else { return value };
    for server in servers.values_mut().filter_map(Value::as_object_mut) {
        if let Some(headers) = server.shift_remove("http_headers") {
            server.insert("headers".into(), headers);
        }
        if server.get("cwd").and_then(Value::as_str) != Some(".") {
            continue;
        }
        server.shift_remove("cwd");
        for key in ["command", "args", "env"] {
            if let Some(field) = server.get_mut(key) {
                *field = rooted(field.take());
            }
        }
    }
    value
}

fn rooted(value: Value) -> Value {
    match value {
        Value::String(s) if s == "." => Value::String(ROOT.into()),
        Value::String(s) => match s.strip_prefix("./") {
            Some(rest) => Value::String(format!("{ROOT}/{rest}")),
            None => Value::String(s),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(rooted).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, rooted(v))).collect()),
        other => other,
    }
}
