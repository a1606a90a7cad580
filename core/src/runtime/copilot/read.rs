//! Copilot CLI plugins as a source, in the layouts Copilot CLI loads, first
//! match first [1]:
//!
//! - an Agent Plugins root `plugin.json` (with its `$schema`): skills and the
//!   spec `mcp.json` at the root, agents, commands and hooks only under
//!   `com.github.copilot/` [8];
//! - `.plugin/plugin.json` (what the build writes), a root `plugin.json`
//!   without `$schema`, or `.github/plugin/plugin.json`: Claude Code's layout
//!   under Copilot's manifest [4, 5].
//!
//! Each is first laid out as the Claude Code layout it stands for (where
//! Copilot differs from Claude Code: a manifest `skills` list replaces
//! `skills/` and may name a skill folder itself; an MCP file by location
//! shadows a manifest `mcpServers` object; `.github/mcp.json` and a root
//! `hooks.json` are read by location; `*.agent.md` names the agent before
//! `.agent.md`), then read by Claude Code's reader in Copilot's dialect.

use serde_json::{Map, Value};

use super::facts;
use crate::codes::DiagnosticCode;
use crate::draft::Draft;
use crate::draft::manifest::{Manifest, entries, relative};
use crate::error::{Location, Result};
use crate::runtime::claude_code::read::{Dialect, import_as};
use crate::source::{SourceFile, SourceTree};

const fn dialect(manifest: &'static str, mcp_files: &'static [&'static str]) -> Dialect {
    Dialect {
        manifest,
        runtime: crate::registry::Runtime::Copilot.id(),
        runtime_name: super::SPEC.name,
        only_fields: &facts::ONLY_FIELDS,
        only_files: &facts::LSP_FILES,
        mcp_files,
        settings_file_wins: false,
        spellings: &[(facts::PLUGIN_ROOT_VAR, "${PLUGIN_ROOT}"), (facts::PLUGIN_DATA, "${PLUGIN_DATA}")],
    }
}

/// The manifests of Claude Code's layout, in Copilot's order [1].
const CLAUDE_LAYOUTS: [Dialect; 3] = [
    dialect(facts::MANIFEST_PATH, &[facts::MCP_FILES[0]]),
    dialect(facts::ROOT_MANIFEST_PATH, &[facts::MCP_FILES[0]]),
    dialect(facts::GITHUB_MANIFEST_PATH, &[facts::MCP_FILES[0]]),
];

/// An Agent Plugins plugin, once laid out as Claude Code's.
const SPEC_LAYOUT: Dialect = dialect(facts::ROOT_MANIFEST_PATH, &[facts::MCP_FILES[0]]);

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    if is_spec_plugin(tree) {
        let view = spec_view(tree, draft)?;
        return import_as(&view, draft, &SPEC_LAYOUT);
    }
    for dialect in &CLAUDE_LAYOUTS {
        if tree.get(dialect.manifest).is_some() {
            let view = claude_view(tree, draft, dialect.manifest)?;
            return import_as(&view, draft, dialect);
        }
    }
    Err(crate::draft::missing_marker(facts::GITHUB_MANIFEST_PATH))
}

/// Whether the folder is Copilot's when it would otherwise be read as
/// `found`: a `.github/plugin/plugin.json` beside no other runtime's manifest,
/// or an Agent Plugins plugin with Copilot's own parts (`com.github.copilot/`,
/// or that key in its `extensions`).
pub(crate) fn claims(tree: &SourceTree, found: Option<crate::registry::Runtime>) -> bool {
    use crate::registry::Runtime;
    match found {
        None => tree.get(facts::GITHUB_MANIFEST_PATH).is_some(),
        // Claude Code's default layout without its manifest.
        Some(Runtime::ClaudeCode) => {
            tree.get(facts::GITHUB_MANIFEST_PATH).is_some()
                && tree.get(crate::runtime::claude_code::facts::MANIFEST_PATH).is_none()
        }
        Some(Runtime::AgentPlugins) => {
            let extension = tree
                .get(facts::ROOT_MANIFEST_PATH)
                .and_then(|file| serde_json::from_slice::<Map<String, Value>>(&file.bytes).ok())
                .is_some_and(|manifest| manifest.get("extensions").and_then(|e| e.get(facts::EXTENSION_KEY)).is_some());
            extension || tree.below(facts::SPEC_FOLDER).next().is_some()
        }
        Some(_) => false,
    }
}

