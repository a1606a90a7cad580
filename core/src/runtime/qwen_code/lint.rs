//! Qwen Code's extension manifest and agents, as its 0.24.4 loader judges
//! them (facts.rs cites each rule's line of the client).

use serde_json::Value;

use super::{Runtime, agent, facts};
use crate::lint::Cx;
use crate::lint::Sink;
use crate::lint::component_rules::agent::INVALID_FIELD as INVALID_AGENT_FIELD;
use crate::lint::doc::{Doc, PathProblem, Shape, look_alike, path_exists, read_object, relative_path};
use crate::lint::layout::{HookSource, Layout, LayoutInput, McpSource};
use crate::lint::manifest_rules::*;
use crate::lint::markdown::{Markdown, at_field, kind, required_agent_fields};

const MANIFEST: &str = facts::MANIFEST_PATH;

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(object) = read_object(cx.folder, MANIFEST, Runtime::QwenCode, sink) else { return };
    let doc = Doc::new(cx.folder, MANIFEST, Runtime::QwenCode, &object);
    match doc.get("name") {
        None => {
            let message = "name: missing; Qwen Code refuses the extension (`Invalid configuration ...: missing \"name\"`)";
            doc.report(sink, &REQUIRED_FIELD_MISSING, "", message);
        }
        Some(_) => {
            if let Some(name) = doc.str_field(sink, "name") {
                if !facts::valid_extension_name(name) {
                    let message = format!(
                        "name: {name:?} may hold only letters, digits, _, . and -; Qwen Code refuses the extension"
                    );
                    doc.report(sink, &NAME_INVALID, "name", message);
                }
            }
        }
    }
    doc.expect_fields(
        sink,
        &[
            ("version", Shape::Str),
            ("displayName", Shape::StrOrObject),
            ("description", Shape::StrOrObject),
            ("contextFileName", Shape::StrOrStrList),
            ("mcpServers", Shape::Object),
            ("settings", Shape::Array),
            ("hooks", Shape::StrOrObject),
            ("commands", Shape::StrOrStrList),
            ("skillStates", Shape::Object),
            ("channels", Shape::Object),
        ],
    );
    settings(doc, sink);
    skill_states(doc, sink);
    context_files(doc, sink);
    for key in object.keys() {
        if facts::MANIFEST_KEYS.contains(&key.as_str()) {
            continue;
        }
        let message = if facts::CONVERTER_ONLY_KEYS.contains(&key.as_str()) {
            format!(
                "{key}: Qwen Code reads it only while converting a Claude Code plugin; a native extension's {key} \
                 live in the {key}/ folder"
            )
        } else {
            let hint =
                look_alike(key, &facts::MANIFEST_KEYS).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
            format!("{key}: unknown field{hint}; Qwen Code ignores it")
        };
        doc.report(sink, &UNKNOWN_KEY, key, message);
    }
}

/// Each setting has a string `envVar` Qwen accepts, or the manifest is refused.
fn settings(doc: Doc<'_>, sink: &mut Sink) {
    let Some(Value::Array(items)) = doc.get("settings") else { return };
    for (index, item) in items.iter().enumerate() {
        let field = format!("settings[{index}]");
        let Some(setting) = item.as_object() else {
            doc.report(sink, &INVALID_FIELD, &field, format!("{field}: expected an object, found {}", kind(item)));
            continue;
        };
        match setting.get("envVar").and_then(Value::as_str) {
            Some(var) if facts::valid_env_var(var) => {}
            other => {
                let message = format!(
                    "{field}.envVar: {} is not an environment variable name (^[A-Za-z_][A-Za-z0-9_]*$); Qwen Code refuses the extension",
                    other.map_or_else(|| "missing".to_string(), |v| format!("{v:?}"))
                );
                doc.report(sink, &INVALID_FIELD, &field, message);
            }
        }
        for key in ["name", "description"] {
            if !setting.get(key).is_some_and(Value::is_string) {
                let message = format!("{field}.{key}: expected a string (Qwen Code shows it when it asks for the value)");
                doc.report(sink, &INVALID_FIELD, &field, message);
            }
        }
    }
}

/// `skillStates` maps skill names to booleans, or the manifest is refused.
fn skill_states(doc: Doc<'_>, sink: &mut Sink) {
    let Some(Value::Object(states)) = doc.get("skillStates") else { return };
    for (name, value) in states {
        if !value.is_boolean() || !facts::valid_skill_name(name.trim()) {
            let message = format!(
                "skillStates.{name}: must name a skill and be true or false; Qwen Code refuses the extension (\"skillStates\" must be an object of boolean values.)"
            );
            doc.report(sink, &INVALID_FIELD, "skillStates", message);
        }
    }
}

