//! What OpenClaw's report (`core/src/runtime/openclaw/drivers/openclaw_inventory.py`) says of a
//! compatible bundle: `plugins install`, `plugins inspect` (status, MCP
//! servers, diagnostics) and `skills list` (the plugin's skills).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, exit, last_lines, strings};

pub(crate) fn read_bundle(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let install = &report["install"];
    if exit(install) != Some(0) {
        reading.say("plugins install", last_lines(install["output"].as_str().unwrap_or("not run"), 3), None);
    }
    let inspect = &report["inspect"];
    if exit(inspect) != Some(0) {
        reading.say("plugins inspect", last_lines(inspect["stderr"].as_str().unwrap_or("not run"), 3), None);
    } else if inspect["status"].as_str() != Some("loaded") {
        reading.say("plugins inspect", format!("status {}", inspect["status"]), None);
    }
    for diagnostic in inspect["diagnostics"].as_array().into_iter().flatten() {
        let message = diagnostic["message"].as_str().map_or_else(|| diagnostic.to_string(), str::to_string);
        reading.say("plugins inspect", message, None);
    }
    let skills = &report["skills"];
    if exit(skills) != Some(0) {
        reading.say("skills list", last_lines(skills["stderr"].as_str().unwrap_or("not run"), 3), None);
    }
    let same = |name: &str| name.to_string();
    let loaded: BTreeSet<String> = skills["plugin"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str())
        .map(str::to_string)
        .collect();
    reading.compare("skill", "skills", &built.skill_folders("skills"), &loaded, &same);
    let servers = built.mcp_servers(".mcp.json");
    reading.compare("MCP server", "MCP servers", &servers, &strings(&inspect["mcpServers"]), &same);
    reading
}