/// A root `plugin.json` whose `$schema` is the Agent Plugins one.
fn is_spec_plugin(tree: &SourceTree) -> bool {
    let Some(file) = tree.get(facts::ROOT_MANIFEST_PATH) else { return false };
    let Ok(manifest) = serde_json::from_slice::<Map<String, Value>>(&file.bytes) else { return false };
    manifest.get("$schema").and_then(Value::as_str).is_some_and(|s| s.starts_with(facts::SPEC_SCHEMA_PREFIX))
}

fn unused(draft: &mut Draft, path: &str, message: String) {
    draft.note(DiagnosticCode::UnusedFile, Location::file(path), message);
}

fn put(view: &mut SourceTree, path: &str, file: &SourceFile) -> Result<()> {
    view.insert(path, file.bytes.clone(), file.executable)
}

/// `agents/x.agent.md` as `agents/x.md`, unless that file exists too.
fn agent_path(tree: &SourceTree, path: &str) -> String {
    match path.strip_suffix(facts::AGENT_SUFFIX) {
        Some(stem) if tree.get(&format!("{stem}.md")).is_none() => format!("{stem}.md"),
        _ => path.to_string(),
    }
}

/// The path below folder `root`, if `path` is inside it.
fn below<'a>(path: &'a str, root: &str) -> Option<&'a str> {
    path.strip_prefix(root).and_then(|rest| rest.strip_prefix('/'))
}

/// The skill folders a manifest `skills` list makes Copilot load, each with
/// the name it gets: a listed folder holding `SKILL.md` is a skill, any
/// other holds skills one level down [5, 16, 32].
fn listed_skills(tree: &SourceTree, roots: &[String]) -> Vec<(String, String)> {
    let mut skills: Vec<(String, String)> = Vec::new();
    for root in roots {
        if tree.get(&format!("{root}/SKILL.md")).is_some() {
            let name = root.rsplit('/').next().unwrap_or(root).to_string();
            skills.push((root.clone(), name));
            continue;
        }
        for (path, _) in tree.below(root) {
            let Some(rel) = below(path.as_str(), root) else { continue };
            if let Some((name, "SKILL.md")) = rel.split_once('/') {
                skills.push((format!("{root}/{name}"), name.to_string()));
            }
        }
    }
    let mut seen: Vec<String> = Vec::new();
    skills.retain(|(_, name)| {
        let first = !seen.contains(name);
        seen.push(name.clone());
        first
    });
    skills
}

