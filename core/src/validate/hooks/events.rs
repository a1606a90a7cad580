//! Hook event names, as each runtime's spec lists them.

use crate::runtime::HookEvents;

/// Whether `event` is one the runtime runs.
pub(crate) fn is_known(events: HookEvents, event: &str) -> bool {
    match events {
        HookEvents::Listed(list) => list.contains(&event),
        HookEvents::CamelCase => {
            event.starts_with(|c: char| c.is_ascii_lowercase())
                && event.chars().all(|c| c.is_ascii_alphanumeric())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Runtime;

    fn events(id: &str) -> HookEvents {
        Runtime::parse(id).unwrap().spec().hooks.as_ref().unwrap().events
    }

    #[test]
    fn claude_code_2_1_332_events_are_known() {
        for event in ["DirectoryAdded", "PreModelSwitch", "PostModelSwitch", "PreSkillShellCommand", "Stop"] {
            assert!(is_known(events("claude-code"), event), "{event}");
        }
        assert!(!is_known(events("claude-code"), "BeforeTool"));
        assert!(!is_known(events("codex"), "DirectoryAdded"));
        assert!(is_known(events("cursor"), "afterAgentResponse"));
    }
}
