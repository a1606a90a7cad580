//! What OpenCode's report (`core/src/runtime/opencode/drivers/opencode_inventory.py`) says of a
//! project: `debug config` (which fails on what it refuses: a bad
//! `opencode.json`, an MCP entry of the wrong shape, an agent its schema
//! refuses), `debug skill` and `agent list`, run from the output root.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, exit, last_lines};

pub(crate) fn read_project(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let config = &report["debug_config"];
    if exit(config) != Some(0) {
        let stderr = config["stderr"].as_str().unwrap_or("not run");
        reading.say("debug config", last_lines(stderr, 4), Some("opencode.json").filter(|_| stderr.contains("opencode.json")));
    }
    for (key, step) in [("debug_skill", "debug skill"), ("agent_list", "agent list")] {
        if exit(&report[key]) != Some(0) {
            reading.say(step, last_lines(report[key]["stderr"].as_str().unwrap_or("not run"), 4), None);
        }
    }
    let same = |name: &str| name.to_string();
    let skills: BTreeSet<String> = report["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["location"].as_str().is_some_and(|l| l.contains("/.opencode/skills/")))
        .filter_map(|s| s["name"].as_str())
        .map(str::to_string)
        .collect();
    reading.compare("skill", "skills", &built.skill_folders(".opencode/skills"), &skills, &same);
    let commands = crate::runtime::verdict::strings(&report["commands"]);
    reading.compare("command", "commands", &built.files_in(".opencode/commands", ".md"), &commands, &same);
    let agents: BTreeSet<String> =
        report["agents"].as_array().into_iter().flatten().filter_map(|a| a["name"].as_str()).map(str::to_string).collect();
    reading.compare("agent", "agents", &built.files_in(".opencode/agents", ".md"), &agents, &same);
    let servers: Vec<(String, String)> = built
        .files
        .get("opencode.json")
        .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
        .and_then(|config| config["mcp"].as_object().map(|m| m.keys().map(|k| (k.clone(), "opencode.json".to_string())).collect()))
        .unwrap_or_default();
    let loaded: BTreeSet<String> = report["mcp"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    reading.compare("MCP server", "MCP servers", &servers, &loaded, &same);
    reading
}
