//! What OpenAI Codex CLI reads, in one place: the writer, the validator and
//! the importer all take these names from here.

/// [`MANIFEST_DIR`] as a literal, for the `concat!` of rule texts that are
/// `&'static str` (a `const` cannot be spliced into one).
macro_rules! manifest_dir {
    () => {
        ".codex-plugin"
    };
}
pub(crate) use manifest_dir;

/// The folder that marks a Codex plugin; it holds only the manifest.
pub const MANIFEST_DIR: &str = manifest_dir!();
/// The plugin manifest: [`MANIFEST_DIR`] joined with `plugin.json`.
pub const MANIFEST_PATH: &str = concat!(manifest_dir!(), "/plugin.json");
/// The marketplace file Codex reads at a repository root. An entry's
/// `source` is a `./` path or `{"source": "local", "path": "./..."}` inside
/// the marketplace root (codex 0.171: "local plugin source path must start
/// with `./`", "must stay within the marketplace root"), or a remote `url`,
/// `git-subdir`, `npm` or `github` source.
pub const MARKETPLACE_PATH: &str = ".agents/plugins/marketplace.json";
/// An entry's `policy`: `installation` (`NOT_AVAILABLE`, `AVAILABLE`,
/// `INSTALLED_BY_DEFAULT`: how the listing offers the plugin) and
/// `authentication` (`ON_INSTALL`, `ON_USE`: when the plugin asks the user
/// to sign in to its service), beside the entry's `category`. OpenAI's
/// collection (github.com/openai/plugins at 3fdeeb49,
/// `.agents/plugins/marketplace.json`) gives every entry both, 177
/// `ON_INSTALL` and 3 `ON_USE`; the codex 0.171 binary holds the two
/// authentication values as the enum it parses, and its `plugin add --json`
/// reports the entry's as `authPolicy` (cli/tests/real_codex.rs). The authentication policy
/// is the plugin's own need, so a build carries it from the source's entry.
pub const MARKETPLACE_POLICY: [(&str, &[&str]); 2] = [
    ("installation", &["NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"]),
    ("authentication", &["ON_INSTALL", "ON_USE"]),
];

/// The app connectors file the manifest's `apps` field names (`"apps":
/// "./.app.json"` in every plugin of OpenAI's collection, github.com/openai/plugins
/// at 3fdeeb49; its plugin-creator spec: "`apps` (`string`): App manifest path
/// for plugin integrations"). It holds `{"apps": {"<name>": {"id":
/// "asdk_app_..." | "connector_..."}}}` (153 of its 154 files; one adds
/// `capabilities`): no endpoint, no command. An app is a ChatGPT connector:
/// Codex 0.171 parses the file as `PluginAppConfig` ("failed to parse plugin
/// app config"), serves the connector's tools through its hosted `codex_apps`
/// MCP server at chatgpt.com/backend-api once the user signs in with ChatGPT,
/// and lets a prompt call one as `[$app-name](app://{connector_id})` (binary
/// strings). No other runtime has app connectors.
pub const APPS_FILE: &str = crate::canonical::APPS_FILE;
/// How the manifest names [`APPS_FILE`].
pub const APPS_FIELD: &str = "./.app.json";

/// The variable Codex exports to plugin hooks as the installed plugin's
/// folder (beside a `CLAUDE_PLUGIN_ROOT` copy, codex-rs/hooks discovery.rs).
pub const PLUGIN_ROOT_VAR: &str = "PLUGIN_ROOT";
/// The variable Codex exports to plugin hooks as the plugin's data folder.
pub const PLUGIN_DATA_VAR: &str = "PLUGIN_DATA";

/// One event Codex runs.
pub struct HookEvent {
    pub name: &'static str,
    /// Whether the canonical (Claude) dialect has the event too: only those
    /// are written from a source; the others exist in Codex alone.
    pub canonical: bool,
}

const fn event(name: &'static str, canonical: bool) -> HookEvent {
    HookEvent { name, canonical }
}

/// Codex 0.171's events (binary strings, checked with the app-server's
/// `hooks/list`; `PreModelRequest` appears beside the managed-hook strings
/// and is accepted rather than refused). Any other event is ignored by Codex
/// without a word.
pub const HOOK_EVENTS: [HookEvent; 13] = [
    event("PreToolUse", true),
    event("PermissionRequest", true),
    event("PostToolUse", true),
    event("PreCompact", true),
    event("PostCompact", true),
    event("SessionStart", true),
    event("SessionEnd", true),
    event("UserPromptSubmit", true),
    event("SubagentStart", true),
    event("SubagentStop", true),
    event("Stop", true),
    event("Interrupt", false),
    event("PreModelRequest", false),
];

/// Events whose handlers Codex gives at most this many seconds, clamping a
/// longer `timeout` with a warning (`clamping SessionEnd hook timeout to
/// 3s`, the app-server's `hooks/list`, Codex 0.171): the session is ending.
pub const HOOK_TIMEOUT_CAPS: [(&str, u64); 1] = [("SessionEnd", 3)];

/// The names of [`HOOK_EVENTS`].
pub const HOOK_EVENT_NAMES: [&str; 13] = {
    let mut names = [""; 13];
    let mut i = 0;
    while i < names.len() {
        names[i] = HOOK_EVENTS[i].name;
        i += 1;
    }
    names
};

/// Hook handler `type`s, each with the string fields it requires.
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 3] =
    [("command", &["command"]), ("prompt", &["prompt"]), ("agent", &["prompt"])];

/// Whether a canonical hook event of this name is one Codex runs.
pub fn runs_canonical_event(name: &str) -> bool {
    HOOK_EVENTS.iter().any(|event| event.canonical && event.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::claude_code;

    #[test]
    fn paths_are_the_folder_joined_with_the_file_name() {
        assert_eq!(MANIFEST_PATH, format!("{MANIFEST_DIR}/plugin.json"));
    }

    #[test]
    fn canonical_events_are_the_ones_claude_code_has() {
        for event in &HOOK_EVENTS {
            assert_eq!(
                event.canonical,
                claude_code::facts::HOOK_EVENTS.contains(&event.name),
                "{}",
                event.name
            );
        }
    }
}
