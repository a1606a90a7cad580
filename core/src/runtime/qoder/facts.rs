//! What Qoder CLI (npm `@qoder-ai/qodercli` 1.1.52) reads, in one place: every file name, field,
//! event and variable its writer, reader and rules use. Each fact names its source in brackets:
//! [Q] the client's `bundle/qodercli.js`, its string literals decoded (each `_$d("<base64>")` is
//! base64 XORed with the key its first line declares, `OtD6Yb876vjw`) and its zod schemas and
//! functions named as minified in 1.1.52; [doc] docs.qoder.com `/cli/plugins` and
//! `/cli/plugins-reference`; [run] the client itself, offline in a throwaway HOME (evidence.md).

/// The folder it reads the manifest from first [Q `Pqt`, doc: "must not be
/// placed in the plugin root directory"; run: a root `plugin.json` is
/// ignored, the plugin is then named after its folder with version `local`].
pub const MANIFEST_DIR: &str = ".qoder-plugin";
/// The plugin manifest: [`MANIFEST_DIR`] joined with `plugin.json`. Without
/// it, Qoder reads Claude Code's manifest as its own, then no manifest at all
/// (the plugin named after its folder) [Q `Pqt = [".qoder-plugin",
/// ".claude-plugin"]`; run: a Claude Code bundle validates with
/// `manifestPath: ".claude-plugin/plugin.json"`; no manifest: `manifestPath: null`].
pub const MANIFEST_PATH: &str = ".qoder-plugin/plugin.json";
/// The marketplace file it reads first at a marketplace root, before
/// `.claude-plugin/marketplace.json` and `./marketplace.json` [run:
/// `plugins marketplace add` of an output root holding both reads this one].
pub const MARKETPLACE_PATH: &str = ".qoder-plugin/marketplace.json";

/// MCP files it reads by location: the first that exists, the manifest's
/// `mcpServers` merged over it [Q `Zja`, `oVa`].
pub const MCP_FILES: [&str; 2] = [".mcp.json", "mcp.json"];
/// The hooks file it reads by location, merged with the manifest's `hooks`
/// [Q `kqt`, `iVa`].
pub const HOOKS_FILE: &str = "hooks/hooks.json";
/// Folders it reads by location unless the manifest names others: a manifest
/// field replaces its folder [Q loader: `n.commands ? false : exists(commands/)`,
/// and the same for agents, skills, outputStyles and workflows; `kqt`]. It
/// also reads `output-styles/` and `workflows/`, and puts `bin/` on PATH
/// [Q loader: `binPath: <root>/bin`; doc: "bin/ executables (added to PATH)"].
pub const COMMANDS_DIR: &str = "commands";
/// Agents, found in subfolders too and named `<plugin>:<folder>:<name>`
/// [run: agents/sub/inner.md listed as `exp-one:sub:inner`].
pub const AGENTS_DIR: &str = "agents";
/// Skills, found at any depth (`skill.md` in any case) and not namespaced
/// [Q `Shn`: `"skill.md" === A.name.toLowerCase()`, recursive; run:
/// skills/group/s2/SKILL.md listed as `s2`].
pub const SKILLS_DIR: &str = "skills";

/// Its own spellings of the plugin folder and data folder; Claude Code's
/// (`${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`) mean the same: hook
/// commands, MCP server fields, skills, commands and agent prompts have both
/// replaced, and hook processes and MCP servers get both in their
/// environment [Q `replacePlaceholders`: `/\$\{(?:QODER|CLAUDE)_(?:PLUGIN_(?:ROOT|DATA)|PROJECT_DIR)\}/g`;
/// `QJ` (`cBc`, `lBc`) on MCP servers (`Utl`), skills, commands
/// (`resolveContent`) and agents (`applyPluginAgentContentSubstitution`); `Rot`].
pub const PLUGIN_ROOT_VAR: &str = "QODER_PLUGIN_ROOT";
/// The data folder's name, set when the plugin has an id (installed) [Q `Rot`, `lBc`].
pub const PLUGIN_DATA_VAR: &str = "QODER_PLUGIN_DATA";
/// [`PLUGIN_ROOT_VAR`] as files spell it.
pub const PLUGIN_ROOT: &str = "${QODER_PLUGIN_ROOT}";
/// [`PLUGIN_DATA_VAR`] as files spell it.
pub const PLUGIN_DATA: &str = "${QODER_PLUGIN_DATA}";

/// The hook events it runs [Q enum `Pd`, 27 members; a hooks file's events
/// are a `record(string, ...)` (`ure`), so another name is loaded and never
/// fires, and `plugins validate` does not report it (run: `BeforeTool`)].
pub const HOOK_EVENTS: [&str; 27] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "SubagentStart",
    "Notification",
    "SubagentStop",
    "SessionStart",
    "Setup",
    "SessionEnd",
    "PreCompact",
    "PostCompact",
    "Stop",
    "UserPromptSubmit",
    "ConfigChange",
    "StopFailure",
    "TeammateIdle",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "TaskCreated",
    "TaskCompleted",
    "PermissionRequest",
    "PermissionDenied",
];

