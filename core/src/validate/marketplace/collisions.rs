//! Names two plugins of one marketplace both ship: a skill, command or agent
//! whose short name becomes ambiguous, and (for Codex) an MCP server that
//! silently shadows the other plugin's.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Market;
use super::rules::{MCP_SERVER_COLLISION, NAME_COLLISION};
use crate::lint::Folder;
use crate::lint::Sink;
use crate::runtime::Marketplace;

/// One local plugin of the marketplace: its entry name and folder.
pub(super) struct LocalPlugin<'a> {
    pub name: String,
    pub folder: Folder<'a>,
}

/// `name_lines`: the lines of the marketplace's `"name"` pairs, by name.
pub(super) fn check(
    market: Market<'_>,
    sink: &mut Sink,
    plugins: &[LocalPlugin<'_>],
    name_lines: &BTreeMap<String, Vec<usize>>,
) {
    let Market { doc, spec, rules, .. } = market;
    let mut owners: BTreeMap<(&'static str, String), Vec<&str>> = BTreeMap::new();
    for plugin in plugins {
        for (kind, name) in component_names(rules, plugin.folder) {
            let entry = owners.entry((kind, name)).or_default();
            if !entry.contains(&plugin.name.as_str()) {
                entry.push(&plugin.name);
            }
        }
    }
    for ((kind, name), plugins) in owners.iter().filter(|(_, p)| p.len() > 1) {
        let at = match name_lines.get(plugins[1]).and_then(|lines| lines.first()) {
            Some(line) => doc.folder.at_line(doc.rel, *line, 1),
            None => doc.folder.at(doc.rel),
        };
        let runtime = Some(doc.runtime);
        if *kind == "MCP server" {
            let message = format!(
                "MCP server {name:?} is declared by plugins {}; {} skips a server whose name another plugin already uses",
                plugins.join(", "),
                spec.name
            );
            sink.report(&MCP_SERVER_COLLISION, runtime, Some(at), message);
        } else {
            let qualified: Vec<String> = plugins.iter().map(|p| format!("{p}:{name}")).collect();
            let message = format!(
                "{kind} {name:?} is shipped by plugins {}; {} keeps them apart only as {}, so the short name is ambiguous",
                plugins.join(", "),
                spec.name,
                qualified.join(" and ")
            );
            sink.report(&NAME_COLLISION, runtime, Some(at), message);
        }
    }
}

/// (kind, name) of what `plugin` ships under a short name. Claude Code lists
/// commands as skills, so both share one kind; Codex loads neither commands
/// nor agents from a plugin, but does load its MCP servers unnamespaced.
fn component_names(rules: &Marketplace, plugin: Folder<'_>) -> Vec<(&'static str, String)> {
    let mut names = Vec::new();
    for (path, _) in plugin.below("skills") {
        if let Some(skill) = path.strip_prefix("skills/").and_then(|p| p.strip_suffix("/SKILL.md")) {
            if !skill.contains('/') {
                names.push(("skill or command", skill.to_string()));
            }
        }
    }
    if rules.mcp_servers_clash {
        names.extend(mcp_server_names(plugin).into_iter().map(|n| ("MCP server", n)));
    }
    if !rules.commands_and_agents_clash {
        return names;
    }
    for (dir, kind) in [("commands", "skill or command"), ("agents", "agent")] {
        for (path, _) in plugin.below(dir) {
            let file = &path[dir.len() + 1..];
            if let Some(stem) = file.strip_suffix(".md").filter(|stem| !stem.contains('/')) {
                names.push((kind, stem.to_string()));
            }
        }
    }
    names
}

/// Server names of the plugin's `.mcp.json` (`{"mcpServers": {...}}` or a
/// bare map).
fn mcp_server_names(plugin: Folder<'_>) -> Vec<String> {
    let Some(file) = plugin.get(".mcp.json") else { return Vec::new() };
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&file.bytes) else { return Vec::new() };
    match map.get("mcpServers") {
        Some(Value::Object(servers)) => servers.keys().cloned().collect(),
        _ => map.keys().cloned().collect(),
    }
}
