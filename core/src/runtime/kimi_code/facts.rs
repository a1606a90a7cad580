//! What Kimi Code reads, in one place: every file name, field, event and
//! variable its writer, reader and schema check use, each with where it was
//! verified. The authority is its source, MoonshotAI/kimi-code at commit
//! d723cc47ee43e5ca3c3c4ec2473f205d44acede2 (MIT): `S` is
//! `packages/agent-core-v2/src/` there, and `doc` its
//! `docs/en/customization/plugins.md` (and `hooks.md`, `agents.md`) at that
//! commit. The npm client `@moonshot-ai/kimi-code` 2.1.0 ships the same code.

/// The manifest plugforge writes; it wins over [`MANIFEST_DIR_PATH`], which
/// is then reported shadowed (`KIMI_PLUGIN_ROOT_PATH`, S
/// `app/plugin/manifest.ts:16-17, 38-57`). Without either, install is refused:
/// "No manifest at kimi.plugin.json or .kimi-plugin/plugin.json".
pub const MANIFEST_PATH: &str = "kimi.plugin.json";
/// The other manifest place (`KIMI_PLUGIN_DIR_PATH`, manifest.ts:17).
pub const MANIFEST_DIR_PATH: &str = ".kimi-plugin/plugin.json";
/// The folder of [`MANIFEST_DIR_PATH`].
pub const MANIFEST_DIR: &str = ".kimi-plugin";

/// A plugin name (`PLUGIN_NAME_REGEX`, S `app/plugin/types.ts:196`):
/// `^[a-z0-9][a-z0-9_-]{0,63}$`; another is an error and install is refused.
pub const NAME_MAX: usize = 64;

/// String metadata (`stringField`, manifest.ts:126-131; trimmed, empty = absent).
pub const MANIFEST_STRINGS: [&str; 4] = ["version", "description", "homepage", "license"];
/// `author`: a string or `{name?, email?}` (`readAuthor`, manifest.ts).
pub const AUTHOR_KEYS: [&str; 2] = ["name", "email"];

/// `skills` and `agents`: a `./` path or a list of them, each a directory
/// inside the plugin (`resolveDirListField`, manifest.ts:161-212: not `./`
/// or outside the root is an error, not a directory a warning). Without
/// `skills` only a root `SKILL.md` is read; without `agents`, `agents/`
/// (manifest.ts:100-116): plugforge names all three.
pub const SKILLS_FIELD: &str = "./skills/";
pub const AGENTS_FIELD: &str = "./agents/";
/// `commands`: a `./` directory, read recursively for `.md` files, or a
/// `.md` file; without it, no commands at all (`readCommands`,
/// manifest.ts:395-430). A command is `/<plugin>:<path below the folder
/// without .md>` (`commandNameFromFile`, manifest.ts:455-458).
pub const COMMANDS_FIELD: &str = "./commands/";

/// The context file's place: `systemPromptPath`, a `./` file of at most
/// 32 KB of UTF-8 (`PLUGIN_SYSTEM_PROMPT_MAX_BYTES`, manifest.ts:19,
/// 265-332; larger is a warning and the file is ignored). All plugins'
/// sections share 64 KB (`PLUGIN_SECTIONS_MAX_BYTES`, npm client 2.1.0
/// `dist/main.mjs:274209`).
pub const SYSTEM_PROMPT_MAX_BYTES: usize = 32 * 1024;

/// Manifest fields only Kimi Code reads (manifest.ts:118-145; `interface`
/// holds display data, `displayName`, `shortDescription`, `longDescription`,
/// `developerName`, `websiteURL`, `readInterface`, manifest.ts:520-531):
/// kept for its bundle when a Kimi plugin is read as a source.
pub const KIMI_ONLY_KEYS: [&str; 4] = ["interface", "sessionStart", "skillInstructions", "systemPrompt"];
/// Fields Kimi reports as present but unsupported (`UNSUPPORTED_RUNTIME_FIELDS`,
/// manifest.ts:21-28).
pub const UNSUPPORTED_KEYS: [&str; 6] = ["tools", "apps", "inject", "configFile", "config_file", "bootstrap"];

/// The hook events Kimi runs (`HOOK_EVENT_TYPES`, S
/// `features/externalHooks/internal/types.ts:3-24`).
pub const HOOK_EVENTS: [&str; 20] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionResult",
    "UserPromptSubmit",
    "UserPromptQueued",
    "TurnStarted",
    "Stop",
    "StopFailure",
    "Interrupt",
    "SessionStart",
    "SessionEnd",
    "SessionHeartbeat",
    "SubagentStart",
    "SubagentStop",
    "TaskStarted",
    "PreCompact",
    "PostCompact",
    "Notification",
];
/// A hook is `{event, matcher?, command, timeout?}` and nothing else
/// (`HookDefSchema`, `.strict()`, S `features/externalHooks/configSection.ts:10-17`);
/// an invalid entry is dropped with a warning, the others load.
pub const HOOK_KEYS: [&str; 4] = ["event", "matcher", "command", "timeout"];
/// `timeout`: whole seconds, 1 to 600 (configSection.ts:15).
pub const HOOK_TIMEOUT_MAX: u64 = 600;
/// A hook command runs with the plugin root as its working directory and
/// this variable set to it (S `app/plugin/manager.ts:272-287`); no `${...}`
/// is substituted anywhere in a manifest.
pub const PLUGIN_ROOT_VAR: &str = "KIMI_PLUGIN_ROOT";
/// [`PLUGIN_ROOT_VAR`] as a shell reads it in a hook command.
pub const PLUGIN_ROOT: &str = "${KIMI_PLUGIN_ROOT}";

/// MCP servers, inline in the manifest (`readMcpServers`, manifest.ts:360-393;
/// `McpServerConfigSchema`, S `mcpCore/config-schema.ts:8-68`): `transport`
/// is `stdio`, `http` or `sse`, inferred from `command` or `url` when absent.
pub const MCP_TRANSPORTS: [&str; 3] = ["stdio", "http", "sse"];
/// A stdio server's `command` is a PATH command or `./` inside the plugin,
/// and its `cwd` a `./` path (`normalizePluginMcpServer`, manifest.ts:469-509);
/// args are not rewritten, so a bundled script runs with `cwd: "./"`.
pub const MCP_CWD: &str = "./";