/// Hook handler `type`s a plugin may give, each with the string fields it
/// requires [Q enum `c_` (whose `runtime` is its own internal type) and the
/// handler schemas of `SAl.hooks`: command (`command`), http (`url`),
/// prompt and agent (`prompt`)]. Claude Code's `mcp_tool` is not one of them.
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 4] =
    [("command", &["command"]), ("http", &["url"]), ("prompt", &["prompt"]), ("agent", &["prompt"])];

/// The manifest's fields [Q `gre` = `bja` + `Pja` + `yja` + `Rja` + `Tja` +
/// `Mja` + `vja` + `Fja` + `_ja` + `Nja` + `Vqr`].
pub const MANIFEST_KEYS: [&str; 22] = [
    "name",
    "version",
    "displayName",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "dependencies",
    "hooks",
    "commands",
    "agents",
    "skills",
    "outputStyles",
    "workflowsPath",
    "workflowsPaths",
    "mcpServers",
    "userConfig",
    "settings",
    "lspServers",
    "channels",
];

/// Fields it accepts and ignores, each a `plugins validate` warning
/// (`plugin.manifest.unimplemented_field`) [Q `Vqr`, `WUA`].
pub const UNIMPLEMENTED_KEYS: [&str; 2] = ["lspServers", "channels"];
/// Fields that belong in a marketplace entry, each a warning
/// (`plugin.manifest.marketplace_field`) [Q `atl`].
pub const MARKETPLACE_ONLY_KEYS: [&str; 5] = ["category", "source", "tags", "strict", "id"];
/// The only `settings` key it keeps from a plugin [Q `Xja = new Set(["agent"])`;
/// doc: only `agent`].
pub const SETTINGS_KEYS: [&str; 1] = ["agent"];
/// Manifest paths start with `./` [Q `F7`: "Path must start with ./"];
/// hook and MCP files end with `.json` (`GUA`), agent files with `.md` (`Wqr`).
pub const PATH_PREFIX: &str = "./";

/// Agent frontmatter keys it reads; it drops any other (`.strip()`), refuses
/// an agent without a `description` or without frontmatter, and lists the
/// agent under `<plugin>:<folders:>name` [Q `SAl`; run:
/// `plugin.agent.invalid` "description: Required", agents/sub/inner.md
/// listed as `exp-one:sub:inner`].
pub const AGENT_KEYS: [&str; 18] = [
    "name",
    "description",
    "tools",
    "disallowedTools",
    "mcpServers",
    "model",
    "temperature",
    "maxTurns",
    "timeoutMins",
    "skills",
    "effort",
    "color",
    "initialPrompt",
    "permissionMode",
    "hooks",
    "memory",
    "background",
    "isolation",
];
/// The colors an agent may take [Q `E_`].
pub const AGENT_COLORS: [&str; 8] = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"];
/// The efforts an agent may take besides a positive integer [Q `n5i`].
pub const AGENT_EFFORTS: [&str; 5] = ["low", "medium", "high", "xhigh", "max"];
/// An agent's `memory` [Q `SAl`].
pub const AGENT_MEMORY: [&str; 3] = ["user", "project", "local"];

/// MCP server fields whose type it checks; a server failing them is dropped
/// with `plugin.mcp.invalid` [Q `YUA` (passthrough): `command`, `url`, `type`
/// strings, `args` a list of strings, `env` strings; run: `args: 5` dropped].
pub const MCP_STRING_FIELDS: [&str; 3] = ["command", "url", "type"];

/// Marketplace names it keeps for itself [Q `hja`, the refinements of `Cpe`
/// (`inline`, `builtin`, `local`, `flag`) and `oTe` (prefixes of
/// enterprise-managed plugins)].
pub const RESERVED_MARKETPLACE_NAMES: [&str; 7] =
    ["qoder-marketplace", "qoder-plugins", "qoder-plugins-official", "inline", "builtin", "local", "flag"];
/// Marketplace name prefixes kept for enterprise-managed plugins [Q `oTe`].
pub const RESERVED_MARKETPLACE_PREFIXES: [&str; 2] = ["qoder-enterprise-", "qoderwork-enterprise-"];
/// Marketplace top-level fields; `name` and `owner` (`{name, email?, url?}`)
/// are required [Q `Zqr`].
pub const MARKETPLACE_KEYS: [&str; 6] =
    ["name", "owner", "plugins", "forceRemoveDeletedPlugins", "metadata", "allowCrossMarketplaceDependenciesOn"];
/// What an entry holds besides a manifest's fields [Q `Qqt`].
pub const MARKETPLACE_ENTRY_ONLY_KEYS: [&str; 4] = ["source", "category", "tags", "strict"];
/// Remote marketplace entry sources it installs [Q `Hja`].
pub const MARKETPLACE_REMOTE_SOURCES: [&str; 5] = ["npm", "pip", "url", "github", "git-subdir"];

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

    /// Every event it runs is one of the canonical (Claude Code) events, so
    /// a hook written for it keeps its meaning.
    #[test]
    fn its_events_are_claude_code_events() {
        for event in HOOK_EVENTS {
            assert!(crate::canonical::HOOK_EVENTS.contains(&event), "{event}");
        }
    }
}
