//! What Gemini CLI's report (`tests/clients/gemini_inventory.py`) says of an
//! extension: `extensions validate`, `extensions install`, `extensions list`
//! (context files, MCP servers, skills, load errors) and the bundle's own
//! loaders on the installed copy (skills, agents, TOML commands, hook events).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, exit, file_named, last_lines, strings};

pub(crate) fn read_extension(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let validate = &report["validate"];
    if exit(validate) != Some(0) {
        let output = validate["output"].as_str().unwrap_or("not run");
        reading.say("extensions validate", last_lines(output, 3), file_named(output, built.dir).as_deref());
    }
    let install = &report["install"];
    let output = install["output"].as_str().unwrap_or("not run");
    if exit(install) != Some(0) || output.contains("Error") {
        reading.say("extensions install", last_lines(output, 3), file_named(output, built.dir).as_deref());
    }
    let list = &report["list"];
    if exit(list) != Some(0) {
        reading.say("extensions list", last_lines(list["raw"].as_str().unwrap_or("not run"), 3), None);
    }
    for error in list["errors"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        reading.say("extensions list", error, None);
    }
    let load = &report["load"];
    if let Some(error) = load.get("error").and_then(Value::as_str) {
        reading.say("load", last_lines(error, 3), None);
    }
    for error in load["agent_errors"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        reading.say("load agents", error, file_named(error, "agents").map(|f| format!("agents/{f}")).as_deref());
    }
    let commands = load["commands"]["commands"].as_array().cloned().unwrap_or_default();
    for command in &commands {
        if let Some(error) = command["error"].as_str() {
            let file = command["file"].as_str().map(|f| format!("commands/{f}"));
            reading.say("load commands", error, file.as_deref());
        }
    }
    for ignored in load["commands"]["ignored"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let file = format!("commands/{ignored}");
        reading.say("load commands", format!("{file}: not a .toml file, Gemini CLI ignores it"), Some(&file));
    }
    for problem in load["hooks"]["problems"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        reading.say("load hooks", problem, Some("hooks/hooks.json"));
    }

    let same = |name: &str| name.to_string();
    let mut skills_listed = strings(&list["skills"]);
    skills_listed.extend(load["skills"].as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).map(str::to_string));
    reading.compare("skill", "skills", &built.skill_folders("skills"), &skills_listed, &same);
    let agents: BTreeSet<String> =
        load["agents"].as_array().into_iter().flatten().filter_map(|a| a["name"].as_str()).map(str::to_string).collect();
    reading.compare("agent", "agents", &built.files_in("agents", ".md"), &agents, &same);
    let built_commands: Vec<(String, String)> = built
        .manifest
        .files
        .iter()
        .filter_map(|f| {
            let name = f.path.strip_prefix("commands/")?.strip_suffix(".toml")?;
            Some((name.replace('/', ":"), f.path.clone()))
        })
        .collect();
    let loaded_commands: BTreeSet<String> = commands
        .iter()
        .filter(|c| c.get("error").is_none())
        .filter_map(|c| c["name"].as_str())
        .map(str::to_string)
        .collect();
    reading.compare("command", "commands", &built_commands, &loaded_commands, &same);
    let events = strings(&load["hooks"]["events"]);
    reading.compare("hook", "hooks", &built.json_keys("hooks/hooks.json", "/hooks"), &events, &same);
    let servers = built.json_keys("gemini-extension.json", "/mcpServers");
    reading.compare("MCP server", "MCP servers", &servers, &strings(&list["mcp_servers"]), &same);
    let context: Vec<(String, String)> = built
        .json("gemini-extension.json")
        .and_then(|m| m["contextFileName"].as_str().map(str::to_string))
        .filter(|file| built.wrote(file))
        .map(|file| vec![(file.clone(), file)])
        .unwrap_or_default();
    let contexts = strings(&list["context_files"]);
    reading.compare("context file", "context files", &context, &contexts, &|name| {
        name.rsplit('/').next().unwrap_or(name).to_string()
    });
    reading
}
