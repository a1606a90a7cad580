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

/// The manifests Copilot reads besides [`MANIFEST_PATH`], in its order: a
/// root `plugin.json` (an Agent Plugins one, with a `$schema` of
/// [`SPEC_SCHEMA_PREFIX`], before [`MANIFEST_PATH`]; one without, after it),
/// then this one; each over Claude Code's [1, 31]. Docs: "Plugin manifest:
/// `.plugin/plugin.json`, `plugin.json`, `.github/plugin/plugin.json`, or
/// `.claude-plugin/plugin.json` (checked in this order)" (github/docs
/// content/copilot/reference/copilot-cli-reference/cli-plugin-reference.md,
/// "File locations"); run: probe p1 (`.github/plugin/plugin.json` alone:
/// `plugin list --json` shows its version 2.3.4, its skill, agents and inline
/// MCP server load).
pub const GITHUB_MANIFEST_PATH: &str = ".github/plugin/plugin.json";
/// A root manifest.
pub const ROOT_MANIFEST_PATH: &str = "plugin.json";
/// What an Agent Plugins manifest's `$schema` starts with (1.0.0 and 1.1.0 known) [1].
pub const SPEC_SCHEMA_PREFIX: &str = "https://agent-plugins.org/schemas/";
/// The folder holding an Agent Plugins plugin's agents, commands, hooks and
/// LSP servers for Copilot; those at the plugin root are ignored [8]. Run:
/// probe p3 (`com.github.copilot/agents/z.agent.md` and
/// `com.github.copilot/commands/go.md` load, a root `agents/root.agent.md` does not).
pub const SPEC_FOLDER: &str = "com.github.copilot";
/// The same folder's name as an `extensions` key of an Agent Plugins manifest.
pub const EXTENSION_KEY: &str = "com.github.copilot";
/// An Agent Plugins plugin's MCP file; Copilot reads it only with a `$schema` [8].
pub const SPEC_MCP_FILE: &str = "mcp.json";
/// MCP files read by location, the first that exists; a manifest
/// `mcpServers` object is ignored when one exists [7, 34]. Docs: "MCP
/// configuration: `.mcp.json`, `.github/mcp.json`" (cli-plugin-reference.md,
/// "File locations"); run: probe p2 (`.mcp.json`, `.github/mcp.json` and an
/// inline `mcpServers`: only the `.mcp.json` server loads), probe p4
/// (`.github/mcp.json` alone: its server loads).
pub const MCP_FILES: [&str; 2] = [".mcp.json", ".github/mcp.json"];
/// Hook files read by location, the first that exists [4].
pub const HOOK_FILES: [&str; 2] = ["hooks/hooks.json", "hooks.json"];
/// LSP files read by location [26]; docs add `.github/lsp.json`.
pub const LSP_FILES: [&str; 3] = ["lsp.json", ".lsp.json", ".github/lsp.json"];
/// An agent file's ending besides `.md`; the agent's id is the name before it [18, 33].
pub const AGENT_SUFFIX: &str = ".agent.md";
/// Manifest fields only Copilot reads of the ones plugforge does not
/// carry: `lspServers` (inline LSP servers [26]), `category` and `tags`
/// (cli-plugin-reference.md, "Optional metadata fields").
pub const ONLY_FIELDS: [&str; 3] = ["lspServers", "category", "tags"];
/// Copilot's own spelling of the plugin folder, set for hooks and MCP
/// servers beside the canonical one [23, 25].
pub const PLUGIN_ROOT_VAR: &str = "${COPILOT_PLUGIN_ROOT}";
/// The manifest keys that list components; under another tool's
/// `extensions` key no client reads them [35]. Run: probe p3 and p5
/// (`extensions."com.github.awesome-copilot".skills` naming a skill: nothing
/// loads, and `plugin install` prints no skill count).
pub const COMPONENT_KEYS: [&str; 7] = ["skills", "agents", "commands", "hooks", "mcpServers", "lspServers", "extensions"];

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
