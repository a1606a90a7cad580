//! Hook event names and handler types per runtime.

use crate::runtime::Runtime;

/// Codex 0.171's events (binary strings; `PreModelRequest` appears beside
/// the managed-hook strings and is accepted rather than refused).
const CODEX: [&str; 13] = [
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "Interrupt",
    "PreModelRequest",
];

/// Gemini CLI 0.61's `HookEventName` enum.
const GEMINI: [&str; 11] = [
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "Notification",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
];

/// Cursor events seen in its docs and plugins; the full list is longer and
/// unpublished, so only a name outside Cursor's camelCase style is refused.
pub(crate) const CURSOR_SEEN: [&str; 13] = [
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "afterShellExecution",
    "beforeSubmitPrompt",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "stop",
    "sessionStart",
    "sessionEnd",
];

/// The events `runtime` runs; `None` when its list is not closed (Cursor).
pub(crate) fn known(runtime: Runtime) -> Option<&'static [&'static str]> {
    match runtime {
        Runtime::Codex => Some(&CODEX),
        Runtime::Gemini => Some(&GEMINI),
        Runtime::Cursor => None,
        _ => Some(&crate::source::HOOK_EVENTS),
    }
}

/// Whether `event` is one `runtime` runs.
pub(crate) fn is_known(runtime: Runtime, event: &str) -> bool {
    match known(runtime) {
        Some(list) => list.contains(&event),
        None => {
            event.starts_with(|c: char| c.is_ascii_lowercase())
                && event.chars().all(|c| c.is_ascii_alphanumeric())
        }
    }
}

/// Handler `type`s, each with the string field it requires.
pub(crate) fn handler_types(runtime: Runtime) -> &'static [(&'static str, &'static [&'static str])] {
    match runtime {
        Runtime::Codex => &[("command", &["command"]), ("prompt", &["prompt"]), ("agent", &["prompt"])],
        Runtime::Gemini => &[("command", &["command"])],
        _ => &[
            ("command", &["command"]),
            ("prompt", &["prompt"]),
            ("agent", &["prompt"]),
            ("http", &["url"]),
            ("mcp_tool", &["server", "tool"]),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_2_1_332_events_are_known() {
        for event in ["DirectoryAdded", "PreModelSwitch", "PostModelSwitch", "PreSkillShellCommand", "Stop"] {
            assert!(is_known(Runtime::ClaudeCode, event), "{event}");
        }
        assert!(!is_known(Runtime::ClaudeCode, "BeforeTool"));
        assert!(!is_known(Runtime::Codex, "DirectoryAdded"));
    }
}
