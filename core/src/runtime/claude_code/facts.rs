//! What Claude Code reads, in one place: the writer, the validator and the
//! importer all take these names from here.

/// The folder that marks a Claude Code plugin; it holds the manifest and,
/// at a marketplace root, the marketplace file.
pub const MANIFEST_DIR: &str = ".claude-plugin";
/// The plugin manifest: [`MANIFEST_DIR`] joined with `plugin.json`.
pub const MANIFEST_PATH: &str = ".claude-plugin/plugin.json";
/// The marketplace file: [`MANIFEST_DIR`] joined with `marketplace.json`.
pub const MARKETPLACE_PATH: &str = ".claude-plugin/marketplace.json";

/// The variable Claude Code sets to the installed plugin's folder.
pub const PLUGIN_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";
/// The variable Claude Code sets to the plugin's persistent data folder.
pub const PLUGIN_DATA_VAR: &str = "CLAUDE_PLUGIN_DATA";
/// [`PLUGIN_ROOT_VAR`] as hook commands and MCP fields spell it.
pub const PLUGIN_ROOT: &str = "${CLAUDE_PLUGIN_ROOT}";
/// [`PLUGIN_DATA_VAR`] as hook commands and MCP fields spell it.
pub const PLUGIN_DATA: &str = "${CLAUDE_PLUGIN_DATA}";

/// Claude Code's hook events: the canonical dialect's event names (2.1.332's
/// list, binary strings beside its "Not a recognized hook event" check).
pub const HOOK_EVENTS: [&str; 34] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
];

/// Hook handler `type`s, each with the string fields it requires.
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 5] = [
    ("command", &["command"]),
    ("prompt", &["prompt"]),
    ("agent", &["prompt"]),
    ("http", &["url"]),
    ("mcp_tool", &["server", "tool"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_the_folder_joined_with_the_file_name() {
        assert_eq!(MANIFEST_PATH, format!("{MANIFEST_DIR}/plugin.json"));
        assert_eq!(MARKETPLACE_PATH, format!("{MANIFEST_DIR}/marketplace.json"));
        assert_eq!(PLUGIN_ROOT, format!("${{{PLUGIN_ROOT_VAR}}}"));
        assert_eq!(PLUGIN_DATA, format!("${{{PLUGIN_DATA_VAR}}}"));
    }
}
