//! Hermes's `plugin.yaml`, judged as Hermes judges it.

use yaml_rust2::YamlLoader;

use serde_json::Value;

use crate::lint::layout::{Layout, LayoutInput, SkillDepth};

use crate::lint::doc::describe;
use crate::lint::manifest_rules::*;
use crate::lint::{Cx, Sink};

use super::facts::MANIFEST_PATH as HERMES_MANIFEST;

const HERMES_KINDS: &[&str] = &["standalone", "backend", "exclusive", "platform", "model-provider"];

/// Hermes skips a plugin whose `plugin.yaml` does not parse or is not a
/// mapping, and treats an unknown `kind` as `standalone`.
pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(text) = cx.folder.text(HERMES_MANIFEST, sink) else { return };
    let runtime = Some(crate::registry::Runtime::Hermes);
    if let Some((line, column)) = crate::limits::yaml_aliases_expand_too_far(text) {
        let at = cx.folder.at_line(HERMES_MANIFEST, line, column);
        let most = crate::limits::MAX_YAML_ALIAS_NODES;
        sink.report(&INVALID_YAML, runtime, Some(at), format!("limit: YAML aliases expand past {most} nodes"));
        return;
    }
    if let Err(e) = YamlLoader::load_from_str(text) {
        let at = cx.folder.at_line(HERMES_MANIFEST, e.marker().line().max(1), e.marker().col() + 1);
        sink.report(
            &INVALID_YAML,
            runtime,
            Some(at),
            format!("invalid YAML: {}; Hermes skips the plugin", e.info()),
        );
        return;
    }
    let Ok(value) = crate::source::yaml_value(text) else { return };
    let map = match value {
        Value::Null => return,
        Value::Object(map) => map,
        other => {
            let message =
                format!("plugin.yaml is {}, not a mapping; Hermes skips the plugin", describe(&other));
            sink.report(&NOT_AN_OBJECT, runtime, Some(cx.folder.at(HERMES_MANIFEST)), message);
            return;
        }
    };
    if let Some(kind) = map.get("kind") {
        let known = kind
            .as_str()
            .map(|k| k.trim().to_lowercase())
            .is_some_and(|k| HERMES_KINDS.contains(&k.as_str()));
        if !known {
            let message = format!(
                "kind: {kind} is not one of {}; Hermes treats the plugin as standalone",
                HERMES_KINDS.join(", ")
            );
            sink.report(&VALUE_IGNORED, runtime, Some(yaml_key_line(cx, "kind")), message);
        }
    }
}

fn yaml_key_line(cx: &Cx<'_>, key: &str) -> crate::error::Location {
    let text = cx.folder.get(HERMES_MANIFEST).and_then(|f| std::str::from_utf8(&f.bytes).ok()).unwrap_or("");
    let lines = crate::source::yaml_key_lines(crate::text::without_bom(text)).unwrap_or_default();
    match lines.into_iter().find(|(k, _)| k == key) {
        Some((_, line)) => cx.folder.at_line(HERMES_MANIFEST, line, 1),
        None => cx.folder.at(HERMES_MANIFEST),
    }
}


/// Hermes finds a plugin's skills at any depth below `skills/`.
pub(crate) fn layout(layout: &mut Layout, _input: &LayoutInput<'_>) {
    layout.skill_depth = SkillDepth::Recursive;
}
