//! What Factory Droid's report (`core/src/runtime/factory_droid/drivers/droid_inventory.py`) says of
//! a plugin: `droid plugin marketplace add` and `droid plugin install` in a
//! throwaway HOME, then a `droid exec` JSON-RPC session's `list_skills`,
//! `list_commands`, `list_mcp_servers` and the droids of
//! `get_context_breakdown`. Droid validates nothing (facts.rs), so the
//! reading also checks what it would drop without a word: hook events
//! outside its nine, and a manifest without a name of its form.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{facts, lint};
use crate::runtime::verdict::{Built, Reading, exit, file_named, last_lines};

/// The `key` of each object of the list `value`.
fn names(value: &Value, key: &str) -> BTreeSet<String> {
    value.as_array().into_iter().flatten().filter_map(|v| v[key].as_str()).map(str::to_string).collect()
}

pub(crate) fn read_plugin(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    for step in ["marketplace_add", "install"] {
        let run = &report[step];
        if exit(run) != Some(0) {
            let output = format!("{}\n{}", run["stdout"].as_str().unwrap_or(""), run["stderr"].as_str().unwrap_or("not run"));
            reading.say(&step.replace('_', " "), last_lines(&output, 3), file_named(&output, built.dir).as_deref());
        }
    }
    let run = &report["inventory_run"];
    if exit(run) != Some(0) {
        reading.say("inventory", last_lines(run["stderr"].as_str().unwrap_or("not run"), 3), None);
    }
    let inventory = &report["inventory"];
    for (method, error) in inventory["errors"].as_object().into_iter().flatten() {
        reading.say("inventory", format!("{method}: {error}"), None);
    }
    own_checks(built, &mut reading);

    let same = |name: &str| name.to_string();
    let skills = names(&inventory["skills"], "name");
    reading.compare("skill", "skills", &built.skill_folders(facts::SKILLS_DIR), &skills, &same);
    // Every file below commands/ is a command named by its base name.
    let prefix = format!("{}/", facts::COMMANDS_DIR);
    let commands: Vec<(String, String)> = built
        .manifest
        .files
        .iter()
        .filter(|f| f.path.starts_with(&prefix))
        .map(|f| {
            let file = f.path.rsplit('/').next().unwrap_or(&f.path);
            let name = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
            (name.to_string(), f.path.clone())
        })
        .collect();
    reading.compare("command", "commands", &commands, &names(&inventory["commands"], "name"), &same);
    let droids = droid_names(built);
    reading.compare("droid", "droids", &droids, &names(&inventory["droids"], "name"), &same);
    let servers = built.json_keys(facts::MCP_FILE, "/mcpServers");
    reading.compare("MCP server", "MCP servers", &servers, &names(&inventory["mcpServers"], "name"), &same);
    reading
}

/// Each droid file the build wrote, by the name Droid gives it (its
/// frontmatter `name`, else its base name).
fn droid_names(built: &Built<'_>) -> Vec<(String, String)> {
    built
        .files_in(facts::DROIDS_DIR, ".md")
        .into_iter()
        .map(|(stem, path)| {
            let named = built
                .files
                .get(&path)
                .and_then(|bytes| std::str::from_utf8(bytes).ok())
                .and_then(|text| crate::source::parse_document(&path, text).ok())
                .and_then(|document| document.str_field("name").map(str::to_string));
            (named.unwrap_or(stem), path)
        })
        .collect()
}

/// What Droid accepts in silence but drops or misreads.
fn own_checks(built: &Built<'_>, reading: &mut Reading) {
    match built.json(facts::MANIFEST_PATH) {
        None => reading.say("manifest", "not valid JSON, which Factory Droid installs anyway", Some(facts::MANIFEST_PATH)),
        Some(manifest) => {
            if !manifest["name"].as_str().is_some_and(lint::valid_plugin_name) {
                let message = format!("name {} is not lowercase letters, digits and hyphens", manifest["name"]);
                reading.say("manifest", message, Some(facts::MANIFEST_PATH));
            }
        }
    }
    for (event, _) in built.json_keys(facts::HOOKS_FILE, "/hooks") {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let message = format!("hook event {event}: Factory Droid's plugin loader drops it without a word");
            reading.say("hooks", message, Some(facts::HOOKS_FILE));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::manifest::Manifest;

    fn manifest(paths: &[&str]) -> Manifest {
        let files: Vec<Value> = paths.iter().map(|p| json!({"path": p, "sha256": "0", "template": p})).collect();
        let value = json!({
            "schema_version": crate::manifest::SCHEMA_VERSION, "generator": {"name": "plugforge", "version": "0"},
            "generated_at": "t", "runtime": "factory-droid", "kind": "plugin", "scope": "user",
            "namespace": "kit", "plugin": {"name": "kit", "version": "1.0.0"}, "files": files,
        });
        Manifest::parse("m.json", value.to_string().as_bytes()).unwrap().sorted()
    }

    #[test]
    fn a_full_load_passes_and_a_missing_command_or_dropped_event_is_named() {
        let manifest = manifest(&[
            ".factory-plugin/plugin.json",
            "skills/review/SKILL.md",
            "commands/team/go.md",
            "droids/helper.md",
            "hooks/hooks.json",
            "mcp.json",
        ]);
        let mut files = BTreeMap::new();
        files.insert(".factory-plugin/plugin.json".to_string(), br#"{"name": "kit"}"#.to_vec());
        files.insert("droids/helper.md".to_string(), b"---\nname: helper\n---\nHelp.\n".to_vec());
        files.insert("hooks/hooks.json".to_string(), br#"{"hooks": {"Stop": []}}"#.to_vec());
        files.insert("mcp.json".to_string(), br#"{"mcpServers": {"srv": {"command": "x"}}}"#.to_vec());
        let built = Built { dir: "/out/factory-droid", manifest: &manifest, files: &files };
        let ok = json!({"exit": 0, "stdout": "", "stderr": ""});
        let report = |inventory: Value| {
            json!({"marketplace_add": ok, "install": ok, "inventory_run": ok, "inventory": inventory})
        };
        let full = json!({
            "skills": [{"name": "review"}, {"name": "builtin"}],
            "commands": [{"name": "go", "description": "Custom command: go"}],
            "droids": [{"name": "helper"}, {"name": "scrutiny-feature-reviewer"}],
            "mcpServers": [{"name": "srv", "status": "failed"}],
            "errors": {},
        });
        let reading = read_plugin(&report(full.clone()), &built);
        assert!(reading.passed(), "{reading:#?}");
        assert_eq!(reading.loaded.iter().map(|c| c.loaded).sum::<usize>(), 4);

        let mut partial = full;
        partial["commands"] = json!([]);
        let reading = read_plugin(&report(partial), &built);
        assert_eq!(reading.missing.len(), 1, "{reading:#?}");
        assert_eq!((reading.missing[0].name.as_str(), reading.missing[0].file.as_str()), ("go", "commands/team/go.md"));

        files.insert("hooks/hooks.json".to_string(), br#"{"hooks": {"BeforeTool": []}}"#.to_vec());
        let built = Built { dir: "/out/factory-droid", manifest: &manifest, files: &files };
        let reading = read_plugin(&report(json!({})), &built);
        assert!(reading.said.iter().any(|s| s.message.contains("BeforeTool")), "{reading:#?}");
        assert!(!reading.passed());
    }
}
