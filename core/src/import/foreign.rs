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
use crate::lint::Folder;
use crate::lint::layout::{HookSource, Layout, LayoutInput};
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
        left_out(tree, draft, primary, runtime, &manifest);
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
    let off = manifest.fields.get("hooks").is_some_and(hooks_empty);
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

/// What the primary manifest loads and `runtime`'s own manifest does not:
/// the author left it out of that runtime. Each runtime's layout (its
/// default folders, changed by what its manifest declares) says what it
/// loads; a kind it loads from nowhere is its own limit, not the author's
/// choice, and is left to the writers' rows. Hooks all left out switch the
/// runtime's hooks off (`targets.<id>.hooks: false`); skills, agents and
/// commands are named in `targets.<id>.omit`.
fn left_out(tree: &SourceTree, draft: &mut Draft, primary: Runtime, runtime: Runtime, manifest: &Manifest) {
    let theirs = layout_of(tree, runtime, Value::Object(manifest.fields.clone()));
    let primary_manifest = primary.spec().reads.manifest;
    let mine = primary_manifest
        .and_then(|path| tree.get(path))
        .and_then(|file| serde_json::from_slice::<Value>(&file.bytes).ok())
        .filter(Value::is_object)
        .unwrap_or(Value::Null);
    let mine = layout_of(tree, primary, mine);
    let id = runtime.id();
    let lists_hooks = manifest.fields.get("hooks").is_some_and(|h| !hooks_empty(h));
    if lists_hooks || !theirs.hooks.is_empty() {
        let loaded: Vec<&HookSource> = mine
            .hooks
            .iter()
            .filter(|source| match source {
                HookSource::File(path) => tree.get(path).is_some(),
                HookSource::Inline { .. } => true,
            })
            .collect();
        let kept = |source: &HookSource| {
            theirs.hooks.iter().any(|other| match (source, other) {
                (HookSource::File(a), HookSource::File(b)) => a == b,
                (HookSource::Inline { hooks: a, .. }, HookSource::Inline { hooks: b, .. }) => a == b,
                _ => false,
            })
        };
        if !loaded.is_empty()
            && !loaded.iter().any(|source| kept(source))
            && draft.get_target_setting(id, "hooks").is_none()
        {
            let named: Vec<String> = loaded.iter().map(|source| hook_source_name(source)).collect();
            let message = format!(
                "{} does not load the hooks of {}: the {id} bundle carries none (targets.{id}.hooks: false)",
                manifest.file,
                named.join(", ")
            );
            manifest.note(draft, DiagnosticCode::HooksSwitchedOff, "hooks", message);
            draft.target_setting(id, "hooks", Value::Bool(false));
        }
    }
    let mut omitted: Vec<String> = Vec::new();
    let origins: Vec<(String, String)> =
        draft.origins().map(|(path, origin)| (path.to_string(), origin.to_string())).collect();
    for (path, origin) in &origins {
        if primary_manifest == Some(origin.as_str()) {
            // Declared inline in the primary manifest: no folder to compare.
            continue;
        }
        let (component, native, roots) = if let Some(skill) =
            path.strip_prefix("skills/").and_then(|rest| rest.strip_suffix("/SKILL.md"))
        {
            let folder = origin.strip_suffix("SKILL.md").unwrap_or(origin).trim_end_matches('/');
            if folder.is_empty() && theirs.root_skill {
                continue;
            }
            (format!("skills/{skill}"), folder.to_string(), &theirs.skill_dirs)
        } else if path.starts_with("agents/") && path.ends_with(".md") {
            (path.clone(), origin.clone(), &theirs.agents)
        } else if path.starts_with("commands/") && path.ends_with(".md") {
            (path.clone(), origin.clone(), &theirs.commands)
        } else {
            continue;
        };
        // A kind this runtime reads from no folder is its own limit.
        if roots.is_empty() {
            continue;
        }
        let loaded = roots
            .iter()
            .any(|root| root.is_empty() || native == *root || native.starts_with(&format!("{root}/")));
        if !loaded {
            omitted.push(component);
        }
    }
    if !omitted.is_empty() {
        let message = format!(
            "{} does not load {}: the {id} bundle leaves them out (targets.{id}.omit)",
            manifest.file,
            omitted.join(", ")
        );
        draft.note(DiagnosticCode::LeftOutForRuntime, Location::file(manifest.file.as_str()), message);
        draft.target_setting(id, "omit", Value::Array(omitted.into_iter().map(Value::String).collect()));
    }
}

