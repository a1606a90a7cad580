//! Agent Plugins 1.0 packages: the closed root `plugin.json`, skills one
//! level deep and the spec `mcp.json`, whose stdio commands are `./` paths
//! in the plugin.

use serde_json::{Map, Value, json};

use crate::draft::common::{self, SkillFile, skip_regenerated};
use crate::draft::Draft;
use crate::draft::manifest::{Manifest, short};
use crate::error::{Location, Result};
use super::facts::{MCP_SCHEMA, PLUGIN_SCHEMA};
use crate::source::SourceTree;
use crate::codes::DiagnosticCode;

pub const MANIFEST: &str = super::facts::MANIFEST_PATH;
const MCP_FILE: &str = "mcp.json";

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    let file = tree.get(MANIFEST).ok_or_else(|| crate::draft::missing_marker(MANIFEST))?;
    let mut manifest = Manifest::read(MANIFEST, &file.bytes)?;
    match manifest.take("$schema") {
        Some(Value::String(schema)) if schema == PLUGIN_SCHEMA => {}
        other => {
            let shown = other.as_ref().map_or("missing".to_string(), short);
            let message = format!("$schema is {shown}, not the Agent Plugins 1.0 schema; read as 1.0 anyway");
            manifest.note(draft, DiagnosticCode::SchemaVersion, "$schema", message);
        }
    }
    manifest.metadata(draft, None);
    // Copilot CLI reads its own extension key; no client reads another tool's.
    let copilot = &crate::runtime::copilot::facts::EXTENSION_KEY;
    manifest.unloadable_extensions(draft, &crate::runtime::copilot::facts::COMPONENT_KEYS, std::slice::from_ref(copilot));
    manifest.keep_for(draft, "agent-plugins", "Agent Plugins", &["extensions"]);
    manifest.rest(draft, "Agent Plugins");
    let spelling = crate::runtime::claude_code::read::spelling();
    for (path, file) in tree.iter() {
        let p = path.as_str();
        if p == MANIFEST || skip_regenerated(draft, p) {
            continue;
        }
        if p == MCP_FILE {
            servers(draft, p, common::json(p, file)?)?;
            continue;
        }
        match common::skill_file(tree, draft, p, &["skills"], "an Agent Plugins client") {
            SkillFile::Outside => {}
            SkillFile::Skipped => continue,
            SkillFile::Inside(rel) if rel.ends_with("/SKILL.md") => {
                common::copy_spelled(draft, p, p, file, &spelling)?;
                continue;
            }
            SkillFile::Inside(_) => {}
        }
        common::copy(draft, path, file)?;
    }
    Ok(())
}

/// Spec servers -> canonical: `type: stdio` is the default, a `./` command
/// is a `${PLUGIN_ROOT}` path, `streamable-http` is `http`.
fn servers(draft: &mut Draft, from: &str, value: Value) -> Result<()> {
    let Value::Object(mut object) = value else {
        return Err(crate::draft::json_parts::invalid(from, "mcp.json must be a JSON object"));
    };
    if object.shift_remove("$schema") != Some(json!(MCP_SCHEMA)) {
        let message = "mcp.json has no Agent Plugins 1.0 $schema; read as 1.0 anyway";
        draft.note(DiagnosticCode::SchemaVersion, Location::file(from), message);
    }
    let Some(Value::Object(servers)) = object.shift_remove("mcpServers") else {
        return Err(crate::draft::json_parts::invalid(from, "mcp.json needs an \"mcpServers\" object"));
    };
    for key in object.keys() {
        draft.note(
            DiagnosticCode::UnknownField,
            Location::file(from),
            format!("mcp.json key \"{key}\" is not in the spec; left out"),
        );
    }
    let mut out = Map::new();
    for (name, server) in servers {
        let Value::Object(mut server) = server else {
            draft.note(
                DiagnosticCode::InvalidField,
                Location::file(from),
                format!("MCP server {name:?} is not an object; left out"),
            );
            continue;
        };
        match server.get("type").and_then(Value::as_str) {
            Some("stdio") => {
                server.shift_remove("type");
            }
            Some("streamable-http") => {
                server.insert("type".into(), json!("http"));
            }
            _ => {}
        }
        if let Some(Value::String(command)) = server.get_mut("command") {
            if let Some(rest) = command.strip_prefix("./") {
                *command = format!("${{PLUGIN_ROOT}}/{rest}");
            }
        }
        out.insert(name, Value::Object(server));
    }
    draft.add_servers(json!({ "mcpServers": out }), from)
}
