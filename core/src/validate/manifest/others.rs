//! The manifests of OpenClaw (native `openclaw.plugin.json`), Hermes
//! (`plugin.yaml`) and OpenCode (`opencode.json`): each runtime checks little,
//! so the rules here are the few that make it skip the plugin.

use serde_json::Value;
use yaml_rust2::YamlLoader;

use super::doc::describe;
use super::rules::*;
use crate::runtime::Runtime;
use crate::validate::Context;
use crate::validate::findings::Sink;
use crate::validate::folder::INVALID_JSON;

pub(super) const OPENCLAW_MANIFEST: &str = crate::runtime::openclaw::facts::MANIFEST_PATH;
pub(super) const HERMES_MANIFEST: &str = crate::runtime::hermes::facts::MANIFEST_PATH;
pub(super) const OPENCODE_CONFIG: &str = crate::runtime::opencode::facts::CONFIG_FILE;

const HERMES_KINDS: &[&str] = &["standalone", "backend", "exclusive", "platform", "model-provider"];

/// OpenClaw parses its native manifest as JSON5, so text that is not strict
/// JSON is not judged here; a parsed manifest needs `id` and `configSchema`.
pub(super) fn openclaw(cx: &Context<'_>, sink: &mut Sink) {
    let Some(file) = cx.folder.get(OPENCLAW_MANIFEST) else { return };
    let Ok(value) = serde_json::from_slice::<Value>(&file.bytes) else { return };
    let runtime = Some(Runtime::OpenClaw.id());
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

/// Hermes skips a plugin whose `plugin.yaml` does not parse or is not a
/// mapping, and treats an unknown `kind` as `standalone`.
pub(super) fn hermes(cx: &Context<'_>, sink: &mut Sink) {
    let Some(text) = cx.folder.text(HERMES_MANIFEST, sink) else { return };
    let runtime = Some(Runtime::Hermes.id());
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

fn yaml_key_line(cx: &Context<'_>, key: &str) -> crate::error::Location {
    let text = cx.folder.get(HERMES_MANIFEST).and_then(|f| std::str::from_utf8(&f.bytes).ok()).unwrap_or("");
    let lines = crate::source::yaml_key_lines(crate::text::without_bom(text)).unwrap_or_default();
    match lines.into_iter().find(|(k, _)| k == key) {
        Some((_, line)) => cx.folder.at_line(HERMES_MANIFEST, line, 1),
        None => cx.folder.at(HERMES_MANIFEST),
    }
}

/// OpenCode reads `opencode.json` as JSONC (comments and trailing commas
/// allowed) and refuses a top level that is not an object.
pub(super) fn opencode(cx: &Context<'_>, sink: &mut Sink) {
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
            Some(Runtime::OpenCode.id()),
            Some(cx.folder.at(OPENCODE_CONFIG)),
            message,
        );
    }
}

/// `text` with JSONC comments and trailing commas blanked out, keeping every
/// other character where it was (so parse errors keep their line and column).
pub(crate) fn strip_jsonc(text: &str) -> String {
    let mut out: Vec<char> = text.chars().collect();
    blank_outside_strings(&mut out, |out, i| match (out[i], out.get(i + 1)) {
        ('/', Some('/')) => out[i..].iter().position(|c| *c == '\n').map_or(out.len(), |n| i + n),
        ('/', Some('*')) => {
            out[i + 2..].windows(2).position(|w| w == ['*', '/']).map_or(out.len(), |n| i + n + 4)
        }
        _ => i,
    });
    blank_outside_strings(&mut out, |out, i| {
        let next = out[i + 1..].iter().find(|c| !c.is_whitespace());
        if out[i] == ',' && matches!(next, Some('}' | ']')) { i + 1 } else { i }
    });
    out.into_iter().collect()
}

/// Walks `chars` outside JSON strings; where `span(chars, i)` returns an end
/// past `i`, blanks `i..end` (newlines kept) and goes on from `end`.
fn blank_outside_strings(chars: &mut [char], span: impl Fn(&[char], usize) -> usize) {
    let (mut i, mut in_string) = (0, false);
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            match c {
                '\\' => i += 1,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else {
            let end = span(chars, i);
            if end > i {
                chars[i..end].iter_mut().filter(|c| **c != '\n').for_each(|c| *c = ' ');
                i = end;
                continue;
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_comments_and_trailing_commas_are_blanked_in_place() {
        let text = "{\n // note\n \"a\": \"//x\", /* b */ // c\n \"b\": [1, 2,],\n}";
        let stripped = strip_jsonc(text);
        assert_eq!(stripped.lines().count(), text.lines().count());
        let value: Value = serde_json::from_str(&stripped).unwrap();
        assert_eq!(value["a"], "//x");
        assert_eq!(value["b"], serde_json::json!([1, 2]));
    }
}
