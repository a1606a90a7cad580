//! What Qoder CLI's report (`core/src/runtime/qoder/drivers/qoder_inventory.py`) says of a
//! plugin: `qodercli plugins validate DIR --json --strict`, its exit code,
//! its diagnostics (each an error, or a warning `--strict` fails on) and its
//! inventory of every skill, command, agent, hook and MCP server it loaded.

use std::collections::BTreeSet;

use serde_json::Value;

use super::facts;
use crate::runtime::verdict::{Built, Reading, exit, last_lines};

pub(crate) fn read_plugin(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let step = "plugins validate --strict";
    let verdict = &report["validate"];
    let result = &verdict["report"];
    for diagnostic in result["diagnostics"].as_array().into_iter().flatten() {
        let message = format!(
            "{} {}: {}",
            diagnostic["severity"].as_str().unwrap_or("error"),
            diagnostic["code"].as_str().unwrap_or_default(),
            diagnostic["message"].as_str().unwrap_or_default()
        );
        reading.say(step, message, diagnostic["location"]["path"].as_str());
    }
    match exit(verdict) {
        Some(0) => {}
        None => reading.say(step, "not run", None),
        Some(code) if reading.said.is_empty() => {
            let text = format!(
                "{}{}",
                verdict["stderr"].as_str().unwrap_or_default(),
                verdict["stdout"].as_str().unwrap_or_default()
            );
            reading.say(step, format!("exit {code}: {}", last_lines(&text, 3)), None);
        }
        Some(_) => {}
    }
    let resources = &result["resources"];
    let listed = |key: &str, field: &str| -> BTreeSet<String> {
        resources[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|item| item[field].as_str().map(str::to_string))
            .collect()
    };
    let plugin = built.plugin().to_string();
    let same = |name: &str| name.to_string();
    let namespaced = |name: &str| format!("{plugin}:{name}");
    reading.compare("skill", "skills", &built.skill_folders(facts::SKILLS_DIR), &listed("skills", "name"), &same);
    let commands = markdown_below(built, facts::COMMANDS_DIR);
    reading.compare("command", "commands", &commands, &listed("commands", "name"), &namespaced);
    let agents = markdown_below(built, facts::AGENTS_DIR);
    reading.compare("agent", "agents", &agents, &listed("agents", "name"), &namespaced);
    let hooks = hook_events(built);
    reading.compare("hook", "hooks", &hooks, &listed("hooks", "event"), &same);
    let servers = built.mcp_servers(facts::MCP_FILES[0]);
    reading.compare("MCP server", "MCP servers", &servers, &listed("mcpServers", "name"), &same);
    reading
}

/// `dir/**/*.md` the build wrote, named as Qoder names them: the path below
/// `dir` without `.md`, `/` read as `:` [facts::AGENTS_DIR].
fn markdown_below(built: &Built<'_>, dir: &str) -> Vec<(String, String)> {
    let prefix = format!("{dir}/");
    let mut found: Vec<(String, String)> = built
        .manifest
        .files
        .iter()
        .filter_map(|f| {
            let name = f.path.strip_prefix(&prefix)?.strip_suffix(".md")?;
            Some((name.replace('/', ":"), f.path.clone()))
        })
        .collect();
    found.sort();
    found
}

/// The events of the hooks file that hold a group: Qoder lists a hook per
/// handler, and an event declared empty has none.
fn hook_events(built: &Built<'_>) -> Vec<(String, String)> {
    let Some(hooks) = built.json(facts::HOOKS_FILE) else { return Vec::new() };
    hooks["hooks"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, groups)| groups.as_array().is_some_and(|g| !g.is_empty()))
        .map(|(event, _)| (event.clone(), facts::HOOKS_FILE.to_string()))
        .collect()
}
