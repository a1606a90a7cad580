//! OpenCode's `opencode.json`, judged as OpenCode judges it.

use crate::lint::layout::{Layout, LayoutInput, McpSource, SkillDepth};
use serde_json::Value;

use crate::lint::doc::describe;
use crate::lint::manifest_rules::*;
use crate::lint::component_rules::agent::INVALID_FIELD as INVALID_AGENT_FIELD;
use crate::lint::markdown::{Markdown, at_field, kind};
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
            Some(crate::registry::Runtime::OpenCode),
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

/// OpenCode fails its whole configuration on a wrong agent `mode` or `tools`.
pub(crate) fn check_agent(cx: &Cx<'_>, doc: &Markdown, sink: &mut Sink) {
    let id = Some(crate::registry::Runtime::OpenCode);
    let mut invalid = |key: &str, message: String| {
        sink.report(&INVALID_AGENT_FIELD, id, Some(at_field(cx, doc, key)), message);
    };
    if let Some(mode) = doc.field("mode") {
        if !matches!(mode.as_str(), Some("primary" | "subagent" | "all")) {
            invalid("mode", format!("`mode` must be primary, subagent or all, not {mode}"));
        }
    }
    if let Some(tools) = doc.field("tools").filter(|t| !t.is_object()) {
        invalid(
            "tools",
            format!(
                "`tools` must be a mapping of tool name to true/false, not {}: OpenCode refuses the config",
                kind(tools)
            ),
        );
    }
}

