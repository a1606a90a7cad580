//! What Qwen Code reads, in one place: every file name, field, event and
//! variable its writer, reader and rules use, each with where it was
//! verified. The authority is the npm package `@qwen-code/qwen-code@0.24.4`
//! (Node >= 22), whose bundle keeps esbuild's `// packages/...` region
//! comments: `B:<line>` is a line of `chunks/chunk-DPEB6S2R.js` in that
//! package, with the TypeScript source it was built from; other chunks are
//! named in full. "run" marks what was also seen with the installed client
//! in a throwaway HOME (docs/runtimes/qwen-code.md lists the runs).

/// The extension manifest at the extension's root
/// (`EXTENSIONS_CONFIG_FILENAME`, B:129777, `extension/variables.ts`;
/// `loadExtensionManifest`, B:142646, `extension/extensionManager.ts`).
/// Without it, and without another format it converts (below), install
/// fails: `Configuration file not found at <dir>/qwen-extension.json`
/// (run).
pub const MANIFEST_PATH: &str = "qwen-extension.json";

/// The install record Qwen writes into an installed extension
/// (`INSTALL_METADATA_FILENAME`, B:129778): never part of a plugin.
pub const INSTALL_RECORD: &str = ".qwen-extension-install.json";
/// The setting values Qwen stores in an installed extension
/// (`EXTENSION_SETTINGS_FILENAME`, B:129779): possibly secrets.
pub const SETTINGS_VALUES: &str = ".env";

/// The context file a manifest without `contextFileName` loads, when it
/// exists (`getContextFileNames`, B:141476).
pub const CONTEXT_FILE: &str = "QWEN.md";

/// The component folders of a native extension (`loadExtension`,
/// B:142563-142580): skills and agents come only from these, and the
/// manifest keys `skills` and `agents` are honoured only while Qwen converts
/// a Claude Code or Qoder plugin (`buildQwenExtensionFromPlugin`, B:134352,
/// `extension/claude-converter.ts`). Commands are the exception: a session's
/// `FileCommandLoader` reads the folders a manifest `commands` (a path or a
/// list) names instead of `commands/` (`getExtensionCommandsPaths`,
/// `chunk-KYFJLESB.js:16265`, `cli/src/services/FileCommandLoader.ts`), while
/// `qwen extensions list` shows `commands/` only (B:141485).
pub const COMMANDS_DIR: &str = "commands";
pub const SKILLS_DIR: &str = "skills";
pub const AGENTS_DIR: &str = "agents";
/// The hooks file a manifest without an inline `hooks` object reads
/// (B:142584-142620); `hooks` may also be a path string. `{"hooks": {...}}`
/// or a bare event map.
pub const HOOKS_FILE: &str = "hooks/hooks.json";

/// Command files: `commands/**/*.{md,toml}` (`loadCommandsFromDir`,
/// B:141485); the name is the path below `commands/` with `/` read as `:`.
pub const COMMAND_EXTENSIONS: [&str; 2] = [".md", ".toml"];

/// The manifest keys the 0.24.4 loader reads for a native extension
/// (`loadExtensionManifestHeadResolved`/`loadExtension`, B:142494-142620;
/// `displayName`/`description` may be a locale map, B:137511,
/// `extension/i18n.ts`; `lspServers`, `chunk-CK5HUN74.js:8583`; `workflows`,
/// B:139702; `skillStates`, B:143854; `channels`, B:142535). Any other key
/// is ignored without a word (no schema check).
pub const MANIFEST_KEYS: [&str; 14] = [
    "name",
    "version",
    "displayName",
    "description",
    "contextFileName",
    "mcpServers",
    "settings",
    "hooks",
    "lspServers",
    "workflows",
    "skillStates",
    "channels",
    "commands",
    "$schema",
];

/// Manifest keys only Qwen Code reads: a Qwen extension read as a source
/// keeps them for the Qwen Code bundle alone.
pub const QWEN_ONLY_KEYS: [&str; 5] = ["settings", "lspServers", "workflows", "skillStates", "channels"];

/// Manifest keys the docs list but the 0.24.4 loader ignores for a native
/// extension (see [`COMMANDS_DIR`]).
pub const CONVERTER_ONLY_KEYS: [&str; 2] = ["skills", "agents"];
/// The manifest key naming the command folders a session reads (see [`COMMANDS_DIR`]).
pub const COMMANDS_KEY: &str = "commands";

