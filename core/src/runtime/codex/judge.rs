//! What Codex's reports say of a plugin: `core/src/runtime/codex/drivers/codex_inventory.py`
//! (`plugin marketplace add`, `plugin add`, then the app-server's
//! `plugin/read`, `skills/list`, `hooks/list`) and, for an Agent Plugins
//! package, `core/src/runtime/codex/drivers/codex_agent_plugins.py` (the same through a
//! one-entry marketplace around the folder).

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, exit, last_lines, strings};

/// The events of a hooks file that have at least one handler (Codex lists
/// an event only when something runs on it), in Codex's spelling.
fn events_with_handlers(built: &Built<'_>, path: &str) -> Vec<(String, String)> {
    let Some(hooks) = built.json(path) else { return Vec::new() };
    let Some(events) = hooks["hooks"].as_object() else { return Vec::new() };
    events
        .iter()
        .filter(|(_, groups)| {
            groups.as_array().into_iter().flatten().any(|g| g["hooks"].as_array().is_some_and(|h| !h.is_empty()))
        })
        .map(|(event, _)| (lower_first(event), path.to_string()))
        .collect()
}

fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
}

fn said_list(reading: &mut Reading, step: &str, value: &Value) {
    for item in value.as_array().into_iter().flatten() {
        let text = item.as_str().map(str::to_string).unwrap_or_else(|| {
            item.get("message").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| item.to_string())
        });
        let file = item.get("path").and_then(Value::as_str);
        reading.say(step, text, file);
    }
}

fn step_failed(reading: &mut Reading, step: &str, result: &Value) {
    if exit(result) != Some(0) {
        let text = format!(
            "{}{}",
            result["stderr"].as_str().unwrap_or_default(),
            result["stdout"].as_str().or(result["output"].as_str()).unwrap_or_default()
        );
        let text = if result.is_null() { "not run".to_string() } else { last_lines(&text, 3) };
        reading.say(step, text, None);
    }
}

/// A plugin listed by Codex's marketplace at the output root.
pub(crate) fn read_plugin(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    step_failed(&mut reading, "plugin marketplace add", &report["marketplace_add"]);
    step_failed(&mut reading, "plugin add", &report["add"]);
    let read = &report["read"];
    if let Some(error) = read.get("error").filter(|e| !e.is_null()) {
        reading.say("app-server plugin/read", error.get("message").and_then(Value::as_str).map_or(error.to_string(), str::to_string), None);
    }
    said_list(&mut reading, "app-server skills/list", &report["installed"]["skills"]["errors"]);
    said_list(&mut reading, "app-server hooks/list", &report["installed"]["hooks"]["warnings"]);
    said_list(&mut reading, "app-server hooks/list", &report["installed"]["hooks"]["errors"]);
    let plugin = built.plugin().to_string();
    let namespaced = |name: &str| format!("{plugin}:{name}");
    reading.compare("skill", "skills", &built.skill_folders("skills"), &strings(&read["skills"]), &namespaced);
    let same = |name: &str| name.to_string();
    let hooks = events_with_handlers(built, "hooks/hooks.json");
    reading.compare("hook", "hooks", &hooks, &strings(&read["hooks"]), &same);
    let servers = built.mcp_servers(".mcp.json");
    reading.compare("MCP server", "MCP servers", &servers, &strings(&read["mcp_servers"]), &same);
    reading
}

/// An Agent Plugins package, installed through a marketplace around it.
pub(crate) fn read_package(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    step_failed(&mut reading, "plugin marketplace add", &report["marketplace_add"]);
    step_failed(&mut reading, "plugin add", &report["plugin_add"]);
    let read = &report["plugin_read"];
    if let Some(error) = read.get("error").filter(|e| !e.is_null()) {
        reading.say("app-server plugin/read", error.to_string(), None);
    }
    said_list(&mut reading, "app-server skills/list", &report["skills_list_errors"]);
    let plugin = built.plugin().to_string();
    let namespaced = |name: &str| format!("{plugin}:{name}");
    reading.compare("skill", "skills", &built.skill_folders("skills"), &strings(&read["skills"]), &namespaced);
    let same = |name: &str| name.to_string();
    let servers = built.mcp_servers("mcp.json");
    reading.compare("MCP server", "MCP servers", &servers, &strings(&read["mcp_servers"]), &same);
    reading
}

/// The shared file `path` as on disk (the build holds parts of it).
fn shared<'a>(built: &'a Built<'_>, path: &str) -> Option<&'a [u8]> {
    built.files.get(path).map(Vec::as_slice)
}

/// A project (or, for the user scope, a home) the build wrote into:
/// `core/src/runtime/codex/drivers/codex_inventory.py project` (the app-server's
/// `skills/list`, `hooks/list`, `config/read`, and the agent roles and
/// AGENTS.md the model would be sent).
pub(crate) fn read_project(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    said_list(&mut reading, "app-server skills/list", &report["skills"]["errors"]);
    said_list(&mut reading, "app-server hooks/list", &report["hooks"]["warnings"]);
    said_list(&mut reading, "app-server hooks/list", &report["hooks"]["errors"]);
    if let Some(error) = report.get("config_error").filter(|e| !e.is_null()) {
        let message = error.get("message").and_then(Value::as_str).map_or_else(|| error.to_string(), str::to_string);
        reading.say("app-server config/read", message, Some(".codex/config.toml"));
    }
    if let Some(code) = report["prompt_exit"].as_i64().filter(|code| *code != 0) {
        reading.say("debug prompt-input", format!("exit {code}"), None);
    }
    let same = |name: &str| name.to_string();
    reading.compare("skill", "skills", &built.skill_folders(".agents/skills"), &strings(&report["skills"]["names"]), &same);
    reading.compare("agent", "agent roles", &built.files_in(".codex/agents", ".toml"), &strings(&report["roles"]), &same);
    let hooks: Vec<(String, String)> = shared(built, ".codex/hooks.json")
        .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
        .and_then(|hooks| {
            hooks["hooks"].as_object().map(|events| {
                events
                    .iter()
                    .filter(|(_, groups)| {
                        groups.as_array().into_iter().flatten().any(|g| g["hooks"].as_array().is_some_and(|h| !h.is_empty()))
                    })
                    .map(|(event, _)| (lower_first(event), ".codex/hooks.json".to_string()))
                    .collect()
            })
        })
        .unwrap_or_default();
    reading.compare("hook", "hooks", &hooks, &strings(&report["hooks"]["events"]), &same);
    let servers: Vec<(String, String)> = shared(built, ".codex/config.toml")
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|config| config.get("mcp_servers").and_then(|s| s.as_table()).map(|t| t.keys().cloned().collect::<Vec<_>>()))
        .unwrap_or_default()
        .into_iter()
        .map(|name| (name, ".codex/config.toml".to_string()))
        .collect();
    let loaded = report["mcp_servers"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    reading.compare("MCP server", "MCP servers", &servers, &loaded, &same);
    let context: Vec<(String, String)> = ["AGENTS.md", ".codex/AGENTS.md"]
        .iter()
        .filter(|path| shared(built, path).is_some_and(|b| String::from_utf8_lossy(b).contains(&format!("plugforge:{}:begin", built.manifest.namespace))))
        .map(|path| (path.to_string(), path.to_string()))
        .take(1)
        .collect();
    let instructions: std::collections::BTreeSet<String> = if report["instructions"].as_array().is_some_and(|i| !i.is_empty()) {
        context.iter().map(|(name, _)| name.clone()).collect()
    } else {
        Default::default()
    };
    reading.compare("context file", "context files", &context, &instructions, &same);
    reading
}
