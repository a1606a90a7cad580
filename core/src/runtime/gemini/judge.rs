//! What Gemini CLI's report (`core/src/runtime/gemini/drivers/gemini_inventory.py`) says of an
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

/// The keys at `pointer` of the shared settings file as on disk.
fn settings_keys(built: &Built<'_>, pointer: &str) -> Vec<(String, String)> {
    built
        .files
        .get(super::SETTINGS_FILE)
        .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
        .and_then(|v| v.pointer(pointer).and_then(Value::as_object).map(|m| m.keys().cloned().collect::<Vec<_>>()))
        .unwrap_or_default()
        .into_iter()
        .map(|key| (key, super::SETTINGS_FILE.to_string()))
        .collect()
}

/// A project (or, for the user scope, a home) the build wrote `.gemini/`
/// into: `gemini mcp list`, and the bundle's own loaders over `.gemini/`.
pub(crate) fn read_project(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let mcp = &report["mcp_list"];
    if exit(mcp) != Some(0) {
        reading.say("mcp list", last_lines(mcp["raw"].as_str().unwrap_or("not run"), 3), None);
    }
    for error in mcp["errors"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        reading.say("mcp list", error, Some(super::SETTINGS_FILE));
    }
    let load = &report["load"];
    if let Some(error) = load.get("error").and_then(Value::as_str) {
        reading.say("load", last_lines(error, 3), None);
    }
    for error in load["agent_errors"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        reading.say("load agents", error, None);
    }
    let commands = load["commands"]["commands"].as_array().cloned().unwrap_or_default();
    for command in &commands {
        if let Some(error) = command["error"].as_str() {
            let file = command["file"].as_str().map(|f| format!(".gemini/commands/{f}"));
            reading.say("load commands", error, file.as_deref());
        }
    }
    for problem in load["hooks"]["problems"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        reading.say("load hooks", problem, Some(super::SETTINGS_FILE));
    }
    let same = |name: &str| name.to_string();
    let skills: BTreeSet<String> =
        load["skills"].as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).map(str::to_string).collect();
    reading.compare("skill", "skills", &built.skill_folders(".gemini/skills"), &skills, &same);
    let agents: BTreeSet<String> =
        load["agents"].as_array().into_iter().flatten().filter_map(|a| a["name"].as_str()).map(str::to_string).collect();
    reading.compare("agent", "agents", &built.files_in(".gemini/agents", ".md"), &agents, &same);
    let built_commands: Vec<(String, String)> = built
        .manifest
        .files
        .iter()
        .filter_map(|f| {
            let name = f.path.strip_prefix(".gemini/commands/")?.strip_suffix(".toml")?;
            Some((name.replace('/', ":"), f.path.clone()))
        })
        .collect();
    let loaded_commands: BTreeSet<String> =
        commands.iter().filter(|c| c.get("error").is_none()).filter_map(|c| c["name"].as_str()).map(str::to_string).collect();
    reading.compare("command", "commands", &built_commands, &loaded_commands, &same);
    reading.compare("hook", "hooks", &settings_keys(built, "/hooks"), &strings(&load["hooks"]["events"]), &same);
    reading.compare("MCP server", "MCP servers", &settings_keys(built, "/mcpServers"), &strings(&mcp["servers"]), &same);
    let marker = format!("plugforge:{}:begin", built.manifest.namespace);
    let context: Vec<(String, String)> = [super::CONTEXT_FILE, super::USER_CONTEXT_FILE]
        .iter()
        .filter(|path| built.files.get(**path).is_some_and(|b| String::from_utf8_lossy(b).contains(&marker)))
        .map(|path| (path.to_string(), path.to_string()))
        .take(1)
        .collect();
    let seen: BTreeSet<String> = if report["context"].as_str().is_some_and(|text| text.contains(&marker)) {
        context.iter().map(|(name, _)| name.clone()).collect()
    } else {
        BTreeSet::new()
    };
    reading.compare("context file", "context files", &context, &seen, &same);
    reading
}