/// A `.plugin/`, root or `.github/plugin/` plugin laid out as Claude Code's.
fn claude_view(tree: &SourceTree, draft: &mut Draft, manifest_path: &str) -> Result<SourceTree> {
    let manifest_file = tree.get(manifest_path).expect("the caller found it");
    let manifest = Manifest::read(manifest_path, &manifest_file.bytes)?;
    manifest.unloadable_extensions(draft, &facts::COMPONENT_KEYS, &[facts::EXTENSION_KEY]);
    let mut fields = manifest.fields.clone();
    let mut rewritten = false;
    // A listed skill folder replaces skills/ [5].
    let skill_roots: Option<Vec<String>> = match fields.get("skills") {
        Some(value) => {
            let roots: Vec<Option<String>> =
                entries(value).iter().map(|e| e.as_str().and_then(relative)).collect();
            roots.iter().all(Option::is_some).then(|| roots.into_iter().flatten().collect())
        }
        None => None,
    };
    let skills = skill_roots.as_ref().map(|roots| listed_skills(tree, roots));
    if skills.is_some() {
        fields.shift_remove("skills");
        rewritten = true;
    }
    let mcp_file = facts::MCP_FILES.iter().copied().find(|f| tree.get(f).is_some());
    // An MCP file by location shadows an inline object [7].
    if let (Some(file), Some(Value::Object(_))) = (mcp_file, fields.get("mcpServers")) {
        let message = format!(
            "\"mcpServers\" is not imported: Copilot CLI reads {file} instead of a manifest's inline servers"
        );
        manifest.note(draft, DiagnosticCode::UnusedField, "mcpServers", message);
        fields.shift_remove("mcpServers");
        rewritten = true;
    }
    // A manifest `hooks` replaces the hooks files by location [5]; an
    // inline object is not loaded [6]; a file in Copilot's own dialect is
    // left out as one found by location is.
    let named_hooks: Option<String> = match fields.get("hooks") {
        Some(Value::String(path)) => relative(path),
        _ => None,
    };
    let manifest_hooks = fields.contains_key("hooks");
    if let Some(Value::Object(_)) = fields.get("hooks") {
        let message = "\"hooks\" is not imported: Copilot CLI does not load a hooks object inline in the manifest".to_string();
        manifest.note(draft, DiagnosticCode::UnusedField, "hooks", message);
        fields.shift_remove("hooks");
        rewritten = true;
    }
    if let Some(path) = &named_hooks {
        let file = tree.get(path);
        let value = file.map(|f| crate::draft::common::json(path, f)).transpose()?;
        if value.as_ref().is_some_and(copilot_dialect) {
            draft.note(DiagnosticCode::UnsupportedHookEvent, Location::file(path), COPILOT_HOOKS.to_string());
            fields.shift_remove("hooks");
            rewritten = true;
        }
    }
    let hooks_file =
        if manifest_hooks { None } else { facts::HOOK_FILES.iter().copied().find(|f| tree.get(f).is_some()) };
    // Where agents are: the manifest's folders and files, else agents/ [5].
    let agent_roots: Vec<String> = match fields.get("agents") {
        Some(value) => entries(value).iter().filter_map(|e| e.as_str().and_then(relative)).collect(),
        None => vec!["agents".to_string()],
    };
    let is_agent = |p: &str| agent_roots.iter().any(|root| root == p || below(p, root).is_some());
    // A listed `x.agent.md` is listed as `x.md`, as its file is laid out.
    if let Some(Value::Array(listed)) = fields.get_mut("agents") {
        for entry in listed.iter_mut() {
            let Some(path) = entry.as_str().and_then(relative) else { continue };
            let renamed = agent_path(tree, &path);
            if renamed != path {
                *entry = Value::String(format!("./{renamed}"));
                rewritten = true;
            }
        }
    }
    let mut view = SourceTree::new();
    for (path, file) in tree.iter() {
        let p = path.as_str();
        if p == manifest_path {
            if rewritten {
                let text = serde_json::to_string_pretty(&Value::Object(fields.clone())).expect("JSON") + "\n";
                view.insert(p, text.into_bytes(), file.executable)?;
            } else {
                put(&mut view, p, file)?;
            }
            continue;
        }
        if let Some(skills) = &skills {
            let placed = skills.iter().find_map(|(folder, name)| below(p, folder).map(|rel| (name, rel)));
            if let Some((name, rel)) = placed {
                put(&mut view, &format!("skills/{name}/{rel}"), file)?;
                continue;
            }
            if below(p, "skills").is_some() {
                let message = format!(
                    "not imported: {manifest_path} lists other skills, so Copilot CLI does not load skills/"
                );
                unused(draft, p, message);
                continue;
            }
        }
        if facts::MCP_FILES.contains(&p) && Some(p) != mcp_file {
            let message = format!("not imported: Copilot CLI reads {} first", mcp_file.unwrap_or_default());
            unused(draft, p, message);
            continue;
        }
        if Some(p) == mcp_file {
            put(&mut view, facts::MCP_FILES[0], file)?;
            continue;
        }
        if named_hooks.as_deref() == Some(p) {
            // Read through the manifest, or already noted.
            if fields.contains_key("hooks") {
                put(&mut view, p, file)?;
            }
            continue;
        }
        if facts::HOOK_FILES.contains(&p) {
            if manifest_hooks {
                unused(draft, p, format!("not imported: {manifest_path} names the hooks Copilot CLI loads"));
            } else if Some(p) != hooks_file {
                unused(draft, p, format!("not imported: Copilot CLI reads {} first", hooks_file.unwrap_or_default()));
            } else {
                hooks(&mut view, draft, p, file)?;
            }
            continue;
        }
        if is_agent(p) {
            put(&mut view, &agent_path(tree, p), file)?;
            continue;
        }
        put(&mut view, p, file)?;
    }
    Ok(view)
}

