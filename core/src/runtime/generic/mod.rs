//! Generic: one Markdown guide (`GUIDE.md`) carrying the plugin for tools
//! with no plugin format. Every part becomes a manual step, so every row of
//! the honesty report is degraded, with what the reader has to do.

use serde_json::{Value, json};

use super::{BOTH_SCOPES, Kind, Layout, Writer};
use crate::error::Result;
use crate::model::MarkdownComponent;
use crate::report::Level;
use crate::templates;
use crate::vars::{VarTable, canonical_text};

/// generic, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    id: "generic",
    name: "generic",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: None, claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: None, manifest_required: false, manifest_fallbacks: &[], check_manifest: None, check_plugin: None, layout: super::claude_code::lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: false, description: None, own_format: None },
    hook_trust: None,
    read: None,
    foreign: None,
    judge: super::Judge::Nothing("a guide people follow by hand; no runtime loads it"),
    rules: &[],
    subject: "generic",
    folder_vars: &[],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: None,
        misplaced: None,
        read_file: None,
        server: None,
        expands: None,
        unexpanded: "generic leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] =
    &[Kind { name: "guide", layout: Layout::Folder, scopes: BOTH_SCOPES, marketplace: None, shared: &[] }];

const GUIDE: &str = "GUIDE.md";

/// The guide names the plugin's folders in words the reader replaces.
const GUIDE_VARS: VarTable =
    VarTable(&[("${PLUGIN_ROOT}", "<plugin-root>"), ("${PLUGIN_DATA}", "<plugin-data>")]);

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let ctx = json!({
        "plugin": {
            "name": w.plugin.config.name,
            "display_name": w.plugin.config.display_name,
            "version": w.plugin.config.version,
            "description": w.plugin.config.description,
        },
        "context": context(w),
        "skills": skills(w),
        "commands": commands(w),
        "agents": agents(w),
        "hooks": hooks(w),
        "mcp_servers": mcp_servers(w),
        "settings": settings(w),
        "bin": bin(w),
        "output_styles": output_styles(w),
        "generator": w.options.generator,
    });
    let text = templates::render("generic/GUIDE.md.j2", ctx);
    w.add(GUIDE, text.into_bytes(), templates::origin("generic/GUIDE.md.j2"))
}

/// Canonical (or Claude) variable spellings as the guide's placeholders.
fn plain(text: &str) -> String {
    let canonical = canonical_text(text).unwrap_or_else(|| text.to_string());
    GUIDE_VARS.text(&canonical).unwrap_or(canonical)
}

/// A fenced block that no run of backticks inside `text` can close early.
fn fenced(info: &str, text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{info}\n{text}{newline}{fence}")
}

fn json_block(value: &Value) -> String {
    let text = String::from_utf8(crate::json::to_bytes(value)).expect("JSON is UTF-8");
    fenced("json", &plain(&text))
}

fn context(w: &mut Writer<'_>) -> Option<String> {
    let context = w.plugin.context.as_ref()?;
    let text = plain(context.file.text().unwrap_or_default());
    let detail = "in the guide's standing instructions, to put where the tool reads its rules";
    w.honest("context", context.path.as_str(), Level::Degraded, detail);
    Some(fenced("markdown", &text))
}

fn skills(w: &mut Writer<'_>) -> Vec<Value> {
    let mut out = Vec::new();
    for skill in &w.plugin.skills {
        let dir = format!("skills/{}", skill.name);
        let files: Vec<String> =
            skill.files.iter().filter_map(|f| f.path.strip_prefix(&dir).map(|p| p.to_string())).collect();
        out.push(json!({
            "name": skill.name,
            "description": skill.document.str_field("description"),
            "files": files,
            "block": fenced("markdown", &plain(&skill.document.body)),
        }));
        let detail = "instructions in the guide, to hand to the agent when the task comes up";
        w.honest("skill", &skill.name, Level::Degraded, detail);
    }
    out
}

fn commands(w: &mut Writer<'_>) -> Vec<Value> {
    let mut out = Vec::new();
    for command in &w.plugin.commands {
        let hint = command.document.argument_hint();
        out.push(json!({
            "name": command.name,
            "description": command.document.str_field("description"),
            "hint": hint,
            "block": fenced("markdown", &plain(&command.document.body)),
        }));
        let detail = "a prompt to paste, with $ARGUMENTS and $1.. filled in by hand";
        w.honest("command", &command.name, Level::Degraded, detail);
    }
    out
}

fn agents(w: &mut Writer<'_>) -> Vec<Value> {
    let mut out = Vec::new();
    for agent in &w.plugin.agents {
        out.push(described(agent));
        let detail = "a system prompt in the guide, to start a separate session or sub-agent with";
        w.honest("agent", &agent.name, Level::Degraded, detail);
    }
    out
}