fn context_files(doc: Doc<'_>, sink: &mut Sink) {
    let names: Vec<&str> = match doc.get("contextFileName") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    for name in names {
        match relative_path(name) {
            Ok(rel) if path_exists(doc.folder, &rel) => {}
            Ok(_) => {
                let message = format!("contextFileName: {name:?} not found in the extension; Qwen Code loads no context from it");
                doc.report(sink, &PATH_NOT_FOUND, "contextFileName", message);
            }
            Err(PathProblem::Absolute) => {
                let message = format!("contextFileName: {name:?} is absolute; Qwen Code joins it to the extension's folder");
                doc.report(sink, &PATH_NOT_RELATIVE, "contextFileName", message);
            }
            Err(PathProblem::Escapes) => {
                let message = format!("contextFileName: {name:?} contains \"..\"; it must stay inside the extension");
                doc.report(sink, &PATH_ESCAPES, "contextFileName", message);
            }
        }
    }
}

/// Where Qwen Code looks: the fixed folders, the inline `hooks` object (which
/// wins) or the hooks file it names, and the inline MCP servers.
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    // A path or a list of them, joined to the extension's folder.
    let named: Vec<String> = match input.field(facts::COMMANDS_KEY) {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).filter_map(|p| relative_path(p).ok()).collect(),
        Some(Value::String(path)) => relative_path(path).ok().into_iter().collect(),
        _ => Vec::new(),
    };
    layout.commands = if named.is_empty() { vec![facts::COMMANDS_DIR.into()] } else { named };
    layout.agents = vec![facts::AGENTS_DIR.into()];
    match input.field("hooks") {
        Some(hooks @ Value::Object(_)) => layout
            .hooks
            .push(HookSource::Inline { manifest: input.manifest_rel.to_string(), hooks: json_hooks(hooks) }),
        Some(Value::String(path)) => {
            layout.hooks.extend(relative_path(path).ok().map(HookSource::File));
        }
        _ => layout.hooks.push(HookSource::File(facts::HOOKS_FILE.into())),
    }
    if let Some(servers) = input.field("mcpServers") {
        layout.mcp.push(McpSource::Inline {
            manifest: input.manifest_rel.to_string(),
            key: "mcpServers",
            servers: servers.clone(),
        });
    }
}

/// An inline hooks object, as the hooks rules read one (`{"hooks": {...}}`).
fn json_hooks(hooks: &Value) -> Value {
    if hooks.get("hooks").is_some_and(Value::is_object) { hooks.clone() } else { serde_json::json!({ "hooks": hooks }) }
}

/// What refuses an agent: its name, description and prompt, `approvalMode`.
pub(crate) fn check_agent(cx: &Cx<'_>, doc: &Markdown, sink: &mut Sink) {
    required_agent_fields(cx, super::SPEC.name, doc, &["name", "description"], sink);
    let body = cx
        .folder
        .text(&doc.rel, sink)
        .and_then(|text| crate::source::parse_document(&doc.rel, text).ok())
        .map(|document| document.body);
    let id = Some(Runtime::QwenCode);
    let mut invalid = |key: &str, message: String| {
        sink.report(&INVALID_AGENT_FIELD, id, Some(at_field(cx, doc, key)), message);
    };
    if let Some(name) = doc.str_field("name").filter(|n| !n.trim().is_empty()) {
        if let Some(problem) = agent::name_problem(name.trim()) {
            invalid("name", format!("{problem}: Qwen Code refuses to load the agent"));
        }
    }
    if body.is_some_and(|body| body.trim().chars().count() < facts::AGENT_PROMPT_MIN) {
        invalid(
            "",
            format!("the prompt is shorter than {} characters: Qwen Code refuses to load the agent", facts::AGENT_PROMPT_MIN),
        );
    }
    if let Some(mode) = doc.field("approvalMode") {
        let known = mode.as_str().is_some_and(|m| facts::APPROVAL_TO_PERMISSION.iter().any(|(a, _)| *a == m));
        if !known {
            invalid("approvalMode", format!("`approvalMode` {mode} is not default, plan, auto-edit or yolo: Qwen Code refuses to load the agent"));
        }
    }
    for key in ["tools", "disallowedTools"] {
        if let Some(value) = doc.field(key).filter(|v| !v.is_string() && !v.is_array()) {
            invalid(key, format!("`{key}` must be a list or a comma-separated string, not {}", kind(value)));
        }
    }
}
