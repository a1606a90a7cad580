//! Sub-agents: Markdown with frontmatter. Claude Code checks field types and
//! warns without a description; Gemini CLI's schema is strict (an unknown
//! key or a Claude-style `tools: Read, Grep` fails the agent's load);
//! OpenCode fails its whole config on a wrong `mode` or `tools`.

use serde_json::Value;

use super::super::Context;
use super::layout::Layout;
use super::markdown::{self, Markdown, MarkdownRules, at_field, kind};
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::runtime::Runtime;

pub const INVALID_FRONTMATTER: Rule = Rule {
    code: "agent/invalid-frontmatter",
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "gemini", "cursor", "opencode", "generic"],
    summary: "An agent's frontmatter is a YAML mapping between `---` lines.",
    fix: "Fix the YAML at the reported line (quote values holding `: `), and close the block with `---`.",
};

pub const QUOTED_FRONTMATTER: Rule = Rule {
    code: "agent/frontmatter-quoted",
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "An agent's frontmatter is not valid YAML as written; Claude Code quotes plain values holding `: ` or YAML syntax and reads again, other readers refuse the file.",
    fix: "Quote the reported value (`key: \"...\"`) or write it as a block scalar (`key: >-`).",
};

pub const NO_FRONTMATTER: Rule = Rule {
    code: "agent/no-frontmatter",
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code", "cursor", "opencode"],
    summary: "An agent starts with YAML frontmatter that names and describes it.",
    fix: "Add `---\\nname: <name>\\ndescription: <when to use the agent>\\n---` at the top of the file.",
};

pub const MISSING_DESCRIPTION: Rule = Rule {
    code: "agent/missing-description",
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "An agent's frontmatter has a `description`, which tells when to delegate to it.",
    fix: "Add `description: <when to use the agent>` to the frontmatter.",
};

pub const MISSING_FIELD: Rule = Rule {
    code: "agent/missing-field",
    severity: RuleSeverity::Error,
    runtimes: &["gemini", "cursor"],
    summary: "An agent's frontmatter has the fields the runtime requires (`name` and `description`).",
    fix: "Add the missing field to the frontmatter.",
};

pub const UNKNOWN_FIELD: Rule = Rule {
    code: "agent/unknown-field",
    severity: RuleSeverity::Error,
    runtimes: &["gemini"],
    summary: "A Gemini agent uses only the keys of Gemini's strict agent schema.",
    fix: "Remove the key (Gemini fails to load an agent with any key outside its schema).",
};

pub const INVALID_FIELD: Rule = Rule {
    code: "agent/invalid-field",
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "gemini", "opencode"],
    summary: "An agent's fields have the types and values the runtime reads.",
    fix: "Give the field the type or value the message names.",
};

/// Keys of Gemini CLI 0.61's agent frontmatter schema (local and remote agents).
const GEMINI_KEYS: [&str; 13] = [
    "auth",
    "kind",
    "name",
    "description",
    "display_name",
    "tools",
    "mcp_servers",
    "model",
    "temperature",
    "max_turns",
    "timeout_mins",
    "agent_card_url",
    "agent_card_json",
];

pub(crate) fn check(cx: &Context<'_>, layout: &Layout, sink: &mut Sink) {
    let runtime = cx.runtime.unwrap_or(Runtime::ClaudeCode);
    // Gemini reads `agents/*.md` only, skipping files starting with `_`.
    let recursive = runtime != Runtime::Gemini;
    for dir in &layout.agents {
        for rel in markdown::files(cx, dir, &[".md"], recursive) {
            let file_name = rel.rsplit('/').next().unwrap_or(&rel);
            if runtime == Runtime::Gemini && file_name.starts_with('_') {
                continue;
            }
            check_agent(cx, runtime, &rel, sink);
        }
    }
}

fn check_agent(cx: &Context<'_>, runtime: Runtime, rel: &str, sink: &mut Sink) {
    let no_frontmatter = matches!(runtime, Runtime::ClaudeCode | Runtime::Cursor | Runtime::OpenCode);
    let rules = MarkdownRules {
        invalid_frontmatter: &INVALID_FRONTMATTER,
        quoted_frontmatter: Some(&QUOTED_FRONTMATTER),
        no_frontmatter: no_frontmatter.then_some(&NO_FRONTMATTER),
    };
    let Some(doc) = markdown::read(cx, rel, &rules, sink) else { return };
    let id = Some(runtime.id());
    match runtime {
        Runtime::ClaudeCode => {
            markdown::claude_field_types(cx, &doc, &INVALID_FIELD, sink);
            let described = doc.has_key("description") || doc.has_key("when_to_use");
            if doc.frontmatter.is_some() && !described {
                sink.report(
                    &MISSING_DESCRIPTION,
                    id,
                    Some(cx.folder.at(rel)),
                    "the frontmatter has no `description`: Claude Code cannot tell when to delegate to this agent",
                );
            }
        }
        Runtime::Gemini => {
            // Remote agents (an agent card) may leave out the description.
            let remote = doc.field("agent_card_url").is_some() || doc.field("agent_card_json").is_some();
            let keys: &[&str] = if remote { &["name"] } else { &["name", "description"] };
            required(cx, runtime, &doc, keys, sink);
            gemini(cx, &doc, sink);
        }
        Runtime::Cursor => required(cx, runtime, &doc, &["name", "description"], sink),
        Runtime::OpenCode => opencode(cx, &doc, sink),
        _ => {}
    }
}

