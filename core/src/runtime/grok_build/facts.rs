//! What Grok Build reads, in one place: every file name, field, event and
//! variable its writer, reader and schema check use, each with where it was
//! verified. No Grok Build client is published on a registry; the authority
//! is its source, xai-org/grok-build at commit
//! 19d42e35c07a9c9244f03f6df0c4c353f970d4f9 (Apache-2.0). Paths below are
//! relative to `crates/codegen/` there; `G` is its user guide
//! `xai-grok-pager/docs/user-guide/09-plugins.md` at that commit.

/// The folder holding Grok Build's own manifest and marketplace files.
pub const MANIFEST_DIR: &str = ".grok-plugin";
/// The manifest plugforge writes. Grok tries a root `plugin.json`, then this,
/// then Claude Code's `.claude-plugin/plugin.json`, the first found winning
/// (`MANIFEST_PATHS`, `xai-grok-agent/src/plugins/manifest.rs:293-297`).
pub const MANIFEST_PATH: &str = ".grok-plugin/plugin.json";
/// The root manifest that would shadow [`MANIFEST_PATH`]
/// (`manifest.rs:293-297`): a bundle never carries one.
pub const ROOT_MANIFEST: &str = "plugin.json";
/// Claude Code's manifest, read when neither of the others exists
/// (`manifest.rs:293-297`).
pub const CLAUDE_MANIFEST_FALLBACK: &str = crate::canonical::CLAUDE_MANIFEST_PATH;
/// The manifests Grok tries, in order, the first found winning
/// (`MANIFEST_PATHS`, `manifest.rs:293-297`): a folder laid out for Claude
/// Code and the Agent Plugins spec (`universal`) is read with its root one.
pub const MANIFEST_PATHS: [&str; 3] = [ROOT_MANIFEST, MANIFEST_PATH, CLAUDE_MANIFEST_FALLBACK];
/// The marketplace file (`load_index`, `xai-grok-plugin-marketplace/src/index.rs:206-245`,
/// tried first; then `.grok-plugin/plugin.json` and Claude Code's).
pub const MARKETPLACE_PATH: &str = ".grok-plugin/marketplace.json";
/// The files a marketplace root is read from, the first found winning
/// (`load_index`, index.rs:206-245): Grok's, then Claude Code's.
pub const MARKETPLACE_PATHS: [&str; 4] = [
    MARKETPLACE_PATH,
    MANIFEST_PATH,
    crate::runtime::claude_code::facts::MARKETPLACE_PATH,
    CLAUDE_MANIFEST_FALLBACK,
];

/// The manifest fields `PluginManifest` reads (`manifest.rs:136-170`, serde
/// camelCase, unknown fields ignored; a known field of the wrong type makes
/// the manifest fail to parse and the plugin is skipped with "failed to load
/// plugin manifest; skipping", `plugins/discovery.rs:677-684`).
pub const MANIFEST_KEYS: [&str; 15] = [
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "skills",
    "commands",
    "agents",
    "hooks",
    "mcpServers",
    "lspServers",
    "$schema",
];
/// The manifest's string fields (`manifest.rs:140-153`).
pub const MANIFEST_STRINGS: [&str; 6] = ["name", "version", "description", "homepage", "repository", "license"];
/// The fields of `author`, each a string (`Author`, `manifest.rs:33-42`).
pub const AUTHOR_KEYS: [&str; 3] = ["name", "email", "url"];
/// Component path fields: a string or a list of strings (`PathOrPaths`,
/// `manifest.rs:44-50`), replacing the default folder (`resolve_dirs`,
/// `manifest.rs:271-288`).
pub const PATH_FIELDS: [&str; 3] = ["skills", "commands", "agents"];
/// A path string or an inline JSON value (`PathOrInline`, `manifest.rs:120-128`).
pub const PATH_OR_INLINE_FIELDS: [&str; 3] = ["hooks", "mcpServers", "lspServers"];
/// A plugin name: 1 to 64 bytes of `[a-z0-9-]`, no leading or trailing `-`
/// (`is_valid_plugin_name`, `manifest.rs:19-31`; tests `valid_plugin_names`,
/// `invalid_plugin_names`, `manifest.rs:399-418`).
pub const NAME_MAX: usize = 64;

/// The default component locations (`manifest.rs:187-246`); `commands/` and
/// `agents/` are read flat (`scan_md_files`,
/// `xai-grok-tools/src/implementations/skills/discovery.rs:85-102`;
/// `discovery.rs:388-400` reads one level of `agents/`), `skills/` recursively
/// for `SKILL.md` (`find_skill_md_paths`, `discovery.rs:112-145`).
pub const SKILLS_DIR: &str = "skills";
pub const COMMANDS_DIR: &str = "commands";
pub const AGENTS_DIR: &str = "agents";
pub const HOOKS_FILE: &str = "hooks/hooks.json";
pub const MCP_FILE: &str = ".mcp.json";
pub const LSP_FILE: &str = ".lsp.json";