/// The extension-name rule (`validateName`, B:143875): a name outside it is
/// refused at load with `Invalid extension name: "<n>". Only letters (a-z,
/// A-Z), numbers (0-9), underscores (_), dots (.), and dashes (-) are
/// allowed.` (run).
pub fn valid_extension_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A setting's `envVar` must match `^[A-Za-z_][A-Za-z0-9_]*$`, or the
/// whole manifest is refused (`validateExtensionSettingEnvVars`, B:137606,
/// `extension/extensionSettings.ts`).
pub fn valid_env_var(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The variable Qwen hydrates to the extension's folder in every string of
/// `qwen-extension.json` (`VARIABLE_SCHEMA`, B:129749,
/// `extension/variableSchema.ts`; `recursivelyHydrateStrings`, B:142669).
pub const PLUGIN_ROOT_VAR: &str = "extensionPath";
/// [`PLUGIN_ROOT_VAR`] as the manifest spells it.
pub const PLUGIN_ROOT: &str = "${extensionPath}";
/// Claude Code's spelling, which Qwen hydrates in the manifest too
/// (B:129749) and is the only variable it replaces in a hook `command`
/// (`substituteHookVariables`, B:129817, `extension/variables.ts`).
pub const CLAUDE_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";
/// The manifest's other hydrated names: the workspace and the path
/// separator (B:129749).
pub const WORKSPACE_PATH: &str = "${workspacePath}";
pub const SEPARATORS: [&str; 2] = ["${/}", "${pathSeparator}"];
/// After hydration, `$VAR` and `${VAR}` in a native manifest resolve from
/// the environment Qwen runs in, and an unknown name stays as written
/// (`resolveEnvVarsInObject` without the extension's settings, B:142501;
/// `resolveEnvVarsInString`, `chunk-7TK2HU3T.js:355`,
/// `utils/envVarResolver.ts`). run: a setting's value stored in `.env` was
/// not substituted into `mcpServers`.
pub const HOME_VAR: &str = "$HOME";

/// Where `qwen extensions install` copies an extension:
/// `~/.qwen/extensions/<name>` (`destinationPath`, B:143082; run).
/// Markdown (skills, agents, commands, the context file) of a native
/// extension is read with no variable substituted (`loadSkillsFromDir`,
/// B:122787; `parseSubagentContent`, B:127044; the `${CLAUDE_PLUGIN_ROOT}`
/// rewrite of `performVariableReplacement`, B:129840, runs at install only
/// for Claude Code and Qoder plugins, B:143143).
pub const INSTALLED_EXTENSIONS: &str = "~/.qwen/extensions";
/// Qwen gives a native extension no data folder (only an Agent Plugins
/// plugin gets one, `agentPluginDataRoot`, B:142548): plugforge's stand-in
/// below the user's Qwen folder, which survives reinstalls.
pub const DATA_HOME: &str = ".qwen/plugin-data";

/// `HookEventName` (`chunk-QA5TENCT.js:94-118`, `hooks/types.ts`): the hook
/// registry skips any other key at session start with `Invalid hook event
/// name: "<x>" from extensions config. Skipping.` (B:144095,
/// `hooks/hookRegistry.ts`), after the loader kept it (run: `BeforeTool`).
pub const HOOK_EVENTS: [&str; 22] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "Stop",
    "MessageDisplay",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "SessionDelete",
    "PermissionRequest",
    "PermissionDenied",
    "StopFailure",
    "TodoCreated",
    "TodoCompleted",
    "InstructionsLoaded",
];

/// Keys of a hooks map that are settings, not events (`HOOKS_CONFIG_FIELDS`,
/// `chunk-QA5TENCT.js:120`).
pub const HOOK_CONFIG_FIELDS: [&str; 3] = ["enabled", "disabled", "notifications"];

/// Handler `type`s a hooks file may use, each with the field it requires
/// (`validateHookConfig`, B:144160; `function` hooks take a callback, which
/// JSON cannot hold).
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 3] =
    [("command", &["command"]), ("http", &["url"]), ("prompt", &["prompt"])];

/// Hook timeouts are seconds, as Claude Code's; a value of this or more is
/// read as legacy milliseconds with a warning (`hook-timeout.ts`, B:144230-144245).
pub const HOOK_TIMEOUT_MILLISECONDS_FROM: u64 = 1000;