fn required(cx: &Context<'_>, runtime: Runtime, doc: &Markdown, keys: &[&str], sink: &mut Sink) {
    for key in keys {
        let present = doc.str_field(key).is_some_and(|v| !v.trim().is_empty());
        if !present && doc.field(key).is_none_or(Value::is_string) {
            sink.report(
                &MISSING_FIELD,
                Some(runtime.id()),
                Some(cx.folder.at(&doc.rel)),
                format!("no `{key}` in the frontmatter: {} does not load the agent", display(runtime)),
            );
        }
    }
}

fn gemini(cx: &Context<'_>, doc: &Markdown, sink: &mut Sink) {
    let id = Some(Runtime::Gemini.id());
    let Some(frontmatter) = &doc.frontmatter else { return };
    for key in frontmatter.keys().filter(|k| !GEMINI_KEYS.contains(&k.as_str())) {
        sink.report(
            &UNKNOWN_FIELD,
            id,
            Some(at_field(cx, doc, key)),
            format!("`{key}` is not a Gemini agent field: Gemini CLI fails to load the agent"),
        );
    }
    let mut invalid = |key: &str, message: String| {
        sink.report(&INVALID_FIELD, id, Some(at_field(cx, doc, key)), message);
    };
    if let Some(name) = doc.field("name") {
        let valid = name.as_str().is_some_and(|n| {
            !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        });
        if !valid {
            invalid("name", format!("`name` {name} must match ^[a-z0-9-_]+$ for Gemini CLI"));
        }
    }
    for key in ["description", "display_name", "model"] {
        if let Some(value) = doc.field(key).filter(|v| !v.is_string()) {
            invalid(key, format!("`{key}` must be a string, not {}", kind(value)));
        }
    }
    if let Some(tools) = doc.field("tools") {
        match tools.as_array().filter(|items| items.iter().all(Value::is_string)) {
            None => {
                invalid("tools", format!("`tools` must be a YAML list of tool names, not {}", kind(tools)))
            }
            Some(items) => {
                for tool in items.iter().filter_map(Value::as_str).filter(|t| !gemini_tool(t)) {
                    invalid(
                        "tools",
                        format!(
                            "`{tool}` is not a Gemini CLI tool name (e.g. read_file, grep_search, run_shell_command)"
                        ),
                    );
                }
            }
        }
    }
    if let Some(agent_kind) = doc.field("kind") {
        if !matches!(agent_kind.as_str(), Some("local" | "remote")) {
            invalid("kind", format!("`kind` must be local or remote, not {agent_kind}"));
        }
    }
}

/// Gemini CLI 0.61 still accepts this legacy name beside its built-in tools.
const GEMINI_LEGACY_TOOL: &str = "search_file_content";

/// Gemini's `isValidToolName` with wildcards allowed: a built-in, a
/// `discovered_tool_` name, `*`, or `mcp_<server>_<tool>`.
fn gemini_tool(name: &str) -> bool {
    let slug =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(&b));
    if crate::runtime::gemini::tools::GEMINI_TOOLS.contains(&name)
        || name == GEMINI_LEGACY_TOOL
        || name.starts_with("discovered_tool_")
        || name == "*"
        || name == "mcp_*"
    {
        return true;
    }
    let Some(rest) = name.strip_prefix("mcp_").filter(|r| !r.starts_with('_')) else { return false };
    match rest.split_once('_') {
        Some((server, tool)) => {
            slug(server) && (tool == "*" || (!tool.trim_start_matches('_').is_empty() && slug(tool)))
        }
        None => false,
    }
}

fn opencode(cx: &Context<'_>, doc: &Markdown, sink: &mut Sink) {
    let id = Some(Runtime::OpenCode.id());
    let mut invalid = |key: &str, message: String| {
        sink.report(&INVALID_FIELD, id, Some(at_field(cx, doc, key)), message);
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

fn display(runtime: Runtime) -> &'static str {
    match runtime {
        Runtime::Gemini => "Gemini CLI",
        Runtime::Cursor => "Cursor",
        _ => runtime.id(),
    }
}

#[cfg(test)]
mod tests {
    use super::gemini_tool;

    #[test]
    fn gemini_tool_names_follow_its_checker() {
        for ok in [
            "read_file",
            "search_file_content",
            "*",
            "mcp_*",
            "mcp_db_query",
            "mcp_db_*",
            "discovered_tool_x",
        ] {
            assert!(gemini_tool(ok), "{ok}");
        }
        for bad in ["Read", "grep", "mcp__x", "mcp_db", "mcp_db___", "mcp_d b_q"] {
            assert!(!gemini_tool(bad), "{bad}");
        }
    }
}
