//! What GitHub Copilot CLI (1.0.102) reads, in one place (docs/runtimes/copilot.md,
//! fact numbers in brackets).

/// The folder Copilot reads the manifest from first.
pub const MANIFEST_DIR: &str = ".plugin";
/// The plugin manifest: [`MANIFEST_DIR`] joined with `plugin.json`. Copilot
/// reads it before a root `plugin.json`, `.github/plugin/` and Claude Code's
/// manifest folder [1].
pub const MANIFEST_PATH: &str = ".plugin/plugin.json";
/// At an output root Copilot takes this file over the Claude marketplace beside it [9, 10].
/// Its shape is Claude Code's: `name`, `owner`, `metadata`, and `plugins`
/// whose `source` is a `./` folder of the marketplace root or a remote
/// object (docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/plugins-marketplace).
pub const MARKETPLACE_PATH: &str = ".github/plugin/marketplace.json";

/// Copilot resolves the canonical `${PLUGIN_ROOT}` in hook commands and sets
/// it for MCP servers, but sets no `PLUGIN_DATA`: hooks get this one instead
/// [23, 25].
pub const PLUGIN_DATA: &str = "${COPILOT_PLUGIN_DATA}";

/// Claude Code events Copilot runs (under the Claude name) [21].
pub const HOOK_EVENTS: [&str; 12] = [
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "Notification",
];
/// Handler types Copilot runs from a plugin's hooks file; any other type
/// (`prompt` outside sessionStart included) drops the whole file [20, 22].
pub const HOOK_HANDLER_TYPES: [&str; 2] = ["command", "http"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_the_folder_joined_with_the_file_name() {
        assert_eq!(MANIFEST_PATH, format!("{MANIFEST_DIR}/plugin.json"));
    }
}