/// Frontmatter a plugin agent may not use: Grok ignores it for plugins (G,
/// "Trust and security"; `permissionMode` values, `config.rs:985-1006`).
pub const AGENT_KEYS_REFUSED_FOR_PLUGINS: [&str; 2] = ["mcpServers", "hooks"];
/// A plugin agent is parsed as `AgentDefinition` (serde camelCase,
/// `xai-grok-agent/src/config.rs:732-760`): its frontmatter needs string
/// `name` and `description`, and a `permissionMode` outside these values
/// fails the parse; either way Grok skips the agent ("Failed to parse plugin
/// agent definition, skipping", `discovery.rs:524-547`). `model` is any
/// string, passed on as a model id (`ModelOverride`, config.rs:565-599).
pub const AGENT_REQUIRED_KEYS: [&str; 2] = ["name", "description"];
pub const AGENT_PERMISSION_MODES: [&str; 6] = ["default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", "plan"];

/// The hook events Grok runs, under their PascalCase names (`event.rs:89-196`
/// of `xai-grok-hooks`); a plugin's hooks file has unsupported events
/// filtered out with the warning `plugin <n>: skipped unsupported event '<e>'`
/// (`plugins/hooks_adapter.rs:73-100`).
pub const HOOK_EVENTS: [&str; 16] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionDenied",
    "Stop",
    "StopFailure",
    "StopCancelled",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "SubagentEnd",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
];
/// Hook handler types, each with the string field it requires
/// (`HandlerType`, `xai-grok-hooks/src/config.rs:141-170`); another type fails the whole
/// hooks file (`HooksMap::from_value`, `GroupErrorPolicy::Fail`, config.rs:68-77).
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 2] = [("command", &["command"]), ("http", &["url"])];
/// A handler's timeout, in whole seconds (`u64`), when it names none
/// (`DEFAULT_TIMEOUT_SECS`, `config.rs:122-139`).
pub const HOOK_DEFAULT_TIMEOUT_SECONDS: u64 = 5;
/// The stop gates, whose default timeout is 600 s (`DEFAULT_STOP_GATE_TIMEOUT_SECS`,
/// `config.rs:126-139`; `event.rs:89-196`).
pub const HOOK_STOP_GATES: [&str; 3] = ["Stop", "SubagentStop", "SubagentEnd"];
/// Events whose matcher Grok ignores with a warning (`config.rs:478-495`).
pub const HOOK_EVENTS_WITHOUT_MATCHER: [&str; 2] = ["UserPromptSubmit", "Stop"];

/// The plugin-folder variables Grok expands (braced only) in skill, command
/// and agent bodies, hook commands and MCP servers, and sets for hooks
/// (`xai-grok-tools/src/util/env.rs:51-68`; `plugins/hooks_adapter.rs:103-130`;
/// `xai-grok-shell/src/session/managed_mcp.rs:449-486`).
pub const PLUGIN_ROOT_VAR: &str = "GROK_PLUGIN_ROOT";
pub const PLUGIN_DATA_VAR: &str = "GROK_PLUGIN_DATA";
/// [`PLUGIN_ROOT_VAR`] and [`PLUGIN_DATA_VAR`] as written in a file.
pub const PLUGIN_ROOT: &str = "${GROK_PLUGIN_ROOT}";
pub const PLUGIN_DATA: &str = "${GROK_PLUGIN_DATA}";
/// Claude Code's spellings, which Grok expands the same way (same sources).
pub const CLAUDE_ROOT_VAR: &str = crate::canonical::CLAUDE_PLUGIN_ROOT_VAR;
pub const CLAUDE_DATA_VAR: &str = crate::canonical::CLAUDE_PLUGIN_DATA_VAR;


/// A marketplace (`MarketplaceIndex`, `xai-grok-plugin-marketplace/src/index.rs:16-30`)
/// needs a string `name`; `owner` (`IndexOwner`, index.rs:32-38) and an
/// entry's `author` (`IndexAuthor`, index.rs:75-79) need a string `name`.
/// An entry (`IndexEntry`, index.rs:40-73) needs a `name`; these of its
/// fields are strings, and these lists of strings.
pub const MARKETPLACE_ENTRY_STRINGS: [&str; 4] = ["version", "description", "category", "homepage"];
pub const MARKETPLACE_ENTRY_LISTS: [&str; 3] = ["tags", "keywords", "domains"];
/// An entry's `source`: a `./` path (local), or an object whose `type` or
/// `source` says `local` (with `path`) or `url` (with `url`, optional `ref`,
/// `sha`, `path`) (`IndexSource`, index.rs:81-170; a local source without a
/// path is "missing source path", index.rs:176-190). The official catalog
/// (xai-org/plugin-marketplace@8112148424d835ea872c0d6ae25ef773dd62cc77,
/// `scripts/validate-catalog.py`) wants a 40-hex lowercase `sha` on every
/// url source.
pub const URL_SOURCE_SHA_LEN: usize = 40;