/// Where `runtime` finds components in `tree`, its manifest being `manifest`.
fn layout_of(tree: &SourceTree, runtime: Runtime, manifest: Value) -> Layout {
    let reads = &runtime.spec().reads;
    let mut layout = Layout::base();
    let input = LayoutInput {
        folder: Folder::new(tree, ""),
        manifest: &manifest,
        manifest_rel: reads.manifest.unwrap_or_default(),
    };
    (reads.layout)(&mut layout, &input);
    layout
}

fn hook_source_name(source: &HookSource) -> String {
    match source {
        HookSource::File(path) => path.clone(),
        HookSource::Inline { manifest, .. } => format!("{manifest} (inline)"),
    }
}

/// An empty `hooks` value: the runtime's hooks switched off.
fn hooks_empty(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        Value::Null | Value::Bool(false) => true,
        _ => false,
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
    // What the plugin needs (Codex: when it asks for authentication), as
    // the listing runtime's own values: the plugin's entry in that
    // runtime's marketplace says it again.
    let owner = foreign().find(|(_, foreign)| foreign.marketplace == Some(path)).map(|(runtime, _)| runtime);
    let Some((runtime, rules)) = owner.and_then(|r| Some((r, r.spec().marketplace.as_ref()?))) else {
        return;
    };
    let Some(policy) = entry.get("policy").and_then(Value::as_object) else { return };
    let mut kept = Map::new();
    for key in rules.plugin_policy {
        let Some(value) = policy.get(*key) else { continue };
        let allowed = rules.entry_policy.iter().find(|(k, _)| k == key).map(|(_, values)| *values);
        let known = value.as_str().is_some_and(|v| allowed.is_none_or(|values| values.contains(&v)));
        if known {
            kept.insert((*key).to_string(), value.clone());
        }
    }
    if !kept.is_empty() {
        let id = runtime.id();
        let message = format!(
            "\"policy\" {} taken from the plugin's own entry in {path}: kept under targets.{id}.marketplaceEntry",
            short(&Value::Object(kept.clone()))
        );
        draft.note_key(DiagnosticCode::MetadataFromMarketplace, path, &text, "policy", message);
        let mut fields = Map::new();
        fields.insert("policy".into(), Value::Object(kept));
        draft.target_setting(id, "marketplaceEntry", Value::Object(fields));
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

    fn tree_of(files: &[(&str, &str)]) -> SourceTree {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        tree
    }

    fn config_of(tree: &SourceTree) -> (serde_json::Value, Vec<crate::report::Diagnostic>) {
        let imported = import(tree, &ImportOptions::default()).unwrap();
        let config = serde_json::from_slice(&imported.source.get("plugforge.json").unwrap().bytes).unwrap();
        (config, imported.notes)
    }

    const STOP: &str = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#;

    /// SonarSource's plugin (sonarqube-agent-plugins at 0e502ce): its hook
    /// is named by the Claude manifest alone, in a folder no other
    /// runtime's default reaches.
    #[test]
    fn a_hook_only_the_primary_manifest_names_is_left_out_of_runtimes_that_do_not_load_it() {
        let tree = tree_of(&[
            (
                ".claude-plugin/plugin.json",
                r#"{"name": "kit", "version": "1.0.0", "hooks": "./claude-hooks/hooks.json"}"#,
            ),
            (".codex-plugin/plugin.json", r#"{"name": "kit", "skills": "./skills/"}"#),
            (".cursor-plugin/plugin.json", r#"{"name": "kit", "hooks": "./hooks/cursor.json"}"#),
            ("claude-hooks/hooks.json", STOP),
            ("hooks/cursor.json", r#"{"version": 1, "hooks": {"stop": [{"command": "true"}]}}"#),
            ("skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\nA.\n"),
        ]);
        let (config, notes) = config_of(&tree);
        assert_eq!(config["targets"]["codex"]["hooks"], false, "{config}");
        assert_eq!(config["targets"]["cursor"]["hooks"], false, "{config}");
        let note = notes
            .iter()
            .find(|n| n.file() == Some(".codex-plugin/plugin.json") && n.code == "hooks_switched_off");
        assert!(note.is_some_and(|n| n.message.contains("claude-hooks/hooks.json")), "{notes:?}");
    }

    /// qoder-alibabacloud-core: Qoder's `hooks` adds to hooks/hooks.json,
    /// so the Claude hooks still reach it; Cursor's replaces it
    /// (superpowers' hooks-cursor.json), so they do not.
    #[test]
    fn a_runtime_whose_manifest_adds_hooks_keeps_the_default_ones() {
        let tree = tree_of(&[
            (".claude-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0"}"#),
            (".qoder-plugin/plugin.json", r#"{"name": "kit", "hooks": "./hooks/qoder.json"}"#),
            (".cursor-plugin/plugin.json", r#"{"name": "kit", "hooks": "./hooks/hooks-cursor.json"}"#),
            ("hooks/hooks.json", STOP),
            ("hooks/qoder.json", STOP),
            ("hooks/hooks-cursor.json", r#"{"version": 1, "hooks": {"stop": [{"command": "true"}]}}"#),
        ]);
        let (config, _) = config_of(&tree);
        assert!(config["targets"].get("qoder").and_then(|q| q.get("hooks")).is_none(), "{config}");
        assert_eq!(config["targets"]["cursor"]["hooks"], false, "{config}");
    }

    #[test]
    fn skills_and_agents_another_manifest_lists_without_are_omitted_for_it_alone() {
        let tree = tree_of(&[
            (".claude-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0", "skills": ["./extra/"]}"#),
            (
                ".cursor-plugin/plugin.json",
                r#"{"name": "kit", "skills": "./skills/", "agents": ["./agents/a.md"]}"#,
            ),
            // Gemini CLI reads no `skills` field: its list is no choice
            // (netlify-context-and-tools lists 12 of its 15 skills there).
            ("gemini-extension.json", r#"{"name": "kit", "version": "1.0.0", "skills": ["skills/a"]}"#),
            ("skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\nA.\n"),
            ("skills/b/SKILL.md", "---\nname: b\ndescription: B.\n---\nB.\n"),
            ("extra/c/SKILL.md", "---\nname: c\ndescription: C.\n---\nC.\n"),
            ("agents/a.md", "---\nname: a\ndescription: A.\n---\nA.\n"),
            ("agents/b.md", "---\nname: b\ndescription: B.\n---\nB.\n"),
        ]);
        let (config, notes) = config_of(&tree);
        assert_eq!(
            config["targets"]["cursor"]["omit"],
            serde_json::json!(["agents/b.md", "skills/c"]),
            "{config}"
        );
        // Gemini CLI loads skills/ whatever its manifest lists, and not the
        // folder only the Claude manifest names.
        assert_eq!(config["targets"]["gemini"]["omit"], serde_json::json!(["skills/c"]), "{config}");
        assert!(
            notes
                .iter()
                .any(|n| n.code == "left_out_for_runtime" && n.file() == Some(".cursor-plugin/plugin.json"))
        );
        // The build leaves them out of Cursor's bundle alone, each with a row.
        let options = crate::BuildOptions {
            targets: vec![crate::TargetRequest::new("cursor"), crate::TargetRequest::new("claude-code")],
            ..Default::default()
        };
        let output = crate::build(&tree, &options).unwrap();
        let cursor = output.bundles.iter().find(|b| b.runtime.id() == "cursor").unwrap();
        let claude = output.bundles.iter().find(|b| b.runtime.id() == "claude-code").unwrap();
        let has = |b: &crate::Bundle, p: &str| b.files.keys().any(|k| k.as_str().ends_with(p));
        assert!(
            !has(cursor, "agents/b.md") && !has(cursor, "skills/c/SKILL.md") && has(cursor, "agents/a.md")
        );
        assert!(has(claude, "agents/b.md") && has(claude, "skills/c/SKILL.md"));
        let rows: Vec<_> = cursor
            .honesty
            .iter()
            .filter(|h| h.level == crate::Level::Unsupported && h.detail.contains("targets.cursor.omit"))
            .map(|h| (h.component, h.name.as_str()))
            .collect();
        assert_eq!(rows, [(crate::Component::Skill, "c"), (crate::Component::Agent, "b")]);
    }

    #[test]
    fn an_omit_entry_naming_nothing_is_an_error() {
        let tree = tree_of(&[
            (
                "plugforge.json",
                r#"{"name": "kit", "version": "1.0.0", "targets": {"codex": {"omit": ["skills/nope"]}}}"#,
            ),
            ("skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\nA.\n"),
        ]);
        let options =
            crate::BuildOptions { targets: vec![crate::TargetRequest::new("codex")], ..Default::default() };
        let err = crate::build(&tree, &options).unwrap_err();
        assert!(err.to_string().contains("skills/nope"), "{err}");
    }
}
