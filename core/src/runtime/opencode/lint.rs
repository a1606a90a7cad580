//! OpenCode's `opencode.json`, judged as OpenCode judges it.

use crate::lint::layout::{Layout, LayoutInput, McpSource, SkillDepth};
use serde_json::Value;

use crate::lint::doc::describe;
use crate::lint::manifest_rules::*;
use crate::lint::{Cx, Sink};
use crate::lint::folder::INVALID_JSON;
use crate::lint::jsonc::strip_jsonc;

use super::facts::CONFIG_FILE as OPENCODE_CONFIG;

/// OpenCode reads `opencode.json` as JSONC (comments and trailing commas
/// allowed) and refuses a top level that is not an object.
pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(text) = cx.folder.text(OPENCODE_CONFIG, sink) else { return };
    let value = match serde_json::from_str::<Value>(&strip_jsonc(text)) {
        Ok(value) => value,
        Err(e) => {
            let message = e.to_string();
            let message = message.rfind(" at line ").map_or(message.as_str(), |cut| &message[..cut]);
            let at = cx.folder.at_line(OPENCODE_CONFIG, e.line(), e.column());
            sink.report(&INVALID_JSON, None, Some(at), format!("invalid JSON: {message}"));
            return;
        }
    };
    if !value.is_object() {
        let message = format!(
            "opencode.json is {}, not an object; OpenCode reports the configuration invalid",
            describe(&value)
        );
        sink.report(
            &NOT_AN_OBJECT,
            Some(super::SPEC.id),
            Some(cx.folder.at(OPENCODE_CONFIG)),
            message,
        );
    }
}


/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.skill_dirs = vec![".opencode/skills".into(), ".opencode/skill".into()];
    layout.skill_depth = SkillDepth::Recursive;
    layout.commands = vec![".opencode/commands".into(), ".opencode/command".into()];
    layout.agents = vec![".opencode/agents".into(), ".opencode/agent".into()];
    if let Some(servers) = input.field("mcp") {
        layout.mcp.push(McpSource::Inline {
            manifest: input.manifest_rel.to_string(),
            key: "mcp",
            servers: servers.clone(),
        });
    }
}
