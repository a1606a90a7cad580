//! What a plugin folder says about itself besides its primary manifest:
//! the manifests it already carries for other runtimes and its own
//! marketplace entry. They are inputs, never copied: metadata the primary
//! manifest lacks is taken from them, and what one runtime's manifest says
//! differently is kept for that runtime's bundle alone.

use serde_json::{Map, Value};

use crate::codes::DiagnosticCode;
use crate::draft::Draft;
use crate::draft::manifest::{Manifest, short};
use crate::error::Location;
use crate::runtime::{Foreign, Runtime};
use crate::source::{METADATA_KEYS, SourceTree};

/// The runtimes whose files a plugin folder may carry beside its primary
/// manifest, with what plugforge takes from them.
fn foreign() -> impl Iterator<Item = (Runtime, &'static Foreign)> {
    Runtime::ALL.iter().filter_map(|r| Some((*r, r.spec().foreign.as_ref()?)))
}

/// Reads every other runtime's manifest and the folder's own marketplace
/// entry into `draft`, after the primary manifest's metadata was taken.
pub fn read(tree: &SourceTree, draft: &mut Draft, primary: Runtime) {
    for (runtime, foreign) in foreign() {
        let path = foreign.manifest;
        if runtime == primary {
            continue;
        }
        // A root plugin.json beside a plugforge.json-less native plugin is
        // the Agent Plugins manifest only when nothing else claims it.
        let Some(file) = tree.get(path) else { continue };
        let Ok(mut manifest) = Manifest::read(path, &file.bytes) else {
            let message =
                format!("{path} is not a JSON object; the {} bundle is built from the rest", runtime.id());
            draft.note(DiagnosticCode::ForeignManifestUnreadable, Location::file(path), message);
            continue;
        };
        foreign_manifest(draft, runtime, foreign, &mut manifest);
    }
    for path in foreign().filter_map(|(_, foreign)| foreign.marketplace) {
        if let Some(file) = tree.get(path) {
            own_entry(draft, path, &file.bytes);
        }
    }
}

fn foreign_manifest(draft: &mut Draft, runtime: Runtime, foreign: &Foreign, manifest: &mut Manifest) {
    let mut found = Draft::default();
    manifest.metadata(&mut found, Some("displayName"));
    for key in METADATA_KEYS {
        let Some(value) = found.get(key).cloned() else { continue };
        match draft.get(key) {
            None => {
                let message = format!(
                    "\"{key}\" taken from {}, as the primary manifest does not set it",
                    manifest.file
                );
                manifest.note(draft, DiagnosticCode::MetadataFromManifest, key, message);
                draft.set(key, value);
            }
            Some(mine) if *mine == value || key == "name" => {}
            // What users read may differ per runtime; the plugin's identity may not.
            Some(_) if !matches!(key, "description" | "displayName") => {
                let message = format!(
                    "\"{key}\" differs in {}; every bundle says what the primary manifest says",
                    manifest.file
                );
                manifest.note(draft, DiagnosticCode::MetadataDisagrees, key, message);
            }
            Some(_) => {
                let message = format!(
                    "\"{key}\" differs in {}: kept under targets.{}.manifest, so that bundle says what its manifest said",
                    manifest.file,
                    runtime.id()
                );
                manifest.note(draft, DiagnosticCode::RuntimeOnlyField, key, message);
                draft.target_field(runtime.id(), key, value);
            }
        }
    }
    hooks_switch(draft, runtime, manifest);
    for key in foreign.runtime_only_fields {
        let Some(value) = manifest.take(key) else { continue };
        if let Some((field, read)) = foreign.read_field.filter(|(field, _)| field == key) {
            debug_assert_eq!(field, *key);
            read(&manifest.text, &manifest.file, draft, value);
            continue;
        }
        let message = format!(
            "\"{key}\" of {} is {}-only: kept under targets.{}.manifest",
            manifest.file,
            runtime.id(),
            runtime.id()
        );
        manifest.note(draft, DiagnosticCode::RuntimeOnlyField, key, message);
        draft.target_field(runtime.id(), key, value);
    }
}

