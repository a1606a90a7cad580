//! What Factory Droid reads, in one place: every file name, field, event and
//! variable its writer, reader and rules use, each with where it was
//! verified. The authority is the npm package `droid@0.215.0`, which pins
//! `@factory/cli-linux-x64@0.215.0`: a Bun single-file executable with its
//! JavaScript embedded as text. `D:<name>` is a function or constant of that
//! text (minified names change per release; the quoted strings beside them
//! do not); `@factory/cli-linux-x64@0.225.2`, the newest Linux binary, loads
//! plugins with the same code. "doc" is docs.factory.ai (`/harness/plugins`,
//! `/guides/building/building-plugins`, `/reference/hooks-reference`); "run"
//! marks what was also seen with the installed client in a throwaway HOME
//! (evidence.md lists the runs). No source repository of the client is public.

/// The folder that marks a Droid plugin and holds its manifest and, at a
/// marketplace root, the marketplace (D:`z9n=".factory-plugin"`). A plugin
/// with this folder is copied as it is at install (D:`EPn` returns
/// `"factory"`, D:`Lct`); only without it are Claude Code folders renamed.
pub const MANIFEST_DIR: &str = ".factory-plugin";
/// The manifest (doc building-plugins). `name` (lowercase, digits,
/// hyphens), `description`, `version`, `author{name,email}`, `homepage`,
/// `repository`, `license`. Nothing checks it at install: broken JSON and a
/// manifest without `name` install with exit 0 (run).
pub const MANIFEST_PATH: &str = ".factory-plugin/plugin.json";
/// The manifest fields the documentation lists (doc building-plugins).
pub const MANIFEST_KEYS: [&str; 8] =
    ["name", "description", "version", "author", "homepage", "repository", "license", "keywords"];
/// The marketplace file at a marketplace root, in Claude Code's shape
/// (`name`, `owner`, `plugins[{name, source, ...}]`; D:`B6t="marketplace.json"`
/// below D:`z9n`, or below D:`k9n=".claude-plugin"`).
pub const MARKETPLACE_PATH: &str = ".factory-plugin/marketplace.json";

/// Skills: `skills/<name>/SKILL.md` (D:`Hrn="skills"`, D:`loadSkillsWithWarnings`).
pub const SKILLS_DIR: &str = "skills";
/// Commands: every file below `commands/`, at any depth and of any
/// extension (D:`$rn="commands"`, D:`J3H`); the name is the file's base
/// name without its extension (D:`Mrn`), so a command is not namespaced by
/// its plugin or its folder.
pub const COMMANDS_DIR: &str = "commands";
/// Sub-agents ("droids"): the `.md` files directly in `droids/`
/// (D:`a9n="droids"`, D:`loadDroidsWithWarnings` reads the folder and keeps
/// names ending in `.md`).
pub const DROIDS_DIR: &str = "droids";
/// Claude Code's agent folder, which `droid plugin install` renames to
/// [`DROIDS_DIR`] in a plugin without [`MANIFEST_DIR`] (D:`Act`; run: the
/// universal folder's `agents/watcher.md` installed as `droids/watcher.md`).
pub const CLAUDE_AGENTS_DIR: &str = "agents";
/// Output styles: `output-styles/*.md` (D:`Lrn="output-styles"`).
pub const OUTPUT_STYLES_DIR: &str = "output-styles";
/// Hooks: `hooks/hooks.json`, else a root `hooks.json` (D:`Arn="hooks"`,
/// D:`w6t="hooks.json"`, D:`loadHooksWithWarnings`).
pub const HOOKS_FILE: &str = "hooks/hooks.json";
/// The other hooks file it reads when `hooks/hooks.json` is absent.
pub const ROOT_HOOKS_FILE: &str = "hooks.json";
/// MCP servers: `mcp.json` at the plugin root, `{"mcpServers": {...}}`
/// (D:`o6t="mcp.json"`, schema D:`egH`); one invalid server drops the whole
/// file with the warning "Invalid MCP configuration." (D:`loadMcpWithWarnings`).
pub const MCP_FILE: &str = "mcp.json";

/// The command description Droid lists: the file's first line when it
/// starts with `#` (the `#` and the spaces after it taken off), else
/// `Custom command: <name>`; frontmatter is not read for the listing
/// (D:`Mrn`; run: a command with a `description:` in its frontmatter is
/// listed as `Custom command: hello`). Running it, Droid takes the body after
/// any frontmatter and replaces `$ARGUMENTS` (D:`pkL`).
pub const COMMAND_HEADING: &str = "#";
/// The listing's description of a command without a heading line (D:`Mrn`).
pub const COMMAND_FALLBACK_DESCRIPTION: &str = "Custom command: ";
/// The one placeholder a command body gets replaced when it runs (D:`pkL`).
pub const COMMAND_ARGUMENTS: &str = "$ARGUMENTS";

