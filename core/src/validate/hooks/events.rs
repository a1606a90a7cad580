//! Hook event names and handler types per runtime, read from each
//! runtime's facts.

use crate::runtime::{Runtime, claude_code, codex, cursor, gemini};

/// The events `runtime` runs; `None` when its list is not closed (Cursor).
pub(crate) fn known(runtime: Runtime) -> Option<Vec<&'static str>> {
    match runtime {
        Runtime::Codex => Some(codex::facts::HOOK_EVENTS.iter().map(|event| event.name).collect()),
        Runtime::Gemini => Some(gemini::facts::HOOK_EVENTS.to_vec()),
        Runtime::Cursor => None,
        _ => Some(claude_code::facts::HOOK_EVENTS.to_vec()),
    }
}

/// A Cursor event to name as an example of its spelling.
pub(crate) fn cursor_example() -> &'static str {
    cursor::facts::HOOK_EVENTS[0].name
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
        Runtime::Codex => &codex::facts::HOOK_HANDLER_TYPES,
        Runtime::Gemini => &gemini::facts::HOOK_HANDLER_TYPES,
        _ => &claude_code::facts::HOOK_HANDLER_TYPES,
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