fn described(agent: &MarkdownComponent) -> Value {
    let tools = agent.document.field("tools").map(|t| match t {
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "),
        other => other.as_str().map_or_else(|| other.to_string(), str::to_string),
    });
    json!({
        "name": agent.name,
        "description": agent.document.str_field("description"),
        "tools": tools,
        "block": fenced("markdown", &plain(&agent.document.body)),
    })
}

/// One line per hook handler; the honesty report has one row per event.
fn hooks(w: &mut Writer<'_>) -> Vec<Value> {
    let Some(hooks) = w.plugin.hooks.as_ref().and_then(|h| h.value.get("hooks")?.as_object().cloned()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (event, groups) in &hooks {
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group.get("matcher").and_then(Value::as_str).filter(|m| !m.is_empty() && *m != "*");
            for handler in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
                out.push(json!({"event": event, "matcher": matcher, "command": handler_text(handler)}));
            }
        }
        let detail = "a setup step in the guide: the tool must run it at that moment, if it can";
        w.honest("hook", event, Level::Degraded, detail);
    }
    out
}

fn handler_text(handler: &Value) -> String {
    let text = match handler.get("type").and_then(Value::as_str) {
        Some("command") | None => handler.get("command").and_then(Value::as_str).map(str::to_string),
        Some(kind) => handler.get("prompt").and_then(Value::as_str).map(|p| format!("({kind}) {p}")),
    };
    plain(&text.unwrap_or_else(|| handler.to_string()))
}

fn mcp_servers(w: &mut Writer<'_>) -> Vec<Value> {
    let Some(mcp) = &w.plugin.mcp else { return Vec::new() };
    let mut out = Vec::new();
    for (name, server) in &mcp.servers {
        out.push(json!({"name": name, "block": json_block(server)}));
        w.honest(
            "mcp",
            name,
            Level::Degraded,
            "a setup step in the guide: register it in the tool's MCP config",
        );
    }
    out
}

fn settings(w: &mut Writer<'_>) -> Option<String> {
    let settings = w.plugin.settings.as_ref()?;
    let block = json_block(&settings.value);
    w.honest(
        "settings",
        "settings.json",
        Level::Degraded,
        "listed in the guide as Claude Code settings to mirror",
    );
    Some(block)
}

fn bin(w: &mut Writer<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for file in &w.plugin.bin {
        let detail = "not copied: the guide asks to put <plugin-root>/bin on PATH";
        w.honest("bin", file.path.as_str(), Level::Degraded, detail);
        out.push(file.path.strip_prefix("bin").map_or_else(|| file.path.to_string(), |p| p.to_string()));
    }
    out
}

fn output_styles(w: &mut Writer<'_>) -> Vec<Value> {
    let mut out = Vec::new();
    for style in &w.plugin.output_styles {
        let text = style.file.text().unwrap_or_default();
        let body =
            crate::source::parse_document(style.path.as_str(), text).map(|d| d.body).unwrap_or_default();
        let name = style.path.file_name().trim_end_matches(".md").to_string();
        out.push(json!({"name": name, "block": fenced("markdown", &plain(&body))}));
        w.honest(
            "output-style",
            style.path.as_str(),
            Level::Degraded,
            "extra system-prompt text in the guide",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_degraded() {
        let rows =
            crate::runtime::local_root::fixture::rows("generic", "guide", crate::bundle::Scope::Project);
        let components: Vec<&str> = rows.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            components,
            ["context", "skill", "command", "agent", "hook", "mcp", "settings", "bin", "output-style"]
        );
        assert!(rows.iter().all(|(_, level)| *level == Level::Degraded), "{rows:?}");
    }

    #[test]
    fn placeholders_read_as_words() {
        assert_eq!(plain("${CLAUDE_PLUGIN_ROOT}/a ${PLUGIN_DATA}/b"), "<plugin-root>/a <plugin-data>/b");
    }

    #[test]
    fn fences_outgrow_backticks_inside() {
        assert_eq!(fenced("markdown", "a\n"), "```markdown\na\n```");
        assert_eq!(fenced("markdown", "```sh\nx\n```"), "````markdown\n```sh\nx\n```\n````");
    }

    #[test]
    fn handlers_print_their_command_or_prompt() {
        assert_eq!(
            handler_text(&json!({"type": "command", "command": "${PLUGIN_ROOT}/g.sh"})),
            "<plugin-root>/g.sh"
        );
        assert_eq!(handler_text(&json!({"type": "prompt", "prompt": "Check it"})), "(prompt) Check it");
    }
}