/// A hooks file in Claude Code's dialect, which Copilot loads as it is
/// [19]; one in Copilot's own dialect (a `version`, camelCase events and
/// flat handlers) hands its scripts another payload than the canonical
/// events would [23a], so it is not imported.
fn hooks(view: &mut SourceTree, draft: &mut Draft, path: &str, file: &SourceFile) -> Result<()> {
    let value: Value = crate::draft::common::json(path, file)?;
    if copilot_dialect(&value) {
        draft.note(DiagnosticCode::UnsupportedHookEvent, Location::file(path), COPILOT_HOOKS.to_string());
        return Ok(());
    }
    put(view, "hooks/hooks.json", file)
}

const COPILOT_HOOKS: &str = "not imported: hooks in Copilot CLI's own dialect (camelCase events, Copilot's payload), which the canonical source (Claude Code's events and payload) cannot carry as they run";

/// A hooks document in Copilot's own dialect: a `version`, or camelCase events [19, 21].
fn copilot_dialect(value: &Value) -> bool {
    value.get("version").is_some()
        || value
            .get("hooks")
            .and_then(Value::as_object)
            .is_some_and(|events| events.keys().any(|e| e.starts_with(|c: char| c.is_ascii_lowercase())))
}

/// An Agent Plugins plugin laid out as Claude Code's: `com.github.copilot/`
/// holds its agents, commands and hooks; the same folders at the root are
/// not read [8].
fn spec_view(tree: &SourceTree, draft: &mut Draft) -> Result<SourceTree> {
    let manifest_file = tree.get(facts::ROOT_MANIFEST_PATH).expect("the caller found it");
    let manifest = Manifest::read(facts::ROOT_MANIFEST_PATH, &manifest_file.bytes)?;
    manifest.unloadable_extensions(draft, &facts::COMPONENT_KEYS, &[facts::EXTENSION_KEY]);
    let folder = facts::SPEC_FOLDER;
    let mut view = SourceTree::new();
    for (path, file) in tree.iter() {
        let p = path.as_str();
        if let Some(rel) = below(p, folder) {
            match rel.split_once('/') {
                Some(("agents", _)) => put(&mut view, &agent_path(tree, rel), file)?,
                Some(("commands", _)) => put(&mut view, rel, file)?,
                _ if rel == facts::HOOK_FILES[0] => hooks(&mut view, draft, p, file)?,
                _ => put(&mut view, p, file)?,
            }
            continue;
        }
        let root_only = ["agents", "commands", "hooks"].iter().any(|f| below(p, f).is_some())
            || facts::HOOK_FILES.contains(&p)
            || facts::MCP_FILES.contains(&p);
        if root_only {
            let message = format!(
                "not imported: with an Agent Plugins {} Copilot CLI reads this only under {folder}/",
                facts::ROOT_MANIFEST_PATH
            );
            unused(draft, p, message);
            continue;
        }
        if p == facts::SPEC_MCP_FILE {
            spec_servers(&mut view, draft, p, file)?;
            continue;
        }
        put(&mut view, p, file)?;
    }
    Ok(view)
}