/// Agent tool lists resolve by a tool's name or display name only
/// (`resolveToolNames`, B:126857, `subagents/subagent-manager.ts`): an entry
/// matching neither is kept as given and matches no tool, so a Claude Code
/// name that is not also a Qwen display name (`Bash`, `Read`, `Write`,
/// `LS`) gives the agent nothing. (Claude names as aliases,
/// `TOOL_NAME_ALIASES`, `chunk-47C3HPMW.js:1823`, serve permission rules and
/// hook matchers, not agent tool lists.) (Claude Code tool, Qwen display
/// name): Qwen's own Claude converter's table (`CLAUDE_TOOLS_MAPPING`,
/// B:134030) completed from `ToolDisplayNames` (`chunk-RSWOFJBY.js:85`,
/// `tools/tool-names.ts`).
pub const CLAUDE_TO_QWEN_TOOLS: [(&str, &str); 20] = [
    ("Bash", "Shell"),
    ("Read", "ReadFile"),
    ("Write", "WriteFile"),
    ("Edit", "Edit"),
    ("MultiEdit", "Edit"),
    ("NotebookEdit", "NotebookEdit"),
    ("Grep", "Grep"),
    ("Glob", "Glob"),
    ("LS", "ListFiles"),
    ("WebFetch", "WebFetch"),
    ("WebSearch", "WebSearch"),
    ("TodoWrite", "TodoList"),
    ("Task", "Agent"),
    ("Agent", "Agent"),
    ("Skill", "Skill"),
    ("AskUserQuestion", "AskUserQuestion"),
    ("EnterPlanMode", "EnterPlanMode"),
    ("ExitPlanMode", "ExitPlanMode"),
    ("ReadMcpResourceTool", "ReadMcpResource"),
    ("Monitor", "Monitor"),
];

/// Claude Code tools with no Qwen counterpart: its converter drops the first
/// two (`"None"` in `CLAUDE_TOOLS_MAPPING`, B:134033, B:134038), and no Qwen
/// tool lists MCP resources (`ToolNames`, `chunk-RSWOFJBY.js:11`).
pub const CLAUDE_TOOLS_WITHOUT_QWEN: [&str; 3] = ["BashOutput", "KillShell", "ListMcpResourcesTool"];

/// Qwen's built-in tools, as (tool name, display name)
/// (`ToolNames`/`ToolDisplayNames`, `chunk-RSWOFJBY.js:11-147`): either
/// form in an agent's `tools` names the tool.
pub const QWEN_TOOLS: [(&str, &str); 21] = [
    ("run_shell_command", "Shell"),
    ("read_file", "ReadFile"),
    ("write_file", "WriteFile"),
    ("edit", "Edit"),
    ("notebook_edit", "NotebookEdit"),
    ("grep_search", "Grep"),
    ("glob", "Glob"),
    ("list_directory", "ListFiles"),
    ("web_fetch", "WebFetch"),
    ("web_search", "WebSearch"),
    ("todo_write", "TodoList"),
    ("agent", "Agent"),
    ("skill", "Skill"),
    ("ask_user_question", "AskUserQuestion"),
    ("enter_plan_mode", "EnterPlanMode"),
    ("exit_plan_mode", "ExitPlanMode"),
    ("read_mcp_resource", "ReadMcpResource"),
    ("monitor", "Monitor"),
    ("save_memory", "SaveMemory"),
    ("lsp", "Lsp"),
    ("exec", "Exec"),
];

/// MCP tools are named `mcp__<server>__<tool>` (B:58339), as in Claude Code.
pub const MCP_TOOL_PREFIX: &str = "mcp__";

