//! Claude Code tool names -> Gemini CLI built-in tool names, for agent `tools`
//! lists and hook matchers.
//!
//! Gemini's names are the `*_TOOL_NAME` constants and `ALL_BUILTIN_TOOL_NAMES`
//! of the gemini-cli 0.61.0 bundle; an agent whose `tools` holds any other
//! name fails to load ("Invalid tool name"). Gemini's own `gemini hooks
//! migrate` maps a few of these too, with names that are stale in 0.61.0
//! (`grep`, `ls`), so this table follows the constants instead.

use serde_json::Value;

/// (Claude Code tool, Gemini CLI tool).
const CLAUDE_TO_GEMINI: [(&str, &str); 19] = [
    ("Bash", "run_shell_command"),
    ("Read", "read_file"),
    ("Write", "write_file"),
    ("Edit", "replace"),
    ("MultiEdit", "replace"),
    ("Grep", "grep_search"),
    ("Glob", "glob"),
    ("LS", "list_directory"),
    ("WebFetch", "web_fetch"),
    ("WebSearch", "google_web_search"),
    ("TodoWrite", "write_todos"),
    ("AskUserQuestion", "ask_user"),
    ("Skill", "activate_skill"),
    ("Task", "invoke_agent"),
    ("Agent", "invoke_agent"),
    ("EnterPlanMode", "enter_plan_mode"),
    ("ExitPlanMode", "exit_plan_mode"),
    ("ListMcpResourcesTool", "list_mcp_resources"),
    ("ReadMcpResourceTool", "read_mcp_resource"),
];

/// Gemini's built-in tool names, kept as they are when a source already uses them.
const GEMINI_TOOLS: [&str; 27] = [
    "glob",
    "write_todos",
    "write_file",
    "google_web_search",
    "web_fetch",
    "replace",
    "run_shell_command",
    "grep_search",
    "read_many_files",
    "read_file",
    "list_directory",
    "activate_skill",
    "ask_user",
    "tracker_create_task",
    "tracker_update_task",
    "tracker_get_task",
    "tracker_list_tasks",
    "tracker_add_dependency",
    "tracker_visualize",
    "get_internal_docs",
    "enter_plan_mode",
    "exit_plan_mode",
    "update_topic",
    "complete_task",
    "invoke_agent",
    "read_mcp_resource",
    "list_mcp_resources",
];

/// One Claude tool name (or `Tool(pattern)`, or `mcp__server__tool`) as
/// Gemini spells it: the name, and whether a pattern was given up on the way.
pub fn gemini_tool(claude: &str) -> Option<(String, bool)> {
    let (base, narrowed) = match claude.split_once('(') {
        Some((base, _)) if claude.ends_with(')') => (base.trim(), true),
        _ => (claude.trim(), false),
    };
    let name = if let Some(rest) = base.strip_prefix("mcp__") {
        mcp_tool(rest)?
    } else if GEMINI_TOOLS.contains(&base) || base == "*" {
        base.to_string()
    } else {
        CLAUDE_TO_GEMINI.iter().find(|(c, _)| *c == base).map(|(_, g)| g.to_string())?
    };
    Some((name, narrowed))
}

/// `server__tool` -> `mcp_server_tool`, `server` -> `mcp_server_*`. Gemini
/// reads the server name up to the first underscore, so a server name with
/// one cannot be addressed.
fn mcp_tool(rest: &str) -> Option<String> {
    let (server, tool) = match rest.split_once("__") {
        Some((server, tool)) => (server, Some(tool)),
        None => (rest, None),
    };
    let slug = |s: &str| {
        !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
    };
    if !slug(server) || server.contains('_') {
        return None;
    }
    match tool {
        None | Some("*") => Some(format!("mcp_{server}_*")),
        Some(tool) if slug(tool) && !tool.chars().all(|c| c == '_') => Some(format!("mcp_{server}_{tool}")),
        Some(_) => None,
    }
}

/// The Claude tool a Gemini built-in stands for (the first in the table), for `import`.
pub fn claude_tool(gemini: &str) -> Option<&'static str> {
    CLAUDE_TO_GEMINI.iter().find(|(_, g)| *g == gemini).map(|(c, _)| *c)
}

/// A Claude `tools` value (a comma-separated string or a list) as names.
pub fn names(value: &Value) -> Vec<String> {
    match value {
        Value::String(text) => {
            text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
        }
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(|s| s.trim().to_string()).collect(),
        _ => Vec::new(),
    }
}

/// The result of mapping a list of Claude tool names.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Mapped {
    pub tools: Vec<String>,
    /// Names with no Gemini equivalent.
    pub dropped: Vec<String>,
    /// `Tool(pattern)` entries whose pattern Gemini's list cannot carry.
    pub widened: Vec<String>,
}

pub fn map_all(claude: &[String]) -> Mapped {
    let mut mapped = Mapped::default();
    for name in claude {
        match gemini_tool(name) {
            Some((gemini, widened)) => {
                if widened {
                    mapped.widened.push(name.clone());
                }
                if !mapped.tools.contains(&gemini) {
                    mapped.tools.push(gemini);
                }
            }
            None => mapped.dropped.push(name.clone()),
        }
    }
    mapped
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_claude_tools_to_gemini_builtins() {
        let got = |n: &str| gemini_tool(n).map(|(name, _)| name);
        assert_eq!(got("Bash").as_deref(), Some("run_shell_command"));
        assert_eq!(got("Read").as_deref(), Some("read_file"));
        assert_eq!(got("Edit").as_deref(), Some("replace"));
        assert_eq!(got("Grep").as_deref(), Some("grep_search"));
        assert_eq!(got("LS").as_deref(), Some("list_directory"));
        assert_eq!(got("WebSearch").as_deref(), Some("google_web_search"));
        assert_eq!(got("Task").as_deref(), Some("invoke_agent"));
        assert_eq!(got("read_file").as_deref(), Some("read_file"));
        assert_eq!(got("NotebookEdit"), None);
        assert_eq!(gemini_tool("Bash(git:*)"), Some(("run_shell_command".into(), true)));
    }

    #[test]
    fn maps_mcp_tool_names() {
        let got = |n: &str| gemini_tool(n).map(|(name, _)| name);
        assert_eq!(got("mcp__deployer__rollout").as_deref(), Some("mcp_deployer_rollout"));
        assert_eq!(got("mcp__deployer").as_deref(), Some("mcp_deployer_*"));
        assert_eq!(got("mcp__my_server__x"), None, "gemini splits the server at the first underscore");
    }

    #[test]
    fn maps_lists_and_strings_deduplicated() {
        let mapped = map_all(&names(&json!("Bash, Read, Grep, Edit, MultiEdit, NotebookEdit")));
        assert_eq!(mapped.tools, ["run_shell_command", "read_file", "grep_search", "replace"]);
        assert_eq!(mapped.dropped, ["NotebookEdit"]);
        assert_eq!(names(&json!(["Read", " Glob "])), ["Read", "Glob"]);
    }
}