/// Skill frontmatter (zod schema D:`cW$`): `name` and `description` are
/// required strings; a skill whose frontmatter fails the schema loads
/// disabled (`enabled: false`, D:`zqA`). `allowed-tools` or `tools` is a
/// string or a list; `metadata` an object; `enabled`, `user-invocable`,
/// `disable-model-invocation` booleans. Other keys are ignored.
pub const SKILL_REQUIRED_KEYS: [&str; 2] = ["name", "description"];

/// Droid frontmatter (zod schema D:`WgA`, read by D:`fy$`): every field
/// optional; `name` defaults to the file's base name; `tools` a string or a
/// list; `mcpServers` a list (or a comma-separated string). A frontmatter
/// that fails the schema is read as empty. The body is the system prompt.
pub const DROID_KEYS: [&str; 6] = ["name", "description", "model", "reasoningEffort", "tools", "mcpServers"];

/// Claude Code tool names Droid translates in a skill's `allowed-tools`
/// (D:`L1n`: `Bash→Execute, WebFetch→FetchUrl, Write→Create`; `Edit, Glob,
/// Grep, NotebookEdit, NotebookRead, Read, SlashCommand, Task, TodoWrite,
/// WebSearch` map to themselves). A plugin droid's `tools` are taken as
/// written (D:`fy$`), so the writer spells them Droid's way, and so are hook
/// matchers, which name Droid's tools (doc hooks-reference: `Edit|Create`).
pub const TOOL_NAMES: [(&str, &str); 3] = [("Bash", "Execute"), ("WebFetch", "FetchUrl"), ("Write", "Create")];

/// Claude Code model aliases: Droid's own model ids are full names, and a
/// plugin droid's `model` is taken as written (D:`fy$`).
pub const CLAUDE_MODEL_ALIASES: [&str; 3] = ["sonnet", "opus", "haiku"];
/// The model value that runs a droid on the session's model (D:
/// `validateMetadata`: `H.model??"inherit"`).
pub const INHERIT_MODEL: &str = "inherit";

/// The only hook events the plugin loader keeps (D:`U6t`, iterated by
/// D:`Brn` and D:`urn`; the same list in D:`lrn`): any other event of a
/// plugin's hooks is dropped without a word (run: `PostToolUseFailure`,
/// `BeforeTool`).
pub const HOOK_EVENTS: [&str; 9] = [
    "PreToolUse",
    "PostToolUse",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
];
/// Handler types a hook may have, with the string fields each needs
/// (doc hooks-reference: only `"command"`; D:`urn` writes `type: "command"`).
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 1] = [("command", &["command"])];
/// Keys of a hooks file besides the events that the loader keeps (D:`urn`).
pub const HOOK_CONFIG_FIELDS: [&str; 2] = ["hooksDisabled", "showHookOutput"];

/// The plugin-folder variables Droid replaces with the installed folder in
/// a hook's `command` and in skill and droid bodies (D:`Drn=/\$(?:\{(?:CLAUDE|DROID)_PLUGIN_ROOT\}|(?:CLAUDE|DROID)_PLUGIN_ROOT\b)/g`,
/// applied by D:`KpL`). Not in `mcp.json` (D:`loadMcpWithWarnings` returns
/// it as parsed; run: `${CLAUDE_PLUGIN_ROOT}/mcp/server.js`,
/// `${DROID_PLUGIN_ROOT}/...` and `./mcp/server.js` all fail to connect, the
/// same server by absolute path connects) and not in command files (D:`pkL`).
pub const CLAUDE_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";
/// Droid's own spelling of the plugin folder (D:`Drn`).
pub const DROID_ROOT_VAR: &str = "DROID_PLUGIN_ROOT";
/// The plugin folder as the writer spells it where Droid replaces it.
pub const PLUGIN_ROOT: &str = "${CLAUDE_PLUGIN_ROOT}";
/// [`DROID_ROOT_VAR`] as a hook command or body may spell it.
pub const DROID_PLUGIN_ROOT: &str = "${DROID_PLUGIN_ROOT}";

/// MCP transports a server may have (D:`m4t`, a discriminated union on
/// `type`): `stdio` (the default; `command` string, `args` strings, `env`
/// strings), `http` and `sse` (`url`, `headers`). Other keys kept:
/// `disabled`, `enabledTools`, `disabledTools`, `timeout`, `connectTimeout`
/// (D:`b4t`). A `url` server without `type` fails the schema.
pub const MCP_TRANSPORTS: [&str; 3] = ["stdio", "http", "sse"];

/// Where an installed plugin lives (run):
/// `~/.factory/plugins/cache/<marketplace>-<hash>/<plugin>-<hash>/<content hash>/`,
/// a path no file of the plugin can name in advance.
pub const INSTALLED_PLUGINS: &str = "~/.factory/plugins/cache";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_agree() {
        assert_eq!(PLUGIN_ROOT, format!("${{{CLAUDE_ROOT_VAR}}}"));
        assert_eq!(DROID_PLUGIN_ROOT, format!("${{{DROID_ROOT_VAR}}}"));
        assert_eq!(MANIFEST_PATH, format!("{MANIFEST_DIR}/plugin.json"));
        assert_eq!(MARKETPLACE_PATH, format!("{MANIFEST_DIR}/marketplace.json"));
    }
}