/// The spec `mcp.json`, which Copilot reads only with its `$schema` [8]:
/// its servers as Claude Code's `.mcp.json` (`streamable-http` read as
/// `http` [24]).
fn spec_servers(view: &mut SourceTree, draft: &mut Draft, path: &str, file: &SourceFile) -> Result<()> {
    let Value::Object(mut object) = crate::draft::common::json(path, file)? else {
        return Err(crate::draft::json_parts::invalid(path, "mcp.json must be a JSON object"));
    };
    if object.shift_remove("$schema").is_none() {
        let message = "not imported: Copilot CLI refuses an Agent Plugins mcp.json without its \"$schema\"";
        draft.note(DiagnosticCode::UnsupportedServer, Location::file(path), message);
        return Ok(());
    }
    if let Some(Value::Object(servers)) = object.get_mut("mcpServers") {
        for server in servers.values_mut() {
            if server.get("type").and_then(Value::as_str) == Some("streamable-http") {
                server["type"] = Value::String("http".into());
            }
        }
    }
    let bytes = crate::json::to_bytes(&Value::Object(object));
    view.insert(facts::MCP_FILES[0], bytes, false)
}

#[cfg(test)]
mod tests {
    use crate::import::{ImportOptions, import};
    use crate::source::SourceTree;

    fn tree(files: &[(&str, &str)]) -> SourceTree {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        tree
    }

    const SKILL: &str = "---\nname: a\ndescription: A skill.\n---\nBody.\n";

    #[test]
    fn a_github_plugin_manifest_alone_is_read_as_copilots_not_as_a_manifestless_claude_plugin() {
        let manifest = r#"{"name": "kit", "version": "3.0.0", "author": {"name": "Kit Authors"},
            "mcpServers": {"local": {"command": "node", "args": ["s.js"]}}}"#;
        let imported =
            import(&tree(&[(".github/plugin/plugin.json", manifest), ("skills/a/SKILL.md", SKILL)]), &ImportOptions::default())
                .unwrap();
        assert_eq!(imported.runtime.id(), "copilot");
        let config: serde_json::Value =
            serde_json::from_slice(&imported.source.get("plugforge.json").unwrap().bytes).unwrap();
        assert_eq!(config["version"], "3.0.0");
        assert_eq!(config["author"]["name"], "Kit Authors");
        let servers: serde_json::Value =
            serde_json::from_slice(&imported.source.get(".mcp.json").unwrap().bytes).unwrap();
        assert_eq!(servers["mcpServers"]["local"]["command"], "node");
    }

    #[test]
    fn a_claude_manifest_beside_it_stays_the_primary_one() {
        let files = [
            (".claude-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0"}"#),
            (".github/plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0"}"#),
            ("skills/a/SKILL.md", SKILL),
        ];
        assert_eq!(import(&tree(&files), &ImportOptions::default()).unwrap().runtime.id(), "claude-code");
    }

    #[test]
    fn an_agent_plugins_manifest_is_copilots_only_with_copilots_own_parts() {
        let manifest = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "kit", "version": "1.0.0"}"#;
        let plain = [("plugin.json", manifest), ("skills/a/SKILL.md", SKILL)];
        assert_eq!(import(&tree(&plain), &ImportOptions::default()).unwrap().runtime.id(), "agent-plugins");
        let agent = "---\nname: helper\ndescription: Helps.\n---\nHelp.\n";
        let with_folder = [
            ("plugin.json", manifest),
            ("skills/a/SKILL.md", SKILL),
            ("com.github.copilot/agents/helper.agent.md", agent),
        ];
        let imported = import(&tree(&with_folder), &ImportOptions::default()).unwrap();
        assert_eq!(imported.runtime.id(), "copilot");
        assert!(imported.source.get("agents/helper.md").is_some());
    }
}