/// The agent frontmatter keys `parseSubagentContent` reads (B:127044-127222).
pub const AGENT_KEYS: [&str; 15] = [
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "modelConfig",
    "runConfig",
    "color",
    "approvalMode",
    "permissionMode",
    "background",
    "maxTurns",
    "mcpServers",
    "hooks",
    "executor",
];
/// An agent's name: 2-50 characters of `^[\p{L}\p{N}_-]+$`, not starting
/// or ending with `-` or `_`, none of these (case-insensitive); anything
/// else refuses the agent (`validateName`, B:125434-125475,
/// `subagents/validation.ts`).
pub const RESERVED_AGENT_NAMES: [&str; 8] = ["self", "system", "user", "model", "tool", "config", "default", "main"];
/// An agent's body (its system prompt) needs at least this many characters,
/// trimmed, or the agent is refused (`validateSystemPrompt`, B:125494).
pub const AGENT_PROMPT_MIN: usize = 10;
/// `color` values Qwen keeps (`COLOR_VALUES`, B:125656; also `auto`).
pub const AGENT_COLORS: [&str; 9] = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan", "auto"];
/// `permissionMode` values Qwen bridges to its `approvalMode`
/// (`PERMISSION_MODE_VALUES`, B:125648): Claude Code's own.
pub const PERMISSION_MODES: [&str; 6] = ["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];
/// (`approvalMode`, the Claude `permissionMode` bridged to it)
/// (`PERMISSION_MODE_TO_APPROVAL_MODE`, B:125666).
pub const APPROVAL_TO_PERMISSION: [(&str, &str); 4] =
    [("default", "default"), ("plan", "plan"), ("auto-edit", "acceptEdits"), ("yolo", "bypassPermissions")];

/// The command frontmatter Qwen reads (`MarkdownCommandDefSchema`,
/// `chunk-KYFJLESB.js:15725`, `cli/src/services/markdown-command-parser.ts`),
/// each with whether it is text (else a boolean): a value of the wrong type
/// makes the loader skip the command.
pub const COMMAND_KEYS: [(&str, bool); 4] =
    [("description", true), ("argument-hint", true), ("when_to_use", true), ("disable-model-invocation", false)];
/// A command prompt's argument placeholder: everything typed after the
/// command; a prompt without it gets that text appended
/// (`createSlashCommandFromDefinition`, `chunk-KYFJLESB.js:16063`;
/// `ShellProcessor`, `chunk-KYFJLESB.js:15863`). `$ARGUMENTS` is replaced
/// only inside a `!{...}` shell block, so Claude's `$ARGUMENTS` stays text.
pub const ARGS: &str = "{{args}}";

/// Skill frontmatter Qwen reads (`parseSkillContent`, B:122844,
/// `skills/skill-load.ts`; field parsers in `chunk-DXXCNZW4.js:9176-9242`):
/// `name` and `description` are required (a skill without them is skipped
/// with an ERROR in the debug log, run); `model` must be text and
/// `allowedTools` a list, or the skill is skipped.
pub const SKILL_ALLOWED_TOOLS: &str = "allowedTools";
/// A skill's name (`SKILL_NAME_PATTERN`, `chunk-DXXCNZW4.js:9231`).
pub fn valid_skill_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

/// MCP server keys of the Gemini dialect Qwen reads (`MCPServerConfig`,
/// B:149751, `config/mcp-server-config.ts`) that a Claude Code server maps
/// to as they are. The transport is the key, not `type`: `httpUrl` is
/// streamable HTTP, `url` is SSE (`createTransport`, B:117585,
/// `tools/mcp-client.ts`). `trust` is stripped from an extension's servers
/// (`filterMcpConfig`, B:141471).
pub const MCP_KEYS: [&str; 10] =
    ["command", "args", "env", "cwd", "headers", "timeout", "description", "includeTools", "excludeTools", "tcp"];
pub const MCP_STREAMABLE_HTTP: &str = "httpUrl";
pub const MCP_SSE: &str = "url";

/// The formats Qwen converts when a folder has no [`MANIFEST_PATH`], in the
/// order it tries them (`extension-converter.ts`, B:135073-135126; run): a
/// root `plugin.json` whose `$schema` is the Agent Plugins 1.0 URL comes
/// first (another Agent Plugins version is an install error), then Gemini
/// CLI's manifest, then Claude Code's. Of an Agent Plugins plugin it loads
/// skills and `mcp.json` only (B:142559; `loadAgentPluginSkills`, B:141289;
/// `loadAgentPluginMcpServers`, B:114293).
pub const AGENT_PLUGINS_LOADS: &str = "skills and mcp.json";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_spelling_is_the_variable_in_braces() {
        assert_eq!(PLUGIN_ROOT, format!("${{{PLUGIN_ROOT_VAR}}}"));
    }

    #[test]
    fn names_follow_the_client_rules() {
        assert!(valid_extension_name("my_ext.v2-x"));
        assert!(!valid_extension_name("fr bad name"));
        assert!(valid_env_var("_API_KEY2") && !valid_env_var("2KEY") && !valid_env_var("A-B"));
        assert!(valid_skill_name("greet:deep.v1") && !valid_skill_name("two words"));
    }

    #[test]
    fn every_mapped_tool_is_a_qwen_display_name() {
        for (_, qwen) in CLAUDE_TO_QWEN_TOOLS {
            assert!(QWEN_TOOLS.iter().any(|(_, display)| *display == qwen), "{qwen}");
        }
    }
}
