//! The canonical source's vocabulary, below every module that reads a
//! source and every runtime. The canonical dialect is Claude Code's: a
//! Claude Code plugin is a canonical source as it stands (its manifest
//! folder), its hook events are the canonical ones, and its plugin-root
//! variables are read as the canonical [`PLUGIN_ROOT`] and [`PLUGIN_DATA`].
//! The source loader and `vars.rs` take these names from here;
//! `runtime/claude_code/facts.rs` re-exports them as Claude Code's facts
//! (the runtimes depend on this module, never the reverse).

/// The canonical plugin-root variable as a source writes it; each runtime's
/// writer spells it the runtime's way.
pub const PLUGIN_ROOT: &str = "${PLUGIN_ROOT}";
/// The canonical plugin-data variable as a source writes it.
pub const PLUGIN_DATA: &str = "${PLUGIN_DATA}";

/// The folder that marks a Claude Code plugin; it holds the manifest and,
/// at a marketplace root, the marketplace file.
pub const CLAUDE_MANIFEST_DIR: &str = ".claude-plugin";
/// The plugin manifest: [`CLAUDE_MANIFEST_DIR`] joined with `plugin.json`.
pub const CLAUDE_MANIFEST_PATH: &str = ".claude-plugin/plugin.json";

/// The canonical source's app connectors: `{"apps": {"<name>": {"id": "<connector id>"}}}`,
/// the file a Codex plugin names in its manifest's `apps` (`./.app.json` in
/// every plugin of OpenAI's own collection). Each app is a hosted connector
/// named by its id; only a runtime that serves such connectors loads it.
pub const APPS_FILE: &str = ".app.json";

/// The variable Claude Code sets to the installed plugin's folder.
pub const CLAUDE_PLUGIN_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";
/// The variable Claude Code sets to the plugin's persistent data folder.
pub const CLAUDE_PLUGIN_DATA_VAR: &str = "CLAUDE_PLUGIN_DATA";
/// [`CLAUDE_PLUGIN_ROOT_VAR`] as hook commands and MCP fields spell it; a
/// canonical source may write it for [`PLUGIN_ROOT`].
pub const CLAUDE_PLUGIN_ROOT: &str = "${CLAUDE_PLUGIN_ROOT}";
/// [`CLAUDE_PLUGIN_DATA_VAR`] as hook commands and MCP fields spell it; a
/// canonical source may write it for [`PLUGIN_DATA`].
pub const CLAUDE_PLUGIN_DATA: &str = "${CLAUDE_PLUGIN_DATA}";

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