/// A runtime's manifest whose `hooks` is empty (`[]`, `{}`, `null`,
/// `false`) switches the plugin's hooks off for that runtime: its bundle
/// keeps them off (Codex, Cursor and Claude Code manifests all take the key).
fn hooks_switch(draft: &mut Draft, runtime: Runtime, manifest: &Manifest) {
    let off = match manifest.fields.get("hooks") {
        Some(Value::Array(items)) => items.is_empty(),
        Some(Value::Object(map)) => map.is_empty(),
        Some(Value::Null) | Some(Value::Bool(false)) => true,
        _ => false,
    };
    if off {
        let id = runtime.id();
        let message = format!(
            "{} declares no hooks: the {id} bundle carries none (targets.{id}.hooks: false)",
            manifest.file
        );
        manifest.note(draft, DiagnosticCode::HooksSwitchedOff, "hooks", message);
        draft.target_setting(id, "hooks", Value::Bool(false));
    }
}

/// The marketplace entry listing the folder itself: metadata the manifests
/// lack (the author, a category) is taken from it.
fn own_entry(draft: &mut Draft, path: &str, bytes: &[u8]) {
    let Ok(document) = serde_json::from_slice::<Map<String, Value>>(bytes) else { return };
    let Some(Value::Array(plugins)) = document.get("plugins") else { return };
    let name = draft.get("name").and_then(Value::as_str).map(str::to_string);
    let is_self = |entry: &&Value| {
        let source = entry.get("source");
        let local = match source {
            Some(Value::String(s)) => matches!(s.as_str(), "./" | "." | ""),
            Some(Value::Object(o)) => {
                o.get("path").and_then(Value::as_str).is_some_and(|p| matches!(p, "./" | "." | ""))
            }
            _ => false,
        };
        local || (name.is_some() && entry.get("name").and_then(Value::as_str) == name.as_deref())
    };
    let Some(Value::Object(entry)) =
        plugins.iter().find(is_self).or(if plugins.len() == 1 { plugins.first() } else { None })
    else {
        return;
    };
    let text = String::from_utf8_lossy(bytes).into_owned();
    for key in ["description", "version", "author", "homepage", "repository", "license", "keywords"] {
        let Some(value) = entry.get(key) else { continue };
        if draft.get(key).is_some() {
            continue;
        }
        let value = match (key, value) {
            ("author", Value::String(name)) => serde_json::json!({ "name": name }),
            ("author", Value::Object(fields)) if fields.get("name").is_some_and(Value::is_string) => {
                let kept: Map<String, Value> = fields
                    .iter()
                    .filter(|(k, v)| matches!(k.as_str(), "name" | "email" | "url") && v.is_string())
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                Value::Object(kept)
            }
            ("keywords", Value::Array(items)) if items.iter().all(Value::is_string) => value.clone(),
            (_, Value::String(_)) if key != "author" && key != "keywords" => value.clone(),
            _ => continue,
        };
        let message = format!("\"{key}\" ({}) taken from the plugin's own entry in {path}", short(&value));
        draft.note_key(DiagnosticCode::MetadataFromMarketplace, path, &text, key, message);
        draft.set(key, value);
    }
    if let Some(category) = entry.get("category").filter(|c| c.is_string()) {
        draft.set_marketplace_field("category", category);
    }
}

#[cfg(test)]
mod tests {
    use crate::import::{ImportOptions, import};
    use crate::source::SourceTree;

    #[test]
    fn an_empty_hooks_field_in_any_foreign_manifest_switches_that_runtime_off() {
        let mut tree = SourceTree::new();
        let files: [(&str, &str); 4] = [
            (".claude-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0"}"#),
            (".cursor-plugin/plugin.json", r#"{"name": "kit", "hooks": {}}"#),
            (".codex-plugin/plugin.json", r#"{"name": "kit", "hooks": "./hooks/hooks.json"}"#),
            (
                "hooks/hooks.json",
                r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
            ),
        ];
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let imported = import(&tree, &ImportOptions::default()).unwrap();
        let config: serde_json::Value =
            serde_json::from_slice(&imported.source.get("plugforge.json").unwrap().bytes).unwrap();
        assert_eq!(config["targets"]["cursor"]["hooks"], false, "{config}");
        assert!(config["targets"].get("codex").and_then(|c| c.get("hooks")).is_none(), "{config}");
        assert!(
            imported
                .notes
                .iter()
                .any(|n| n.code == "hooks_switched_off" && n.file() == Some(".cursor-plugin/plugin.json"))
        );
    }
}
