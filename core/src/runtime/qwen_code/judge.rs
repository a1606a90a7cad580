//! What Qwen Code's report (`core/src/runtime/qwen_code/drivers/qwen_inventory.py`) says of an
//! extension: `qwen extensions install --consent`, then the CLI's own
//! `ExtensionManager` (what `qwen extensions list` shows, with agents, hooks
//! and MCP servers), the commands a session's loader loads, and the warnings
//! its loaders wrote to the debug log (a skill or agent it refuses is named
//! only there).

use std::collections::BTreeSet;

use serde_json::Value;

use super::facts;
use crate::runtime::verdict::{Built, Reading, exit, file_named, last_lines, strings};

/// The keys of the object `value`.
fn keys(value: &Value) -> BTreeSet<String> {
    value.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

/// The `key` of each object of the list `value`.
fn names(value: &Value, key: &str) -> BTreeSet<String> {
    value.as_array().into_iter().flatten().filter_map(|v| v[key].as_str()).map(str::to_string).collect()
}

pub(crate) fn read_extension(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let install = &report["install"];
    if exit(install) != Some(0) {
        let output = install["output"].as_str().unwrap_or("not run");
        reading.say("extensions install", last_lines(output, 3), file_named(output, built.dir).as_deref());
    }
    let run = &report["inventory_run"];
    if exit(run) != Some(0) {
        reading.say("inventory", last_lines(run["stderr"].as_str().unwrap_or("not run"), 3), None);
    }
    let extensions = report["inventory"]["extensions"].as_array().cloned().unwrap_or_default();
    if extensions.len() > 1 {
        reading.say("inventory", format!("{} extensions installed, not one", extensions.len()), None);
    }
    let empty = Value::Null;
    let extension = extensions.first().unwrap_or(&empty);
    // The loaders name the installed copy; the file is the same below the bundle.
    let installed = extension["path"].as_str().unwrap_or(built.dir);
    for line in report["log_problems"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        reading.say("debug log", line, file_named(line, installed).as_deref());
    }
    for event in strings(&extension["unknownHookEvents"]) {
        let message = format!("hook event {event}: its hook registry skips it at session start");
        reading.say("hooks", message, Some(facts::HOOKS_FILE));
    }

    let same = |name: &str| name.to_string();
    let skills = strings(&extension["skills"]);
    reading.compare("skill", "skills", &built.skill_folders(facts::SKILLS_DIR), &skills, &same);
    // `commands/<a>/<b>.md` is the command `a:b`, as a session loads it.
    let prefix = format!("{}/", facts::COMMANDS_DIR);
    let commands: Vec<(String, String)> = built
        .manifest
        .files
        .iter()
        .filter_map(|f| Some((f.path.strip_prefix(&prefix)?.strip_suffix(".md")?.replace('/', ":"), f.path.clone())))
        .collect();
    let loaded = names(&extension["sessionCommands"], "name");
    reading.compare("command", "commands", &commands, &loaded, &same);
    let agents = names(&extension["agents"], "name");
    reading.compare("agent", "agents", &built.files_in(facts::AGENTS_DIR, ".md"), &agents, &same);
    let hooks = built.json_keys(facts::HOOKS_FILE, "/hooks");
    reading.compare("hook", "hooks", &hooks, &keys(&extension["hooks"]), &same);
    let servers = built.json_keys(facts::MANIFEST_PATH, "/mcpServers");
    reading.compare("MCP server", "MCP servers", &servers, &keys(&extension["mcpServers"]), &same);
    let context: Vec<(String, String)> = built
        .json(facts::MANIFEST_PATH)
        .and_then(|m| m["contextFileName"].as_str().map(str::to_string))
        .filter(|file| built.wrote(file))
        .map(|file| vec![(file.clone(), file)])
        .unwrap_or_default();
    let contexts: BTreeSet<String> = strings(&extension["contextFiles"])
        .iter()
        .map(|path| path.rsplit('/').next().unwrap_or(path).to_string())
        .collect();
    reading.compare("context file", "context files", &context, &contexts, &same);
    reading
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::manifest::Manifest;

    fn manifest(paths: &[&str]) -> Manifest {
        let files: Vec<Value> =
            paths.iter().map(|p| json!({"path": p, "sha256": "0", "template": p})).collect();
        let value = json!({
            "schema_version": crate::manifest::SCHEMA_VERSION, "generator": {"name": "plugforge", "version": "0"},
            "generated_at": "t", "runtime": "qwen-code", "kind": "extension", "scope": "user",
            "namespace": "kit", "plugin": {"name": "kit", "version": "1.0.0"}, "files": files,
        });
        Manifest::parse("m.json", value.to_string().as_bytes()).unwrap().sorted()
    }

    #[test]
    fn a_full_load_passes_and_a_missing_command_or_skipped_event_is_named() {
        let manifest = manifest(&[
            "qwen-extension.json",
            "QWEN.md",
            "skills/review/SKILL.md",
            "commands/kit/go.md",
            "agents/helper.md",
            "hooks/hooks.json",
        ]);
        let mut files = BTreeMap::new();
        let extension = json!({"name": "kit", "contextFileName": "QWEN.md", "mcpServers": {"srv": {"command": "x"}}});
        files.insert("qwen-extension.json".to_string(), extension.to_string().into_bytes());
        files.insert("QWEN.md".to_string(), b"ctx".to_vec());
        let hooks = json!({"hooks": {"PreToolUse": [], "Stop": []}});
        files.insert("hooks/hooks.json".to_string(), hooks.to_string().into_bytes());
        let built = Built { dir: "/out/qwen-code", manifest: &manifest, files: &files };
        let loaded = json!({
            "path": "/h/.qwen/extensions/kit",
            "skills": ["review"],
            "sessionCommands": [{"name": "kit:go"}],
            "agents": [{"name": "helper", "tools": null}],
            "hooks": {"PreToolUse": [], "Stop": []},
            "unknownHookEvents": [],
            "mcpServers": {"srv": {}},
            "contextFiles": ["/h/.qwen/extensions/kit/QWEN.md"],
        });
        let report = |extension: Value, problems: Value| {
            json!({
                "install": {"exit": 0, "output": "installed"},
                "inventory": {"extensions": [extension]},
                "inventory_run": {"exit": 0, "stderr": ""},
                "log_problems": problems,
            })
        };
        let reading = read_extension(&report(loaded.clone(), json!([])), &built);
        assert!(reading.passed(), "{reading:#?}");
        assert_eq!(reading.loaded.len(), 6);

        let mut partial = loaded;
        partial["sessionCommands"] = json!([]);
        partial["unknownHookEvents"] = json!(["BeforeTool"]);
        let problem = "[ERROR] Failed to parse skill at /h/.qwen/extensions/kit/skills/x/SKILL.md: Missing";
        let reading = read_extension(&report(partial, json!([problem])), &built);
        assert_eq!(reading.missing.len(), 1, "{reading:#?}");
        assert_eq!((reading.missing[0].name.as_str(), reading.missing[0].file.as_str()), ("kit:go", "commands/kit/go.md"));
        let files: Vec<Option<&str>> = reading.said.iter().map(|s| s.file.as_deref()).collect();
        assert_eq!(files, [Some("skills/x/SKILL.md"), Some("hooks/hooks.json")], "{reading:#?}");
    }
}
