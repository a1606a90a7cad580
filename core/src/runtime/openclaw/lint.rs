//! OpenClaw's native manifest, judged as OpenClaw judges it.

use crate::lint::layout::{Layout, LayoutInput, SkillDepth};
use serde_json::Value;

use crate::lint::doc::describe;
use crate::lint::manifest_rules::*;
use crate::lint::{Cx, Sink};

use super::facts::MANIFEST_PATH as OPENCLAW_MANIFEST;

/// OpenClaw parses its native manifest as JSON5, so text that is not strict
/// JSON is not judged here; a parsed manifest needs `id` and `configSchema`.
pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(file) = cx.folder.get(OPENCLAW_MANIFEST) else { return };
    let Ok(value) = serde_json::from_slice::<Value>(&file.bytes) else { return };
    let runtime = Some(crate::registry::Runtime::OpenClaw);
    let Some(map) = value.as_object() else {
        let message =
            format!("the manifest is {}, not an object; OpenClaw refuses the plugin", describe(&value));
        sink.report(&NOT_AN_OBJECT, runtime, Some(cx.folder.at(OPENCLAW_MANIFEST)), message);
        return;
    };
    if map.get("id").and_then(Value::as_str).is_none_or(|id| id.trim().is_empty()) {
        let at = cx.folder.at_key(OPENCLAW_MANIFEST, "id");
        sink.report(
            &REQUIRED_FIELD_MISSING,
            runtime,
            Some(at),
            "id: missing or not a non-empty string; OpenClaw reports \"plugin manifest requires id\"",
        );
    }
    if !map.get("configSchema").is_some_and(Value::is_object) {
        let at = cx.folder.at_key(OPENCLAW_MANIFEST, "configSchema");
        let message = "configSchema: missing or not an object; OpenClaw needs an inline JSON Schema such as {\"type\": \"object\", \"properties\": {}}";
        sink.report(&REQUIRED_FIELD_MISSING, runtime, Some(at), message);
    }
}


/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
pub(crate) fn layout(layout: &mut Layout, _input: &LayoutInput<'_>) {
    layout.skill_depth = SkillDepth::Recursive;
}
