//! What Copilot CLI's report (`core/src/runtime/copilot/drivers/copilot_inventory.py`) says of a
//! plugin: `plugin marketplace add`, `plugin install`, then `skill list`, `mcp
//! list` and the headless server's discovery calls (skills, agents, hooks, MCP
//! servers), and the problems only its log names.

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, exit, last_lines, strings};

/// The Copilot CLI event a Claude Code event loads as (docs/runtimes/copilot.md, "Hook events").
fn event(name: &str) -> String {
    match name {
        "Stop" => "agentStop".into(),
        "UserPromptSubmit" => "userPromptSubmitted".into(),
        other => {
            let mut chars = other.chars();
            chars.next().map(|c| c.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
        }
    }
}

fn said_list(reading: &mut Reading, step: &str, value: &Value) {
    for item in value.as_array().into_iter().flatten() {
        let text = item.as_str().map(str::to_string).unwrap_or_else(|| {
            item.get("message").and_then(Value::as_str).map_or_else(|| item.to_string(), str::to_string)
        });
        reading.say(step, text, None);
    }
}

pub(crate) fn read_plugin(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    for (key, step) in [("marketplace_add", "plugin marketplace add"), ("install", "plugin install")] {
        let result = &report[key];
        if exit(result) != Some(0) {
            let text = format!(
                "{}{}",
                result["stderr"].as_str().unwrap_or_default(),
                result["stdout"].as_str().unwrap_or_default()
            );
            let text = if result.is_null() { "not run".to_string() } else { last_lines(&text, 3) };
            reading.say(step, text, None);
        }
    }
    let inventory = &report["inventory"];
    said_list(&mut reading, "skills.discover", &inventory["skill_errors"]);
    said_list(&mut reading, "hooks.discover", &inventory["hook_errors"]);
    said_list(&mut reading, "hooks.discover", &inventory["hook_warnings"]);
    said_list(&mut reading, "log", &inventory["log_problems"]);
    for (method, error) in inventory["rpc_errors"].as_object().into_iter().flatten() {
        reading.say(method, error.as_str().map_or_else(|| error.to_string(), str::to_string), None);
    }
    let same = |name: &str| name.to_string();
    reading.compare("skill", "skills", &built.skill_folders("skills"), &strings(&inventory["skills"]), &same);
    reading.compare("command", "commands", &built.files_in("commands", ".md"), &strings(&inventory["commands"]), &same);
    let plugin = built.plugin().to_string();
    let namespaced = |name: &str| format!("{plugin}:{name}");
    reading.compare("agent", "agents", &built.files_in("agents", ".md"), &strings(&inventory["agents"]), &namespaced);
    let hooks = built.json_keys("hooks/hooks.json", "/hooks");
    reading.compare("hook", "hooks", &hooks, &strings(&inventory["hooks"]), &|name| event(name));
    let servers = built.mcp_servers(".mcp.json");
    reading.compare("MCP server", "MCP servers", &servers, &strings(&inventory["mcp_servers"]), &same);
    reading
}
