//! Sub-agents: Claude Code's agent frontmatter in the form Qwen Code's
//! `parseSubagentContent` reads, with tool lists in Qwen's display names
//! (the only form an agent's `tools` resolves besides the tool names,
//! [`facts::CLAUDE_TO_QWEN_TOOLS`]), and back.

use serde_json::{Map, Value, json};

use super::facts;

/// Why Qwen Code refuses an agent named `name`, if it does.
pub fn name_problem(name: &str) -> Option<String> {
    let chars = name.chars().count();
    if !(2..=50).contains(&chars) {
        return Some(format!("its name {name:?} is not 2 to 50 characters"));
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
        return Some(format!("its name {name:?} holds characters other than letters, digits, - and _"));
    }
    if name.starts_with(['-', '_']) || name.ends_with(['-', '_']) {
        return Some(format!("its name {name:?} starts or ends with - or _"));
    }
    if facts::RESERVED_AGENT_NAMES.contains(&name.to_lowercase().as_str()) {
        return Some(format!("{name:?} is a name Qwen Code reserves"));
    }
    None
}

/// The entries of a `tools`-like value: a list, or a comma-separated string.
pub fn names(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        Value::String(text) => {
            text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect()
        }
        _ => Vec::new(),
    }
}

/// Tool entries in Qwen's names, and what was dropped or narrowed.
pub struct Tools {
    pub tools: Vec<String>,
    pub dropped: Vec<String>,
    pub widened: Vec<String>,
}

/// A Claude Code tool entry (`Read`, `Bash(git:*)`, `mcp__db__query`) as
/// the Qwen tool it names, if any.
fn qwen_tool(entry: &str) -> Option<(String, bool)> {
    let (name, pattern) = match entry.split_once('(') {
        Some((name, _)) => (name.trim(), true),
        None => (entry, false),
    };
    if facts::CLAUDE_TOOLS_WITHOUT_QWEN.contains(&name) {
        return None;
    }
    if name.starts_with(facts::MCP_TOOL_PREFIX) {
        return Some((name.to_string(), pattern));
    }
    if let Some((_, qwen)) = facts::CLAUDE_TO_QWEN_TOOLS.iter().find(|(claude, _)| *claude == name) {
        return Some((qwen.to_string(), pattern));
    }
    let native = facts::QWEN_TOOLS.iter().any(|(tool, display)| *tool == name || *display == name);
    native.then(|| (name.to_string(), pattern))
}

pub fn to_qwen_tools(entries: &[String]) -> Tools {
    let mut out = Tools { tools: Vec::new(), dropped: Vec::new(), widened: Vec::new() };
    for entry in entries {
        match qwen_tool(entry) {
            Some((tool, narrowed)) => {
                if narrowed {
                    out.widened.push(entry.clone());
                }
                if !out.tools.contains(&tool) {
                    out.tools.push(tool);
                }
            }
            None => out.dropped.push(entry.clone()),
        }
    }
    out
}

/// A Qwen tool name or display name as Claude Code's, where one stands for it.
pub fn claude_tool(qwen: &str) -> String {
    let display =
        facts::QWEN_TOOLS.iter().find(|(tool, _)| *tool == qwen).map_or(qwen, |(_, display)| *display);
    let claude = facts::CLAUDE_TO_QWEN_TOOLS.iter().find(|(claude, q)| *q == display && *claude != "MultiEdit");
    match claude {
        // `Agent` is Claude's current name; `Task` its older one.
        Some((_, "Agent")) => "Agent".to_string(),
        Some((claude, _)) => claude.to_string(),
        None => display.to_string(),
    }
}

/// Claude Code's model aliases, which Qwen would send to its provider as a model id.
const CLAUDE_MODELS: [&str; 3] = ["sonnet", "opus", "haiku"];

/// The frontmatter Qwen reads, from a canonical agent's, with notes.
pub fn frontmatter(source: &Map<String, Value>, name: &str, description: &str) -> (Map<String, Value>, Vec<String>) {
    let mut notes = Vec::new();
    let mut out = Map::new();
    out.insert("name".into(), json!(name));
    out.insert("description".into(), json!(description));
    let mut dropped = Vec::new();
    for (key, value) in source {
        match key.as_str() {
            "name" | "description" => {}
            "tools" | "disallowedTools" => {
                let mapped = to_qwen_tools(&names(value));
                if !mapped.dropped.is_empty() {
                    notes.push(format!("Qwen Code has no tool for {}; dropped from {key}", mapped.dropped.join(", ")));
                }
                if !mapped.widened.is_empty() {
                    notes.push(format!("{} lose their pattern", mapped.widened.join(", ")));
                }
                if !mapped.tools.is_empty() || mapped.dropped.is_empty() {
                    out.insert(key.clone(), json!(mapped.tools));
                }
            }
            "model" => match value.as_str() {
                Some(model) if CLAUDE_MODELS.contains(&model) || model.starts_with("claude-") => notes.push(format!(
                    "model {value} is a Claude model, which Qwen Code would ask its provider for; the agent uses the session's"
                )),
                Some(model) if !model.trim().is_empty() => {
                    out.insert(key.clone(), value.clone());
                }
                _ => notes.push(format!("model {value} is not a model name; dropped")),
            },
            "color" => match value.as_str() {
                Some(color) if facts::AGENT_COLORS.contains(&color) => {
                    out.insert(key.clone(), value.clone());
                }
                _ => notes.push(format!("color {value} is not one Qwen Code shows; dropped")),
            },
            "permissionMode" => match value.as_str() {
                Some(mode) if facts::PERMISSION_MODES.contains(&mode) => {
                    out.insert(key.clone(), value.clone());
                }
                _ => notes.push(format!("permissionMode {value} is not one Qwen Code reads; dropped")),
            },
            "hooks" | "mcpServers" if !value.is_object() => {
                notes.push(format!("{key} is not an object of Qwen Code's shape; dropped"))
            }
            k if facts::AGENT_KEYS.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            _ => dropped.push(key.as_str()),
        }
    }
    if !dropped.is_empty() {
        notes.push(format!("Qwen Code's agents have no field for {}; dropped", dropped.join(", ")));
    }
    (out, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_tools_become_qwen_display_names_and_come_back() {
        let got = to_qwen_tools(&names(&json!("Bash, Read, Grep, Bash(git:*), BashOutput, mcp__db__q, ReadFile")));
        assert_eq!(got.tools, ["Shell", "ReadFile", "Grep", "mcp__db__q"]);
        assert_eq!(got.dropped, ["BashOutput"]);
        assert_eq!(got.widened, ["Bash(git:*)"]);
        for (claude, qwen) in [("Bash", "Shell"), ("Read", "ReadFile"), ("Task", "Agent"), ("LS", "ListFiles")] {
            let back = claude_tool(qwen);
            assert!(back == claude || (claude == "Task" && back == "Agent"), "{qwen} -> {back}");
        }
        assert_eq!(claude_tool("run_shell_command"), "Bash");
        assert_eq!(claude_tool("SaveMemory"), "SaveMemory");
    }

    #[test]
    fn names_qwen_refuses_are_said() {
        assert!(name_problem("reviewer").is_none());
        assert!(name_problem("x").is_some());
        assert!(name_problem("team:scout").is_some());
        assert!(name_problem("-lead").is_some());
        assert!(name_problem("Main").is_some());
    }
}
